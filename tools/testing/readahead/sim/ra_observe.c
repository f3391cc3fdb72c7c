// SPDX-License-Identifier: GPL-2.0
/*
 * ra_observe.c - what the simulator makes of each readahead call.
 *
 * The read and fault paths call the running ra_impl through the
 * harness's ra_call.c, which hands every observation here (sim_observer):
 * per kind of call, the calls, pages newly submitted, windows that moved,
 * all-cached calls and window pages that were cached already.  Owns the
 * fadvise call (observed only for WILLNEED) and the trace sink: when a
 * trace file is asked for, one line per decision in the debugfs format.
 * The pristine file prints no trace, so for it (and for ours until the
 * harness routes its real trace here) the line is built from what was
 * observed, the pattern inferred from the window it left.
 */
#include "sim.h"
#include "ra_observe.h"

#include <trace/events/readahead.h>

#include <string.h>

struct ra_obs ra_obs[RA_CALL_NR];
FILE *ra_trace_file;
bool ra_real_trace;
struct ra_inferred ra_inferred[RA_INFERRED_MAX];
unsigned int nr_inferred;
int ra_cur_pid;
const char *ra_cur_comm = "sim";

/* The pattern a decision had, guessed from the window it left. */
static const char *infer(const struct ra_call *c)
{
	const struct file_ra_state *ra = &c->file->f_ra;
	bool moved = c->moved;

	switch (c->kind) {
	case RA_CALL_FADVISE:
		return "fadvise";
	case RA_CALL_ASYNC:
		return ra->start == c->before.start + c->before.size ?
		       "subsequent" : "marker";
	case RA_CALL_FAULT_MISS:
		if (moved && ra->start < c->index)
			return "around";
		/* fall through */
	case RA_CALL_SYNC:
		if (!moved)
			return c->submitted ? "random" : "none";
		if (!c->index)
			return "initial0";
		if (ra->start == c->before.start + c->before.size)
			return "subsequent";
		return c->req > ra->size ? "oversize" : "initial";
	case RA_CALL_FAULT_HIT:
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

static unsigned long submitted(void)
{
	return fs_pages_submitted;
}

/* One call: the statistics, and the trace line when it is inferred. */
static void observe(const struct ra_call *c)
{
	const struct file_ra_state *ra = &c->file->f_ra;
	struct ra_obs *o = &ra_obs[c->kind];
	unsigned long actual = c->submitted;
	struct sim_inode *si = SI(c->file->f_inode);
	bool moved = c->moved;
	char miss[READAHEAD_TRACE_MISS_LEN];
	const char *pattern;

	o->calls++;
	o->pages += actual;
	if (moved) {
		o->moved++;
		if (!actual)
			o->all_cached++;
		if (c->cached) {
			o->dup_calls++;
			o->dup_pages += c->cached;
		}
	}
	if (!moved && !actual)
		return;
	pattern = infer(c);
	count_inferred(pattern, actual, moved ? ra->size : actual);
	if (!ra_trace_file || ra_real_trace)
		return;
	miss[0] = '\0';
	if (c->kind == RA_CALL_FAULT_MISS || c->kind == RA_CALL_FAULT_HIT)
		snprintf(miss, sizeof(miss), ", miss=%u", ra->mmap_miss);
	fprintf(ra_trace_file, READAHEAD_TRACE_FMT "\n", pattern, ra_cur_pid,
		ra_cur_comm, si->part->major, si->part->minor, si->part->name,
		si->inode.i_ino, si->name, c->index, c->req,
		moved ? ra->start : c->index,
		moved ? (unsigned long)ra->size : actual,
		moved ? (unsigned long)ra->async_size : 0UL,
		moved && ra->start > c->index, miss, actual);
}

const struct ra_call_observer sim_observer = {
	.submitted = submitted,
	.observe = observe,
};

int ra_call_fadvise(struct file *file, loff_t offset, loff_t len,
		    int advice)
{
	struct ra_call c;
	int ret;

	ra_call_begin(&c, RA_CALL_FADVISE, file, offset >> PAGE_SHIFT,
		      DIV_ROUND_UP(len, PAGE_SIZE));
	ret = ra_impl->fadvise(file, offset, len, advice);
	if (advice == POSIX_FADV_WILLNEED)
		ra_call_end(&c);
	return ret;
}
