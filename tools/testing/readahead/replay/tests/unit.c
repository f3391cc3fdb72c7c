// SPDX-License-Identifier: GPL-2.0
/*
 * unit.c - exact tests of the 2009 models, in the unit harness.
 *
 * Each test sets up a file's cache and readahead state, makes one read
 * or fault through the harness's 6.1 read and fault paths, and checks
 * the trace lines, the window left and the pages submitted, exactly.
 * The situation of the trace quoted on LKML in July 2009 comes first:
 * reader 7115, whose window ended at page 144909, found there the marker
 * another reader's window had set.  Prints TAP (tests/test.h).
 */
#include "models.h"
#include "tests/test.h"

TAP_STATE;

static void check_str(const char *test, const char *what, const char *got,
		      const char *want)
{
	bool ok = !strcmp(got, want);

	tap_result(ok, "%s: %s", test, what);
	if (!ok) {
		tap_diag("got:  %s", got);
		tap_diag("want: %s", want);
	}
}

static void check_int(const char *test, const char *what, long got,
		      long want)
{
	char g[32], w[32];

	snprintf(g, sizeof(g), "%ld", got);
	snprintf(w, sizeof(w), "%ld", want);
	check_str(test, what, g, w);
}

/* "readahead-PATTERN(pid=..., ino=...(NAME), " then @rest, for @f. */
static const char *line(struct h_file *f, const char *pattern,
			const char *rest)
{
	static char buf[4][256];
	static int n;
	char *b = buf[n++ % 4];

	snprintf(b, sizeof(buf[0]),
		 "readahead-%s(pid=%d(fio), dev=08:10(sdb), ino=%lu(%s), %s",
		 pattern, f->task.pid, f->inode.i_ino, f->name, rest);
	return b;
}

static const char *two(const char *a, const char *b)
{
	static char buf[512];

	snprintf(buf, sizeof(buf), "%s\n%s", a, b);
	return buf;
}

static const char *window(struct h_file *f)
{
	static char buf[64];
	struct file_ra_state *ra = &f->file.f_ra;

	snprintf(buf, sizeof(buf), "%lu+%u-%u", ra->start, ra->size,
		 ra->async_size);
	return buf;
}

static void mark(struct h_file *f, pgoff_t index)
{
	folio_set_readahead(xa_load(&f->inode.i_data.i_pages, index));
}

static void begin(const struct ra_impl *impl)
{
	ra_impl = impl;
	h_close_all();
	h_log_reset();
	shim_trace_sink = h_trace_collect;
}

/*
 * The 2009 trace: a 64-page maximum (read_ahead_kb=128, doubled by fio's
 * POSIX_FADV_SEQUENTIAL: here 256), reader A's window 144845+64-64, the
 * pages up to 144972 cached, the marker on 144909 (set by another
 * reader's window 144909+64-64).  A reads page 144909.
 */
static struct h_file *trace_setup(const struct ra_impl *impl)
{
	struct h_file *a;

	begin(impl);
	a = h_create(150000UL * 4096, 256);
	h_populate(a, 144845, 128);
	mark(a, 144909);
	a->file.f_ra.start = 144845;
	a->file.f_ra.size = 64;
	a->file.f_ra.async_size = 64;
	a->file.f_ra.prev_pos = 144909LL * 4096;
	h_log_reset();
	h_read(a, 144909LL * 4096, 4096);
	return a;
}

static void trace_2631rc1_merges(void)
{
	const char *t = "2.6.31-rc1 marker at 144909";
	struct h_file *a = trace_setup(&ra_2631rc1);

	check_str(t, "trace", h_trace(),
		  line(a, "subsequent", "req=144909+1, ra=144909+128-64, async=0) = 64"));
	check_str(t, "window: twice the maximum", window(a), "144909+128-64");
	check_str(t, "pages read, marker", h_io(), "144973-145036[144973]");
}

static void trace_2630_does_not_merge(void)
{
	const char *t = "2.6.30 marker at 144909";
	struct h_file *a = trace_setup(&ra_2630);

	check_str(t, "trace", h_trace(),
		  line(a, "subsequent", "req=144909+1, ra=144909+64-64, async=0) = 0"));
	check_str(t, "window", window(a), "144909+64-64");
	check_str(t, "nothing read", h_io(), "");
	check_int(t, "no marker left ahead", h_marked(a, 144973), 0);
}

/*
 * A synchronous miss at the end of the window (pages 64..127 read, the
 * state 64+64-64): 2.6.30 puts the marker on the page being read and the
 * read path's second look calls the async path at once; 2.6.31-rc1 does
 * both windows in one call.
 */
static struct h_file *sync_end_setup(const struct ra_impl *impl)
{
	struct h_file *a;

	begin(impl);
	a = h_create(1024 * 4096, 256);
	h_populate(a, 0, 128);
	a->file.f_ra.start = 64;
	a->file.f_ra.size = 64;
	a->file.f_ra.async_size = 64;
	a->file.f_ra.prev_pos = 128 * 4096;
	h_log_reset();
	h_read(a, 128 * 4096, 4096);
	return a;
}

static void sync_end_2630_two_calls(void)
{
	const char *t = "2.6.30 sync at window end";
	struct h_file *a = sync_end_setup(&ra_2630);

	check_str(t, "trace: sync marks page 128, async follows", h_trace(),
		  two(line(a, "subsequent", "req=128+1, ra=128+64-64, async=0) = 64"),
		      line(a, "subsequent", "req=128+1, ra=192+64-64, async=1) = 64")));
	check_str(t, "calls", h_calls(),
		  "sync 128+1 128+64-64 =64; async 128+1 192+64-64 =64");
	check_str(t, "pages read: marker on 128 itself", h_io(),
		  "128-191[128] 192-255[192]");
}

static void sync_end_2631rc1_one_call(void)
{
	const char *t = "2.6.31-rc1 sync at window end";
	struct h_file *a = sync_end_setup(&ra_2631rc1);

	check_str(t, "trace: one merged call", h_trace(),
		  line(a, "subsequent", "req=128+1, ra=128+128-64, async=0) = 128"));
	check_str(t, "calls", h_calls(), "sync 128+1 128+128-64 =128");
	check_str(t, "pages read", h_io(), "128-255[192]");
}

/* Steady state: the marker at the window start, no merge in either. */
static void steady_state(const struct ra_impl *impl)
{
	char t[64];
	struct h_file *a;

	snprintf(t, sizeof(t), "%s first reads", impl->name);
	begin(impl);
	a = h_create(1024 * 4096, 256);
	h_read(a, 0, 4096);
	h_read(a, 4096, 4096);
	h_read(a, 2 * 4096, 4096);
	h_read(a, 3 * 4096, 4096);
	h_read(a, 4 * 4096, 4096);
	check_str(t, "windows", h_windows(), "0+4-3 4+8-8 12+16-16");
	check_str(t, "pages read", h_io(), "0-3[1] 4-11[4] 12-27[12]");
}

/* MADV_SEQUENTIAL: a fault at page 0. */
static void mmap_first_fault(void)
{
	const char *t = "mmap first fault";
	struct h_file *a;

	begin(&ra_2630);
	a = h_create(1024 * 4096, 256);
	h_fault(a, 0, VM_SEQ_READ);
	check_str(t, "2.6.30: one page asked", h_trace(),
		  line(a, "initial0", "req=0+1, ra=0+4-3, async=0, miss=0) = 4"));
	begin(&ra_2631rc1);
	a = h_create(1024 * 4096, 256);
	h_fault(a, 0, VM_SEQ_READ);
	check_str(t, "2.6.31-rc1: ra_pages asked, merged", h_trace(),
		  line(a, "initial0", "req=0+64, ra=0+128-64, async=0, miss=0) = 128"));
}

/* No hints: read-around, mmap_miss up on misses, down on hits. */
static void mmap_read_around(void)
{
	const char *t;
	struct h_file *a;

	t = "2.6.30 read-around";
	begin(&ra_2630);
	a = h_create(4096 * 4096, 256);
	h_fault(a, 1000, 0);
	check_str(t, "trace", h_trace(),
		  line(a, "around", "req=1000+1, ra=968+64-0, async=0, miss=1) = 64"));
	check_str(t, "state untouched", window(a), "0+0-0");
	h_fault(a, 1001, 0);
	h_fault(a, 1002, 0);
	check_int(t, "two hits: miss count -1 (signed)",
		  (int)a->file.f_ra.mmap_miss, -1);

	t = "2.6.31-rc1 read-around";
	begin(&ra_2631rc1);
	a = h_create(4096 * 4096, 256);
	h_fault(a, 1000, 0);
	check_str(t, "trace", h_trace(),
		  line(a, "around", "req=1000+1, ra=968+64-0, async=0, miss=1) = 64"));
	h_fault(a, 1003, 0);
	h_fault(a, 1004, 0);
	check_int(t, "two hits: miss count stops at 0",
		  (int)a->file.f_ra.mmap_miss, 0);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_begin();
	trace_2631rc1_merges();
	trace_2630_does_not_merge();
	sync_end_2630_two_calls();
	sync_end_2631rc1_one_call();
	steady_state(&ra_2630);
	steady_state(&ra_2631rc1);
	mmap_first_fault();
	mmap_read_around();
	h_close_all();
	return tap_end();
}
