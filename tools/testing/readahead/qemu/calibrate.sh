#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# calibrate.sh - the simulator against the QEMU bench, job by job.
#
# Usage: calibrate.sh [AB_TABLE [SPINDLE_TABLE]]
#        (AB_TABLE: default build/qemu/ab-throttled.txt, make
#        bench-throttled; without it ab-reference.txt beside this script;
#        SPINDLE_TABLE: default build/qemu/ab.txt, make bench)
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
# sim/QEMU, each one TAP test: ok within 10%, not ok outside (skipped
# when there is no table at all).  A job reading several files in turn
# (file_service_type=sequential, stream.fio) is simulated as one reader
# of one file of their total size: the throttled disk has no geometry,
# so only the extra window ramp-ups at the file boundaries are lost.
#
# Then the spindle set (jobs/spindle/), shown, not judged: each
# job under each scheduler it names, simulated with the bench's spindle
# disks (common.sh's SPINDLE_DISK, the same model as the nbdkit filter),
# two CPUs with the costs above, the guest's own max_sectors_kb and
# read_ahead_kb (guest-info of the bench's runs; 1280 and 128, 6.1's
# defaults for a virtio disk, when there is none), and --blktrace,
# beside SPINDLE_TABLE's ext4 medians: disk-side MB/s, read requests
# (all disks), mean request KB, D2C and Q2C of the busiest disk (the
# simulator's blktrace lines against btt's on the guest's trace).  The
# guest's other limits do not bind (max_segments: QEMU 7.2's seg_max,
# queue-size 256 - 2 = 254 pages; no request of the bench exceeded
# 256 KB).  Not
# judged because the models differ where the machine file has no key:
# the guest's disk takes up to 4 requests at once (2 hardware queues,
# one per vCPU, x virtio_blk.queue_depth=2 driver tags each; blkparse
# shows 4 dispatched and not completed, never 5), and each hardware
# queue holds at most nr_requests = 2 x 2 = 4 requests, on the disk or
# in the elevator (bios beyond wait for a tag, btt's Q2G, out of reach
# of merges), while the simulator's
# spindle takes one request at a time (sim/blkq.c, dispatch(): depth 1
# unless iops=) from an unbounded elevator; and the simulator's file
# system lays files out 1 MB aligned, not as mke2fs does.  The table
# ends with the limits read from the runs.
# Prints TAP (scripts/tap.sh): the tables as diagnostics, three tests per
# job and kernel of the throttled set, the plan and the totals.
set -eu
. "$(dirname "$0")/common.sh"

table=${1:-$BUILD/qemu/ab-throttled.txt}
sptable=${2:-$BUILD/qemu/ab.txt}
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
tap_begin

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

# judge NAME VERDICT: one test from pct's verdict.
judge() {
	case ${2#* } in
	PASS) tap_ok "$1: sim/QEMU ${2% *}, within 10%" ;;
	FAIL) tap_not_ok "$1: sim/QEMU ${2% *}, not within 10%" ;;
	*) tap_skip "$1: sim/QEMU within 10%" "no QEMU table ($table)" ;;
	esac
}

printf '# %-8s %-8s %9s %9s %5s %9s %9s %5s %8s %8s %5s\n' job kernel \
	simMB/s qemuMB/s "" sim_reqs qemu_reqs "" simKB qemuKB ""
[ -f "$table" ] || tap_diag "(no $table: make bench-throttled first; simulated figures only)"
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
		printf '# %-8s %-8s %9s %9s %5s %9s %9s %5s %8s %8s %5s\n' \
			"$job" "$k" "$smbs" "${qmbs:--}" "${v1% *}" "$sreq" \
			"${qreq:--}" "${v2% *}" "$skb" "${qkb:--}" "${v3% *}"
		judge "$job $k disk MB/s" "$v1"
		judge "$job $k requests of the busiest disk" "$v2"
		judge "$job $k mean request KB" "$v3"
	done
done
# --- The spindle set, shown beside the bench ------------------------------
# QEMU medians of JOB/ext4/SCHED and KERNEL from the spindle table: disk
# MB/s, reads, mean KB, D2C ms, Q2C ms (the "blktrace" lines).
qemu_spin() { # title kernel
	[ -f "$sptable" ] || return 0
	awk -v title="$1" -v k="$2" '
		/^== / { cur = $2; sub(/:$/, "", cur); bt = 0; next }
		cur != title { next }
		/^kernel / { bt = 0; next }
		/^blktrace / { bt = 1; next }
		!bt && $1 == k && $2 ~ /^[0-9]+$/ { mbs = $3 }
		bt && $1 == k { q2c = $2; d2c = $3; reqs = $5; kb = $6 }
		END { if (mbs != "") print mbs, reqs, kb, d2c, q2c }' "$sptable"
}
# The same from a simulator report (--blktrace): the disks' requests
# summed, their mean size, the busiest disk's D2C and Q2C in ms.
sim_spin() { # report impl
	awk -v impl="$2" '
		/^ra_sim: impl=/ { cur = $2; sub(/^impl=/, "", cur); t = 0; next }
		cur != impl { next }
		/^Disk stats/ { t = 1; getline; next }
		t && NF == 15 { reqs += $2; sect += $4
			if ($4 + 0 > best + 0) { best = $4; dev = $1 } }
		t && NF != 15 { t = 0 }
		/^  blktrace / { d = $2; sub(/:$/, "", d)
			for (i = 3; i <= NF; i++) { split($i, kv, "=")
				v[d, kv[1]] = kv[2] } }
		/^summary:/ { for (i = 2; i <= NF; i++) if ($i ~ /^disk_mbps=/) {
			mbs = $i; sub(/^disk_mbps=/, "", mbs) } }
		END { printf "%s %d %.1f %.1f %.1f\n", mbs, reqs,
			reqs ? sect / 2 / reqs : 0, v[dev, "d2c_avg"] * 1e3,
			v[dev, "q2c_avg"] * 1e3 }' "$1"
}
# The guest's block queue limits for JOB/ext4/SCHED, from the first run
# of it beside SPINDLE_TABLE (ab*/JOB-ext4-SCHED/*/results, not one
# with RA_IOSCHED's tunables): the data
# disks' max_sectors_kb and read_ahead_kb (guest-info), the virtio
# queue depth (virtio_blk.queue_depth= on the command line; none: the
# virtqueue's size) and the hardware queues (dmesg: "N/0/0
# default/read/poll queues"; QEMU gives a virtio-blk-pci disk one per
# vCPU).  Each hardware queue has its own driver tags, so up to N x depth
# requests are on the disk at once.  Prints "MAXKB RAKB NQ QD RUN";
# 6.1's defaults and "-" for the rest when there is no run.
guest_limits() { # job sched
	for gi in "$(dirname "$sptable")"/ab*/"$1-ext4-$2"/*/results/guest-info; do
		[ -f "$gi" ] || continue
		r=${gi%/guest-info}
		# a run with tuned scheduler settings is not the table's
		! grep -q '^iosched ' "${r%/results}/host-info" 2>/dev/null ||
			continue
		awk -v run="${r%/results}" '
			FILENAME ~ /guest-info$/ && $1 == "max_sectors_kb" &&
			  $2 == "d0" { mx = $4 }
			FILENAME ~ /guest-info$/ && $1 == "read_ahead_kb" &&
			  $2 == "d0" { ra = $4 }
			FILENAME ~ /guest-info$/ && $1 == "cmdline" {
				for (i = 2; i <= NF; i++)
					if ($i ~ /^virtio_blk\.queue_depth=/) {
						qd = $i; sub(/.*=/, "", qd) } }
			FILENAME ~ /dmesg.boot$/ && /virtio_blk .* default\/read\/poll queues/ {
				for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\/[0-9]+\/[0-9]+$/) {
					split($i, n, "/"); nq = n[1] } }
			END { printf "%s %s %s %s %s\n", mx ? mx : 1280,
				ra ? ra : 128, nq ? nq : "-", qd ? qd : "-", run }' \
			"$gi" "$r/dmesg.boot"
		return 0
	done
	echo "1280 128 - - -"
}
ratio() { # sim qemu
	awk -v s="$1" -v q="$2" 'BEGIN {
		if (q == "" || q == "-" || q + 0 == 0) print "-"
		else printf "%.2f\n", s / q }'
}
tap_diag
limits=
tap_diag "spindle set: simulated beside $sptable (ext4 medians), shown, not judged"
[ -f "$sptable" ] || tap_diag "(no $sptable: make bench first; simulated figures only)"
printf '# %-22s %-8s %7s %7s %5s %6s %6s %5s %6s %6s %5s %6s %6s %6s %6s\n' \
	job kernel simMB/s qemuMB/s "" simreq qemureq "" simKB qemuKB "" \
	simD2C qemuD2C simQ2C qemuQ2C
for f in "$QDIR"/jobs/spindle/*.fio; do
	job=$(basename "$f" .fio)
	set -- $(sed -n 's/^# layout: //p' "$f")
	ndisks=$1 mb=$3
	set -- $(sed -n 's/^# cpus: //p' "$f") 2
	cpus=$1
	for sched in $(sed -n 's/^# sched: //p' "$f"); do
		m="$D/$job-$sched"
		set -- $(guest_limits "$job" "$sched")
		maxkb=$1 rakb=$2
		[ "$3" = - ] || [ "$4" = - ] || limits="$limits
$job/$sched: ${5#"$QB"/}: max_sectors_kb $1, read_ahead_kb $2, $3 hw queues x depth $4 = $(($3 * $4)) on the disk"
		{
			printf '[system]\nmemory=1g\nseed=1\ncpus=%s\n' "$cpus"
			printf 'syscall_us=17\ncopy_mbps=100\nfault_us=25\n\n'
			printf '[disk d0..d%d]\npartitions=0\nmount=/mnt/%%d\n' \
				$((ndisks - 1))
			for kv in $SPINDLE_DISK; do echo "$kv"; done
			printf 'max_sectors_kb=%s\nread_ahead_kb=%s\n' \
				"$maxkb" "$rakb"
			printf 'elevator=%s\n' "$sched"
		} > "$m.disks"
		awk -v mb="$mb" '
			/^verify/ { next }
			/^\[global\]$/ { print; print "size=" mb "m"; next }
			{ print }' "$f" > "$m.fio"
		"$sim" --blktrace "$m.bt" "$m.disks" "$m.fio" > "$m.out"
		for k in pristine patched; do
			impl=$k
			[ "$k" = patched ] && impl=ours
			set -- $(sim_spin "$m.out" "$impl")
			smbs=$1 sreq=$2 skb=$3 sd2c=$4 sq2c=$5
			set -- $(qemu_spin "$job/ext4/$sched" "$k") - - - - -
			printf '# %-22s %-8s %7s %7s %5s %6s %6s %5s %6s %6s %5s %6s %6s %6s %6s\n' \
				"$job/$sched" "$k" "$smbs" "$1" \
				"$(ratio "$smbs" "$1")" "$sreq" "$2" \
				"$(ratio "$sreq" "$2")" "$skb" "$3" \
				"$(ratio "$skb" "$3")" "$sd2c" "$4" "$sq2c" "$5"
		done
	done
done
# What the machine files above cannot say: the guest's disks take several
# requests at once, ra_sim's spindles one (sim/blkq.c, dispatch()).
if [ -n "$limits" ]; then
	tap_diag "the guest's block queues (ra_sim got the same max_sectors_kb" \
		"and read_ahead_kb; its spindle takes 1 request at a time):"
	echo "$limits" | sed '/^$/d; s/^/#   /'
fi
tap_end
