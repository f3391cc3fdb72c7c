/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pristine_names.h - renames for a pristine mm/readahead.c (6.12, or 6.1
 * with pristine61_names.h after it).
 *
 * Force-included (-include) when the harness compiles the pristine file,
 * so that its entry points become pristine_* and it links beside ours in
 * one binary.  pristine.h declares the renamed symbols.
 */
#define file_ra_state_init	pristine_file_ra_state_init
#define page_cache_ra_unbounded	pristine_page_cache_ra_unbounded
#define page_cache_sync_ra	pristine_page_cache_sync_ra
#define page_cache_async_ra	pristine_page_cache_async_ra
#define page_cache_ra_order	pristine_page_cache_ra_order
#define force_page_cache_ra	pristine_force_page_cache_ra
#define readahead_expand	pristine_readahead_expand
#define ksys_readahead		pristine_ksys_readahead
#define sys_readahead		pristine_sys_readahead
#define vfs_fadvise		pristine_vfs_fadvise
