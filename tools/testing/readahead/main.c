// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the readahead harness: every area against both implementations.
 */
#include "tests/test.h"

extern int tests_passed, tests_failed;
void test_print_differences(void);

int main(void)
{
	const struct ra_impl *impls[] = { &ra_ours, &ra_peer };
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		ra_impl = impls[i];
		sequential_checks();
		shared_checks();
		context_checks();
		limits_checks();
		mmap_checks();
		fadvise_checks();
		api_checks();
		random_ops_checks();
	}
	test_print_differences();
	printf("harness: %d passed, %d failed\n", tests_passed, tests_failed);
	return tests_failed ? 1 : 0;
}
