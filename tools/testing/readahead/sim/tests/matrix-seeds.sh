# SPDX-License-Identifier: GPL-2.0
#
# matrix-seeds.sh - the simulator's tests: matrix.sh's seeds: the median run and the range.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, jfield, check).

# ---- matrix.sh's seeds: the median run and the range, from the runs ----
mkdir "$TMP/mx"
ln -s "$SIM" "$TMP/mx/ra_sim"
mx() { # SEEDS: one row of the matrix, into $TMP/mx/matrix
	OUT=$TMP/mx SIZE=3m SHAPES=report7 ELEVATORS=bfq CPUS=2 ROWS=sync-4k \
		SEEDS=$1 sh "$HERE/matrix.sh" > "$TMP/mx.out" 2> "$TMP/mx.err"
}
mx "3 2 1"
# Each seed's ratio from its own run, then the median as matrix.sh
# documents it: sorted by ratio, ties in SEEDS order, the middle one.
# Files of 3 MB: at 2 MB ours and pristine tie on every seed, and the
# median would be no choice.
for n in 3 2 1; do
	f=$TMP/mx/matrix/report7-bfq-2-sync-4k.seed$n
	awk -v o="$(jfield "$f" ours fraction)" -v p="$(jfield "$f" pristine fraction)" \
		-v n="$n" 'BEGIN { printf "%.3f %s %s %s\n", o / p, o, p, n }'
done | sort -s -n -k1,1 > "$TMP/mx.ratios"
want=$(awk 'NR == 2 { printf "%s %s %s", $2, $3, $1 } { r[NR] = $1 }
	END { printf " %s..%s", r[1], r[NR] }' "$TMP/mx.ratios")
got=$(awk 'NR == 3 { print $5, $6, $7, $13 }' "$TMP/mx/matrix/table")
check "matrix: SEEDS=\"3 2 1\": the line is the median seed's run, the range its lowest..highest ratio ($want)" \
	test "$got" = "$want"
check "matrix: the seeds' ratios differ (BFQ), so the median is a choice" \
	test "$(cut -d' ' -f1 "$TMP/mx.ratios" | sort -u | wc -l)" -gt 1
check "matrix: table.jsonl holds the line as a record: the median seed's fractions, ratio and range" \
	test "$(awk "$(cat "$HERE/../scripts/json.awk")"'
		{ jparse($0, r); print r["ours"], r["pristine"], r["ratio"], r["lo"] ".." r["hi"] }' \
		"$TMP/mx/matrix/table.jsonl")" = "$got"
mx 2
f=$TMP/mx/matrix/report7-bfq-2-sync-4k.seed2
check "matrix: one seed: that run's fractions, no range column" \
	test "$(awk 'NR == 3 { print $5, $6, NF }' "$TMP/mx/matrix/table")" = \
	"$(jfield "$f" ours fraction) $(jfield "$f" pristine fraction) 12"
cp "$TMP/mx/matrix/table" "$TMP/mx.table"
mxbad() { # SEEDS expected-stderr
	mx "$1"
	echo $? > "$TMP/mx.rc"
	check "matrix: SEEDS=\"$1\": refused, exit 2, the table of the run before kept" \
		sh -c "test \$(cat $TMP/mx.rc) = 2 && test \"\$(cat $TMP/mx.err)\" = \"$2\" && \
		       cmp -s $TMP/mx.table $TMP/mx/matrix/table"
}
mxbad "1 x" "matrix.sh: SEEDS: 'x' is not a seed (allowed: 0 to 9999999999999999999)"
mxbad "18446744073709551616" "matrix.sh: SEEDS: '18446744073709551616' is not a seed (allowed: 0 to 9999999999999999999)"
mxbad " " "matrix.sh: SEEDS: no seed given (allowed: seeds 0 to 9999999999999999999)"
# A run that fails (here: pristine's side dies) stops the matrix.
mkdir "$TMP/mxf"
printf '#!/bin/sh\n[ "$2" = 2 ] && { "%s" --impl ours "$@"; exit 1; }\nexec "%s" "$@"\n' "$SIM" "$SIM" > "$TMP/mxf/ra_sim"
chmod +x "$TMP/mxf/ra_sim"
OUT=$TMP/mxf SIZE=2m SHAPES=report7 ELEVATORS=bfq CPUS=2 ROWS=sync-4k \
	SEEDS="1 2 3" sh "$HERE/matrix.sh" > "$TMP/mxf.out" 2> "$TMP/mxf.err"
echo $? > "$TMP/mxf.rc"
check "matrix: a run that fails (seed 2): exit non-zero, named on stderr, no table" \
	sh -c "test \$(cat $TMP/mxf.rc) != 0 && \
	       grep -q '^matrix.sh: ra_sim failed on report7 bfq 2 CPUs sync-4k seed 2 ' $TMP/mxf.err && \
	       test ! -e $TMP/mxf/matrix/table"
