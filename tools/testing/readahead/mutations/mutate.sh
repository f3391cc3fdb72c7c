#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mutate.sh - mutation testing of mm/readahead.c against the harness.
#
# Usage: mutate.sh [MUTATION.sed...]     (from anywhere; default: every
#                                         *.sed next to this script)
#
# Each MUTATION.sed is a sed script that breaks one thing in a copy of
# mm/readahead.c (its first line, a comment, says what).  For each, the
# harness is rebuilt with the copy as ours (OURS=, objects shared in
# build/mutate/obj) and run; the mutation is "killed" when the harness
# fails, crashes, times out or does not build, and "SURVIVED" when every
# test still passes: a hole in the tests.  A script that changes nothing
# is "stale" (mm/readahead.c moved on) and counts as a failure too.  The
# unmutated file must pass first.  Prints one line per mutation, with the
# first failing tests of a killed one, and ends with
# "mutate: N killed, N survived"; exits non-zero unless all were killed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
harness="$top/tools/testing/readahead"
tree=${TREE:-$top/build/linux-source-6.1}
out="$top/build/mutate"
obj="$out/obj"
killed=0
survived=0

if [ $# -eq 0 ]; then
	set -- "$here"/*.sed
fi
mkdir -p "$obj" || exit 1

# build_and_run OURS LOG: 0 when the harness builds and passes.
build_and_run() {
	rm -f "$obj/ours/readahead.o" "$obj/ra_harness"
	make -s -C "$harness" TREE="$tree" OUT="$obj" OURS="$1" \
		"$obj/ra_harness" >"$2" 2>&1 || return 2
	timeout 300 "$obj/ra_harness" >"$2" 2>&1
}

if ! build_and_run "$top/mm/readahead.c" "$out/baseline.log"; then
	tail -n 20 "$out/baseline.log"
	echo "mutate: the unmutated mm/readahead.c fails; see $out/baseline.log"
	echo "mutate: 0 killed, 0 survived"
	exit 1
fi

for m in "$@"; do
	name=$(basename "$m" .sed)
	dir="$out/$name"
	mkdir -p "$dir"
	sed -f "$m" "$top/mm/readahead.c" >"$dir/readahead.c"
	if cmp -s "$top/mm/readahead.c" "$dir/readahead.c"; then
		printf '%-36s stale: the script changes nothing\n' "$name"
		survived=$((survived + 1))
		continue
	fi
	build_and_run "$dir/readahead.c" "$dir/harness.log"
	rc=$?
	if [ "$rc" -eq 0 ]; then
		printf '%-36s SURVIVED  (%s)\n' "$name" \
			"$(sed -n '1s/^# *//p' "$m")"
		survived=$((survived + 1))
	elif [ "$rc" -eq 2 ]; then
		printf '%-36s killed: does not build\n' "$name"
		killed=$((killed + 1))
	else
		why=$(grep -E '^FAIL ' "$dir/harness.log" |
			sed -E 's/^FAIL +[a-z]+ +//' | head -n 3 |
			paste -sd ';' -)
		[ -n "$why" ] || why="crashed or timed out (exit $rc)"
		printf '%-36s killed by: %s\n' "$name" "$why"
		killed=$((killed + 1))
	fi
done
echo "mutate: $killed killed, $survived survived"
[ "$survived" -eq 0 ]
