// SPDX-License-Identifier: GPL-2.0
/*
 * impl_pristine.c - a pristine kernel's readahead as a table of entry
 * points: Linux 6.12's mm/readahead.c, compiled from the unpacked tree
 * with its symbols renamed to pristine_* (ra_pristine), or, compiled a
 * second time with pristine61_names.h, Linux 6.1's (ra_pristine61).  It
 * gets a vfs_fadvise() that reads ahead with its own
 * force_page_cache_ra(), as readahead(2) does in the kernel, and the
 * page fault policy of pristine_fault.c.
 */
#include "lib.h"
#include "pristine.h"

#ifndef RA_PRISTINE_NAME
#define RA_PRISTINE_NAME	"pristine"
#define RA_PRISTINE_FLAGS	0
#endif

int pristine_vfs_fadvise(struct file *file, loff_t offset, loff_t len,
		     int advice)
{
	return h_generic_fadvise(pristine_force_page_cache_ra, file, offset, len,
				 advice);
}

const struct ra_impl ra_pristine = {
	.name = RA_PRISTINE_NAME,
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
	.map_hits = pristine_map_hits,
	.flags = RA_PRISTINE_FLAGS,
};
