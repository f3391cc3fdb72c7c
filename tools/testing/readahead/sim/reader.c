// SPDX-License-Identifier: GPL-2.0
/*
 * reader.c - the job engine: reading processes and the paths they take.
 *
 * Owns the simulated processes (one per job clone: numjobs of them per
 * job section) and the two ways they read: read(2)/pread(2) through the
 * harness's model of 6.1's filemap_get_pages() (filemap.c: batch lookup
 * up to a page that is not uptodate or carries PG_readahead; sync
 * readahead on a miss; a page read alone if readahead brought none;
 * async readahead on a marked page), sleeping on the folio it names
 * (then retrying, or checking the read), and the copy of filemap_read()
 * here; and mmap through a mirror of 6.1's fault handling (fault-around
 * over 64 KB, which maps cached, unlocked, uptodate, unmarked pages and
 * hands their number to the implementation: 6.12 and 6.1 take one off
 * mmap_miss for each; then filemap_fault: async readahead
 * on a hit before waiting on the page lock, sync readahead on a miss,
 * the page read alone if still missing).  The readahead entry points are
 * called through the harness's ra_call.c, i.e. through the running
 * struct ra_impl.  A model of an older kernel may ask (ra_impl.flags)
 * for no fault-around and for 2.6.30's order: wait on the page lock,
 * then look at the marker.
 *
 * I/O errors as 6.1 meets them: a page left not uptodate by a failed
 * read is read again alone (->read_folio, filemap_update_page() or
 * page_not_uptodate in filemap_fault()); if that fails too, the file's
 * ra_pages is divided by 4 (shrink_readahead_size_eio()) and read(2)
 * returns what it copied (fio issues the rest as another read(2)) or
 * -EIO, the fault SIGBUS.  fio stops the job at its first error unless
 * continue_on_error, then counts it and goes on with the next block.
 *
 * Large folios (a file with large_folios=1): the read path's batch holds
 * folios, stepping over each (filemap_get_read_batch()), and copies from
 * each what the read covers, marking a folio accessed only when the read
 * enters it (6.1's pos_same_folio()); fault-around maps the pages of
 * the folios in its range one by one, each fault maps its own page.
 *
 * A process that needs a page under I/O sleeps on it (a wait entry on the
 * page, woken through its function); that time is part of its latency.
 * Work between sleeps costs CPU time (a system call, a copy per byte, a
 * fault); a process runs on inline, without going through the event
 * queue, as long as its next step comes before every pending event,
 * which is what makes cached reads cheap to simulate.
 *
 * A process runs on a simulated CPU (cpu.c): it queues for one when it
 * becomes runnable, unless cpus=0, and pays the CPU time of its work when
 * it gives its CPU back.
 *
 * With --ftrace, the two paths report 6.12's mm_filemap_get_pages,
 * mm_filemap_fault and mm_filemap_map_pages where 6.12 fires them
 * (ftrace.c writes them).
 */
#include "jobs.h"
#include "ra_observe.h"
#include "filemap.h"

#include <signal.h>
#include <string.h>

#define FAULT_AROUND	16	/* pages: 6.1's fault_around_bytes, 64 KB */
#define MAPTAB		64	/* fault-around blocks remembered per process */

enum wait_kind { W_NONE, W_UPDATE, W_READ };

struct map_block {
	pgoff_t block;
	unsigned int bits;
	struct sim_page *page[FAULT_AROUND];
	uint32_t gen[FAULT_AROUND];
};

struct reader {
	struct wait_entry wait;		/* on a page it sleeps on */
	struct sim_cpu_task ct;		/* on the CPUs (cpu.c) */
	bool opened;
	simtime_t cpu_paid;		/* of op_cpu, time already passed */
	struct job *job;
	char comm[16];
	struct task_struct task;
	struct sim_file *sf;
	struct vm_area_struct vma;
	struct reader_stat st;
	uint64_t io_size;
	/* random order: a permutation of the blocks, by cycle walking */
	uint64_t nblocks, next_block, perm_bits;
	uint64_t keys[4];
	/* the operation in progress */
	bool in_op;
	uint64_t op_pos, op_left;
	simtime_t op_start, op_cpu;
	struct folio *batch[FILEMAP_BATCH];
	int nb;
	enum wait_kind wkind;
	pgoff_t fpage, flast;
	struct filemap_fault fault;	/* the page fault in progress */
	struct map_block *maptab;
	bool finished;
	/* bytes the current read(2) copied: a short read if it fails now */
	uint64_t sys_read;
	/* --ftrace: the read r->wkind W_READ waits for is the batch's update */
	bool update_read;
	bool stopped;			/* an error ended the job */
};

struct reader *readers;
unsigned int nr_readers;
uint64_t page_reads;
static simtime_t syscall_ns, fault_ns, wakeup_ns;
static double copy_ns_per_byte;
static unsigned int nr_finished;

static void reader_run(void *obj, uint64_t arg);
static void reader_open(void *obj, uint64_t arg);

/* @ct got its CPU: @r runs now. */
static void reader_dispatch(struct sim_cpu_task *ct, simtime_t waited)
{
	struct reader *r = container_of(ct, struct reader, ct);

	r->st.runq_wait += waited;
	ev_at(sim_now, r->opened ? reader_run : reader_open, r, 0);
}

/* @r stops running: it pays the CPU time of its operation so far. */
static void reader_cpu_put(struct reader *r)
{
	simtime_t unpaid = r->op_cpu - r->cpu_paid;

	r->cpu_paid = r->op_cpu;
	cpu_put(&r->ct, unpaid);
}

/* Ready at @when: straight on (no CPU limit), or through the run queue. */
static void make_runnable(struct reader *r, simtime_t when)
{
	if (sys.cpus)
		cpu_want(&r->ct, when);
	else
		ev_at(when, r->opened ? reader_run : reader_open, r, 0);
}

static void reader_wake(struct reader *r)
{
	make_runnable(r, sim_now + wakeup_ns + sched_delay());
}

static void reader_woken(struct wait_entry *w)
{
	reader_wake(container_of(w, struct reader, wait));
}

const struct reader_stat *reader_stat(unsigned int i)
{
	return &readers[i].st;
}

const struct job *reader_job(unsigned int i)
{
	return readers[i].job;
}

bool readers_all_done(void)
{
	return nr_finished == nr_readers;
}

static void sleep_on(struct reader *r, struct folio *f, enum wait_kind k)
{
	r->wkind = k;
	blk_waiting_on(r->sf->si->part->disk);
	cache_wait(f, &r->wait);
}

/* ---- random order ---- */

static uint64_t feistel(const struct reader *r, uint64_t x)
{
	unsigned int half = r->perm_bits / 2;
	uint64_t mask = (1ULL << half) - 1;
	uint64_t left = x >> half, right = x & mask;
	int i;

	for (i = 0; i < 4; i++) {
		uint64_t f = (right * 0x9E3779B97F4A7C15ULL + r->keys[i]);
		uint64_t t = right;

		f ^= f >> 29;
		right = (left ^ f) & mask;
		left = t;
	}
	return left << half | right;
}

static uint64_t block_at(const struct reader *r, uint64_t i)
{
	uint64_t x = i;

	do
		x = feistel(r, x);
	while (x >= r->nblocks);
	return x;
}

/* ---- the read path: 6.1's filemap_read() and filemap_get_pages() ---- */

/*
 * A ->read_folio the process waited for has finished: 6.1's
 * filemap_read_folio() after folio_wait_locked_killable().  Not uptodate
 * means the read failed: shrink_readahead_size_eio(), -EIO.
 */
static int read_folio_done(struct reader *r, struct folio *f)
{
	r->st.read_folio++;
	if (folio_test_uptodate(f))
		return 0;
	r->st.read_folio_eio++;
	r->sf->file.f_ra.ra_pages /= 4;
	return -EIO;
}

/*
 * mm_filemap_get_pages of the batch got: the read's range from its
 * position (6.12), or the batch's pages (RA_IMPL_TRACE_BATCH).
 */
static void trace_get_pages(struct reader *r)
{
	uint64_t count = r->op_left;

	if (ra_impl->flags & RA_IMPL_TRACE_BATCH) {
		struct folio *last = r->batch[r->nb - 1];
		uint64_t end = (uint64_t)(last->index + folio_nr_pages(last))
			       << PAGE_SHIFT;

		count = min(count, end - r->op_pos);
	}
	ftrace_get_pages(r->sf->si, r->op_pos, count);
}

/*
 * Fill r->batch (filemap.c): 1, or 0 when the process went to sleep.
 * A batch got fires 6.12's mm_filemap_get_pages; so does one
 * whose last folio filemap_update_page() read again, once that read
 * succeeds (do_read()), but not the page filemap_create_folio() read
 * alone: 6.12 returns before the tracepoint then.  The two reads are
 * told apart by the page at pos: cached before the step (the update of
 * a folio found), or not (created).
 */
static int get_pages(struct reader *r)
{
	bool cached = cache_lookup(r->sf->si, r->op_pos >> PAGE_SHIFT);

	switch (filemap_get_pages_step(&r->sf->file, r->op_pos, r->op_left,
				       r->batch, &r->nb)) {
	case FILEMAP_WAIT_READ:
		r->update_read = cached;
		sleep_on(r, r->batch[r->nb - 1], W_READ);
		return 0;
	case FILEMAP_WAIT_LOCKED:
		sleep_on(r, r->batch[r->nb - 1], W_UPDATE);
		return 0;
	case FILEMAP_NOMEM:
		/* The simulated page cache evicts; it never runs out. */
		shim_bug(__FILE__, __LINE__, "no page for a read");
		return 0;
	default:
		trace_get_pages(r);
		return 1;
	}
}

static void copy_batch(struct reader *r)
{
	struct file_ra_state *ra = &r->sf->file.f_ra;
	uint64_t isize = r->sf->si->size;
	uint64_t end = min(isize, r->op_pos + r->op_left);
	int i;

	if (r->op_pos < isize) {
		unsigned int shift = PAGE_SHIFT + folio_order(r->batch[0]);

		if ((r->op_pos >> shift) !=
		    (uint64_t)((ra->prev_pos - 1) >> shift))
			cache_mark_accessed(r->batch[0]);
		for (i = 0; i < r->nb; i++) {
			struct folio *f = r->batch[i];
			uint64_t fsize = PAGE_SIZE << folio_order(f);
			uint64_t off = r->op_pos & (fsize - 1);
			uint64_t bytes = min(end - r->op_pos, fsize - off);
			pgoff_t first = r->op_pos >> PAGE_SHIFT;

			if (end < ((uint64_t)f->index << PAGE_SHIFT))
				break;
			if (i > 0)
				cache_mark_accessed(f);
			if (folio_order(f))
				cache_pages_used(f, first, (r->op_pos + bytes -
							    1) >> PAGE_SHIFT);
			if (!folio_test_uptodate(f))
				r->st.not_uptodate++;
			r->op_pos += bytes;
			r->op_left -= bytes;
			r->st.delivered += bytes;
			r->sys_read += bytes;
			ra->prev_pos = r->op_pos;
			r->op_cpu += (simtime_t)(bytes * copy_ns_per_byte);
			page_reads += folio_order(f) ? ((r->op_pos - 1) >>
						PAGE_SHIFT) - first + 1 : 1;
		}
	}
	for (i = 0; i < r->nb; i++)
		folio_put(r->batch[i]);
	r->nb = 0;
}

/* The operation in progress failed at r->op_pos: fio sees the error. */
static void op_failed(struct reader *r, int err)
{
	pgoff_t pg = r->op_pos >> PAGE_SHIFT;

	if (!r->st.errors++)
		r->st.first_err = pg;
	r->st.last_err = pg;
	r->st.failed += r->op_left;
	r->op_left = 0;
	if (!r->st.err)
		r->st.err = err;
	if (err != EIO || !r->job->continue_on_error)
		r->stopped = true;
}

/*
 * -EIO from filemap_get_pages(): filemap_read() returns what it copied,
 * if anything (a short read, and fio issues the rest: another read(2)),
 * else the error.  True when the operation is over.
 */
static bool read_error(struct reader *r)
{
	if (r->sys_read) {
		r->sys_read = 0;
		r->op_cpu += syscall_ns;
		return false;
	}
	op_failed(r, EIO);
	return true;
}

/*
 * filemap_get_pages() dropped the batch's last folio, waited on or
 * failed: true if folios are left to copy.  The series' filemap.c traces
 * them (RA_IMPL_TRACE_BATCH); 6.12's returns them untraced.
 */
static bool batch_drop_last(struct reader *r)
{
	if (!--r->nb)
		return false;
	if (ra_impl->flags & RA_IMPL_TRACE_BATCH)
		trace_get_pages(r);
	return true;
}

/* One read(2) (fio's io_u); false when the process went to sleep. */
static bool do_read(struct reader *r)
{
	for (;;) {
		enum wait_kind k = r->wkind;
		int ret = 1;

		r->wkind = W_NONE;
		if (k == W_UPDATE) {
			if (!batch_drop_last(r))
				ret = get_pages(r);
		} else if (k == W_READ) {
			struct folio *f = r->batch[r->nb - 1];

			/* filemap_get_pages()'s err: drop the failed folio */
			if (read_folio_done(r, f)) {
				folio_put(f);
				if (!batch_drop_last(r))
					ret = -EIO;
			} else if (r->update_read) {
				trace_get_pages(r);
			}
		} else {
			if (!r->op_left || r->op_pos >= r->sf->si->size)
				return true;
			ret = get_pages(r);
		}
		if (!ret)
			return false;
		if (ret < 0) {
			if (read_error(r))
				return true;
			continue;
		}
		copy_batch(r);
	}
}

/* ---- the fault path ---- */

static struct map_block *map_block(struct reader *r, pgoff_t pg)
{
	return &r->maptab[(pg / FAULT_AROUND) % MAPTAB];
}

static bool mapped(struct reader *r, pgoff_t pg)
{
	struct map_block *b = map_block(r, pg);
	unsigned int i = pg % FAULT_AROUND;
	struct sim_page *p;

	if (b->block != pg / FAULT_AROUND || !(b->bits & (1u << i)))
		return false;
	p = b->page[i];
	/* Evicted since (and maybe reused): the pte went with it. */
	if (p->gen != b->gen[i] || !p->folio.mapping ||
	    p->folio.mapping != r->sf->file.f_mapping ||
	    pg - p->folio.index >= folio_nr_pages(&p->folio)) {
		b->bits &= ~(1u << i);
		return false;
	}
	return true;
}

/* Map page @pg, of folio @f. */
static void map_page(struct reader *r, struct folio *f, pgoff_t pg)
{
	struct map_block *b = map_block(r, pg);
	unsigned int i = pg % FAULT_AROUND;

	if (b->block != pg / FAULT_AROUND) {
		b->block = pg / FAULT_AROUND;
		b->bits = 0;
	}
	b->bits |= 1u << i;
	b->page[i] = sim_page(f);
	b->gen[i] = sim_page(f)->gen;
}

/*
 * do_fault_around() and filemap_map_pages(): true if @pg got mapped.
 * The cached pages found are hits, which the implementation counts.
 */
static bool fault_around(struct reader *r, pgoff_t pg)
{
	struct vm_fault vmf = { .vma = &r->vma, .pgoff = pg };
	struct sim_inode *si = r->sf->si;
	pgoff_t from = pg & ~(pgoff_t)(FAULT_AROUND - 1);
	pgoff_t to = from + FAULT_AROUND - 1;
	pgoff_t file_end = DIV_ROUND_UP(si->size, PAGE_SIZE) - 1;
	unsigned int hits = 0;
	bool got = false;
	pgoff_t i;

	if (to > file_end)
		to = file_end;
	for (i = from; i <= to; i++) {
		struct folio *f = cache_lookup(si, i);

		if (!f || folio_test_locked(f) || !folio_test_uptodate(f) ||
		    folio_test_readahead(f))
			continue;
		hits++;
		if (mapped(r, i))
			continue;
		map_page(r, f, i);
		if (i == pg)
			got = true;
	}
	ra_call_map_hits(&vmf, hits, got);
	/* 6.12 traces the range asked for (to: cut at EOF), if one was found */
	if (hits)
		ftrace_map_pages(si, from, to);
	return got;
}

/* Page @pg of folio @f is read through the mapping. */
static void touch(struct folio *f, pgoff_t pg)
{
	cache_mark_accessed(f);
	if (folio_order(f))
		cache_pages_used(f, pg, pg);
}

/*
 * Touch page @pg of the mapping: 1, or 0 when the process went to sleep,
 * or -EFAULT for VM_FAULT_SIGBUS (the page's one re-read failed).
 */
static int fault_page(struct reader *r, pgoff_t pg)
{
	struct sim_inode *si = r->sf->si;
	struct vm_fault vmf = { .vma = &r->vma, .pgoff = pg };
	struct filemap_fault *ff = &r->fault;
	bool start = ff->stage == FILEMAP_FAULT_START;
	enum filemap_step step;
	struct folio *f;

	if (start) {
		if (mapped(r, pg)) {
			touch(cache_lookup(si, pg), pg);
			return 1;
		}
		r->op_cpu += fault_ns;
		if (!(ra_impl->flags & RA_IMPL_NO_FAULT_AROUND) &&
		    fault_around(r, pg)) {
			r->st.minor_faults++;
			touch(cache_lookup(si, pg), pg);
			return 1;
		}
	}
	/*
	 * filemap_fault()'s entry; a fault that slept on the page steps on
	 * where it slept, it is not retried (6.12's VM_FAULT_RETRY would
	 * enter fault-around and filemap_fault() again): one event a fault.
	 */
	if (start)
		ftrace_fault(si, pg);
	step = filemap_fault_step(&vmf, ff,
				  ra_impl->flags & RA_IMPL_FAULT_LOCK_FIRST);
	if (start && ff->major)
		r->st.major_faults++;
	else if (start)
		r->st.minor_faults++;
	if (step != FILEMAP_GOT) {
		sleep_on(r, ff->folio, W_NONE);
		return 0;
	}
	f = ff->folio;
	ff->folio = NULL;
	if (ff->read && read_folio_done(r, f)) {
		folio_put(f);
		return -EFAULT;
	}
	map_page(r, f, pg);
	touch(f, pg);
	folio_put(f);
	return 1;
}

/*
 * One memcpy() of bs bytes from the mapping; false when the process went
 * to sleep.  SIGBUS ends the job (fio would die of it) after the bytes
 * before the page were copied.
 */
static bool do_mmap_read(struct reader *r)
{
	while (r->fpage <= r->flast) {
		int ret = fault_page(r, r->fpage);
		uint64_t pos = (uint64_t)r->fpage << PAGE_SHIFT, got;

		if (!ret)
			return false;
		if (ret < 0) {
			got = pos > r->op_pos ? pos - r->op_pos : 0;
			r->st.delivered += got;
			r->op_pos += got;
			r->op_left -= got;
			op_failed(r, SIGBUS);
			return true;
		}
		r->fpage++;
		page_reads++;
	}
	r->st.delivered += r->op_left;
	r->op_cpu += (simtime_t)(r->op_left * copy_ns_per_byte);
	r->op_pos += r->op_left;
	r->op_left = 0;
	return true;
}

/* ---- processes ---- */

static void start_op(struct reader *r)
{
	struct job *j = r->job;
	uint64_t done = r->st.requested;
	uint64_t len = min(j->bs, r->io_size - done);

	if (j->rw == RW_RANDREAD)
		r->op_pos = j->offset + block_at(r, r->next_block++) * j->bs;
	else
		r->op_pos = j->offset + done;
	r->op_left = len;
	r->sys_read = 0;
	r->st.requested += len;
	r->op_start = sim_now;
	r->op_cpu = j->engine == ENG_MMAP ? 0 : syscall_ns;
	r->cpu_paid = 0;
	r->in_op = true;
	r->fpage = r->op_pos >> PAGE_SHIFT;
	r->flast = (r->op_pos + len - 1) >> PAGE_SHIFT;
	r->st.ops++;
}

static void finish(struct reader *r)
{
	r->finished = true;
	r->st.finish = sim_now;
	r->st.ra_pages_end = r->sf->file.f_ra.ra_pages;
	nr_finished++;
	if (r->ct.on_cpu)
		reader_cpu_put(r);
	free(r->maptab);
	r->maptab = NULL;
}

static void reader_run(void *obj, uint64_t arg)
{
	struct reader *r = obj;

	(void)arg;
	ra_cur_pid = r->st.pid;
	ra_cur_comm = r->comm;
	shim_current = &r->task;
	for (;;) {
		simtime_t lat, next, unpaid;
		bool done, think;

		if (!r->in_op) {
			if (r->st.requested >= r->io_size || r->stopped) {
				finish(r);
				return;
			}
			start_op(r);
		}
		done = r->job->engine == ENG_MMAP ? do_mmap_read(r) :
						    do_read(r);
		if (!done) {
			if (r->ct.on_cpu)
				reader_cpu_put(r);
			return;
		}
		r->in_op = false;
		unpaid = r->op_cpu - r->cpu_paid;
		lat = sim_now + unpaid - r->op_start;
		if (!r->st.lat_min || lat < r->st.lat_min)
			r->st.lat_min = lat;
		if (lat > r->st.lat_max)
			r->st.lat_max = lat;
		r->st.lat_sum += lat;
		next = sim_now + unpaid + sched_delay();
		think = r->st.requested < r->io_size && !r->stopped &&
			r->job->thinktime_us;
		if (think)
			next += r->job->thinktime_us * NS_PER_US;
		if (r->ct.on_cpu && (think || cpu_slice_over(&r->ct, next))) {
			/* Sleeps, or lets a waiting process run. */
			reader_cpu_put(r);
			cpu_want(&r->ct, next);
			return;
		}
		if (next >= ev_next_time()) {
			ev_at(next, reader_run, r, 0);
			return;
		}
		sim_now = next;
	}
}

static void reader_open(void *obj, uint64_t arg)
{
	struct reader *r = obj;
	struct job *j = r->job;
	struct file *file;

	(void)arg;
	ra_cur_pid = r->st.pid;
	ra_cur_comm = r->comm;
	shim_current = &r->task;
	r->opened = true;
	r->sf = fs_open(j->si, ra_impl);
	file = &r->sf->file;
	r->vma.vm_file = file;
	if (j->invalidate)
		ra_call_fadvise(file, j->offset, r->io_size,
				POSIX_FADV_DONTNEED);
	if (j->fadvise_hint) {
		int advice = j->rw == RW_RANDREAD ? POSIX_FADV_RANDOM :
						    POSIX_FADV_SEQUENTIAL;

		ra_call_fadvise(file, j->offset, r->io_size, advice);
		if (j->engine == ENG_MMAP)
			r->vma.vm_flags = j->rw == RW_RANDREAD ? VM_RAND_READ :
								 VM_SEQ_READ;
	}
	/* fio's thp=1: madvise(MADV_HUGEPAGE) on the mapping */
	if (j->thp)
		r->vma.vm_flags |= VM_HUGEPAGE;
	r->st.ra_pages_start = file->f_ra.ra_pages;
	r->st.start = sim_now;
	reader_run(r, 0);
}

void readers_create(void)
{
	unsigned int i, c, n = 0, pid = 1000;

	for (i = 0; i < nr_jobs; i++)
		n += jobs[i].numjobs;
	readers = calloc(n, sizeof(*readers));
	if (!readers)
		sim_die("sim: out of host memory");
	for (i = 0; i < nr_jobs; i++) {
		struct job *j = &jobs[i];

		for (c = 0; c < j->numjobs; c++) {
			struct reader *r = &readers[nr_readers];

			r->job = j;
			r->wait.func = reader_woken;
			r->st.pid = pid++;
			snprintf(r->comm, sizeof(r->comm), "fio");
			r->task.pid = r->st.pid;
			snprintf(r->task.comm, sizeof(r->task.comm), "fio");
			r->io_size = j->size;
			if (j->offset >= j->si->size)
				r->io_size = 0;
			else
				r->io_size = min(r->io_size,
						 j->si->size - j->offset);
			if (j->rw == RW_RANDREAD) {
				int k;

				r->nblocks = r->io_size / j->bs;
				r->io_size = r->nblocks * j->bs;
				if (j->io_size && j->io_size < r->io_size)
					r->io_size = j->io_size / j->bs *
						     j->bs;
				r->perm_bits = 2;
				while ((1ULL << r->perm_bits) < r->nblocks)
					r->perm_bits += 2;
				for (k = 0; k < 4; k++) {
					struct prng p;

					prng_seed(&p, sys.seed,
						  1000 + nr_readers * 4 + k);
					r->keys[k] = prng_next(&p);
				}
			} else if (j->io_size && j->io_size < r->io_size) {
				r->io_size = j->io_size;
			}
			if (j->engine == ENG_MMAP) {
				r->maptab = calloc(MAPTAB, sizeof(*r->maptab));
				if (!r->maptab)
					sim_die("sim: out of host memory");
			}
			nr_readers++;
		}
	}
}

void readers_start(void)
{
	unsigned int i;

	syscall_ns = (simtime_t)(sys.syscall_us * NS_PER_US);
	fault_ns = (simtime_t)(sys.fault_us * NS_PER_US);
	wakeup_ns = (simtime_t)(sys.wakeup_us * NS_PER_US);
	copy_ns_per_byte = sys.copy_mbps > 0 ? 1e3 / sys.copy_mbps : 0;
	cpus_start();
	for (i = 0; i < nr_readers; i++) {
		readers[i].task.cpu = -1;
		readers[i].ct.task = &readers[i].task;
		readers[i].ct.dispatch = reader_dispatch;
	}
	if (sys.fio_main_ms >= 0)
		fio_main_run();
	else
		readers_launch(0, 0);
}

void readers_launch(simtime_t at, simtime_t step)
{
	unsigned int i;

	for (i = 0; i < nr_readers; i++)
		make_runnable(&readers[i], at + i * step + sched_delay());
}
