// SPDX-License-Identifier: GPL-2.0
/*
 * fs.c - the simulator's tiny filesystem, open files and fadvise.
 *
 * Owns the mapping from file pages to sectors: each file is one extent,
 * laid out in creation order in its partition (1 MB aligned), as a fresh
 * filesystem written by fio would be.  Its ->readahead takes every folio
 * the readahead code hands it and submits one bio per contiguous run;
 * ->read_folio submits one folio.  Both leave the folios locked: the
 * block layer's completion makes them uptodate, a large folio once all
 * the bios holding its pages are done (split at max_sectors_kb, a folio
 * may span several), failed if one of them failed.  With --folios, each
 * ->readahead call's folios are logged (fs_folio_log).  A file has
 * large folios when its jobs say so (large_folios=1).  Also here: opening a
 * file (one file_ra_state per open file, initialised by the running
 * implementation), generic fadvise as 6.1's generic_fadvise() behaves,
 * and the descriptor lookup (the simulated jobs use no descriptors).
 */
#include "jobs.h"

#include <string.h>

#define EXTENT_ALIGN	2048	/* sectors: 1 MB */

uint64_t fs_pages_submitted;
FILE *fs_folio_log;
static unsigned long next_ino = 12;

/* @f goes to the disk: the conservation checks, per page; its I/O state. */
static inline void check_folio(struct sim_inode *si, struct folio *f)
{
	pgoff_t eof = DIV_ROUND_UP(si->size, PAGE_SIZE);
	pgoff_t i, end = f->index + folio_nr_pages(f);

	for (i = f->index; i < end; i++) {
		if (i >= eof)
			si->past_eof++;
		if (folio_test_uptodate(f))
			si->reread++;
		if (i < eof) {
			uint8_t bit = 1u << (i & 7);

			if (si->read_map[i >> 3] & bit)
				si->read_twice++;
			si->read_map[i >> 3] |= bit;
			if (si->used_map)
				si->used_map[i >> 3] &= ~bit;
		}
	}
	sim_page(f)->io_left = folio_nr_pages(f);
	shim_clear(f, PG_error);
	fs_pages_submitted += folio_nr_pages(f);
}

/*
 * bi_end_io: the pages of @b are read, or failed; a folio whose last
 * pages these were is uptodate (or failed) and its sleepers wake.
 */
static void fs_end_io(struct bio *b, int err)
{
	struct sim_inode *si = b->private;
	pgoff_t i = b->index, end = b->index + b->nr;

	while (i < end) {
		struct folio *f = cache_lookup(si, i);
		struct sim_page *p = sim_page(f);
		pgoff_t n;

		if (!f || !folio_test_locked(f))
			sim_die("sim: I/O completion for a page not under I/O");
		if (!f->order) {
			/* one page, in one bio */
			if (err)
				cache_io_error(f);
			else
				cache_io_done(f);
			i++;
			continue;
		}
		n = min(end, f->index + folio_nr_pages(f)) - i;
		if (n > p->io_left)
			sim_die("sim: a folio completed twice");
		p->io_left -= n;
		if (err)
			shim_set(f, PG_error);
		i += n;
		if (p->io_left)
			continue;
		if (shim_test(f, PG_error))
			cache_io_error(f);
		else
			cache_io_done(f);
	}
}

static void fs_submit(struct sim_inode *si, pgoff_t index, unsigned int nr,
		      bool ahead)
{
	struct bio *b = bio_alloc();

	b->disk = si->part->disk;
	b->pid = current->pid;
	b->cpu = sim_task_cpu(current);
	b->sector = si->start + (uint64_t)index * PAGE_SECTORS;
	b->nr = nr;
	b->end_io = fs_end_io;
	b->private = si;
	b->index = index;
	b->ahead = ahead;
	b->part = si->part;
	submit_bio(b);
}

/* The --folios log: a line per request, its folios (folio_runs.c). */
static struct folio_runs run;

static void log_entry(const char *entry)
{
	fprintf(fs_folio_log, " %s", entry);
}

static void fs_readahead(struct readahead_control *ractl)
{
	struct sim_inode *si = SI(ractl->mapping->host);
	pgoff_t first = 0;
	unsigned int nr = 0;
	struct folio *f;

	if (fs_folio_log)
		fprintf(fs_folio_log, "%s:", si->name);
	while ((f = readahead_folio(ractl))) {
		unsigned int fnr = folio_nr_pages(f);

		check_folio(si, f);
		cache_st.read_ahead += fnr;
		if (fs_folio_log)
			folio_runs_add(&run, f, log_entry);
		if (nr && f->index == first + nr) {
			nr += fnr;
			continue;
		}
		if (nr)
			fs_submit(si, first, nr, true);
		first = f->index;
		nr = fnr;
	}
	if (fs_folio_log) {
		folio_runs_end(&run, log_entry);
		fprintf(fs_folio_log, "\n");
	}
	if (nr)
		fs_submit(si, first, nr, true);
}

void fs_read_folio(struct sim_inode *si, struct folio *f)
{
	check_folio(si, f);
	fs_submit(si, f->index, folio_nr_pages(f), false);
}

static int fs_read_folio_op(struct file *file, struct folio *f)
{
	(void)file;
	fs_read_folio(SI(f->mapping->host), f);
	return 0;
}

static const struct address_space_operations fs_aops = {
	.read_folio = fs_read_folio_op,
	.readahead = fs_readahead,
};

struct sim_inode *fs_create(struct partition *part, const char *name,
			    uint64_t size, bool large_folios)
{
	struct sim_inode *si = calloc(1, sizeof(*si));
	uint64_t nsect = DIV_ROUND_UP(size, 1 << SECTOR_SHIFT);

	if (!si)
		sim_die("sim: out of host memory");
	if (part->next_free + nsect > part->nsect)
		sim_die("sim: %s: %s does not fit in %s", name,
			"file", part->name);
	snprintf(si->name, sizeof(si->name), "%s", name);
	si->read_map = calloc(DIV_ROUND_UP(size, PAGE_SIZE * 8) + 1, 1);
	if (!si->read_map)
		sim_die("sim: out of host memory");
	si->part = part;
	si->size = size;
	/* Where fio's main process reads the metadata (fiomain.c). */
	if (sys.fio_main_ms >= 0 && !part->next_free)
		part->next_free = EXTENT_ALIGN;
	si->start = part->start + part->next_free;
	part->next_free += DIV_ROUND_UP(nsect, EXTENT_ALIGN) * EXTENT_ALIGN;
	si->dentry.d_name.name = (const unsigned char *)si->name;
	part->sb.s_dev = MKDEV(part->major, part->minor);
	snprintf(part->sb.s_id, sizeof(part->sb.s_id), "%s", part->name);
	si->inode.i_sb = &part->sb;
	si->inode.i_size = size;
	si->inode.i_mode = S_IFREG | 0644;
	si->inode.i_ino = next_ino++;
	si->inode.i_bdi = &part->disk->bdi;
	si->inode.i_data.host = &si->inode;
	si->inode.i_data.a_ops = &fs_aops;
	si->inode.i_data.gfp_mask = GFP_KERNEL;
	si->inode.i_data.large_folios = large_folios;
	if (large_folios) {
		si->used_map = calloc(DIV_ROUND_UP(size, PAGE_SIZE * 8) + 1, 1);
		if (!si->used_map)
			sim_die("sim: out of host memory");
	}
	return si;
}

struct sim_file *fs_open(struct sim_inode *si, const struct ra_impl *impl)
{
	struct sim_file *sf = calloc(1, sizeof(*sf));

	if (!sf)
		sim_die("sim: out of host memory");
	sf->si = si;
	sf->file.f_inode = &si->inode;
	sf->file.f_mapping = &si->inode.i_data;
	sf->file.f_mode = FMODE_READ;
	sf->file.f_path.dentry = &si->dentry;
	impl->state_init(&sf->file.f_ra, sf->file.f_mapping);
	return sf;
}

struct fd fdget(int fd)
{
	struct fd f = { NULL, 0 };

	(void)fd;
	return f;
}

/* Drop the cached pages of [first, last], clipped at the end of file. */
static void sim_drop(struct address_space *mapping, pgoff_t first,
		     pgoff_t last)
{
	struct sim_inode *si = SI(mapping->host);

	if (!si->size)
		return;
	last = min(last, (pgoff_t)((si->size - 1) >> PAGE_SHIFT));
	if (first <= last)
		cache_drop_range(si, first, last);
}

/* 6.1's generic_fadvise() (fadvise.c), reading ahead with @force. */
int h_generic_fadvise(void (*force)(struct readahead_control *,
				     unsigned long),
		      struct file *file, loff_t offset, loff_t len, int advice)
{
	return shim_generic_fadvise(file, offset, len, advice, force,
				    sim_drop);
}
