#!/bin/sh
# make-disks.sh - the bench's data disks: ext4 images with the test files in.
#
# Usage: make-disks.sh NDISKS NFILES FILE_MB   (prints the directory last)
#
# Owns build/qemu/disks-NDISKSxNFILESxFILE_MBM/: dK.img (K = 0..NDISKS-1),
# each an ext4 image made without root by `mke2fs -t ext4 -d STAGING`
# holding files fJ (J = 0..NFILES-1) of FILE_MB MB, and `sums`, the
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

[ $# -eq 3 ] || die "usage: $0 NDISKS NFILES FILE_MB"
nd=$1 nf=$2 mb=$3
"$SCRIPTS/deps.sh" e2fsprogs fio

dir="$QB/disks-${nd}x${nf}x${mb}M"
stamp="$dir/.made"
# Bump when the content or format of the images changes: existing
# images are then made again.
want="recipe 1: fio write 1M crc32c/4096 randseed 1000+100k+j; mke2fs ext4 -m 0"
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
	# Room for the files plus ext4's metadata and journal.
	size=$((nf * mb + nf * mb / 8 + 32))
	rm -f "$dir/d$k.img"
	mke2fs -q -t ext4 -L "d$k" -m 0 -E lazy_itable_init=0,lazy_journal_init=0 \
		-d "$stage/d$k" "$dir/d$k.img" "${size}M" > /dev/null ||
		die "mke2fs failed for $dir/d$k.img"
	rm -rf "${stage:?}/d$k"
	k=$((k + 1))
done
rmdir "$stage"
mv "$dir/sums.tmp" "$dir/sums"
echo "$want" > "$stamp"
msg "made $nd ext4 image(s) of $nf x ${mb} MB files in $dir"
echo "$dir"
