#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The performance matrix: pristine 6.1 and ours, side by side in one
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
#       [FIO_MAIN=MS[:FORK_US]] ./matrix.sh
#
# FIO_MAIN runs fio's main process before the jobs (fio_main_ms and
# fio_fork_us, sim/fiomain.c; default: none, the jobs start at once).
# The QEMU guest's blktraces give 500:2000 for its runs; on the 2009
# machines fio's start is not measured, and the BFQ rows depend on it
# (../README, section 4).
#
# Two runs at a time.  Same inputs, same table (build/sim/matrix/table).
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/sim}
SIZE=${SIZE:-256m}
ELEVATORS=${ELEVATORS:-noop mq-deadline bfq cfq}
CPUS=${CPUS:-1 2 8}
SHAPES=${SHAPES:-report13 report7}
ROWS=${ROWS:-sync-4k sync-64k sync-128k mmap-4k mmap-64k mmap-128k}
FIO_MAIN=${FIO_MAIN:-}
SIM=$OUT/ra_sim
SC=$HERE/scenarios
D=$OUT/matrix

one() { # shape elevator cpus row
	engine=${4%-*}
	bs=${4#*-}
	m=$D/$1-$2-$3.disks
	"$SIM" --define BS="$bs" --define SIZE="$SIZE" \
		--define ENGINE="$engine" "$m" "$SC/$1.fio" |
		grep '^summary:' > "$D/$1-$2-$3-$4"
}
if [ "${1:-}" = --one ]; then
	shift
	one "$@"
	exit
fi

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
				echo "--one $s $e $c $r"
			done
		done
	done
done | xargs -P 2 -L 1 "$0"

field() { # file impl key
	grep "impl=$2 " "$1" | tr ' ' '\n' | sed -n "s/^$3=//p"
}
{
	echo "Matrix: ours and pristine 6.1 in the simulator, files of $SIZE; frac = disk MB/s over the disks' streaming limit; ratio = ours/pristine; o/p = ours/pristine"
	printf '%-9s %-11s %4s %-10s %7s %7s %6s %11s %11s %11s %13s %11s\n' \
		shape elevator cpus row ours pristine ratio reqs/disk \
		req_KB dup_calls all_cached read_twice
	for s in $SHAPES; do
		for e in $ELEVATORS; do
			for c in $CPUS; do
				for r in $ROWS; do
					f=$D/$s-$e-$c-$r
					o=$(field "$f" ours fraction)
					p=$(field "$f" pristine fraction)
					printf '%-9s %-11s %4s %-10s %7s %7s %6s %11s %11s %11s %13s %11s\n' \
						"$s" "$e" "$c" "$r" "$o" "$p" \
						"$(awk -v a="$o" -v b="$p" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')" \
						"$(field "$f" ours reqs_per_disk)/$(field "$f" pristine reqs_per_disk)" \
						"$(field "$f" ours req_kb)/$(field "$f" pristine req_kb)" \
						"$(field "$f" ours dup_calls)/$(field "$f" pristine dup_calls)" \
						"$(field "$f" ours all_cached)/$(field "$f" pristine all_cached)" \
						"$(field "$f" ours read_twice)/$(field "$f" pristine read_twice)"
				done
			done
		done
	done
} > "$D/table"
cat "$D/table"
awk 'NR > 2 { n++; if ($7 < 1) lose++; if ($7 > 1) win++ }
     END { printf "matrix: %d scenarios; ours above pristine in %d, below in %d\n", n, win, lose }' "$D/table"
