#!/bin/sh
# guest-init.sh - /init of every guest (busybox ash inside the initramfs):
# the bench's (run-guest.sh) and the reliability runs' (reliability-guest.sh).
#
# Owns the frame of one run inside the guest; what the run does is
# /ctl/test.sh, shipped by the host in the control archive (the bench's is
# bench-guest.sh; each reliability test its own *-guest.sh), so a test
# changes without rebuilding the initramfs:
#   1. mount devtmpfs, proc, sysfs, debugfs, tmpfs;
#   2. untar the control archive (test.sh, run.conf, sums, ...) from the
#      I/O disk (serial "raio") into /ctl;
#   3. mount each data disk (serial "radN"; run.conf's FS, ext4 by
#      default) read-only on /mnt/dN and the scratch disk (serial
#      "rascratch", ext4) read-write on /scratch, listed in $R/disks
#      ("dN vdX", "scratch vdX"), a disk that fails to mount in
#      $R/failures; set their read_ahead_kb when run.conf asks;
#   4. run /ctl/test.sh with R=/results and run.conf's settings in the
#      environment, its output in $R/test.out, its exit status in
#      $R/test.rc;
#   5. save dmesg (unless the test did) and /proc/vmstat, write /results
#      as a tar over the I/O disk and `reboot -f` (QEMU runs with
#      -no-reboot, so it exits).
# Progress lines on the console start with "RA-GUEST:".
export PATH=/bin:/sbin:/usr/bin:/usr/sbin
export LD_LIBRARY_PATH=/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu:/usr/lib/x86_64-linux-gnu/ceph

/bin/busybox --install -s /bin
mount -t devtmpfs devtmpfs /dev 2>/dev/null
exec 0</dev/console 1>/dev/console 2>&1
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t debugfs debugfs /sys/kernel/debug
mount -t tmpfs tmpfs /tmp

R=/results
export R
iodev=
say() { echo "RA-GUEST: $*"; }

finish() {
	[ -f $R/dmesg.txt ] || dmesg > $R/dmesg.txt
	cat /proc/vmstat > $R/vmstat.end
	if [ -n "$iodev" ]; then
		tar -cf "$iodev" -C $R . && sync &&
			say "results written ($(du -sk $R | cut -f1) KB)"
	fi
	say "done"
	reboot -f
	sleep 10
}

say "init started, kernel $(uname -r), $(awk '/MemTotal/ { print $2 }' /proc/meminfo) kB"
for b in /sys/block/vd*; do
	[ "$(cat "$b/serial" 2>/dev/null)" = raio ] && iodev=/dev/${b##*/}
done
if [ -z "$iodev" ] || ! tar -xf "$iodev" -C /ctl; then
	say "FAIL: no control archive (I/O disk: ${iodev:-none})"
	finish
fi
FS=ext4
READ_AHEAD_KB=
# Exported: test.sh reads its settings (NAME, DURATION, ...) from the
# environment.
set -a
# shellcheck disable=SC1091
. /ctl/run.conf
set +a

mkdir -p /scratch
for b in /sys/block/vd*; do
	[ -e "$b/serial" ] || continue
	s=$(cat "$b/serial")
	dev=/dev/${b##*/}
	case $s in
	rascratch)
		if mount -t ext4 "$dev" /scratch; then
			echo "scratch ${b##*/}" >> $R/disks
		else
			echo "mount $dev ($s) read-write failed" >> $R/failures
		fi
		;;
	rad[0-9]*)
		d=${s#ra}
		mkdir -p "/mnt/$d"
		if mount -t "$FS" -o ro "$dev" "/mnt/$d"; then
			echo "$d ${b##*/}" >> $R/disks
		else
			echo "mount $dev ($s) failed" >> $R/failures
		fi
		;;
	esac
done
if [ -n "$READ_AHEAD_KB" ] && [ -f $R/disks ]; then
	while read -r _ v; do
		echo "$READ_AHEAD_KB" > "/sys/block/$v/queue/read_ahead_kb" ||
			echo "cannot set read_ahead_kb of $v to $READ_AHEAD_KB" \
				>> $R/failures
	done < $R/disks
fi
cat /proc/meminfo > $R/meminfo.start
say "test ${NAME:-?} start"
sh /ctl/test.sh > $R/test.out 2>&1
echo $? > $R/test.rc
say "test ${NAME:-?} end rc=$(cat $R/test.rc)"
finish
