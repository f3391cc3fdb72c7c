// SPDX-License-Identifier: GPL-2.0
/*
 * fadvise.c - what 6.1's generic_fadvise() does with each advice.
 *
 * Shared by the harness and the simulator: the range arithmetic (a length
 * of 0, or a range that overflows, means "to the end"; WILLNEED covers
 * partial pages, DONTNEED only whole ones), the errors (ESPIPE on a FIFO,
 * EINVAL for a negative length or unknown advice) and the per-file mode
 * changes.  The caller says how to read ahead (@force) and how to drop
 * pages (@drop, which clips at the end of file itself).
 */
#include "shim.h"
#include "lib.h"

int shim_generic_fadvise(struct file *file, loff_t offset, loff_t len,
			 int advice,
			 void (*force)(struct readahead_control *,
				       unsigned long),
			 void (*drop)(struct address_space *, pgoff_t,
				      pgoff_t))
{
	struct inode *inode = file_inode(file);
	struct address_space *mapping = file->f_mapping;
	u64 last_byte;
	pgoff_t first, last;

	if (S_ISFIFO(inode->i_mode))
		return -ESPIPE;
	if (!mapping || len < 0)
		return -EINVAL;

	last_byte = (u64)offset + (u64)len;
	if (!len || last_byte < (u64)len)
		last_byte = ~0ULL;
	else
		last_byte--;
	/* Signed shifts, as the kernel's loff_t arithmetic: -1 stays -1. */
	last = (pgoff_t)((loff_t)last_byte >> PAGE_SHIFT);

	switch (advice) {
	case POSIX_FADV_NORMAL:
		file->f_ra.ra_pages = inode_to_bdi(inode)->ra_pages;
		file->f_mode &= ~FMODE_RANDOM;
		return 0;
	case POSIX_FADV_RANDOM:
		file->f_mode |= FMODE_RANDOM;
		return 0;
	case POSIX_FADV_SEQUENTIAL:
		file->f_ra.ra_pages = inode_to_bdi(inode)->ra_pages * 2;
		file->f_mode &= ~FMODE_RANDOM;
		return 0;
	case POSIX_FADV_WILLNEED: {
		DEFINE_READAHEAD(ractl, file, &file->f_ra, mapping,
				 (pgoff_t)(offset >> PAGE_SHIFT));
		unsigned long nr = last - readahead_index(&ractl) + 1;

		force(&ractl, nr ? nr : ~0UL);
		return 0;
	}
	case POSIX_FADV_NOREUSE:
		return 0;
	case POSIX_FADV_DONTNEED:
		first = (pgoff_t)((offset + PAGE_SIZE - 1) >> PAGE_SHIFT);
		if (last_byte != ~0ULL && (last_byte + 1) % PAGE_SIZE)
			last--;
		if (first <= last)
			drop(mapping, first, last);
		return 0;
	default:
		return -EINVAL;
	}
}
