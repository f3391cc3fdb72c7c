/* SPDX-License-Identifier: GPL-2.0 */
/*
 * peer_names.h - renames for the pristine 6.1 mm/readahead.c.
 *
 * Force-included (-include) when the harness compiles the pristine file
 * as the peer, so that its entry points become peer_* and it links
 * beside ours in one binary.  peer.h declares the renamed symbols.
 */
#define file_ra_state_init	peer_file_ra_state_init
#define page_cache_ra_unbounded	peer_page_cache_ra_unbounded
#define page_cache_sync_ra	peer_page_cache_sync_ra
#define page_cache_async_ra	peer_page_cache_async_ra
#define page_cache_ra_order	peer_page_cache_ra_order
#define force_page_cache_ra	peer_force_page_cache_ra
#define readahead_expand	peer_readahead_expand
#define ksys_readahead		peer_ksys_readahead
#define sys_readahead		peer_sys_readahead
#define vfs_fadvise		peer_vfs_fadvise
