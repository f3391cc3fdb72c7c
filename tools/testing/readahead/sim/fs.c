// SPDX-License-Identifier: GPL-2.0
/*
 * fs.c - the simulator's tiny filesystem, open files and fadvise.
 *
 * Owns the mapping from file pages to sectors: each file is one extent,
 * laid out in creation order in its partition (1 MB aligned), as a fresh
 * filesystem written by fio would be.  Its ->readahead takes every folio
 * the readahead code hands it and submits one bio per contiguous run;
 * ->read_folio submits one page.  Both leave the folios locked: the
 * block layer's completion makes them uptodate.  Also here: opening a
 * file (one file_ra_state per open file, initialised by the running
 * implementation), generic fadvise as 6.1's generic_fadvise() behaves,
 * and the descriptor lookup (the simulated jobs use no descriptors).
 */
#include "sim.h"

#include <string.h>

#define EXTENT_ALIGN	2048	/* sectors: 1 MB */

uint64_t fs_pages_submitted;
static unsigned long next_ino = 12;

static void check_page(struct sim_inode *si, struct folio *f)
{
	if (f->index >= DIV_ROUND_UP(si->size, PAGE_SIZE))
		si->past_eof++;
	if (folio_test_uptodate(f))
		si->reread++;
	if (f->index < DIV_ROUND_UP(si->size, PAGE_SIZE)) {
		uint8_t bit = 1u << (f->index & 7);

		if (si->read_map[f->index >> 3] & bit)
			si->read_twice++;
		si->read_map[f->index >> 3] |= bit;
	}
}

/* bi_end_io: the pages of @b are uptodate, or failed; wake sleepers. */
static void fs_end_io(struct bio *b, int err)
{
	struct sim_inode *si = b->private;
	unsigned int i;

	for (i = 0; i < b->nr; i++) {
		struct folio *f = cache_lookup(si, b->index + i);

		if (!f || !folio_test_locked(f))
			sim_die("sim: I/O completion for a page not under I/O");
		if (err)
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
	b->sector = si->start + (uint64_t)index * PAGE_SECTORS;
	b->nr = nr;
	b->end_io = fs_end_io;
	b->private = si;
	b->index = index;
	b->ahead = ahead;
	b->part = si->part;
	submit_bio(b);
}

static void fs_readahead(struct readahead_control *ractl)
{
	struct sim_inode *si = SI(ractl->mapping->host);
	pgoff_t first = 0;
	unsigned int nr = 0;
	struct folio *f;

	while ((f = readahead_folio(ractl))) {
		check_page(si, f);
		fs_pages_submitted++;
		cache_st.read_ahead++;
		if (nr && f->index == first + nr) {
			nr++;
			continue;
		}
		if (nr)
			fs_submit(si, first, nr, true);
		first = f->index;
		nr = 1;
	}
	if (nr)
		fs_submit(si, first, nr, true);
}

void fs_read_folio(struct sim_inode *si, struct folio *f)
{
	check_page(si, f);
	fs_pages_submitted++;
	fs_submit(si, f->index, 1, false);
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
			    uint64_t size)
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
