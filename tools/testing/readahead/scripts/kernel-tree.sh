#!/bin/sh
# kernel-tree.sh - build the patched kernel source tree the bench compiles.
#
# Usage: kernel-tree.sh PRISTINE_TREE PATCHED_TREE REPO_ROOT
#
# PATCHED_TREE is a separate, full copy of Debian's kernel source (made
# with unpack-tree.sh, never by touching PRISTINE_TREE), with
#   1. the series applied, quilt style: one patch file name per line, in
#      apply order; blank lines and '#' comments are ignored; a missing or
#      empty series means no patches.  Each patch is applied with
#      patch -p1, without fuzz.
#   2. the project-owned whole files (OWNED_FILES, relative to REPO_ROOT)
#      copied over the tree's versions.
# Which series is read from the package PRISTINE_TREE was unpacked from
# (its .unpacked stamp): the base (KSRC_PKG of scripts/config) takes
# REPO_ROOT/patches/series; the older LTS (OLD_PKG) takes the backport's,
# REPO_ROOT/BACKPORT/patches/series, and its mm/readahead.c is the base's
# with REPO_ROOT/BACKPORT/readahead.c.patch applied.
#
# Re-running is cheap and idempotent.  PATCHED_TREE/.readahead-patches
# records "sha1  name" of every applied patch (and the OWNED_FILES list);
# when the series, any patch or that list changes, the tree is deleted,
# unpacked again and re-patched, so no half-applied or stale patch
# survives.  Unpacking restores the tarball's old mtimes, so the files the
# previous patches and owned files had changed (PATCHED_TREE/
# .readahead-touched) are touched afterwards: objects built from them are
# rebuilt by an incremental make in an existing O= directory.  Owned files
# are copied only when their content differs, so make's incremental builds
# see only real changes.  PRISTINE_TREE is only checked for, never written.
set -eu

# Files the project owns outright (space separated, relative to the repo
# root and to the kernel tree).
OWNED_FILES="mm/readahead.c mm/readahead_debug.c mm/readahead_outcome.c include/trace/events/readahead.h"

me=kernel-tree
if [ $# -ne 3 ]; then
	echo "usage: $0 PRISTINE_TREE PATCHED_TREE REPO_ROOT" >&2
	exit 2
fi
pristine=$1
tree=${2%/}
repo=$3
scripts=$(cd "$(dirname "$0")" && pwd)
. "$scripts/config"
stamp="$tree/.readahead-patches"
touched="$tree/.readahead-touched"

if [ ! -f "$pristine/.unpacked" ] || [ ! -f "$pristine/Makefile" ]; then
	echo "$me: pristine tree $pristine missing; create it with" \
		"$scripts/unpack-tree.sh $pristine" >&2
	exit 1
fi
if [ ! -d "$repo/patches" ] && [ ! -d "$repo/mm" ]; then
	echo "$me: $repo does not look like the project's repo root" \
		"(no patches/ or mm/)" >&2
	exit 1
fi
if [ -e "$tree" ] &&
		[ "$(cd "$tree" && pwd -P)" = "$(cd "$pristine" && pwd -P)" ]; then
	echo "$me: PATCHED_TREE must not be the pristine tree ($pristine)" >&2
	exit 1
fi

pkg=$(cat "$pristine/.unpacked")
case $pkg in
"$KSRC_PKG")
	pdir="$repo/patches"
	owned_patch=
	;;
"$OLD_PKG")
	pdir="$repo/$BACKPORT/patches"
	owned_patch="$repo/$BACKPORT/readahead.c.patch"
	OWNED_FILES=$(for f in $OWNED_FILES; do
		[ "$f" = "$BACKPORT_WITHOUT" ] || printf '%s ' "$f"
	done)
	;;
*)
	echo "$me: $pristine holds '$pkg', neither $KSRC_PKG nor $OLD_PKG;" \
		"unpack it again with $scripts/unpack-tree.sh" >&2
	exit 1
	;;
esac

# Work out the wanted stamp: "sha1  name" per series entry, in order.
series="$pdir/series"
want=$(mktemp)
oldtouched=$(mktemp)
trap 'rm -f "$want" "$oldtouched"' EXIT
echo "owned: $OWNED_FILES" > "$want"
if [ -f "$series" ]; then
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e 's/^[[:space:]]*//' \
		"$series" | grep -v '^$' |
	while read -r name extra; do
		if [ -n "$extra" ]; then
			echo "$me: $series: '$name $extra': only plain patch" \
				"names (applied with -p1) are supported" >&2
			exit 1
		fi
		if [ ! -f "$pdir/$name" ]; then
			echo "$me: $series lists $name, but" \
				"$pdir/$name does not exist" >&2
			exit 1
		fi
		sum=$(sha1sum < "$pdir/$name")
		echo "${sum%% *}  $name"
	done >> "$want"
fi

unpack() {
	"$scripts/unpack-tree.sh" "$tree" "$pkg"
}

# The files (-p1 stripped) a patch changes, creates, deletes or renames.
patch_files() {
	sed -n -E -e 's/^(---|\+\+\+) ([^[:space:]]+).*/\2/p' \
		-e 's/^rename (from|to) (.*)/x\/\2/p' "$1" |
	grep -v '^/dev/null$' | sed 's|^[^/]*/||'
}

fresh=0
if [ ! -f "$tree/.unpacked" ]; then
	unpack
	fresh=1
fi

if [ -f "$stamp" ] && cmp -s "$stamp" "$want"; then
	: # series already applied
else
	if [ "$fresh" -eq 0 ]; then
		echo "$me: patch series changed (or an earlier apply" \
			"failed): recreating $tree"
		cat "$touched" > "$oldtouched" 2>/dev/null || true
		rm -rf "$tree"
		unpack
	fi
	# No stamp while patching: an interrupted run recreates the tree.
	rm -f "$stamp"
	for f in $OWNED_FILES; do
		echo "$f"
	done > "$touched"
	grep -v '^owned: ' "$want" | while read -r _ name; do
		echo "$me: applying ${pdir#"$repo"/}/$name"
		patch_files "$pdir/$name" >> "$touched"
		if ! patch -d "$tree" -p1 --forward --batch --fuzz=0 \
				--no-backup-if-mismatch -s \
				< "$pdir/$name"; then
			echo "$me: $name does not apply cleanly to" \
				"$pkg (after the patches before it" \
				"in the series); rejects are left in $tree" >&2
			exit 1
		fi
	done
	# Files the previous patches or owned files changed got their
	# pristine content back with the tarball's old mtime: make them newer
	# than any object built from the old content.
	sort -u "$oldtouched" | while IFS= read -r f; do
		if [ -f "$tree/$f" ]; then
			touch "$tree/$f"
		fi
	done
	cp "$want" "$stamp"
fi

# Copy the owned files over the tree when their content differs (the
# backport's mm/readahead.c: the base's, patched).
for f in $OWNED_FILES; do
	if [ ! -f "$repo/$f" ]; then
		echo "$me: owned file $repo/$f is missing" >&2
		exit 1
	fi
	cp "$repo/$f" "$tree/$f.tmp"
	if [ -n "$owned_patch" ] && [ "$f" = mm/readahead.c ] &&
			! patch -s --fuzz=0 --no-backup-if-mismatch -r - \
				"$tree/$f.tmp" < "$owned_patch"; then
		rm -f "$tree/$f.tmp"
		echo "$me: $owned_patch does not apply to $f" >&2
		exit 1
	fi
	if cmp -s "$tree/$f.tmp" "$tree/$f"; then
		rm -f "$tree/$f.tmp"
	else
		echo "$me: updating $f"
		mv "$tree/$f.tmp" "$tree/$f"
	fi
done
