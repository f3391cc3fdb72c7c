# SPDX-License-Identifier: GPL-2.0
#
# sanitized.sh - the simulator's tests: the sanitized build on every scenario.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- the sanitized build, every scenario, both sides ----
asan() { # name machine jobs defines...
	name=$1 machine=$2 jobs=$3
	shift 3
	defs=
	for d in "$@"; do defs="$defs --define $d"; done
	# shellcheck disable=SC2086
	check "asan: $name" sh -c "$ASAN $defs $SC/$machine $SC/$jobs \
		> $TMP/asan.out 2>&1 && \
		test \$(grep -c '^Checks: .*: ok\$' $TMP/asan.out) = 2"
}
asan seq4k jbod13.disks jbod13-seq.fio BS=4k SIZE=4m
asan seq128k jbod13.disks jbod13-seq.fio BS=128k SIZE=4m
asan mmap jbod7.disks jbod7-mmap.fio BS=4k SIZE=4m
asan random random.disks random.fio BS=4k SIZE=300m THREADS=4
asan single single.disks single.fio BS=1m SIZE=64m
# BFQ's processes past its first 16 (the table grew by realloc, moving the
# processes its queues point at): fio's main process and 20 readers of
# one file, whose queues are merged after the 17th process arrived.
printf '[system]\nmemory=256m\nseed=1\ncpus=2\nfio_main_ms=500\nfio_fork_us=2000\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\nelevator=bfq\n' > "$TMP/many.disks"
printf '[global]\nrw=read\nbs=128k\nsize=16m\nioengine=psync\ninvalidate=0\n\n[f0]\nfilename=/mnt/sda/f0\nnumjobs=20\n' > "$TMP/many.fio"
check "asan: bfq: 21 processes on one disk, queues merged after the 17th, checks hold (both)" \
	sh -c "$ASAN $TMP/many.disks $TMP/many.fio > $TMP/asan.out 2>&1 && \
	       test \$(grep -c '^Checks: .*: ok\$' $TMP/asan.out) = 2"
