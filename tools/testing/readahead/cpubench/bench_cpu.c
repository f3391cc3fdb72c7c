// SPDX-License-Identifier: GPL-2.0
/*
 * bench_cpu.c - fixed scenarios for counting the instructions readahead
 * costs, one implementation and one scenario per run (for callgrind).
 *
 * Usage: ra_bench_cpu ours|pristine SCENARIO order0|large [outcomes]
 *        ra_bench_cpu --list
 *
 * The harness's read(2) and fault paths drive the implementation through
 * bench_sync(), bench_async(), bench_fault_sync() and bench_fault_async(),
 * which only call its entry points: callgrind collects inside them alone
 * (--toggle-collect=bench_*), so what it counts is the implementation and
 * the page cache, allocation and filesystem work below it.  The
 * filesystem completes each folio at once and logs nothing.  Prints the
 * pages the readers asked for, the divisor of "instructions per page".
 * With "outcomes" (a build with the debugfs view and the window outcomes,
 * RA_DEBUGFS=y), outcome tracking is switched on first, as writing 1 to
 * /sys/kernel/debug/readahead/outcome_enable does: bench-cpu.sh counts
 * what it costs.
 */
#include "harness.h"

#include <string.h>

#define FILE_PAGES	16384UL		/* a 64 MB file */
#define RA_KB		128		/* the default read_ahead_kb */

static const struct ra_impl *real;

noinline void bench_sync(struct readahead_control *ractl,
			 unsigned long req);
noinline void bench_async(struct readahead_control *ractl,
			  struct folio *folio, unsigned long req);
noinline struct file *bench_fault_sync(struct vm_fault *vmf);
noinline struct file *bench_fault_async(struct vm_fault *vmf,
					struct folio *folio);

void bench_sync(struct readahead_control *ractl, unsigned long req)
{
	real->sync_ra(ractl, req);
}

void bench_async(struct readahead_control *ractl, struct folio *folio,
		 unsigned long req)
{
	real->async_ra(ractl, folio, req);
}

struct file *bench_fault_sync(struct vm_fault *vmf)
{
	return real->fault_sync(vmf);
}

struct file *bench_fault_async(struct vm_fault *vmf, struct folio *folio)
{
	return real->fault_async(vmf, folio);
}

static struct ra_impl wrapped;

/* ---- a filesystem whose reads complete at once ---- */

static void lean_complete(struct folio *folio)
{
	folio_mark_uptodate(folio);
	folio_unlock(folio);
}

static void lean_readahead(struct readahead_control *ractl)
{
	struct folio *folio;

	while ((folio = readahead_folio(ractl)))
		lean_complete(folio);
}

static int lean_read_folio(struct file *file, struct folio *folio)
{
	(void)file;
	lean_complete(folio);
	return 0;
}

static const struct address_space_operations lean_aops = {
	.read_folio = lean_read_folio,
	.readahead = lean_readahead,
};

static bool large;

static struct h_file *bench_file(void)
{
	struct h_file *f = h_create((loff_t)FILE_PAGES << PAGE_SHIFT, RA_KB);

	f->inode.i_data.a_ops = &lean_aops;
	h_set_large_folios(f, large);
	return f;
}

/* The harness logs every call: keep its buffers from filling up. */
static void tick(unsigned long n)
{
	if (!(n % 256))
		h_log_reset();
}

/* ---- scenarios: each returns the pages its readers asked for ---- */

static unsigned long read_through(unsigned long bytes)
{
	struct h_file *f = bench_file();
	loff_t pos;
	unsigned long n = 0;

	for (pos = 0; pos < (loff_t)FILE_PAGES << PAGE_SHIFT; pos += bytes) {
		h_read(f, pos, bytes);
		tick(++n);
	}
	return FILE_PAGES;
}

static unsigned long seq_4k(void)
{
	return read_through(4096);
}

static unsigned long seq_128k(void)
{
	return read_through(128 << 10);
}

/* Four readers of one file at their own paces (3, 5, 7, 11 pages a turn). */
static unsigned long readers_4(void)
{
	static const int steps[4] = { 3, 5, 7, 11 };
	struct h_file *r[4];
	pgoff_t pos[4] = { 0 };
	unsigned long n = 0;
	bool busy = true;
	int i, k;

	r[0] = bench_file();
	for (i = 1; i < 4; i++)
		r[i] = h_reopen(r[0]);
	while (busy) {
		busy = false;
		for (i = 0; i < 4; i++)
			for (k = 0; k < steps[i] && pos[i] < FILE_PAGES; k++) {
				h_read(r[i], (loff_t)pos[i]++ << PAGE_SHIFT,
				       4096);
				tick(++n);
				busy = true;
			}
	}
	return 4 * FILE_PAGES;
}

/* A fault on every page of a mapping without hints. */
static unsigned long mmap_seq(void)
{
	struct h_file *f = bench_file();
	pgoff_t i;

	for (i = 0; i < FILE_PAGES; i++) {
		h_fault(f, i, 0);
		tick(i + 1);
	}
	return FILE_PAGES;
}

/* 4096 reads of 4 KB at random pages (a fixed sequence). */
static unsigned long random_4k(void)
{
	struct h_file *f = bench_file();
	unsigned long x = 12345, i;

	for (i = 0; i < 4096; i++) {
		x = x * 6364136223846793005UL + 1442695040888963407UL;
		h_read(f, (loff_t)((x >> 33) % FILE_PAGES) << PAGE_SHIFT,
		       4096);
		tick(i + 1);
	}
	return 4096;
}

static const struct {
	const char *name;
	unsigned long (*run)(void);
} scenarios[] = {
	{ "read-4k", seq_4k },
	{ "read-128k", seq_128k },
	{ "read-4k-4readers", readers_4 },
	{ "mmap-faults", mmap_seq },
	{ "random-4k", random_4k },
};

#define NR_SCENARIOS	(sizeof(scenarios) / sizeof(scenarios[0]))

int main(int argc, char **argv)
{
	unsigned int i;

	if (argc == 2 && !strcmp(argv[1], "--list")) {
		for (i = 0; i < NR_SCENARIOS; i++)
			printf("%s\n", scenarios[i].name);
		return 0;
	}
	if (argc < 4 || argc > 5 || (strcmp(argv[1], "ours") &&
				     strcmp(argv[1], "pristine")) ||
	    (strcmp(argv[3], "order0") && strcmp(argv[3], "large")) ||
	    (argc == 5 && strcmp(argv[4], "outcomes"))) {
		fprintf(stderr, "usage: %s ours|pristine SCENARIO order0|large"
			" [outcomes]\n       %s --list\n", argv[0], argv[0]);
		return 2;
	}
	if (argc == 5 &&
	    h_debugfs_write("readahead/outcome_enable", "1") < 0) {
		fprintf(stderr, "%s: no outcome tracking: built without"
			" RA_DEBUGFS=y\n", argv[0]);
		return 2;
	}
	real = strcmp(argv[1], "ours") ? &ra_pristine : &ra_ours;
	large = !strcmp(argv[3], "large");
	wrapped = *real;
	wrapped.sync_ra = bench_sync;
	wrapped.async_ra = bench_async;
	wrapped.fault_sync = bench_fault_sync;
	wrapped.fault_async = bench_fault_async;
	ra_impl = &wrapped;
	shim_trace_sink = NULL;
	shim_tracepoint_set_sink(NULL);
	for (i = 0; i < NR_SCENARIOS; i++)
		if (!strcmp(argv[2], scenarios[i].name)) {
			printf("pages %lu\n", scenarios[i].run());
			h_close_all();
			return 0;
		}
	fprintf(stderr, "%s: no scenario %s\n", argv[0], argv[2]);
	return 2;
}
