#!/bin/sh
# ioerror.sh - I/O errors under readahead: QEMU blkdebug fails reads of chosen sectors.
#
# Usage: ioerror.sh [FLAVOUR...]   (pristine, patched, sanitized; default
#                                   patched; as root on Debian 12)
#
# Owns the I/O error test of the real-kernel bench.  Data disk 0 of the
# smoke layout (2 disks, 2 x 8 MB files) is put behind QEMU's blkdebug
# driver with one inject-error rule (event read_aio, errno 5, once off)
# per sector of the 4 KB blocks 0, 300-315, 1000 and 2047 of d0/f0 (first
# page, a 64 KB run inside a readahead window, one lone page, the last
# page): every read request touching one of those sectors fails with EIO.
# The sectors are found from the image itself (debugfs blocks, the fs
# block size), the expected content from the file dumped out of the image
# (ratool hashes).  The guest (ioerror-guest.sh) reads f0 with 4 KB and
# 128 KB read(2), through mmap, with two readers at once, and after
# readahead(2)+WILLNEED; runs fio on it and on the good files.  Checks,
# per kernel: exactly the chosen blocks fail (EIO / SIGBUS), every other
# block has the right content (two racing readers: good blocks next to
# bad ones may fail too, as merged requests do, but must read right on
# the next pass); fio fails with EIO on f0 and verifies the
# other files; the good files' sha1 match; the kernel logged the I/O
# errors; no splat (splat_scan: BUG, WARNING, KASAN, lockdep, hung task,
# ...); the guest finished inside its time limit (nothing hangs); and,
# when the kernel has the readahead trace, that readahead shrank after the
# first error as 6.1 does (filemap's shrink_readahead_size_eio: ra_pages/4).
# Prints TAP (scripts/tap.sh), one test per check, ends with the plan and
# the totals; a kernel without the trace skips the shrink check.  About 1 minute per kernel when the kernel is built (a build
# from scratch: 4-5 minutes).  Results in build/qemu/ioerror/FLAVOUR.
set -u
QDIR=$(cd "$(dirname "$0")/.." && pwd)
. "$QDIR/common.sh"

[ $# -gt 0 ] || set -- patched
tap_begin
start=$(date +%s)
# Errors are the subject here, not throughput: disks barely throttled.
RA_BPS=${RA_BPS:-400000000}
RA_IOPS=${RA_IOPS:-20000}
export RA_BPS RA_IOPS
need e2fsprogs debugfs dumpe2fs
need qemu-system-x86 qemu-system-x86_64

# --- The bad blocks, their sectors, the expected content ----------------
work="$QB/ioerror$KOBJ_SUFFIX"
mkdir -p "$work"
disks=$("$QDIR/make-disks.sh" 2 2 8 | tail -n 1) || die "make-disks failed"
"$QDIR/build-initramfs.sh" rel > "$work/initramfs.log" 2>&1 ||
	{ tap_diag_file "$work/initramfs.log"; die "build-initramfs.sh rel failed"; }
ratool="$QB/ratool"
img="$disks/d0.img"
rm -f "$work/f0"
debugfs -R "dump /f0 $work/f0" "$img" > /dev/null 2>&1
"$ratool" hashes "$work/f0" > "$work/good.hashes" || die "cannot hash d0/f0"
nblk=$(wc -l < "$work/good.hashes")
fsbs=$(dumpe2fs -h "$img" 2>/dev/null | sed -n 's/^Block size:[[:space:]]*//p')
debugfs -R "blocks /f0" "$img" 2> /dev/null | tr ' ' '\n' | grep . > "$work/fsblocks"
bad="0 $(seq -s ' ' 300 315) 1000 $((nblk - 1))"
echo "$bad" | tr ' ' '\n' > "$work/bad.pages"
# One rule per sector of every fs block of every bad page.
awk -v fsbs="$fsbs" 'NR == FNR { blk[NR - 1] = $1; next }
	{ per = 4096 / fsbs
	  for (i = 0; i < per; i++) {
		b = blk[$1 * per + i]
		for (s = 0; s < fsbs / 512; s++)
			printf "[inject-error]\nevent = \"read_aio\"\nerrno = \"5\"\nsector = \"%d\"\nonce = \"off\"\n\n", b * fsbs / 512 + s
	  } }' "$work/fsblocks" "$work/bad.pages" > "$work/blkdebug.conf"
nrules=$(grep -c inject-error "$work/blkdebug.conf")
awk 'NR == FNR { bad[$1] = 1; next } { print $1, (($1 in bad) ? "EIO" : $2) }' \
	"$work/bad.pages" "$work/good.hashes" > "$work/expected"
nbad=$(grep -c EIO "$work/expected")
echo "# d0/f0: $nblk blocks of 4 KB, fs block size $fsbs; $nbad bad blocks" \
	"($(echo "$bad" | sed 's/ 301.* 315/-315/')): $nrules blkdebug rules"
if [ "$nbad" -ne 19 ] || [ "$nrules" -eq 0 ]; then
	die "bad-block set not built ($work)"
fi

# Compares a guest scan (BLOCK HASH|EIO per line) with the expected one;
# prints "K EIO, W wrong, M missing, C collateral" and succeeds when
# W = M = 0.  With SLACK > 0, a good block within SLACK blocks of a bad
# one may fail too ("collateral": two readers' requests merged into one
# that touches a bad sector fail whole, as on a real disk); wrong data
# never passes.
compare() { # SCAN [SLACK]
	awk -v slack="${2:-0}" 'NR == FNR { want[$1] = $2; if ($2 == "EIO") bad[$1] = 1; next }
		{ seen[$1] = 1; if ($2 == "EIO") eio++
		  if (want[$1] == $2) next
		  if ($2 == "EIO" && slack > 0) {
			for (b in bad) if ($1 - b <= slack && b - $1 <= slack) { coll++; next }
		  }
		  wrong++; if (wrong <= 3) ex = ex " " $1 ":" $2 }
		END { for (b in want) if (!(b in seen)) miss++
		      printf "%d EIO, %d wrong, %d missing, %d collateral%s\n", eio, wrong, miss, coll, ex
		      exit (wrong + miss) > 0 }' "${EXPECTED:-$work/expected}" "$1"
}

for flavour in "$@"; do
	echo "# --- $flavour kernel"
	blog="$work/build-$flavour.log"
	if "$QDIR/build-kernel.sh" "$flavour" > "$blog" 2>&1; then
		kernel=$(tail -n 1 "$blog")
	else
		tail -n 20 "$blog" | tap_diag_file
		tap_not_ok "$flavour: kernel builds (log: $blog)"
		continue
	fi
	out="$work/$flavour"
	res="$out/results"
	limit=300
	[ "$flavour" = sanitized ] && limit=900
	if "$RDIR/reliability-guest.sh" -s "$limit" -l "2 2 8" -b "$work/blkdebug.conf" \
			"$kernel" "$RDIR/ioerror-guest.sh" "$out" > "$out.log" 2>&1; then
		tap_ok "$flavour: guest ran every stage and exited by itself ($(cat "$out/wall-seconds")s, limit ${limit}s)"
	else
		tap_diag_file "$out.log"
		tap_not_ok "$flavour: guest ran every stage and exited by itself (console: $out/console.log)"
		continue
	fi
	sed 's/^/# stage /' "$res/stages"
	awk '$1 >= 400' "$work/expected" > "$work/expected.400"
	if r=$(EXPECTED="$work/expected.400" compare "$res/shrink") &&
			echo "$r" | grep -q '^2 EIO'; then
		tap_ok "$flavour: shrink (from block 400): blocks 1000 and $((nblk - 1)) fail, the others read right ($r)"
	else
		tap_not_ok "$flavour: shrink (from block 400): blocks 1000 and $((nblk - 1)) fail, the others read right ($r)"
	fi
	for s in scan4k scan128k mscan shared-a shared-b shared-reread willneed; do
		slack=0
		case $s in shared-[ab]) slack=32 ;; esac
		if r=$(compare "$res/$s" "$slack"); then
			if [ "$slack" -gt 0 ]; then
				tap_ok "$flavour: $s (racing the other reader): the bad blocks fail, no wrong data, good blocks fail only next to bad ones ($r)"
			elif echo "$r" | grep -q "^$nbad EIO"; then
				tap_ok "$flavour: $s: exactly the $nbad bad blocks fail, the others read right ($r)"
			else
				tap_not_ok "$flavour: $s: exactly the $nbad bad blocks fail ($r)"
			fi
		else
			tap_not_ok "$flavour: $s: blocks read back as expected ($r; $(head -c 200 "$res/$s.err"))"
		fi
	done
	grep -q '^scan4k rc=0 ' "$res/stages" && grep -q '^willneed rc=0' "$res/stages" &&
		grep -q '^shared rc=0/0 ' "$res/stages"
	tap_check "$flavour: the readers ended normally (no timeout, no unexpected error)" test $? -eq 0
	fio_bad_rc=$(sed -n 's/^fio-bad rc=\([0-9]*\).*/\1/p' "$res/stages")
	fio_eio=no
	if [ "$fio_bad_rc" != 0 ] && [ "$fio_bad_rc" != 124 ] &&
			grep -qi "input/output error" "$res/fio-bad"; then
		fio_eio=yes
	fi
	tap_check "$flavour: fio reading d0/f0 fails with EIO (rc=$fio_bad_rc)" \
		test "$fio_eio" = yes
	tap_check "$flavour: fio verifies every block of d0/f1, d1/f0, d1/f1" \
		grep -q '^fio-good rc=0 ' "$res/stages"
	nok=$(grep -c ': OK$' "$res/sums.out")
	tap_check "$flavour: the good files' sha1 match the host's ($nok/3)" test "$nok" -eq 3
	nerr=$(grep -c 'I/O error, dev vd' "$res/dmesg.txt" "$res/dmesg.scan4k" |
		awk -F: '{ n += $NF } END { print n + 0 }')
	tap_check "$flavour: the kernel logged the I/O errors ($nerr 'I/O error, dev vd' lines)" \
		test "$nerr" -gt 0
	splats=$(splat_scan "$out/console.log" "$res/dmesg.txt" "$res/dmesg.scan4k")
	if [ -z "$splats" ]; then
		tap_ok "$flavour: no splat in the kernel log"
	else
		echo "$splats" | tap_diag_file
		tap_not_ok "$flavour: no splat in the kernel log"
	fi
	if [ "$(cat "$res/have-trace")" = 1 ]; then
		# The shrink stage reads from block 400; its only error is
		# block 1000, when the window has grown to ra_pages.  6.1's
		# filemap divides the file's ra_pages by 4 on each failed
		# read_folio (shrink_readahead_size_eio): no window after the
		# error may be larger than ra_pages / 4.
		# The tracepoint's buffer when the kernel has one (the log is
		# rate-limited), else the log.
		shrink_trace=$res/trace.shrink
		[ -s "$shrink_trace" ] || shrink_trace=$res/dmesg.shrink
		# Split at the failing block by the requests' offsets (the
		# kernel's "I/O error" lines are rate-limited, not a clock):
		# the log's lines name f0, the readahead_decision events give
		# its inode (in hex, as ino.f0 has it).
		ino=$(cat "$res/ino.f0" 2>/dev/null || echo none)
		awk -v ino="$ino" '
			function val(key) {
				if (!match($0, " " key "=[0-9]+")) return -1
				return substr($0, RSTART + length(key) + 2,
					      RLENGTH - length(key) - 2) + 0
			}
			/readahead-/ && /ino=[0-9]+\(f0\)/ {
				if (!match($0, /req=[0-9]+/)) next
				req = substr($0, RSTART + 4, RLENGTH - 4) + 0
				if (!match($0, /ra=[0-9]+\+[0-9]+/)) next
				split(substr($0, RSTART + 3, RLENGTH - 3), w, "+")
				size = w[2]
			}
			/readahead_decision:/ && $0 ~ (" ino=" ino " ") {
				req = val("index")
				size = val("size")
				if (req < 0 || size < 0) next
			}
			/readahead-/ && /ino=[0-9]+\(f0\)/ ||
			/readahead_decision:/ && $0 ~ (" ino=" ino " ") {
				if (req > 1000) { if (size > after) after = size; na++ }
				else if (req < 1000) { if (size > before) before = size; nb++ } }
			END { printf "%d %d %d %d\n", before, nb, after, na }' \
			"$shrink_trace" > "$out/shrink"
		read -r before nb after na < "$out/shrink"
		maxp=$(($(cat "$res/read_ahead_kb") / 4))
		tap_check "$flavour: readahead shrinks after an error (largest window $before pages in $nb decisions before the error at block 1000, $after in $na after; ra_pages $maxp, after the error at most $((maxp / 4)))" \
			test "$nb" -gt 0 -a "$na" -gt 0 -a "$after" -le $((maxp / 4))
	else
		tap_skip "$flavour: readahead shrinks after an error" \
			"no readahead trace in this kernel"
	fi
done

echo "# ioerror took $(($(date +%s) - start))s; results in $work"
tap_end; exit
