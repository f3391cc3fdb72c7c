#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The regression replay: the seeds' two machines with the 2.6.30 and
# 2.6.31-rc1 models, pristine 6.1 and ours, in the simulator, and the
# table the 2009 thread would have wanted.
#
#   OUT=<build dir> [SIZE=1g] [JITTER_US=20] ./replay.sh
#
# Runs (two at a time), each with --trace:
#   jbod13 read(2) at 4k, 64k, 128k: 13 disks x 1 partition x 4 files,
#       10 readers per disk (sim/scenarios/jbod13-seq.fio);
#   jbod7 mmap at 4k: 7 disks x 2 partitions x 4 files, 10 readers per
#       disk (sim/scenarios/jbod7-mmap.fio);
# each on two machines: "lockstep" (the scenario's .disks file as it is:
# readers woken together run in the order they slept, through cached
# pages at the same pace) and "jitter" (the same plus jitter_us: each
# wake-up and each operation waits up to JITTER_US more for a CPU).
# Files are SIZE each (1g: the seeds' shape).  Same inputs, same table.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/replay}
SIZE=${SIZE:-1g}
JITTER_US=${JITTER_US:-20}
SIM=$OUT/ra_sim_replay
SC=$HERE/../sim/scenarios
D=$OUT/run
MODELS="2.6.30 2.6.31-rc1 ours pristine"
MAX_PAGES=64	# read_ahead_kb=128 doubled by POSIX_FADV_SEQUENTIAL (fio)
# label machine jobs bs model
jobs_list() {
	for v in lockstep jitter; do
		for bs in 4k 64k 128k; do
			for m in $MODELS; do
				echo "jbod13-$bs-$v jbod13-$v.disks jbod13-seq.fio $bs $m"
			done
		done
		for m in $MODELS; do
			echo "jbod7mmap-4k-$v jbod7-$v.disks jbod7-mmap.fio 4k $m"
		done
	done
}

run_one() { # label machine jobs bs model
	"$SIM" --impl "$5" --define BS="$4" --define SIZE="$SIZE" \
		--trace "$D/$1" "$D/$2" "$SC/$3" > "$D/$1.$5.txt"
	# Statistics of the trace lines, then keep only the 4k traces.
	awk -v max="$MAX_PAGES" -f "$HERE/tracestat.awk" "$D/$1.$5" \
		> "$D/$1.$5.stat"
	case $1 in
	*-4k-*) ;;
	*) rm -f "$D/$1.$5" ;;
	esac
}

if [ "${1:-}" = "--one" ]; then
	shift
	run_one "$@"
	exit
fi

rm -rf "$D"
mkdir -p "$D"

cp "$SC/jbod13.disks" "$D/jbod13-lockstep.disks"
cp "$SC/jbod7.disks" "$D/jbod7-lockstep.disks"
for m in jbod13 jbod7; do
	sed "s/^seed=1\$/seed=1\njitter_us=$JITTER_US/" "$SC/$m.disks" \
		> "$D/$m-jitter.disks"
	grep -q "^jitter_us=$JITTER_US\$" "$D/$m-jitter.disks"
done

start=$(date +%s)
jobs_list | xargs -P 2 -L 1 "$0" --one
end=$(date +%s)

field() { # label model key
	grep '^summary:' "$D/$1.$2.txt" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

ratio() { # a b
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", (b > 0) ? a / b : 0 }'
}

table() { # variant
	v=$1
	echo
	echo "== machine: $v$( [ "$v" = jitter ] && echo " (jitter_us=$JITTER_US)"), files of $SIZE, seed 1"
	printf '%-15s %-11s %9s %9s %8s %9s %7s %9s %8s %9s\n' scenario model \
		app_MB/s disk_MB/s fraction reqs/disk req_KB seeks/dsk elapsed \
		maj_flt
	for s in jbod13-4k jbod13-64k jbod13-128k jbod7mmap-4k; do
		l=$s-$v
		disks=13
		[ "$s" = jbod7mmap-4k ] && disks=7
		for m in $MODELS; do
			printf '%-15s %-11s %9s %9s %8s %9s %7s %9s %7.1fs %9s\n' \
				"$s" "$m" "$(field "$l" "$m" app_mbps)" \
				"$(field "$l" "$m" disk_mbps)" \
				"$(field "$l" "$m" fraction)" \
				"$(field "$l" "$m" reqs_per_disk)" \
				"$(field "$l" "$m" req_kb)" \
				"$(( $(field "$l" "$m" seeks) / disks ))" \
				"$(echo "$(field "$l" "$m" elapsed_ms)" | awk '{ print $1 / 1000 }')" \
				"$(field "$l" "$m" major_faults)"
		done
		printf '%-15s %-11s %9s %9s   (2.6.31-rc1 / 2.6.30)\n' "$s" ratio \
			"$(ratio "$(field "$l" 2.6.31-rc1 app_mbps)" "$(field "$l" 2.6.30 app_mbps)")" \
			"$(ratio "$(field "$l" 2.6.31-rc1 disk_mbps)" "$(field "$l" 2.6.30 disk_mbps)")"
	done
	echo
	echo "Readahead trace statistics ($v): decisions per pattern; all_cached: windows that submitted nothing; dup_win: windows (file, start) issued before; over_max: windows above $MAX_PAGES pages"
	printf '%-15s %-11s %8s %8s %7s %8s %7s %7s %7s %7s %7s %8s %7s %8s\n' \
		scenario model calls initial0 initial subseq marker context \
		random around fadvise all_cachd dup_win over_max
	for s in jbod13-4k jbod13-64k jbod13-128k jbod7mmap-4k; do
		for m in $MODELS; do
			printf '%-15s %-11s %s\n' "$s" "$m" \
				"$(cat "$D/$s-$v.$m.stat")"
		done
	done
	for s in jbod13-4k jbod7mmap-4k; do
		echo
		echo "First divergence, 2.6.30 vs 2.6.31-rc1, $s ($v): the first readahead decision that differs"
		awk -f "$HERE/diverge.awk" "$D/$s-$v.2.6.30" \
			"$D/$s-$v.2.6.31-rc1" | sed 's/^/  /'
		# The merge itself: 2.6.31-rc1's first window above max, and
		# what 2.6.30 decided for the same reader and request.
		big=$(awk -v max="$MAX_PAGES" '
			match($0, /ra=[0-9]+\+[0-9]+/) {
				split(substr($0, RSTART + 3, RLENGTH - 3), w, "+")
				if (w[2] + 0 > max + 0) { print; exit }
			}' "$D/$s-$v.2.6.31-rc1")
		if [ -n "$big" ]; then
			echo "  first window above max in 2.6.31-rc1, and 2.6.30 on the same reader and request:"
			echo "    2.6.31-rc1: $big"
			key=$(echo "$big" | sed 's/^readahead-[a-z0-9]*(//; s/, ra=.*//')
			same=$(grep -F -m1 "($key, ra=" "$D/$s-$v.2.6.30" || true)
			echo "    2.6.30:     ${same:-(no decision for that reader and request)}"
		fi
	done
}

echo "Regression replay: the seeds' machines in the simulator (ra_sim_replay), models 2.6.30 and 2.6.31-rc1 (tools/testing/readahead/replay/), pristine 6.1, ours."
echo "Throughput in MB = 10^6 bytes; fraction = disk MB/s over the disks' streaming rate (the limit); pristine's trace patterns are inferred by the simulator."
table lockstep
table jitter
echo
echo "replay: $(jobs_list | wc -l) runs; reports and 4k traces in $D"
echo "replay: host time $((end - start)) s" >&2
