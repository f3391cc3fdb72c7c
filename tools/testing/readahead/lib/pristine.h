/* SPDX-License-Identifier: GPL-2.0 */
/*
 * pristine.h - a pristine kernel's readahead entry points, as renamed by
 * pristine_names.h (pristine61_names.h renames them again for 6.1), and
 * the page fault policy the harness models for both.
 */
#ifndef RA_PRISTINE_H
#define RA_PRISTINE_H

#include "shim.h"

void pristine_file_ra_state_init(struct file_ra_state *ra,
			     struct address_space *mapping);
void pristine_page_cache_ra_unbounded(struct readahead_control *ractl,
				  unsigned long nr_to_read,
				  unsigned long lookahead_count);
void pristine_page_cache_sync_ra(struct readahead_control *ractl,
			     unsigned long req_count);
void pristine_page_cache_async_ra(struct readahead_control *ractl,
			      struct folio *folio, unsigned long req_count);
void pristine_page_cache_ra_order(struct readahead_control *ractl,
			      struct file_ra_state *ra, unsigned int order);
void pristine_force_page_cache_ra(struct readahead_control *ractl,
			      unsigned long nr);
void pristine_readahead_expand(struct readahead_control *ractl,
			   loff_t new_start, size_t new_len);
ssize_t pristine_ksys_readahead(int fd, loff_t offset, size_t count);
int pristine_vfs_fadvise(struct file *file, loff_t offset, loff_t len,
		     int advice);

struct file *pristine_fault_sync(struct vm_fault *vmf);
struct file *pristine_fault_async(struct vm_fault *vmf, struct folio *folio);
void pristine_map_hits(struct vm_fault *vmf, unsigned int hits, bool mapped);

#endif /* RA_PRISTINE_H */
