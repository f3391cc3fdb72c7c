// SPDX-License-Identifier: GPL-2.0
/*
 * api.c - the entry points filesystems call directly, and what the core
 * does when the filesystem or the allocator lets it down.
 */
#include "test.h"

#define MB(n)	((loff_t)(n) << 20)

/*
 * The shim's hole searches return what the implementation's kernel's
 * mm/filemap.c returns (see pagecache.c): the hole if there is one within
 * @max_scan, else, in 6.1, the last index scanned, which is cached, and
 * in 6.12 the index after it.
 */
static void hole_search(void)
{
	struct h_file *f = h_create(MB(1), 128);
	struct address_space *m = f->file.f_mapping;
	/* No hole: 6.1 returns the last index scanned, 6.12 the next. */
	pgoff_t last = ra_impl->flags & RA_IMPL_PAGE_CACHE_61 ? 1 : 0;

	h_populate(f, 0, 10);
	INVARIANT(page_cache_next_miss(m, 3, 100) == 10);
	INVARIANT(page_cache_next_miss(m, 3, 8) == 10);	/* hole: last index */
	INVARIANT(page_cache_next_miss(m, 3, 7) == 10 - last);
	INVARIANT(page_cache_next_miss(m, 3, 4) == 7 - last);
	INVARIANT(page_cache_next_miss(m, 3, 1) == 4 - last);
	INVARIANT(page_cache_next_miss(m, 3, 0) == 3);
	INVARIANT(page_cache_next_miss(m, 12, 5) == 12);
	INVARIANT(page_cache_next_miss(m, 0, 5) == 0);	/* page 0 stops it */
	INVARIANT(page_cache_prev_miss(m, 9, 100) == ULONG_MAX);
	INVARIANT(page_cache_prev_miss(m, 9, 11) == ULONG_MAX);
	INVARIANT(page_cache_prev_miss(m, 9, 10) == 0);	/* none: 9 - 10 + 1 */
	INVARIANT(page_cache_prev_miss(m, 9, 4) == 6);	/* none: 9 - 4 + 1 */
	INVARIANT(page_cache_prev_miss(m, 9, 0) == 9);
	INVARIANT(page_cache_prev_miss(m, 11, 5) == 11);
	h_populate(f, ULONG_MAX - 1, 1);
	INVARIANT(page_cache_next_miss(m, ULONG_MAX - 1, 5) == ULONG_MAX);
	h_populate(f, ULONG_MAX, 1);
	INVARIANT(page_cache_next_miss(m, ULONG_MAX - 1, 5) == 0);	/* wraps */
	INVARIANT(page_cache_next_miss(m, ULONG_MAX - 1, 2) == 0 - last);
	INVARIANT(page_cache_prev_miss(m, ULONG_MAX, 5) == ULONG_MAX);
	h_drop_cache(f);
}

/* page_cache_ra_unbounded: runs around cached pages, the marker. */
static void unbounded(void)
{
	struct h_file *f = h_create(MB(1), 128);
	DEFINE_READAHEAD(ractl, &f->file, &f->file.f_ra, f->file.f_mapping, 0);

	h_populate(f, 5, 1);
	ra_impl->unbounded(&ractl, 10, 4);
	EXPECT_STR("io", h_io(), "0-4 6-9[6]");
	INVARIANT(h_marked(f, 6));
}

/* Beyond i_size, as verity metadata needs: unbounded means it. */
static void unbounded_past_eof(void)
{
	struct h_file *f = h_create(2 * 4096, 128);
	DEFINE_READAHEAD(ractl, &f->file, &f->file.f_ra, f->file.f_mapping, 4);

	ra_impl->unbounded(&ractl, 3, 0);
	EXPECT_STR("io", h_io(), "4-6");
}

/* A filesystem that grows every request to 16 pages. */
static void expand(void)
{
	struct h_file *f = h_create(MB(1), 128);
	pgoff_t i;

	h_fs.expand_align = 16;
	for (i = 0; i < 2; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("io", h_io(), "0-15[1] 16-47[16]");
	EXPECT_STR("windows", h_windows(), "0+16-15 16+32-32");
}

/*
 * The pages a filesystem adds to a window (here up to 8-page boundaries:
 * the 128-page read's 32-page window at 425 becomes 39 pages) are read,
 * but the next window is not kept at that size: it is the maximum, and
 * the windows after it do not grow by each expansion.
 */
static void expansion_not_kept(void)
{
	struct h_file *f = h_create(MB(4), 128);

	f->bdi.io_pages = 32;
	h_fs.expand_align = 8;
	h_read(f, 425 * 4096, 128 * 4096);
	EXPECT_STR("io", h_io(), "424-463[441] 464-495[464] 496-527[496] "
		   "528-559[528] 560-591[560]");
	EXPECT_STR("windows", h_windows(), "425+39-23 464+32-32 496+32-32 "
		   "528+32-32 560+32-32");
}

/* Expansion stops for good at the first cached page. */
static void expand_blocked(void)
{
	struct h_file *f = h_create(MB(1), 128);

	h_fs.expand_align = 16;
	h_populate(f, 33, 1);
	h_populate(f, 44, 1);
	h_read(f, 40 * 4096, 4096);	/* a random read: 40 alone */
	EXPECT_STR("io", h_io(), "34-40");
}

/* A filesystem that reads only 2 pages of each request: the rest leaves
 * the cache and the window, so the state says what was read. */
static void fs_reads_less(void)
{
	struct h_file *f = h_create(MB(1), 128);

	h_fs.take = 2;
	h_read(f, 0, 4096);
	EXPECT_STR("io", h_io(), "0-1[1]");
	EXPECT_STR("state", h_calls(), "sync 0+1 0+2-1 =2");
	EXPECT_INT("pages added", h_pages_added(), 4);
	EXPECT_INT("pages dropped", h_pages_removed(), 2);
	INVARIANT(!h_cached(f, 2) && !h_cached(f, 3));
}

/* Allocation fails mid-window: what was allocated is read, no more. */
static void allocation_failure(void)
{
	struct h_file *f = h_create(MB(1), 128);

	shim_alloc_budget = 2;
	EXPECT_INT("bytes", h_read(f, 0, 4096), 4096);
	EXPECT_STR("io", h_io(), "0-1[1]");
	EXPECT_INT("pages added", h_pages_added(), 2);
	shim_alloc_budget = -1;
	EXPECT_INT("bytes", h_read(f, 4096, 4096), 4096);
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * readahead(2) on a filesystem that declines every page: forced reads
 * are not the file's window, so its state must not move (it used to
 * underflow to 0+4294967254-0; found by the fuzzer).
 */
static void forced_read_keeps_window(void)
{
	struct h_file *f = h_create(42 * 4096, 128);

	h_fs.take = 0;
	EXPECT_INT("ret", h_readahead(f->fd, 0, 0), 0);
	EXPECT_STR("call", h_calls(), "fadvise 0+18446744073709551615 0+0-0 =0");
	EXPECT_INT("window size", f->file.f_ra.size, 0);
}

/*
 * A random read on a filesystem that expands requests: the random read
 * is not the file's window, so the expansion must not grow the window
 * (it did, past the maximum; found by the fuzzer).
 */
static void random_read_expand_keeps_window(void)
{
	struct h_file *f = h_create(1 << 30, 128);

	h_fs.expand_align = 16;
	h_read(f, 5000 * 4096, 4096);
	EXPECT_STR("io", h_io(), "4992-5007");
	EXPECT_INT("window size", f->file.f_ra.size, 0);
}

/* A fault on the last page of a file of LLONG_MAX bytes: prev_pos must
 * not overflow (found by the fuzzer). */
static void fault_on_last_possible_page(void)
{
	struct h_file *f = h_create(LLONG_MAX, 128);
	pgoff_t last = (pgoff_t)(LLONG_MAX >> PAGE_SHIFT);

	EXPECT_INT("major", h_fault(f, last, VM_SEQ_READ), 1);
	EXPECT_INT("prev_pos", f->file.f_ra.prev_pos, LLONG_MAX);
}

void api_checks(void)
{
	test_run("shim hole search", hole_search);
	test_run("page_cache_ra_unbounded", unbounded);
	test_run("page_cache_ra_unbounded past eof", unbounded_past_eof);
	test_run("readahead_expand", expand);
	test_run("readahead_expand blocked", expand_blocked);
	test_run("readahead_expand not kept in the window",
		 expansion_not_kept);
	test_run("filesystem reads less", fs_reads_less);
	test_run("allocation failure", allocation_failure);
	test_run("forced read keeps the window", forced_read_keeps_window);
	test_run("random read with expansion keeps the window",
		 random_read_expand_keeps_window);
	test_run("fault on the last possible page",
		 fault_on_last_possible_page);
}
