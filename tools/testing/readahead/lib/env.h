/* SPDX-License-Identifier: GPL-2.0 */
/*
 * env.h - what a program built on the library must provide: the
 * kernel's page cache, the block layer's plugging and the files, each
 * in a file of that name.  The unit harness provides them in memory
 * (harness/pagecache.c, harness/blkq.c, harness/fs.c), the simulator
 * over its disks and its memory (sim/pagecache.c, sim/blkq.c,
 * sim/fs.c); a program links exactly one of the two.  Included by
 * shim.h after its base types; the structures are shim.h's.
 */
#ifndef RA_ENV_H
#define RA_ENV_H

struct address_space;
struct blk_plug;
struct fd;
struct file;
struct folio;
struct readahead_control;
struct xarray;

/* ---- pagecache.c: folios and the page cache's index ---- */

struct folio *filemap_alloc_folio(gfp_t gfp, unsigned int order);
void folio_get(struct folio *folio);
void folio_put(struct folio *folio);
void folio_unlock(struct folio *folio);
void *xa_load(struct xarray *xa, unsigned long index);
int filemap_add_folio(struct address_space *mapping, struct folio *folio,
		      pgoff_t index, gfp_t gfp);
void filemap_remove_folio(struct folio *folio);
pgoff_t page_cache_next_miss(struct address_space *mapping, pgoff_t index,
			     unsigned long max_scan);
pgoff_t page_cache_prev_miss(struct address_space *mapping, pgoff_t index,
			     unsigned long max_scan);

/* ---- blkq.c: plugging, around a readahead's submissions ---- */

void blk_start_plug(struct blk_plug *plug);
void blk_finish_plug(struct blk_plug *plug);

/* ---- fs.c: the descriptor table and fadvise ---- */

struct fd fdget(int fd);
/* 6.1's generic_fadvise(), reading ahead with @force. */
int h_generic_fadvise(void (*force)(struct readahead_control *,
				     unsigned long),
		      struct file *file, loff_t offset, loff_t len,
		      int advice);

#endif /* RA_ENV_H */
