// SPDX-License-Identifier: GPL-2.0
/*
 * ra_2630.c - a reference model of Linux 2.6.30's readahead.
 *
 * The decisions, in order, for a request of @req pages at @offset:
 *
 *  subsequent  @offset is this file's marker (start + size - async_size)
 *              or the end of its window: the window moves on and grows,
 *              all of it asynchronous.  Nothing more: a synchronous call
 *              that lands on the end of the window puts the marker on the
 *              very page being read, and relies on the caller looking at
 *              that page again and calling the async path at once.
 *  random      a miss not within one page of the previous read, no marker
 *              and not oversize: read the request as it is, no state.
 *  marker      a marker this file's state does not explain: the window
 *              starts at the first hole after @offset (searched over at
 *              most max + 1 pages) and its size is that distance, grown.
 *  initial     otherwise (offset 0: "initial0"; above max: "oversize"):
 *              the first window, the marker right after the request.
 *
 * The callers (what the simulator does for this model, ra_impl.flags):
 * read(2) looks the page up again after a synchronous readahead and calls
 * the async path if it carries the marker (6.1's filemap_get_pages()
 * does the same, so no switch is needed for it); the fault path takes
 * the page lock first, waiting for any I/O on the page, and only then
 * considers the marker (RA_IMPL_FAULT_LOCK_FIRST); there is no
 * fault-around (RA_IMPL_NO_FAULT_AROUND).  In a mapping with
 * MADV_SEQUENTIAL a fault miss is a synchronous readahead of one page and
 * a marked page an asynchronous one; without hints a miss reads around
 * the fault (ra_pages centred on it, no marker, the state untouched)
 * unless mmap_miss exceeds 100, once per fault; mmap_miss (a signed
 * counter in 2.6.30) goes up on each such miss and down on every fault
 * that did not read around.
 */
#include "hist.h"

static void ra2630_ondemand(struct readahead_control *ractl, bool hit,
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
	pgoff_t prev = (pgoff_t)(ra->prev_pos >> PAGE_SHIFT);
	bool sequential;

	if (offset && (offset == ra->start + ra->size - ra->async_size ||
		       offset == ra->start + ra->size)) {
		ra->start += ra->size;
		ra->size = hist_next_size(ra->size, max);
		ra->async_size = ra->size;
		d.pattern = "subsequent";
		goto readit;
	}

	sequential = offset - prev <= 1UL || req > max;
	if (!hit && !sequential) {
		d.pattern = "random";
		d.start = offset;
		d.size = req;
		d.actual = hist_read_range(ractl, offset, req, 0);
		hist_trace(ractl, &d);
		return;
	}

	if (hit) {
		pgoff_t start = page_cache_next_miss(ractl->mapping, offset,
						     max + 1);

		if (!start || start - offset > max)
			return;
		ra->start = start;
		ra->size = hist_next_size(start - offset, max);
		ra->async_size = ra->size;
		d.pattern = "marker";
		goto readit;
	}

	ra->start = offset;
	ra->size = hist_init_size(req, max);
	ra->async_size = ra->size > req ? ra->size - req : ra->size;
	d.pattern = !offset ? "initial0" : req > max ? "oversize" : "initial";

readit:
	hist_submit(ractl, &d);
}

static void ra2630_sync(struct readahead_control *ractl, unsigned long req)
{
	hist_sync(ractl, req, ra2630_ondemand);
}

static void ra2630_async_ra(struct readahead_control *ractl,
			    struct folio *folio, unsigned long req, bool fault)
{
	hist_async(ractl, folio, req, fault, ra2630_ondemand);
}

static void ra2630_async(struct readahead_control *ractl,
			 struct folio *folio, unsigned long req)
{
	ra2630_async_ra(ractl, folio, req, false);
}

/* A fault found no page: before any lock. */
static struct file *ra2630_fault_sync(struct vm_fault *vmf)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	unsigned long vm_flags = vmf->vma->vm_flags;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);
	unsigned long ra_pages = ra->ra_pages;
	struct hist_decision d = {
		.pattern = "around",
		.index = vmf->pgoff,
		.req = 1,
		.fault = true,
	};

	if (vm_flags & VM_RAND_READ)
		return NULL;
	if (vm_flags & VM_SEQ_READ) {
		if (ra_pages)
			ra2630_ondemand(&ractl, false, 1, true);
		return NULL;
	}
	ra->mmap_miss = (unsigned int)((int)ra->mmap_miss + 1);
	d.miss = (int)ra->mmap_miss;
	if ((int)ra->mmap_miss > HIST_MMAP_LOTSAMISS || !ra_pages)
		return NULL;
	d.start = vmf->pgoff > ra_pages / 2 ? vmf->pgoff - ra_pages / 2 : 0;
	d.size = ra_pages;
	d.actual = hist_read_range(&ractl, d.start, ra_pages, 0);
	hist_trace(&ractl, &d);
	return NULL;
}

/*
 * The fault holds the page lock now: the page was found, or (with
 * FAULT_FLAG_TRIED) the fault went through ra2630_fault_sync() first.
 */
static struct file *ra2630_fault_async(struct vm_fault *vmf,
				       struct folio *folio)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	unsigned long vm_flags = vmf->vma->vm_flags;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);
	bool read_around = (vmf->flags & FAULT_FLAG_TRIED) &&
			   !(vm_flags & VM_SEQ_READ);

	if (vm_flags & VM_RAND_READ)
		return NULL;
	if (vm_flags & VM_SEQ_READ)
		ra2630_async_ra(&ractl, folio, 1, true);
	if (!read_around)
		ra->mmap_miss = (unsigned int)((int)ra->mmap_miss - 1);
	return NULL;
}

const struct ra_impl ra_2630 = {
	.name = "2.6.30",
	.state_init = hist_state_init,
	.sync_ra = ra2630_sync,
	.async_ra = ra2630_async,
	.force_ra = hist_force,
	.unbounded = hist_unbounded,
	.expand = hist_expand,
	.ksys_readahead = hist_ksys_readahead,
	.fadvise = hist_fadvise,
	.fault_sync = ra2630_fault_sync,
	.fault_async = ra2630_fault_async,
	.flags = RA_IMPL_FAULT_LOCK_FIRST | RA_IMPL_NO_FAULT_AROUND |
		 RA_IMPL_OWN_TRACE,
};
