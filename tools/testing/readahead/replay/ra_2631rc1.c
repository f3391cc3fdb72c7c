// SPDX-License-Identifier: GPL-2.0
/*
 * ra_2631rc1.c - a reference model of Linux 2.6.31-rc1's readahead.
 *
 * The decisions, in order, for a request of @req pages at @offset:
 *
 *  initial0    offset 0: the first window.
 *  subsequent  @offset is this file's marker or the end of its window:
 *              the window moves on and grows, all of it asynchronous.
 *  marker      a marker this file's state does not explain: the window
 *              starts at the first hole after @offset (searched over at
 *              most max pages from offset + 1), sized from that distance
 *              plus the request, grown.
 *  oversize    @req above max: a first window.
 *  initial     a miss within one page of the previous read.
 *  context     a miss with cached history before it: a window of the
 *              history plus the request (history doubled when it reaches
 *              back to page 0), all of it asynchronous.
 *  random      none of those: read as asked, no state.
 *
 * Then, for every decision but random: if @offset is the first page of
 * a window that is entirely asynchronous, this request would hit the
 * marker it is about to set, so the next window is merged in at once
 * (size += next size, async_size = next size).  That is "remove
 * sync/async readahead call dependency" (51daa88e).  Nothing caps the
 * merged window at max, so windows of twice the maximum appear: the seed
 * trace's ra=144909+128-64 with a 64-page maximum.  (6.1 caps it.)
 *
 * The fault path ("clean up and simplify the code for filemap page
 * fault readahead", ef00e08e, and the sequential mmap patches of the
 * same merge window): a page that is found gets its asynchronous
 * readahead before the fault waits on the page lock (the simulator's
 * default order); a miss in a MADV_SEQUENTIAL mapping, or on the page
 * right after the previous fault, is a synchronous readahead of a full
 * ra_pages request; other misses count mmap_miss up (unsigned) and read
 * around the fault (ra_pages, no marker) until it exceeds 100; every hit
 * counts it down (not below 0); the async readahead asks for ra_pages
 * too.  No fault-around (RA_IMPL_NO_FAULT_AROUND).
 */
#include "hist.h"

static bool ra2631_context(struct readahead_control *ractl,
			   unsigned long req, unsigned long max)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t offset = readahead_index(ractl);
	pgoff_t head = page_cache_prev_miss(ractl->mapping, offset - 1, max);
	unsigned long size = offset - 1 - head;

	if (!size)
		return false;
	if (size >= offset)
		size *= 2;
	ra->start = offset;
	ra->size = hist_init_size(size + req, max);
	ra->async_size = ra->size;
	return true;
}

static void ra2631_ondemand(struct readahead_control *ractl, bool hit,
			    unsigned long req, bool fault)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t offset = readahead_index(ractl);
	unsigned long max = ra->ra_pages;
	struct hist_decision d = {
		.index = offset,
		.req = req,
		.fault = fault,
		.miss = (int)ra->mmap_miss,
	};

	if (!offset) {
		d.pattern = "initial0";
		goto initial;
	}
	if (offset == ra->start + ra->size - ra->async_size ||
	    offset == ra->start + ra->size) {
		ra->start += ra->size;
		ra->size = hist_next_size(ra->size, max);
		ra->async_size = ra->size;
		d.pattern = "subsequent";
		goto readit;
	}
	if (hit) {
		pgoff_t start = page_cache_next_miss(ractl->mapping,
						     offset + 1, max);

		if (!start || start - offset > max)
			return;
		ra->start = start;
		ra->size = hist_next_size(start - offset + req, max);
		ra->async_size = ra->size;
		d.pattern = "marker";
		goto readit;
	}
	if (req > max) {
		d.pattern = "oversize";
		goto initial;
	}
	if (offset - (pgoff_t)(ra->prev_pos >> PAGE_SHIFT) <= 1UL) {
		d.pattern = "initial";
		goto initial;
	}
	if (ra2631_context(ractl, req, max)) {
		d.pattern = "context";
		goto readit;
	}
	d.pattern = "random";
	d.start = offset;
	d.size = req;
	d.actual = hist_read_range(ractl, offset, req, 0);
	hist_trace(ractl, &d);
	return;

initial:
	ra->start = offset;
	ra->size = hist_init_size(req, max);
	ra->async_size = ra->size > req ? ra->size - req : ra->size;
readit:
	/* Would this request hit the marker it sets?  Merge, uncapped. */
	if (offset == ra->start && ra->size == ra->async_size) {
		ra->async_size = hist_next_size(ra->size, max);
		ra->size += ra->async_size;
	}
	hist_submit(ractl, &d);
}

static void ra2631_sync(struct readahead_control *ractl, unsigned long req)
{
	hist_sync(ractl, req, ra2631_ondemand);
}

static void ra2631_async_ra(struct readahead_control *ractl,
			    struct folio *folio, unsigned long req, bool fault)
{
	hist_async(ractl, folio, req, fault, ra2631_ondemand);
}

static void ra2631_async(struct readahead_control *ractl,
			 struct folio *folio, unsigned long req)
{
	ra2631_async_ra(ractl, folio, req, false);
}

static struct file *ra2631_fault_sync(struct vm_fault *vmf)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	unsigned long vm_flags = vmf->vma->vm_flags;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);
	unsigned long ra_pages = ra->ra_pages;
	pgoff_t prev = (pgoff_t)(ra->prev_pos >> PAGE_SHIFT);
	struct hist_decision d = {
		.pattern = "around",
		.index = vmf->pgoff,
		.req = 1,
		.fault = true,
	};

	if (vm_flags & VM_RAND_READ)
		return NULL;
	ra->prev_pos = (loff_t)vmf->pgoff << PAGE_SHIFT;
	if (!ra_pages)
		return NULL;
	if ((vm_flags & VM_SEQ_READ) || vmf->pgoff - 1 == prev) {
		ra2631_ondemand(&ractl, false, ra_pages, true);
		return NULL;
	}
	if (ra->mmap_miss < INT_MAX)
		ra->mmap_miss++;
	d.miss = (int)ra->mmap_miss;
	if (ra->mmap_miss > HIST_MMAP_LOTSAMISS)
		return NULL;
	ra->start = vmf->pgoff > ra_pages / 2 ? vmf->pgoff - ra_pages / 2 : 0;
	ra->size = ra_pages;
	ra->async_size = 0;
	d.start = ra->start;
	d.size = ra_pages;
	d.actual = hist_read_range(&ractl, ra->start, ra_pages, 0);
	hist_trace(&ractl, &d);
	return NULL;
}

/* A page was found: before the fault waits on its lock. */
static struct file *ra2631_fault_async(struct vm_fault *vmf,
				       struct folio *folio)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);

	if (vmf->vma->vm_flags & VM_RAND_READ)
		return NULL;
	ra->prev_pos = (loff_t)vmf->pgoff << PAGE_SHIFT;
	if (ra->mmap_miss)
		ra->mmap_miss--;
	ra2631_async_ra(&ractl, folio, ra->ra_pages, true);
	return NULL;
}

const struct ra_impl ra_2631rc1 = {
	.name = "2.6.31-rc1",
	.state_init = hist_state_init,
	.sync_ra = ra2631_sync,
	.async_ra = ra2631_async,
	.force_ra = hist_force,
	.unbounded = hist_unbounded,
	.expand = hist_expand,
	.ksys_readahead = hist_ksys_readahead,
	.fadvise = hist_fadvise,
	.fault_sync = ra2631_fault_sync,
	.fault_async = ra2631_fault_async,
	.flags = RA_IMPL_NO_FAULT_AROUND | RA_IMPL_OWN_TRACE,
};
