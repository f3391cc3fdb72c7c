// SPDX-License-Identifier: GPL-2.0
/*
 * model.c - the spindle behind one nbdkit export: parameters and queue.
 *
 * The keys are the simulator's [disk] keys that time a read, with its
 * defaults and ranges (sim/README.md, "Machine files"), plus the seed of
 * the rotational latency PRNG.  Sizes take k, m, g, t (powers of 1024).
 * Requests are served one at a time: a request that arrives while the
 * disk is busy starts when the one before completes, as the next request
 * of a queue does on a spindle, so a queued sequential stream loses no
 * revolution.  The disk takes the oldest waiting request, except that a
 * burst (requests arriving within reorder_us of the oldest) goes in
 * ascending offset: the client sent it in order, nbdkit's worker threads
 * may not deliver it in order, and a swap would cost a seek.
 */
#include "model.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARRAY_LEN(a)	(sizeof(a) / sizeof((a)[0]))
#define MAX_BYTES	(64ULL << 40)

const char sd_help[] =
"capacity=300g     spindle size (1m to 64t), at least the export's\n"
"rpm=10000         1000 to 30000\n"
"seek_ms=4.5       mean seek over random pairs of sectors (0 to 1000)\n"
"track_ms=0.5      track-to-track seek (0 to 1000)\n"
"rate_mbps=100     media rate, 10^6 B/s (0.001 to 1000000)\n"
"overhead_us=20    per command (0 to 1000000)\n"
"cache_kb=0        drive read cache segment, 0: off (0 to 1048576)\n"
"cache_segments=8  0 to 256\n"
"iface_mbps=300    cache hit rate (0.001 to 1000000)\n"
"iops=0            >0: a throttled virtual disk instead (0 to 1000000)\n"
"seed=1 index=0    rotational latency PRNG: the simulator's seed= and\n"
"                  disk number (0 to 4095)\n"
"reorder_us=500    requests arriving together are served in ascending\n"
"                  offset (nbdkit's threads may swap them; 0 to 100000)";

void sd_defaults(struct sd_disk *d)
{
	memset(d, 0, sizeof(*d));
	spindle_defaults(&d->p);
	d->seed = 1;
	d->index = 0;
	d->reorder_ns = 500000;
}

/* 0, -1 not a number, -2 too large. */
static int parse_u64(const char *s, uint64_t *out, bool size)
{
	unsigned long long v;
	unsigned int shift = 0;
	char *end;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		return -2;
	if (size && *end) {
		const char *sfx = strchr("kmgt", tolower((unsigned char)*end));

		if (!sfx)
			return -1;
		shift = 10 * (unsigned int)(sfx - "kmgt" + 1);
		end++;
	}
	if (*end)
		return -1;
	if (shift && v > (UINT64_MAX >> shift))
		return -2;
	*out = (uint64_t)v << shift;
	return 0;
}

static int parse_dbl(const char *s, double *out)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return -1;
	errno = 0;
	*out = strtod(s, &end);
	if (*end || errno == ERANGE)
		return -1;
	return 0;
}

#define P(f)	offsetof(struct sd_disk, f)

static const struct {
	const char *name;
	size_t off;
	bool size;		/* k/m/g/t suffix */
	bool wide;		/* uint64_t, else unsigned int */
	uint64_t lo, hi;
	const char *los, *his;
} u_keys[] = {
	{ "capacity", P(p.capacity), true, true, 1 << 20, MAX_BYTES,
	  "1m", "64t" },
	{ "rpm", P(p.rpm), false, false, 1000, 30000, "1000", "30000" },
	{ "cache_kb", P(p.cache_kb), false, false, 0, 1 << 20,
	  "0", "1048576" },
	{ "cache_segments", P(p.cache_segments), false, false, 0, 256,
	  "0", "256" },
	{ "seed", P(seed), false, true, 0, UINT64_MAX,
	  "0", "18446744073709551615" },
	{ "index", P(index), false, true, 0, 4095, "0", "4095" },
	{ "reorder_us", P(reorder_ns), false, true, 0, 100000,
	  "0", "100000" },
};

static const struct {
	const char *name;
	size_t off;
	double lo, hi;
} d_keys[] = {
	{ "seek_ms", P(p.seek_ms), 0, 1000 },
	{ "track_ms", P(p.track_ms), 0, 1000 },
	{ "rate_mbps", P(p.rate_mbps), 0.001, 1000000 },
	{ "overhead_us", P(p.overhead_us), 0, 1000000 },
	{ "iface_mbps", P(p.iface_mbps), 0.001, 1000000 },
	{ "iops", P(p.iops), 0, 1000000 },
};

int sd_set(struct sd_disk *d, const char *key, const char *val,
	   char *err, size_t errlen)
{
	char *base = (char *)d;
	unsigned int i;
	uint64_t u;
	double v;
	int ret;

	for (i = 0; i < ARRAY_LEN(u_keys); i++) {
		if (strcmp(key, u_keys[i].name))
			continue;
		ret = parse_u64(val, &u, u_keys[i].size);
		if (ret == -1)
			goto bad;
		if (ret || u < u_keys[i].lo || u > u_keys[i].hi) {
			snprintf(err, errlen,
				 "bad value '%s' for option '%s' (allowed: %s to %s)",
				 val, key, u_keys[i].los, u_keys[i].his);
			return -1;
		}
		if (u_keys[i].off == P(reorder_ns))
			d->reorder_ns = u * 1000;
		else if (u_keys[i].wide)
			*(uint64_t *)(base + u_keys[i].off) = u;
		else
			*(unsigned int *)(base + u_keys[i].off) = u;
		return 0;
	}
	for (i = 0; i < ARRAY_LEN(d_keys); i++) {
		if (strcmp(key, d_keys[i].name))
			continue;
		if (parse_dbl(val, &v))
			goto bad;
		if (!(v >= d_keys[i].lo && v <= d_keys[i].hi)) {
			snprintf(err, errlen,
				 "bad value '%s' for option '%s' (allowed: %.15g to %.15g)",
				 val, key, d_keys[i].lo, d_keys[i].hi);
			return -1;
		}
		*(double *)(base + d_keys[i].off) = v;
		return 0;
	}
	return 1;
bad:
	snprintf(err, errlen, "bad value '%s' for option '%s'", val, key);
	return -1;
}

int sd_start(struct sd_disk *d)
{
	memset(&d->mech, 0, sizeof(d->mech));
	d->mech.segs = calloc(d->p.cache_segments + 1, sizeof(*d->mech.segs));
	if (!d->mech.segs)
		return -1;
	prng_seed(&d->rng, d->seed, d->index);
	d->free_at = 0;
	return 0;
}

void sd_stop(struct sd_disk *d)
{
	free(d->mech.segs);
	d->mech.segs = NULL;
}

uint64_t sd_read(struct sd_disk *d, uint64_t arrival, uint64_t offset,
		 uint64_t count, unsigned int *how)
{
	uint64_t sector = offset >> SD_SECTOR_SHIFT;
	uint64_t end = (offset + count + (1 << SD_SECTOR_SHIFT) - 1) >>
		       SD_SECTOR_SHIFT;
	uint64_t start = arrival > d->free_at ? arrival : d->free_at;
	uint64_t t;

	t = spindle_service(&d->mech, &d->p, &d->rng, start, sector,
			    end - sector, how);
	d->reads++;
	d->sectors += end - sector;
	if (*how & SPINDLE_SEEK)
		d->seeks++;
	if (*how & SPINDLE_CACHE_HIT)
		d->cache_hits++;
	d->busy_ns += t;
	d->wait_ns += start - arrival;
	d->free_at = start + t;
	return d->free_at;
}

unsigned int sd_pick(const struct sd_disk *d, const struct sd_req *const *w,
		     unsigned int n)
{
	unsigned int i, oldest = 0, pick;
	uint64_t start, until;

	for (i = 1; i < n; i++)
		if (w[i]->arrival < w[oldest]->arrival)
			oldest = i;
	start = d->free_at > w[oldest]->arrival ? d->free_at :
						 w[oldest]->arrival;
	until = w[oldest]->arrival + d->reorder_ns;
	if (until > start)
		until = start;
	pick = oldest;
	for (i = 0; i < n; i++)
		if (w[i]->arrival <= until && w[i]->offset < w[pick]->offset)
			pick = i;
	return pick;
}
