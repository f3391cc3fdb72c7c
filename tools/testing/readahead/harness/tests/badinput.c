// SPDX-License-Identifier: GPL-2.0
/*
 * badinput.c - bad input everywhere: read_ahead_kb of 0, 1 and far too
 * large; debugfs writes that are empty, huge, hexadecimal or followed by
 * garbage; readahead(2) and fadvise with overflowing or negative ranges
 * and zero counts.  Each checks the exact result and that nothing changed:
 * no page read, no readahead state moved, trace_enable and stats as they
 * were.  (fadvise.c and trace.c cover bad descriptors, FIFOs, directories
 * and the first garbage strings.)
 */
#include "test.h"

#define ENABLE	"readahead/trace_enable"
#define STATS	"readahead/stats"
#define MB(n)	((loff_t)(n) << 20)

static const char *read_file(const char *path, char *buf, size_t size)
{
	h_debugfs_read(path, buf, size);
	return buf;
}

static bool same_state(const struct file_ra_state *a,
		       const struct file_ra_state *b)
{
	return !memcmp(a, b, sizeof(*a));
}

/* 1 KB is less than a page: 0 pages, readahead off, as with 0. */
static void ra_kb_1(void)
{
	struct h_file *f = h_create(MB(1), 1);
	struct h_file *g = h_create(MB(1), 3);
	pgoff_t i;

	INVARIANT(f->file.f_ra.ra_pages == 0 && g->file.f_ra.ra_pages == 0);
	for (i = 0; i < 4; i++)
		h_read(f, i * 4096, 4096);
	h_read(g, 0, 3 * 4096);
	EXPECT_STR("io", h_io(), "0 1 2 3 0 1 2");
	EXPECT_STR("windows", h_windows(), "");
}

/* Readahead off still reads what readahead(2) and WILLNEED ask for. */
static void ra_kb_0_explicit(void)
{
	struct h_file *f = h_create(MB(1), 0);

	EXPECT_INT("readahead", h_readahead(f->fd, 0, 64 * 4096), 0);
	EXPECT_INT("willneed",
		   h_fadvise(f->fd, 100 * 4096, 8 * 4096, POSIX_FADV_WILLNEED),
		   0);
	EXPECT_STR("io", h_io(), "0-63 100-107");
	EXPECT_STR("windows", h_windows(), "");
	INVARIANT(f->file.f_ra.size == 0);
}

/*
 * 1 TB of read_ahead_kb (2^28 pages) with 1 GB of memory: ours caps each
 * window at 1/128 of memory, 2048 pages; the file is read once.
 */
static void ra_kb_huge(void)
{
	struct h_file *f = h_create(MB(64), 1UL << 30);
	unsigned int largest = 0;
	pgoff_t i;

	INVARIANT(f->file.f_ra.ra_pages == 1U << 28);
	for (i = 0; i < 4096; i++) {
		h_read(f, i * 4096, 4096);
		largest = max(largest, f->file.f_ra.size);
	}
	EXPECT_INT("largest window", largest, 2048);
	EXPECT_STR("windows", h_windows(),
		   "0+4-3 4+16-16 20+64-64 84+256-256 340+512-512 "
		   "852+1024-1024 1876+2048-2048 3924+2048-2048 "
		   "5972+2048-2048");
	INVARIANT(h_pages_resubmitted() == 0);
}

/* Writes to trace_enable that must fail, changing nothing. */
static void enable_garbage(void)
{
	static const char * const bad[] = {
		"0x1", "1\ngarbage", "0\n1", "4294967296", "4294967297",
		"1 ", "\n", "0\n\n", "1\r\n", "+ 1", "true",
		"11111111111111111111111111111111111111111111111111",
	};
	struct h_file *f = h_create(MB(1), 128);
	struct file_ra_state before = f->file.f_ra;
	char buf[16];
	unsigned int i;

	EXPECT_INT("on", h_debugfs_write(ENABLE, "1"), 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char label[40];

		snprintf(label, sizeof(label), "write \"%.20s\"", bad[i]);
		EXPECT_INT(label, h_debugfs_write(ENABLE, bad[i]), -EINVAL);
		INVARIANT(!strcmp(read_file(ENABLE, buf, sizeof(buf)), "1\n"));
	}
	/* A leading zero is still a decimal 0 or 1. */
	EXPECT_INT("write \"00\"", h_debugfs_write(ENABLE, "00"), 2);
	EXPECT_STR("off", read_file(ENABLE, buf, sizeof(buf)), "0\n");
	EXPECT_INT("write \"01\\n\"", h_debugfs_write(ENABLE, "01\n"), 3);
	EXPECT_STR("on again", read_file(ENABLE, buf, sizeof(buf)), "1\n");
	/* As 6.1's kstrtouint_from_user(): a leading '+' is a sign... */
	EXPECT_INT("write \"+0\"", h_debugfs_write(ENABLE, "+0"), 2);
	EXPECT_STR("off by +0", read_file(ENABLE, buf, sizeof(buf)), "0\n");
	EXPECT_INT("write \"+1\"", h_debugfs_write(ENABLE, "+1"), 2);
	EXPECT_STR("on by +1", read_file(ENABLE, buf, sizeof(buf)), "1\n");
	/* ...and only the first 34 bytes of a write are read. */
	EXPECT_INT("write 34 zeros and 1",
		   h_debugfs_write(ENABLE, "0000000000" "0000000000"
				   "0000000000" "0000" "1"), 35);
	EXPECT_STR("off: the 1 was cut", read_file(ENABLE, buf, sizeof(buf)),
		   "0\n");
	EXPECT_INT("write 33 zeros, 1 and a newline",
		   h_debugfs_write(ENABLE, "0000000000" "0000000000"
				   "0000000000" "000" "1\n"), 35);
	EXPECT_STR("on: 34 bytes read", read_file(ENABLE, buf, sizeof(buf)),
		   "1\n");
	EXPECT_STR("no trace line", h_trace(), "");
	EXPECT_STR("nothing read", h_io(), "");
	INVARIANT(same_state(&before, &f->file.f_ra));
}

/* Writes to stats that must fail leave the table as it was. */
static void stats_garbage(void)
{
	static const char * const bad[] = {
		"", "\n", "0x0", "0\ngarbage", "-0", " 0", "0 ", "1",
		"4294967296", "reset\n",
	};
	static char before[4096], after[4096];
	struct h_file *f = h_create(MB(1), 128);
	unsigned int i;
	pgoff_t pg;

	for (pg = 0; pg < 20; pg++)
		h_read(f, pg * 4096, 4096);
	read_file(STATS, before, sizeof(before));
	EXPECT_INT("stats counted",
		   !!strstr(before, "\nall                 4 "), 1);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char label[40];

		snprintf(label, sizeof(label), "write \"%.20s\"", bad[i]);
		EXPECT_INT(label, h_debugfs_write(STATS, bad[i]), -EINVAL);
		INVARIANT(!strcmp(read_file(STATS, after, sizeof(after)),
				  before));
	}
	EXPECT_INT("reset with \"00\\n\"", h_debugfs_write(STATS, "00\n"), 3);
	EXPECT_STR("all after reset",
		   strstr(read_file(STATS, after, sizeof(after)), "\nall") ?:
		   "",
		   "\nall                 0          0          0          0          0          0          0          0          0\n"
		   "dropped             0\n");
}

/* readahead(2) ranges that overflow, and zero counts on an empty file. */
static void readahead_ranges(void)
{
	struct h_file *f = h_create(MB(1), 128);
	struct h_file *empty = h_create(0, 128);
	struct file_ra_state before = f->file.f_ra;

	EXPECT_INT("offset LLONG_MAX, count SSIZE_MAX",
		   h_readahead(f->fd, LLONG_MAX, SSIZE_MAX), 0);
	EXPECT_INT("offset+count wraps",
		   h_readahead(f->fd, LLONG_MAX - 4095, 8192), 0);
	EXPECT_INT("count past LLONG_MAX",
		   h_readahead(f->fd, 4096, (size_t)LLONG_MAX + 1), -EINVAL);
	/* Negative offsets read nothing and are no error, as in 6.1. */
	EXPECT_INT("offset LLONG_MIN", h_readahead(f->fd, LLONG_MIN, 4096), 0);
	EXPECT_INT("offset -1, count 0", h_readahead(f->fd, -1, 0), 0);
	EXPECT_INT("empty file, count 0", h_readahead(empty->fd, 0, 0), 0);
	EXPECT_INT("empty file, offset 4096, count 0",
		   h_readahead(empty->fd, 4096, 0), 0);
	EXPECT_INT("empty file, count SIZE_MAX",
		   h_readahead(empty->fd, 0, SIZE_MAX), -EINVAL);
	EXPECT_STR("nothing read", h_io(), "");
	INVARIANT(h_pages_added() == 0);
	INVARIANT(same_state(&before, &f->file.f_ra));
	INVARIANT(empty->file.f_ra.size == 0 && empty->file.f_ra.start == 0);
}

/* fadvise with ranges that overflow or start before 0: no page moves. */
static void fadvise_ranges(void)
{
	static const struct {
		const char *label;
		loff_t offset, len;
		int advice, ret;
	} calls[] = {
		{ "WILLNEED LLONG_MAX+LLONG_MAX", LLONG_MAX, LLONG_MAX,
		  POSIX_FADV_WILLNEED, 0 },
		{ "WILLNEED LLONG_MAX+1", LLONG_MAX, 1,
		  POSIX_FADV_WILLNEED, 0 },
		{ "WILLNEED -4096+8192", -4096, 8192, POSIX_FADV_WILLNEED, 0 },
		{ "WILLNEED LLONG_MIN+LLONG_MAX", LLONG_MIN, LLONG_MAX,
		  POSIX_FADV_WILLNEED, 0 },
		{ "WILLNEED -1+0", -1, 0, POSIX_FADV_WILLNEED, 0 },
		{ "DONTNEED -4096+8192", -4096, 8192, POSIX_FADV_DONTNEED, 0 },
		{ "DONTNEED LLONG_MAX+LLONG_MAX", LLONG_MAX, LLONG_MAX,
		  POSIX_FADV_DONTNEED, 0 },
		{ "DONTNEED LLONG_MIN+0", LLONG_MIN, 0,
		  POSIX_FADV_DONTNEED, 0 },
		{ "WILLNEED len LLONG_MIN", 0, LLONG_MIN, POSIX_FADV_WILLNEED,
		  -EINVAL },
		{ "DONTNEED len -1", 0, -1, POSIX_FADV_DONTNEED, -EINVAL },
		{ "advice INT_MIN", 0, 0, INT_MIN, -EINVAL },
		{ "advice 6", 0, 0, 6, -EINVAL },
		{ "NOREUSE LLONG_MIN+LLONG_MIN", LLONG_MIN, LLONG_MIN,
		  POSIX_FADV_NOREUSE, -EINVAL },
	};
	struct h_file *f = h_create(MB(1), 128);
	struct file_ra_state before;
	unsigned int i;

	h_populate(f, 0, 16);
	h_log_reset();
	before = f->file.f_ra;
	for (i = 0; i < sizeof(calls) / sizeof(calls[0]); i++)
		EXPECT_INT(calls[i].label,
			   h_fadvise(f->fd, calls[i].offset, calls[i].len,
				     calls[i].advice),
			   calls[i].ret);
	EXPECT_STR("nothing read", h_io(), "");
	INVARIANT(h_pages_added() == 0 && h_pages_removed() == 0);
	INVARIANT(h_cached(f, 0) && h_cached(f, 15));
	INVARIANT(same_state(&before, &f->file.f_ra));
	INVARIANT(!(f->file.f_mode & FMODE_RANDOM));
}

void badinput_checks(void)
{
	test_run("read_ahead_kb 1 and 3: off", ra_kb_1);
	test_run("read_ahead_kb 0: readahead(2) still reads", ra_kb_0_explicit);
	test_run("read_ahead_kb 1 TB: capped by memory", ra_kb_huge);
	test_run("trace_enable garbage changes nothing", enable_garbage);
	test_run("stats garbage changes nothing", stats_garbage);
	test_run("readahead(2) overflowing ranges, count 0", readahead_ranges);
	test_run("fadvise overflowing and negative ranges", fadvise_ranges);
}
