#!/bin/sh
# bench-guest.sh - the guest half of one run of the QEMU A/B bench
# (run-guest.sh ships it as /ctl/test.sh; guest-init.sh runs it, the data
# disks mounted read-only on /mnt/dN and read_ahead_kb set, with R the
# results directory and run.conf's settings in the environment).
#
# Owns the run itself:
#   1. each data disk's I/O scheduler (SCHED) and its tunables (IOSCHED:
#      KEY=N ...);
#   2. the facts of the guest (guest-info: kernel, CPUs, memory, the
#      queues' limits), and optional debugfs checks (CHECKS=1): a garbage
#      write to readahead/trace_enable must fail with EINVAL and leave the
#      value unchanged;
#   3. drop the caches, start blktrace on the data disks (BLKTRACE=1;
#      per-CPU files in $R/bt), snapshot /sys/block/*/stat, /proc/vmstat,
#      /proc/stat and /proc/uptime, reset readahead/stats, turn the trace
#      on if asked (TRACE=1), run fio (JSON output, data verified by fio's
#      crc32c headers), snapshot again, stop blktrace, read
#      readahead/stats back, save dmesg; with MARKS=1 (icount runs) "fio
#      start" and "fio end" go to ttyS1 around fio, for the host's clock;
#   4. sha1 every data file the job names and compare with the host's
#      sums (catches data from the wrong file, which fio's headers cannot);
#   5. $R/status: ok, or fail with the reasons in $R/failures (a disk
#      guest-init.sh could not mount is one).
# Progress lines start with "RA-BENCH:" (in $R/test.out).
RADIR=/sys/kernel/debug/readahead
status=ok
say() { echo "RA-BENCH: $*"; }
bad() { say "FAIL: $*"; echo "$*" >> $R/failures; status=fail; }
finish() {
	echo "$status" > $R/status
	say "done status=$status"
	exit 0
}

TRACE=${TRACE:-0}
CHECKS=${CHECKS:-0}
FS=${FS:-ext4}
SCHED=${SCHED:-default}
BLKTRACE=${BLKTRACE:-0}
IOSCHED=${IOSCHED:-}
MARKS=${MARKS:-0}
[ -s $R/failures ] && status=fail
[ -s $R/disks ] || { bad "no data disks"; finish; }
say "job ${NAME:-?}: $(wc -l < $R/disks) data disk(s), $FS, scheduler $SCHED, trace=$TRACE, blktrace=$BLKTRACE"

# --- Disk settings asked for by the host -------------------------------
if [ "$SCHED" != default ]; then
	while read -r d v; do
		q=/sys/block/$v/queue/scheduler
		echo "$SCHED" > "$q" 2>/dev/null
		grep -q "\[$SCHED\]" "$q" ||
			bad "cannot set the scheduler of $v to $SCHED: $(cat "$q")"
	done < $R/disks
fi
for kv in $IOSCHED; do
	while read -r d v; do
		f=/sys/block/$v/queue/iosched/${kv%%=*}
		echo "${kv#*=}" > "$f" 2>/dev/null
		[ "$(cat "$f" 2>/dev/null)" = "${kv#*=}" ] ||
			bad "cannot set $f to ${kv#*=}"
	done < $R/disks
done

# --- Facts about the guest --------------------------------------------
{
	echo "kernel $(uname -r)"
	echo "version $(cat /proc/version)"
	echo "cmdline $(cat /proc/cmdline)"
	echo "cpus $(grep -c ^processor /proc/cpuinfo)"
	echo "mem_kb $(awk '/MemTotal/ { print $2 }' /proc/meminfo)"
	echo "fs $FS"
	while read -r d v; do
		echo "read_ahead_kb $d $v $(cat "/sys/block/$v/queue/read_ahead_kb")"
		echo "max_sectors_kb $d $v $(cat "/sys/block/$v/queue/max_sectors_kb")"
		echo "scheduler $d $v $(cat "/sys/block/$v/queue/scheduler")"
		echo "rotational $d $v $(cat "/sys/block/$v/queue/rotational")"
		# The block queue's limits on requests (calibrate.sh gives
		# the simulator the same): nr_requests per hardware queue
		# (with a scheduler, its tags: waiting plus on the disk), the
		# hardware queues, and each one's driver tags (requests on
		# the disk at once through it).
		echo "nr_requests $d $v $(cat "/sys/block/$v/queue/nr_requests")"
		echo "hw_queues $d $v $(ls -d "/sys/block/$v/mq/"[0-9]* | wc -l)"
		echo "nr_tags $d $v $(cat "/sys/block/$v/mq/0/nr_tags")"
	done < $R/disks
	echo "virtio_blk.queue_depth $(cat /sys/module/virtio_blk/parameters/queue_depth 2>/dev/null || echo -)"
} > $R/guest-info
cp /proc/mounts $R/mounts

# --- debugfs interface checks (smoke) ----------------------------------
if [ -e $RADIR/stats ]; then echo yes; else echo no; fi > $R/have-stats
if [ -e $RADIR/trace_enable ]; then
	echo yes > $R/have-trace
	if [ "$CHECKS" = 1 ]; then
		# A garbage write must fail with EINVAL and change nothing,
		# whether the trace is off or on.
		for v in 0 1; do
			echo $v > $RADIR/trace_enable
			before=$(cat $RADIR/trace_enable)
			if (echo garbage > $RADIR/trace_enable) 2> /tmp/gerr; then
				res="accepted"
			elif grep -qi 'invalid argument' /tmp/gerr; then
				res="EINVAL"
			else
				res="error:$(tr ' ' _ < /tmp/gerr)"
			fi
			after=$(cat $RADIR/trace_enable)
			echo "garbage_write $res before=$before after=$after"
		done > $R/checks
		echo 0 > $RADIR/trace_enable
	fi
else
	echo no > $R/have-trace
fi

# --- The run -------------------------------------------------------------
snapshot() {
	while read -r d v; do
		echo "$d $v $(cat "/sys/block/$v/stat")"
	done < $R/disks > "$R/blkstat.$1"
	cp /proc/vmstat "$R/vmstat.$1"
	grep '^cpu' /proc/stat > "$R/cpustat.$1"
	cut -d' ' -f1 /proc/uptime > "$R/uptime.$1"
}

dmesg > $R/dmesg.boot
sync
echo 3 > /proc/sys/vm/drop_caches
[ -e $RADIR/stats ] && { echo 0 > $RADIR/stats || bad "cannot reset stats"; }
if [ "$TRACE" = 1 ] && [ -e $RADIR/trace_enable ]; then
	dmesg -c > /dev/null
	echo 1 > $RADIR/trace_enable || bad "cannot enable the trace"
fi
dmesg -n 5
btpid=
if [ "$BLKTRACE" = 1 ]; then
	mkdir -p $R/bt
	set --
	while read -r d v; do set -- "$@" -d "/dev/$v"; done < $R/disks
	blktrace -D $R/bt "$@" > /tmp/blktrace.out 2>&1 &
	btpid=$!
	# Started when every disk has its per-CPU files.
	i=0
	while [ $i -lt 100 ]; do
		n=0
		while read -r d v; do
			ls $R/bt/"$v".blktrace.* > /dev/null 2>&1 && n=$((n + 1))
		done < $R/disks
		[ "$n" -eq "$(wc -l < $R/disks)" ] && break
		kill -0 $btpid 2>/dev/null || break
		sleep 0.1
		i=$((i + 1))
	done
	kill -0 $btpid 2>/dev/null ||
		bad "blktrace did not start: $(head -c 300 /tmp/blktrace.out)"
fi
# MARKS=1 (icount runs): the host stamps these lines with its clock.
mark() {
	if [ "$MARKS" = 1 ]; then echo "$*" > /dev/ttyS1; fi
}
snapshot before
say "fio start"
mark "fio start"
# The CPU time of this shell's reaped children (/proc/$$/stat cutime,
# cstime) before and after: fio's processes, exact (each the sum of its
# run time, not tick samples), read without a child of its own.
read -r st < /proc/$$/stat
echo "$st" > $R/selfstat.before
fio --output-format=json --output=$R/fio.json /ctl/job.fio > $R/fio.out 2>&1
rc=$?
read -r st < /proc/$$/stat
echo "$st" > $R/selfstat.after
mark "fio end"
snapshot after
say "fio end rc=$rc"
if [ -n "$btpid" ]; then
	kill -INT $btpid
	wait $btpid
	cp /tmp/blktrace.out $R/blktrace.out
	# "Total: N events (dropped D), ...": the trace must be whole.
	if grep -q 'dropped [1-9]' /tmp/blktrace.out; then
		bad "blktrace dropped events: $(grep 'dropped [1-9]' /tmp/blktrace.out | head -n 1)"
	fi
fi
[ "$TRACE" = 1 ] && [ -e $RADIR/trace_enable ] && echo 0 > $RADIR/trace_enable
echo "$rc" > $R/fio.rc
[ "$rc" = 0 ] || bad "fio exited with $rc: $(grep -m3 -iE 'verify|err' $R/fio.out)"
[ -e $RADIR/stats ] && cat $RADIR/stats > $R/ra-stats
dmesg > $R/dmesg.txt

# --- Whole-file checksums against the host's ------------------------------
# Only the files the job names (filename=a:b:...): a random job leaves
# most of the disks uncached, and reading all of them costs minutes.
sed -n 's/^[[:space:]]*filename[[:space:]]*=[[:space:]]*//p' /ctl/job.fio |
	tr ':' '\n' | sed -n 's|^/mnt/||p' | sort -u > /tmp/files
awk 'NR == FNR { want[$1] = 1; next } ($2 in want)' /tmp/files /ctl/sums \
	> /tmp/sums
[ -s /tmp/sums ] || cp /ctl/sums /tmp/sums
cp /tmp/sums $R/sums.checked
if [ -s /tmp/sums ]; then
	if (cd /mnt && sha1sum -c /tmp/sums) > $R/sums.out 2>&1; then
		say "checksums ok ($(wc -l < /tmp/sums) files)"
	else
		bad "checksum mismatch: $(grep -v ': OK$' $R/sums.out | head -3)"
	fi
fi
finish
