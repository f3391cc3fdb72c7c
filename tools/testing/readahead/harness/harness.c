// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - the read and fault paths the tests drive, and the logs.
 *
 * Owns the harness's read(2) path (6.1's filemap_read(), over lib's
 * filemap.c model of filemap_get_pages(), shared with the simulator),
 * its page fault path (6.1's filemap_fault), and the logs that tests
 * read back: every readahead call as ra_call.c observes it (this file
 * is its ra_call_observer), and every request the filesystem (fs.c)
 * issues.  Calls go one way: these paths call the current
 * implementation's entry points through ra_call.c.
 */
#include "harness.h"
#include "fs.h"
#include "filemap.h"
#include <trace/events/filemap.h>

#include <stdarg.h>
#include <string.h>

/* ---- logs ---- */


/* A log as text; it grows as needed, and reads "" when empty. */
struct text {
	char *buf;
	size_t len, cap;
};

static struct text windows_log, io_log, calls_log, trace_log, tp_log;
static struct text folios_log;
/* The folios of the request the filesystem is reading. */
static struct folio_runs folio_run;

/* Every request since the last h_log_reset(); grows as needed. */
static struct h_io_req *io_reqs;
static unsigned long nr_io_reqs, io_reqs_cap;
static unsigned long pages_submitted, all_cached_calls, major_faults;
static unsigned long sync_calls, ra_calls, cached_in_windows;

static void text_grow(struct text *t, size_t need)
{
	size_t cap = t->cap ? t->cap : 4096;

	while (cap < need)
		cap *= 2;
	t->buf = realloc(t->buf, cap);
	if (!t->buf)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	t->cap = cap;
}

static void text_clear(struct text *t)
{
	if (!t->cap)
		text_grow(t, 1);
	t->len = 0;
	t->buf[0] = '\0';
}

static void text_add(struct text *t, const char *sep, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (t->len && sep)
		text_add(t, NULL, "%s", sep);
	for (;;) {
		va_start(ap, fmt);
		n = vsnprintf(t->buf + t->len, t->cap - t->len, fmt, ap);
		va_end(ap);
		if (n < 0)
			shim_bug(__FILE__, __LINE__, "harness log format");
		if ((size_t)n < t->cap - t->len)
			break;
		text_grow(t, t->len + n + 1);
	}
	t->len += n;
}

void h_log_reset(void)
{
	text_clear(&windows_log);
	text_clear(&calls_log);
	text_clear(&trace_log);
	text_clear(&tp_log);
	text_clear(&folios_log);
	nr_io_reqs = pages_submitted = all_cached_calls = major_faults = 0;
	sync_calls = ra_calls = cached_in_windows = 0;
	shim_pages_added = shim_pages_removed = 0;
}

const char *h_windows(void) { return windows_log.buf ?: ""; }
const char *h_folios(void) { return folios_log.buf ?: ""; }
const char *h_calls(void) { return calls_log.buf ?: ""; }
const char *h_trace(void) { return trace_log.buf ?: ""; }

const char *h_tracepoint(void) { return tp_log.buf ?: ""; }

void h_trace_collect(const char *line)
{
	text_add(&trace_log, "\n", "%s", line);
}

void h_tracepoint_collect(const char *line)
{
	text_add(&tp_log, "\n", "%s", line);
}
unsigned long h_pages_submitted(void) { return pages_submitted; }
unsigned long h_all_cached_calls(void) { return all_cached_calls; }
unsigned long h_major_faults(void) { return major_faults; }
unsigned long h_sync_calls(void) { return sync_calls; }
unsigned long h_ra_calls(void) { return ra_calls; }
unsigned long h_io_requests(void) { return nr_io_reqs; }
unsigned long h_pages_added(void) { return shim_pages_added; }
unsigned long h_pages_removed(void) { return shim_pages_removed; }
unsigned long h_cached_in_windows(void) { return cached_in_windows; }

static int cmp_pgoff(const void *a, const void *b)
{
	pgoff_t x = *(const pgoff_t *)a, y = *(const pgoff_t *)b;

	return x < y ? -1 : x > y;
}

unsigned long h_pages_resubmitted(void)
{
	pgoff_t *all = calloc(pages_submitted + 1, sizeof(*all));
	unsigned long i, j, n = 0, dup = 0;

	for (i = 0; i < nr_io_reqs; i++)
		for (j = 0; j < io_reqs[i].nr; j++)
			all[n++] = io_reqs[i].first + j;
	qsort(all, n, sizeof(*all), cmp_pgoff);
	for (i = 1; i < n; i++)
		dup += all[i] == all[i - 1];
	free(all);
	return dup;
}

/* ---- readahead calls, as ra_call.c observes them ---- */

static unsigned long h_submitted(void)
{
	return pages_submitted;
}

static void h_observe(const struct ra_call *c)
{
	const struct file_ra_state *ra = &c->file->f_ra;

	text_add(&calls_log, "; ", "%s %lu+%lu %lu+%u-%u =%lu",
		 ra_call_names[c->kind], c->index, c->req, ra->start, ra->size,
		 ra->async_size, c->submitted);
	ra_calls++;
	if (c->kind == RA_CALL_SYNC)
		sync_calls++;
	if (!c->moved)
		return;
	text_add(&windows_log, " ", "%lu+%u-%u", ra->start, ra->size,
		 ra->async_size);
	if (!c->submitted)
		all_cached_calls++;
	cached_in_windows += c->cached;
}

const struct ra_call_observer h_observer = {
	.submitted = h_submitted,
	.observe = h_observe,
};

/* ---- the I/O the filesystem (fs.c) issued ---- */

void h_log_io(struct address_space *mapping, pgoff_t first,
	      unsigned long nr, pgoff_t marked, bool single)
{
	if (nr_io_reqs == io_reqs_cap) {
		io_reqs_cap = io_reqs_cap ? 2 * io_reqs_cap : 4096;
		io_reqs = realloc(io_reqs, io_reqs_cap * sizeof(*io_reqs));
		if (!io_reqs)
			shim_bug(__FILE__, __LINE__, "out of host memory");
	}
	io_reqs[nr_io_reqs++] = (struct h_io_req){ mapping, first, nr, marked,
						   single };
	pages_submitted += nr;
}

const struct h_io_req *h_io_reqs(unsigned long *nr)
{
	*nr = nr_io_reqs;
	return io_reqs;
}

const char *h_io(void)
{
	unsigned long i;

	text_clear(&io_log);
	for (i = 0; i < nr_io_reqs; i++) {
		const struct h_io_req *r = &io_reqs[i];

		text_add(&io_log, " ", "%lu", r->first);
		if (r->nr > 1)
			text_add(&io_log, NULL, "-%lu", r->first + r->nr - 1);
		if (r->marked != ULONG_MAX)
			text_add(&io_log, NULL, "[%lu]", r->marked);
		if (r->single)
			text_add(&io_log, NULL, "r");
	}
	return io_log.buf;
}

static void put_folios(const char *entry)
{
	text_add(&folios_log, " ", "%s", entry);
}

void h_log_folio(struct folio *folio)
{
	folio_runs_add(&folio_run, folio, put_folios);
}

void h_log_folios_end(void)
{
	folio_runs_end(&folio_run, put_folios);
}

/* ---- the read path: filemap.c, every read complete at once ---- */

ssize_t h_read(struct h_file *f, loff_t pos, size_t len)
{
	struct file *file = &f->file;

	shim_current = &f->task;
	loff_t isize = i_size_read(file_inode(file));
	loff_t end = pos + (loff_t)len;
	ssize_t done = 0;

	while (len && pos < isize) {
		struct folio *batch[FILEMAP_BATCH];
		enum filemap_step step;
		int i, n;

		/*
		 * The filesystem completes each read before it returns: a
		 * folio to wait for is unlocked and uptodate already, and
		 * none is ever left locked by someone else's read.
		 */
		step = filemap_get_pages_step(file, pos, len, batch, &n);
		BUG_ON(step == FILEMAP_WAIT_LOCKED);
		if (step == FILEMAP_NOMEM)
			return done ?: -ENOMEM;
		trace_mm_filemap_get_pages(file->f_mapping, pos >> PAGE_SHIFT,
					   DIV_ROUND_UP(pos + len, PAGE_SIZE) - 1);

		for (i = 0; i < n; i++) {
			struct folio *folio = batch[i];
			u64 fend64 = ((u64)folio->index +
				      folio_nr_pages(folio)) << PAGE_SHIFT;
			loff_t fend = min_t(u64, fend64, LLONG_MAX);
			loff_t upto = min(min(end, isize), fend);

			if (upto > pos) {
				done += upto - pos;
				len -= upto - pos;
				pos = upto;
				file->f_ra.prev_pos = pos;
			}
			folio_put(folio);
		}
	}
	return done;
}

/* ---- the page fault path: 6.1's filemap_fault() ---- */

unsigned int h_fault_around_pages;

/*
 * do_fault_around() and filemap_map_pages(): the aligned block of
 * h_fault_around_pages around the fault, cut at the end of the file.
 * Every page cached, uptodate, unlocked and unmarked there is mapped
 * (the harness keeps no page tables: mapped anew at every fault); those
 * that did not come back from eviction are hits.  True if the faulting
 * page was mapped.
 */
static bool fault_around(struct vm_fault *vmf)
{
	struct address_space *mapping = vmf->vma->vm_file->f_mapping;
	pgoff_t from = round_down(vmf->pgoff, h_fault_around_pages);
	pgoff_t last = DIV_ROUND_UP(i_size_read(mapping->host), PAGE_SIZE) - 1;
	pgoff_t to = min(from + h_fault_around_pages - 1, last), i;
	unsigned int hits = 0;
	bool mapped = false;

	for (i = from; i <= to; i++) {
		struct folio *folio = xa_load(&mapping->i_pages, i);

		if (!folio || folio_test_locked(folio) ||
		    !folio_test_uptodate(folio) || folio_test_readahead(folio))
			continue;
		if (!folio_test_workingset(folio))
			hits++;
		if (i == vmf->pgoff)
			mapped = true;
	}
	ra_call_map_hits(vmf, hits, mapped);
	trace_mm_filemap_map_pages(mapping, from, to);
	return mapped;
}

int h_fault(struct h_file *f, pgoff_t pgoff, unsigned long vm_flags)
{
	struct file *file = &f->file;
	struct vm_area_struct vma = { .vm_flags = vm_flags, .vm_file = file };
	struct vm_fault vmf = { .vma = &vma, .pgoff = pgoff };
	struct filemap_fault ff = { .stage = FILEMAP_FAULT_START };
	enum filemap_step step;

	shim_current = &f->task;
	if (pgoff >= DIV_ROUND_UP(i_size_read(file_inode(file)), PAGE_SIZE))
		return -EFAULT;	/* SIGBUS */
	if (h_fault_around_pages > 1 && fault_around(&vmf))
		return 0;
	trace_mm_filemap_fault(file->f_mapping, pgoff);
	shim_mmap_lock_dropped = false;

	/*
	 * Reads complete before ->read_folio returns: a read the fault
	 * started is over when the step returns, and no folio is left
	 * locked by another.  Unless reads are held: then a fault that
	 * must wait on a folio's lock goes to sleep there, and what it
	 * did before (its readahead calls) is all it does.  The flags of
	 * the 2009 models are the simulator's to read, not the harness's.
	 */
	while ((step = filemap_fault_step(&vmf, &ff, false)) != FILEMAP_GOT) {
		BUG_ON(step == FILEMAP_WAIT_LOCKED && !h_reads_held());
		if (step == FILEMAP_WAIT_LOCKED)
			break;
	}
	folio_put(ff.folio);
	/*
	 * Readahead dropped the mmap_lock: the fault returns VM_FAULT_RETRY
	 * and is tried again, fault-around first.  filemap_fault() on that
	 * try calls no readahead (FAULT_FLAG_TRIED), so it is left out.
	 */
	if (h_fault_around_pages > 1 && shim_mmap_lock_dropped &&
	    step == FILEMAP_GOT) {
		vmf.flags |= FAULT_FLAG_TRIED;
		fault_around(&vmf);
	}
	major_faults += ff.major;
	return ff.major;
}
