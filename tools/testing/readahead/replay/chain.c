// SPDX-License-Identifier: GPL-2.0
/*
 * chain.c - reference models of readahead from Linux 2.6.30 to
 * 2.6.31-rc1, one per behavioural commit of the 2.6.31 merge window.
 *
 * Step 0 is 2.6.30; each later step adds one commit's change to the one
 * before; the last step is 2.6.31-rc1.  The steps, in the order the
 * commits were merged:
 *
 *  1  "readahead: introduce context readahead algorithm": a miss with
 *     cached history just before it is a stream (context: a window of
 *     the history plus the request, history doubled when it reaches back
 *     to page 0, all of it asynchronous); the decisions are taken in
 *     the order initial0, subsequent, marker, oversize, initial,
 *     context, random.  Before it (2.6.30): subsequent (not at page 0),
 *     random for a miss neither sequential nor oversize, marker, then
 *     the first window (initial0, oversize or initial).
 *  2  "readahead: increase interleaved readahead size": a marker this
 *     file's state does not explain sizes the window from the distance
 *     to the first hole plus the request (before: the distance alone).
 *  3  51daa88e "readahead: remove sync/async readahead call dependency":
 *     a request on the first page of an entirely asynchronous window
 *     would hit the marker it is about to set, so the next window is
 *     merged in at once (size += next size, async_size = next size),
 *     uncapped: the 2009 trace's ra=144909+128-64 with a 64-page max.
 *     Before it, such a synchronous call put the marker on the very page
 *     being read, and the read path's second look at the page called the
 *     async path (6.1's filemap_get_pages() does the same, so the read
 *     path needs no switch).
 *  4  ef00e08e "readahead: clean up and simplify the code for filemap
 *     page fault readahead": the fault path is split in a sync part (a
 *     miss) and an async part (a page found with the marker, before the
 *     fault waits on the page lock, for every mapping, asking one page);
 *     mmap_miss goes up on each read-around and down on each hit, not
 *     below 0.  Before it (2.6.30): the page lock first, waiting for any
 *     I/O on the page, then async readahead only with MADV_SEQUENTIAL;
 *     mmap_miss (signed) went down on every fault that did not read
 *     around.
 *  5  "readahead: sequential mmap readahead": a miss on the page after
 *     the previous fault is a stream, as with MADV_SEQUENTIAL, and such a
 *     synchronous readahead asks a full ra_pages (before: one page).
 *  6  "readahead: enforce full readahead size on async mmap readahead":
 *     the async part asks ra_pages (before: one page).
 *  7  "readahead: record mmap read-around states in file_ra_state":
 *     read-around leaves its window in the state (size ra_pages,
 *     async_size 0), where later decisions see it.  This is 2.6.31-rc1.
 *
 * A miss in a mapping without hints reads around the fault (ra_pages
 * centred on it, no marker) until mmap_miss exceeds 100, in every step.
 * Every fault records its page in prev_pos, in every step (2.6.30's
 * filemap_fault() did it once it held the page; from step 4 on the
 * models do it as the fault starts, before the old value is needed).
 * The models are written from the commits' descriptions and the 2009
 * threads (LKML, July 2009: "fio sync read 4k block size 35% regression"
 * and its replies), not from the 2009 source.
 */
#include "models.h"

enum {
	RA09_CONTEXT		= 1 << 0,
	RA09_INTERLEAVED	= 1 << 1,
	RA09_MERGE		= 1 << 2,
	RA09_FAULT_SPLIT	= 1 << 3,
	RA09_MMAP_SEQ		= 1 << 4,
	RA09_ASYNC_FULL		= 1 << 5,
	RA09_AROUND_STATE	= 1 << 6,
};

static bool ra09_context(struct readahead_control *ractl, unsigned long req,
			 unsigned long max)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t offset = readahead_index(ractl);
	pgoff_t head = hist_prev_hole(ractl->mapping, offset - 1, max);
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

/* The read decision of step @steps' kernel (RA09_* bits). */
static void ra09_ondemand(unsigned int steps,
			  struct readahead_control *ractl, bool hit,
			  unsigned long req, bool fault)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t offset = readahead_index(ractl);
	unsigned long max = ra->ra_pages;
	pgoff_t prev = (pgoff_t)(ra->prev_pos >> PAGE_SHIFT);
	bool order31 = steps & RA09_CONTEXT;
	struct hist_decision d = {
		.index = offset,
		.req = req,
		.fault = fault,
		.miss = (int)ra->mmap_miss,
	};

	if (order31 && !offset) {
		d.pattern = "initial0";
		goto initial;
	}
	if ((offset || order31) &&
	    (offset == ra->start + ra->size - ra->async_size ||
	     offset == ra->start + ra->size)) {
		ra->start += ra->size;
		ra->size = hist_next_size(ra->size, max);
		ra->async_size = ra->size;
		d.pattern = "subsequent";
		goto readit;
	}
	if (!order31 && !hit && offset - prev > 1UL && req <= max)
		goto random;
	if (hit) {
		pgoff_t start;

		if (steps & RA09_INTERLEAVED)
			start = hist_next_hole(ractl->mapping, offset + 1,
					       max);
		else
			start = hist_next_hole(ractl->mapping, offset,
					       max + 1);
		if (!start || start - offset > max)
			return;
		ra->start = start;
		ra->size = hist_next_size(start - offset +
					  (steps & RA09_INTERLEAVED ? req : 0),
					  max);
		ra->async_size = ra->size;
		d.pattern = "marker";
		goto readit;
	}
	if (!order31) {
		d.pattern = !offset ? "initial0" :
			    req > max ? "oversize" : "initial";
		goto initial;
	}
	if (req > max) {
		d.pattern = "oversize";
		goto initial;
	}
	if (offset - prev <= 1UL) {
		d.pattern = "initial";
		goto initial;
	}
	if (ra09_context(ractl, req, max)) {
		d.pattern = "context";
		goto readit;
	}
random:
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
	if ((steps & RA09_MERGE) && offset == ra->start &&
	    ra->size == ra->async_size) {
		ra->async_size = hist_next_size(ra->size, max);
		ra->size += ra->async_size;
	}
	hist_submit(ractl, &d);
}

/* A fault found no page (before any lock, in every step). */
static void ra09_fault_sync(unsigned int steps, struct vm_fault *vmf,
			    hist_ondemand_fn ondemand)
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
		return;
	if (steps & RA09_FAULT_SPLIT) {
		ra->prev_pos = (loff_t)vmf->pgoff << PAGE_SHIFT;
		if (!ra_pages)
			return;
	}
	if ((vm_flags & VM_SEQ_READ) ||
	    ((steps & RA09_MMAP_SEQ) && vmf->pgoff - 1 == prev)) {
		if (ra_pages)
			ondemand(&ractl, false,
				 steps & RA09_MMAP_SEQ ? ra_pages : 1, true);
		return;
	}
	if (!(steps & RA09_FAULT_SPLIT))
		ra->mmap_miss = (unsigned int)((int)ra->mmap_miss + 1);
	else if (ra->mmap_miss < INT_MAX)
		ra->mmap_miss++;
	d.miss = (int)ra->mmap_miss;
	if ((int)ra->mmap_miss > HIST_MMAP_LOTSAMISS || !ra_pages)
		return;
	d.start = vmf->pgoff > ra_pages / 2 ? vmf->pgoff - ra_pages / 2 : 0;
	d.size = ra_pages;
	if (steps & RA09_AROUND_STATE) {
		ra->start = d.start;
		ra->size = ra_pages;
		ra->async_size = 0;
	}
	d.actual = hist_read_range(&ractl, d.start, ra_pages, 0);
	hist_trace(&ractl, &d);
}

/*
 * A page was found: from step 4 on before the fault waits on its lock;
 * before that once the lock is held (then also after a miss, with
 * FAULT_FLAG_TRIED: the fault went through ra09_fault_sync() first).
 */
static void ra09_fault_async(unsigned int steps, struct vm_fault *vmf,
			     struct folio *folio, hist_ondemand_fn ondemand)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	unsigned long vm_flags = vmf->vma->vm_flags;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);

	if (vm_flags & VM_RAND_READ)
		return;
	if (steps & RA09_FAULT_SPLIT) {
		ra->prev_pos = (loff_t)vmf->pgoff << PAGE_SHIFT;
		if (ra->mmap_miss)
			ra->mmap_miss--;
		hist_async(&ractl, folio,
			   steps & RA09_ASYNC_FULL ? ra->ra_pages : 1, true,
			   ondemand);
		return;
	}
	if (vm_flags & VM_SEQ_READ)
		hist_async(&ractl, folio, 1, true, ondemand);
	if (!(vmf->flags & FAULT_FLAG_TRIED) || (vm_flags & VM_SEQ_READ))
		ra->mmap_miss = (unsigned int)((int)ra->mmap_miss - 1);
	/* filemap_fault() ends with the page found: it records prev_pos. */
	ra->prev_pos = (loff_t)vmf->pgoff << PAGE_SHIFT;
}

/* One struct ra_impl per step: the entry points with the step bound. */
#define RA09_STEP(n, label)						\
static void ra09_ondemand_##n(struct readahead_control *ractl, bool hit, \
			      unsigned long req, bool fault)		\
{									\
	ra09_ondemand((1u << (n)) - 1, ractl, hit, req, fault);		\
}									\
static void ra09_sync_##n(struct readahead_control *ractl,		\
			  unsigned long req)				\
{									\
	hist_sync(ractl, req, ra09_ondemand_##n);			\
}									\
static void ra09_async_##n(struct readahead_control *ractl,		\
			   struct folio *folio, unsigned long req)	\
{									\
	hist_async(ractl, folio, req, false, ra09_ondemand_##n);	\
}									\
static struct file *ra09_fault_sync_##n(struct vm_fault *vmf)		\
{									\
	ra09_fault_sync((1u << (n)) - 1, vmf, ra09_ondemand_##n);	\
	return NULL;							\
}									\
static struct file *ra09_fault_async_##n(struct vm_fault *vmf,		\
					 struct folio *folio)		\
{									\
	ra09_fault_async((1u << (n)) - 1, vmf, folio,			\
			 ra09_ondemand_##n);				\
	return NULL;							\
}									\
static const struct ra_impl ra09_step_##n = {				\
	.name = label,							\
	.state_init = hist_state_init,					\
	.sync_ra = ra09_sync_##n,					\
	.async_ra = ra09_async_##n,					\
	.force_ra = hist_force,						\
	.unbounded = hist_unbounded,					\
	.expand = hist_expand,						\
	.ksys_readahead = hist_ksys_readahead,				\
	.fadvise = hist_fadvise,					\
	.fault_sync = ra09_fault_sync_##n,				\
	.fault_async = ra09_fault_async_##n,				\
	.flags = RA_IMPL_NO_FAULT_AROUND | RA_IMPL_OWN_TRACE |		\
		 ((n) >= 4 ? 0 : RA_IMPL_FAULT_LOCK_FIRST),		\
}

RA09_STEP(0, "2.6.30");
RA09_STEP(1, "context");
RA09_STEP(2, "interleaved");
RA09_STEP(3, "51daa88e");
RA09_STEP(4, "ef00e08e");
RA09_STEP(5, "mmap-seq");
RA09_STEP(6, "mmap-async-full");
RA09_STEP(7, "2.6.31-rc1");

/* Commit ids where the 2009 reports name them; the subject line always. */
const struct chain_step chain[CHAIN_STEPS] = {
	{ &ra09_step_0, "", "Linux 2.6.30" },
	{ &ra09_step_1, "", "readahead: introduce context readahead algorithm" },
	{ &ra09_step_2, "", "readahead: increase interleaved readahead size" },
	{ &ra09_step_3, "51daa88e",
	  "readahead: remove sync/async readahead call dependency" },
	{ &ra09_step_4, "ef00e08e",
	  "readahead: clean up and simplify the code for filemap page fault readahead" },
	{ &ra09_step_5, "", "readahead: sequential mmap readahead" },
	{ &ra09_step_6, "",
	  "readahead: enforce full readahead size on async mmap readahead" },
	{ &ra09_step_7, "",
	  "readahead: record mmap read-around states in file_ra_state" },
};

/* What ra_sim's --impl NAME can run (main.c, a weak symbol there). */
const struct ra_impl *const ra_replay_impls[] = {
	&ra09_step_0, &ra09_step_1, &ra09_step_2, &ra09_step_3,
	&ra09_step_4, &ra09_step_5, &ra09_step_6, &ra09_step_7, NULL,
};

/* For ra_sim --list-impls: "COMMIT<TAB>SUBJECT" of a step, else NULL. */
const char *ra_replay_about(const struct ra_impl *impl)
{
	static char buf[160];
	unsigned int i;

	for (i = 0; i < CHAIN_STEPS; i++)
		if (chain[i].impl == impl) {
			snprintf(buf, sizeof(buf), "%s\t%s",
				 chain[i].commit[0] ? chain[i].commit : "-",
				 chain[i].subject);
			return buf;
		}
	return NULL;
}
