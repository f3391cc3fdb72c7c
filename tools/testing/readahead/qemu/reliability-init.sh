#!/bin/sh
# reliability-init.sh - /init of the reliability guests (initramfs "rel" and "mini").
#
# Owns the frame of one reliability run inside the guest; the test itself
# is /ctl/test.sh, shipped by the host in the control archive (so a test
# changes without rebuilding the initramfs):
#   1. mount devtmpfs, proc, sysfs, debugfs, tmpfs;
#   2. untar the control archive (test.sh, run.conf, sums, ...) from the
#      I/O disk (serial "raio") into /ctl;
#   3. mount each data disk (serial "radN", ext4) read-only on /mnt/dN and
#      the scratch disk (serial "rascratch", ext4) read-write on /scratch;
#   4. run /ctl/test.sh with R=/results (it writes its findings there and
#      "FAIL: ..." lines to $R/failures), under the run.conf settings;
#   5. save dmesg, write /results as a tar over the I/O disk and `reboot -f`.
# Progress lines on the console start with "RA-REL:".
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
say() { echo "RA-REL: $*"; }

finish() {
	dmesg > $R/dmesg.txt
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
mkdir -p /scratch
for b in /sys/block/vd*; do
	[ -e "$b/serial" ] || continue
	s=$(cat "$b/serial")
	dev=/dev/${b##*/}
	case $s in
	raio) iodev=$dev ;;
	rascratch)
		if mount -t ext4 "$dev" /scratch; then
			echo "scratch ${b##*/}" >> /tmp/disks
		else
			echo "mount $dev ($s) read-write failed" >> $R/failures
		fi
		;;
	rad[0-9]*)
		d=${s#ra}
		mkdir -p "/mnt/$d"
		if mount -t ext4 -o ro "$dev" "/mnt/$d"; then
			echo "$d ${b##*/}" >> /tmp/disks
		else
			echo "mount $dev ($s) failed" >> $R/failures
		fi
		;;
	esac
done
if [ -z "$iodev" ] || ! tar -xf "$iodev" -C /ctl; then
	say "FAIL: no control archive (I/O disk: ${iodev:-none})"
	finish
fi
cp /tmp/disks $R/disks 2>/dev/null
READ_AHEAD_KB=
# Exported: test.sh reads its settings (DURATION, ...) from the environment.
set -a
# shellcheck disable=SC1091
. /ctl/run.conf
set +a
if [ -n "$READ_AHEAD_KB" ] && [ -f $R/disks ]; then
	while read -r _ v; do
		echo "$READ_AHEAD_KB" > "/sys/block/$v/queue/read_ahead_kb" ||
			echo "cannot set read_ahead_kb of $v" >> $R/failures
	done < $R/disks
fi
cat /proc/meminfo > $R/meminfo.start
say "test ${NAME:-?} start"
sh /ctl/test.sh > $R/test.out 2>&1
echo $? > $R/test.rc
say "test ${NAME:-?} end rc=$(cat $R/test.rc)"
finish
