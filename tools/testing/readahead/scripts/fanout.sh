#!/bin/sh
# fanout.sh - run a script once per line of arguments, several at a time.
#
# Usage: ... | fanout.sh SCRIPT
# Each line of standard input is the arguments of one run of SCRIPT (its
# own one-run mode: matrix.sh, replay.sh and sweep.sh take "--one ...",
# perf.sh its PERF_ONE environment).  As many runs at a time as the
# machine has CPUs (FANOUT_JOBS overrides); the runs write their own
# files, so their order does not matter.  Exits non-zero when a run
# failed (xargs' 123), or when SCRIPT is missing.
set -eu
[ $# -eq 1 ] || { echo "usage: $0 SCRIPT < ARGUMENT-LINES" >&2; exit 2; }
[ -x "$1" ] || { echo "fanout.sh: $1 is not an executable script" >&2; exit 2; }
jobs=${FANOUT_JOBS:-$(nproc 2>/dev/null || echo 2)}
case $jobs in
'' | *[!0-9]* | 0) echo "fanout.sh: FANOUT_JOBS '$jobs' (allowed: 1 or more)" >&2; exit 2 ;;
esac
exec xargs -r -P "$jobs" -L 1 "$1"
