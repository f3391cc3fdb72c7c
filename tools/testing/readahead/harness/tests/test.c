// SPDX-License-Identifier: GPL-2.0
/*
 * test.c - runs tests against an implementation, counts, compares.
 *
 * Owns the pass/fail accounting, the per-test set-up and tear-down
 * (fresh logs, default memory size, every file closed and every folio
 * freed afterwards) and the table of observations where ours, the
 * pristine 6.12 file and the pristine 6.1 file differ.
 *
 * Only ours' runs are tests ("ok N - ours NAME", TAP, tests/test.h).  A
 * run of a pristine file states nothing exact about it, so it is a
 * record, not a pass: a "# rec" line with the number of observations and
 * invariants it had, and a failed test only when one of its invariants
 * did not hold.
 */
#include "test.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_OBS		512
#define OBS_CHARS	256
/* Ours, pristine 6.12, pristine 6.1. */
#define NR_SIDES	3

struct observation {
	char key[96];
	char value[NR_SIDES][OBS_CHARS];	/* as side() numbers them */
	bool seen[NR_SIDES];
};

static struct observation obs[MAX_OBS];
static int nr_obs;
/*
 * The filesystem the runs read from: the plain one (NULL name), on which
 * ours is held to exact results, or another kind, on which only the
 * invariants are (see test_set_fs()).
 */
static const char *fs_name;
static struct h_fs_behaviour fs_kind = { .take = ULONG_MAX };
static const char *current_test;
/* The precondition a run on another filesystem could not meet. */
static char current_skip[160];
static int current_failures, current_observations, current_invariants;
static int pristine_records, pristine_invariants;

static int side(void)
{
	return ra_impl == &ra_pristine ? 1 : ra_impl == &ra_pristine61 ? 2 : 0;
}

bool test_base_61(void)
{
	return ra_impl->flags & RA_IMPL_PAGE_CACHE_61;
}

void test_set_fs(const char *name, const struct h_fs_behaviour *fs)
{
	fs_name = name;
	fs_kind = *fs;
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
	char what[2 * OBS_CHARS + 64];

	current_failures++;
	snprintf(what, sizeof(what), fmt, a, b);
	tap_diag("%s %s: %s:%d: %s", ra_impl->name, current_test, file, line,
		 what);
}

void test_invariant(const char *file, int line, const char *what, bool ok)
{
	current_invariants++;
	if (!ok)
		fail(file, line, "invariant %s%s does not hold", what, "");
}

bool test_require(const char *file, int line, const char *what, bool ok)
{
	if (ok)
		return true;
	if (fs_name) {
		snprintf(current_skip, sizeof(current_skip),
			 "needs %s (%s:%d)", what, file, line);
		return false;
	}
	test_invariant(file, line, what, false);
	return false;
}

void test_expect_str(const char *file, int line, const char *label,
		     const char *got, const char *want)
{
	/* Exact results are the plain filesystem's. */
	if (fs_name)
		return;
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

/*
 * The tracepoint lines since the last h_log_reset(), each cut after the
 * trace_pipe prefix (task, CPU, flags, time): "EVENT: TEXT", one per
 * line.
 */
const char *test_events(void)
{
	static char buf[16384];
	const char *p = h_tracepoint();
	size_t len = 0;

	buf[0] = '\0';
	while (*p && len < sizeof(buf)) {
		const char *nl = strchr(p, '\n') ?: p + strlen(p);
		const char *text = strstr(p, "] ");

		text = text && text < nl ? strstr(text, ": ") : NULL;
		text = text && text < nl ? text + 2 : p;
		len += snprintf(buf + len, sizeof(buf) - len, "%s%.*s",
				len ? "\n" : "", (int)(nl - text), text);
		p = *nl ? nl + 1 : nl;
	}
	return buf;
}

const char *test_read_file(const char *path)
{
	static char buf[4096];

	h_debugfs_read(path, buf, sizeof(buf));
	return buf;
}

void test_switch_file(const char *path, const char *const *bad,
		      unsigned int nr)
{
	unsigned int i;

	EXPECT_STR("default", test_read_file(path), "0\n");
	EXPECT_INT("write 1", h_debugfs_write(path, "1\n"), 2);
	EXPECT_STR("on", test_read_file(path), "1\n");
	for (i = 0; i < nr; i++) {
		char label[32];

		snprintf(label, sizeof(label), "write \"%s\"", bad[i]);
		EXPECT_INT(label, h_debugfs_write(path, bad[i]), -EINVAL);
	}
	EXPECT_STR("still on", test_read_file(path), "1\n");
	EXPECT_INT("write 0", h_debugfs_write(path, "0"), 1);
	EXPECT_STR("off", test_read_file(path), "0\n");
}

void test_run(const char *name, void (*fn)(void))
{
	current_test = name;
	current_skip[0] = '\0';
	current_failures = current_observations = current_invariants = 0;
	h_log_reset();
	shim_trace_sink = h_trace_collect;
	shim_tracepoint_set_sink(h_tracepoint_collect);
	shim_printk_hook = NULL;
	/* Rate limits on, in a new window: an hour after the last test. */
	shim_ratelimit = true;
	shim_jiffies += 3600 * HZ;
	h_debugfs_write("readahead/trace_enable", "0");
	h_debugfs_write("readahead/stats", "0");
	h_debugfs_write("readahead/outcome_enable", "0");
	h_debugfs_write("readahead/outcomes", "0");
	h_log_reset();
	shim_clock_ns = 0;
	shim_kmalloc_fail = -1;
	shim_totalram_pages = 262144;
	shim_memcg_reset();
	shim_alloc_budget = -1;
	shim_alloc_order_limit = UINT_MAX;
	shim_add_enomem_in = -1;
	shim_add_workingset = false;
	shim_blkcg_congested = false;
	h_fault_around_pages = 0;
	h_fs = fs_kind;

	fn();

	h_close_all();
	test_invariant(__FILE__, __LINE__, "every folio freed",
		       shim_live_folios == 0);
	shim_live_folios = 0;
	if (current_failures) {
		tap_result(false, "%s %s%s%s", ra_impl->name, fs_name ?: "",
			   fs_name ? " " : "", name);
		return;
	}
	if (fs_name && current_skip[0]) {
		tap_skip(current_skip, "%s %s %s", ra_impl->name, fs_name, name);
		return;
	}
	if (fs_name) {
		tap_result(true, "%s %s %s", ra_impl->name, fs_name, name);
		return;
	}
	if (side()) {
		/* The leak check above is the harness's, not the test's. */
		current_invariants--;
		pristine_records++;
		pristine_invariants += current_invariants;
		tap_diag("rec %s %s (%d observed, %d invariants held)",
			 ra_impl->name, name, current_observations,
			 current_invariants);
		return;
	}
	tap_result(true, "%s %s", ra_impl->name, name);
}

/* @s on one line: a newline in it is written "\n". */
static void put_one_line(FILE *f, const char *s)
{
	for (; *s; s++)
		if (*s == '\n')
			fputs("\\n", f);
		else
			fputc(*s, f);
}

/*
 * With RA_HARNESS_OBS set, ours' observations go to that file, one
 * "key<TAB>value" line each, in test order: make series compares them
 * from one patch of the series to the next.
 */
static void write_ours_observations(void)
{
	const char *path = getenv("RA_HARNESS_OBS");
	FILE *f;
	int i;

	if (!path)
		return;
	f = fopen(path, "w");
	if (!f) {
		tap_diag("cannot write %s", path);
		return;
	}
	for (i = 0; i < nr_obs; i++) {
		if (!obs[i].seen[0])
			continue;
		put_one_line(f, obs[i].key);
		fputc('\t', f);
		put_one_line(f, obs[i].value[0]);
		fputc('\n', f);
	}
	fclose(f);
}

void test_print_differences(void)
{
	static const char *const names[NR_SIDES] = {
		"ours:         ", "pristine 6.12:", "pristine 6.1: "
	};
	int pairs[NR_SIDES][NR_SIDES] = { { 0 } };
	int i, a, b, n = 0;

	write_ours_observations();
	for (i = 0; i < nr_obs; i++) {
		struct observation *o = &obs[i];
		bool differ = false;

		for (a = 0; a < NR_SIDES; a++)
			for (b = a + 1; b < NR_SIDES; b++)
				if (o->seen[a] && o->seen[b] &&
				    strcmp(o->value[a], o->value[b])) {
					pairs[a][b]++;
					differ = true;
				}
		if (!differ)
			continue;
		if (!n++)
			tap_diag("Where ours, pristine 6.12 and pristine 6.1 "
				 "differ (information, not failures):");
		tap_diag("  %s", o->key);
		for (a = 0; a < NR_SIDES; a++)
			if (o->seen[a])
				tap_diag("    %s %s", names[a], o->value[a]);
	}
	tap_diag("%d of %d observations differ: ours and pristine 6.12 in "
		 "%d, ours and pristine 6.1 in %d, the two pristine kernels "
		 "in %d", n, nr_obs, pairs[0][1], pairs[0][2], pairs[1][2]);
	tap_diag("pristine 6.12 and 6.1: %d runs recorded, not counted as "
		 "passes (%d invariants held)", pristine_records,
		 pristine_invariants);
}
