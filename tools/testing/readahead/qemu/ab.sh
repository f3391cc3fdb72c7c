#!/bin/sh
# ab.sh - A/B bench: pristine 6.1 against the patched kernel, same jobs.
#
# Usage: ab.sh [-r RUNS] [-o OUTDIR] [JOB...]
#   -r  runs per kernel and job (default 3)
#   -o  where the runs go (default build/qemu/ab-YYYYmmdd-HHMMSS)
#   JOB job names from jobs/ (seq4k, seq64k, seq128k, mmap, stream,
#       random) or paths to .fio files; default: all of jobs/ but smoke
# Environment: as run-guest.sh (RA_BPS, RA_IOPS, RA_MEM).
#
# Owns the A/B procedure: builds both kernels (incremental), then for
# each round and job boots pristine and patched one after the other
# (the order swaps every round, so slow drift of the host hits both
# alike), each run a fresh boot with dropped caches on the same
# read-only disk images.  Prints report.py's table per job: median
# disk-side MB/s of each kernel, the ratio patched/pristine, requests and
# mean request size per disk, major faults; the table is also saved as
# OUTDIR/table.txt.  Exits non-zero if a guest failed (crash, hang,
# fio verify error, checksum mismatch) or a run read faster than the
# throttled disks allow (a broken benchmark: something was cached).
set -eu
. "$(dirname "$0")/common.sh"

runs=3
outdir="$QB/ab-$(date +%Y%m%d-%H%M%S)"
while getopts r:o: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	o) outdir=$OPTARG ;;
	*) die "usage: $0 [-r RUNS] [-o OUTDIR] [JOB...]" ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -eq 0 ]; then
	for f in "$QDIR"/jobs/*.fio; do
		[ "$(basename "$f")" = smoke.fio ] || set -- "$@" "$f"
	done
fi
jobs=
for j in "$@"; do
	case $j in
	*.fio) f=$j ;;
	*) f="$QDIR/jobs/$j.fio" ;;
	esac
	[ -f "$f" ] || die "no job file $f"
	jobs="$jobs $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
"$SCRIPTS/deps.sh" python3

for k in pristine patched; do
	msg "building the $k kernel"
	"$QDIR/build-kernel.sh" "$k" > "$QB/ab-build-$k.log" 2>&1 || {
		tail -n 20 "$QB/ab-build-$k.log" >&2
		die "building the $k kernel failed"
	}
done
mkdir -p "$outdir"
msg "$runs run(s) per kernel of:$(for j in $jobs; do printf ' %s' "$(basename "$j" .fio)"; done); results in $outdir"

nfail=0
dirs=
round=1
while [ "$round" -le "$runs" ]; do
	if [ $((round % 2)) -eq 1 ]; then order="pristine patched"; else order="patched pristine"; fi
	for j in $jobs; do
		name=$(basename "$j" .fio)
		for k in $order; do
			d="$outdir/$name/$k-$round"
			if "$QDIR/run-guest.sh" "$(kobj_dir "$k")/arch/x86/boot/bzImage" \
					"$j" "$d"; then
				dirs="$dirs $d"
				python3 "$QDIR/report.py" run "$d" | sed -n 2p |
					sed "s/^ */$name $k #$round: /"
			else
				nfail=$((nfail + 1))
			fi
		done
	done
	round=$((round + 1))
done

status=0
if [ -n "$dirs" ]; then
	# shellcheck disable=SC2086
	python3 "$QDIR/report.py" ab $dirs | tee "$outdir/table.txt" || status=1
else
	status=1
fi
if [ "$nfail" -gt 0 ]; then
	echo "$ME: $nfail run(s) FAILED (see the messages above)" >&2
	status=1
fi
exit "$status"
