#!/bin/sh
# run-guest.sh - boot one bench kernel under QEMU and run one fio job in it.
#
# Usage: run-guest.sh [-t] [-c] [-s SECONDS] BZIMAGE JOBFILE OUTDIR
#   -t  turn the readahead trace on for the job (when the kernel has it)
#   -c  run the debugfs interface checks (garbage write to trace_enable)
#   -s  time limit of the whole QEMU run (default 900 s)
# Environment: RA_BPS (bytes/s per data disk, default 8000000),
# RA_IOPS (requests/s per data disk, default 50), RA_MEM (guest MB,
# default 1024), RA_KB (read_ahead_kb of the data disks; default: the
# kernel's, 128 for virtio-blk).
#
# Owns one QEMU run: the job file's "# layout: NDISKS NFILES FILE_MB"
# line picks the data disks (make-disks.sh); the control archive (job,
# run.conf, sums) goes at the start of a raw I/O disk; QEMU runs with
# -accel tcg, -no-reboot, the serial console in OUTDIR/console.log, one
# throttled (throttling.bps-total/iops-total) read-only virtio-blk disk
# per data image and the unthrottled I/O disk, under `timeout`.  Then the
# guest's results tar is read back from the I/O disk into
# OUTDIR/results.  Exit 0 when the guest reported status ok; 1 on a
# failed check, a panic/oops/BUG or kernel WARNING, a hang (timeout) or
# missing results, with the reason on stderr and in OUTDIR/run-failure.
set -eu
. "$(dirname "$0")/common.sh"

trace=0 checks=0 limit=900
while getopts tcs: opt; do
	case $opt in
	t) trace=1 ;;
	c) checks=1 ;;
	s) limit=$OPTARG ;;
	*) die "usage: $0 [-t] [-c] [-s SECONDS] BZIMAGE JOBFILE OUTDIR" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "usage: $0 [-t] [-c] [-s SECONDS] BZIMAGE JOBFILE OUTDIR"
kernel=$1 job=$2 out=$3
bps=${RA_BPS:-8000000}
iops=${RA_IOPS:-50}
mem=${RA_MEM:-1024}

[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$job" ] || die "no job file $job"
"$SCRIPTS/deps.sh" qemu-system-x86 tar coreutils
# shellcheck disable=SC2046
set -- $(sed -n 's/^# layout:[[:space:]]*//p' "$job" | head -n 1)
[ $# -eq 3 ] || die "$job has no '# layout: NDISKS NFILES FILE_MB' line"
nd=$1 nf=$2 mb=$3
disks=$("$QDIR/make-disks.sh" "$nd" "$nf" "$mb" | tail -n 1)
initramfs=$("$QDIR/build-initramfs.sh" | tail -n 1)

rm -rf "$out"
mkdir -p "$out/ctl" "$out/results"
out=$(cd "$out" && pwd)
name=$(basename "$job" .fio)
cp "$job" "$out/ctl/job.fio"
cp "$disks/sums" "$out/ctl/sums"
cat > "$out/ctl/run.conf" <<CONF
NAME=$name
TRACE=$trace
CHECKS=$checks
READ_AHEAD_KB=${RA_KB:-}
CONF
cat > "$out/host-info" <<INFO
kernel $kernel
job $job
layout $nd $nf $mb
bps $bps
iops $iops
mem $mem
read_ahead_kb ${RA_KB:-default}
INFO
io="$out/io.img"
pack_io_disk "$out"

set -- -drive "if=none,id=io,file=$io,format=raw" \
	-device "virtio-blk-pci,drive=io,serial=raio"
k=0
while [ "$k" -lt "$nd" ]; do
	set -- "$@" -drive "if=none,id=d$k,file=$disks/d$k.img,format=raw,readonly=on,throttling.bps-total=$bps,throttling.iops-total=$iops" \
		-device "virtio-blk-pci,drive=d$k,serial=rad$k"
	k=$((k + 1))
done

log="$out/console.log"
boot_guest "$limit" "$mem" "$kernel" "$initramfs" "$out" "$@"

label=$(echo "$kernel" | sed -n 's|.*/kbuild-\([^/]*\)/.*|\1|p')
[ -n "$label" ] || label=$kernel
fail() {
	echo "$*" > "$out/run-failure"
	echo "$ME: $name on $label: FAILED: $*" \
		"(${secs}s; console: $log)" >&2
	exit 1
}
if grep -qE 'Kernel panic|BUG:|Oops|general protection fault' "$log" 2>/dev/null; then
	grep -m 5 -E 'Kernel panic|BUG:|Oops|general protection|WARNING:' "$log" >&2
	fail "kernel crashed (panic/oops/BUG in the console log)"
fi
[ "$rc" -eq 124 ] || [ "$rc" -eq 137 ] && fail "hung: QEMU killed after ${limit}s"
[ "$rc" -eq 0 ] || fail "qemu exited with status $rc: $(head -c 300 "$out/qemu.out")"
tar -xf "$io" -C "$out/results" 2>/dev/null ||
	fail "no results archive on the I/O disk (guest did not finish)"
[ -f "$out/results/status" ] || fail "guest wrote no status"
if grep -q 'WARNING: CPU:' "$log" 2>/dev/null; then
	grep -m 5 -A 3 'WARNING: CPU:' "$log" >&2
	fail "kernel warning (WARNING: CPU: ... in the console log)"
fi
rm -f "$io" "$out/ctl.tar"
if [ "$(cat "$out/results/status")" != ok ]; then
	fail "guest reported: $(cat "$out/results/failures" 2>/dev/null)"
fi
msg "$name ok (${secs}s)"
