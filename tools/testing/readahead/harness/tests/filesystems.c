// SPDX-License-Identifier: GPL-2.0
/*
 * filesystems.c - the filesystems' side of the ->readahead() contract.
 *
 * What a filesystem's ->readahead() may do with the readahead_control it
 * is handed, and what the policy must survive: read rac->ra (FUSE, when
 * its background requests pass the congestion threshold), take fewer
 * folios than asked (NFS, CIFS, netfs), grow the request with
 * readahead_expand() (ceph, netfs, erofs).  The first kind is pinned
 * here on every path that reads outside the file's window.
 */
#include "test.h"

#define MB(n)	((loff_t)(n) << 20)

/* A file on a congested FUSE connection. */
static struct h_file *fuse_file(loff_t size, unsigned long ra_kb)
{
	h_fs.congested = true;
	return h_create(size, ra_kb);
}

/*
 * Small random reads are read outside the window, and every page is
 * needed: FUSE finds a window with nothing asynchronous and reads it all.
 */
static void fuse_random_reads(void)
{
	struct h_file *f = fuse_file(MB(64), 128);
	static const pgoff_t at[] = { 9000, 12, 7777, 3000 };
	unsigned int i;

	for (i = 0; i < sizeof(at) / sizeof(at[0]); i++)
		h_read(f, at[i] * 4096 + 100, 2 * 4096);
	EXPECT_STR("io", h_io(), "9000-9002 12-14 7777-7779 3000-3002");
	EXPECT_STR("windows", h_windows(), "");
}

/* POSIX_FADV_RANDOM: each read is forced, as it is, through FUSE. */
static void fuse_fadv_random(void)
{
	struct h_file *f = fuse_file(MB(8), 128);

	h_fadvise(f->fd, 0, 0, POSIX_FADV_RANDOM);
	h_read(f, 0, 3 * 4096);
	h_read(f, 3 * 4096, 4096);
	EXPECT_STR("io", h_io(), "0-2 3");
	EXPECT_STR("windows", h_windows(), "");
}

/* read_ahead_kb 0, and a congested block cgroup: the page still comes. */
static void fuse_no_readahead(void)
{
	struct h_file *f = fuse_file(MB(8), 0);
	struct h_file *g = h_create(MB(8), 128);

	h_read(f, 5 * 4096, 4096);
	shim_blkcg_congested = true;
	h_read(g, 0, 4096);
	EXPECT_STR("io", h_io(), "5 0");
}

/* WILLNEED, readahead(2) and MADV_WILLNEED (the same path) read it all. */
static void fuse_forced(void)
{
	struct h_file *f = fuse_file(MB(8), 128);

	EXPECT_INT("fadvise", h_fadvise(f->fd, 0, 64 * 4096,
					POSIX_FADV_WILLNEED), 0);
	EXPECT_INT("readahead", h_readahead(f->fd, MB(1), 16 * 4096), 0);
	EXPECT_STR("io", h_io(), "0-63 256-271");
	EXPECT_STR("windows", h_windows(), "");
}

/*
 * A stream on a congested connection: FUSE reads the asked page and, as
 * the folio it holds still counts in the request, one page more (the
 * marked one); the rest of the asynchronous part leaves the window.
 */
static void fuse_stream(void)
{
	struct h_file *f = fuse_file(MB(8), 128);

	h_read(f, 0, 4096);
	EXPECT_STR("calls", h_calls(), "sync 0+1 0+2-1 =2");
	EXPECT_STR("io", h_io(), "0-1[1]");
	EXPECT_INT("cached", h_cached(f, 2), 0);
}

void filesystems_checks(void)
{
	test_run("fuse congested: random reads", fuse_random_reads);
	test_run("fuse congested: POSIX_FADV_RANDOM", fuse_fadv_random);
	test_run("fuse congested: no readahead", fuse_no_readahead);
	test_run("fuse congested: WILLNEED and readahead(2)", fuse_forced);
	test_run("fuse congested: a stream", fuse_stream);
}
