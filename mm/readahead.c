// SPDX-License-Identifier: GPL-2.0-only
/*
 * On-demand readahead for the page cache.
 *
 * This file holds all readahead policy of the kernel: the read(2) path,
 * the page fault path, fadvise(POSIX_FADV_WILLNEED) and readahead(2) ask
 * it what to read, and it reads it.
 */

/**
 * DOC: On-demand readahead
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
 *            descriptor.  The window is sized from that history.
 * oversize   a request larger than the maximum window: read one maximum
 *            window now, marked halfway, and pipeline the rest.
 * random     none of the above: read what was asked, leave the state
 *            alone.
 * around     a page fault miss in a mapping with no access hints: read a
 *            window centred on the fault, unless faults miss much more
 *            often than they hit.
 * fadvise    POSIX_FADV_WILLNEED and readahead(2): read the given range
 *            in bounded chunks, no state.
 * ========== ===========================================================
 *
 * Several readers of one file each have their own state but share the
 * cache and its markers.  Whoever reaches a marker first pushes the
 * stream on; the state of the others is then stale, so before trusting
 * its own state a reader checks that the window it would issue is not in
 * the cache already, and a miss whose history is cached is sized from the
 * history rather than restarted small.  That keeps a file read by many
 * processes from being read twice or in small synchronous pieces.
 *
 * A request that lands on the first page of a window that is entirely
 * asynchronous would find its own marker at once; the next window is
 * merged into the current one instead, so callers need not look for the
 * marker again after a synchronous call.
 *
 * The maximum window is the device's ``read_ahead_kb`` (0 disables
 * readahead), bounded by a fraction of memory so that no setting can make
 * one stream read more than memory can keep.
 *
 * Windows are read with order-0 folios: page_cache_ra_order() does not
 * allocate large folios.  That is always correct, if not always the
 * largest I/O unit the mapping could take.
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
#include <linux/sched/mm.h>

#include "internal.h"

/* Read-around gives up after this many more fault misses than hits. */
#define RA_MMAP_MISS_LIMIT	100
/* mmap_miss stops counting here, so that recovery takes bounded time. */
#define RA_MMAP_MISS_CEILING	(10 * RA_MMAP_MISS_LIMIT)
/* Forced readahead submits at most this many pages at a time. */
#define RA_FORCE_CHUNK_PAGES	(SZ_2M / PAGE_SIZE)
/* One window may take at most 1/RA_WINDOW_MEM_SHARE of memory... */
#define RA_WINDOW_MEM_SHARE	256
/* ...and one forced readahead call at most 1/RA_FORCE_MEM_SHARE. */
#define RA_FORCE_MEM_SHARE	16

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
	ra->ra_pages = inode_to_bdi(mapping->host)->ra_pages;
	ra->prev_pos = -1;
}
EXPORT_SYMBOL_GPL(file_ra_state_init);

/* The largest window a stream may use, whatever read_ahead_kb says. */
static unsigned long ra_memory_cap(void)
{
	return max_t(unsigned long, totalram_pages() / RA_WINDOW_MEM_SHARE,
		     VM_READAHEAD_PAGES);
}

/*
 * The maximum window for a request of @req pages.  A request larger than
 * the window may use the device's optimal I/O size instead.
 */
static unsigned long ra_max_pages(struct readahead_control *ractl,
				  unsigned long req)
{
	struct backing_dev_info *bdi = inode_to_bdi(ractl->mapping->host);
	unsigned long max = ractl->ra->ra_pages;

	if (req > max && bdi->io_pages > max)
		max = min_t(unsigned long, req, bdi->io_pages);
	return min(max, ra_memory_cap());
}

/*
 * Hand the locked folios gathered in @ractl to the filesystem.  Folios
 * the filesystem did not take are dropped again; they leave the window,
 * so that the state describes what was really read.
 */
static void read_pages(struct readahead_control *ractl)
{
	const struct address_space_operations *aops = ractl->mapping->a_ops;
	struct file_ra_state *ra = ractl->ra;
	struct folio *folio;
	struct blk_plug plug;

	if (!readahead_count(ractl))
		return;

	if (unlikely(ractl->_workingset))
		psi_memstall_enter(&ractl->_pflags);
	blk_start_plug(&plug);

	if (!aops->readahead) {
		while ((folio = readahead_folio(ractl)))
			aops->read_folio(ractl->file, folio);
		goto out;
	}

	aops->readahead(ractl);
	while ((folio = readahead_folio(ractl))) {
		unsigned long nr = folio_nr_pages(folio);
		bool drop = false;

		folio_get(folio);
		if (ra) {
			ra->size -= nr;
			drop = ra->async_size >= nr;
			if (drop)
				ra->async_size -= nr;
		}
		if (drop)
			filemap_remove_folio(folio);
		folio_unlock(folio);
		folio_put(folio);
	}
out:
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
	struct address_space *mapping = ractl->mapping;
	pgoff_t first = readahead_index(ractl);
	pgoff_t mark = nr_to_read - lookahead_size;
	gfp_t gfp = readahead_gfp_mask(mapping);
	unsigned int nofs;
	unsigned long i;

	/*
	 * Folios sit locked in the cache until read_pages() submits them;
	 * reclaim must not call back into the filesystem meanwhile.
	 */
	nofs = memalloc_nofs_save();
	filemap_invalidate_lock_shared(mapping);
	for (i = 0; i < nr_to_read; i++) {
		pgoff_t index = first + i;
		struct folio *folio;

		if (ra_page_cached(mapping, index))
			goto skip;

		folio = filemap_alloc_folio(gfp, 0);
		if (!folio)
			break;
		if (filemap_add_folio(mapping, folio, index, gfp) < 0) {
			folio_put(folio);
			goto skip;
		}
		if (lookahead_size && i == mark)
			folio_set_readahead(folio);
		ractl->_workingset |= folio_test_workingset(folio);
		ractl->_nr_pages++;
		continue;
skip:
		/* Submit the run before the hole and restart after it. */
		read_pages(ractl);
		ractl->_index = index + 1;
	}
	read_pages(ractl);
	filemap_invalidate_unlock_shared(mapping);
	memalloc_nofs_restore(nofs);
}
EXPORT_SYMBOL_GPL(page_cache_ra_unbounded);

/*
 * Read @nr_to_read pages from the readahead index, clipped at the page
 * holding the last byte of the file.
 */
static void ra_read_clipped(struct readahead_control *ractl,
			    unsigned long nr_to_read,
			    unsigned long lookahead_size)
{
	loff_t isize = i_size_read(ractl->mapping->host);
	pgoff_t index = readahead_index(ractl);
	pgoff_t last;

	if (isize <= 0)
		return;
	last = (isize - 1) >> PAGE_SHIFT;
	if (index > last)
		return;
	nr_to_read = min_t(unsigned long, nr_to_read, last - index + 1);
	page_cache_ra_unbounded(ractl, nr_to_read, lookahead_size);
}

/**
 * force_page_cache_ra - Read a range whatever the readahead state says.
 * @ractl: Readahead control; its index is where the range starts.
 * @nr_to_read: Length of the range in pages.
 *
 * For POSIX_FADV_WILLNEED, readahead(2) and files opened for random
 * access.  The range, clipped at the end of the file and at a share of
 * memory, is read in chunks of at most 2MB so that no single call pins
 * much memory.  The file's readahead state is not touched.
 */
void force_page_cache_ra(struct readahead_control *ractl,
			 unsigned long nr_to_read)
{
	const struct address_space_operations *aops = ractl->mapping->a_ops;
	unsigned long cap = max_t(unsigned long,
				  totalram_pages() / RA_FORCE_MEM_SHARE,
				  RA_FORCE_CHUNK_PAGES);
	pgoff_t index = readahead_index(ractl);

	if (unlikely(!aops->read_folio && !aops->readahead))
		return;

	nr_to_read = min(nr_to_read, cap);
	while (nr_to_read) {
		unsigned long chunk = min_t(unsigned long, nr_to_read,
					    RA_FORCE_CHUNK_PAGES);

		ractl->_index = index;
		ra_read_clipped(ractl, chunk, 0);
		if (index + chunk < index)
			break;
		index += chunk;
		nr_to_read -= chunk;
	}
}

/*
 * First window of a stream: the request rounded up to a power of two,
 * quadrupled when small, doubled when medium, else the maximum.
 */
static unsigned long ra_initial_size(unsigned long req, unsigned long max)
{
	unsigned long size = roundup_pow_of_two(req);

	if (size <= max / 32)
		return size * 4;
	if (size <= max / 4)
		return size * 2;
	return max;
}

/* The window after one of @cur pages: fast growth first, then doubling. */
static unsigned long ra_next_size(unsigned long cur, unsigned long max)
{
	if (cur < max / 16)
		return cur * 4;
	if (cur <= max / 2)
		return cur * 2;
	return max;
}

/*
 * Set a window of @size pages at @start for a request of @req pages:
 * what lies beyond the request is asynchronous, so the marker sits right
 * after the requested pages.  A window no larger than the request is
 * all asynchronous and gets merged with its successor when issued.
 */
static void ra_set_window(struct file_ra_state *ra, pgoff_t start,
			  unsigned long size, unsigned long req)
{
	ra->start = start;
	ra->size = size;
	ra->async_size = size > req ? size - req : size;
}

/*
 * Did the previous read of this file end at, or one page before,
 * @index?  prev_pos is the position right after the previous request.
 */
static bool ra_follows_previous(struct file_ra_state *ra, pgoff_t index)
{
	pgoff_t prev;

	if (ra->prev_pos < 0)
		return false;
	prev = ra->prev_pos >> PAGE_SHIFT;
	return index == prev || index == prev + 1;
}

/*
 * How many pages right before @index are cached, looking back at most
 * @max pages.  A sequential stream leaves such a trail behind.
 */
static unsigned long ra_history_pages(struct address_space *mapping,
				      pgoff_t index, unsigned long max)
{
	pgoff_t hole;

	if (!index)
		return 0;
	rcu_read_lock();
	hole = page_cache_prev_miss(mapping, index - 1, max);
	rcu_read_unlock();
	/* No hole down to page 0 wraps to ULONG_MAX: index pages cached. */
	return index - 1 - hole;
}

/* Window sized from @history cached pages before a request of @req. */
static bool ra_try_context(struct readahead_control *ractl,
			   unsigned long req, unsigned long max)
{
	pgoff_t index = readahead_index(ractl);
	unsigned long history = ra_history_pages(ractl->mapping, index, max);

	/* No longer than the request itself: could be random reads. */
	if (history <= req)
		return false;
	/* Cached back to the start of the file: a whole-file reader. */
	if (history >= index)
		history *= 2;
	ra_set_window(ractl->ra, index, min(history + req, max), req);
	return true;
}

/*
 * A marker this file's state does not account for.  The cache tells how
 * far the stream got: start at the first missing page after the marker,
 * and take the pages between as the previous window's async part.
 */
static bool ra_try_marker(struct readahead_control *ractl,
			  unsigned long req, unsigned long max)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t index = readahead_index(ractl);
	pgoff_t hole;

	rcu_read_lock();
	hole = page_cache_next_miss(ractl->mapping, index + 1, max);
	rcu_read_unlock();

	/* All of the next @max pages are cached (or the index wrapped). */
	if (hole <= index || hole - index > max)
		return false;
	ra->start = hole;
	ra->size = ra_next_size(hole - index + req, max);
	ra->async_size = ra->size;
	return true;
}

/*
 * Issue the window in @ra.  A request sitting on the first page of an
 * all-asynchronous window would hit its own marker straight away: merge
 * the next window in now instead.
 */
static void ra_submit(struct readahead_control *ractl, unsigned long max,
		      unsigned int order)
{
	struct file_ra_state *ra = ractl->ra;

	if (readahead_index(ractl) == ra->start &&
	    ra->size == ra->async_size) {
		unsigned long more = ra_next_size(ra->size, max);

		if (ra->size + more <= max) {
			ra->size += more;
			ra->async_size = more;
		} else {
			ra->size = max;
			ra->async_size = max / 2;
		}
	}
	ractl->_index = ra->start;
	page_cache_ra_order(ractl, ra, order);
}

/*
 * The state machine.  @folio is the marked folio of an asynchronous call,
 * NULL for a synchronous one (a cache miss at the readahead index).
 */
static void ondemand_readahead(struct readahead_control *ractl,
			       struct folio *folio, unsigned long req)
{
	struct file_ra_state *ra = ractl->ra;
	struct address_space *mapping = ractl->mapping;
	unsigned long max = ra_max_pages(ractl, req);
	pgoff_t index = readahead_index(ractl);
	unsigned int order = folio ? folio_order(folio) : 0;
	pgoff_t window_end = ra->start + ra->size;
	pgoff_t marker = round_down(window_end - ra->async_size, 1UL << order);

	if (!folio && !index) {
		ra_set_window(ra, 0, ra_initial_size(req, max), req);
		goto submit;
	}

	/*
	 * Our own marker, or a miss where our window ends: push the window
	 * on, unless another reader got there first and the pages of the
	 * next window are cached already.
	 */
	if (ra->size && (folio ? index == marker :
			 index == window_end || index == marker) &&
	    !(folio && ra_page_cached(mapping, window_end))) {
		ra->start = window_end;
		ra->size = max_t(unsigned long, ra->size,
				 ra_next_size(ra->size, max));
		ra->async_size = ra->size;
		goto submit;
	}

	if (folio) {
		if (ra_try_marker(ractl, req, max))
			goto submit;
		return;
	}

	if (req > max) {
		ra->start = index;
		ra->size = max;
		ra->async_size = max / 2;
		goto submit;
	}

	/* A running stream, ours or another reader's: keep its pace. */
	if (ra_try_context(ractl, req, max))
		goto submit;

	if (ra_follows_previous(ra, index)) {
		ra_set_window(ra, index, ra_initial_size(req, max), req);
		goto submit;
	}

	/* A small random read: read it as it is, keep the state. */
	ra_read_clipped(ractl, req, 0);
	return;

submit:
	ra_submit(ractl, max, order);
}

/**
 * page_cache_ra_order - Read the window described by @ra.
 * @ractl: Readahead control; its index is the window start.
 * @ra: The window: size and async_size.
 * @new_order: The folio order the caller would like.
 *
 * The window is read with order-0 folios, which every mapping accepts;
 * @new_order is a hint this implementation does not take.  The window is
 * clipped at the end of the file.
 */
void page_cache_ra_order(struct readahead_control *ractl,
			 struct file_ra_state *ra, unsigned int new_order)
{
	ra_read_clipped(ractl, ra->size, ra->async_size);
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
	struct file *file = ractl->file;

	if (!ractl->ra->ra_pages || blk_cgroup_congested()) {
		/* The caller still needs its page; internal users do not. */
		if (file)
			force_page_cache_ra(ractl, 1);
		return;
	}
	if (file && (file->f_mode & FMODE_RANDOM)) {
		force_page_cache_ra(ractl, req_count);
		return;
	}
	ondemand_readahead(ractl, NULL, req_count);
}
EXPORT_SYMBOL_GPL(page_cache_sync_ra);

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
	if (!ractl->ra->ra_pages)
		return;
	/* PG_readahead doubles as PG_reclaim while under writeback. */
	if (folio_test_writeback(folio))
		return;
	folio_clear_readahead(folio);
	if (blk_cgroup_congested())
		return;
	ondemand_readahead(ractl, folio, req_count);
}
EXPORT_SYMBOL_GPL(page_cache_async_ra);

#ifdef CONFIG_MMU
/* Note a fault on @index in prev_pos, as read(2) notes its position. */
static void ra_note_fault(struct file_ra_state *ra, pgoff_t index)
{
	ra->prev_pos = (loff_t)(index + 1) << PAGE_SHIFT;
}

/**
 * page_cache_mmap_sync_ra - Readahead for a page fault that missed.
 * @vmf: The fault.
 *
 * MADV_RANDOM mappings read nothing ahead.  Under MADV_SEQUENTIAL, or
 * when the fault follows the previous one, the fault is one page of a
 * sequential stream and gets the same windows as read(2) would.
 * Otherwise a window centred on the fault is read, as long as faults on
 * this file have not missed much more often than they hit.
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
	unsigned int mmap_miss;
	unsigned long max;

#ifdef CONFIG_TRANSPARENT_HUGEPAGE
	/* Huge page mappings read PMD-sized windows, even without ra. */
	if ((vm_flags & VM_HUGEPAGE) && HPAGE_PMD_ORDER <= MAX_PAGECACHE_ORDER) {
		fpin = maybe_unlock_mmap_for_io(vmf, fpin);
		ractl._index = round_down(vmf->pgoff, HPAGE_PMD_NR);
		ra->size = HPAGE_PMD_NR;
		if (!(vm_flags & VM_RAND_READ))
			ra->size *= 2;
		ra->async_size = HPAGE_PMD_NR;
		page_cache_ra_order(&ractl, ra, HPAGE_PMD_ORDER);
		return fpin;
	}
#endif
	if ((vm_flags & VM_RAND_READ) || !ra->ra_pages)
		return fpin;

	mmap_miss = READ_ONCE(ra->mmap_miss);
	if (mmap_miss < RA_MMAP_MISS_CEILING)
		WRITE_ONCE(ra->mmap_miss, mmap_miss + 1);

	if ((vm_flags & VM_SEQ_READ) || ra_follows_previous(ra, vmf->pgoff)) {
		/* Under MADV_SEQUENTIAL every fault continues a stream. */
		ra->prev_pos = (loff_t)vmf->pgoff << PAGE_SHIFT;
		fpin = maybe_unlock_mmap_for_io(vmf, fpin);
		ondemand_readahead(&ractl, NULL, 1);
		ra_note_fault(ra, vmf->pgoff);
		return fpin;
	}

	ra_note_fault(ra, vmf->pgoff);
	if (mmap_miss + 1 > RA_MMAP_MISS_LIMIT)
		return fpin;

	fpin = maybe_unlock_mmap_for_io(vmf, fpin);
	max = min_t(unsigned long, ra->ra_pages, ra_memory_cap());
	ra->start = vmf->pgoff > max / 2 ? vmf->pgoff - max / 2 : 0;
	ra->size = max;
	ra->async_size = max / 4;
	ractl._index = ra->start;
	page_cache_ra_order(&ractl, ra, 0);
	return fpin;
}

/**
 * page_cache_mmap_async_ra - Readahead for a page fault that hit.
 * @vmf: The fault.
 * @folio: The folio found at the faulting offset.
 *
 * Counts the hit against earlier misses and, when @folio carries the
 * marker, issues the next window.  Call it before waiting on the folio
 * lock, so that the next window is in flight meanwhile.
 *
 * Return: The file, pinned, if the mmap_lock was dropped for the I/O,
 * else NULL.
 */
struct file *page_cache_mmap_async_ra(struct vm_fault *vmf,
				      struct folio *folio)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);
	struct file *fpin = NULL;
	unsigned int mmap_miss;

	if ((vmf->vma->vm_flags & VM_RAND_READ) || !ra->ra_pages)
		return fpin;

	mmap_miss = READ_ONCE(ra->mmap_miss);
	if (mmap_miss)
		WRITE_ONCE(ra->mmap_miss, mmap_miss - 1);
	ra_note_fault(ra, vmf->pgoff);

	if (folio_test_readahead(folio)) {
		fpin = maybe_unlock_mmap_for_io(vmf, fpin);
		page_cache_async_ra(&ractl, folio, 1);
	}
	return fpin;
}
#endif /* CONFIG_MMU */

/**
 * ksys_readahead - The readahead(2) system call.
 * @fd: An open file descriptor, open for reading.
 * @offset: First byte of the range.
 * @count: Length of the range in bytes; 0 means up to the end of file.
 *
 * Return: 0, or -EBADF for a descriptor not open for reading, -EINVAL
 * for a negative offset or a file that cannot be read ahead (not a
 * regular file or block device), or the error of vfs_fadvise().
 */
ssize_t ksys_readahead(int fd, loff_t offset, size_t count)
{
	struct fd f = fdget(fd);
	struct inode *inode;
	ssize_t ret;

	if (!f.file || !(f.file->f_mode & FMODE_READ)) {
		ret = -EBADF;
		goto out;
	}
	inode = file_inode(f.file);
	if (offset < 0 || !f.file->f_mapping || !f.file->f_mapping->a_ops ||
	    !(S_ISREG(inode->i_mode) || S_ISBLK(inode->i_mode))) {
		ret = -EINVAL;
		goto out;
	}
	ret = vfs_fadvise(f.file, offset, count, POSIX_FADV_WILLNEED);
out:
	fdput(f);
	return ret;
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

/* Add a locked order-0 folio at @index to @ractl's mapping. */
static int ra_expand_one(struct readahead_control *ractl, pgoff_t index)
{
	struct address_space *mapping = ractl->mapping;
	gfp_t gfp = readahead_gfp_mask(mapping);
	struct folio *folio;

	if (ra_page_cached(mapping, index))
		return -EEXIST;
	folio = filemap_alloc_folio(gfp, 0);
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
 * Adds locked folios below and above the request so that it covers the
 * wanted range, for filesystems whose I/O unit is larger than a page.
 * Growing stops at the first page that is already cached or cannot be
 * allocated, so the caller must look at the request again afterwards.
 * Pages added at the top extend the window in @ractl->ra.
 */
void readahead_expand(struct readahead_control *ractl,
		      loff_t new_start, size_t new_len)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t new_index = new_start >> PAGE_SHIFT;
	pgoff_t new_nr;

	while (ractl->_index > new_index) {
		if (ra_expand_one(ractl, ractl->_index - 1))
			return;
		ractl->_index--;
		ractl->_nr_pages++;
	}

	new_len += new_start - readahead_pos(ractl);
	new_nr = DIV_ROUND_UP(new_len, PAGE_SIZE);
	while (ractl->_nr_pages < new_nr) {
		if (ra_expand_one(ractl, ractl->_index + ractl->_nr_pages))
			return;
		ractl->_nr_pages++;
		if (ra) {
			ra->size++;
			ra->async_size++;
		}
	}
}
EXPORT_SYMBOL(readahead_expand);
