// SPDX-License-Identifier: GPL-2.0
/*
 * fadvise.c - POSIX_FADV_WILLNEED and readahead(2): forced readahead in
 * bounded chunks, and the errors of both system calls on bad input.
 */
#include "test.h"

#include <stdint.h>

#define MB(n)	((loff_t)(n) << 20)

/*
 * 4 MB of WILLNEED at a 128 KB maximum, on a device whose optimal I/O is
 * 320 pages: one call reads the larger of the two, as 6.1 does.
 */
static void willneed_chunks(void)
{
	struct h_file *f = h_create(MB(8), 128);

	EXPECT_INT("ret", h_fadvise(f->fd, 0, MB(4), POSIX_FADV_WILLNEED), 0);
	EXPECT_STR("io", h_io(), "0-319");
	EXPECT_STR("windows", h_windows(), "");
}

/* Cached pages inside the range are skipped, not read again. */
static void willneed_partly_cached(void)
{
	struct h_file *f = h_create(MB(8), 128);

	h_populate(f, 10, 10);
	h_fadvise(f->fd, 4096, 40 * 4096, POSIX_FADV_WILLNEED);
	EXPECT_STR("io", h_io(), "1-9 20-40");
	INVARIANT(h_pages_resubmitted() == 0);
}

/* readahead(2) of the whole file, and of a range crossing EOF. */
static void readahead_syscall(void)
{
	struct h_file *f = h_create(MB(5) + 100, 128);

	EXPECT_INT("ret", h_readahead(f->fd, 0, 0), 0);
	EXPECT_STR("count 0: from 0, one call's worth", h_io(), "0-319");
	h_drop_cache(f);
	h_log_reset();
	EXPECT_INT("ret", h_readahead(f->fd, MB(5) - 4096, MB(1)), 0);
	EXPECT_STR("across eof", h_io(), "1279-1280");
}

/* The errors, each leaving the cache and the state as they were. */
static void bad_input(void)
{
	struct h_file *f = h_create(MB(1), 128);
	int wronly = h_open_special(S_IFREG | 0644, FMODE_WRITE);
	int fifo = h_open_special(S_IFIFO | 0600, FMODE_READ);
	int dir = h_open_special(S_IFDIR | 0755, FMODE_READ);

	EXPECT_INT("readahead bad fd", h_readahead(57, 0, 4096), -EBADF);
	EXPECT_INT("readahead fd -1", h_readahead(-1, 0, 4096), -EBADF);
	EXPECT_INT("readahead write-only", h_readahead(wronly, 0, 4096),
		   -EBADF);
	EXPECT_INT("readahead fifo", h_readahead(fifo, 0, 4096), -EINVAL);
	EXPECT_INT("readahead directory", h_readahead(dir, 0, 4096), -EINVAL);
	/* As in 6.1: a negative offset reads nothing and is no error. */
	EXPECT_INT("readahead negative offset", h_readahead(f->fd, -4096, 4096),
		   0);
	EXPECT_INT("readahead huge count", h_readahead(f->fd, 0, SIZE_MAX),
		   -EINVAL);
	EXPECT_INT("readahead overflowing range",
		   h_readahead(f->fd, LLONG_MAX - 10, 100), 0);
	EXPECT_INT("readahead beyond eof", h_readahead(f->fd, MB(2), 4096), 0);
	EXPECT_INT("fadvise bad fd", h_fadvise(57, 0, 0, POSIX_FADV_WILLNEED),
		   -EBADF);
	EXPECT_INT("fadvise fifo", h_fadvise(fifo, 0, 0, POSIX_FADV_WILLNEED),
		   -ESPIPE);
	EXPECT_INT("fadvise negative len",
		   h_fadvise(f->fd, 0, -1, POSIX_FADV_WILLNEED), -EINVAL);
	EXPECT_INT("fadvise bad advice", h_fadvise(f->fd, 0, 0, 99), -EINVAL);
	EXPECT_STR("nothing read", h_io(), "");
	INVARIANT(f->file.f_ra.size == 0 && f->file.f_ra.prev_pos == -1);
}

/* DONTNEED drops whole pages only; WILLNEED brings them back. */
static void dontneed_then_willneed(void)
{
	struct h_file *f = h_create(MB(1), 128);

	h_populate(f, 0, 16);
	h_fadvise(f->fd, 2048, 8 * 4096, POSIX_FADV_DONTNEED);
	INVARIANT(h_cached(f, 0) && !h_cached(f, 1) && !h_cached(f, 7) &&
		  h_cached(f, 8));
	h_fadvise(f->fd, 0, 16 * 4096, POSIX_FADV_WILLNEED);
	EXPECT_STR("io", h_io(), "1-7");
}

/*
 * One call reads at most the larger of read_ahead_kb and the device's
 * optimal I/O size, in 2 MB chunks, whatever the memory: 1024 pages at
 * read_ahead_kb 4 MB, 2048 with an optimal I/O size of 8 MB.
 */
static void force_bounded_by_device(void)
{
	struct h_file *f = h_create(MB(16), 4096);

	shim_totalram_pages = MB(64) / 4096;
	f->bdi.io_pages = 0;
	EXPECT_INT("readahead", h_readahead(f->fd, 0, 0), 0);
	EXPECT_STR("read_ahead_kb", h_io(), "0-511 512-1023");
	h_drop_cache(f);
	h_log_reset();
	f->bdi.io_pages = 2048;
	EXPECT_INT("willneed",
		   h_fadvise(f->fd, 0, MB(16), POSIX_FADV_WILLNEED), 0);
	EXPECT_STR("io_pages", h_io(), "0-511 512-1023 1024-1535 1536-2047");
}

void fadvise_checks(void)
{
	test_run("WILLNEED bounded by the device", willneed_chunks);
	test_run("WILLNEED over cached pages", willneed_partly_cached);
	test_run("readahead(2) ranges", readahead_syscall);
	test_run("readahead(2) and fadvise bad input", bad_input);
	test_run("DONTNEED then WILLNEED", dontneed_then_willneed);
	test_run("forced readahead bounded by the device, not memory",
		 force_bounded_by_device);
}
