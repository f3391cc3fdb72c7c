/* SPDX-License-Identifier: GPL-2.0 */
/*
 * sim.h - the types the simulator's parts share.
 *
 * The simulator runs the real readahead code (ours or a pristine 6.12
 * or 6.1 file, through struct ra_impl) inside a discrete-event model of a
 * machine: reading processes (reader.c) call the read and fault paths,
 * which call the readahead entry points, which fill the page cache
 * (pagecache.c) and call the filesystem (fs.c), which submits bios to the
 * block queues (blkq.c) of the disks (disk.c).  Completions come back as
 * events (event.c).  One file per concern; this header is their contract.
 */
#ifndef RA_SIM_H
#define RA_SIM_H

#include "shim.h"
#include "lib.h"
#include "prng.h"
#include "spindle.h"

#include <stdint.h>

typedef uint64_t simtime_t;		/* nanoseconds */
#define SIM_NEVER	UINT64_MAX
#define NS_PER_US	1000ULL
#define NS_PER_MS	1000000ULL
#define NS_PER_S	1000000000ULL
#define SECTOR_SHIFT	9
#define PAGE_SECTORS	(PAGE_SIZE >> SECTOR_SHIFT)

#define container_of(ptr, type, member)					\
	((type *)((char *)(ptr) - offsetof(type, member)))

/* malloc() or die: the simulator has no way on without memory. */
void *sim_alloc(size_t size);
void sim_die(const char *fmt, ...) __attribute__((format(printf, 1, 2),
						     noreturn));

/* ---- event.c: clock, event queue (the PRNG: prng.h) ---- */

typedef void (*ev_fn)(void *obj, uint64_t arg);

extern simtime_t sim_now;
void ev_init(void);
void ev_at(simtime_t when, ev_fn fn, void *obj, uint64_t arg);
/* Time of the earliest pending event, SIM_NEVER if none. */
simtime_t ev_next_time(void);
/* Run the earliest event; false if there was none. */
bool ev_step(void);
uint64_t ev_count(void);


/* ---- disk.c: one spindle ---- */

struct elevator_type;
#define ELV_MAX_TUNABLES	8

#define DISK_MAX_FAIL	8

struct disk_params {
	struct spindle_params mech;	/* what times a read (spindle.h) */
	unsigned int max_sectors_kb;
	unsigned int read_ahead_kb;
	const struct elevator_type *elv;	/* I/O scheduler (elevator.h) */
	double elv_tun[ELV_MAX_TUNABLES];	/* its tunables, by index */
	double plug_ms;			/* legacy queue plugging, 0: off */
	/*
	 * Requests the disk takes at once (0: the disk's own, 1 for a
	 * spindle, VIRTIO_DEPTH for a throttled disk), and requests
	 * allocated at once, waiting plus on the disk (0: no cap); with
	 * hw_queues, each hardware queue's (blkq.c).
	 */
	unsigned int queue_depth;
	unsigned int nr_requests;
	unsigned int hw_queues;		/* 0: one, without a dispatch list */
	unsigned int partitions;
	char mount[64];			/* pattern: %p partition, %d disk */
	/* fail_sectors: reads touching these (inclusive, absolute) fail */
	unsigned int nr_fail;
	struct {
		uint64_t start, end;
	} fail[DISK_MAX_FAIL];
};

struct disk_stat {
	uint64_t ios, merges, sectors, ticks_ns;
	uint64_t io_ticks_ns, in_queue_ns;
	uint64_t seeks, busy_ns, cache_hits;
	uint64_t max_queue;
	uint64_t err_reqs, err_pages;	/* requests failed, their pages */
	/* the scheduler: idle periods, their time, preemptions, merges */
	uint64_t idles, idle_ns, preempts, merges_queues;
	uint64_t d2c_ns;		/* issue to completion, summed */
	uint64_t q2c_ns;		/* first bio's Q to completion, summed */
	/* bios that waited for a request (nr_requests), their Q to G */
	uint64_t tag_waits, tag_wait_ns;
	uint64_t max_busy, max_alloc;	/* on the disk, allocated at once */
};

struct blk_request;
struct bio;

#define DISK_MAX_HWQ	64

/* A hardware queue of a disk (blkq.c); hw_queues=0 uses the first. */
struct hw_queue {
	unsigned int busy;		/* its requests on the disk */
	unsigned int alloc;		/* its requests allocated */
	/* taken from the scheduler, waiting for one of its tags */
	struct blk_request *disp, *disp_tail;
	/* bios waiting for a request (nr_requests), oldest first */
	struct bio *tag_wait, *tag_wait_tail;
	uint64_t tag_wait_sub;		/* its submitter sleeps: blkq.c */
};

struct disk {
	char name[16];
	int index;
	struct disk_params p;
	struct backing_dev_info bdi;
	struct prng rng;
	struct spindle mech;		/* the head, the drive cache */
	/* block queue */
	struct blk_request *queue;	/* waiting, in arrival order */
	struct blk_request *queue_tail;
	unsigned int queued;
	struct blk_request *active;	/* the last one sent to the disk */
	unsigned int nr_busy;		/* requests on the disk */
	simtime_t dev_free;		/* when the disk has done them all */
	struct hw_queue hq[DISK_MAX_HWQ];
	void *elv_data;			/* the scheduler's own */
	uint64_t kick_gen;		/* blk_kick_at() generation */
	bool plugged;			/* legacy queue plug */
	uint64_t plug_gen;
	simtime_t busy_since;		/* io_ticks accounting */
	unsigned int in_flight;
	simtime_t last_change;
	struct disk_stat st;
	uint32_t dev;			/* the whole disk's, MKDEV() */
	struct blkt *bt;		/* blktrace.c's, NULL: not traced */
};

struct partition {
	char name[16];
	struct disk *disk;
	int major, minor;
	uint64_t start, nsect;		/* sectors on the spindle */
	uint64_t next_free;		/* the filesystem's allocator */
	struct super_block sb;		/* s_dev and s_id, for the trace */
	char mount[80];
};

void disk_init(struct disk *d, int index);
/*
 * Service time of a read of @nsect at @sector starting at @start (now, or
 * when the requests sent before it are done); moves the head.
 */
simtime_t disk_service(struct disk *d, simtime_t start, uint64_t sector,
		       uint64_t nsect, bool *seek);
/*
 * The model's own time for a back-to-back sequential read of @bytes in
 * requests of @req_bytes, starting with an average seek.
 */
double disk_stream_seconds(const struct disk_params *p, uint64_t bytes,
			   uint64_t req_bytes);
double disk_rate_bps(const struct disk_params *p);
/* Does a read of [sector, sector + nsect) touch a failing range? */
bool disk_read_fails(const struct disk *d, uint64_t sector, uint64_t nsect);

/* ---- blkq.c: bios, requests, plugging, the elevator ---- */

struct sim_inode;

struct bio {
	struct bio *next;
	struct disk *disk;
	int pid;			/* the submitting task */
	int cpu;			/* it ran on (sim_task_cpu()), -1: none */
	uint64_t sector;
	unsigned int nr;		/* pages */
	/* the submitter's: called once the disk is done, err 0 or -EIO */
	void (*end_io)(struct bio *b, int err);
	void *private;
	pgoff_t index;			/* first page, for end_io */
	bool ahead;			/* REQ_RAHEAD: from ->readahead */
	struct partition *part;		/* its partition, NULL: none */
	simtime_t queued_at;		/* submitted (blktrace's Q) */
	/* waiting for a request: continues the submission of the one before */
	bool tag_chain;
};

struct blk_request {
	struct blk_request *next;
	struct bio *bios, *bios_tail;
	uint64_t sector, nsect;
	simtime_t queued_at;		/* allocated (G) */
	simtime_t bio_at;		/* its first bio submitted (Q) */
	simtime_t issued_at;		/* sent to the disk */
	int pid;			/* of its first bio */
	unsigned int hq;		/* its hardware queue */
	void *elv_priv;			/* the scheduler's (its queue) */
	struct disk *disk;
	bool ahead;			/* of its first bio */
};

/* ---- cpu.c: the CPUs, a run queue in front of sys.cpus processors ---- */

/* A process's place on the CPUs (its CPU number is task->cpu). */
struct sim_cpu_task {
	struct task_struct *task;
	struct sim_cpu_task *rq_next;	/* run queue: waiting for a CPU */
	simtime_t rq_ready;
	uint64_t rq_key;
	bool on_cpu;
	simtime_t ran_since;		/* got its CPU */
	/* It has a CPU now, after waiting @waited: run it. */
	void (*dispatch)(struct sim_cpu_task *ct, simtime_t waited);
};

/* No CPU busy, none queued; the scheduler PRNG seeded (sys.seed). */
void cpus_start(void);
/* The scheduling noise a process waits before it runs (jitter_us). */
simtime_t sched_delay(void);
/* @ct can run from @when on: queue it for a CPU. */
void cpu_want(struct sim_cpu_task *ct, simtime_t when);
/* @ct stops running: its CPU is free once @unpaid (CPU time) passed. */
void cpu_put(struct sim_cpu_task *ct, simtime_t unpaid);
/* Has @ct, going on at @next, run its slice while another waits? */
bool cpu_slice_over(const struct sim_cpu_task *ct, simtime_t next);
/*
 * The CPU task @t runs on, or last ran on (cpus= numbers them), -1
 * without the CPU model (cpus=0: each task has its own, no number) and
 * for a task that is not a reader's.
 */
int sim_task_cpu(const struct task_struct *t);
/* A bio to fill and hand to submit_bio(); freed after its end_io. */
struct bio *bio_alloc(void);
/* Queue @b on its disk, split at max_sectors_kb, merged where it can. */
void submit_bio(struct bio *b);
/* Requests @d takes at once (queue_depth, or the default of its kind). */
unsigned int blk_queue_depth(const struct disk *d);
/* A task is about to sleep on a page of @d (legacy unplug). */
void blk_waiting_on(struct disk *d);
/* Set up and tear down @d's elevator (d->p.elv, d->p.elv_tun). */
void blk_init_queue(struct disk *d);
void blk_exit_queue(struct disk *d);
extern uint64_t blk_pages_read;

/* ---- blktrace.c: the disks' blktrace events (ra_sim --blktrace DIR) ---- */

/* Write DIR/IMPL/DEV.blktrace.0 for each of @n disks from now on. */
void blkt_start(struct disk *d, unsigned int n, const char *dir,
		const char *impl);
void blkt_stop(struct disk *d, unsigned int n);
/* Q, M, F, G of bio @b (@nsect of it) by task @pid. */
void blkt_bio(struct disk *d, unsigned int code, const struct bio *b,
	      uint64_t nsect, int pid);
/* A: @b from its partition to the disk; X: @b split off, the rest at @rest. */
void blkt_remap(struct disk *d, const struct bio *b);
void blkt_split(struct disk *d, const struct bio *b, uint64_t rest);
/* I, D, C of request @r; @err: 0 or -EIO (C). */
void blkt_rq(struct disk *d, unsigned int code, const struct blk_request *r,
	     int pid, int err);
/* P, and U (or UT, by the timer) with the @depth released. */
void blkt_plug(struct disk *d, int pid);
void blkt_unplug(struct disk *d, bool timer, unsigned int depth, int pid);

/* ---- pagecache.c: page cache, LRU, waiters ---- */

/* A sleeper on a page: woken through its own function (wait_queue_entry). */
struct wait_entry {
	struct wait_entry *next;
	void (*func)(struct wait_entry *w);
};

struct sim_page {
	struct folio folio;		/* first: what readahead.c sees */
	struct sim_page *prev, *next;	/* LRU, oldest first; free list */
	struct wait_entry *waiters;
	uint32_t gen;
	uint16_t io_left;		/* under I/O; PG_error: one failed */
	/* bits: the struct stays 64 bytes */
	bool on_lru : 1, accessed : 1, from_disk : 1;
};

static inline struct sim_page *sim_page(struct folio *f)
{
	return (struct sim_page *)f;
}

struct cache_stat {
	uint64_t unique_pages;	/* first reads of a page since it was read */
	uint64_t added, evicted, evicted_unused, overcommit, reclaim_scans;
	uint64_t alloc_failed;	/* __GFP_NORETRY allocations refused */
	uint64_t peak_live;
	uint64_t read_ahead;	/* pages submitted by ->readahead */
	uint64_t prefilled;	/* pages cached before the run */
	uint64_t folios[MAX_PAGECACHE_ORDER + 1];	/* added, by order */
};
extern struct cache_stat cache_st;
extern unsigned long cache_mem_pages;

void cache_init(unsigned long mem_pages);
/* The readers in a memory cgroup of @pages: the cache holds no more. */
void cache_memcg(unsigned long pages);
/* The folio holding page @index of @si (a large one: at any of its pages). */
struct folio *cache_lookup(struct sim_inode *si, pgoff_t index);
/*
 * folio_mark_accessed(): to the young end of the LRU.  An order-0 page is
 * then counted as used (unique_pages, evicted_unused); the pages of a
 * large folio are counted by cache_pages_used(), as readers reach them.
 */
void cache_mark_accessed(struct folio *f);
/*
 * Pages [first, last] of large folio @f were read by a process; the
 * filesystem clears them when it reads the folio in (fs.c).
 */
void cache_pages_used(struct folio *f, pgoff_t first, pgoff_t last);
/* I/O on @f finished: uptodate, unlock, wake the sleepers. */
void cache_io_done(struct folio *f);
/* I/O on @f failed: PG_error, unlock (not uptodate), wake the sleepers. */
void cache_io_error(struct folio *f);
/*
 * Put page @index of @si in the cache, uptodate and not locked, as if it
 * had just been written (at the young end of the LRU).
 */
void cache_populate(struct sim_inode *si, pgoff_t index);
/* @w sleeps until @f is unlocked; then w->func(w). */
void cache_wait(struct folio *f, struct wait_entry *w);
/* Drop the clean, unlocked, unused pages of [first, last]. */
void cache_drop_range(struct sim_inode *si, pgoff_t first, pgoff_t last);
long cache_live(void);

/* ---- fs.c: the tiny filesystem, files, fadvise ---- */

struct sim_inode {
	struct inode inode;
	struct partition *part;
	uint64_t start;			/* first sector on the spindle */
	uint64_t size;
	char name[80];
	struct dentry dentry;		/* d_name, for the trace */
	void *last_chunk;		/* pagecache.c's lookup hint */
	uint64_t past_eof, reread;	/* conservation violations */
	uint8_t *read_map;		/* pages ever submitted for reading */
	uint64_t read_twice;		/* submitted again after eviction */
	/* large folios: pages a process read since they were last read in */
	uint8_t *used_map;
};

struct sim_file {
	struct file file;
	struct sim_inode *si;
};

static inline struct sim_inode *SI(struct inode *inode)
{
	return container_of(inode, struct sim_inode, inode);
}

/* @large_folios: as mapping_large_folio_support() (xfs, afs in 6.1). */
struct sim_inode *fs_create(struct partition *part, const char *name,
			    uint64_t size, bool large_folios);
struct sim_file *fs_open(struct sim_inode *si, const struct ra_impl *impl);
void fs_read_folio(struct sim_inode *si, struct folio *f);
/* Pages submitted by ->readahead/->read_folio since start. */
extern uint64_t fs_pages_submitted;
/* --folios: a line per ->readahead call, its folios (NULL: none). */
extern FILE *fs_folio_log;

/*
 * ---- ftrace.c: 6.12's page cache tracepoints (ra_sim --ftrace FILE) ----
 *
 * Each call is for the current task, now: it fires the tracepoint for
 * its probes, and writes its line when ftrace_file is set.
 */
extern FILE *ftrace_file;
/* Write to @f from now on (trace-cmd's cpus= line first); close it. */
void ftrace_start(FILE *f, unsigned int cpus);
void ftrace_stop(void);
/* @f was added to its mapping, is about to leave it (pagecache.c). */
void ftrace_add(struct folio *f);
void ftrace_delete(struct folio *f);
/* filemap_get_pages() of a read of @count bytes at @pos is done. */
void ftrace_get_pages(struct sim_inode *si, uint64_t pos, uint64_t count);
/* filemap_fault() on @pgoff begins. */
void ftrace_fault(struct sim_inode *si, pgoff_t pgoff);
/* filemap_map_pages() of [start, end] found a page to map. */
void ftrace_map_pages(struct sim_inode *si, pgoff_t start, pgoff_t end);
/* A tracepoint line of ours: its readahead_outcome events are written. */
void ftrace_tracepoint(const char *line);
void ftrace_rq_insert(uint32_t dev, uint64_t sector, uint64_t nsect);

/* ---- readahead calls, as the simulator observes them ---- */

/* Per kind of call (enum ra_call_kind, ra_call.h). */
struct ra_obs {
	uint64_t calls, moved, pages, all_cached, dup_calls, dup_pages;
};
extern struct ra_obs ra_obs[RA_CALL_NR];

#endif /* RA_SIM_H */
