// SPDX-License-Identifier: GPL-2.0
/*
 * pagecache.c - the simulated page cache: folios, the index, the LRU, waiters.
 *
 * Owns the page cache functions lib/env.h asks of a program (the readahead
 * objects link against these instead of the harness's pagecache.c):
 * folio allocation and references, the per-file index behind xa_load()
 * (a hash of 16-page chunks, with a per-file hint so that sequential
 * lookups stay cheap), insertion, removal and the hole searches.  Memory
 * is cache_mem_pages, the machine's or the readers' memory cgroup limit
 * where that is lower: allocating beyond it reclaims the oldest clean,
 * unlocked, unreferenced page of one LRU (a page moves to the young end
 * when read), so files larger than memory behave as they do.  When every
 * page is busy (locked under I/O, or referenced), an allocation with
 * __GFP_NORETRY (readahead's) fails, as it would in the kernel rather
 * than wait; any other goes over memory and is counted (overcommit).  Host
 * memory follows the number of cached pages, never the file sizes.
 * A folio of order k (a file with large folios: the job file's
 * large_folios=1, as mapping_large_folio_support()) covers 2^k aligned
 * pages: every page's slot in the index points at it, it is one entry of
 * the LRU, counts 2^k pages of memory, and is read, evicted and marked
 * PG_readahead as a unit; which of its pages readers used is kept per
 * page, for the statistics (pages used, evicted unused).  Orders are not
 * refused for fragmentation: a large folio is refused only as an order-0
 * one is, when memory is full and nothing can be reclaimed.
 * Page states (locked, uptodate, PG_readahead) live in the folio and are
 * shared by every reader; a reader sleeping on a locked page queues on
 * it and is woken, in order, when the I/O completes, or fails (the page
 * is then unlocked without PG_uptodate, as after a failed bio).  Pages
 * can also be put in the cache before a run (a file just written).
 * With --ftrace, every insertion and removal is also ftrace.c's event.
 */
#include "sim.h"

#include <string.h>

#define CHUNK_SHIFT	4
#define CHUNK_PAGES	(1UL << CHUNK_SHIFT)
#define RECLAIM_SCAN	256

struct chunk {
	struct chunk *hnext;
	struct sim_inode *host;
	pgoff_t base;
	unsigned int count;
	struct folio *slot[CHUNK_PAGES];
};

unsigned long cache_mem_pages;
struct cache_stat cache_st;

static struct chunk **buckets;
static unsigned long bucket_mask;
static struct chunk *chunk_free;
static struct sim_page *page_free;
static struct sim_page *lru_head, *lru_tail;
static long live;

void cache_init(unsigned long mem_pages)
{
	unsigned long n = 1024;

	cache_mem_pages = mem_pages;
	shim_totalram_pages = mem_pages;
	while (n < mem_pages / 4)
		n <<= 1;
	buckets = calloc(n, sizeof(*buckets));
	if (!buckets)
		sim_die("sim: out of host memory");
	bucket_mask = n - 1;
}

void cache_memcg(unsigned long pages)
{
	shim_memcg.memory.max = pages;
	if (pages < cache_mem_pages)
		cache_mem_pages = pages;
}

long cache_live(void)
{
	return live;
}

/* ---- the index ---- */

static unsigned long chunk_hash(struct sim_inode *si, pgoff_t base)
{
	uint64_t h = (si->inode.i_ino * 0x9E3779B97F4A7C15ULL) ^
		     (base * 0xC2B2AE3D27D4EB4FULL);

	return (h ^ (h >> 29)) & bucket_mask;
}

static struct chunk *chunk_find(struct sim_inode *si, pgoff_t base)
{
	struct chunk *c = si->last_chunk;

	if (c && c->base == base)
		return c;
	for (c = buckets[chunk_hash(si, base)]; c; c = c->hnext)
		if (c->host == si && c->base == base) {
			si->last_chunk = c;
			return c;
		}
	return NULL;
}

static struct chunk *chunk_get(struct sim_inode *si, pgoff_t base)
{
	struct chunk *c = chunk_find(si, base);
	unsigned long h;

	if (c)
		return c;
	c = chunk_free;
	if (c)
		chunk_free = c->hnext;
	else
		c = sim_alloc(sizeof(*c));
	memset(c, 0, sizeof(*c));
	c->host = si;
	c->base = base;
	h = chunk_hash(si, base);
	c->hnext = buckets[h];
	buckets[h] = c;
	si->last_chunk = c;
	return c;
}

static void chunk_put(struct chunk *c)
{
	struct chunk **pp;

	if (c->count)
		return;
	for (pp = &buckets[chunk_hash(c->host, c->base)]; *pp != c;
	     pp = &(*pp)->hnext)
		;
	*pp = c->hnext;
	if (c->host->last_chunk == c)
		c->host->last_chunk = NULL;
	c->hnext = chunk_free;
	chunk_free = c;
}

struct folio *cache_lookup(struct sim_inode *si, pgoff_t index)
{
	struct chunk *c = chunk_find(si, index >> CHUNK_SHIFT);

	return c ? c->slot[index & (CHUNK_PAGES - 1)] : NULL;
}

static struct sim_inode *xa_host(struct xarray *xa)
{
	return SI(container_of(xa, struct inode, i_data.i_pages));
}

void *xa_load(struct xarray *xa, unsigned long index)
{
	return cache_lookup(xa_host(xa), index);
}

/*
 * The hole searches as 6.1's mm/filemap.c behaves (not as its comment
 * promises): when no hole is found within @max_scan, the index returned
 * is the last one looked at, a cached page; a cached page 0 stops the
 * search up, a cached page ULONG_MAX the search down.  The harness's
 * pagecache.c has the same, tested against the contract in tests/api.c.
 * 6.12's returns @index + @max_scan then; the answer is that of the
 * kernel of the implementation under test (RA_IMPL_PAGE_CACHE_61).
 */
pgoff_t page_cache_next_miss(struct address_space *mapping, pgoff_t index,
			     unsigned long max_scan)
{
	struct sim_inode *si = SI(mapping->host);
	pgoff_t past = index + max_scan;

	while (max_scan--) {
		if (!cache_lookup(si, index) || !index)
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
	struct sim_inode *si = SI(mapping->host);

	while (max_scan--) {
		if (!cache_lookup(si, index) || index == ULONG_MAX || !max_scan)
			break;
		index--;
	}
	return index;
}

/* ---- LRU ---- */

static void lru_del(struct sim_page *p)
{
	if (p->prev)
		p->prev->next = p->next;
	else
		lru_head = p->next;
	if (p->next)
		p->next->prev = p->prev;
	else
		lru_tail = p->prev;
	p->prev = p->next = NULL;
	p->on_lru = false;
}

static void lru_add_tail(struct sim_page *p)
{
	p->next = NULL;
	p->prev = lru_tail;
	if (lru_tail)
		lru_tail->next = p;
	else
		lru_head = p;
	lru_tail = p;
	p->on_lru = true;
}

void cache_mark_accessed(struct folio *f)
{
	struct sim_page *p = sim_page(f);

	if (!p->accessed) {
		if (!f->order)
			cache_st.unique_pages++;
		p->accessed = true;
	}
	if (p->on_lru && p != lru_tail) {
		lru_del(p);
		lru_add_tail(p);
	}
}

void cache_pages_used(struct folio *f, pgoff_t first, pgoff_t last)
{
	uint8_t *used = SI(f->mapping->host)->used_map;
	pgoff_t i;

	for (i = first; i <= last; i++)
		if (!(used[i >> 3] & (1u << (i & 7)))) {
			used[i >> 3] |= 1u << (i & 7);
			cache_st.unique_pages++;
		}
}

/* Pages of @p read from disk and evicted before any process read them. */
static unsigned long unused_pages(struct sim_page *p)
{
	struct folio *f = &p->folio;
	struct sim_inode *si;
	unsigned long unused = 0;
	pgoff_t i, eof;

	if (!p->from_disk)
		return 0;
	if (!f->order)
		return !p->accessed;
	si = SI(f->mapping->host);
	eof = DIV_ROUND_UP(si->size, PAGE_SIZE);
	/* (A page past EOF, never read: the checks count it too.) */
	for (i = f->index; i < f->index + folio_nr_pages(f); i++)
		unused += i >= eof ||
			  !(si->used_map[i >> 3] & (1u << (i & 7)));
	return unused;
}

static void remove_folio(struct folio *f)
{
	struct sim_inode *si = SI(f->mapping->host);
	struct sim_page *p = sim_page(f);
	pgoff_t i, end = f->index + folio_nr_pages(f);

	ftrace_delete(f);
	for (i = f->index; i < end; i++) {
		struct chunk *c = chunk_find(si, i >> CHUNK_SHIFT);

		if (!c || c->slot[i & (CHUNK_PAGES - 1)] != f)
			sim_die("sim: removing a folio that is not in the cache");
		c->slot[i & (CHUNK_PAGES - 1)] = NULL;
		c->count--;
		chunk_put(c);
	}
	if (p->on_lru)
		lru_del(p);
	f->mapping->nrpages -= folio_nr_pages(f);
	f->mapping = NULL;
	folio_put(f);
}

static bool reclaim_one(void)
{
	struct sim_page *p = lru_head;
	int scanned;

	for (scanned = 0; p && scanned < RECLAIM_SCAN; scanned++) {
		struct sim_page *next = p->next;
		struct folio *f = &p->folio;

		cache_st.reclaim_scans++;
		if (!folio_test_locked(f) && f->refcount == 1 &&
		    !p->waiters) {
			cache_st.evicted_unused += unused_pages(p);
			cache_st.evicted += folio_nr_pages(f);
			remove_folio(f);
			return true;
		}
		/* Busy: give it another round, as putback does. */
		lru_del(p);
		lru_add_tail(p);
		p = next;
	}
	return false;
}

/* ---- folios ---- */

struct folio *filemap_alloc_folio(gfp_t gfp, unsigned int order)
{
	unsigned long nr = 1UL << order;
	struct sim_page *p;
	uint32_t gen;

	if (order > MAX_PAGECACHE_ORDER)
		sim_die("sim: a folio of order %u", order);
	while ((unsigned long)live + nr > cache_mem_pages) {
		if (reclaim_one())
			continue;
		/* Readahead's __GFP_NORETRY: fail, the window ends here. */
		if (gfp & __GFP_NORETRY) {
			cache_st.alloc_failed++;
			return NULL;
		}
		cache_st.overcommit++;
		break;
	}
	p = page_free;
	if (p) {
		page_free = p->next;
	} else {
		static struct sim_page *slab;
		static unsigned int slab_left;

		if (!slab_left) {
			slab = malloc(4096 * sizeof(*slab));
			if (!slab)
				sim_die("sim: out of host memory");
			memset(slab, 0, 4096 * sizeof(*slab));
			slab_left = 4096;
		}
		p = &slab[--slab_left];
	}
	gen = p->gen + 1;
	memset(p, 0, sizeof(*p));
	p->gen = gen;
	p->folio.refcount = 1;
	p->folio.order = order;
	live += nr;
	if ((uint64_t)live > cache_st.peak_live)
		cache_st.peak_live = live;
	return &p->folio;
}

void folio_get(struct folio *folio)
{
	BUG_ON(folio->refcount <= 0);
	folio->refcount++;
}

void folio_put(struct folio *folio)
{
	struct sim_page *p = sim_page(folio);

	BUG_ON(folio->refcount <= 0);
	if (--folio->refcount)
		return;
	BUG_ON(folio->mapping);
	live -= folio_nr_pages(folio);
	p->next = page_free;
	page_free = p;
}

void folio_unlock(struct folio *folio)
{
	BUG_ON(!folio_test_locked(folio));
	shim_clear(folio, PG_locked);
}

int filemap_add_folio(struct address_space *mapping, struct folio *folio,
		      pgoff_t index, gfp_t gfp)
{
	struct sim_inode *si = SI(mapping->host);
	unsigned long nr = folio_nr_pages(folio);
	struct chunk *c;
	pgoff_t i;

	(void)gfp;
	BUG_ON(folio->mapping);
	BUG_ON(index & (nr - 1));
	for (i = index; nr > 1 && i < index + nr; i++)
		if (cache_lookup(si, i))
			return -EEXIST;
	for (i = index; i < index + nr; i++) {
		c = chunk_get(si, i >> CHUNK_SHIFT);
		if (c->slot[i & (CHUNK_PAGES - 1)]) {
			/* Order 0 only: a large folio's range was free. */
			chunk_put(c);
			return -EEXIST;
		}
		c->slot[i & (CHUNK_PAGES - 1)] = folio;
		c->count++;
	}
	folio->index = index;
	folio->mapping = mapping;
	mapping->nrpages += nr;
	shim_set(folio, PG_locked);
	folio->refcount++;
	lru_add_tail(sim_page(folio));
	cache_st.added += nr;
	cache_st.folios[folio_order(folio)]++;
	ftrace_add(folio);
	return 0;
}

void filemap_remove_folio(struct folio *folio)
{
	BUG_ON(!folio->mapping);
	remove_folio(folio);
}

/* ---- I/O completion and sleepers ---- */

void cache_wait(struct folio *f, struct wait_entry *w)
{
	struct wait_entry **pp = &sim_page(f)->waiters;

	while (*pp)
		pp = &(*pp)->next;
	*pp = w;
	w->next = NULL;
}

static void wake_all(struct sim_page *p)
{
	struct wait_entry *w = p->waiters;

	p->waiters = NULL;
	while (w) {
		struct wait_entry *next = w->next;

		w->func(w);
		w = next;
	}
}

void cache_io_done(struct folio *f)
{
	struct sim_page *p = sim_page(f);

	p->from_disk = true;
	shim_clear(f, PG_error);
	folio_mark_uptodate(f);
	folio_unlock(f);
	wake_all(p);
}

/*
 * As mpage_end_io() -> page_endio() on a failed bio: the page stays in
 * the cache, not uptodate, with PG_error; the lock goes and every sleeper
 * wakes to find it so.  PG_readahead is left as it was.
 */
void cache_io_error(struct folio *f)
{
	shim_set(f, PG_error);
	folio_unlock(f);
	wake_all(sim_page(f));
}

void cache_populate(struct sim_inode *si, pgoff_t index)
{
	struct folio *f;

	if (cache_lookup(si, index))
		return;
	f = filemap_alloc_folio(GFP_KERNEL, 0);
	if (filemap_add_folio(&si->inode.i_data, f, index, GFP_KERNEL))
		sim_die("sim: cannot populate the page cache");
	folio_mark_uptodate(f);
	folio_unlock(f);
	folio_put(f);
	cache_st.prefilled++;
}

void cache_drop_range(struct sim_inode *si, pgoff_t first, pgoff_t last)
{
	pgoff_t base;

	if (first > last)
		return;
	/* Whole chunks at a time: the index has no per-file page array. */
	for (base = first >> CHUNK_SHIFT; base <= last >> CHUNK_SHIFT; base++) {
		struct chunk *c = chunk_find(si, base);
		unsigned int j;

		for (j = 0; c && j < CHUNK_PAGES; j++) {
			struct folio *f = c->slot[j];
			pgoff_t index = (base << CHUNK_SHIFT) + j;

			/* A large folio goes whole, or not at all. */
			if (!f || index < first || f->index != index ||
			    index + folio_nr_pages(f) - 1 > last ||
			    folio_test_locked(f) || f->refcount != 1)
				continue;
			remove_folio(f);
			/* Its last page gone, the chunk is freed. */
			c = chunk_find(si, base);
		}
	}
}
