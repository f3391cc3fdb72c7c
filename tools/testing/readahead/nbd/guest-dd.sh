#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# guest-dd.sh - a guest's sequential dd from a disk served by nbdkit
# through the spindle filter reaches the model's streaming rate within 5%.
#
# Usage: guest-dd.sh [FLAVOUR]    (patched (default) or pristine kernel)
#
# Boots the bench kernel (build/kbuild-FLAVOUR, as the QEMU bench builds
# it) with the reliability initramfs (../qemu/build-initramfs.sh rel),
# with one more virtio disk (serial "raspin"): a 128 MB image of random
# data served by `nbdkit --filter=spindle.so file` on a unix socket.  In
# the guest, dd reads the whole disk and the test notes /proc/uptime
# around it and the disk's /sys/block stat (requests, sectors).  The
# model's rate is the simulator's stream formula (disk_stream_seconds:
# an average seek, half a revolution, then the requests back to back,
# each with its overhead), what a queued sequential stream gets.  Cases, one boot each:
#   buffered      dd bs=1M through the page cache, read_ahead_kb=2048,
#                 the guest's default queue depth (QEMU sends several
#                 requests at once; readahead keeps the next queued)
#   direct-cache  dd iflag=direct bs=256k, one request at a time, with
#                 the drive's read cache (cache_kb=1024)
# and, reported but not checked (they measure the guest's turnaround
# between requests, which under TCG varies with the host's load):
#   qd1-cache     buffered with virtio_blk.queue_depth=1 (one request at
#                 a time) and the drive's read cache: the streaming rate
#                 while the guest asks again before the segment fills
#   qd1           the same without the drive cache: most of a revolution
#                 lost per request
# The rate checked is the disk's: dd's bytes over its first request's
# arrival to its last one's completion, from the filter's trace (-D
# spindle.trace=1); the guest's own clock is shown beside it.
# Needs build/nbd/spindle.so (make nbd) and the bench kernel (make bench
# or make bench-smoke builds it), qemu-system-x86_64 and nbdkit (make
# nbd-guest installs them).  About 1 minute (four boots).  Prints TAP
# (scripts/tap.sh): one test per checked case, the figures as diagnostics.
set -u
NBD=$(cd "$(dirname "$0")" && pwd)
# shellcheck source=../qemu/common.sh disable=SC1091
QDIR=$(cd "$NBD/../qemu" && pwd)
. "$QDIR/common.sh"

flavour=${1:-patched}
kernel="$(kobj_dir "$flavour")/arch/x86/boot/bzImage"
so="$BUILD/nbd/spindle.so"
out="$BUILD/nbd/guest-dd"
bytes=134217728
boot_cmdline="console=ttyS0 panic=-1 oops=panic log_buf_len=16M printk.time=1 loglevel=5 rdinit=/init"
[ -f "$kernel" ] || die "no $kernel (make bench-smoke builds it)"
[ -f "$so" ] || die "no $so (make nbd)"
need qemu-system-x86 qemu-system-x86_64
need nbdkit nbdkit
tap_begin
initramfs=$("$QDIR/build-initramfs.sh" rel | tail -n 1)
mkdir -p "$out"
img="$out/spin.img"
if [ ! -f "$img" ] || [ "$(stat -c %s "$img")" -ne $bytes ]; then
	head -c $bytes /dev/urandom >"$img"
fi

# run_case NAME CHECK QUEUE_DEPTH READ_AHEAD_KB DD-ARGS FILTER-ARGS...
# (CHECK 0: report only; QUEUE_DEPTH, READ_AHEAD_KB "": the kernel's)
run_case() {
	name=$1 check=$2 qd=$3 ra=$4 ddargs=$5
	shift 5
	append=
	[ -z "$qd" ] || append="$boot_cmdline virtio_blk.queue_depth=$qd"
	dir="$out/$name"
	rm -rf "$dir"
	mkdir -p "$dir/ctl" "$dir/results"
	cat >"$dir/ctl/test.sh" <<TEST
dev=
for b in /sys/block/vd*; do
	[ "\$(cat \$b/serial 2>/dev/null)" = raspin ] && dev=\${b##*/}
done
[ -n "\$dev" ] || { echo "no raspin disk"; exit 1; }
[ -z "$ra" ] || echo $ra > /sys/block/\$dev/queue/read_ahead_kb || exit 1
echo "read_ahead_kb \$(cat /sys/block/\$dev/queue/read_ahead_kb)"
set -- \$(cat /sys/block/\$dev/stat)
r0=\$1 s0=\$3
sleep 1
t0=\$(cut -d' ' -f1 /proc/uptime)
dd if=/dev/\$dev of=/dev/null $ddargs || exit 1
t1=\$(cut -d' ' -f1 /proc/uptime)
set -- \$(cat /sys/block/\$dev/stat)
echo "RESULT reads=\$((\$1 - r0)) sectors=\$((\$3 - s0)) t0=\$t0 t1=\$t1"
TEST
	echo "NAME=$name" >"$dir/ctl/run.conf"
	pack_io_disk "$dir"
	sock="$dir/spin.sock"
	nbdkit -r -v -D spindle.trace=1 -U "$sock" -P "$dir/nbdkit.pid" \
		--filter="$so" file "$img" "$@" 2>"$dir/nbdkit.log" ||
		die "nbdkit failed: $(tail -n 3 "$dir/nbdkit.log")"
	boot_guest 300 512 "$kernel" "$initramfs" "$dir" \
		-drive "if=none,id=io,file=$dir/io.img,format=raw" \
		-device "virtio-blk-pci,drive=io,serial=raio" \
		-drive "if=none,id=spin,file=nbd+unix:///?socket=$sock,format=raw,readonly=on" \
		-device "virtio-blk-pci,drive=spin,serial=raspin" \
		${append:+-append "$append"}
	kill "$(cat "$dir/nbdkit.pid")"
	sleep 1
	tar -xf "$dir/io.img" -C "$dir/results" 2>/dev/null
	res=$(grep -h '^RESULT' "$dir/results/test.out" 2>/dev/null)
	if [ -z "$res" ]; then
		[ "$check" = 1 ] && tap_not_ok "$name: the guest's dd ran"
		tap_diag "$name: no result ($dir/console.log)"
		return
	fi
	tap_diag "$name: $res"
	# The disk's side: dd's requests are those after the guest's 1 s
	# sleep (the last run of requests without a gap of 0.5 s).
	grep -o 'spindle: read .*' "$dir/nbdkit.log" >"$dir/trace"
	awk -v "args=$*" -v n="$name" -v "res=$res" '
		{
			if (NR == 1 || $5 - done > 0.5) {
				first = $5; gaps = 0; idle = 0; reqs = 0
				sect = 0
			} else if ($5 > done) {
				gaps++
				idle += $5 - done
			}
			split($3, rs, "+")
			sect += rs[2]
			reqs++
			done = $9
		}
		END {
			r = 100; o = 20; sk = 4.5; rpm = 10000
			k = split(args, a, " ")
			for (i = 1; i <= k; i++) {
				split(a[i], kv, "=")
				if (kv[1] == "rate_mbps") r = kv[2]
				if (kv[1] == "overhead_us") o = kv[2]
				if (kv[1] == "seek_ms") sk = kv[2]
				if (kv[1] == "rpm") rpm = kv[2]
			}
			k = split(res, a, " ")
			for (i = 1; i <= k; i++) {
				split(a[i], kv, "=")
				v[kv[1]] = kv[2]
			}
			b = sect * 512
			# disk_stream_seconds(): a seek, half a turn, then
			# the requests back to back
			t = sk / 1e3 + 30 / rpm + b / (r * 1e6)
			model = b / (t + reqs * o / 1e6) / 1e6
			got = b / (done - first) / 1e6
			ok = got >= 0.95 * model && got <= 1.05 * model && b == v["sectors"] * 512
			printf "#   guest: %.2f MB/s by its clock (/proc/uptime)\n",
			       v["sectors"] * 512 / (v["t1"] - v["t0"]) / 1e6
			printf "#   disk: %d requests of %.0f KB in %.3f s, idle %d times (%.1f ms)\n",
			       reqs, b / reqs / 1024, done - first, gaps,
			       idle * 1e3
			printf "%s: %.2f MB/s, model %.2f MB/s (%.1f%%)\n",
			       n, got, model, 100 * got / model
			exit !ok
		}' "$dir/trace" >"$dir/rate"
	st=$?
	grep '^#' "$dir/rate"
	rate=$(grep -v '^#' "$dir/rate")
	if [ "$check" = 1 ]; then
		tap_result $st "$rate, within 5%"
	else
		tap_diag "$rate (not checked)"
	fi
}

run_case buffered 1 "" 2048 "bs=1M"
run_case direct-cache 1 "" "" "bs=256k iflag=direct" cache_kb=1024
run_case qd1-cache 0 1 2048 "bs=1M" cache_kb=1024
run_case qd1 0 1 2048 "bs=1M"
tap_end
