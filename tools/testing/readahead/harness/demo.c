// SPDX-License-Identifier: GPL-2.0
/*
 * demo.c - the July 2009 reports' access patterns through both
 * implementations.
 *
 * Runs a few scenarios in the harness with ours and with the pristine
 * 6.1 file and prints, for each, the readahead windows and a table of
 * I/O requests, synchronous readahead calls and duplicate work.  (The
 * disk-level demo belongs to the simulator.)
 */
#include "harness.h"

#include <string.h>

struct scenario {
	const char *name;
	void (*run)(void);
	bool show_windows;
};

static void one_stream(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	pgoff_t i;

	for (i = 0; i < 256; i++)
		h_read(f, i * 4096, 4096);
}

/* fio numjobs=4 on one file, each job at its own pace. */
static void four_readers(void)
{
	static const int steps[4] = { 3, 5, 7, 11 };
	struct h_file *r[4];
	pgoff_t pos[4] = { 0 };
	bool busy = true;
	int i, k;

	r[0] = h_create(16 << 20, 256);
	for (i = 1; i < 4; i++)
		r[i] = h_reopen(r[0]);
	while (busy) {
		busy = false;
		for (i = 0; i < 4; i++)
			for (k = 0; k < steps[i] && pos[i] < 4096; k++, busy = true)
				h_read(r[i], (loff_t)pos[i]++ * 4096, 4096);
	}
}

/*
 * Two readers that keep taking each other's markers (the trace posted to
 * LKML on 2009-07-01).
 */
static void marker_chase(void)
{
	struct h_file *a = h_create(16 << 20, 256);
	struct h_file *b = h_reopen(a);
	pgoff_t pa = 0, pb = 0;

	while (pa < 4096 || pb < 4096) {
		int k;

		for (k = 0; k < 20 && pa < 4096; k++)
			h_read(a, (loff_t)pa++ * 4096, 4096);
		for (k = 0; k < 60 && pb < 4096; k++)
			h_read(b, (loff_t)pb++ * 4096, 4096);
		if (pb > pa + 200)
			pb = pa;	/* b rereads a little behind a */
	}
}

static void mmap_sequential(void)
{
	struct h_file *f = h_create(1 << 20, 128);
	pgoff_t i;

	for (i = 0; i < 256; i++)
		h_fault(f, i, VM_SEQ_READ);
}

static const struct scenario scenarios[] = {
	{ "one reader, 4 KB read(2), 128 KB max", one_stream, true },
	{ "mmap MADV_SEQUENTIAL, 128 KB max", mmap_sequential, true },
	{ "4 readers of one file, 1 MB max", four_readers, false },
	{ "2 readers chasing markers, 1 MB max", marker_chase, false },
};

int main(void)
{
	const struct ra_impl *impls[] = { &ra_ours, &ra_pristine };
	unsigned int s, i;

	printf("%-40s %-9s %8s %8s %6s %9s %10s\n", "scenario", "impl",
	       "requests", "mean KB", "sync", "all-cached", "dup pages");
	for (s = 0; s < sizeof(scenarios) / sizeof(scenarios[0]); s++) {
		char windows[2][512];

		for (i = 0; i < 2; i++) {
			unsigned long reqs;

			ra_impl = impls[i];
			h_log_reset();
			scenarios[s].run();
			reqs = h_io_requests();
			printf("%-40s %-9s %8lu %8.1f %6lu %9lu %10lu\n",
			       i ? "" : scenarios[s].name, ra_impl->name, reqs,
			       reqs ? 4.0 * h_pages_submitted() / reqs : 0.0,
			       h_sync_calls(), h_all_cached_calls(),
			       h_cached_in_windows());
			snprintf(windows[i], sizeof(windows[i]), "%.*s",
				 (int)sizeof(windows[i]) - 1, h_windows());
			h_close_all();
		}
		if (scenarios[s].show_windows)
			printf("    windows, ours:     %.100s...\n"
			       "    windows, pristine: %.100s...\n",
			       windows[0], windows[1]);
	}
	return 0;
}
