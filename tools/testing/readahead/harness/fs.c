// SPDX-License-Identifier: GPL-2.0
/*
 * fs.c - the harness's files: a tiny filesystem whose ->readahead and
 * ->read_folio complete at once (or are held in flight) and log what they
 * read, its files and the descriptor table behind fdget(), and 6.1's
 * generic fadvise over them; what lib/env.h asks of a program's fs.c.
 */
#include "harness.h"
#include "fs.h"

#include <string.h>

#define MAX_FILES	64

/* Reads held in flight by h_hold_reads(), each with a reference. */
static bool holding_reads;
static struct folio **held_reads;
static unsigned long nr_held_reads, held_reads_cap;

static void read_done(struct folio *folio)
{
	folio_mark_uptodate(folio);
	folio_unlock(folio);
}

/*
 * The device completes at once: the folio is read and unlocked.  While
 * reads are held, it stays locked and not uptodate until
 * h_complete_reads().
 */
static void complete_read(struct folio *folio)
{
	if (!holding_reads) {
		read_done(folio);
		return;
	}
	if (nr_held_reads == held_reads_cap) {
		held_reads_cap = held_reads_cap ? 2 * held_reads_cap : 256;
		held_reads = realloc(held_reads,
				     held_reads_cap * sizeof(*held_reads));
		if (!held_reads)
			shim_bug(__FILE__, __LINE__, "out of host memory");
	}
	folio_get(folio);
	held_reads[nr_held_reads++] = folio;
}

void h_hold_reads(bool on)
{
	holding_reads = on;
}

bool h_reads_held(void)
{
	return holding_reads;
}

void h_complete_reads(void)
{
	unsigned long i;

	for (i = 0; i < nr_held_reads; i++) {
		read_done(held_reads[i]);
		folio_put(held_reads[i]);
	}
	nr_held_reads = 0;
}

struct h_fs_behaviour h_fs = { .take = ULONG_MAX };

/*
 * A congested FUSE connection leaves what is left of a request unread
 * when all of it is asynchronous, reading rac->ra to know.
 */
static bool fs_congested_skip(struct readahead_control *ractl)
{
	if (!ractl->ra)
		shim_bug(__FILE__, __LINE__,
			 "->readahead found rac->ra NULL: FUSE oopses here");
	return ractl->ra->async_size >= readahead_count(ractl);
}

static void fs_readahead(struct readahead_control *ractl)
{
	pgoff_t first, marked = ULONG_MAX;
	unsigned long nr, taken = 0;
	struct folio *folio;

	if (h_fs.expand_align) {
		unsigned long a = h_fs.expand_align;
		pgoff_t lo = round_down(readahead_index(ractl), a);
		pgoff_t hi = round_down(readahead_index(ractl) +
					readahead_count(ractl) + a - 1, a);
		loff_t isize = i_size_read(ractl->mapping->host);

		/* Nor past the end of the file, as netfs clamps it. */
		hi = min_t(pgoff_t, hi, DIV_ROUND_UP(isize, PAGE_SIZE));

		/* Offsets past LLONG_MAX cannot be asked for. */
		if (hi <= (pgoff_t)(LLONG_MAX >> PAGE_SHIFT))
			ra_impl->expand(ractl, (loff_t)lo << PAGE_SHIFT,
					(hi - lo) << PAGE_SHIFT);
	}
	first = readahead_index(ractl);
	nr = min(readahead_count(ractl), h_fs.take);
	while (taken < nr) {
		if (h_fs.congested && fs_congested_skip(ractl)) {
			nr = taken;
			break;
		}
		folio = readahead_folio(ractl);
		if (!folio)
			break;
		if (folio_test_readahead(folio) && marked == ULONG_MAX)
			marked = folio->index;
		h_log_folio(folio);
		complete_read(folio);
		taken += folio_nr_pages(folio);
	}
	h_log_folios_end();
	if (nr)
		h_log_io(ractl->mapping, first, nr, marked, false);
}

static int fs_read_folio(struct file *file, struct folio *folio)
{
	(void)file;
	h_log_folio(folio);
	h_log_folios_end();
	h_log_io(folio->mapping, folio->index, folio_nr_pages(folio),
		  folio_test_readahead(folio) ? folio->index : ULONG_MAX,
		  true);
	complete_read(folio);
	return 0;
}

static const struct address_space_operations fs_aops = {
	.read_folio = fs_read_folio,
	.readahead = fs_readahead,
};

/* ---- files and descriptors ---- */

static struct h_file *fd_table[MAX_FILES];
static unsigned long next_ino = 100;
/* Every harness file lives on one disk, as /dev/sdb (8:16). */
static struct super_block harness_sb = { .s_dev = MKDEV(8, 16),
					 .s_id = "sdb" };

struct fd fdget(int fd)
{
	struct fd f = { NULL, 0 };

	if (fd >= 0 && fd < MAX_FILES && fd_table[fd])
		f.file = &fd_table[fd]->file;
	return f;
}

static struct h_file *h_alloc(struct inode *shared, umode_t mode,
			      fmode_t fmode)
{
	struct h_file *f = calloc(1, sizeof(*f));
	int fd;

	if (!f)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	ra_call_observer = &h_observer;
	for (fd = 3; fd < MAX_FILES && fd_table[fd]; fd++)
		;
	if (fd == MAX_FILES)
		shim_bug(__FILE__, __LINE__, "harness descriptor table full");
	fd_table[fd] = f;
	f->fd = fd;
	f->task.pid = 4000 + fd;
	snprintf(f->task.comm, sizeof(f->task.comm), "fio");
	if (!shared) {
		shared = &f->inode;
		shared->i_mode = mode;
		shared->i_ino = next_ino++;
		shared->i_bdi = &f->bdi;
		shared->i_sb = &harness_sb;
		shared->i_data.host = shared;
		shared->i_data.a_ops = &fs_aops;
		shared->i_data.gfp_mask = GFP_KERNEL;
	}
	snprintf(f->name, sizeof(f->name), "f%lu", shared->i_ino);
	f->dentry.d_name.name = (const unsigned char *)f->name;
	f->file.f_path.dentry = &f->dentry;
	f->file.f_inode = shared;
	f->file.f_mapping = &shared->i_data;
	f->file.f_mode = fmode;
	ra_impl->state_init(&f->file.f_ra, f->file.f_mapping);
	return f;
}

struct h_file *h_create(loff_t size, unsigned long ra_kb)
{
	struct h_file *f = h_alloc(NULL, S_IFREG | 0644, FMODE_READ);

	f->inode.i_size = size;
	f->bdi.ra_pages = ra_kb * 1024 / PAGE_SIZE;
	/* 6.1's default max_sectors, 1280 KB, as the optimal I/O size. */
	f->bdi.io_pages = 320;
	/* Initialise again now that the device has its read_ahead_kb. */
	memset(&f->file.f_ra, 0, sizeof(f->file.f_ra));
	ra_impl->state_init(&f->file.f_ra, f->file.f_mapping);
	return f;
}

struct h_file *h_reopen(struct h_file *f)
{
	return h_alloc(f->file.f_inode, 0, FMODE_READ);
}

int h_open_special(umode_t mode, fmode_t fmode)
{
	return h_alloc(NULL, mode, fmode)->fd;
}

static bool owns_inode(struct h_file *f)
{
	return f->file.f_inode == &f->inode;
}

/*
 * Remove the folios of @mapping that start in [first, last]: those
 * locked under I/O are skipped with @skip_locked, a BUG without.  Walks
 * what is cached, not the range (it may span 2^51 pages), and collects
 * first: removal moves the table.
 */
static void remove_folios(struct address_space *mapping, pgoff_t first,
			  pgoff_t last, bool skip_locked)
{
	struct xarray *xa = &mapping->i_pages;
	unsigned long i, n = 0;
	struct folio **victims;

	victims = calloc(xa->count + 1, sizeof(*victims));
	if (!victims)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	for (i = 0; i < xa->capacity; i++) {
		struct folio *folio = xa->slots[i];

		if (!folio || xa->keys[i] != folio->index ||
		    folio->index < first || folio->index > last)
			continue;
		if (folio_test_locked(folio)) {
			BUG_ON(!skip_locked);
			continue;
		}
		victims[n++] = folio;
	}
	for (i = 0; i < n; i++)
		filemap_remove_folio(victims[i]);
	free(victims);
}

void h_drop_cache(struct h_file *f)
{
	remove_folios(f->file.f_mapping, 0, ULONG_MAX, false);
}

void h_close(struct h_file *f)
{
	int fd;

	/* An inode goes with the last file open on it. */
	for (fd = 0; fd < MAX_FILES; fd++)
		if (fd_table[fd] && fd_table[fd] != f &&
		    fd_table[fd]->file.f_inode == &f->inode)
			shim_bug(__FILE__, __LINE__, "inode still open");
	if (owns_inode(f)) {
		h_drop_cache(f);
		xa_destroy_index(&f->inode.i_data.i_pages);
	}
	fd_table[f->fd] = NULL;
	/* Its reader is gone: a tracepoint fired now names the harness. */
	if (shim_current == &f->task)
		shim_current = &shim_init_task;
	free(f);
}

void h_close_all(void)
{
	int fd;

	h_hold_reads(false);
	h_complete_reads();

	/* Reopened files first: they borrow another file's inode. */
	for (fd = 0; fd < MAX_FILES; fd++)
		if (fd_table[fd] && !owns_inode(fd_table[fd]))
			h_close(fd_table[fd]);
	for (fd = 0; fd < MAX_FILES; fd++)
		if (fd_table[fd])
			h_close(fd_table[fd]);
	next_ino = 100;
}

void h_set_large_folios(struct h_file *f, bool on)
{
	f->file.f_mapping->large_folios = on;
}

/* Blocks of 2^@order pages: large folios, none smaller (6.12). */
void h_set_min_order(struct h_file *f, unsigned int order)
{
	f->file.f_mapping->large_folios = true;
	f->file.f_mapping->min_order = order;
}

/* Reclaim evicts the cached pages @first.. @first + @nr - 1. */
void h_evict(struct h_file *f, pgoff_t first, unsigned long nr)
{
	remove_folios(f->file.f_mapping, first, first + nr - 1, false);
}

/*
 * An uptodate folio of @order at @index carrying the readahead marker,
 * as another reader's window leaves it.
 */
void h_populate_marked(struct h_file *f, pgoff_t index, unsigned int order)
{
	struct folio *folio = filemap_alloc_folio(GFP_KERNEL, order);

	BUG_ON(filemap_add_folio(f->file.f_mapping, folio, index,
				 GFP_KERNEL));
	folio_set_readahead(folio);
	complete_read(folio);
	folio_put(folio);
}

bool h_cached(struct h_file *f, pgoff_t index)
{
	return xa_load(&f->file.f_mapping->i_pages, index) != NULL;
}

bool h_marked(struct h_file *f, pgoff_t index)
{
	struct folio *folio = xa_load(&f->file.f_mapping->i_pages, index);

	return folio && folio_test_readahead(folio);
}

void h_populate(struct h_file *f, pgoff_t first, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		struct folio *folio = filemap_alloc_folio(GFP_KERNEL, 0);

		if (filemap_add_folio(f->file.f_mapping, folio, first + i,
				      GFP_KERNEL) == 0)
			complete_read(folio);
		folio_put(folio);
	}
}

/* ---- fadvise: what 6.1's generic_fadvise() does, for both sides ---- */

/* Drop the clean, unlocked folios of [first, last] from the cache. */
static void drop_range(struct address_space *mapping, pgoff_t first,
		       pgoff_t last)
{
	remove_folios(mapping, first, last, true);
}

int h_fadvise(int fd, loff_t offset, loff_t len, int advice)
{
	struct fd f = fdget(fd);

	if (!f.file)
		return -EBADF;
	shim_current = &fd_table[fd]->task;
	return ra_impl->fadvise(f.file, offset, len, advice);
}

ssize_t h_readahead(int fd, loff_t offset, size_t count)
{
	if (fd >= 0 && fd < MAX_FILES && fd_table[fd])
		shim_current = &fd_table[fd]->task;
	return ra_impl->ksys_readahead(fd, offset, count);
}

/* The implementation's force_page_cache_ra(), logged as a call. */
static void (*fadvise_force)(struct readahead_control *, unsigned long);

static void logged_force(struct readahead_control *ractl, unsigned long nr)
{
	struct ra_call c;

	ra_call_begin(&c, RA_CALL_FADVISE, ractl->file, readahead_index(ractl),
		      nr);
	fadvise_force(ractl, nr);
	ra_call_end(&c);
}

int h_generic_fadvise(void (*force)(struct readahead_control *,
				     unsigned long),
		      struct file *file, loff_t offset, loff_t len, int advice)
{
	fadvise_force = force;
	return shim_generic_fadvise(file, offset, len, advice, logged_force,
				    drop_range);
}
