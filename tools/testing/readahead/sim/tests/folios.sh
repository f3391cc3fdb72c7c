# SPDX-License-Identifier: GPL-2.0
#
# folios.sh - the simulator's tests: large folios.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

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
