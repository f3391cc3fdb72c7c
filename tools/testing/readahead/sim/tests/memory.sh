# SPDX-License-Identifier: GPL-2.0
#
# memory.sh - the simulator's tests: memory pressure, a memory cgroup, the half-cached file, mmap readers.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- memory pressure: 64 MB of cache, read_ahead_kb=4096, 32 and 128
# sequential streams on 4 disks (windows of 8 MB each, nominally) ----
# Bounds ours holds: application >= 0.50 of the disks' limit and at most
# 1% of the pages read ahead evicted unread with 32 streams; >= 0.40 and
# at most 10% with 128.  Pristine 6.1's figures are printed beside.
pressure() { # name jobs size bound_fraction bound_unused
	"$SIM" --define BS=64k --define SIZE="$3" "$SC/pressure.disks" \
		"$SC/$2" > "$TMP/$1.out"
	for impl in ours pristine; do
		echo "     $impl: app_fraction=$(field "$TMP/$1.out" $impl app_fraction) disk_fraction=$(field "$TMP/$1.out" $impl fraction) read_ahead=$(field "$TMP/$1.out" $impl read_ahead) evicted_unused=$(field "$TMP/$1.out" $impl evicted_unused) unused_fraction=$(field "$TMP/$1.out" $impl unused_fraction)"
	done
	check "pressure: $1: ours keeps >= $4 of the limit, <= $5 of read-ahead pages evicted unused, within memory" \
		awk -v a="$(field "$TMP/$1.out" ours app_fraction)" \
		    -v u="$(field "$TMP/$1.out" ours unused_fraction)" \
		    -v ok="$(sect "$TMP/$1.out" ours | grep -c '^Checks: .*: ok$')" \
		    'BEGIN { exit !(a >= '"$4"' && u <= '"$5"' && ok == 1) }'
	# Pristine 6.12's windows of 8 MB: at press32 it delivers 0.587 of the
	# limit, with a quarter of what it reads evicted unused.
	check "pressure: $1: ours delivers at least 99% of pristine 6.12 and wastes less" \
		awk -v a="$(field "$TMP/$1.out" ours app_fraction)" \
		    -v b="$(field "$TMP/$1.out" pristine app_fraction)" \
		    -v u="$(field "$TMP/$1.out" ours unused_fraction)" \
		    -v v="$(field "$TMP/$1.out" pristine unused_fraction)" \
		    'BEGIN { exit !(a >= 0.99 * b && u < v) }'
}
pressure press32 pressure.fio 64m 0.50 0.01
sect "$TMP/press32.out" ours > "$TMP/press32.ours.txt"
# A read the reader waits for is never refused: when every page at the
# LRU's old end is under I/O it goes over memory (overcommit).  Ours'
# windows take at most 1/128 of memory each, pristine 6.12's 8 MB.
sect "$TMP/press32.out" pristine > "$TMP/press32.pristine.txt"
overcommit() { sed -n 's/^Page cache: .*overcommit=\([0-9]*\)$/\1/p' "$1"; }
check "pressure: press32: ours goes over memory less often than pristine 6.12 ($(overcommit "$TMP/press32.ours.txt") against $(overcommit "$TMP/press32.pristine.txt") allocations)" \
	test "$(overcommit "$TMP/press32.ours.txt")" -lt \
	     "$(overcommit "$TMP/press32.pristine.txt")"
pressure press128 pressure128.fio 16m 0.40 0.10

# ---- a memory cgroup: the same streams on a 4 GB machine, in a cgroup of
# 64 MB (memory.max) ----
# Ours bounds its windows by the cgroup's limit as by a machine's memory:
# its runs are those of the 64 MB machine, page for page; pristine 6.12
# sizes windows by read_ahead_kb alone.
memcg() { # name jobs size: against the pressure run of that name
	"$SIM" --define BS=64k --define SIZE="$3" "$SC/memcg.disks" \
		"$SC/$2" > "$TMP/memcg-$1.out"
	check "memory cgroup: $1: ours reads as on a machine of the cgroup's size" \
		test "$(grep '^summary: impl=ours ' "$TMP/memcg-$1.out")" = \
		     "$(grep '^summary: impl=ours ' "$TMP/$1.out")"
	check "memory cgroup: $1: ours delivers more than pristine 6.12 ($(field "$TMP/memcg-$1.out" ours app_mbps) against $(field "$TMP/memcg-$1.out" pristine app_mbps) MB/s) and reads less than 1.1 times what it uses ($(field "$TMP/memcg-$1.out" ours disk_mbps) MB/s from the disks)" \
		awk -v a="$(field "$TMP/memcg-$1.out" ours app_mbps)" \
		    -v b="$(field "$TMP/memcg-$1.out" pristine app_mbps)" \
		    -v d="$(field "$TMP/memcg-$1.out" ours disk_mbps)" \
		    'BEGIN { exit !(a > b && d < 1.1 * a) }'
}
memcg press32 pressure.fio 64m
memcg press128 pressure128.fio 16m

# ---- the 2014 trap: a half-cached file reads faster than the disk ----
trap_run() { # name size cached invalidate
	"$SIM" --define SIZE="$2" --define CACHED="$3" --define INV="$4" \
		"$SC/single.disks" "$SC/trap.fio" > "$TMP/$1.out"
	for impl in ours pristine; do
		echo "     $impl: app_mbps=$(field "$TMP/$1.out" $impl app_mbps) limit_mbps=$(field "$TMP/$1.out" $impl limit_mbps) app_fraction=$(field "$TMP/$1.out" $impl app_fraction)"
	done
}
trap_run cold 256m 128m 1
check "trap: cold read (invalidate=1 drops the cached half): never above the limit, no warning" \
	sh -c "awk -v a=$(field "$TMP/cold.out" ours app_fraction) \
		   -v b=$(field "$TMP/cold.out" pristine app_fraction) \
		   -v c=$(field "$TMP/cold.out" ours distinct_fraction) \
		   -v d=$(field "$TMP/cold.out" pristine distinct_fraction) \
		   'BEGIN { exit !(a <= 1.0 && b <= 1.0 && c <= 1.0 && d <= 1.0) }' && \
	       ! grep -q WARNING $TMP/cold.out"
trap_run half 256m 128m 0
check "trap: half-cached file (invalidate=0): application above the limit, flagged" \
	sh -c "awk -v a=$(field "$TMP/half.out" ours app_fraction) \
		   -v b=$(field "$TMP/half.out" pristine app_fraction) \
		   'BEGIN { exit !(a > 1.0 && b > 1.0) }' && \
	       test \$(grep -c '^  WARNING: the readers got more distinct data than the disks can stream' $TMP/half.out) = 2"
# core.sh's seq4k run, when this area runs alone.
[ -s "$TMP/seq4k.out" ] ||
	run seq4k jbod13.disks jbod13-seq.fio BS=4k SIZE=32m
check "trap: no warning for readers sharing files (jbod13: aggregate above the limit, distinct data below)" \
	sh -c "awk -v a=$(field "$TMP/seq4k.out" ours app_fraction) \
		   -v c=$(field "$TMP/seq4k.out" ours distinct_fraction) \
		   'BEGIN { exit !(a > 1.0 && c <= 1.0) }' && \
	       ! grep -q WARNING $TMP/seq4k.out"

# ---- MADV_SEQUENTIAL mmap readers that start mid-file: each fault that
# misses continues a stream (6.12 reads the window at each miss alone) ----
run seqhint random.disks mmap-hint-offset.fio
check "mmap MADV_SEQUENTIAL from mid-file: ours 59.2 MB/s in 508 KB requests, pristine 6.12 41.5 in 256 KB" \
	test "$(field "$TMP/seqhint.out" ours app_mbps) $(field "$TMP/seqhint.out" ours req_kb) $(field "$TMP/seqhint.out" pristine app_mbps) $(field "$TMP/seqhint.out" pristine req_kb)" = "59.2 508.0 41.5 256.0"

# ---- mmap without hints over a file four times memory (LKP's
# case-mmap-pread-rand and case-mmap-pread-seq shapes): random faults
# back off to the page alone, a sequential reader keeps its windows ----
disk_mb() { # file impl: megabytes read from the disks
	sect "$1" "$2" | awk '$1 == "from" && $2 == "disks" { print $5 }' |
		tr -d '('
}
run mmaprand random.disks mmap-rand.fio
rand_read="$(disk_mb "$TMP/mmaprand.out" ours) $(disk_mb "$TMP/mmaprand.out" pristine)"
echo "# mmap-rand: MB read from the disk for 268.4 MB touched, ours and pristine 6.12: $rand_read"
check "mmap random 4 KB faults, no hint: ours reads 291.9 MB for 268.4 MB touched (1.09 times; at most 1.5), pristine 6.12 6056.7 MB (22.6 times)" \
	test "$rand_read" = "291.9 6056.7"
run mmapseq random.disks mmap-seq.fio
check "mmap sequential 4 KB faults, no hint: ours streams as pristine 6.12 does (98.4 MB/s, one major fault)" \
	test "$(field "$TMP/mmapseq.out" ours app_mbps) $(field "$TMP/mmapseq.out" ours major_faults) $(field "$TMP/mmapseq.out" pristine app_mbps)" = "98.4 1 98.4"
