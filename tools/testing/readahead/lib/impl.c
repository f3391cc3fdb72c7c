// SPDX-License-Identifier: GPL-2.0
/*
 * impl.c - ours as a table of entry points (impl_pristine.c has the
 * pristine peers').
 *
 * "ours" is the project's mm/readahead.c, or its 6.1 backport when built
 * with RA_OURS_BASE_61 (the page cache then behaves as 6.1's).  It gets a
 * vfs_fadvise() that reads ahead with its own force_page_cache_ra(), as
 * readahead(2) does in the kernel.
 */
#include "lib.h"

#ifdef RA_OURS_BASE_61
#define RA_OURS_FLAGS	RA_IMPL_PAGE_CACHE_61
#else
#define RA_OURS_FLAGS	RA_IMPL_TRACE_BATCH
#endif

int vfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice)
{
	return h_generic_fadvise(force_page_cache_ra, file, offset, len,
				 advice);
}

const struct ra_impl ra_ours = {
	.name = "ours",
	.state_init = file_ra_state_init,
	.sync_ra = page_cache_sync_ra,
	.async_ra = page_cache_async_ra,
	.force_ra = force_page_cache_ra,
	.unbounded = page_cache_ra_unbounded,
	.expand = readahead_expand,
	.ksys_readahead = ksys_readahead,
	.fadvise = vfs_fadvise,
	.fault_sync = page_cache_mmap_sync_ra,
	.fault_async = page_cache_mmap_async_ra,
	.map_hits = page_cache_mmap_map_hits,
	.flags = RA_OURS_FLAGS,
};
