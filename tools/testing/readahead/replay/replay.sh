#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The regression replay: the three machines of the July 2009 reports
# (sim/scenarios/report{13,12,7}.disks: CFQ, 8 CPUs, 2.6.30's block
# defaults), each with read(2) at 4k, 64k, 128k and mmap at 4k, run with
# the 2.6.30 and 2.6.31-rc1 models, pristine 6.12 and ours, and the table
# the reports give, with PASS/FAIL per row against the reports' figures,
# the first bad step of the model chain (bisect.sh) where a report names
# one, and the mechanism: the scheduler's idling, seeks, the first
# decision where the two models part.
#
#   OUT=<build dir> [SIZE=1g] ./replay.sh
#
# Runs two at a time; files are SIZE each (1g: the reports' shape).
# Same inputs, same table.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/replay}
SIZE=${SIZE:-1g}
SIM=$OUT/ra_sim_replay
SC=$HERE/../sim/scenarios
D=$OUT/run
MODELS="2.6.30 2.6.31-rc1 ours pristine"
MAX_PAGES=64	# read_ahead_kb=128 doubled by POSIX_FADV_SEQUENTIAL (fio)
MACHINES="report13 report12 report7"
ROWS="sync-4k sync-64k sync-128k mmap-4k"

run_one() { # machine row model
	engine=${2%-*}
	bs=${2#*-}
	l=$1-$2.$3
	"$SIM" --impl "$3" --define BS="$bs" --define SIZE="$SIZE" \
		--define ENGINE="$engine" --trace "$D/$1-$2" --json "$D/$1-$2.rec" \
		"$SC/$1.disks" "$SC/$1.fio" > "$D/$l.txt"
	awk -v max="$MAX_PAGES" -f "$HERE/tracestat.awk" "$D/$l" \
		> "$D/$l.stat"
	# Keep the two old models' 4k traces: the divergence is read there.
	case $2-$3 in
	*-4k-2.6.30|*-4k-2.6.31-rc1|*-4k-51daa88e|*-4k-ef00e08e) ;;
	*) rm -f "$D/$l" ;;
	esac
}

case ${1:-} in
--one)
	shift
	run_one "$@"
	exit
	;;
--bisect)
	SIZE=$SIZE OUT=$OUT "$HERE/bisect.sh" "$2" > "$D/$2.bisect"
	exit
	;;
esac

# The reports' figures and the targets: machine row report-ratio
# lo hi first-bad ("-": none named).
targets() {
	cat <<'EOF'
report13 sync-4k 0.65 0 0.80 51daa88e
report13 sync-64k 1.00 0.93 1.07 -
report13 sync-128k 1.00 0.93 1.07 -
report13 mmap-4k 0.60 0 0.75 51daa88e
report12 sync-4k 1.00 0.93 1.07 -
report12 sync-64k 1.00 0.93 1.07 -
report12 sync-128k 1.00 0.93 1.07 -
report7 sync-4k 1.00 0.93 1.07 -
report7 sync-64k 1.00 0.93 1.07 -
report7 sync-128k 1.00 0.93 1.07 -
report7 mmap-4k 0.70 0 0.80 ef00e08e
EOF
}

rm -rf "$D"
mkdir -p "$D"
start=$(date +%s)
{
	for m in $MACHINES; do
		for r in $ROWS; do
			for x in $MODELS; do
				echo "--one $m $r $x"
			done
		done
	done
	targets | awk '$6 != "-" { print "--bisect " $1 "-" $2 }'
} | "$HERE/../scripts/fanout.sh" "$0"
end=$(date +%s)

field() { # label model key: a member of the run's record (ra_sim --json)
	awk -v key="$3" "$(cat "$HERE/../scripts/json.awk")"'
		{ jparse($0, r); print r[key] }' "$D/$1.rec.$2"
}
ratio() { # a b
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }'
}
firstbad() { # label
	f=$D/$1.bisect
	[ -f "$f" ] || { echo "-"; return; }
	sed -n 's/^first bad step: \([0-9]*\) \([^ ]*\) .*/\2/p; s/^first bad step: none$/none/p' "$f"
}

echo "Regression replay: the July 2009 reports' machines in the simulator, models 2.6.30 and 2.6.31-rc1 (replay/chain.c), pristine 6.12 and ours; files of $SIZE."
echo "fio bandwidth in MB/s (10^6 bytes); report = the ratio the reports give; first bad = the bisect over the model chain (bisect.sh), then the report's."
echo
printf '%-9s %-10s %9s %10s %7s %6s %-14s %-20s %s\n' machine row 2.6.30 \
	2.6.31-rc1 ratio report target "first bad (report)" verdict
targets | while read -r m r rep lo hi fb; do
	l=$m-$r
	a=$(field "$l" 2.6.30 app_mbps)
	b=$(field "$l" 2.6.31-rc1 app_mbps)
	x=$(ratio "$b" "$a")
	got=$(firstbad "$l")
	if [ "$lo" = 0 ]; then
		want="<= $hi"
	else
		want="$lo-$hi"
	fi
	ok=$(awk -v x="$x" -v lo="$lo" -v hi="$hi" \
		'BEGIN { print (x >= lo && x <= hi) ? "yes" : "no" }')
	[ "$fb" = - ] || [ "$got" = "$fb" ] || ok=no
	v=FAIL
	[ "$ok" = yes ] && v=PASS
	printf '%-9s %-10s %9s %10s %7s %6s %-14s %-20s %s\n' "$m" "$r" \
		"$a" "$b" "$x" "$rep" "$want" "$got ($fb)" "$v"
done | tee "$D/table"
echo "replay: $(grep -c 'PASS$' "$D/table") PASS, $(grep -c 'FAIL$' "$D/table") FAIL"

echo
echo "All models on the same machines (fio MB/s; ratios to 2.6.30); what the disks did"
printf '%-9s %-10s %-11s %9s %7s %9s %7s %9s %8s %9s %9s %8s\n' machine row \
	model app_MB/s ratio disk_MB/s frac seeks/dsk req_KB idle_ms \
	preempts maj_flt
for m in $MACHINES; do
	for r in $ROWS; do
		l=$m-$r
		disks=$(sed -n 's/^ra_sim: .* disks=\([0-9]*\) .*/\1/p' \
			"$D/$l.2.6.30.txt")
		for x in $MODELS; do
			printf '%-9s %-10s %-11s %9s %7s %9s %7s %9s %8s %9s %9s %8s\n' \
				"$m" "$r" "$x" "$(field "$l" "$x" app_mbps)" \
				"$(ratio "$(field "$l" "$x" app_mbps)" \
					 "$(field "$l" 2.6.30 app_mbps)")" \
				"$(field "$l" "$x" disk_mbps)" \
				"$(field "$l" "$x" fraction)" \
				"$(( $(field "$l" "$x" seeks) / disks ))" \
				"$(field "$l" "$x" req_kb)" \
				"$(field "$l" "$x" idle_ms)" \
				"$(field "$l" "$x" preempts)" \
				"$(field "$l" "$x" major_faults)"
		done
	done
done

echo
echo "Readahead trace statistics: decisions per pattern; all_cachd: windows that submitted nothing; dup_win: windows (file, start) issued before; over_max: windows above $MAX_PAGES pages"
printf '%-18s %-11s %8s %8s %7s %8s %7s %7s %7s %7s %7s %8s %7s %8s\n' \
	scenario model calls initial0 initial subseq marker context \
	random around fadvise all_cachd dup_win over_max
for m in $MACHINES; do
	for r in $ROWS; do
		for x in 2.6.30 2.6.31-rc1; do
			printf '%-18s %-11s %s\n' "$m-$r" "$x" \
				"$(cat "$D/$m-$r.$x.stat")"
		done
	done
done

echo
echo "Bisections (bisect.sh, a step is bad below 0.95 of 2.6.30):"
for f in "$D"/*.bisect; do
	sed 's/^/  /' "$f"
done

for l in report13-sync-4k report13-mmap-4k report7-mmap-4k; do
	echo
	echo "First divergence, 2.6.30 vs 2.6.31-rc1, $l: the first readahead decision that differs"
	awk -f "$HERE/diverge.awk" "$D/$l.2.6.30" "$D/$l.2.6.31-rc1" |
		sed 's/^/  /'
done
echo
echo "replay: $(ls "$D"/*.txt | wc -l) runs and $(ls "$D"/*.bisect | wc -l) bisections; reports and 4k traces in $D"
echo "replay: host time $((end - start)) s" >&2
