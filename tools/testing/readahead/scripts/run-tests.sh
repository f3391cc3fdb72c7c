#!/bin/sh
# run-tests.sh - the project's test suite, as the README's test command runs it.
#
# Usage: run-tests.sh            (from the repository root, after `make deps tree`)
#
# Stages, each counted as tests:
#   harness     every unit test against ours and the pristine 6.1 file
#   analyzer    the trace analyzer on the seed's trace and crafted input
#   sim         the JBOD simulator: determinism, conservation, the limit,
#               the analytic case, job-file errors
#   nbd         the spindle nbdkit filter's delay computation, exactly
#               (unit tests of the model; nbdkit is not needed)
#   calibrate   the simulator on the QEMU bench's jobs, within 10% of the
#               medians measured on QEMU (qemu/ab-reference.txt)
#   replay      the historical reference models (exact windows, traces)
#   fuzz        libFuzzer over the harness: corpus replay, then 120 s
#   kernel      mm/readahead.c compiled in the patched 6.1 tree, W=1 (C=1)
#   qemu        the patched kernel built and booted under QEMU: a short fio
#               job with verification, the stats table, trace_enable
#               refusing garbage, the trace read by the analyzer; then
#               read errors injected with blkdebug (EIO exactly where the
#               disk fails, the rest verified, readahead shrinking)
#   series      make series' patches (format-patch) apply in order with
#               patch(1) and carry no binary diff (no checkpatch, no build)
#   checkpatch  scripts/checkpatch.pl on mm/readahead.c and every patch
# Ends with the line "N passed, N failed"; exits non-zero on any failure.
set -u

top=$(pwd)
build="$top/build"
tree="$build/linux-source-6.1"
scripts="$top/tools/testing/readahead/scripts"
passed=0
failed=0

pass() { passed=$((passed + $1)); }
fail() { failed=$((failed + $1)); echo "FAILED: $2"; }

# Add the counts of a stage's closing "[WORD: ]N passed, N failed" line.
count() {
	line=$(grep -E '^([a-z]+: )?[0-9]+ passed, [0-9]+ failed$' "$1" |
		tail -n 1)
	if [ -z "$line" ]; then
		fail 1 "$2 did not finish"
		return
	fi
	p=$(echo "$line" | sed -E 's/^([a-z]+: )?([0-9]+) passed.*/\2/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) failed$/\1/')
	pass "$p"
	[ "$f" -eq 0 ] || fail "$f" "$2"
}

echo "== harness: unit tests, ours and pristine 6.1 =="
log="$build/harness.log"
mkdir -p "$build"
if make -s -C tools/testing/readahead TREE="$tree" OUT="$build/harness" \
		>"$log" 2>&1; then
	"$build/harness/ra_harness" "$build/harness/sample.trace" >"$log" 2>&1
	cat "$log"
	count "$log" "harness tests"
else
	cat "$log"
	fail 1 "harness build"
fi

echo
echo "== analyzer: trace parsing, summaries and flags =="
alog="$build/analyzer.log"
sh tools/testing/readahead/analyzer/tests/run.sh >"$alog" 2>&1
cat "$alog"
count "$alog" "analyzer tests"
# The harness's own trace (four readers of a file, ours) reads cleanly.
if [ -x "$build/analyzer/ra_analyze" ] &&
   "$build/analyzer/ra_analyze" "$build/harness/sample.trace" \
		>"$build/sample.analysis" 2>&1 &&
   grep -qE '^lines: [1-9][0-9]* parsed, 0 skipped' "$build/sample.analysis" &&
   grep -qE '^duplicate +0$' "$build/sample.analysis"; then
	echo "ok - analyzer reads the harness trace: $(tail -n 1 "$build/sample.analysis")"
	pass 1
else
	cat "$build/sample.analysis" 2>/dev/null
	fail 1 "analyzer on the harness trace"
fi
# The same decisions from the tracepoint, as trace_pipe shows them.
if "$build/analyzer/ra_analyze" "$build/harness/sample.trace.tp" \
		>"$build/sample-tp.analysis" 2>&1 &&
   cmp -s "$build/sample.analysis" "$build/sample-tp.analysis"; then
	echo "ok - analyzer reads the harness's tracepoint lines: same tables"
	pass 1
else
	diff "$build/sample.analysis" "$build/sample-tp.analysis" | head
	fail 1 "analyzer on the harness's tracepoint lines"
fi

echo
echo "== sim: JBOD simulator, ours and pristine 6.1 =="
slog="$build/sim.log"
make -s -C tools/testing/readahead/sim TREE="$tree" OUT="$build/sim" test \
	>"$slog" 2>&1
cat "$slog"
count "$slog" "sim tests"

# The simulator's traces (7 disks through mmap, scaled) read cleanly too.
"$build/sim/ra_sim" --define BS=4k --define SIZE=64m \
	--trace "$build/sim/check.trace" \
	tools/testing/readahead/sim/scenarios/jbod7.disks \
	tools/testing/readahead/sim/scenarios/jbod7-mmap.fio \
	>"$build/sim/check.out" 2>&1
for side in ours pristine; do
	if "$build/analyzer/ra_analyze" "$build/sim/check.trace.$side" \
			>"$build/sim/check.$side.analysis" 2>&1 &&
	   grep -qE '^lines: [1-9][0-9]* parsed, 0 skipped' \
			"$build/sim/check.$side.analysis"; then
		echo "ok - analyzer reads the simulator's $side trace:" \
			"$(tail -n 1 "$build/sim/check.$side.analysis")"
		pass 1
	else
		fail 1 "analyzer on the simulator's $side trace"
	fi
done

echo
echo "== nbd: the spindle filter's delays (the model alone, no nbdkit) =="
nlog="$build/nbd.log"
make -s -C tools/testing/readahead/nbd OUT="$build/nbd" test >"$nlog" 2>&1
cat "$nlog"
count "$nlog" "nbd tests"

echo
echo "== calibrate: the simulator against the QEMU bench's medians =="
# The bench's jobs on its machine in the simulator, each figure within
# 10% of the medians measured on QEMU (qemu/ab-reference.txt).
clog="$build/calibrate.log"
tools/testing/readahead/qemu/calibrate.sh \
	tools/testing/readahead/qemu/ab-reference.txt > "$clog" 2>&1
cat "$clog"
line=$(grep -E '^calibrate: [0-9]+ PASS, [0-9]+ FAIL$' "$clog")
if [ -n "$line" ]; then
	p=$(echo "$line" | sed -E 's/^calibrate: ([0-9]+) PASS.*/\1/')
	f=$(echo "$line" | sed -E 's/.* ([0-9]+) FAIL$/\1/')
	pass "$p"
	[ "$f" -eq 0 ] || fail "$f" "calibrate"
else
	fail 1 "calibrate did not finish"
fi

echo
echo "== replay: the 2.6.30 and 2.6.31-rc1 reference models =="
rlog="$build/replay.log"
make -s -C tools/testing/readahead/replay TREE="$tree" BUILD="$build" test \
	>"$rlog" 2>&1
cat "$rlog"
count "$rlog" "replay tests"

echo
echo "== fuzz: the committed corpus, then 120 s of libFuzzer =="
flog="$build/fuzz.log"
sh tools/testing/readahead/fuzz/run.sh 120 >"$flog" 2>&1
cat "$flog"
count "$flog" "fuzz"

echo
echo "== kernel: mm/readahead.c in the patched 6.1 tree =="
kconf="$top/tools/testing/readahead/kernel"
if "$scripts/kernel-tree.sh" "$tree" "$build/linux-patched" "$top"; then
	if "$scripts/kernel-compile-check.sh" "$build/linux-patched" \
			"$build/kobj"; then
		pass 1
	else
		fail 1 "kernel-side compile, READAHEAD_TRACE=y"
	fi
	if "$scripts/kernel-compile-check.sh" "$build/linux-patched" \
			"$build/kobj-notrace" "$kconf/qemu.config" \
			"$kconf/notrace.config"; then
		pass 1
	else
		fail 1 "kernel-side compile, READAHEAD_TRACE off"
	fi
else
	fail 1 "patched kernel tree"
fi

# A QEMU script: its checks and timing line, then its counts.
qemu_stage() {
	echo
	echo "== qemu: $2 =="
	qlog="$build/qemu-$1.log"
	"tools/testing/readahead/qemu/$1.sh" >"$qlog" 2>&1
	grep -E "^(ok|not ok)( [0-9]+)? - |^# $1 took|^# [0-9]+ skipped" "$qlog"
	count "$qlog" "qemu $1 test"
}
qemu_stage smoke "the patched kernel booted, fio verified, debugfs checked"
qemu_stage ioerror "read errors injected with blkdebug"

echo
echo "== series: the patches apply with patch(1), no binary diffs =="
# make series without checkpatch and the bisect builds: git format-patch
# output applied in order to the pristine files, as make series does.
serlog="$build/series-check.log"
if "$scripts/make-series.sh" "$tree" "$build/series-check" --apply-only \
		>"$serlog" 2>&1; then
	echo "ok - $(tail -n 1 "$serlog")"
	pass 1
else
	cat "$serlog"
	fail 1 "make series: the patches"
fi

echo
echo "== checkpatch =="
for f in mm/readahead.c include/trace/events/readahead.h patches/*.patch; do
	[ -f "$f" ] || continue
	if "$scripts/checkpatch.sh" "$tree" "$f"; then
		pass 1
	else
		fail 1 "checkpatch $f"
	fi
done

echo
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
