/* SPDX-License-Identifier: GPL-2.0 */
/*
 * prng.h - the simulator's PRNG (splitmix64), one stream per user.
 *
 * Header-only so that the spindle model (spindle.c) can be built alone,
 * into the nbdkit filter of ../nbd, without the event loop.
 */
#ifndef RA_PRNG_H
#define RA_PRNG_H

#include <stdint.h>

struct prng {
	uint64_t s;
};

static inline uint64_t prng_next(struct prng *p)
{
	uint64_t z = (p->s += 0x9E3779B97F4A7C15ULL);

	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static inline void prng_seed(struct prng *p, uint64_t seed, uint64_t stream)
{
	p->s = seed * 0x9E3779B97F4A7C15ULL ^
	       (stream + 1) * 0xD1B54A32D192ED03ULL;
	prng_next(p);
}

/* Uniform in [0, n). */
static inline uint64_t prng_below(struct prng *p, uint64_t n)
{
	return n ? (uint64_t)(((unsigned __int128)prng_next(p) * n) >> 64) :
		   0;
}

#endif
