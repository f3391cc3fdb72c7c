/* SPDX-License-Identifier: GPL-2.0 */
/*
 * models.h - reference models of the 2009 readahead code, for the replay.
 *
 * A chain of struct ra_impl tables over the harness's shim API, from
 * 2.6.30 to 2.6.31-rc1, one per behavioural commit (chain.c).  They are
 * written from the commits' descriptions and the July 2009 LKML threads,
 * not from the 2009 source.  models.c holds what all steps share:
 * the window sizing rules, reading a range into the page cache the way
 * __do_page_cache_readahead() did, and the trace line.
 */
#ifndef RA_REPLAY_MODELS_H
#define RA_REPLAY_MODELS_H

#include "lib.h"

/*
 * The chain (chain.c): 2.6.30, then one model per behavioural commit of
 * the 2.6.31 merge window, the last one 2.6.31-rc1.
 */
#define CHAIN_STEPS	8
struct chain_step {
	const struct ra_impl *impl;	/* impl->name: --impl NAME */
	const char *commit;		/* short id, "" where not recorded */
	const char *subject;
};
extern const struct chain_step chain[CHAIN_STEPS];
#define ra_2630		(*chain[0].impl)
#define ra_2631rc1	(*chain[CHAIN_STEPS - 1].impl)

/* Read-around gives up after this many net fault misses (both kernels). */
#define HIST_MMAP_LOTSAMISS	100

/*
 * 2009's radix_tree_next_hole() and radix_tree_prev_hole(): the first
 * index without a page from @index on (back), or @index +/- @max_scan
 * when there is none; not 6.1's page_cache_next_miss(), which returns
 * the last index looked at then.
 */
pgoff_t hist_next_hole(struct address_space *mapping, pgoff_t index,
		       unsigned long max_scan);
pgoff_t hist_prev_hole(struct address_space *mapping, pgoff_t index,
		       unsigned long max_scan);

/* The first window of a stream for a request of @req pages. */
unsigned long hist_init_size(unsigned long req, unsigned long max);
/* The window after one of @cur pages: x4 while small, else x2, <= @max. */
unsigned long hist_next_size(unsigned long cur, unsigned long max);

/*
 * Read pages [@start, @start + @nr) that are not cached, clipped at EOF,
 * and mark the page @nr - @lookahead of the range when it is one of the
 * new pages (lookahead 0: no marker).  Returns the pages allocated: the
 * "= ACTUAL" of the trace.  The state in @ractl->ra is not touched.
 */
unsigned long hist_read_range(struct readahead_control *ractl,
			      pgoff_t start, unsigned long nr,
			      unsigned long lookahead);

/* One readahead decision, printed in the debugfs trace format. */
struct hist_decision {
	const char *pattern;
	pgoff_t index;
	unsigned long req;
	pgoff_t start;
	unsigned long size, async_size, actual;
	bool fault;
	int miss;		/* printed as ", miss=M" when fault */
};
void hist_trace(struct readahead_control *ractl,
		const struct hist_decision *d);

/* A model's on-demand decision: @hit is a marker hit, @fault a fault. */
typedef void (*hist_ondemand_fn)(struct readahead_control *ractl, bool hit,
				 unsigned long req, bool fault);
/* Read the window in the file's state and trace @d with it. */
void hist_submit(struct readahead_control *ractl, struct hist_decision *d);
/* The 2009 page_cache_sync_readahead() and ..._async_readahead(). */
void hist_sync(struct readahead_control *ractl, unsigned long req,
	       hist_ondemand_fn ondemand);
void hist_async(struct readahead_control *ractl, struct folio *folio,
		unsigned long req, bool fault, hist_ondemand_fn ondemand);

/* force_page_cache_readahead(): 2 MB chunks, no state, traced fadvise. */
void hist_force(struct readahead_control *ractl, unsigned long nr);
void hist_unbounded(struct readahead_control *ractl, unsigned long nr,
		    unsigned long lookahead);
void hist_expand(struct readahead_control *ractl, loff_t start, size_t len);
ssize_t hist_ksys_readahead(int fd, loff_t offset, size_t count);
int hist_fadvise(struct file *file, loff_t offset, loff_t len, int advice);
void hist_state_init(struct file_ra_state *ra,
		     struct address_space *mapping);

#endif /* RA_REPLAY_MODELS_H */
