// SPDX-License-Identifier: GPL-2.0
/*
 * disk.c - the mechanics of one spindle.
 *
 * Owns how long a read takes, through spindle.c (shared with the nbdkit
 * filter of ../nbd): command overhead, a seek whose time grows
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
 * many requests at once (blkq.c) and serves them in turn; so does a
 * spindle with queue_depth > 1, each read timed from the end of the one
 * before, as the QEMU bench's nbdkit filter times them.
 */
#include "sim.h"

double disk_rate_bps(const struct disk_params *p)
{
	return spindle_rate_bps(&p->mech);
}

double disk_stream_seconds(const struct disk_params *p, uint64_t bytes,
			   uint64_t req_bytes)
{
	return spindle_stream_seconds(&p->mech, bytes, req_bytes);
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
	d->mech.segs = calloc(d->p.mech.cache_segments + 1, sizeof(*d->mech.segs));
	if (!d->mech.segs)
		sim_die("sim: out of host memory");
}

simtime_t disk_service(struct disk *d, simtime_t start, uint64_t sector,
		       uint64_t nsect, bool *seek)
{
	unsigned int how;
	simtime_t t;

	t = spindle_service(&d->mech, &d->p.mech, &d->rng, start, sector,
			    nsect, &how);
	*seek = how & SPINDLE_SEEK;
	if (how & SPINDLE_CACHE_HIT)
		d->st.cache_hits++;
	return t;
}
