/* SPDX-License-Identifier: GPL-2.0 */
/*
 * test.h - how a harness test states what it expects.
 *
 * Every test runs once against each implementation.  INVARIANT() must
 * hold for both (nothing past EOF, nothing read twice, no leak...).
 * EXPECT_STR()/EXPECT_INT() state the exact result of ours: they fail the
 * test when ours differs, and for the pristine 6.1 file they only record
 * what it did, for the table of differences printed at the end.
 */
#ifndef RA_TEST_H
#define RA_TEST_H

#include "../harness.h"

void test_run(const char *name, void (*fn)(void));
void test_invariant(const char *file, int line, const char *what, bool ok);
void test_expect_str(const char *file, int line, const char *label,
		     const char *got, const char *want);
void test_expect_int(const char *file, int line, const char *label,
		     long long got, long long want);

#define INVARIANT(c) test_invariant(__FILE__, __LINE__, #c, (c))
#define EXPECT_STR(label, got, want) \
	test_expect_str(__FILE__, __LINE__, label, got, want)
#define EXPECT_INT(label, got, want) \
	test_expect_int(__FILE__, __LINE__, label, got, want)

/* One entry per area, as in tools/testing/memblock. */
void sequential_checks(void);
void shared_checks(void);
void context_checks(void);
void limits_checks(void);
void mmap_checks(void);
void fadvise_checks(void);
void api_checks(void);
void random_ops_checks(void);
void trace_checks(void);
void badinput_checks(void);
void folios_checks(void);

#endif /* RA_TEST_H */
