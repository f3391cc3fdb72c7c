/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shim_lib.h - the kernel library that mm/readahead_outcome.c uses, for
 * one thread: lists, hash lists and hash tables, bitmaps, slab allocation
 * (the host's malloc: a refused allocation is the tests' to ask for with
 * shim_kmalloc_fail), spinlocks, mutexes and cond_resched() (nothing runs
 * beside the holder), 64-bit division and the clock ktime_get_ns(): shim_clock_fn()
 * where set (the simulator's time), else shim_clock_ns, which the tests
 * set, so that lead times are exact.
 */
#ifndef RA_SHIM_LIB_H
#define RA_SHIM_LIB_H

#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))

#define BITS_PER_LONG		(8 * (int)sizeof(long))
#define BIT(nr)			(1UL << (nr))
#define BITS_TO_LONGS(n)	(((n) + BITS_PER_LONG - 1) / BITS_PER_LONG)
#define DECLARE_BITMAP(name, bits)	unsigned long name[BITS_TO_LONGS(bits)]

/* ---- the clock ---- */

extern unsigned long long shim_clock_ns;
extern unsigned long long (*shim_clock_fn)(void);

static inline unsigned long long ktime_get_ns(void)
{
	return shim_clock_fn ? shim_clock_fn() : shim_clock_ns;
}

static inline unsigned long long div64_u64(unsigned long long a,
					   unsigned long long b)
{
	return a / b;
}

/* ---- bitmaps ---- */

static inline void bitmap_zero(unsigned long *map, unsigned long bits)
{
	memset(map, 0, BITS_TO_LONGS(bits) * sizeof(long));
}

static inline bool test_bit(unsigned long nr, const unsigned long *map)
{
	return map[nr / BITS_PER_LONG] & BIT(nr % BITS_PER_LONG);
}

static inline void __set_bit(unsigned long nr, unsigned long *map)
{
	map[nr / BITS_PER_LONG] |= BIT(nr % BITS_PER_LONG);
}

static inline bool __test_and_set_bit(unsigned long nr, unsigned long *map)
{
	bool old = test_bit(nr, map);

	__set_bit(nr, map);
	return old;
}

static inline bool __test_and_clear_bit(unsigned long nr, unsigned long *map)
{
	bool old = test_bit(nr, map);

	map[nr / BITS_PER_LONG] &= ~BIT(nr % BITS_PER_LONG);
	return old;
}

/* ---- slab ---- */

#define GFP_NOWAIT	0x8u

/* Allocations left before one is refused; -1: none is. */
extern long shim_kmalloc_fail;

static inline void *kzalloc(size_t size, unsigned int gfp)
{
	(void)gfp;
	if (shim_kmalloc_fail >= 0 && shim_kmalloc_fail-- == 0)
		return NULL;
	return calloc(1, size);
}

static inline void *kvcalloc(size_t n, size_t size, unsigned int gfp)
{
	return kzalloc(n * size, gfp);
}

static inline void kfree(const void *p)
{
	free((void *)p);
}

#define kvfree(p)	kfree(p)
#define struct_size(p, member, n)					\
	(sizeof(*(p)) + (n) * sizeof((p)->member[0]))

/* ---- locks: one thread, so only their shape ---- */

typedef struct { int held; } spinlock_t;
struct mutex { int held; };

/* Nothing else to run: a reschedule point is a no-op. */
static inline void cond_resched(void) { }

#define DEFINE_SPINLOCK(name)	spinlock_t name = { 0 }
#define DEFINE_MUTEX(name)	struct mutex name = { 0 }
#define spin_lock_irqsave(l, flags)	((flags) = 0, (l)->held++)
#define spin_unlock_irqrestore(l, flags)	((void)(flags), (l)->held--)
#define mutex_lock(m)		((m)->held++)
#define mutex_unlock(m)		((m)->held--)

/* ---- lists ---- */

struct list_head {
	struct list_head *next, *prev;
};

#define LIST_HEAD(name)	struct list_head name = { &(name), &(name) }
#define list_entry(ptr, type, member)	container_of(ptr, type, member)
#define list_first_entry(head, type, member)				\
	list_entry((head)->next, type, member)
#define list_next_entry(pos, member)					\
	list_entry((pos)->member.next, __typeof__(*(pos)), member)
#define list_for_each_entry_safe(pos, n, head, member)			\
	for (pos = list_first_entry(head, __typeof__(*pos), member),	\
	     n = list_next_entry(pos, member);				\
	     &pos->member != (head);					\
	     pos = n, n = list_next_entry(n, member))

static inline void list_add_tail(struct list_head *new,
				 struct list_head *head)
{
	new->prev = head->prev;
	new->next = head;
	head->prev->next = new;
	head->prev = new;
}

static inline void list_del(struct list_head *entry)
{
	entry->prev->next = entry->next;
	entry->next->prev = entry->prev;
	entry->next = entry->prev = NULL;
}

/* ---- hash lists and hash tables ---- */

struct hlist_node {
	struct hlist_node *next, **pprev;
};

struct hlist_head {
	struct hlist_node *first;
};

static inline void hlist_add_head(struct hlist_node *n, struct hlist_head *h)
{
	n->next = h->first;
	if (h->first)
		h->first->pprev = &n->next;
	h->first = n;
	n->pprev = &h->first;
}

static inline void hlist_del(struct hlist_node *n)
{
	*n->pprev = n->next;
	if (n->next)
		n->next->pprev = n->pprev;
	n->next = NULL;
	n->pprev = NULL;
}

#define GOLDEN_RATIO_64	0x61C8864680B583EBull

static inline unsigned int hash_64(unsigned long long val, unsigned int bits)
{
	return (unsigned int)((val * GOLDEN_RATIO_64) >> (64 - bits));
}

#define hash_long(val, bits)	hash_64((unsigned long)(val), bits)
#define hash_ptr(ptr, bits)	hash_long((unsigned long)(ptr), bits)

#define DEFINE_HASHTABLE(name, bits)					\
	struct hlist_head name[1 << (bits)]
#define HASH_BITS(name)		(__builtin_ctzl(ARRAY_SIZE(name)))
#define hash_add(table, node, key)					\
	hlist_add_head(node, &(table)[hash_long(key, HASH_BITS(table))])
#define hash_del(node)		hlist_del(node)
#define hlist_entry_safe(ptr, type, member)				\
	({ __typeof__(ptr) ____ptr = (ptr);				\
	   ____ptr ? container_of(____ptr, type, member) : NULL; })
#define hlist_for_each_entry_safe(pos, n, head, member)		\
	for (pos = hlist_entry_safe((head)->first, __typeof__(*pos), member); \
	     pos && ({ n = pos->member.next; 1; });			\
	     pos = hlist_entry_safe(n, __typeof__(*pos), member))
#define hash_for_each_possible_safe(table, obj, tmp, member, key)	\
	hlist_for_each_entry_safe(obj, tmp,				\
		&(table)[hash_long(key, HASH_BITS(table))], member)

#endif /* RA_SHIM_LIB_H */
