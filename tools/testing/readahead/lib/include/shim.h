/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim.h - the kernel API that mm/readahead.c sees inside the harness.
 *
 * Every header readahead.c includes (<linux/pagemap.h>, "internal.h", ...)
 * forwards here.  This file owns the types (folio, address_space, inode,
 * file, readahead_control, vm_fault) and the small inline helpers; the
 * page cache, plugging and files behind them are the program's (env.h).  Only what the real file and the pristine 6.12 and 6.1
 * files use is here, with the kernel's meaning; where the two kernels
 * differ (the descriptor API, folio orders), both spellings are here.
 */
#ifndef RA_SHIM_H
#define RA_SHIM_H

#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

/* ---- base types and helpers ---- */

typedef unsigned long pgoff_t;
typedef unsigned short umode_t;
typedef unsigned int gfp_t;
typedef unsigned int fmode_t;
typedef unsigned long long u64;
typedef unsigned int u32;

/* What the program provides: the page cache, plugging, the files. */
#include "env.h"

#define PAGE_SHIFT	12
#define PAGE_SIZE	(1UL << PAGE_SHIFT)
#define SZ_128K		0x00020000
#define SZ_2M		0x00200000
#define GFP_KERNEL	0x1u
#define __GFP_NORETRY	0x2u
#define __GFP_NOWARN	0x4u

#define likely(x)	__builtin_expect(!!(x), 1)
#define unlikely(x)	__builtin_expect(!!(x), 0)
#define fallthrough	__attribute__((__fallthrough__))
#define noinline	__attribute__((__noinline__))
#define READ_ONCE(x)	(x)
#define WRITE_ONCE(x, v) ((x) = (v))

#define min(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
		     _a < _b ? _a : _b; })
#define max(a, b) ({ __auto_type _a = (a); __auto_type _b = (b); \
		     _a > _b ? _a : _b; })
#define min_t(t, a, b) ({ t _a = (a); t _b = (b); _a < _b ? _a : _b; })
#define max_t(t, a, b) ({ t _a = (a); t _b = (b); _a > _b ? _a : _b; })
#define DIV_ROUND_UP(n, d) (((n) + (d) - 1) / (d))
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define round_down(x, y) ((x) & ~((__typeof__(x))((y) - 1)))
#define round_up(x, y)	((((x) - 1) | ((__typeof__(x))((y) - 1))) + 1)

void shim_bug(const char *file, int line, const char *what);
#define BUG_ON(c) do { if (c) shim_bug(__FILE__, __LINE__, #c); } while (0)
#define VM_BUG_ON_FOLIO(c, f) BUG_ON(c)
#define VM_BUG_ON(c) BUG_ON(c)
#define IS_ALIGNED(x, a) (((x) & ((__typeof__(x))(a) - 1)) == 0)
#define WARN_ON_ONCE(c) ({						\
	bool _c = (c);							\
									\
	if (_c)								\
		shim_bug(__FILE__, __LINE__, "WARN_ON_ONCE(" #c ")");	\
	_c;								\
})

#define EXPORT_SYMBOL(s)
#define EXPORT_SYMBOL_GPL(s)

static inline unsigned long __ffs(unsigned long x)
{
	return __builtin_ctzl(x);
}

/* The last set bit; x > 0. */
static inline unsigned long __fls(unsigned long x)
{
	return 63 - __builtin_clzl(x);
}

/* Copy a string, cut to fit: the kernel's strscpy(). */
static inline long strscpy(char *dst, const char *src, size_t size)
{
	size_t n = strnlen(src, size);

	if (!size)
		return -E2BIG;
	if (n == size) {
		memcpy(dst, src, size - 1);
		dst[size - 1] = '\0';
		return -E2BIG;
	}
	memcpy(dst, src, n + 1);
	return n;
}

/* <linux/log2.h>: the base 2 logarithm, rounded down; n > 0. */
static inline int ilog2(unsigned long n)
{
	return 63 - __builtin_clzl(n);
}

static inline unsigned long roundup_pow_of_two(unsigned long n)
{
	return n <= 1 ? 1 : 1UL << (64 - __builtin_clzl(n - 1));
}

static inline unsigned long rounddown_pow_of_two(unsigned long n)
{
	return 1UL << (63 - __builtin_clzl(n));
}

/* ---- locking, memory and scheduler context: single-threaded no-ops ---- */

static inline void rcu_read_lock(void) { }
static inline void rcu_read_unlock(void) { }
static inline unsigned int memalloc_nofs_save(void) { return 0; }
static inline void memalloc_nofs_restore(unsigned int flags) { (void)flags; }
static inline void psi_memstall_enter(unsigned long *flags) { (void)flags; }
static inline void psi_memstall_leave(unsigned long *flags) { (void)flags; }
/* Whether the task's block cgroup is congested: tests set it. */
extern bool shim_blkcg_congested;
static inline bool blk_cgroup_congested(void) { return shim_blkcg_congested; }

struct blk_plug {
	int depth;
};

/* Pages of RAM the readahead code may size itself against. */
extern unsigned long shim_totalram_pages;
static inline unsigned long totalram_pages(void)
{
	return shim_totalram_pages;
}

/*
 * <linux/memcontrol.h>: one memory cgroup, the reading task's, under a
 * parent; tests and the simulator's machine description set their limits.
 */
#define CONFIG_MEMCG 1
#define PAGE_COUNTER_MAX (LONG_MAX / 4096)
struct page_counter {
	unsigned long max;
	struct page_counter *parent;
};
struct mem_cgroup {
	struct page_counter memory;
};
extern struct mem_cgroup shim_memcg, shim_memcg_parent;
struct task_struct;
static inline bool mem_cgroup_disabled(void) { return false; }
static inline struct mem_cgroup *mem_cgroup_from_task(struct task_struct *p)
{
	(void)p;
	return &shim_memcg;
}
/* Both limits back to PAGE_COUNTER_MAX, as without a cgroup limit. */
void shim_memcg_reset(void);

/* ---- folios ---- */

enum shim_page_flag {
	PG_locked,
	PG_uptodate,
	PG_readahead,
	PG_workingset,
	PG_writeback,
	PG_error,
	PG_dirty,
};

#define SHIM_FOLIO_FIELDS						\
	unsigned long flags;						\
	pgoff_t index;							\
	struct address_space *mapping;					\
	int refcount;							\
	unsigned int order

struct folio {
	SHIM_FOLIO_FIELDS;
};

/* The same layout: the 6.1 file still touches a few struct pages. */
struct page {
	SHIM_FOLIO_FIELDS;
};

/* x86-64 with CONFIG_TRANSPARENT_HUGEPAGE, as the bench kernels have it. */
#define CONFIG_TRANSPARENT_HUGEPAGE 1
#define HPAGE_PMD_ORDER		9
#define HPAGE_PMD_NR		(1 << HPAGE_PMD_ORDER)
/* 6.1: the smaller of the xarray's limit (11) and the PMD order. */
#define MAX_PAGECACHE_ORDER	HPAGE_PMD_ORDER

static inline bool shim_test(const struct folio *f, int bit)
{
	return f->flags & (1UL << bit);
}

static inline void shim_set(struct folio *f, int bit)
{
	f->flags |= 1UL << bit;
}

static inline void shim_clear(struct folio *f, int bit)
{
	f->flags &= ~(1UL << bit);
}

static inline bool folio_test_locked(struct folio *f) { return shim_test(f, PG_locked); }
static inline bool folio_test_uptodate(struct folio *f) { return shim_test(f, PG_uptodate); }
static inline bool folio_test_readahead(struct folio *f) { return shim_test(f, PG_readahead); }
static inline bool folio_test_workingset(struct folio *f) { return shim_test(f, PG_workingset); }
static inline bool folio_test_writeback(struct folio *f) { return shim_test(f, PG_writeback); }
static inline bool folio_test_dirty(struct folio *f) { return shim_test(f, PG_dirty); }
static inline void folio_set_readahead(struct folio *f) { shim_set(f, PG_readahead); }
static inline void folio_clear_readahead(struct folio *f) { shim_clear(f, PG_readahead); }
static inline void folio_mark_uptodate(struct folio *f) { shim_set(f, PG_uptodate); }
static inline unsigned int folio_order(struct folio *f) { return f->order; }
static inline unsigned long folio_nr_pages(struct folio *f) { return 1UL << f->order; }
static inline bool folio_test_large(struct folio *f) { return f->order > 0; }
static inline bool PageWorkingset(struct page *p) { return shim_test((struct folio *)p, PG_workingset); }

static inline bool folio_trylock(struct folio *f)
{
	if (folio_test_locked(f))
		return false;
	shim_set(f, PG_locked);
	return true;
}

static inline void put_page(struct page *page)
{
	folio_put((struct folio *)page);
}

static inline struct page *__page_cache_alloc(gfp_t gfp)
{
	return (struct page *)filemap_alloc_folio(gfp, 0);
}

/* ---- the page cache index (an "xarray" of one address_space) ---- */

struct xarray {
	pgoff_t *keys;
	struct folio **slots;
	unsigned long capacity;	/* a power of two, or 0 */
	unsigned long count;
};

/* The harness keeps no shadow entries: nothing is a value entry. */
static inline bool xa_is_value(const void *entry)
{
	return ((uintptr_t)entry & 1) != 0;
}

/* ---- address_space, inode, backing device, file ---- */

#include "shim_debugfs.h"
#include "shim_lib.h"

struct readahead_control;
struct file;

struct address_space_operations {
	int (*read_folio)(struct file *file, struct folio *folio);
	void (*readahead)(struct readahead_control *ractl);
};

struct address_space {
	struct inode *host;
	struct xarray i_pages;
	const struct address_space_operations *a_ops;
	gfp_t gfp_mask;
	unsigned long nrpages;		/* pages in i_pages, as 6.1 counts */
	bool large_folios;
	/* 6.12: the smallest folio order the file takes (block > page). */
	unsigned int min_order;
};

struct backing_dev_info {
	unsigned long ra_pages;
	unsigned long io_pages;
};

struct inode {
	loff_t i_size;
	umode_t i_mode;
	unsigned long i_ino;
	struct super_block *i_sb;
	struct backing_dev_info *i_bdi;
	struct address_space i_data;
};

static inline loff_t i_size_read(const struct inode *inode)
{
	return inode->i_size;
}

static inline struct backing_dev_info *inode_to_bdi(struct inode *inode)
{
	return inode->i_bdi;
}

static inline gfp_t readahead_gfp_mask(struct address_space *mapping)
{
	return mapping->gfp_mask | __GFP_NORETRY | __GFP_NOWARN;
}

static inline bool mapping_large_folio_support(struct address_space *m)
{
	return m->large_folios;
}

/* 6.12's folio order bounds of a mapping; 6.1 has neither. */
static inline unsigned int mapping_min_folio_order(struct address_space *m)
{
	return m->min_order;
}

static inline unsigned long mapping_min_folio_nrpages(struct address_space *m)
{
	return 1UL << m->min_order;
}

static inline unsigned int mapping_max_folio_order(struct address_space *m)
{
	return m->large_folios ? MAX_PAGECACHE_ORDER : 0;
}

/* @index rounded down to the mapping's smallest folio. */
static inline pgoff_t mapping_align_index(struct address_space *m,
					  pgoff_t index)
{
	return round_down(index, mapping_min_folio_nrpages(m));
}

static inline void filemap_invalidate_lock_shared(struct address_space *m) { (void)m; }
static inline void filemap_invalidate_unlock_shared(struct address_space *m) { (void)m; }


/* Error pointers, as linux/err.h has them. */
#define MAX_ERRNO	4095
#define IS_ERR_VALUE(x)	((unsigned long)(void *)(x) >= (unsigned long)-MAX_ERRNO)
static inline void *ERR_PTR(long error) { return (void *)error; }
static inline long PTR_ERR(const void *ptr) { return (long)ptr; }
static inline bool IS_ERR(const void *ptr) { return IS_ERR_VALUE(ptr); }
static inline bool IS_ERR_OR_NULL(const void *ptr)
{
	return !ptr || IS_ERR_VALUE(ptr);
}

/*
 * filemap_get_folio(): the folio at @index, referenced; where there is
 * none, ERR_PTR(-ENOENT), as since 6.3 (6.1's returns NULL: so for ours
 * built as the 6.1 backport).
 */
static inline struct folio *filemap_get_folio(struct address_space *mapping,
					      pgoff_t index)
{
	struct folio *folio = xa_load(&mapping->i_pages, index);

	if (!folio || xa_is_value(folio))
#ifdef RA_OURS_BASE_61
		return NULL;
#else
		return ERR_PTR(-ENOENT);
#endif
	folio_get(folio);
	return folio;
}

static inline int add_to_page_cache_lru(struct page *page,
		struct address_space *mapping, pgoff_t index, gfp_t gfp)
{
	return filemap_add_folio(mapping, (struct folio *)page, index, gfp);
}

/*
 * As patches/0006 makes it, but for mmap_miss: an unsigned short in the
 * kernel (ours and 6.1 stop it at 1000), an unsigned int here, so that
 * the 2009 models of replay/ keep 2.6.30's range (its count went below
 * zero, read as an int).
 */
struct file_ra_state {
	pgoff_t start;
	unsigned int size;
	unsigned int async_size;
	unsigned int ra_pages;
	unsigned short order;
	unsigned char thrash_cut;
	unsigned int mmap_miss;
	loff_t prev_pos;
};

#define FMODE_READ	0x1u
#define FMODE_WRITE	0x2u
#define FMODE_RANDOM	0x1000u

struct file {
	struct file_ra_state f_ra;
	struct address_space *f_mapping;
	struct inode *f_inode;
	fmode_t f_mode;
	struct path f_path;
	void *private_data;
};

static inline struct inode *file_inode(const struct file *f)
{
	return f->f_inode;
}

struct fd {
	struct file *file;
	unsigned int flags;
};

static inline void fdput(struct fd f) { (void)f; }

/* 6.12's accessors, and its CLASS(fd, f)(fd): fdget(), fdput() at exit. */
#define fd_file(f)	((f).file)
#define fd_empty(f)	(!(f).file)
typedef struct fd class_fd_t;
static inline void class_fd_destructor(struct fd *f) { fdput(*f); }
#define class_fd_constructor(fd) fdget(fd)
#define CLASS(name, var)						\
	class_##name##_t var						\
	__attribute__((__cleanup__(class_##name##_destructor))) =	\
	class_##name##_constructor

#ifndef POSIX_FADV_NORMAL
#define POSIX_FADV_NORMAL	0
#define POSIX_FADV_RANDOM	1
#define POSIX_FADV_SEQUENTIAL	2
#define POSIX_FADV_WILLNEED	3
#define POSIX_FADV_DONTNEED	4
#define POSIX_FADV_NOREUSE	5
#endif

int vfs_fadvise(struct file *file, loff_t offset, loff_t len, int advice);

/* ---- readahead_control and its accessors ---- */

struct readahead_control {
	struct file *file;
	struct address_space *mapping;
	struct file_ra_state *ra;
	pgoff_t _index;
	unsigned int _nr_pages;
	unsigned int _batch_count;
	bool _workingset;
	unsigned long _pflags;
};

#define DEFINE_READAHEAD(ractl, f, r, m, i)				\
	struct readahead_control ractl = {				\
		.file = f,						\
		.mapping = m,						\
		.ra = r,						\
		._index = i,						\
	}

#define VM_READAHEAD_PAGES	(SZ_128K / PAGE_SIZE)

static inline pgoff_t readahead_index(struct readahead_control *rac)
{
	return rac->_index;
}

static inline unsigned int readahead_count(struct readahead_control *rac)
{
	return rac->_nr_pages;
}

static inline loff_t readahead_pos(struct readahead_control *rac)
{
	return (loff_t)rac->_index * PAGE_SIZE;
}

/* Step past the folios handed out so far; return the next one, locked. */
static inline struct folio *__readahead_folio(struct readahead_control *rac)
{
	struct folio *folio;

	BUG_ON(rac->_batch_count > rac->_nr_pages);
	rac->_nr_pages -= rac->_batch_count;
	rac->_index += rac->_batch_count;
	rac->_batch_count = 0;
	if (!rac->_nr_pages)
		return NULL;
	folio = xa_load(&rac->mapping->i_pages, rac->_index);
	BUG_ON(!folio || !folio_test_locked(folio));
	rac->_batch_count = folio_nr_pages(folio);
	return folio;
}

/* As above, dropping the allocation's reference: the cache keeps one. */
static inline struct folio *readahead_folio(struct readahead_control *rac)
{
	struct folio *folio = __readahead_folio(rac);

	if (folio)
		folio_put(folio);
	return folio;
}

/* The entry points both readahead implementations provide. */
void file_ra_state_init(struct file_ra_state *ra,
			struct address_space *mapping);
void page_cache_ra_unbounded(struct readahead_control *ractl,
			     unsigned long nr_to_read,
			     unsigned long lookahead_count);
void page_cache_sync_ra(struct readahead_control *ractl,
			unsigned long req_count);
void page_cache_async_ra(struct readahead_control *ractl,
			 struct folio *folio, unsigned long req_count);
void readahead_expand(struct readahead_control *ractl,
		      loff_t new_start, size_t new_len);
void page_cache_ra_order(struct readahead_control *ractl,
			 struct file_ra_state *ra, unsigned int order);
void force_page_cache_ra(struct readahead_control *ractl,
			 unsigned long nr);
ssize_t ksys_readahead(int fd, loff_t offset, size_t count);
long sys_readahead(int fd, loff_t offset, size_t count);

/* mm/internal.h's wrapper, used by the 6.1 file's fadvise path. */
static inline void force_page_cache_readahead(struct address_space *mapping,
		struct file *file, pgoff_t index, unsigned long nr_to_read)
{
	DEFINE_READAHEAD(ractl, file, &file->f_ra, mapping, index);
	force_page_cache_ra(&ractl, nr_to_read);
}

#define SYSCALL_DEFINE3(name, t1, a1, t2, a2, t3, a3)			\
	long sys_##name(t1 a1, t2 a2, t3 a3)

/* ---- mmap faults ---- */

#define CONFIG_MMU 1
#define VM_SEQ_READ	0x00008000UL
#define VM_RAND_READ	0x00010000UL
#define VM_HUGEPAGE	0x20000000UL
#define FAULT_FLAG_TRIED	0x20u

struct vm_area_struct {
	unsigned long vm_flags;
	struct file *vm_file;
};

struct vm_fault {
	struct vm_area_struct *vma;
	pgoff_t pgoff;
	unsigned int flags;
};

/*
 * The harness holds no mmap_lock, so nothing is ever dropped; but the
 * fault would be retried (VM_FAULT_RETRY) once the I/O is submitted, and
 * shim_mmap_lock_dropped says so.
 */
extern bool shim_mmap_lock_dropped;
static inline struct file *maybe_unlock_mmap_for_io(struct vm_fault *vmf,
						     struct file *fpin)
{
	(void)vmf;
	shim_mmap_lock_dropped = true;
	return fpin;
}

struct file *page_cache_mmap_sync_ra(struct vm_fault *vmf);
struct file *page_cache_mmap_async_ra(struct vm_fault *vmf,
				      struct folio *folio);
void page_cache_mmap_map_hits(struct vm_fault *vmf, unsigned int hits,
			      bool mapped);

#endif /* RA_SHIM_H */
