// SPDX-License-Identifier: GPL-2.0
/*
 * spindle.c - how long a read takes on one spindle.
 *
 * Command overhead, a seek whose time grows with the square root of the
 * distance (track-to-track for the shortest, chosen so that the mean over
 * random pairs is the average seek time), rotational latency (uniform
 * from the disk's own PRNG after a seek; after an idle gap at the head's
 * position, the wait for the platter to come round again), and transfer
 * at the streaming rate.  Optionally the drive's read cache: after a
 * media read the drive keeps streaming into a segment of cache_kb while
 * idle; reads that fall in a segment are served at the interface rate.
 *
 * iops > 0 makes the disk a throttled virtual one instead, as the QEMU
 * bench's virtio disks are: no seek, no rotation, no drive cache; a
 * request takes the longer of its transfer at rate_mbps and 1/iops.
 *
 * Used by the simulator (disk.c) and by the nbdkit filter (../nbd), on
 * their own clocks; nothing here knows which.
 */
#include "spindle.h"

#include <math.h>

#define SPINDLE_SECTOR_SHIFT	9

/* E[sqrt(|x - y|)] for x, y uniform on [0, 1]. */
#define MEAN_SQRT_DISTANCE	(8.0 / 15.0)

static inline uint64_t max_u64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

double spindle_rate_bps(const struct spindle_params *p)
{
	return p->rate_mbps * 1e6;
}

static uint64_t ns_of(double seconds)
{
	return (uint64_t)llround(seconds * 1e9);
}

static uint64_t rotation_ns(const struct spindle_params *p)
{
	return ns_of(60.0 / p->rpm);
}

static uint64_t transfer_ns(double bps, uint64_t nsect)
{
	return ns_of((double)(nsect << SPINDLE_SECTOR_SHIFT) / bps);
}

static uint64_t seek_ns(const struct spindle_params *p, uint64_t dist)
{
	double cap = (double)(p->capacity >> SPINDLE_SECTOR_SHIFT);
	double full = p->track_ms +
		      (p->seek_ms - p->track_ms) / MEAN_SQRT_DISTANCE;

	if (!dist)
		return 0;
	return ns_of((p->track_ms + (full - p->track_ms) *
		      sqrt((double)dist / cap)) / 1e3);
}

double spindle_stream_seconds(const struct spindle_params *p, uint64_t bytes,
			      uint64_t req_bytes)
{
	uint64_t nreq = (bytes + req_bytes - 1) / req_bytes;

	return p->seek_ms / 1e3 + 30.0 / p->rpm +
	       nreq * p->overhead_us / 1e6 + bytes / spindle_rate_bps(p);
}

/* Where the drive's cache streaming has got to by @now. */
static uint64_t prefetch_end(const struct spindle *s,
			     const struct spindle_params *p, uint64_t now,
			     uint64_t limit_sect, bool *stopped,
			     uint64_t *stop_time)
{
	double sps = spindle_rate_bps(p) / (1 << SPINDLE_SECTOR_SHIFT);
	uint64_t got = (uint64_t)((double)(now - s->head_time) * sps / 1e9);

	*stopped = got >= limit_sect;
	if (*stopped) {
		*stop_time = s->head_time +
			     transfer_ns(spindle_rate_bps(p), limit_sect);
		return s->head + limit_sect;
	}
	return s->head + got;
}

static void retire_segment(struct spindle *s, const struct spindle_params *p,
			   uint64_t start, uint64_t end)
{
	struct spindle_seg *victim = &s->segs[0];
	unsigned int i;

	if (!p->cache_segments || end <= start)
		return;
	for (i = 0; i < p->cache_segments; i++)
		if (s->segs[i].used < victim->used)
			victim = &s->segs[i];
	victim->start = start;
	victim->end = end;
	victim->used = ++s->seg_clock;
}

void spindle_defaults(struct spindle_params *p)
{
	*p = (struct spindle_params){
		.capacity = 300ULL << 30,
		.rpm = 10000,
		.seek_ms = 4.5,
		.track_ms = 0.5,
		.rate_mbps = 100,
		.overhead_us = 20,
		.cache_kb = 0,
		.cache_segments = 8,
		.iface_mbps = 300,
		.iops = 0,
	};
}

uint64_t spindle_service(struct spindle *s, const struct spindle_params *p,
			 struct prng *rng, uint64_t now, uint64_t sector,
			 uint64_t nsect, unsigned int *how)
{
	uint64_t end = sector + nsect;
	uint64_t cache_sect = (uint64_t)p->cache_kb * 2;
	uint64_t ovh = ns_of(p->overhead_us / 1e6);
	uint64_t iface = ovh + transfer_ns(p->iface_mbps * 1e6, nsect);
	uint64_t idle_since = s->head_time, t, rot = rotation_ns(p);
	uint64_t pos = s->head, dist;
	unsigned int i;

	*how = 0;
	if (p->iops > 0) {
		t = max_u64(transfer_ns(spindle_rate_bps(p), nsect),
			    ns_of(1.0 / p->iops));
		s->head = end;
		s->head_time = now + t;
		return t;
	}
	if (cache_sect && s->prefetching) {
		bool stopped;
		uint64_t stop_time = 0;
		uint64_t pf = prefetch_end(s, p, now, cache_sect, &stopped,
					   &stop_time);

		if (sector >= s->seg_start && sector <= pf) {
			if (end <= pf) {
				*how = SPINDLE_CACHE_HIT;
				return iface;
			}
			if (!stopped) {
				/* The drive is still streaming: ride along. */
				uint64_t done = s->head_time +
					transfer_ns(spindle_rate_bps(p),
						    end - s->head);

				t = max_u64(iface, done - now);
				*how = SPINDLE_CACHE_HIT;
				s->head = end;
				s->head_time = now + t;
				if (end - s->seg_start > cache_sect)
					s->seg_start = end - cache_sect;
				return t;
			}
		}
		pos = pf;
		if (stopped)
			idle_since = stop_time;
		else
			idle_since = now;
		for (i = 0; i < p->cache_segments; i++) {
			struct spindle_seg *g = &s->segs[i];

			if (sector >= g->start && end <= g->end) {
				g->used = ++s->seg_clock;
				*how = SPINDLE_CACHE_HIT;
				return iface;
			}
		}
	}

	dist = sector > pos ? sector - pos : pos - sector;
	if (dist) {
		*how = SPINDLE_SEEK;
		t = seek_ns(p, dist) + prng_below(rng, rot);
	} else {
		/* At the head, but the sector went by while we idled. */
		t = (rot - (now - idle_since) % rot) % rot;
	}
	t += ovh + transfer_ns(spindle_rate_bps(p), nsect);

	if (cache_sect) {
		if (s->prefetching)
			retire_segment(s, p, s->seg_start, pos);
		s->seg_start = sector;
		s->prefetching = true;
	}
	s->head = end;
	s->head_time = now + t;
	return t;
}
