#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# calibrate.sh - the simulator against the QEMU bench, job by job.
#
# Usage: calibrate.sh [AB_TABLE]
#        (default build/qemu/ab-throttled.txt, make bench-throttled;
#        without it ab-reference.txt beside this script)
#
# For every job of jobs/ (the throttled set; the spindle set of
# jobs/spindle/ is not calibrated here) the simulator runs the same
# shape on the bench's machine: its layout's disks as throttled virtual
# disks (iops=, the bps and IOPS limits of run-guest.sh), no I/O
# scheduler (noop; the guest's one-queue disks had mq-deadline, which
# cannot reorder much on a disk with no geometry), one CPU with the
# guest's costs, 1 GB, 6.1's block
# defaults; ours stands for the patched kernel, pristine for pristine.
# The guest's CPU costs are fixed from one measurement on the bench
# (README: one TCG vCPU verifying 4 KB read(2)s reaches about 70 MB/s,
# 58 us per 4 KB: syscall_us=17, copy_mbps=100; fault_us=25).  Printed
# side by side with the QEMU medians of AB_TABLE: disk-side MB/s, and
# the requests and mean request size of the busiest disk, each with
# sim/QEMU and PASS within 10%, FAIL outside.  A job reading several files in turn
# (file_service_type=sequential, stream.fio) is simulated as one reader
# of one file of their total size: the throttled disk has no geometry,
# so only the extra window ramp-ups at the file boundaries are lost.
# Ends with "calibrate: N PASS, N FAIL".
set -eu
. "$(dirname "$0")/common.sh"

table=${1:-$BUILD/qemu/ab-throttled.txt}
[ $# -gt 0 ] || [ -f "$table" ] || table=$QDIR/ab-reference.txt
[ $# -eq 0 ] || [ -f "$table" ] || die "no table $table"
have_table=0
[ -f "$table" ] && have_table=1
sim=$BUILD/sim/ra_sim
bps=${RA_BPS:-8000000}
iops=${RA_IOPS:-50}
D=$QB/calibrate
rm -rf "$D"
mkdir -p "$D"
[ -x "$sim" ] || die "no $sim: run make sim"

# The QEMU medians of one job and kernel from report.py's ab table:
# disk MB/s, then requests and mean KB of the busiest disk.
qemu_fig() { # job kernel
	[ -f "$table" ] || return 0
	awk -v job="$1" -v k="$2" '
		/^== / { cur = $2; sub(/:$/, "", cur); col = 0; next }
		cur != job { next }
		$1 == k && $2 ~ /^[0-9]+$/ && mbs == "" { mbs = $3 }
		/^per disk/ {
			# "per disk F1 mean KB F2 mean KB": F(n) is in data
			# columns 2n and 2n + 1.
			n = 0
			for (i = 3; i <= NF; i++) {
				if ($i == "mean" || $i == "KB")
					continue
				n++
				if ($i == substr(k, 1, 10))
					col = 2 * n
			}
			next
		}
		col && /\(requests, mean request size; medians\)/ &&
		  $col + 0 > reqs + 0 { reqs = $col; kb = $(col + 1) }
		END { if (mbs != "") print mbs, reqs, kb }' "$table"
}

# The same from a simulator report: disk MB/s of the impl's summary,
# requests and mean KB of its busiest disk.
sim_fig() { # report impl
	awk -v impl="$2" '
		/^ra_sim: impl=/ { cur = $2; sub(/^impl=/, "", cur); t = 0; next }
		cur != impl { next }
		/^Disk stats/ { t = 1; getline; next }
		t && NF == 15 && $2 + 0 > reqs + 0 { reqs = $2; kb = $13 }
		t && NF != 15 { t = 0 }
		/^summary:/ { for (i = 2; i <= NF; i++) if ($i ~ /^disk_mbps=/) {
			mbs = $i; sub(/^disk_mbps=/, "", mbs) } }
		END { print mbs, reqs, kb }' "$1"
}

pct() { # sim qemu -> "0.97 PASS"; no QEMU figure in a table: FAIL
	awk -v s="$1" -v q="$2" -v t="$have_table" 'BEGIN {
		if (q == "" || q + 0 == 0) { print "-", t ? "FAIL" : "-"; exit }
		r = s / q; printf "%.2f %s\n", r, (r >= 0.9 && r <= 1.1) ? "PASS" : "FAIL" }'
}

printf '%-8s %-8s %9s %9s %5s %9s %9s %5s %8s %8s %5s\n' job kernel \
	simMB/s qemuMB/s "" sim_reqs qemu_reqs "" simKB qemuKB ""
[ -f "$table" ] || echo "(no $table: make bench-throttled first; simulated figures only)"
for f in "$QDIR"/jobs/*.fio; do
	job=$(basename "$f" .fio)
	[ "$job" = smoke ] && continue
	set -- $(sed -n 's/^# layout: //p' "$f")
	ndisks=$1 mb=$3
	{
		printf '[system]\nmemory=1g\nseed=1\ncpus=1\nsyscall_us=17\n'
		printf 'copy_mbps=100\nfault_us=25\n\n'
		printf '[disk d0..d%d]\npartitions=0\nmount=/mnt/%%d\n' \
			$((ndisks - 1))
		printf 'rate_mbps=%s\niops=%s\nelevator=noop\n' \
			"$(awk -v b="$bps" 'BEGIN { print b / 1e6 }')" "$iops"
		printf 'max_sectors_kb=1280\nread_ahead_kb=128\n'
	} > "$D/$job.disks"
	# fio's verification is CPU (in the costs above), not I/O; a job
	# reading several files in turn becomes one file of their size.
	awk -v mb="$mb" '
		/^verify/ || /^file_service_type=/ { next }
		/^\[global\]$/ { print; print "size=" mb "m"; next }
		/^filename=.*:/ {
			n = split(substr($0, 10), f, ":")
			print "filename=" f[1]
			print "size=" n * mb "m"
			next
		}
		{ print }' "$f" > "$D/$job.fio"
	"$sim" "$D/$job.disks" "$D/$job.fio" > "$D/$job.out"
	for k in pristine patched; do
		impl=$k
		[ "$k" = patched ] && impl=ours
		set -- $(sim_fig "$D/$job.out" "$impl")
		smbs=$1 sreq=$2 skb=$3
		set -- $(qemu_fig "$job" "$k") "" "" ""
		qmbs=$1 qreq=$2 qkb=$3
		v1=$(pct "$smbs" "$qmbs")
		v2=$(pct "$sreq" "$qreq")
		v3=$(pct "$skb" "$qkb")
		printf '%-8s %-8s %9s %9s %5s %9s %9s %5s %8s %8s %5s\n' \
			"$job" "$k" "$smbs" "${qmbs:--}" "${v1% *}" "$sreq" \
			"${qreq:--}" "${v2% *}" "$skb" "${qkb:--}" "${v3% *}"
		for v in "$v1" "$v2" "$v3"; do
			echo "${v#* }" >> "$D/verdicts"
		done
	done
done
echo "calibrate: $(grep -c '^PASS$' "$D/verdicts" || true) PASS, $(grep -c '^FAIL$' "$D/verdicts" || true) FAIL"
