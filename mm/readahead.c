// SPDX-License-Identifier: GPL-2.0-only
/*
 * On-demand readahead for the page cache.
 *
 * This file holds all readahead policy of the kernel: the read(2) path,
 * the page fault path, fadvise(POSIX_FADV_WILLNEED) and readahead(2) ask
 * it what to read, and it reads it.
 */

/**
 * DOC: Readahead Overview
 *
 * What a filesystem's ->readahead() is given, and what it owes.
 *
 * Readahead adds folios to the page cache before anyone asked for their
 * contents, locked and not uptodate, and hands a contiguous run of them
 * to the address_space's ->readahead() in a &struct readahead_control.
 * The filesystem takes them in index order with readahead_folio() or
 * __readahead_batch() and starts the reads; when a read completes it
 * unlocks the folio, marking it uptodate on success (folio_end_read()),
 * or leaves it !uptodate on error, for the reader to retry with
 * ->read_folio().  Folios may be large: readahead_count() and
 * readahead_length() count pages and bytes, not folios.  Mappings
 * without ->readahead() get one ->read_folio() call per folio instead.
 *
 * ->readahead() need not read everything.  Folios it did not take when
 * it returns leave the window: up to @ractl->ra->async_size pages of
 * them are removed from the cache again, the others are unlocked and
 * stay !uptodate, to be read on demand.  The asynchronous part is the
 * last @ractl->ra->async_size pages of the window: no reader needs them
 * yet, so a filesystem under pressure may decline a request that lies
 * entirely in it (FUSE does, when its congestion threshold is reached)
 * and lose nothing but the head start.  @ractl->ra always describes the window
 * being read when readahead itself calls ->readahead(); it is the file's
 * &struct file_ra_state for the on-demand windows, and a window of the
 * request's own, all of it synchronous, for forced readahead
 * (POSIX_FADV_WILLNEED, readahead(2)) and random reads.  It is NULL only
 * when a filesystem calls page_cache_ra_unbounded() itself without one.
 *
 * A filesystem whose unit of I/O is larger than the request may grow it
 * with readahead_expand() before taking folios.  ->readahead() runs with
 * the mapping's invalidate_lock held shared and inside
 * memalloc_nofs_save(): it must not take that lock exclusively, and its
 * allocations do not recurse into filesystem reclaim.  The first folio
 * of the asynchronous part carries PG_readahead (the marker); the
 * filesystem leaves it alone: a reader that finds it starts the next
 * window.  How windows are chosen is described in "Readahead policy"
 * below.
 */

/**
 * DOC: Readahead policy
 *
 * Every open file carries a &struct file_ra_state describing the last
 * window this file read ahead: @start, @size pages, of which the last
 * @async_size pages were not needed yet when the window was issued.  The
 * first of those pages, ``start + size - async_size``, gets the
 * PG_readahead flag (the "marker").  A reader that finds the marker clears
 * it and asks for the next window while the rest of the current one is
 * still ahead of it, so the next I/O is in flight before it is needed.
 *
 * Readahead is decided on demand, only at two moments:
 *
 * * a synchronous call, when a read or a fault misses the page cache;
 * * an asynchronous call, when it finds a page carrying the marker.
 *
 * The decision names a pattern and a window:
 *
 * ========== ===========================================================
 * initial    a stream starts: at offset 0 (``initial0``), or a miss right
 *            after the previous read of this file.  The window is the
 *            request rounded up to a power of two, times 4 when small,
 *            times 2 when medium, else the maximum; the marker sits
 *            right after the requested pages.
 * subsequent the reader reached the marker or the end of the window this
 *            file issued.  The window moves on and grows (times 4, then
 *            times 2, up to the maximum); all of it is asynchronous.
 * marker     a marker was found that this file's state does not explain:
 *            another reader of the same file set it, or two streams
 *            share one descriptor.  The page cache says how far the
 *            stream got: the new window starts at the first missing page
 *            after the marker and is sized from the distance to it.
 * context    a miss with no usable state, but the pages before it are
 *            cached: a stream is running, possibly through another file
 *            descriptor.  The window is sized from that history and
 *            marked on its last page.
 * oversize   a request larger than the maximum window: read one maximum
 *            window now, marked halfway, and pipeline the rest.
 * random     none of the above: read what was asked, leave the state
 *            alone.
 * around     a page fault miss in a mapping with no access hints: read a
 *            window centred on the fault, unless faults miss much more
 *            often than they hit.
 * fadvise    POSIX_FADV_WILLNEED and readahead(2): read the given range
 *            in bounded chunks, no state.
 * defer      another reader's marker, left to that reader (see below):
 *            nothing read, the state kept.
 * ========== ===========================================================
 *
 * Several readers of one file each have their own state but share the
 * cache and its markers.  Whoever reaches a marker first pushes the
 * stream on, except that a reader with a stream of its own leaves
 * another reader's marker alone while the window it marks is still
 * being read: the reader that issued that window is about to reach it.
 * A marker is taken for another reader's only when the reader's own
 * window ends at or before it and the page after that window is cached
 * (the stream went on from there); any other marker its state does not
 * explain is its own (two streams on one descriptor, threads sharing
 * one) and is taken at once.
 * Once the window is in, that reader may be gone; still, a reader with a
 * stream of its own that finds the first missing page more than half the
 * maximum window past the marker is far behind the front, and leaves the
 * marker again, marking a backup on the first folio from halfway to that
 * page: the reader that issued the window pushes the stream at its
 * marker, and if it has gone, whoever reaches the backup takes the
 * stream over, still ahead of need.  A large marked folio is left too:
 * each read of one of its pages finds the marker again and leaves it
 * again, reading nothing.  A marker with no folio to take the backup is
 * taken over at once.
 * Schedulers that queue I/O per process (BFQ) then see a stream's
 * windows come from one process rather than alternate between the
 * readers' queues, and the disks seek less between files.
 *
 * A request that lands on the first page of a window that is entirely
 * asynchronous would find its own marker at once; the next window is
 * merged into the current one instead, so callers need not look for the
 * marker again after a synchronous call.
 *
 * The maximum window is the device's ``read_ahead_kb`` (0 disables
 * readahead), bounded by a fraction of memory, or of the reader's memory
 * cgroup limit where that is lower, so that streams together do not read
 * ahead more than memory can keep.  Huge page windows and forced
 * readahead are not so bounded.  A stream whose pages are evicted before
 * it reads them (a sequential miss inside its window) halves the file's
 * maximum, down to the default window; each window it then uses whole
 * grows the maximum back by a quarter, up to the device's.
 *
 * On mappings that take large folios, windows are read in them, as 6.1
 * reads them: a stream's first window in folios of up to order 2, each
 * asynchronous window in folios up to two orders larger than the window
 * before asked for (the state keeps the order, so that a stream that
 * started unaligned, whose first folios are small, ramps up as fast; a
 * marker the state does not account for goes by the largest folio of
 * its window), up to the page cache's largest order.  Folios are
 * naturally aligned and never reach past the window or the end of the
 * file; the marker starts a folio, so that a window has exactly one
 * marked folio and its asynchronous part is what follows it.  Where a
 * large folio would overlap a cached page, its pages are read as order
 * 0; when no large folio can be allocated, the rest of the window is.
 * Read-around reads order-2 folios, and a huge page mapping PMD-sized
 * ones.  A fault on any page of the marked folio moves the stream on, as
 * read(2) does.
 */

#include <linux/blkdev.h>
#include <linux/kernel.h>
#include <linux/mm.h>
#include <linux/gfp.h>
#include <linux/export.h>
#include <linux/backing-dev.h>
#include <linux/pagemap.h>
#include <linux/psi.h>
#include <linux/syscalls.h>
#include <linux/file.h>
#include <linux/blk-cgroup.h>
#include <linux/fadvise.h>
#include <linux/memcontrol.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>

#include "internal.h"

#define CREATE_TRACE_POINTS
#include <trace/events/readahead.h>

/* Read-around gives up after this many more fault misses than hits. */
#define RA_MMAP_MISS_LIMIT	100
/* mmap_miss stops counting here, so that recovery takes bounded time. */
#define RA_MMAP_MISS_CEILING	(10 * RA_MMAP_MISS_LIMIT)
/*
 * On mappings with large folios, a stream's first window is read in folios
 * of up to order RA_ORDER_START, and each asynchronous window in folios
 * up to RA_ORDER_STEP orders larger than the window before asked for.
 */
#define RA_ORDER_START		2
#define RA_ORDER_STEP		2
/* Forced readahead submits at most this many pages at a time. */
#define RA_FORCE_CHUNK_PAGES	(SZ_2M / PAGE_SIZE)
/*
 * A stream's window takes at most 1/RA_WINDOW_MEM_SHARE of memory, or of
 * its reader's memory cgroup limit where that is lower.
 */
#define RA_WINDOW_MEM_SHARE	128

/**
 * file_ra_state_init - Initialise a file's readahead state.
 * @ra: The state, zeroed by the caller.
 * @mapping: The address_space the file reads from.
 *
 * Takes the maximum window from the backing device and records that the
 * file has not been read yet.
 */
void file_ra_state_init(struct file_ra_state *ra,
			struct address_space *mapping)
{
	/* A huge read_ahead_kb must not wrap to 0 in the unsigned int. */
	ra->ra_pages = min_t(unsigned long,
			     inode_to_bdi(mapping->host)->ra_pages, UINT_MAX);
	ra->prev_pos = -1;
}
EXPORT_SYMBOL_GPL(file_ra_state_init);

#ifdef CONFIG_MEMCG
/*
 * The pages the reading task's memory cgroup may hold: the lowest limit
 * on its way to the root.  The page cache read ahead is charged to it.
 */
static unsigned long ra_memcg_pages(void)
{
	struct page_counter *counter;
	unsigned long pages = PAGE_COUNTER_MAX;

	if (mem_cgroup_disabled())
		return pages;
	rcu_read_lock();
	for (counter = &mem_cgroup_from_task(current)->memory; counter;
	     counter = counter->parent)
		pages = min(pages, READ_ONCE(counter->max));
	rcu_read_unlock();
	return pages;
}
#else
static inline unsigned long ra_memcg_pages(void)
{
	return ULONG_MAX;
}
#endif

/*
 * @max bounded by the largest window a stream may use, whatever
 * read_ahead_kb says: many streams of windows that memory, or the
 * reader's memory cgroup, cannot hold evict each other's pages before
 * they are read (see Documentation/mm/readahead.rst).  The bound is never
 * below the default window, so a window that small is not looked at.
 */
static unsigned long ra_memory_bound(unsigned long max)
{
	unsigned long pages;

	if (max <= VM_READAHEAD_PAGES)
		return max;
	pages = min(totalram_pages(), ra_memcg_pages());
	return min(max, max_t(unsigned long, pages / RA_WINDOW_MEM_SHARE,
			      VM_READAHEAD_PAGES));
}

/*
 * The maximum window for a request of @req pages: the file's ra_pages
 * (read_ahead_kb), within the memory bound.  A request larger than that
 * may use the device's optimal I/O size instead.
 */
static unsigned long ra_max_pages(struct readahead_control *ractl,
				  unsigned long req)
{
	unsigned long max = ractl->ra->ra_pages;

	/* Only a request larger than that looks at the device at all. */
	if (req > max) {
		struct backing_dev_info *bdi = inode_to_bdi(ractl->mapping->host);

		if (bdi->io_pages > max)
			max = min_t(unsigned long, req, bdi->io_pages);
	}
	return ra_memory_bound(max);
}

/*
 * The folios ->readahead() left in @ractl: they are dropped again and
 * leave the window, so that the state describes what was really read.
 * Out of line: most filesystems take every folio, and without the loop
 * read_pages(), called for every request, needs a much smaller frame.
 */
static noinline void ra_drop_unread(struct readahead_control *ractl)
{
	struct file_ra_state *ra = ractl->ra;
	struct folio *folio;

	while ((folio = readahead_folio(ractl))) {
		unsigned long nr = folio_nr_pages(folio);
		bool drop = false;

		folio_get(folio);
		if (ra) {
			ra->size -= min_t(unsigned long, nr, ra->size);
			drop = ra->async_size >= nr;
			if (drop)
				ra->async_size -= nr;
			/* A large folio may hold more than the async part. */
			ra->async_size = min(ra->async_size, ra->size);
		}
		if (drop)
			filemap_remove_folio(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
}

/*
 * Without ->readahead(), each folio goes to ->read_folio() alone.  Out of
 * line for the same reason as ra_drop_unread().
 */
static noinline void ra_read_each(struct readahead_control *ractl)
{
	const struct address_space_operations *aops = ractl->mapping->a_ops;
	struct folio *folio;

	while ((folio = readahead_folio(ractl)))
		aops->read_folio(ractl->file, folio);
}

/* Hand the locked folios gathered in @ractl to the filesystem. */
static void read_pages(struct readahead_control *ractl)
{
	const struct address_space_operations *aops = ractl->mapping->a_ops;
	struct blk_plug plug;

	if (!readahead_count(ractl))
		return;

	if (unlikely(ractl->_workingset))
		psi_memstall_enter(&ractl->_pflags);
	blk_start_plug(&plug);
	if (aops->readahead) {
		aops->readahead(ractl);
		if (readahead_count(ractl))
			ra_drop_unread(ractl);
	} else {
		ra_read_each(ractl);
	}
	blk_finish_plug(&plug);
	if (unlikely(ractl->_workingset))
		psi_memstall_leave(&ractl->_pflags);
	ractl->_workingset = false;
	WARN_ON_ONCE(readahead_count(ractl));
}

/* Is there a folio (not a shadow entry) at @index? */
static bool ra_page_cached(struct address_space *mapping, pgoff_t index)
{
	void *entry;

	rcu_read_lock();
	entry = xa_load(&mapping->i_pages, index);
	rcu_read_unlock();
	return entry && !xa_is_value(entry);
}

/*
 * The order of the folio to add at @index, with @left pages before the
 * end of the window or its marker, @order the window's order: folios are
 * naturally aligned, end inside the window and do not straddle the
 * marker.
 */
static unsigned int ra_fit_order(pgoff_t index, unsigned long left,
				 unsigned int order)
{
	/* The bit of @order stands in for the alignment of index 0. */
	return min_t(unsigned int, __ffs(index | 1UL << order), ilog2(left));
}

/*
 * The page to mark in a read of @nr_to_read pages ending before @end:
 * @lookahead_size pages before the end.  Without a lookahead, or with one
 * longer than the read, it is @end, which no page of the read reaches.
 */
static pgoff_t ra_mark_index(pgoff_t end, unsigned long nr_to_read,
			     unsigned long lookahead_size)
{
	return lookahead_size <= nr_to_read ? end - lookahead_size : end;
}

/*
 * The steps the two gathering loops below share.  Folios sit locked in
 * the cache until read_pages() submits them; reclaim must not call back
 * into the filesystem meanwhile, nor may the file be truncated.
 */
static unsigned int ra_gather_begin(struct address_space *mapping)
{
	unsigned int nofs = memalloc_nofs_save();

	filemap_invalidate_lock_shared(mapping);
	return nofs;
}

static void ra_gather_end(struct readahead_control *ractl, unsigned int nofs)
{
	read_pages(ractl);
	filemap_invalidate_unlock_shared(ractl->mapping);
	memalloc_nofs_restore(nofs);
}

/* @folio of @nr pages joins the batch; it carries the marker if @mark. */
static void ra_gather_folio(struct readahead_control *ractl,
			    struct folio *folio, unsigned long nr, bool mark)
{
	if (mark)
		folio_set_readahead(folio);
	if (unlikely(folio_test_workingset(folio)))
		ractl->_workingset = true;
	ractl->_nr_pages += nr;
}

/* A hole before @next: submit the batch before it, restart at @next. */
static void ra_gather_skip(struct readahead_control *ractl, pgoff_t next)
{
	read_pages(ractl);
	ractl->_index = next;
}

/*
 * Read @nr_to_read pages from the readahead index in order-0 folios,
 * marking the page @lookahead_size pages before the end (none for 0).
 * Cached pages are skipped, and each run of missing pages is submitted
 * as one request; when a page cannot be allocated, or the page cache has
 * no memory for it, reading stops.
 * Returns the number of pages submitted.  Most windows are read here:
 * it is ra_read_folios() for order 0, without what large folios need
 * (and without its larger frame).
 */
static unsigned long ra_read_pages(struct readahead_control *ractl,
				   unsigned long nr_to_read,
				   unsigned long lookahead_size)
{
	struct address_space *mapping = ractl->mapping;
	pgoff_t index = readahead_index(ractl);
	pgoff_t end = index + nr_to_read;
	pgoff_t mark = ra_mark_index(end, nr_to_read, lookahead_size);
	gfp_t gfp = readahead_gfp_mask(mapping);
	unsigned int nofs = ra_gather_begin(mapping);
	unsigned long added = 0;

	for (; index != end; index++) {
		struct folio *folio = NULL;

		if (!ra_page_cached(mapping, index)) {
			int err;

			folio = filemap_alloc_folio(gfp, 0);
			if (!folio)
				break;
			err = filemap_add_folio(mapping, folio, index, gfp);
			if (err < 0) {
				folio_put(folio);
				if (err == -ENOMEM)
					break;
				folio = NULL;
			}
		}
		if (!folio) {
			ra_gather_skip(ractl, index + 1);
			continue;
		}
		ra_gather_folio(ractl, folio, 1, index == mark);
		added++;
	}
	ra_gather_end(ractl, nofs);
	return added;
}

/*
 * Read @nr_to_read pages from the readahead index in folios of up to
 * @order (not 0), marking the page @lookahead_size pages before the end
 * (none for 0).  The marker sits on a folio boundary: the folio it marks starts
 * there, so that the asynchronous part is exactly what follows, and it is
 * the only one marked.  Cached pages are skipped, and each run of missing
 * pages is submitted as one request.  Where a large folio would
 * overlap a cached page, the pages it would have held are read in the
 * mapping's smallest folios; when a large folio cannot be allocated, the
 * rest of the window is, and the state keeps an order such that the next
 * window asks one order below the refused one; when a smallest folio
 * cannot be, or the page cache has no memory for one, reading stops.
 * The index, the length and the marker are multiples of the smallest
 * folio (see ra_read_aligned()).  Returns the number of pages submitted.
 * Inlined: every window of a mapping with large folios is read here, and
 * a frame of its own cost about as much as deciding the window; inlined
 * below ra_read_upto(), the loop also knows the smallest order is 0.
 */
static __always_inline unsigned long
ra_read_folios(struct readahead_control *ractl, unsigned long nr_to_read,
	       unsigned long lookahead_size, unsigned int order)
{
	struct address_space *mapping = ractl->mapping;
	pgoff_t index = readahead_index(ractl);
	pgoff_t end = index + nr_to_read;
	pgoff_t mark = ra_mark_index(end, nr_to_read, lookahead_size);
	/* The smallest folios before this index, large ones from it on. */
	pgoff_t small_end = index;
	unsigned int min = mapping_min_folio_order(mapping);
	gfp_t gfp = readahead_gfp_mask(mapping);
	unsigned int nofs = ra_gather_begin(mapping);
	unsigned long nr, added = 0;

	for (; index != end; index += nr) {
		unsigned int o = min;
		struct folio *folio;
		int err;

		if (index >= small_end) {
			/* Up to the marker, or else the end. */
			o = ra_fit_order(index, (index < mark ? mark : end) -
					 index, order);
		}
		nr = 1UL << o;
		/* A large folio finds cached pages when it is added. */
		if (o == min && ra_page_cached(mapping, index))
			goto skip;
		folio = filemap_alloc_folio(gfp, o);
		if (!folio) {
			if (o == min)
				break;
			/*
			 * No large folio to be had: the smallest from here on,
			 * and the next window asks one order below this one.
			 */
			if (ractl->ra)
				ractl->ra->order = o > RA_ORDER_STEP ?
						   o - 1 - RA_ORDER_STEP : 0;
			small_end = end;
			nr = 0;
			continue;
		}
		err = filemap_add_folio(mapping, folio, index, gfp);
		if (err < 0) {
			folio_put(folio);
			if (err == -ENOMEM)
				break;
			if (o > min) {
				/* A cached page in its range: the smallest here. */
				small_end = index + nr;
				nr = 0;
				continue;
			}
			goto skip;
		}
		ra_gather_folio(ractl, folio, nr, index == mark);
		added += nr;
		continue;
skip:
		ra_gather_skip(ractl, index + nr);
	}
	ra_gather_end(ractl, nofs);
	return added;
}

/*
 * Read @nr_to_read pages from the readahead index on a mapping whose
 * folios are at least of order min (blocks larger than pages), in
 * folios of up to @order, up to @eof: the read is widened to whole
 * smallest folios, down from the index and up to the end, which the
 * last folio may pass; the marker moves to the start of its folio.  A
 * read clipped at @eof is marked nowhere, as ra_read_upto()'s.
 */
static noinline unsigned long
ra_read_aligned(struct readahead_control *ractl, unsigned long nr_to_read,
		unsigned long lookahead_size, unsigned int order, pgoff_t eof)
{
	unsigned int min = mapping_min_folio_order(ractl->mapping);
	unsigned long nr = 1UL << min;
	pgoff_t index = readahead_index(ractl);
	pgoff_t start = round_down(index, nr);
	pgoff_t end, mark;

	eof = eof > ULONG_MAX - nr ? round_down(ULONG_MAX, nr) :
	      round_up(eof, nr);
	if (start >= eof || !nr_to_read)
		return 0;
	if (nr_to_read > eof - index) {
		end = eof;
		mark = end;
	} else {
		end = round_up(index + nr_to_read, nr);
		mark = lookahead_size && lookahead_size <= nr_to_read ?
		       round_down(index + nr_to_read - lookahead_size, nr) :
		       end;
	}
	ractl->_index = start;
	return ra_read_folios(ractl, end - start, end - mark, max(order, min));
}

/**
 * page_cache_ra_unbounded - Read ahead without checking the file size.
 * @ractl: Readahead control; its index is where reading starts.
 * @nr_to_read: How many pages to read.
 * @lookahead_size: How many of them are not needed yet; the first of
 *	those is marked PG_readahead.  0 sets no marker.
 *
 * Pages already in the page cache are skipped, and each run of missing
 * pages is submitted as one request.  Filesystems call this to read
 * beyond i_size (verity metadata, for example); everyone else wants
 * page_cache_sync_ra() or page_cache_async_ra().
 *
 * Context: The caller holds a reference on the file.  May sleep.
 */
void page_cache_ra_unbounded(struct readahead_control *ractl,
			     unsigned long nr_to_read,
			     unsigned long lookahead_size)
{
	trace_page_cache_ra_unbounded(ractl->mapping->host,
				      readahead_index(ractl), nr_to_read,
				      lookahead_size);
	if (unlikely(mapping_min_folio_order(ractl->mapping)))
		ra_read_aligned(ractl, nr_to_read, lookahead_size, 0,
				ULONG_MAX);
	else
		ra_read_pages(ractl, nr_to_read, lookahead_size);
}
EXPORT_SYMBOL_GPL(page_cache_ra_unbounded);

/* The index after the page holding the last byte of the file. */
static pgoff_t ra_eof(struct address_space *mapping)
{
	/* i_size is at most LLONG_MAX: rounding it up cannot wrap a u64. */
	return ((u64)i_size_read(mapping->host) + PAGE_SIZE - 1) >> PAGE_SHIFT;
}

/*
 * Read @nr_to_read pages from the readahead index in folios of up to
 * @order, clipped at @eof (see ra_eof()): no folio reaches past the page
 * holding the last byte of the file.  A window so clipped is marked
 * nowhere: the next window would start past the end of the file, and a
 * marker counted from the clipped end would sit where the state does not
 * say.  Returns the pages submitted.
 */
static __always_inline unsigned long
ra_read_upto(struct readahead_control *ractl, unsigned long nr_to_read,
	     unsigned long lookahead_size, unsigned int order, pgoff_t eof)
{
	pgoff_t index = readahead_index(ractl);

	if (unlikely(mapping_min_folio_order(ractl->mapping)))
		return ra_read_aligned(ractl, nr_to_read, lookahead_size,
				       order, eof);
	if (index >= eof)
		return 0;
	if (nr_to_read > eof - index) {
		nr_to_read = eof - index;
		lookahead_size = 0;
	}
	if (!order)
		return ra_read_pages(ractl, nr_to_read, lookahead_size);
	return ra_read_folios(ractl, nr_to_read, lookahead_size, order);
}

/*
 * Read the window set in @ra from the readahead index in folios of up to
 * @order, up to @eof, and keep @order in @ra: the next asynchronous window
 * ramps from it.
 */
static __always_inline unsigned long
ra_read_window(struct readahead_control *ractl, struct file_ra_state *ra,
	       unsigned int order, pgoff_t eof)
{
	ra->order = order;
	if (order)
		trace_page_cache_ra_order(ractl->mapping->host,
					  readahead_index(ractl), ra);
	return ra_read_upto(ractl, ra->size, ra->async_size, order, eof);
}

/*
 * Read @nr_to_read pages, up to @eof, outside the file's window (a forced
 * or a random read).  Pages the filesystem declines, or adds with
 * readahead_expand(), must not change the file's window, yet
 * ->readahead() may read @ractl->ra (FUSE does, to skip asynchronous
 * pages when congested): the read gets a window of its own, which
 * describes it, all of it needed now.
 */
static unsigned long ra_read_stateless(struct readahead_control *ractl,
				       unsigned long nr_to_read, pgoff_t eof)
{
	struct file_ra_state *ra = ractl->ra;
	struct file_ra_state window = *ra;
	unsigned long actual;

	window.start = readahead_index(ractl);
	window.size = nr_to_read;
	window.async_size = 0;
	ractl->ra = &window;
	actual = ra_read_upto(ractl, nr_to_read, 0, 0, eof);
	ractl->ra = ra;
	return actual;
}

/*
 * Forced readahead, accounted as @pattern: at most the larger of the
 * file's maximum window and the device's optimal I/O size, in chunks.
 */
static void ra_force(struct readahead_control *ractl,
		     unsigned long nr_to_read, enum ra_pattern pattern)
{
	const struct address_space_operations *aops = ractl->mapping->a_ops;
	struct backing_dev_info *bdi = inode_to_bdi(ractl->mapping->host);
	unsigned long cap = max_t(unsigned long, bdi->io_pages,
				  ractl->ra->ra_pages);
	struct ra_decision d = {
		.pattern = pattern,
		.index = readahead_index(ractl),
		.req = nr_to_read,
		.start = readahead_index(ractl),
	};
	pgoff_t index = d.start;

	if (unlikely(!aops->read_folio && !aops->readahead))
		return;

	nr_to_read = min(nr_to_read, cap);
	d.size = nr_to_read;
	while (nr_to_read) {
		unsigned long chunk = min_t(unsigned long, nr_to_read,
					    RA_FORCE_CHUNK_PAGES);

		ractl->_index = index;
		/* The file may shrink meanwhile: look at its size again. */
		d.actual += ra_read_stateless(ractl, chunk,
					      ra_eof(ractl->mapping));
		if (index + chunk < index)
			break;
		index += chunk;
		nr_to_read -= chunk;
	}
	trace_readahead_decision(ractl, &d);
}

/**
 * force_page_cache_ra - Read a range whatever the readahead state says.
 * @ractl: Readahead control; its index is where the range starts.
 * @nr_to_read: Length of the range in pages.
 *
 * For POSIX_FADV_WILLNEED, readahead(2) and files opened for random
 * access.  The range, clipped at the end of the file and at the larger
 * of the file's maximum window and the device's optimal I/O size, is
 * read in chunks of at most 2MB.  The file's readahead state is not
 * touched.
 */
void force_page_cache_ra(struct readahead_control *ractl,
			 unsigned long nr_to_read)
{
	ra_force(ractl, nr_to_read, RA_PATTERN_FADVISE);
}

/*
 * First window of a stream: the request rounded up to a power of two,
 * quadrupled when small, doubled when medium, else the maximum.
 */
static unsigned long get_init_ra_size(unsigned long req, unsigned long max)
{
	unsigned long size = roundup_pow_of_two(req);

	if (size <= max / 32)
		return size * 4;
	if (size <= max / 4)
		return size * 2;
	return max;
}

/* The window after one of @cur pages: fast growth first, then doubling. */
static unsigned long get_next_ra_size(unsigned long cur, unsigned long max)
{
	if (cur < max / 16)
		return cur * 4;
	if (cur <= max / 2)
		return cur * 2;
	return max;
}

/*
 * The window after the current one.  A window larger than the maximum
 * (a large request used the device's optimal I/O size, or a huge page
 * mapping) keeps its size, unless the file's own maximum has been cut
 * below the device's: a read error divides ra_pages by 4, and the
 * stream must slow down at once.  Pages a filesystem added to the
 * window (readahead_expand()) are not kept: what is kept is the
 * device's optimal size or a power of two (a huge page window), else
 * each window would grow by the last one's expansion.
 */
static unsigned long ra_subsequent_size(struct readahead_control *ractl,
					unsigned long max)
{
	struct file_ra_state *ra = ractl->ra;
	unsigned long next = get_next_ra_size(ra->size, max);
	struct backing_dev_info *bdi;
	unsigned long keep;

	if (ra->size <= next)
		return next;
	bdi = inode_to_bdi(ractl->mapping->host);
	if (ra->ra_pages < bdi->ra_pages)
		return next;
	keep = rounddown_pow_of_two(ra->size);
	if (ra->size >= bdi->io_pages)
		keep = max(keep, bdi->io_pages);
	return max(keep, next);
}

/*
 * Every window is set here: @size pages at @start, the last @async_size
 * of them asynchronous (the marker goes on the first of those).
 */
static void ra_set_window(struct file_ra_state *ra, pgoff_t start,
			  unsigned long size, unsigned long async_size)
{
	ra->start = start;
	ra->size = size;
	ra->async_size = async_size;
}

/*
 * A window of @size pages at @start for a request of @req pages: what
 * lies beyond the request is asynchronous, so the marker sits right
 * after the requested pages.  A window no larger than the request is
 * all asynchronous and gets merged with its successor when issued.
 */
static void ra_set_request_window(struct file_ra_state *ra, pgoff_t start,
				  unsigned long size, unsigned long req)
{
	ra_set_window(ra, start, size, size > req ? size - req : size);
}

/*
 * A window for a request of @req pages sized from the history: how many
 * pages right before it are cached, looking back at most @max pages.  A
 * sequential stream leaves such a trail behind.
 *
 * When page_cache_prev_miss() finds no hole, 6.1 returns the last index
 * it looked at and later kernels the one before it; scanning one page
 * more than we count makes both mean "at least @max".  Returns false,
 * setting nothing, when the history is too short to tell a stream.
 */
static bool try_context_readahead(struct readahead_control *ractl,
				  unsigned long req, unsigned long max)
{
	pgoff_t index = readahead_index(ractl);
	unsigned long history;
	pgoff_t hole;

	if (!index)
		return false;
	rcu_read_lock();
	hole = page_cache_prev_miss(ractl->mapping, index - 1, max + 1);
	rcu_read_unlock();
	/* No hole down to page 0 wraps to ULONG_MAX: index pages cached. */
	history = min(index - 1 - hole, max);
	/* No longer than the request itself: could be random reads. */
	if (history <= req)
		return false;
	/* Cached back to the start of the file: a whole-file reader. */
	if (history >= index)
		history *= 2;
	ra_set_window(ractl->ra, index, min(history + req, max), 1);
	return true;
}

/*
 * Is the marker at @index, which this file's state does not account for,
 * another reader's, set on the stream this reader follows?  It is when
 * this file's window, ending at @window_end, ends at or before it and
 * the page right after that window is cached: the stream went on from
 * where this reader's window stopped, read by someone else.  Otherwise
 * the marker is this file's own, set for a window its state no longer
 * describes (two streams on one descriptor, threads sharing it: the
 * state's window then ends past the marker, or nothing follows it yet).
 * Out of line, as ra_try_marker(): the own-marker path stays small.
 */
static noinline bool ra_marker_follows_window(struct address_space *mapping,
					      pgoff_t window_end, pgoff_t index)
{
	if (window_end > index)
		return false;
	return window_end == index || ra_page_cached(mapping, window_end);
}

/*
 * Leave another reader's marker at @index, on a window that is in, to the
 * reader that issued it, with a backup marker on the first folio that
 * starts at or after @mid and before the first missing page @hole: if
 * that reader never comes, whoever finds the backup takes the stream
 * over, with the first missing page at most half the maximum window
 * away.  A large marked folio is left as a page is: each read of one of
 * its pages finds the marker again and leaves it again (a look-up and
 * the backup marked once more).  Returns false, marking nothing, where
 * there is no backup to mark (no folio there, or one that may not take
 * a marker); the stream is then taken over at once.
 */
static noinline bool ra_leave_to_owner(struct address_space *mapping,
				       pgoff_t index, pgoff_t mid,
				       pgoff_t hole)
{
	struct folio *mark;
	bool left;

	if (mid >= hole)
		return false;
	/* No folio is an error pointer (NULL in the 6.1 backport). */
	mark = filemap_get_folio(mapping, mid);
	if (!IS_ERR_OR_NULL(mark) && mark->index < mid) {
		/* A large folio holds @mid: the folio after it. */
		pgoff_t next = mark->index + folio_nr_pages(mark);

		folio_put(mark);
		mark = next < hole ? filemap_get_folio(mapping, next) : NULL;
	}
	if (IS_ERR_OR_NULL(mark))
		return false;
	/*
	 * This reader did not allocate the backup.  PG_readahead is
	 * PG_reclaim: only a clean, uptodate folio not under writeback may
	 * take it, tested under the folio lock, which writeback needs to
	 * start.
	 */
	if (!folio_trylock(mark)) {
		folio_put(mark);
		return false;
	}
	left = folio_test_uptodate(mark) && !folio_test_dirty(mark) &&
	       !folio_test_writeback(mark);
	if (left) {
		folio_set_readahead(mark);
		trace_readahead_defer(mapping->host, index, mark->index);
	}
	folio_unlock(mark);
	folio_put(mark);
	return left;
}

/*
 * A marker this file's state does not account for.  The cache tells how
 * far the stream got: start at the first missing page after the marker,
 * and take the pages between as the previous window's async part.  A
 * reader with a stream of its own elsewhere passes the marked @folio
 * (else NULL): when the first missing page is more than half the maximum
 * window away, it leaves the marker to the reader that issued the window,
 * with a backup (ra_leave_to_owner()).  Returns false when there is
 * nothing to read, else sets @pattern: marker (the window in the state
 * is to be read) or defer (left to its owner).  Out of line: the
 * own-marker path, taken by every stream, stays small.
 */
static noinline bool ra_try_marker(struct readahead_control *ractl,
				   struct folio *folio, unsigned long req,
				   unsigned long max, pgoff_t eof,
				   enum ra_pattern *pattern)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t index = readahead_index(ractl);
	unsigned long size;
	pgoff_t hole;

	/*
	 * One page more than the window may skip: without a hole, 6.1's
	 * page_cache_next_miss() returns the last index it looked at, which
	 * must not pass for the first missing page.
	 */
	rcu_read_lock();
	hole = page_cache_next_miss(ractl->mapping, index + 1, max + 1);
	rcu_read_unlock();

	/*
	 * All of the next @max pages are cached (or the index wrapped), or
	 * everything up to the end of the file is.
	 */
	if (hole <= index || hole - index > max || hole >= eof)
		return false;
	if (folio && hole - index > max / 2 &&
	    ra_leave_to_owner(ractl->mapping, index,
			      index + DIV_ROUND_UP(hole - index, 2), hole)) {
		*pattern = RA_PATTERN_DEFER;
		return true;
	}
	size = get_next_ra_size(hole - index + req, max);
	ra_set_window(ra, hole, size, size);
	*pattern = RA_PATTERN_MARKER;
	return true;
}

/*
 * The order another reader's window holding the marked @folio was read
 * with, the window ending at @end, as far as the cache tells: that of the
 * folio at @mid, the multiple of the largest power of two between the
 * marked folio and the end, where the window's largest folios start.
 * The marked folio alone would understate it when the window started
 * unaligned (its first folios are small, and an asynchronous window is
 * marked on its first).  A window whose larger half lies before @mid is
 * read as one order lower; the ramp still climbs.
 */
static unsigned int ra_window_order(struct address_space *mapping,
				    struct folio *folio, pgoff_t end)
{
	unsigned int order = folio_order(folio);
	pgoff_t start = folio->index;
	pgoff_t mid;
	void *entry;

	if (end <= start + (1UL << order))
		return order;
	mid = round_down(end - 1, 1UL << __fls(start ^ (end - 1)));
	if (ilog2(end - mid) <= order)
		return order;
	rcu_read_lock();
	entry = xa_load(&mapping->i_pages, mid);
	if (entry && !xa_is_value(entry))
		order = max(order, folio_order(entry));
	rcu_read_unlock();
	return min(order, mapping_max_folio_order(mapping));
}

/*
 * The folio order to read the window just decided with.  A synchronous
 * window starts the ramp; an asynchronous one goes RA_ORDER_STEP above
 * the window it follows, which ends where this one starts: above the
 * order the state keeps when the marker is ours (@pattern subsequent),
 * else above that of the largest folio the cache holds of that window.
 */
static unsigned int ra_next_order(struct readahead_control *ractl,
				  struct folio *folio,
				  enum ra_pattern pattern)
{
	struct file_ra_state *ra = ractl->ra;
	unsigned int order = RA_ORDER_START;
	unsigned int prev;

	if (!mapping_large_folio_support(ractl->mapping))
		return 0;
	if (folio) {
		/*
		 * The state keeps the order asked for, or, where a large
		 * folio could not be allocated, one that makes this window
		 * ask one order below the refused one.
		 */
		prev = pattern == RA_PATTERN_SUBSEQUENT ? ra->order :
			max(ra_window_order(ractl->mapping, folio, ra->start),
			    order);
		order = prev + RA_ORDER_STEP;
	}
	return min(order, mapping_max_folio_order(ractl->mapping));
}

/*
 * Issue the window in @ra.  A request sitting on the first page of an
 * all-asynchronous window would hit its own marker straight away: merge
 * the next window in now instead.  Returns the pages submitted.
 */
static unsigned long ra_submit(struct readahead_control *ractl,
			       unsigned long max, unsigned int order,
			       pgoff_t eof)
{
	struct file_ra_state *ra = ractl->ra;

	if (readahead_index(ractl) == ra->start &&
	    ra->size == ra->async_size) {
		unsigned long more = get_next_ra_size(ra->size, max);

		if (ra->size + more <= max)
			ra_set_window(ra, ra->start, ra->size + more, more);
		else
			ra_set_window(ra, ra->start, max, max / 2);
	}
	ractl->_index = ra->start;
	return ra_read_window(ractl, ra, order, eof);
}

/*
 * A sequential miss at @index inside the stream's window, or inside the
 * one before it (which the reader is still reading once its marker has
 * moved the window on), means pages the stream read ahead were evicted
 * before the reader reached them: the stream's pages thrashed.  Then
 * halve the maximum window in effect (@max), never below the default
 * window, and keep it as the file's maximum until windows are used
 * again.  Returns the maximum for this decision.
 */
static unsigned long ra_thrash_cut(struct file_ra_state *ra, pgoff_t index,
				   unsigned long max)
{
	unsigned long cut;

	if (index >= ra->start + ra->size || index + ra->size < ra->start)
		return max;
	cut = max_t(unsigned long, min_t(unsigned long, max, ra->ra_pages) / 2,
		    VM_READAHEAD_PAGES);
	if (cut < ra->ra_pages) {
		ra->ra_pages = cut;
		ra->thrash_cut = 1;
	}
	return min_t(unsigned long, max, ra->ra_pages);
}

/*
 * The stream reached the marker of a window as large as the maximum in
 * effect (@max, for a request of @req pages): that window was used.  A
 * maximum that thrashing cut grows back by a quarter, up to the device's.
 * Returns the maximum for this decision.
 */
static unsigned long ra_thrash_regrow(struct readahead_control *ractl,
				      unsigned long req, unsigned long max)
{
	struct file_ra_state *ra = ractl->ra;
	unsigned long dev = inode_to_bdi(ractl->mapping->host)->ra_pages;

	if (!ra->thrash_cut || ra->size < max)
		return max;
	if (ra->ra_pages < dev)
		ra->ra_pages = min_t(unsigned long, dev,
				     ra->ra_pages + DIV_ROUND_UP(ra->ra_pages, 4));
	if (ra->ra_pages >= dev)
		ra->thrash_cut = 0;
	return ra_max_pages(ractl, req);
}

/*
 * Decide a window for a request of @req pages at the readahead index and
 * set it in the state, its pattern in @pattern; RA_PATTERN_RANDOM means
 * the request is to be read as it is and the state left alone, and
 * RA_PATTERN_DEFER that the marker is left to the reader that set it,
 * nothing read.  Returns false when there is nothing to read.  @folio is
 * the marked folio of an asynchronous call, NULL for a synchronous one;
 * @eof is ra_eof().
 */
static bool ra_decide(struct readahead_control *ractl, struct folio *folio,
		      unsigned long req, unsigned long max, pgoff_t eof,
		      enum ra_pattern *pattern)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t index = readahead_index(ractl);
	unsigned int order = folio ? folio_order(folio) : 0;
	pgoff_t window_end = ra->start + ra->size;
	pgoff_t marker = round_down(window_end - ra->async_size, 1UL << order);
	unsigned long size;

	if (!folio && !index) {
		ra_set_request_window(ra, 0, get_init_ra_size(req, max), req);
		*pattern = RA_PATTERN_INITIAL0;
		return true;
	}

	/*
	 * Our own marker, or a miss where our window ends: push the window
	 * on.  (A miss at the marker is no trigger: the asynchronous part
	 * was evicted before it was read, and the window must hold the page
	 * asked for; it is decided below, as any miss.)
	 */
	if (ra->size && index == (folio ? marker : window_end)) {
		/* The stream has reached the end of the file. */
		if (window_end >= eof)
			return false;
		if (folio)
			max = ra_thrash_regrow(ractl, req, max);
		size = ra_subsequent_size(ractl, max);
		ra_set_window(ra, window_end, size, size);
		*pattern = RA_PATTERN_SUBSEQUENT;
		return true;
	}

	if (folio) {
		/* Not at the state's marker: that was decided above. */
		bool others = ra->size &&
			      ra_marker_follows_window(ractl->mapping,
						       window_end, index);

		/*
		 * Another reader's marker, on a window still being read: leave
		 * it to the reader that issued the window, which is about to
		 * reach it, so that one process keeps submitting the stream
		 * (see the DOC block).  Once the window is in, its reader may
		 * be gone: then whoever finds the marker takes the stream
		 * over, or, far behind the stream, leaves the marker and marks
		 * a backup (ra_try_marker()).
		 */
		if (others && !folio_test_uptodate(folio)) {
			trace_readahead_defer(ractl->mapping->host, index,
					      READAHEAD_NO_BACKUP);
			*pattern = RA_PATTERN_DEFER;
			return true;
		}
		return ra_try_marker(ractl, others ? folio : NULL, req, max,
				     eof, pattern);
	}

	if (req > max) {
		ra_set_window(ra, index, max, max / 2);
		*pattern = RA_PATTERN_OVERSIZE;
	} else if ((u64)index - ((u64)ra->prev_pos >> PAGE_SHIFT) <= 1) {
		/*
		 * The previous read of this file ended at @index or one page
		 * before (prev_pos is the position right after it; before the
		 * first read, -1 gives a page no file has).
		 */
		max = ra_thrash_cut(ra, index, max);
		ra_set_request_window(ra, index, get_init_ra_size(req, max),
				      req);
		*pattern = RA_PATTERN_INITIAL;
	} else if (try_context_readahead(ractl, req, max)) {
		/* A running stream, ours or another reader's: keep its pace. */
		*pattern = RA_PATTERN_CONTEXT;
	} else {
		*pattern = RA_PATTERN_RANDOM;
	}
	return true;
}

/* The state machine: decide, read, account. */
static void ondemand_readahead(struct readahead_control *ractl,
			       struct folio *folio, unsigned long req,
			       bool fault)
{
	struct file_ra_state *ra = ractl->ra;
	unsigned long max = ra_max_pages(ractl, req);
	pgoff_t eof = ra_eof(ractl->mapping);
	struct ra_decision d = {
		.index = readahead_index(ractl),
		.req = req,
		.fault = fault,
	};
	bool read = ra_decide(ractl, folio, req, max, eof, &d.pattern);

	/* The marker is spent, unless left to the reader that set it. */
	if (folio && (!read || d.pattern != RA_PATTERN_DEFER))
		folio_clear_readahead(folio);
	if (!read)
		return;
	switch (d.pattern) {
	case RA_PATTERN_RANDOM:
		/* A small random read: read it as it is, keep the state. */
		d.start = d.index;
		d.size = req;
		d.actual = ra_read_stateless(ractl, req, eof);
		break;
	default:
		d.actual = ra_submit(ractl, max,
				     ra_next_order(ractl, folio, d.pattern),
				     eof);
		fallthrough;
	case RA_PATTERN_DEFER:
		/* The window read, or the state as it is when deferred. */
		d.start = ra->start;
		d.size = ra->size;
		d.async_size = ra->async_size;
		d.order = ra->order;
		break;
	}
	trace_readahead_decision(ractl, &d);
}

/* A cache miss, of read(2) or of a page fault (@fault). */
static void ra_sync(struct readahead_control *ractl, unsigned long req_count,
		    bool fault)
{
	struct file *file = ractl->file;

	trace_page_cache_sync_ra(ractl->mapping->host, readahead_index(ractl),
				 ractl->ra, req_count);
	if (!ractl->ra->ra_pages || blk_cgroup_congested()) {
		/* The caller still needs its page; internal users do not. */
		if (file)
			ra_force(ractl, 1, RA_PATTERN_RANDOM);
		return;
	}
	if (file && (file->f_mode & FMODE_RANDOM)) {
		ra_force(ractl, req_count, RA_PATTERN_RANDOM);
		return;
	}
	ondemand_readahead(ractl, NULL, req_count, fault);
}

/**
 * page_cache_sync_ra - Readahead for a cache miss.
 * @ractl: Readahead control; its index is the page that missed.
 * @req_count: Pages the caller is about to read from there.
 *
 * Reads at least the page that missed (while readahead is disabled, or
 * the file is in random mode, just what was asked for), and decides the
 * next window.
 */
void page_cache_sync_ra(struct readahead_control *ractl,
			unsigned long req_count)
{
	ra_sync(ractl, req_count, false);
}
EXPORT_SYMBOL_GPL(page_cache_sync_ra);

/*
 * A marked folio was found, by read(2) or by a page fault (@fault).  The
 * decision clears the marker, unless it leaves it to another reader.
 */
static void ra_async(struct readahead_control *ractl, struct folio *folio,
		     unsigned long req_count, bool fault)
{
	trace_page_cache_async_ra(ractl->mapping->host, readahead_index(ractl),
				  ractl->ra, req_count);
	/* PG_readahead doubles as PG_reclaim while under writeback. */
	if (!ractl->ra->ra_pages || folio_test_writeback(folio))
		return;
	if (blk_cgroup_congested()) {
		folio_clear_readahead(folio);
		return;
	}
	ondemand_readahead(ractl, folio, req_count, fault);
}

/**
 * page_cache_async_ra - Readahead for a page found with PG_readahead.
 * @ractl: Readahead control; its index is @folio's index.
 * @folio: The marked folio the caller found.
 * @req_count: Pages the caller is about to read from there.
 *
 * Clears the marker and issues the next window, so that it is in flight
 * before the reader gets there.
 */
void page_cache_async_ra(struct readahead_control *ractl,
			 struct folio *folio, unsigned long req_count)
{
	ra_async(ractl, folio, req_count, false);
}
EXPORT_SYMBOL_GPL(page_cache_async_ra);

#ifdef CONFIG_MMU
/*
 * Read the window set in the state, from its start, in folios of up to
 * @order, for a fault at @index that read-around (or a huge page mapping)
 * decided.
 */
static void ra_fault_window(struct readahead_control *ractl, pgoff_t index,
			    unsigned int order)
{
	struct file_ra_state *ra = ractl->ra;
	struct ra_decision d = {
		.pattern = RA_PATTERN_AROUND,
		.index = index,
		.req = 1,
		.start = ra->start,
		.size = ra->size,
		.async_size = ra->async_size,
		.fault = true,
	};

	ractl->_index = ra->start;
	/* At most the page cache's largest order; 0 without large folios. */
	order = min(order, mapping_max_folio_order(ractl->mapping));
	d.actual = ra_read_window(ractl, ra, order, ra_eof(ractl->mapping));
	d.order = ra->order;
	trace_readahead_decision(ractl, &d);
}

/*
 * Count a fault's miss in @ra; true if faults on the file have missed
 * much more often than they hit, so that reading ahead would only waste
 * I/O and memory.
 */
static bool ra_fault_misses_too_often(struct file_ra_state *ra)
{
	unsigned int mmap_miss = READ_ONCE(ra->mmap_miss);

	if (mmap_miss < RA_MMAP_MISS_CEILING)
		WRITE_ONCE(ra->mmap_miss, ++mmap_miss);
	return mmap_miss > RA_MMAP_MISS_LIMIT;
}

/* Count a fault's hit in @ra: one miss fewer. */
static void ra_fault_hit(struct file_ra_state *ra)
{
	unsigned int mmap_miss = READ_ONCE(ra->mmap_miss);

	if (mmap_miss)
		WRITE_ONCE(ra->mmap_miss, mmap_miss - 1);
}

/**
 * page_cache_mmap_sync_ra - Readahead for a page fault that missed.
 * @vmf: The fault.
 *
 * MADV_RANDOM mappings read nothing ahead.  Under MADV_SEQUENTIAL the
 * mapping is known to be read in order: the fault is one page of a
 * sequential stream and gets the windows read(2) would, the first a
 * whole one, as for a read(2) of the maximum window.  Without a hint,
 * once faults on this file have missed much more often than they hit,
 * nothing is read ahead; otherwise the fault gets a window centred on it.
 * A VM_HUGEPAGE mapping reads whole PMDs instead, even with readahead
 * off; without a hint it stops under the same back-off.
 *
 * Return: The file, pinned, if the mmap_lock was dropped for the I/O
 * (the caller must fput() it and retry the fault), else NULL.
 */
struct file *page_cache_mmap_sync_ra(struct vm_fault *vmf)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	unsigned long vm_flags = vmf->vma->vm_flags;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);
	struct file *fpin = NULL;
	unsigned long max;

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	/* Huge page mappings read PMD-sized windows, even without ra. */
	if ((vm_flags & VM_HUGEPAGE) && HPAGE_PMD_ORDER <= MAX_PAGECACHE_ORDER) {
		/*
		 * Where hits are counted, misses count too: a mapping
		 * whose faults mostly miss gets the page alone, not PMDs
		 * that would be reclaimed unused.
		 */
		if (!(vm_flags & (VM_RAND_READ | VM_SEQ_READ)) &&
		    ra->ra_pages && ra_fault_misses_too_often(ra))
			return fpin;
		fpin = maybe_unlock_mmap_for_io(vmf, fpin);
		/*
		 * From the start of the fault's PMD, two PMDs with the
		 * second asynchronous, its marker continuing the stream, or
		 * under MADV_RANDOM one, all asynchronous.
		 */
		ra_set_window(ra, round_down(vmf->pgoff, HPAGE_PMD_NR),
			      (vm_flags & VM_RAND_READ ? 1 : 2) * HPAGE_PMD_NR,
			      HPAGE_PMD_NR);
		ra_fault_window(&ractl, vmf->pgoff, HPAGE_PMD_ORDER);
		return fpin;
	}
#endif
	if ((vm_flags & VM_RAND_READ) || !ra->ra_pages)
		return fpin;

	if (vm_flags & VM_SEQ_READ) {
		/* Every fault continues a stream. */
		ra->prev_pos = (loff_t)vmf->pgoff << PAGE_SHIFT;
		fpin = maybe_unlock_mmap_for_io(vmf, fpin);
		ra_sync(&ractl, ra->ra_pages, true);
		/*
		 * The fault's position, as read(2) notes it: at most the
		 * page after the last page of a file of LLONG_MAX bytes.
		 */
		ra->prev_pos = min_t(u64, ((u64)vmf->pgoff + 1) << PAGE_SHIFT,
				     LLONG_MAX);
		return fpin;
	}

	if (ra_fault_misses_too_often(ra))
		return fpin;

	fpin = maybe_unlock_mmap_for_io(vmf, fpin);
	max = ra_memory_bound(ra->ra_pages);
	ra_set_window(ra, vmf->pgoff > max / 2 ? vmf->pgoff - max / 2 : 0,
		      max, max / 4);
	ra_fault_window(&ractl, vmf->pgoff, RA_ORDER_START);
	return fpin;
}

/*
 * A fault found the marked @folio: go on from @index.  The readahead
 * control is built here, not in the caller, so that the faults on
 * unmarked folios do not pay for it.
 */
static void ra_fault_marker(struct file *file, struct folio *folio,
			    pgoff_t index)
{
	DEFINE_READAHEAD(ractl, file, &file->f_ra, file->f_mapping, index);

	ra_async(&ractl, folio, 1, true);
}

/**
 * page_cache_mmap_async_ra - Readahead for a page fault that hit.
 * @vmf: The fault.
 * @folio: The folio found at the faulting offset.
 *
 * Counts the hit against earlier misses, unless @folio is locked, and,
 * when @folio carries the marker, issues the next window.  Call it
 * before waiting on the folio lock, so that the next window is in flight
 * meanwhile.
 *
 * Return: The file, pinned, if the mmap_lock was dropped for the I/O,
 * else NULL.
 */
struct file *page_cache_mmap_async_ra(struct vm_fault *vmf,
				      struct folio *folio)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	struct file *fpin;

	if ((vmf->vma->vm_flags & VM_RAND_READ) || !ra->ra_pages)
		return NULL;

	/*
	 * A hit counts against the misses, but not on a locked folio: that
	 * is most often the read another fault's miss started, and every
	 * thread that faults on it would take that miss back again.
	 */
	if (!folio_test_locked(folio))
		ra_fault_hit(ra);

	/* Most faults hit unmarked folios: nothing more to do for them. */
	if (!folio_test_readahead(folio))
		return NULL;
	fpin = maybe_unlock_mmap_for_io(vmf, NULL);
	/* As read(2): from the marked folio, not the page in it. */
	ra_fault_marker(file, folio, folio->index);
	return fpin;
}

/**
 * page_cache_mmap_map_hits - Count what fault-around found cached.
 * @vmf: The fault.
 * @hits: The pages fault-around found cached, but for those that came
 *        back from eviction.
 * @mapped: Whether the faulting page was mapped among them.
 *
 * A fault is one access, and one hit when its own page was found: the
 * pages mapped around it are not known to be used, and the retry of a
 * fault that missed finds the pages its own readahead read.  So only a
 * first try that mapped its page takes one off the misses.
 */
void page_cache_mmap_map_hits(struct vm_fault *vmf, unsigned int hits,
			      bool mapped)
{
	if (hits && mapped && !(vmf->flags & FAULT_FLAG_TRIED))
		ra_fault_hit(&vmf->vma->vm_file->f_ra);
}
#endif /* CONFIG_MMU */

/*
 * May readahead(2) read @file ahead?  Only a descriptor open for reading,
 * on a regular file or a block device with a page cache.
 */
static int ra_syscall_file_check(struct file *file)
{
	umode_t mode;

	if (!file || !(file->f_mode & FMODE_READ))
		return -EBADF;
	mode = file_inode(file)->i_mode;
	if (!file->f_mapping || !file->f_mapping->a_ops)
		return -EINVAL;
	return S_ISREG(mode) || S_ISBLK(mode) ? 0 : -EINVAL;
}

/**
 * ksys_readahead - The readahead(2) system call.
 * @fd: An open file descriptor, open for reading.
 * @offset: First byte of the range.
 * @count: Length of the range in bytes; 0 means up to the end of file.
 *
 * Return: 0, or -EBADF for a descriptor not open for reading, -EINVAL
 * for a file that cannot be read ahead (not a regular file or block
 * device), or the error of vfs_fadvise().  A negative offset reads
 * nothing and is no error.
 */
ssize_t ksys_readahead(int fd, loff_t offset, size_t count)
{
	struct fd f = fdget(fd);
	ssize_t err = ra_syscall_file_check(fd_file(f));

	if (!err)
		err = vfs_fadvise(fd_file(f), offset, count,
				  POSIX_FADV_WILLNEED);
	fdput(f);
	return err;
}

SYSCALL_DEFINE3(readahead, int, fd, loff_t, offset, size_t, count)
{
	return ksys_readahead(fd, offset, count);
}

#if defined(CONFIG_COMPAT) && defined(__ARCH_WANT_COMPAT_READAHEAD)
COMPAT_SYSCALL_DEFINE4(readahead, int, fd, compat_arg_u64_dual(offset),
		       size_t, count)
{
	return ksys_readahead(fd, compat_arg_u64_glue(offset), count);
}
#endif

/* Add a locked folio of the smallest order at @index to @ractl's mapping. */
static int ra_expand_one(struct readahead_control *ractl, pgoff_t index)
{
	struct address_space *mapping = ractl->mapping;
	gfp_t gfp = readahead_gfp_mask(mapping);
	struct folio *folio;

	if (ra_page_cached(mapping, index))
		return -EEXIST;
	folio = filemap_alloc_folio(gfp, mapping_min_folio_order(mapping));
	if (!folio)
		return -ENOMEM;
	if (filemap_add_folio(mapping, folio, index, gfp) < 0) {
		folio_put(folio);
		return -EEXIST;
	}
	if (unlikely(folio_test_workingset(folio)) && !ractl->_workingset) {
		ractl->_workingset = true;
		psi_memstall_enter(&ractl->_pflags);
	}
	return 0;
}

/**
 * readahead_expand - Grow a readahead request before it is submitted.
 * @ractl: The request, as passed to ->readahead().
 * @new_start: The wanted first byte.
 * @new_len: The wanted length in bytes from @new_start.
 *
 * Adds locked folios of the mapping's smallest order below and above the
 * request so that it covers the wanted range, widened to whole such
 * folios, for filesystems whose I/O unit is larger than a page.
 * Growing stops at the first page that is already cached or cannot be
 * allocated, so the caller must look at the request again afterwards.
 * Pages added at the top extend the window in @ractl->ra.
 */
void readahead_expand(struct readahead_control *ractl,
		      loff_t new_start, size_t new_len)
{
	struct file_ra_state *ra = ractl->ra;
	unsigned long nr = 1UL << mapping_min_folio_order(ractl->mapping);
	pgoff_t first = round_down(new_start >> PAGE_SHIFT, nr);
	pgoff_t end = round_up((new_start + new_len + PAGE_SIZE - 1) >>
			       PAGE_SHIFT, nr);

	/* Downwards first: the request must stay one contiguous range. */
	for (; ractl->_index > first; ractl->_index -= nr) {
		if (ra_expand_one(ractl, ractl->_index - nr))
			return;
		ractl->_nr_pages += nr;
	}
	for (; ractl->_index + ractl->_nr_pages < end; ractl->_nr_pages += nr) {
		if (ra_expand_one(ractl, ractl->_index + ractl->_nr_pages))
			return;
		if (ra) {
			ra->size += nr;
			ra->async_size += nr;
		}
	}
}
EXPORT_SYMBOL(readahead_expand);
