# SPDX-License-Identifier: GPL-2.0
#
# blkq.sh - the simulator's tests: the schedulers inside ra_sim, a throttled disk, queue_depth and nr_requests.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- the schedulers inside ra_sim: same seed, same output; and CFQ's
# idling shows where readers share files (jbod13 shape, 8 CPUs) ----
for e in cfq mq-deadline bfq; do
	sed -e "s/^elevator=cfq\$/elevator=$e/" "$SC/report13.disks" > "$TMP/r13$e.disks"
	"$SIM" --define BS=4k --define SIZE=16m --define ENGINE=sync \
		"$TMP/r13$e.disks" "$SC/report13.fio" | grep -v '^engine:' > "$TMP/r13$e.a"
	"$SIM" --define BS=4k --define SIZE=16m --define ENGINE=sync \
		"$TMP/r13$e.disks" "$SC/report13.fio" | grep -v '^engine:' > "$TMP/r13$e.b"
	check "$e in ra_sim: deterministic, checks hold" \
		sh -c "cmp -s $TMP/r13$e.a $TMP/r13$e.b && test \$(grep -c '^Checks: .*: ok\$' $TMP/r13$e.a) = 2"
done
check "cfq idles, mq-deadline never does, bfq merges interleaved readers' queues" \
	sh -c "test $(field "$TMP/r13cfq.a" ours idles) -gt 0 && test $(field "$TMP/r13mq-deadline.a" ours idles) = 0 && test $(field "$TMP/r13bfq.a" ours qmerges) -gt 0"

# ---- a throttled virtual disk (iops=, as the QEMU bench's virtio disks:
# 8 MB/s and 50 IOPS): a request takes max(bytes / 8e6, 20 ms).  256 KB
# windows (fadvise_hint doubles read_ahead_kb) are bandwidth-bound:
# 128 x 32.768 ms = 4194 ms; 128 KB windows are IOPS-bound: 4, 8 and 16
# pages, then 256 windows of 32, 259 x 20 ms = 5180 ms. ----
printf '[system]\nmemory=1g\nseed=1\n\n[disk d0]\npartitions=0\nmount=/mnt/%%d\nrate_mbps=8\niops=50\nelevator=noop\n' > "$TMP/thr.disks"
printf '[global]\nrw=read\nbs=128k\nsize=32m\nioengine=psync\n\n[a]\nfilename=/mnt/d0/f0\n' > "$TMP/thr1.fio"
printf '[global]\nrw=read\nbs=4k\nsize=32m\nioengine=psync\nfadvise_hint=0\n\n[a]\nfilename=/mnt/d0/f0\n' > "$TMP/thr2.fio"
"$SIM" --impl ours "$TMP/thr.disks" "$TMP/thr1.fio" > "$TMP/thr1.out"
"$SIM" --impl ours "$TMP/thr.disks" "$TMP/thr2.fio" > "$TMP/thr2.out"
check "throttled disk: bandwidth-bound 256 KB requests, 128 in 4194 ms" \
	test "$(field "$TMP/thr1.out" ours reqs_per_disk) $(field "$TMP/thr1.out" ours elapsed_ms)" = "128 4194"
check "throttled disk: IOPS-bound 128 KB requests, 259 in 5180 ms (0.810 of the bps limit)" \
	test "$(field "$TMP/thr2.out" ours reqs_per_disk) $(field "$TMP/thr2.out" ours elapsed_ms) $(field "$TMP/thr2.out" ours fraction)" = "259 5180 0.810"
printf '[global]\nrw=randread\nbs=4k\nsize=32m\nio_size=512k\nioengine=psync\n\n[a]\nfilename=/mnt/d0/f0\n' > "$TMP/ios.fio"
"$SIM" --impl ours "$TMP/thr.disks" "$TMP/ios.fio" > "$TMP/ios.out"
check "io_size: a random reader stops after 512 KB of its 32 MB (128 reads of 20 ms: 2560 ms)" \
	test "$(field "$TMP/ios.out" ours reqs_per_disk) $(field "$TMP/ios.out" ours elapsed_ms)" = "128 2560"

# ---- queue_depth and nr_requests in ra_sim.  Their defaults are the
# disks of before: a spindle takes 1 request, a throttled disk 128, no
# cap; saying so changes nothing but the report's "queue" line. ----
for v in "spindle:queue_depth=1 nr_requests=0" "throttled:queue_depth=128"; do
	kind=${v%%:*}
	if [ "$kind" = spindle ]; then
		printf '[system]\nmemory=64m\nseed=1\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\nelevator=bfq\n' > "$TMP/qd0.disks"
	else
		sed 's/^elevator=noop$/elevator=bfq/' "$TMP/thr.disks" \
			> "$TMP/qd0.disks"
	fi
	{ cat "$TMP/qd0.disks"; for kv in ${v#*:}; do echo "$kv"; done; } > "$TMP/qd1.disks"
	dev=$(sed -n 's/^\[disk \(.*\)\]$/\1/p' "$TMP/qd0.disks")
	printf '[global]\nrw=read\nbs=4k\nsize=8m\nioengine=psync\nnumjobs=2\n\n[a]\nfilename=/mnt/%s/a\n\n[b]\nfilename=/mnt/%s/b\n' "$dev" "$dev" > "$TMP/qd.fio"
	"$SIM" "$TMP/qd0.disks" "$TMP/qd.fio" | grep -v '^engine:' > "$TMP/qd0.out"
	"$SIM" "$TMP/qd1.disks" "$TMP/qd.fio" | grep -v '^engine:' > "$TMP/qd1.out"
	check "queue: $kind disk, ${v#*:} is the default: the same report but for its queue line" \
		sh -c "grep -v '^  queue ' $TMP/qd1.out | cmp -s - $TMP/qd0.out && \
		       test \$(grep -c '^  queue $dev: ' $TMP/qd1.out) = 2 && \
		       ! grep -q '^  queue ' $TMP/qd0.out"
done
# The bench's spindle, 12 readers of 4 files, nr_requests=4 and 4 (or 1)
# requests on the disk (BFQ with 1: it idles and merges no more than 6.1
# would, so with 2 on the disk its 4 requests are never all taken; with
# two readers a file, ours leaves each stream to one process, and BFQ
# never has 4 to allocate: three a file make it wait).  From the
# blktrace: never more than queue_depth dispatched and not completed,
# nor nr_requests allocated (G) and not
# completed, and both reached; completions in the order of dispatch;
# every bio that got its request (G) after its Q got it at a completion,
# and the report counts them (tag_waits).
SPD="capacity=8g rpm=2000 seek_ms=22.5 track_ms=2.5 rate_mbps=20 overhead_us=100 cache_kb=0"
printf '[global]\nrw=read\nbs=4k\nsize=4m\nioengine=psync\nnumjobs=3\n\n[a]\nfilename=/mnt/sda/a\n[b]\nfilename=/mnt/sda/b\n[c]\nfilename=/mnt/sda/c\n[d]\nfilename=/mnt/sda/d\n' > "$TMP/qs.fio"
for v in "mq-deadline 4 4" "bfq 1 4"; do
	# shellcheck disable=SC2086
	set -- $v
	e=$1 qd=$2 nr=$3
	{
		printf '[system]\nmemory=256m\nseed=1\ncpus=2\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\n'
		for kv in $SPD; do echo "$kv"; done
		printf 'elevator=%s\nqueue_depth=%s\nnr_requests=%s\n' "$e" "$qd" "$nr"
	} > "$TMP/qs-$e.disks"
	"$SIM" --impl ours --blktrace "$TMP/qs-$e" "$TMP/qs-$e.disks" \
		"$TMP/qs.fio" > "$TMP/qs-$e.out"
	waits=$(grep '^  queue sda: ' "$TMP/qs-$e.out" | tr ' ' '\n' | sed -n 's/^tag_waits=//p')
	got=$("$OUT/blkt_dump" "$TMP/qs-$e/ours/sda.blktrace.0" | awk '
		$3 == "Q" { q[$5] = $2 }
		$3 == "G" { if (++alloc > maxa) maxa = alloc
			if ($2 > q[$5]) { nw++; wt[nw] = $2 } }
		$3 == "D" { if (++busy > maxb) maxb = busy; d[++nd] = $5 }
		$3 == "C" { busy--; alloc--; c[++nc] = $5; ct[$2] = 1 }
		END {
			for (i = 1; i <= nd; i++) if (d[i] != c[i]) order = "bad"
			for (i = 1; i <= nw; i++) if (!(wt[i] in ct)) atc = "bad"
			printf "on_disk=%d allocated=%d order=%s waits=%d at_completion=%s\n",
				maxb, maxa, order ? order : "ok", nw, atc ? atc : "ok" }')
	echo "     $e: $got (report: tag_waits=$waits)"
	check "queue: spindle, $e, queue_depth=$qd nr_requests=$nr: $qd on the disk and $nr allocated at most (both reached), served in the order sent, waits granted at completions and counted" \
		test "$got" = "on_disk=$qd allocated=$nr order=ok waits=$waits at_completion=ok"
	check "queue: spindle, $e: waits happened (tag_waits > 0)" test "${waits:-0}" -gt 0
done
# A request goes to the hardware queue of the CPU its bio was submitted
# on (blk_mq_map_queue() of the submitting CPU): two readers (pids 1000
# and 1001) sharing one CPU use its queue alone, so one request at a time
# reaches the disk; with cpus=0 (no CPU numbered) task pid mod 2 stands
# for the CPU, and both queues send one each.
printf '[global]\nrw=read\nbs=4k\nsize=4m\nioengine=psync\n\n[a]\nfilename=/mnt/sda/a\n[b]\nfilename=/mnt/sda/b\n' > "$TMP/hc.fio"
for v in "1 1" "0 2"; do
	# shellcheck disable=SC2086
	set -- $v
	printf '[system]\nmemory=256m\nseed=1\ncpus=%s\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\nelevator=noop\nqueue_depth=1\nhw_queues=2\n' "$1" > "$TMP/hc$1.disks"
	"$SIM" --impl ours "$TMP/hc$1.disks" "$TMP/hc.fio" > "$TMP/hc$1.out"
	got=$(grep '^  queue sda: ' "$TMP/hc$1.out" | tr ' ' '\n' | sed -n 's/^max_on_disk=//p')
	check "queue: hw_queues=2 queue_depth=1, two readers, cpus=$1: at most $2 on the disk (the submitting CPU's queue)" \
		test "$got" = "$2"
done
for e in mq-deadline bfq cfq; do
	sed "s/^elevator=.*/elevator=$e/; s/^queue_depth=.*/queue_depth=4\nhw_queues=2/" \
		"$TMP/qs-bfq.disks" > "$TMP/qa.disks"
	check "asan: queue: $e, queue_depth=4 nr_requests=4 hw_queues=2, checks hold (both)" \
		sh -c "timeout 120 $ASAN $TMP/qa.disks $TMP/qs.fio > $TMP/qa.out 2>&1 && \
		       test \$(grep -c '^Checks: .*: ok\$' $TMP/qa.out) = 2 && \
		       grep -q '^  queue sda: queue_depth=4 nr_requests=4 hw_queues=2 ' $TMP/qa.out"
done
"$SIM" --impl ours "$TMP/qs-bfq.disks" "$TMP/qs.fio" | grep -v '^engine:' > "$TMP/qs2.out"
check "queue: determinism: the same run again, the same report" \
	sh -c "grep -v '^engine:\|^  blktrace ' $TMP/qs-bfq.out | cmp -s - $TMP/qs2.out"
