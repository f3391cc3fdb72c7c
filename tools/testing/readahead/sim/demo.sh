#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The simulator's demo: the 2009 JBOD at full shape (13 disks, four 1 GB
# files per disk, 10 readers per disk), 4 KB read(2), ours against the
# pristine 6.12 and 6.1 readahead (the three run in parallel), then the
# same at 64 KB and 128 KB and the 7-disk mmap machine; then the 13-disk
# machine as the July 2009 report describes it (8 CPUs, 2.6.30's CFQ)
# and with today's schedulers (mq-deadline, bfq) at 4 KB.  Prints one table and
# plots the 4 KB runs' disk throughput over time to $OUT/demo/jbod13.png.
#
#   OUT=<build dir> ./demo.sh
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/sim}
SC=$HERE/scenarios
D=$OUT/demo
mkdir -p "$D"
D=$(cd "$D" && pwd)
start=$(date +%s)

# scenario label, machine (in scenarios/ or a path), jobs, bs
scen() {
	case $2 in /*) m=$2 ;; *) m=$SC/$2 ;; esac
	"$OUT/ra_sim" --impl all --define BS="$4" --define SIZE=1g \
		${5:+--timeline "$D/$1"} "$m" "$SC/$3" > "$D/$1.txt"
}
# The same machine where readers wait up to 20 us for a CPU at each
# wake-up and operation (seeded), so that they overtake each other as
# 130 readers on 8 CPUs did; see tools/testing/readahead/REPORT, section 2.
sed 's/^seed=1$/seed=1\njitter_us=20/' "$SC/jbod13.disks" \
	> "$D/jbod13-jitter.disks"
grep -q '^jitter_us=20$' "$D/jbod13-jitter.disks"

scen jbod13-4k jbod13.disks jbod13-seq.fio 4k timeline
scen jbod13-64k jbod13.disks jbod13-seq.fio 64k
scen jbod13-128k jbod13.disks jbod13-seq.fio 128k
scen jbod13-4k-jit "$D/jbod13-jitter.disks" jbod13-seq.fio 4k timeline
scen jbod7-mmap-4k jbod7.disks jbod7-mmap.fio 4k
# The report's machine (report13.disks: 8 CPUs, CFQ) and today's schedulers.
for e in cfq mq-deadline bfq; do
	sed "s/^elevator=cfq\$/elevator=$e/" "$SC/report13.disks" \
		> "$D/report13-$e.disks"
	"$OUT/ra_sim" --impl all --define BS=4k --define SIZE=1g \
		--define ENGINE=sync \
		"$D/report13-$e.disks" "$SC/report13.fio" > "$D/r13-4k-$e.txt"
done

printf '%-18s %-13s %9s %9s %9s %10s %9s %9s %10s\n' scenario readahead \
	app_MB/s disk_MB/s fraction reqs/disk req_KB dup_calls all_cached
for s in jbod13-4k jbod13-64k jbod13-128k jbod13-4k-jit jbod7-mmap-4k \
	 r13-4k-cfq r13-4k-mq-deadline r13-4k-bfq; do
	grep '^summary:' "$D/$s.txt" | tr ' ' '\n' | awk -v s="$s" -F= '
		/^impl=/ { if (n++) out(); delete v }
		{ v[$1] = $2 }
		END { out() }
		function out() {
			if (v["impl"] == "pristine")
				v["impl"] = "pristine-6.12"
			printf "%-18s %-13s %9s %9s %9s %10s %9s %9s %10s\n", s,
			       v["impl"], v["app_mbps"], v["disk_mbps"],
			       v["fraction"], v["reqs_per_disk"], v["req_kb"],
			       v["dup_calls"], v["all_cached"]
		}'
done
limit=$(grep -m1 '^summary:' "$D/jbod13-4k.txt" | tr ' ' '\n' |
	sed -n 's/^limit_mbps=//p')
for s in jbod13-4k jbod13-64k jbod13-128k jbod13-4k-jit jbod7-mmap-4k; do
	grep '^engine:' "$D/$s.txt" | sed "s/^engine:/engine $s:/"
done

if command -v gnuplot > /dev/null; then
	gnuplot <<PLOT
set terminal png size 900,500
set output "$D/jbod13.png"
set title "13 disks x 4 files x 10 readers/disk, 4 KB read(2): disk throughput"
set xlabel "simulated time (s)"
set ylabel "MB/s from disks"
set yrange [0:*]
set key bottom left
plot "$D/jbod13-4k-jit.ours" using 1:2 with lines lw 2 \
	title "ours, readers with CPU jitter", \
     "$D/jbod13-4k-jit.pristine" using 1:2 with lines lw 2 \
	title "pristine 6.12, readers with CPU jitter", \
     "$D/jbod13-4k-jit.pristine-6.1" using 1:2 with lines lw 2 \
	title "pristine 6.1, readers with CPU jitter", \
     "$D/jbod13-4k.ours" using 1:2 with lines \
	title "ours, readers in lockstep", \
     $limit with lines dashtype 2 title "limit (streaming rate)"
PLOT
	echo "plot: $D/jbod13.png"
else
	echo "plot: skipped (no gnuplot)"
fi
echo "reports: $D/*.txt; demo took $(( $(date +%s) - start )) s"
