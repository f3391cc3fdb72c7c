#!/bin/sh
# fuse-guest.sh - the guest half of fuse.sh (run by guest-init.sh as test.sh).
#
# Owns the readers of a congested FUSE mount.  Mounts rafuse (rafuse.c:
# 8 files of FILE_MB MB whose every byte is known, each READ answered
# DELAY_MS late, FUSE_INIT's max_background MAX_BG and
# congestion_threshold CONG) on /mnt/fuse, then runs one reader per path,
# one after the other, each on a file of its own, from path number FIRST
# on (1, unless an earlier boot ended in an oops):
#   1 seq            f0  read(2) 64 KB at a time, a window with a state
#   2 random         f1  64 random 4 KB pread(2)s: random reads
#   3 fadv-random    f2  POSIX_FADV_RANDOM, 64 random 16 KB pread(2)s
#   4 willneed       f3  POSIX_FADV_WILLNEED of the file, then read(2)
#   5 readahead      f4  readahead(2) of the file, then read(2)
#   6 madv-willneed  f5  MADV_WILLNEED on a mapping, then read through it
#   7 ra0            f6  the first 256 KB with read_ahead_kb 0 (the fuse
#                        bdi's, while the reader opens the file)
# Every byte read is checked by rafuse.  The readers after the first go
# through the stateless paths of mm/readahead.c while the server holds
# the reads already sent: fuse_readahead() finds the connection
# congested.
#
# Everything the host judges goes to the kernel log, hence the console:
# an oops panics the guest (oops=panic), and the host then boots again
# from the next path.  Lines, all starting "rafuse: ":
#   connection N max_background B congestion_threshold C read_ahead_kb K
#   INIT: ...                         (the server, on FUSE_INIT)
#   path NAME start
#   path NAME end rc=RC waiting=W: SUMMARY
#   server: ... counts ...            (the server, after each path)
# RC is the reader's exit status, or "hung" when it was still running
# after PATH_LIMIT seconds (it is left); W the most requests the
# connection had waiting (fusectl's "waiting", sampled every 0.1 s).
D=${DELAY_MS:-50}
B=${MAX_BG:-2}
C=${CONG:-1}
MB=${FILE_MB:-4}
T=${PATH_LIMIT:-120}
FIRST=${FIRST:-1}
M=/mnt/fuse
FC=/sys/fs/fuse/connections

log() {
	echo "rafuse: $*" > /dev/kmsg
}

mount -t fusectl fusectl $FC || log "FAIL: mount fusectl"
mkdir -p $M
if ! rafuse serve -n 8 -s "$MB" -d "$D" -b "$B" -c "$C" $M \
		> "$R/server.pid" 2> /dev/kmsg; then
	log "FAIL: rafuse serve"
	exit 1
fi
spid=$(cat "$R/server.pid")
# The first look-up waits for the server's answer to FUSE_INIT.
ls -l $M > "$R/ls.out" 2>&1
conn=$(ls $FC | head -n 1)
cd=$FC/$conn
bdi=/sys/class/bdi/0:$conn
ra_kb=$(cat "$bdi/read_ahead_kb")
log "connection $conn max_background $(cat "$cd/max_background") congestion_threshold $(cat "$cd/congestion_threshold") read_ahead_kb $ra_kb"

alive() {
	[ -e "/proc/$1/status" ] && ! grep -q '^State:[[:space:]]*Z' "/proc/$1/status"
}

n=0
# run NAME MODE FILE [BYTES]
run() {
	name=$1
	shift
	n=$((n + 1))
	[ $n -ge "$FIRST" ] || return 0
	log "path $name start"
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
		rc=hung
	else
		wait $pid
		rc=$?
	fi
	# The reader's last line: its summary, or why it stopped.
	sum=$(tail -n 1 "$R/$name.out")
	log "path $name end rc=$rc waiting=$maxw: ${sum#rafuse: }"
	kill -USR1 "$spid"
	sleep 0.5
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
log "all paths done"
exit 0
