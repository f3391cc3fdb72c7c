#!/bin/sh
# unpack-tree.sh - unpack Debian's kernel source (KSRC_TARBALL of
# scripts/config) into a build directory.
#
# Usage: unpack-tree.sh DEST
# DEST becomes a pristine copy of the tarball's tree.  A stamp file
# records a finished unpack, so an interrupted one is redone and a
# finished one is reused.  The tree is a build input: never commit it.
set -eu

dest=$1
. "$(dirname "$0")/config"
tarball=$KSRC_TARBALL
stamp="$dest/.unpacked"

[ -f "$stamp" ] && exit 0
if [ ! -f "$tarball" ]; then
	echo "unpack-tree: $tarball missing (make deps installs $KSRC_PKG)" >&2
	exit 1
fi
echo "unpack-tree: $tarball -> $dest"
rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1
mv "$dest.tmp" "$dest"
touch "$stamp"
