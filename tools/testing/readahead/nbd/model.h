/* SPDX-License-Identifier: GPL-2.0 */
/*
 * model.h - one spindle behind an NBD export: its parameters, checked
 * as the simulator checks its [disk] section, and the queue in front of
 * it.  No nbdkit here, so that the unit tests (tests/model_test.c) run without it.
 */
#ifndef RA_NBD_MODEL_H
#define RA_NBD_MODEL_H

#include <stddef.h>
#include <stdint.h>

#include "spindle.h"

#define SD_SECTOR_SHIFT		9

struct sd_disk {
	struct spindle_params p;
	uint64_t seed;			/* the PRNG: seed= and index= */
	uint64_t index;
	struct spindle mech;
	struct prng rng;
	uint64_t free_at;		/* when the last request completes */
	uint64_t reorder_ns;		/* a burst's window (sd_pick) */
	/* what it did */
	uint64_t reads, sectors, seeks, cache_hits, busy_ns, wait_ns;
};

/* The simulator's defaults (a 2009 10k rpm SAS disk), seed 1, index 0. */
void sd_defaults(struct sd_disk *d);
/*
 * Set @key to @val: 0 done, 1 not a key of ours, -1 refused with the
 * reason in @err ("bad value 'V' for option 'K' (allowed: LO to HI)").
 */
int sd_set(struct sd_disk *d, const char *key, const char *val,
	   char *err, size_t errlen);
/* Seed the PRNG, allocate the drive cache; -1 without memory. */
int sd_start(struct sd_disk *d);
void sd_stop(struct sd_disk *d);
/*
 * A read of @count bytes at byte @offset arriving at @arrival (ns, on
 * the disk's clock, starting at 0): it starts when the disk is free
 * (the request before it completes) or at its arrival, whichever is
 * later, and takes the model's time.  Returns when it completes; *@how
 * gets SPINDLE_SEEK and SPINDLE_CACHE_HIT.  Calls are in the order the
 * disk serves the requests (sd_pick() chooses among those waiting).
 */
uint64_t sd_read(struct sd_disk *d, uint64_t arrival, uint64_t offset,
		 uint64_t count, unsigned int *how);

struct sd_req {
	uint64_t arrival;		/* ns, the disk's clock */
	uint64_t offset, count;		/* bytes */
};

/*
 * Which of the @n requests waiting for the disk it serves next, when it
 * gets free at d->free_at.  The oldest, unless others arrived with it:
 * requests that arrived within reorder_us after the oldest, and by the
 * time the disk starts, are one burst, taken in ascending offset (the
 * client sent them together, in its elevator's order; nbdkit's worker
 * threads may hand them over in any order).  reorder_us=0: arrival order.
 */
unsigned int sd_pick(const struct sd_disk *d, const struct sd_req *const *w,
		     unsigned int n);

/* The keys, their ranges and defaults, for --help and the README. */
extern const char sd_help[];

#endif
