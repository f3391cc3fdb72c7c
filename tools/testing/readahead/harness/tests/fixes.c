// SPDX-License-Identifier: GPL-2.0
/*
 * fixes.c - what mainline fixed in readahead between 6.1 and 6.12, held
 * for ours on both bases: the synchronous call reads the page asked for;
 * an asynchronous call at a marked large folio at index 0 moves the
 * stream on; a filesystem that reads fewer pages than asked (NFS) never
 * stalls a reader or sends the window wrapping; no folio below the
 * mapping's minimum order; reading stops at the first -ENOMEM of the
 * page cache; a fault hit lowers mmap_miss, as 6.12's fault path does.
 * The pristine kernels' runs are recorded: the table of differences at
 * the end shows where 6.1 does otherwise.
 */
#include "test.h"

#define MB(n)	((loff_t)(n) << 20)

/* Was page @index in a ->readahead() request since the last log reset? */
static bool read_ahead(pgoff_t index)
{
	const struct h_io_req *req;
	unsigned long i, nr;

	req = h_io_reqs(&nr);
	for (i = 0; i < nr; i++)
		if (!req[i].single && req[i].first <= index &&
		    index < req[i].first + req[i].nr)
			return true;
	return false;
}

/*
 * A stream whose asynchronous window was evicted before the reader got
 * there: the read at the window's first page misses.  6.1 took that
 * page for the next window's trigger and read the window after it,
 * leaving the page itself to a single-page read.
 */
static void sync_reads_requested_page(void)
{
	struct h_file *f = h_create(MB(4), 128);

	h_read_seq(f, 0, 2);		/* 0+4, then the marker: 4+8 */
	h_evict(f, 4, 8);
	h_log_reset();
	h_read(f, 4 * 4096, 4096);
	EXPECT_INT("page 4 read ahead", read_ahead(4), 1);
	EXPECT_STR("io", h_io(), "4-12[12]");
	INVARIANT(h_cached(f, 4));
}

/*
 * The first window, 0+4 with its marker on page 1, was read as one
 * order-2 folio at index 0, which carries the marker: the hit there goes
 * on from page 4.  6.1 tested "index 0" before the marker and restarted
 * the stream at 0, over the cached folio, reading nothing.  Then a fresh
 * reader of another file finds such a folio, left by another reader: it
 * goes on too (pristine 6.12 takes the empty state's window for its own
 * and reads nothing).
 */
static void marker_at_index0_moves_on(void)
{
	struct h_file *f = h_create(MB(4), 128);
	struct h_file *g = h_create(MB(4), 128);

	h_set_large_folios(f, true);
	h_populate_marked(f, 0, 2);
	f->file.f_ra.start = 0;
	f->file.f_ra.size = 4;
	f->file.f_ra.async_size = 3;
	h_log_reset();
	h_read(f, 4096, 4096);
	EXPECT_INT("pages after the folio read ahead", read_ahead(4), 1);
	EXPECT_STR("io", h_io(), "4-11[4]");
	EXPECT_STR("windows", h_windows(), "4+8-8");

	h_set_large_folios(g, true);
	h_populate_marked(g, 0, 2);
	h_log_reset();
	h_read(g, 0, 4096);
	EXPECT_STR("another's folio: io", h_io(), "4-13[4]");
	EXPECT_STR("another's folio: windows", h_windows(), "4+10-10");
}

/*
 * NFS may read fewer pages than asked: the rest of each request is
 * dropped, the window shrinks with it.  A reader of the whole file still
 * gets every page, each read once, in a bounded number of calls, and the
 * window never wraps (6.11's "properly shorten" hung NFS readers).
 */
static void short_reads_bounded(void)
{
	struct h_file *f = h_create(MB(1), 128);
	struct file_ra_state *ra = &f->file.f_ra;
	pgoff_t i;
	bool sane = true;

	h_fs.take = 3;
	for (i = 0; i < 256; i++) {
		h_read(f, (loff_t)i * 4096, 4096);
		sane &= ra->size <= 32 && ra->async_size <= ra->size;
	}
	INVARIANT(sane);
	for (i = 0; i < 256; i++)
		INVARIANT(h_cached(f, i));
	INVARIANT(h_pages_resubmitted() == 0);
	INVARIANT(h_io_requests() <= 256);
	EXPECT_INT("I/O requests", h_io_requests(), 86);
	EXPECT_INT("readahead calls", h_ra_calls(), 86);
}

/*
 * Blocks of four pages (order 2): every folio of every path is at least
 * that, naturally aligned (the page cache's BUG_ON holds it), whatever
 * the request's alignment.
 */
static void min_order_held(void)
{
	struct h_file *f = h_create(MB(4) + 4096, 128);
	DEFINE_READAHEAD(ractl, &f->file, &f->file.f_ra, f->file.f_mapping, 0);
	pgoff_t i;

	if (test_base_61())
		return;		/* 6.1 has no minimum order */
	h_set_min_order(f, 2);
	for (i = 1; i < 100; i++)
		h_read(f, (loff_t)i * 4096, 4096);
	h_fadvise(f->fd, 3 * 4096 + 100, 9 * 4096, POSIX_FADV_DONTNEED);
	h_fadvise(f->fd, 601 * 4096, 5 * 4096, POSIX_FADV_WILLNEED);
	h_readahead(f->fd, 701 * 4096, 4096);
	ractl._index = 801;
	ra_impl->unbounded(&ractl, 3, 1);
	h_read(f, MB(4), 4096);		/* the last page: a partial block */
	EXPECT_STR("io", h_io(), "0-3 4-7[4] 8-15[8] 16-31[16] 32-63[32] "
		   "64-95[64] 96-127[96] 128-159[128] 600-607 700-703 "
		   "800-803[800] 1024-1027");
	EXPECT_STR("folios", h_folios(), "0-3:2 4-7:2* 8-15:3* 16-31:4* "
		   "32-63:5* 64-95:5* 96-127:5* 128-159:5* 600-607:2 700-703:2 "
		   "800-803:2* 1024-1027:2");
}

/*
 * The page cache refuses the third page of the first window for want of
 * memory (a memory cgroup at its limit): reading stops there.  6.1 went
 * on past the hole.
 */
static void enomem_stops(void)
{
	struct h_file *f = h_create(MB(4), 128);

	shim_add_enomem_in = 2;
	h_read(f, 0, 16384);
	/* The read's next page misses: the next call reads from it. */
	EXPECT_STR("io", h_io(), "0-1 2-5[4]");
}

/*
 * A fault hit lowers mmap_miss also on a folio that came back from
 * eviction (workingset), as 6.12's fault path does; only its
 * fault-around, which is not ours, leaves those out.
 */
static void workingset_hits_counted(void)
{
	struct h_file *f = h_create(MB(4), 128);
	pgoff_t i;

	shim_add_workingset = true;
	h_populate(f, 100, 8);
	shim_add_workingset = false;
	f->file.f_ra.mmap_miss = 10;
	for (i = 100; i < 108; i++)
		h_fault(f, i, 0);
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 2);
	h_populate(f, 200, 2);
	h_fault(f, 200, 0);
	h_fault(f, 201, 0);
	EXPECT_INT("mmap_miss after two plain hits", f->file.f_ra.mmap_miss,
		   0);
}

void fixes_checks(void)
{
	test_run("6.12 fixes: the synchronous call reads the requested page",
		 sync_reads_requested_page);
	test_run("6.12 fixes: a marked large folio at index 0 moves on",
		 marker_at_index0_moves_on);
	test_run("6.12 fixes: short reads (NFS): bounded, nothing wraps",
		 short_reads_bounded);
	test_run("6.12 fixes: no folio below the minimum order",
		 min_order_held);
	test_run("6.12 fixes: reading stops at -ENOMEM", enomem_stops);
	test_run("6.12 fixes: workingset hits lower mmap_miss too",
		 workingset_hits_counted);
}
