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
 * pread, is timed under the lock in arrival order (one request at a
 * time on the spindle, the next one starting when the one before
 * completes), is read from the plugin, and is answered by sleeping
 * until its completion time.  Writes, zeroes, trims and flushes pass
 * through untimed (the bench's disks are read-only to the guest).
 */
#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <time.h>

#define NBDKIT_API_VERSION 2
#include <nbdkit-filter.h>

#include "model.h"

/* -D spindle.trace=1 (with -v): a debug line per read, model times. */
NBDKIT_DLL_PUBLIC int spindle_debug_trace;

static struct sd_disk disk;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t t0;

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

static int spindle_pread(nbdkit_next *next, void *handle, void *buf,
			 uint32_t count, uint64_t offset, uint32_t flags,
			 int *err)
{
	uint64_t arrival, start, done;
	unsigned int how;
	int ret;

	pthread_mutex_lock(&lock);
	arrival = mono_ns() - t0;
	start = arrival > disk.free_at ? arrival : disk.free_at;
	done = sd_read(&disk, arrival, offset, count, &how);
	pthread_mutex_unlock(&lock);
	if (spindle_debug_trace)
		nbdkit_debug("spindle: read %" PRIu64 "+%" PRIu32
			     " arrive %.6f start %.6f done %.6f%s%s",
			     offset >> SD_SECTOR_SHIFT, count >> SD_SECTOR_SHIFT,
			     arrival / 1e9, start / 1e9, done / 1e9,
			     how & SPINDLE_SEEK ? " seek" : "",
			     how & SPINDLE_CACHE_HIT ? " hit" : "");
	ret = next->pread(next, buf, count, offset, flags, err);
	sleep_until(t0 + done);
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
