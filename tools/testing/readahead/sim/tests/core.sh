# SPDX-License-Identifier: GPL-2.0
#
# core.sh - the simulator's tests: determinism, conservation, memory and the limit on every scenario, the analytic case.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- determinism ----
run det1 jbod13.disks jbod13-seq.fio BS=4k SIZE=16m
run det2 jbod13.disks jbod13-seq.fio BS=4k SIZE=16m
check "determinism: two runs, identical reports" \
	sh -c "grep -v '^engine:' $TMP/det1.out > $TMP/a; \
	       grep -v '^engine:' $TMP/det2.out > $TMP/b; \
	       test -s $TMP/a && cmp -s $TMP/a $TMP/b"
"$SIM" --define BS=4k --define SIZE=8m --trace "$TMP/t1" \
	"$SC/jbod7.disks" "$SC/jbod7-mmap.fio" > /dev/null
"$SIM" --define BS=4k --define SIZE=8m --trace "$TMP/t2" \
	"$SC/jbod7.disks" "$SC/jbod7-mmap.fio" > /dev/null
for impl in ours pristine; do
	check "determinism: identical $impl traces" \
		sh -c "test -s $TMP/t1.$impl && cmp -s $TMP/t1.$impl $TMP/t2.$impl"
done
"$SIM" --seed 7 --define BS=4k --define SIZE=16m "$SC/jbod13.disks" \
	"$SC/jbod13-seq.fio" > "$TMP/seed7.out"
check "determinism: another seed, another run" \
	sh -c "! cmp -s $TMP/det1.out $TMP/seed7.out"
check "trace lines in the debugfs format" \
	sh -c "grep -c '^readahead-[a-z0-9]*(pid=[0-9]*(fio), dev=[0-9a-f][0-9a-f]:[0-9a-f][0-9a-f]([a-z0-9]*), ino=[0-9]*([^)]*), req=[0-9]*+[0-9]*, ra=[0-9]*+[0-9]*-[0-9]*, async=[01], miss=[0-9]*) = [0-9]*\$' $TMP/t1.ours | grep -qv '^0\$' && \
	       ! grep -v '^readahead-' $TMP/t1.ours $TMP/t1.pristine"

# ---- --json: the summary as a record, the same keys and values ----
"$SIM" --define BS=4k --define SIZE=8m --json "$TMP/j" \
	"$SC/jbod7.disks" "$SC/jbod7-mmap.fio" > "$TMP/j.out"
for impl in ours pristine; do
	check "--json: the record of $impl holds its summary line's keys and values, and the seed" \
		test "$(awk "$(cat "$HERE/../scripts/json.awk")"'
			{ n = jparse($0, r); printf "summary: impl=%s", r["impl"]
			  # the members in the order written (seed second)
			  line = $0; sub(/^\{"impl": "[^"]*", "seed": [0-9]+, /, "", line)
			  gsub(/"/, "", line); gsub(/: /, "=", line); gsub(/, /, " ", line)
			  sub(/\}$/, "", line); print " " line }' "$TMP/j.$impl")" = \
		"$(grep "^summary: impl=$impl " "$TMP/j.out")"
done
check "--json: a record a line, one a side, with the run's seed" \
	test "$(cat "$TMP/j.ours" "$TMP/j.pristine" | wc -l) $(jfield "$TMP/j.ours" ours seed)" = "2 1"

# ---- conservation, memory, the limit: every scenario, both sides ----
run seq4k jbod13.disks jbod13-seq.fio BS=4k SIZE=32m
run seq64k jbod13.disks jbod13-seq.fio BS=64k SIZE=32m
run seq128k jbod13.disks jbod13-seq.fio BS=128k SIZE=32m
run mmap jbod7.disks jbod7-mmap.fio BS=4k SIZE=16m
run single single.disks single.fio BS=1m SIZE=256m
run rand1 random.disks random.fio BS=4k SIZE=512m THREADS=1
run rand4 random.disks random.fio BS=32k SIZE=512m THREADS=4
for s in seq4k seq64k seq128k mmap single rand1 rand4; do
	f=$TMP/$s.out
	check "$s: both sides ran" \
		sh -c "test \$(grep -c '^summary:' $f) = 2"
	check "$s: bytes delivered = requested, none past EOF, none read twice" \
		sh -c "test \$(grep -c '^Checks: .*: ok\$' $f) = 2 && \
		       ! grep -q 'past_eof=[1-9]\|reread_cached=[1-9]' $f"
	check "$s: page cache within memory" \
		sh -c "grep '^Page cache:' $f | \
		       awk '{ sub(/memory=/, \"\", \$3); sub(/peak=/, \"\", \$5); \
			      sub(/,/, \"\", \$5); if (\$5 + 0 > \$3 + 0) exit 1 }' && \
		       grep '^Page cache:' $f | grep -q 'overcommit=0\$'"
	for impl in ours pristine; do
		check "$s/$impl: cold cache stays under the disks' bandwidth" \
			awk -v d="$(field "$f" $impl disk_mbps)" \
			    -v l="$(field "$f" $impl limit_mbps)" \
			    -v x="$(field "$f" $impl fraction)" \
			    'BEGIN { exit !(d > 0 && d <= l && x <= 1.0) }'
	done
done
check "random reads of a file larger than memory evict" \
	sh -c "grep '^Page cache:' $TMP/rand1.out | grep -qv 'evicted=0,'"

# ---- the analytic case: one stream, one disk, large windows ----
for impl in ours pristine; do
	check "single/$impl: within 2% of the disk model's formula" \
		awk -v a="$(field "$TMP/single.out" $impl app_mbps)" \
		    -v m="$(field "$TMP/single.out" $impl model_mbps)" \
		    'BEGIN { d = a - m; if (d < 0) d = -d; exit !(m > 0 && d <= 0.02 * m) }'
done
