# SPDX-License-Identifier: GPL-2.0
#
# eio.sh - the simulator's tests: I/O errors: a disk failing a range of sectors.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- I/O errors: a disk that fails reads of sectors 10048-10111 ----
# The file starts at sector 2048: its pages 1000-1007 are bad.
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
