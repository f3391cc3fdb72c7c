// SPDX-License-Identifier: GPL-2.0
/*
 * ra_observe.c - calling the readahead implementation, and watching it.
 *
 * Owns the few places where the simulated kernel calls into the running
 * ra_impl (sync, async, the two fault entry points, fadvise), what the
 * simulator observes around each call whatever the implementation
 * (calls, pages newly submitted, windows that moved, all-cached calls,
 * window pages that were cached already), and the trace sink: when a
 * trace file is asked for, one line per decision in the debugfs format.
 * The pristine file prints no trace, so for it (and for ours until the
 * harness routes its real trace here) the line is built from what was
 * observed, the pattern inferred from the window it left.
 */
#include "sim.h"
#include "ra_observe.h"

#include <trace/events/readahead.h>

#include <string.h>

struct ra_obs ra_obs[RK_NR];
const char *const ra_kind_names[RK_NR] = {
	"sync", "async", "fault-miss", "fault-hit", "fadvise",
};

const struct ra_impl *sim_impl;
FILE *ra_trace_file;
bool ra_real_trace;
struct ra_inferred ra_inferred[RA_INFERRED_MAX];
unsigned int nr_inferred;
int ra_cur_pid;
const char *ra_cur_comm = "sim";

struct ra_ctx {
	enum ra_kind kind;
	struct file *file;
	struct file_ra_state before;
	uint64_t submitted;
	pgoff_t index;
	unsigned long req;
};

static void begin(struct ra_ctx *c, enum ra_kind kind, struct file *file,
		  pgoff_t index, unsigned long req)
{
	c->kind = kind;
	c->file = file;
	c->before = file->f_ra;
	c->submitted = fs_pages_submitted;
	c->index = index;
	c->req = req;
}

static const char *infer(const struct ra_ctx *c, bool moved,
			 unsigned long actual)
{
	const struct file_ra_state *ra = &c->file->f_ra;

	switch (c->kind) {
	case RK_FADVISE:
		return "fadvise";
	case RK_ASYNC:
		return ra->start == c->before.start + c->before.size ?
		       "subsequent" : "marker";
	case RK_FAULT_MISS:
		if (moved && ra->start < c->index)
			return "around";
		/* fall through */
	case RK_SYNC:
		if (!moved)
			return actual ? "random" : "none";
		if (!c->index)
			return "initial0";
		if (ra->start == c->before.start + c->before.size)
			return "subsequent";
		return c->req > ra->size ? "oversize" : "initial";
	case RK_FAULT_HIT:
	default:
		return moved ? "subsequent" : "none";
	}
}

static void count_inferred(const char *pattern, unsigned long actual,
			   unsigned long size)
{
	unsigned int i;

	for (i = 0; i < nr_inferred; i++)
		if (!strcmp(ra_inferred[i].pattern, pattern))
			break;
	if (i == nr_inferred) {
		if (i == RA_INFERRED_MAX)
			return;
		ra_inferred[nr_inferred++].pattern = pattern;
	}
	ra_inferred[i].calls++;
	ra_inferred[i].io += actual > 0;
	ra_inferred[i].size += size;
	ra_inferred[i].io_size += actual;
}

static void end(struct ra_ctx *c)
{
	const struct file_ra_state *ra = &c->file->f_ra;
	struct ra_obs *o = &ra_obs[c->kind];
	unsigned long actual = fs_pages_submitted - c->submitted;
	struct sim_inode *si = SI(c->file->f_inode);
	pgoff_t eof = DIV_ROUND_UP(si->size, PAGE_SIZE);
	bool moved = ra->start != c->before.start ||
		     ra->size != c->before.size ||
		     ra->async_size != c->before.async_size;
	char miss[READAHEAD_TRACE_MISS_LEN];
	const char *pattern;

	o->calls++;
	o->pages += actual;
	if (moved) {
		unsigned long in_file = ra->start >= eof ? 0 :
			min_t(unsigned long, ra->size, eof - ra->start);

		o->moved++;
		if (!actual)
			o->all_cached++;
		if (in_file > actual) {
			o->dup_calls++;
			o->dup_pages += in_file - actual;
		}
	}
	if (!moved && !actual)
		return;
	pattern = infer(c, moved, actual);
	count_inferred(pattern, actual, moved ? ra->size : actual);
	if (!ra_trace_file || ra_real_trace)
		return;
	miss[0] = '\0';
	if (c->kind == RK_FAULT_MISS || c->kind == RK_FAULT_HIT)
		snprintf(miss, sizeof(miss), ", miss=%u", ra->mmap_miss);
	fprintf(ra_trace_file, READAHEAD_TRACE_FMT "\n", pattern, ra_cur_pid,
		ra_cur_comm, si->part->major, si->part->minor, si->part->name,
		si->inode.i_ino, si->name, c->index, c->req,
		moved ? ra->start : c->index,
		moved ? (unsigned long)ra->size : actual,
		moved ? (unsigned long)ra->async_size : 0UL,
		moved && ra->start > c->index, miss, actual);
}

void ra_call_sync(struct file *file, pgoff_t index, unsigned long req)
{
	DEFINE_READAHEAD(ractl, file, &file->f_ra, file->f_mapping, index);
	struct ra_ctx c;

	begin(&c, RK_SYNC, file, index, req);
	sim_impl->sync_ra(&ractl, req);
	end(&c);
}

void ra_call_async(struct file *file, struct folio *folio, unsigned long req)
{
	DEFINE_READAHEAD(ractl, file, &file->f_ra, file->f_mapping,
			 folio->index);
	struct ra_ctx c;

	begin(&c, RK_ASYNC, file, folio->index, req);
	sim_impl->async_ra(&ractl, folio, req);
	end(&c);
}

void ra_call_fault(struct vm_fault *vmf, struct folio *folio)
{
	struct file *file = vmf->vma->vm_file;
	struct ra_ctx c;

	begin(&c, folio ? RK_FAULT_HIT : RK_FAULT_MISS, file, vmf->pgoff, 1);
	if (folio)
		sim_impl->fault_async(vmf, folio);
	else
		sim_impl->fault_sync(vmf);
	end(&c);
}

int ra_call_fadvise(struct file *file, loff_t offset, loff_t len,
		    int advice)
{
	struct ra_ctx c;
	int ret;

	begin(&c, RK_FADVISE, file, offset >> PAGE_SHIFT,
	      DIV_ROUND_UP(len, PAGE_SIZE));
	ret = sim_impl->fadvise(file, offset, len, advice);
	if (advice == POSIX_FADV_WILLNEED)
		end(&c);
	return ret;
}
