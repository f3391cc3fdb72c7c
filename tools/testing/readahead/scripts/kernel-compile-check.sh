#!/bin/sh
# kernel-compile-check.sh - compile the project's mm/readahead.c (and
# mm/readahead_debug.c and, where the tree's mm/Makefile builds it,
# mm/readahead_outcome.c, when the config has CONFIG_READAHEAD_DEBUGFS) in
# a real kernel build and fail on any compiler or sparse warning about
# them.
#
# Usage: kernel-compile-check.sh PATCHED_TREE OBJDIR [FRAGMENT...]
#
# PATCHED_TREE is the tree kernel-tree.sh prepares (it already holds the
# project's mm/readahead.c).  OBJDIR is an out-of-tree object directory
# (make O=OBJDIR) owned by this script.  The FRAGMENTs default to the
# bench's tools/testing/readahead/kconfig/qemu.config.
#
# OBJDIR is configured as x86_64 tinyconfig + the FRAGMENTs in order
# (merge_config.sh -m, then olddefconfig); the last CONFIG_...=value line
# of each symbol must end up in OBJDIR/.config, and a "# CONFIG_... is not
# set" line must leave its symbol unset.  Configuration is redone only when the fragment,
# the tree or the applied patch series changed (OBJDIR/.readahead-config
# holds their checksum).  Then mm/readahead.o (and the debug objects)
# is rebuilt with W=1, plus C=1 (sparse) when sparse is installed; the
# make output goes to OBJDIR/readahead-build.log.  Exit status 1 if the
# build fails, the log has a warning or error line about either file (or
# objtool's about their objects), or a readahead tracepoint a debug object
# uses is not one readahead.o defines.  The first run also does the kernel's prepare work (a few
# minutes); later runs are incremental.
set -eu

me=kernel
if [ $# -lt 2 ]; then
	echo "usage: $0 PATCHED_TREE OBJDIR [FRAGMENT...]" >&2
	exit 2
fi
scripts=$(cd "$(dirname "$0")" && pwd)
tree=$(cd "$1" 2>/dev/null && pwd) || tree=$1
objdir=$2
shift 2
[ $# -gt 0 ] || set -- "$scripts/../kconfig/qemu.config"
jobs=-j2
start=$(date +%s)

if [ ! -f "$tree/Makefile" ] || [ ! -f "$tree/.unpacked" ]; then
	echo "$me: kernel tree $tree missing; create it with" \
		"$scripts/kernel-tree.sh PRISTINE_TREE $tree REPO_ROOT" >&2
	exit 1
fi
for frag in "$@"; do
	if [ ! -f "$frag" ]; then
		echo "$me: config fragment $frag missing" >&2
		exit 1
	fi
done
if [ "$(uname -m)" != x86_64 ]; then
	echo "$me: this check builds an x86_64 kernel natively;" \
		"host is $(uname -m)" >&2
	exit 1
fi
# The kernel's build tools come from `make deps` (the top-level Makefile);
# sparse too, but it stays optional: without it the check is W=1 only.

# The caller's environment must not redirect the kconfig files.
unset KCONFIG_CONFIG KCONFIG_ALLCONFIG
mkdir -p "$objdir"
objdir=$(cd "$objdir" && pwd)
kmake() {
	make -C "$tree" O="$objdir" "$@"
}

# --- Configure (only when an input changed) ---------------------------
cstamp="$objdir/.readahead-config"
want=$( {
	echo "recipe 1: tinyconfig + merge_config.sh -m + olddefconfig"
	echo "tree $tree"
	cat "$tree/.readahead-patches" 2>/dev/null || true
	cat "$@"
} | sha1sum)
want=${want%% *}

if [ -f "$objdir/.config" ] && [ -f "$cstamp" ] &&
		[ "$(cat "$cstamp")" = "$want" ]; then
	: # configuration is current
else
	rm -f "$cstamp"
	clog="$objdir/readahead-config.log"
	echo "$me: configuring $objdir (tinyconfig + $*)"
	if ! { kmake tinyconfig &&
			"$tree/scripts/kconfig/merge_config.sh" -m \
				-O "$objdir" "$objdir/.config" "$@" &&
			kmake olddefconfig; } > "$clog" 2>&1; then
		cat "$clog" >&2
		echo "$me: configuring $objdir failed (log: $clog)" >&2
		exit 1
	fi
	# The last assignment of each symbol must have survived Kconfig;
	# "is not set" (written here as =n) must have left it unset.
	bad=$(cat "$@" |
		sed -nE 's/^# (CONFIG_[A-Za-z0-9_]+) is not set$/\1=n/p
			/^CONFIG_[A-Za-z0-9_]+=/p' |
		awk -F= '{ last[$1] = $0; seen[NR] = $1 }
			END { for (i = 1; i <= NR; i++)
				if (last[seen[i]] != "") {
					print last[seen[i]]
					last[seen[i]] = ""
				} }' |
	while IFS= read -r line; do
		sym=${line%%=*}
		if [ "${line#*=}" = n ]; then
			grep -qE "^${sym}=" "$objdir/.config" || continue
		else
			grep -qxF "$line" "$objdir/.config" && continue
		fi
		got=$(grep -E "^(# )?${sym}[= ]" "$objdir/.config" ||
			echo "absent (not visible: missing dependency?)")
		echo "  $line -> $got"
	done)
	if [ -n "$bad" ]; then
		echo "$me: options from $* not as asked in $objdir/.config:" >&2
		echo "$bad" >&2
		exit 1
	fi
	echo "$want" > "$cstamp"
fi

# --- Build mm/readahead.o ---------------------------------------------
checker=
desc="W=1"
if command -v sparse >/dev/null 2>&1; then
	checker=C=1
	desc="W=1 C=1"
else
	echo "$me: sparse not installed, building without C=1" >&2
fi

log="$objdir/readahead-build.log"
objs=mm/readahead.o
debug_objs=
if grep -qx 'CONFIG_READAHEAD_DEBUGFS=y' "$objdir/.config"; then
	debug_objs=mm/readahead_debug.o
	! grep -q 'readahead_outcome\.o' "$tree/mm/Makefile" ||
		debug_objs="$debug_objs mm/readahead_outcome.o"
fi
objs="$objs $debug_objs"
# C=1 only checks what gets compiled: always recompile the objects.
for o in $objs; do
	rm -f "$objdir/$o"
done
# shellcheck disable=SC2086
if kmake $jobs W=1 $checker $objs > "$log" 2>&1; then
	built=1
else
	built=0
fi

pattern='readahead(_debug|_outcome)?\.[co].*(warning|error):'
nwarn=$(grep -cE "$pattern" "$log" || true)
nother=$(grep -E '(warning|error):' "$log" | grep -cvE "$pattern" || true)
secs=$(($(date +%s) - start))

if [ "$nwarn" -gt 0 ]; then
	grep -E "$pattern" "$log"
fi
if [ "$nother" -gt 0 ]; then
	echo "$me: note: $nother warning/error line(s) elsewhere in $log"
fi
if [ "$built" -eq 0 ]; then
	[ "$nwarn" -gt 0 ] || tail -n 30 "$log" >&2
	echo "$me: building $objs with $desc FAILED" \
		"(log: $log)" >&2
	exit 1
fi
if [ "$nwarn" -gt 0 ]; then
	echo "$me: $objs built with $desc, $nwarn warnings" \
		"(log: $log)" >&2
	exit 1
fi
echo "$me: $objs built with $desc, 0 warnings (${secs}s)"

# The debugfs view's probes: every readahead tracepoint they use is
# defined by readahead.o (CREATE_TRACE_POINTS), as the link of vmlinux
# will want.
for o in $debug_objs; do
	missing=$(nm -u "$objdir/$o" |
		awk '$2 ~ /^__tracepoint_(page_cache_|readahead_)/ {
			print $2 }' |
		while read -r sym; do
			nm "$objdir/mm/readahead.o" |
				grep -qE " [BDRd] $sym\$" || echo "$sym"
		done)
	if [ -n "$missing" ]; then
		echo "$me: $o uses tracepoints readahead.o" \
			"does not define: $missing" >&2
		exit 1
	fi
	echo "$me: $o's tracepoints all defined by readahead.o"
done

# --- Build mm/filemap.o, which the series patches to call us ------------
# W=1 only: sparse has one old complaint about upstream code in this file
# (a lock context imbalance in migration_entry_wait_on_locked).
flog="$objdir/filemap-build.log"
rm -f "$objdir/mm/filemap.o"
if ! kmake $jobs W=1 mm/filemap.o > "$flog" 2>&1; then
	tail -n 30 "$flog" >&2
	echo "$me: building mm/filemap.o with W=1 FAILED (log: $flog)" >&2
	exit 1
fi
if grep -E 'filemap\.[co].*(warning|error):' "$flog"; then
	echo "$me: mm/filemap.o built with W=1, with warnings" \
		"(log: $flog)" >&2
	exit 1
fi
echo "$me: mm/filemap.o built with W=1, 0 warnings"
