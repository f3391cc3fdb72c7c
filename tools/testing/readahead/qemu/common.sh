# common.sh - paths and small helpers shared by the QEMU bench scripts.
#
# Sourced (not run) by build-kernel.sh, build-initramfs.sh, make-disks.sh,
# run-guest.sh, ab.sh and smoke.sh.  Owns: where things live (repo root,
# build/ output directories, kernel trees and object directories) and the
# message/die helpers; sources scripts/config and scripts/tap.sh for
# them.  Every generated file goes under $QB (build/qemu)
# or the kernel object directories, all inside the git-ignored build/.
# shellcheck shell=sh disable=SC2034

# QDIR: this folder (qemu/), where a script sourcing this lives unless it
# set QDIR first (the reliability runs, in reliability/, and nbd/'s);
# RDIR: the reliability runs.
QDIR=${QDIR:-$(cd "$(dirname "$0")" && pwd)}
RDIR=$QDIR/reliability
TOP=$(cd "$QDIR/../../../.." && pwd)
SCRIPTS="$TOP/tools/testing/readahead/scripts"
BUILD="$TOP/build"
QB="$BUILD/qemu"
# The TAP helpers the test scripts print their checks with.
# shellcheck source=../scripts/tap.sh
. "$SCRIPTS/tap.sh"
# The kernel source packages and where they are unpacked (scripts/config).
# shellcheck source=../scripts/config
. "$SCRIPTS/config"
# RA_BASE: the kernel the scripts build and boot, 6.12 (the series' base,
# the default) or 6.1 (its backport).  The 6.1 kernels' object
# directories and labels end in -6.1.
case ${RA_BASE:-6.12} in
6.12)
	BASE_PKG=$KSRC_PKG
	PRISTINE_TREE="$BUILD/$KSRC_DIR"
	PATCHED_TREE="$BUILD/linux-patched"
	KOBJ_SUFFIX=
	;;
6.1)
	BASE_PKG=$OLD_PKG
	PRISTINE_TREE="$BUILD/$OLD_DIR"
	PATCHED_TREE="$BUILD/linux-patched-6.1"
	KOBJ_SUFFIX=-6.1
	;;
*)
	echo "RA_BASE=$RA_BASE: the bases are 6.12 and 6.1" >&2
	exit 2
	;;
esac

# Kernel object directory (make O=) of a kernel flavour.
kobj_dir() {
	echo "$BUILD/kbuild-$1$KOBJ_SUFFIX"
}

# Source tree of a kernel flavour.
ksrc_dir() {
	case $1 in
	pristine) echo "$PRISTINE_TREE" ;;
	patched | sanitized) echo "$PATCHED_TREE" ;;
	*) die "unknown kernel flavour '$1' (pristine, patched or sanitized)" ;;
	esac
}

ME=$(basename "$0" .sh)

msg() {
	echo "$ME: $*"
}

die() {
	echo "$ME: $*" >&2
	exit 1
}

# mkfs.xfs, debugfs, blkparse... live in /sbin or /usr/sbin.
PATH=$PATH:/usr/sbin:/sbin

# need PACKAGE COMMAND|/PATH...: die, naming PACKAGE, unless every
# command is on PATH and every path exists.  The scripts install nothing;
# the top-level Makefile's targets do (QEMU_DEPS, NBD_DEPS).
need() {
	_pkg=$1
	shift
	for _t in "$@"; do
		case $_t in
		/*) [ -e "$_t" ] ;;
		*) command -v "$_t" >/dev/null 2>&1 ;;
		esac || die "no $_t: install the Debian package $_pkg (make deps for the bench targets)"
	done
}

# build_kernel_tap FLAVOUR LOG: build-kernel.sh FLAVOUR, its output in
# LOG, as one TAP check "FLAVOUR kernel builds"; on failure the log's
# tail, the plan, and exit.  Sets $kernel to the bzImage's path.
build_kernel_tap() {
	if "$QDIR/build-kernel.sh" "$1" >"$2" 2>&1; then
		tap_ok "$1 kernel builds ($(grep -o 'built in [0-9]*s' "$2"))"
	else
		tail -n 20 "$2" | tap_diag_file
		tap_not_ok "$1 kernel builds (log: $2)"
		tap_end
		exit
	fi
	kernel=$(tail -n 1 "$2")
}

# Kernel reports in console logs or dmesg files ("splats"): prints every
# matching line (at most 20, with the file name), nothing when clean.
# Covers BUG/WARNING (also lockdep's and DEBUG_ATOMIC_SLEEP's), KASAN,
# UBSAN, lockdep, hung tasks, oopses, list corruption, bad pages, RCU.
SPLAT_RE='BUG:|WARNING:|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|INFO: task .* blocked|blocked for more than|Oops|general protection|kernel BUG|list_add corruption|list_del corruption|Kernel panic|Bad page|page dumped because|suspicious RCU usage|rcu.*(stall|self-detected)|soft lockup|Call Trace:|invoked oom-killer'
splat_scan() {
	grep -HE "$SPLAT_RE" "$@" 2>/dev/null | head -n 20
}

# splat_check TEST FILE...: one TAP check named TEST, not ok with the
# splat lines printed when FILE... hold any.
splat_check() {
	_test=$1
	shift
	_found=$(splat_scan "$@")
	if [ -z "$_found" ]; then
		tap_ok "$_test"
	else
		echo "$_found" | sed 's/^/#   /'
		tap_not_ok "$_test"
	fi
}

# The control disk: OUT/ctl packed as a tar at the start of a 256 MB raw
# image OUT/io.img; the guest reads its job there and writes results back.
pack_io_disk() {
	tar -cf "$1/ctl.tar" -C "$1/ctl" .
	truncate -s 256M "$1/io.img"
	dd if="$1/ctl.tar" of="$1/io.img" conv=notrunc status=none
}

# How the guest's CPUs run (RA_CPU_MODE; make BENCH_CPU):
#   wall (the default)  multi-threaded TCG, one host thread per vCPU; the
#       guest's clock is the host's, so its CPU time is host time spent
#       emulating, noise from the host's scheduling and other load
#   icount  -icount shift=0,sleep=on: one host thread runs all vCPUs in
#       turn (icount needs single-threaded TCG), and the guest's clock
#       advances 1 ns per instruction executed while a vCPU runs, at the
#       host's pace while all are idle; the guest's CPU time counts
#       instructions (README, "CPU time: icount")
RA_CPU_MODE=${RA_CPU_MODE:-wall}
case $RA_CPU_MODE in
wall) TCG_ARGS="-accel tcg,thread=multi" ;;
icount) TCG_ARGS="-accel tcg,thread=single -icount shift=0,sleep=on" ;;
*) die "bad RA_CPU_MODE '$RA_CPU_MODE' (allowed: wall, icount)" ;;
esac

# Boot KERNEL with INITRAMFS and MEM MB under TCG for at most LIMIT
# seconds, serial console to OUT/console.log, the remaining arguments
# (drives) passed to QEMU.  GUEST_CPUS vCPUs (default 1), TCG as
# RA_CPU_MODE says (TCG_ARGS), GUEST_APPEND added to the kernel's
# command line.  Sets rc (QEMU's, or timeout's 124) and secs.
boot_guest() {
	_limit=$1 _mem=$2 _kernel=$3 _initramfs=$4 _out=$5
	shift 5
	start=$(date +%s)
	rc=0
	# shellcheck disable=SC2086
	timeout --kill-after=10 "$_limit" qemu-system-x86_64 \
		$TCG_ARGS -cpu max -m "$_mem" \
		-smp "${GUEST_CPUS:-1}" -nodefaults -no-reboot \
		-display none -serial "file:$_out/console.log" \
		-kernel "$_kernel" -initrd "$_initramfs" \
		-append "console=ttyS0 panic=-1 oops=panic log_buf_len=16M printk.time=1 loglevel=5 rdinit=/init${GUEST_APPEND:+ $GUEST_APPEND}" \
		"$@" > "$_out/qemu.out" 2>&1 || rc=$?
	secs=$(($(date +%s) - start))
	echo "$secs" > "$_out/wall-seconds"
}

# The bench's spinning disks: one nbdkit per disk image,
# serving it read-only through the spindle filter (../nbd, make nbd) on
# a unix socket, which QEMU attaches as NBD.  SPINDLE_DISK holds the
# [disk] parameters all of them share (README, "The spindle disks");
# disk K gets seed=1 index=K, the simulator's draws for its disk K.
SPINDLE_DISK="capacity=8g rpm=2000 seek_ms=22.5 track_ms=2.5 rate_mbps=20 overhead_us=100 cache_kb=0"
# The guest's virtio queue depth with spindle disks (virtio_blk.
# queue_depth): one request on the platter, one waiting behind it, the
# rest in the guest's elevator (README, "The spindle set").
SPINDLE_QD=${RA_QD:-2}
SPINDLE_SO="$BUILD/nbd/spindle.so"

# Build (incrementally) the spindle filter.
spindle_build() {
	need gcc gcc
	need make make
	need nbdkit nbdkit
	need nbdkit-plugin-dev /usr/include/nbdkit-filter.h
	make -s -C "$TOP/tools/testing/readahead/nbd" OUT="$BUILD/nbd" \
		"$SPINDLE_SO" >&2 || die "building $SPINDLE_SO failed"
}

# spindle_start IMAGE SOCKET PIDFILE LOG INDEX [KEY=VALUE...]: serve
# IMAGE; returns when the socket is ready (nbdkit forks only then).
spindle_start() {
	_img=$1 _sock=$2 _pid=$3 _log=$4 _idx=$5
	shift 5
	[ -f "$SPINDLE_SO" ] || die "no $SPINDLE_SO (make nbd)"
	rm -f "$_sock" "$_pid"
	# shellcheck disable=SC2086
	nbdkit -r -U "$_sock" -P "$_pid" --filter="$SPINDLE_SO" \
		file "$_img" $SPINDLE_DISK seed=1 index="$_idx" "$@" \
		> "$_log" 2>&1 ||
		die "nbdkit for $_img failed: $(tail -n 3 "$_log")"
}

# spindle_stop PIDFILE...: stop the nbdkits started by spindle_start.
spindle_stop() {
	for _p in "$@"; do
		[ -f "$_p" ] && kill "$(cat "$_p")" 2>/dev/null
		rm -f "$_p"
	done
	return 0
}
