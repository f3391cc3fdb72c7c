# SPDX-License-Identifier: GPL-2.0
#
# On-demand readahead for Linux: top level.
#
#   make demo     the demo: the 13-disk JBOD of the July 2009 report through
#                 the simulator, ours against pristine 6.12 and 6.1, a
#                 table and a plot (installs what it needs)
#   make check    the test suite: TAP, one test per stage; ends with
#                 "N passed, N failed"
#   make harness  build the userspace harness only
#   make kernel-obj  compile mm/readahead.c in the patched 6.12 tree (W=1)
#   make replay   the 2009 regressions replayed: the July 2009 reports'
#                 three machines (CFQ, 8 CPUs) with the 2.6.30 and
#                 2.6.31-rc1 models, pristine 6.12 and ours; the reports'
#                 table with PASS/FAIL per row (~4 min)
#   make bisect SCENARIO=report13-sync-4k   a git-bisect-style search over
#                 the models from 2.6.30 to 2.6.31-rc1 (SIZE=1g,
#                 THRESHOLD=0.95): the first bad step
#   make sweep    the replay's ratios as one machine parameter moves
#   make matrix   ours and pristine 6.12 on none/mq-deadline/bfq/cfq x the
#                 reports' shapes x read(2)/mmap x 4/64/128k x 1/2/8 CPUs
#                 (SIZE=256m), one line each
#   make bench    QEMU A/B: pristine and patched 6.12 kernels under fio on
#                 spindle disks (nbdkit filter), 2 vCPUs, ext4 and XFS x
#                 mq-deadline and BFQ, blktrace; R runs each (R=3),
#                 medians; table in build/qemu/ab.txt.  A subset:
#                 BENCH_JOBS="spin-4k spin-mmap" BENCH_FS=xfs
#                 BENCH_SCHED=bfq (~1 min a run; the default set has
#                 the 5 spindle jobs, 2 of them with fio's default
#                 hints, and their one-reader variants).  RA_BASE=6.1:
#                 the 6.1 backport against pristine 6.1.
#                 BENCH_CPU=icount: CPU s/GB counted in instructions,
#                 one vCPU (table in build/qemu/ab-icount.txt)
#   make bench-throttled  the same on the throttled virtio disks, one
#                 vCPU (the set calibrate compares with); table in
#                 build/qemu/ab-throttled.txt
#   make calibrate  the simulator on the throttled set's jobs and machine
#                 (throttled virtio disks, one CPU) beside the QEMU medians
#                 of build/qemu/ab-throttled.txt: PASS within 10%
#   make bench-smoke  the QEMU smoke test that make check runs
#   make bench-ioerror   blkdebug read errors, patched and pristine kernels
#   make bench-mempress  streams whose windows exceed a small guest's memory
#   make bench-memcg     the same streams in a 64 MB memory cgroup of a
#                        512 MB guest, patched against pristine (A/B)
#   make bench-stock  ra-record on pristine and patched 6.12 under fio
#                 (the seq4k shape, R rounds): the windows inferred from
#                 stock events against the decisions, and what recording
#                 costs fio (make check runs a small one)
#   make bench-sanitized the patched kernel with KASAN, lockdep, DEBUG_VM
#                 under fio, stress-ng and truncate/DONTNEED races (~5 min
#                 once built, ~12 min to build)
#   make bench-fuse  the sanitized kernel reading ahead into a congested
#                 FUSE mount (our own server, reads answered late): random
#                 reads, FADV_RANDOM, WILLNEED, readahead(2), MADV_WILLNEED,
#                 read_ahead_kb 0, a sequential reader (~2 min once built)
#   make fuzz     libFuzzer on the harness, FUZZ_SECONDS (600) long
#   make series   the patch series (git format-patch + cover letter) in
#                 build/series, and the 6.1 backport's in build/series-6.1,
#                 signed off with your git identity, checkpatch'ed,
#                 bisect-built (mm/ objects)
#   make mutate   mutation testing: each mutation in
#                 tools/testing/readahead/mutations/*.sed applied to a copy
#                 of mm/readahead.c, the harness run on it; TAP, a
#                 mutation that survives is a failure
#   make bench-analyzer  ra_analyze on a generated 5-million-line trace
#                 (BENCH_LINES): time and peak RSS, optimized and sanitized
#   make bench-cpu  instructions per page of readahead (callgrind), ours
#                 and pristine 6.12, order-0 and large folio mappings: one
#                 table, exclusive and inclusive (~15 s)
#   make perf     the performance targets, PASS/FAIL per target: the
#                 matrix, readers sharing a file, streams against the
#                 seek-amortization bound, pages read twice, all-cached
#                 calls, ours against the 2.6.30 model on the reports'
#                 machines, bench-cpu, all against pristine 6.12
#                 (PERF_SIZE, 256m; PERF_SEEDS, the matrix's seeds, each
#                 row judged on its median run and its lowest: 1-15;
#                 the matrix's runs grow with the size and the seeds)
#
# Everything generated goes to build/ (git-ignored): the pristine tree
# unpacked from Debian's kernel source package (KSRC_PKG), the patched
# tree, objects.  Packages are installed here, by the targets, and by no
# test script.

SCRIPTS	:= tools/testing/readahead/scripts
include $(SCRIPTS)/config
BUILD	:= $(CURDIR)/build
TREE	:= $(BUILD)/$(KSRC_DIR)
PATCHED	:= $(BUILD)/linux-patched
KOBJ	:= $(BUILD)/kobj

# Debian packages: compiler, the kernel source, what a kernel build needs.
DEPS	:= gcc make libc6-dev xz-utils patch perl $(KSRC_PKG) $(OLD_PKG) \
	   flex bison bc libelf-dev libssl-dev sparse gnuplot-nox
# libFuzzer (make fuzz, make check).
FUZZ_DEPS := clang libclang-rt-14-dev
# The QEMU bench and the QEMU stages of make check: the kernel build
# (DEPS has the rest), the guest's programs (rel-guest's stress-ng), its
# disks (ext4, XFS, the spindle filter), the VM, the report.
QEMU_DEPS := build-essential util-linux qemu-system-x86 busybox-static fio \
	     blktrace stress-ng trace-cmd e2fsprogs xfsprogs nbdkit \
	     nbdkit-plugin-dev gzip tar coreutils python3
# The documentation check of make check (kernel-doc, docutils).
DOC_DEPS := perl python3-docutils

.PHONY: all deps tree harness sim demo replay bisect sweep matrix calibrate \
	check \
	kernel-obj series \
	bench bench-smoke bench-ioerror bench-mempress bench-memcg bench-stock bench-sanitized \
	bench-fuse fuzz \
	mutate \
	bench-analyzer bench-cpu perf nbd nbd-rate nbd-guest bench-throttled \
	clean

all: harness

deps:
	@$(SCRIPTS)/deps.sh $(DEPS)

tree: deps
	@$(SCRIPTS)/unpack-tree.sh $(TREE) $(KSRC_PKG)
	@$(SCRIPTS)/unpack-tree.sh $(BUILD)/$(OLD_DIR) $(OLD_PKG)

harness: tree
	@$(MAKE) -s -C tools/testing/readahead TREE=$(TREE) \
		OUT=$(BUILD)/harness all

sim: tree
	@$(MAKE) -s -C tools/testing/readahead/sim TREE=$(TREE) \
		OUT=$(BUILD)/sim all

demo: harness sim
	@$(MAKE) -s -C tools/testing/readahead/sim TREE=$(TREE) \
		OUT=$(BUILD)/sim demo | tee $(BUILD)/sim/demo.txt
	@echo
	@echo "The same access patterns in the unit harness:"
	@$(BUILD)/harness/ra_demo

replay: tree
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) replay

SCENARIO ?= report13-sync-4k
bisect: tree
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) bisect SCENARIO=$(SCENARIO)

sweep: tree
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) sweep

matrix: tree
	@$(MAKE) -s -C tools/testing/readahead/sim TREE=$(TREE) \
		OUT=$(BUILD)/sim matrix

check: tree
	@$(SCRIPTS)/deps.sh $(FUZZ_DEPS) $(QEMU_DEPS) $(DOC_DEPS) linux-libc-dev
	@$(SCRIPTS)/run-tests.sh

# The spindle nbdkit filter (tools/testing/readahead/nbd): build, unit tests;
# nbd-rate: nbdcopy through it reaches the model's streaming rate (~10 s).
# nbd-guest: a guest's dd does (~1 min once the kernel is built).
NBD_DEPS := gcc make libc6-dev nbdkit nbdkit-plugin-dev libnbd-bin
nbd:
	@$(SCRIPTS)/deps.sh $(NBD_DEPS)
	@$(MAKE) -s -C tools/testing/readahead/nbd OUT=$(BUILD)/nbd all test

nbd-rate: nbd
	@$(MAKE) -s -C tools/testing/readahead/nbd OUT=$(BUILD)/nbd check-rate

# A guest's dd on a spindle disk (the patched bench kernel; ~1 min).
nbd-guest: tree nbd
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	@tools/testing/readahead/qemu/build-kernel.sh patched >/dev/null
	@tools/testing/readahead/nbd/guest-dd.sh patched

kernel-obj: tree
	$(SCRIPTS)/kernel-tree.sh $(TREE) $(PATCHED) $(CURDIR)
	$(SCRIPTS)/kernel-compile-check.sh $(PATCHED) $(KOBJ)

R ?= 3
BENCH_JOBS ?=
BENCH_FS ?=
BENCH_SCHED ?=
# BENCH_CPU=icount: the guest's CPU time in instructions (qemu/README,
# "CPU time: icount"; one vCPU); its table goes to build/qemu/ab-icount.txt.
BENCH_CPU ?= wall
BENCH_OUT = $(BUILD)/qemu/ab$(if $(filter icount,$(BENCH_CPU)),-icount)
bench: tree nbd
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	RA_CPU_MODE=$(BENCH_CPU) tools/testing/readahead/qemu/ab.sh -r $(R) \
		-o $(BENCH_OUT) $(if $(BENCH_FS),-F "$(BENCH_FS)") \
		$(if $(BENCH_SCHED),-S "$(BENCH_SCHED)") $(BENCH_JOBS)
	cp $(BENCH_OUT)/table.txt $(BENCH_OUT).txt

bench-throttled: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	tools/testing/readahead/qemu/ab.sh -r $(R) -o $(BUILD)/qemu/ab-throttled \
		seq4k seq64k seq128k mmap stream random
	cp $(BUILD)/qemu/ab-throttled/table.txt $(BUILD)/qemu/ab-throttled.txt

calibrate: sim
	tools/testing/readahead/qemu/calibrate.sh

bench-smoke: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	tools/testing/readahead/qemu/smoke.sh

bench-ioerror: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	tools/testing/readahead/qemu/ioerror.sh patched pristine

# Pristine runs for comparison only: 6.1 re-read 73% of the data
# under this pressure and fails the bound that ours is held to.
bench-mempress: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	tools/testing/readahead/qemu/mempress.sh patched
	-tools/testing/readahead/qemu/mempress.sh pristine

bench-memcg: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	MP_MEM=512 MP_MEMCG=64 MP_MAX_WASTE=10 \
		tools/testing/readahead/qemu/mempress.sh patched pristine

bench-stock: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	tools/testing/readahead/qemu/stock.sh -r $(R) -l "3 4 32"

bench-sanitized: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS)
	tools/testing/readahead/qemu/sanitized.sh

bench-fuse: tree
	@$(SCRIPTS)/deps.sh $(QEMU_DEPS) linux-libc-dev
	tools/testing/readahead/qemu/fuse.sh

FUZZ_SECONDS ?= 600
fuzz: tree
	@$(SCRIPTS)/deps.sh $(FUZZ_DEPS)
	tools/testing/readahead/fuzz/run.sh $(FUZZ_SECONDS)

mutate: tree
	@TREE=$(TREE) tools/testing/readahead/mutations/mutate.sh

BENCH_LINES ?= 5000000
bench-analyzer:
	@$(SCRIPTS)/deps.sh gcc make libc6-dev
	@$(MAKE) -s -C tools/testing/readahead/analyzer OUT=$(BUILD)/analyzer \
		BENCH_LINES=$(BENCH_LINES) bench

bench-cpu: tree
	@$(SCRIPTS)/deps.sh gcc make libc6-dev binutils valgrind
	@tools/testing/readahead/bench/bench-cpu.sh $(BUILD)/bench-cpu

PERF_SIZE ?= 256m
PERF_SEEDS ?= 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
perf: sim
	@$(SCRIPTS)/deps.sh gcc make libc6-dev binutils valgrind
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) all
	@tools/testing/readahead/perf/perf.sh -s $(PERF_SIZE) -S "$(PERF_SEEDS)"

series: tree
	$(SCRIPTS)/make-series.sh $(TREE) $(BUILD)/series
	$(SCRIPTS)/make-series.sh $(BUILD)/$(OLD_DIR) $(BUILD)/series-6.1

clean:
	rm -rf $(BUILD)/harness $(BUILD)/sim $(BUILD)/analyzer $(KOBJ)
