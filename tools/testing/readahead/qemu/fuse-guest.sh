#!/bin/sh
# fuse-guest.sh - the guest half of fuse.sh (run by rel-init.sh as test.sh).
#
# Owns the readers of a congested FUSE mount.  Mounts rafuse (rafuse.c:
# 8 files of FILE_MB MB whose every byte is known, each READ answered
# DELAY_MS late, FUSE_INIT's max_background MAX_BG and
# congestion_threshold CONG) on /mnt/fuse, then runs one reader per path,
# one after the other, each on a file of its own:
#   seq            f0  read(2) 64 KB at a time, a window with a state
#   random         f1  64 random 4 KB pread(2)s: random reads
#   fadv-random    f2  POSIX_FADV_RANDOM, 64 random 16 KB pread(2)s
#   willneed       f3  POSIX_FADV_WILLNEED of the file, then read(2)
#   readahead      f4  readahead(2) of the file, then read(2)
#   madv-willneed  f5  MADV_WILLNEED on a mapping, then read through it
#   ra0            f6  the first 256 KB with read_ahead_kb 0 (the fuse
#                      bdi's, while the reader opens the file)
# Every byte read is checked by rafuse.  The readers after the first go
# through the stateless paths of mm/readahead.c while the server holds
# the reads already sent: fuse_readahead() finds the connection
# congested.
#
# panic_on_oops is cleared: a reader that oopses is killed and the next
# path still runs.  Each reader gets PATH_LIMIT seconds; one still alive
# then (stuck on a page an oopsed reader left locked) is "hung" and left.
# Per path NAME: $R/NAME.out (rafuse's line), NAME.rc (exit status, or
# "hung"), NAME.waiting (the most requests the connection had waiting,
# sampled every 0.1 s from fusectl's "waiting"), dmesg.NAME (the kernel
# log during it).  $R/conn: the connection's max_background and
# congestion_threshold as the kernel took them; server.log: the server's
# counts (SIGUSR1).  A "rafuse: NAME start/end" line in the kernel log
# brackets each reader.
D=${DELAY_MS:-50}
B=${MAX_BG:-2}
C=${CONG:-1}
MB=${FILE_MB:-4}
T=${PATH_LIMIT:-120}
M=/mnt/fuse
FC=/sys/fs/fuse/connections

echo 0 > /proc/sys/kernel/panic_on_oops
mount -t fusectl fusectl $FC || echo "FAIL: mount fusectl" >> "$R/failures"
mkdir -p $M
if ! rafuse serve -n 8 -s "$MB" -d "$D" -b "$B" -c "$C" $M \
		> "$R/server.pid" 2> "$R/server.log"; then
	echo "FAIL: rafuse serve" >> "$R/failures"
	exit 1
fi
# The first look-up waits for the server's answer to FUSE_INIT.
ls -l $M > "$R/ls.out" 2>&1
conn=$(ls $FC | head -n 1)
cd=$FC/$conn
bdi=/sys/class/bdi/0:$conn
echo "connection $conn max_background $(cat "$cd/max_background") congestion_threshold $(cat "$cd/congestion_threshold")" > "$R/conn"
ra_kb=$(cat "$bdi/read_ahead_kb")
echo "bdi 0:$conn read_ahead_kb $ra_kb" >> "$R/conn"
dmesg -c > "$R/dmesg.setup"

alive() {
	[ -e "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}

# run NAME MODE FILE [BYTES]
run() {
	name=$1
	shift
	echo "rafuse: $name start" > /dev/kmsg
	rafuse read "$@" > "$R/$name.out" 2>&1 &
	pid=$!
	maxw=0 ticks=0
	while alive $pid && [ $ticks -lt $((T * 10)) ]; do
		w=$(cat "$cd/waiting")
		[ "$w" -gt "$maxw" ] && maxw=$w
		sleep 0.1
		ticks=$((ticks + 1))
	done
	if alive $pid; then
		echo hung > "$R/$name.rc"
	else
		wait $pid
		echo $? > "$R/$name.rc"
	fi
	echo "$maxw" > "$R/$name.waiting"
	echo "rafuse: $name end rc=$(cat "$R/$name.rc")" > /dev/kmsg
	dmesg -c > "$R/dmesg.$name"
}

run seq seq $M/f0
run random random $M/f1
run fadv-random fadv-random $M/f2
run willneed willneed $M/f3
run readahead readahead $M/f4
run madv-willneed madv-willneed $M/f5
echo 0 > "$bdi/read_ahead_kb"
run ra0 seq $M/f6 262144
echo "$ra_kb" > "$bdi/read_ahead_kb"

kill -USR1 "$(cat "$R/server.pid")"
sleep 1
exit 0
