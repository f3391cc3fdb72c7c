#!/bin/sh
# stock-guest.sh - the guest half of stock.sh (run by guest-init.sh as test.sh).
#
# Owns the runs of one kernel: a fio job of 4 KB read(2) readers, two per
# data file (the QEMU bench's seq4k shape, over whatever files the disks
# hold), ROUNDS times without recording and ROUNDS times under ra-record
# (through trace-cmd with RECORDER=trace-cmd, else through tracefs),
# alternating, each after the caches are dropped.  fio's read MB/s of every run go to $R/plain and
# $R/recorded (one figure a line), ra-record's own line to $R/record.log,
# the last recorded trace to $R/trace.txt, each data disk's MAJOR:MINOR to
# $R/dev.DISK.
ROUNDS=${ROUNDS:-1}
via=-T
[ "${RECORDER:-}" != trace-cmd ] || via=
job=/tmp/stock.fio
{
	printf '[global]\nioengine=psync\nrw=read\nbs=4k\nnumjobs=2\n'
	printf 'invalidate=0\nfadvise_hint=0\ngroup_reporting=1\n'
	for f in /mnt/d*/f*; do
		printf '[%s]\nfilename=%s\n' "$(echo "${f#/mnt/}" | tr / .)" "$f"
	done
} > $job

# run_fio OUT: fio's read bandwidth (terse field 7, KB/s) in MB/s.
run_fio() {
	fio --output-format=terse --terse-version=3 "$job" > "$1.terse" 2>&1 ||
		echo "FAIL: fio ($1)" >> $R/failures
	awk -F';' 'NF > 7 { printf "%.2f\n", $7 / 1024; exit }' "$1.terse"
}

# The data disks' MAJOR:MINOR, for the host to find their files.
while read -r _ v; do
	cat "/sys/block/$v/dev" > "$R/dev.$v"
done < "$R/disks"

: > $R/plain
: > $R/recorded
i=1
while [ "$i" -le "$ROUNDS" ]; do
	sync
	echo 3 > /proc/sys/vm/drop_caches
	run_fio /tmp/plain.$i >> $R/plain
	sync
	echo 3 > /proc/sys/vm/drop_caches
	# shellcheck disable=SC2086 # no option, or -T
	sh /ctl/ra-record $via -b 65536 -o $R/trace.txt -- \
		fio --output-format=terse --terse-version=3 "$job" \
		> /tmp/rec.$i.out 2>> $R/record.log ||
		echo "FAIL: ra-record (round $i)" >> $R/failures
	grep '^ra-record:' /tmp/rec.$i.out >> $R/record.log
	awk -F';' 'NF > 7 { printf "%.2f\n", $7 / 1024; exit }' \
		/tmp/rec.$i.out >> $R/recorded
	i=$((i + 1))
done
exit 0
