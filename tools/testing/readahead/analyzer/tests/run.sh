#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run.sh - tests of ra_analyze: builds it (into $OUT, default build/analyzer
# at the top of the tree) and checks its exact output on the trace quoted
# on LKML in July 2009 and on small hand-written traces.  Prints TAP
# (scripts/tap.sh); exits 1 on any failure.  Runs from any directory.
#
# lkml-mail.txt is Wu Fengguang's reply of 2009-07-01 in the thread
# "fio sync read 4k block size 35% regression" (Zhang Yanmin), as an
# archive shows it: 446 lines, 66 trace lines (the trace is quoted twice
# and the dmesg example four times), 12 highlighted; subsequent: 50
# calls, 46*64 pages, windows 2*1664+4*8 = 3360 -> mean 67.20.
# lkml-trace.txt holds its trace lines (mail lines 144-147 and 282-312,
# so mail line L of the fio trace is line L-277 here):
#   31 trace lines (2 dmesg ones with timestamps, 29 fio ones), 4 other.
#   initial0 1 call 2 pages; subsequent 24 calls 23*64+0 = 1472 pages,
#   windows 20*64+3*128+8 = 1672 -> mean 69.67; marker 6 calls 384 pages.
#   duplicates (earlier, later): (24,25) (27,29) (30,31) (32,34);
#   shrinks at 26 and 31 (pid 7115: 128 then 64); all-cached: line 3;
#   "==>" highlighted: 24 25 28 29 30 31.

set -u

HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(dirname "$HERE")
TOP=$(cd "$SRC/../../../.." && pwd)
OUT=${OUT:-$TOP/build/analyzer}
RA=$OUT/ra_analyze
TMP=$OUT/tests
. "$TOP/tools/testing/readahead/scripts/tap.sh"

tap_begin
if ! make -s -C "$SRC" OUT="$OUT" >/dev/null; then
	tap_not_ok "build"
	tap_end
	exit 1
fi
mkdir -p "$TMP" || exit 1
cd "$HERE" || exit 1

report() {
	tap_result "$2" "$1"
}

# check NAME COMMAND...: the command's exit status decides.
check() {
	tap_check "$@"
}

# Whitespace-insensitive form of a table: one blank between fields.
squeeze() {
	tr '\t' ' ' | tr -s ' ' | sed 's/ $//'
}

# same GOT EXPECTED: files equal after squeeze, else show the diff.
same() {
	squeeze <"$1" >"$1.sq"
	if cmp -s "$1.sq" "$2"; then
		return 0
	fi
	diff "$2" "$1.sq" | tap_diag_file
	return 1
}

# has FILE LINE: the squeezed FILE has exactly this line.
has() {
	squeeze <"$1" | grep -qxF "$2"
}

# section FILE NAME: the "# NAME" table of FILE up to the next table.
section() {
	squeeze <"$1" | awk -v want="# $2" '
		/^# / { on = ($0 == want) }
		/^lines: / { on = 0 }
		on'
}

# --- the trace of the 2009 mail ---
"$RA" lkml-trace.txt >"$TMP/trace.out" 2>"$TMP/trace.err"
report "trace: exit status 0" $?
check "trace: nothing on stderr" test ! -s "$TMP/trace.err"
check "trace: line counts" \
	has "$TMP/trace.out" "lines: 31 parsed, 0 skipped, 4 other"
check "trace: pattern initial0" \
	has "$TMP/trace.out" "initial0 1 2 4.00 1 0 0"
check "trace: pattern subsequent" \
	has "$TMP/trace.out" "subsequent 24 1472 69.67 0 24 1"
check "trace: pattern marker" \
	has "$TMP/trace.out" "marker 6 384 64.00 0 6 0"
check "trace: file f4" \
	has "$TMP/trace.out" "08:c1 sdm1 49156 f4 29 1856 70.62 0 29 0"
check "trace: file dmesg" \
	has "$TMP/trace.out" "00:10 0:10 105910 dmesg 2 2 6.00 1 1 1"
check "trace: process 7115" \
	has "$TMP/trace.out" "7115 fio 20 1280 70.40 0 20 0"
check "trace: process 3290 as zsh and as dmesg" eval \
	'has "$TMP/trace.out" "3290 zsh 1 2 4.00 1 0 0" &&
	 has "$TMP/trace.out" "3290 dmesg 1 0 8.00 0 1 1"'
check "trace: 5 streams" \
	test "$(section "$TMP/trace.out" streams | wc -l)" -eq 7
printf '%s\n' '# flags' 'flag count' 'duplicate 4' 'all-cached 1' \
	'shrink 2' 'sync-mid-stream 0' 'highlighted 6' >"$TMP/trace.flags.exp"
section "$TMP/trace.out" flags >"$TMP/trace.flags"
check "trace: flag counts" same "$TMP/trace.flags" "$TMP/trace.flags.exp"
section "$TMP/trace.out" flag_lines | awk '$1 == "duplicate"' \
	>"$TMP/trace.dup"
printf '%s\n' 'duplicate 25 2 7115 24 7167' 'duplicate 29 2 7115 27 7167' \
	'duplicate 31 2 7115 30 7167' 'duplicate 34 3 7167 32 7115' \
	>"$TMP/trace.dup.exp"
check "trace: duplicate pairs" same "$TMP/trace.dup" "$TMP/trace.dup.exp"
check "trace: highlighted lines" test "$(section "$TMP/trace.out" flag_lines |
	awk '$1 == "highlighted" { printf "%s ", $2 }')" = "24 25 28 29 30 31 "
check "trace: shrink lines" test "$(section "$TMP/trace.out" flag_lines |
	awk '$1 == "shrink" { printf "%s ", $2 }')" = "26 31 "

# --- the whole mail, quotes and all ---
"$RA" lkml-mail.txt >"$TMP/mail.out" 2>"$TMP/mail.err"
report "mail: exit status 0" $?
check "mail: nothing on stderr" test ! -s "$TMP/mail.err"
check "mail: line counts" \
	has "$TMP/mail.out" "lines: 66 parsed, 0 skipped, 380 other"
printf '%s\n' '# patterns' \
	'pattern calls pages mean_window sync async all_cached' \
	'initial0 4 8 4.00 4 0 0' 'subsequent 50 2944 67.20 0 50 4' \
	'marker 12 768 64.00 0 12 0' >"$TMP/mail.pat.exp"
section "$TMP/mail.out" patterns >"$TMP/mail.pat"
check "mail: patterns" same "$TMP/mail.pat" "$TMP/mail.pat.exp"
check "mail: 12 highlighted" has "$TMP/mail.out" "highlighted 12"

# --- prefixes: quotes, ==>, timestamps, levels; miss= optional ---
"$RA" prefixes.txt >"$TMP/prefixes.out" 2>"$TMP/prefixes.err"
report "prefixes: exit status 0" $?
check "prefixes: nothing on stderr" test ! -s "$TMP/prefixes.err"
check "prefixes: whole output" \
	same "$TMP/prefixes.out" prefixes.expected

# --- duplicates, shrink, sync-mid-stream across processes ---
"$RA" dup.txt >"$TMP/dup.out" 2>&1
report "dup: exit status 0" $?
section "$TMP/dup.out" flags >"$TMP/dup.flags"
section "$TMP/dup.out" flag_lines >>"$TMP/dup.flags"
check "dup: flags and pairs" same "$TMP/dup.flags" dup.expected

# --- a deferral is a decision, not a window: no flag, no duplicate ---
"$RA" defer.txt >"$TMP/defer.out" 2>&1
report "defer: exit status 0" $?
section "$TMP/defer.out" flags >"$TMP/defer.flags"
printf '%s\n' '# flags' 'flag count' 'duplicate 0' 'all-cached 0' \
	'shrink 0' 'sync-mid-stream 0' 'highlighted 0' >"$TMP/defer.flags.exp"
check "defer: no all-cached, duplicate or sync-mid-stream flag" \
	same "$TMP/defer.flags" "$TMP/defer.flags.exp"
section "$TMP/defer.out" patterns | awk '$1 == "defer"' >"$TMP/defer.row"
echo 'defer 1 0 0.00 0 0 0' >"$TMP/defer.row.exp"
check "defer: counted as a call, with no window" \
	same "$TMP/defer.row" "$TMP/defer.row.exp"

# --- the readahead_decision tracepoint ---
# trace_pipe lines (a comm with a blank and a dash, irqs-off flags),
# trace-cmd report and perf script lines, among the other readahead
# events and a log line of the same file (inode 0x64 is 100: the two
# are one stream's windows, the log line a duplicate); three event lines
# that do not parse.
"$RA" tracepoint.txt >"$TMP/tp.out" 2>"$TMP/tp.err"
report "tracepoint: exit status 0" $?
check "tracepoint: exact tables" same "$TMP/tp.out" tracepoint.expected
cat >"$TMP/tp.err.exp" <<'EOT'
ra_analyze: tracepoint.txt:11: cannot parse: expected 'nr_read='
ra_analyze: tracepoint.txt:12: cannot parse: expected 'ino=' (hex)
ra_analyze: tracepoint.txt:13: cannot parse: expected 'COMM-PID [CPU] ... TIME: ' before the event
EOT
check "tracepoint: bad lines reported with line numbers" \
	cmp -s "$TMP/tp.err" "$TMP/tp.err.exp"
"$RA" --streams tracepoint.txt >"$TMP/tp.streams" 2>/dev/null
check "tracepoint: fault's mmap_miss is the miss" has "$TMP/tp.streams" \
	"2 6 around 200 1 184 32 8 0 1 32 -"
check "tracepoint: async when the window starts past the request" \
	has "$TMP/tp.streams" "1 10 subsequent 12 1 28 32 32 1 - 32 -"

# --- malformed lines ---
"$RA" malformed.txt >"$TMP/bad.out" 2>"$TMP/bad.err"
report "malformed: exit status 0" $?
cat >"$TMP/bad.err.exp" <<'EOT'
ra_analyze: malformed.txt:2: cannot parse: expected '-' in ra
ra_analyze: malformed.txt:4: cannot parse: missing pattern after 'readahead-'
ra_analyze: malformed.txt:5: cannot parse: trailing text after result
ra_analyze: malformed.txt:7: cannot parse: expected 'readahead-' at start of trace
ra_analyze: malformed.txt:8: cannot parse: expected ') = '
EOT
check "malformed: reported with line numbers" \
	cmp -s "$TMP/bad.err" "$TMP/bad.err.exp"
check "malformed: skip count" \
	has "$TMP/bad.out" "lines: 2 parsed, 5 skipped, 1 other"

# --- stdin ---
"$RA" <lkml-trace.txt >"$TMP/stdin.out" 2>&1
report "stdin: no file argument" $?
check "stdin: same output as a file" cmp -s "$TMP/stdin.out" "$TMP/trace.out"
"$RA" - <lkml-trace.txt >"$TMP/dash.out" 2>&1
check "stdin: '-' argument" cmp -s "$TMP/dash.out" "$TMP/trace.out"
"$RA" - <malformed.txt >/dev/null 2>"$TMP/stdin.err"
check "stdin: errors name <stdin>" grep -qxF \
	"ra_analyze: <stdin>:2: cannot parse: expected '-' in ra" \
	"$TMP/stdin.err"
"$RA" prefixes.txt dup.txt >"$TMP/two.out" 2>&1
check "two files: lines counted across both" \
	has "$TMP/two.out" "lines: 17 parsed, 0 skipped, 2 other"
check "two files: lines named FILE:LINE" \
	has "$TMP/two.out" "duplicate dup.txt:2 4 2 dup.txt:1 1"

# --- --streams ---
"$RA" --streams lkml-trace.txt >"$TMP/streams.out" 2>&1
report "streams: exit status 0" $?
check "streams: 31 windows" \
	test "$(section "$TMP/streams.out" windows | wc -l)" -eq 33
row="2 31 subsequent 145165 1 145229 64 64 1 - 64"
check "streams: flagged window row" has "$TMP/streams.out" \
	"$row duplicate,shrink,highlighted"
check "streams: miss shown" has "$TMP/streams.out" \
	"1 3 subsequent 1 60 4 8 8 1 0 0 all-cached"

# --- bad usage and missing files ---
"$RA" --bogus lkml-trace.txt >"$TMP/opt.out" 2>"$TMP/opt.err"
report "bad option: exit 2" $(($? != 2))
check "bad option: usage on stderr" grep -q '^usage: ra_analyze' "$TMP/opt.err"
check "bad option: nothing on stdout" test ! -s "$TMP/opt.out"
"$RA" lkml-trace.txt --plot >/dev/null 2>&1
report "--plot without prefix: exit 2" $(($? != 2))
"$RA" no-such-file.txt >"$TMP/miss.out" 2>"$TMP/miss.err"
report "missing file: exit 1" $(($? != 1))
check "missing file: clear error" grep -qxF \
	"ra_analyze: no-such-file.txt: No such file or directory" \
	"$TMP/miss.err"
check "missing file: nothing on stdout" test ! -s "$TMP/miss.out"

# --- --plot ---
rm -f "$TMP/plot.gp" "$TMP/plot.dat" "$TMP/plot.png"
"$RA" --plot "$TMP/plot" lkml-trace.txt >"$TMP/plot.out" 2>"$TMP/plot.err"
report "plot: exit status 0" $?
check "plot: output unchanged" cmp -s "$TMP/plot.out" "$TMP/trace.out"
check "plot: .gp written" grep -q '^plot ' "$TMP/plot.gp"
check "plot: .dat has 5 streams, 31 windows" eval \
	'test "$(grep -c "^# stream" "$TMP/plot.dat")" -eq 5 &&
	 test "$(grep -c "^[0-9]" "$TMP/plot.dat")" -eq 31'
if command -v gnuplot >/dev/null 2>&1; then
	check "plot: .png made by gnuplot" eval \
		'test -s "$TMP/plot.png" &&
		 head -c 4 "$TMP/plot.png" | od -c | grep -q "P   N   G"'
else
	check "plot: no .png without gnuplot" test ! -e "$TMP/plot.png"
fi

# --- duplicates: the index gives what the plain scan gives ---
# Files of up to 1500 windows by 4 processes, starts in a narrow range
# so that windows overlap, share STARTs, and some are empty (an empty
# window overlaps one that holds it); the last file has a window whose
# end wraps past 2^64, which takes the plain scan.
awk 'BEGIN {
	srand(12);
	for (i = 0; i < 4000; i++) {
		f = int(rand() * 3); p = int(rand() * 4);
		s = int(rand() * (f ? 20000 : 2000));
		n = int(rand() * 5); n = n == 0 ? 0 : n == 1 ? 1 : int(rand() * 64);
		if (i == 3000) { f = 2; s = "18446744073709551615"; n = 2 }
		printf "readahead-subsequent(pid=%d(p%d), dev=08:01(sda1), ino=%d(f%d), req=%s+1, ra=%s+%d-0, async=1) = %d\n", \
			p, p, f, f, s, s, n, n
	}
}' >"$TMP/dups.txt"
RA_ANALYZE_DUPS=scan "$RA" --streams "$TMP/dups.txt" >"$TMP/dups.scan" 2>&1
RA_ANALYZE_DUPS=tree "$RA" --streams "$TMP/dups.txt" >"$TMP/dups.tree" 2>&1
"$RA" --streams "$TMP/dups.txt" >"$TMP/dups.auto" 2>&1
check "dup index: many duplicates found" test "$(section "$TMP/dups.scan" \
	flags | awk '$1 == "duplicate" { print $2 }')" -gt 500
check "dup index: same output as the plain scan" \
	cmp -s "$TMP/dups.scan" "$TMP/dups.tree"
check "dup index: same output by default" \
	cmp -s "$TMP/dups.scan" "$TMP/dups.auto"


# --- a stock kernel's trace: filemap, block and mainline's ra events ---
"$RA" --streams stock.txt >"$TMP/stock.out" 2>"$TMP/stock.err"
report "stock: exit status 0" $?
check "stock: the malformed line named on stderr" test "$(cat "$TMP/stock.err")" = \
	"ra_analyze: stock.txt:32: cannot parse: offset is not a multiple of 4096 (4 KiB pages only)"
check "stock: whole output" same "$TMP/stock.out" stock.expected
check "stock: fio's stream, one window read twice and evicted unused" \
	has "$TMP/stock.out" "1 4003 fio 08:10 64 3 2 16 12 4 0 4 0.750 0.983 thrashing"
check "stock: readahead(2)'s window has no trigger" \
	has "$TMP/stock.out" "unknown 1 8 8.00 0 0 0"
# A patched kernel's decisions among the same events: the inference
# checked against them (the last decision disagrees on purpose).
"$RA" stock-agree.txt >"$TMP/agree.out" 2>"$TMP/agree.err"
report "stock agreement: exit status 0" $?
printf '%s\n' '# stock_agreement' \
	'pattern decisions agreed pct triggers agreed' \
	'initial0 1 1 100.00 1 1' 'subsequent 1 1 100.00 1 1' \
	'initial 1 1 100.00 1 1' 'around 2 1 50.00 2 2' \
	'all 5 4 80.00 5 5' 'windows 7 5' >"$TMP/agree.exp"
section "$TMP/agree.out" stock_agreement >"$TMP/agree.got"
check "stock agreement: 4 of 5 decisions match the windows inferred" \
	same "$TMP/agree.got" "$TMP/agree.exp"
check "stock agreement: the decisions' streams get their windows' outcome" \
	has "$TMP/agree.out" "1 4003 fio 08:10 64 3 2 16 12 4 0 4 0.750 0.983 thrashing"
# The same figures as JSON lines: a record per stream, per file, lines.
"$RA" --json stock.txt >"$TMP/stock.json" 2>/dev/null
report "stock --json: exit status 0" $?
check "stock --json: fio's stream record" grep -qxF \
	'{"record":"stream","stream":1,"pid":4003,"comm":"fio","dev":"08:10","ino":64,"bdev":"","name":"","windows":3,"defer":0,"sync":2,"async":1,"trigger_unknown":0,"all_cached":0,"pages":16,"window_pages":16,"flags":{"duplicate":0,"all_cached":0,"shrink":1,"sync_mid_stream":1},"outcome":{"stalls":2,"pages":16,"used":12,"evicted_unused":4,"cached_unused":0,"read_twice":4,"used_per_read":0.750000,"lead_ms":0.983333,"thrashing":true}}' \
	"$TMP/stock.json"
check "stock --json: 4 streams, 4 files, then the lines record" test \
	"$(sed 's/^{"record":"\([a-z]*\)".*/\1/' "$TMP/stock.json" | uniq -c |
	   tr -s ' ' | tr '\n' ';')" = " 4 stream; 4 file; 1 lines;"
if command -v python3 >/dev/null; then
	check "stock --json: every line a JSON object (python3)" python3 -c '
import json, sys
for line in open(sys.argv[1]):
    assert isinstance(json.loads(line), dict)' "$TMP/stock.json"
	"$RA" --json lkml-mail.txt >"$TMP/mail.json"
	check "decisions --json: every line a JSON object, outcome null" \
		python3 -c '
import json, sys
recs = [json.loads(line) for line in open(sys.argv[1])]
assert all(r.get("outcome", None) is None for r in recs)
assert recs[-1] == {"record": "lines", "parsed": 66, "skipped": 0,
                    "other": 380, "source": "decisions"}' "$TMP/mail.json"
else
	tap_skip "stock --json: every line a JSON object" "no python3"
fi
"$RA" --json --streams stock.txt >/dev/null 2>"$TMP/json.err"
st=$?
check "--json with --streams refused, status 2" eval \
	'[ $st -eq 2 ] && grep -q "one or the other" "$TMP/json.err"'
# As 6.1 records it: arrivals and departures, no access events.
grep -E 'mm_filemap_(add_to|delete_from)_page_cache' stock.txt |
	grep -v 'ofs=100 ' >"$TMP/stock61.txt"
"$RA" "$TMP/stock61.txt" >"$TMP/stock61.out" 2>&1
report "stock 6.1: exit status 0" $?
check "stock 6.1: use cannot be told, and the table says so" eval \
	'has "$TMP/stock61.out" "use no access events (6.1 has none): which pages were used cannot be told" &&
	 has "$TMP/stock61.out" "1 4003 fio 08:10 64 2 0 16 - 4 - 4 - - thrashing"'
printf '%s\n' \
	' fio-1 [000] 1.0: mm_filemap_fault: dev=8:16 ino=zz ofs=0' \
	' fio-1 [000] 1.0: mm_filemap_get_pages: dev=8:16 ino=40 ofs=8192-4095' \
	' fio-1 [000] 1.0: mm_filemap_add_to_page_cache: dev 8:16 ino 40 pfn=0x1 ofs=0 order=99' \
	'mm_filemap_fault: dev=8:16 ino=40 ofs=0' >"$TMP/stock-bad.txt"
"$RA" "$TMP/stock-bad.txt" >"$TMP/stock-bad.out" 2>"$TMP/stock-bad.err"
printf '%s\n' \
	"ra_analyze: $TMP/stock-bad.txt:1: cannot parse: bad inode number (hex)" \
	"ra_analyze: $TMP/stock-bad.txt:2: cannot parse: range ends before it starts" \
	"ra_analyze: $TMP/stock-bad.txt:3: cannot parse: order out of range (0 to 30)" \
	"ra_analyze: $TMP/stock-bad.txt:4: cannot parse: expected 'COMM-PID [CPU] ... TIME: ' before the event" \
	>"$TMP/stock-bad.exp"
check "stock: bad fields named, line by line" \
	cmp -s "$TMP/stock-bad.err" "$TMP/stock-bad.exp"
check "stock: bad lines skipped, nothing inferred" \
	has "$TMP/stock-bad.out" "lines: 0 parsed, 4 skipped, 0 other"


# --- a patched kernel's readahead_outcome events ---
# outcome.txt: the three text forms, a task named as a log line begins,
# and six event lines that do not parse; the events summed per file and
# per pattern ("twice": the event does not tell), no agreement table
# without the stock events.
"$RA" outcome.txt >"$TMP/outcome.out" 2>"$TMP/outcome.err"
report "outcome: exit status 0" $?
check "outcome: exact tables" same "$TMP/outcome.out" outcome.expected
cat >"$TMP/outcome.err.exp" <<'EOT'
ra_analyze: outcome.txt:13: cannot parse: used + evicted + cached is not pages
ra_analyze: outcome.txt:14: cannot parse: stall is neither 0 nor 1
ra_analyze: outcome.txt:15: cannot parse: bad end (settled, stopped or full)
ra_analyze: outcome.txt:16: cannot parse: expected 'lead_ns='
ra_analyze: outcome.txt:17: cannot parse: expected 'COMM-PID [CPU] ... TIME: ' before the event
ra_analyze: outcome.txt:18: cannot parse: expected 'ino=' (hex)
EOT
check "outcome: bad lines reported with line numbers" \
	cmp -s "$TMP/outcome.err" "$TMP/outcome.err.exp"
# outcome-stock.txt: stock.txt's events and the kernel's outcome of each
# window inferred from them, figure for figure.
rm -f "$TMP/oa.stock" "$TMP/oa.stock.exp"
"$RA" --streams outcome-stock.txt >"$TMP/oa.out" 2>"$TMP/oa.err"
report "outcome agreement: exit status 0" $?
check "outcome agreement: nothing on stderr" test ! -s "$TMP/oa.err"
for name in kernel_outcomes kernel_outcomes_per_pattern outcome_agreement; do
	section "$TMP/oa.out" $name
done >"$TMP/oa.got"
check "outcome agreement: exact tables, every window matched, agree" \
	same "$TMP/oa.got" outcome-stock.expected
# The tables with no line numbers in them: as stock.txt's.
for name in patterns files processes flags stock_trace outcomes \
	    outcomes_per_file; do
	section "$TMP/oa.out" $name >>"$TMP/oa.stock"
	section stock.expected $name >>"$TMP/oa.stock.exp"
done
check "outcome agreement: the stock tables are stock.txt's" \
	cmp -s "$TMP/oa.stock" "$TMP/oa.stock.exp"
check "outcome agreement: line counts" \
	has "$TMP/oa.out" "lines: 104 parsed, 0 skipped, 6 other"
# With the decisions of stock-agree.txt, the events match decisions (start
# and size) and the windows attributed to them.  Its last decision says
# 16 pages where 32 arrived: the kernel's event says 32, as the stock
# events do.
{ cat stock-agree.txt; grep -E 'readahead_outcome: dev=8:16 ino=4[01] ' \
	outcome-stock.txt; } >"$TMP/oa-dec.txt"
"$RA" "$TMP/oa-dec.txt" >"$TMP/oa-dec.out" 2>/dev/null
printf '%s\n' '# outcome_agreement' 'what kernel stock diff_pct' \
	'windows 5 5 -' 'matched 5 5 -' 'unmatched 0 0 -' \
	'sizes_agreed 5 - -' 'ended_full 0 - -' 'pages 80 80 -' \
	'used 29 29 0.00' 'evicted 4 4 -' 'cached 47 47 -' \
	'unused 51 51 0.00' 'verdict agree' >"$TMP/oa-dec.exp"
section "$TMP/oa-dec.out" outcome_agreement >"$TMP/oa-dec.got"
check "outcome agreement: with decisions, each event matches one" \
	same "$TMP/oa-dec.got" "$TMP/oa-dec.exp"
{ cat stock-agree.txt; grep 'readahead_outcome: ' outcome-stock.txt; } \
	>"$TMP/oa-dec7.txt"
"$RA" "$TMP/oa-dec7.txt" >"$TMP/oa-dec7.out" 2>/dev/null
check "outcome agreement: events of files with no decision unmatched" eval \
	'has "$TMP/oa-dec7.out" "unmatched 2 0 -" &&
	 has "$TMP/oa-dec7.out" "verdict differ"'
# One window used less than the stock events say, one event no window
# has (reported by a full tracker).
sed 's/start=84 size=32 pages=32 used=16 evicted=0 cached=16/start=84 size=32 pages=32 used=10 evicted=0 cached=22/' \
	outcome-stock.txt >"$TMP/oa-diff.txt"
echo '              sh-4010    [000] ..... 1.010000: readahead_outcome: dev=8:16 ino=40 pattern=marker start=64 size=8 pages=8 used=0 evicted=0 cached=8 lead_ns=0 stall=0 end=full' \
	>>"$TMP/oa-diff.txt"
"$RA" "$TMP/oa-diff.txt" >"$TMP/oa-diff.out" 2>/dev/null
printf '%s\n' '# outcome_agreement' 'what kernel stock diff_pct' \
	'windows 8 7 -' 'matched 7 7 -' 'unmatched 1 0 -' \
	'sizes_agreed 7 - -' 'ended_full 1 - -' 'pages 104 104 -' \
	'used 23 29 26.09' 'evicted 4 4 -' 'cached 77 71 -' \
	'unused 81 75 -7.41' 'verdict differ' >"$TMP/oa-diff.exp"
section "$TMP/oa-diff.out" outcome_agreement >"$TMP/oa-diff.got"
check "outcome agreement: used and unused differ, one unmatched: differ" \
	same "$TMP/oa-diff.got" "$TMP/oa-diff.exp"
# Pages moved from one window to another, the totals the same: two
# pages off is a size that differs, one page off is not.
for n in 1 2; do
	sed -e "s/ino=42 pattern=initial start=0 size=16 pages=16 used=0 evicted=0 cached=16/ino=42 pattern=initial start=0 size=16 pages=$((16 + n)) used=0 evicted=0 cached=$((16 + n))/" \
	    -e "s/ino=43 pattern=fadvise start=0 size=8 pages=8 used=0 evicted=0 cached=8/ino=43 pattern=fadvise start=0 size=8 pages=$((8 - n)) used=0 evicted=0 cached=$((8 - n))/" \
		outcome-stock.txt >"$TMP/oa-size$n.txt"
	"$RA" "$TMP/oa-size$n.txt" >"$TMP/oa-size$n.out" 2>/dev/null
done
check "outcome agreement: sizes one page off agree" eval \
	'has "$TMP/oa-size1.out" "sizes_agreed 7 - -" &&
	 has "$TMP/oa-size1.out" "verdict agree"'
check "outcome agreement: sizes two pages off differ, totals alike" eval \
	'has "$TMP/oa-size2.out" "sizes_agreed 5 - -" &&
	 has "$TMP/oa-size2.out" "unused 75 75 0.00" &&
	 has "$TMP/oa-size2.out" "verdict differ"'
# One page the kernel saw unused that the stock events saw used: every
# window matched and of its size, the totals more than 1% apart.
sed 's/start=84 size=32 pages=32 used=16 evicted=0 cached=16/start=84 size=32 pages=32 used=15 evicted=0 cached=17/' \
	outcome-stock.txt >"$TMP/oa-one.txt"
"$RA" "$TMP/oa-one.txt" >"$TMP/oa-one.out" 2>/dev/null
check "outcome agreement: one page of 29 used differs: over 1%, differ" eval \
	'has "$TMP/oa-one.out" "sizes_agreed 7 - -" &&
	 has "$TMP/oa-one.out" "used 28 29 3.57" &&
	 has "$TMP/oa-one.out" "unused 76 75 -1.32" &&
	 has "$TMP/oa-one.out" "verdict differ"'
# Many windows (600 on 12 files), reported newest first when the
# tracking stops, not in the order they were read: every event matches
# its window, however the keys fall in the hash.
awk 'BEGIN {
	for (w = 0; w < 600; w++) {
		f = 64 + w % 12; p = 8 * int(w / 12); t = 1 + w / 10000;
		printf "fio-4003 [000] ..... %.6f: mm_filemap_add_to_page_cache: dev 8:16 ino %x pfn=0x1 ofs=%d order=2\n", \
			t, f, p * 4096
		printf "fio-4003 [000] ..... %.6f: mm_filemap_get_pages: dev=8:16 ino=%x ofs=%d-%d\n", \
			t, f, p * 4096, p * 4096 + 16383
		ev[w] = sprintf("sh-4010 [000] ..... 2.000000: readahead_outcome: dev=8:16 ino=%x pattern=subsequent start=%d size=4 pages=4 used=4 evicted=0 cached=0 lead_ns=0 stall=1 end=stopped", \
			f, p)
	}
	for (w = 599; w >= 0; w--)
		print ev[w]
}' >"$TMP/oa-many.txt"
"$RA" "$TMP/oa-many.txt" >"$TMP/oa-many.out" 2>&1
check "outcome agreement: 600 windows, every event matched" eval \
	'has "$TMP/oa-many.out" "matched 600 600 -" &&
	 has "$TMP/oa-many.out" "verdict agree"'
# As 6.1 records it (no access events): the stock side's use is untold.
grep -vE 'mm_filemap_(get_pages|map_pages|fault):' outcome-stock.txt \
	>"$TMP/oa61.txt"
"$RA" "$TMP/oa61.txt" >"$TMP/oa61.out" 2>/dev/null
check "outcome agreement: no access events, use untold, differ" eval \
	'has "$TMP/oa61.out" "used 29 - -" &&
	 has "$TMP/oa61.out" "unused 75 - -" &&
	 has "$TMP/oa61.out" "verdict differ"'
"$RA" --json outcome-stock.txt >"$TMP/oa.json" 2>/dev/null
report "outcome --json: exit status 0" $?
check "outcome --json: the all row" grep -qxF \
	'{"record":"kernel_outcome","by":"all","windows":7,"outcome":{"stalls":5,"pages":104,"used":29,"evicted_unused":4,"cached_unused":71,"read_twice":null,"used_per_read":0.278846,"lead_ms":1.068966,"thrashing":false}}' \
	"$TMP/oa.json"
check "outcome --json: a file row" grep -qxF \
	'{"record":"kernel_outcome","by":"file","dev":"08:10","ino":64,"bdev":"","name":"","windows":3,"outcome":{"stalls":2,"pages":16,"used":12,"evicted_unused":4,"cached_unused":0,"read_twice":null,"used_per_read":0.750000,"lead_ms":1.133333,"thrashing":true}}' \
	"$TMP/oa.json"
check "outcome --json: the agreement record" grep -qxF \
	'{"record":"outcome_agreement","kernel":{"windows":7,"matched":7,"unmatched":0,"pages":104,"used":29,"evicted":4,"cached":71,"unused":75},"stock":{"windows":7,"matched":7,"unmatched":0,"pages":104,"used":29,"evicted":4,"cached":71,"unused":75},"sizes_agreed":7,"ended_full":0,"used_diff_pct":0.000000,"unused_diff_pct":0.000000,"verdict":"agree"}' \
	"$TMP/oa.json"
check "outcome --json: 4 stream, 4 file, 10 kernel_outcome, 1 agreement, lines" \
	test "$(sed 's/^{"record":"\([a-z_]*\)".*/\1/' "$TMP/oa.json" |
	   uniq -c | tr -s ' ' | tr '\n' ';')" = \
	" 4 stream; 4 file; 10 kernel_outcome; 1 outcome_agreement; 1 lines;"
"$RA" --json "$TMP/oa61.txt" >"$TMP/oa61.json" 2>/dev/null
if command -v python3 >/dev/null; then
	check "outcome --json: every line a JSON object, untold use null" \
		python3 -c '
import json, sys
for f in sys.argv[1:]:
    recs = [json.loads(line) for line in open(f)]
    assert all(isinstance(r, dict) for r in recs)
a = [r for r in recs if r["record"] == "outcome_agreement"][0]
assert a["stock"]["used"] is None and a["used_diff_pct"] is None
assert a["verdict"] == "differ"' "$TMP/oa.json" "$TMP/oa61.json"
else
	tap_skip "outcome --json: every line a JSON object" "no python3"
fi

# --- the speed bench (make bench-analyzer times it): it builds, and both
# builds of the analyzer read what it generates ---
if make -s -C "$SRC" OUT="$OUT" "$OUT/ra_bench" "$OUT/fast/ra_analyze" \
		>"$TMP/bench.build" 2>&1; then
	check "ra_bench: 20000 lines generated, the same twice" sh -c \
		'"$1" gen 20000 "$2.1" && "$1" gen 20000 "$2.2" &&
		 test "$(wc -l < "$2.1")" -eq 20000 && cmp -s "$2.1" "$2.2"' \
		- "$OUT/ra_bench" "$TMP/bench.txt"
	check "ra_bench: both builds of ra_analyze read them" sh -c \
		'{ "$1" run "$2" "$3" && "$1" run "$2" "$4"; } >"$5" 2>&1' - \
		"$OUT/ra_bench" "$TMP/bench.txt.1" "$OUT/fast/ra_analyze" \
		"$RA" "$TMP/bench.out"
	tap_diag_file "$TMP/bench.out"
	rm -f "$TMP/bench.txt.1" "$TMP/bench.txt.2"
else
	tap_diag_file "$TMP/bench.build"
	tap_not_ok "ra_bench and the optimized ra_analyze build"
fi

# --- ra-record: bad options, and this machine's own kernel reading a file ---
REC=$SRC/ra-record
"$REC" -t 0 >/dev/null 2>"$TMP/rec.err"
echo "status $?" >>"$TMP/rec.err"
"$REC" -b 512 >/dev/null 2>>"$TMP/rec.err"
echo "status $?" >>"$TMP/rec.err"
printf '%s\n' "ra-record: bad duration (-t, seconds) '0' (allowed: 1 to 86400)" \
	"status 2" \
	"ra-record: bad buffer size (-b, KB) '512' (allowed: 1024 to 4194304)" \
	"status 2" >"$TMP/rec.err.exp"
check "ra-record: -t 0 and -b 512 refused with their ranges, status 2" \
	cmp -s "$TMP/rec.err" "$TMP/rec.err.exp"
tfs=
for d in /sys/kernel/tracing /sys/kernel/debug/tracing; do
	[ -e "$d/events/filemap/mm_filemap_add_to_page_cache" ] && tfs=$d
done
if [ "$(id -u)" != 0 ] || [ -z "$tfs" ] || ! command -v python3 >/dev/null; then
	tap_skip "ra-record: cat of an 8 MB file, every page read once and used" \
		"needs root, tracefs with filemap events and python3"
else
	# A file out of the page cache (written, synced, dropped), then cat
	# reads it under ra-record: through tracefs (-T), the way a machine
	# without trace-cmd records.
	f=$TMP/rec.data
	dd if=/dev/zero of="$f" bs=1M count=8 status=none && sync "$f" 2>/dev/null || sync
	python3 -c 'import os, sys
fd = os.open(sys.argv[1], os.O_RDONLY)
os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)' "$f"
	"$REC" -T -b 8192 -o "$TMP/rec.txt" -- cat "$f" >"$TMP/rec.log" 2>&1 </dev/null
	report "ra-record: cat recorded" $?
	"$RA" "$TMP/rec.txt" >"$TMP/rec.out" 2>"$TMP/rec.err"
	ino=$(stat -c %i "$f")
	# outcomes: stream pid comm dev ino windows stalls pages used ...
	row=$(section "$TMP/rec.out" outcomes | awk -v ino="$ino" \
		'$3 == "cat" && $5 == ino')
	tap_diag "cat's stream: ${row:-none}"
	check "ra-record: cat of an 8 MB file, every page read once and used" \
		test "$(echo "$row" | awk '{ print $8, $9, $10, $12 }')" = \
		"2048 2048 0 0"
	check "ra-record: cat's first window a miss, the others ahead of it" \
		test "$(section "$TMP/rec.out" outcomes | awk -v ino="$ino" \
		'$3 == "cat" && $5 == ino && $6 >= 2 { print $7 }')" = 1
fi

tap_end
