# SPDX-License-Identifier: GPL-2.0
#
# blktrace.sh - the simulator's tests: blktrace output, read back by blkparse and btt.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

# ---- blktrace (--blktrace DIR): the disks' events in blktrace's binary
# format, read back field by field (tests/blkt_dump.c), then by the real
# blkparse and btt when installed.  sda: partitioned, noop, 64 KB
# requests (windows split); sdb: the whole disk, 2.6.30's queue plugging
# (bios merge while it is plugged). ----
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
