// SPDX-License-Identifier: GPL-2.0
/*
 * ra_call.c - calls into the running readahead implementation, observed.
 *
 * See ra_call.h.  Linked by the harness and the simulator alike.
 */
#include "lib.h"

const struct ra_impl *ra_impl = &ra_ours;
const struct ra_call_observer *ra_call_observer;

const char *const ra_call_names[RA_CALL_NR] = {
	[RA_CALL_SYNC] = "sync",
	[RA_CALL_ASYNC] = "async",
	[RA_CALL_FAULT_MISS] = "fault-miss",
	[RA_CALL_FAULT_HIT] = "fault-hit",
	[RA_CALL_FADVISE] = "fadvise",
};

void ra_call_begin(struct ra_call *c, enum ra_call_kind kind,
		   struct file *file, pgoff_t index, unsigned long req)
{
	c->kind = kind;
	c->file = file;
	c->before = file->f_ra;
	c->index = index;
	c->req = req;
	c->submitted = ra_call_observer->submitted();
	c->moved = false;
	c->cached = 0;
}

void ra_call_end(struct ra_call *c)
{
	const struct file_ra_state *ra = &c->file->f_ra;
	pgoff_t eof = DIV_ROUND_UP(i_size_read(file_inode(c->file)),
				   PAGE_SIZE);
	unsigned long in_file;

	c->submitted = ra_call_observer->submitted() - c->submitted;
	c->moved = ra->start != c->before.start ||
		   ra->size != c->before.size ||
		   ra->async_size != c->before.async_size;
	if (c->moved) {
		in_file = ra->start >= eof ? 0 :
			  min_t(unsigned long, ra->size, eof - ra->start);
		if (in_file > c->submitted)
			c->cached = in_file - c->submitted;
	}
	ra_call_observer->observe(c);
}

void ra_call_sync(struct file *file, pgoff_t index, unsigned long req)
{
	DEFINE_READAHEAD(ractl, file, &file->f_ra, file->f_mapping, index);
	struct ra_call c;

	ra_call_begin(&c, RA_CALL_SYNC, file, index, req);
	ra_impl->sync_ra(&ractl, req);
	ra_call_end(&c);
}

void ra_call_async(struct file *file, struct folio *folio,
		   unsigned long req)
{
	DEFINE_READAHEAD(ractl, file, &file->f_ra, file->f_mapping,
			 folio->index);
	struct ra_call c;

	ra_call_begin(&c, RA_CALL_ASYNC, file, folio->index, req);
	ra_impl->async_ra(&ractl, folio, req);
	ra_call_end(&c);
}

void ra_call_fault(struct vm_fault *vmf, struct folio *folio)
{
	struct ra_call c;

	ra_call_begin(&c, folio ? RA_CALL_FAULT_HIT : RA_CALL_FAULT_MISS,
		      vmf->vma->vm_file, vmf->pgoff, 1);
	if (folio)
		ra_impl->fault_async(vmf, folio);
	else
		ra_impl->fault_sync(vmf);
	ra_call_end(&c);
}

void ra_call_map_hits(struct vm_fault *vmf, unsigned int hits, bool mapped)
{
	if (ra_impl->map_hits)
		ra_impl->map_hits(vmf, hits, mapped);
}
