// SPDX-License-Identifier: GPL-2.0
/*
 * shim.c - the state behind shim.h that every program on the shims shares.
 *
 * Linked by the harness, the simulator, the replay and the fuzzer, whose
 * page caches differ (harness/pagecache.c, sim/pagecache.c) but whose
 * kernel is the same: what BUG_ON() and WARN_ON_ONCE() do when they fire (report and
 * abort, so that a test or the fuzzer sees a crash), and the RAM that
 * totalram_pages() reports and the reader's memory cgroup limits, which
 * tests and the simulator's machine description set, and whether
 * blk_cgroup_congested() says so; the clock and the slab's refusals of
 * shim_lib.h.
 */
#include "shim.h"

unsigned long shim_totalram_pages = 262144;	/* 1 GiB */
bool shim_blkcg_congested;
unsigned long long shim_clock_ns;
unsigned long long (*shim_clock_fn)(void);
long shim_kmalloc_fail = -1;
struct mem_cgroup shim_memcg_parent = {
	.memory = { .max = PAGE_COUNTER_MAX },
};
struct mem_cgroup shim_memcg = {
	.memory = { .max = PAGE_COUNTER_MAX,
		    .parent = &shim_memcg_parent.memory },
};

void shim_memcg_reset(void)
{
	shim_memcg.memory.max = PAGE_COUNTER_MAX;
	shim_memcg_parent.memory.max = PAGE_COUNTER_MAX;
}
bool shim_mmap_lock_dropped;

void shim_bug(const char *file, int line, const char *what)
{
	fprintf(stderr, "BUG at %s:%d: %s\n", file, line, what);
	abort();
}
