# SPDX-License-Identifier: GPL-2.0
#
# elevator.sh - the simulator's tests: the I/O schedulers alone, a disk taking several requests.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- the I/O schedulers, alone (tests/elv_test.c: every request takes
# 1000 us), on crafted request sequences "AT_US PID SECTOR NSECT": the
# exact dispatch order, times and idling ----
elv() { # name elevator-and-tunables requests expected
	printf "$3" | "$OUT/elv_test" $2 > "$TMP/elv.out" 2>&1
	printf "$4\n" > "$TMP/elv.want"
	if cmp -s "$TMP/elv.out" "$TMP/elv.want"; then
		ok "elevator: $1"
	else
		fail "elevator: $1"
		diff "$TMP/elv.out" "$TMP/elv.want" | sed 's/^/     /'
	fi
}
D='dispatch pid='
C='complete pid='
elv "noop: arrival order" noop '0 1 1000 8\n0 2 100 8\n0 3 5000 8\n0 1 200 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}2 sector=100 nsect=8\n2000 ${C}2 sector=100\n2000 ${D}3 sector=5000 nsect=8\n3000 ${C}3 sector=5000\n3000 ${D}1 sector=200 nsect=8\n4000 ${C}1 sector=200\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "sort: one way up from the head, then from the lowest" sort '0 1 1000 8\n0 2 100 8\n0 3 5000 8\n0 1 200 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}3 sector=5000 nsect=8\n2000 ${C}3 sector=5000\n2000 ${D}2 sector=100 nsect=8\n3000 ${C}2 sector=100\n3000 ${D}1 sector=200 nsect=8\n4000 ${C}1 sector=200\nidles=0 idle_us=0 preempts=0 qmerges=0"
# CFQ idles 8 ms on the process it served, even with another waiting: the
# process's next request at 2 ms goes first; the other waits until its idle
# runs out at 11 ms, then its own queue is idled on until 20 ms.
elv "cfq: slice_idle holds the disk for the served process" cfq '0 1 0 8\n100 2 100000 8\n2000 1 8 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n2000 ${D}1 sector=8 nsect=8\n3000 ${C}1 sector=8\n11000 ${D}2 sector=100000 nsect=8\n12000 ${C}2 sector=100000\nidles=3 idle_us=17000 preempts=0 qmerges=0"
elv "cfq: slice_idle=0 serves in turn" "cfq slice_idle=0" '0 1 0 8\n100 2 100000 8\n2000 1 8 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=100000 nsect=8\n2000 ${C}2 sector=100000\n2000 ${D}1 sector=8 nsect=8\n3000 ${C}1 sector=8\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "cfq: a close request of another process preempts the idle" cfq '0 1 0 8\n1500 2 8 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1500 ${D}2 sector=8 nsect=8\n2500 ${C}2 sector=8\nidles=2 idle_us=8500 preempts=1 qmerges=0"
# Pid 2's requests lie beyond pid 1's reach (8192 sectors before it has
# a seek mean): not a close cooperator, so pid 1 idles and pid 2 gets a
# new slice.  (A close pid 2 is served at once: elv_test --check.)
elv "cfq: fifo_expire_sync: a new slice starts with the expired oldest" "cfq fifo_expire_sync=1" '0 1 0 8\n0 2 90000 8\n0 2 10000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}2 sector=90000 nsect=8\n10000 ${C}2 sector=90000\n10000 ${D}2 sector=10000 nsect=8\n11000 ${C}2 sector=10000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
elv "cfq: nothing expired, the nearest to the head first" cfq '0 1 0 8\n0 2 90000 8\n0 2 10000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}2 sector=10000 nsect=8\n10000 ${C}2 sector=10000\n10000 ${D}2 sector=90000 nsect=8\n11000 ${C}2 sector=90000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
# mq-deadline: sector order in batches of fifo_batch; the oldest request
# is looked at only when a batch ends (read_expire 1.5 ms: expired at 2 ms).
elv "mq-deadline: batches in sector order, the expired oldest between them" "mq-deadline fifo_batch=2 read_expire=1.5" '0 1 100 8\n0 2 50 8\n0 3 200 8\n0 4 300 8\n' \
"0 ${D}1 sector=100 nsect=8\n1000 ${C}1 sector=100\n1000 ${D}3 sector=200 nsect=8\n2000 ${C}3 sector=200\n2000 ${D}2 sector=50 nsect=8\n3000 ${C}2 sector=50\n3000 ${D}4 sector=300 nsect=8\n4000 ${C}4 sector=300\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "mq-deadline: nothing expired, the batch goes on up" "mq-deadline fifo_batch=2" '0 1 100 8\n0 2 50 8\n0 3 200 8\n0 4 300 8\n' \
"0 ${D}1 sector=100 nsect=8\n1000 ${C}1 sector=100\n1000 ${D}3 sector=200 nsect=8\n2000 ${C}3 sector=200\n2000 ${D}4 sector=300 nsect=8\n3000 ${C}4 sector=300\n3000 ${D}2 sector=50 nsect=8\n4000 ${C}2 sector=50\nidles=0 idle_us=0 preempts=0 qmerges=0"
# BFQ (6.1's rules, elv-bfq.c).  low_latency=0 first: no weight raising.
# Queue merging (bfq_setup_cooperator()): pid 2's first request, 8
# sectors past where the queue in service (pid 1's) last dispatched, joins
# that queue while another queue (pid 3's) is busy: served next from it,
# no idle before it.  With pid 1's queue the one busy queue, 6.1 looks for
# no cooperator: pid 2 waits out the 8 ms idle on pid 1.
elv "bfq: a request close to the queue in service joins it (another queue busy)" "bfq low_latency=0" '0 1 0 8\n0 3 100000 8\n100 2 16 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=16 nsect=8\n2000 ${C}2 sector=16\n10000 ${D}3 sector=100000 nsect=8\n11000 ${C}3 sector=100000\nidles=2 idle_us=16000 preempts=0 qmerges=1"
elv "bfq: with one busy queue there is no merge" "bfq low_latency=0" '0 1 0 8\n100 2 16 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}2 sector=16 nsect=8\n10000 ${C}2 sector=16\nidles=2 idle_us=16000 preempts=0 qmerges=0"
# The queue whose next request is within 8192 sectors: pid 2's request
# 16 sectors past pid 3's waiting one joins pid 3's queue (served right
# after it); 20000 sectors past, it does not (its own turn, after an idle).
elv "bfq: a request close to a waiting queue's next one joins that queue" "bfq low_latency=0" '0 1 0 8\n0 3 200000 8\n100 2 200016 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}3 sector=200000 nsect=8\n10000 ${C}3 sector=200000\n10000 ${D}2 sector=200016 nsect=8\n11000 ${C}2 sector=200016\nidles=2 idle_us=16000 preempts=0 qmerges=1"
elv "bfq: a far request does not merge" "bfq low_latency=0" '0 1 0 8\n0 3 200000 8\n100 2 220000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}3 sector=200000 nsect=8\n10000 ${C}3 sector=200000\n18000 ${D}2 sector=220000 nsect=8\n19000 ${C}2 sector=220000\nidles=3 idle_us=24000 preempts=0 qmerges=0"
# bfq_too_late_for_merging(): pid 1's queue, busy from 0 with 120
# requests, served for more than 100 ms takes no cooperator: pid 2's
# request (sector 5000, close) at 50 ms joins it and is served in its
# turn (at 120 ms), at 110 ms it does not (its own turn, at 137 ms).
for at in 50000:1:120000 110000:0:137000; do
	{ awk 'BEGIN { for (i = 0; i < 120; i++) printf "0 1 %d 8\n", i * 16 }'
	  echo "0 3 10000000 8"; echo "${at%%:*} 2 5000 8"; } |
		"$OUT/elv_test" bfq low_latency=0 > "$TMP/elvl.out"
	got=$(awk '/pid=2 .*nsect/ { d = $1 } /^idles/ { q = $NF } END { print d, q }' "$TMP/elvl.out")
	m=${at#*:}
	check "elevator: bfq: a queue served 100 ms since it got busy is too late to merge (pid 2 at ${at%%:*} us: qmerges=${m%%:*})" \
		test "$got" = "${at##*:} qmerges=${m%%:*}"
done
# Stable merging (bfq_do_or_sched_stable_merge()): pid 2's queue, created
# with pid 1's, merges with it at its first request 600 ms later however
# far apart, unless idling pays for it: one request every 20 ms (think
# time over slice_idle / 2) merges, one every 1 ms (short think time,
# I/O-bound, sequential) stays alone.
for g in 20000:1 1000:0; do
	{ echo "0 1 0 8"
	  awk -v g="${g%:*}" 'BEGIN { i = 0
		for (t = 0; t <= 640000; t += g) printf "%d 2 %d 8\n", t, 500000 + (i++) * 16 }'; } |
		"$OUT/elv_test" bfq low_latency=0 > "$TMP/elvs.out"
	check "elevator: bfq: stable merge 600 ms after creation unless idling pays (a request every ${g%:*} us: qmerges=${g#*:})" \
		test "$(tail -n 1 "$TMP/elvs.out" | sed 's/.* //')" = "qmerges=${g#*:}"
done
# Splitting: pid 2 joins pid 1's queue (as above), then pid 1's 24 far
# requests make that shared queue seeky; when it next expires it is marked,
# and pid 2's next request (at 60 ms) goes to a new queue of its own, not
# seeky: idled on 8 ms.  Merged stably instead (a request every 20 ms, as
# above), pid 2 stays in the seeky shared queue: idled on 2 ms.  (The
# idle after pid 2's last request: idle_us with it less without it.)
{ printf '0 1 0 8\n0 3 10000000 8\n100 2 16 8\n1500 1 2000000 8\n'
  awk 'BEGIN { for (k = 2; k <= 24; k++) printf "1500 1 %d 8 +\n", (k % 2 ? 2000000 : 4000000) + k * 1000 }'
  printf '60000 2 20000000 8\n'; } > "$TMP/split1.in"
{ echo "0 1 0 8"
  awk 'BEGIN { i = 0; for (t = 0; t <= 620000; t += 20000) printf "%d 2 %d 8\n", t, 500000 + (i++) * 16 }'
  printf '640000 1 2000000 8\n'
  awk 'BEGIN { for (k = 2; k <= 24; k++) printf "640000 1 %d 8 +\n", (k % 2 ? 2000000 : 4000000) + k * 1000 }'
  printf '700000 2 20000000 8\n'; } > "$TMP/split2.in"
for c in split1:8000:"a shared queue gone seeky is split" split2:2000:"a stably merged one is not"; do
	f=$TMP/${c%%:*}.in
	a=$("$OUT/elv_test" bfq low_latency=0 < "$f" | sed -n 's/.*idle_us=\([0-9]*\).*/\1/p')
	b=$(sed '$d' "$f" | "$OUT/elv_test" bfq low_latency=0 | sed -n 's/.*idle_us=\([0-9]*\).*/\1/p')
	w=${c#*:}
	check "elevator: bfq: ${c##*:} (idle after pid 2's last request ${w%%:*} us)" \
		test "$((a - b))" = "${w%%:*}"
done
# Think time: pid 1 asks every 20 ms (its mean gap is over slice_idle / 2
# once trusted): it is not idled on, and pid 2's queue getting busy ends
# its service at once (a preemption); asking every 1 ms it is idled on.
elv "bfq: a long think time is not idled on, and is preempted" "bfq low_latency=0" '0 1 0 8\n20000 1 16 8\n40000 1 32 8\n60000 1 48 8\n80000 1 64 8\n80500 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n20000 ${D}1 sector=16 nsect=8\n21000 ${C}1 sector=16\n40000 ${D}1 sector=32 nsect=8\n41000 ${C}1 sector=32\n60000 ${D}1 sector=48 nsect=8\n61000 ${C}1 sector=48\n80000 ${D}1 sector=64 nsect=8\n81000 ${C}1 sector=64\n81000 ${D}2 sector=100000 nsect=8\n82000 ${C}2 sector=100000\nidles=5 idle_us=40000 preempts=1 qmerges=0"
elv "bfq: a short think time is idled on" "bfq low_latency=0" '0 1 0 8\n1000 1 16 8\n2000 1 32 8\n3000 1 48 8\n4000 1 64 8\n4500 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}1 sector=16 nsect=8\n2000 ${C}1 sector=16\n2000 ${D}1 sector=32 nsect=8\n3000 ${C}1 sector=32\n3000 ${D}1 sector=48 nsect=8\n4000 ${C}1 sector=48\n4000 ${D}1 sector=64 nsect=8\n5000 ${C}1 sector=64\n13000 ${D}2 sector=100000 nsect=8\n14000 ${C}2 sector=100000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
elv "bfq: max_budget ends a queue's turn" "bfq low_latency=0 max_budget=16" '0 1 0 8\n0 1 100 8\n0 1 200 8\n0 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}1 sector=100 nsect=8\n2000 ${C}1 sector=100\n2000 ${D}2 sector=100000 nsect=8\n3000 ${C}2 sector=100000\n11000 ${D}1 sector=200 nsect=8\n12000 ${C}1 sector=200\nidles=2 idle_us=16000 preempts=0 qmerges=0"
# Weight raising (low_latency=1, the default): a new queue is raised, and
# idling does not pay while one is, so pid 2's new queue ends pid 1's
# service (its request next, no merge: one busy queue before it); the
# last one is idled on 20 ms.  Seven queues created together are all
# raised and served in turn; an eighth makes the burst large: no raising
# (each one's ends at its first dispatch), and the last ones are idled on.
elv "bfq: a new (weight-raised) queue preempts the one in service" bfq '0 1 0 8\n100 2 16 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=16 nsect=8\n2000 ${C}2 sector=16\nidles=1 idle_us=20000 preempts=1 qmerges=0"
for n in 7:1:8000 8:3:25000; do
	awk -v n="${n%%:*}" 'BEGIN { for (p = 1; p <= n; p++) printf "0 %d %d 8\n", p, p * 100000
		print "500 1 100008 8" }' | "$OUT/elv_test" bfq > "$TMP/elvb.out"
	got=$(awk '/complete pid=1 sector=100008/ { t = $1 } /^idles/ { i = $1 } END { print t, i }' "$TMP/elvb.out")
	m=${n#*:}
	check "elevator: bfq: ${n%%:*} queues created together: pid 1's second request done at ${n##*:} us, idles=${m%%:*}" \
		test "$got" = "${n##*:} idles=${m%%:*}"
done

# CFQ's close cooperators: elv_test's own exact cases (tests/elv_test.c).
check "elevator: cfq: close cooperators (elv_test --check, 13 cases)" \
	sh -c "\"$OUT/elv_test\" --check > $TMP/elvc.out"

# ---- a disk taking several requests (queue_depth=N: sent at once,
# served one after the other in the order sent, "start=" when the disk
# begins one later than it was sent) and a cap on the requests allocated
# at once (nr_requests=N: a bio that merges nowhere and finds none free
# waits, FIFO, out of reach of merges; tag_waits and their summed wait
# in the last line), through elv_test (1000 us a request) ----
elv "queue_depth=4: four sent at once, served in the order sent; D2C includes the wait behind the ones before" "queue_depth=4 noop" '0 1 0 8\n0 2 1000 8\n0 3 500 8\n0 4 3000 8\n' \
"0 ${D}1 sector=0 nsect=8\n0 ${D}2 sector=1000 nsect=8 start=1000\n0 ${D}3 sector=500 nsect=8 start=2000\n0 ${D}4 sector=3000 nsect=8 start=3000\n1000 ${C}1 sector=0\n2000 ${C}2 sector=1000\n3000 ${C}3 sector=500\n4000 ${C}4 sector=3000\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "nr_requests=2: a third bio that merges nowhere waits, gets its request at the first completion" "nr_requests=2 noop" '0 1 0 8\n0 2 1000 8\n0 3 500 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=8\n2000 ${C}2 sector=1000\n2000 ${D}3 sector=500 nsect=8\n3000 ${C}3 sector=500\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=1 tag_wait_us=1000"
elv "nr_requests=2: a bio behind a waiting one waits too, even contiguous with it; one contiguous with a request merges" "nr_requests=2 noop" '0 1 0 8\n0 2 1000 8\n0 3 500 8\n100 4 508 8\n100 5 1008 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=16\n2000 ${C}2 sector=1000\n2000 ${C}5 sector=1008\n2000 ${D}3 sector=500 nsect=8\n3000 ${C}3 sector=500\n3000 ${D}4 sector=508 nsect=8\n4000 ${C}4 sector=508\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=2 tag_wait_us=2900"
# "+": in one plugged submission with the line before.  Its submitter
# sleeps for a request: the bios after the waiting one follow it and,
# when it wakes, join the request it got if contiguous, else wait again
# (behind pid 3, which came in meanwhile).
elv "nr_requests=1: the bios after a waiting one in its submission join its request, or wait again" "nr_requests=1 noop" '0 1 1000 8\n0 2 0 8\n0 2 8 8 +\n0 2 5000 8 +\n0 2 5008 8 +\n100 3 9000 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}2 sector=0 nsect=16\n2000 ${C}2 sector=0\n2000 ${C}2 sector=8\n2000 ${D}3 sector=9000 nsect=8\n3000 ${C}3 sector=9000\n3000 ${D}2 sector=5000 nsect=16\n4000 ${C}2 sector=5000\n4000 ${C}2 sector=5008\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=3 tag_wait_us=5900"
elv "nr_requests=1: another submitter's bio contiguous with a waiting one gets a request of its own" "nr_requests=1 noop" '0 1 1000 8\n0 2 0 8\n0 3 8 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}2 sector=0 nsect=8\n2000 ${C}2 sector=0\n2000 ${D}3 sector=8 nsect=8\n3000 ${C}3 sector=8\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=2 tag_wait_us=3000"
# hw_queues=N: N hardware queues of queue_depth tags and nr_requests
# each; a request belongs to the queue of its task (pid mod N).  A queue
# with an empty dispatch list takes the scheduler's next request; one
# whose queue has no free tag waits on that queue's list, out of merge
# reach (pid 3's bio, contiguous with pid 2's, merges without it and not
# with it; pid 5's merges into pid 4's, still in the scheduler), and
# reaches the disk first.
elv "hw_queues=0: a bio merges into the request waiting for the disk" "noop" '0 1 0 8\n0 2 1000 8\n100 3 1008 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=16\n2000 ${C}2 sector=1000\n2000 ${C}3 sector=1008\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "hw_queues=1: one request on the dispatch list, out of merge reach; the next still in the scheduler" "hw_queues=1 noop" '0 1 0 8\n0 2 1000 8\n0 4 3000 8\n100 3 1008 8\n100 5 3008 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=8\n2000 ${C}2 sector=1000\n2000 ${D}4 sector=3000 nsect=16\n3000 ${C}4 sector=3000\n3000 ${C}5 sector=3008\n3000 ${D}3 sector=1008 nsect=8\n4000 ${C}3 sector=1008\nidles=0 idle_us=0 preempts=0 qmerges=0"
# Two queues of one tag: pid 4's request (queue 0, like pid 2's) waits
# on queue 0's list while pid 1's (queue 1) goes to the disk; with
# nr_requests=1, pid 4's bio waits for queue 0's request, not queue 1's.
elv "hw_queues=2 queue_depth=1: a request waits for its own queue's tag while the other's is free" "hw_queues=2 queue_depth=1 noop" '0 2 0 8\n0 4 1000 8\n0 1 2000 8\n' \
"0 ${D}2 sector=0 nsect=8\n0 ${D}1 sector=2000 nsect=8 start=1000\n1000 ${C}2 sector=0\n1000 ${D}4 sector=1000 nsect=8 start=2000\n2000 ${C}1 sector=2000\n3000 ${C}4 sector=1000\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "hw_queues=2 nr_requests=1: a bio waits for its own queue's request" "hw_queues=2 queue_depth=1 nr_requests=1 noop" '0 2 0 8\n0 4 1000 8\n0 1 2000 8\n' \
"0 ${D}2 sector=0 nsect=8\n0 ${D}1 sector=2000 nsect=8 start=1000\n1000 ${C}2 sector=0\n1000 ${D}4 sector=1000 nsect=8 start=2000\n2000 ${C}1 sector=2000\n3000 ${C}4 sector=1000\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=1 tag_wait_us=1000"
# The idling schedulers on a deeper disk: a dry queue that would be idled
# on keeps the disk while its requests are on it, the idle starting at
# its last completion; one that would not (slice_idle=0) gives way at once.
for e in "bfq low_latency=0" cfq; do
	elv "${e%% *}, queue_depth=4: a dry queue keeps the disk until its last completion, then idles" "queue_depth=4 $e" '0 1 0 8\n0 1 100 8\n0 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n0 ${D}1 sector=100 nsect=8 start=1000\n1000 ${C}1 sector=0\n2000 ${C}1 sector=100\n10000 ${D}2 sector=100000 nsect=8\n11000 ${C}2 sector=100000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
	elv "${e%% *}, queue_depth=4, slice_idle=0: a dry queue gives way with its requests on the disk" "queue_depth=4 $e slice_idle=0" '0 1 0 8\n0 1 100 8\n0 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n0 ${D}1 sector=100 nsect=8 start=1000\n0 ${D}2 sector=100000 nsect=8 start=2000\n1000 ${C}1 sector=0\n2000 ${C}1 sector=100\n3000 ${C}2 sector=100000\nidles=0 idle_us=0 preempts=0 qmerges=0"
done
# CFQ's quantum (4): with pid 2 waiting, pid 1 has at most 4 on the disk.
elv "cfq, queue_depth=8: the active queue sends at most its quantum (4) while another waits" "queue_depth=8 cfq slice_idle=0" '0 3 10000 8\n0 3 10100 8 +\n0 3 10200 8 +\n0 3 10300 8 +\n0 3 10400 8 +\n0 3 10500 8 +\n0 3 10600 8 +\n0 3 10700 8 +\n100 1 0 8\n100 1 100 8 +\n100 1 200 8 +\n100 1 300 8 +\n100 1 400 8 +\n100 2 100000 8\n' \
"0 ${D}3 sector=10000 nsect=8\n0 ${D}3 sector=10100 nsect=8 start=1000\n0 ${D}3 sector=10200 nsect=8 start=2000\n0 ${D}3 sector=10300 nsect=8 start=3000\n0 ${D}3 sector=10400 nsect=8 start=4000\n0 ${D}3 sector=10500 nsect=8 start=5000\n0 ${D}3 sector=10600 nsect=8 start=6000\n0 ${D}3 sector=10700 nsect=8 start=7000\n1000 ${C}3 sector=10000\n1000 ${D}1 sector=400 nsect=8 start=8000\n2000 ${C}3 sector=10100\n2000 ${D}1 sector=300 nsect=8 start=9000\n3000 ${C}3 sector=10200\n3000 ${D}1 sector=200 nsect=8 start=10000\n4000 ${C}3 sector=10300\n4000 ${D}1 sector=100 nsect=8 start=11000\n5000 ${C}3 sector=10400\n6000 ${C}3 sector=10500\n7000 ${C}3 sector=10600\n8000 ${C}3 sector=10700\n9000 ${C}1 sector=400\n9000 ${D}1 sector=0 nsect=8 start=12000\n9000 ${D}2 sector=100000 nsect=8 start=13000\n10000 ${C}1 sector=300\n11000 ${C}1 sector=200\n12000 ${C}1 sector=100\n13000 ${C}1 sector=0\n14000 ${C}2 sector=100000\nidles=0 idle_us=0 preempts=0 qmerges=0"
# blktrace of the nr_requests=2 case: the waiting bio's G (and I) at the
# first completion, 1 ms after its Q, as 6.1's trace has it after the
# tag wait; btt's Q2G and Q2C see the wait.
printf '0 1 0 8\n0 2 1000 8\n0 3 500 8\n' |
	ELV_TEST_BLKTRACE="$TMP/elvbt" "$OUT/elv_test" nr_requests=2 noop > /dev/null
$OUT/blkt_dump "$TMP/elvbt/elv/sda.blktrace.0" |
	awk '$5 == 500 || $3 == "C" { print $2, $3, $5 }' | tr '\n' ';' > "$TMP/elvbt.got"
check "nr_requests=2, blktrace: the waiting bio's G and I come at the first completion (Q at 0, C of sector 0 and G at 1 ms)" \
	test "$(cat "$TMP/elvbt.got")" = "0 Q 500;1000000 C 0;1000000 G 500;1000000 I 500;2000000 C 1000;2000000 D 500;3000000 C 500;"
if command -v blkparse > /dev/null && command -v btt > /dev/null; then
	blkparse -q -i sda -D "$TMP/elvbt/elv" -d "$TMP/elvbt.bin" -O > /dev/null 2>&1
	(cd "$TMP" && btt -i elvbt.bin > elvbt.btt 2>&1)
	check "nr_requests=2, btt: Q2G 1 ms for one bio of 3 (mean 0.333 ms), Q2C 1, 2 and 3 ms" \
		test "$(awk '$1 == "Q2G" || $1 == "Q2C" { print $1, $3, $4, $5 }' "$TMP/elvbt.btt" | tr '\n' ';')" = "Q2G 0.000333334 0.001000000 3;Q2C 0.002000000 0.003000000 3;"
else
	tap_skip "nr_requests=2, btt: Q2G and Q2C" \
		"blktrace not installed (scripts/deps.sh blktrace)"
fi
