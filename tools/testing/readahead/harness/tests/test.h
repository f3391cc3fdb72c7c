/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test.h - how a harness test states what it expects.
 *
 * Every test runs once against each implementation.  INVARIANT() must
 * hold for all (nothing past EOF, nothing read twice, no leak...).
 * EXPECT_STR()/EXPECT_INT() state the exact result of ours: they fail the
 * test when ours differs, and for the pristine 6.12 and 6.1 files they
 * only record
 * what it did, for the table of differences printed at the end.
 */
#ifndef RA_TEST_H
#define RA_TEST_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "../harness.h"

void test_run(const char *name, void (*fn)(void));
/*
 * The tracepoint lines since the last h_log_reset(), each cut after the
 * trace_pipe prefix: "EVENT: TEXT", one per line.
 */
const char *test_events(void);
/* A debugfs file's text (at most 4 KB, in a buffer the next call reuses). */
const char *test_read_file(const char *path);
/*
 * A debugfs switch: "0" by default, "1" turns it on, each of the @nr
 * texts @bad is -EINVAL and changes nothing, "0" turns it off.
 */
void test_switch_file(const char *path, const char *const *bad,
		      unsigned int nr);
void test_invariant(const char *file, int line, const char *what, bool ok);
void test_expect_str(const char *file, int line, const char *label,
		     const char *got, const char *want);
void test_expect_int(const char *file, int line, const char *label,
		     long long got, long long want);

/*
 * Runs from now on read from filesystem @fs, named @name in the results,
 * and ours is held to the invariants only; a NULL @name is the plain
 * filesystem, where EXPECT_*() hold too.
 */
void test_set_fs(const char *name, const struct h_fs_behaviour *fs);
/* Is the run on 6.1's page cache (pristine 6.1, ours as the backport)? */
bool test_base_61(void);

#define INVARIANT(c) test_invariant(__FILE__, __LINE__, #c, (c))
/*
 * What a test must find to build its scenario; without it the test ends.
 * On the plain filesystem that is a failure (an invariant that did not
 * hold); on another kind the scenario cannot be built there, and the
 * test is skipped, saying why.
 */
bool test_require(const char *file, int line, const char *what, bool ok);
#define REQUIRE(c) do {							\
	if (!test_require(__FILE__, __LINE__, #c, (c)))			\
		return;							\
} while (0)
#define EXPECT_STR(label, got, want) \
	test_expect_str(__FILE__, __LINE__, label, got, want)
#define EXPECT_INT(label, got, want) \
	test_expect_int(__FILE__, __LINE__, label, got, want)

#include "tap.h"

/* One entry per area, as in tools/testing/memblock. */
void sequential_checks(void);
void shared_checks(void);
struct folio *shared_marker_in_flight(struct h_file **a, struct h_file **b,
				      pgoff_t pages);
void context_checks(void);
void limits_checks(void);
void mmap_checks(void);
void fadvise_checks(void);
void api_checks(void);
void random_ops_checks(void);
void trace_checks(void);
void outcome_checks(void);
void badinput_checks(void);
void folios_checks(void);
void filesystems_checks(void);
void fixes_checks(void);

#endif /* RA_TEST_H */
