// SPDX-License-Identifier: GPL-2.0
/*
 * pristine_fault.c - the page fault readahead policy of Linux 6.1 and
 * 6.12, the same in both.
 *
 * So where the two pristine kernels read differently behind faults, the
 * difference is in their readahead.c, which the harness compiles as it
 * is, not here.  The spindle bench's spin-mmap-hint shape (two readers
 * of a file, MADV_SEQUENTIAL mappings) is one: on the guest 6.1 takes
 * hundreds of major faults and 6.12 one a file.  6.1's asynchronous
 * readahead also takes a hit on the page just past the end of the
 * reader's own last window for its stream going on, where 6.12 goes on
 * only from the reader's own marker and otherwise starts at the first
 * page missing beyond the hit.  When the two readers take turns at the
 * markers (a fault takes the page lock in queue order, and the one that
 * hit the marker queues only after submitting the next window), a 6.1
 * reader whose last window ended where the other's began moves its
 * window onto those cached pages, reads nothing, and the page after
 * them is a major fault for whoever comes first.  The simulator wakes a
 * page's sleepers together in a random order and submits for free, so
 * its readers rarely take turns, and it shows little of that loss.
 *
 * In both this policy lives in mm/filemap.c, outside the pristine
 * readahead.c the harness compiles beside ours, so the harness states it
 * here, from its documented behaviour, calling its renamed entry points:
 * a VM_HUGEPAGE mapping reads from the start of the fault's PMD, even
 * with readahead off: two PMDs with the second asynchronous (one, all
 * of it asynchronous, under MADV_RANDOM), through page_cache_ra_order()
 * at the PMD order, without setting the window's start;
 * MADV_RANDOM or no readahead: nothing; MADV_SEQUENTIAL: a synchronous
 * readahead of a full window; otherwise count the miss, give up beyond
 * 100 net misses, and read a full window centred on the fault with a
 * quarter of it asynchronous.  A hit takes one off the miss count and
 * reads ahead, a full window's worth, when the page is marked.  Where
 * it reads, it drops the mmap_lock first, so the fault is retried.
 * Fault-around takes off one for every cached page it finds (6.12 but
 * for those that came back from eviction, which its caller leaves out).
 */
#include "pristine.h"

#define PEER_MISS_LIMIT		100
#define PEER_MISS_CEILING	1000

struct file *pristine_fault_sync(struct vm_fault *vmf)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	unsigned long vm_flags = vmf->vma->vm_flags;
	unsigned long half = ra->ra_pages / 2;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);

	if (vm_flags & VM_HUGEPAGE) {
		maybe_unlock_mmap_for_io(vmf, NULL);
		ractl._index = round_down(vmf->pgoff, HPAGE_PMD_NR);
		ra->size = vm_flags & VM_RAND_READ ? HPAGE_PMD_NR :
						      2 * HPAGE_PMD_NR;
		ra->async_size = HPAGE_PMD_NR;
		pristine_page_cache_ra_order(&ractl, ra, HPAGE_PMD_ORDER);
		return NULL;
	}
	if ((vm_flags & VM_RAND_READ) || !ra->ra_pages)
		return NULL;
	if (vm_flags & VM_SEQ_READ) {
		maybe_unlock_mmap_for_io(vmf, NULL);
		pristine_page_cache_sync_ra(&ractl, ra->ra_pages);
		return NULL;
	}
	if (ra->mmap_miss < PEER_MISS_CEILING)
		ra->mmap_miss++;
	if (ra->mmap_miss > PEER_MISS_LIMIT)
		return NULL;

	maybe_unlock_mmap_for_io(vmf, NULL);
	ra->start = vmf->pgoff > half ? vmf->pgoff - half : 0;
	ra->size = ra->ra_pages;
	ra->async_size = ra->ra_pages / 4;
	ractl._index = ra->start;
	pristine_page_cache_ra_order(&ractl, ra, 0);
	return NULL;
}

struct file *pristine_fault_async(struct vm_fault *vmf, struct folio *folio)
{
	struct file *file = vmf->vma->vm_file;
	struct file_ra_state *ra = &file->f_ra;
	DEFINE_READAHEAD(ractl, file, ra, file->f_mapping, vmf->pgoff);

	if ((vmf->vma->vm_flags & VM_RAND_READ) || !ra->ra_pages)
		return NULL;
	if (ra->mmap_miss)
		ra->mmap_miss--;
	if (folio_test_readahead(folio)) {
		maybe_unlock_mmap_for_io(vmf, NULL);
		pristine_page_cache_async_ra(&ractl, folio, ra->ra_pages);
	}
	return NULL;
}

void pristine_map_hits(struct vm_fault *vmf, unsigned int hits, bool mapped)
{
	struct file_ra_state *ra = &vmf->vma->vm_file->f_ra;

	(void)mapped;
	ra->mmap_miss = ra->mmap_miss > hits ? ra->mmap_miss - hits : 0;
}
