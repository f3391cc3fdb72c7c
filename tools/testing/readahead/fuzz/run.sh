#!/bin/sh
# run.sh - build the readahead fuzz target and run it for a while.
#
# Usage: run.sh SECONDS [CORPUS_DIR]      (from anywhere)
#
# Needs clang and libFuzzer (`make fuzz` or `make check` installs them)
# and the unpacked pristine tree (`make tree`).
# 1. Builds build/fuzz/ra_fuzz (clang, libFuzzer, ASan, UBSan): the harness,
#    ours and the pristine 6.12 mm/readahead.c.
# 2. Replays every input of the committed corpus (fuzz/corpus, or
#    CORPUS_DIR) once: deterministic, one "passed" when all pass.
# 3. Fuzzes for SECONDS on a copy of the corpus under build/fuzz/run/,
#    with the dictionary, and prints executions, exec/s, coverage (cov,
#    ft), the corpus size and the pristine 6.12 findings; a crash or an
#    invariant of ours that fails is saved under build/fuzz/run/ and
#    counts as failed.  SECONDS=0 only replays.
# Prints TAP (scripts/tap.sh): the replay and the fuzzing run are one
# test each (and the build, when it fails); exits non-zero on any failure.
set -u
# libFuzzer prints raw bytes (dictionary entries): parse them as bytes.
export LC_ALL=C

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
scripts="$top/tools/testing/readahead/scripts"
. "$scripts/config"
. "$scripts/tap.sh"
tree="$top/build/$KSRC_DIR"
out="$top/build/fuzz"
seconds=${1:?usage: run.sh SECONDS [CORPUS_DIR]}
corpus=${2:-$here/corpus}

finish() {
	tap_end
	exit $?
}

tap_begin
mkdir -p "$top/build"
if ! make -s -C "$here" TOP="$top" TREE="$tree" OUT="$out" \
		>"$out.build.log" 2>&1; then
	tap_diag_file "$out.build.log"
	tap_not_ok "build ra_fuzz (clang, libFuzzer, ASan, UBSan)"
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

n=$(find "$corpus" -type f | wc -l)
if [ "$n" -eq 0 ]; then
	tap_not_ok "replay of the corpus: no inputs in $corpus"
# shellcheck disable=SC2086
elif find "$corpus" -type f | sort | xargs "$out/ra_fuzz" $opts \
		-artifact_prefix="$run/replay-" >"$run/replay.log" 2>&1; then
	tap_ok "replay of the corpus: $n inputs, ours clean"
else
	grep -E '^fuzz: |ERROR|runtime error|^BUG' "$run/replay.log" |
		tap_diag_file
	tap_not_ok "replay of the corpus (log: $run/replay.log)"
fi
grep '^fuzz: pristine finding,' "$run/replay.log" | sort -u | tap_diag_file

if [ "$seconds" -gt 0 ]; then
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
	tap_diag "executions: ${execs:-?}, ${rate:-?} exec/s"
	tap_diag "coverage: cov ${cov:-?} (edges), ft ${ft:-?} (features)"
	tap_diag "corpus: $n inputs -> $(find "$run/corpus" -type f | wc -l)"
	findings=$(grep '^fuzz: pristine finding,' "$run/fuzz.log" | sort -u)
	if [ -n "$findings" ]; then
		tap_diag "pristine 6.12 findings (not failures), inputs in $run/findings:"
		echo "$findings" | tap_diag_file
	fi
	crash=$(find "$run" -maxdepth 1 -type f \
		\( -name 'crash-*' -o -name 'timeout-*' -o -name 'oom-*' \
		   -o -name 'leak-*' \) | head -n 1)
	if [ "$rc" -eq 0 ] && [ -z "$crash" ]; then
		tap_ok "$seconds s of fuzzing: no crash, every invariant of ours held"
	else
		grep -E '^fuzz: invariant|ERROR|runtime error|^BUG|SUMMARY' \
			"$run/fuzz.log" | head -n 20 | tap_diag_file
		tap_diag "crashing input: ${crash:-none saved} (log: $run/fuzz.log)"
		tap_diag "replay: FUZZ_VERBOSE=1 $out/ra_fuzz ${crash:-INPUT}"
		tap_not_ok "$seconds s of fuzzing"
	fi
fi
finish
