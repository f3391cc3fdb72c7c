#!/bin/sh
# unpack-tree.sh - unpack one of Debian's kernel sources (scripts/config:
# KSRC_PKG, the base, or OLD_PKG, the backport's) into a build directory.
#
# Usage: unpack-tree.sh DEST [PKG]
# PKG is a package named in scripts/config, KSRC_PKG when omitted.  DEST
# becomes a pristine copy of its tarball's tree.  A stamp file
# (DEST/.unpacked) records a finished unpack and the package, so an
# interrupted one is redone and a finished one is reused.  The tree is a
# build input: never commit it.
set -eu

dest=$1
. "$(dirname "$0")/config"
pkg=${2:-$KSRC_PKG}
case $pkg in
"$KSRC_PKG"|"$OLD_PKG") ;;
*)
	echo "unpack-tree: unknown package '$pkg' (scripts/config names" \
		"$KSRC_PKG and $OLD_PKG)" >&2
	exit 2
	;;
esac
tarball=/usr/src/$pkg.tar.xz
stamp="$dest/.unpacked"

if [ -f "$stamp" ]; then
	have=$(cat "$stamp")
	[ "$have" = "$pkg" ] && exit 0
	echo "unpack-tree: $dest holds ${have:-another tree}, not $pkg:" \
		"unpacking again"
fi
if [ ! -f "$tarball" ]; then
	echo "unpack-tree: $tarball missing (make deps installs $pkg)" >&2
	exit 1
fi
echo "unpack-tree: $tarball -> $dest"
rm -rf "$dest" "$dest.tmp"
mkdir -p "$dest.tmp"
tar -xJf "$tarball" -C "$dest.tmp" --strip-components=1
mv "$dest.tmp" "$dest"
echo "$pkg" > "$stamp"
