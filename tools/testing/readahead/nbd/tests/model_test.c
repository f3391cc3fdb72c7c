// SPDX-License-Identifier: GPL-2.0
/*
 * model_test.c - the spindle filter's delays, exactly, without nbdkit: each
 * test feeds model.c (and through it sim/spindle.c) a request sequence
 * with arrival times and checks the completion times to the nanosecond,
 * worked out by hand from the model's formulas, and which waiting
 * request the disk takes next.  The rotational latency
 * after a seek is the seeded PRNG's draw, checked both as a literal and
 * as prng_below() of the same stream.  Prints TAP as the harness's tests
 * do (tests/test.h, which this mirrors without the harness): one test per
 * check, the plan and the totals at the end.
 */
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "model.h"
#include "../../lib/tap.h"

TAP_STATE;

static void check(const char *name, bool ok)
{
	tap_result(ok, "%s", name);
}

#define CHECK_EQ(name, got, want)					\
	check_u64(name, __LINE__, (uint64_t)(got), (uint64_t)(want))

static void check_u64(const char *name, int line, uint64_t got,
		      uint64_t want)
{
	check(name, got == want);
	if (got != want)
		printf("# line %d: got %" PRIu64 ", want %" PRIu64 "\n",
		       line, got, want);
}

#define KB		1024ULL
/* Defaults: 10000 rpm, 20 us per command, 100 MB/s, 300 MB/s iface. */
#define ROT		6000000ULL	/* 60 / 10000 s */
#define OVH		20000ULL
#define X64K		655360ULL	/* 65536 B at 10^8 B/s */
#define X1S		5120ULL		/* one sector */
#define IFACE64K	218453ULL	/* 65536 B at 3 * 10^8 B/s, rounded */

static void setup(struct sd_disk *d, const char *const *kv)
{
	char err[160];

	sd_defaults(d);
	for (; kv && *kv; kv += 2)
		if (sd_set(d, kv[0], kv[1], err, sizeof(err)))
			check(err, false);
	if (sd_start(d))
		check("out of memory", false);
}

static void test_queued_stream(void)
{
	struct sd_disk d;
	unsigned int how, i;
	uint64_t done;

	setup(&d, NULL);
	for (i = 0; i < 4; i++) {
		done = sd_read(&d, 0, i * 64 * KB, 64 * KB, &how);
		CHECK_EQ("queued stream: back to back", done,
			 (i + 1) * (OVH + X64K));
		CHECK_EQ("queued stream: no seek", how, 0);
	}
	CHECK_EQ("queued stream: waited", d.wait_ns,
		 (0 + 1 + 2 + 3) * (OVH + X64K));
	sd_stop(&d);
}

static void test_idle_gap(void)
{
	struct sd_disk d;
	unsigned int how;
	uint64_t done;

	setup(&d, NULL);
	done = sd_read(&d, 0, 0, 64 * KB, &how);
	/* 1 ms later the sector went by: the rest of the revolution. */
	done = sd_read(&d, done + 1000000, 64 * KB, 64 * KB, &how);
	CHECK_EQ("idle 1 ms: waits 5 ms of rotation", done,
		 (OVH + X64K) + 1000000 + 5000000 + OVH + X64K);
	/* Exactly a revolution later it is under the head again. */
	done = sd_read(&d, done + ROT, 128 * KB, 64 * KB, &how);
	CHECK_EQ("idle one revolution: no wait", done,
		 2 * (OVH + X64K) + 6000000 + ROT + OVH + X64K);
	CHECK_EQ("idle: no seek", d.seeks, 0);
	sd_stop(&d);
}

static void test_seek(void)
{
	static const char *const kv[] = { "capacity", "1g", NULL };
	const uint64_t cap = (1ULL << 30) >> 9;
	struct sd_disk d;
	struct prng r;
	unsigned int how;
	uint64_t done, t, draw1, draw2;

	prng_seed(&r, 1, 0);
	draw1 = prng_below(&r, ROT);
	draw2 = prng_below(&r, ROT);
	CHECK_EQ("prng: first draw of seed 1 stream 0", draw1, 4194444);
	CHECK_EQ("prng: second draw", draw2, 2820780);

	setup(&d, kv);
	done = sd_read(&d, 0, 0, 512, &how);
	CHECK_EQ("seek: first sector at the head", done, OVH + X1S);
	/*
	 * A quarter of the stroke: full stroke is track + (seek - track) /
	 * (8/15) = 0.5 + 4 * 15 / 8 = 8 ms; sqrt(1/4) of the way is 4.25 ms.
	 */
	t = sd_read(&d, done, (1 + cap / 4) * 512, 512, &how) - done;
	CHECK_EQ("seek: quarter stroke", t, 4250000 + draw1 + OVH + X1S);
	CHECK_EQ("seek: flagged", how, SPINDLE_SEEK);
	done += t;
	/* One sector on: the shortest seek, track_ms and a little. */
	t = sd_read(&d, done, (3 + cap / 4) * 512, 512, &how) - done;
	CHECK_EQ("seek: one sector away", t,
		 llround((0.5 + 7.5 * sqrt(1.0 / cap)) * 1e6) + draw2 +
		 OVH + X1S);
	CHECK_EQ("seek: one sector away, literal", t, 505179 + draw2 +
		 OVH + X1S);
	sd_stop(&d);

	/* The whole stroke, from a fresh disk at sector 0: 8 ms. */
	setup(&d, kv);
	t = sd_read(&d, 0, (cap - 1) * 512, 512, &how);
	CHECK_EQ("seek: full stroke", t,
		 llround((0.5 + 7.5 * sqrt((double)(cap - 1) / cap)) * 1e6) +
		 draw1 + OVH + X1S);
	CHECK_EQ("seek: full stroke, literal", t, 7999998 + draw1 + OVH +
		 X1S);
	CHECK_EQ("seek: counted", d.seeks, 1);
	sd_stop(&d);
}

/* The mean over random pairs is seek_ms (the model's calibration). */
static void test_mean_seek(void)
{
	static const char *const kv[] = { "seed", "42", NULL };
	const uint64_t cap = (300ULL << 30) >> 9;
	const unsigned int n = 40000;
	struct sd_disk d;
	struct prng r;
	unsigned int how, i;
	double sum = 0, mean;
	uint64_t prev;

	setup(&d, kv);
	prng_seed(&r, 99, 0);
	for (i = 0; i < n; i++) {
		uint64_t a = prng_below(&r, cap - 1), b = prng_below(&r, cap - 1);

		prev = sd_read(&d, 0, a * 512, 512, &how);
		sum += sd_read(&d, 0, b * 512, 512, &how) - prev;
	}
	mean = sum / n - (ROT / 2.0) - OVH - X1S;
	printf("# mean seek over %u random pairs: %.4f ms (seek_ms=4.5)\n",
	       n, mean / 1e6);
	check("mean seek within 1% of seek_ms", fabs(mean - 4.5e6) < 45000);
	sd_stop(&d);
}

static const char *const cache_kv[] = {
	"capacity", "1g", "cache_kb", "1024", NULL
};

static void test_cache_hit(void)
{
	struct sd_disk d;
	unsigned int how;
	uint64_t done;

	setup(&d, cache_kv);
	done = sd_read(&d, 0, 0, 64 * KB, &how);
	CHECK_EQ("cache: first read from the media", done, OVH + X64K);
	/* 10 ms of streaming: 1953 sectors past the head, 64 KB is there. */
	done = sd_read(&d, done + 10000000, 64 * KB, 64 * KB, &how);
	CHECK_EQ("cache: hit at the interface rate", done,
		 OVH + X64K + 10000000 + OVH + IFACE64K);
	CHECK_EQ("cache: hit flagged", how, SPINDLE_CACHE_HIT);
	sd_stop(&d);
}

static void test_ride_along(void)
{
	struct sd_disk d;
	unsigned int how;
	uint64_t done;

	setup(&d, cache_kv);
	done = sd_read(&d, 0, 0, 64 * KB, &how);
	/* 0.1 ms later 19 sectors are in: 1 MB more rides the stream. */
	done = sd_read(&d, done + 100000, 64 * KB, 1024 * KB, &how);
	CHECK_EQ("ride along: done when the stream gets there", done,
		 OVH + X64K + 10485760);
	CHECK_EQ("ride along: counted a hit", how, SPINDLE_CACHE_HIT);
	sd_stop(&d);
}

static void test_segments(void)
{
	struct sd_disk d;
	unsigned int how;
	uint64_t done, t;

	setup(&d, cache_kv);
	done = sd_read(&d, 0, 0, 64 * KB, &how);
	/* 20 ms: the 1 MB segment filled at 11.16 ms and stopped. */
	t = sd_read(&d, done + 20000000, 1000000ULL * 512, 64 * KB, &how);
	CHECK_EQ("segments: far read seeks", how, SPINDLE_SEEK);
	/* The first segment, [0, 2176), is kept: a hit anywhere in it. */
	done = sd_read(&d, t, 1000ULL * 512, 64 * KB, &how);
	CHECK_EQ("segments: old segment hit", done, t + OVH + IFACE64K);
	CHECK_EQ("segments: hit flagged", how, SPINDLE_CACHE_HIT);
	/* Past its end: the media again. */
	sd_read(&d, done, 2100ULL * 512, 64 * KB, &how);
	CHECK_EQ("segments: past the end seeks", how, SPINDLE_SEEK);
	CHECK_EQ("segments: hits", d.cache_hits, 1);
	sd_stop(&d);
}

static void test_iops(void)
{
	static const char *const kv[] = {
		"iops", "50", "rate_mbps", "8", NULL
	};
	struct sd_disk d;
	unsigned int how;
	uint64_t done;

	setup(&d, kv);
	done = sd_read(&d, 0, 12345 * 4096, 4096, &how);
	CHECK_EQ("iops: a 4 KB read takes 1/iops", done, 20000000);
	done = sd_read(&d, 0, 0, 1024 * KB, &how);
	CHECK_EQ("iops: 1 MB takes its transfer at 8 MB/s", done,
		 20000000 + 131072000);
	CHECK_EQ("iops: no seek", d.seeks, 0);
	sd_stop(&d);
}

static void test_unaligned(void)
{
	struct sd_disk d;
	unsigned int how;

	setup(&d, NULL);
	sd_read(&d, 0, 1000, 100, &how);
	CHECK_EQ("unaligned: bytes 1000..1099 are sectors 1 and 2",
		 d.sectors, 2);
	CHECK_EQ("unaligned: head after sector 2", d.mech.head, 3);
	sd_stop(&d);
}

static uint64_t run_sequence(uint64_t seed)
{
	static const char *const kv[] = { "cache_kb", "512", NULL };
	struct sd_disk d;
	struct prng r;
	unsigned int how, i;
	uint64_t sum = 0, arrival = 0, done;
	char err[160], buf[32];

	setup(&d, kv);
	snprintf(buf, sizeof(buf), "%" PRIu64, seed);
	sd_set(&d, "seed", buf, err, sizeof(err));
	sd_stop(&d);
	sd_start(&d);
	prng_seed(&r, 5, 5);
	for (i = 0; i < 2000; i++) {
		uint64_t sector = prng_below(&r, 4) ? d.mech.head :
				  prng_below(&r, 1ULL << 20);

		arrival += prng_below(&r, 2000000);
		done = sd_read(&d, arrival, sector * 512,
			       4096 << prng_below(&r, 6), &how);
		sum = sum * 31 + done;
	}
	sd_stop(&d);
	return sum;
}

static void test_determinism(void)
{
	uint64_t a = run_sequence(7), b = run_sequence(7);

	CHECK_EQ("determinism: same seed, same delays", a, b);
	check("determinism: another seed, other delays",
	      run_sequence(8) != a);
}

static unsigned int pick2(struct sd_disk *d, uint64_t free_at,
			  uint64_t arr0, uint64_t off0,
			  uint64_t arr1, uint64_t off1)
{
	struct sd_req a = { .arrival = arr0, .offset = off0, .count = 4096 };
	struct sd_req b = { .arrival = arr1, .offset = off1, .count = 4096 };
	const struct sd_req *w[] = { &a, &b };

	d->free_at = free_at;
	return sd_pick(d, w, 2);
}

/* The disk's choice among waiting requests: oldest, a burst by offset. */
static void test_pick(void)
{
	struct sd_disk d;
	char err[160];

	sd_defaults(&d);
	CHECK_EQ("pick: default window 500 us", d.reorder_ns, 500000);
	CHECK_EQ("pick: a burst goes in ascending offset",
		 pick2(&d, 10000000, 1000000, 1 << 20, 1050000, 0), 1);
	CHECK_EQ("pick: the same, listed the other way",
		 pick2(&d, 10000000, 1050000, 0, 1000000, 1 << 20), 0);
	CHECK_EQ("pick: outside the window, the oldest",
		 pick2(&d, 10000000, 1000000, 1 << 20, 1500001, 0), 0);
	CHECK_EQ("pick: at the window's edge, still a burst",
		 pick2(&d, 10000000, 1000000, 1 << 20, 1500000, 0), 1);
	CHECK_EQ("pick: not arrived when the disk started, the oldest",
		 pick2(&d, 1020000, 1000000, 1 << 20, 1050000, 0), 0);
	CHECK_EQ("pick: idle disk, the oldest only",
		 pick2(&d, 0, 1000000, 1 << 20, 1000001, 0), 0);
	sd_set(&d, "reorder_us", "0", err, sizeof(err));
	CHECK_EQ("pick: reorder_us=0, arrival order",
		 pick2(&d, 10000000, 1000000, 1 << 20, 1000001, 0), 0);
	sd_set(&d, "reorder_us", "250", err, sizeof(err));
	CHECK_EQ("pick: reorder_us=250", d.reorder_ns, 250000);
}

static void expect_err(const char *key, const char *val, const char *want)
{
	struct sd_disk d;
	char err[160] = "", name[96];
	int ret;

	sd_defaults(&d);
	ret = sd_set(&d, key, val, err, sizeof(err));
	snprintf(name, sizeof(name), "params: %s=%s refused", key, val);
	check(name, ret == -1 && !strcmp(err, want));
	if (ret != -1 || strcmp(err, want))
		printf("# ret %d, '%s', want '%s'\n", ret, err, want);
}

static void test_params(void)
{
	struct sd_disk d;
	char err[160];

	expect_err("rpm", "999",
		   "bad value '999' for option 'rpm' (allowed: 1000 to 30000)");
	expect_err("capacity", "1k",
		   "bad value '1k' for option 'capacity' (allowed: 1m to 64t)");
	expect_err("capacity", "65t",
		   "bad value '65t' for option 'capacity' (allowed: 1m to 64t)");
	expect_err("rate_mbps", "0",
		   "bad value '0' for option 'rate_mbps' (allowed: 0.001 to 1000000)");
	expect_err("seek_ms", "1000.5",
		   "bad value '1000.5' for option 'seek_ms' (allowed: 0 to 1000)");
	expect_err("track_ms", "-1",
		   "bad value '-1' for option 'track_ms' (allowed: 0 to 1000)");
	expect_err("seek_ms", "fast", "bad value 'fast' for option 'seek_ms'");
	expect_err("iops", "nan",
		   "bad value 'nan' for option 'iops' (allowed: 0 to 1000000)");
	expect_err("cache_segments", "257",
		   "bad value '257' for option 'cache_segments' (allowed: 0 to 256)");
	expect_err("cache_kb", "-5", "bad value '-5' for option 'cache_kb'");
	expect_err("reorder_us", "100001",
		   "bad value '100001' for option 'reorder_us' (allowed: 0 to 100000)");
	expect_err("index", "4096",
		   "bad value '4096' for option 'index' (allowed: 0 to 4095)");
	expect_err("seed", "18446744073709551616",
		   "bad value '18446744073709551616' for option 'seed' (allowed: 0 to 18446744073709551615)");

	sd_defaults(&d);
	CHECK_EQ("params: file= is the plugin's",
		 sd_set(&d, "file", "x.img", err, sizeof(err)), 1);
	CHECK_EQ("params: capacity=2g",
		 sd_set(&d, "capacity", "2g", err, sizeof(err)) ||
		 d.p.capacity != 2ULL << 30, 0);
	CHECK_EQ("params: rpm=7200",
		 sd_set(&d, "rpm", "7200", err, sizeof(err)) ||
		 d.p.rpm != 7200, 0);
	CHECK_EQ("params: seek_ms=8.5",
		 sd_set(&d, "seek_ms", "8.5", err, sizeof(err)) ||
		 d.p.seek_ms != 8.5, 0);
}

int main(void)
{
	tap_begin();
	test_queued_stream();
	test_idle_gap();
	test_seek();
	test_mean_seek();
	test_cache_hit();
	test_ride_along();
	test_segments();
	test_iops();
	test_unaligned();
	test_determinism();
	test_pick();
	test_params();
	return tap_end();
}
