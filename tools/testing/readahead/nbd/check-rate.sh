#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check-rate.sh - a sequential read through nbdkit and the spindle filter
# reaches the model's streaming rate within 5%.
#
# Usage: OUT=<build dir> check-rate.sh      (spindle.so built in OUT)
#
# nbdcopy (libnbd-bin) reads a 128 MB image of random data (no holes, so
# every block is read) from nbdkit's file plugin through the filter, over
# a unix socket, one connection.  The model's time for the read is its
# transfer at rate_mbps plus overhead_us per request (the stream starts
# at sector 0, where the head is: no seek, no rotation), so the rate it
# should reach is BYTES / (BYTES / rate + requests * overhead).  Cases:
#   queued      16 requests in flight: each starts as the last ends
#   drivecache  one request at a time, cache_kb=1024: the drive streams
#               ahead between requests, the next one rides along
#   slow        rate_mbps=40, 64 KB requests, 16 in flight
# and, reported but not checked, one request at a time without the
# drive cache, which loses most of a revolution per request (as a real
# disk does).  About 10 s.  Ends with "nbd-rate: N passed, N failed".
set -u

OUT=${OUT:-build/nbd}
so="$OUT/spindle.so"
img="$OUT/rate.img"
bytes=134217728
passed=0
failed=0

if ! command -v nbdkit >/dev/null || ! command -v nbdcopy >/dev/null; then
	apt-get install -y nbdkit libnbd-bin >/dev/null 2>&1 ||
		{ apt-get update >/dev/null 2>&1 &&
		  apt-get install -y nbdkit libnbd-bin >/dev/null 2>&1; }
fi
for t in nbdkit nbdcopy; do
	command -v $t >/dev/null || { echo "check-rate: no $t"; exit 1; }
done
[ -f "$so" ] || { echo "check-rate: no $so (make -C nbd first)"; exit 1; }
if [ ! -f "$img" ] || [ "$(stat -c %s "$img")" -ne $bytes ]; then
	head -c $bytes /dev/urandom >"$img"
fi

# run NAME REQUESTS REQUEST_SIZE CHECK(0/1) FILTER-ARGS...
run() {
	name=$1 reqs=$2 rsize=$3 check=$4
	shift 4
	tfile="$OUT/rate.$name.time"
	rm -f "$tfile"
	# shellcheck disable=SC2016
	nbdkit -U - --filter="$so" file "$img" "$@" --run '
		s=$(date +%s%N)
		nbdcopy --connections=1 --requests='"$reqs"' \
			--request-size='"$rsize"' "$uri" null: &&
		echo $(( $(date +%s%N) - s )) >'"$tfile"
	if [ ! -s "$tfile" ]; then
		echo "FAIL $name: nbdcopy failed"
		failed=$((failed + 1))
		return
	fi
	rate=$(awk -v "args=$*" -v ns="$(cat "$tfile")" -v b=$bytes \
		   -v rs="$rsize" -v chk="$check" -v n="$name" '
		BEGIN {
			r = 100; o = 20
			k = split(args, a, " ")
			for (i = 1; i <= k; i++) {
				split(a[i], kv, "=")
				if (kv[1] == "rate_mbps") r = kv[2]
				if (kv[1] == "overhead_us") o = kv[2]
			}
			model = b / (b / (r * 1e6) + (b / rs) * o / 1e6) / 1e6
			got = b / (ns / 1e9) / 1e6
			ok = got >= 0.95 * model && got <= 1.05 * model
			printf "%s %s: %.2f MB/s, model %.2f MB/s (%.1f%%)\n",
			       chk ? (ok ? "ok  " : "FAIL") : "info", n, got,
			       model, 100 * got / model
			exit chk && !ok
		}')
	st=$?
	echo "$rate"
	[ "$check" = 1 ] || return
	if [ $st -eq 0 ]; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
	fi
}

run queued 16 262144 1
run drivecache 1 262144 1 cache_kb=1024
run slow 16 65536 1 rate_mbps=40
run qd1-nocache 1 262144 0
echo "nbd-rate: $passed passed, $failed failed"
[ $failed -eq 0 ]
