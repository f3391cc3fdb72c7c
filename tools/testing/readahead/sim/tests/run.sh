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
#   OUT=<build dir> tests/run.sh
set -u
HERE=$(cd "$(dirname "$0")/.." && pwd)
OUT=${OUT:-$HERE/../../../../build/sim}
# Absolute: the Makefile's default is relative to sim/, and the matrix
# tests link $SIM from another directory.
OUT=$(cd "$OUT" && pwd)
SIM=$OUT/ra_sim
ASAN=$OUT/ra_sim_asan
SC=$HERE/scenarios
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
. "$HERE/../scripts/tap.sh"
tap_begin

ok() { tap_ok "$1"; }
fail() { tap_not_ok "$1"; }
check() { tap_check "$@"; }

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
	timeout 10 "$SIM" "$TMP/m.disks" "$TMP/$1.fio" > "$TMP/$1.o" \
		2> "$TMP/$1.e"
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
	timeout 10 "$SIM" "$TMP/$1.disks" "$TMP/ok.fio" > "$TMP/$1.o" \
		2> "$TMP/$1.e"
	rc=$?
	got=$(cat "$TMP/$1.e")
	if [ $rc = 1 ] && [ ! -s "$TMP/$1.o" ] && [ "$got" = "$want" ]; then
		ok "machine file error: $1"
	else
		fail "machine file error: $1 (rc=$rc, got '$got', want '$want')"
	fi
}
printf '[j]\nfilename=/mnt/sda1/f\nsize=1m\n' > "$TMP/ok.fio"
diskerr dunknown "[disk sda]\nspeed=5\n" "FILE:2: unknown option 'speed'"
diskerr dname "[disk sda..sd]\n" "FILE:1: bad disk name 'sda..sd'"
diskerr dvalue "[disk sda]\nelevator=as\n" \
	"FILE:2: bad value 'as' for option 'elevator' (allowed: noop, sort, cfq, mq-deadline, bfq)"
diskerr dtunable "[disk sda]\nslice_idle=8\nelevator=cfq\n" \
	"FILE:2: unknown option 'slice_idle' for elevator=sort (set elevator= before its tunables; sort's: none)"
diskerr dtunable2 "[disk sda]\nelevator=mq-deadline\nslice_idle=8\n" \
	"FILE:3: unknown option 'slice_idle' for elevator=mq-deadline (set elevator= before its tunables; mq-deadline's: read_expire fifo_batch front_merges)"
diskerr dtunrange "[disk sda]\nelevator=cfq\nslice_idle=1001\n" \
	"FILE:3: bad value '1001' for option 'slice_idle' (allowed: 0 to 1000)"
diskerr dcpus "[system]\ncpus=4097\n" \
	"FILE:2: bad value '4097' for option 'cpus' (allowed: 0 to 4096)"
diskerr dsection "[controller]\n" "FILE:1: unknown section 'controller'"
diskerr dqdepth0 "[disk sda]\nqueue_depth=0\n" \
	"FILE:2: bad value '0' for option 'queue_depth' (allowed: 1 to 4096)"
diskerr dqdepth "[disk sda]\nqueue_depth=4097\n" \
	"FILE:2: bad value '4097' for option 'queue_depth' (allowed: 1 to 4096)"
diskerr dnrreq "[disk sda]\nnr_requests=65537\n" \
	"FILE:2: bad value '65537' for option 'nr_requests' (allowed: 0 to 65536)"
diskerr dhwq "[disk sda]\nhw_queues=65\n" \
	"FILE:2: bad value '65' for option 'hw_queues' (allowed: 0 to 64)"
diskerr dnrreqneg "[disk sda]\nnr_requests=-1\n" \
	"FILE:2: bad value '-1' for option 'nr_requests'"
diskerr dfiomain "[system]\nfio_main_ms=60001\n" \
	"FILE:2: bad value '60001' for option 'fio_main_ms' (allowed: 0 to 60000)"
diskerr dfiofork "[system]\nfio_fork_us=2e6\n" \
	"FILE:2: bad value '2e6' for option 'fio_fork_us' (allowed: 0 to 1000000)"

# ---- numbers out of range: every one has a range, and the error names it.
# Before, the first two hung (the saturated or near-2^64 size wrapped the
# sector count to 0), offset=2^64-1 ran and printed bw=-nanMiB/s, and
# syscall_us=1e300 and a thinktime in seconds that wraps were taken. ----
R='(allowed: 1 to 64t)'
experr hugesize "[j]\nfilename=/mnt/sda1/f\nsize=99999999999999999999999\n" \
	"FILE:3: bad value '99999999999999999999999' for option 'size' $R"
experr wrapsize "[j]\nfilename=/mnt/sda1/f\nsize=18446744073709551105\n" \
	"FILE:3: bad value '18446744073709551105' for option 'size' $R"
experr bigsize "${J}size=65t\n" "FILE:4: bad value '65t' for option 'size' $R"
experr hugeoffset "${J}offset=18446744073709551615\n" \
	"FILE:4: bad value '18446744073709551615' for option 'offset' (allowed: 0 to 64t)"
experr pastdisk "[j]\nfilename=/mnt/sda1/f\noffset=64t\nsize=1m\n" \
	"FILE:1: job 'j': offset+size 70368744177664+1048576 is past the end of sda1 (allowed: up to 322121498624 bytes)"
experr hugebs "${J}bs=2g\n" "FILE:4: bad value '2g' for option 'bs' (allowed: 512 to 1g)"
experr oddbs "${J}bs=1000\n" "FILE:4: bad value '1000' for option 'bs' (allowed: a multiple of 512)"
experr hugenumjobs "${J}numjobs=99999999999999999999\n" \
	"FILE:4: bad value '99999999999999999999' for option 'numjobs' (allowed: 1 to 4096)"
experr wrapthink "${J}thinktime=18446744073710s\n" \
	"FILE:4: bad value '18446744073710s' for option 'thinktime' (allowed: 0 to 3600s)"
experr hugecached "${J}pre_cached=17000000000000000000\n" \
	"FILE:4: bad value '17000000000000000000' for option 'pre_cached' (allowed: 0 to 64t)"
diskerr dsyscall "[system]\nsyscall_us=1e300\n[disk sda]\n" \
	"FILE:2: bad value '1e300' for option 'syscall_us' (allowed: 0 to 1000000)"
diskerr dinf "[system]\nfault_us=1e400\n[disk sda]\n" \
	"FILE:2: bad value '1e400' for option 'fault_us' (allowed: 0 to 1000000)"
diskerr dmemory "[system]\nmemory=1t\n[disk sda]\n" \
	"FILE:2: bad value '1t' for option 'memory' (allowed: 1m to 256g)"
diskerr dseed "[system]\nseed=99999999999999999999\n[disk sda]\n" \
	"FILE:2: bad value '99999999999999999999' for option 'seed' (allowed: 0 to 18446744073709551615)"
diskerr dseek "[disk sda]\nseek_ms=1e300\n" \
	"FILE:2: bad value '1e300' for option 'seek_ms' (allowed: 0 to 1000)"
diskerr drpm "[disk sda]\nrpm=99999999999999999999999\n" \
	"FILE:2: bad value '99999999999999999999999' for option 'rpm' (allowed: 1000 to 30000)"
diskerr dcapacity "[disk sda]\ncapacity=65t\n" \
	"FILE:2: bad value '65t' for option 'capacity' (allowed: 1m to 64t)"
diskerr dfailbig "[disk sda]\nfail_sectors=0-18446744073709551615\n" \
	"FILE:2: bad value '0-18446744073709551615' for option 'fail_sectors' (allowed: sectors 0 to 137438953471)"

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
# BFQ's processes past its first 16 (the table grew by realloc, moving the
# processes its queues point at): fio's main process and 20 readers of
# one file, whose queues are merged after the 17th process arrived.
printf '[system]\nmemory=256m\nseed=1\ncpus=2\nfio_main_ms=500\nfio_fork_us=2000\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\nelevator=bfq\n' > "$TMP/many.disks"
printf '[global]\nrw=read\nbs=128k\nsize=16m\nioengine=psync\ninvalidate=0\n\n[f0]\nfilename=/mnt/sda/f0\nnumjobs=20\n' > "$TMP/many.fio"
check "asan: bfq: 21 processes on one disk, queues merged after the 17th, checks hold (both)" \
	sh -c "$ASAN $TMP/many.disks $TMP/many.fio > $TMP/asan.out 2>&1 && \
	       test \$(grep -c '^Checks: .*: ok\$' $TMP/asan.out) = 2"

# ---- I/O errors: a disk that fails reads of sectors 10048-10111 ----
# The file starts at sector 2048: its pages 1000-1007 are bad.
sect() { # file impl: that implementation's report
	awk -v i="$2" '/^ra_sim: impl=/ { on = ($2 == "impl=" i) } on' "$1"
}
# eio NAME DISKS DEFINES...: both sides, output and traces in $TMP/NAME*
eio() {
	en=$1 machine=$2
	shift 2
	defs=
	for d in "$@"; do defs="$defs --define $d"; done
	# shellcheck disable=SC2086
	timeout 60 "$SIM" $defs --trace "$TMP/$en" "$machine" \
		"$SC/eio.fio" > "$TMP/$en.out" 2> "$TMP/$en.err"
	echo $? > "$TMP/$en.rc"
}
# expect NAME WHAT PATTERN...: every pattern is a line of both reports
expect() {
	en=$1 what=$2
	shift 2
	good=1
	for impl in ours pristine; do
		sect "$TMP/$en.out" $impl > "$TMP/$en.$impl.txt"
		for pat in "$@"; do
			grep -qx -- "$pat" "$TMP/$en.$impl.txt" || {
				good=0
				echo "  $impl: no line '$pat'"
			}
		done
	done
	check "eio: $en: $what" sh -c "[ $good = 1 ] && \
		[ \$(cat $TMP/$en.rc) = 0 ] && \
		[ \$(grep -c '^Checks: .*: ok\$' $TMP/$en.out) = 2 ]"
	for impl in ours pristine; do
		echo "     $impl: $(grep -m1 '^    errors:' "$TMP/$en.$impl.txt" | sed 's/^ *//')"
	done
}
E=$SC/eio.disks
ER='(func=io_u error, error=Input/output error)'
eio one4k "$E" BS=4k SIZE=8m JOBS=1 COE=read ENGINE=sync
expect one4k "4 KB reads, continue_on_error: EIO for pages 1000-1007 only, delivered = requested - 32 KB, ra_pages 64 -> 0" \
	"eio: (groupid=0, jobs=1): err= 5 $ER: pid=1000" \
	"    errors: 8 (pages 1000..1007), failed=32768 bytes, read_folio=64 (8 failed), ra_pages=64->0" \
	"  sda   I/O errors: 9 requests failed, 72 pages (fail_sectors=10048-10111)" \
	"Checks: requested=8388608 delivered=8355840 failed=32768 past_eof=0 reread_cached=0 copied_not_uptodate=0: ok"
# The window 956+64 fails whole; 1020+64 was read; then ra_pages is 0:
# the marker at 1020 starts nothing and pages 1084-2047 are read one by
# one (964 forced single-page readaheads).
for impl in ours pristine; do
	t=$TMP/one4k.$impl
	check "eio: one4k/$impl: after the errors readahead is one page at a time (964 of them from page 1084)" \
		sh -c "grep -q 'req=956+1, ra=1020+64-64, async=1) = 64\$' $t && \
		       test \$(grep -c 'ra=[0-9]*+1-0, async=0) = 1\$' $t) = 964 && \
		       sed -n '/req=956+1,/,\$p' $t | sed 1,2d | \
		       grep -v 'ra=[0-9]*+1-0, async=0) = 1\$' | wc -l | grep -qx 0 && \
		       grep -m1 'ra=[0-9]*+1-0' $t | grep -q 'req=1084+1,'"
done

printf '[disk sda]\nread_ahead_kb=128\nfail_sectors=10050-10050\n' \
	> "$TMP/onesector.disks"
eio sector "$TMP/onesector.disks" BS=4k SIZE=8m JOBS=1 COE=read ENGINE=sync
expect sector "one bad sector: EIO for page 1000 alone, one shrink (ra_pages 64 -> 16)" \
	"    errors: 1 (pages 1000..1000), failed=4096 bytes, read_folio=64 (1 failed), ra_pages=64->16" \
	"Checks: requested=8388608 delivered=8384512 failed=4096 past_eof=0 reread_cached=0 copied_not_uptodate=0: ok"
# 6.1's subsequent window is max(size, next size): a running stream keeps
# its 64 pages although ra_pages is 16 now.  Ours honours the lowered
# maximum: every window after the error is 16 pages.
check "eio: sector/pristine: a running stream keeps its window after a shrink to 16 (6.1's max(size, next))" \
	sh -c "grep -q 'req=1020+1, ra=1084+64-64, async=1) = 64\$' $TMP/sector.pristine && \
	       ! sed -n '/req=1020+1,/,\$p' $TMP/sector.pristine | \
		 grep -v 'ra=[0-9]*+64-64, async=1)'"
check "eio: sector/ours: windows shrink to the new maximum of 16 pages after the error" \
	sh -c "grep -q 'req=1020+1, ra=1084+16-16, async=1) = 16\$' $TMP/sector.ours && \
	       ! sed -n '/req=1020+1,/,\$p' $TMP/sector.ours | \
		 grep -v 'ra=[0-9]*+16-16, async=1)'"

eio stop "$E" BS=4k SIZE=8m JOBS=1 COE=none ENGINE=sync
expect stop "fio's default: the job stops at its first error (page 1000), 4000 KB delivered" \
	"eio: (groupid=0, jobs=1): err= 5 $ER: pid=1000" \
	"    errors: 1 (pages 1000..1000), failed=4096 bytes, read_folio=45 (1 failed), ra_pages=64->16" \
	"Checks: requested=4100096 delivered=4096000 failed=4096 past_eof=0 reread_cached=0 copied_not_uptodate=0: ok"

eio short "$E" BS=64k SIZE=8m JOBS=1 COE=read ENGINE=sync
expect short "64 KB reads: a short read to page 1000, then EIO for the rest of that block; two failed re-reads (64 -> 4)" \
	"    errors: 1 (pages 1000..1000), failed=32768 bytes, read_folio=58 (2 failed), ra_pages=64->4" \
	"Checks: requested=8388608 delivered=8355840 failed=32768 past_eof=0 reread_cached=0 copied_not_uptodate=0: ok"

eio four "$E" BS=4k SIZE=8m JOBS=4 COE=read ENGINE=sync
expect four "4 readers of the file: each gets EIO for pages 1000-1007, nothing else" \
	"eio.0: (groupid=0, jobs=1): err= 5 $ER: pid=1000" \
	"    errors: 8 (pages 1000..1007), failed=32768 bytes, read_folio=64 (8 failed), ra_pages=64->0" \
	"    errors: 8 (pages 1000..1007), failed=32768 bytes, read_folio=8 (8 failed), ra_pages=64->0" \
	"Checks: requested=33554432 delivered=33423360 failed=131072 past_eof=0 reread_cached=0 copied_not_uptodate=0: ok"
check "eio: four: each of the 4 readers reports exactly 8 errors (both sides)" \
	sh -c "test \$(grep -c '^    errors: 8 (pages 1000..1007), failed=32768 bytes' $TMP/four.out) = 8"

eio mmap4 "$E" BS=4k SIZE=8m JOBS=4 COE=read ENGINE=mmap
expect mmap4 "4 mmap readers: SIGBUS at page 1000 for each, after 4000 KB" \
	"eio.3: (groupid=0, jobs=1): err= 7 (signal, error=Bus error): pid=1003" \
	"Checks: requested=16400384 delivered=16384000 failed=16384 past_eof=0 reread_cached=0 copied_not_uptodate=0: ok"
check "eio: mmap4: every reader got SIGBUS at page 1000 (both sides)" \
	sh -c "test \$(grep -c '^    errors: 1 (pages 1000..1000), failed=4096 bytes, read_folio=[0-9]* (1 failed), ra_pages=64->16\$' $TMP/mmap4.out) = 8"

eio det "$E" BS=4k SIZE=8m JOBS=4 COE=read ENGINE=sync
check "eio: determinism: the same run twice, identical reports" \
	sh -c "grep -v '^engine:' $TMP/four.out > $TMP/a; \
	       grep -v '^engine:' $TMP/det.out > $TMP/b; cmp -s $TMP/a $TMP/b"
for v in "4k 4 sync" "4k 2 mmap" "64k 1 sync"; do
	# shellcheck disable=SC2086
	set -- $v
	check "asan: eio bs=$1 jobs=$2 $3" sh -c "timeout 60 $ASAN \
		--define BS=$1 --define SIZE=8m --define JOBS=$2 \
		--define COE=read --define ENGINE=$3 $E $SC/eio.fio \
		> $TMP/asan.out 2>&1 && \
		test \$(grep -c '^Checks: .*: ok\$' $TMP/asan.out) = 2"
done
diskerr dfail1 "[disk sda]\nfail_sectors=100\n" \
	"FILE:2: bad value '100' for option 'fail_sectors'"
diskerr dfail2 "[disk sda]\nfail_sectors=9-3\n" \
	"FILE:2: bad value '9-3' for option 'fail_sectors'"
experr coe "${J}continue_on_error=maybe\n" \
	"FILE:4: bad value 'maybe' for option 'continue_on_error'"

# ---- memory pressure: 64 MB of cache, read_ahead_kb=4096, 32 and 128
# sequential streams on 4 disks (windows of 8 MB each, nominally) ----
# Bounds ours holds: application >= 0.50 of the disks' limit and at most
# 1% of the pages read ahead evicted unread with 32 streams; >= 0.40 and
# at most 10% with 128.  Pristine 6.1's figures are printed beside.
pressure() { # name jobs size bound_fraction bound_unused
	"$SIM" --define BS=64k --define SIZE="$3" "$SC/pressure.disks" \
		"$SC/$2" > "$TMP/$1.out"
	for impl in ours pristine; do
		echo "     $impl: app_fraction=$(field "$TMP/$1.out" $impl app_fraction) disk_fraction=$(field "$TMP/$1.out" $impl fraction) read_ahead=$(field "$TMP/$1.out" $impl read_ahead) evicted_unused=$(field "$TMP/$1.out" $impl evicted_unused) unused_fraction=$(field "$TMP/$1.out" $impl unused_fraction)"
	done
	check "pressure: $1: ours keeps >= $4 of the limit, <= $5 of read-ahead pages evicted unused, within memory" \
		awk -v a="$(field "$TMP/$1.out" ours app_fraction)" \
		    -v u="$(field "$TMP/$1.out" ours unused_fraction)" \
		    -v ok="$(sect "$TMP/$1.out" ours | grep -c '^Checks: .*: ok$')" \
		    'BEGIN { exit !(a >= '"$4"' && u <= '"$5"' && ok == 1) }'
	# Pristine 6.12's windows of 8 MB: at press32 it delivers 0.587 of the
	# limit, with a quarter of what it reads evicted unused.
	check "pressure: $1: ours delivers at least 99% of pristine 6.12 and wastes less" \
		awk -v a="$(field "$TMP/$1.out" ours app_fraction)" \
		    -v b="$(field "$TMP/$1.out" pristine app_fraction)" \
		    -v u="$(field "$TMP/$1.out" ours unused_fraction)" \
		    -v v="$(field "$TMP/$1.out" pristine unused_fraction)" \
		    'BEGIN { exit !(a >= 0.99 * b && u < v) }'
}
pressure press32 pressure.fio 64m 0.50 0.01
sect "$TMP/press32.out" ours > "$TMP/press32.ours.txt"
# A read the reader waits for is never refused: when every page at the
# LRU's old end is under I/O it goes over memory (overcommit).  Ours'
# windows take at most 1/128 of memory each, pristine 6.12's 8 MB.
sect "$TMP/press32.out" pristine > "$TMP/press32.pristine.txt"
overcommit() { sed -n 's/^Page cache: .*overcommit=\([0-9]*\)$/\1/p' "$1"; }
check "pressure: press32: ours goes over memory less often than pristine 6.12 ($(overcommit "$TMP/press32.ours.txt") against $(overcommit "$TMP/press32.pristine.txt") allocations)" \
	test "$(overcommit "$TMP/press32.ours.txt")" -lt \
	     "$(overcommit "$TMP/press32.pristine.txt")"
pressure press128 pressure128.fio 16m 0.40 0.10

# ---- a memory cgroup: the same streams on a 4 GB machine, in a cgroup of
# 64 MB (memory.max) ----
# Ours bounds its windows by the cgroup's limit as by a machine's memory:
# its runs are those of the 64 MB machine, page for page; pristine 6.12
# sizes windows by read_ahead_kb alone.
memcg() { # name jobs size: against the pressure run of that name
	"$SIM" --define BS=64k --define SIZE="$3" "$SC/memcg.disks" \
		"$SC/$2" > "$TMP/memcg-$1.out"
	check "memory cgroup: $1: ours reads as on a machine of the cgroup's size" \
		test "$(grep '^summary: impl=ours ' "$TMP/memcg-$1.out")" = \
		     "$(grep '^summary: impl=ours ' "$TMP/$1.out")"
	check "memory cgroup: $1: ours delivers more than pristine 6.12 ($(field "$TMP/memcg-$1.out" ours app_mbps) against $(field "$TMP/memcg-$1.out" pristine app_mbps) MB/s) and reads less than 1.1 times what it uses ($(field "$TMP/memcg-$1.out" ours disk_mbps) MB/s from the disks)" \
		awk -v a="$(field "$TMP/memcg-$1.out" ours app_mbps)" \
		    -v b="$(field "$TMP/memcg-$1.out" pristine app_mbps)" \
		    -v d="$(field "$TMP/memcg-$1.out" ours disk_mbps)" \
		    'BEGIN { exit !(a > b && d < 1.1 * a) }'
}
memcg press32 pressure.fio 64m
memcg press128 pressure128.fio 16m

# ---- the 2014 trap: a half-cached file reads faster than the disk ----
trap_run() { # name size cached invalidate
	"$SIM" --define SIZE="$2" --define CACHED="$3" --define INV="$4" \
		"$SC/single.disks" "$SC/trap.fio" > "$TMP/$1.out"
	for impl in ours pristine; do
		echo "     $impl: app_mbps=$(field "$TMP/$1.out" $impl app_mbps) limit_mbps=$(field "$TMP/$1.out" $impl limit_mbps) app_fraction=$(field "$TMP/$1.out" $impl app_fraction)"
	done
}
trap_run cold 256m 128m 1
check "trap: cold read (invalidate=1 drops the cached half): never above the limit, no warning" \
	sh -c "awk -v a=$(field "$TMP/cold.out" ours app_fraction) \
		   -v b=$(field "$TMP/cold.out" pristine app_fraction) \
		   -v c=$(field "$TMP/cold.out" ours distinct_fraction) \
		   -v d=$(field "$TMP/cold.out" pristine distinct_fraction) \
		   'BEGIN { exit !(a <= 1.0 && b <= 1.0 && c <= 1.0 && d <= 1.0) }' && \
	       ! grep -q WARNING $TMP/cold.out"
trap_run half 256m 128m 0
check "trap: half-cached file (invalidate=0): application above the limit, flagged" \
	sh -c "awk -v a=$(field "$TMP/half.out" ours app_fraction) \
		   -v b=$(field "$TMP/half.out" pristine app_fraction) \
		   'BEGIN { exit !(a > 1.0 && b > 1.0) }' && \
	       test \$(grep -c '^  WARNING: the readers got more distinct data than the disks can stream' $TMP/half.out) = 2"
check "trap: no warning for readers sharing files (jbod13: aggregate above the limit, distinct data below)" \
	sh -c "awk -v a=$(field "$TMP/seq4k.out" ours app_fraction) \
		   -v c=$(field "$TMP/seq4k.out" ours distinct_fraction) \
		   'BEGIN { exit !(a > 1.0 && c <= 1.0) }' && \
	       ! grep -q WARNING $TMP/seq4k.out"

# ---- MADV_SEQUENTIAL mmap readers that start mid-file: each fault that
# misses continues a stream (6.12 reads the window at each miss alone) ----
run seqhint random.disks mmap-hint-offset.fio
check "mmap MADV_SEQUENTIAL from mid-file: ours 59.2 MB/s in 508 KB requests, pristine 6.12 41.5 in 256 KB" \
	test "$(field "$TMP/seqhint.out" ours app_mbps) $(field "$TMP/seqhint.out" ours req_kb) $(field "$TMP/seqhint.out" pristine app_mbps) $(field "$TMP/seqhint.out" pristine req_kb)" = "59.2 508.0 41.5 256.0"

# ---- mmap without hints over a file four times memory (LKP's
# case-mmap-pread-rand and case-mmap-pread-seq shapes): random faults
# back off to the page alone, a sequential reader keeps its windows ----
disk_mb() { # file impl: megabytes read from the disks
	sect "$1" "$2" | awk '$1 == "from" && $2 == "disks" { print $5 }' |
		tr -d '('
}
run mmaprand random.disks mmap-rand.fio
rand_read="$(disk_mb "$TMP/mmaprand.out" ours) $(disk_mb "$TMP/mmaprand.out" pristine)"
echo "# mmap-rand: MB read from the disk for 268.4 MB touched, ours and pristine 6.12: $rand_read"
check "mmap random 4 KB faults, no hint: ours reads 291.9 MB for 268.4 MB touched (1.09 times; at most 1.5), pristine 6.12 6056.7 MB (22.6 times)" \
	test "$rand_read" = "291.9 6056.7"
run mmapseq random.disks mmap-seq.fio
check "mmap sequential 4 KB faults, no hint: ours streams as pristine 6.12 does (98.4 MB/s, one major fault)" \
	test "$(field "$TMP/mmapseq.out" ours app_mbps) $(field "$TMP/mmapseq.out" ours major_faults) $(field "$TMP/mmapseq.out" pristine app_mbps)" = "98.4 1 98.4"

# ---- the I/O schedulers, alone (tests/elv_test.c: every request takes
# 1000 us), on crafted request sequences "AT_US PID SECTOR NSECT": the
# exact dispatch order, times and idling ----
elv() { # name elevator-and-tunables requests expected
	printf "$3" | "$OUT/elv_test" $2 > "$TMP/elv.out" 2>&1
	printf "$4\n" > "$TMP/elv.want"
	if cmp -s "$TMP/elv.out" "$TMP/elv.want"; then
		ok "elevator: $1"
	else
		fail "elevator: $1"
		diff "$TMP/elv.out" "$TMP/elv.want" | sed 's/^/     /'
	fi
}
D='dispatch pid='
C='complete pid='
elv "noop: arrival order" noop '0 1 1000 8\n0 2 100 8\n0 3 5000 8\n0 1 200 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}2 sector=100 nsect=8\n2000 ${C}2 sector=100\n2000 ${D}3 sector=5000 nsect=8\n3000 ${C}3 sector=5000\n3000 ${D}1 sector=200 nsect=8\n4000 ${C}1 sector=200\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "sort: one way up from the head, then from the lowest" sort '0 1 1000 8\n0 2 100 8\n0 3 5000 8\n0 1 200 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}3 sector=5000 nsect=8\n2000 ${C}3 sector=5000\n2000 ${D}2 sector=100 nsect=8\n3000 ${C}2 sector=100\n3000 ${D}1 sector=200 nsect=8\n4000 ${C}1 sector=200\nidles=0 idle_us=0 preempts=0 qmerges=0"
# CFQ idles 8 ms on the process it served, even with another waiting: the
# process's next request at 2 ms goes first; the other waits until its idle
# runs out at 11 ms, then its own queue is idled on until 20 ms.
elv "cfq: slice_idle holds the disk for the served process" cfq '0 1 0 8\n100 2 100000 8\n2000 1 8 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n2000 ${D}1 sector=8 nsect=8\n3000 ${C}1 sector=8\n11000 ${D}2 sector=100000 nsect=8\n12000 ${C}2 sector=100000\nidles=3 idle_us=17000 preempts=0 qmerges=0"
elv "cfq: slice_idle=0 serves in turn" "cfq slice_idle=0" '0 1 0 8\n100 2 100000 8\n2000 1 8 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=100000 nsect=8\n2000 ${C}2 sector=100000\n2000 ${D}1 sector=8 nsect=8\n3000 ${C}1 sector=8\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "cfq: a close request of another process preempts the idle" cfq '0 1 0 8\n1500 2 8 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1500 ${D}2 sector=8 nsect=8\n2500 ${C}2 sector=8\nidles=2 idle_us=8500 preempts=1 qmerges=0"
# Pid 2's requests lie beyond pid 1's reach (8192 sectors before it has
# a seek mean): not a close cooperator, so pid 1 idles and pid 2 gets a
# new slice.  (A close pid 2 is served at once: elv_test --check.)
elv "cfq: fifo_expire_sync: a new slice starts with the expired oldest" "cfq fifo_expire_sync=1" '0 1 0 8\n0 2 90000 8\n0 2 10000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}2 sector=90000 nsect=8\n10000 ${C}2 sector=90000\n10000 ${D}2 sector=10000 nsect=8\n11000 ${C}2 sector=10000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
elv "cfq: nothing expired, the nearest to the head first" cfq '0 1 0 8\n0 2 90000 8\n0 2 10000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}2 sector=10000 nsect=8\n10000 ${C}2 sector=10000\n10000 ${D}2 sector=90000 nsect=8\n11000 ${C}2 sector=90000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
# mq-deadline: sector order in batches of fifo_batch; the oldest request
# is looked at only when a batch ends (read_expire 1.5 ms: expired at 2 ms).
elv "mq-deadline: batches in sector order, the expired oldest between them" "mq-deadline fifo_batch=2 read_expire=1.5" '0 1 100 8\n0 2 50 8\n0 3 200 8\n0 4 300 8\n' \
"0 ${D}1 sector=100 nsect=8\n1000 ${C}1 sector=100\n1000 ${D}3 sector=200 nsect=8\n2000 ${C}3 sector=200\n2000 ${D}2 sector=50 nsect=8\n3000 ${C}2 sector=50\n3000 ${D}4 sector=300 nsect=8\n4000 ${C}4 sector=300\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "mq-deadline: nothing expired, the batch goes on up" "mq-deadline fifo_batch=2" '0 1 100 8\n0 2 50 8\n0 3 200 8\n0 4 300 8\n' \
"0 ${D}1 sector=100 nsect=8\n1000 ${C}1 sector=100\n1000 ${D}3 sector=200 nsect=8\n2000 ${C}3 sector=200\n2000 ${D}4 sector=300 nsect=8\n3000 ${C}4 sector=300\n3000 ${D}2 sector=50 nsect=8\n4000 ${C}2 sector=50\nidles=0 idle_us=0 preempts=0 qmerges=0"
# BFQ (6.1's rules, elv-bfq.c).  low_latency=0 first: no weight raising.
# Queue merging (bfq_setup_cooperator()): pid 2's first request, 8
# sectors past where the queue in service (pid 1's) last dispatched, joins
# that queue while another queue (pid 3's) is busy: served next from it,
# no idle before it.  With pid 1's queue the one busy queue, 6.1 looks for
# no cooperator: pid 2 waits out the 8 ms idle on pid 1.
elv "bfq: a request close to the queue in service joins it (another queue busy)" "bfq low_latency=0" '0 1 0 8\n0 3 100000 8\n100 2 16 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=16 nsect=8\n2000 ${C}2 sector=16\n10000 ${D}3 sector=100000 nsect=8\n11000 ${C}3 sector=100000\nidles=2 idle_us=16000 preempts=0 qmerges=1"
elv "bfq: with one busy queue there is no merge" "bfq low_latency=0" '0 1 0 8\n100 2 16 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}2 sector=16 nsect=8\n10000 ${C}2 sector=16\nidles=2 idle_us=16000 preempts=0 qmerges=0"
# The queue whose next request is within 8192 sectors: pid 2's request
# 16 sectors past pid 3's waiting one joins pid 3's queue (served right
# after it); 20000 sectors past, it does not (its own turn, after an idle).
elv "bfq: a request close to a waiting queue's next one joins that queue" "bfq low_latency=0" '0 1 0 8\n0 3 200000 8\n100 2 200016 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}3 sector=200000 nsect=8\n10000 ${C}3 sector=200000\n10000 ${D}2 sector=200016 nsect=8\n11000 ${C}2 sector=200016\nidles=2 idle_us=16000 preempts=0 qmerges=1"
elv "bfq: a far request does not merge" "bfq low_latency=0" '0 1 0 8\n0 3 200000 8\n100 2 220000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n9000 ${D}3 sector=200000 nsect=8\n10000 ${C}3 sector=200000\n18000 ${D}2 sector=220000 nsect=8\n19000 ${C}2 sector=220000\nidles=3 idle_us=24000 preempts=0 qmerges=0"
# bfq_too_late_for_merging(): pid 1's queue, busy from 0 with 120
# requests, served for more than 100 ms takes no cooperator: pid 2's
# request (sector 5000, close) at 50 ms joins it and is served in its
# turn (at 120 ms), at 110 ms it does not (its own turn, at 137 ms).
for at in 50000:1:120000 110000:0:137000; do
	{ awk 'BEGIN { for (i = 0; i < 120; i++) printf "0 1 %d 8\n", i * 16 }'
	  echo "0 3 10000000 8"; echo "${at%%:*} 2 5000 8"; } |
		"$OUT/elv_test" bfq low_latency=0 > "$TMP/elvl.out"
	got=$(awk '/pid=2 .*nsect/ { d = $1 } /^idles/ { q = $NF } END { print d, q }' "$TMP/elvl.out")
	m=${at#*:}
	check "elevator: bfq: a queue served 100 ms since it got busy is too late to merge (pid 2 at ${at%%:*} us: qmerges=${m%%:*})" \
		test "$got" = "${at##*:} qmerges=${m%%:*}"
done
# Stable merging (bfq_do_or_sched_stable_merge()): pid 2's queue, created
# with pid 1's, merges with it at its first request 600 ms later however
# far apart, unless idling pays for it: one request every 20 ms (think
# time over slice_idle / 2) merges, one every 1 ms (short think time,
# I/O-bound, sequential) stays alone.
for g in 20000:1 1000:0; do
	{ echo "0 1 0 8"
	  awk -v g="${g%:*}" 'BEGIN { i = 0
		for (t = 0; t <= 640000; t += g) printf "%d 2 %d 8\n", t, 500000 + (i++) * 16 }'; } |
		"$OUT/elv_test" bfq low_latency=0 > "$TMP/elvs.out"
	check "elevator: bfq: stable merge 600 ms after creation unless idling pays (a request every ${g%:*} us: qmerges=${g#*:})" \
		test "$(tail -n 1 "$TMP/elvs.out" | sed 's/.* //')" = "qmerges=${g#*:}"
done
# Splitting: pid 2 joins pid 1's queue (as above), then pid 1's 24 far
# requests make that shared queue seeky; when it next expires it is marked,
# and pid 2's next request (at 60 ms) goes to a new queue of its own, not
# seeky: idled on 8 ms.  Merged stably instead (a request every 20 ms, as
# above), pid 2 stays in the seeky shared queue: idled on 2 ms.  (The
# idle after pid 2's last request: idle_us with it less without it.)
{ printf '0 1 0 8\n0 3 10000000 8\n100 2 16 8\n1500 1 2000000 8\n'
  awk 'BEGIN { for (k = 2; k <= 24; k++) printf "1500 1 %d 8 +\n", (k % 2 ? 2000000 : 4000000) + k * 1000 }'
  printf '60000 2 20000000 8\n'; } > "$TMP/split1.in"
{ echo "0 1 0 8"
  awk 'BEGIN { i = 0; for (t = 0; t <= 620000; t += 20000) printf "%d 2 %d 8\n", t, 500000 + (i++) * 16 }'
  printf '640000 1 2000000 8\n'
  awk 'BEGIN { for (k = 2; k <= 24; k++) printf "640000 1 %d 8 +\n", (k % 2 ? 2000000 : 4000000) + k * 1000 }'
  printf '700000 2 20000000 8\n'; } > "$TMP/split2.in"
for c in split1:8000:"a shared queue gone seeky is split" split2:2000:"a stably merged one is not"; do
	f=$TMP/${c%%:*}.in
	a=$("$OUT/elv_test" bfq low_latency=0 < "$f" | sed -n 's/.*idle_us=\([0-9]*\).*/\1/p')
	b=$(sed '$d' "$f" | "$OUT/elv_test" bfq low_latency=0 | sed -n 's/.*idle_us=\([0-9]*\).*/\1/p')
	w=${c#*:}
	check "elevator: bfq: ${c##*:} (idle after pid 2's last request ${w%%:*} us)" \
		test "$((a - b))" = "${w%%:*}"
done
# Think time: pid 1 asks every 20 ms (its mean gap is over slice_idle / 2
# once trusted): it is not idled on, and pid 2's queue getting busy ends
# its service at once (a preemption); asking every 1 ms it is idled on.
elv "bfq: a long think time is not idled on, and is preempted" "bfq low_latency=0" '0 1 0 8\n20000 1 16 8\n40000 1 32 8\n60000 1 48 8\n80000 1 64 8\n80500 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n20000 ${D}1 sector=16 nsect=8\n21000 ${C}1 sector=16\n40000 ${D}1 sector=32 nsect=8\n41000 ${C}1 sector=32\n60000 ${D}1 sector=48 nsect=8\n61000 ${C}1 sector=48\n80000 ${D}1 sector=64 nsect=8\n81000 ${C}1 sector=64\n81000 ${D}2 sector=100000 nsect=8\n82000 ${C}2 sector=100000\nidles=5 idle_us=40000 preempts=1 qmerges=0"
elv "bfq: a short think time is idled on" "bfq low_latency=0" '0 1 0 8\n1000 1 16 8\n2000 1 32 8\n3000 1 48 8\n4000 1 64 8\n4500 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}1 sector=16 nsect=8\n2000 ${C}1 sector=16\n2000 ${D}1 sector=32 nsect=8\n3000 ${C}1 sector=32\n3000 ${D}1 sector=48 nsect=8\n4000 ${C}1 sector=48\n4000 ${D}1 sector=64 nsect=8\n5000 ${C}1 sector=64\n13000 ${D}2 sector=100000 nsect=8\n14000 ${C}2 sector=100000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
elv "bfq: max_budget ends a queue's turn" "bfq low_latency=0 max_budget=16" '0 1 0 8\n0 1 100 8\n0 1 200 8\n0 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}1 sector=100 nsect=8\n2000 ${C}1 sector=100\n2000 ${D}2 sector=100000 nsect=8\n3000 ${C}2 sector=100000\n11000 ${D}1 sector=200 nsect=8\n12000 ${C}1 sector=200\nidles=2 idle_us=16000 preempts=0 qmerges=0"
# Weight raising (low_latency=1, the default): a new queue is raised, and
# idling does not pay while one is, so pid 2's new queue ends pid 1's
# service (its request next, no merge: one busy queue before it); the
# last one is idled on 20 ms.  Seven queues created together are all
# raised and served in turn; an eighth makes the burst large: no raising
# (each one's ends at its first dispatch), and the last ones are idled on.
elv "bfq: a new (weight-raised) queue preempts the one in service" bfq '0 1 0 8\n100 2 16 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=16 nsect=8\n2000 ${C}2 sector=16\nidles=1 idle_us=20000 preempts=1 qmerges=0"
for n in 7:1:8000 8:3:25000; do
	awk -v n="${n%%:*}" 'BEGIN { for (p = 1; p <= n; p++) printf "0 %d %d 8\n", p, p * 100000
		print "500 1 100008 8" }' | "$OUT/elv_test" bfq > "$TMP/elvb.out"
	got=$(awk '/complete pid=1 sector=100008/ { t = $1 } /^idles/ { i = $1 } END { print t, i }' "$TMP/elvb.out")
	m=${n#*:}
	check "elevator: bfq: ${n%%:*} queues created together: pid 1's second request done at ${n##*:} us, idles=${m%%:*}" \
		test "$got" = "${n##*:} idles=${m%%:*}"
done

# CFQ's close cooperators: elv_test's own exact cases (tests/elv_test.c).
check "elevator: cfq: close cooperators (elv_test --check, 13 cases)" \
	sh -c "\"$OUT/elv_test\" --check > $TMP/elvc.out"

# ---- a disk taking several requests (queue_depth=N: sent at once,
# served one after the other in the order sent, "start=" when the disk
# begins one later than it was sent) and a cap on the requests allocated
# at once (nr_requests=N: a bio that merges nowhere and finds none free
# waits, FIFO, out of reach of merges; tag_waits and their summed wait
# in the last line), through elv_test (1000 us a request) ----
elv "queue_depth=4: four sent at once, served in the order sent; D2C includes the wait behind the ones before" "queue_depth=4 noop" '0 1 0 8\n0 2 1000 8\n0 3 500 8\n0 4 3000 8\n' \
"0 ${D}1 sector=0 nsect=8\n0 ${D}2 sector=1000 nsect=8 start=1000\n0 ${D}3 sector=500 nsect=8 start=2000\n0 ${D}4 sector=3000 nsect=8 start=3000\n1000 ${C}1 sector=0\n2000 ${C}2 sector=1000\n3000 ${C}3 sector=500\n4000 ${C}4 sector=3000\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "nr_requests=2: a third bio that merges nowhere waits, gets its request at the first completion" "nr_requests=2 noop" '0 1 0 8\n0 2 1000 8\n0 3 500 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=8\n2000 ${C}2 sector=1000\n2000 ${D}3 sector=500 nsect=8\n3000 ${C}3 sector=500\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=1 tag_wait_us=1000"
elv "nr_requests=2: a bio behind a waiting one waits too, even contiguous with it; one contiguous with a request merges" "nr_requests=2 noop" '0 1 0 8\n0 2 1000 8\n0 3 500 8\n100 4 508 8\n100 5 1008 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=16\n2000 ${C}2 sector=1000\n2000 ${C}5 sector=1008\n2000 ${D}3 sector=500 nsect=8\n3000 ${C}3 sector=500\n3000 ${D}4 sector=508 nsect=8\n4000 ${C}4 sector=508\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=2 tag_wait_us=2900"
# "+": in one plugged submission with the line before.  Its submitter
# sleeps for a request: the bios after the waiting one follow it and,
# when it wakes, join the request it got if contiguous, else wait again
# (behind pid 3, which came in meanwhile).
elv "nr_requests=1: the bios after a waiting one in its submission join its request, or wait again" "nr_requests=1 noop" '0 1 1000 8\n0 2 0 8\n0 2 8 8 +\n0 2 5000 8 +\n0 2 5008 8 +\n100 3 9000 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}2 sector=0 nsect=16\n2000 ${C}2 sector=0\n2000 ${C}2 sector=8\n2000 ${D}3 sector=9000 nsect=8\n3000 ${C}3 sector=9000\n3000 ${D}2 sector=5000 nsect=16\n4000 ${C}2 sector=5000\n4000 ${C}2 sector=5008\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=3 tag_wait_us=5900"
elv "nr_requests=1: another submitter's bio contiguous with a waiting one gets a request of its own" "nr_requests=1 noop" '0 1 1000 8\n0 2 0 8\n0 3 8 8\n' \
"0 ${D}1 sector=1000 nsect=8\n1000 ${C}1 sector=1000\n1000 ${D}2 sector=0 nsect=8\n2000 ${C}2 sector=0\n2000 ${D}3 sector=8 nsect=8\n3000 ${C}3 sector=8\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=2 tag_wait_us=3000"
# hw_queues=N: N hardware queues of queue_depth tags and nr_requests
# each; a request belongs to the queue of its task (pid mod N).  A queue
# with an empty dispatch list takes the scheduler's next request; one
# whose queue has no free tag waits on that queue's list, out of merge
# reach (pid 3's bio, contiguous with pid 2's, merges without it and not
# with it; pid 5's merges into pid 4's, still in the scheduler), and
# reaches the disk first.
elv "hw_queues=0: a bio merges into the request waiting for the disk" "noop" '0 1 0 8\n0 2 1000 8\n100 3 1008 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=16\n2000 ${C}2 sector=1000\n2000 ${C}3 sector=1008\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "hw_queues=1: one request on the dispatch list, out of merge reach; the next still in the scheduler" "hw_queues=1 noop" '0 1 0 8\n0 2 1000 8\n0 4 3000 8\n100 3 1008 8\n100 5 3008 8\n' \
"0 ${D}1 sector=0 nsect=8\n1000 ${C}1 sector=0\n1000 ${D}2 sector=1000 nsect=8\n2000 ${C}2 sector=1000\n2000 ${D}4 sector=3000 nsect=16\n3000 ${C}4 sector=3000\n3000 ${C}5 sector=3008\n3000 ${D}3 sector=1008 nsect=8\n4000 ${C}3 sector=1008\nidles=0 idle_us=0 preempts=0 qmerges=0"
# Two queues of one tag: pid 4's request (queue 0, like pid 2's) waits
# on queue 0's list while pid 1's (queue 1) goes to the disk; with
# nr_requests=1, pid 4's bio waits for queue 0's request, not queue 1's.
elv "hw_queues=2 queue_depth=1: a request waits for its own queue's tag while the other's is free" "hw_queues=2 queue_depth=1 noop" '0 2 0 8\n0 4 1000 8\n0 1 2000 8\n' \
"0 ${D}2 sector=0 nsect=8\n0 ${D}1 sector=2000 nsect=8 start=1000\n1000 ${C}2 sector=0\n1000 ${D}4 sector=1000 nsect=8 start=2000\n2000 ${C}1 sector=2000\n3000 ${C}4 sector=1000\nidles=0 idle_us=0 preempts=0 qmerges=0"
elv "hw_queues=2 nr_requests=1: a bio waits for its own queue's request" "hw_queues=2 queue_depth=1 nr_requests=1 noop" '0 2 0 8\n0 4 1000 8\n0 1 2000 8\n' \
"0 ${D}2 sector=0 nsect=8\n0 ${D}1 sector=2000 nsect=8 start=1000\n1000 ${C}2 sector=0\n1000 ${D}4 sector=1000 nsect=8 start=2000\n2000 ${C}1 sector=2000\n3000 ${C}4 sector=1000\nidles=0 idle_us=0 preempts=0 qmerges=0 tag_waits=1 tag_wait_us=1000"
# The idling schedulers on a deeper disk: a dry queue that would be idled
# on keeps the disk while its requests are on it, the idle starting at
# its last completion; one that would not (slice_idle=0) gives way at once.
for e in "bfq low_latency=0" cfq; do
	elv "${e%% *}, queue_depth=4: a dry queue keeps the disk until its last completion, then idles" "queue_depth=4 $e" '0 1 0 8\n0 1 100 8\n0 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n0 ${D}1 sector=100 nsect=8 start=1000\n1000 ${C}1 sector=0\n2000 ${C}1 sector=100\n10000 ${D}2 sector=100000 nsect=8\n11000 ${C}2 sector=100000\nidles=2 idle_us=16000 preempts=0 qmerges=0"
	elv "${e%% *}, queue_depth=4, slice_idle=0: a dry queue gives way with its requests on the disk" "queue_depth=4 $e slice_idle=0" '0 1 0 8\n0 1 100 8\n0 2 100000 8\n' \
"0 ${D}1 sector=0 nsect=8\n0 ${D}1 sector=100 nsect=8 start=1000\n0 ${D}2 sector=100000 nsect=8 start=2000\n1000 ${C}1 sector=0\n2000 ${C}1 sector=100\n3000 ${C}2 sector=100000\nidles=0 idle_us=0 preempts=0 qmerges=0"
done
# CFQ's quantum (4): with pid 2 waiting, pid 1 has at most 4 on the disk.
elv "cfq, queue_depth=8: the active queue sends at most its quantum (4) while another waits" "queue_depth=8 cfq slice_idle=0" '0 3 10000 8\n0 3 10100 8 +\n0 3 10200 8 +\n0 3 10300 8 +\n0 3 10400 8 +\n0 3 10500 8 +\n0 3 10600 8 +\n0 3 10700 8 +\n100 1 0 8\n100 1 100 8 +\n100 1 200 8 +\n100 1 300 8 +\n100 1 400 8 +\n100 2 100000 8\n' \
"0 ${D}3 sector=10000 nsect=8\n0 ${D}3 sector=10100 nsect=8 start=1000\n0 ${D}3 sector=10200 nsect=8 start=2000\n0 ${D}3 sector=10300 nsect=8 start=3000\n0 ${D}3 sector=10400 nsect=8 start=4000\n0 ${D}3 sector=10500 nsect=8 start=5000\n0 ${D}3 sector=10600 nsect=8 start=6000\n0 ${D}3 sector=10700 nsect=8 start=7000\n1000 ${C}3 sector=10000\n1000 ${D}1 sector=400 nsect=8 start=8000\n2000 ${C}3 sector=10100\n2000 ${D}1 sector=300 nsect=8 start=9000\n3000 ${C}3 sector=10200\n3000 ${D}1 sector=200 nsect=8 start=10000\n4000 ${C}3 sector=10300\n4000 ${D}1 sector=100 nsect=8 start=11000\n5000 ${C}3 sector=10400\n6000 ${C}3 sector=10500\n7000 ${C}3 sector=10600\n8000 ${C}3 sector=10700\n9000 ${C}1 sector=400\n9000 ${D}1 sector=0 nsect=8 start=12000\n9000 ${D}2 sector=100000 nsect=8 start=13000\n10000 ${C}1 sector=300\n11000 ${C}1 sector=200\n12000 ${C}1 sector=100\n13000 ${C}1 sector=0\n14000 ${C}2 sector=100000\nidles=0 idle_us=0 preempts=0 qmerges=0"
# blktrace of the nr_requests=2 case: the waiting bio's G (and I) at the
# first completion, 1 ms after its Q, as 6.1's trace has it after the
# tag wait; btt's Q2G and Q2C see the wait.
printf '0 1 0 8\n0 2 1000 8\n0 3 500 8\n' |
	ELV_TEST_BLKTRACE="$TMP/elvbt" "$OUT/elv_test" nr_requests=2 noop > /dev/null
$OUT/blkt_dump "$TMP/elvbt/elv/sda.blktrace.0" |
	awk '$5 == 500 || $3 == "C" { print $2, $3, $5 }' | tr '\n' ';' > "$TMP/elvbt.got"
check "nr_requests=2, blktrace: the waiting bio's G and I come at the first completion (Q at 0, C of sector 0 and G at 1 ms)" \
	test "$(cat "$TMP/elvbt.got")" = "0 Q 500;1000000 C 0;1000000 G 500;1000000 I 500;2000000 C 1000;2000000 D 500;3000000 C 500;"
if command -v blkparse > /dev/null && command -v btt > /dev/null; then
	blkparse -q -i sda -D "$TMP/elvbt/elv" -d "$TMP/elvbt.bin" -O > /dev/null 2>&1
	(cd "$TMP" && btt -i elvbt.bin > elvbt.btt 2>&1)
	check "nr_requests=2, btt: Q2G 1 ms for one bio of 3 (mean 0.333 ms), Q2C 1, 2 and 3 ms" \
		test "$(awk '$1 == "Q2G" || $1 == "Q2C" { print $1, $3, $4, $5 }' "$TMP/elvbt.btt" | tr '\n' ';')" = "Q2G 0.000333334 0.001000000 3;Q2C 0.002000000 0.003000000 3;"
else
	tap_skip "nr_requests=2, btt: Q2G and Q2C" \
		"blktrace not installed (scripts/deps.sh blktrace)"
fi

# ---- CPUs: two readers of cached files, 64 MB each in 4 KB read(2)s at
# 1 us + 4096 B / 2000 MB/s = 3.048 us each: 16384 x 3.048 = 49.94 ms of
# CPU per reader.  One CPU runs them one after the other (99.9 ms); two
# CPUs, or no limit, side by side (49.9 ms). ----
printf '[system]\nmemory=1g\nseed=1\ncpus=CPUS\n\n[disk sda]\npartitions=1\n' > "$TMP/cpu.disks"
printf '[global]\nrw=read\nbs=4k\nsize=64m\npre_cached=64m\ninvalidate=0\n\n[a]\nfilename=/mnt/sda1/a\n\n[b]\nfilename=/mnt/sda1/b\n' > "$TMP/cpu.fio"
for c in 0 1 2; do
	sed "s/CPUS/$c/" "$TMP/cpu.disks" > "$TMP/cpu$c.disks"
	"$SIM" --impl ours "$TMP/cpu$c.disks" "$TMP/cpu.fio" > "$TMP/cpu$c.out"
done
check "cpus: one CPU runs two CPU-bound readers in turn (99 ms), two or unlimited side by side (49 ms)" \
	test "$(field "$TMP/cpu1.out" ours elapsed_ms) $(field "$TMP/cpu2.out" ours elapsed_ms) $(field "$TMP/cpu0.out" ours elapsed_ms)" = "99 49 49"
check "cpus: with one CPU the readers waited for it (run queue), with two they did not" \
	sh -c "test $(field "$TMP/cpu1.out" ours runq_ms) -ge 49 && test $(field "$TMP/cpu2.out" ours runq_ms) = 0"
"$SIM" --impl ours "$TMP/cpu1.disks" "$TMP/cpu.fio" > "$TMP/cpu1b.out"
check "cpus: the run queue is deterministic (same seed, same report)" \
	sh -c "grep -v '^engine:' $TMP/cpu1.out > $TMP/c1; grep -v '^engine:' $TMP/cpu1b.out > $TMP/c2; cmp -s $TMP/c1 $TMP/c2"

# ---- the schedulers inside ra_sim: same seed, same output; and CFQ's
# idling shows where readers share files (jbod13 shape, 8 CPUs) ----
for e in cfq mq-deadline bfq; do
	sed -e "s/^elevator=cfq\$/elevator=$e/" "$SC/report13.disks" > "$TMP/r13$e.disks"
	"$SIM" --define BS=4k --define SIZE=16m --define ENGINE=sync \
		"$TMP/r13$e.disks" "$SC/report13.fio" | grep -v '^engine:' > "$TMP/r13$e.a"
	"$SIM" --define BS=4k --define SIZE=16m --define ENGINE=sync \
		"$TMP/r13$e.disks" "$SC/report13.fio" | grep -v '^engine:' > "$TMP/r13$e.b"
	check "$e in ra_sim: deterministic, checks hold" \
		sh -c "cmp -s $TMP/r13$e.a $TMP/r13$e.b && test \$(grep -c '^Checks: .*: ok\$' $TMP/r13$e.a) = 2"
done
check "cfq idles, mq-deadline never does, bfq merges interleaved readers' queues" \
	sh -c "test $(field "$TMP/r13cfq.a" ours idles) -gt 0 && test $(field "$TMP/r13mq-deadline.a" ours idles) = 0 && test $(field "$TMP/r13bfq.a" ours qmerges) -gt 0"

# ---- a throttled virtual disk (iops=, as the QEMU bench's virtio disks:
# 8 MB/s and 50 IOPS): a request takes max(bytes / 8e6, 20 ms).  256 KB
# windows (fadvise_hint doubles read_ahead_kb) are bandwidth-bound:
# 128 x 32.768 ms = 4194 ms; 128 KB windows are IOPS-bound: 4, 8 and 16
# pages, then 256 windows of 32, 259 x 20 ms = 5180 ms. ----
printf '[system]\nmemory=1g\nseed=1\n\n[disk d0]\npartitions=0\nmount=/mnt/%%d\nrate_mbps=8\niops=50\nelevator=noop\n' > "$TMP/thr.disks"
printf '[global]\nrw=read\nbs=128k\nsize=32m\nioengine=psync\n\n[a]\nfilename=/mnt/d0/f0\n' > "$TMP/thr1.fio"
printf '[global]\nrw=read\nbs=4k\nsize=32m\nioengine=psync\nfadvise_hint=0\n\n[a]\nfilename=/mnt/d0/f0\n' > "$TMP/thr2.fio"
"$SIM" --impl ours "$TMP/thr.disks" "$TMP/thr1.fio" > "$TMP/thr1.out"
"$SIM" --impl ours "$TMP/thr.disks" "$TMP/thr2.fio" > "$TMP/thr2.out"
check "throttled disk: bandwidth-bound 256 KB requests, 128 in 4194 ms" \
	test "$(field "$TMP/thr1.out" ours reqs_per_disk) $(field "$TMP/thr1.out" ours elapsed_ms)" = "128 4194"
check "throttled disk: IOPS-bound 128 KB requests, 259 in 5180 ms (0.810 of the bps limit)" \
	test "$(field "$TMP/thr2.out" ours reqs_per_disk) $(field "$TMP/thr2.out" ours elapsed_ms) $(field "$TMP/thr2.out" ours fraction)" = "259 5180 0.810"
printf '[global]\nrw=randread\nbs=4k\nsize=32m\nio_size=512k\nioengine=psync\n\n[a]\nfilename=/mnt/d0/f0\n' > "$TMP/ios.fio"
"$SIM" --impl ours "$TMP/thr.disks" "$TMP/ios.fio" > "$TMP/ios.out"
check "io_size: a random reader stops after 512 KB of its 32 MB (128 reads of 20 ms: 2560 ms)" \
	test "$(field "$TMP/ios.out" ours reqs_per_disk) $(field "$TMP/ios.out" ours elapsed_ms)" = "128 2560"

# ---- queue_depth and nr_requests in ra_sim.  Their defaults are the
# disks of before: a spindle takes 1 request, a throttled disk 128, no
# cap; saying so changes nothing but the report's "queue" line. ----
for v in "spindle:queue_depth=1 nr_requests=0" "throttled:queue_depth=128"; do
	kind=${v%%:*}
	if [ "$kind" = spindle ]; then
		printf '[system]\nmemory=64m\nseed=1\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\nelevator=bfq\n' > "$TMP/qd0.disks"
	else
		sed 's/^elevator=noop$/elevator=bfq/' "$TMP/thr.disks" \
			> "$TMP/qd0.disks"
	fi
	{ cat "$TMP/qd0.disks"; for kv in ${v#*:}; do echo "$kv"; done; } > "$TMP/qd1.disks"
	dev=$(sed -n 's/^\[disk \(.*\)\]$/\1/p' "$TMP/qd0.disks")
	printf '[global]\nrw=read\nbs=4k\nsize=8m\nioengine=psync\nnumjobs=2\n\n[a]\nfilename=/mnt/%s/a\n\n[b]\nfilename=/mnt/%s/b\n' "$dev" "$dev" > "$TMP/qd.fio"
	"$SIM" "$TMP/qd0.disks" "$TMP/qd.fio" | grep -v '^engine:' > "$TMP/qd0.out"
	"$SIM" "$TMP/qd1.disks" "$TMP/qd.fio" | grep -v '^engine:' > "$TMP/qd1.out"
	check "queue: $kind disk, ${v#*:} is the default: the same report but for its queue line" \
		sh -c "grep -v '^  queue ' $TMP/qd1.out | cmp -s - $TMP/qd0.out && \
		       test \$(grep -c '^  queue $dev: ' $TMP/qd1.out) = 2 && \
		       ! grep -q '^  queue ' $TMP/qd0.out"
done
# The bench's spindle, 12 readers of 4 files, nr_requests=4 and 4 (or 1)
# requests on the disk (BFQ with 1: it idles and merges no more than 6.1
# would, so with 2 on the disk its 4 requests are never all taken; with
# two readers a file, ours leaves each stream to one process, and BFQ
# never has 4 to allocate: three a file make it wait).  From the
# blktrace: never more than queue_depth dispatched and not completed,
# nor nr_requests allocated (G) and not
# completed, and both reached; completions in the order of dispatch;
# every bio that got its request (G) after its Q got it at a completion,
# and the report counts them (tag_waits).
SPD="capacity=8g rpm=2000 seek_ms=22.5 track_ms=2.5 rate_mbps=20 overhead_us=100 cache_kb=0"
printf '[global]\nrw=read\nbs=4k\nsize=4m\nioengine=psync\nnumjobs=3\n\n[a]\nfilename=/mnt/sda/a\n[b]\nfilename=/mnt/sda/b\n[c]\nfilename=/mnt/sda/c\n[d]\nfilename=/mnt/sda/d\n' > "$TMP/qs.fio"
for v in "mq-deadline 4 4" "bfq 1 4"; do
	# shellcheck disable=SC2086
	set -- $v
	e=$1 qd=$2 nr=$3
	{
		printf '[system]\nmemory=256m\nseed=1\ncpus=2\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\n'
		for kv in $SPD; do echo "$kv"; done
		printf 'elevator=%s\nqueue_depth=%s\nnr_requests=%s\n' "$e" "$qd" "$nr"
	} > "$TMP/qs-$e.disks"
	"$SIM" --impl ours --blktrace "$TMP/qs-$e" "$TMP/qs-$e.disks" \
		"$TMP/qs.fio" > "$TMP/qs-$e.out"
	waits=$(grep '^  queue sda: ' "$TMP/qs-$e.out" | tr ' ' '\n' | sed -n 's/^tag_waits=//p')
	got=$("$OUT/blkt_dump" "$TMP/qs-$e/ours/sda.blktrace.0" | awk '
		$3 == "Q" { q[$5] = $2 }
		$3 == "G" { if (++alloc > maxa) maxa = alloc
			if ($2 > q[$5]) { nw++; wt[nw] = $2 } }
		$3 == "D" { if (++busy > maxb) maxb = busy; d[++nd] = $5 }
		$3 == "C" { busy--; alloc--; c[++nc] = $5; ct[$2] = 1 }
		END {
			for (i = 1; i <= nd; i++) if (d[i] != c[i]) order = "bad"
			for (i = 1; i <= nw; i++) if (!(wt[i] in ct)) atc = "bad"
			printf "on_disk=%d allocated=%d order=%s waits=%d at_completion=%s\n",
				maxb, maxa, order ? order : "ok", nw, atc ? atc : "ok" }')
	echo "     $e: $got (report: tag_waits=$waits)"
	check "queue: spindle, $e, queue_depth=$qd nr_requests=$nr: $qd on the disk and $nr allocated at most (both reached), served in the order sent, waits granted at completions and counted" \
		test "$got" = "on_disk=$qd allocated=$nr order=ok waits=$waits at_completion=ok"
	check "queue: spindle, $e: waits happened (tag_waits > 0)" test "${waits:-0}" -gt 0
done
# A request goes to the hardware queue of the CPU its bio was submitted
# on (blk_mq_map_queue() of the submitting CPU): two readers (pids 1000
# and 1001) sharing one CPU use its queue alone, so one request at a time
# reaches the disk; with cpus=0 (no CPU numbered) task pid mod 2 stands
# for the CPU, and both queues send one each.
printf '[global]\nrw=read\nbs=4k\nsize=4m\nioengine=psync\n\n[a]\nfilename=/mnt/sda/a\n[b]\nfilename=/mnt/sda/b\n' > "$TMP/hc.fio"
for v in "1 1" "0 2"; do
	# shellcheck disable=SC2086
	set -- $v
	printf '[system]\nmemory=256m\nseed=1\ncpus=%s\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\nelevator=noop\nqueue_depth=1\nhw_queues=2\n' "$1" > "$TMP/hc$1.disks"
	"$SIM" --impl ours "$TMP/hc$1.disks" "$TMP/hc.fio" > "$TMP/hc$1.out"
	got=$(grep '^  queue sda: ' "$TMP/hc$1.out" | tr ' ' '\n' | sed -n 's/^max_on_disk=//p')
	check "queue: hw_queues=2 queue_depth=1, two readers, cpus=$1: at most $2 on the disk (the submitting CPU's queue)" \
		test "$got" = "$2"
done
for e in mq-deadline bfq cfq; do
	sed "s/^elevator=.*/elevator=$e/; s/^queue_depth=.*/queue_depth=4\nhw_queues=2/" \
		"$TMP/qs-bfq.disks" > "$TMP/qa.disks"
	check "asan: queue: $e, queue_depth=4 nr_requests=4 hw_queues=2, checks hold (both)" \
		sh -c "timeout 120 $ASAN $TMP/qa.disks $TMP/qs.fio > $TMP/qa.out 2>&1 && \
		       test \$(grep -c '^Checks: .*: ok\$' $TMP/qa.out) = 2 && \
		       grep -q '^  queue sda: queue_depth=4 nr_requests=4 hw_queues=2 ' $TMP/qa.out"
done
"$SIM" --impl ours "$TMP/qs-bfq.disks" "$TMP/qs.fio" | grep -v '^engine:' > "$TMP/qs2.out"
check "queue: determinism: the same run again, the same report" \
	sh -c "grep -v '^engine:\|^  blktrace ' $TMP/qs-bfq.out | cmp -s - $TMP/qs2.out"

# ---- blktrace (--blktrace DIR): the disks' events in blktrace's binary
# format, read back field by field (tests/blkt_dump.c), then by the real
# blkparse and btt when installed.  sda: partitioned, noop, 64 KB
# requests (windows split); sdb: the whole disk, 2.6.30's queue plugging
# (bios merge while it is plugged). ----
DUMP=$OUT/blkt_dump
printf '[system]\nmemory=64m\nseed=1\n\n[disk sda]\npartitions=1\nelevator=noop\nmax_sectors_kb=64\n\n[disk sdb]\npartitions=0\nmount=/mnt/%%d\nplug_ms=2\n' > "$TMP/bt.disks"
printf '[global]\nrw=read\nbs=4k\nsize=256k\nioengine=psync\n\n[a]\nfilename=/mnt/sda1/a\n\n[b]\nfilename=/mnt/sdb/b\n' > "$TMP/bt.fio"
"$SIM" --blktrace "$TMP/bt" "$TMP/bt.disks" "$TMP/bt.fio" > "$TMP/bt.out"
"$SIM" "$TMP/bt.disks" "$TMP/bt.fio" > "$TMP/nobt.out"
check "blktrace: the option adds its lines to the report and changes nothing else" \
	sh -c "grep -v '^engine:' $TMP/nobt.out > $TMP/a; \
	       grep -v '^engine:\|^  blktrace ' $TMP/bt.out > $TMP/b; \
	       cmp -s $TMP/a $TMP/b && \
	       test \$(grep -c '^  blktrace sd[ab]: ' $TMP/bt.out) = 4"
check "blktrace: one file per disk for each implementation" \
	sh -c "for i in ours pristine; do for d in sda sdb; do \
		test -s $TMP/bt/\$i/\$d.blktrace.0 || exit 1; done; done"
counts() { # file: records per action, in a fixed order
	"$DUMP" "$1" | awk '{ n[$3]++ } END { for (a in n) print a "=" n[a] }' |
		sort | tr '\n' ' '
}
check "blktrace: sda records per action (6 requests, 1 split window, remapped from sda1)" \
	test "$(counts "$TMP/bt/ours/sda.blktrace.0")" = "A=5 C=6 D=6 G=6 I=6 N=2 P=5 Q=5 U=5 X=1 "
check "blktrace: sdb records per action (3 requests, 2 merges, queue plugs)" \
	test "$(counts "$TMP/bt/ours/sdb.blktrace.0")" = "C=3 D=3 G=3 I=3 M=2 N=2 P=8 Q=5 U=8 "
"$DUMP" "$TMP/bt/ours/sda.blktrace.0" > "$TMP/bt.sda"
printf '%s\n' \
	"0 0 N 0400 0 0 1000 8,0 0 0 fio" \
	"1 0 A 0811 2048 16384 1000 8,0 0 0 8,1 0" \
	"2 0 Q 0811 2048 16384 1000 8,0 0 0" \
	"3 0 P 0011 0 0 1000 8,0 0 0" \
	"4 0 U 0011 0 0 1000 8,0 0 0 1" \
	"5 0 G 0811 2048 16384 1000 8,0 0 0" \
	"6 0 I 0911 2048 16384 1000 8,0 0 0" \
	"7 0 D 0941 2048 16384 1000 8,0 0 0" \
	"0 4891816 N 0400 0 0 0 8,0 0 0 swapper/0" \
	"8 4891816 C 0981 2048 16384 0 8,0 0 0" \
	"9 4894864 A 0811 2080 32768 1000 8,0 0 0 8,1 32" > "$TMP/bt.want"
check "blktrace: sda's first records, field by field (seq time act cat sector bytes pid dev cpu err pdu)" \
	sh -c "head -11 $TMP/bt.sda | cmp -s - $TMP/bt.want"
check "blktrace: the split: 256 sectors at 2272 (sda1's 224), X at 2400, two requests of 128" \
	sh -c "grep -q '^26 11263880 X 0801 2272 65536 1000 8,0 0 0 2400\$' $TMP/bt.sda && \
	       test \$(grep -c '^[0-9]* 11263880 G 0811 2[24][07][02] 65536 ' $TMP/bt.sda) = 2"
check "blktrace: sdb's merges, at the back of a plugged request" \
	test "$("$DUMP" "$TMP/bt/ours/sdb.blktrace.0" | awk '$3 == "M"' | tr '\n' ';')" = "19 196032 M 0811 96 65536 1001 8,16 0 0;32 7260032 M 0811 480 16384 1001 8,16 0 0;"
# A reader thinking 1 ms between 4 KB reads: async readahead waits on the
# plugged queue until the 3 ms timer releases it (UT, by pid 0).
printf '[system]\nmemory=64m\nseed=1\n\n[disk sda]\npartitions=0\nmount=/mnt/%%d\nplug_ms=3\n' > "$TMP/ut.disks"
printf '[global]\nrw=read\nbs=4k\nsize=2m\nioengine=psync\nthinktime=1ms\n\n[a]\nfilename=/mnt/sda/a\n' > "$TMP/ut.fio"
"$SIM" --impl ours --blktrace "$TMP/ut" "$TMP/ut.disks" "$TMP/ut.fio" > /dev/null
check "blktrace: the plug timer's releases are UT (10 of 23 plugs), by pid 0" \
	sh -c "test \"$(counts "$TMP/ut/ours/sda.blktrace.0")\" = 'C=12 D=12 G=12 I=12 N=2 P=23 Q=12 U=13 UT=10 ' && \
	       test \$($DUMP $TMP/ut/ours/sda.blktrace.0 | awk '\$3 == \"UT\" && \$7 == 0' | wc -l) = 10"
# ---- fio's main process (fiomain.c): its metadata read comes first,
# the readers start fio_main_ms later, the files 1 MB into the
# partition; under BFQ its queue, not the first reader's, is the
# reference for stable merging, and the readers' queues (430 ms later)
# are merged with none.  Without it the same run has 3 queue merges. ----
printf '[system]\nmemory=1g\nseed=1\ncpus=2\nfio_main_ms=430\n\n[disk sda]\ncapacity=100g\npartitions=1\nelevator=bfq\n' > "$TMP/fm.disks"
sed '/^fio_main_ms=/d' "$TMP/fm.disks" > "$TMP/fm0.disks"
printf '[global]\nrw=read\nbs=128k\nsize=16m\nioengine=sync\n' > "$TMP/fm.fio"
for f in 0 1 2 3; do printf '[f%s]\nfilename=/mnt/sda1/f%s\n' $f $f; done >> "$TMP/fm.fio"
"$SIM" --impl ours --blktrace "$TMP/fm" "$TMP/fm.disks" "$TMP/fm.fio" > "$TMP/fm.out"
"$SIM" --impl ours "$TMP/fm0.disks" "$TMP/fm.fio" > "$TMP/fm0.out"
check "fio main: its 4 KB metadata read at the partition's start comes first (time 0, pid 999, not readahead)" \
	test "$("$DUMP" "$TMP/fm/ours/sda.blktrace.0" | awk '$3 == "Q" { print $2, $4, $5, $6, $7; exit }')" = "0 0011 2048 4096 999"
check "fio main: each process's first request (pid time sector): the readers' at 430 ms (two CPUs: the second two after the first two's 1 us syscalls), f0 1 MB into sda1" \
	test "$("$DUMP" "$TMP/fm/ours/sda.blktrace.0" | awk '$3 == "Q" && !($7 in t) { t[$7] = $2; s[$7] = $5 } END { for (p in t) print p, t[p], s[p] }' | sort | tr '\n' ';')" = "1000 430001000 4096;1001 430001000 36864;1002 430000000 69632;1003 430000000 102400;999 0 2048;"
sed 's/^fio_main_ms=430$/&\nfio_fork_us=10000/' "$TMP/fm.disks" > "$TMP/fmf.disks"
"$SIM" --impl ours --blktrace "$TMP/fmf" "$TMP/fmf.disks" "$TMP/fm.fio" > /dev/null
check "fio main: fio_fork_us=10000 starts the jobs 10 ms apart, in job order" \
	test "$("$DUMP" "$TMP/fmf/ours/sda.blktrace.0" | awk '$3 == "Q" && !($7 in t) { t[$7] = $2 } END { for (p in t) print p, t[p] }' | sort | tr '\n' ';')" = "1000 430000000;1001 440000000;1002 450000000;1003 460000000;999 0;"
"$SIM" --impl ours "$TMP/fm.disks" "$TMP/fm.fio" > "$TMP/fm.fast" 2>&1
"$ASAN" --impl ours "$TMP/fm.disks" "$TMP/fm.fio" > "$TMP/fm.asan" 2>&1
check "fio main: the sanitized build runs it clean, to the same report" \
	sh -c "grep -v '^engine:' $TMP/fm.fast > $TMP/fm.a; grep -v '^engine:' $TMP/fm.asan > $TMP/fm.b; cmp -s $TMP/fm.a $TMP/fm.b"
check "fio main: BFQ merges no reader queue (without the main process: 3)" \
	test "$(field "$TMP/fm.out" ours qmerges) $(field "$TMP/fm0.out" ours qmerges)" = "0 3"

btfield() { # report disk key
	grep "^  blktrace $2: " "$1" | head -1 | tr ' ' '\n' | sed -n "s/^$3=//p"
}
if command -v blkparse > /dev/null && command -v btt > /dev/null; then
	# One reader, 4 MB, no split, no merge: btt's per-bio figures are
	# the requests' own.
	printf '[system]\nmemory=64m\nseed=1\n\n[disk sda]\npartitions=1\nelevator=noop\n' > "$TMP/bt2.disks"
	printf '[global]\nrw=read\nbs=4k\nsize=4m\nioengine=psync\n\n[a]\nfilename=/mnt/sda1/a\n' > "$TMP/bt2.fio"
	"$SIM" --impl ours --blktrace "$TMP/bt2" "$TMP/bt2.disks" \
		"$TMP/bt2.fio" > "$TMP/bt2.out"
	blkparse -q -i sda -D "$TMP/bt2/ours" -d "$TMP/bt2.bin" -O > /dev/null 2>&1
	# btt writes its .dat files where it runs
	(cd "$TMP" && btt -i bt2.bin > btt2.out 2>&1)
	r=$TMP/bt2.out
	check "blktrace: btt reads it: D2C and Q2C means and counts equal the simulator's (20 requests)" \
		sh -c "test \"\$(awk '\$1 == \"D2C\" || \$1 == \"Q2C\" { print \$1, \$3, \$5 }' $TMP/btt2.out | tr '\n' ' ')\" = \
		       'D2C $(btfield "$r" sda d2c_avg) $(btfield "$r" sda requests) Q2C $(btfield "$r" sda q2c_avg) $(btfield "$r" sda requests) ' && \
		       test $(btfield "$r" sda requests) = $(field "$r" ours reqs_per_disk)"
	check "blktrace: btt's requests and mean request size equal the simulator's (20 of 409 sectors, req_kb=204.8)" \
		sh -c "test \"\$(grep -A4 'Device Merge Information' $TMP/btt2.out | \
			 awk -F'|' 'NR == 5 { split(\$2, q, \" \"); split(\$3, b, \" \"); print q[2], b[2] }')\" = \
		       '$(btfield "$r" sda requests) $(btfield "$r" sda blk_avg)' && \
		       test '$(field "$r" ours req_kb)' = 204.8"
	blkparse -i sdb -D "$TMP/bt/ours" > "$TMP/bp.sdb" 2>&1
	check "blktrace: blkparse reads sdb: 3 dispatches and completions, 2 merges, 5 queued, no skips" \
		sh -c "grep -q '^ Read Dispatches: *$(btfield "$TMP/bt.out" sdb requests),' $TMP/bp.sdb && \
		       grep -q '^ Reads Completed: *3,' $TMP/bp.sdb && \
		       grep -q '^ Read Merges: *$(btfield "$TMP/bt.out" sdb merges),' $TMP/bp.sdb && \
		       grep -q '^ Reads Queued: *5,' $TMP/bp.sdb && \
		       grep -q '^Skips: 0 forward' $TMP/bp.sdb"
else
	tap_skip "blktrace: blkparse and btt read the files" \
		"blktrace not installed (scripts/deps.sh blktrace)"
fi

# ---- large folios (large_folios=1, as mapping_large_folio_support()):
# a folio of order k is 2^k pages, read, cached, evicted and marked as a
# unit.  Ours' orders are asserted exactly, pristine 6.12's and 6.1's
# recorded. ----
LFD=$TMP/lf.disks
printf '[system]\nmemory=64m\nseed=1\n\n[disk sda]\npartitions=1\nelevator=noop\n' > "$LFD"
lfjob() { # name engine size [more options]: one reader of a large-folio file
	printf '[global]\nrw=read\nbs=4k\nsize=%s\nioengine=%s\nlarge_folios=1\n%b\n[a]\nfilename=/mnt/sda1/a\n' \
		"$3" "$2" "${4:-}" > "$TMP/$1.fio"
}
folios() { # file impl: the report's folios by order
	sect "$1" "$2" | sed -n 's/^Folios added by order: //p'
}
logline() { # folio log: the windows joined, without the file names
	sed 's/^[^:]*: //' "$1" | tr '\n' ' ' | sed 's/ $//'
}
# The harness's ramp_from_start (tests/folios.c): 1000 4 KB reads from
# page 0 of an 8 MB file, 2 MB windows: the same folios in the simulator.
printf '[system]\nmemory=1g\nseed=1\n\n[disk sda]\npartitions=1\nelevator=noop\nread_ahead_kb=2048\n' > "$TMP/ramp.disks"
lfjob ramp psync 8m 'io_size=4000k\nfadvise_hint=0\n'
"$SIM" --impl all --folios "$TMP/ramp" "$TMP/ramp.disks" "$TMP/ramp.fio" \
	> "$TMP/ramp.out"
check "large folios: ours reads the harness's order ramp (ramp_from_start) exactly" \
	test "$(logline "$TMP/ramp.ours")" = "0:0 1:0* 2-3:1 4-7:2* 8-15:3 16-19:2 20-23:2* 24-31:3 32-63:5 64-79:4 80-83:2 84-87:2* 88-95:3 96-127:5 128-191:6 192-207:4 208-211:2 212-215:2* 216-223:3 224-255:5 256-383:7 384-447:6 448-463:4 464-467:2 468-471:2* 472-479:3 480-511:5 512-767:8 768-895:7 896-959:6 960-975:4 976-979:2 980-983:2* 984-991:3 992-1023:5 1024-1279:8 1280-1407:7 1408-1471:6 1472-1487:4 1488-1491:2 1492-1495:2* 1496-1503:3 1504-1535:5 1536-1791:8 1792-1919:7 1920-1983:6 1984-1999:4 2000-2003:2"
check "large folios: pristine 6.12's ramp recorded (stuck at 4, the marker on the window's last order-2 folio)" \
	test "$(logline "$TMP/ramp.pristine")" = "0-3:2* 4-7:2* 8-15:3 16-19:2 20-23:2* 24-31:3 32-79:4 80-83:2 84-87:2* 88-95:3 96-207:4 208-211:2 212-215:2* 216-223:3 224-463:4 464-467:2 468-471:2* 472-479:3 480-975:4 976-979:2 980-983:2* 984-991:3 992-1487:4 1488-1491:2 1492-1495:2* 1496-1503:3 1504-1999:4 2000-2003:2"
check "large folios: pristine 6.1's ramp recorded (marker folio's order + 2: stuck at 4)" \
	test "$(logline "$TMP/ramp.pristine-6.1")" = "0-3:2* 4-19:2 20-23:2* 24-83:2 84-87:2* 88-95:3 96-239:4 240-243:2 244-247:2* 248-255:3 256-559:4 560-563:2 564-567:2* 568-575:3 576-1071:4 1072-1075:2 1076-1079:2* 1080-1087:3 1088-1583:4 1584-1587:2"
# One 8 MB stream, 128 KB windows, read(2) and mmap: folios by order
# (ours/pristine 6.12/pristine 6.1), every page read once, none past EOF
# or read again.
lfstream() { # name engine what want
	lfjob "$1" "$2" 8m
	"$SIM" --impl all --folios "$TMP/$1" "$LFD" "$TMP/$1.fio" > "$TMP/$1.out"
	check "large folios: $2, folios by order: $3" \
		test "$(folios "$TMP/$1.out" ours)/$(folios "$TMP/$1.out" pristine)/$(folios "$TMP/$1.out" pristine-6.1)" = "$4"
	check "large folios: $2, 2048 pages each read once, none past EOF or cached read again (all three)" \
		sh -c "test \$(grep -c '^Checks: .*past_eof=0 reread_cached=0 .*: ok\$' $TMP/$1.out) = 3 && \
		       test '$(field "$TMP/$1.out" ours read_ahead) $(field "$TMP/$1.out" ours read_twice) $(field "$TMP/$1.out" pristine read_ahead) $(field "$TMP/$1.out" pristine read_twice) $(field "$TMP/$1.out" pristine-6.1 read_ahead) $(field "$TMP/$1.out" pristine-6.1 read_twice)' = '2048 0 2048 0 2048 0'"
}
lfstream lfread psync "ours 0:2 1:1 2:69 3:33 4:32 5:31, pristine 6.12 2:70 3:33 4:94, 6.1 2:70 3:31 4:95" \
	"0:2 1:1 2:69 3:33 4:32 5:31/2:70 3:33 4:94/2:70 3:31 4:95"
check "large folios: read(2), ours' first windows folio by folio" \
	test "$(head -5 "$TMP/lfread.ours" | logline -)" = "0:0 1:0* 2-3:1 4-7:2* 8-11:2 12-15:2* 16-23:3 24-27:2 28-31:2* 32-47:4 48-55:3 56-59:2 60-63:2* 64-95:5 96-111:4 112-119:3 120-123:2"
# fio's mmap engine advises MADV_SEQUENTIAL: a whole first window.
lfstream lfmmap mmap "ours as both pristine kernels, a whole first window: 2:16 4:4 6:30" \
	"2:16 4:4 6:30/2:16 4:4 6:30/2:16 4:4 6:30"
# fio's thp=1 (MADV_HUGEPAGE): the fault reads PMD-order folios, 2 MB
# aligned, two a window, whatever the memory (64 MB too), so that they
# can be mapped as huge pages.
lfjob thp mmap 8m 'thp=1\n'
sed 's/^memory=64m$/memory=1g/' "$LFD" > "$TMP/lf1g.disks"
"$SIM" --folios "$TMP/thp" "$TMP/lf1g.disks" "$TMP/thp.fio" > "$TMP/thp.out"
check "large folios: thp=1, 1 GB: PMD-order folios for both (9:4), two per window, the second marked" \
	test "$(folios "$TMP/thp.out" ours)/$(folios "$TMP/thp.out" pristine)/$(head -1 "$TMP/thp.ours" | logline -)/$(grep -c '^Checks: .*: ok$' "$TMP/thp.out")" = "9:4/9:4/0-511:9 512-1023:9*/2"
"$SIM" --folios "$TMP/thp64" "$LFD" "$TMP/thp.fio" > "$TMP/thp64.out"
check "large folios: thp=1, 64 MB: PMD-order folios for both (9:4), the window not bounded by memory" \
	test "$(folios "$TMP/thp64.out" ours)/$(folios "$TMP/thp64.out" pristine)/$(head -1 "$TMP/thp64.ours" | logline -)" = "9:4/9:4/0-511:9 512-1023:9*"
# 8212 KB: the file ends 20 KB into an order-3 block.
lfjob lfeof psync 8212k
"$SIM" --impl all --folios "$TMP/lfeof" "$LFD" "$TMP/lfeof.fio" \
	> "$TMP/lfeof.out"
check "large folios: no folio past EOF (page 2052 last, as order 0)" \
	test "$(tail -1 "$TMP/lfeof.ours" | logline -)/$(tail -1 "$TMP/lfeof.pristine" | logline -)/$(tail -1 "$TMP/lfeof.pristine-6.1" | logline -)/$(grep -c 'past_eof=0 reread_cached=0 .*: ok$' "$TMP/lfeof.out")" = "2044-2051:2 2052:0/2044-2047:2* 2048-2051:2 2052:0/1996-1999:2* 2000-2047:4 2048-2051:2 2052:0/3"
# 32 streams in 64 MB: the pristine kernels' large allocations fail and
# fall back.
sed 's/^\[global\]$/[global]\nlarge_folios=1/' "$SC/pressure.fio" > "$TMP/lfpress.fio"
"$SIM" --impl all --define BS=64k --define SIZE=32m "$SC/pressure.disks" \
	"$TMP/lfpress.fio" > "$TMP/lfpress.out"
check "large folios: memory pressure: ours 2:256 4:128 5:4064 6:2016 (nothing refused); pristine 6.12 falls back to order 0 after 462 refusals, 6.1 after 569" \
	sh -c "test '$(folios "$TMP/lfpress.out" ours)/$(folios "$TMP/lfpress.out" pristine)/$(folios "$TMP/lfpress.out" pristine-6.1)' = '2:256 4:128 5:4064 6:2016/0:76263 1:237 2:26242 3:2163 4:3343 5:200 6:420 7:66 8:73 9:6/0:92295 2:32573 3:89 4:2559 5:226 6:405 7:54 8:65' && \
	       test \$(grep -c '^Read ahead: .*alloc_failed=0,' $TMP/lfpress.out) = 1 && \
	       test \$(grep -c '^Read ahead: .*alloc_failed=462,' $TMP/lfpress.out) = 1 && \
	       test \$(grep -c '^Read ahead: .*alloc_failed=569,' $TMP/lfpress.out) = 1 && \
	       test \$(grep -c '^Checks: .*past_eof=0 reread_cached=0 .*: ok\$' $TMP/lfpress.out) = 3"
# Conservation on the shared-file, random and failing-disk shapes.
for v in "jbod13.disks jbod13-seq.fio BS=4k SIZE=16m" \
	 "jbod7.disks jbod7-mmap.fio BS=4k SIZE=16m" \
	 "random.disks random.fio BS=32k SIZE=128m THREADS=4" \
	 "eio.disks eio.fio BS=4k SIZE=8m JOBS=4 COE=read ENGINE=mmap"; do
	# shellcheck disable=SC2086
	set -- $v
	m=$1 j=$2
	shift 2
	defs=
	for d in "$@"; do defs="$defs --define $d"; done
	sed 's/^\[global\]$/[global]\nlarge_folios=1/' "$SC/$j" > "$TMP/lf-$j"
	# shellcheck disable=SC2086
	timeout 120 "$ASAN" $defs "$SC/$m" "$TMP/lf-$j" > "$TMP/lfc.out" 2>&1
	check "large folios: $j (ASan): checks hold, none past EOF or cached read again (both)" \
		sh -c "test \$(grep -c '^Checks: .*past_eof=0 reread_cached=0 copied_not_uptodate=0: ok\$' $TMP/lfc.out) = 2 && \
		       test \$(grep -c '^Folios added by order: ' $TMP/lfc.out) = 2"
done
# Order 0: large_folios=0 is the default, and prints nothing new.
printf '[global]\nrw=read\nbs=4k\nsize=8m\nioengine=psync\n\n[a]\nfilename=/mnt/sda1/a\n' > "$TMP/lf0.fio"
lfjob lf0b psync 8m
sed -i 's/^large_folios=1$/large_folios=0/' "$TMP/lf0b.fio"
"$SIM" "$LFD" "$TMP/lf0.fio" | grep -v '^engine:' > "$TMP/lf0.out"
"$SIM" "$LFD" "$TMP/lf0b.fio" | grep -v '^engine:' > "$TMP/lf0b.out"
check "large folios: large_folios=0 is the default: the same report, no folio line" \
	sh -c "cmp -s $TMP/lf0.out $TMP/lf0b.out && ! grep -q '^Folios' $TMP/lf0.out"
experr thpbad "${J}thp=yes\n" \
	"FILE:4: bad value 'yes' for option 'thp' (allowed: 0 or 1)"
experr thpsync "${J}thp=1\n" \
	"FILE:4: job 'j': thp=1 is an option of the mmap engine (allowed: with ioengine=mmap)"
experr lfbad "${J}large_folios=2\n" \
	"FILE:4: bad value '2' for option 'large_folios' (allowed: 0 or 1)"
printf '[global]\nrw=read\nsize=1m\n[a]\nfilename=/mnt/sda1/f\n[b]\nfilename=/mnt/sda1/f\nlarge_folios=1\n' > "$TMP/lfmix.fio"
"$SIM" "$TMP/m.disks" "$TMP/lfmix.fio" > "$TMP/lfmix.o" 2> "$TMP/lfmix.e"
echo $? > "$TMP/lfmix.rc"
check "large folios: jobs of one file disagree: FILE:LINE error, nothing runs" \
	sh -c "test \$(cat $TMP/lfmix.rc) = 1 && test ! -s $TMP/lfmix.o && test \"\$(cat $TMP/lfmix.e)\" = \"$TMP/lfmix.fio:8: job 'b': large_folios=1 for /mnt/sda1/f, which job 'a' reads with large_folios=0 (allowed: one value per file)\""

# ---- ftrace (--ftrace FILE): 6.12's page cache tracepoints as trace-cmd
# report prints them, FILE.IMPL.  One 4 MB read(2) stream in 64 KB
# blocks, 2 MB of cache (so that pages are evicted): the first two
# windows (32 pages each: ours' initial window for a 16-page read after
# POSIX_FADV_SEQUENTIAL, then the async one at the marked page 16) at
# the times the blktrace shows them submitted (0 and 6.072 ms, the
# first completed at 6.038 ms), each batch got afterwards (15 pages at
# most, 6.1's PAGEVEC_SIZE: a 64 KB read takes two), named by the pages
# it holds (the series' filemap.c: a batch ends at the marked page, 16),
# and the first window's outcome once its last page is read: 32 pages
# used, 16 at 6.038 ms and 16 at 6.072 ms (lead 193.78 ms in all). ----
printf '[system]\nmemory=2m\n\n[disk sda]\n' > "$TMP/ft.disks"
printf '[seq]\nfilename=/mnt/sda1/f\nrw=read\nbs=64k\nsize=4m\n' > "$TMP/ft.fio"
printf '[mm]\nfilename=/mnt/sda1/f\nrw=read\nbs=4k\nsize=1m\nioengine=mmap\n' > "$TMP/ftm.fio"
"$SIM" --ftrace "$TMP/ft1" "$TMP/ft.disks" "$TMP/ft.fio" > "$TMP/ft1.out"
"$SIM" --ftrace "$TMP/ft2" "$TMP/ft.disks" "$TMP/ft.fio" > /dev/null
"$SIM" "$TMP/ft.disks" "$TMP/ft.fio" > "$TMP/ft0.out"
ftline() { # secs usecs event fields
	printf '%16s-%-7d [%03d] %6d.%06d: %s: %s\n' fio 1000 0 "$1" "$2" "$3" "$4"
}
ftadds() { # usecs first-pfn first-page pages: order-0 adds
	k=0
	while [ $k -lt "$4" ]; do
		ftline 0 "$1" mm_filemap_add_to_page_cache \
			"$(printf 'dev 8:1 ino c pfn=0x%x ofs=%d order=0' \
				$(($2 + k)) $((($3 + k) * 4096)))"
		k=$((k + 1))
	done
}
# Each window's request inserted as the plug is flushed (sda1 starts at
# sector 2048), then ours' decision, as ra-record on the patched kernel
# records both.
{
	echo "cpus=1"
	ftadds 0 $((0x100000)) 0 32
	ftline 0 0 block_rq_insert "8,0 R 131072 () 2048 + 256 none,0,0 [fio]"
	echo "readahead-initial0(pid=1000(fio), dev=08:01(sda1), ino=12(/mnt/sda1/f), req=0+16, ra=0+32-16, async=0) = 32"
	ftline 0 6038 mm_filemap_get_pages "dev=8:1 ino=c ofs=0-61439"
	ftline 0 6038 mm_filemap_get_pages "dev=8:1 ino=c ofs=61440-65535"
	ftadds 6072 $((0x100020)) 32 32
	ftline 0 6072 block_rq_insert "8,0 R 131072 () 2304 + 256 none,0,0 [fio]"
	echo "readahead-subsequent(pid=1000(fio), dev=08:01(sda1), ino=12(/mnt/sda1/f), req=16+16, ra=32+32-32, async=1) = 32"
	ftline 0 6072 mm_filemap_get_pages "dev=8:1 ino=c ofs=65536-69631"
	ftline 0 6072 readahead_outcome "dev=8:1 ino=c pattern=initial0 start=0 size=32 pages=32 used=32 evicted=0 cached=0 lead_ns=193778560 stall=1 end=settled"
	ftline 0 6072 mm_filemap_get_pages "dev=8:1 ino=c ofs=69632-131071"
} > "$TMP/ft.want"
check "ftrace: one file per implementation, cpus= first, every line in trace-cmd's format (ours' decisions aside), ours' window outcomes among them" \
	sh -c "for i in ours pristine; do \
		test \"\$(head -1 $TMP/ft1.\$i)\" = cpus=1 || exit 1; \
		tail -n +2 $TMP/ft1.\$i | grep -v '^readahead-' | \
		grep -v '^             fio-1000    \[000\] *[0-9]*\.[0-9]\{6\}: \(mm_filemap_[a-z_]*: dev[ =]8:1 ino[ =]c \|block_rq_insert: 8,0 R \|readahead_outcome: dev=8:1 ino=c \)' && exit 1; \
	done; grep -q '^readahead-\|readahead_outcome' $TMP/ft1.pristine && exit 1; \
	grep -q ': readahead_outcome: ' $TMP/ft1.ours"
check "ftrace: the first two windows' adds and the batches got, line for line (ours)" \
	sh -c "head -\$(wc -l < $TMP/ft.want) $TMP/ft1.ours | cmp -s - $TMP/ft.want"
check "ftrace: the option changes nothing in the report" \
	sh -c "grep -v '^engine:' $TMP/ft0.out > $TMP/a; \
	       grep -v '^engine:' $TMP/ft1.out > $TMP/b; \
	       test -s $TMP/a && cmp -s $TMP/a $TMP/b"
# Pages added (2^order a line) = pages the disk read (rd_sectors / 8) =
# the report's added=; each delete names a pfn added and not yet deleted.
ftcheck() { # trace file: "pages deletes bad"
	awk '
	function f(k, i) {
		for (i = 1; i <= NF; i++)
			if (index($i, k "=") == 1)
				return substr($i, length(k) + 2)
		return ""
	}
	/: mm_filemap_add_to_page_cache: / {
		p = f("pfn"); if (p in live) bad++
		live[p] = 1; pages += 2 ^ f("order")
	}
	/: mm_filemap_delete_from_page_cache: / {
		p = f("pfn"); if (!(p in live)) bad++
		delete live[p]; dels++
	}
	END { printf "%d %d %d\n", pages, dels, bad }' "$1"
}
for i in ours pristine; do
	set -- $(ftcheck "$TMP/ft1.$i")
	n=$([ $i = ours ] && echo 1 || echo 2)	# the report's order
	sect=$(grep '^  sda  *[0-9]' "$TMP/ft1.out" | sed -n "${n}p" |
		awk '{ print $4 }')
	added=$(grep '^Page cache:' "$TMP/ft1.out" | sed -n "${n}p" |
		sed 's/.* added=\([0-9]*\),.*/\1/')
	check "ftrace/$i: pages added = pages read from disk = the report's added=; deletes (some), each of a pfn added and not yet deleted" \
		test "$1" -gt 0 -a $(($1 * 8)) = "${sect:-x}" -a "$1" = "${added:-x}" \
		     -a "$2" -gt 0 -a "$3" = 0
done
check "ftrace: the same run twice, byte-identical files" \
	sh -c "cmp -s $TMP/ft1.ours $TMP/ft2.ours && cmp -s $TMP/ft1.pristine $TMP/ft2.pristine"
# ASan: 16 MB of cache, 32 MB read: 4096 folios live at once (the pfn
# table grows from 4096 slots), 4096 evicted; the same file as -O2's.
printf '[system]\nmemory=16m\n\n[disk sda]\n' > "$TMP/fta.disks"
sed 's/^size=4m$/size=32m/' "$TMP/ft.fio" > "$TMP/fta.fio"
timeout 120 "$ASAN" --impl ours --ftrace "$TMP/fta1" "$TMP/fta.disks" \
	"$TMP/fta.fio" > /dev/null 2>&1
"$SIM" --impl ours --ftrace "$TMP/fta2" "$TMP/fta.disks" "$TMP/fta.fio" > /dev/null
fta=$(ftcheck "$TMP/fta1.ours")
check "ftrace: ASan: 8192 pages added, 4096 deleted, each of a live pfn; the -O2 build's file" \
	sh -c "test '$fta' = '8192 4096 0' && cmp -s $TMP/fta1.ours $TMP/fta2.ours"
"$SIM" --ftrace "$TMP/ftm" "$TMP/ft.disks" "$TMP/ftm.fio" > "$TMP/ftm.out"
for i in ours pristine; do
	set -- $(ftcheck "$TMP/ftm.$i")
	# map_pages: every range fault-around's 16 aligned pages (64 KB)
	check "ftrace/$i: mmap: faults (the first at ofs=0), map_pages of 16 aligned pages, no get_pages, 256 pages added" \
		sh -c "test \"\$(sed -n 2p $TMP/ftm.$i | sed 's/.*: mm_filemap_fault: //')\" = 'dev=8:1 ino=c ofs=0' && \
		       test \$(grep -c ': mm_filemap_fault: ' $TMP/ftm.$i) -gt 1 && \
		       grep -q ': mm_filemap_map_pages: dev=8:1 ino=c ofs=0-65535\$' $TMP/ftm.$i && \
		       grep ': mm_filemap_map_pages: ' $TMP/ftm.$i | sed 's/.*ofs=//; s/-/ /' | \
			awk '\$1 % 65536 || \$2 - \$1 != 65535 { bad++ } END { exit !(NR > 1 && !bad) }' && \
		       ! grep -q ': mm_filemap_get_pages: ' $TMP/ftm.$i && \
		       test $1 = 256 -a $3 = 0"
done
"$SIM" --ftrace > "$TMP/fte.o" 2> "$TMP/fte.e"
echo $? > "$TMP/fte.rc"
check "ftrace: --ftrace without its FILE: the error, the usage, exit 2, nothing runs" \
	sh -c "test \$(cat $TMP/fte.rc) = 2 && test ! -s $TMP/fte.o && \
	       test \"\$(head -1 $TMP/fte.e)\" = \"ra_sim: option '--ftrace' needs an argument\" && \
	       grep -q '^usage: ra_sim ' $TMP/fte.e && grep -q '\[--ftrace FILE\]' $TMP/fte.e"
"$SIM" --ftrace "$TMP/ft.disks" "$TMP/ft.fio" > "$TMP/fte2.o" 2> "$TMP/fte2.e"
echo $? > "$TMP/fte2.rc"
check "ftrace: --ftrace MACHINE JOBS (no FILE): one argument left, exit 2, no file written" \
	sh -c "test \$(cat $TMP/fte2.rc) = 2 && test ! -s $TMP/fte2.o && \
	       test \"\$(head -1 $TMP/fte2.e)\" = 'ra_sim: 1 argument after the options, expected MACHINE.disks JOBS.fio' && \
	       test ! -e $TMP/ft.disks.ours"

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
	awk -v o="$(field "$f" ours fraction)" -v p="$(field "$f" pristine fraction)" \
		-v n="$n" 'BEGIN { printf "%.3f %s %s %s\n", o / p, o, p, n }'
done | sort -s -n -k1,1 > "$TMP/mx.ratios"
want=$(awk 'NR == 2 { printf "%s %s %s", $2, $3, $1 } { r[NR] = $1 }
	END { printf " %s..%s", r[1], r[NR] }' "$TMP/mx.ratios")
got=$(awk 'NR == 3 { print $5, $6, $7, $13 }' "$TMP/mx/matrix/table")
check "matrix: SEEDS=\"3 2 1\": the line is the median seed's run, the range its lowest..highest ratio ($want)" \
	test "$got" = "$want"
check "matrix: the seeds' ratios differ (BFQ), so the median is a choice" \
	test "$(cut -d' ' -f1 "$TMP/mx.ratios" | sort -u | wc -l)" -gt 1
mx 2
f=$TMP/mx/matrix/report7-bfq-2-sync-4k.seed2
check "matrix: one seed: that run's fractions, no range column" \
	test "$(awk 'NR == 3 { print $5, $6, NF }' "$TMP/mx/matrix/table")" = \
	"$(field "$f" ours fraction) $(field "$f" pristine fraction) 12"
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

tap_end
