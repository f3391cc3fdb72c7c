# SPDX-License-Identifier: GPL-2.0
#
# ftrace.sh - the simulator's tests: ftrace output: 6.12's page cache tracepoints.
# Sourced by run.sh after lib.sh (SIM, ASAN, SC, TMP, OUT, HERE; run,
# field, check).

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
