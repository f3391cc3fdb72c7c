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
# it once (rel-guest.sh, initramfs "fuse": busybox and rafuse).  In the
# guest, fuse-guest.sh mounts rafuse (rafuse.c, our own server on
# /dev/fuse: read-only files whose bytes are a function of the offset,
# asynchronous reads, congestion_threshold 1, every READ answered late)
# and drives one reader per path, every byte checked.  Prints TAP
# (scripts/tap.sh): the kernel, the boot, the connection's limits as
# the kernel took them, the congestion (reads sent while the server held
# others), one check per path (its reader ended by itself, read every
# byte right, and the kernel logged no splat meanwhile: the first lines
# of a splat are printed under it), and no splat in the whole log.
# Exits non-zero on any failure.
#
# About 2 minutes with the kernel built (boot ~1 min under TCG with
# KASAN, the readers ~30 s); the kernel build from scratch adds about
# 12 minutes on 2 cores.  Results in build/qemu/fuse.
set -u
. "$(dirname "$0")/common.sh"

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
# NAME, the reader's mode in rafuse.c, what it drives.
PATHS="seq|a sequential read(2) reader (a window with its state)
random|random 4 KB pread(2)s
fadv-random|POSIX_FADV_RANDOM, then random 16 KB pread(2)s
willneed|POSIX_FADV_WILLNEED of the file, then read(2)
readahead|readahead(2) of the file, then read(2)
madv-willneed|MADV_WILLNEED on a mapping, then reads through it
ra0|read_ahead_kb 0, sequential read(2)"
# A splat's first lines, without the register dump.
splat_head() {
	awk -v re="$SPLAT_RE" '
		!on && $0 ~ re { on = 1 }
		on && !/ (R[ABCDS][XIP]|R[0-9][0-9]|[CFG]S|CR2|DR[0-9]|Code|PKRU):/ {
			print
			n++
		}
		n == 14 { exit }' "$@"
}

tap_begin
start=$(date +%s)
mkdir -p "$out"

# --- The kernel ---------------------------------------------------------------
klog="$out/build.log"
if "$QDIR/build-kernel.sh" sanitized > "$klog" 2>&1; then
	tap_ok "sanitized kernel builds ($(grep -o 'built in [0-9]*s' "$klog"))"
else
	tail -n 20 "$klog" | tap_diag_file
	tap_not_ok "sanitized kernel builds (log: $klog)"
	tap_end
	exit
fi
kernel=$(tail -n 1 "$klog")
config="$(kobj_dir sanitized)/.config"
has_opts() {
	grep -qx 'CONFIG_FUSE_FS=y' "$config" && grep -qx 'CONFIG_KASAN=y' "$config"
}
tap_check "CONFIG_FUSE_FS=y and CONFIG_KASAN=y in $config" has_opts
ra="$PATCHED_TREE/mm/readahead.c"
echo "# mm/readahead.c built: sha1 $(sha1sum < "$ra" | cut -c1-12), the repository's: $(sha1sum < "$TOP/mm/readahead.c" | cut -c1-12)"

# --- The boot -------------------------------------------------------------------
r="$out/run"
if "$QDIR/rel-guest.sh" -s 600 -i fuse -l "1 1 8" -e "DELAY_MS=$delay" \
		-e "MAX_BG=$maxbg" -e "CONG=$cong" "$kernel" \
		"$QDIR/fuse-guest.sh" "$r" > "$r.log" 2>&1; then
	tap_ok "guest mounted rafuse, ran the readers and exited by itself ($(cat "$r/wall-seconds")s)"
else
	sed 's/^/#   /' "$r.log"
	tap_not_ok "guest mounted rafuse, ran the readers and exited (console: $r/console.log)"
fi
rr="$r/results"
if [ -f "$rr/conn" ]; then
	sed 's/^/# /' "$rr/conn" "$rr/server.log"
	got=$(awk '$1 == "connection" { print $4, $6 }' "$rr/conn")
	tap_check "the kernel took max_background $maxbg and congestion_threshold $cong from FUSE_INIT (got: ${got:-none})" \
		test "$got" = "$maxbg $cong"
	# rafuse counts the READs that arrived while it held CONG others
	# (unanswered, so the kernel counted them as background requests).
	ncong=$(sed -n 's/.* \([0-9]*\) reads arrived with >= [0-9]* held.*/\1/p' \
		"$rr/server.log")
	tap_check "congestion: ${ncong:-no} READs arrived while the server held $cong or more" \
		test "${ncong:-0}" -gt 0
else
	tap_not_ok "the guest mounted rafuse ($(cat "$rr/failures" 2>/dev/null))"
fi

# --- One check per path -----------------------------------------------------------
while IFS='|' read -r name what; do
	rc=$(cat "$rr/$name.rc" 2>/dev/null || echo "not run")
	line=$(grep '^rafuse:' "$rr/$name.out" 2>/dev/null | tail -n 1)
	[ -n "$line" ] || line="no result"
	found=$(splat_scan "$rr/dmesg.$name")
	echo "# $name: rc $rc, ${line#rafuse: }, at most $(cat "$rr/$name.waiting" 2>/dev/null || echo ?) requests waiting"
	if [ "$rc" = 0 ] && [ -z "$found" ]; then
		tap_ok "$name: $what: every byte right, no splat"
	else
		[ -n "$found" ] && splat_head "$rr/dmesg.$name" | sed 's/^/#   /'
		grep -v '^rafuse: ' "$rr/$name.out" 2>/dev/null | head -n 3 | sed 's/^/#   /'
		tap_not_ok "$name: $what: every byte right, no splat (rc $rc)"
	fi
done <<EOF
$PATHS
EOF

# --- The whole log -------------------------------------------------------------------
found=$(splat_scan "$r/console.log" "$rr"/dmesg.*)
if [ -z "$found" ]; then
	tap_ok "no splat in the kernel log"
else
	echo "$found" | sed 's/^/#   /'
	tap_not_ok "no splat in the kernel log"
fi

echo "# fuse run took $(($(date +%s) - start))s; results in $out"
tap_end
