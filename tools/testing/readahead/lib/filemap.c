// SPDX-License-Identifier: GPL-2.0
/*
 * filemap.c - the read(2) and fault paths of 6.1's mm/filemap.c, one
 * step at a time.
 *
 * See filemap.h.  Linked by the harness and the simulator alike.
 */
#include "filemap.h"
#include "ra_call.h"

/* Cached folios from @index to @last, up to a not uptodate or marked one. */
static int read_batch(struct address_space *mapping, pgoff_t index,
		      pgoff_t last, struct folio **batch)
{
	int n = 0;

	while (index <= last && n < FILEMAP_BATCH) {
		struct folio *folio = xa_load(&mapping->i_pages, index);

		if (!folio)
			break;
		folio_get(folio);
		batch[n++] = folio;
		if (!folio_test_uptodate(folio) || folio_test_readahead(folio))
			break;
		index = folio->index + folio_nr_pages(folio);
	}
	return n;
}

enum filemap_step filemap_get_pages_step(struct file *file, loff_t pos,
					 size_t count, struct folio **batch,
					 int *nr)
{
	struct address_space *mapping = file->f_mapping;
	pgoff_t index = pos >> PAGE_SHIFT;
	pgoff_t last_index = DIV_ROUND_UP(pos + count, PAGE_SIZE);
	struct folio *folio;

retry:
	*nr = read_batch(mapping, index, last_index - 1, batch);
	if (!*nr) {
		ra_call_sync(file, index, last_index - index);
		*nr = read_batch(mapping, index, last_index - 1, batch);
	}
	if (!*nr) {
		/* filemap_create_folio(): the page read alone. */
		folio = filemap_alloc_folio(GFP_KERNEL, 0);
		if (!folio)
			return FILEMAP_NOMEM;
		if (filemap_add_folio(mapping, folio, index, GFP_KERNEL)) {
			folio_put(folio);
			goto retry;
		}
		mapping->a_ops->read_folio(file, folio);
		batch[0] = folio;	/* the allocation's reference */
		*nr = 1;
		return FILEMAP_WAIT_READ;
	}
	folio = batch[*nr - 1];
	if (folio_test_readahead(folio))
		ra_call_async(file, folio, last_index - folio->index);
	if (folio_test_uptodate(folio))
		return FILEMAP_GOT;
	if (folio_test_locked(folio)) {
		/* put_and_wait_on_page_locked(), then look again. */
		folio_put(folio);
		return FILEMAP_WAIT_LOCKED;
	}
	/* filemap_update_page(): read it again, alone. */
	shim_set(folio, PG_locked);
	mapping->a_ops->read_folio(file, folio);
	return FILEMAP_WAIT_READ;
}

enum filemap_step filemap_fault_step(struct vm_fault *vmf,
				     struct filemap_fault *ff,
				     bool lock_first)
{
	struct file *file = vmf->vma->vm_file;
	struct address_space *mapping = file->f_mapping;
	struct folio *folio;

	switch (ff->stage) {
	case FILEMAP_FAULT_START:
		folio = xa_load(&mapping->i_pages, vmf->pgoff);
		ff->async_due = lock_first;
		ff->tried = false;
		ff->major = !folio;
		if (folio) {
			if (!ff->async_due)
				ra_call_fault(vmf, folio);
			folio_get(folio);
		} else {
			ra_call_fault(vmf, NULL);
			ff->tried = true;
			folio = xa_load(&mapping->i_pages, vmf->pgoff);
			if (folio) {
				folio_get(folio);
			} else {
				/* FGP_CREAT | FGP_FOR_MMAP: added, unlocked. */
				folio = filemap_alloc_folio(GFP_KERNEL, 0);
				BUG_ON(!folio);
				BUG_ON(filemap_add_folio(mapping, folio,
							 vmf->pgoff,
							 GFP_KERNEL));
				folio_unlock(folio);
			}
		}
		ff->folio = folio;
		/* fall through */
	case FILEMAP_FAULT_LOCK:
		folio = ff->folio;
		if (folio_test_locked(folio)) {
			ff->stage = FILEMAP_FAULT_LOCK;
			return FILEMAP_WAIT_LOCKED;
		}
		if (ff->async_due) {
			/* 2.6.30: the page lock first, then the marker. */
			ff->async_due = false;
			if (ff->tried)
				vmf->flags |= FAULT_FLAG_TRIED;
			ra_call_fault(vmf, folio);
		}
		if (!folio_test_uptodate(folio)) {
			/* page_not_uptodate: read it again, once. */
			shim_set(folio, PG_locked);
			mapping->a_ops->read_folio(file, folio);
			ff->stage = FILEMAP_FAULT_READ;
			return FILEMAP_WAIT_READ;
		}
		/* fall through */
	case FILEMAP_FAULT_READ:
		ff->read = ff->stage == FILEMAP_FAULT_READ;
		ff->stage = FILEMAP_FAULT_START;
		break;
	}
	return FILEMAP_GOT;
}
