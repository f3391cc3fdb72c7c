// SPDX-License-Identifier: GPL-2.0
/*
 * shared.c - several readers of one file: own states, one page cache.
 *
 * The July 2009 reports' machines ran 2.5 readers per file.  Whoever
 * reaches a marker pushes the stream, unless it has a stream of its own
 * and the window the marker starts is still being read, or is in with
 * the first missing page more than half the maximum window ahead: then
 * the marker is left to the reader that issued the window (in the
 * second case with a backup marker further on).  The others must neither
 * issue windows that are cached already nor restart with small
 * synchronous reads.
 */
#include "test.h"

#define PAGES	512

/*
 * Readers @r[0..n) of one file take turns; in each turn reader i reads
 * steps[i] pages of 4 KB, until all reached the end.
 */
static void take_turns(struct h_file **r, int n, const int *steps)
{
	pgoff_t pos[8] = { 0 };
	bool busy = true;
	int i, k;

	while (busy) {
		busy = false;
		for (i = 0; i < n; i++)
			for (k = 0; k < steps[i] && pos[i] < PAGES; k++) {
				h_read(r[i], (loff_t)pos[i]++ * 4096, 4096);
				busy = true;
			}
	}
}

/*
 * The readers together read the file once: one synchronous call at the
 * start, every page submitted once, no window found cached.
 */
static void expect_one_pass(void)
{
	INVARIANT(h_pages_submitted() == PAGES);
	INVARIANT(h_pages_resubmitted() == 0);
	EXPECT_INT("sync calls", h_sync_calls(), 1);
	EXPECT_INT("cached pages in windows", h_cached_in_windows(), 0);
	EXPECT_INT("all-cached calls", h_all_cached_calls(), 0);
}

/* Two readers in lockstep: the first one does all the readahead. */
static void lockstep(void)
{
	struct h_file *a = h_create(PAGES * 4096, 128);
	struct h_file *r[2] = { a, h_reopen(a) };
	const int steps[2] = { 1, 1 };

	take_turns(r, 2, steps);
	expect_one_pass();
}

/* Leapfrog: turns of unequal length make each overtake the other. */
static void leapfrog(void)
{
	struct h_file *a = h_create(PAGES * 4096, 128);
	struct h_file *r[2] = { a, h_reopen(a) };
	const int steps[2] = { 16, 40 };

	take_turns(r, 2, steps);
	expect_one_pass();
}

/* Four readers at different paces, as fio's numjobs on one file. */
static void four_readers(void)
{
	struct h_file *a = h_create(PAGES * 4096, 256);
	struct h_file *r[4] = { a, h_reopen(a), h_reopen(a), h_reopen(a) };
	const int steps[4] = { 3, 5, 7, 11 };

	take_turns(r, 4, steps);
	expect_one_pass();
}

/*
 * The second reader hits the first one's marker: it sizes its window
 * from the cache and starts at the first missing page.
 */
static void marker_of_another(void)
{
	struct h_file *a = h_create(PAGES * 4096, 128);
	struct h_file *b = h_reopen(a);
	pgoff_t i;

	for (i = 0; i < 5; i++)
		h_read(a, i * 4096, 4096);	/* a's window: 12+16-16 */
	h_log_reset();
	for (i = 0; i < 13; i++)
		h_read(b, i * 4096, 4096);
	EXPECT_STR("calls", h_calls(), "async 12+1 28+32-32 =32");
	EXPECT_STR("b's window", h_windows(), "28+32-32");
	INVARIANT(!h_marked(a, 12));
}

/*
 * a reads pages 0-4 (its window 12+16-16), then b, on the same file,
 * pages 0-12 (b takes a's marker: 28+32-32): a's state is stale.
 */
static struct h_file *stale_pair(struct h_file **b)
{
	struct h_file *a = h_create(PAGES * 4096, 128);

	*b = h_reopen(a);
	h_read_seq(a, 0, 5);
	h_read_seq(*b, 0, 13);
	return a;
}

/*
 * The duplicate of the trace posted to LKML on 2009-07-01: b takes a's
 * marker and issues the window right after a's; a then finds b's marker
 * exactly where its own window ends.  That window is b's, cached already:
 * a must go past it.  b's window is in, its first missing page a whole
 * window away: a leaves the marker to b and marks a backup halfway; b
 * does not come, so a, at the backup, takes the stream over.
 */
static void stale_state_at_window_end(void)
{
	struct h_file *b;
	struct h_file *a = stale_pair(&b);

	h_log_reset();
	h_read_seq(a, 5, 40);
	EXPECT_STR("a at b's marker, then at the backup", h_calls(),
		   "async 28+1 12+16-16 =0; async 44+1 60+32-32 =32");
	EXPECT_INT("cached pages in windows", h_cached_in_windows(), 0);
	EXPECT_INT("all-cached calls", h_all_cached_calls(), 0);
	INVARIANT(h_pages_resubmitted() == 0);
}

/* Put the readahead marker on cached page @index, as another reader would. */
static void set_marker(struct h_file *f, pgoff_t index)
{
	struct folio *folio = xa_load(&f->file.f_mapping->i_pages, index);

	REQUIRE(folio != NULL);
	folio_set_readahead(folio);
}

/*
 * As above, but b comes back: a leaves b's marker (28) and marks the
 * backup (44); b, at its own marker, pushes the stream (60+32), and a, at
 * the backup, finds the front more than a whole window ahead (92): it
 * reads nothing and marks nothing, b's marker (60) keeps the stream.
 */
static void stale_state_owner_returns(void)
{
	struct h_file *b;
	struct h_file *a = stale_pair(&b);

	h_log_reset();
	h_read_seq(a, 5, 24);
	EXPECT_STR("a at b's marker", h_calls(), "async 28+1 12+16-16 =0");
	EXPECT_INT("b's marker left", h_marked(a, 28), 1);
	EXPECT_INT("the backup", h_marked(a, 44), 1);
	h_log_reset();
	h_read_seq(b, 13, 16);
	EXPECT_STR("b at its marker", h_calls(), "async 28+1 60+32-32 =32");
	h_log_reset();
	h_read_seq(a, 29, 16);
	EXPECT_STR("a at the backup", h_calls(), "async 44+1 12+16-16 =0");
	EXPECT_INT("b's next marker", h_marked(a, 60), 1);
	EXPECT_INT("no backup of a's", h_marked(a, 68), 0);
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * The backup would fall on a folio that may not take a marker it did not
 * get from its allocator (PG_readahead is PG_reclaim): one under
 * writeback, dirty, not uptodate or locked by someone else.  With no
 * backup to mark, a does not leave b's marker but takes the stream over
 * at once, and the folio stays unmarked.
 */
static void stale_state_backup_refused(unsigned long flags)
{
	struct h_file *b;
	struct h_file *a = stale_pair(&b);
	struct folio *folio = xa_load(&a->file.f_mapping->i_pages, 44);
	unsigned long was;

	REQUIRE(folio != NULL);
	was = folio->flags;
	folio->flags = (folio->flags | flags) & ~(flags >> 32);
	h_log_reset();
	h_read_seq(a, 5, 24);
	EXPECT_STR("a at b's marker", h_calls(), "async 28+1 60+32-32 =32");
	EXPECT_INT("b's marker taken", h_marked(a, 28), 0);
	EXPECT_INT("no backup", h_marked(a, 44), 0);
	folio->flags = was;
	INVARIANT(h_pages_resubmitted() == 0);
}

static void stale_state_backup_writeback(void)
{
	stale_state_backup_refused(1UL << PG_writeback);
}

static void stale_state_backup_dirty(void)
{
	stale_state_backup_refused(1UL << PG_dirty);
}

/* Flags to clear go in the upper half. */
static void stale_state_backup_not_uptodate(void)
{
	stale_state_backup_refused(1UL << (PG_uptodate + 32));
}

static void stale_state_backup_locked(void)
{
	stale_state_backup_refused(1UL << PG_locked);
}

/*
 * Where leaving starts: a reader with a stream of its own (12+16-16,
 * maximum 32, its window ending at 28) finds a marker it did not set at
 * 28, on a cached run another reader read on from there.  With the first
 * missing page 16 pages on (half the maximum) it takes the stream over;
 * with 17, it leaves the marker and marks a backup 9 pages on, from
 * where the missing page is 8 away, and takes the stream over there.
 */
static struct h_file *run_after_window(unsigned long run, pgoff_t *end)
{
	struct h_file *a = h_create(PAGES * 4096, 128);

	h_read_seq(a, 0, 5);
	*end = a->file.f_ra.start + a->file.f_ra.size;
	h_populate(a, *end, run);
	set_marker(a, *end);
	h_log_reset();
	return a;
}

static void backup_threshold(void)
{
	pgoff_t end;
	struct h_file *a = run_after_window(16, &end);

	EXPECT_INT("a's window end", end, 28);
	h_read_seq(a, 28, 1);
	EXPECT_STR("half the maximum: taken", h_calls(),
		   "async 28+1 44+32-32 =32");
	a = run_after_window(17, &end);
	h_read_seq(a, 28, 1);
	EXPECT_STR("one more: left", h_calls(), "async 28+1 12+16-16 =0");
	EXPECT_INT("the marker left", h_marked(a, 28), 1);
	EXPECT_INT("the backup", h_marked(a, 37), 1);
	h_log_reset();
	h_read_seq(a, 29, 9);
	EXPECT_STR("taken at the backup", h_calls(),
		   "async 37+1 45+18-18 =18");
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * As "stale state at window end", a faulting through a MADV_SEQUENTIAL
 * mapping: the fault path leaves b's marker and takes the backup as
 * read(2) does.
 */
static void stale_state_faults(void)
{
	struct h_file *b;
	struct h_file *a = stale_pair(&b);
	pgoff_t i;

	h_log_reset();
	for (i = 5; i < 29; i++)
		h_fault(a, i, VM_SEQ_READ);
	EXPECT_STR("nothing read at b's marker", h_io(), "");
	EXPECT_INT("b's marker left", h_marked(a, 28), 1);
	EXPECT_INT("the backup", h_marked(a, 44), 1);
	for (i = 29; i < 45; i++)
		h_fault(a, i, VM_SEQ_READ);
	EXPECT_STR("read from the backup", h_io(), "60-91[60]");
	EXPECT_INT("the backup taken", h_marked(a, 44), 0);
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * An odd maximum (33 pages): with the first missing page 33 on, the
 * backup goes 17 on, halfway rounded up, so that from it the missing
 * page is 16 away, not more than half the maximum, and the reader there
 * takes the stream over rather than leaving the marker once more.
 */
static void backup_odd_maximum(void)
{
	struct h_file *a = h_create(PAGES * 4096, 132);
	pgoff_t end;

	h_read_seq(a, 0, 5);
	end = a->file.f_ra.start + a->file.f_ra.size;
	h_populate(a, end, 33);
	set_marker(a, end);
	h_log_reset();
	h_read_seq(a, end, 1);
	EXPECT_INT("the backup", h_marked(a, end + 17), 1);
	h_log_reset();
	h_read_seq(a, end + 1, 17);
	EXPECT_STR("taken at the backup", h_calls(),
		   "async 45+1 61+33-33 =33");
}

/*
 * A reader takes a marker it did not set, and all of the next window's
 * maximum (32 pages) is cached: the stream is far ahead, nothing is read.
 * (On 6.1, page_cache_next_miss() finding no hole returns a cached page;
 * a check taking it for the first missing page would issue a window.)
 */
static void marker_next_window_cached(void)
{
	struct h_file *f = h_create(PAGES * 4096, 128);

	h_populate(f, 0, 100);
	set_marker(f, 50);
	h_log_reset();
	EXPECT_INT("bytes", h_read(f, 50 * 4096, 4096), 4096);
	EXPECT_STR("calls", h_calls(), "async 50+1 0+0-0 =0");
	EXPECT_STR("io", h_io(), "");
	INVARIANT(!h_marked(f, 50));
}

/*
 * A marker with every page after it cached up to the end of the file:
 * the first missing page is EOF, there is nothing to read ahead.
 */
static void marker_cached_to_eof(void)
{
	struct h_file *f = h_create(60 * 4096, 128);

	h_populate(f, 0, 60);
	set_marker(f, 40);
	h_log_reset();
	h_read(f, 40 * 4096, 4096);
	EXPECT_STR("calls", h_calls(), "async 40+1 0+0-0 =0");
	EXPECT_INT("all-cached calls", h_all_cached_calls(), 0);
}

/* The same with the first missing page right at the maximum: it is read. */
static void marker_hole_at_max(void)
{
	struct h_file *f = h_create(PAGES * 4096, 128);

	h_populate(f, 0, 82);
	set_marker(f, 50);
	h_log_reset();
	h_read(f, 50 * 4096, 4096);
	EXPECT_STR("calls", h_calls(), "async 50+1 82+32-32 =32");
	EXPECT_STR("io", h_io(), "82-113[82]");
}

/*
 * Reader a reads pages 0-1 (its window 4+8-8, marker at 4, end at 12);
 * through another descriptor, the first @dropped pages are dropped and
 * @ahead pages from 12 on, the next window's, are read (WILLNEED); then
 * a reads on to its marker.  Returns a; the calls are logged from there.
 */
static struct h_file *own_marker_cached_ahead(pgoff_t dropped, pgoff_t ahead)
{
	struct h_file *a = h_create(PAGES * 4096, 128);
	struct h_file *b = h_reopen(a);

	h_read_seq(a, 0, 2);
	if (dropped)
		h_fadvise(b->fd, 0, dropped * 4096, POSIX_FADV_DONTNEED);
	h_fadvise(b->fd, 12 * 4096, ahead * 4096, POSIX_FADV_WILLNEED);
	EXPECT_INT("pages cached", a->file.f_mapping->nrpages,
		   12 - dropped + ahead);
	h_log_reset();
	h_read_seq(a, 2, 3);
	return a;
}

/*
 * A reader reaches its own marker, but another process's WILLNEED has
 * read the window that would follow (pages 12-27): the window is issued
 * as 6.12 issues it, all of it cached, so nothing is submitted and
 * nothing marked.  The reader then misses where the cached run ends, in
 * the middle of its read, and the miss is sized from the history before
 * it: the stream goes on at full size, nothing read twice.
 */
static void own_marker_next_window_cached(void)
{
	struct h_file *a = own_marker_cached_ahead(0, 16);

	EXPECT_STR("a at its marker", h_calls(), "async 4+1 12+16-16 =0");
	EXPECT_INT("all-cached calls", h_all_cached_calls(), 1);
	h_log_reset();
	h_read_seq(a, 5, 24);
	EXPECT_STR("a past the window", h_calls(), "sync 28+1 28+32-16 =32");
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * The same with pages dropped behind the reader and one page of the next
 * window cached: the window is issued, its cached first page skipped and
 * with it the marker's place, so the rest is read unmarked.
 */
static void own_marker_next_window_cached_holes_behind(void)
{
	own_marker_cached_ahead(2, 1);
	EXPECT_STR("a at its marker", h_calls(), "async 4+1 12+16-16 =15");
	EXPECT_STR("io", h_io(), "13-27");
	EXPECT_INT("all-cached calls", h_all_cached_calls(), 0);
}

/*
 * b finds a's marker while a's window is still being read (its first
 * folio not uptodate yet): b leaves it set and reads nothing, so that a,
 * about to get there, issues the next window from its own context.  Once
 * a window is in, its reader may be gone: b leaves the marker and marks a
 * backup halfway to the first missing page, where, a not having pushed
 * the stream meanwhile, b takes it over, still ahead of need.
 */
/*
 * a reads pages 0-4 of @pages (its window 12+16-16, marked on 12), b,
 * another descriptor of the file, issued 4+8-8 before; a's window is
 * still being read: its marked folio (returned) is not uptodate.  NULL
 * where the filesystem left no marker there.
 */
struct folio *shared_marker_in_flight(struct h_file **a, struct h_file **b,
				      pgoff_t pages)
{
	struct folio *folio;
	pgoff_t i;

	*a = h_create(pages * 4096, 128);
	*b = h_reopen(*a);
	for (i = 0; i < 5; i++)
		h_read(*a, i * 4096, 4096);
	(*b)->file.f_ra.start = 4;
	(*b)->file.f_ra.size = 8;
	(*b)->file.f_ra.async_size = 8;
	folio = xa_load(&(*a)->file.f_mapping->i_pages, 12);
	if (!folio || !folio_test_readahead(folio))
		return NULL;
	folio->flags &= ~(1UL << PG_uptodate);
	return folio;
}

static void marker_of_another_in_flight(void)
{
	struct h_file *a, *b;
	struct folio *folio = shared_marker_in_flight(&a, &b, PAGES);
	pgoff_t i;

	REQUIRE(folio);
	h_log_reset();
	ra_call_async(&b->file, folio, 1);
	EXPECT_STR("b at a's marker in flight", h_calls(), "async 12+1 4+8-8 =0");
	EXPECT_STR("io", h_io(), "");
	EXPECT_INT("marker left", h_marked(a, 12), 1);
	EXPECT_INT("counted as a deferral", h_stat("defer", 0), 1);
	folio_mark_uptodate(folio);
	h_log_reset();
	for (i = 5; i < 13; i++)
		h_read(a, i * 4096, 4096);
	EXPECT_STR("a at its marker", h_calls(), "async 12+1 28+32-32 =32");
	h_log_reset();
	for (i = 12; i < 45; i++)
		h_read(b, i * 4096, 4096);
	EXPECT_STR("b at a's marker in, then at the backup", h_calls(),
		   "async 28+1 4+8-8 =0; async 44+1 60+32-32 =32");
	INVARIANT(h_pages_resubmitted() == 0);
}

void shared_checks(void)
{
	test_run("two readers in lockstep", lockstep);
	test_run("two readers leapfrogging", leapfrog);
	test_run("four readers of one file", four_readers);
	test_run("marker of another reader", marker_of_another);
	test_run("stale state at window end", stale_state_at_window_end);
	test_run("stale state, the owner comes back", stale_state_owner_returns);
	test_run("stale state, the backup under writeback",
		 stale_state_backup_writeback);
	test_run("stale state, the backup dirty", stale_state_backup_dirty);
	test_run("stale state, the backup not uptodate",
		 stale_state_backup_not_uptodate);
	test_run("stale state, the backup locked", stale_state_backup_locked);
	test_run("where leaving a marker starts", backup_threshold);
	test_run("the backup with an odd maximum", backup_odd_maximum);
	test_run("stale state, faults", stale_state_faults);
	test_run("marker of another reader in flight",
		 marker_of_another_in_flight);
	test_run("marker with the next window cached",
		 marker_next_window_cached);
	test_run("own marker with the next window cached",
		 own_marker_next_window_cached);
	test_run("own marker with the next window cached, holes behind",
		 own_marker_next_window_cached_holes_behind);
	test_run("marker with the first hole at the maximum",
		 marker_hole_at_max);
	test_run("marker with all cached to eof", marker_cached_to_eof);
}
