// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - the readahead harness: every area against ours and both
 * pristine kernels.
 *
 * Usage: ra_harness [TRACE_FILE]
 * With TRACE_FILE, also writes there the trace of four readers sharing a
 * file (ours), as the analyzer would read it from dmesg, and to
 * TRACE_FILE.tp the same decisions from the tracepoint, as trace_pipe
 * shows them.  Prints TAP (tests/test.h): one test per run of ours,
 * the pristine runs as "# rec" lines (tests only when an invariant
 * fails), the differences between the two as diagnostics.
 */
#include "tests/test.h"

TAP_STATE;
void test_print_differences(void);

static int write_text(const char *path, const char *text)
{
	FILE *out = fopen(path, "w");

	if (!out) {
		perror(path);
		return 1;
	}
	fprintf(out, "%s\n", text);
	return fclose(out) ? 1 : 0;
}

/* Four readers of one file at their own paces, traced. */
static int write_sample_trace(const char *path)
{
	static const int steps[4] = { 3, 5, 7, 11 };
	struct h_file *r[4];
	pgoff_t pos[4] = { 0 };
	bool busy = true;
	char tp_path[4096];
	int i, k;

	ra_impl = &ra_ours;
	/* The plain filesystem and memory, whatever the last test left. */
	h_fs = (struct h_fs_behaviour){ .take = ULONG_MAX };
	shim_totalram_pages = 262144;
	h_log_reset();
	shim_trace_sink = h_trace_collect;
	shim_tracepoint_set_sink(h_tracepoint_collect);
	shim_jiffies += 3600 * HZ;
	h_debugfs_write("readahead/trace_enable", "1");
	r[0] = h_create(4 << 20, 256);
	for (i = 1; i < 4; i++)
		r[i] = h_reopen(r[0]);
	while (busy) {
		busy = false;
		for (i = 0; i < 4; i++)
			for (k = 0; k < steps[i] && pos[i] < 1024; k++) {
				h_read(r[i], (loff_t)pos[i]++ * 4096, 4096);
				busy = true;
			}
	}
	h_debugfs_write("readahead/trace_enable", "0");
	h_close_all();
	snprintf(tp_path, sizeof(tp_path), "%s.tp", path);
	return write_text(path, h_trace()) | write_text(tp_path, h_tracepoint());
}

static void all_checks(void)
{
	sequential_checks();
	shared_checks();
	context_checks();
	limits_checks();
	mmap_checks();
	fadvise_checks();
	api_checks();
	random_ops_checks();
	trace_checks();
	outcome_checks();
	badinput_checks();
	folios_checks();
	filesystems_checks();
	fixes_checks();
}

/*
 * The kinds of ->readahead() the kernel's filesystems have, beside the
 * plain one: every test runs on each, ours held to the invariants.
 */
static const struct {
	const char *name;
	struct h_fs_behaviour fs;
} fs_kinds[] = {
	/* FUSE past its congestion threshold reads rac->ra. */
	{ "[fuse]", { .take = ULONG_MAX, .congested = true } },
	/* NFS, CIFS, netfs may read fewer pages than asked. */
	{ "[short]", { .take = 3 } },
	/* ceph, netfs, erofs grow requests with readahead_expand(). */
	{ "[expand]", { .take = ULONG_MAX, .expand_align = 16 } },
};

int main(int argc, char **argv)
{
	const struct ra_impl *impls[] = { &ra_ours, &ra_pristine,
					  &ra_pristine61 };
	unsigned int i;

	setvbuf(stdout, NULL, _IOLBF, 0);
	tap_begin();
	for (i = 0; i < sizeof(impls) / sizeof(impls[0]); i++) {
		ra_impl = impls[i];
		all_checks();
	}
	ra_impl = &ra_ours;
	for (i = 0; i < sizeof(fs_kinds) / sizeof(fs_kinds[0]); i++) {
		test_set_fs(fs_kinds[i].name, &fs_kinds[i].fs);
		all_checks();
	}
	test_set_fs(NULL, &(struct h_fs_behaviour){ .take = ULONG_MAX });
	test_print_differences();
	if (argc > 1 && write_sample_trace(argv[1]))
		tap_result(false, "sample trace written to %s", argv[1]);
	return tap_end();
}
