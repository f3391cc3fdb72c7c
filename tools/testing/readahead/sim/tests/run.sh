#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The simulator's tests: determinism, conservation, the physical limit,
# the analytic single-stream case, job and machine file errors, the
# sanitized build on every scenario, I/O errors (a disk failing a range
# of sectors), memory pressure, the half-cached file, the schedulers,
# the CPUs, the throttled disk, blktrace output (read back by blkparse
# and btt when installed, else "# SKIP"), large folios and matrix.sh's
# seeds (the median run).  Scenarios
# are scaled down.  TAP (scripts/tap.sh); exits non-zero on any failure.
#
#   OUT=<build dir> tests/run.sh [AREA...]
#
# One file an area (tests/AREA.sh), run in this order by default, as one
# TAP stream: core, input, sanitized, eio, memory, elevator, cpus, blkq,
# blktrace, fiomain, btt, folios, ftrace, matrix-seeds.  An area runs
# alone (run.sh AREA) but btt, which reads blktrace's files.
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
ALL="core input sanitized eio memory elevator cpus blkq blktrace fiomain btt folios
ftrace matrix-seeds"
AREAS=${*:-$ALL}
for a in $AREAS; do
	if [ ! -f "$HERE/tests/$a.sh" ]; then
		echo "run.sh: no test area '$a' (areas:" $ALL")" >&2
		exit 2
	fi
done
. "$HERE/tests/lib.sh"
tap_begin
for a in $AREAS; do
	. "$HERE/tests/$a.sh"
done
tap_end
