#!/bin/sh
# sanitized.sh - the patched kernel with KASAN, lockdep and DEBUG_VM under load.
#
# Usage: sanitized.sh [-d SECONDS]   (as root on Debian 12)
#   -d  length of the racing phase (default 60 s)
#
# Owns the sanitized-kernel run.  Builds the "sanitized" flavour
# (build/kbuild-sanitized: the patched tree, tinyconfig + qemu.config +
# sanitized.config: KASAN generic inline, UBSAN bounds/shift, lockdep
# (PROVE_LOCKING), DEBUG_ATOMIC_SLEEP, DEBUG_VM(+PGFLAGS), DEBUG_LIST,
# hung task detector, BUG/WARN and kallsyms), checks every option is set in
# its .config, then boots it three times under QEMU (TCG):
#   1. fio: sanitized.fio, a short mix of all the bench's access patterns
#      (4 KB shared, 64/128 KB, mmap shared, a 4-file stream, random),
#      with the readahead trace on and the debugfs garbage-write checks,
#      every block verified by fio, every file sha1-checked;
#   2. races, -d seconds: truncate+rewrite of a file on a read-write ext4
#      against 4 KB/64 KB read(2) and mmap readers and a
#      DONTNEED/WILLNEED/readahead(2) loop on the same file (ratool race),
#      stress-ng --readahead 2, fio readers of the read-only disks with a
#      DONTNEED/WILLNEED loop on one of their files (sanitized-guest.sh);
#   3. I/O errors: ioerror.sh on this kernel (blkdebug read failures).
# Every console log and dmesg is scanned for splats (splat_scan in
# common.sh: BUG:, WARNING:, KASAN:, UBSAN:, lockdep, hung task, Oops,
# general protection, list corruption, bad page, RCU, call traces, OOM);
# any splat fails the run, and its first lines are printed.  Prints TAP
# (scripts/tap.sh), ioerror.sh's tests among its own, ends with the plan
# and the totals.
# Run length with the kernel built: about 4-5 minutes (fio boot ~1.5 min,
# race boot ~45 s + -d, ioerror ~1 min); the kernel build from scratch
# adds about 12 minutes on 2 cores.  Results in build/qemu/sanitized.
set -u
QDIR=$(cd "$(dirname "$0")/.." && pwd)
. "$QDIR/common.sh"

dur=60
while getopts d: opt; do
	case $opt in
	d) dur=$OPTARG ;;
	*) die "usage: $0 [-d SECONDS]" ;;
	esac
done
out="$QB/sanitized"
tap_begin
start=$(date +%s)
mkdir -p "$out"
need python3 python3

# --- 1. Kernel --------------------------------------------------------------
klog="$out/build.log"
build_kernel_tap sanitized "$klog"
config="$(kobj_dir sanitized)/.config"
nopt=$(grep -cE '^CONFIG_[A-Za-z0-9_]+=' "$RDIR/sanitized.config")
missing=$(grep -E '^CONFIG_[A-Za-z0-9_]+=' "$RDIR/sanitized.config" |
	while IFS= read -r line; do
		grep -qxF "$line" "$config" || printf ' %s' "$line"
	done)
tap_check "every option of sanitized.config is set in .config ($nopt options${missing:+; missing:$missing})" \
	test -z "$missing"
echo "# $(grep -cE '^CONFIG_(KASAN|UBSAN|PROVE_LOCKING|LOCKDEP|DEBUG_VM|DEBUG_LIST|DEBUG_ATOMIC_SLEEP|DETECT_HUNG_TASK|PROVE_RCU)[A-Z_]*=y' "$config") sanitizer/debug options =y in $config"

# --- 2. fio ------------------------------------------------------------------
f="$out/fio"
if "$QDIR/run-guest.sh" -t -c -s 1500 "$kernel" "$RDIR/sanitized.fio" "$f" \
		> "$f.log" 2>&1; then
	tap_ok "fio boot: guest ran sanitized.fio, verified every block and exited ($(cat "$f/wall-seconds")s)"
else
	sed 's/^/#   /' "$f.log"
	tap_not_ok "fio boot: guest ran sanitized.fio and exited (console: $f/console.log)"
fi
if [ -f "$f/results/status" ]; then
	tap_check "fio boot: fio verified every block (crc32c headers)" \
		test "$(cat "$f/results/fio.rc" 2>/dev/null)" = 0
	nsum=$(grep -c ': OK$' "$f/results/sums.out" 2>/dev/null)
	ntot=$(wc -l < "$f/results/sums.checked" 2>/dev/null || echo 0)
	tap_check "fio boot: files match the host's sha1 (${nsum:-0}/$ntot)" \
		test "${nsum:-0}" -eq "$ntot" -a "$ntot" -gt 0
	active=$(grep -hoE 'kasan: KernelAddressSanitizer initialized|Lock dependency validator|RCU lockdep checking is enabled' \
		"$f/results/dmesg.boot" 2>/dev/null | sort -u | wc -l)
	tap_check "fio boot: KASAN, lockdep and RCU lockdep announced themselves at boot ($active/3)" \
		test "$active" -eq 3
	ntr=$(grep -c 'readahead-' "$f/results/dmesg.txt" 2>/dev/null)
	echo "# fio boot: $ntr readahead trace lines; readahead stats:"
	sed 's/^/#   /' "$f/results/ra-stats" 2>/dev/null
fi
splat_check "fio boot: no splat in the kernel log" \
	"$f/console.log" "$f/results/dmesg.txt"

# --- 3. Races -------------------------------------------------------------------
r="$out/race"
if "$RDIR/reliability-guest.sh" -s $((dur * 3 + 600)) -l "2 2 8" -w 256 \
		-e "DURATION=$dur" "$kernel" "$RDIR/sanitized-guest.sh" "$r" \
		> "$r.log" 2>&1; then
	tap_ok "race boot: truncate/DONTNEED/readers, stress-ng and fio ran ${dur}s and the guest exited ($(cat "$r/wall-seconds")s)"
else
	sed 's/^/#   /' "$r.log"
	tap_not_ok "race boot: guest exited by itself (console: $r/console.log)"
fi
rr="$r/results"
if [ -f "$rr/test.rc" ]; then
	sed 's/^/# race: /' "$rr/race.out"
	tap_check "race: readers saw only right data or holes, all parts ended (rc $(cat "$rr/rc.race"))" \
		test "$(cat "$rr/rc.race")" = 0
	grep -E 'readahead|passed|failed|successful|skipped' "$rr/stressng.out" |
		tail -n 6 | sed 's/^/# stress-ng: /'
	tap_check "stress-ng --readahead passed (rc $(cat "$rr/rc.stressng"))" \
		test "$(cat "$rr/rc.stressng")" = 0
	grep -E 'err=|READ:' "$rr/fio.out" | sed 's/^ */# fio: /'
	tap_check "fio readers beside the DONTNEED loop verified every block (rc $(cat "$rr/rc.fio"))" \
		test "$(cat "$rr/rc.fio")" = 0
	sed 's/^/# advise: /' "$rr/advise.out"
	tap_check "DONTNEED/WILLNEED/readahead(2) loop ran (rc $(cat "$rr/rc.advise"))" \
		test "$(cat "$rr/rc.advise")" = 0
fi
splat_check "race boot: no splat in the kernel log" \
	"$r/console.log" "$rr/dmesg.txt" "$rr/dmesg.boot"

# --- 4. I/O errors ----------------------------------------------------------------
ilog="$out/ioerror.log"
"$RDIR/ioerror.sh" sanitized > "$ilog" 2>&1
# Its tests renumbered into ours; without its plan it did not finish.
grep '^# d0' "$ilog"
while read -r line; do
	case $line in
	"not ok "*) tap_not_ok "ioerror: ${line#* - }" ;;
	"ok "*" # SKIP "*)
		t=${line#* - }
		tap_skip "ioerror: ${t%% # SKIP *}" "${t#* # SKIP }" ;;
	"ok "*) tap_ok "ioerror: ${line#* - }" ;;
	esac
done < "$ilog"
grep -q '^1\.\.[0-9]*$' "$ilog" ||
	tap_not_ok "ioerror.sh sanitized finished (log: $ilog)"

echo "# sanitized run took $(($(date +%s) - start))s; results in $out"
tap_end; exit
