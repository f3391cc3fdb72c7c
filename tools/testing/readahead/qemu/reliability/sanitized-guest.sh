#!/bin/sh
# sanitized-guest.sh - the racing half of sanitized.sh (run by guest-init.sh as test.sh).
#
# Owns the concurrent load of the sanitized kernel's second boot, all
# started together and all ending after DURATION seconds (run.conf):
#   race      ratool race on /scratch/race (1 MB, writable ext4): one writer
#             truncating and rewriting the file, one process issuing
#             POSIX_FADV_DONTNEED / WILLNEED / readahead(2) on it, 4 KB and
#             64 KB read(2) readers and an mmap reader checking every word
#             they see is its own offset or 0
#   stressng  stress-ng --readahead 2 on /scratch (its own files)
#   fio       4 KB read(2) and mmap readers of the read-only data disks,
#             time based, every block verified
#   advise    ratool advise: DONTNEED/WILLNEED/readahead(2) of a file the
#             fio readers read at the same time
# Writes each part's output and exit status to $R (rc.NAME); the host
# judges them and scans the kernel log.
D=${DURATION:-60}

cat > /tmp/readers.fio <<EOF
[global]
ioengine=psync
rw=read
bs=4k
invalidate=0
fadvise_hint=0
verify=crc32c
verify_interval=4096
verify_fatal=1
time_based=1
runtime=$D

[read-d0f0]
filename=/mnt/d0/f0
numjobs=2

[mmap-d1f0]
filename=/mnt/d1/f0
ioengine=mmap

[read-d0f1-64k]
filename=/mnt/d0/f1
bs=64k
EOF

sync
echo 3 > /proc/sys/vm/drop_caches
dmesg -c > "$R/dmesg.boot"
date > "$R/started"
ratool race /scratch/race 1024 "$D" > "$R/race.out" 2>&1 &
p1=$!
stress-ng --readahead 2 --temp-path /scratch --timeout "${D}s" \
	--metrics-brief --verbose > "$R/stressng.out" 2>&1 &
p2=$!
fio /tmp/readers.fio > "$R/fio.out" 2>&1 &
p3=$!
ratool advise /mnt/d1/f0 "$D" > "$R/advise.out" 2>&1 &
p4=$!
wait $p1
echo $? > "$R/rc.race"
wait $p2
echo $? > "$R/rc.stressng"
wait $p3
echo $? > "$R/rc.fio"
wait $p4
echo $? > "$R/rc.advise"
cat /sys/kernel/debug/readahead/stats > "$R/ra-stats" 2>/dev/null
exit 0
