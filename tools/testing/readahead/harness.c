// SPDX-License-Identifier: GPL-2.0
/*
 * harness.c - files, the read and fault paths, fadvise, and the logs.
 *
 * Owns the harness side of the kernel that surrounds mm/readahead.c:
 * a tiny filesystem whose ->readahead and ->read_folio complete at once
 * and record what they read, the descriptor table behind fdget(), the
 * read(2) path (6.1's filemap_read(), over filemap.c's model of
 * filemap_get_pages(), shared with the simulator), the page fault path
 * (6.1's filemap_fault), generic fadvise, and the logs that
 * tests read back.  Calls go one way: these paths call the current
 * implementation's entry points through ra_call.c, which hands each
 * call's observation back to the logs here (ra_call_observer).
 */
#include "harness.h"
#include "filemap.h"
#include <trace/events/filemap.h>

#include <stdarg.h>
#include <string.h>

/* ---- logs ---- */

#define MAX_FILES	64

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

static const struct ra_call_observer h_observer = {
	.submitted = h_submitted,
	.observe = h_observe,
};

/* ---- the filesystem ---- */

static void record_io(struct address_space *mapping, pgoff_t first,
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

/* Reads held in flight by h_hold_reads(), each with a reference. */
static bool holding_reads;
static struct folio **held_reads;
static unsigned long nr_held_reads, held_reads_cap;

static void read_done(struct folio *folio)
{
	folio_mark_uptodate(folio);
	folio_unlock(folio);
}

/*
 * The device completes at once: the folio is read and unlocked.  While
 * reads are held, it stays locked and not uptodate until
 * h_complete_reads().
 */
static void complete_read(struct folio *folio)
{
	if (!holding_reads) {
		read_done(folio);
		return;
	}
	if (nr_held_reads == held_reads_cap) {
		held_reads_cap = held_reads_cap ? 2 * held_reads_cap : 256;
		held_reads = realloc(held_reads,
				     held_reads_cap * sizeof(*held_reads));
		if (!held_reads)
			shim_bug(__FILE__, __LINE__, "out of host memory");
	}
	folio_get(folio);
	held_reads[nr_held_reads++] = folio;
}

void h_hold_reads(bool on)
{
	holding_reads = on;
}

void h_complete_reads(void)
{
	unsigned long i;

	for (i = 0; i < nr_held_reads; i++) {
		read_done(held_reads[i]);
		folio_put(held_reads[i]);
	}
	nr_held_reads = 0;
}

struct h_fs_behaviour h_fs = { .take = ULONG_MAX };

/*
 * A congested FUSE connection leaves what is left of a request unread
 * when all of it is asynchronous, reading rac->ra to know.
 */
static bool fs_congested_skip(struct readahead_control *ractl)
{
	if (!ractl->ra)
		shim_bug(__FILE__, __LINE__,
			 "->readahead found rac->ra NULL: FUSE oopses here");
	return ractl->ra->async_size >= readahead_count(ractl);
}

static void fs_readahead(struct readahead_control *ractl)
{
	pgoff_t first, marked = ULONG_MAX;
	unsigned long nr, taken = 0;
	struct folio *folio;

	if (h_fs.expand_align) {
		unsigned long a = h_fs.expand_align;
		pgoff_t lo = round_down(readahead_index(ractl), a);
		pgoff_t hi = round_down(readahead_index(ractl) +
					readahead_count(ractl) + a - 1, a);
		loff_t isize = i_size_read(ractl->mapping->host);

		/* Nor past the end of the file, as netfs clamps it. */
		hi = min_t(pgoff_t, hi, DIV_ROUND_UP(isize, PAGE_SIZE));

		/* Offsets past LLONG_MAX cannot be asked for. */
		if (hi <= (pgoff_t)(LLONG_MAX >> PAGE_SHIFT))
			ra_impl->expand(ractl, (loff_t)lo << PAGE_SHIFT,
					(hi - lo) << PAGE_SHIFT);
	}
	first = readahead_index(ractl);
	nr = min(readahead_count(ractl), h_fs.take);
	while (taken < nr) {
		if (h_fs.congested && fs_congested_skip(ractl)) {
			nr = taken;
			break;
		}
		folio = readahead_folio(ractl);
		if (!folio)
			break;
		if (folio_test_readahead(folio) && marked == ULONG_MAX)
			marked = folio->index;
		folio_runs_add(&folio_run, folio, put_folios);
		complete_read(folio);
		taken += folio_nr_pages(folio);
	}
	folio_runs_end(&folio_run, put_folios);
	if (nr)
		record_io(ractl->mapping, first, nr, marked, false);
}

static int fs_read_folio(struct file *file, struct folio *folio)
{
	(void)file;
	folio_runs_add(&folio_run, folio, put_folios);
	folio_runs_end(&folio_run, put_folios);
	record_io(folio->mapping, folio->index, folio_nr_pages(folio),
		  folio_test_readahead(folio) ? folio->index : ULONG_MAX,
		  true);
	complete_read(folio);
	return 0;
}

static const struct address_space_operations fs_aops = {
	.read_folio = fs_read_folio,
	.readahead = fs_readahead,
};

/* ---- files and descriptors ---- */

static struct h_file *fd_table[MAX_FILES];
static unsigned long next_ino = 100;
/* Every harness file lives on one disk, as /dev/sdb (8:16). */
static struct super_block harness_sb = { .s_dev = MKDEV(8, 16),
					 .s_id = "sdb" };

struct fd fdget(int fd)
{
	struct fd f = { NULL, 0 };

	if (fd >= 0 && fd < MAX_FILES && fd_table[fd])
		f.file = &fd_table[fd]->file;
	return f;
}

static struct h_file *h_alloc(struct inode *shared, umode_t mode,
			      fmode_t fmode)
{
	struct h_file *f = calloc(1, sizeof(*f));
	int fd;

	if (!f)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	ra_call_observer = &h_observer;
	for (fd = 3; fd < MAX_FILES && fd_table[fd]; fd++)
		;
	if (fd == MAX_FILES)
		shim_bug(__FILE__, __LINE__, "harness descriptor table full");
	fd_table[fd] = f;
	f->fd = fd;
	f->task.pid = 4000 + fd;
	snprintf(f->task.comm, sizeof(f->task.comm), "fio");
	if (!shared) {
		shared = &f->inode;
		shared->i_mode = mode;
		shared->i_ino = next_ino++;
		shared->i_bdi = &f->bdi;
		shared->i_sb = &harness_sb;
		shared->i_data.host = shared;
		shared->i_data.a_ops = &fs_aops;
		shared->i_data.gfp_mask = GFP_KERNEL;
	}
	snprintf(f->name, sizeof(f->name), "f%lu", shared->i_ino);
	f->dentry.d_name.name = (const unsigned char *)f->name;
	f->file.f_path.dentry = &f->dentry;
	f->file.f_inode = shared;
	f->file.f_mapping = &shared->i_data;
	f->file.f_mode = fmode;
	ra_impl->state_init(&f->file.f_ra, f->file.f_mapping);
	return f;
}

struct h_file *h_create(loff_t size, unsigned long ra_kb)
{
	struct h_file *f = h_alloc(NULL, S_IFREG | 0644, FMODE_READ);

	f->inode.i_size = size;
	f->bdi.ra_pages = ra_kb * 1024 / PAGE_SIZE;
	/* 6.1's default max_sectors, 1280 KB, as the optimal I/O size. */
	f->bdi.io_pages = 320;
	/* Initialise again now that the device has its read_ahead_kb. */
	memset(&f->file.f_ra, 0, sizeof(f->file.f_ra));
	ra_impl->state_init(&f->file.f_ra, f->file.f_mapping);
	return f;
}

struct h_file *h_reopen(struct h_file *f)
{
	return h_alloc(f->file.f_inode, 0, FMODE_READ);
}

int h_open_special(umode_t mode, fmode_t fmode)
{
	return h_alloc(NULL, mode, fmode)->fd;
}

static bool owns_inode(struct h_file *f)
{
	return f->file.f_inode == &f->inode;
}

/*
 * Remove the folios of @mapping that start in [first, last]: those
 * locked under I/O are skipped with @skip_locked, a BUG without.  Walks
 * what is cached, not the range (it may span 2^51 pages), and collects
 * first: removal moves the table.
 */
static void remove_folios(struct address_space *mapping, pgoff_t first,
			  pgoff_t last, bool skip_locked)
{
	struct xarray *xa = &mapping->i_pages;
	unsigned long i, n = 0;
	struct folio **victims;

	victims = calloc(xa->count + 1, sizeof(*victims));
	if (!victims)
		shim_bug(__FILE__, __LINE__, "out of host memory");
	for (i = 0; i < xa->capacity; i++) {
		struct folio *folio = xa->slots[i];

		if (!folio || xa->keys[i] != folio->index ||
		    folio->index < first || folio->index > last)
			continue;
		if (folio_test_locked(folio)) {
			BUG_ON(!skip_locked);
			continue;
		}
		victims[n++] = folio;
	}
	for (i = 0; i < n; i++)
		filemap_remove_folio(victims[i]);
	free(victims);
}

void h_drop_cache(struct h_file *f)
{
	remove_folios(f->file.f_mapping, 0, ULONG_MAX, false);
}

void h_close(struct h_file *f)
{
	int fd;

	/* An inode goes with the last file open on it. */
	for (fd = 0; fd < MAX_FILES; fd++)
		if (fd_table[fd] && fd_table[fd] != f &&
		    fd_table[fd]->file.f_inode == &f->inode)
			shim_bug(__FILE__, __LINE__, "inode still open");
	if (owns_inode(f)) {
		h_drop_cache(f);
		xa_destroy_index(&f->inode.i_data.i_pages);
	}
	fd_table[f->fd] = NULL;
	/* Its reader is gone: a tracepoint fired now names the harness. */
	if (shim_current == &f->task)
		shim_current = &shim_init_task;
	free(f);
}

void h_close_all(void)
{
	int fd;

	h_hold_reads(false);
	h_complete_reads();

	/* Reopened files first: they borrow another file's inode. */
	for (fd = 0; fd < MAX_FILES; fd++)
		if (fd_table[fd] && !owns_inode(fd_table[fd]))
			h_close(fd_table[fd]);
	for (fd = 0; fd < MAX_FILES; fd++)
		if (fd_table[fd])
			h_close(fd_table[fd]);
	next_ino = 100;
}

void h_set_large_folios(struct h_file *f, bool on)
{
	f->file.f_mapping->large_folios = on;
}

/* Blocks of 2^@order pages: large folios, none smaller (6.12). */
void h_set_min_order(struct h_file *f, unsigned int order)
{
	f->file.f_mapping->large_folios = true;
	f->file.f_mapping->min_order = order;
}

/* Reclaim evicts the cached pages @first.. @first + @nr - 1. */
void h_evict(struct h_file *f, pgoff_t first, unsigned long nr)
{
	remove_folios(f->file.f_mapping, first, first + nr - 1, false);
}

/*
 * An uptodate folio of @order at @index carrying the readahead marker,
 * as another reader's window leaves it.
 */
void h_populate_marked(struct h_file *f, pgoff_t index, unsigned int order)
{
	struct folio *folio = filemap_alloc_folio(GFP_KERNEL, order);

	BUG_ON(filemap_add_folio(f->file.f_mapping, folio, index,
				 GFP_KERNEL));
	folio_set_readahead(folio);
	complete_read(folio);
	folio_put(folio);
}

bool h_cached(struct h_file *f, pgoff_t index)
{
	return xa_load(&f->file.f_mapping->i_pages, index) != NULL;
}

bool h_marked(struct h_file *f, pgoff_t index)
{
	struct folio *folio = xa_load(&f->file.f_mapping->i_pages, index);

	return folio && folio_test_readahead(folio);
}

void h_populate(struct h_file *f, pgoff_t first, unsigned long nr)
{
	unsigned long i;

	for (i = 0; i < nr; i++) {
		struct folio *folio = filemap_alloc_folio(GFP_KERNEL, 0);

		if (filemap_add_folio(f->file.f_mapping, folio, first + i,
				      GFP_KERNEL) == 0)
			complete_read(folio);
		folio_put(folio);
	}
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
		BUG_ON(step == FILEMAP_WAIT_LOCKED && !holding_reads);
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

/* ---- fadvise: what 6.1's generic_fadvise() does, for both sides ---- */

/* Drop the clean, unlocked folios of [first, last] from the cache. */
static void drop_range(struct address_space *mapping, pgoff_t first,
		       pgoff_t last)
{
	remove_folios(mapping, first, last, true);
}

int h_fadvise(int fd, loff_t offset, loff_t len, int advice)
{
	struct fd f = fdget(fd);

	if (!f.file)
		return -EBADF;
	shim_current = &fd_table[fd]->task;
	return ra_impl->fadvise(f.file, offset, len, advice);
}

ssize_t h_readahead(int fd, loff_t offset, size_t count)
{
	if (fd >= 0 && fd < MAX_FILES && fd_table[fd])
		shim_current = &fd_table[fd]->task;
	return ra_impl->ksys_readahead(fd, offset, count);
}

/* The implementation's force_page_cache_ra(), logged as a call. */
static void (*fadvise_force)(struct readahead_control *, unsigned long);

static void logged_force(struct readahead_control *ractl, unsigned long nr)
{
	struct ra_call c;

	ra_call_begin(&c, RA_CALL_FADVISE, ractl->file, readahead_index(ractl),
		      nr);
	fadvise_force(ractl, nr);
	ra_call_end(&c);
}

int h_generic_fadvise(void (*force)(struct readahead_control *,
				     unsigned long),
		      struct file *file, loff_t offset, loff_t len, int advice)
{
	fadvise_force = force;
	return shim_generic_fadvise(file, offset, len, advice, logged_force,
				    drop_range);
}
