#!/bin/sh
# run.sh - build the readahead fuzz target and run it for a while.
#
# Usage: run.sh SECONDS [CORPUS_DIR]      (from anywhere; needs root for deps)
#
# 1. Builds build/fuzz/ra_fuzz (clang, libFuzzer, ASan, UBSan): the harness,
#    ours and the pristine 6.1 mm/readahead.c.
# 2. Replays every input of the committed corpus (fuzz/corpus, or
#    CORPUS_DIR) once: deterministic, one "passed" when all pass.
# 3. Fuzzes for SECONDS on a copy of the corpus under build/fuzz/run/,
#    with the dictionary, and prints executions, exec/s, coverage (cov,
#    ft), the corpus size and the pristine 6.1 findings; a crash or an
#    invariant of ours that fails is saved under build/fuzz/run/ and
#    counts as failed.  SECONDS=0 only replays.
# Ends with "fuzz: N passed, N failed"; exits non-zero on any failure.
set -u
# libFuzzer prints raw bytes (dictionary entries): parse them as bytes.
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
scripts="$top/tools/testing/readahead/scripts"
tree="$top/build/linux-source-6.1"
out="$top/build/fuzz"
seconds=${1:?usage: run.sh SECONDS [CORPUS_DIR]}
corpus=${2:-$here/corpus}
passed=0
failed=0

finish() {
	echo "fuzz: $passed passed, $failed failed"
	[ "$failed" -eq 0 ]
	exit $?
}

"$scripts/deps.sh" clang libclang-rt-14-dev make xz-utils linux-source-6.1 &&
	"$scripts/unpack-tree.sh" "$tree" || { failed=1; finish; }
echo "== fuzz: build =="
if ! make -s -C "$here" TOP="$top" TREE="$tree" OUT="$out" \
		>"$out.build.log" 2>&1; then
	cat "$out.build.log"
	failed=1
	finish
fi

run="$out/run"
rm -rf "$run"
mkdir -p "$run/corpus" "$run/findings"
export FUZZ_FINDINGS="$run/findings"
# A fixed seed (FUZZ_SEED, default 1) makes a run repeatable on the same
# machine; give another one to explore elsewhere.
opts="-rss_limit_mb=2048 -timeout=60 -error_exitcode=77 -timeout_exitcode=77"
opts="$opts -seed=${FUZZ_SEED:-1}"

echo "== fuzz: replay of $corpus =="
n=$(find "$corpus" -type f | wc -l)
if [ "$n" -eq 0 ]; then
	echo "no inputs in $corpus"
	failed=$((failed + 1))
# shellcheck disable=SC2086
elif find "$corpus" -type f | sort | xargs "$out/ra_fuzz" $opts \
		-artifact_prefix="$run/replay-" >"$run/replay.log" 2>&1; then
	echo "replayed $n inputs: ours clean"
	passed=$((passed + 1))
else
	grep -E '^fuzz: |ERROR|runtime error|^BUG' "$run/replay.log"
	echo "replay failed: log in $run/replay.log"
	failed=$((failed + 1))
fi
grep '^fuzz: pristine finding,' "$run/replay.log" | sort -u

if [ "$seconds" -gt 0 ]; then
	echo "== fuzz: $seconds s on a copy of the corpus =="
	cp "$corpus"/* "$run/corpus/"
	# shellcheck disable=SC2086
	"$out/ra_fuzz" $opts -max_total_time="$seconds" -print_final_stats=1 \
		-max_len=4096 -dict="$here/readahead.dict" \
		-artifact_prefix="$run/" "$run/corpus" >"$run/fuzz.log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$run/fuzz.log")
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$run/fuzz.log")
	last=$(grep -E '^#[0-9]+[[:space:]]+(NEW|REDUCE|pulse|DONE|INITED)' \
		"$run/fuzz.log" | tail -n 1)
	cov=$(echo "$last" | sed -n 's/.*cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	echo "executions: ${execs:-?}, ${rate:-?} exec/s"
	echo "coverage: cov ${cov:-?} (edges), ft ${ft:-?} (features)"
	echo "corpus: $n seeds -> $(find "$run/corpus" -type f | wc -l) inputs"
	findings=$(grep '^fuzz: pristine finding,' "$run/fuzz.log" | sort -u)
	if [ -n "$findings" ]; then
		echo "pristine 6.1 findings (not failures), inputs in $run/findings:"
		echo "$findings"
	fi
	crash=$(find "$run" -maxdepth 1 -type f \
		\( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \
		   -o -name 'leak-*' \) | head -n 1)
	if [ "$rc" -eq 0 ] && [ -z "$crash" ]; then
		passed=$((passed + 1))
	else
		grep -E '^fuzz: invariant|ERROR|runtime error|^BUG|SUMMARY' \
			"$run/fuzz.log" | head -n 20
		echo "crashing input: ${crash:-none saved} (log: $run/fuzz.log)"
		echo "replay: FUZZ_VERBOSE=1 $out/ra_fuzz ${crash:-INPUT}"
		failed=$((failed + 1))
	fi
fi
finish
