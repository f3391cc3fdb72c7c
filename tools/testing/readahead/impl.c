// SPDX-License-Identifier: GPL-2.0
/*
 * impl.c - the two readahead implementations as tables of entry points.
 *
 * "ours" is the project's mm/readahead.c; "pristine" is Linux 6.1's,
 * compiled from the unpacked tree with its symbols renamed to pristine_*.
 * Each gets a vfs_fadvise() that reads ahead with its own
 * force_page_cache_ra(), as readahead(2) does in the kernel.
 */
#include "harness.h"
#include "pristine.h"

int vfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice)
{
	return h_generic_fadvise(force_page_cache_ra, file, offset, len,
				 advice);
}

int pristine_vfs_fadvise(struct file *file, loff_t offset, loff_t len,
		     int advice)
{
	return h_generic_fadvise(pristine_force_page_cache_ra, file, offset, len,
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
};

const struct ra_impl ra_pristine = {
	.name = "pristine",
	.state_init = pristine_file_ra_state_init,
	.sync_ra = pristine_page_cache_sync_ra,
	.async_ra = pristine_page_cache_async_ra,
	.force_ra = pristine_force_page_cache_ra,
	.unbounded = pristine_page_cache_ra_unbounded,
	.expand = pristine_readahead_expand,
	.ksys_readahead = pristine_ksys_readahead,
	.fadvise = pristine_vfs_fadvise,
	.fault_sync = pristine_fault_sync,
	.fault_async = pristine_fault_async,
};
