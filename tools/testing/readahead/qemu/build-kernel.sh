#!/bin/sh
# build-kernel.sh - build the bench's pristine or patched 6.1 bzImage.
#
# Usage: build-kernel.sh pristine|patched|sanitized
#
# Owns the bench kernels: build/kbuild-FLAVOUR (make O=), configured as
# x86_64 tinyconfig + tools/testing/readahead/kconfig/qemu.config (+ the
# bench's own extra.config beside this script, when it has options),
# merged with scripts/kconfig/merge_config.sh -m and olddefconfig.  Every
# CONFIG_...=value line of the fragments must survive Kconfig, except
# options the tree does not define at all (the pristine tree lacks the
# ones the series adds).
#
# "pristine" is Debian's kernel source (KSRC_PKG in scripts/config) as
# unpacked (never written to: the build is out of tree); "patched" is
# that tree with patches/series applied and the project's mm/readahead.c copied in (kernel-tree.sh);
# "sanitized" is the patched tree with reliability/sanitized.config
# (KASAN, lockdep, DEBUG_VM, ...) merged last.
# Configuration is redone only when a fragment, the tree or the applied
# series changed; the build itself is an incremental make, so a second
# run with nothing changed costs a few seconds; a second build of the
# same flavour started meanwhile waits for the first (flock).  Prints
# the bzImage path as the last line.  Installs the build dependencies it
# needs.
set -eu

. "$(dirname "$0")/common.sh"

[ $# -eq 1 ] || die "usage: $0 pristine|patched|sanitized"
flavour=$1
tree=$(ksrc_dir "$flavour")
objdir=$(kobj_dir "$flavour")
frag="$TOP/tools/testing/readahead/kconfig/qemu.config"
extra="$QDIR/extra.config"
start=$(date +%s)

[ "$(uname -m)" = x86_64 ] || die "builds an x86_64 kernel natively; host is $(uname -m)"
for t in gcc make flex bison bc perl xz patch; do
	case $t in
	gcc | make) need build-essential "$t" ;;
	xz) need xz-utils xz ;;
	*) need "$t" "$t" ;;
	esac
done
need libelf-dev /usr/include/gelf.h
need libssl-dev /usr/include/openssl/ssl.h
"$SCRIPTS/unpack-tree.sh" "$PRISTINE_TREE" "$BASE_PKG"
if [ "$flavour" != pristine ]; then
	"$SCRIPTS/kernel-tree.sh" "$PRISTINE_TREE" "$PATCHED_TREE" "$TOP"
fi

frags=$frag
if [ -f "$extra" ] && grep -qE '^CONFIG_' "$extra"; then
	frags="$frags $extra"
fi
[ "$flavour" = sanitized ] && frags="$frags $RDIR/sanitized.config"

unset KCONFIG_CONFIG KCONFIG_ALLCONFIG
mkdir -p "$objdir"
# One build per object directory at a time: two make O= runs in one
# directory break each other (fixdep: error opening a .d file), and
# make check's smoke and ioerror stages, make bench and make nbd-guest
# all build the patched kernel.  The second waits for the first, then
# finds its work done.
need util-linux flock
exec 9> "$objdir/.bench-build.lock"
if ! flock -n 9; then
	msg "waiting for another build in $objdir"
	flock 9
fi
kmake() {
	make -C "$tree" O="$objdir" "$@"
}

# --- Configure (only when an input changed) ---------------------------
cstamp="$objdir/.bench-config"
# shellcheck disable=SC2086
want=$( {
	echo "recipe 1: tinyconfig + merge_config.sh -m + olddefconfig"
	echo "tree $tree"
	cat "$tree/.readahead-patches" 2>/dev/null || true
	cat $frags
} | sha1sum)
want=${want%% *}
if [ -f "$objdir/.config" ] && [ -f "$cstamp" ] &&
		[ "$(cat "$cstamp")" = "$want" ]; then
	: # configuration is current
else
	rm -f "$cstamp"
	clog="$objdir/bench-config.log"
	msg "configuring $objdir (tinyconfig + $frags)"
	# shellcheck disable=SC2086
	if ! { kmake tinyconfig &&
			"$tree/scripts/kconfig/merge_config.sh" -m \
				-O "$objdir" "$objdir/.config" $frags &&
			kmake olddefconfig; } > "$clog" 2>&1; then
		cat "$clog" >&2
		die "configuring $objdir failed (log: $clog)"
	fi
	# shellcheck disable=SC2086
	bad=$(cat $frags | grep -E '^CONFIG_[A-Za-z0-9_]+=' |
	while IFS= read -r line; do
		grep -qxF "$line" "$objdir/.config" && continue
		sym=${line%%=*}
		# An option the series itself adds (e.g. READAHEAD_DEBUGFS)
		# does not exist in the pristine tree: nothing to check.
		if ! grep -rqsE --include='Kconfig*' "^(menu)?config ${sym#CONFIG_}\$" \
				"$tree"; then
			echo "$ME: note: $sym is not defined in $tree, ignored" >&2
			continue
		fi
		got=$(grep -E "^(# )?${sym}[= ]" "$objdir/.config" ||
			echo "absent (missing dependency?)")
		echo "  $line -> $got"
	done)
	if [ -n "$bad" ]; then
		echo "$bad" >&2
		die "options not set in $objdir/.config (see above)"
	fi
	echo "$want" > "$cstamp"
fi

# --- Build --------------------------------------------------------------
log="$objdir/bench-build.log"
msg "building $flavour bzImage in $objdir (log: $log)"
if ! kmake -j2 bzImage > "$log" 2>&1; then
	tail -n 40 "$log" >&2
	die "building the $flavour kernel FAILED (log: $log)"
fi
msg "$flavour kernel built in $(($(date +%s) - start))s"
echo "$objdir/arch/x86/boot/bzImage"
