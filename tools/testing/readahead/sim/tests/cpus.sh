# SPDX-License-Identifier: GPL-2.0
#
# cpus.sh - the simulator's tests: the CPUs.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- CPUs: two readers of cached files, 64 MB each in 4 KB read(2)s at
# 1 us + 4096 B / 2000 MB/s = 3.048 us each: 16384 x 3.048 = 49.94 ms of
# CPU per reader.  One CPU runs them one after the other (99.9 ms); two
# CPUs, or no limit, side by side (49.9 ms). ----
printf '[system]\nmemory=1g\nseed=1\ncpus=CPUS\n\n[disk sda]\npartitions=1\n' > "$TMP/cpu.disks"
printf '[global]\nrw=read\nbs=4k\nsize=64m\npre_cached=64m\ninvalidate=0\n\n[a]\nfilename=/mnt/sda1/a\n\n[b]\nfilename=/mnt/sda1/b\n' > "$TMP/cpu.fio"
for c in 0 1 2; do
	sed "s/CPUS/$c/" "$TMP/cpu.disks" > "$TMP/cpu$c.disks"
	"$SIM" --impl ours "$TMP/cpu$c.disks" "$TMP/cpu.fio" > "$TMP/cpu$c.out"
done
check "cpus: one CPU runs two CPU-bound readers in turn (99 ms), two or unlimited side by side (49 ms)" \
	test "$(field "$TMP/cpu1.out" ours elapsed_ms) $(field "$TMP/cpu2.out" ours elapsed_ms) $(field "$TMP/cpu0.out" ours elapsed_ms)" = "99 49 49"
check "cpus: with one CPU the readers waited for it (run queue), with two they did not" \
	sh -c "test $(field "$TMP/cpu1.out" ours runq_ms) -ge 49 && test $(field "$TMP/cpu2.out" ours runq_ms) = 0"
"$SIM" --impl ours "$TMP/cpu1.disks" "$TMP/cpu.fio" > "$TMP/cpu1b.out"
check "cpus: the run queue is deterministic (same seed, same report)" \
	sh -c "grep -v '^engine:' $TMP/cpu1.out > $TMP/c1; grep -v '^engine:' $TMP/cpu1b.out > $TMP/c2; cmp -s $TMP/c1 $TMP/c2"
