#!/bin/sh
# ab.sh - A/B bench: pristine 6.12 against the patched kernel, same jobs
# (RA_BASE=6.1: the 6.1 backport against pristine 6.1).
#
# Usage: ab.sh [-r RUNS] [-o OUTDIR] [-F FS...] [-S SCHED...] [JOB...]
#   -r  runs per kernel and variant (default 3, 1 to 99)
#   -o  where the runs go (default build/qemu/ab-YYYYmmdd-HHMMSS)
#   -F  file systems to run, of those the job names (quoted list:
#       "ext4 xfs"); default: all the job's "# fs:" line names
#   -S  I/O schedulers to run, of those the job names ("mq-deadline
#       bfq"); default: all the job's "# sched:" line names
#   JOB job names from jobs/spindle/ (spin-4k, spin-128k, spin-mmap:
#       the spinning-disk set without hints; spin-4k-hint, spin-mmap-hint:
#       with fio's default hints), jobs/spindle/solo/ (spin-4k-solo, ...:
#       the same with one reader per file; both sets are the default) or jobs/ (seq4k, seq64k,
#       seq128k, mmap, stream, random: the throttled-virtio set that
#       calibrate.sh compares with), or paths to .fio files
# Environment: as run-guest.sh (RA_BPS, RA_IOPS, RA_MEM, RA_CPUS,
# RA_CPU_MODE: wall or icount, common.sh, ...).
#
# Owns the A/B procedure: builds both kernels (incremental), then for
# each round, job and variant (file system x scheduler) boots pristine
# and patched one after the other (the order swaps every round, so slow
# drift of the host hits both alike), each run a fresh boot with dropped
# caches on the same read-only disk images.  Prints report.py's table
# per job and variant: median disk-side MB/s of each kernel against the
# disks' limit, guest CPU per GB, blktrace's latencies, seeks, request
# sizes and pages read twice, the ratio patched/pristine, requests and
# mean request size per disk, major faults; then each shared job beside
# its one-reader variant (jobs/spindle/solo/) and a summary line per job
# and variant with the verdict against the QEMU targets; all of it is
# also saved as OUTDIR/table.txt.  Exits non-zero if a guest failed (crash, hang,
# fio verify error, checksum mismatch) or a run read faster than the
# disks allow (a broken benchmark: something was cached).
set -eu
. "$(dirname "$0")/common.sh"

usage="usage: $0 [-r RUNS] [-o OUTDIR] [-F FS...] [-S SCHED...] [JOB...]"
runs=3
outdir="$QB/ab-$(date +%Y%m%d-%H%M%S)"
want_fs='' want_sched=''
while getopts r:o:F:S: opt; do
	case $opt in
	r) runs=$OPTARG ;;
	o) outdir=$OPTARG ;;
	F) want_fs=$OPTARG ;;
	S) want_sched=$OPTARG ;;
	*) die "$usage" ;;
	esac
done
shift $((OPTIND - 1))
case $runs in
'' | *[!0-9]*) die "bad run count '$runs' (allowed: 1 to 99)" ;;
esac
[ "$runs" -ge 1 ] && [ "$runs" -le 99 ] ||
	die "bad run count '$runs' (allowed: 1 to 99)"
for f in $want_fs; do
	case $f in
	ext4 | xfs) ;;
	*) die "bad file system '$f' (allowed: ext4, xfs)" ;;
	esac
done
for s in $want_sched; do
	case $s in
	mq-deadline | bfq | none) ;;
	*) die "bad I/O scheduler '$s' (allowed: mq-deadline, bfq, none)" ;;
	esac
done
if [ $# -eq 0 ]; then
	set -- "$QDIR"/jobs/spindle/*.fio "$QDIR"/jobs/spindle/solo/*.fio
fi
jobs=
for j in "$@"; do
	case $j in
	*.fio) f=$j ;;
	*)
		f="$QDIR/jobs/spindle/$j.fio"
		[ -f "$f" ] || f="$QDIR/jobs/spindle/solo/$j.fio"
		[ -f "$f" ] || f="$QDIR/jobs/$j.fio"
		;;
	esac
	[ -f "$f" ] || die "no job file for '$j' (jobs/spindle/$j.fio, jobs/spindle/solo/$j.fio or jobs/$j.fio)"
	jobs="$jobs $(cd "$(dirname "$f")" && pwd)/$(basename "$f")"
done
need python3 python3

# The variants of a job: "FS/SCHED" for each file system and scheduler
# its header names (ext4/default without those lines), narrowed to -F
# and -S.
variants() { # JOBFILE
	jfs=$(sed -n 's/^# fs:[[:space:]]*//p' "$1" | head -n 1)
	jsched=$(sed -n 's/^# sched:[[:space:]]*//p' "$1" | head -n 1)
	for f in ${jfs:-ext4}; do
		[ -z "$want_fs" ] || echo " $want_fs " | grep -q " $f " || continue
		for s in ${jsched:-default}; do
			[ -z "$want_sched" ] ||
				echo " $want_sched " | grep -q " $s " || continue
			echo "$f/$s"
		done
	done
}
nvar=0
for j in $jobs; do
	n=$(variants "$j" | wc -l)
	[ "$n" -gt 0 ] || die "$(basename "$j"): no variant left after -F/-S"
	nvar=$((nvar + n))
done

mkdir -p "$QB"
for k in pristine patched; do
	msg "building the $k kernel"
	"$QDIR/build-kernel.sh" "$k" > "$QB/ab-build-$k.log" 2>&1 || {
		tail -n 20 "$QB/ab-build-$k.log" >&2
		die "building the $k kernel failed"
	}
done
mkdir -p "$outdir"
# The images measured, copied: a rebuild while the bench runs (another
# make target) must not change a kernel halfway through.
for k in pristine patched; do
	mkdir -p "$outdir/kbuild-$k"
	cp "$(kobj_dir "$k")/arch/x86/boot/bzImage" "$outdir/kbuild-$k/bzImage"
done
msg "TCG: $RA_CPU_MODE ($TCG_ARGS)"
msg "$runs run(s) per kernel of $nvar variant(s) of:$(for j in $jobs; do printf ' %s' "$(basename "$j" .fio)"; done); results in $outdir"

nfail=0
dirs=
round=1
while [ "$round" -le "$runs" ]; do
	if [ $((round % 2)) -eq 1 ]; then order="pristine patched"; else order="patched pristine"; fi
	for j in $jobs; do
		name=$(basename "$j" .fio)
		for v in $(variants "$j"); do
			fs=${v%/*} sched=${v#*/}
			vname=$name
			[ "$v" = ext4/default ] || vname="$name-$fs-$sched"
			for k in $order; do
				d="$outdir/$vname/$k-$round"
				if "$QDIR/run-guest.sh" -f "$fs" -e "$sched" \
						"$outdir/kbuild-$k/bzImage" "$j" "$d"; then
					dirs="$dirs $d"
					python3 "$QDIR/report.py" run "$d" | sed -n 2p |
						sed "s|^ *|$name/$fs/$sched $k #$round: |"
				else
					nfail=$((nfail + 1))
				fi
			done
		done
	done
	round=$((round + 1))
done

status=0
if [ -n "$dirs" ]; then
	# shellcheck disable=SC2086
	python3 "$QDIR/report.py" ab --json "$outdir/table.jsonl" $dirs |
		tee "$outdir/table.txt" || status=1
else
	status=1
fi
if [ "$nfail" -gt 0 ]; then
	echo "$ME: $nfail run(s) FAILED (see the messages above)" >&2
	status=1
fi
exit "$status"
