/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filemap.h - the read(2) and fault paths of 6.1's mm/filemap.c, one
 * step at a time.
 *
 * filemap_read() copies from batches of cached folios that
 * filemap_get_pages() gathers, and filemap_fault() finds, reads and
 * locks the folio of a page fault, both calling readahead on the way.
 * Where the kernel sleeps (a folio under I/O), a step returns instead
 * and says on which folio, so that one model serves the harness, whose
 * reads complete at once, and the simulator, whose processes sleep
 * until the disk completes the read and then go on.
 */
#ifndef RA_FILEMAP_H
#define RA_FILEMAP_H

#include "shim.h"

#define FILEMAP_BATCH	15	/* PAGEVEC_SIZE */

enum filemap_step {
	/* batch[0 .. *nr) are uptodate, referenced: copy from them. */
	FILEMAP_GOT,
	/*
	 * A read of batch[*nr - 1] was started, the folio locked: wait for
	 * it, then copy from the batch if it is uptodate (the read failed
	 * if not: drop it, as filemap_get_pages() returns the error).
	 */
	FILEMAP_WAIT_READ,
	/*
	 * batch[*nr - 1] is locked under a read someone else started; its
	 * reference is already dropped: wait for it, then copy from the
	 * rest of the batch, or step again if that is empty.
	 */
	FILEMAP_WAIT_LOCKED,
	/*
	 * The page could not be allocated (filemap_create_folio()): the
	 * read fails with -ENOMEM; *nr is 0.
	 */
	FILEMAP_NOMEM,
};

/*
 * One filemap_get_pages() for a read of @count bytes at @pos (inside the
 * file): the batch lookup up to a folio that is not uptodate or carries
 * PG_readahead; on a miss, sync readahead and the lookup again; if still
 * nothing, the page read alone (filemap_create_folio()); async readahead
 * on a marked folio; a folio not uptodate read again alone
 * (filemap_update_page()).  Readahead goes through ra_call.c.
 */
enum filemap_step filemap_get_pages_step(struct file *file, loff_t pos,
					 size_t count, struct folio **batch,
					 int *nr);

enum filemap_fault_stage {
	FILEMAP_FAULT_START,	/* a new fault */
	FILEMAP_FAULT_LOCK,	/* waiting for another's read of the folio */
	FILEMAP_FAULT_READ,	/* waiting for the read this fault started */
};

/* One page fault in progress, between the steps of filemap_fault_step(). */
struct filemap_fault {
	enum filemap_fault_stage stage;
	struct folio *folio;	/* referenced, until the caller puts it */
	bool major;		/* the page was not cached */
	bool read;		/* FILEMAP_GOT after this fault's own read */
	bool async_due;		/* lock_first: fault_async once unlocked */
	bool tried;		/* ... after a miss: FAULT_FLAG_TRIED */
};

/*
 * One step of 6.1's filemap_fault() on vmf->pgoff (inside the file),
 * after fault-around: a hit calls the async fault readahead, a miss the
 * sync one and, if the page is still missing, adds it; then the folio
 * is waited for while locked (FILEMAP_WAIT_LOCKED: step again after),
 * and read once more if not uptodate (FILEMAP_WAIT_READ: step again
 * after).  FILEMAP_GOT: ff->folio holds the page, uptodate unless the
 * read of ff->read failed.  @lock_first (RA_IMPL_FAULT_LOCK_FIRST, the
 * 2009 models in the simulator) calls the async readahead of a hit, or
 * of a miss with FAULT_FLAG_TRIED, only once the folio is unlocked.
 */
enum filemap_step filemap_fault_step(struct vm_fault *vmf,
				     struct filemap_fault *ff,
				     bool lock_first);

#endif /* RA_FILEMAP_H */
