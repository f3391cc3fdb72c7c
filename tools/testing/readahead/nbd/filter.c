// SPDX-License-Identifier: GPL-2.0
/*
 * filter.c - an nbdkit filter that puts a spinning disk under a QEMU
 * guest: each read is answered when the simulator's spindle model
 * (sim/spindle.c, through model.c) says the disk would have finished it.
 *
 *   nbdkit --filter=./spindle.so file disk.img rpm=7200 seek_ms=8.5 ...
 *
 * One nbdkit per disk.  The model time is CLOCK_MONOTONIC since the
 * server got ready; a read arrives when its worker thread enters
 * pread.  One read at a time is on the spindle: a read arriving at an
 * idle disk is timed at once; others wait, and when the read on the
 * disk completes (its thread wakes at its completion time) the disk
 * takes the next (sd_pick(): the oldest, a burst in offset order),
 * starting at that completion time.  A read timed is read from the
 * plugin, and answered by sleeping until its completion time.  Writes, zeroes, trims and flushes pass
 * through untimed (the bench's disks are read-only to the guest).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-filter.h>

#include "model.h"

/* -D spindle.trace=1 (with -v): a debug line per read, model times. */
NBDKIT_DLL_PUBLIC int spindle_debug_trace;

static struct sd_disk disk;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t dispatched = PTHREAD_COND_INITIALIZER;
static uint64_t t0;

/* A read waiting for the disk: the thread sleeps until it is picked. */
struct waiter {
	struct sd_req r;
	bool picked;
	uint64_t start, done;
	unsigned int how;
};

/* Under lock: the waiting reads, and whether one is on the disk. */
static struct waiter **waitq;
static const struct sd_req **pickq;
static unsigned int nr_waiting, waitq_size;
static bool in_service;

static uint64_t mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

static void sleep_until(uint64_t ns)
{
	struct timespec ts = {
		.tv_sec = ns / 1000000000ULL,
		.tv_nsec = ns % 1000000000ULL,
	};

	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) ==
	       EINTR)
		;
}

static void spindle_load(void)
{
	sd_defaults(&disk);
}

static void spindle_unload(void)
{
	if (disk.reads)
		nbdkit_debug("spindle: reads=%" PRIu64 " sectors=%" PRIu64
			     " seeks=%" PRIu64 " cache_hits=%" PRIu64
			     " busy_ms=%.3f wait_ms=%.3f",
			     disk.reads, disk.sectors, disk.seeks,
			     disk.cache_hits, disk.busy_ns / 1e6,
			     disk.wait_ns / 1e6);
	sd_stop(&disk);
	free(waitq);
	free(pickq);
}

static int spindle_config(nbdkit_next_config *next, nbdkit_backend *nxdata,
			  const char *key, const char *value)
{
	char err[160];
	int ret = sd_set(&disk, key, value, err, sizeof(err));

	if (ret > 0)
		return next(nxdata, key, value);
	if (ret < 0)
		nbdkit_error("spindle: %s", err);
	return ret;
}

static int spindle_get_ready(int thread_model)
{
	if (sd_start(&disk)) {
		nbdkit_error("spindle: out of memory");
		return -1;
	}
	t0 = mono_ns();
	return 0;
}

static int spindle_prepare(nbdkit_next *next, void *handle, int readonly)
{
	int64_t size = next->get_size(next);

	if (size == -1)
		return -1;
	if ((uint64_t)size > disk.p.capacity) {
		nbdkit_error("spindle: export of %" PRId64
			     " bytes larger than capacity=%" PRIu64,
			     size, disk.p.capacity);
		return -1;
	}
	return 0;
}

static int spindle_is_rotational(nbdkit_next *next, void *handle)
{
	return disk.p.iops > 0 ? 0 : 1;
}

/* Under lock: time @w on the disk; it is the one in service. */
static void serve(struct waiter *w)
{
	w->start = w->r.arrival > disk.free_at ? w->r.arrival : disk.free_at;
	w->done = sd_read(&disk, w->r.arrival, w->r.offset, w->r.count,
			  &w->how);
	w->picked = true;
	in_service = true;
}

/* Under lock: the disk is free (in model time); serve the next one. */
static void dispatch(void)
{
	unsigned int i;

	in_service = false;
	if (!nr_waiting)
		return;
	for (i = 0; i < nr_waiting; i++)
		pickq[i] = &waitq[i]->r;
	i = sd_pick(&disk, pickq, nr_waiting);
	serve(waitq[i]);
	waitq[i] = waitq[--nr_waiting];
	pthread_cond_broadcast(&dispatched);
}

static int enqueue(struct waiter *w)
{
	if (nr_waiting == waitq_size) {
		unsigned int size = waitq_size ? 2 * waitq_size : 64;
		struct waiter **wq = realloc(waitq, size * sizeof(*wq));
		const struct sd_req **pq;

		if (!wq)
			return -1;
		waitq = wq;
		pq = realloc(pickq, size * sizeof(*pq));
		if (!pq)
			return -1;
		pickq = pq;
		waitq_size = size;
	}
	waitq[nr_waiting++] = w;
	return 0;
}

static int spindle_pread(nbdkit_next *next, void *handle, void *buf,
			 uint32_t count, uint64_t offset, uint32_t flags,
			 int *err)
{
	struct waiter w = { .r = { .offset = offset, .count = count } };
	int ret;

	pthread_mutex_lock(&lock);
	w.r.arrival = mono_ns() - t0;
	if (!in_service && !nr_waiting) {
		serve(&w);
	} else if (enqueue(&w)) {
		pthread_mutex_unlock(&lock);
		nbdkit_error("spindle: out of memory");
		*err = ENOMEM;
		return -1;
	}
	while (!w.picked)
		pthread_cond_wait(&dispatched, &lock);
	pthread_mutex_unlock(&lock);
	if (spindle_debug_trace)
		nbdkit_debug("spindle: read %" PRIu64 "+%" PRIu32
			     " arrive %.6f start %.6f done %.6f%s%s",
			     offset >> SD_SECTOR_SHIFT, count >> SD_SECTOR_SHIFT,
			     w.r.arrival / 1e9, w.start / 1e9, w.done / 1e9,
			     w.how & SPINDLE_SEEK ? " seek" : "",
			     w.how & SPINDLE_CACHE_HIT ? " hit" : "");
	ret = next->pread(next, buf, count, offset, flags, err);
	sleep_until(t0 + w.done);
	pthread_mutex_lock(&lock);
	dispatch();
	pthread_mutex_unlock(&lock);
	return ret;
}

static struct nbdkit_filter filter = {
	.name		= "spindle",
	.longname	= "the readahead bench's spinning disk model",
	.load		= spindle_load,
	.unload		= spindle_unload,
	.config		= spindle_config,
	.config_help	= sd_help,
	.get_ready	= spindle_get_ready,
	.prepare	= spindle_prepare,
	.is_rotational	= spindle_is_rotational,
	.pread		= spindle_pread,
};

NBDKIT_REGISTER_FILTER(filter)
