#!/bin/sh
# make-disks.sh - the bench's data disks: ext4 or XFS images with the test
# files in.
#
# Usage: make-disks.sh [-t ext4|xfs] NDISKS NFILES FILE_MB
#        (prints the directory last)
#
# Owns build/qemu/disks-NDISKSxNFILESxFILE_MBM/ (ext4, the default) and
# build/qemu/disks-xfs-NDISKSxNFILESxFILE_MBM/: dK.img (K = 0..NDISKS-1),
# each an image made without root, ext4 by `mke2fs -t ext4 -d STAGING`,
# XFS by `mkfs.xfs -p PROTOFILE` (xfsprogs; at least 300 MB, mkfs.xfs's
# minimum, sparse), holding files fJ (J = 0..NFILES-1) of FILE_MB MB, in
# the root directory, written in file order, and `sums`, the
# sha1 of every file as "sha1  dK/fJ" (what the guest checks with
# `sha1sum -c` from /mnt).  The files are written on the host by fio
# itself (sequential 1 MB writes, crc32c verify headers every 4 KB, a
# different random seed per file), so the guest's fio jobs can verify
# every block they read (verify=crc32c, verify_interval=4096) whatever
# their block size, and files differ from each other.  Images are reused
# while the recipe below is unchanged; the guest mounts them
# read-only, so every run sees the same bytes.
set -eu

. "$(dirname "$0")/common.sh"

usage="usage: $0 [-t ext4|xfs] NDISKS NFILES FILE_MB"
fs=ext4
while getopts t: opt; do
	case $opt in
	t) fs=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
[ $# -eq 3 ] || die "$usage"
nd=$1 nf=$2 mb=$3
check_uint() { # NAME VALUE MIN MAX
	case $2 in
	'' | *[!0-9]*) die "bad $1 '$2' (allowed: $3 to $4)" ;;
	esac
	[ "$2" -ge "$3" ] && [ "$2" -le "$4" ] ||
		die "bad $1 '$2' (allowed: $3 to $4)"
}
check_uint NDISKS "$nd" 1 16
check_uint NFILES "$nf" 1 64
check_uint FILE_MB "$mb" 1 4096
case $fs in
ext4)
	need e2fsprogs mke2fs
	need fio fio
	dir="$QB/disks-${nd}x${nf}x${mb}M"
	;;
xfs)
	need xfsprogs mkfs.xfs
	need fio fio
	dir="$QB/disks-xfs-${nd}x${nf}x${mb}M"
	;;
*) die "bad file system '$fs' (allowed: ext4, xfs)" ;;
esac

stamp="$dir/.made"
# Bump when the content or format of the images changes: existing
# images are then made again.
want="recipe 1: fio write 1M crc32c/4096 randseed 1000+100k+j; mke2fs ext4 -m 0"
[ "$fs" = xfs ] &&
	want="recipe 1: fio write 1M crc32c/4096 randseed 1000+100k+j; mkfs.xfs -p, >= 300 MB"
if [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ]; then
	echo "$dir"
	exit 0
fi
rm -rf "$dir"
mkdir -p "$dir"
stage="$dir/staging"
: > "$dir/sums.tmp"
k=0
while [ "$k" -lt "$nd" ]; do
	mkdir -p "$stage/d$k"
	j=0
	while [ "$j" -lt "$nf" ]; do
		f="$stage/d$k/f$j"
		fio --name=w --filename="$f" --rw=write --bs=1M \
			--size="${mb}M" --ioengine=psync --verify=crc32c \
			--verify_interval=4096 --do_verify=0 \
			--verify_state_save=0 \
			--randseed=$((1000 + 100 * k + j)) \
			--output=/dev/null ||
			die "fio could not write $f"
		(cd "$stage" && sha1sum "d$k/f$j") >> "$dir/sums.tmp"
		j=$((j + 1))
	done
	# Room for the files plus the metadata and journal.
	size=$((nf * mb + nf * mb / 8 + 32))
	rm -f "$dir/d$k.img"
	if [ "$fs" = ext4 ]; then
		mke2fs -q -t ext4 -L "d$k" -m 0 \
			-E lazy_itable_init=0,lazy_journal_init=0 \
			-d "$stage/d$k" "$dir/d$k.img" "${size}M" > /dev/null ||
			die "mke2fs failed for $dir/d$k.img"
	else
		[ "$size" -ge 300 ] || size=300
		# The prototype file: no boot image, a root directory
		# (mode 755, uid/gid 0) holding the files in order.
		{
			printf '/dev/null\n0 0\nd--755 0 0\n'
			j=0
			while [ "$j" -lt "$nf" ]; do
				printf 'f%d ---644 0 0 %s\n' "$j" "$stage/d$k/f$j"
				j=$((j + 1))
			done
			printf '$\n'
		} > "$dir/proto"
		truncate -s "${size}M" "$dir/d$k.img"
		mkfs.xfs -q -L "d$k" -p "$dir/proto" "$dir/d$k.img" ||
			die "mkfs.xfs failed for $dir/d$k.img"
		rm -f "$dir/proto"
	fi
	rm -rf "${stage:?}/d$k"
	k=$((k + 1))
done
rmdir "$stage"
mv "$dir/sums.tmp" "$dir/sums"
echo "$want" > "$stamp"
msg "made $nd $fs image(s) of $nf x ${mb} MB files in $dir"
echo "$dir"
