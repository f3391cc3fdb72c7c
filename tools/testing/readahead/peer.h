/* SPDX-License-Identifier: GPL-2.0 */
/*
 * peer.h - the pristine 6.1 readahead entry points, as renamed by
 * peer_names.h, and the 6.1 page fault policy the harness models.
 */
#ifndef RA_PEER_H
#define RA_PEER_H

#include "shim.h"

void peer_file_ra_state_init(struct file_ra_state *ra,
			     struct address_space *mapping);
void peer_page_cache_ra_unbounded(struct readahead_control *ractl,
				  unsigned long nr_to_read,
				  unsigned long lookahead_count);
void peer_page_cache_sync_ra(struct readahead_control *ractl,
			     unsigned long req_count);
void peer_page_cache_async_ra(struct readahead_control *ractl,
			      struct folio *folio, unsigned long req_count);
void peer_page_cache_ra_order(struct readahead_control *ractl,
			      struct file_ra_state *ra, unsigned int order);
void peer_force_page_cache_ra(struct readahead_control *ractl,
			      unsigned long nr);
void peer_readahead_expand(struct readahead_control *ractl,
			   loff_t new_start, size_t new_len);
ssize_t peer_ksys_readahead(int fd, loff_t offset, size_t count);
int peer_vfs_fadvise(struct file *file, loff_t offset, loff_t len,
		     int advice);

struct file *peer_fault_sync(struct vm_fault *vmf);
struct file *peer_fault_async(struct vm_fault *vmf, struct folio *folio);

#endif /* RA_PEER_H */
