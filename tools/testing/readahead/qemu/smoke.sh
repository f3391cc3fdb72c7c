#!/bin/sh
# smoke.sh - CI smoke test of the patched kernel under QEMU.
#
# Usage: smoke.sh          (from anywhere; as root on a fresh Debian 12)
#
# Owns the CI checks of the real-kernel bench: build the patched 6.12
# (RA_BASE=6.1: the backport)
# kernel (incremental), boot it under qemu-system-x86_64 -accel tcg with
# two vCPUs and the short jobs/smoke.fio on two spindle disks (nbdkit
# and the spindle filter, XFS, BFQ; every block verified by fio, every
# file checksummed against the host), check the guest saw two CPUs,
# rotational disks under bfq, XFS mounts, and that the guest's blktrace
# was parsed on the host, read the readahead stats table back,
# and when the kernel has /sys/kernel/debug/readahead/trace_enable: check
# that a garbage write is refused with EINVAL and leaves the value alone,
# trace the job, save the trace lines to build/qemu/smoke/trace.txt and
# run build/analyzer/ra_analyze on them when it exists (more than 0 lines
# parsed, 0 skipped).  Prints TAP (scripts/tap.sh): one test per check;
# a check that cannot run here (an interface the kernel does not have,
# no analyzer) is a "# SKIP reason" and counts neither as passed nor as
# failed.  Ends with the plan and the totals; exits non-zero on any
# failure.  Takes
# about 5 minutes on 2 cores from scratch, 1 minute when the kernel is
# already built.
set -u
. "$(dirname "$0")/common.sh"

out="$QB/smoke$KOBJ_SUFFIX"
res="$out/results"
tap_begin
start=$(date +%s)
# report.py reads the guest's figures.
need python3 python3

# --- 1. Kernel ------------------------------------------------------------
klog="$QB/smoke$KOBJ_SUFFIX-build.log"
mkdir -p "$QB"
if "$QDIR/build-kernel.sh" patched > "$klog" 2>&1; then
	tap_ok "patched kernel builds ($(grep -o 'built in [0-9]*s' "$klog"))"
else
	tail -n 20 "$klog" | tap_diag_file
	tap_not_ok "patched kernel builds (log: $klog)"
	tap_end; exit
fi
kernel=$(tail -n 1 "$klog")

# --- 2. Boot and job --------------------------------------------------------
rlog="$QB/smoke$KOBJ_SUFFIX-run.log"
if "$QDIR/run-guest.sh" -t -c -s 600 "$kernel" "$QDIR/jobs/smoke.fio" \
		"$out" > "$rlog" 2>&1; then
	tap_ok "guest boots, runs fio and exits by itself ($(cat "$out/wall-seconds")s)"
else
	tap_diag_file "$rlog"
	tap_not_ok "guest boots, runs fio and exits by itself (console: $out/console.log)"
fi
if [ ! -f "$res/status" ]; then
	tap_not_ok "guest results read back"
	tap_end; exit
fi
tap_check "fio verified every block read (crc32c headers)" \
	test "$(cat "$res/fio.rc" 2>/dev/null)" = 0
nsum=$(grep -c ': OK$' "$res/sums.out" 2>/dev/null)
ntot=$(wc -l < "$res/sums.checked" 2>/dev/null || echo 0)
tap_check "files read back in the guest match the host's sha1 (${nsum:-0}/$ntot)" \
	test "${nsum:-0}" -eq "$ntot" -a "$ntot" -gt 0
warn=$(grep -E 'WARNING: CPU:|BUG:|Oops' "$out/console.log" "$res/dmesg.txt" 2>/dev/null)
if [ -z "$warn" ]; then
	tap_ok "no kernel warnings"
else
	echo "$warn" | head -n 5 | tap_diag_file
	tap_not_ok "no kernel warnings"
fi
if summary=$(python3 "$QDIR/report.py" run "$out" 2>&1); then
	echo "$summary" | sed 's/^/# /'
	frac=$(echo "$summary" | sed -n 's/.*(\([0-9]*\)% of [0-9]* active disk.*/\1/p')
	tap_check "disk-side throughput read and within the disks' limit (${frac}%)" \
		test -n "$frac" -a "${frac:-999}" -gt 0 -a "${frac:-999}" -le 105
else
	echo "$summary" | tap_diag_file
	tap_not_ok "disk-side throughput read"
fi
gi="$res/guest-info"
tap_check "two vCPUs in the guest ($(sed -n 's/^cpus //p' "$gi"))" \
	grep -qx 'cpus 2' "$gi"
# shellcheck disable=SC2016
tap_check "data disks are spindles (rotational 1) under bfq" \
	sh -c '! grep -E "^rotational " "$1" | grep -qv " 1\$" &&
		grep -qE "^rotational " "$1" &&
		! grep -E "^scheduler " "$1" | grep -qv "\[bfq\]"' - "$gi"
# shellcheck disable=SC2016
tap_check "data disks mounted as xfs" \
	sh -c 'grep -q " /mnt/d0 xfs " "$1" && grep -q " /mnt/d1 xfs " "$1"' \
	- "$res/mounts"
if echo "$summary" | grep -q 'blktrace: [1-9][0-9]* reads.*Q2C [0-9.]* ms, D2C [0-9.]* ms'; then
	tap_ok "blktrace of the data disks parsed (blkparse, btt)"
else
	tap_not_ok "blktrace of the data disks parsed (blkparse, btt; $out/bt)"
fi

# --- 3. Readahead stats -------------------------------------------------
if [ "$(cat "$res/have-stats")" = yes ]; then
	tap_check "readahead stats table read back (an 'all' row)" \
		grep -qE '^[[:space:]]*all[[:space:]]' "$res/ra-stats"
	# shellcheck disable=SC2016
	tap_check "readahead stats has the io/size/async_size columns" \
		sh -c 'head -n 3 "$1" | grep -q readahead &&
			head -n 3 "$1" | grep -q io_size &&
			head -n 3 "$1" | grep -q async_size' - "$res/ra-stats"
	tap_check "readahead stats counts dropped trace lines" \
		grep -qE '^dropped +[0-9]+$' "$res/ra-stats"
else
	tap_skip "readahead stats table read back" \
		"no /sys/kernel/debug/readahead/stats in this kernel"
fi

# --- 4. Trace -------------------------------------------------------------
trace="$out/trace.txt"
if [ "$(cat "$res/have-trace")" = yes ]; then
	# One "garbage_write RESULT before=V after=V" line with the trace
	# off, one with it on.
	while read -r _ r b a; do
		tap_check "garbage write to trace_enable refused with EINVAL ($b: $r)" \
			test "$r" = EINVAL
		tap_check "trace_enable unchanged by the garbage write ($b $a)" \
			test "${b#before=}" = "${a#after=}"
	done < "$res/checks"
	tap_check "both garbage writes tried" test "$(grep -c . "$res/checks")" -eq 2
	grep 'readahead-' "$res/dmesg.txt" > "$trace"
	nl=$(wc -l < "$trace")
	tap_check "trace lines saved ($nl in $trace)" test "$nl" -gt 0
	ana="$BUILD/analyzer/ra_analyze"
	if [ -x "$ana" ]; then
		"$ana" "$trace" > "$out/analyzer.txt" 2>&1
		last=$(tail -n 1 "$out/analyzer.txt")
		p=$(echo "$last" | sed -n 's/^lines: \([0-9]*\) parsed, \([0-9]*\) skipped.*/\1/p')
		s=$(echo "$last" | sed -n 's/^lines: \([0-9]*\) parsed, \([0-9]*\) skipped.*/\2/p')
		tap_check "ra_analyze parsed the trace ($last)" \
			test -n "$p" -a "${p:-0}" -gt 0 -a "${s:-1}" -eq 0
	else
		tap_skip "ra_analyze parsed the trace" "no $ana (make -C tools/testing/readahead/analyzer)"
	fi
else
	tap_skip "garbage write to trace_enable refused" \
		"no /sys/kernel/debug/readahead/trace_enable in this kernel"
	tap_skip "trace lines saved and analyzed" "no trace interface in this kernel"
fi

echo "# smoke took $(($(date +%s) - start))s; results in $out"
tap_end; exit
