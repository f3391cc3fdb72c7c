/* SPDX-License-Identifier: GPL-2.0 */
/*
 * spindle.h - the timing of one disk, alone: the simulator's disks
 * (disk.c) and the nbdkit filter that puts a spindle under a QEMU guest
 * (../nbd/spindle.c) both call spindle_service(), so that a request
 * costs the same in both.  No simulator types: times are nanoseconds
 * on the caller's clock, positions 512-byte sectors.
 */
#ifndef RA_SPINDLE_H
#define RA_SPINDLE_H

#include <stdbool.h>
#include <stdint.h>

#include "prng.h"

/* The [disk] keys that time a read (sim/README.md, "Machine files"). */
struct spindle_params {
	uint64_t capacity;		/* bytes */
	unsigned int rpm;
	double seek_ms;			/* average seek */
	double track_ms;		/* track-to-track seek */
	double rate_mbps;		/* media streaming rate, 10^6 B/s */
	double overhead_us;		/* per-command controller overhead */
	unsigned int cache_kb;		/* drive read-ahead segment, 0: off */
	unsigned int cache_segments;
	double iface_mbps;		/* transfer rate of cache hits */
	double iops;			/* >0: a throttled virtual disk */
};

/* The defaults of the [disk] keys above: a 2009 10k rpm SAS disk. */
void spindle_defaults(struct spindle_params *p);

struct spindle_seg {
	uint64_t start, end;		/* sectors held */
	uint64_t used;			/* LRU stamp */
};

/* The mechanics' state; zero it, then give it cache_segments + 1 segs. */
struct spindle {
	uint64_t head;			/* sector after the last media read */
	uint64_t head_time;		/* when the head got there */
	bool prefetching;		/* drive cache streaming from head */
	uint64_t seg_start;		/* first sector of the active segment */
	struct spindle_seg *segs;
	uint64_t seg_clock;
};

/* What a read did: spindle_service()'s *how. */
#define SPINDLE_SEEK		0x1
#define SPINDLE_CACHE_HIT	0x2

/*
 * Service time (ns) of a read of @nsect sectors at @sector that starts
 * at @now, the disk being free; moves the head.  Rotational latency
 * after a seek is drawn from @rng.
 */
uint64_t spindle_service(struct spindle *s, const struct spindle_params *p,
			 struct prng *rng, uint64_t now, uint64_t sector,
			 uint64_t nsect, unsigned int *how);
double spindle_rate_bps(const struct spindle_params *p);
/*
 * The model's own time for a back-to-back sequential read of @bytes in
 * requests of @req_bytes, starting with an average seek.
 */
double spindle_stream_seconds(const struct spindle_params *p, uint64_t bytes,
			      uint64_t req_bytes);

#endif
