#!/bin/sh
# reliability-guest.sh - boot a kernel under QEMU and run one reliability test in it.
#
# Usage: reliability-guest.sh [options] BZIMAGE TEST_SH OUTDIR
#   -s SECONDS   time limit of the whole QEMU run (default 600)
#   -m MB        guest memory (default 1024)
#   -i VARIANT   initramfs variant, build-initramfs.sh rel|mini (default rel)
#   -l "D F MB"  data disks, as make-disks.sh D F MB (default "2 2 8")
#   -b CONF      put data disk 0 behind QEMU's blkdebug driver with this
#                rule file (inject-error rules: reads of some sectors fail)
#   -w MB        add a fresh read-write ext4 scratch disk of MB megabytes
#                (serial "rascratch", mounted on /scratch; not throttled)
#   -c FILE      copy FILE into the guest's /ctl too (repeatable)
#   -e VAR=VAL   add VAR=VAL to the guest's /ctl/run.conf (repeatable)
# Environment: RA_BPS, RA_IOPS (data disk throttles, default 8000000 and
# 50, as run-guest.sh), RA_KB (read_ahead_kb of every data and scratch
# disk; default: the kernel's).
#
# Owns one reliability boot: the control archive (TEST_SH as test.sh,
# run.conf, the disks' sha1 sums, -c files) at the start of the raw I/O
# disk; QEMU -accel tcg with one vCPU, -no-reboot, the serial console in
# OUTDIR/console.log, under `timeout`; then the guest's results tar back
# into OUTDIR/results (guest-init.sh runs TEST_SH there).  Exit 0 when the
# guest finished and wrote results (whatever the test found: the caller
# judges OUTDIR/results and scans the logs with splat_scan); 1 on a hang
# (timeout), a QEMU failure or missing results, with the reason on stderr
# and in OUTDIR/run-failure.  OUTDIR/wall-seconds holds the run's time.
set -eu
QDIR=$(cd "$(dirname "$0")/.." && pwd)
. "$QDIR/common.sh"

limit=600 mem=1024 variant=rel layout="2 2 8" blkdebug='' scratch=0
ctlfiles='' conf=''
usage="usage: $0 [-s S] [-m MB] [-i rel|mini] [-l 'D F MB'] [-b CONF] [-w MB] [-c FILE].. [-e VAR=VAL].. BZIMAGE TEST_SH OUTDIR"
while getopts s:m:i:l:b:w:c:e: opt; do
	case $opt in
	s) limit=$OPTARG ;;
	m) mem=$OPTARG ;;
	i) variant=$OPTARG ;;
	l) layout=$OPTARG ;;
	b) blkdebug=$(cd "$(dirname "$OPTARG")" && pwd)/$(basename "$OPTARG") ;;
	w) scratch=$OPTARG ;;
	c) ctlfiles="$ctlfiles $OPTARG" ;;
	e) conf="$conf
$OPTARG" ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "$usage"
kernel=$1 test=$2 out=$3
bps=${RA_BPS:-8000000}
iops=${RA_IOPS:-50}

[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$test" ] || die "no test script $test"
need qemu-system-x86 qemu-system-x86_64
need tar tar
need e2fsprogs debugfs
# shellcheck disable=SC2086
set -- $layout
[ $# -eq 3 ] || die "-l wants 'NDISKS NFILES FILE_MB'"
nd=$1
disks=$("$QDIR/make-disks.sh" "$@" | tail -n 1)
initramfs=$("$QDIR/build-initramfs.sh" "$variant" | tail -n 1)

rm -rf "$out"
mkdir -p "$out/ctl" "$out/results"
out=$(cd "$out" && pwd)
name=$(basename "$test" .sh)
cp "$test" "$out/ctl/test.sh"
cp "$disks/sums" "$out/ctl/sums"
for f in $ctlfiles; do
	cp "$f" "$out/ctl/"
done
cat > "$out/ctl/run.conf" <<CONF
NAME=$name
READ_AHEAD_KB=${RA_KB:-}
$conf
CONF
cat > "$out/host-info" <<INFO
kernel $kernel
test $test
layout $layout
bps $bps
iops $iops
mem $mem
initramfs $initramfs
blkdebug ${blkdebug:-none}
scratch_mb $scratch
read_ahead_kb ${RA_KB:-default}
INFO
io="$out/io.img"
pack_io_disk "$out"

set -- -drive "if=none,id=io,file=$io,format=raw" \
	-device "virtio-blk-pci,drive=io,serial=raio"
k=0
while [ "$k" -lt "$nd" ]; do
	file=$disks/d$k.img
	if [ "$k" -eq 0 ] && [ -n "$blkdebug" ]; then
		# rerror=report: the guest sees the error (never stop the VM).
		file="blkdebug:$blkdebug:$file,rerror=report"
	fi
	set -- "$@" -drive "if=none,id=d$k,file=$file,format=raw,readonly=on,throttling.bps-total=$bps,throttling.iops-total=$iops" \
		-device "virtio-blk-pci,drive=d$k,serial=rad$k"
	k=$((k + 1))
done
if [ "$scratch" -gt 0 ]; then
	s="$out/scratch.img"
	truncate -s "${scratch}M" "$s"
	mke2fs -q -t ext4 -L scratch -m 0 \
		-E lazy_itable_init=0,lazy_journal_init=0 "$s" ||
		die "mke2fs failed for $s"
	# Not throttled: it carries races, not measurements.
	set -- "$@" -drive "if=none,id=scratch,file=$s,format=raw" \
		-device "virtio-blk-pci,drive=scratch,serial=rascratch"
fi

log="$out/console.log"
boot_guest "$limit" "$mem" "$kernel" "$initramfs" "$out" "$@"
rm -f "$out/scratch.img"

fail() {
	echo "$*" > "$out/run-failure"
	echo "$ME: $name: FAILED: $* (${secs}s; console: $log)" >&2
	exit 1
}
{ [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; } && fail "hung: QEMU killed after ${limit}s"
[ "$rc" -eq 0 ] || fail "qemu exited with status $rc: $(head -c 300 "$out/qemu.out")"
tar -xf "$io" -C "$out/results" 2>/dev/null ||
	fail "no results archive on the I/O disk (guest did not finish)"
[ -f "$out/results/test.rc" ] || fail "the guest did not run the test to its end"
rm -f "$io" "$out/ctl.tar"
msg "$name finished (${secs}s)"
