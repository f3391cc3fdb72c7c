// SPDX-License-Identifier: GPL-2.0
/*
 * impl.c - the two readahead implementations as tables of entry points.
 *
 * "ours" is the project's mm/readahead.c; "pristine" is Linux 6.1's,
 * compiled from the unpacked tree with its symbols renamed to peer_*.
 * Each gets a vfs_fadvise() that reads ahead with its own
 * force_page_cache_ra(), as readahead(2) does in the kernel.
 */
#include "harness.h"
#include "peer.h"

int vfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice)
{
	return h_generic_fadvise(force_page_cache_ra, file, offset, len,
				 advice);
}

int peer_vfs_fadvise(struct file *file, loff_t offset, loff_t len,
		     int advice)
{
	return h_generic_fadvise(peer_force_page_cache_ra, file, offset, len,
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

const struct ra_impl ra_peer = {
	.name = "pristine",
	.state_init = peer_file_ra_state_init,
	.sync_ra = peer_page_cache_sync_ra,
	.async_ra = peer_page_cache_async_ra,
	.force_ra = peer_force_page_cache_ra,
	.unbounded = peer_page_cache_ra_unbounded,
	.expand = peer_readahead_expand,
	.ksys_readahead = peer_ksys_readahead,
	.fadvise = peer_vfs_fadvise,
	.fault_sync = peer_fault_sync,
	.fault_async = peer_fault_async,
};
