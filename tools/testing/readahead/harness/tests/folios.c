// SPDX-License-Identifier: GPL-2.0
/*
 * folios.c - large folios: the order ramp, alignment, the end of the
 * file, allocation failure, cached pages, the marker on a folio boundary
 * and one marked folio per window, huge page mappings, and the same
 * folios for faults as for read(2).  h_folios() gives each folio read
 * with its order, the marked one with a '*'.
 */
#include "test.h"

#define MB(n)	((loff_t)(n) << 20)

static struct h_file *large(loff_t size, unsigned long ra_kb)
{
	struct h_file *f = h_create(size, ra_kb);

	h_set_large_folios(f, true);
	return f;
}

/* How many folios of the log carry the marker. */
static int marked_folios(const char *log)
{
	int n = 0;

	for (; *log; log++)
		n += *log == '*';
	return n;
}

/* No cached folio reaches past the last page of @f. */
static bool none_past_eof(struct h_file *f)
{
	struct xarray *xa = &f->file.f_mapping->i_pages;
	pgoff_t eof = DIV_ROUND_UP(f->inode.i_size, PAGE_SIZE);
	unsigned long i;

	for (i = 0; i < xa->capacity; i++)
		if (xa->slots[i] &&
		    xa->slots[i]->index + folio_nr_pages(xa->slots[i]) > eof)
			return false;
	return true;
}

/*
 * 4 KB reads from page 0 with 2 MB windows: each asynchronous window is
 * read in folios up to two orders larger than the window before asked
 * for, as far as alignment and the window's end allow; the marker
 * starts a folio.  The windows are those of an order-0 mapping.
 */
static void ramp_from_start(void)
{
	struct h_file *f = large(MB(8), 2048);
	struct h_file *small = h_create(MB(8), 2048);
	char windows[256];

	h_read_seq(small, 0, 1000);
	snprintf(windows, sizeof(windows), "%s", h_windows());
	h_log_reset();
	h_read_seq(f, 0, 1000);
	EXPECT_STR("windows as order 0", h_windows(), windows);
	EXPECT_STR("folios", h_folios(),
		   test_base_61() ?
		     "0:0 1:0* 2-3:0 4-7:2* 8-15:3 16-19:2 20-23:2* 24-31:3 "
		     "32-63:5 64-79:4 80-83:2 84-87:2* 88-95:3 96-127:5 "
		     "128-191:6 192-207:4 208-211:2 212-215:2* 216-223:3 "
		     "224-255:5 256-383:7 384-447:6 448-463:4 464-467:2 "
		     "468-471:2* 472-479:3 480-511:5 512-767:8 768-895:7 "
		     "896-959:6 960-975:4 976-979:2 980-983:2* 984-991:3 "
		     "992-1023:5 1024-1279:8 "
		     "1280-1407:7 1408-1471:6 1472-1487:4 "
		     "1488-1491:2 1492-1495:2* 1496-1503:3 1504-1535:5 "
		     "1536-1791:8 1792-1919:7 1920-1983:6 1984-1999:4 "
		     "2000-2003:2" :
		     "0:0 1:0* 2-3:1 4-7:2* 8-15:3 16-19:2 20-23:2* 24-31:3 "
		     "32-63:5 64-79:4 80-83:2 84-87:2* 88-95:3 96-127:5 "
		     "128-191:6 192-207:4 208-211:2 212-215:2* 216-223:3 "
		     "224-255:5 256-383:7 384-447:6 448-463:4 464-467:2 "
		     "468-471:2* 472-479:3 480-511:5 512-767:8 768-895:7 "
		     "896-959:6 960-975:4 976-979:2 980-983:2* 984-991:3 "
		     "992-1023:5 1024-1279:8 1280-1407:7 1408-1471:6 "
		     "1472-1487:4 1488-1491:2 1492-1495:2* 1496-1503:3 "
		     "1504-1535:5 1536-1791:8 1792-1919:7 1920-1983:6 "
		     "1984-1999:4 2000-2003:2");
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * The same from page 5: every window starts unaligned, so each begins
 * with small folios and its marked folio is small; the ramp goes on from
 * the order the window asked for (the state keeps it) and reaches order
 * 8 in the same window.
 */
static void ramp_unaligned(void)
{
	struct h_file *f = large(MB(8), 2048);

	h_read_seq(f, 5, 1000);
	EXPECT_STR("windows", h_windows(),
		   "6+4-3 10+16-16 26+64-64 90+128-128 218+256-256 474+512-512 "
		   "986+512-512 1498+512-512");
	EXPECT_STR("folios", h_folios(),
		   test_base_61() ?
		     "5:0 6:0 7:0* 8-9:0 10:0* 11:0 12-15:2 16-23:3 24-25:0 "
		     "26:0* 27:0 28-31:2 32-63:5 64-79:4 80-87:3 88-89:0 90:0* "
		     "91:0 92-95:2 96-127:5 128-191:6 192-207:4 208-215:3 "
		     "216-217:0 218:0* 219:0 220-223:2 224-255:5 256-383:7 "
		     "384-447:6 448-463:4 464-471:3 472-473:0 474:0* 475:0 "
		     "476-479:2 480-511:5 512-767:8 768-895:7 896-959:6 "
		     "960-975:4 976-983:3 984-985:0 986:0* 987:0 988-991:2 "
		     "992-1023:5 1024-1279:8 "
		     "1280-1407:7 1408-1471:6 1472-1487:4 "
		     "1488-1495:3 1496-1497:0 1498:0* 1499:0 1500-1503:2 "
		     "1504-1535:5 1536-1791:8 1792-1919:7 1920-1983:6 "
		     "1984-1999:4 2000-2007:3 2008-2009:0" :
		     "5:0 6:0 7:0* 8-9:1 10-11:1* 12-15:2 16-23:3 24-25:1 "
		     "26-27:1* 28-31:2 32-63:5 64-79:4 80-87:3 88-89:1 "
		     "90-91:1* 92-95:2 96-127:5 128-191:6 192-207:4 208-215:3 "
		     "216-217:1 218-219:1* 220-223:2 224-255:5 256-383:7 "
		     "384-447:6 448-463:4 464-471:3 472-473:1 474-475:1* "
		     "476-479:2 480-511:5 512-767:8 768-895:7 896-959:6 "
		     "960-975:4 976-983:3 984-985:1 986-987:1* 988-991:2 "
		     "992-1023:5 1024-1279:8 1280-1407:7 1408-1471:6 "
		     "1472-1487:4 1488-1495:3 1496-1497:1 1498-1499:1* "
		     "1500-1503:2 1504-1535:5 1536-1791:8 1792-1919:7 "
		     "1920-1983:6 1984-1999:4 2000-2007:3 2008-2009:1");
}

/* A window never puts a folio past the last page of the file. */
static void end_of_file(void)
{
	struct h_file *f = large(45 * 4096 + 100, 128);

	h_read_seq(f, 0, 46);
	EXPECT_STR("folios", h_folios(),
		   test_base_61() ?
		     "0:0 1:0* 2-3:0 4-7:2* 8-11:2 12-15:2* 16-23:3 24-27:2 "
		     "28-31:2 32-39:3 40-43:2 44-45:0" :
		     "0:0 1:0* 2-3:1 4-7:2* 8-11:2 12-15:2* 16-23:3 24-27:2 "
		     "28-31:2 32-39:3 40-43:2 44-45:1");
	INVARIANT(none_past_eof(f));
}

/*
 * When no folio above order 2 can be had, the rest of the window is read
 * as order 0, and only its marker is marked.  The state keeps an order
 * such that the next window asks one order below the refused one, not
 * two above it.
 */
static void allocation_failure(void)
{
	struct h_file *f = large(MB(8), 128);

	h_read_seq(f, 0, 30);
	h_log_reset();
	shim_alloc_order_limit = 2;
	h_read_seq(f, 30, 60);
	EXPECT_STR("windows", h_windows(),
		   "92+32-32");
	EXPECT_STR("folios", h_folios(),
		   "92-95:2* 96-123:0");
	EXPECT_INT("one marker per window", marked_folios(h_folios()), 1);
	EXPECT_INT("the order kept: one below the refused 4, less the step",
		   f->file.f_ra.order, 1);
	h_log_reset();
	shim_alloc_order_limit = UINT_MAX;
	h_read_seq(f, 90, 3);
	EXPECT_STR("the next window asks order 3", h_folios(),
		   "124-127:2* 128-151:3 152-155:2");
}

/* Cached pages inside a window: the folios that would hold them are read
 * as order 0 around them; one marker per window. */
static void cached_pages(void)
{
	struct h_file *f = large(MB(8), 128);

	h_populate(f, 40, 1);
	h_populate(f, 70, 1);
	h_read_seq(f, 0, 100);
	EXPECT_STR("folios", h_folios(),
		   test_base_61() ?
		     "0:0 1:0* 2-3:0 4-7:2* 8-11:2 12-15:2* 16-23:3 24-27:2 "
		     "28-31:2* 32-39:0 41-47:0 "
		     "48-55:3 56-59:2 60-63:2* 64-69:0 "
		     "71-79:0 80-87:3 88-91:2 92-95:2* 96-111:4 112-119:3 "
		     "120-123:2 124-127:2* 128-143:4 144-151:3 152-155:2" :
		     "0:0 1:0* 2-3:1 4-7:2* 8-11:2 12-15:2* 16-23:3 24-27:2 "
		     "28-31:2* 32-39:0 41-47:0 48-55:3 56-59:2 60-63:2* "
		     "64-69:0 71-79:0 80-87:3 88-91:2 92-95:2* 96-111:4 "
		     "112-119:3 120-123:2 124-127:2* 128-143:4 144-151:3 "
		     "152-155:2");
	EXPECT_INT("markers", marked_folios(h_folios()), 7);
}

/*
 * The ramp goes on from the order the window before asked for, which
 * the state keeps, not from the folios it got: a cached page in the
 * middle of the window 218+256 splits its order-7 block into small
 * folios, and the next window still reads order 8.
 */
static void ramp_from_state(void)
{
	struct h_file *f = large(MB(8), 2048);

	h_populate(f, 300, 1);
	h_read_seq(f, 0, 600);
	EXPECT_STR("folios", h_folios(),
		   test_base_61() ?
		     "0:0 1:0* 2-3:0 4-7:2* 8-15:3 16-19:2 20-23:2* 24-31:3 "
		     "32-63:5 64-79:4 80-83:2 84-87:2* 88-95:3 96-127:5 "
		     "128-191:6 192-207:4 208-211:2 212-215:2* 216-223:3 "
		     "224-255:5 256-299:0 301-383:0 384-447:6 448-463:4 "
		     "464-467:2 468-471:2* 472-479:3 480-511:5 512-767:8 "
		     "768-895:7 896-959:6 960-975:4 976-979:2 980-983:2* "
		     "984-991:3 992-1023:5 1024-1279:8 1280-1407:7 "
		     "1408-1471:6 1472-1487:4 1488-1491:2" :
		     "0:0 1:0* 2-3:1 4-7:2* 8-15:3 16-19:2 20-23:2* 24-31:3 "
		     "32-63:5 64-79:4 80-83:2 84-87:2* 88-95:3 96-127:5 "
		     "128-191:6 192-207:4 208-211:2 212-215:2* 216-223:3 "
		     "224-255:5 256-299:0 301-383:0 384-447:6 448-463:4 "
		     "464-467:2 468-471:2* 472-479:3 480-511:5 512-767:8 "
		     "768-895:7 896-959:6 960-975:4 976-979:2 980-983:2* "
		     "984-991:3 992-1023:5 1024-1279:8 1280-1407:7 1408-1471:6 "
		     "1472-1487:4 1488-1491:2");
	EXPECT_INT("order asked last", f->file.f_ra.order, MAX_PAGECACHE_ORDER);
}

/*
 * A marker another reader's window left goes by the largest folio of
 * that window: here the window 90+128-128 of a stream that started
 * unaligned, marked on its small first folio, holds an order-6 folio,
 * and the second reader's next window asks for order 8 (alignment
 * allows 7 at most).
 */
static void ramp_from_foreign_marker(void)
{
	struct h_file *a = large(MB(8), 2048);
	struct h_file *b = h_reopen(a);

	h_read_seq(a, 5, 85);
	h_log_reset();
	h_read_seq(b, 85, 10);
	EXPECT_STR("windows", h_windows(), "218+258-258");
	EXPECT_STR("folios", h_folios(),
		   test_base_61() ?
		     "218:0* 219:0 220-223:2 224-255:5 256-383:7 384-447:6 "
		     "448-463:4 464-471:3 472-475:2" :
		     "218-219:1* 220-223:2 224-255:5 256-383:7 384-447:6 "
		     "448-463:4 464-471:3 472-475:2");
}

/*
 * a reads @n pages from @first of a file with large folios and 8 MB
 * windows; then b, on the same file, starts a stream of its own at page
 * 1600.  Returns b, a in @a, the log reset.
 */
static struct h_file *behind_another(pgoff_t first, pgoff_t n,
				     struct h_file **a)
{
	struct h_file *b;

	*a = large(MB(8), 2048);
	b = h_reopen(*a);
	h_read_seq(*a, first, n);
	/* b read 100-131 before, as one window: a went on from there. */
	b->file.f_ra.start = 100;
	b->file.f_ra.size = 32;
	b->file.f_ra.async_size = 32;
	h_log_reset();
	return b;
}

/*
 * A reader with a stream of its own (b, whose window 100-131 a read on
 * from) finds a's marker on a window that is in, with the first missing
 * page a whole window away: b leaves it to a, as it leaves a page, with
 * a backup halfway to that page (on 768: the order-8 folio 512-767 holds
 * 724).  The marked folio 468-471 is large, so each of b's 4 KB reads of
 * it finds the marker again, and leaves it again, reading nothing; from
 * the backup b takes the stream over.
 */
static void large_marker_left(void)
{
	struct h_file *a;
	struct h_file *b = behind_another(0, 468, &a);

	h_read_seq(b, 468, 4);
	EXPECT_STR("left at each page", h_calls(),
		   "async 468+1 100+32-32 =0; async 468+2 100+32-32 =0; "
		   "async 468+3 100+32-32 =0; async 468+4 100+32-32 =0");
	EXPECT_INT("marker left", h_marked(a, 468), 1);
	EXPECT_INT("no backup in the folio holding 724", h_marked(a, 512), 0);
	EXPECT_INT("backup", h_marked(a, 768), 1);
	h_log_reset();
	h_read_seq(b, 472, 297);
	EXPECT_STR("taken at the backup", h_calls(),
		   "async 768+1 980+426-426 =426");
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * The own-marker look-up's gate on a stream read in large folios: a
 * reads pages 0-12 (windows up to 28+32-32: pages 0-59 cached, in
 * folios up to order 4), b, its readahead capped at 16 KB, reads pages
 * 60-63 in one read (order 0, unmarked), and pages 0-3 are dropped.  The cache holds 60 pages, counted in pages
 * whatever the folios, as many as lie before a's window end: the
 * look-up is skipped, and the window 60+32-32 is issued as 6.1 issues
 * it, b's pages skipped, a's ramp going on in the folios around them.
 * The marker's page (60) is b's, cached: a misses once, at 92, where its
 * stream resumes.  Nothing is read twice.
 */
static void gate_count_matches_large(void)
{
	struct h_file *a = large(MB(8), 128);
	struct h_file *b = h_reopen(a);

	b->file.f_ra.ra_pages = 4;
	h_read_seq(a, 0, 13);
	h_read(b, 60 * 4096, 4 * 4096);
	h_fadvise(b->fd, 0, 4 * 4096, POSIX_FADV_DONTNEED);
	EXPECT_INT("pages cached", a->file.f_mapping->nrpages, 60);
	h_log_reset();
	h_read_seq(a, 13, 16);
	EXPECT_STR("a at its marker", h_calls(), "async 28+1 60+32-32 =28");
	EXPECT_STR("folios", h_folios(), "64-79:4 80-87:3 88-91:2");
	h_log_reset();
	h_read_seq(a, 29, 64);
	EXPECT_STR("a past the window", h_calls(), "sync 92+1 92+32-16 =32");
	INVARIANT(h_pages_resubmitted() == 0);
}

/*
 * A filesystem that declines folios takes them off the window: a large
 * one may hold more pages than the asynchronous part has left, which
 * must then not outgrow the window.
 */
static void declined_folios(void)
{
	struct h_file *f = large(MB(8), 128);
	bool ok = true;
	pgoff_t i;

	h_read_seq(f, 0, 40);
	h_fs.take = 0;
	for (i = 40; i < 200; i++) {
		h_read(f, (loff_t)i * 4096, 4096);
		ok &= f->file.f_ra.async_size <= f->file.f_ra.size;
	}
	INVARIANT(ok);
}

/* A mapping without large folios reads order 0 as before. */
static void order0_mapping(void)
{
	struct h_file *f = h_create(MB(8), 128);

	h_read_seq(f, 0, 30);
	EXPECT_STR("folios", h_folios(),
		   "0:0 1:0* 2-3:0 4:0* 5-11:0 12:0* 13-27:0 28:0* 29-59:0 "
		   "60:0* 61-91:0");
}

/*
 * MADV_SEQUENTIAL faults: a whole first window in order-2 folios, then
 * each window two orders up, as a read(2) of the maximum window.
 */
static void faults_sequential(void)
{
	struct h_file *m = large(MB(8), 512);
	pgoff_t i;

	for (i = 0; i < 300; i++)
		h_fault(m, i, VM_SEQ_READ);
	EXPECT_STR("folios", h_folios(),
		   "0-63:2 64-67:2* 68-127:2 128-143:4* 144-255:4 256-319:6* "
		   "320-383:6 384-511:7*");
}

/*
 * Read-around reads its window in order-2 folios; a fault on any page of
 * the marked folio, not only its first, moves the stream on.
 */
static void fault_inside_marked_folio(void)
{
	struct h_file *f = large(MB(8), 512);

	h_fault(f, 10, 0);
	EXPECT_STR("read-around", h_folios(),
		   "0-95:2 96-99:2* 100-127:2");
	h_log_reset();
	h_fault(f, 98, 0);
	EXPECT_STR("calls", h_calls(),
		   "fault-hit 98+1 128+128-128 =128");
	EXPECT_STR("folios", h_folios(),
		   "128-143:4* 144-255:4");
}

/*
 * VM_HUGEPAGE on a mapping with large folios: PMD folios, the second
 * marked, whatever the memory (here also with 256 MB), so that each can
 * be mapped as a huge page.
 */
static void huge_page_folios(void)
{
	struct h_file *f = large(MB(16), 128);
	struct h_file *g = large(MB(16), 128);

	h_fault(f, 700, VM_HUGEPAGE);
	EXPECT_STR("folios", h_folios(),
		   "512-1023:9 1024-1535:9*");
	h_log_reset();
	h_fault(f, 1030, VM_HUGEPAGE);
	EXPECT_STR("next", h_folios(),
		   "1536-2047:9* 2048-2559:9");
	h_log_reset();
	shim_totalram_pages = MB(256) / 4096;
	h_fault(g, 700, VM_HUGEPAGE);
	EXPECT_STR("256 MB: PMD folios still", h_folios(),
		   "512-1023:9 1024-1535:9*");
}

void folios_checks(void)
{
	test_run("folios ramp from page 0", ramp_from_start);
	test_run("folios ramp from an unaligned page", ramp_unaligned);
	test_run("folios end of file", end_of_file);
	test_run("folios allocation failure", allocation_failure);
	test_run("folios around cached pages", cached_pages);
	test_run("folios ramp from the state's order", ramp_from_state);
	test_run("folios ramp from another reader's marker",
		 ramp_from_foreign_marker);
	test_run("folios: another's large marker is left to its owner",
		 large_marker_left);
	test_run("folios: the look-up's gate, count matching",
		 gate_count_matches_large);
	test_run("folios declined by the filesystem", declined_folios);
	test_run("folios order-0 mapping", order0_mapping);
	test_run("folios MADV_SEQUENTIAL faults", faults_sequential);
	test_run("folios fault inside the marked folio",
		 fault_inside_marked_folio);
	test_run("folios huge page mapping", huge_page_folios);
}
