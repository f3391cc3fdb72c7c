/* SPDX-License-Identifier: GPL-2.0 */
/*
 * filemap.h - the read(2) path of 6.1's mm/filemap.c, one step at a time.
 *
 * filemap_read() copies from batches of cached folios that
 * filemap_get_pages() gathers, calling readahead on the way.  Where the
 * kernel sleeps (a folio under I/O), the step returns instead and says
 * on which folio, so that one model serves the harness, whose reads
 * complete at once, and the simulator, whose processes sleep until the
 * disk completes the read and then go on.
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

#endif /* RA_FILEMAP_H */
