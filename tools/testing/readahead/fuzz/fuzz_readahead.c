// SPDX-License-Identifier: GPL-2.0
/*
 * fuzz_readahead.c - a libFuzzer target over the readahead harness.
 *
 * Owns the decoding of a fuzzer input into one file (size, read_ahead_kb,
 * memory size, readers) and a sequence of operations on it, and the
 * invariants checked after every operation.  Each input runs twice: on
 * ours (an invariant that fails aborts, so that libFuzzer keeps the
 * input) and on the pristine 6.12 file (an invariant that fails is printed
 * once per kind as a finding, its input saved, and the pass stops; only
 * sanitizer errors abort).  FUZZ_FORMAT below is the input format;
 * FUZZ_INVARIANTS the invariants.  Nothing here changes the harness: the
 * filesystem's ->readahead is wrapped, per input, to look at each request.
 */
#include "harness.h"

#include <stdarg.h>
#include <stdint.h>
#include <string.h>

/*
 * FUZZ_FORMAT.  Bytes are read in order; an exhausted input reads as 0.
 *
 *   size selector + bytes   0, a few bytes, up to 4 MB, up to 1 GB, near
 *                           LLONG_MAX, any value up to LLONG_MAX, N pages
 *   ra_kb selector + bytes  0, 1, 4, 128, 16 bits, 1 GB, any 64 bits, ...
 *   memory selector         shim_totalram_pages: 0 ... 1 GB
 *   readers                 1 + b % 4 open files of the one inode
 *   flags                   bit 0 large folios, bit 1 trace on, bits 2-3
 *                           io_pages (320, 0, 32, 2048)
 *   operations              one opcode byte, one reader byte, arguments
 *
 * Both passes cap read_ahead_kb at MAX_RA_KB: neither bounds forced
 * readahead by memory (one call reads up to read_ahead_kb, as 6.1 does),
 * and 6.1 does not bound windows by it either; a 1 TB read would not fit.
 * The harness's tests take read_ahead_kb of 1 TB (tests/badinput.c).
 */
#define MAX_READERS	4
#define MAX_OPS		256
#define CACHE_LIMIT	1024	/* pages; more and the cache is dropped */
#define READ_CAP	(128 * PAGE_SIZE)	/* bytes a read may copy */
#define WORK_LIMIT	(1UL << 18)	/* pages submitted per pass */
#define MAX_RA_KB	4096UL
/*
 * Folios the pristine pass may allocate between two operations that set
 * no budget of their own: 6.1's window underflows when a filesystem
 * declines pages (one of this fuzzer's findings), and the windows it then
 * asks for would take the fuzzer's memory.  Ours has no such bound.
 */
#define PRISTINE_ALLOC_BUDGET	(1L << 18)
#define READ_TOP	(((LLONG_MAX >> PAGE_SHIFT) - 255) << PAGE_SHIFT)
#define MAX_RW_COUNT	(INT_MAX & ~(PAGE_SIZE - 1))

/* Folio flag bits the fuzzer keeps for itself (the shim uses 0-5). */
#define FZ_KNOWN	(1UL << 28)	/* cached at the end of a step */
#define FZ_SUBMITTED	(1UL << 29)	/* read by the filesystem */
#define FZ_EOF_OK	(1UL << 30)	/* put past EOF on purpose */

#define ENABLE		"readahead/trace_enable"
#define STATS		"readahead/stats"

enum op {
	OP_READ, OP_FAULT, OP_FADVISE, OP_READAHEAD, OP_DEBUGFS, OP_DROP,
	OP_ALLOC_FAIL, OP_FS, OP_SYNC, OP_ASYNC, OP_UNBOUNDED, OP_FORCE,
	OP_RA_KB, OP_REOPEN, OP_NR,
};

static const char * const op_names[OP_NR] = {
	"read", "fault", "fadvise", "readahead", "debugfs", "drop",
	"alloc-fail", "fs", "sync", "async", "unbounded", "force",
	"ra_kb", "reopen",
};

/* Opcode byte -> operation: reads and faults come most often. */
static const unsigned char op_table[32] = {
	OP_READ, OP_READ, OP_READ, OP_READ, OP_READ, OP_READ, OP_READ,
	OP_FAULT, OP_FAULT, OP_FAULT, OP_FAULT,
	OP_FADVISE, OP_FADVISE, OP_FADVISE, OP_READAHEAD, OP_READAHEAD,
	OP_DEBUGFS, OP_DEBUGFS, OP_DROP, OP_ALLOC_FAIL, OP_ALLOC_FAIL,
	OP_FS, OP_FS, OP_SYNC, OP_SYNC, OP_ASYNC, OP_ASYNC, OP_UNBOUNDED,
	OP_FORCE, OP_FORCE, OP_RA_KB, OP_REOPEN,
};

/* Where the ->readahead wrapper is called from. */
enum ctx { CTX_NONE, CTX_ONDEMAND, CTX_FORCE, CTX_UNBOUNDED };

struct reader {
	struct h_file *f;
	loff_t next_pos;	/* end of its last read */
	pgoff_t last_fault;
	unsigned long rp_hi;	/* largest ra_pages it has had */
};

struct input {
	const uint8_t *p;
	size_t n;
};

static struct {
	struct input in;
	struct reader r[MAX_READERS];
	int nr;
	struct h_file *owner;
	int fifo, dir, wronly;
	loff_t size;
	pgoff_t eof;		/* pages, DIV_ROUND_UP(size) */
	unsigned long memcap;	/* ours: the largest window memory allows */
	unsigned long io_pages;
	unsigned long align_hi;	/* largest expand_align used */
	bool trace_on;
	enum op op;
	int step;
	enum ctx ctx;
	pgoff_t unb_mark;	/* CTX_UNBOUNDED: where the marker may go */
	bool unbounded;		/* this step called page_cache_ra_unbounded */
	bool stop;
	unsigned long work;
} s;

static const uint8_t *cur_data;
static size_t cur_size;
static const struct address_space_operations *fs_ops;

/* ---- input decoding ---- */

static uint64_t get(unsigned int bytes)
{
	uint64_t v = 0;

	while (bytes--) {
		v <<= 8;
		if (s.in.n) {
			v |= *s.in.p++;
			s.in.n--;
		}
	}
	return v;
}

static unsigned int get8(void) { return get(1); }
static unsigned int get16(void) { return get(2); }
static uint64_t get32(void) { return get(4); }
static uint64_t get64(void) { return get(8); }

static bool is_ours(void)
{
	return ra_impl == &ra_ours;
}

/* The allocation budget a pass runs with when no operation sets one. */
static long default_alloc_budget(void)
{
	return is_ours() ? -1 : PRISTINE_ALLOC_BUDGET;
}

/* ---- reporting ---- */

#define MAX_FINDINGS	32
static char findings[MAX_FINDINGS][48];
static int nr_findings;

static void save_input(const char *kind)
{
	const char *dir = getenv("FUZZ_FINDINGS");
	char path[512], name[48];
	FILE *out;
	int i;

	if (!dir)
		return;
	for (i = 0; kind[i] && i < (int)sizeof(name) - 1; i++)
		name[i] = (kind[i] >= 'a' && kind[i] <= 'z') ? kind[i] : '-';
	name[i] = '\0';
	snprintf(path, sizeof(path), "%s/pristine-%s", dir, name);
	out = fopen(path, "wb");
	if (!out)
		return;
	fwrite(cur_data, 1, cur_size, out);
	fclose(out);
	fprintf(stderr, "fuzz: pristine finding saved as %s\n", path);
}

/*
 * An invariant does not hold.  The message starts with its kind ("eof:",
 * "window:"...): ours aborts; pristine reports each kind once and stops
 * this pass (its state may be too broken to go on).
 */
static void __attribute__((format(printf, 1, 2))) violation(const char *fmt,
							    ...)
{
	char msg[320], kind[48];
	va_list ap;
	int i;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (is_ours()) {
		fprintf(stderr, "fuzz: invariant violated (ours), step %d (%s): %s\n",
			s.step, op_names[s.op], msg);
		if (getenv("FUZZ_VERBOSE"))
			fprintf(stderr, "calls: %s\nio: %s\nfolios: %s\n",
				h_calls(), h_io(), h_folios());
		abort();
	}
	s.stop = true;
	snprintf(kind, sizeof(kind), "%.*s", (int)strcspn(msg, ":"), msg);
	for (i = 0; i < nr_findings; i++)
		if (!strcmp(findings[i], kind))
			return;
	if (nr_findings < MAX_FINDINGS)
		snprintf(findings[nr_findings++], sizeof(findings[0]), "%s",
			 kind);
	fprintf(stderr, "fuzz: pristine finding, step %d (%s): %s\n",
		s.step, op_names[s.op], msg);
	save_input(kind);
}

/* ---- the filesystem, watched: every ->readahead request ---- */

/*
 * The window as issued: read_pages() takes each page the filesystem
 * declines off ra->size, also while later runs of the same window (past a
 * cached page) are still to come.  The largest size seen for the same
 * start during this step is the window that placed the marker.
 */
struct issued_window {
	const struct file_ra_state *ra;
	unsigned long call;	/* the readahead call, as h_ra_calls() */
	pgoff_t start;
	unsigned long size;
	unsigned long marks;	/* marked folios in its requests so far */
};

static struct issued_window issued[MAX_READERS];

/*
 * The window @ra is issuing now, its largest size seen so far set.  A
 * window whose pages were all declined may be followed, in the same step,
 * by another at the same start: a new call (the calls log grew) is a new
 * window.
 */
static struct issued_window *issued_window(const struct file_ra_state *ra)
{
	unsigned long call = h_ra_calls();
	int i;

	for (i = 0; i < MAX_READERS && issued[i].ra && issued[i].ra != ra; i++)
		;
	if (i == MAX_READERS)
		return NULL;
	if (!issued[i].ra || issued[i].start != ra->start ||
	    issued[i].call != call) {
		issued[i].ra = ra;
		issued[i].call = call;
		issued[i].start = ra->start;
		issued[i].size = 0;
		issued[i].marks = 0;
	}
	issued[i].size = max(issued[i].size, (unsigned long)ra->size);
	return &issued[i];
}

/*
 * A request holds only folios the implementation just added, so a marked
 * one was marked by this call: at most one, none from forced readahead,
 * inside the window when the state machine issued it, exactly where
 * page_cache_ra_unbounded() was told to put it, and one per window also
 * when the window is submitted in several requests (past cached pages).
 */
static void fz_readahead(struct readahead_control *ractl)
{
	struct file_ra_state *ra = ractl->ra;
	pgoff_t index = readahead_index(ractl), mark = 0;
	unsigned long i, nr = readahead_count(ractl), marked = 0, size = 0;
	struct issued_window *w = NULL;

	if (ra && s.ctx == CTX_ONDEMAND) {
		w = issued_window(ra);
		size = w ? w->size : ra->size;
	}
	for (i = 0; i < nr; i++) {
		struct folio *folio = xa_load(&ractl->mapping->i_pages,
					      index + i);

		if (folio && folio->index == index + i &&
		    folio_test_readahead(folio)) {
			marked++;
			mark = folio->index;
		}
	}
	if (w)
		w->marks += marked;
	if (marked > 1)
		violation("marker: %lu marked pages in one request %lu+%lu",
			  marked, index, nr);
	else if (marked && s.ctx == CTX_FORCE)
		violation("marker: forced readahead marked page %lu", mark);
	else if (marked && s.ctx == CTX_UNBOUNDED && mark != s.unb_mark)
		violation("marker: unbounded readahead marked page %lu, not %lu",
			  mark, s.unb_mark);
	else if (marked && s.ctx == CTX_ONDEMAND && ra &&
		 (mark < ra->start || mark - ra->start >= size))
		violation("marker: page %lu marked outside the window %lu+%lu (now %lu+%u-%u)",
			  mark, ra->start, size, ra->start,
			  ra->size, ra->async_size);
	else if (marked && w && w->marks > 1)
		violation("marker: %lu marked folios in the window %lu+%lu, the last at %lu",
			  w->marks, w->start, w->size, mark);
	fs_ops->readahead(ractl);
}

static int fz_read_folio(struct file *file, struct folio *folio)
{
	return fs_ops->read_folio(file, folio);
}

static const struct address_space_operations fz_aops = {
	.read_folio = fz_read_folio,
	.readahead = fz_readahead,
};

/* Trace lines: only while trace_enable is 1, and well formed. */
static void fz_trace(const char *line)
{
	if (!s.trace_on)
		violation("trace: line while trace_enable is 0: %.80s", line);
	else if (strncmp(line, "readahead-", 10) || !strstr(line, " ino=") ||
		 !strstr(line, ") = "))
		violation("trace: malformed line: %.80s", line);
}

/*
 * FUZZ_INVARIANTS, after every operation:
 *
 * cache   every cached folio is unlocked, holds only the cache's
 *         reference, belongs to the file; live folios == cached folios;
 *         no page is in two folios: every page of a folio is indexed to
 *         it, and the index holds as many pages as the folios have,
 *         as many as the mapping's nrpages counts.
 * eof     no folio reaching a page at or past DIV_ROUND_UP(i_size,
 *         PAGE_SIZE), except those
 *         page_cache_ra_unbounded() put there, and those a filesystem's
 *         readahead_expand() added to round the last request up to its
 *         alignment (below EOF rounded up to expand_align).
 * io      every page the filesystem read is cached and uptodate after the
 *         operation, and no page is read twice while it stays cached.
 * window  per reader: async_size <= size; start + size does not wrap;
 *         size <= the largest ra_pages the reader has had or io_pages
 *         (ours: and the memory cap, max(totalram / 128, 32 pages)), plus
 *         2 * expand_align when the filesystem expands requests; ra_pages
 *         changes only through fadvise, and in ours a thrash cut or its
 *         regrowth (thrash_step()); prev_pos >= -1.
 * marker  see fz_readahead(): at most one marked folio per request and
 *         per window.
 * read    read(2) returns min(len, size - pos) bytes, and leaves those
 *         pages cached and uptodate; a fault past EOF is -EFAULT, any
 *         other leaves its page cached and uptodate.
 * syscall fadvise, readahead(2) and debugfs writes return the documented
 *         value; a failing call changes nothing (no page, no state); a
 *         forced readahead (WILLNEED, readahead(2)) leaves every reader's
 *         window alone.
 * leak    after closing every file, no folio is live.
 */
static void check_cache(void)
{
	struct address_space *m = s.owner->file.f_mapping;
	struct xarray *xa = &m->i_pages;
	unsigned long a = h_fs.expand_align, i, j, folios = 0, pages = 0;
	pgoff_t limit = a ? (s.eof + a - 1) / a * a : s.eof;

	for (i = 0; i < xa->capacity && !s.stop; i++) {
		struct folio *folio = xa->slots[i];
		pgoff_t key = xa->keys[i], last;

		if (!folio)
			continue;
		if (key < folio->index ||
		    key - folio->index >= folio_nr_pages(folio))
			violation("cache: slot %lu holds folio %lu+%lu", key,
				  folio->index, folio_nr_pages(folio));
		if (key != folio->index)
			continue;
		folios++;
		pages += folio_nr_pages(folio);
		for (j = 1; j < folio_nr_pages(folio); j++)
			if (xa_load(xa, key + j) != folio)
				violation("cache: page %lu of folio %lu+%lu is indexed elsewhere",
					  key + j, key, folio_nr_pages(folio));
		if (folio->mapping != m)
			violation("cache: page %lu has another mapping", key);
		if (folio_test_locked(folio))
			violation("cache: page %lu left locked", key);
		if (folio->refcount != 1)
			violation("cache: page %lu holds %d references", key,
				  folio->refcount);
		last = key + folio_nr_pages(folio) - 1;
		if (last >= s.eof && !(folio->flags & FZ_EOF_OK)) {
			if (!(folio->flags & FZ_KNOWN) &&
			    (s.unbounded || (a && last < limit)))
				folio->flags |= FZ_EOF_OK;
			else
				violation("eof: folio %lu-%lu cached, file has %lu pages",
					  key, last, s.eof);
		}
		folio->flags |= FZ_KNOWN;
	}
	if (!s.stop && (long)folios != shim_live_folios)
		violation("cache: %ld live folios, %lu cached",
			  shim_live_folios, folios);
	if (!s.stop && pages != xa->count)
		violation("cache: %lu pages indexed, the folios have %lu",
			  xa->count, pages);
	if (!s.stop && pages != m->nrpages)
		violation("cache: nrpages %lu, the folios have %lu pages",
			  m->nrpages, pages);
}

/* The pages of each I/O request: cached, uptodate, read once. */
static void check_io(void)
{
	struct address_space *m = s.owner->file.f_mapping;
	unsigned long i, nr;
	const struct h_io_req *req = h_io_reqs(&nr);

	for (i = 0; i < nr && !s.stop; i++) {
		pgoff_t last = req[i].first + req[i].nr - 1, pg;

		for (pg = req[i].first; !s.stop; pg++) {
			struct folio *folio = xa_load(&m->i_pages, pg);

			if (!folio)
				violation("io: page %lu read, not cached", pg);
			else if (!folio_test_uptodate(folio))
				violation("io: page %lu read, not uptodate",
					  pg);
			else if (folio->index == pg) {
				if (folio->flags & FZ_SUBMITTED)
					violation("io: page %lu read twice while cached",
						  pg);
				folio->flags |= FZ_SUBMITTED;
			}
			if (pg == last)
				break;
		}
	}
}

/*
 * Ours' thrash feedback, over one operation (which may cross several
 * windows): a cut leaves ra_pages lower, never below the default window,
 * with thrash_cut set, or with it cleared at or above the device's
 * maximum (grown back to it, or cut to a value still above a
 * read_ahead_kb lowered since the file was opened, whose first used
 * window then ends the cut); while a cut is on, ra_pages grows, never
 * past the device's.
 */
static bool thrash_step(const struct file_ra_state *was,
			const struct file_ra_state *now)
{
	unsigned long dev = s.owner->bdi.ra_pages;

	if (now->ra_pages < was->ra_pages)
		return now->ra_pages >= VM_READAHEAD_PAGES &&
		       (now->thrash_cut || now->ra_pages >= dev);
	return (was->thrash_cut || now->thrash_cut) && now->ra_pages <= dev;
}

static void check_windows(const struct file_ra_state *before)
{
	int i;

	for (i = 0; i < s.nr && !s.stop; i++) {
		struct reader *r = &s.r[i];
		struct file_ra_state *ra = &r->f->file.f_ra;
		unsigned long bound;

		if (ra->ra_pages != before[i].ra_pages &&
		    s.op != OP_FADVISE && s.op != OP_REOPEN &&
		    !(is_ours() && thrash_step(&before[i], ra)))
			violation("window: reader %d: ra_pages %u -> %u", i,
				  before[i].ra_pages, ra->ra_pages);
		if (ra->ra_pages > r->rp_hi)
			r->rp_hi = ra->ra_pages;
		bound = max(r->rp_hi, s.io_pages);
		if (is_ours())
			bound = min(bound, s.memcap);
		bound += 2 * s.align_hi;
		if (ra->async_size > ra->size)
			violation("window: reader %d: %lu+%u-%u: async > size",
				  i, ra->start, ra->size, ra->async_size);
		else if (ra->start + ra->size < ra->start)
			violation("window: reader %d: %lu+%u wraps", i,
				  ra->start, ra->size);
		else if (ra->size > bound)
			violation("window: reader %d: %lu+%u-%u larger than %lu",
				  i, ra->start, ra->size, ra->async_size,
				  bound);
		else if (ra->prev_pos < -1)
			violation("window: reader %d: prev_pos %lld", i,
				  (long long)ra->prev_pos);
	}
}

/* ---- descriptors and expectations ---- */

enum fd_kind { FD_BAD, FD_REG, FD_FIFO, FD_DIR, FD_WRONLY };

static int pick_fd(int reader, enum fd_kind *kind)
{
	static const int bad[] = { -1, 57, 64, INT_MIN, 2 };
	unsigned int sel = get8() % 16;

	if (sel < 10) {
		*kind = FD_REG;
		return s.r[reader].f->fd;
	}
	*kind = sel - 10 + FD_FIFO <= FD_WRONLY ? sel - 10 + FD_FIFO : FD_BAD;
	switch (*kind) {
	case FD_FIFO:
		return s.fifo;
	case FD_DIR:
		return s.dir;
	case FD_WRONLY:
		return s.wronly;
	default:
		return bad[sel % 5];
	}
}

static int want_fadvise(enum fd_kind kind, loff_t len, int advice)
{
	if (kind == FD_BAD)
		return -EBADF;
	if (kind == FD_FIFO)
		return -ESPIPE;
	if (len < 0 || advice < 0 || advice > POSIX_FADV_NOREUSE)
		return -EINVAL;
	return 0;
}

/* readahead(2): a negative offset reads nothing and is no error. */
static int want_readahead(enum fd_kind kind, size_t count)
{
	if (kind == FD_BAD || kind == FD_WRONLY)
		return -EBADF;
	if (kind == FD_FIFO || kind == FD_DIR)
		return -EINVAL;
	return want_fadvise(kind, (loff_t)count, POSIX_FADV_WILLNEED);
}

static loff_t pick_offset(void)
{
	switch (get8() % 10) {
	case 0:
		return 0;
	case 1:
		return (loff_t)((get64() % (s.eof + 2)) << PAGE_SHIFT);
	case 2:
		return get64() % ((u64)s.size + 1);
	case 3:
		return LLONG_MAX;
	case 4:
		return LLONG_MAX - get16();
	case 5:
		return -(loff_t)get16() - 1;
	case 6:
		return LLONG_MIN;
	case 7:
		return (loff_t)get64();
	case 8:
		return s.size > 65536 ? s.size - get16() : 0;
	default:
		return (loff_t)get16() << PAGE_SHIFT;
	}
}

static loff_t pick_len(void)
{
	switch (get8() % 8) {
	case 0:
		return 0;
	case 1:
		return 1 + get16() % 8192;
	case 2:
		return (loff_t)(1 + get8()) << PAGE_SHIFT;
	case 3:
		return LLONG_MAX;
	case 4:
		return -1;
	case 5:
		return LLONG_MIN;
	case 6:
		return (loff_t)get64();
	default:
		return (loff_t)get32() << PAGE_SHIFT;
	}
}

static void snapshot(struct file_ra_state *ra)
{
	int i;

	for (i = 0; i < s.nr; i++)
		ra[i] = s.r[i].f->file.f_ra;
}

static bool same_window(const struct file_ra_state *a,
			const struct file_ra_state *b)
{
	return a->start == b->start && a->size == b->size &&
	       a->async_size == b->async_size;
}

/* After fadvise or readahead(2) returned @ret (@want expected). */
static void check_syscall(const char *what, long ret, long want,
			  bool willneed, const struct file_ra_state *before,
			  unsigned long cached_before)
{
	int i;

	if (ret != want) {
		violation("syscall: %s returned %ld, want %ld", what, ret,
			  want);
		return;
	}
	if (ret < 0 && (h_pages_submitted() || h_pages_added() ||
			s.owner->file.f_mapping->i_pages.count !=
			cached_before))
		violation("syscall: failing %s changed the cache", what);
	for (i = 0; i < s.nr && !s.stop; i++) {
		const struct file_ra_state *ra = &s.r[i].f->file.f_ra;

		if (ret < 0 && memcmp(ra, &before[i], sizeof(*ra)))
			violation("syscall: failing %s changed reader %d's state",
				  what, i);
		else if (willneed && !same_window(ra, &before[i]))
			violation("syscall: %s moved reader %d's window %lu+%u-%u to %lu+%u-%u",
				  what, i, before[i].start, before[i].size,
				  before[i].async_size, ra->start, ra->size,
				  ra->async_size);
	}
}

/* ---- operations ---- */

static void op_read(struct reader *r)
{
	loff_t pos, avail, want;
	size_t len;
	ssize_t got;
	pgoff_t pg;

	switch (get8() % 8) {
	case 0:
		pos = 0;
		break;
	case 1:
	case 2:
		pos = r->next_pos;
		break;
	case 3:
		pos = (loff_t)((get64() % (s.eof + 2)) << PAGE_SHIFT);
		break;
	case 4:
		pos = get64() % ((u64)s.size + 1);
		break;
	case 5:
		pos = s.size - get16();
		break;
	case 6:
		pos = r->next_pos - PAGE_SIZE;
		break;
	default:
		pos = (loff_t)min_t(u64, (u64)s.size + get16(), LLONG_MAX);
		break;
	}
	switch (get8() % 6) {
	case 0:
		len = 0;
		break;
	case 1:
		len = 1 + get16() % PAGE_SIZE;
		break;
	case 2:
		len = (1 + get8() % 32) * PAGE_SIZE;
		break;
	case 3:
		len = get32();
		break;
	case 4:
		len = MAX_RW_COUNT;
		break;
	default:
		len = (1 + get8() % 128) * PAGE_SIZE + get16() % PAGE_SIZE;
		break;
	}
	/* The VFS before ->read_iter: rw_verify_area() and MAX_RW_COUNT. */
	if (pos < 0 || (loff_t)len > LLONG_MAX - pos)
		return;
	len = min_t(size_t, len, MAX_RW_COUNT);
	avail = pos < s.size ? s.size - pos : 0;
	/* Bounded work per step: the harness logs every page read. */
	if (avail > (loff_t)READ_CAP && (loff_t)len > (loff_t)READ_CAP)
		len = READ_CAP;
	/*
	 * harness.c's h_read() shifts the end of each folio as a loff_t,
	 * which overflows for a folio ending at page 2^51: stay out of the
	 * last 256 pages (a large folio's worth) of the largest files.
	 */
	if (pos >= READ_TOP)
		return;
	if ((loff_t)len > READ_TOP - pos)
		len = READ_TOP - pos;
	want = min_t(loff_t, len, avail);
	got = h_read(r->f, pos, len);
	r->next_pos = pos + got;
	if (got != want) {
		violation("read: %zu bytes at %lld returned %zd, want %lld",
			  len, (long long)pos, got, (long long)want);
		return;
	}
	for (pg = pos >> PAGE_SHIFT; got && !s.stop &&
	     pg <= (pgoff_t)((pos + got - 1) >> PAGE_SHIFT); pg++) {
		struct folio *folio = xa_load(&r->f->file.f_mapping->i_pages,
					      pg);

		if (!folio || !folio_test_uptodate(folio))
			violation("read: page %lu read but not cached uptodate",
				  pg);
	}
}

static void op_fault(struct reader *r)
{
	static const unsigned long flags[] = {
		0, 0, VM_SEQ_READ, VM_RAND_READ, VM_SEQ_READ | VM_RAND_READ,
	};
	unsigned long vm_flags = flags[get8() % 5];
	struct folio *folio;
	pgoff_t pg;
	int ret;

	switch (get8() % 7) {
	case 0:
		pg = 0;
		break;
	case 1:
	case 2:
		pg = r->last_fault + 1;
		break;
	case 3:
		pg = get64() % (s.eof + 2);
		break;
	case 4:
		pg = s.eof - 1 - get8();
		break;
	case 5:
		pg = get64();
		break;
	default:
		pg = r->last_fault - 1;
		break;
	}
	r->last_fault = pg;
	ret = h_fault(r->f, pg, vm_flags);
	if (pg >= s.eof) {
		if (ret != -EFAULT)
			violation("read: fault at %lu past EOF returned %d", pg,
				  ret);
		return;
	}
	folio = xa_load(&r->f->file.f_mapping->i_pages, pg);
	if (ret < 0 || !folio || !folio_test_uptodate(folio))
		violation("read: fault at %lu returned %d, page %s", pg, ret,
			  folio ? "not uptodate" : "not cached");
}

/*
 * DONTNEED makes the harness visit every index of the range, so a range
 * of more than 64K pages inside the file is replaced by dropping the
 * whole cache (what it would do to the cache, near enough).
 */
static bool dontneed_too_long(loff_t offset, loff_t len)
{
	u64 last_byte = (u64)offset + (u64)len;
	pgoff_t first, last;

	if (len < 0)
		return false;
	if (!len || last_byte < (u64)len)
		last = ULONG_MAX;
	else
		last = (last_byte - 1) >> PAGE_SHIFT;
	first = ((u64)offset + PAGE_SIZE - 1) >> PAGE_SHIFT;
	if (s.eof && last > s.eof - 1)
		last = s.eof - 1;
	return first <= last && last - first > 65536;
}

static int pick_advice(void)
{
	static const int advice[] = {
		POSIX_FADV_WILLNEED, POSIX_FADV_WILLNEED, POSIX_FADV_WILLNEED,
		POSIX_FADV_DONTNEED, POSIX_FADV_NORMAL, POSIX_FADV_RANDOM,
		POSIX_FADV_SEQUENTIAL, POSIX_FADV_NOREUSE, -1, 6, 99, INT_MIN,
	};

	return advice[get8() % 12];
}

static void op_fadvise(int reader, int advice)
{
	struct file_ra_state before[MAX_READERS];
	unsigned long cached = s.owner->file.f_mapping->i_pages.count;
	enum fd_kind kind;
	int fd = pick_fd(reader, &kind);
	loff_t offset = pick_offset(), len = pick_len();
	char what[96];
	int ret;

	if (advice < -1)
		advice = pick_advice();
	if (advice == POSIX_FADV_DONTNEED && kind == FD_REG &&
	    dontneed_too_long(offset, len)) {
		h_drop_cache(s.owner);
		return;
	}
	snapshot(before);
	s.ctx = CTX_FORCE;
	ret = h_fadvise(fd, offset, len, advice);
	s.ctx = CTX_NONE;
	snprintf(what, sizeof(what), "fadvise(%d, %lld, %lld, %d)", fd,
		 (long long)offset, (long long)len, advice);
	check_syscall(what, ret, want_fadvise(kind, len, advice),
		      advice == POSIX_FADV_WILLNEED, before, cached);
}

static void op_readahead(int reader)
{
	struct file_ra_state before[MAX_READERS];
	unsigned long cached = s.owner->file.f_mapping->i_pages.count;
	enum fd_kind kind;
	int fd = pick_fd(reader, &kind);
	loff_t offset = pick_offset();
	size_t count;
	char what[96];
	ssize_t ret;

	switch (get8() % 7) {
	case 0:
		count = 0;
		break;
	case 1:
		count = 1 + get16();
		break;
	case 2:
		count = SIZE_MAX;
		break;
	case 3:
		count = SSIZE_MAX;
		break;
	case 4:
		count = (size_t)LLONG_MAX + 1;
		break;
	case 5:
		count = get64();
		break;
	default:
		count = (size_t)get32() << PAGE_SHIFT;
		break;
	}
	snapshot(before);
	s.ctx = CTX_FORCE;
	ret = h_readahead(fd, offset, count);
	s.ctx = CTX_NONE;
	snprintf(what, sizeof(what), "readahead(%d, %lld, %zu)", fd,
		 (long long)offset, count);
	check_syscall(what, ret, want_readahead(kind, count), true,
		      before, cached);
}

static void op_debugfs(void)
{
	static const char * const paths[] = {
		ENABLE, ENABLE, STATS, "readahead/none", "readahead",
	};
	static const char * const valid[] = { "0", "1", "0\n", "1\n" };
	const char *path = paths[get8() % 5];
	unsigned int sel = get8() % 8, n = get8() % 40, val = 0, i;
	char buf[48], back[16];
	ssize_t ret, want;

	if (sel < 4) {
		snprintf(buf, sizeof(buf), "%s", valid[sel]);
	} else {
		for (i = 0; i < n; i++)
			buf[i] = get8();
		buf[n] = '\0';
	}
	ret = h_debugfs_write(path, buf);
	if (strcmp(path, ENABLE) && strcmp(path, STATS))
		want = -ENOENT;
	else if (kstrtouint_from_user(buf, strlen(buf), 10, &val) ||
		 val > (strcmp(path, STATS) ? 1U : 0U))
		want = -EINVAL;
	else
		want = strlen(buf);
	if (ret != want) {
		violation("syscall: debugfs write \"%.40s\" to %s returned %zd, want %zd",
			  buf, path, ret, want);
		return;
	}
	if (ret >= 0 && !strcmp(path, ENABLE))
		s.trace_on = val;
	h_debugfs_read(ENABLE, back, sizeof(back));
	if (strcmp(back, s.trace_on ? "1\n" : "0\n"))
		violation("syscall: trace_enable reads \"%s\" after \"%.40s\"",
			  back, buf);
	if (ret >= 0 && !strcmp(path, STATS)) {
		static char table[4096];
		const char *all;

		h_debugfs_read(STATS, table, sizeof(table));
		all = strstr(table, "\nall ");
		if (!all || strspn(all + 5, " 0") != strcspn(all + 5, "\n"))
			violation("syscall: stats not reset: %.200s",
				  all ? all : table);
	}
}

static void op_fs(void)
{
	static const unsigned long take[] = {
		ULONG_MAX, ULONG_MAX, 0, 1, 2, 3, 7, 32,
	};
	unsigned int sel = get8();

	h_fs.take = take[sel % 8];
	h_fs.expand_align = sel & 8 ? 1UL << (get8() % 7) : 0;
	/*
	 * FUSE past its congestion threshold reads rac->ra.  Ours only:
	 * 6.1's window underflows when the filesystem declines pages (a
	 * finding of this fuzzer), and on a congested FUSE the window it
	 * then asks for outgrows the fuzzer's memory.
	 */
	h_fs.congested = is_ours() && (sel & 16);
	if (h_fs.expand_align > s.align_hi)
		s.align_hi = h_fs.expand_align;
}

static pgoff_t pick_index(void)
{
	switch (get8() % 6) {
	case 0:
		return 0;
	case 1:
		return get64() % (s.eof + 2);
	case 2:
		return s.eof + get8();
	case 3:
		return s.eof - 1 - get8();
	case 4:
		return get64() % ((pgoff_t)(LLONG_MAX >> PAGE_SHIFT) + 1);
	default:
		return get16();
	}
}

/* page_cache_sync_ra() as filemap_get_pages() calls it, also past EOF. */
static void op_sync(struct reader *r)
{
	pgoff_t index = pick_index();
	unsigned long req = 1 + get16() % 512;
	DEFINE_READAHEAD(ractl, &r->f->file, &r->f->file.f_ra,
			 r->f->file.f_mapping, index);

	if (index > (pgoff_t)(LLONG_MAX >> PAGE_SHIFT))
		return;
	shim_current = &r->f->task;
	s.ctx = CTX_ONDEMAND;
	ra_impl->sync_ra(&ractl, req);
	s.ctx = CTX_NONE;
}

/* page_cache_async_ra() on a marked folio, as the read path calls it. */
static void op_async(struct reader *r)
{
	struct xarray *xa = &r->f->file.f_mapping->i_pages;
	unsigned long i, k = get8(), req = 1 + get16() % 512;
	struct folio *folio = NULL;

	for (i = 0; i < xa->capacity; i++) {
		struct folio *f = xa->slots[i];

		if (f && f->index == xa->keys[i] && folio_test_readahead(f)) {
			folio = f;
			if (!k--)
				break;
		}
	}
	if (!folio)
		return;
	{
		DEFINE_READAHEAD(ractl, &r->f->file, &r->f->file.f_ra,
				 r->f->file.f_mapping, folio->index);

		shim_current = &r->f->task;
		s.ctx = CTX_ONDEMAND;
		folio_get(folio);
		ra_impl->async_ra(&ractl, folio, req);
		folio_put(folio);
		s.ctx = CTX_NONE;
	}
}

/*
 * page_cache_ra_unbounded() as a filesystem calls it, possibly past EOF
 * and up to the last page index, with or without a readahead state.
 */
static void op_unbounded(struct reader *r)
{
	unsigned long nr = get16() % 1024, la;
	pgoff_t index;
	bool no_ra = get8() & 1;

	switch (get8() % 3) {
	case 0:
		index = ULONG_MAX - get16() % 2048;
		break;
	case 1:
		index = s.eof - get8() % 8;
		break;
	default:
		index = pick_index();
		break;
	}
	la = get16() % (nr + 2);
	/*
	 * 6.1's read_pages() updates ractl->ra without checking it, and
	 * fs/verity calls with none: a filesystem leaving folios behind
	 * would make it dereference NULL.  Reported, not run.  Any limit on
	 * what the filesystem takes can leave folios: the request may grow
	 * (expand_align) past @nr before the filesystem sees it.
	 */
	if (!is_ours() && no_ra && nr && h_fs.take != ULONG_MAX &&
	    (h_fs.take < nr || h_fs.expand_align)) {
		violation("null-ra: page_cache_ra_unbounded(ra NULL, %lu pages) with ->readahead taking %lu: read_pages() dereferences ractl->ra",
			  nr, h_fs.take);
		return;
	}
	/* Callers do not wrap the page index. */
	if (nr && index > ULONG_MAX - (nr - 1))
		nr = ULONG_MAX - index + 1;
	{
		DEFINE_READAHEAD(ractl, &r->f->file,
				 no_ra ? NULL : &r->f->file.f_ra,
				 r->f->file.f_mapping, index);

		unsigned long align = h_fs.expand_align;
		bool congested = h_fs.congested;

		/*
		 * harness/fs.c's fs_readahead() shifts the page index as a
		 * loff_t: past MAX_LFS_FILESIZE that overflows.  No
		 * expansion there (a filesystem could not ask for it).
		 */
		if (index + nr + align > (pgoff_t)(LLONG_MAX >> PAGE_SHIFT) ||
		    index + nr + align < index)
			h_fs.expand_align = 0;
		/*
		 * The filesystems that call this without a state (verity
		 * metadata) do not read rac->ra in their ->readahead().
		 */
		if (no_ra)
			h_fs.congested = false;
		shim_current = &r->f->task;
		s.ctx = CTX_UNBOUNDED;
		s.unbounded = true;
		s.unb_mark = la && la <= nr ? index + nr - la : ULONG_MAX;
		ra_impl->unbounded(&ractl, nr, la);
		s.ctx = CTX_NONE;
		h_fs.expand_align = align;
		h_fs.congested = congested;
	}
}

/* force_page_cache_ra() as generic_fadvise() calls it: any range. */
static void op_force(struct reader *r)
{
	static const unsigned long nrs[] = { 0, 1, 32, 512, 513, ULONG_MAX };
	pgoff_t index = get8() & 1 ? ULONG_MAX - get16() : pick_index();
	unsigned int sel = get8();
	unsigned long nr = sel < 192 ? nrs[sel % 6] : get32();
	DEFINE_READAHEAD(ractl, &r->f->file, &r->f->file.f_ra,
			 r->f->file.f_mapping, index);
	struct file_ra_state before[MAX_READERS];

	snapshot(before);
	shim_current = &r->f->task;
	s.ctx = CTX_FORCE;
	ra_impl->force_ra(&ractl, nr);
	s.ctx = CTX_NONE;
	check_syscall("force_page_cache_ra", 0, 0, true, before, 0);
}

static void op_alloc_fail(struct reader *r, int reader)
{
	unsigned int sel = get8();

	/* Some allocations fail, or every one above an order does. */
	if (sel & 0x80)
		shim_alloc_order_limit = sel % 4;
	else
		shim_alloc_budget = sel % 8;
	switch (get8() % 6) {
	case 0:
		op_sync(r);
		break;
	case 1:
		op_async(r);
		break;
	case 2:
		op_unbounded(r);
		break;
	case 3:
		op_force(r);
		break;
	case 4:
		op_fadvise(reader, POSIX_FADV_WILLNEED);
		break;
	default:
		op_readahead(reader);
		break;
	}
	shim_alloc_budget = default_alloc_budget();
	shim_alloc_order_limit = UINT_MAX;
}

static unsigned long pick_ra_kb(void)
{
	switch (get8() % 10) {
	case 0:
		return 0;
	case 1:
		return 1;
	case 2:
		return 4;
	case 3:
		return 128;
	case 4:
		return get16();
	case 5:
		return 1UL << 20;
	case 6:
		return get64();
	case 7:
		return 3;
	case 8:
		return 8192 + get16();
	default:
		return 4 * (1 + get8());
	}
}

static unsigned long ra_kb_capped(unsigned long kb)
{
	return min(kb, MAX_RA_KB);
}

static void op_ra_kb(void)
{
	unsigned long kb = ra_kb_capped(pick_ra_kb());

	/* As writing read_ahead_kb in sysfs: new opens and FADV_NORMAL. */
	s.owner->bdi.ra_pages = kb * 1024 / PAGE_SIZE;
}

static void op_reopen(int reader)
{
	struct reader *r = &s.r[reader];

	if (!reader)
		return;
	h_close(r->f);
	r->f = h_reopen(s.owner);
	r->rp_hi = r->f->file.f_ra.ra_pages;
	r->next_pos = 0;
}

static void do_op(void)
{
	int reader = get8() % s.nr;
	struct reader *r = &s.r[reader];

	switch (s.op) {
	case OP_READ:
		s.ctx = CTX_ONDEMAND;
		op_read(r);
		break;
	case OP_FAULT:
		s.ctx = CTX_ONDEMAND;
		op_fault(r);
		break;
	case OP_FADVISE:
		op_fadvise(reader, INT_MIN);
		break;
	case OP_READAHEAD:
		op_readahead(reader);
		break;
	case OP_DEBUGFS:
		op_debugfs();
		break;
	case OP_DROP:
		h_drop_cache(s.owner);
		break;
	case OP_ALLOC_FAIL:
		op_alloc_fail(r, reader);
		break;
	case OP_FS:
		op_fs();
		break;
	case OP_SYNC:
		op_sync(r);
		break;
	case OP_ASYNC:
		op_async(r);
		break;
	case OP_UNBOUNDED:
		op_unbounded(r);
		break;
	case OP_FORCE:
		op_force(r);
		break;
	case OP_RA_KB:
		op_ra_kb();
		break;
	default:
		op_reopen(reader);
		break;
	}
	s.ctx = CTX_NONE;
}

/* ---- one pass: set up, run the operations, tear down ---- */

static bool verbose;

/* FUZZ_VERBOSE=1: what each step did, for reading a reproducer. */
static void show_step(void)
{
	int i;

	fprintf(stderr, "%-8s %2d %-10s calls: %s\n", ra_impl->name, s.step,
		op_names[s.op], h_calls());
	fprintf(stderr, "%24s io: %s\n", "", h_io());
	for (i = 0; i < s.nr; i++) {
		struct file_ra_state *ra = &s.r[i].f->file.f_ra;

		fprintf(stderr, "%24s reader %d: %lu+%u-%u ra_pages %u prev_pos %lld mmap_miss %u\n",
			"", i, ra->start, ra->size, ra->async_size,
			ra->ra_pages, (long long)ra->prev_pos, ra->mmap_miss);
	}
}

static loff_t pick_size(void)
{
	switch (get8() % 8) {
	case 0:
		return 0;
	case 1:
		return 1 + get16() % (3 * PAGE_SIZE);
	case 2:
		return get32() % (4 << 20);
	case 3:
		return get32() % (1 << 30);
	case 4:
		return LLONG_MAX - get16();
	case 5:
		return (loff_t)(get64() & LLONG_MAX);
	case 6:
		return (LLONG_MAX & ~(loff_t)(PAGE_SIZE - 1)) -
		       (loff_t)get8() * PAGE_SIZE;
	default:
		return (loff_t)(1 + get8() % 64) * PAGE_SIZE;
	}
}

static unsigned long pick_memory(void)
{
	static const unsigned long pages[] = { 0, 1024, 16384, 65536, 262144 };
	unsigned int sel = get8() % 6;

	return sel < 5 ? pages[sel] : get32() % 262145;
}

static void run_pass(const struct ra_impl *impl, const uint8_t *data,
		     size_t size)
{
	static const unsigned long io[] = { 320, 0, 32, 2048 };
	struct file_ra_state before[MAX_READERS];
	unsigned long ra_kb, flags;
	int i;

	memset(&s, 0, sizeof(s));
	s.in = (struct input){ data, size };
	ra_impl = impl;
	h_log_reset();
	shim_trace_sink = fz_trace;
	h_debugfs_write(ENABLE, "0");
	h_debugfs_write(STATS, "0");
	shim_alloc_budget = default_alloc_budget();
	h_fs = (struct h_fs_behaviour){ .take = ULONG_MAX };

	s.size = pick_size();
	verbose = getenv("FUZZ_VERBOSE");
	s.eof = DIV_ROUND_UP((u64)s.size, PAGE_SIZE);
	ra_kb = ra_kb_capped(pick_ra_kb());
	shim_totalram_pages = pick_memory();
	s.memcap = max(shim_totalram_pages / 128, VM_READAHEAD_PAGES);
	s.nr = 1 + get8() % MAX_READERS;
	flags = get8();
	s.io_pages = io[(flags >> 2) & 3];

	s.owner = h_create(s.size, ra_kb);
	s.owner->bdi.io_pages = s.io_pages;
	s.owner->inode.i_data.large_folios = flags & 1;
	fs_ops = s.owner->inode.i_data.a_ops;
	s.owner->inode.i_data.a_ops = &fz_aops;
	s.r[0].f = s.owner;
	for (i = 1; i < s.nr; i++)
		s.r[i].f = h_reopen(s.owner);
	for (i = 0; i < s.nr; i++)
		s.r[i].rp_hi = s.r[i].f->file.f_ra.ra_pages;
	s.fifo = h_open_special(S_IFIFO | 0600, FMODE_READ);
	s.dir = h_open_special(S_IFDIR | 0755, FMODE_READ);
	s.wronly = h_open_special(S_IFREG | 0644, FMODE_WRITE);
	if (flags & 2) {
		s.trace_on = true;
		h_debugfs_write(ENABLE, "1");
	}
	if (verbose)
		fprintf(stderr, "%-8s size %lld (%lu pages) ra_kb %lu memory %lu pages, %d readers, large folios %d, io_pages %lu\n",
			ra_impl->name, (long long)s.size, s.eof, ra_kb,
			shim_totalram_pages, s.nr, (int)(flags & 1),
			s.io_pages);

	for (s.step = 0; s.in.n && s.step < MAX_OPS && !s.stop; s.step++) {
		s.op = op_table[get8() % 32];
		s.unbounded = false;
		memset(issued, 0, sizeof(issued));
		snapshot(before);
		do_op();
		if (!s.stop)
			check_cache();
		if (!s.stop)
			check_io();
		if (!s.stop)
			check_windows(before);
		if (verbose)
			show_step();
		s.work += h_pages_submitted() + h_pages_added();
		if (s.owner->file.f_mapping->i_pages.count > CACHE_LIMIT)
			h_drop_cache(s.owner);
		h_log_reset();
		if (s.work > WORK_LIMIT)
			break;
	}

	shim_alloc_budget = -1;
	shim_alloc_order_limit = UINT_MAX;
	h_close_all();
	if (shim_live_folios)
		violation("leak: %ld folios live after closing every file",
			  shim_live_folios);
	shim_live_folios = 0;
	shim_totalram_pages = 262144;
	h_fs = (struct h_fs_behaviour){ .take = ULONG_MAX };
	h_debugfs_write(ENABLE, "0");
	h_log_reset();
	ra_impl = &ra_ours;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	cur_data = data;
	cur_size = size;
	run_pass(&ra_ours, data, size);
	run_pass(&ra_pristine, data, size);
	return 0;
}
