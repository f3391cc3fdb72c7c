// SPDX-License-Identifier: GPL-2.0
/*
 * test.c - runs tests against an implementation, counts, compares.
 *
 * Owns the pass/fail accounting, the per-test set-up and tear-down
 * (fresh logs, default memory size, every file closed and every folio
 * freed afterwards) and the table of observations where ours and the
 * pristine 6.1 file differ.
 *
 * Only ours' runs count as passed or failed.  A run of the pristine file
 * states nothing exact about it, so it is a record, not a pass: it shows
 * as "rec" with the number of observations and invariants it had, and
 * counts as failed only when one of its invariants did not hold.
 */
#include "test.h"

#include <string.h>

#define MAX_OBS		512
#define OBS_CHARS	256

struct observation {
	char key[96];
	char value[2][OBS_CHARS];	/* [0] ours, [1] pristine */
	bool seen[2];
};

static struct observation obs[MAX_OBS];
static int nr_obs;
static const char *current_test;
static int current_failures, current_observations, current_invariants;
int tests_passed, tests_failed;
static int pristine_records, pristine_invariants;

static int side(void)
{
	return ra_impl == &ra_peer;
}

static void observe(const char *label, const char *value)
{
	char key[96];
	int i;

	snprintf(key, sizeof(key), "%s: %s", current_test, label);
	for (i = 0; i < nr_obs && strcmp(obs[i].key, key); i++)
		;
	if (i == nr_obs) {
		if (nr_obs == MAX_OBS)
			shim_bug(__FILE__, __LINE__, "too many observations");
		nr_obs++;
		snprintf(obs[i].key, sizeof(obs[i].key), "%s", key);
	}
	snprintf(obs[i].value[side()], OBS_CHARS, "%s", value);
	obs[i].seen[side()] = true;
	current_observations++;
}

static void fail(const char *file, int line, const char *fmt,
		 const char *a, const char *b)
{
	if (!current_failures++)
		printf("FAIL %-8s %s\n", ra_impl->name, current_test);
	printf("     %s:%d: ", file, line);
	printf(fmt, a, b);
	printf("\n");
}

void test_invariant(const char *file, int line, const char *what, bool ok)
{
	current_invariants++;
	if (!ok)
		fail(file, line, "invariant %s%s does not hold", what, "");
}

void test_expect_str(const char *file, int line, const char *label,
		     const char *got, const char *want)
{
	observe(label, got);
	if (side() == 0 && strcmp(got, want))
		fail(file, line, "got  \"%s\"\n          want \"%s\"", got, want);
}

void test_expect_int(const char *file, int line, const char *label,
		     long long got, long long want)
{
	char g[32], w[32];

	snprintf(g, sizeof(g), "%lld", got);
	snprintf(w, sizeof(w), "%lld", want);
	test_expect_str(file, line, label, g, w);
}

void test_run(const char *name, void (*fn)(void))
{
	current_test = name;
	current_failures = current_observations = current_invariants = 0;
	h_log_reset();
	shim_trace_sink = h_trace_collect;
	shim_tracepoint_sink = h_tracepoint_collect;
	shim_printk_hook = NULL;
	/* Rate limits on, in a new window: an hour after the last test. */
	shim_ratelimit = true;
	shim_jiffies += 3600 * HZ;
	h_debugfs_write("readahead/trace_enable", "0");
	h_debugfs_write("readahead/stats", "0");
	shim_totalram_pages = 262144;
	shim_alloc_budget = -1;
	shim_alloc_order_limit = UINT_MAX;
	h_fs = (struct h_fs_behaviour){ .take = ULONG_MAX };

	fn();

	h_close_all();
	test_invariant(__FILE__, __LINE__, "every folio freed",
		       shim_live_folios == 0);
	shim_live_folios = 0;
	if (current_failures) {
		tests_failed++;
		return;
	}
	if (side()) {
		/* The leak check above is the harness's, not the test's. */
		current_invariants--;
		pristine_records++;
		pristine_invariants += current_invariants;
		printf("rec  %-8s %s (%d observed, %d invariants held)\n",
		       ra_impl->name, name, current_observations,
		       current_invariants);
		return;
	}
	tests_passed++;
	printf("ok   %-8s %s\n", ra_impl->name, name);
}

void test_print_differences(void)
{
	int i, n = 0;

	for (i = 0; i < nr_obs; i++) {
		struct observation *o = &obs[i];

		if (!o->seen[0] || !o->seen[1] ||
		    !strcmp(o->value[0], o->value[1]))
			continue;
		if (!n++)
			printf("\nWhere ours and pristine 6.1 differ "
			       "(information, not failures):\n");
		printf("  %s\n    ours:     %s\n    pristine: %s\n",
		       o->key, o->value[0], o->value[1]);
	}
	printf("\n%d of %d observations differ between ours and pristine\n",
	       n, nr_obs);
	printf("pristine 6.1: %d runs recorded, not counted as passes "
	       "(%d invariants held)\n", pristine_records,
	       pristine_invariants);
}
