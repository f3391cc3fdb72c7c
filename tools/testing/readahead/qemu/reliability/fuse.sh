#!/bin/sh
# fuse.sh - readahead into a congested FUSE mount, on the sanitized kernel.
#
# Usage: fuse.sh [-d MS] [-b MAXBG] [-c CONG]   (as root on Debian 12)
#   -d  how late the server answers each READ (default 50 ms)
#   -b  max_background of its FUSE_INIT reply (default 2)
#   -c  congestion_threshold of its FUSE_INIT reply (default 1)
#
# Owns the FUSE test.  FUSE's ->readahead(), fuse_readahead(), reads
# rac->ra->async_size whenever the connection has at least
# congestion_threshold background requests (asynchronous READs the
# server has not answered yet), to skip the asynchronous part of a
# window.  So every readahead mm/readahead.c hands a filesystem, also
# those outside the file's window (random reads, read_ahead_kb 0,
# POSIX_FADV_RANDOM, POSIX_FADV_WILLNEED, readahead(2), MADV_WILLNEED),
# must come with a state.
#
# Builds the "sanitized" flavour (build-kernel.sh sanitized: KASAN,
# lockdep, DEBUG_VM...; sanitized.config has CONFIG_FUSE_FS=y) and boots
# it (reliability-guest.sh, initramfs "fuse": busybox and rafuse).  In the
# guest, fuse-guest.sh mounts rafuse (rafuse.c, our own server on
# /dev/fuse: read-only files whose bytes are a function of the offset,
# asynchronous reads, congestion_threshold 1, every READ answered late)
# and drives one reader per path, every byte checked, each path's start
# and end in the kernel log.  An oops panics the guest (an oopsed
# reader's exit can take the server down with it); the next boot starts
# from the path after the one that died, so every path gets its verdict,
# and a kernel that passes needs one boot.
#
# Prints TAP (scripts/tap.sh): the kernel and its options; every path
# ran; the connection's limits as the kernel took them from FUSE_INIT;
# the congestion (READs the server held); one check per path (its reader
# ended by itself and read every byte right, and the kernel logged no
# splat between the path's start and end: the first lines of a splat
# are printed under it); no splat in the whole log.  Exits non-zero on
# any failure.
#
# About 2 minutes with the kernel built, one boot (~75 s under TCG with
# KASAN until the first reader, the readers ~30 s); a kernel that oopses
# costs a boot per oops.  The kernel build from scratch adds about 12
# minutes on 2 cores.  Results in build/qemu/fuse (boot.N: each boot's
# reliability-guest.sh directory; NAME.log: the kernel log of path NAME).
set -u
QDIR=$(cd "$(dirname "$0")/.." && pwd)
. "$QDIR/common.sh"

delay=50 maxbg=2 cong=1
while getopts d:b:c: opt; do
	case $opt in
	d) delay=$OPTARG ;;
	b) maxbg=$OPTARG ;;
	c) cong=$OPTARG ;;
	*) die "usage: $0 [-d MS] [-b MAXBG] [-c CONG]" ;;
	esac
done
for v in "$delay" "$maxbg" "$cong"; do
	case $v in
	'' | *[!0-9]*) die "-d, -b and -c take whole numbers" ;;
	esac
done
out="$QB/fuse"
# In fuse-guest.sh's order: NAME|what it drives.
PATHS="seq|a sequential read(2) reader (a window with its state)
random|random 4 KB pread(2)s
fadv-random|POSIX_FADV_RANDOM, then random 16 KB pread(2)s
willneed|POSIX_FADV_WILLNEED of the file, then read(2)
readahead|readahead(2) of the file, then read(2)
madv-willneed|MADV_WILLNEED on a mapping, then reads through it
ra0|read_ahead_kb 0, sequential read(2)"
npaths=$(echo "$PATHS" | wc -l)
# A splat's first lines, without the register dump and the stack's
# stale ("? ") entries.
splat_head() {
	awk -v re="$SPLAT_RE" '
		!on && $0 ~ re { on = 1 }
		on && !/ (R[ABCDS][XIP]|R[0-9][0-9]|[CFG]S|CR2|DR[0-9]|Code|PKRU):|\]  \? / {
			print
			n++
		}
		n == 16 { exit }' "$@"
}

tap_begin
start=$(date +%s)
rm -rf "$out"
mkdir -p "$out"

# --- The kernel ---------------------------------------------------------------
klog="$out/build.log"
build_kernel_tap sanitized "$klog"
config="$(kobj_dir sanitized)/.config"
has_opts() {
	grep -qx 'CONFIG_FUSE_FS=y' "$config" && grep -qx 'CONFIG_KASAN=y' "$config"
}
tap_check "CONFIG_FUSE_FS=y and CONFIG_KASAN=y in $config" has_opts
echo "# mm/readahead.c as built: sha1 $(sha1sum < "$PATCHED_TREE/mm/readahead.c" | cut -c1-12) (the working tree's: $(sha1sum < "$TOP/mm/readahead.c" | cut -c1-12))"

# --- The boots: the first from path 1, each next one after a path that died --
first=1 boot=0
while [ "$first" -le "$npaths" ] && [ "$boot" -le "$npaths" ]; do
	boot=$((boot + 1))
	b="$out/boot.$boot"
	GUEST_APPEND=printk.devkmsg=on "$RDIR/reliability-guest.sh" -s 600 -i fuse \
		-l "1 1 8" -e "DELAY_MS=$delay" -e "MAX_BG=$maxbg" \
		-e "CONG=$cong" -e "FIRST=$first" "$kernel" \
		"$RDIR/fuse-guest.sh" "$b" > "$b.log" 2>&1
	tr -d '\r' < "$b/console.log" > "$b/console.txt"
	ended="the guest finished"
	[ -f "$b/run-failure" ] && ended=$(cat "$b/run-failure")
	echo "# boot $boot: paths from $first on, $(cat "$b/wall-seconds")s: $ended"
	grep -q 'rafuse: all paths done$' "$b/console.txt" && break
	# The last path started: the guest died in it, unless it ended.
	last=$(sed -n 's/.*rafuse: path \([a-z0-9-]*\) start$/\1/p' \
		"$b/console.txt" | tail -n 1)
	if [ -z "$last" ] ||
			grep -q "rafuse: path $last end " "$b/console.txt"; then
		sed 's/^/#   /' "$b.log"
		break
	fi
	k=$(echo "$PATHS" | awk -F'|' -v p="$last" '$1 == p { print NR }')
	first=$((k + 1))
done
nrun=$(cat "$out"/boot.*/console.txt |
	sed -n 's/.*rafuse: path \([a-z0-9-]*\) start$/\1/p' | sort -u | wc -l)
tap_check "every path ran ($nrun of $npaths, $boot boot(s))" test "$nrun" -eq "$npaths"

conn=$(sed -n 's/.*rafuse: connection //p' "$out/boot.1/console.txt" | head -n 1)
echo "# connection ${conn:-none}"
sed -n 's/.*rafuse: INIT: /# INIT: /p' "$out/boot.1/console.txt" | head -n 1
got=$(echo "$conn" | awk '{ print $3, $5 }')
tap_check "the kernel took max_background $maxbg and congestion_threshold $cong from FUSE_INIT (got: ${got:-none})" \
	test "$got" = "$maxbg $cong"
# The server's counts, its last line of each boot.
for f in "$out"/boot.*/console.txt; do
	grep 'rafuse: server: ' "$f" | tail -n 1
done | sed 's/.*rafuse: server: //' > "$out/server-counts"
sed 's/^/# server: /' "$out/server-counts"
reads=$(awk '{ n += $3 } END { print n + 0 }' "$out/server-counts")
held=$(awk '{
		for (i = 1; i < NF; i++)
			if ($i == "most" && $(i + 1) + 0 > m)
				m = $(i + 1) + 0
	} END { print m + 0 }' "$out/server-counts")
tap_check "congestion: the server held $reads READs ${delay} ms each, up to $held at once (congestion_threshold $cong)" \
	test "$reads" -gt 0 -a "$held" -ge "$cong"

# --- One check per path -----------------------------------------------------------
while IFS='|' read -r name what; do
	log="$out/$name.log"
	: > "$log"
	for f in "$out"/boot.*/console.txt; do
		grep -q "rafuse: path $name start\$" "$f" || continue
		# From its start to its end, or to the end of the log.
		awk -v s="rafuse: path $name start" -v e="rafuse: path $name end " '
			index($0, s) { on = 1 }
			on { print }
			on && index($0, e) { exit }' "$f" > "$log"
	done
	endl=$(grep "rafuse: path $name end " "$log" | sed 's/.*rafuse: path [^ ]* end //')
	found=$(splat_scan "$log")
	if [ ! -s "$log" ]; then
		verdict="not run"
	elif [ -z "$endl" ]; then
		verdict="the kernel died in it"
	else
		verdict=$endl
	fi
	echo "# $name: $verdict"
	if [ "${endl%% *}" = rc=0 ] && [ -z "$found" ]; then
		tap_ok "$name: $what: every byte right, no splat"
	else
		[ -z "$found" ] || splat_head "$log" | sed 's/^/#   /'
		tap_not_ok "$name: $what: every byte right, no splat"
	fi
done <<EOF
$PATHS
EOF

# --- The whole log -------------------------------------------------------------------
splat_check "no splat in the kernel log" \
	"$out"/boot.*/console.txt "$out"/boot.*/results/dmesg.txt

echo "# fuse run took $(($(date +%s) - start))s; results in $out"
tap_end
