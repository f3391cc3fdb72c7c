// SPDX-License-Identifier: GPL-2.0
/*
 * models.c - what the two 2009 readahead models share.
 *
 * Owns the window sizing rules both kernels used (the first window: the
 * request rounded up to a power of two, x4 when at most max/32, x2 when
 * at most max/4, else max; the next one: x4 while under max/16, else x2,
 * never above max), the page cache side of a readahead (look up each
 * page, allocate the missing ones, put the marker on the first page of
 * the lookahead part if it is new, submit the contiguous runs under one
 * plug), the trace line in the debugfs format, and the entry points that
 * did not change between the two kernels: forced readahead (fadvise
 * WILLNEED, readahead(2)) and the state's initialisation.
 *
 * Simplifications, the same for both models: max_sane_readahead() (a
 * bound from free memory) and the read-congestion check that skipped
 * async readahead on a congested queue are left out (the replay machines
 * have memory to spare and queues far below congestion); pages are
 * order 0; readahead_expand() does nothing (2009 had no such call).
 */
#include "models.h"

#include <trace/events/readahead.h>

#define HIST_FORCE_CHUNK	(SZ_2M / PAGE_SIZE)

pgoff_t hist_next_hole(struct address_space *mapping, pgoff_t index,
		       unsigned long max_scan)
{
	unsigned long i;

	for (i = 0; i < max_scan; i++) {
		if (!xa_load(&mapping->i_pages, index))
			break;
		if (++index == 0)
			break;
	}
	return index;
}

pgoff_t hist_prev_hole(struct address_space *mapping, pgoff_t index,
		       unsigned long max_scan)
{
	unsigned long i;

	for (i = 0; i < max_scan; i++) {
		if (!xa_load(&mapping->i_pages, index))
			break;
		if (--index == ULONG_MAX)
			break;
	}
	return index;
}

unsigned long hist_init_size(unsigned long req, unsigned long max)
{
	unsigned long size = roundup_pow_of_two(req);

	if (size <= max / 32)
		return size * 4;
	if (size <= max / 4)
		return size * 2;
	return max;
}

unsigned long hist_next_size(unsigned long cur, unsigned long max)
{
	unsigned long size = cur < max / 16 ? 4 * cur : 2 * cur;

	return min(size, max);
}

/* Hand the run gathered in @ractl to the filesystem. */
static void hist_submit_run(struct readahead_control *ractl)
{
	const struct address_space_operations *aops = ractl->mapping->a_ops;
	struct folio *folio;

	if (!readahead_count(ractl))
		return;
	if (aops->readahead) {
		aops->readahead(ractl);
		/* Pages the filesystem left: drop them, as read_pages(). */
		while ((folio = readahead_folio(ractl))) {
			folio_get(folio);
			filemap_remove_folio(folio);
			folio_unlock(folio);
			folio_put(folio);
		}
	} else {
		while ((folio = readahead_folio(ractl)))
			aops->read_folio(ractl->file, folio);
	}
}

unsigned long hist_read_range(struct readahead_control *ractl,
			      pgoff_t start, unsigned long nr,
			      unsigned long lookahead)
{
	struct address_space *mapping = ractl->mapping;
	loff_t isize = i_size_read(mapping->host);
	gfp_t gfp = readahead_gfp_mask(mapping);
	unsigned long i, added = 0;
	struct blk_plug plug;
	pgoff_t last;

	if (isize <= 0 || !nr)
		return 0;
	last = (isize - 1) >> PAGE_SHIFT;
	blk_start_plug(&plug);
	ractl->_index = start;
	ractl->_nr_pages = 0;
	ractl->_batch_count = 0;
	for (i = 0; i < nr && start + i <= last; i++) {
		pgoff_t index = start + i;
		struct folio *folio = NULL;

		if (!xa_load(&mapping->i_pages, index)) {
			folio = filemap_alloc_folio(gfp, 0);
			if (!folio)
				break;
			if (filemap_add_folio(mapping, folio, index, gfp) < 0) {
				folio_put(folio);
				folio = NULL;
			}
		}
		if (!folio) {
			/* A hole in the run: submit what is before it. */
			hist_submit_run(ractl);
			ractl->_index = index + 1;
			ractl->_nr_pages = 0;
			ractl->_batch_count = 0;
			continue;
		}
		if (lookahead && i == nr - lookahead)
			folio_set_readahead(folio);
		ractl->_nr_pages++;
		added++;
	}
	hist_submit_run(ractl);
	blk_finish_plug(&plug);
	return added;
}

void hist_trace(struct readahead_control *ractl,
		const struct hist_decision *d)
{
	struct inode *inode = ractl->mapping->host;
	struct file *file = ractl->file;
	char miss[READAHEAD_TRACE_MISS_LEN] = "";

	if (d->fault)
		snprintf(miss, sizeof(miss), ", miss=%d", d->miss);
	pr_info(READAHEAD_TRACE_FMT "\n",
		d->pattern, task_pid_nr(current), current->comm,
		MAJOR(inode->i_sb->s_dev), MINOR(inode->i_sb->s_dev),
		inode->i_sb->s_id, inode->i_ino,
		file ? (const char *)file->f_path.dentry->d_name.name : "",
		d->index, d->req, d->start, d->size, d->async_size,
		d->start > d->index, miss, d->actual);
}

void hist_force(struct readahead_control *ractl, unsigned long nr)
{
	struct hist_decision d = {
		.pattern = "fadvise",
		.index = readahead_index(ractl),
		.req = nr,
		.start = readahead_index(ractl),
		.size = nr,
	};
	pgoff_t index = d.start;

	while (nr) {
		unsigned long chunk = min_t(unsigned long, nr,
					    HIST_FORCE_CHUNK);

		d.actual += hist_read_range(ractl, index, chunk, 0);
		if (index + chunk < index)
			break;
		index += chunk;
		nr -= chunk;
	}
	hist_trace(ractl, &d);
}

void hist_unbounded(struct readahead_control *ractl, unsigned long nr,
		    unsigned long lookahead)
{
	hist_read_range(ractl, readahead_index(ractl), nr, lookahead);
}

void hist_expand(struct readahead_control *ractl, loff_t start, size_t len)
{
}

ssize_t hist_ksys_readahead(int fd, loff_t offset, size_t count)
{
	struct fd f = fdget(fd);
	ssize_t ret = -EBADF;

	if (f.file && (f.file->f_mode & FMODE_READ)) {
		ret = -EINVAL;
		if (offset >= 0 && f.file->f_mapping &&
		    S_ISREG(file_inode(f.file)->i_mode))
			ret = hist_fadvise(f.file, offset, count,
					   POSIX_FADV_WILLNEED);
	}
	fdput(f);
	return ret;
}

int hist_fadvise(struct file *file, loff_t offset, loff_t len, int advice)
{
	return h_generic_fadvise(hist_force, file, offset, len, advice);
}

void hist_state_init(struct file_ra_state *ra,
		     struct address_space *mapping)
{
	ra->ra_pages = inode_to_bdi(mapping->host)->ra_pages;
	ra->prev_pos = -1;
}

void hist_submit(struct readahead_control *ractl, struct hist_decision *d)
{
	struct file_ra_state *ra = ractl->ra;

	d->start = ra->start;
	d->size = ra->size;
	d->async_size = ra->async_size;
	d->actual = hist_read_range(ractl, ra->start, ra->size,
				    ra->async_size);
	hist_trace(ractl, d);
}

void hist_sync(struct readahead_control *ractl, unsigned long req,
	       hist_ondemand_fn ondemand)
{
	struct file *file = ractl->file;

	if (!ractl->ra->ra_pages)
		return;
	/* 2009 had no FMODE_RANDOM: POSIX_FADV_RANDOM read as asked. */
	if (file && (file->f_mode & FMODE_RANDOM)) {
		hist_read_range(ractl, readahead_index(ractl), req, 0);
		return;
	}
	ondemand(ractl, false, req, false);
}

void hist_async(struct readahead_control *ractl, struct folio *folio,
		unsigned long req, bool fault, hist_ondemand_fn ondemand)
{
	if (!ractl->ra->ra_pages || !folio_test_readahead(folio))
		return;
	if (folio_test_writeback(folio))
		return;
	folio_clear_readahead(folio);
	ondemand(ractl, true, req, fault);
}
