#!/bin/sh
# run-guest.sh - boot one bench kernel under QEMU and run one fio job in it.
#
# Usage: run-guest.sh [-t] [-c] [-s SECONDS] [-f FS] [-e SCHED]
#                     BZIMAGE JOBFILE OUTDIR
#   -t  turn the readahead trace on for the job (when the kernel has it)
#   -c  run the debugfs interface checks (garbage write to trace_enable)
#   -s  time limit of the whole QEMU run (default: the job's "# limit:"
#       line, else 900 s)
#   -f  file system of the data disks: ext4 or xfs (default: the first
#       of the job's "# fs:" line, else ext4)
#   -e  I/O scheduler of the data disks: mq-deadline, bfq, none, or
#       default: leave the kernel's choice (default: the first of the
#       job's "# sched:" line, else default)
# Environment: RA_BPS (bytes/s per throttled data disk, default
# 8000000), RA_IOPS (requests/s per throttled data disk, default 50),
# RA_MEM (guest MB; default: the job's "# mem:" line, else 1024), RA_KB (read_ahead_kb of the data
# disks; default: the kernel's, 128 for virtio-blk), RA_CPUS (vCPUs;
# default: the job's "# cpus:" line, else 2; 1 with RA_CPU_MODE=icount),
# RA_CPU_MODE (wall, the default, or icount: common.sh), RA_BLKTRACE (1, the
# default: blktrace the data disks; 0: not), RA_QD (the guest's virtio
# queue depth with spindle disks, 1 to 256 or "default", the driver's;
# default 2), RA_IOSCHED ("KEY=N ...": the scheduler's tunables, written
# to each data disk's queue/iosched/KEY, e.g. "slice_idle=40" for BFQ;
# KEY letters, digits and _, N 0 to 999999999).
#
# Owns one QEMU run.  The job file's header lines pick the machine:
#   # layout: NDISKS NFILES FILE_MB   the data disks (make-disks.sh)
#   # disks: spindle|throttled        spindle: each data disk served by
#       its own nbdkit through the spindle filter (common.sh,
#       SPINDLE_DISK) over a unix socket, attached as NBD; throttled
#       (the default): the image itself with QEMU's
#       throttling.bps-total/iops-total
#   # cpus: N                         vCPUs (multi-threaded TCG; 1 with
#       RA_CPU_MODE=icount, common.sh)
#   # mem: MB                         the guest's memory (128 to 4096)
#   # checksums: on|off               the guest's whole-file sha1 after
#       fio (default on)
#   # limit: SECONDS                  the run's time limit (60 to 86400),
#       for a job longer than the default 900 s
#   # fs: FS...  # sched: SCHED...    the variants ab.sh runs (-f, -e)
# The control archive (job, run.conf, sums) goes at the start of a raw
# I/O disk; QEMU runs with -accel tcg, -no-reboot, the serial console in
# OUTDIR/console.log, under `timeout`.  Then the guest's results tar is
# read back from the I/O disk into OUTDIR/results, and the guest's
# blktrace of each data disk dK (results/bt) is turned into
# OUTDIR/bt/dK.bin (blkparse -d), OUTDIR/bt/dK.txt (one line per event:
# action, RWBS, sector, sectors, time) and OUTDIR/bt/dK.btt (btt's
# latency table) for report.py.  Exit 0 when the guest reported status
# ok; 1 on a failed check, a panic/oops/BUG or kernel WARNING, a hang
# (timeout) or missing results, with the reason on stderr and in
# OUTDIR/run-failure.
set -eu
. "$(dirname "$0")/common.sh"

usage="usage: $0 [-t] [-c] [-s SECONDS] [-f ext4|xfs] [-e mq-deadline|bfq|none] BZIMAGE JOBFILE OUTDIR"
trace=0 checks=0 limit='' fs='' sched=''
while getopts tcs:f:e: opt; do
	case $opt in
	t) trace=1 ;;
	c) checks=1 ;;
	s) limit=$OPTARG ;;
	f) fs=$OPTARG ;;
	e) sched=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "$usage"
kernel=$1 job=$2 out=$3
bps=${RA_BPS:-8000000}
iops=${RA_IOPS:-50}
blktrace=${RA_BLKTRACE:-1}

[ -f "$kernel" ] || die "no kernel image $kernel"
[ -f "$job" ] || die "no job file $job"
# The value of a "# KEY: ..." header line of the job (empty if none).
job_key() {
	sed -n "s/^# $1:[[:space:]]*//p" "$job" | head -n 1
}
# shellcheck disable=SC2046
set -- $(job_key layout)
[ $# -eq 3 ] || die "$job has no '# layout: NDISKS NFILES FILE_MB' line"
nd=$1 nf=$2 mb=$3
disktype=$(job_key disks)
disktype=${disktype:-throttled}
case $disktype in
spindle | throttled) ;;
*) die "$job: bad '# disks: $disktype' (allowed: spindle, throttled)" ;;
esac
# shellcheck disable=SC2046
[ -n "$limit" ] || { set -- $(job_key limit) 900; limit=$1; }
case $limit in
'' | *[!0-9]*) die "bad time limit '$limit' s (allowed: 60 to 86400)" ;;
esac
[ ${#limit} -le 5 ] && [ "$limit" -ge 60 ] && [ "$limit" -le 86400 ] ||
	die "bad time limit '$limit' s (allowed: 60 to 86400)"
# shellcheck disable=SC2046
set -- $(job_key mem) 1024
mem=${RA_MEM:-$1}
case $mem in
'' | *[!0-9]*) die "bad guest memory '$mem' MB (allowed: 128 to 4096)" ;;
esac
[ "$mem" -ge 128 ] && [ "$mem" -le 4096 ] ||
	die "bad guest memory '$mem' MB (allowed: 128 to 4096)"
# shellcheck disable=SC2046
set -- $(job_key cpus) 2
cpus=${RA_CPUS:-$1}
case $cpus in
[1-4]) ;;
*) die "bad vCPU count '$cpus' (allowed: 1 to 4, the kernel's NR_CPUS)" ;;
esac
# icount (RA_CPU_MODE, common.sh) runs one vCPU: QEMU 7.2's round-robin
# icount never runs a second x86 vCPU again once it has executed its
# first PAUSE, so 6.1 hangs bringing it up (README, "CPU time: icount").
if [ "$RA_CPU_MODE" = icount ] && [ "$cpus" -gt 1 ]; then
	[ -z "${RA_CPUS:-}" ] ||
		die "RA_CPUS=$cpus with RA_CPU_MODE=icount: QEMU's icount boots one x86 vCPU only"
	cpus=1
fi
# shellcheck disable=SC2046
[ -n "$fs" ] || { set -- $(job_key fs) ext4; fs=$1; }
case $fs in
ext4 | xfs) ;;
*) die "bad file system '$fs' (allowed: ext4, xfs)" ;;
esac
# shellcheck disable=SC2046
[ -n "$sched" ] || { set -- $(job_key sched) default; sched=$1; }
case $sched in
mq-deadline | bfq | none | default) ;;
*) die "bad I/O scheduler '$sched' (allowed: mq-deadline, bfq, none, default)" ;;
esac
iosched=${RA_IOSCHED:-}
for kv in $iosched; do
	case $kv in
	*=*) ;;
	*) die "bad RA_IOSCHED entry '$kv' (allowed: KEY=N)" ;;
	esac
	key=${kv%%=*} val=${kv#*=}
	case $key in
	'' | *[!a-z0-9_]*) die "bad RA_IOSCHED entry '$kv' (allowed: KEY=N, KEY of a-z 0-9 _)" ;;
	esac
	case $val in
	'' | *[!0-9]*) die "bad RA_IOSCHED value '$kv' (allowed: 0 to 999999999)" ;;
	esac
	[ ${#val} -le 9 ] ||
		die "bad RA_IOSCHED value '$kv' (allowed: 0 to 999999999)"
done
case $blktrace in
0 | 1) ;;
*) die "bad RA_BLKTRACE '$blktrace' (allowed: 0, 1)" ;;
esac
need qemu-system-x86 qemu-system-x86_64
need tar tar
[ "$blktrace" = 0 ] || need blktrace blkparse btt
[ "$disktype" = throttled ] || spindle_build
disks=$("$QDIR/make-disks.sh" -t "$fs" "$nd" "$nf" "$mb" | tail -n 1)
initramfs=$("$QDIR/build-initramfs.sh" | tail -n 1)

rm -rf "$out"
mkdir -p "$out/ctl" "$out/results"
out=$(cd "$out" && pwd)
name=$(basename "$job" .fio)
cp "$job" "$out/ctl/job.fio"
cp "$QDIR/bench-guest.sh" "$out/ctl/test.sh"
# "# checksums: off": no whole-file sha1 in the guest after fio (whose
# crc32c headers still check every block it read), for a file too large
# to read whole in a run's time.
case $(job_key checksums) in
off) : > "$out/ctl/sums" ;;
'' | on) cp "$disks/sums" "$out/ctl/sums" ;;
*) die "$job: bad '# checksums: $(job_key checksums)' (allowed: on, off)" ;;
esac
cat > "$out/ctl/run.conf" <<CONF
NAME=$name
TRACE=$trace
CHECKS=$checks
READ_AHEAD_KB=${RA_KB:-}
FS=$fs
SCHED=$sched
BLKTRACE=$blktrace
IOSCHED="$iosched"
MARKS=$([ "$RA_CPU_MODE" = icount ] && echo 1 || echo 0)
CONF
{
	echo "kernel $kernel"
	echo "job $job"
	echo "layout $nd $nf $mb"
	echo "disks $disktype"
	if [ "$disktype" = spindle ]; then
		echo "spindle $SPINDLE_DISK"
		echo "queue_depth $SPINDLE_QD"
	else
		echo "bps $bps"
		echo "iops $iops"
	fi
	echo "cpus $cpus"
	echo "cpu_mode $RA_CPU_MODE"
	echo "fs $fs"
	echo "sched $sched"
	[ -z "$iosched" ] || echo "iosched $iosched"
	echo "mem $mem"
	echo "read_ahead_kb ${RA_KB:-default}"
} > "$out/host-info"
io="$out/io.img"
pack_io_disk "$out"

pids=
markpid=
cleanup() {
	# shellcheck disable=SC2086
	spindle_stop $pids
	rm -f "$out"/d*.sock
	if [ -n "$markpid" ]; then
		kill "$markpid" 2>/dev/null || :
		wait "$markpid" 2>/dev/null || :
		markpid=
	fi
	rm -f "$out/marks.in" "$out/marks.out"
}
trap cleanup EXIT
set -- -drive "if=none,id=io,file=$io,format=raw" \
	-device "virtio-blk-pci,drive=io,serial=raio"
# icount: the guest's clock is not the host's (common.sh), so the guest
# also writes "fio start" and "fio end" to a second serial port (ttyS1)
# whose lines the host stamps with its own clock as they arrive:
# OUTDIR/host-marks, "SECONDS.NANOSECONDS LINE", the fio run's wall time
# for report.py.
if [ "$RA_CPU_MODE" = icount ]; then
	rm -f "$out/marks.in" "$out/marks.out"
	mkfifo "$out/marks.in" "$out/marks.out"
	while IFS= read -r l; do
		printf '%s %s\n' "$(date +%s.%N)" "$(printf %s "$l" | tr -d '\r')"
	done < "$out/marks.out" > "$out/host-marks" &
	markpid=$!
	set -- "$@" -chardev "pipe,id=marks,path=$out/marks" \
		-device isa-serial,chardev=marks
fi
k=0
while [ "$k" -lt "$nd" ]; do
	if [ "$disktype" = spindle ]; then
		sock="$out/d$k.sock"
		spindle_start "$disks/d$k.img" "$sock" "$out/nbdkit-d$k.pid" \
			"$out/nbdkit-d$k.log" "$k"
		pids="$pids $out/nbdkit-d$k.pid"
		set -- "$@" -drive "if=none,id=d$k,file=nbd+unix:///?socket=$sock,format=raw,readonly=on"
	else
		set -- "$@" -drive "if=none,id=d$k,file=$disks/d$k.img,format=raw,readonly=on,throttling.bps-total=$bps,throttling.iops-total=$iops"
	fi
	set -- "$@" -device "virtio-blk-pci,drive=d$k,serial=rad$k"
	k=$((k + 1))
done

log="$out/console.log"
append=
if [ "$disktype" = spindle ]; then
	case $SPINDLE_QD in
	default) ;;
	'' | *[!0-9]*) die "bad RA_QD '$SPINDLE_QD' (allowed: 1 to 256, or default)" ;;
	*)
		[ "$SPINDLE_QD" -ge 1 ] && [ "$SPINDLE_QD" -le 256 ] ||
			die "bad RA_QD '$SPINDLE_QD' (allowed: 1 to 256, or default)"
		append="virtio_blk.queue_depth=$SPINDLE_QD"
		;;
	esac
fi
GUEST_APPEND=$append GUEST_CPUS=$cpus boot_guest "$limit" "$mem" "$kernel" "$initramfs" "$out" "$@"
if [ -n "$markpid" ]; then
	# QEMU has exited: the reader sees the end of the FIFO.
	wait "$markpid" 2>/dev/null || :
	markpid=
fi
cleanup
pids=

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

# --- The guest's blktrace, parsed on the host ----------------------------
if [ "$blktrace" = 1 ]; then
	bt="$out/results/bt"
	[ -d "$bt" ] || fail "blktrace asked for, but the guest saved no trace"
	mkdir -p "$out/bt"
	while read -r d v; do
		ls "$bt/$v".blktrace.* > /dev/null 2>&1 ||
			fail "no blktrace of $d ($v)"
		# Text: action RWBS sector sectors seconds, one event a line.
		blkparse -q -i "$v" -D "$bt" -d "$out/bt/$d.bin" \
			-f '%a %d %S %n %T.%9t\n' -o "$out/bt/$d.txt" \
			> /dev/null 2>&1 || fail "blkparse failed on $d ($v)"
		# btt writes its per-device .dat files into the current
		# directory: keep them in the run's.
		(cd "$out/bt" && btt -i "$d.bin" > "$d.btt" 2>&1) ||
			fail "btt failed on $d"
	done < "$out/results/disks"
	rm -rf "$bt"
fi
msg "$name ($fs, $sched) ok (${secs}s)"
