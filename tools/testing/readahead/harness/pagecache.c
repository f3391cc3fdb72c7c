// SPDX-License-Identifier: GPL-2.0
/*
 * pagecache.c - the harness's page cache: folios and the per-mapping index.
 *
 * Owns folio allocation and reference counting, the index of each
 * address_space (an open-addressing hash from page index to folio, with
 * every page of a large folio pointing at its head), insertion, removal
 * and the hole searches the readahead code uses.  Counts live folios, so
 * that tests can prove nothing leaked, and the pages inserted and
 * removed, which the layers above read (it calls none of them).
 */
#include "shim.h"
#include "harness.h"

#include <trace/events/filemap.h>

#include <string.h>

/*
 * shim_bug() does not return (shim.c): said here, where the checks sit
 * on every page's path, and not in shim.h, so that the two readahead
 * files compile as they always have (bench-cpu counts their code).
 */
void __attribute__((noreturn)) shim_bug(const char *file, int line,
					const char *what);

long shim_live_folios;
unsigned long shim_pages_added, shim_pages_removed;
long shim_alloc_budget = -1;	/* allocations left before failing; -1: no limit */
unsigned int shim_alloc_order_limit = UINT_MAX;	/* larger orders fail */
/*
 * Additions to the page cache left before one fails with -ENOMEM, as a
 * memory cgroup's charge fails at its limit; -1: none fails.  One-shot:
 * the additions after it succeed again.
 */
long shim_add_enomem_in = -1;
/* Added folios are refaults: they come with PG_workingset. */
bool shim_add_workingset;

struct folio *filemap_alloc_folio(gfp_t gfp, unsigned int order)
{
	struct folio *folio;

	(void)gfp;
	if (shim_alloc_budget == 0 || order > shim_alloc_order_limit)
		return NULL;
	if (shim_alloc_budget > 0)
		shim_alloc_budget--;
	folio = calloc(1, sizeof(*folio));
	if (!folio)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	folio->order = order;
	folio->refcount = 1;
	shim_live_folios++;
	return folio;
}

void folio_get(struct folio *folio)
{
	BUG_ON(folio->refcount <= 0);
	folio->refcount++;
}

void folio_put(struct folio *folio)
{
	BUG_ON(folio->refcount <= 0);
	if (--folio->refcount)
		return;
	BUG_ON(folio->mapping);
	shim_live_folios--;
	free(folio);
}

void folio_unlock(struct folio *folio)
{
	BUG_ON(!folio_test_locked(folio));
	shim_clear(folio, PG_locked);
}

/* ---- the index: linear probing, backward-shift deletion ---- */

static unsigned long xa_hash(pgoff_t index, unsigned long mask)
{
	return (index * 0x9E3779B97F4A7C15UL) >> 17 & mask;
}

static long xa_find(struct xarray *xa, pgoff_t index)
{
	unsigned long mask = xa->capacity - 1;
	unsigned long i;

	if (!xa->capacity)
		return -1;
	for (i = xa_hash(index, mask); xa->slots[i]; i = (i + 1) & mask)
		if (xa->keys[i] == index)
			return i;
	return -1;
}

static void xa_insert_slot(struct xarray *xa, pgoff_t index, struct folio *f)
{
	unsigned long mask = xa->capacity - 1;
	unsigned long i = xa_hash(index, mask);

	while (xa->slots[i])
		i = (i + 1) & mask;
	xa->keys[i] = index;
	xa->slots[i] = f;
	xa->count++;
}

static void xa_grow(struct xarray *xa)
{
	struct xarray old = *xa;
	unsigned long i;

	xa->capacity = old.capacity ? old.capacity * 2 : 64;
	xa->keys = calloc(xa->capacity, sizeof(*xa->keys));
	xa->slots = calloc(xa->capacity, sizeof(*xa->slots));
	if (!xa->keys || !xa->slots)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	xa->count = 0;
	for (i = 0; i < old.capacity; i++)
		if (old.slots[i])
			xa_insert_slot(xa, old.keys[i], old.slots[i]);
	free(old.keys);
	free(old.slots);
}

static void xa_erase_slot(struct xarray *xa, unsigned long hole)
{
	unsigned long mask = xa->capacity - 1;
	unsigned long i = hole;

	/* Pull later members of the probe chain back over the hole. */
	for (;;) {
		unsigned long home;

		i = (i + 1) & mask;
		if (!xa->slots[i])
			break;
		home = xa_hash(xa->keys[i], mask);
		if (((i - home) & mask) >= ((i - hole) & mask)) {
			xa->keys[hole] = xa->keys[i];
			xa->slots[hole] = xa->slots[i];
			hole = i;
		}
	}
	xa->slots[hole] = NULL;
	xa->count--;
}

void *xa_load(struct xarray *xa, unsigned long index)
{
	long i = xa_find(xa, index);

	return i < 0 ? NULL : xa->slots[i];
}

void xa_destroy_index(struct xarray *xa)
{
	free(xa->keys);
	free(xa->slots);
	memset(xa, 0, sizeof(*xa));
}

/* ---- insertion, removal, hole search ---- */

int filemap_add_folio(struct address_space *mapping, struct folio *folio,
		      pgoff_t index, gfp_t gfp)
{
	struct xarray *xa = &mapping->i_pages;
	unsigned long nr = folio_nr_pages(folio);
	unsigned long i;

	(void)gfp;
	BUG_ON(folio->mapping);
	BUG_ON(index & (nr - 1));
	/* 6.12: never a folio below the mapping's minimum order. */
	BUG_ON(folio_order(folio) < mapping_min_folio_order(mapping));
#ifdef RA_OURS_BASE_61
	/*
	 * 6.1's page cache takes no order-1 folio (6.8 added them).  Only
	 * where ours is the 6.1 backport: elsewhere the test would be in
	 * every page bench-cpu counts.
	 */
	BUG_ON((ra_impl->flags & RA_IMPL_PAGE_CACHE_61) &&
	       folio_order(folio) == 1);
#endif
	for (i = 0; i < nr; i++)
		if (xa_load(xa, index + i))
			return -EEXIST;
	if (shim_add_enomem_in >= 0 && !shim_add_enomem_in--)
		return -ENOMEM;
	if (shim_add_workingset)
		shim_set(folio, PG_workingset);
	while ((xa->count + nr) * 2 > xa->capacity)
		xa_grow(xa);
	for (i = 0; i < nr; i++)
		xa_insert_slot(xa, index + i, folio);
	folio->index = index;
	folio->mapping = mapping;
	shim_set(folio, PG_locked);
	folio->refcount++;
	mapping->nrpages += nr;
	shim_pages_added += nr;
	trace_mm_filemap_add_to_page_cache(folio);
	return 0;
}

void filemap_remove_folio(struct folio *folio)
{
	struct address_space *mapping = folio->mapping;
	unsigned long i;

	BUG_ON(!mapping);
	trace_mm_filemap_delete_from_page_cache(folio);
	for (i = 0; i < folio_nr_pages(folio); i++) {
		long slot = xa_find(&mapping->i_pages, folio->index + i);

		BUG_ON(slot < 0);
		xa_erase_slot(&mapping->i_pages, slot);
	}
	mapping->nrpages -= folio_nr_pages(folio);
	shim_pages_removed += folio_nr_pages(folio);
	folio->mapping = NULL;
	folio_put(folio);
}

/*
 * The hole searches as Linux 6.1's mm/filemap.c behaves, which is not
 * quite what its comment promises.  It walks the xarray from @index for
 * at most @max_scan entries and stops at the first index without a folio;
 * when every index it looked at held one, it returns the last index it
 * looked at (inside the range, and cached), not one past the range.  It
 * also stops at a cached page 0 going up (also when the walk starts
 * there) and at a cached page ULONG_MAX going down, returning that index,
 * and it returns @index for a @max_scan of 0.  Later kernels return an
 * index outside the range when no hole is found; code written for both
 * must not tell "no hole" from "a hole at the last index" by the value.
 * 6.12's returns @index + @max_scan then: the harness answers as the
 * kernel of the implementation under test does (RA_IMPL_PAGE_CACHE_61).
 */
pgoff_t page_cache_next_miss(struct address_space *mapping, pgoff_t index,
			     unsigned long max_scan)
{
	pgoff_t past = index + max_scan;

	while (max_scan--) {
		void *entry = xa_load(&mapping->i_pages, index);

		if (!entry || xa_is_value(entry) || !index)
			return index;
		if (!max_scan)
			break;
		index++;
	}
	return ra_impl->flags & RA_IMPL_PAGE_CACHE_61 ? index : past;
}

pgoff_t page_cache_prev_miss(struct address_space *mapping, pgoff_t index,
			     unsigned long max_scan)
{
	while (max_scan--) {
		void *entry = xa_load(&mapping->i_pages, index);

		if (!entry || xa_is_value(entry) || index == ULONG_MAX ||
		    !max_scan)
			break;
		index--;
	}
	return index;
}
