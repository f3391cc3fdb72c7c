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

/*
 * read_ahead_kb is the largest window, whatever the memory: 1 GB on a
 * machine of 256 MB ramps on past 256 pages, and 512 KB on a machine of
 * 8 MB reaches 128 pages.  A bound from memory would be a policy of its
 * own, which 6.1 does not have.
 */
static void max_not_capped_by_memory(void)
{
	struct h_file *f = h_create(64 << 20, 1 << 20);	/* 1 GB */
	struct h_file *g = h_create(8 << 20, 512);

	shim_totalram_pages = 65536;
	h_read_seq(f, 0, 1200);
	EXPECT_STR("1 GB", h_windows(), "0+4-3 4+16-16 20+64-64 84+256-256 "
		   "340+1024-1024 1364+4096-4096");
	h_log_reset();
	shim_totalram_pages = (8 << 20) / 4096;
	h_read_seq(g, 0, 200);
	EXPECT_STR("512 KB", h_windows(), "0+4-3 4+16-16 20+32-32 52+64-64 "
		   "116+128-128 244+128-128");
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
	test_run("read_ahead_kb not bounded by memory",
		 max_not_capped_by_memory);
	test_run("max cut by a read error", max_cut_by_read_error);
	test_run("POSIX_FADV_RANDOM", fmode_random);
}
