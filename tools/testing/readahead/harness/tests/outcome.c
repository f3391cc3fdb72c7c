// SPDX-License-Identifier: GPL-2.0
/*
 * outcome.c - what became of each window (mm/readahead_outcome.c): the
 * readahead_outcome event of every window, exact (pages used, evicted,
 * still cached, the lead time on the harness's clock, the stall), the
 * outcomes table, outcome_enable's input and what is not followed: pages
 * no decision claimed, a window refused its memory.  The pristine files
 * fire no decision, so they have no window to follow: their results are
 * recorded, not checked.
 */
#include "test.h"

#include <trace/events/readahead.h>

#define ENABLE		"readahead/outcome_enable"
#define OUTCOMES	"readahead/outcomes"
#define US		1000ULL		/* the clock's step: a microsecond */

/* The readahead_outcome events since the last h_log_reset(). */
static const char *outcomes(void)
{
	static char buf[8192];
	const char *p = test_events();
	size_t len = 0;

	buf[0] = '\0';
	while (*p) {
		const char *nl = strchr(p, '\n') ?: p + strlen(p);

		if (!strncmp(p, "readahead_outcome: ", 19) && len < sizeof(buf))
			len += snprintf(buf + len, sizeof(buf) - len, "%.*s\n",
					(int)(nl - p - 19), p + 19);
		p = *nl ? nl + 1 : nl;
	}
	return buf;
}

/* 0 or 1 (newline optional); anything else is -EINVAL, changing nothing. */
static void enable_and_bad_input(void)
{
	static const char * const bad[] = { "2", "on", "", "1x", "-1", " 1" };

	test_switch_file(ENABLE, bad, ARRAY_SIZE(bad));
	EXPECT_INT("write 1 twice", h_debugfs_write(ENABLE, "1"), 1);
	EXPECT_INT("the second", h_debugfs_write(ENABLE, "1\n"), 2);
	EXPECT_STR("on", test_read_file(ENABLE), "1\n");
	h_debugfs_write(ENABLE, "0");
	EXPECT_INT("bad reset", h_debugfs_write(OUTCOMES, "1"), -EINVAL);
	EXPECT_INT("garbage", h_debugfs_write(OUTCOMES, "all"), -EINVAL);
}

/* Read pages [@first, @last) a page a microsecond, from @t0 on. */
static void read_pages(struct h_file *f, pgoff_t first, pgoff_t last,
		       unsigned long long t0)
{
	pgoff_t i;

	for (i = first; i < last; i++) {
		shim_clock_ns = t0 + (i - first) * US;
		h_read(f, i * 4096, 4096);
	}
}

/*
 * A 64-page file read a page a microsecond: each window is reported as
 * its last page is read, every page used.  The leads are exact: the
 * window 4+8, read at 1 us, is used at 4 to 11 us (sum 52 us); the
 * first window is a stall, the reader asked for its first page.
 */
static void sequential_all_used(void)
{
	struct h_file *f = h_create(64 * 4096, 128);

	h_debugfs_write(ENABLE, "1");
	read_pages(f, 0, 64, 0);
	EXPECT_STR("events", outcomes(),
		   "dev=8:16 ino=64 pattern=initial0 start=0 size=4 pages=4 used=4 evicted=0 cached=0 lead_ns=6000 stall=1 end=settled\n"
		   "dev=8:16 ino=64 pattern=subsequent start=4 size=8 pages=8 used=8 evicted=0 cached=0 lead_ns=52000 stall=0 end=settled\n"
		   "dev=8:16 ino=64 pattern=subsequent start=12 size=16 pages=16 used=16 evicted=0 cached=0 lead_ns=248000 stall=0 end=settled\n"
		   "dev=8:16 ino=64 pattern=subsequent start=28 size=32 pages=32 used=32 evicted=0 cached=0 lead_ns=1008000 stall=0 end=settled\n"
		   "dev=8:16 ino=64 pattern=subsequent start=60 size=32 pages=4 used=4 evicted=0 cached=0 lead_ns=134000 stall=0 end=settled\n");
	h_log_reset();
	EXPECT_INT("off", h_debugfs_write(ENABLE, "0"), 1);
	EXPECT_STR("nothing left to report", outcomes(), "");
	EXPECT_STR("table", test_read_file(OUTCOMES),
		   "pattern       windows     stalls      pages       used    evicted     cached    lead_us\n"
		   "initial0            1          1          4          4          0          0          1\n"
		   "initial             0          0          0          0          0          0          0\n"
		   "subsequent          4          0         60         60          0          0         24\n"
		   "marker              0          0          0          0          0          0          0\n"
		   "context             0          0          0          0          0          0          0\n"
		   "oversize            0          0          0          0          0          0          0\n"
		   "random              0          0          0          0          0          0          0\n"
		   "around              0          0          0          0          0          0          0\n"
		   "fadvise             0          0          0          0          0          0          0\n"
		   "defer               0          0          0          0          0          0          0\n"
		   "all                 5          1         64         64          0          0         22\n"
		   "untracked           0\n"
		   "lost                0\n"
		   "following           0\n");
	EXPECT_INT("reset", h_debugfs_write(OUTCOMES, "0\n"), 2);
	EXPECT_STR("all after reset", strstr(test_read_file(OUTCOMES), "\nall") ?: "",
		   "\nall                 0          0          0          0          0          0          0\n"
		   "untracked           0\n"
		   "lost                0\n"
		   "following           0\n");
}

/*
 * Pages evicted before the reader reaches them count as evicted; the
 * pages still cached when the tracking stops are reported then.
 */
static void evicted_and_stopped(void)
{
	struct h_file *f = h_create(64 * 4096, 128);

	h_debugfs_write(ENABLE, "1");
	read_pages(f, 0, 5, 0);		/* windows 0+4 (used), 4+8, 12+16 */
	h_evict(f, 6, 4);		/* pages 6-9 of the second, unread */
	EXPECT_STR("the first window only", outcomes(),
		   "dev=8:16 ino=64 pattern=initial0 start=0 size=4 pages=4 used=4 evicted=0 cached=0 lead_ns=6000 stall=1 end=settled\n");
	h_log_reset();
	h_debugfs_write(ENABLE, "0");
	EXPECT_STR("stopped", outcomes(),
		   "dev=8:16 ino=64 pattern=subsequent start=4 size=8 pages=8 used=1 evicted=4 cached=3 lead_ns=3000 stall=0 end=stopped\n"
		   "dev=8:16 ino=64 pattern=subsequent start=12 size=16 pages=16 used=0 evicted=0 cached=16 lead_ns=0 stall=0 end=stopped\n");
	h_log_reset();
	h_evict(f, 10, 2);
	EXPECT_STR("off: nothing followed", outcomes(), "");
}

/*
 * A file closed (its pages truncated) settles every window: the pages
 * left unused are evicted.
 */
static void truncated(void)
{
	struct h_file *f = h_create(64 * 4096, 128);

	h_debugfs_write(ENABLE, "1");
	read_pages(f, 0, 2, 0);
	h_log_reset();
	h_drop_cache(f);
	EXPECT_STR("events", outcomes(),
		   "dev=8:16 ino=64 pattern=initial0 start=0 size=4 pages=4 used=2 evicted=2 cached=0 lead_ns=1000 stall=1 end=settled\n"
		   "dev=8:16 ino=64 pattern=subsequent start=4 size=8 pages=8 used=0 evicted=8 cached=0 lead_ns=0 stall=0 end=settled\n");
}

/*
 * A fault reads around the faulting page, which it maps at once: one
 * page used, lead 0; the faults of another page of the window use it.
 */
static void fault_around(void)
{
	struct h_file *f = h_create(8 << 20, 128);

	h_debugfs_write(ENABLE, "1");
	shim_clock_ns = 5 * US;
	h_fault(f, 200, 0);
	shim_clock_ns = 7 * US;
	h_fault(f, 190, 0);
	h_log_reset();
	h_debugfs_write(ENABLE, "0");
	EXPECT_STR("stopped", outcomes(),
		   "dev=8:16 ino=64 pattern=around start=184 size=32 pages=32 used=2 evicted=0 cached=30 lead_ns=2000 stall=1 end=stopped\n");
}

/*
 * Pages no decision claims are not followed (the harness's own populate,
 * as a write's: 3); a window whose memory is refused is lost, its 4 pages
 * not followed either, and the next is followed again.
 */
static void untracked_and_lost(void)
{
	struct h_file *f = h_create(64 * 4096, 128);
	const char *all;

	h_debugfs_write(ENABLE, "1");
	h_populate(f, 40, 3);
	shim_kmalloc_fail = 0;
	read_pages(f, 0, 1, 0);		/* window 0+4: refused */
	read_pages(f, 1, 2, US);	/* window 4+8: followed */
	h_debugfs_write(ENABLE, "0");
	EXPECT_STR("events", outcomes(),
		   "dev=8:16 ino=64 pattern=subsequent start=4 size=8 pages=8 used=0 evicted=0 cached=8 lead_ns=0 stall=0 end=stopped\n");
	all = strstr(test_read_file(OUTCOMES), "\nall") ?: "";
	EXPECT_STR("table", all,
		   "\nall                 1          0          8          0          0          8          0\n"
		   "untracked           7\n"
		   "lost                1\n"
		   "following           0\n");
}

void outcome_checks(void)
{
	test_run("outcome_enable and bad input", enable_and_bad_input);
	test_run("outcome: a sequential reader uses every page",
		 sequential_all_used);
	test_run("outcome: evicted unused, then stopped", evicted_and_stopped);
	test_run("outcome: a truncated window", truncated);
	test_run("outcome: a fault's window", fault_around);
	test_run("outcome: pages not followed, a window lost",
		 untracked_and_lost);
}
