// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - /sys/kernel/debug/readahead/: trace_enable, the trace lines
 * of each decision, and the stats table.  The pristine 6.1 file has none
 * of it: its results are recorded, not checked.
 */
#include "test.h"

#define ENABLE	"readahead/trace_enable"
#define STATS	"readahead/stats"

static const char *read_file(const char *path)
{
	static char buf[4096];

	h_debugfs_read(path, buf, sizeof(buf));
	return buf;
}

/* 0 or 1 (newline optional); anything else is -EINVAL, changing nothing. */
static void enable_and_bad_input(void)
{
	static const char * const bad[] = {
		"2", "garbage", "", "1x", "-1", " 1", "99999999999", "1\n\n",
	};
	unsigned int i;

	EXPECT_STR("default", read_file(ENABLE), "0\n");
	EXPECT_INT("write 1", h_debugfs_write(ENABLE, "1\n"), 2);
	EXPECT_STR("on", read_file(ENABLE), "1\n");
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		char label[32];

		snprintf(label, sizeof(label), "write \"%s\"", bad[i]);
		EXPECT_INT(label, h_debugfs_write(ENABLE, bad[i]), -EINVAL);
	}
	EXPECT_STR("still on", read_file(ENABLE), "1\n");
	EXPECT_INT("write 0", h_debugfs_write(ENABLE, "0"), 1);
	EXPECT_STR("off", read_file(ENABLE), "0\n");
}

/* The ramp of 4 KB reads, line by line. */
static void ramp_lines(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	pgoff_t i;

	h_debugfs_write(ENABLE, "1");
	for (i = 0; i < 13; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("trace", h_trace(),
		   "readahead-initial0(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=0+1, ra=0+4-3, async=0) = 4\n"
		   "readahead-subsequent(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=1+1, ra=4+8-8, async=1) = 8\n"
		   "readahead-subsequent(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=4+1, ra=12+16-16, async=1) = 16\n"
		   "readahead-subsequent(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=12+1, ra=28+32-32, async=1) = 32");
}

/* Off: the same reads print nothing. */
static void trace_off_prints_nothing(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	pgoff_t i;

	for (i = 0; i < 13; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("trace", h_trace(), "");
}

/* Faults carry miss=; read-around and a random read, and an all-cached
 * marker hit by a second reader (the seed's "= 0" lines cannot happen:
 * the stale window is not issued). */
static void fault_and_random_lines(void)
{
	struct h_file *f = h_create(8 << 20, 128);

	h_debugfs_write(ENABLE, "1");
	h_fault(f, 500, 0);
	h_read(f, 1000 * 4096, 4096);
	h_fadvise(f->fd, 2000 * 4096, 8 * 4096, POSIX_FADV_WILLNEED);
	EXPECT_STR("trace", h_trace(),
		   "readahead-around(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=500+1, ra=484+32-8, async=0, miss=1) = 32\n"
		   "readahead-random(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=1000+1, ra=1000+1-0, async=0) = 1\n"
		   "readahead-fadvise(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=2000+8, ra=2000+8-0, async=0) = 8");
}

/*
 * The stats table after a ramp to EOF (windows 4, 8, 16, 32 and 32 of
 * which 4 in the file), a cached read and a fault with MADV_RANDOM; means
 * are rounded down.  "0" resets it.
 */
static void stats_table(void)
{
	struct h_file *f = h_create(64 * 4096, 128);
	pgoff_t i;

	for (i = 0; i < 64; i++)
		h_read(f, i * 4096, 4096);
	h_read(f, 10 * 4096, 4096);	/* cached: no readahead */
	h_fault(f, 63, VM_RAND_READ);
	EXPECT_STR("stats", read_file(STATS),
		   "pattern     readahead    eof_hit  cache_hit         io    sync_io    mmap_io       size async_size    io_size\n"
		   "initial0            1          0          0          1          1          0          4          3          4\n"
		   "initial             0          0          0          0          0          0          0          0          0\n"
		   "subsequent          4          1          0          4          0          0         22         22         15\n"
		   "marker              0          0          0          0          0          0          0          0          0\n"
		   "context             0          0          0          0          0          0          0          0          0\n"
		   "oversize            0          0          0          0          0          0          0          0          0\n"
		   "random              0          0          0          0          0          0          0          0          0\n"
		   "around              0          0          0          0          0          0          0          0          0\n"
		   "fadvise             0          0          0          0          0          0          0          0          0\n"
		   "all                 5          1          0          5          1          0         18         18         12\n");
	EXPECT_INT("reset", h_debugfs_write(STATS, "0\n"), 2);
	EXPECT_INT("bad reset", h_debugfs_write(STATS, "1"), -EINVAL);
	EXPECT_INT("garbage", h_debugfs_write(STATS, "reset"), -EINVAL);
	EXPECT_STR("all after reset", strstr(read_file(STATS), "all") ?: "",
		   "all                 0          0          0          0          0          0          0          0          0\n");
}

/* The seed's duplicate scenario, traced: the stale reader's line. */
static void stale_reader_line(void)
{
	struct h_file *a = h_create(512 * 4096, 128);
	struct h_file *b = h_reopen(a);
	pgoff_t i;

	for (i = 0; i < 5; i++)
		h_read(a, i * 4096, 4096);
	for (i = 0; i < 13; i++)
		h_read(b, i * 4096, 4096);
	h_debugfs_write(ENABLE, "1");
	for (i = 5; i < 29; i++)
		h_read(a, i * 4096, 4096);
	EXPECT_STR("trace", h_trace(),
		   "readahead-marker(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=28+1, ra=60+32-32, async=1) = 32");
}

void trace_checks(void)
{
	test_run("trace_enable and bad input", enable_and_bad_input);
	test_run("trace lines of a ramp", ramp_lines);
	test_run("trace off prints nothing", trace_off_prints_nothing);
	test_run("trace lines of faults, random, fadvise",
		 fault_and_random_lines);
	test_run("stats table", stats_table);
	test_run("trace line of a stale reader", stale_reader_line);
}
