#!/bin/sh
# mempress-guest.sh - the guest half of mempress.sh (run by guest-init.sh as test.sh).
#
# Owns the streams of the memory pressure test: with the caches dropped,
# one sequential reader per data file (busybox sha1sum: a stream and a
# data check at once), all started together; /sys/block/*/stat,
# /proc/vmstat and /proc/uptime snapshotted before and after; the
# readahead stats table when the kernel has it, and its window outcomes
# (outcome_enable on for the streams, the outcomes table after).  The host (mempress.sh)
# turns the snapshots into figures.  With MEMCG_MB set (the memory cgroup
# job), the readers run in a cgroup v2 group whose memory.max is that many
# MB; the group's limit, peak and events are kept.
snapshot() {
	while read -r d v; do
		echo "$d $v $(cat "/sys/block/$v/stat")"
	done < "$R/disks" > "$R/blkstat.$1"
	cp /proc/vmstat "$R/vmstat.$1"
	cut -d' ' -f1 /proc/uptime > "$R/uptime.$1"
}
RADIR=/sys/kernel/debug/readahead
sync
echo 3 > /proc/sys/vm/drop_caches
[ -e $RADIR/stats ] && echo 0 > $RADIR/stats
if [ -e $RADIR/outcome_enable ]; then
	echo 0 > $RADIR/outcomes
	echo 1 > $RADIR/outcome_enable
fi
grep -E 'MemTotal|MemFree|MemAvailable' /proc/meminfo > "$R/meminfo.before"
CG=/sys/fs/cgroup/readers
if [ -n "${MEMCG_MB:-}" ]; then
	mkdir -p /sys/fs/cgroup
	mount -t cgroup2 none /sys/fs/cgroup &&
	echo +memory > /sys/fs/cgroup/cgroup.subtree_control &&
	mkdir $CG &&
	echo $((MEMCG_MB * 1048576)) > $CG/memory.max &&
	echo $$ > $CG/cgroup.procs &&
	cat $CG/memory.max > "$R/memcg.max"
fi
snapshot before
pids=
for f in /mnt/d*/f*; do
	n=$(echo "${f#/mnt/}" | tr / .)
	sha1sum "$f" > "$R/sum.$n" 2> "$R/sum.$n.err" &
	pids="$pids $!"
done
nfail=0
for p in $pids; do
	wait "$p" || nfail=$((nfail + 1))
done
snapshot after
if [ -n "${MEMCG_MB:-}" ] && [ -d $CG ]; then
	cat $CG/memory.peak > "$R/memcg.peak" 2>/dev/null
	cat $CG/memory.events > "$R/memcg.events"
fi
echo "$nfail" > "$R/readers.failed"
[ -e $RADIR/stats ] && cat $RADIR/stats > "$R/ra-stats"
if [ -e $RADIR/outcome_enable ]; then
	echo 0 > $RADIR/outcome_enable
	cat $RADIR/outcomes > "$R/ra-outcomes"
fi
cat "$R"/sum.d* | sed 's|/mnt/||' > "$R/sums.got"
exit 0
