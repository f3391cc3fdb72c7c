#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# How the replay's 2.6.31-rc1/2.6.30 ratios move when one machine
# parameter moves: each variation below changes one line of the row's
# machine file (sim/scenarios/reportN.disks) within what a 2009 machine
# could have had, and the table gives the ratio per row.  This is the
# measurement behind the rows the replay does not reproduce: what was
# varied, and which mechanisms it rules out.
#
#   OUT=<build dir> [SIZE=256m] ./sweep.sh [ROW...]
#
# ROW is MACHINE-ENGINE-BS as for bisect.sh; by default the four rows
# that the reports bisected or that must not regress.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/replay}
SIZE=${SIZE:-256m}
SIM=$OUT/ra_sim_replay
SC=$HERE/../sim/scenarios
D=$OUT/sweep

# name, then the sed expression applied to the machine file.
variations() {
	cat <<'EOF'
base	s/^x//
cpus=2	s/^cpus=8$/cpus=2/
cpus=4	s/^cpus=8$/cpus=4/
cpus=16	s/^cpus=8$/cpus=16/
cpus=0(one each)	s/^cpus=8$/cpus=0/
jitter_us=20	s/^cpus=8$/cpus=8\njitter_us=20/
syscall_us=5	s/^cpus=8$/cpus=8\nsyscall_us=5/
syscall_us=20	s/^cpus=8$/cpus=8\nsyscall_us=20/
copy_mbps=500	s/^cpus=8$/cpus=8\ncopy_mbps=500/
slice_idle=0	s/^elevator=cfq$/elevator=cfq\nslice_idle=0/
slice_idle=4	s/^elevator=cfq$/elevator=cfq\nslice_idle=4/
slice_idle=16	s/^elevator=cfq$/elevator=cfq\nslice_idle=16/
slice_sync=40	s/^elevator=cfq$/elevator=cfq\nslice_sync=40/
slice_sync=200	s/^elevator=cfq$/elevator=cfq\nslice_sync=200/
elevator=noop	s/^elevator=cfq$/elevator=noop/
elevator=sort	s/^elevator=cfq$/elevator=sort/
no drive cache	s/^cache_kb=.*/cache_kb=0/
plug_ms=0	s/^plug_ms=3$/plug_ms=0/
max_sectors_kb=128	s/^max_sectors_kb=512$/max_sectors_kb=128/
seek x1.5	-
EOF
}

[ $# -gt 0 ] || set -- report13-sync-4k report13-sync-64k report13-mmap-4k \
	report7-mmap-4k

one() { # vindex row model
	machine=${2%%-*}
	rest=${2#*-}
	engine=${rest%%-*}
	bs=${rest#*-}
	"$SIM" --impl "$3" --define BS="$bs" --define SIZE="$SIZE" \
		--define ENGINE="$engine" --json "$D/$1-$2-$3.rec" \
		"$D/$1-$machine.disks" "$SC/$machine.fio" > /dev/null || :
	awk "$(cat "$HERE/../scripts/json.awk")"'{ jparse($0, r); print r["app_mbps"] }' \
		"$D/$1-$2-$3.rec.$3" > "$D/$1-$2-$3" 2>/dev/null || :
}
if [ "${1:-}" = --one ]; then
	shift
	one "$@"
	exit
fi

rm -rf "$D"
mkdir -p "$D"

i=0
variations | while IFS='	' read -r name expr; do
	for row in "$@"; do
		machine=${row%%-*}
		# seek x1.5: scale the machine's seek times (one variation).
		case $name in
		"seek x1.5")
			awk -F= '/^(seek_ms|track_ms)=/ { printf "%s=%.2f\n", $1, $2 * 1.5; next } { print }' \
				"$SC/$machine.disks" ;;
		*)
			sed "$expr" "$SC/$machine.disks" ;;
		esac > "$D/$i-$machine.disks"
	done
	echo "$i	$name"
	i=$((i + 1))
done > "$D/names"

while IFS='	' read -r i name; do
	for row in "$@"; do
		echo "--one $i $row 2.6.30"
		echo "--one $i $row 2.6.31-rc1"
	done
done < "$D/names" | "$HERE/../scripts/fanout.sh" "$0"

echo "2.6.31-rc1 / 2.6.30, fio bandwidth, files of $SIZE; one parameter of the row's machine changed at a time"
printf '%-18s' variation
for row in "$@"; do
	printf ' %18s' "$row"
done
echo
while IFS='	' read -r i name; do
	printf '%-18s' "$name"
	for row in "$@"; do
		printf ' %18s' "$(awk -v a="$(cat "$D/$i-$row-2.6.31-rc1")" \
			-v b="$(cat "$D/$i-$row-2.6.30")" \
			'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')"
	done
	echo
done < "$D/names"
