// SPDX-License-Identifier: GPL-2.0
/*
 * mmap.c - the page fault path: read-around, the miss counter's back-off
 * and recovery, MADV_SEQUENTIAL, MADV_RANDOM and fault streams.
 */
#include "test.h"

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#define MB(n)	((loff_t)(n) << 20)

/* Read-around: a window of the maximum centred on the fault. */
static void read_around(void)
{
	struct h_file *f = h_create(MB(8), 128);

	EXPECT_INT("major", h_fault(f, 500, 0), 1);
	EXPECT_STR("calls", h_calls(), "fault-miss 500+1 484+32-8 =32");
	EXPECT_STR("io", h_io(), "484-515[508]");
	EXPECT_INT("minor", h_fault(f, 510, 0), 0);
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 0);
}

/* Read-around at the start of the file does not go below page 0. */
static void read_around_at_start(void)
{
	struct h_file *f = h_create(MB(8), 128);

	h_fault(f, 3, 0);
	EXPECT_STR("io", h_io(), "0-31[24]");
}

/* Faults far apart miss 100 times; then read-around stops, until hits
 * bring the count back under the limit. */
static void miss_backoff_and_recovery(void)
{
	struct h_file *f = h_create(MB(80), 128);
	pgoff_t i;

	for (i = 0; i < 100; i++)
		h_fault(f, 100 + i * 100, 0);
	EXPECT_INT("windows read", h_pages_submitted(), 100 * 32);
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 100);
	h_log_reset();
	h_fault(f, 15000, 0);
	h_fault(f, 15200, 0);
	EXPECT_STR("given up", h_io(), "15000r 15200r");
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 102);
	for (i = 0; i < 3; i++)
		h_fault(f, 100 + i * 100, 0);	/* hits */
	EXPECT_INT("mmap_miss after hits", f->file.f_ra.mmap_miss, 99);
	h_log_reset();
	h_fault(f, 16000, 0);
	EXPECT_STR("recovered", h_io(), "15984-16015[16008]");
}

/*
 * The miss count stops at 1000: after 1100 misses, 901 hits bring it to
 * 99, and the next miss reads around again; one hit fewer and it does not.
 */
static void miss_ceiling(void)
{
	struct h_file *f = h_create(MB(512), 128);
	pgoff_t i;

	for (i = 0; i < 1100; i++)
		h_fault(f, 100 + i * 100, 0);
	EXPECT_INT("mmap_miss at the ceiling", f->file.f_ra.mmap_miss, 1000);
	for (i = 0; i < 900; i++)
		h_fault(f, 100, 0);	/* hits */
	h_log_reset();
	h_fault(f, 120000, 0);
	EXPECT_STR("900 hits: still given up", h_io(), "120000r");
	for (i = 0; i < 2; i++)
		h_fault(f, 100, 0);
	h_log_reset();
	h_fault(f, 125000, 0);
	EXPECT_STR("902 hits: read-around again", h_io(),
		   "124984-125015[125008]");
}

/*
 * MADV_SEQUENTIAL faults: the mapping will be read in order, so the first
 * fault reads a whole window, marked halfway (as a read(2) of the maximum
 * window); then the windows of a read(2) stream.
 */
static void madv_sequential(void)
{
	struct h_file *m = h_create(MB(1), 128);
	pgoff_t i;

	for (i = 0; i < 92; i++)
		h_fault(m, i, VM_SEQ_READ);
	EXPECT_STR("windows", h_windows(),
		   "0+32-16 32+32-32 64+32-32 96+32-32");
	EXPECT_INT("major faults", h_major_faults(), 1);
}

/* Without hints, a fault stream continues from read-around. */
static void unhinted_stream(void)
{
	struct h_file *f = h_create(MB(1), 128);
	pgoff_t i;

	for (i = 0; i < 130; i++)
		h_fault(f, i, 0);
	EXPECT_STR("windows", h_windows(),
		   "0+32-8 32+32-32 64+32-32 96+32-32 128+32-32 160+32-32");
	EXPECT_INT("major faults", h_major_faults(), 1);
}

/*
 * MADV_SEQUENTIAL from the middle of a file: the first fault reads a
 * whole window from there, marked halfway.
 */
static void madv_sequential_midfile(void)
{
	struct h_file *f = h_create(MB(1), 128);
	pgoff_t i;

	for (i = 100; i < 110; i++)
		h_fault(f, i, VM_SEQ_READ);
	EXPECT_STR("io", h_io(), "100-131[116]");
}

/* MADV_RANDOM: no readahead at all, one page per fault. */
static void madv_random(void)
{
	struct h_file *f = h_create(MB(1), 128);

	h_fault(f, 50, VM_RAND_READ);
	h_fault(f, 51, VM_RAND_READ);
	h_fault(f, 10, VM_RAND_READ);
	EXPECT_STR("io", h_io(), "50r 51r 10r");
	EXPECT_STR("windows", h_windows(), "");
}

/*
 * Once read-around has given up on this file, faults read the page they
 * need and nothing more, even on consecutive pages, as 6.12 reads them:
 * without a hint nothing tells the start of a stream from random faults.
 */
static void faults_after_backoff(void)
{
	struct h_file *f = h_create(MB(80), 128);
	pgoff_t i;

	for (i = 0; i < 101; i++)
		h_fault(f, 100 + i * 100, 0);
	h_log_reset();
	for (i = 0; i < 6; i++)
		h_fault(f, 18000 + i, 0);
	EXPECT_STR("io", h_io(), "18000r 18001r 18002r 18003r 18004r 18005r");
}

/*
 * The window read around page 500 ends at 515; faults walk through it
 * past its marker (508: fault-around maps it without a fault), and the
 * miss at 516 is read around again, as 6.12 reads it: the new window
 * is centred on 516, its first half cached, and only 516-531 is read.
 */
static void miss_after_read_around(void)
{
	struct h_file *f = h_create(MB(8), 128);
	pgoff_t i;

	h_fault(f, 500, 0);
	for (i = 509; i < 516; i++)
		h_fault(f, i, 0);
	EXPECT_INT("page before cached, miss", h_fault(f, 516, 0), 1);
	EXPECT_STR("io", h_io(), "484-515[508] 516-531[524]");
	EXPECT_STR("windows", h_windows(), "484+32-8 500+32-8");
}

/* Faults past the end of the file are refused before any readahead. */
static void fault_past_eof(void)
{
	struct h_file *f = h_create(3 * 4096 + 1, 128);

	EXPECT_INT("sigbus", h_fault(f, 4, 0), -EFAULT);
	EXPECT_INT("last page", h_fault(f, 3, 0), 1);
	EXPECT_STR("io", h_io(), "0-3");
}

/*
 * VM_HUGEPAGE: two PMDs (1024 pages) from the fault's PMD, the second
 * asynchronous.  The marker moves the stream on by windows of the same
 * size.  Memory does not bound them: with 256 MB, the same windows, and
 * the folios PMD-sized, so that they can be mapped as huge pages.
 */
static void huge_page_window(void)
{
	struct h_file *f = h_create(MB(16), 128);
	struct h_file *g = h_create(MB(16), 128);

	h_fault(f, 700, VM_HUGEPAGE);
	EXPECT_STR("calls", h_calls(), "fault-miss 700+1 512+1024-512 =1024");
	EXPECT_STR("io", h_io(), "512-1535[1024]");
	h_log_reset();
	h_fault(f, 1024, VM_HUGEPAGE);
	EXPECT_STR("next", h_calls(), "fault-hit 1024+1 1536+1024-1024 =1024");
	h_log_reset();
	shim_totalram_pages = MB(256) / 4096;
	h_fault(g, 700, VM_HUGEPAGE);
	EXPECT_STR("256 MB", h_calls(), "fault-miss 700+1 512+1024-512 =1024");
	h_log_reset();
	h_fault(g, 1024, VM_HUGEPAGE);
	EXPECT_STR("256 MB, next", h_calls(),
		   "fault-hit 1024+1 1536+1024-1024 =1024");
}

/*
 * A huge page mapping read in order from its ninth PMD: the first fault
 * reads two PMDs, and every marker after it the next ones, so the reader
 * waits once.  A window whose start is left where an earlier one began
 * explains no marker, and the reader would wait on every second PMD.
 */
static void huge_page_stream(void)
{
	struct h_file *f = h_create(MB(32), 128);
	int major = 0;
	pgoff_t i;

	for (i = 4096; i < 8192; i += 64)
		major += h_fault(f, i, VM_HUGEPAGE);
	EXPECT_INT("major faults", major, 1);
	EXPECT_STR("io", h_io(),
		   "4096-5119[4608] 5120-6143[5120] 6144-7167[6144] "
		   "7168-8191[7168]");
}

/* MADV_RANDOM on a huge page mapping: one PMD, and readahead off too. */
static void huge_page_random_and_off(void)
{
	struct h_file *f = h_create(MB(16), 128);
	struct h_file *off = h_create(MB(16), 0);

	h_fault(f, 700, VM_HUGEPAGE | VM_RAND_READ);
	h_fault(off, 10, VM_HUGEPAGE);
	EXPECT_STR("io", h_io(), "512-1023[512] 0-1023[512]");
}

/*
 * Does a fault hit on @pgoff write to @f's struct file?  A child process
 * runs the hit on a copy of it in a read-only page: a write kills it.
 */
static bool fault_hit_writes(struct h_file *f, pgoff_t pgoff)
{
	size_t len = sysconf(_SC_PAGESIZE);
	struct file *copy = mmap(NULL, len, PROT_READ | PROT_WRITE,
				 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	int status = -1;
	pid_t pid;

	if (copy == MAP_FAILED)
		return true;
	*copy = f->file;
	fflush(stdout);
	pid = fork();
	if (!pid) {
		struct vm_area_struct vma = { .vm_file = copy };
		struct vm_fault vmf = { .vma = &vma, .pgoff = pgoff };

		mprotect(copy, len, PROT_READ);
		ra_impl->fault_async(&vmf, xa_load(&copy->f_mapping->i_pages,
						   pgoff));
		_exit(0);
	}
	if (pid > 0)
		waitpid(pid, &status, 0);
	munmap(copy, len);
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

/*
 * Threads faulting on pages of a mapped file share its readahead state:
 * a hit that changes nothing (no miss to count down, the position noted
 * already, no marker) must not write it.
 */
static void fault_hit_writes_nothing(void)
{
	struct h_file *f = h_create(MB(8), 128);

	h_fault(f, 500, 0);
	h_fault(f, 501, 0);
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 0);
	INVARIANT(!fault_hit_writes(f, 501));
}

/*
 * The ld.so pattern: a 832-byte read(2) of the header (window 0+4-3),
 * then faults.  A fault where that window ends, or elsewhere after a
 * cached page, is read around, as 6.12 reads it, not as a one-page
 * random read.
 */
static void ldso_pattern(void)
{
	struct h_file *f = h_create(MB(2), 128);

	h_read(f, 0, 832);
	EXPECT_STR("header", h_io(), "0-3[1]");
	h_log_reset();
	h_fault(f, 4, 0);
	EXPECT_STR("at the window's end", h_calls(),
		   "fault-miss 4+1 0+32-8 =28");
	h_log_reset();
	h_populate(f, 99, 1);
	h_fault(f, 100, 0);
	EXPECT_STR("after one cached page", h_calls(),
		   "fault-miss 100+1 84+32-8 =31");
}

/*
 * Random faults back off once they miss 100 more times than they hit,
 * also those that land right after a cached page.
 */
static void backoff_after_cached_page(void)
{
	struct h_file *f = h_create(MB(80), 128);
	pgoff_t i;

	for (i = 0; i < 101; i++)
		h_fault(f, 100 + i * 100, 0);
	h_populate(f, 16999, 1);
	h_log_reset();
	h_fault(f, 17000, 0);
	EXPECT_STR("backed off", h_io(), "17000r");
}

/*
 * Three threads fault on each page of a file far apart, the first
 * missing and the others finding the folio its read left locked: only
 * the miss counts, and after 100 of them read-around stops.  6.12 takes
 * each of the other two as a hit, so the count never rises and every
 * fault reads a window.
 */
static void threads_on_a_folio_being_read(void)
{
	struct h_file *f = h_create(MB(80), 128);
	unsigned long i, thread;

	h_hold_reads(true);
	for (i = 0; i < 120; i++) {
		EXPECT_INT("major", h_fault(f, 100 + i * 100, 0), 1);
		for (thread = 1; thread < 3; thread++)
			EXPECT_INT("minor", h_fault(f, 100 + i * 100, 0), 0);
		h_complete_reads();
		if (i == 99)
			h_log_reset();
	}
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 120);
	EXPECT_STR("the last 20 alone", h_io(),
		   "10100r 10200r 10300r 10400r 10500r 10600r 10700r 10800r "
		   "10900r 11000r 11100r 11200r 11300r 11400r 11500r 11600r "
		   "11700r 11800r 11900r 12000r");
}

/*
 * Faults in a huge page mapping, each on a PMD of its own: after 100
 * misses the page is read alone, as read-around backs off.  6.12 reads
 * two PMDs at every fault, however few of them are used.
 */
static void huge_page_miss_backoff(void)
{
	struct h_file *f = h_create(MB(640), 128);
	unsigned long i;

	for (i = 0; i < 105; i++) {
		if (i == 100)
			h_log_reset();
		EXPECT_INT("major", h_fault(f, i * 3 * 512 + 5, VM_HUGEPAGE),
			   1);
	}
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 105);
	EXPECT_STR("the last 5 alone", h_io(),
		   "153605r 155141r 156677r 158213r 159749r");
}

/*
 * 120 faults with fault-around, at @first + i * @step, each missing; the
 * count must reach 120 and the last 20 faults read their page alone
 * (@last20), after 100 misses.
 */
static void fault_around_backs_off(struct h_file *f, pgoff_t first,
				   pgoff_t step, const char *last20)
{
	unsigned long i;

	h_fault_around_pages = 16;
	h_log_reset();
	for (i = 0; i < 120; i++) {
		if (i == 100)
			h_log_reset();
		EXPECT_INT("major", h_fault(f, first + i * step, 0), 1);
	}
	EXPECT_INT("mmap_miss", f->file.f_ra.mmap_miss, 120);
	EXPECT_STR("the last 20 alone", h_io(), last20);
}

/*
 * With fault-around, faults far apart: each misses, reads a window, and
 * is tried again, when fault-around finds the window it read.  Only the
 * miss counts, and after 100 of them read-around stops.  6.12 takes
 * every page the retry maps as a hit, so every fault reads a window.
 */
static void fault_around_retry(void)
{
	fault_around_backs_off(h_create(MB(80), 128), 100, 100,
			       "10100r 10200r 10300r 10400r 10500r 10600r "
			       "10700r 10800r 10900r 11000r 11100r 11200r "
			       "11300r 11400r 11500r 11600r 11700r 11800r "
			       "11900r 12000r");
}

/*
 * With fault-around, faults on a hole of 8 pages in the middle of each
 * 16-page block of a cached file: fault-around finds the 8 pages around
 * the hole but not the faulting one.  That is no hit: after 100 misses
 * the page is read alone.  6.12 takes the 8 as hits, so every fault
 * reads the hole.
 */
static void fault_around_neighbours(void)
{
	struct h_file *f = h_create(MB(80), 128);
	unsigned long i;

	h_populate(f, 0, 120 * 64);
	for (i = 0; i < 120; i++)
		h_evict(f, i * 64 + 4, 8);
	fault_around_backs_off(f, 4, 64,
			       "6404r 6468r 6532r 6596r 6660r 6724r 6788r "
			       "6852r 6916r 6980r 7044r 7108r 7172r 7236r "
			       "7300r 7364r 7428r 7492r 7556r 7620r");
}

/*
 * MADV_SEQUENTIAL faults go through the same gates as read(2)'s misses:
 * a congested block cgroup reads the page alone, and a file opened for
 * random access (POSIX_FADV_RANDOM) reads what was asked, a whole
 * window, with no state.
 */
static void madv_sequential_gates(void)
{
	struct h_file *f = h_create(MB(1), 128);
	struct h_file *g = h_create(MB(1), 128);

	shim_blkcg_congested = true;
	h_fault(f, 10, VM_SEQ_READ);
	EXPECT_STR("congested", h_io(), "10");
	shim_blkcg_congested = false;
	h_log_reset();
	h_fadvise(g->fd, 0, 0, POSIX_FADV_RANDOM);
	h_fault(g, 10, VM_SEQ_READ);
	EXPECT_STR("FMODE_RANDOM", h_io(), "10-41");
	EXPECT_STR("no window", h_windows(), "");
}

void mmap_checks(void)
{
	test_run("mmap read-around", read_around);
	test_run("mmap read-around at file start", read_around_at_start);
	test_run("mmap miss back-off and recovery", miss_backoff_and_recovery);
	test_run("mmap miss count ceiling", miss_ceiling);
	test_run("mmap MADV_SEQUENTIAL: a whole first window",
		 madv_sequential);
	test_run("mmap MADV_SEQUENTIAL mid-file", madv_sequential_midfile);
	test_run("mmap unhinted fault stream", unhinted_stream);
	test_run("mmap MADV_RANDOM", madv_random);
	test_run("mmap faults after back-off", faults_after_backoff);
	test_run("mmap a miss after read-around", miss_after_read_around);
	test_run("mmap fault past eof", fault_past_eof);
	test_run("mmap huge page window", huge_page_window);
	test_run("mmap huge page MADV_RANDOM, readahead off",
		 huge_page_random_and_off);
	test_run("mmap huge page stream from its ninth PMD", huge_page_stream);
	test_run("mmap fault hit writes nothing", fault_hit_writes_nothing);
	test_run("mmap the ld.so pattern", ldso_pattern);
	test_run("mmap back-off after a cached page", backoff_after_cached_page);
	test_run("mmap MADV_SEQUENTIAL through the read(2) gates",
		 madv_sequential_gates);
	test_run("mmap threads on a folio being read",
		 threads_on_a_folio_being_read);
	test_run("mmap huge page miss back-off", huge_page_miss_backoff);
	test_run("mmap fault-around retry after a miss", fault_around_retry);
	test_run("mmap fault-around around a hole", fault_around_neighbours);
}
