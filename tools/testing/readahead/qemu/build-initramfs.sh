#!/bin/sh
# build-initramfs.sh - build the bench guest's root filesystem, no root needed.
#
# Usage: build-initramfs.sh        (prints the initramfs path last)
#
# Owns build/qemu/initramfs.cpio.gz: Debian's static busybox, Debian's
# fio with every shared library `ldd` lists and the dynamic loader (at the
# paths ldd shows), and guest-init.sh as /init.  The archive is written by
# the kernel's own usr/gen_init_cpio (compiled here from the pristine
# tree's usr/gen_init_cpio.c), so /dev/console and the directories are
# created from a file list: no root privileges, no mknod.  Rebuilt only
# when the init script, the busybox or fio binaries or this script change
# (build/qemu/initramfs.stamp holds their checksum).
set -eu

. "$(dirname "$0")/common.sh"

"$SCRIPTS/deps.sh" busybox-static fio gcc libc6-dev gzip linux-source-6.1 \
	xz-utils
"$SCRIPTS/unpack-tree.sh" "$PRISTINE_TREE"

out="$QB/initramfs.cpio.gz"
stamp="$QB/initramfs.stamp"
mkdir -p "$QB"
busybox=/bin/busybox
fio=$(command -v fio) || die "fio not installed"
ldd "$busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "$busybox is not static (install busybox-static)"

want=$(cat "$0" "$QDIR/guest-init.sh" "$busybox" "$fio" | sha1sum)
want=${want%% *}
if [ -f "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$out"
	exit 0
fi

gen="$QB/gen_init_cpio"
[ -x "$gen" ] || gcc -O2 -o "$gen" "$PRISTINE_TREE/usr/gen_init_cpio.c"

list="$QB/initramfs.list"
libs=$(ldd "$fio" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
	$1 ~ /^\// { print $1 }' | sort -u)
[ -n "$libs" ] || die "ldd $fio listed no libraries"
# Every directory the archive needs (also the parents of the libraries),
# listed parents first as gen_init_cpio wants.
{
	for d in /bin /sbin /dev /proc /sys /tmp /mnt /ctl /results /etc \
			/usr/bin /usr/sbin; do
		echo "$d"
	done
	for l in $libs; do
		d=$(dirname "$l")
		while [ "$d" != / ]; do
			echo "$d"
			d=$(dirname "$d")
		done
	done
} | sort -u | awk '{ print length($0), $0 }' | sort -n |
	while read -r _ d; do echo "dir $d 0755 0 0"; done > "$list"
{
	echo "nod /dev/console 0600 0 0 c 5 1"
	echo "nod /dev/null 0666 0 0 c 1 3"
	echo "file /init $QDIR/guest-init.sh 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	echo "file /usr/bin/fio $fio 0755 0 0"
	# Shared objects at the paths ldd reports, from their real files.
	for l in $libs; do
		echo "file $l $(readlink -f "$l") 0755 0 0"
	done
} >> "$list"

"$gen" "$list" | gzip -6 > "$out.tmp"
mv "$out.tmp" "$out"
echo "$want" > "$stamp"
msg "built $out ($(du -h "$out" | cut -f1))"
echo "$out"
