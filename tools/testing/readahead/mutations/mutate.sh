#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mutate.sh - mutation testing of mm/readahead.c and mm/readahead_debug.c
# against the harness.
#
# Usage: mutate.sh [MUTATION.sed...]     (from anywhere; default: every
#                                         *.sed next to this script)
#
# Each MUTATION.sed is a sed script that breaks one thing in a copy of
# mm/readahead.c (its first line, a comment, says what), or of the file a
# "# file: PATH" line names (mm/readahead_debug.c, the debugfs view).  For
# each, the harness is rebuilt with the copy as ours (OURS= or
# OURS_DEBUGFS=, objects shared in build/mutate/obj) and run.  A script
# with a "# base: 6.1" line breaks what only the 6.1 backport has: it
# edits mm/readahead.c as the backport (BACKPORT/readahead.c.patch) makes
# it, and the harness is built on 6.1's page cache (BASE=6.1,
# build/mutate/obj-6.1), the unmutated backport passing first.  The mutation is "killed" when the harness
# fails, crashes, times out or does not build, and "SURVIVED" when every
# test still passes: a hole in the tests.  A script that changes nothing
# is "stale" (its file moved on) and counts as a failure too.  The
# unmutated files must pass first.  Prints TAP (scripts/tap.sh), one test
# per mutation: ok when it was killed (with the first failing tests), not
# ok when it survived or is stale; exits non-zero unless all were killed.
set -u

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
harness="$top/tools/testing/readahead/harness"
. "$here/../scripts/config"
. "$here/../scripts/tap.sh"
tree=${TREE:-$top/build/$KSRC_DIR}
out="$top/build/mutate"
obj="$out/obj"

if [ $# -eq 0 ]; then
	set -- "$here"/*.sed
fi
mkdir -p "$obj" || exit 1

# build_and_run OURS OURS_DEBUGFS LOG [6.1]: 0 when the harness (on
# 6.1's page cache with 6.1) builds and passes.
build_and_run() {
	base=${4:-6.12} o=$obj
	[ "$base" = 6.12 ] || o=$obj-$base
	rm -f "$o/ours/readahead.o" "$o/ours/readahead_debug.o" \
		"$o/ra_harness"
	make -s -C "$harness" TREE="$tree" OUT="$o" BASE="$base" OURS="$1" \
		OURS_DEBUGFS="$2" "$o/ra_harness" >"$3" 2>&1 || return 2
	timeout 300 "$o/ra_harness" >"$3" 2>&1
}

ours=$top/mm/readahead.c
ours_debugfs=$top/mm/readahead_debug.c
tap_begin
if ! build_and_run "$ours" "$ours_debugfs" "$out/baseline.log"; then
	tail -n 20 "$out/baseline.log" | tap_diag_file
	tap_not_ok "the unmutated files pass (log: $out/baseline.log)"
	tap_end
	exit 1
fi

baseline61=
for m in "$@"; do
	name=$(basename "$m" .sed)
	dir="$out/$name"
	mkdir -p "$dir"
	target=$(sed -n 's/^# file: *//p' "$m")
	target=${target:-mm/readahead.c}
	base=$(sed -n 's/^# base: *//p' "$m")
	base=${base:-6.12}
	orig=$top/$target
	if [ "$target:$base" = mm/readahead.c:6.1 ]; then
		if [ -z "$baseline61" ]; then
			# The harness's own rule makes the backport.
			baseline61=$out/baseline-6.1.log
			backport61=$obj-6.1/backport/readahead.c
			if ! make -s -C "$harness" TREE="$tree" BASE=6.1 \
					OUT="$obj-6.1" "$backport61" \
					>"$baseline61" 2>&1 ||
			   ! build_and_run "$backport61" \
					"$ours_debugfs" "$baseline61" 6.1; then
				tail -n 20 "$baseline61" | tap_diag_file
				baseline61=failed
			fi
		fi
		if [ "$baseline61" = failed ]; then
			tap_not_ok "$name: the unmutated 6.1 backport does not pass"
			continue
		fi
		orig=$backport61
	fi
	copy="$dir/$(basename "$target")"
	sed -f "$m" "$orig" >"$copy"
	if cmp -s "$orig" "$copy"; then
		tap_not_ok "$name: stale, the script changes nothing"
		continue
	fi
	case $target:$base in
	mm/readahead.c:6.1)
		build_and_run "$copy" "$ours_debugfs" "$dir/harness.log" 6.1 ;;
	mm/readahead.c:6.12) build_and_run "$copy" "$ours_debugfs" "$dir/harness.log" ;;
	mm/readahead_debug.c:6.12)
		build_and_run "$ours" "$copy" "$dir/harness.log" ;;
	*) tap_not_ok "$name: $target is no file ours is built from"; continue ;;
	esac
	rc=$?
	if [ "$rc" -eq 0 ]; then
		tap_not_ok "$name: SURVIVED ($(sed -n '1s/^# *//p' "$m"))"
	elif [ "$rc" -eq 2 ]; then
		tap_ok "$name: killed, does not build"
	else
		# The harness's failing tests, in its old or its TAP form.
		why=$(grep -E '^(FAIL|not ok [0-9]+ -) ' "$dir/harness.log" |
			sed -E 's/^(FAIL|not ok [0-9]+ -) +[a-z0-9.]+ +//' |
			head -n 3 | paste -sd ';' -)
		[ -n "$why" ] || why="crashed or timed out (exit $rc)"
		tap_ok "$name: killed by $why"
	fi
done
tap_end
