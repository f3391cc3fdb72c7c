#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# The simulator's tests: determinism, conservation, the physical limit,
# the analytic single-stream case, job and machine file errors, and the
# sanitized build on every scenario.  Scenarios are scaled down.  Ends
# with "sim: N passed, N failed"; exits non-zero on any failure.
#
#   OUT=<build dir> tests/run.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$HERE/../../../../build/sim}
SIM=$OUT/ra_sim
ASAN=$OUT/ra_sim_asan
SC=$HERE/scenarios
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
passed=0
failed=0

ok() { passed=$((passed + 1)); echo "ok   $1"; }
fail() { failed=$((failed + 1)); echo "FAIL $1"; }
check() { # name, then a command that must succeed
	name=$1
	shift
	if "$@"; then ok "$name"; else fail "$name"; fi
}

# run NAME MACHINE JOBS DEFINES... : both implementations into $TMP/NAME
run() {
	name=$1 machine=$2 jobs=$3
	shift 3
	defs=
	for d in "$@"; do defs="$defs --define $d"; done
	# shellcheck disable=SC2086
	"$SIM" $defs "$SC/$machine" "$SC/$jobs" > "$TMP/$name.out" \
		2> "$TMP/$name.err"
}

field() { # file impl key: a summary field
	grep "^summary: impl=$2 " "$1" | tr ' ' '\n' | sed -n "s/^$3=//p"
}

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

# ---- errors in job and machine files: exact message, nothing runs ----
printf '[system]\nmemory=64m\n[disk sda]\n' > "$TMP/m.disks"
experr() { # name, jobfile text, expected stderr (with FILE for the path)
	printf "$2" > "$TMP/$1.fio"
	want=$(printf '%s' "$3" | sed "s|FILE|$TMP/$1.fio|")
	"$SIM" "$TMP/m.disks" "$TMP/$1.fio" > "$TMP/$1.o" 2> "$TMP/$1.e"
	rc=$?
	got=$(cat "$TMP/$1.e")
	if [ $rc = 1 ] && [ ! -s "$TMP/$1.o" ] && [ "$got" = "$want" ]; then
		ok "job file error: $1"
	else
		fail "job file error: $1 (rc=$rc, got '$got', want '$want')"
	fi
}
J='[j]\nfilename=/mnt/sda1/f\nsize=1m\n'
experr unknown "${J}foo=1\n" "FILE:4: unknown option 'foo'"
experr malformed "[j]\n=5\n" "FILE:2: malformed line"
experr badvalue "[j]\nrw=write\n" "FILE:2: bad value 'write' for option 'rw'"
experr badsize "[global]\nbs=4q\n" "FILE:2: bad value '4q' for option 'bs'"
experr outside "bs=4k\n" "FILE:1: option outside a section"
experr header "[j\n" "FILE:1: malformed section header"
experr undefined "[j]\nsize=\${NOPE}\n" "FILE:2: undefined variable \${NOPE}"
experr nofile "[j]\nsize=1m\n" "FILE:1: job 'j': no filename"
experr nosize "[a]\nfilename=/mnt/sda1/f\n[b]\n" "FILE:1: job 'a': no size"
experr nopart "[j]\nfilename=/data/x\nsize=1m\n" \
	"FILE:2: filename /data/x: no partition is mounted there"
experr nojobs "[global]\nbs=4k\n" "FILE: no jobs"

diskerr() { # name, machine text, expected stderr
	printf "$2" > "$TMP/$1.disks"
	want=$(printf '%s' "$3" | sed "s|FILE|$TMP/$1.disks|")
	"$SIM" "$TMP/$1.disks" "$SC/single.fio" > "$TMP/$1.o" 2> "$TMP/$1.e"
	rc=$?
	got=$(cat "$TMP/$1.e")
	if [ $rc = 1 ] && [ ! -s "$TMP/$1.o" ] && [ "$got" = "$want" ]; then
		ok "machine file error: $1"
	else
		fail "machine file error: $1 (rc=$rc, got '$got', want '$want')"
	fi
}
diskerr dunknown "[disk sda]\nspeed=5\n" "FILE:2: unknown option 'speed'"
diskerr dname "[disk sda..sd]\n" "FILE:1: bad disk name 'sda..sd'"
diskerr dvalue "[disk sda]\nelevator=cfq\n" \
	"FILE:2: bad value 'cfq' for option 'elevator'"
diskerr dsection "[controller]\n" "FILE:1: unknown section 'controller'"

# ---- the sanitized build, every scenario, both sides ----
asan() { # name machine jobs defines...
	name=$1 machine=$2 jobs=$3
	shift 3
	defs=
	for d in "$@"; do defs="$defs --define $d"; done
	# shellcheck disable=SC2086
	check "asan: $name" sh -c "$ASAN $defs $SC/$machine $SC/$jobs \
		> $TMP/asan.out 2>&1 && \
		test \$(grep -c '^Checks: .*: ok\$' $TMP/asan.out) = 2"
}
asan seq4k jbod13.disks jbod13-seq.fio BS=4k SIZE=4m
asan seq128k jbod13.disks jbod13-seq.fio BS=128k SIZE=4m
asan mmap jbod7.disks jbod7-mmap.fio BS=4k SIZE=4m
asan random random.disks random.fio BS=4k SIZE=300m THREADS=4
asan single single.disks single.fio BS=1m SIZE=64m

echo "sim: $passed passed, $failed failed"
[ "$failed" = 0 ]
