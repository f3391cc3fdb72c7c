/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lib.h - the library every program of the bench links (lib/): the
 * kernel environment that mm/readahead.c and the pristine 6.12 and 6.1
 * files are compiled against, the read and fault paths that call them
 * (filemap.h), the observation of those calls (ra_call.h), and the seam
 * between the implementations (struct ra_impl).
 *
 * What a program must provide around it, the page cache, the block
 * layer's plugging and the files, is env.h: the unit harness provides it
 * in memory (harness/), the simulator over simulated disks (sim/).
 */
#ifndef RA_LIB_H
#define RA_LIB_H

#include "shim.h"
#include "ra_call.h"

/* One readahead implementation, as the rest of the kernel calls it. */
struct ra_impl {
	const char *name;
	void (*state_init)(struct file_ra_state *ra,
			   struct address_space *mapping);
	void (*sync_ra)(struct readahead_control *ractl, unsigned long req);
	void (*async_ra)(struct readahead_control *ractl, struct folio *folio,
			 unsigned long req);
	void (*force_ra)(struct readahead_control *ractl, unsigned long nr);
	void (*unbounded)(struct readahead_control *ractl, unsigned long nr,
			  unsigned long lookahead);
	void (*expand)(struct readahead_control *ractl, loff_t start,
		       size_t len);
	ssize_t (*ksys_readahead)(int fd, loff_t offset, size_t count);
	/* vfs_fadvise() as the implementation's readahead(2) reaches it. */
	int (*fadvise)(struct file *file, loff_t offset, loff_t len,
		       int advice);
	/* The page fault policy: 6.1 keeps it in mm/filemap.c. */
	struct file *(*fault_sync)(struct vm_fault *vmf);
	struct file *(*fault_async)(struct vm_fault *vmf, struct folio *folio);
	/*
	 * What fault-around found: @hits cached pages, the faulting one
	 * among them if @mapped (NULL: a kernel without fault-around).
	 */
	void (*map_hits)(struct vm_fault *vmf, unsigned int hits, bool mapped);
	/*
	 * RA_IMPL_* bits, for models of older kernels (replay/) and what
	 * the series changes around the readahead code; 0 (pristine) is
	 * 6.1's behaviour.  Only the simulator reads them.
	 */
	unsigned int flags;
};

/*
 * The fault path waits on the page lock first and calls fault_async
 * after it, also after a miss (then with FAULT_FLAG_TRIED in vmf->flags),
 * as 2.6.30's filemap_fault() did.
 */
#define RA_IMPL_FAULT_LOCK_FIRST	0x1u
/* No fault-around (before 3.15): every page touched faults once. */
#define RA_IMPL_NO_FAULT_AROUND		0x2u
/* The implementation prints its own trace lines through pr_info(). */
#define RA_IMPL_OWN_TRACE		0x4u
/*
 * The page cache of 6.1: page_cache_next_miss() that finds no hole
 * returns the last index it looked at (6.12 returns the one after), and
 * no mapping has a minimum folio order.  Pristine 6.1, and ours built as
 * the 6.1 backport.
 */
#define RA_IMPL_PAGE_CACHE_61		0x8u
/*
 * filemap_get_pages()'s mm_filemap_get_pages names the pages of the
 * batch it returns, also after dropping the batch's last folio (waited
 * on, or failed), where 6.12 names the read's whole range and fires
 * nothing after a drop: the series' filemap.c, ours on 6.12.
 */
#define RA_IMPL_TRACE_BATCH		0x10u

extern const struct ra_impl ra_ours;
extern const struct ra_impl ra_pristine;	/* 6.12 */
extern const struct ra_impl ra_pristine61;

/* ---- the library's own helpers ---- */

/*
 * The folios of one request as h_folios() and the simulator's --folios
 * print them (folio_runs.c): runs of contiguous unmarked folios of one
 * order, each entry handed to @put once complete; _end() after the last.
 */
struct folio_runs {
	bool open;		/* a run that may still grow */
	pgoff_t first, next;
	unsigned int order;
};
void folio_runs_add(struct folio_runs *r, struct folio *folio,
		    void (*put)(const char *entry));
void folio_runs_end(struct folio_runs *r, void (*put)(const char *entry));

/* The advice itself, shared with the simulator (fadvise.c). */
int shim_generic_fadvise(struct file *file, loff_t offset, loff_t len,
			 int advice,
			 void (*force)(struct readahead_control *,
				       unsigned long),
			 void (*drop)(struct address_space *, pgoff_t,
				      pgoff_t));

/* The debugfs files of the running kernel ("readahead/stats"...). */
ssize_t h_debugfs_write(const char *path, const char *text);
ssize_t h_debugfs_read(const char *path, char *buf, size_t size);
/*
 * Column @column (0: readahead, 1: eof_hit...) of @pattern's row of the
 * stats table; -1 where there is none (the pristine file has no table).
 */
long h_stat(const char *pattern, unsigned int column);

#endif /* RA_LIB_H */
