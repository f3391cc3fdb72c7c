#!/bin/sh
# build-initramfs.sh - build the bench guest's root filesystem, no root needed.
#
# Usage: build-initramfs.sh [bench|rel|mini|fuse]   (prints the initramfs path last)
#
# Owns the guest images, by variant:
#   bench (default)  build/qemu/initramfs.cpio.gz: Debian's static busybox,
#                    Debian's fio and blktrace, guest-init.sh as /init
#                    (run-guest.sh)
#   rel              build/qemu/initramfs-rel.cpio.gz: busybox, fio,
#                    stress-ng, trace-cmd, ratool, guest-init.sh as /init
#                    (reliability-guest.sh)
#   mini             build/qemu/initramfs-mini.cpio.gz: busybox, ratool,
#                    guest-init.sh as /init: small enough for a guest of
#                    little memory (mempress.sh)
#   fuse             build/qemu/initramfs-fuse.cpio.gz: busybox, rafuse (a
#                    FUSE server and its reader), guest-init.sh as /init
#                    (fuse.sh)
# What a guest runs is the control archive's test.sh (bench-guest.sh for
# the bench), not part of the image.
# Dynamic programs go in with every shared library `ldd` lists and the
# dynamic loader (at the paths ldd shows); ratool (ratool.c) and rafuse
# (rafuse.c) are compiled here with gcc -static into build/qemu/.  The
# archive is written by the kernel's own usr/gen_init_cpio (compiled here
# from the pristine tree's usr/gen_init_cpio.c), so /dev/console and the
# directories are created from a file list: no root privileges, no
# mknod.  Rebuilt only when the init script, a program or this script
# change (build/qemu/initramfs[-VARIANT].stamp holds their checksum).
set -eu

. "$(dirname "$0")/common.sh"

variant=${1:-bench}
case $variant in
bench) suffix="" init="$QDIR/guest-init.sh" progs="fio blktrace" tools='' ;;
rel) suffix=-rel init="$QDIR/guest-init.sh" progs="fio stress-ng trace-cmd" tools=ratool ;;
mini) suffix=-mini init="$QDIR/guest-init.sh" progs='' tools=ratool ;;
fuse) suffix=-fuse init="$QDIR/guest-init.sh" progs='' tools=rafuse ;;
*) die "usage: $0 [bench|rel|mini|fuse]" ;;
esac
# blktrace lives in /usr/sbin.
PATH=$PATH:/usr/sbin:/sbin
need busybox-static /bin/busybox
need gcc gcc
need gzip gzip
need xz-utils xz
[ -z "$tools" ] || need libc6-dev /usr/lib/x86_64-linux-gnu/libc.a
[ "$tools" != rafuse ] || need linux-libc-dev /usr/include/linux/fuse.h
for p in $progs; do
	need "$p" "$p"
done
"$SCRIPTS/unpack-tree.sh" "$PRISTINE_TREE" "$BASE_PKG"

out="$QB/initramfs$suffix.cpio.gz"
stamp="$QB/initramfs$suffix.stamp"
mkdir -p "$QB"
busybox=/bin/busybox
ldd "$busybox" 2>&1 | grep -q 'not a dynamic' ||
	die "$busybox is not static (install busybox-static)"
bins=
for p in $progs; do
	b=$(command -v "$p") || die "$p not installed"
	bins="$bins $b"
done
# Our own static programs (NAME.c beside this script -> build/qemu/NAME):
# a second or so each; the archive is remade only if a binary changed.
tool_bins=
for t in $tools; do
	gcc -static -O2 -Wall -Wextra -Werror -o "$QB/$t" "$RDIR/$t.c" ||
		die "cannot build $QB/$t"
	tool_bins="$tool_bins $QB/$t"
done

# shellcheck disable=SC2086
want=$( {
	echo "variant $variant"
	cat "$0" "$init" "$busybox" $bins $tool_bins
} | sha1sum)
want=${want%% *}
if [ -f "$out" ] && [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$out"
	exit 0
fi

gen="$QB/gen_init_cpio"
[ -x "$gen" ] || gcc -O2 -o "$gen" "$PRISTINE_TREE/usr/gen_init_cpio.c"

list="$QB/initramfs$suffix.list"
libs=
for b in $bins; do
	l=$(ldd "$b" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }
		$1 ~ /^\// { print $1 }')
	[ -n "$l" ] || die "ldd $b listed no libraries"
	libs="$libs $l"
done
libs=$(for l in $libs; do echo "$l"; done | sort -u)
# Every directory the archive needs (also the parents of the libraries),
# listed parents first as gen_init_cpio wants.
{
	# /usr too: the kernel's unpacker makes no missing parents, and
	# without libraries (mini, fuse) nothing else would list it.
	for d in /bin /sbin /dev /proc /sys /tmp /mnt /ctl /results /etc \
			/usr /usr/bin /usr/sbin; do
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
	echo "file /init $init 0755 0 0"
	echo "file /bin/busybox $busybox 0755 0 0"
	echo "slink /bin/sh busybox 0777 0 0"
	for b in $bins; do
		echo "file /usr/bin/$(basename "$b") $b 0755 0 0"
	done
	for t in $tool_bins; do
		echo "file /usr/bin/$(basename "$t") $t 0755 0 0"
	done
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
