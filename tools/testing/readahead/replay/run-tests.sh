#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The replay's tests: the models' exact decisions in the unit harness
# (ra_replay_test, ASan and UBSan), then one small simulator run per
# model (both finish, the conservation checks hold, the models print
# their own trace lines in the debugfs format).  Ends with the line
# "replay: N passed, N failed"; exits non-zero on any failure.
#
#   OUT=<build dir> ./run-tests.sh
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/replay}
SC=$HERE/../sim/scenarios
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

"$OUT/ra_replay_test" > "$TMP/unit.out" 2>&1
rc=$?
grep -v '^replay: ' "$TMP/unit.out"
passed=$(sed -n 's/^replay: \([0-9]*\) passed, \([0-9]*\) failed$/\1/p' "$TMP/unit.out")
failed=$(sed -n 's/^replay: \([0-9]*\) passed, \([0-9]*\) failed$/\2/p' "$TMP/unit.out")
passed=${passed:-0}
failed=${failed:-0}
if [ $rc -ne 0 ] && [ "$failed" = 0 ]; then
	echo "FAIL ra_replay_test exited with $rc"
	failed=1
fi

ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }

for m in 2.6.30 2.6.31-rc1; do
	for s in "jbod13.disks jbod13-seq.fio 4k" "jbod7.disks jbod7-mmap.fio 4k"; do
		set -- $s
		if "$OUT/ra_sim_replay" --impl "$m" --define BS="$3" \
			--define SIZE=8m --trace "$TMP/t" "$SC/$1" "$SC/$2" \
			> "$TMP/out" 2> "$TMP/err" &&
		   grep -q '^Checks: .*: ok$' "$TMP/out" &&
		   test -s "$TMP/t.$m" &&
		   ! grep -v '^readahead-[a-z0-9]*(pid=[0-9]*(fio), dev=[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]([a-z0-9]*), ino=[0-9]*([^)]*), req=[0-9]*+[0-9]*, ra=[0-9]*+[0-9]*-[0-9]*, async=[01]\(, miss=-\{0,1\}[0-9]*\)\{0,1\}) = [0-9]*$' "$TMP/t.$m"
		then
			ok "sim $m $2: runs, checks hold, trace in the debugfs format"
		else
			fail "sim $m $2: runs, checks hold, trace in the debugfs format"
		fi
	done
done
echo "replay: $passed passed, $failed failed"
[ "$failed" = 0 ]
