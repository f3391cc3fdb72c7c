# SPDX-License-Identifier: GPL-2.0
#
# fiomain.sh - the simulator's tests: fio's main process.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- fio's main process (fiomain.c): its metadata read comes first,
# the readers start fio_main_ms later, the files 1 MB into the
# partition; under BFQ its queue, not the first reader's, is the
# reference for stable merging, and the readers' queues (430 ms later)
# are merged with none.  Without it the same run has 3 queue merges. ----
printf '[system]\nmemory=1g\nseed=1\ncpus=2\nfio_main_ms=430\n\n[disk sda]\ncapacity=100g\npartitions=1\nelevator=bfq\n' > "$TMP/fm.disks"
sed '/^fio_main_ms=/d' "$TMP/fm.disks" > "$TMP/fm0.disks"
printf '[global]\nrw=read\nbs=128k\nsize=16m\nioengine=sync\n' > "$TMP/fm.fio"
for f in 0 1 2 3; do printf '[f%s]\nfilename=/mnt/sda1/f%s\n' $f $f; done >> "$TMP/fm.fio"
"$SIM" --impl ours --blktrace "$TMP/fm" "$TMP/fm.disks" "$TMP/fm.fio" > "$TMP/fm.out"
"$SIM" --impl ours "$TMP/fm0.disks" "$TMP/fm.fio" > "$TMP/fm0.out"
check "fio main: its 4 KB metadata read at the partition's start comes first (time 0, pid 999, not readahead)" \
	test "$("$DUMP" "$TMP/fm/ours/sda.blktrace.0" | awk '$3 == "Q" { print $2, $4, $5, $6, $7; exit }')" = "0 0011 2048 4096 999"
check "fio main: each process's first request (pid time sector): the readers' at 430 ms (two CPUs: the second two after the first two's 1 us syscalls), f0 1 MB into sda1" \
	test "$("$DUMP" "$TMP/fm/ours/sda.blktrace.0" | awk '$3 == "Q" && !($7 in t) { t[$7] = $2; s[$7] = $5 } END { for (p in t) print p, t[p], s[p] }' | sort | tr '\n' ';')" = "1000 430001000 4096;1001 430001000 36864;1002 430000000 69632;1003 430000000 102400;999 0 2048;"
sed 's/^fio_main_ms=430$/&\nfio_fork_us=10000/' "$TMP/fm.disks" > "$TMP/fmf.disks"
"$SIM" --impl ours --blktrace "$TMP/fmf" "$TMP/fmf.disks" "$TMP/fm.fio" > /dev/null
check "fio main: fio_fork_us=10000 starts the jobs 10 ms apart, in job order" \
	test "$("$DUMP" "$TMP/fmf/ours/sda.blktrace.0" | awk '$3 == "Q" && !($7 in t) { t[$7] = $2 } END { for (p in t) print p, t[p] }' | sort | tr '\n' ';')" = "1000 430000000;1001 440000000;1002 450000000;1003 460000000;999 0;"
"$SIM" --impl ours "$TMP/fm.disks" "$TMP/fm.fio" > "$TMP/fm.fast" 2>&1
"$ASAN" --impl ours "$TMP/fm.disks" "$TMP/fm.fio" > "$TMP/fm.asan" 2>&1
check "fio main: the sanitized build runs it clean, to the same report" \
	sh -c "grep -v '^engine:' $TMP/fm.fast > $TMP/fm.a; grep -v '^engine:' $TMP/fm.asan > $TMP/fm.b; cmp -s $TMP/fm.a $TMP/fm.b"
check "fio main: BFQ merges no reader queue (without the main process: 3)" \
	test "$(field "$TMP/fm.out" ours qmerges) $(field "$TMP/fm0.out" ours qmerges)" = "0 3"
