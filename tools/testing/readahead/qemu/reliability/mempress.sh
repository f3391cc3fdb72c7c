#!/bin/sh
# mempress.sh - readahead windows that together exceed a small guest's memory.
#
# Usage: mempress.sh [FLAVOUR...]   (pristine, patched; default patched;
#                                    as root on Debian 12)
# Environment: MP_MEM (guest MB, default 160), MP_KB (read_ahead_kb of
# the data disks, default 16384), MP_MEMCG (MB: the readers run in a
# cgroup v2 group with that memory.max; default none), MP_MAX_WASTE (the
# waste bound in %, default 25), RA_BPS / RA_IOPS (throttles, default
# 8000000 and 50 per disk, as the bench).
#
# Owns the QEMU memory pressure test.  A guest of MP_MEM MB (the small
# "mini" initramfs: busybox and ratool, under 3 MB) reads the bench's 3
# disks x 4 files x 32 MB (384 MB, more than twice its memory) with 12
# concurrent sequential streams (busybox sha1sum per file, also the data
# check), read_ahead_kb = MP_KB: 12 windows of up to 16 MB ask for 192 MB
# of readahead in flight, more than the guest has.
#
# "Pages read ahead and evicted before use": every file is read exactly
# once by one stream, so every byte the disks deliver beyond the files'
# 384 MB is a page that was read (ahead), evicted before its reader got to
# it, and read again.  waste = disk-side bytes read / file bytes - 1
# (from /sys/block/*/stat of the data disks).  Beside it the guest's
# /proc/vmstat deltas: workingset_refault_file (evicted pages faulted back
# in: the same thing seen by the page cache's shadow entries), pgsteal,
# and the readahead stats table (ours).
#
# The bound, per kernel: every stream ends with the right sha1; no OOM
# kill and no splat; waste <= 25%; and disk-side throughput of the useful
# bytes (384 MB over the streams' elapsed time) >= 50% of the three disks'
# throttled limit.  On a kernel with the outcome tracking (the patched
# one), its count of pages evicted unused is the disks' count of pages
# read twice, within 1% of the pages read ahead.  Prints TAP (scripts/tap.sh), the figures as
# diagnostics, ends with the plan and the totals.  About 1 minute per kernel when built.
# Results in build/qemu/mempress/FLAVOUR (mempress-memcg/ with MP_MEMCG).
#
# The memory cgroup job (make bench-memcg: a 512 MB guest, the readers in
# a 64 MB cgroup) is the container case: the machine has room, the
# cgroup does not.  With both flavours, an A/B line compares the bytes
# read per byte used and the streams' time; the patched kernel must read
# less per use than pristine and take no more than 5% longer.
set -u
QDIR=$(cd "$(dirname "$0")/.." && pwd)
. "$QDIR/common.sh"

[ $# -gt 0 ] || set -- patched
mem=${MP_MEM:-160}
kb=${MP_KB:-16384}
bps=${RA_BPS:-8000000}
memcg=${MP_MEMCG:-}
MAX_WASTE_PCT=${MP_MAX_WASTE:-25}
MIN_LIMIT_PCT=50
tap_begin
start=$(date +%s)
work="$QB/mempress${memcg:+-memcg}"
mkdir -p "$work"
echo "# guest ${mem} MB${memcg:+, the readers in a cgroup of $memcg MB (memory.max)}, 3 disks x 4 files x 32 MB = 384 MB, 12 streams, read_ahead_kb $kb, throttle $bps B/s per disk"
echo "# bound: right data, no OOM, no splat, waste <= ${MAX_WASTE_PCT}%, throughput >= ${MIN_LIMIT_PCT}% of the disk limit"

# A figure's bound: checked, except pristine's in the cgroup job, which
# is reported and judged by the A/B line.
bound() { # what, then the check
	what=$1
	shift
	if [ -n "$memcg" ] && [ "$flavour" = pristine ]; then
		tap_diag "$flavour: $what"
	else
		tap_check "$flavour: $what" "$@"
	fi
}
measured=

for flavour in "$@"; do
	blog="$work/build-$flavour.log"
	if ! "$QDIR/build-kernel.sh" "$flavour" > "$blog" 2>&1; then
		tail -n 20 "$blog" | tap_diag_file
		tap_not_ok "$flavour: kernel builds (log: $blog)"
		continue
	fi
	kernel=$(tail -n 1 "$blog")
	out="$work/$flavour"
	res="$out/results"
	if RA_KB=$kb "$RDIR/reliability-guest.sh" -s 600 -m "$mem" -i mini -l "3 4 32" \
			${memcg:+-e MEMCG_MB=$memcg} \
			"$kernel" "$RDIR/mempress-guest.sh" "$out" > "$out.log" 2>&1; then
		tap_ok "$flavour: the guest ran the 12 streams and exited by itself ($(cat "$out/wall-seconds")s)"
	else
		sed 's/^/#   /' "$out.log"
		tap_not_ok "$flavour: the guest ran the 12 streams and exited (console: $out/console.log)"
		continue
	fi
	ngood=$(awk 'NR == FNR { want[$2] = $1; next } want[$2] == $1' \
		"$out/ctl/sums" "$res/sums.got" | wc -l)
	tap_check "$flavour: every stream read its file right (sha1 $ngood/12, failed readers $(cat "$res/readers.failed"))" \
		test "$ngood" -eq 12 -a "$(cat "$res/readers.failed")" -eq 0
	if [ -n "$memcg" ]; then
		tap_check "$flavour: the readers ran in a cgroup of $memcg MB (memory.max $(cat "$res/memcg.max" 2>/dev/null || echo unset), peak $(cat "$res/memcg.peak" 2>/dev/null || echo unknown))" \
			test "$(cat "$res/memcg.max" 2>/dev/null)" = $((memcg * 1048576))
		[ -f "$res/memcg.events" ] &&
			sed "s/^/# $flavour: memory.events: /" "$res/memcg.events"
	fi
	# Figures from the snapshots.
	awk -v bps="$bps" -v mem="$mem" '
		FILENAME ~ /blkstat.before/ { rb[$1] = $5 * 512; next }
		FILENAME ~ /blkstat.after/ { ra[$1] = $5 * 512; rq[$1] = $3 - 0; next }
		FILENAME ~ /vmstat.before/ { vb[$1] = $2; next }
		FILENAME ~ /vmstat.after/ { va[$1] = $2; next }
		FILENAME ~ /uptime.before/ { t0 = $1; next }
		FILENAME ~ /uptime.after/ { t1 = $1; next }
		END {
			for (d in ra) { disk += ra[d] - rb[d]; nd++ }
			files = 12 * 32 * 1048576; secs = t1 - t0
			waste = 100 * (disk / files - 1)
			limit = 100 * files / secs / (nd * bps)
			steal = (va["pgsteal_kswapd"] + va["pgsteal_direct"]) - (vb["pgsteal_kswapd"] + vb["pgsteal_direct"])
			printf "secs %.1f\ndisk_mb %.1f\nwaste_pct %.1f\nuseful_mbs %.2f\nlimit_pct %.0f\n", secs, disk / 1048576, waste, files / secs / 1e6, limit
			printf "refault_file %d\npgsteal %d\noom_kill %d\nallocstall %d\n", va["workingset_refault_file"] - vb["workingset_refault_file"], steal, va["oom_kill"] - vb["oom_kill"], (va["allocstall_normal"] + va["allocstall_dma32"] + va["allocstall_movable"]) - (vb["allocstall_normal"] + vb["allocstall_dma32"] + vb["allocstall_movable"])
		}' "$res/blkstat.before" "$res/blkstat.after" "$res/vmstat.before" \
		"$res/vmstat.after" "$res/uptime.before" "$res/uptime.after" > "$out/figures"
	sed "s/^/# $flavour: /" "$out/figures"
	sed "s/^/# $flavour: /" "$res/meminfo.before"
	[ -f "$res/ra-stats" ] && sed "s/^/# $flavour: ra-stats: /" "$res/ra-stats"
	[ -f "$res/ra-outcomes" ] &&
		sed "s/^/# $flavour: ra-outcomes: /" "$res/ra-outcomes"
	fig() { awk -v k="$1" '$1 == k { print $2 }' "$out/figures"; }
	waste=$(fig waste_pct)
	lim=$(fig limit_pct)
	oom=$(fig oom_kill)
	tap_check "$flavour: no OOM kill (oom_kill +$oom)" test "$oom" -eq 0
	measured="$measured $flavour"
	bound "pages read ahead and evicted before use: $waste% of the file bytes read twice (bound ${MAX_WASTE_PCT}%; $(fig refault_file) file refaults, $(fig pgsteal) pages reclaimed)" \
		awk -v w="$waste" -v m="$MAX_WASTE_PCT" 'BEGIN { exit !(w <= m) }'
	bound "useful throughput $(fig useful_mbs) MB/s = $lim% of the disks' limit (bound >= ${MIN_LIMIT_PCT}%)" \
		test "$lim" -ge "$MIN_LIMIT_PCT"
	# The kernel's own outcomes (the patched kernel): a stream reads its
	# file once, so a page evicted before use is a page the disks read
	# twice.  all: windows stalls pages used evicted cached lead_us
	if [ -f "$res/ra-outcomes" ]; then
		set -- $(awk '$1 == "all" { print $4, $6 }' "$res/ra-outcomes")
		twice=$(awk -v d="$(fig disk_mb)" 'BEGIN { printf "%d", (d - 384) * 256 }')
		tap_check "$flavour: the kernel's window outcomes: ${2:-?} of ${1:-?} pages read ahead evicted unused, the disks read $twice pages twice (bound: within 1% of the pages)" \
			awk -v p="${1:-0}" -v e="${2:-x}" -v t="$twice" 'BEGIN {
				d = e > t ? e - t : t - e; exit !(p > 0 && d <= p / 100) }'
	fi
	splat_check "$flavour: no splat in the kernel log" \
		"$out/console.log" "$res/dmesg.txt"
done

# A/B, when both kernels were measured here: bytes read per byte used,
# and time.
pf=$work/patched/figures
qf=$work/pristine/figures
case "$measured " in *" patched "*) ab=1 ;; *) ab= ;; esac
case "$measured " in *" pristine "*) ;; *) ab= ;; esac
if [ -n "$ab" ]; then
	ab=$(awk 'FNR == 1 { f++ } { v[f, $1] = $2 }
		END { printf "%.3f %.3f %.1f %.1f %.3f\n", 1 + v[1, "waste_pct"] / 100,
			1 + v[2, "waste_pct"] / 100, v[1, "secs"], v[2, "secs"],
			v[1, "secs"] / v[2, "secs"] }' "$pf" "$qf")
	set -- $ab
	tap_check "A/B: read per use $1 patched, $2 pristine; the streams' time $3 s patched, $4 s pristine (ratio $5): less read per use, at most 5% slower" \
		awk -v a="$1" -v b="$2" -v r="$5" 'BEGIN { exit !(a < b && r <= 1.05) }'
fi
echo "# mempress took $(($(date +%s) - start))s; results in $work"
tap_end
