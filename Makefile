# SPDX-License-Identifier: GPL-2.0
#
# On-demand readahead for Linux: top level.  `make help` lists the
# targets by group, from the "##" lines above each of them here and in
# tools/testing/readahead/qemu/qemu.mk (the QEMU and nbd targets).
#
# Everything generated goes to build/ (git-ignored): the pristine trees
# unpacked from Debian's kernel source packages (KSRC_PKG, OLD_PKG), the
# patched tree, objects.  Debian packages are installed by `make deps`
# and by the README's two commands, `make demo` and `make check`; every
# other target checks that what it needs is installed and, if not, names
# the packages and stops.

SCRIPTS	:= tools/testing/readahead/scripts
include $(SCRIPTS)/config
BUILD	:= $(CURDIR)/build
TREE	:= $(BUILD)/$(KSRC_DIR)
PATCHED	:= $(BUILD)/linux-patched
KOBJ	:= $(BUILD)/kobj
# Recursion into the targets the README's commands run once their
# packages are in, without make's directory lines (make check's last
# line must be its count).
SUBMAKE	:= $(MAKE) -s --no-print-directory

# Debian packages: compiler, the kernel sources, what a kernel build needs.
DEPS	:= gcc make libc6-dev xz-utils patch perl $(KSRC_PKG) $(OLD_PKG) \
	   flex bison bc libelf-dev libssl-dev sparse gnuplot-nox
# libFuzzer (make fuzz, make check).
FUZZ_DEPS := clang libclang-rt-14-dev
# The QEMU bench and the QEMU stages of make check: the kernel build
# (DEPS has the rest), the guest's programs (the reliability guest's stress-ng), its
# disks (ext4, XFS, the spindle filter), the VM, the report; the FUSE
# server's headers.
QEMU_DEPS := build-essential util-linux qemu-system-x86 busybox-static fio \
	     blktrace stress-ng trace-cmd e2fsprogs xfsprogs nbdkit \
	     nbdkit-plugin-dev gzip tar coreutils python3 linux-libc-dev
# The spindle nbdkit filter's rate check.
NBD_DEPS := nbdkit nbdkit-plugin-dev libnbd-bin
# Callgrind (make bench-cpu, make perf).
CPU_DEPS := binutils valgrind
# The documentation check of make check (kernel-doc, docutils).
DOC_DEPS := perl python3-docutils
ALL_DEPS := $(sort $(DEPS) $(FUZZ_DEPS) $(QEMU_DEPS) $(NBD_DEPS) \
	      $(CPU_DEPS) $(DOC_DEPS))
NEEDS	:= $(SCRIPTS)/deps.sh --check

.PHONY: all help deps tree harness sim demo run-demo replay bisect sweep \
	matrix check run-check kernel-obj series code-lines bench-cpu \
	bench-analyzer perf fuzz mutate clean

all: harness

##@ The README's two commands (each installs the packages it needs)

## the demo: the 13-disk JBOD of the July 2009 report through the
## simulator, ours against pristine 6.12 and 6.1, a table and a plot
demo:
	@$(SCRIPTS)/deps.sh $(DEPS)
	@$(SUBMAKE) run-demo

## the test suite: TAP, one test per stage; ends with "N passed, N failed"
check:
	@$(SCRIPTS)/deps.sh $(ALL_DEPS)
	@$(SUBMAKE) run-check

run-demo: harness sim
	@$(MAKE) -s -C tools/testing/readahead/sim TREE=$(TREE) \
		OUT=$(BUILD)/sim demo | tee $(BUILD)/sim/demo.txt
	@echo
	@echo "The same access patterns in the unit harness:"
	@$(BUILD)/harness/ra_demo

run-check: tree
	@$(SCRIPTS)/run-tests.sh

##@ Set-up and builds

## list these targets
help:
	@awk -f $(SCRIPTS)/make-help.awk $(MAKEFILE_LIST)

## install every Debian package any target needs (as root)
deps:
	@$(SCRIPTS)/deps.sh $(ALL_DEPS)

## unpack the pristine 6.12 and 6.1 trees into build/
tree:
	@$(NEEDS) $(DEPS)
	@$(SCRIPTS)/unpack-tree.sh $(TREE) $(KSRC_PKG)
	@$(SCRIPTS)/unpack-tree.sh $(BUILD)/$(OLD_DIR) $(OLD_PKG)

## build the userspace harness only
harness: tree
	@$(MAKE) -s -C tools/testing/readahead/harness TREE=$(TREE) \
		OUT=$(BUILD)/harness all

## build the simulator only
sim: tree
	@$(MAKE) -s -C tools/testing/readahead/sim TREE=$(TREE) \
		OUT=$(BUILD)/sim all

## compile mm/readahead.c in the patched 6.12 tree (W=1)
kernel-obj: tree
	$(SCRIPTS)/kernel-tree.sh $(TREE) $(PATCHED) $(CURDIR)
	$(SCRIPTS)/kernel-compile-check.sh $(PATCHED) $(KOBJ)

## the patch series (git format-patch and a cover letter) in build/series,
## the 6.1 backport's in build/series-6.1, signed off with your git
## identity, checkpatch'ed, bisect-built (mm/ objects), each patch's
## figures against the one before
series: tree
	$(SCRIPTS)/make-series.sh $(TREE) $(BUILD)/series
	$(SCRIPTS)/make-series.sh $(BUILD)/$(OLD_DIR) $(BUILD)/series-6.1

## mm/readahead.c's code lines (no comments, blank lines, #include or
## #define) against 6.12's readahead.c, and with 6.12's fault readahead
## in filemap.c, which ours took over
code-lines: tree
	@$(SCRIPTS)/code-lines.sh $(TREE)

## remove the harness, simulator, analyzer and kernel objects
clean:
	rm -rf $(BUILD)/harness $(BUILD)/sim $(BUILD)/analyzer $(KOBJ)

##@ The simulator and the 2009 reports

## the July 2009 reports' three machines (CFQ, 8 CPUs) with the 2.6.30
## and 2.6.31-rc1 models, pristine 6.12 and ours; the reports' table
## with PASS/FAIL per row (~4 min)
replay: tree
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) replay

SCENARIO ?= report13-sync-4k
## SCENARIO=report13-sync-4k: a git-bisect-style search over the models
## from 2.6.30 to 2.6.31-rc1 (SIZE=1g, THRESHOLD=0.95): the first bad step
bisect: tree
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) bisect SCENARIO=$(SCENARIO)

## the replay's ratios as one machine parameter moves
sweep: tree
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) sweep

## ours and pristine 6.12 on none/mq-deadline/bfq/cfq x the reports'
## shapes x read(2)/mmap x 4/64/128k x 1/2/8 CPUs (SIZE=256m), one line
## each
matrix: tree
	@$(MAKE) -s -C tools/testing/readahead/sim TREE=$(TREE) \
		OUT=$(BUILD)/sim matrix

PERF_SIZE ?= 256m
PERF_SEEDS ?= 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15
## the performance targets, PASS/FAIL each, against pristine 6.12: the
## matrix, readers sharing a file, streams against the seek-amortization
## bound, pages read twice, all-cached calls, ours against the 2.6.30
## model on the reports' machines, bench-cpu (PERF_SIZE, 256m;
## PERF_SEEDS, the matrix's seeds, each row judged on its median run and
## its lowest: 1-15; the matrix's runs grow with the size and the seeds)
perf: sim
	@$(NEEDS) $(CPU_DEPS)
	@$(MAKE) -s -C tools/testing/readahead/replay TREE=$(TREE) \
		BUILD=$(BUILD) all
	@tools/testing/readahead/targets/perf.sh -s $(PERF_SIZE) -S "$(PERF_SEEDS)"

##@ Costs and robustness

## instructions per page of readahead (callgrind), ours and pristine
## 6.12, order-0 and large folio mappings: one table, exclusive and
## inclusive (~15 s); BENCH_OUTCOMES=1 adds what outcome tracking
## (READAHEAD_DEBUGFS, outcome_enable 1) costs ours a page
bench-cpu: tree
	@$(NEEDS) $(CPU_DEPS)
	@BENCH_OUTCOMES=$(BENCH_OUTCOMES) \
		tools/testing/readahead/cpubench/bench-cpu.sh $(BUILD)/bench-cpu

BENCH_LINES ?= 5000000
## ra_analyze on a generated 5-million-line trace (BENCH_LINES): time and
## peak RSS, optimized and sanitized
bench-analyzer:
	@$(NEEDS) gcc make libc6-dev
	@$(MAKE) -s -C tools/testing/readahead/analyzer OUT=$(BUILD)/analyzer \
		BENCH_LINES=$(BENCH_LINES) bench

FUZZ_SECONDS ?= 600
## libFuzzer on the harness, FUZZ_SECONDS (600) long
fuzz: tree
	@$(NEEDS) $(FUZZ_DEPS)
	tools/testing/readahead/fuzz/run.sh $(FUZZ_SECONDS)

## each mutation of tools/testing/readahead/mutations/*.sed applied to a
## copy of mm/readahead.c, the harness run on it; TAP, a mutation that
## survives is a failure
mutate: tree
	@TREE=$(TREE) tools/testing/readahead/mutations/mutate.sh

include tools/testing/readahead/qemu/qemu.mk
