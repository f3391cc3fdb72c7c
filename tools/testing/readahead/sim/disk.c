// SPDX-License-Identifier: GPL-2.0
/*
 * disk.c - the mechanics of one spindle.
 *
 * Owns how long a read takes: command overhead, a seek whose time grows
 * with the square root of the distance (track-to-track for the shortest,
 * chosen so that the mean over random pairs is the average seek time),
 * rotational latency (uniform from the disk's own PRNG after a seek; after
 * an idle gap at the head's position, the wait for the platter to come
 * round again), and transfer at the streaming rate.  Optionally the
 * drive's read cache: after a media read the drive keeps streaming into
 * a segment of cache_kb while idle; reads that fall in a segment are
 * served at the interface rate.  Partitions are regions of the spindle
 * (their start sectors are absolute here).  The block queue (blkq.c)
 * decides what to read next; this file only times it, and says whether
 * it fails (fail_sectors: a read touching a bad range fails whole, in
 * the time a good read would take; drive retries are not modelled).
 *
 * iops > 0 makes the disk a throttled virtual one instead, as the QEMU
 * bench's virtio disks are (throttling.bps-total = rate_mbps,
 * throttling.iops-total = iops, an image in the host's cache): no seek,
 * no rotation, no drive cache; a request takes the longer of its
 * transfer at rate_mbps and 1/iops, in the steady state of QEMU's leaky
 * buckets (their burst allowance is not modelled).  Such a disk takes
 * many requests at once (blkq.c) and serves them in turn.
 */
#include "sim.h"

#include <math.h>

/* E[sqrt(|x - y|)] for x, y uniform on [0, 1]. */
#define MEAN_SQRT_DISTANCE	(8.0 / 15.0)

double disk_rate_bps(const struct disk_params *p)
{
	return p->rate_mbps * 1e6;
}

static simtime_t ns_of(double seconds)
{
	return (simtime_t)llround(seconds * 1e9);
}

static simtime_t rotation_ns(const struct disk_params *p)
{
	return ns_of(60.0 / p->rpm);
}

static simtime_t transfer_ns(double bps, uint64_t nsect)
{
	return ns_of((double)(nsect << SECTOR_SHIFT) / bps);
}

static simtime_t seek_ns(const struct disk_params *p, uint64_t dist)
{
	double cap = (double)(p->capacity >> SECTOR_SHIFT);
	double full = p->track_ms +
		      (p->seek_ms - p->track_ms) / MEAN_SQRT_DISTANCE;

	if (!dist)
		return 0;
	return ns_of((p->track_ms + (full - p->track_ms) *
		      sqrt((double)dist / cap)) / 1e3);
}

double disk_stream_seconds(const struct disk_params *p, uint64_t bytes,
			   uint64_t req_bytes)
{
	uint64_t nreq = (bytes + req_bytes - 1) / req_bytes;

	return p->seek_ms / 1e3 + 30.0 / p->rpm +
	       nreq * p->overhead_us / 1e6 + bytes / disk_rate_bps(p);
}

bool disk_read_fails(const struct disk *d, uint64_t sector, uint64_t nsect)
{
	unsigned int i;

	for (i = 0; i < d->p.nr_fail; i++)
		if (sector <= d->p.fail[i].end &&
		    sector + nsect > d->p.fail[i].start)
			return true;
	return false;
}

void disk_init(struct disk *d, int index)
{
	d->index = index;
	d->segs = calloc(d->p.cache_segments + 1, sizeof(*d->segs));
	if (!d->segs)
		sim_die("sim: out of host memory");
}

/* Where the drive's cache streaming has got to by now. */
static uint64_t prefetch_end(struct disk *d, uint64_t limit_sect,
			     bool *stopped, simtime_t *stop_time)
{
	double sps = disk_rate_bps(&d->p) / (1 << SECTOR_SHIFT);
	uint64_t got = (uint64_t)((double)(sim_now - d->head_time) * sps / 1e9);

	*stopped = got >= limit_sect;
	if (*stopped) {
		*stop_time = d->head_time + transfer_ns(disk_rate_bps(&d->p),
							limit_sect);
		return d->head + limit_sect;
	}
	return d->head + got;
}

static void retire_segment(struct disk *d, uint64_t start, uint64_t end)
{
	struct cache_seg *victim = &d->segs[0];
	unsigned int i;

	if (!d->p.cache_segments || end <= start)
		return;
	for (i = 0; i < d->p.cache_segments; i++)
		if (d->segs[i].used < victim->used)
			victim = &d->segs[i];
	victim->start = start;
	victim->end = end;
	victim->used = ++d->seg_clock;
}

simtime_t disk_service(struct disk *d, uint64_t sector, uint64_t nsect,
		       bool *seek)
{
	const struct disk_params *p = &d->p;
	uint64_t end = sector + nsect;
	uint64_t cache_sect = (uint64_t)p->cache_kb * 2;
	simtime_t ovh = ns_of(p->overhead_us / 1e6);
	simtime_t iface = ovh + transfer_ns(p->iface_mbps * 1e6, nsect);
	simtime_t idle_since = d->head_time, t, rot = rotation_ns(p);
	uint64_t pos = d->head, dist;
	unsigned int i;

	*seek = false;
	if (p->iops > 0) {
		t = max(transfer_ns(disk_rate_bps(p), nsect),
			ns_of(1.0 / p->iops));
		d->head = end;
		d->head_time = sim_now + t;
		return t;
	}
	if (cache_sect && d->prefetching) {
		bool stopped;
		simtime_t stop_time = 0;
		uint64_t pf = prefetch_end(d, cache_sect, &stopped,
					   &stop_time);

		if (sector >= d->seg_start && sector <= pf) {
			if (end <= pf) {
				d->st.cache_hits++;
				return iface;
			}
			if (!stopped) {
				/* The drive is still streaming: ride along. */
				simtime_t done = d->head_time +
					transfer_ns(disk_rate_bps(p),
						    end - d->head);

				t = max(iface, done - sim_now);
				d->st.cache_hits++;
				d->head = end;
				d->head_time = sim_now + t;
				if (end - d->seg_start > cache_sect)
					d->seg_start = end - cache_sect;
				return t;
			}
		}
		pos = pf;
		if (stopped)
			idle_since = stop_time;
		else
			idle_since = sim_now;
		for (i = 0; i < p->cache_segments; i++) {
			struct cache_seg *s = &d->segs[i];

			if (sector >= s->start && end <= s->end) {
				s->used = ++d->seg_clock;
				d->st.cache_hits++;
				return iface;
			}
		}
	}

	dist = sector > pos ? sector - pos : pos - sector;
	if (dist) {
		*seek = true;
		t = seek_ns(p, dist) + prng_below(&d->rng, rot);
	} else {
		/* At the head, but the sector went by while we idled. */
		t = (rot - (sim_now - idle_since) % rot) % rot;
	}
	t += ovh + transfer_ns(disk_rate_bps(p), nsect);

	if (cache_sect) {
		if (d->prefetching)
			retire_segment(d, d->seg_start, pos);
		d->seg_start = sector;
		d->prefetching = true;
	}
	d->head = end;
	d->head_time = sim_now + t;
	return t;
}
