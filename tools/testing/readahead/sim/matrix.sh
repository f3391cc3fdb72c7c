#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The performance matrix: pristine 6.12 and ours, side by side in one
# ra_sim run each, on the 2009 reports' shapes (13 disks of one
# partition, 7 disks of two; four files per partition, 10 readers per
# disk) with 6.1's block defaults (no queue plug, max_sectors_kb 1280),
# for every I/O scheduler (none, mq-deadline, bfq, and 2.6.30's cfq),
# read(2) and mmap at 4, 64 and 128 KB, on 1, 2 and 8 CPUs.  One line
# per scenario: both fractions of the disks' streaming limit, ours over
# pristine, requests per disk and their mean size, duplicate and
# all-cached readahead calls, pages read from disk twice.
#
#   OUT=<build dir> [SIZE=256m] [ELEVATORS=...] [CPUS=...]
#       [FIO_MAIN=MS[:FORK_US]] [SEEDS="1 2 3 4 5"] ./matrix.sh
#
# SEEDS (default 1) runs every scenario once per seed (ra_sim --seed:
# the disks' rotational positions and the CPU scheduler's draws).  One
# seed is one sample of those: under BFQ a row's ratio moves by up to a
# quarter between seeds 1-5 (../REPORT, section 2).  With several seeds
# each line is the median run, the one whose ratio is the median (ties
# in SEEDS order; of an even count, the lower middle one), and a last
# column gives the ratios' lowest..highest.  A run that fails stops the
# matrix (exit 1, ra_sim's output kept beside the run's file).
#
# FIO_MAIN runs fio's main process before the jobs (fio_main_ms and
# fio_fork_us, sim/fiomain.c; default: none, the jobs start at once).
# The QEMU guest's blktraces give 500:2000 for its runs; on the 2009
# machines fio's start is not measured, and the BFQ rows depend on it
# (../REPORT, section 2).
#
# As many runs at a time as the machine has CPUs (scripts/fanout.sh).
# Same inputs, same table (build/sim/matrix/table).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/sim}
SIZE=${SIZE:-256m}
ELEVATORS=${ELEVATORS:-noop mq-deadline bfq cfq}
CPUS=${CPUS:-1 2 8}
SHAPES=${SHAPES:-report13 report7}
ROWS=${ROWS:-sync-4k sync-64k sync-128k mmap-4k mmap-64k mmap-128k}
FIO_MAIN=${FIO_MAIN:-}
SEEDS=${SEEDS:-1}
SIM=$OUT/ra_sim
SC=$HERE/scenarios
D=$OUT/matrix

one() { # shape elevator cpus row seed
	engine=${4%-*}
	bs=${4#*-}
	m=$D/$1-$2-$3.disks
	f=$D/$1-$2-$3-$4.seed$5
	if ! "$SIM" --seed "$5" --define BS="$bs" --define SIZE="$SIZE" \
		--define ENGINE="$engine" --json "$f" "$m" "$SC/$1.fio" \
		> "$f.out" 2>&1; then
		echo "matrix.sh: ra_sim failed on $1 $2 $3 CPUs $4 seed $5 (its output: $f.out)" >&2
		exit 1
	fi
	# The run's record: ours' and pristine's summaries, a JSON object
	# each (ra_sim --json).
	cat "$f.ours" "$f.pristine" > "$f"
	rm -f "$f.ours" "$f.pristine"
	rm -f "$f.out"
}
if [ "${1:-}" = --one ]; then
	shift
	one "$@"
	exit
fi

nseeds=0
for n in $SEEDS; do
	case $n in
	*[!0-9]*) ;;
	?*) [ ${#n} -gt 19 ] || { nseeds=$((nseeds + 1)); continue; } ;;
	esac
	echo "matrix.sh: SEEDS: '$n' is not a seed (allowed: 0 to 9999999999999999999)" >&2
	exit 2
done
[ "$nseeds" -gt 0 ] || { echo "matrix.sh: SEEDS: no seed given (allowed: seeds 0 to 9999999999999999999)" >&2; exit 2; }
# The [system] lines FIO_MAIN adds (none without it).
case $FIO_MAIN in
'') fio_lines= ;;
*:*) fio_lines="\\nfio_main_ms=${FIO_MAIN%%:*}\\nfio_fork_us=${FIO_MAIN#*:}" ;;
*) fio_lines="\\nfio_main_ms=$FIO_MAIN" ;;
esac
rm -rf "$D"
mkdir -p "$D"
for s in $SHAPES; do
	for e in $ELEVATORS; do
		for c in $CPUS; do
			sed -e "s/^elevator=cfq\$/elevator=$e/" \
			    -e "s/^cpus=8\$/cpus=$c/" \
			    -e 's/^plug_ms=3$/plug_ms=0/' \
			    -e 's/^max_sectors_kb=512$/max_sectors_kb=1280/' \
			    -e "s/^\[system\]\$/&$fio_lines/" \
			    "$SC/$s.disks" > "$D/$s-$e-$c.disks"
		done
	done
done
for s in $SHAPES; do
	for e in $ELEVATORS; do
		for c in $CPUS; do
			for r in $ROWS; do
				for n in $SEEDS; do
					echo "--one $s $e $c $r $n"
				done
			done
		done
	done
done | "$HERE/../scripts/fanout.sh" "$0"

# The table, from every run's record (two JSON objects, ours' and
# pristine's): for each scenario (one input line: shape elevator cpus
# row), the run whose ratio is the median over the seeds, and with several
# seeds the lowest..highest ratio; printed, and written as one JSON object
# a row to table.jsonl (what perf.sh reads).
seeds_note=
[ "$nseeds" -gt 1 ] &&
	seeds_note="; seeds $SEEDS, each line the median run, range = the ratios' lowest..highest"
for s in $SHAPES; do
	for e in $ELEVATORS; do
		for c in $CPUS; do
			for r in $ROWS; do
				echo "$s $e $c $r"
			done
		done
	done
done | awk -v dir="$D" -v seeds="$SEEDS" -v note="$seeds_note" -v size="$SIZE" "$(cat "$HERE/../scripts/json.awk" "$HERE/../scripts/median.awk")"'
# run(file): the members of its records in o[] (ours) and p[].
function run(f,    line, k) {
	split("", o); split("", p)
	while ((getline line < f) > 0) {
		jparse(line, rec)
		for (k in rec) {
			if (rec["impl"] == "ours")
				o[k] = rec[k]
			else if (rec["impl"] == "pristine")
				p[k] = rec[k]
		}
	}
	close(f)
	if (!("fraction" in o) || !("fraction" in p)) {
		print "matrix.sh: " f ": no summary of both ours and pristine" | "cat 1>&2"
		exit 1
	}
}
function ratio() { return p["fraction"] > 0 ? o["fraction"] / p["fraction"] : 0 }
function pair(k) { return o[k] "/" p[k] }
BEGIN {
	ns = split(seeds, seed, " ")
	print "Matrix: ours and pristine 6.12 in the simulator, files of " size "; frac = disk MB/s over the disks\047 streaming limit; ratio = ours/pristine; o/p = ours/pristine" note
	printf "%-9s %-11s %4s %-10s %7s %7s %6s %11s %11s %11s %13s %11s%s\n", "shape", "elevator", "cpus", "row", "ours", "pristine", "ratio", "reqs/disk", "req_KB", "dup_calls", "all_cached", "read_twice", (ns > 1 ? " range" : "")
}
{
	base = dir "/" $1 "-" $2 "-" $3 "-" $4
	# Insertion sort of the seeds by ratio (ties: in SEEDS order).
	for (i = 1; i <= ns; i++) {
		run(base ".seed" seed[i])
		r = sprintf("%.3f", ratio())
		for (j = i; j > 1 && r + 0 < rs[j - 1] + 0; j--) {
			rs[j] = rs[j - 1]
			fs[j] = fs[j - 1]
		}
		rs[j] = r
		fs[j] = base ".seed" seed[i]
	}
	run(fs[median_pick(ns)])
	printf "%-9s %-11s %4s %-10s %7s %7s %6.3f %11s %11s %11s %13s %11s", $1, $2, $3, $4, o["fraction"], p["fraction"], ratio(), pair("reqs_per_disk"), pair("req_kb"), pair("dup_calls"), pair("all_cached"), pair("read_twice")
	if (ns > 1)
		printf " %s..%s", rs[1], rs[ns]
	printf "\n"
	printf "{\"shape\": \"%s\", \"elevator\": \"%s\", \"cpus\": %s, \"row\": \"%s\", \"seed\": %s, \"ours\": %s, \"pristine\": %s, \"ratio\": %.3f, \"lo\": %s, \"hi\": %s}\n", $1, $2, $3, $4, o["seed"], o["fraction"], p["fraction"], ratio(), rs[1], rs[ns] > (dir "/table.jsonl")
}' > "$D/table"
cat "$D/table"
awk 'NR > 2 { n++; if ($7 < 1) lose++; if ($7 > 1) win++ }
     END { printf "matrix: %d scenarios; ours above pristine in %d, below in %d\n", n, win, lose }' "$D/table"
