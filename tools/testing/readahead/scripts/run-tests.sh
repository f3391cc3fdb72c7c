#!/bin/sh
# run-tests.sh - the project's test suite, as `make check` runs it.
#
# Usage: run-tests.sh        (from any directory, after `make deps tree`)
#
# Stages, each one test of the top-level TAP stream, its own TAP shown
# under it as "# " lines, kselftest style:
#   harness     every unit test against ours and the pristine 6.12 and 6.1
#               files
#   harness-6.1 the same with ours built as the 6.1 backport
#   analyzer    the trace analyzer on the 2009 trace and crafted input
#   harness-trace  the analyzer on the harness's trace (log and
#               tracepoint lines: the same tables)
#   sim         the JBOD simulator: determinism, conservation, the limit,
#               the analytic case, job-file errors
#   sim-traces  the analyzer on the simulator's traces, ours and pristine
#   nbd         the spindle nbdkit filter's delay computation, exactly
#               (unit tests of the model; nbdkit is not needed)
#   calibrate   the simulator on the QEMU bench's jobs, within 10% of the
#               medians measured on QEMU (qemu/ab-reference.jsonl)
#   replay      the historical reference models (exact windows, traces)
#   fuzz        libFuzzer over the harness: corpus replay, then 120 s
#   kernel      mm/readahead.c compiled in the patched 6.12 tree and in
#               the 6.1 backport's, W=1 (C=1)
#   qemu-smoke  the patched kernel built and booted under QEMU: a short
#               fio job with verification, the stats table, trace_enable
#               refusing garbage, the trace read by the analyzer
#   qemu-ioerror  read errors injected with blkdebug (EIO exactly where the
#               disk fails, the rest verified, readahead shrinking)
#   qemu-smoke-6.1, qemu-ioerror-6.1  the same, the 6.1 backport
#   qemu-stock  ra-record on pristine and patched 6.12 under fio: every
#               page of the data read once and used, as ra_analyze infers
#               it from the stock events, and its windows matching the
#               patched kernel's decisions
#   qemu-memcg  12 streams whose windows exceed a 64 MB memory cgroup
#               (memory.max) of a 512 MB guest, patched and pristine 6.12:
#               the data right, at most 10% read twice by the patched
#               kernel, less read per use than pristine, not 5% slower
#   qemu-fuse   the patched kernel with KASAN reading ahead into a FUSE
#               mount past its congestion threshold (our own server):
#               every path that reads outside the file's window, every
#               byte verified, no oops
#   series      make series' patches (format-patch) apply in order with
#               patch(1) and carry no binary diff (no checkpatch, no build)
#   checkpatch  scripts/checkpatch.pl on mm/readahead.c and every patch
#   docs        Documentation/**/*.rst: the kernel-doc sections they pull
#               exist in the sources, and the whole parses with docutils
# A stage passes when every test in it passed (skips aside).  The last
# line counts the tests inside the stages: "N passed, N failed"; exits
# non-zero on any failure.
set -u

scripts=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$scripts/../../../.." && pwd)
. "$scripts/config"
. "$scripts/tap.sh"
build="$top/build"
tree="$build/$KSRC_DIR"
old_tree="$build/$OLD_DIR"
rt="$top/tools/testing/readahead"
cd "$top" || exit 1
mkdir -p "$build"

passed=0
failed=0
skipped=0
stages=0

# stage NAME DESCRIPTION COMMAND...: runs COMMAND into build/NAME.log,
# shows the log as diagnostics and reports the stage.
stage() {
	name=$1 desc=$2
	shift 2
	log="$build/$name.log"
	tap_diag "$name: $desc"
	("$@") >"$log" 2>&1
	rc=$?
	tap_diag_file "$log"
	tap_tally "$log"
	# A non-zero exit counts as a failure even when no test says so.
	if [ "$rc" -ne 0 ] && [ "$tally_failed" -eq 0 ]; then
		tally_failed=1
	fi
	passed=$((passed + tally_passed))
	failed=$((failed + tally_failed))
	skipped=$((skipped + tally_skipped))
	stages=$((stages + 1))
	tap_result "$tally_failed" "$name"
}

harness() {
	make -s -C "$rt/harness" TREE="$tree" OLD_TREE="$old_tree" \
		OUT="$build/harness" &&
		"$build/harness/ra_harness" "$build/harness/sample.trace"
}

# The same tests with ours built as the 6.1 backport.
harness_61() {
	make -s -C "$rt/harness" TREE="$tree" OLD_TREE="$old_tree" BASE=6.1 \
		OUT="$build/harness-6.1" &&
		"$build/harness-6.1/ra_harness"
}

# analyze_ok TRACE OUT: the analyzer reads TRACE, every line parsed.
analyze_ok() {
	"$build/analyzer/ra_analyze" "$1" >"$2" 2>&1 &&
		grep -qE '^lines: [1-9][0-9]* parsed, 0 skipped' "$2"
}

# The tables that name no file and no line: the log line names the file
# and the device, the readahead_decision event does not, and its trace
# has the other events' lines between the decisions.
unnamed_tables() {
	awk '/^# / { on = ($2 == "patterns" || $2 == "processes" ||
			  $2 == "flags") } /^lines: / { on = 0 } on' "$1"
}

# The harness's own trace (four readers of a file, ours), from the kernel
# log and from the readahead_decision tracepoint: every line parsed, the
# same decisions, no duplicate window.
harness_trace() {
	s="$build/sample.analysis"
	tap_begin
	tap_check "analyzer reads the harness trace, no duplicate" eval \
		'analyze_ok "$build/harness/sample.trace" "$s" &&
		 grep -qE "^duplicate +0$" "$s"'
	tap_check "analyzer reads the harness's tracepoint lines: same tables" \
		eval 'analyze_ok "$build/harness/sample.trace.tp" "$s.tp" &&
		      unnamed_tables "$s" >"$s.unnamed" &&
		      unnamed_tables "$s.tp" >"$s.tp.unnamed" &&
		      test -s "$s.unnamed" &&
		      cmp -s "$s.unnamed" "$s.tp.unnamed"'
	tap_end
}

sim() {
	make -s -C "$rt/sim" TREE="$tree" OLD_TREE="$old_tree" \
		OUT="$build/sim" test
}

# The simulator's traces (7 disks through mmap, scaled) read cleanly.
sim_traces() {
	tap_begin
	"$build/sim/ra_sim" --define BS=4k --define SIZE=64m \
		--trace "$build/sim/check.trace" \
		"$rt/sim/scenarios/jbod7.disks" \
		"$rt/sim/scenarios/jbod7-mmap.fio" >"$build/sim/check.out" 2>&1
	for side in ours pristine; do
		tap_check "analyzer reads the simulator's $side trace" \
			analyze_ok "$build/sim/check.trace.$side" \
			"$build/sim/check.$side.analysis"
	done
	# The pressure case as stock 6.12's tracepoints would record it
	# (--ftrace), ours' decisions among the events: the windows the
	# analyzer infers from the stock events are the decisions', and the
	# stock view tells pristine's waste from ours' none.
	"$build/sim/ra_sim" --define BS=128k --define SIZE=32m \
		--ftrace "$build/sim/check.ftrace" \
		"$rt/sim/scenarios/pressure.disks" \
		"$rt/sim/scenarios/pressure.fio" >"$build/sim/check.ftrace.out" 2>&1
	a=$build/analyzer/ra_analyze f=$build/sim/check.ftrace
	"$a" "$f.ours" >"$f.ours.analysis" 2>&1
	# Ours' windows of up to 512 KB (1/128 of 64 MB): a few pages are
	# evicted before use, and sequential misses restart a stream (the
	# "initial" decisions); the series' filemap.c names each batch's
	# pages, so every window decided is one the stock events show.
	tap_check "stock events: all 2179 of ours' decisions are the windows inferred, their 2179 triggers too" \
		grep -qE '^all +2179 +2179 +100.00 +2179 +2179$' "$f.ours.analysis"
	tap_check "stock events: ours reads 263708 pages, uses 262138, 1564 read twice (0.6%), not flagged thrashing" \
		grep -qE '^all +2185 +64 +263708 +262138 +1570 +0 +1564 +0.994 .* -$' \
		"$f.ours.analysis"
	# Ours' own account of its windows (readahead_outcome events, the
	# simulator following them as the kernel does): the pages evicted
	# unused are the page cache's own count, page for page, and the
	# stock events' inference agrees window for window.
	ours_truth=$(sed -n 's/^summary: impl=ours .* evicted_unused=\([0-9]*\) .* read_ahead=\([0-9]*\) .*$/\1 \2/p' \
		"$f.out")
	ours_kernel=$(sed -n '/^# kernel_outcomes$/,/^all /s/^all  *[0-9]*  *[0-9]*  *\([0-9]*\)  *[0-9]*  *\([0-9]*\) .*/\2 \1/p' \
		"$f.ours.analysis")
	tap_diag "simulator (evicted unused, read ahead): $ours_truth; readahead_outcome events: $ours_kernel"
	tap_check "readahead_outcome: ours' pages evicted unused and read ahead as the simulator counts them (1564 of 263702)" \
		test "$ours_kernel" = "$ours_truth" -a "$ours_truth" = "1564 263702"
	tap_check "outcome_agreement: the stock events' inference and ours' own outcomes agree" \
		grep -qE '^verdict +agree$' "$f.ours.analysis"
	"$a" "$f.pristine" >"$f.pristine.analysis" 2>&1
	tap_check "stock events: pristine 6.12 evicts 97470 pages unused and reads 92376 twice, flagged" \
		grep -qE '^all +1269 +420 +354520 +256810 +97470 +240 +92376 +0.724 .* thrashing$' \
		"$f.pristine.analysis"
	# Against the simulator's own counts: the pages added and those read
	# twice exactly; evicted unused (92376 by the page cache's reckoning)
	# within 6%, the pages 6.12 copies with no access event.
	truth=$(sed -n 's/^summary: impl=pristine .* evicted_unused=\([0-9]*\) .* read_ahead=\([0-9]*\) .* read_twice=\([0-9]*\)$/\1 \2 \3/p' \
		"$f.out")
	got=$(awk '$1 == "all" && NF == 11 { print $6, $4, $8 }' "$f.pristine.analysis")
	tap_diag "simulator (evicted unused, pages, twice): $truth; stock view (evicted, pages, twice): $got"
	tap_check "stock events: pages read twice as the simulator counts them, evictions within 6%" \
		awk -v t="$truth" -v g="$got" 'BEGIN { split(t, a, " "); split(g, b, " ")
			exit !(a[3] == b[3] && b[1] >= a[1] && b[1] <= a[1] * 1.06) }'
	tap_end
}

kernel() {
	kconf="$rt/kconfig"
	tap_begin
	for base in 6.12 6.1; do
		if [ $base = 6.12 ]; then
			pristine=$tree sfx=
		else
			pristine=$old_tree sfx=-6.1
		fi
		if "$scripts/kernel-tree.sh" "$pristine" \
				"$build/linux-patched$sfx" "$top"; then
			tap_check "$base: mm/readahead.c, READAHEAD_DEBUGFS=y" \
				"$scripts/kernel-compile-check.sh" \
				"$build/linux-patched$sfx" "$build/kobj$sfx"
			tap_check "$base: mm/readahead.c, READAHEAD_DEBUGFS off, MEMCG off" \
				"$scripts/kernel-compile-check.sh" \
				"$build/linux-patched$sfx" \
				"$build/kobj$sfx-nodebugfs" \
				"$kconf/qemu.config" "$kconf/nodebugfs.config" \
				"$kconf/nomemcg.config"
		else
			tap_not_ok "the patched $base kernel tree"
		fi
	done
	tap_end
}

# make series without checkpatch and the bisect builds: git format-patch
# output applied in order to the pristine files, as make series does.
series() {
	tap_begin
	for t in "$old_tree" "$tree"; do
		log="$build/series-check-$(basename "$t").log"
		"$scripts/make-series.sh" "$t" "$build/series-check" \
			--apply-only >"$log" 2>&1
		rc=$?
		tap_diag_file "$log"
		tap_result $rc "the series on $(basename "$t") applies with" \
			"patch(1), no binary diffs, ends with the project's files"
	done
	# The harness at every patch of the 6.12 series: each failure is a
	# behaviour a later patch brings, and the last patch passes all.
	log="$build/series-check-harness.log"
	base=$(git -C "$build/series-check.git" rev-list --max-parents=0 HEAD)
	"$scripts/series-figures.sh" --harness-only \
		"$build/series-check.git" "$base" "$build/series-check.figures" \
		>"$log" 2>&1
	rc=$?
	tap_diag_file "$log"
	tap_result $rc "the harness at every patch: failures only where a" \
		"later patch brings the behaviour"
	# The size of mm/readahead.c against 6.12's: the count leaves out
	# comments, blank lines, #include and #define.
	printf '/* a\n * b */\n#include <x.h>\n#define A 1\n\nint f(void)\n{\n\treturn A; // c\n}\n' \
		> "$build/code-lines.c"
	tap_check "code-lines.sh: 4 code lines in a 9-line file" test \
		"$("$scripts/code-lines.sh" --count "$build/code-lines.c")" = \
		"4 $build/code-lines.c"
	"$scripts/code-lines.sh" "$tree" > "$build/code-lines.txt" 2>&1
	rc=$?
	tap_diag_file "$build/code-lines.txt"
	tap_result $rc "code-lines.sh: mm/readahead.c against 6.12's"
	tap_end
}

checkpatch() {
	tap_begin
	for f in mm/readahead.c mm/readahead_debug.c mm/readahead_outcome.c \
			include/trace/events/readahead.h; do
		tap_check "checkpatch $f" "$scripts/checkpatch.sh" "$tree" "$f"
	done
	# The committed patches carry no Signed-off-by: make series signs
	# them with the submitter's identity (and checks them again).
	for f in patches/*.patch backport/6.1/patches/*.patch; do
		[ -f "$f" ] || continue
		tap_check "checkpatch $f" env CHECKPATCH_IGNORE=MISSING_SIGN_OFF \
			"$scripts/checkpatch.sh" "$tree" "$f"
	done
	tap_end
}

tap_begin
stage harness "unit tests, ours and pristine 6.12 and 6.1" harness
stage harness-6.1 "the unit tests, ours as the 6.1 backport" harness_61
stage analyzer "trace parsing, summaries and flags" \
	env OUT="$build/analyzer" sh "$rt/analyzer/tests/run.sh"
stage harness-trace "the harness's trace, analyzed" harness_trace
stage sim "JBOD simulator, ours and pristine 6.12 and 6.1" sim
stage sim-traces "the simulator's traces, analyzed" sim_traces
stage nbd "the spindle filter's delays (the model alone, no nbdkit)" \
	make -s -C "$rt/nbd" OUT="$build/nbd" test
stage calibrate "the simulator against the QEMU bench's medians" \
	"$rt/qemu/calibrate.sh" "$rt/qemu/ab-reference.jsonl"
stage replay "the 2.6.30 and 2.6.31-rc1 reference models" \
	make -s -C "$rt/replay" TREE="$tree" OLD_TREE="$old_tree" BUILD="$build" \
	test
stage fuzz "the committed corpus, then 120 s of libFuzzer" \
	sh "$rt/fuzz/run.sh" 120
stage kernel "mm/readahead.c in the patched 6.12 and 6.1 trees" kernel
stage qemu-smoke "the patched kernel booted, fio verified, debugfs checked" \
	"$rt/qemu/smoke.sh"
stage qemu-ioerror "read errors injected with blkdebug" "$rt/qemu/reliability/ioerror.sh"
stage qemu-smoke-6.1 "the 6.1 backport booted, fio verified, debugfs checked" \
	env RA_BASE=6.1 "$rt/qemu/smoke.sh"
stage qemu-ioerror-6.1 "the 6.1 backport, read errors injected" \
	env RA_BASE=6.1 "$rt/qemu/reliability/ioerror.sh"
stage qemu-stock "ra-record on pristine and patched 6.12, checked by the decisions" \
	"$rt/qemu/reliability/stock.sh"
stage qemu-memcg "12 streams in a 64 MB memory cgroup, patched against pristine 6.12" \
	env MP_MEM=512 MP_MEMCG=64 MP_MAX_WASTE=10 \
	"$rt/qemu/reliability/mempress.sh" patched pristine
stage qemu-fuse "a congested FUSE mount under KASAN, every stateless path" \
	"$rt/qemu/reliability/fuse.sh"
stage series "the series on both bases applies and ends with our files" \
	series
stage checkpatch "scripts/checkpatch.pl, no error" checkpatch
stage docs "kernel-doc and reStructuredText, no warning" \
	"$scripts/check-docs.sh" "$tree" $(git ls-files 'Documentation/*.rst')
# The plan last (TAP allows it), so that it counts the stages above.
echo "1..$stages"
[ "$skipped" -eq 0 ] || tap_diag "$skipped skipped, not counted"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
