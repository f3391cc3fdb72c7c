// SPDX-License-Identifier: GPL-2.0
/*
 * sequential.c - one reader streaming through a file with read(2).
 *
 * The ramp-up of the window from offset 0 and from elsewhere, for
 * several request sizes and maxima, and the end of file.
 */
#include "test.h"

/* Read [0, bytes) in @bs sized requests. */
static void stream(struct h_file *f, loff_t from, loff_t bytes, size_t bs)
{
	loff_t pos;

	for (pos = from; pos < from + bytes; pos += bs)
		h_read(f, pos, bs);
}

/* 1-page reads, 128 KB maximum: the ramp of the design brief. */
static void ramp_4k_128k(void)
{
	struct h_file *f = h_create(1 << 20, 128);

	stream(f, 0, 92 * 4096, 4096);
	EXPECT_STR("windows", h_windows(),
		   "0+4-3 4+8-8 12+16-16 28+32-32 60+32-32 92+32-32");
	EXPECT_STR("io", h_io(),
		   "0-3[1] 4-11[4] 12-27[12] 28-59[28] 60-91[60] 92-123[92]");
	EXPECT_INT("pages added", h_pages_added(), 124);
	INVARIANT(h_pages_resubmitted() == 0);
}

/* 16 KB reads at 128 KB: the first window is two requests' worth. */
static void ramp_16k_128k(void)
{
	struct h_file *f = h_create(1 << 20, 128);

	stream(f, 0, 128 * 4096, 16384);
	EXPECT_STR("windows", h_windows(),
		   "0+8-4 8+16-16 24+32-32 56+32-32 88+32-32 120+32-32 "
		   "152+32-32");
	EXPECT_STR("io", h_io(), "0-7[4] 8-23[8] 24-55[24] 56-87[56] "
		   "88-119[88] 120-151[120] 152-183[152]");
}

/* 128 KB reads at 128 KB: the first window is merged with the next. */
static void ramp_128k_128k(void)
{
	struct h_file *f = h_create(1 << 20, 128);

	stream(f, 0, 128 * 4096, 131072);
	EXPECT_STR("windows", h_windows(),
		   "0+32-16 32+32-32 64+32-32 96+32-32 128+32-32");
	EXPECT_STR("io", h_io(),
		   "0-31[16] 32-63[32] 64-95[64] 96-127[96] 128-159[128]");
}

/* 4 KB reads with a 512 KB maximum ramp further. */
static void ramp_4k_512k(void)
{
	struct h_file *f = h_create(4 << 20, 512);

	stream(f, 0, 700 * 4096, 4096);
	EXPECT_STR("windows", h_windows(),
		   "0+4-3 4+16-16 20+32-32 52+64-64 116+128-128 244+128-128 "
		   "372+128-128 500+128-128 628+128-128 756+128-128");
	INVARIANT(h_pages_resubmitted() == 0);
}

/* Starting mid-file: the first read is taken as random, the second
 * starts the stream. */
static void ramp_midfile(void)
{
	struct h_file *f = h_create(1 << 20, 128);

	stream(f, 100 * 4096, 40 * 4096, 4096);
	EXPECT_STR("io", h_io(), "100 101-104[102] 105-112[105] "
		   "113-128[113] 129-160[129] 161-192[161]");
	EXPECT_STR("windows", h_windows(),
		   "101+4-3 105+8-8 113+16-16 129+32-32 161+32-32");
}

/* Nothing past the last page; the window stops at EOF. */
static void eof_clip(void)
{
	struct h_file *f = h_create(10 * 4096 + 100, 128);

	EXPECT_INT("bytes", h_read(f, 0, 1 << 20), 10 * 4096 + 100);
	EXPECT_STR("io", h_io(), "0-10");
	INVARIANT(!h_cached(f, 11));
	EXPECT_INT("past eof", h_read(f, 20 * 4096, 4096), 0);
	EXPECT_INT("ios", h_pages_submitted(), 11);
}

/* A stream running into EOF mid-window: the clipped window has no
 * marker, there is nothing left to read ahead. */
static void eof_stream(void)
{
	struct h_file *f = h_create(50 * 4096, 128);

	stream(f, 0, 60 * 4096, 4096);
	EXPECT_STR("io", h_io(), "0-3[1] 4-11[4] 12-27[12] 28-49");
	EXPECT_INT("pages", h_pages_submitted(), 50);
}

/*
 * 128 KB reads of a file of exactly 128 pages: the last window's marker
 * is reached with nothing left to read, so no window past EOF is issued.
 */
static void no_window_past_eof(void)
{
	struct h_file *f = h_create(128 * 4096, 128);

	stream(f, 0, 128 * 4096, 131072);
	EXPECT_STR("windows", h_windows(),
		   "0+32-16 32+32-32 64+32-32 96+32-32");
	EXPECT_INT("all-cached calls", h_all_cached_calls(), 0);
}

/* An empty file reads nothing and submits nothing. */
static void empty_file(void)
{
	struct h_file *f = h_create(0, 128);

	EXPECT_INT("bytes", h_read(f, 0, 4096), 0);
	EXPECT_STR("calls", h_calls(), "");
	INVARIANT(h_pages_submitted() == 0);
}

/*
 * The first window's sizes at their thresholds (128 KB maximum: 32 pages,
 * 512 KB: 128): a request of up to 1/32 of the maximum is quadrupled, up
 * to 1/4 doubled, above that the window is the maximum.
 */
static void initial_size_thresholds(void)
{
	static const struct {
		unsigned long ra_kb, req;
		const char *window;
	} cases[] = {
		{ 128, 1, "0+4-3" },	/* 1 <= 32/32: x4 */
		{ 128, 2, "0+4-2" },	/* 2 <= 32/4: x2 */
		{ 128, 8, "0+16-8" },	/* 8 <= 32/4: x2 */
		{ 128, 9, "0+32-23" },	/* 16 > 32/4: the maximum */
		{ 512, 4, "0+16-12" },	/* 4 <= 128/32: x4 */
		{ 512, 5, "0+16-11" },	/* 8 <= 128/4: x2 */
		{ 512, 8, "0+16-8" },
		{ 512, 32, "0+64-32" },	/* 32 <= 128/4: x2 */
		{ 512, 33, "0+128-95" },
	};
	unsigned int i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct h_file *f = h_create(4 << 20, cases[i].ra_kb);
		char label[48];

		h_log_reset();
		h_read(f, 0, cases[i].req * 4096);
		snprintf(label, sizeof(label), "%lu KB max, %lu pages",
			 cases[i].ra_kb, cases[i].req);
		EXPECT_STR(label, h_windows(), cases[i].window);
		h_close(f);
	}
}

/*
 * A first window clipped at the end of the file (0+32-16 in a 20-page
 * file) is marked nowhere: the next window would start past the end, and
 * a marker counted from the clipped end (page 4) would sit inside the
 * request, where the state does not say.
 */
static void clipped_window_unmarked(void)
{
	struct h_file *f = h_create(20 * 4096, 128);

	h_read(f, 0, 16 * 4096);
	EXPECT_STR("io", h_io(), "0-19");
	EXPECT_STR("windows", h_windows(), "0+32-16");
	EXPECT_INT("readahead calls", h_ra_calls(), 1);
}

void sequential_checks(void)
{
	test_run("a clipped window unmarked", clipped_window_unmarked);
	test_run("ramp 4k reads, 128k max", ramp_4k_128k);
	test_run("ramp 16k reads, 128k max", ramp_16k_128k);
	test_run("ramp 128k reads, 128k max", ramp_128k_128k);
	test_run("ramp 4k reads, 512k max", ramp_4k_512k);
	test_run("stream from mid-file", ramp_midfile);
	test_run("eof clips the window", eof_clip);
	test_run("stream into eof", eof_stream);
	test_run("no window past eof", no_window_past_eof);
	test_run("empty file", empty_file);
	test_run("first window at the size thresholds",
		 initial_size_thresholds);
}
