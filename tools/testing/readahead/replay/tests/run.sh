#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The replay's tests: the models' exact decisions in the unit harness
# (ra_replay_test, ASan and UBSan), then one small simulator run per
# model (both finish, the conservation checks hold, the models print
# their own trace lines in the debugfs format).  Prints TAP, the unit
# tests' results first, numbered on (scripts/tap.sh); exits non-zero on
# any failure.  Runs from any directory.
#
#   OUT=<build dir> tests/run.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
TOP=$(cd "$HERE/../../../.." && pwd)
OUT=${OUT:-$TOP/build/replay}
SC=$HERE/../sim/scenarios
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$TOP/tools/testing/readahead/scripts/tap.sh"

tap_begin
# The unit tests' own TAP, renumbered into this one.
"$OUT/ra_replay_test" > "$TMP/unit.out" 2>&1
rc=$?
while IFS= read -r l; do
	case $l in
	"TAP version "* | 1..* | "# Totals: "*) ;;
	"ok "*" # SKIP "*)
		l=${l#ok * - }
		tap_skip "${l%% # SKIP *}" "${l#* # SKIP }" ;;
	"not ok "*) tap_not_ok "${l#not ok * - }" ;;
	"ok "*) tap_ok "${l#ok * - }" ;;
	*) echo "$l" ;;
	esac
done < "$TMP/unit.out"
if ! tap_tally "$TMP/unit.out" || [ $rc -ne 0 ]; then
	tap_not_ok "ra_replay_test finished cleanly (exit status $rc)"
fi

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
			tap_ok "sim $m $2: runs, checks hold, trace in the debugfs format"
		else
			tap_not_ok "sim $m $2: runs, checks hold, trace in the debugfs format"
		fi
	done
done

# The chain: eight steps from 2.6.30 to 2.6.31-rc1, the commits named.
steps=$("$OUT/ra_sim_replay" --list-impls | cut -f 2,3 | tr '\t\n' ': ')
want="2.6.30:- context:- interleaved:- 51daa88e:51daa88e ef00e08e:ef00e08e mmap-seq:- mmap-async-full:- 2.6.31-rc1:- "
if [ "$steps" = "$want" ]; then
	tap_ok "chain: 8 steps, 51daa88e and ef00e08e named"
else
	tap_not_ok "chain: 8 steps, 51daa88e and ef00e08e named (got '$steps')"
fi

# The bisect on the reports' machines, scaled to 32 MB files (seconds):
# the same first bad steps as at full shape.
bis() { # scenario want
	got=$(SIZE=32m OUT=$OUT "$HERE/bisect.sh" "$1" 2>&1 | tail -n 1)
	if [ "$got" = "$2" ]; then
		tap_ok "bisect $1 (32 MB files): $2"
	else
		tap_not_ok "bisect $1 (32 MB files): got '$got', want '$2'"
	fi
}
bis report13-sync-4k "first bad step: 3 51daa88e 51daa88e readahead: remove sync/async readahead call dependency"
bis report7-mmap-4k "first bad step: 4 ef00e08e ef00e08e readahead: clean up and simplify the code for filemap page fault readahead"
# Without CFQ's idling the read(2) loss is gone: within 1% (with CFQ,
# 0.93 at full shape).
sed 's/^elevator=cfq$/elevator=noop/' "$SC/report13.disks" > "$TMP/noop13.disks"
for m in 2.6.30 2.6.31-rc1; do
	"$OUT/ra_sim_replay" --impl "$m" --define BS=4k --define SIZE=32m \
		--define ENGINE=sync "$TMP/noop13.disks" "$SC/report13.fio" |
		sed -n 's/^summary: impl=[^ ]* app_mbps=\([0-9.]*\) .*/\1/p' \
		> "$TMP/noop.$m"
done
r=$(awk -v a="$(cat "$TMP/noop.2.6.31-rc1")" -v b="$(cat "$TMP/noop.2.6.30")" \
	'BEGIN { if (b > 0) printf "%.3f", a / b }')
if [ -n "$r" ] && awk -v r="$r" 'BEGIN { exit !(r >= 0.99 && r <= 1.01) }'; then
	tap_ok "report13 read 4k on noop: 2.6.31-rc1/2.6.30 = $r, within 1%"
else
	tap_not_ok "report13 read 4k on noop: 2.6.31-rc1/2.6.30 = $r, not within 1%"
fi
if ! OUT=$OUT "$HERE/bisect.sh" nosuch-sync-4k > /dev/null 2>&1 &&
   ! OUT=$OUT "$HERE/bisect.sh" report13-write-4k > /dev/null 2>&1; then
	tap_ok "bisect refuses an unknown machine or engine"
else
	tap_not_ok "bisect refuses an unknown machine or engine"
fi
tap_end
