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
# disk does).  About 10 s.  Prints TAP (scripts/tap.sh): one test per
# checked case, the figures as diagnostics.  Needs nbdkit and nbdcopy
# (Debian packages nbdkit, libnbd-bin: make nbd-rate installs them).
set -u
NBD=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$NBD/../../../.." && pwd)
# shellcheck source=../scripts/tap.sh
. "$NBD/../scripts/tap.sh"

OUT=${OUT:-$TOP/build/nbd}
so="$OUT/spindle.so"
img="$OUT/rate.img"
bytes=134217728

die() {
	echo "check-rate: $*" >&2
	exit 1
}
command -v nbdkit >/dev/null || die "no nbdkit (Debian package nbdkit)"
command -v nbdcopy >/dev/null || die "no nbdcopy (Debian package libnbd-bin)"
[ -f "$so" ] || die "no $so (make nbd)"
tap_begin
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
		[ "$check" = 1 ] && tap_not_ok "$name: nbdcopy through the filter"
		tap_diag "$name: nbdcopy failed"
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
			printf "%s: %.2f MB/s, model %.2f MB/s (%.1f%%)\n",
			       n, got, model, 100 * got / model
			exit !ok
		}')
	st=$?
	if [ "$check" = 1 ]; then
		tap_result $st "$rate, within 5%"
	else
		tap_diag "$rate (not checked)"
	fi
}

run queued 16 262144 1
run drivecache 1 262144 1 cache_kb=1024
run slow 16 65536 1 rate_mbps=40
run qd1-nocache 1 262144 0
tap_end
