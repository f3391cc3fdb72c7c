// SPDX-License-Identifier: GPL-2.0
/*
 * limits.c - request sizes and maxima at their edges: oversize requests,
 * small random reads, read_ahead_kb 0, 4 KB and far too large.
 */
#include "test.h"

/* A 1 MB request at a 128 KB maximum. */
static void oversize(void)
{
	struct h_file *f = h_create(8 << 20, 128);

	f->bdi.io_pages = 32;	/* a device taking 128 KB at most */
	h_read(f, 100 * 4096, 1 << 20);
	EXPECT_STR("io", h_io(), "100-131[116] 132-163[132] 164-195[164] "
		   "196-227[196] 228-259[228] 260-291[260] 292-323[292] "
		   "324-355[324] 356-387[356]");
	EXPECT_INT("sync calls", h_sync_calls(), 1);
}

/* A large request may use the device's optimal I/O size. */
static void oversize_io_pages(void)
{
	struct h_file *f = h_create(8 << 20, 128);

	f->bdi.io_pages = 256;
	h_read(f, 0, 512 * 1024);
	EXPECT_STR("windows", h_windows(), "0+128-64 128+128-128");
}

/* Small random reads read what they ask and leave the state alone. */
static void random_reads(void)
{
	struct h_file *f = h_create(64 << 20, 128);
	static const pgoff_t at[] = { 9000, 12, 7777, 3000, 15000, 42 };
	struct file_ra_state before = f->file.f_ra;
	unsigned int i;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		h_read(f, at[i] * 4096 + 100, 2000);
	EXPECT_STR("io", h_io(), "9000 12 7777 3000 15000 42");
	EXPECT_STR("windows", h_windows(), "");
	INVARIANT(f->file.f_ra.start == before.start &&
		  f->file.f_ra.size == before.size &&
		  f->file.f_ra.async_size == before.async_size);
}

/* read_ahead_kb = 0: only the page each read needs, one at a time. */
static void disabled(void)
{
	struct h_file *f = h_create(1 << 20, 0);
	pgoff_t i;

	for (i = 0; i < 4; i++)
		h_read(f, i * 4096, 4096);
	h_read(f, 10 * 4096, 3 * 4096);
	EXPECT_STR("io", h_io(), "0 1 2 3 10 11 12");
	EXPECT_STR("windows", h_windows(), "");
}

/* read_ahead_kb = 4: one-page windows, each read a miss. */
static void one_page_max(void)
{
	struct h_file *f = h_create(1 << 20, 4);
	pgoff_t i;

	for (i = 0; i < 5; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("windows", h_windows(), "0+1-0 1+1-0 2+1-0 3+1-0 4+1-0");
	EXPECT_STR("io", h_io(), "0 1 2 3 4");
}

/* A huge read_ahead_kb is bounded by memory (1/128 of it). */
static void huge_max_capped(void)
{
	struct h_file *f = h_create(64 << 20, 1 << 20);	/* 1 GB */
	pgoff_t i;

	shim_totalram_pages = 65536;	/* 256 MB: cap at 512 pages */
	for (i = 0; i < 1200; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("windows", h_windows(), "0+4-3 4+16-16 20+64-64 "
		   "84+128-128 212+256-256 468+512-512 980+512-512 "
		   "1492+512-512");
}

/*
 * On a small machine the memory bound is below read_ahead_kb: 8 MB of RAM
 * hold a window to the default 32 pages, whatever the device allows.
 */
static void small_memory_capped(void)
{
	struct h_file *f = h_create(8 << 20, 512);
	pgoff_t i;

	shim_totalram_pages = (8 << 20) / 4096;
	for (i = 0; i < 200; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("windows", h_windows(), "0+4-3 4+8-8 12+16-16 28+32-32 "
		   "60+32-32 92+32-32 124+32-32 156+32-32 188+32-32 "
		   "220+32-32");
}

/*
 * In a memory cgroup the bound is a share of the lowest limit on the way
 * to the root: @limit (a cgroup's or its parent's) set to @mb MB, then
 * @reads 4 KB reads of a file on a device of 1 GB read_ahead_kb, on a
 * 1 GB machine.
 */
static void memcg_windows(struct page_counter *limit, unsigned long mb,
			  pgoff_t reads, const char *want)
{
	struct h_file *f = h_create(64 << 20, 1 << 20);

	limit->max = (mb << 20) / 4096;
	h_read_seq(f, 0, reads);
	EXPECT_STR("windows", h_windows(), want);
}

/* A cgroup of 64 MB holds a stream to 128 pages. */
static void memcg_capped(void)
{
	memcg_windows(&shim_memcg.memory, 64, 300, "0+4-3 4+16-16 20+32-32 "
		      "52+64-64 116+128-128 244+128-128 372+128-128");
}

/* A parent's limit bounds the cgroups below it: 32 MB, 64 pages. */
static void memcg_parent_capped(void)
{
	memcg_windows(&shim_memcg_parent.memory, 32, 150, "0+4-3 4+8-8 "
		      "12+16-16 28+32-32 60+64-64 124+64-64 188+64-64");
}

/*
 * A read error makes filemap divide the file's ra_pages by 4
 * (shrink_readahead_size_eio): the running stream slows down at once.
 */
static void max_cut_by_read_error(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	pgoff_t i;

	for (i = 0; i < 29; i++)
		h_read(f, i * 4096, 4096);	/* window 60+32-32 */
	f->file.f_ra.ra_pages /= 4;
	h_log_reset();
	for (i = 29; i < 101; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("windows", h_windows(), "92+8-8 100+8-8 108+8-8");
}

/*
 * Thrashing: the unread part of a stream's windows is evicted before the
 * reader gets there.  The sequential miss in the window halves the
 * file's maximum (256 pages to 128), the stream goes on in windows of
 * that size, and each window used at the cut maximum grows it back by a
 * quarter (160, 200, 250, 256) until it is the device's again.  A read error's
 * cut (above) does not grow back.
 */
static void thrash_cut_and_regrow(void)
{
	struct h_file *f = h_create(16 << 20, 1024);	/* 256 pages */

	h_read_seq(f, 0, 261);		/* windows to 500+256-256 */
	h_evict(f, 300, 456);
	h_log_reset();
	h_read_seq(f, 261, 39);
	EXPECT_INT("before the miss: ra_pages", f->file.f_ra.ra_pages, 256);
	h_read_seq(f, 300, 1700);
	EXPECT_STR("windows", h_windows(), "300+4-3 304+16-16 320+32-32 "
		   "352+64-64 416+128-128 544+160-160 704+200-200 "
		   "904+250-250 1154+256-256 1410+256-256 1666+256-256 "
		   "1922+256-256 2178+256-256");
	EXPECT_INT("ra_pages grown back", f->file.f_ra.ra_pages, 256);
	EXPECT_INT("no cut left", f->file.f_ra.thrash_cut, 0);
	INVARIANT(h_pages_resubmitted() == 0);
}

/* FMODE_RANDOM (POSIX_FADV_RANDOM): exactly the request, no state. */
static void fmode_random(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	pgoff_t i;

	INVARIANT(h_fadvise(f->fd, 0, 0, POSIX_FADV_RANDOM) == 0);
	for (i = 0; i < 3; i++)
		h_read(f, i * 4096, 4096);
	h_read(f, 20 * 4096, 5 * 4096);
	EXPECT_STR("io", h_io(), "0 1 2 20-24");
	EXPECT_STR("windows", h_windows(), "");
}

void limits_checks(void)
{
	test_run("oversize request", oversize);
	test_run("oversize within io_pages", oversize_io_pages);
	test_run("small random reads", random_reads);
	test_run("read_ahead_kb 0", disabled);
	test_run("read_ahead_kb 4", one_page_max);
	test_run("read_ahead_kb huge, capped by memory", huge_max_capped);
	test_run("small memory caps a large read_ahead_kb",
		 small_memory_capped);
	test_run("thrashing cuts the maximum, used windows grow it back",
		 thrash_cut_and_regrow);
	test_run("read_ahead_kb huge, capped by the memory cgroup",
		 memcg_capped);
	test_run("read_ahead_kb huge, capped by a parent memory cgroup",
		 memcg_parent_capped);
	test_run("max cut by a read error", max_cut_by_read_error);
	test_run("POSIX_FADV_RANDOM", fmode_random);
}
