#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# bench-cpu.sh - instructions per page of readahead, ours against the
# pristine 6.12 mm/readahead.c, counted by callgrind (deterministic).
#
# Usage: [OURS=FILE] bench-cpu.sh [OUT]
#        (default build/bench-cpu; OURS another version of ours, as
#        make series measures each patch; needs valgrind)
#
# For each fixed scenario of ra_bench_cpu (bench_cpu.c), on a mapping
# without and with large folios, runs each implementation under callgrind,
# collecting only inside the readahead entry points (bench_*), and prints
# one table: instructions per page the readers asked for,
#   excl  in the implementation's own functions (mm/readahead.c; for
#         pristine also pristine_fault.c, the fault policy of 6.12's
#         mm/filemap.c that ours' mm/readahead.c took over), inlined
#         helpers included;
#   incl  everything below the entry points: page cache, allocation,
#         the filesystem's ->readahead (which completes at once).
# and ours against pristine in percent (negative: ours is cheaper).
# Ends with "bench-cpu: ours <= pristine on N of M lines".
#
# BENCH_OUTCOMES=1 adds what outcome tracking costs ours
# (CONFIG_READAHEAD_DEBUGFS with outcome_enable 1, mm/readahead_outcome.c):
# each line's whole program under callgrind in a build with the debugfs
# view, tracking off and on; the difference, over the pages the readers
# asked for, is the tracking's (the page cache events it follows fire
# outside readahead's entry points, so nothing less than the whole
# program would count them).  Records in OUT/outcomes.jsonl.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../../../.." && pwd)
out=${1:-$top/build/bench-cpu}
mkdir -p "$out"
out=$(cd "$out" && pwd)
bench="$out/ra_bench_cpu"
. "$top/tools/testing/readahead/scripts/config"

make -s -C "$here" TOP="$top" TREE="$top/build/$KSRC_DIR" OUT="$out" \
	${OURS:+OURS="$OURS"}

# The functions each implementation owns.
nm --defined-only "$out/ours/readahead.o" | awk '$2 ~ /^[tT]$/ { sub(/\..*$/, "", $3); print $3 }' \
	>"$out/ours.syms"
nm --defined-only "$out/pristine/readahead.o" "$out/lib/pristine_fault.o" |
	awk '$2 ~ /^[tT]$/ { sub(/\..*$/, "", $3); print $3 }' >"$out/pristine.syms"

# measure IMPL SCENARIO MAPPING: prints "pages excl_ir incl_ir".
measure() {
	cg="$out/cg.$1.$2.$3"
	pages=$(valgrind --tool=callgrind --callgrind-out-file="$cg" \
		--collect-atstart=no --toggle-collect='bench_*' \
		"$bench" "$1" "$2" "$3" 2>/dev/null | sed -n 's/^pages //p')
	callgrind_annotate --inclusive=no --auto=no --threshold=100 "$cg" 2>/dev/null |
	awk -v pages="$pages" -v syms="$out/$1.syms" '
		BEGIN { while ((getline s < syms) > 0) own[s] = 1 }
		/PROGRAM TOTALS/ { gsub(",", "", $1); total = $1 }
		/^ *[0-9,]+ \(/ && !/PROGRAM TOTALS/ {
			ir = $1; gsub(",", "", ir)
			fn = $0
			sub(/ \[.*$/, "", fn)
			sub(/^.*:/, "", fn)
			sub(/\..*$/, "", fn)
			if (fn in own)
				excl += ir
		}
		END { printf "%d %d %d\n", pages, excl, total }'
}

# The record of each line (one JSON object a line: the pages and the
# instructions, exclusive and inclusive, of each side), then the table
# and the verdict printed from the records; perf.sh reads them too.
rec="$out/records.jsonl"
: > "$rec"
for s in $("$bench" --list); do
	for m in order0 large; do
		set -- $(measure ours "$s" "$m") $(measure pristine "$s" "$m")
		printf '{"scenario": "%s", "mapping": "%s", "ours_pages": %s, "ours_excl": %s, "ours_incl": %s, "pristine_pages": %s, "pristine_excl": %s, "pristine_incl": %s}\n' \
			"$s" "$m" "$@" >> "$rec"
	done
done
awk "$(cat "$here/../scripts/json.awk")"'
	BEGIN {
		printf "%-18s %-7s %9s %9s %7s %9s %9s %7s\n", "scenario",
			"mapping", "ours", "pristine", "", "ours", "pristine", ""
		printf "%-18s %-7s %9s %9s %7s %9s %9s %7s\n", "", "",
			"excl/pg", "excl/pg", "diff", "incl/pg", "incl/pg", "diff"
	}
	{
		jparse($0, r)
		op = r["ours_pages"]; oe = r["ours_excl"]; oi = r["ours_incl"]
		pp = r["pristine_pages"]; pe = r["pristine_excl"]
		pi = r["pristine_incl"]
		printf "%-18s %-7s %9.1f %9.1f %+6.1f%% %9.1f %9.1f %+6.1f%%\n",
		       r["scenario"], r["mapping"], oe / op, pe / pp,
		       (oe / op * pp / pe - 1) * 100, oi / op, pi / pp,
		       (oi / op * pp / pi - 1) * 100
		lines++
		good += oe / op <= pe / pp && oi / op <= pi / pp
	}
	END { printf "bench-cpu: ours <= pristine on %d of %d lines\n", good, lines }' "$rec"

[ "${BENCH_OUTCOMES:-0}" = 1 ] || exit 0
make -s -C "$here" TOP="$top" TREE="$top/build/$KSRC_DIR" \
	OUT="$out/outcomes" RA_DEBUGFS=y ${OURS:+OURS="$OURS"}
# program_ir SCENARIO MAPPING [outcomes]: "pages instructions" of the
# whole program.
program_ir() {
	cg="$out/outcomes/cg.$1.$2${3:+.$3}"
	pages=$(valgrind --tool=callgrind --callgrind-out-file="$cg" \
		"$out/outcomes/ra_bench_cpu" ours "$@" 2>/dev/null |
		sed -n 's/^pages //p')
	echo "$pages $(sed -n 's/^summary: //p' "$cg")"
}
orec="$out/outcomes.jsonl"
: > "$orec"
for s in $("$bench" --list); do
	for m in order0 large; do
		set -- $(program_ir "$s" "$m") $(program_ir "$s" "$m" outcomes)
		printf '{"scenario": "%s", "mapping": "%s", "pages": %s, "off_ir": %s, "on_ir": %s}\n' \
			"$s" "$m" "$1" "$2" "$4" >> "$orec"
	done
done
awk "$(cat "$here/../scripts/json.awk")"'
	BEGIN {
		print ""
		print "outcome tracking (READAHEAD_DEBUGFS, outcome_enable 1), ours:"
		print "instructions per page of the whole program, off and on"
		printf "%-18s %-7s %9s %9s %9s %7s\n", "scenario", "mapping",
			"off/pg", "on/pg", "cost/pg", "cost"
	}
	{
		jparse($0, r)
		p = r["pages"]; off = r["off_ir"] / p; on = r["on_ir"] / p
		printf "%-18s %-7s %9.1f %9.1f %9.1f %+6.1f%%\n", r["scenario"],
			r["mapping"], off, on, on - off, (on / off - 1) * 100
	}' "$orec"
