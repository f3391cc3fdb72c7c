// SPDX-License-Identifier: GPL-2.0
/*
 * trace.c - the readahead tracepoints (exact text of each event, probe
 * registration) and their debugfs view, /sys/kernel/debug/readahead/:
 * trace_enable, the log line of each decision, and the stats table.  The
 * pristine files have none of it: its results are recorded, not checked.
 */
#include "test.h"

#include <trace/events/readahead.h>

#define ENABLE	"readahead/trace_enable"
#define STATS	"readahead/stats"

/* 0 or 1 (newline optional); anything else is -EINVAL, changing nothing. */
static void enable_and_bad_input(void)
{
	static const char * const bad[] = {
		"2", "garbage", "", "1x", "-1", " 1", "99999999999", "1\n\n",
	};

	test_switch_file(ENABLE, bad, ARRAY_SIZE(bad));
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

/*
 * Faults carry miss=; read-around and a random read, and an all-cached
 * marker hit by a second reader (the "= 0" lines of the trace posted to
 * LKML on 2009-07-01 cannot happen: the stale window is not issued).
 */
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
	EXPECT_STR("stats", test_read_file(STATS),
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
		   "defer               0          0          0          0          0          0          0          0          0\n"
		   "all                 5          1          0          5          1          0         18         18         12\n"
		   "dropped             0\n");
	EXPECT_INT("reset", h_debugfs_write(STATS, "0\n"), 2);
	EXPECT_INT("bad reset", h_debugfs_write(STATS, "1"), -EINVAL);
	EXPECT_INT("garbage", h_debugfs_write(STATS, "reset"), -EINVAL);
	EXPECT_STR("all after reset", strstr(test_read_file(STATS), "all") ?: "",
		   "all                 0          0          0          0          0          0          0          0          0\n"
		   "dropped             0\n");
}

/*
 * A window that ends exactly at EOF counts as an eof hit: a 60-page file
 * read to its end, windows 4+8, 12+16 and 28+32 (the last one's end).
 */
static void stats_eof_hit_at_eof(void)
{
	struct h_file *f = h_create(60 * 4096, 128);
	const char *row;
	unsigned long calls = 0, eof_hit = 0;
	pgoff_t i;

	for (i = 0; i < 60; i++)
		h_read(f, i * 4096, 4096);
	row = strstr(test_read_file(STATS), "\nsubsequent ");
	if (row)
		sscanf(row, " subsequent %lu %lu", &calls, &eof_hit);
	EXPECT_INT("subsequent windows", calls, 3);
	EXPECT_INT("eof hits", eof_hit, 1);
}

/* The 2009 trace's duplicate scenario, traced: the stale reader's line. */
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
	for (i = 5; i < 45; i++)
		h_read(a, i * 4096, 4096);
	/*
	 * At b's marker (28) a defers to b, leaving its own state as it is
	 * and reading nothing; at the backup (44) it takes the stream over.
	 */
	EXPECT_STR("trace", h_trace(),
		   "readahead-defer(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=28+1, ra=12+16-16, async=0) = 0\n"
		   "readahead-marker(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=44+1, ra=60+32-32, async=1) = 32");
}

/* Lines of @text that start with @with. */
static unsigned long count_lines(const char *text, const char *with)
{
	size_t len = strlen(with);
	unsigned long n = 0;
	const char *p = text;

	while (*p) {
		const char *nl = strchr(p, '\n');

		n += !strncmp(p, with, len);
		if (!nl)
			break;
		p = nl + 1;
	}
	return n;
}

static unsigned long stats_dropped(void)
{
	const char *d = strstr(test_read_file(STATS), "\ndropped ");

	return d ? strtoul(d + 9, NULL, 10) : ULONG_MAX;
}

/* Lines of @text that contain @what. */
static unsigned long count_containing(const char *text, const char *what)
{
	unsigned long n = 0;

	while ((text = strstr(text, what))) {
		n++;
		text += strlen(what);
	}
	return n;
}

/*
 * 600 random reads with the trace on, at one moment: 500 lines reach the
 * log, the other 100 are counted as dropped, the tracepoint has all 600.
 * The limit's window is 5 s: still closed at its last jiffy, open after
 * it, where the log says how many lines it lost.
 */
static void trace_rate_limited(void)
{
	struct h_file *f = h_create(1L << 33, 128);
	unsigned long t0 = shim_jiffies;
	pgoff_t i;

	h_debugfs_write(ENABLE, "1");
	for (i = 0; i < 600; i++)
		h_read(f, (loff_t)(i * 7919 % 4096 + 1) * 256 * 4096, 4096);
	EXPECT_INT("log lines", count_lines(h_trace(), "readahead-random"),
		   500);
	EXPECT_INT("dropped", stats_dropped(), 100);
	EXPECT_INT("decision events",
		   count_containing(h_tracepoint(), ": readahead_decision: "),
		   600);
	shim_jiffies = t0 + 5 * HZ;
	h_log_reset();
	h_read(f, 5 * 4096, 4096);
	EXPECT_STR("window still closed", h_trace(), "");
	EXPECT_INT("dropped", stats_dropped(), 101);
	shim_jiffies++;
	h_log_reset();
	h_read(f, 9 * 4096, 4096);
	EXPECT_STR("window open again", h_trace(),
		   "ra_trace_line: 101 callbacks suppressed\n"
		   "readahead-random(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=9+1, ra=9+1-0, async=0) = 1");
	EXPECT_INT("reset", h_debugfs_write(STATS, "0"), 1);
	EXPECT_INT("dropped after reset", stats_dropped(), 0);
}

/*
 * The tracepoints: every call and every decision, whether trace_enable is
 * on or not, as raw numbers (the inode in hex, no names); the log line
 * says the same decision in its own words.  A ramp's first two reads
 * (the state at each call, then the decision) and a fault read around.
 */
static void tracepoint_lines(void)
{
	struct h_file *f = h_create(8 << 20, 128);
	pgoff_t i;

	for (i = 0; i < 2; i++)
		h_read(f, i * 4096, 4096);
	h_fault(f, 200, 0);
	EXPECT_STR("no log line", h_trace(), "");
	EXPECT_INT("events of the reader",
		   count_lines(h_tracepoint(),
			       "             fio-4003    [000] ..... "), 5);
	EXPECT_STR("events", test_events(),
		   "page_cache_sync_ra: dev=8:16 ino=64 index=0 req_count=1 "
		   "order=0 size=0 async_size=0 ra_pages=32 mmap_miss=0 "
		   "prev_pos=-1\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=initial0 "
		   "index=0 req_count=1 start=0 size=4 async_size=3 order=0 "
		   "fault=0 mmap_miss=0 nr_read=4\n"
		   "page_cache_async_ra: dev=8:16 ino=64 index=1 req_count=1 "
		   "order=0 size=4 async_size=3 ra_pages=32 mmap_miss=0 "
		   "prev_pos=4096\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=subsequent "
		   "index=1 req_count=1 start=4 size=8 async_size=8 order=0 "
		   "fault=0 mmap_miss=0 nr_read=8\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=around "
		   "index=200 req_count=1 start=184 size=32 async_size=8 "
		   "order=0 fault=1 mmap_miss=1 nr_read=32");
	h_debugfs_write(ENABLE, "1");
	h_log_reset();
	h_fault(f, 400, 0);
	EXPECT_STR("log line", h_trace(),
		   "readahead-around(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(f100), req=400+1, ra=384+32-8, async=0, miss=2) = 32");
	EXPECT_STR("event", test_events(),
		   "readahead_decision: dev=8:16 ino=64 pattern=around "
		   "index=400 req_count=1 start=384 size=32 async_size=8 "
		   "order=0 fault=1 mmap_miss=2 nr_read=32");
}

/* readahead(2) and POSIX_FADV_WILLNEED: decisions, no sync or async call. */
static void tracepoint_fadvise(void)
{
	struct h_file *f = h_create(8 << 20, 128);

	h_fadvise(f->fd, 2000 * 4096, 8 * 4096, POSIX_FADV_WILLNEED);
	h_readahead(f->fd, 100 * 4096, 4096);
	EXPECT_STR("events", test_events(),
		   "readahead_decision: dev=8:16 ino=64 pattern=fadvise "
		   "index=2000 req_count=8 start=2000 size=8 async_size=0 "
		   "order=0 fault=0 mmap_miss=0 nr_read=8\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=fadvise "
		   "index=100 req_count=1 start=100 size=1 async_size=0 "
		   "order=0 fault=0 mmap_miss=0 nr_read=1");
}

/* page_cache_ra_unbounded: where, how much, how much of it ahead. */
static void tracepoint_unbounded(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	DEFINE_READAHEAD(ractl, &f->file, &f->file.f_ra, f->file.f_mapping, 6);

	shim_current = &f->task;
	ra_impl->unbounded(&ractl, 10, 4);
	EXPECT_STR("event", test_events(),
		   "page_cache_ra_unbounded: dev=8:16 ino=64 index=6 "
		   "nr_to_read=10 lookahead_size=4");
}

/*
 * page_cache_ra_order: a window read in large folios, with the state it
 * reads; windows of order 0 have none.
 */
static void tracepoint_order(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	pgoff_t i;

	h_set_large_folios(f, true);
	for (i = 0; i < 2; i++)
		h_read(f, i * 4096, 4096);
	EXPECT_STR("events", test_events(),
		   "page_cache_sync_ra: dev=8:16 ino=64 index=0 req_count=1 "
		   "order=0 size=0 async_size=0 ra_pages=32 mmap_miss=0 "
		   "prev_pos=-1\n"
		   "page_cache_ra_order: dev=8:16 ino=64 index=0 order=2 "
		   "size=4 async_size=3 ra_pages=32\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=initial0 "
		   "index=0 req_count=1 start=0 size=4 async_size=3 order=2 "
		   "fault=0 mmap_miss=0 nr_read=4\n"
		   "page_cache_async_ra: dev=8:16 ino=64 index=1 req_count=1 "
		   "order=2 size=4 async_size=3 ra_pages=32 mmap_miss=0 "
		   "prev_pos=4096\n"
		   "page_cache_ra_order: dev=8:16 ino=64 index=4 order=4 "
		   "size=8 async_size=8 ra_pages=32\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=subsequent "
		   "index=1 req_count=1 start=4 size=8 async_size=8 order=4 "
		   "fault=0 mmap_miss=0 nr_read=8");
}

/*
 * readahead_defer: the stale reader of the 2009 trace leaves b's marker
 * (28) with a backup (44); beside a marker whose window is still being
 * read it marks none (-1).
 */
static void tracepoint_defer(void)
{
	struct h_file *a = h_create(512 * 4096, 128);
	struct h_file *b = h_reopen(a);
	struct folio *folio;
	pgoff_t i;

	for (i = 0; i < 5; i++)
		h_read(a, i * 4096, 4096);
	for (i = 0; i < 13; i++)
		h_read(b, i * 4096, 4096);
	h_log_reset();
	for (i = 5; i < 29; i++)
		h_read(a, i * 4096, 4096);
	EXPECT_STR("backup marked", strstr(test_events(), "readahead_defer") ?: "",
		   "readahead_defer: dev=8:16 ino=64 index=28 backup=44\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=defer "
		   "index=28 req_count=1 start=12 size=16 async_size=16 "
		   "order=0 fault=0 mmap_miss=0 nr_read=0");
	h_close_all();

	folio = shared_marker_in_flight(&a, &b, 512);
	REQUIRE(folio);
	shim_current = &b->task;
	h_log_reset();
	ra_call_async(&b->file, folio, 1);
	folio_mark_uptodate(folio);
	EXPECT_STR("in flight", test_events(),
		   "page_cache_async_ra: dev=8:16 ino=64 index=12 "
		   "req_count=1 order=0 size=8 async_size=8 ra_pages=32 "
		   "mmap_miss=0 prev_pos=-1\n"
		   "readahead_defer: dev=8:16 ino=64 index=12 backup=-1\n"
		   "readahead_decision: dev=8:16 ino=64 pattern=defer "
		   "index=12 req_count=1 start=4 size=8 async_size=8 "
		   "order=0 fault=0 mmap_miss=0 nr_read=0");
}

static unsigned long probe_calls;
static char probe_seen[128];

static void test_probe(void *data, struct readahead_control *ractl,
		       const struct ra_decision *d)
{
	probe_calls += (unsigned long)data;
	snprintf(probe_seen, sizeof(probe_seen),
		 "%s %d %lu+%lu %lu+%lu-%lu o%u f%d =%lu",
		 ractl->file->f_path.dentry->d_name.name, d->pattern, d->index,
		 d->req, d->start, d->size, d->async_size, d->order, d->fault,
		 d->actual);
}

/*
 * register_trace_readahead_decision(): a probe gets every decision with
 * the reader's readahead_control, beside the debugfs view's own probe
 * (the stats count with no sink); once only; unregistered, no more.
 */
static void probe_registration(void)
{
	struct h_file *f = h_create(1 << 20, 128);

	probe_calls = 0;
	EXPECT_INT("register", register_trace_readahead_decision(test_probe,
							       (void *)1), 0);
	EXPECT_INT("twice", register_trace_readahead_decision(test_probe,
							    (void *)1),
		   -EEXIST);
	shim_tracepoint_set_sink(NULL);
	h_read(f, 0, 4096);
	EXPECT_INT("probe calls", probe_calls, 1);
	EXPECT_STR("probe args", probe_seen, "f100 0 0+1 0+4-3 o0 f0 =4");
	EXPECT_INT("stats counted", h_stat("initial0", 0), 1);
	EXPECT_STR("no event printed", h_tracepoint(), "");
	EXPECT_INT("unregister", unregister_trace_readahead_decision(test_probe,
								   (void *)1),
		   0);
	EXPECT_INT("unregister again",
		   unregister_trace_readahead_decision(test_probe, (void *)1),
		   -ENOENT);
	h_read(f, 1 * 4096, 4096);
	EXPECT_INT("no more calls", probe_calls, 1);
	EXPECT_INT("stats still counted", h_stat("subsequent", 0), 1);
}

/*
 * The file's name is printed with %pD, as the file's dentry has it now
 * (a rename changes it), whole; the tracepoint has no name at all.
 */
static void trace_file_name(void)
{
	struct h_file *f = h_create(1 << 20, 128);

	h_debugfs_write(ENABLE, "1");
	f->dentry.d_name.name =
		(const unsigned char *)"renamed-to-a-name-longer-than-31-bytes";
	h_read(f, 0, 4096);
	EXPECT_STR("log line", h_trace(),
		   "readahead-initial0(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(renamed-to-a-name-longer-than-31-bytes), "
		   "req=0+1, ra=0+4-3, async=0) = 4");
	EXPECT_INT("no name in the events",
		   count_containing(test_events(), "renamed"), 0);
}

static struct h_file *renamed_file;

/* Another CPU renames the file: the old name is freed at once. */
static void rename_meanwhile(void)
{
	struct dentry *d = &renamed_file->dentry;

	free((void *)d->d_name.name);
	d->d_name.name = (const unsigned char *)strdup("new-name");
	shim_printk_hook = NULL;
}

/*
 * A rename while the line is printed: the name is read through the file
 * (%pD, under RCU in the kernel), not from a pointer taken before, which
 * the rename freed (ASan would stop the harness here).
 */
static void trace_rename_while_printing(void)
{
	struct h_file *f = h_create(1 << 20, 128);

	renamed_file = f;
	f->dentry.d_name.name = (const unsigned char *)strdup("old-name");
	shim_printk_hook = rename_meanwhile;
	h_debugfs_write(ENABLE, "1");
	h_read(f, 0, 4096);
	EXPECT_STR("log line", h_trace(),
		   "readahead-initial0(pid=4003(fio), dev=08:10(sdb), "
		   "ino=100(new-name), req=0+1, ra=0+4-3, async=0) = 4");
	EXPECT_INT("renamed while printing", !shim_printk_hook, 1);
	free((void *)f->dentry.d_name.name);
	f->dentry.d_name.name = (const unsigned char *)f->name;
}

void trace_checks(void)
{
	test_run("trace_enable and bad input", enable_and_bad_input);
	test_run("trace lines of a ramp", ramp_lines);
	test_run("trace off prints nothing", trace_off_prints_nothing);
	test_run("trace lines of faults, random, fadvise",
		 fault_and_random_lines);
	test_run("stats table", stats_table);
	test_run("stats: a window ending at eof", stats_eof_hit_at_eof);
	test_run("trace line of a stale reader", stale_reader_line);
	test_run("trace rate limited, drops counted", trace_rate_limited);
	test_run("tracepoints: calls and decisions, raw", tracepoint_lines);
	test_run("tracepoint: readahead(2) and fadvise", tracepoint_fadvise);
	test_run("tracepoint: page_cache_ra_unbounded", tracepoint_unbounded);
	test_run("tracepoint: page_cache_ra_order", tracepoint_order);
	test_run("tracepoint: readahead_defer", tracepoint_defer);
	test_run("tracepoint: probes registered and unregistered",
		 probe_registration);
	test_run("trace names the file with %pD", trace_file_name);
	test_run("trace line during a rename", trace_rename_while_printing);
}
