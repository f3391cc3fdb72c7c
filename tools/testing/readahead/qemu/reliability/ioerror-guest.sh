#!/bin/sh
# ioerror-guest.sh - the guest half of ioerror.sh (run by guest-init.sh as test.sh).
#
# Owns the reads of the I/O error test.  Data disk 0 sits behind QEMU's
# blkdebug driver: reads of some sectors of /mnt/d0/f0 fail with EIO
# (ioerror.sh chose them and knows which 4 KB blocks they are).  With the
# caches dropped before each stage (and each stage under `timeout`):
#   shrink             scan4k from block 400 (one error, at 1000, after
#                      the window has grown; trace on: dmesg.shrink)
#   scan4k, scan128k   ratool scan: sequential read(2) of 4 KB / 128 KB,
#                      EIO chunks retried by 4 KB: one line per block,
#                      its hash or "EIO" (readahead trace on for scan4k
#                      when the kernel has it: trace.txt)
#   mscan              the same through mmap (SIGBUS = EIO)
#   shared-a/-b        two 4 KB scanners of the file at once, then
#   shared-reread      one more 4 KB scan, caches kept
#   willneed           readahead(2) + WILLNEED of the whole file, then scan4k
#   fio-bad            fio verifying f0: must fail with EIO
#   fio-good           fio verifying d0/f1 and d1/*: must pass
#   sums               sha1 of d0/f1 and d1/* against the host's
# Writes everything to $R; the host (ioerror.sh) judges it.
F=/mnt/d0/f0
RADIR=/sys/kernel/debug/readahead
T=${STAGE_TIMEOUT:-120}

drop() {
	sync
	echo 3 > /proc/sys/vm/drop_caches
}
stage() { # NAME COMMAND...: stdout to $R/NAME, stderr to $R/NAME.err
	n=$1
	shift
	drop
	s=$(cut -d' ' -f1 /proc/uptime)
	timeout "$T" "$@" > "$R/$n" 2> "$R/$n.err"
	echo "$n rc=$? start=$s end=$(cut -d' ' -f1 /proc/uptime)" >> "$R/stages"
}

trace=0
[ -e $RADIR/trace_enable ] && trace=1
echo "$trace" > "$R/have-trace"
cat "/sys/block/$(awk '$1 == "d0" { print $2 }' "$R/disks")/queue/read_ahead_kb" \
	> "$R/read_ahead_kb"

dmesg -c > "$R/dmesg.boot"
[ "$trace" = 1 ] && echo 1 > $RADIR/trace_enable
stage scan4k ratool scan $F 4096
[ "$trace" = 1 ] && echo 0 > $RADIR/trace_enable
dmesg > "$R/dmesg.scan4k"
# A stream that meets one error after its window has grown: from block
# 400 on, the first bad block is 1000 (trace on: dmesg.shrink).
# The kernel log gets at most 500 trace lines per 5 s (scan4k above has
# used them up): the stage is read from the readahead_decision
# tracepoint, which loses nothing and names files by inode (f0's in
# $R/ino.f0), and the log is kept beside it.
dmesg -c > /dev/null
TP=/sys/kernel/debug/tracing/events/readahead/readahead_decision
ls -i $F | awk '{ printf "%x\n", $1 }' > "$R/ino.f0"
[ -e $TP/enable ] && echo > /sys/kernel/debug/tracing/trace &&
	echo 1 > $TP/enable
[ "$trace" = 1 ] && echo 1 > $RADIR/trace_enable
stage shrink ratool scan $F 4096 400
[ "$trace" = 1 ] && echo 0 > $RADIR/trace_enable
if [ -e $TP/enable ]; then
	echo 0 > $TP/enable
	cat /sys/kernel/debug/tracing/trace > "$R/trace.shrink"
fi
dmesg > "$R/dmesg.shrink"
stage scan128k ratool scan $F 131072
stage mscan ratool mscan $F

drop
s=$(cut -d' ' -f1 /proc/uptime)
timeout "$T" ratool scan $F 4096 > "$R/shared-a" 2> "$R/shared-a.err" &
a=$!
timeout "$T" ratool scan $F 4096 > "$R/shared-b" 2> "$R/shared-b.err" &
b=$!
wait $a
ra=$?
wait $b
echo "shared rc=$ra/$? start=$s end=$(cut -d' ' -f1 /proc/uptime)" >> "$R/stages"
# Read again without dropping the caches: a good page that failed only
# because its request was merged with a bad one must read now.
timeout "$T" ratool scan $F 4096 > "$R/shared-reread" 2> "$R/shared-reread.err"
echo "shared-reread rc=$?" >> "$R/stages"

drop
ratool willneed $F > "$R/willneed.pre" 2>&1
timeout "$T" ratool scan $F 4096 > "$R/willneed" 2> "$R/willneed.err"
echo "willneed rc=$?" >> "$R/stages"

cat > /tmp/bad.fio <<EOF
[bad]
filename=$F
ioengine=psync
rw=read
bs=4k
invalidate=0
verify=crc32c
verify_interval=4096
EOF
stage fio-bad fio /tmp/bad.fio
good=$(find /mnt/d0/f1 /mnt/d1 -name 'f*' -type f | sort | tr '\n' ':')
cat > /tmp/good.fio <<EOF
[good]
filename=${good%:}
file_service_type=sequential
ioengine=psync
rw=read
bs=4k
invalidate=0
verify=crc32c
verify_interval=4096
verify_fatal=1
EOF
stage fio-good fio /tmp/good.fio

drop
grep -v ' d0/f0$' /ctl/sums > /tmp/sums
(cd /mnt && sha1sum -c /tmp/sums) > "$R/sums.out" 2>&1
echo "sums rc=$?" >> "$R/stages"
exit 0
