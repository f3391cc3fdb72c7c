#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# perf.sh - the performance targets of ours against pristine 6.12, each
# measured and judged PASS or FAIL, in one table.
#
# Usage: perf.sh [-s SIZE] [-S SEEDS]
#   SIZE: the files of every scenario (256m); SEEDS: the matrix's seeds,
#   each row judged on its median run and its lowest ("1 ... 15"; see
#   sim/matrix.sh)
# Environment: SIMOUT (build/sim: ra_sim), REPLAYOUT (build/replay:
#   ra_sim_replay, built from the same ours: refused otherwise),
#   CPUOUT (build/bench-cpu), QEMUREC (build/qemu/ab.jsonl), OUT
#   (build/perf: where the runs go), OURS (bench-cpu's ours, by default
#   mm/readahead.c: with a SIMOUT built from another file, name it here
#   too, or the cpu target judges another file than the others).
#
# Targets, all but the last two from the simulator (deterministic: the
# same build gives the same table):
#   matrix       ours/pristine >= 1.00 on every row of sim/matrix.sh (the
#                reports' shapes, none/mq-deadline/bfq/cfq, 1/2/8 CPUs,
#                read(2) and mmap at 4/64/128 KB), the median over SEEDS,
#                and no seed of a row below 0.95
#   shared       N readers of one file get at least 95% of the disk
#                throughput one reader of that file gets (same disk,
#                scheduler and CPUs), N = 2 and 4
#   streams      k streams on one disk (k files, one reader each) reach
#                the seek-amortization bound of their window W,
#                bw * W / (W + bw * t), t the disk's mean access time
#                (seek_ms plus half a rotation), k = 2, 4, 8
#   reread       no page read from disk twice while it was cached, in
#                every run above
#   all-cached   readahead calls that found their whole window cached
#                under 1% of calls, in every run of shared and streams
#   2.6.30       on the reports' machines (sim/scenarios/report*), ours
#                at least the 2.6.30 model on every row
#   cpu          bench-cpu: instructions per page no more than pristine's
#                on every line (cpubench/bench-cpu.sh)
#   qemu         the QEMU bench (make bench): patched/pristine >= 1.00 in
#                disk-side MB/s on every job (medians; fio's MB/s on a
#                job of random reads, report.py's rule), >= 1.10 where
#                pristine's shared job loses more than 10% to its
#                one-reader variant (report.py's summary), judged on the
#                latest records, QEMUREC, when they exist, else "not run"
#                (an hour of runs: not started from here)
# Each target prints its rows that fail (or its worst row) and one verdict
# line; the run ends with "perf: N PASS, M FAIL, K not run".  Exits 1 if
# a target failed.
set -eu

HERE=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$HERE/../../../.." && pwd)
SIMOUT=${SIMOUT:-$TOP/build/sim}
REPLAYOUT=${REPLAYOUT:-$TOP/build/replay}
CPUOUT=${CPUOUT:-$TOP/build/bench-cpu}
QEMUREC=${QEMUREC:-$TOP/build/qemu/ab.jsonl}
OUT=${OUT:-$TOP/build/perf}
SIZE=256m
SEEDS="1 2 3 4 5 6 7 8 9 10 11 12 13 14 15"
SC=$TOP/tools/testing/readahead/sim/scenarios
D=$OUT/runs
S=$OUT/scenarios

# run IMPL-SIM IMPL MACHINE JOBS ROW TAG: one run, its output in $D/TAG.
run() {
	"$1" --impl "$2" --define BS="${5#*-}" --define SIZE="$SIZE" \
		--define ENGINE="${5%-*}" "$3" "$4" > "$D/$6" 2>&1
}
if [ "${PERF_ONE:-}" ]; then
	SIZE=$PERF_ONE
	run "$@"
	exit
fi

while getopts s:S: opt; do
	case $opt in
	s) SIZE=$OPTARG ;;
	S) SEEDS=$OPTARG ;;
	*) echo "usage: $0 [-s SIZE] [-S SEEDS]" >&2; exit 2 ;;
	esac
done
for b in "$SIMOUT/ra_sim" "$REPLAYOUT/ra_sim_replay"; do
	[ -x "$b" ] || { echo "perf: $b not built (make perf builds it)" >&2; exit 2; }
done
# The 2.6.30 rows run ours inside ra_sim_replay: it must have compiled the
# ours SIMOUT's ra_sim did (each build's ours.sha1), or those rows would
# judge another file.
sim_ours=$(cat "$SIMOUT/ours.sha1" 2>/dev/null || echo none)
replay_ours=$(cat "$REPLAYOUT/ours.sha1" 2>/dev/null || echo none)
if [ "$sim_ours" = none ] || [ "$sim_ours" != "$replay_ours" ]; then
	echo "perf: $REPLAYOUT/ra_sim_replay compiled another ours than $SIMOUT/ra_sim (ours.sha1: $replay_ours, $sim_ours): build both with the same OURS= (make -C tools/testing/readahead/replay OURS=... BUILD=...) and name them in SIMOUT and REPLAYOUT" >&2
	exit 2
fi

# ---- one disk of the first report's machine, with 6.1's block defaults ----
rm -rf "$D" "$S"
mkdir -p "$D" "$S"
ELEVATORS="noop mq-deadline bfq cfq"
CPUS="1 8"
disks() { # elevator cpus > MACHINE
	cat <<EOF
[system]
memory=8g
seed=1
cpus=$2
[disk sda]
capacity=300g
rpm=10000
seek_ms=4.7
track_ms=0.4
rate_mbps=100
cache_kb=512
cache_segments=16
iface_mbps=320
partitions=1
max_sectors_kb=1280
read_ahead_kb=128
plug_ms=0
elevator=$1
EOF
}
# The disk's streaming rate (MB/s), mean access time (ms) and the
# largest window (KB: read_ahead_kb doubled by fio's POSIX_FADV_SEQUENTIAL).
BW=100
ACCESS_MS=$(awk 'BEGIN { printf "%.3f", 4.7 + 30000 / 10000 }')
WINDOW_KB=256

jobs_shared() { # readers
	printf '[global]\nrw=read\nbs=${BS}\nsize=${SIZE}\nioengine=${ENGINE}\n'
	printf '[f0]\nfilename=/mnt/sda1/f0\nnumjobs=%s\n' "$1"
}
jobs_streams() { # files
	printf '[global]\nrw=read\nbs=${BS}\nsize=${SIZE}\nioengine=${ENGINE}\n'
	i=0
	while [ "$i" -lt "$1" ]; do
		printf '[f%s]\nfilename=/mnt/sda1/f%s\n' "$i" "$i"
		i=$((i + 1))
	done
}

for e in $ELEVATORS; do
	for c in $CPUS; do
		disks "$e" "$c" > "$S/$e-$c.disks"
	done
done
for n in 1 2 4; do jobs_shared "$n" > "$S/shared-$n.fio"; done
for k in 2 4 8; do jobs_streams "$k" > "$S/streams-$k.fio"; done


ROWS="sync-4k sync-128k mmap-4k"
{
	for e in $ELEVATORS; do
		for c in $CPUS; do
			for r in $ROWS; do
				for n in 1 2 4; do
					echo "$SIMOUT/ra_sim ours $S/$e-$c.disks $S/shared-$n.fio $r shared-$n-$e-$c-$r"
				done
				for k in 2 4 8; do
					echo "$SIMOUT/ra_sim ours $S/$e-$c.disks $S/streams-$k.fio $r streams-$k-$e-$c-$r"
				done
			done
		done
	done
	for m in report13 report12 report7; do
		for r in sync-4k sync-64k sync-128k mmap-4k; do
			for i in ours 2.6.30; do
				echo "$REPLAYOUT/ra_sim_replay $i $SC/$m.disks $SC/$m.fio $r report-$m-$r-$i"
			done
		done
	done
} | PERF_ONE=$SIZE "$HERE/../scripts/fanout.sh" "$0"

# field FILE KEY: KEY's value on the summary line of FILE.
field() {
	sed -n 's/^summary: //p' "$1" | tr ' ' '\n' | sed -n "s/^$2=//p"
}
# below A B: true when the number A is below the number B.
below() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}
# calls FILE: readahead calls, from the "all" row of the calls table.
calls() {
	awk '$1 == "all" && NF == 7 { print $2; exit }' "$1"
}

npass=0 nfail=0 nskip=0
verdict() { # name PASS|FAIL|SKIP what
	case $2 in
	PASS) npass=$((npass + 1)) ;;
	FAIL) nfail=$((nfail + 1)) ;;
	*) nskip=$((nskip + 1)) ;;
	esac
	printf '%-11s %-5s %s\n' "$1" "$2" "$3"
}

echo "== matrix (sim/matrix.sh, files of $SIZE, seeds $SEEDS: the median run)"
OUT=$SIMOUT SIZE=$SIZE SEEDS=$SEEDS "$TOP/tools/testing/readahead/sim/matrix.sh" \
	> "$OUT/matrix.txt"
T=$SIMOUT/matrix/table.jsonl
JSON_AWK=$(cat "$HERE/../scripts/json.awk")
nseeds=$(echo $SEEDS | wc -w)
# A row fails when its median ratio is below 1.00 or, with several seeds,
# one seed's ratio is below 0.95 (the range's low end).  The rows are
# matrix.sh's records (table.jsonl), read by name.
awk -v nseeds="$nseeds" "$JSON_AWK"'
	{ jparse($0, r); lo = nseeds > 1 ? r["lo"] : ""
	  range = nseeds > 1 ? r["lo"] ".." r["hi"] : "" }
	r["ratio"] + 0 < 1 || (lo != "" && lo + 0 < 0.95) { printf "  %-9s %-11s %4s %-10s ours %s pristine %s ratio %s %s\n", r["shape"], r["elevator"], r["cpus"], r["row"], r["ours"], r["pristine"], r["ratio"], range }' "$T" | sort -k10,10n | head -n 12
set -- $(awk -v nseeds="$nseeds" "$JSON_AWK"'
	{ jparse($0, r); n++; lo = nseeds > 1 ? r["lo"] : ""
		if (r["ratio"] + 0 < 1 || (lo != "" && lo + 0 < 0.95)) bad++
		if (min == "" || r["ratio"] + 0 < min + 0) min = r["ratio"]
		if (lo != "" && (low == "" || lo + 0 < low + 0)) low = lo }
	END { print n, bad + 0, min, (low == "" ? "-" : low) }' "$T")
[ "$2" -eq 0 ] && v=PASS || v=FAIL
verdict matrix $v "ours/pristine >= 1.00 (median), no seed < 0.95: $(($1 - $2)) of $1 rows; lowest median $3, lowest seed $4"

echo "== shared: N readers of one file against one reader (ours, disk MB/s)"
printf '  %-12s %4s %-10s %8s %8s %8s %6s\n' elevator cpus row one two four worst
bad=0 rows=0 worst=
for e in $ELEVATORS; do
	for c in $CPUS; do
		for r in $ROWS; do
			one=$(field "$D/shared-1-$e-$c-$r" disk_mbps)
			two=$(field "$D/shared-2-$e-$c-$r" disk_mbps)
			four=$(field "$D/shared-4-$e-$c-$r" disk_mbps)
			w=$(awk -v a="$one" -v b="$two" -v d="$four" 'BEGIN {
				m = (b < d ? b : d); printf "%.3f", m / a }')
			rows=$((rows + 1))
			mark=
			if below "$w" 0.95; then
				bad=$((bad + 1))
				mark=" <"
			fi
			printf '  %-12s %4s %-10s %8s %8s %8s %6s%s\n' \
				"$e" "$c" "$r" "$one" "$two" "$four" "$w" "$mark"
		done
	done
done
[ "$bad" -eq 0 ] && v=PASS || v=FAIL
verdict shared $v "N readers >= 0.95 of one reader: $((rows - bad)) of $rows rows"

echo "== streams: k streams on one disk against bw*W/(W+bw*t) (ours, disk MB/s)"
bound=$(awk -v bw="$BW" -v w="$WINDOW_KB" -v t="$ACCESS_MS" 'BEGIN {
	W = w * 1024 / 1e6; printf "%.1f", bw * W / (W + bw * t / 1000) }')
echo "  bound: bw $BW MB/s, W $WINDOW_KB KB, t $ACCESS_MS ms: $bound MB/s"
printf '  %-12s %4s %-10s %8s %8s %8s\n' elevator cpus row k=2 k=4 k=8
bad=0 rows=0
for e in $ELEVATORS; do
	for c in $CPUS; do
		for r in $ROWS; do
			line=
			for k in 2 4 8; do
				m=$(field "$D/streams-$k-$e-$c-$r" disk_mbps)
				rows=$((rows + 1))
				if below "$m" "$bound"; then
					bad=$((bad + 1))
					m="$m<"
				fi
				line="$line $(printf '%8s' "$m")"
			done
			printf '  %-12s %4s %-10s%s\n' "$e" "$c" "$r" "$line"
		done
	done
done
[ "$bad" -eq 0 ] && v=PASS || v=FAIL
verdict streams $v "at least the bound ($bound MB/s): $((rows - bad)) of $rows rows"

echo "== reread and all-cached calls (ours)"
twice=0 runs=0
for f in "$D"/shared-* "$D"/streams-*; do
	runs=$((runs + 1))
	[ "$(field "$f" read_twice)" = 0 ] || { twice=$((twice + 1)); echo "  read twice: $(basename "$f")"; }
done
# Every seed's run of the matrix, not only the median ones.
set -- "$SIMOUT"/matrix/*.seed*
mruns=$#
mtwice=$(grep -l 'impl=ours .* read_twice=[1-9]' "$@" | wc -l)
[ $((twice + mtwice)) -eq 0 ] && v=PASS || v=FAIL
verdict reread $v "runs with pages read twice: $twice of $runs, matrix runs: $mtwice of $mruns"
worst=0.0000 wname=none over=0
for f in "$D"/shared-* "$D"/streams-*; do
	n=$(calls "$f")
	a=$(field "$f" all_cached)
	p=$(awk -v a="$a" -v n="$n" 'BEGIN { printf "%.4f", n ? a / n : 0 }')
	if below "$worst" "$p"; then
		worst=$p wname=$(basename "$f")
	fi
	below "$p" 0.01 || over=$((over + 1))
done
[ "$over" -eq 0 ] && v=PASS || v=FAIL
verdict all-cached $v "runs at or above 1% of calls: $over of $runs; worst $worst ($wname)"

echo "== 2.6.30: ours against the 2.6.30 model on the reports' machines (disk MB/s)"
bad=0 rows=0
for m in report13 report12 report7; do
	for r in sync-4k sync-64k sync-128k mmap-4k; do
		o=$(field "$D/report-$m-$r-ours" disk_mbps)
		h=$(field "$D/report-$m-$r-2.6.30" disk_mbps)
		q=$(awk -v a="$o" -v b="$h" 'BEGIN { printf "%.3f", a / b }')
		rows=$((rows + 1))
		mark=
		if below "$q" 1; then
			bad=$((bad + 1))
			mark=" <"
		fi
		printf '  %-9s %-10s ours %8s 2.6.30 %8s ratio %s%s\n' \
			"$m" "$r" "$o" "$h" "$q" "$mark"
	done
done
[ "$bad" -eq 0 ] && v=PASS || v=FAIL
verdict 2.6.30 $v "ours >= the 2.6.30 model: $((rows - bad)) of $rows rows"

echo "== cpu (cpubench/bench-cpu.sh)"
"$TOP/tools/testing/readahead/cpubench/bench-cpu.sh" "$CPUOUT" > "$OUT/cpu.txt"
sed 's/^/  /' "$OUT/cpu.txt" | tail -n +1
# Judged on its records: a line passes when ours uses no more
# instructions per page than pristine, in its own code and all in.
set -- $(awk "$JSON_AWK"'
	{ jparse($0, r); n++
	  good += r["ours_excl"] / r["ours_pages"] <= r["pristine_excl"] / r["pristine_pages"] &&
		  r["ours_incl"] / r["ours_pages"] <= r["pristine_incl"] / r["pristine_pages"] }
	END { print good + 0, n + 0 }' "$CPUOUT/records.jsonl" 2>/dev/null)
[ "$#" -eq 2 ] && [ "$2" -gt 0 ] ||
	{ echo "perf: bench-cpu wrote no records ($CPUOUT/records.jsonl)" >&2; exit 2; }
[ "$1" -eq "$2" ] && v=PASS || v=FAIL
verdict cpu $v "ours <= pristine: $1 of $2 lines"

echo "== qemu (make bench: the latest records, $QEMUREC)"
if [ -f "$QEMUREC" ]; then
	# report.py's "judged" records: each job against the QEMU targets,
	# the shared jobs paired with their one-reader variants.
	awk "$JSON_AWK"'
		{ jparse($0, r) }
		r["record"] == "judged" {
			printf "  %-30s %5s %9s %9s %7s >=%-5s %7s%s\n", r["title"],
				r["runs"], r["pristine"], r["patched"], r["ratio"],
				r["target"], r["verdict"],
				r["why"] != "" ? " (" r["why"] ")" : "" }' \
		"$QEMUREC" > "$OUT/qemu.txt"
	cat "$OUT/qemu.txt"
	# A shared job without its one-reader run is judged at 1.00 only.
	set -- $(awk "$JSON_AWK"'
		{ jparse($0, r) }
		r["record"] == "judged" && r["verdict"] != "-" {
			n++; pass += r["verdict"] == "PASS"
			nosolo += r["why"] == "no solo run" }
		END { print pass + 0, n + 0, nosolo + 0 }' "$QEMUREC")
	if [ "$2" -eq 0 ]; then
		verdict qemu SKIP "no job judged in $QEMUREC"
	else
		what="patched/pristine >= 1.00, >= 1.10 where pristine loses >10% to one reader (medians): $1 of $2 jobs"
		if [ "$1" -ne "$2" ]; then
			verdict qemu FAIL "$what"
		elif [ "$3" -gt 0 ]; then
			verdict qemu SKIP "$what; $3 shared job(s) ran without their one-reader variant, so their 1.10 target was not judged"
		else
			verdict qemu PASS "$what"
		fi
	fi
else
	verdict qemu SKIP "not run: no $QEMUREC (make bench)"
fi

echo "perf: $npass PASS, $nfail FAIL, $nskip not run"
[ "$nfail" -eq 0 ]
