// SPDX-License-Identifier: GPL-2.0
/*
 * fiomain.c - fio's main process, before the jobs read.
 *
 * Owns what reaches the disks before fio's jobs start, when the machine
 * sets fio_main_ms (diskdesc.c).  fio's main process stats every job's
 * file before it forks the jobs; on a cold cache the first stat on a file
 * system reads its metadata: here one 4 KB read at the start of the
 * partition (the files start 1 MB in, fs.c), made by pid FIO_MAIN_PID,
 * one at a time in the order the jobs name the files.  The jobs then
 * start fio_main_ms after the main process began, or when its reads are
 * done if that is later, one fio_fork_us after another in job order.
 *
 * It matters to BFQ: 6.1 merges a process's queue with the queue
 * created first after a 600 ms pause if it was created within 180 ms of
 * that one ("stable merging", elv-bfq.c).  With the main process, the
 * first queue on each disk is its own, and the readers' queues, created
 * later than 180 ms after it and sooner than 600 ms, are merged with
 * none; without it the first reader's queue is the reference and the
 * others join it.  On the QEMU bench the guest's blktraces show that
 * read ("RM", 1 KB on ext4) 0.46-0.54 s before each disk's first reader
 * request.
 */
#include "jobs.h"

#define FIO_META_PAGES	1

static unsigned int next_job;	/* the job whose file is stat()ed next */

static void stat_next(void *obj, uint64_t arg);

/* The main process wakes up and goes on, outside the completion. */
static void meta_read_done(struct bio *b, int err)
{
	(void)b;
	(void)err;
	ev_at(sim_now, stat_next, NULL, 0);
}

/* Has a job before @j a file on @j's partition (its metadata is read)? */
static bool meta_cached(unsigned int j)
{
	unsigned int i;

	for (i = 0; i < j; i++)
		if (jobs[i].si->part == jobs[j].si->part)
			return true;
	return false;
}

static void stat_next(void *obj, uint64_t arg)
{
	simtime_t start = (simtime_t)(sys.fio_main_ms * NS_PER_MS);

	(void)obj;
	(void)arg;
	while (next_job < nr_jobs) {
		unsigned int j = next_job++;
		struct partition *part = jobs[j].si->part;
		struct bio *b;

		if (meta_cached(j))
			continue;
		b = bio_alloc();
		b->disk = part->disk;
		b->pid = FIO_MAIN_PID;
		b->sector = part->start;
		b->nr = FIO_META_PAGES;
		b->end_io = meta_read_done;
		b->private = NULL;
		b->index = 0;
		b->part = part;
		submit_bio(b);
		return;
	}
	readers_launch(start > sim_now ? start : sim_now,
		       (simtime_t)(sys.fio_fork_us * NS_PER_US));
}

void fio_main_run(void)
{
	next_job = 0;
	stat_next(NULL, 0);
}
