// SPDX-License-Identifier: GPL-2.0
/*
 * context.c - streams the state cannot describe: interleaved streams on
 * one descriptor, and misses sized from the cached history before them.
 */
#include "test.h"

/*
 * Two streams, at page 0 and page 1000, alternate on one descriptor.
 * The state follows whichever read last; the markers keep both going,
 * each window sized from the cache, up to the maximum.  A marker the
 * state does not describe is the descriptor's own here, not another
 * reader's: the state's window does not end where the marked run
 * begins, so it is taken at once, never left for someone else.
 */
static void interleaved_streams(void)
{
	struct h_file *f = h_create(8 << 20, 128);
	pgoff_t i;

	for (i = 0; i < 40; i++) {
		h_read(f, i * 4096, 4096);
		h_read(f, (1000 + i) * 4096, 4096);
	}
	EXPECT_STR("io", h_io(),
		   "0-3[1] 1000 4-11[4] 1001 1002-1004[1004] 12-29[12] "
		   "1005-1008[1005] 1009-1016[1009] 1017-1032[1017] "
		   "30-61[30] 1033-1064[1033] 62-93[62] 1065-1096[1065]");
	EXPECT_INT("sync calls", h_sync_calls(), 4);
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * The reader reaches its marker at 12 while the window there (12-27) is
 * still being read, the state describing another stream: the marker is
 * the descriptor's own and is taken at once, the next window sized from
 * the cache; none is left for a reader who will not come.
 */
static void own_marker_in_flight_taken(struct h_file *f)
{
	struct folio *folio = xa_load(&f->file.f_mapping->i_pages, 12);

	REQUIRE(folio && folio_test_readahead(folio));
	folio->flags &= ~(1UL << PG_uptodate);	/* 12-27 in flight */
	h_log_reset();
	ra_call_async(&f->file, folio, 1);
	folio_mark_uptodate(folio);
	EXPECT_STR("taken", h_calls(), "async 12+1 28+32-32 =32");
	EXPECT_INT("no deferral", h_stat("defer", 0), 0);
	EXPECT_INT("marker spent", h_marked(f, 12), 0);
}

/*
 * The same two streams, one of whose windows is still being read when
 * its reader reaches the marker: the state describes the other stream,
 * yet the marker is this descriptor's own.  Its window is issued at
 * once, sized from the cache; none is left for a reader who will not
 * come, which would leave the stream to a synchronous miss at 28.
 */
static void interleaved_marker_in_flight(void)
{
	struct h_file *f = h_create(8 << 20, 128);
	pgoff_t i;

	for (i = 0; i < 5; i++)
		h_read(f, i * 4096, 4096);
	for (i = 1000; i < 1002; i++)
		h_read(f, i * 4096, 4096);
	own_marker_in_flight_taken(f);
}

/*
 * Threads sharing one descriptor: one reads a stream from page 0, a
 * second starts another at page 100, whose window the state now holds,
 * and the first finds its marker (12), in flight, before that window:
 * the descriptor's own, taken.
 */
static void shared_descriptor_marker_in_flight(void)
{
	struct h_file *f = h_create(8 << 20, 128);

	h_read_seq(f, 0, 5);
	EXPECT_STR("the stream ahead", h_windows(), "0+4-3 4+8-8 12+16-16");
	h_log_reset();
	h_read_seq(f, 100, 2);
	EXPECT_STR("the second thread's window", h_windows(), "101+4-3");
	own_marker_in_flight_taken(f);
}

/*
 * As above, with the pages right after the second thread's window cached
 * (an earlier reader left them): the marker is still the descriptor's
 * own, since the state's window ends past it, and it is taken.  Were a
 * cached page after the window enough to call the marker another
 * reader's, it would be left for a reader who does not exist.
 */
static void shared_descriptor_marker_cached_past_window(void)
{
	struct h_file *f = h_create(8 << 20, 128);

	h_read_seq(f, 0, 5);
	h_read_seq(f, 100, 2);
	EXPECT_STR("the second thread's window", h_windows(),
		   "0+4-3 4+8-8 12+16-16 101+4-3");
	h_populate(f, 105, 16);
	own_marker_in_flight_taken(f);
}

/*
 * A miss after cached history: a running stream, sized from it, and
 * marked on the window's last page, as 6.12 marks it.
 */
static void context_from_history(void)
{
	struct h_file *f = h_create(4 << 20, 128);

	h_populate(f, 500, 8);
	h_read(f, 508 * 4096, 4096);
	EXPECT_STR("calls", h_calls(), "sync 508+1 508+9-1 =9");
	EXPECT_STR("io", h_io(), "508-516[516]");
}

/* History that reaches back to page 0 counts double: a whole-file read. */
static void context_from_file_start(void)
{
	struct h_file *f = h_create(4 << 20, 128);

	h_populate(f, 0, 8);
	h_read(f, 8 * 4096, 4096);
	EXPECT_STR("calls", h_calls(), "sync 8+1 8+17-1 =17");
}

/* A second descriptor picks up a stream another one left cached. */
static void context_other_descriptor(void)
{
	struct h_file *a = h_create(4 << 20, 128);
	struct h_file *b = h_reopen(a);
	pgoff_t i;

	for (i = 0; i < 28; i++)
		h_read(a, i * 4096, 4096);	/* cached: 0..59 */
	h_log_reset();
	h_read(b, 60 * 4096, 4096);		/* b: first read, at the end */
	EXPECT_STR("b", h_calls(), "sync 60+1 60+32-1 =32");
}

/* Too little history (no more than the request): a random read. */
static void no_context_small_history(void)
{
	struct h_file *f = h_create(4 << 20, 128);

	h_populate(f, 500, 4);
	h_read(f, 504 * 4096, 4 * 4096);
	EXPECT_STR("io", h_io(), "504-507");
	EXPECT_STR("windows", h_windows(), "");
}

/*
 * A request of 31 pages after 100 cached ones: the history, counted up to
 * the maximum (32), is longer than the request, so the stream goes on.
 * (6.1's page_cache_prev_miss() finding no hole returns the last index it
 * looked at, which taken as the hole counts one page short: 31, no longer
 * than the request, and the read would be taken as random.)
 */
static void context_history_of_max(void)
{
	struct h_file *f = h_create(4 << 20, 128);

	h_populate(f, 0, 100);
	h_read(f, 100 * 4096, 31 * 4096);
	EXPECT_STR("calls", h_calls(), "sync 100+31 100+32-1 =32");
}

void context_checks(void)
{
	test_run("two streams on one descriptor", interleaved_streams);
	test_run("two streams on one descriptor, a marker in flight",
		 interleaved_marker_in_flight);
	test_run("threads sharing a descriptor, a marker in flight",
		 shared_descriptor_marker_in_flight);
	test_run("threads sharing a descriptor, cached past the window",
		 shared_descriptor_marker_cached_past_window);
	test_run("context from cached history", context_from_history);
	test_run("context from the file start", context_from_file_start);
	test_run("context through another descriptor",
		 context_other_descriptor);
	test_run("small history is no context", no_context_small_history);
	test_run("context from a history of the maximum",
		 context_history_of_max);
}
