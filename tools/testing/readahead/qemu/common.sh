# common.sh - paths and small helpers shared by the QEMU bench scripts.
#
# Sourced (not run) by build-kernel.sh, build-initramfs.sh, make-disks.sh,
# run-guest.sh, ab.sh and smoke.sh.  Owns: where things live (repo root,
# build/ output directories, kernel trees and object directories) and the
# message/die helpers.  Every generated file goes under $QB (build/qemu)
# or the kernel object directories, all inside the git-ignored build/.
# shellcheck shell=sh disable=SC2034

QDIR=$(cd "$(dirname "$0")" && pwd)
TOP=$(cd "$QDIR/../../../.." && pwd)
SCRIPTS="$TOP/tools/testing/readahead/scripts"
BUILD="$TOP/build"
QB="$BUILD/qemu"
PRISTINE_TREE="$BUILD/linux-source-6.1"
PATCHED_TREE="$BUILD/linux-patched"

# Kernel object directory (make O=) of a kernel flavour.
kobj_dir() {
	echo "$BUILD/kbuild-$1"
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

# Kernel reports in console logs or dmesg files ("splats"): prints every
# matching line (at most 20, with the file name), nothing when clean.
# Covers BUG/WARNING (also lockdep's and DEBUG_ATOMIC_SLEEP's), KASAN,
# UBSAN, lockdep, hung tasks, oopses, list corruption, bad pages, RCU.
SPLAT_RE='BUG:|WARNING:|KASAN:|UBSAN:|possible circular locking|possible recursive locking|inconsistent lock state|INFO: task .* blocked|blocked for more than|Oops|general protection|kernel BUG|list_add corruption|list_del corruption|Kernel panic|Bad page|page dumped because|suspicious RCU usage|rcu.*(stall|self-detected)|soft lockup|Call Trace:|invoked oom-killer'
splat_scan() {
	grep -HE "$SPLAT_RE" "$@" 2>/dev/null | head -n 20
}
