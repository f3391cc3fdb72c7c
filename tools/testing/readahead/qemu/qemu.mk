# SPDX-License-Identifier: GPL-2.0
#
# qemu.mk - the targets that boot kernels under QEMU and the spindle
# nbdkit filter they read from; included by the top-level Makefile
# (its variables: SCRIPTS, BUILD, TREE, NEEDS, QEMU_DEPS, NBD_DEPS).

QEMU	:= tools/testing/readahead/qemu

.PHONY: nbd nbd-rate nbd-guest bench bench-throttled calibrate bench-smoke \
	bench-ioerror bench-mempress bench-memcg bench-stock bench-sanitized \
	bench-fuse

##@ The spindle nbdkit filter

## build the filter and run its unit tests
nbd:
	@$(NEEDS) gcc make libc6-dev nbdkit nbdkit-plugin-dev
	@$(MAKE) -s -C tools/testing/readahead/nbd OUT=$(BUILD)/nbd all test

## nbdcopy through the filter reaches the model's streaming rate (~10 s)
nbd-rate: nbd
	@$(NEEDS) $(NBD_DEPS)
	@$(MAKE) -s -C tools/testing/readahead/nbd OUT=$(BUILD)/nbd check-rate

## a guest's dd on a spindle disk (the patched bench kernel; ~1 min once
## the kernel is built)
nbd-guest: tree nbd
	@$(NEEDS) $(QEMU_DEPS)
	@$(QEMU)/build-kernel.sh patched >/dev/null
	@tools/testing/readahead/nbd/guest-dd.sh patched

##@ Real kernels under QEMU

R ?= 3
BENCH_JOBS ?=
BENCH_FS ?=
BENCH_SCHED ?=
BENCH_CPU ?= wall
BENCH_OUT = $(BUILD)/qemu/ab$(if $(filter icount,$(BENCH_CPU)),-icount)
## the A/B: pristine and patched 6.12 kernels under fio on spindle disks
## (nbdkit filter), 2 vCPUs, ext4 and XFS x mq-deadline and BFQ,
## blktrace; R runs each (R=3), medians; table in build/qemu/ab.txt, its
## records (report.py --json) in build/qemu/ab.jsonl.  A
## subset: BENCH_JOBS="spin-4k spin-mmap" BENCH_FS=xfs BENCH_SCHED=bfq
## (~1 min a run; the default set has the 5 spindle jobs, 2 of them with
## fio's default hints, and their one-reader variants).  RA_BASE=6.1:
## the 6.1 backport against pristine 6.1.  BENCH_CPU=icount: CPU s/GB
## counted in instructions, one vCPU (qemu/README, "CPU time: icount";
## table in build/qemu/ab-icount.txt)
bench: tree nbd
	@$(NEEDS) $(QEMU_DEPS)
	RA_CPU_MODE=$(BENCH_CPU) $(QEMU)/ab.sh -r $(R) \
		-o $(BENCH_OUT) $(if $(BENCH_FS),-F "$(BENCH_FS)") \
		$(if $(BENCH_SCHED),-S "$(BENCH_SCHED)") $(BENCH_JOBS)
	cp $(BENCH_OUT)/table.txt $(BENCH_OUT).txt
	cp $(BENCH_OUT)/table.jsonl $(BENCH_OUT).jsonl

## the same on the throttled virtio disks, one vCPU (the set calibrate
## compares with); table in build/qemu/ab-throttled.txt, records in
## build/qemu/ab-throttled.jsonl
bench-throttled: tree
	@$(NEEDS) $(QEMU_DEPS)
	$(QEMU)/ab.sh -r $(R) -o $(BUILD)/qemu/ab-throttled \
		seq4k seq64k seq128k mmap stream random
	cp $(BUILD)/qemu/ab-throttled/table.txt $(BUILD)/qemu/ab-throttled.txt
	cp $(BUILD)/qemu/ab-throttled/table.jsonl $(BUILD)/qemu/ab-throttled.jsonl

## the simulator on the throttled set's jobs and machine (throttled
## virtio disks, one CPU) beside the QEMU medians of
## build/qemu/ab-throttled.jsonl: PASS within 10%
calibrate: sim
	$(QEMU)/calibrate.sh

## the QEMU smoke test that make check runs
bench-smoke: tree
	@$(NEEDS) $(QEMU_DEPS)
	$(QEMU)/smoke.sh

## blkdebug read errors, patched and pristine kernels
bench-ioerror: tree
	@$(NEEDS) $(QEMU_DEPS)
	$(QEMU)/reliability/ioerror.sh patched pristine

## streams whose windows exceed a small guest's memory (pristine runs for
## comparison only: 6.1 re-read 73% of the data under this pressure and
## fails the bound that ours is held to)
bench-mempress: tree
	@$(NEEDS) $(QEMU_DEPS)
	$(QEMU)/reliability/mempress.sh patched
	-$(QEMU)/reliability/mempress.sh pristine

## the same streams in a 64 MB memory cgroup of a 512 MB guest, patched
## against pristine (A/B)
bench-memcg: tree
	@$(NEEDS) $(QEMU_DEPS)
	MP_MEM=512 MP_MEMCG=64 MP_MAX_WASTE=10 \
		$(QEMU)/reliability/mempress.sh patched pristine

## ra-record on pristine and patched 6.12 under fio (the seq4k shape, R
## rounds): the windows inferred from stock events against the
## decisions, and what recording costs fio (make check runs a small one)
bench-stock: tree
	@$(NEEDS) $(QEMU_DEPS)
	$(QEMU)/reliability/stock.sh -r $(R) -l "3 4 32"

## the patched kernel with KASAN, lockdep, DEBUG_VM under fio, stress-ng
## and truncate/DONTNEED races (~5 min once built, ~12 min to build)
bench-sanitized: tree
	@$(NEEDS) $(QEMU_DEPS)
	$(QEMU)/reliability/sanitized.sh

## the sanitized kernel reading ahead into a congested FUSE mount (our
## own server, reads answered late): random reads, FADV_RANDOM, WILLNEED,
## readahead(2), MADV_WILLNEED, read_ahead_kb 0, a sequential reader
## (~2 min once built)
bench-fuse: tree
	@$(NEEDS) $(QEMU_DEPS)
	$(QEMU)/reliability/fuse.sh
