/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pristine61_names.h - renames for the pristine 6.1 peer, beside 6.12's.
 *
 * Force-included after pristine_names.h when the harness compiles the
 * pristine 6.1 mm/readahead.c, and alone when it compiles the pristine
 * peer's glue (impl_pristine.c, pristine_fault.c) a second time: every
 * pristine_* symbol becomes pristine61_*, so that both pristine kernels
 * link beside ours in one binary.
 */
#define pristine_file_ra_state_init	pristine61_file_ra_state_init
#define pristine_page_cache_ra_unbounded pristine61_page_cache_ra_unbounded
#define pristine_page_cache_sync_ra	pristine61_page_cache_sync_ra
#define pristine_page_cache_async_ra	pristine61_page_cache_async_ra
#define pristine_page_cache_ra_order	pristine61_page_cache_ra_order
#define pristine_force_page_cache_ra	pristine61_force_page_cache_ra
#define pristine_readahead_expand	pristine61_readahead_expand
#define pristine_ksys_readahead		pristine61_ksys_readahead
#define pristine_sys_readahead		pristine61_sys_readahead
#define pristine_vfs_fadvise		pristine61_vfs_fadvise
#define pristine_fault_sync		pristine61_fault_sync
#define pristine_fault_async		pristine61_fault_async
#define pristine_map_hits		pristine61_map_hits
/* The table impl_pristine.c defines, and what it says of itself. */
#define ra_pristine			ra_pristine61
#define RA_PRISTINE_NAME		"pristine-6.1"
#define RA_PRISTINE_FLAGS		RA_IMPL_PAGE_CACHE_61
