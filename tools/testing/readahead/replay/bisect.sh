#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# A git-bisect-style search over the chain of readahead models from
# 2.6.30 to 2.6.31-rc1 (chain.c), the way the July 2009 reports were
# made: measure the good end (2.6.30) and the bad end (2.6.31-rc1), then
# test the middle step until the first step that is bad is found.  A
# step is bad when its fio bandwidth falls below THRESHOLD of 2.6.30's.
#
#   OUT=<build dir> ./bisect.sh SCENARIO
#
# SCENARIO is MACHINE-ENGINE-BS: a machine of sim/scenarios (report13,
# report12, report7: the reports' three machines) and its job file,
# ENGINE sync (read(2)) or mmap, BS the block size; for instance
# report13-sync-4k.  SIZE (default 1g) is each file's size, THRESHOLD
# (default 0.95) the bad line.  Same inputs, same answer.  The last line
# is "first bad step: N NAME COMMIT SUBJECT" or "first bad step: none".
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${OUT:-$HERE/../../../../build/replay}
SIZE=${SIZE:-1g}
THRESHOLD=${THRESHOLD:-0.95}
SIM=$OUT/ra_sim_replay
SC=$HERE/../sim/scenarios

usage() {
	echo "usage: bisect.sh MACHINE-ENGINE-BS (e.g. report13-sync-4k; machines: report13 report12 report7; engines: sync mmap)" >&2
	exit 2
}
[ $# -eq 1 ] || usage
machine=${1%%-*}
rest=${1#*-}
engine=${rest%%-*}
bs=${rest#*-}
[ -f "$SC/$machine.disks" ] && [ -f "$SC/$machine.fio" ] || usage
case $engine in sync|mmap) ;; *) usage ;; esac
case $bs in *[!0-9kKmM]*|'') usage ;; esac

# The steps, in order: index, --impl name, commit, subject (chain.c).
steps=$("$SIM" --list-impls)
nsteps=$(echo "$steps" | wc -l)
step_field() { # index field
	echo "$steps" | awk -F'\t' -v i="$1" -v f="$2" '$1 == i { print $f }'
}

TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

# fio's bandwidth of the step, in MB/s (cached per step).
measure() {
	if [ ! -f "$TMP/$1" ]; then
		impl=$(step_field "$1" 2)
		"$SIM" --impl "$impl" --define BS="$bs" \
			--define SIZE="$SIZE" --define ENGINE="$engine" \
			--json "$TMP/$1.rec" \
			"$SC/$machine.disks" "$SC/$machine.fio" > /dev/null || :
		awk "$(cat "$HERE/../scripts/json.awk")"'{ jparse($0, r); print r["app_mbps"] }' \
			"$TMP/$1.rec.$impl" > "$TMP/$1" 2>/dev/null || :
		[ -s "$TMP/$1" ] || { echo "bisect: step $1 did not run" >&2; exit 1; }
	fi
	cat "$TMP/$1"
}

base=$(measure 0)
verdict() { # index -> prints ratio and good/bad
	awk -v a="$(measure "$1")" -v b="$base" -v t="$THRESHOLD" \
		'BEGIN { r = a / b; printf "%.3f %s", r, r < t ? "bad" : "good" }'
}
show() { # index
	set -- "$1" $(verdict "$1")
	printf '  step %d  %-16s %9s MB/s  %s  %-4s  %s\n' "$1" \
		"$(step_field "$1" 2)" "$(measure "$1")" "$2" "$3" \
		"$(step_field "$1" 4)"
	[ "$3" = bad ]
}

echo "bisect: $1, files of $SIZE, a step is bad below $THRESHOLD of 2.6.30"
show 0 || true
last=$((nsteps - 1))
if ! show "$last"; then
	echo "first bad step: none"
	exit 0
fi
good=0
bad=$last
while [ $((bad - good)) -gt 1 ]; do
	mid=$(((good + bad) / 2))
	if show "$mid"; then
		bad=$mid
	else
		good=$mid
	fi
done
echo "first bad step: $bad $(step_field "$bad" 2) $(step_field "$bad" 3) $(step_field "$bad" 4)"
