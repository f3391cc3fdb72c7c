// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - ra_sim: run fio jobs on a simulated JBOD with real readahead.
 *
 *   ra_sim [--impl ours|pristine|pristine-6.1|both|all]
 *          [--define NAME=VALUE]...
 *          [--seed N] [--trace FILE] [--timeline FILE] [--blktrace DIR]
 *          [--folios FILE] [--ftrace FILE] [--outcomes FILE] [--json FILE]
 *          MACHINE.disks JOBS.fio
 *
 * Owns the command line and one run: parse both files (an error in
 * either stops everything before anything runs), build the machine,
 * create the files, start the readers, run the event loop to the end,
 * report.  "pristine" is the pristine 6.12 file, "pristine-6.1" the 6.1
 * one.  With --impl both (the default) ours and pristine 6.12 run in two
 * child processes at once, from the same inputs, with --impl all the
 * three; their reports are printed ours first.  --trace, --timeline,
 * --folios (the folios of each ->readahead call, fs.c) and --ftrace
 * (6.12's page cache tracepoints as trace-cmd report prints them,
 * ftrace.c, with ours' window outcomes among them) then write FILE.ours,
 * FILE.pristine (and FILE.pristine-6.1), --outcomes FILE.ours (ours'
 * outcomes table, mm/readahead_outcome.c's, at the end of the run),
 * --json FILE.ours, FILE.pristine...: the run's summary as one JSON object
 * (the keys and values of its "summary:" line, and the seed; report.c),
 * --blktrace the disks'
 * blktrace files in DIR/ours/, DIR/pristine/... (blktrace.c).  A binary that links the
 * replay models (tools/testing/readahead/replay/) also runs --impl
 * MODEL, writing FILE.MODEL and DIR/MODEL/.
 */
#include "jobs.h"
#include "ra_observe.h"

#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Models of older kernels, NULL-terminated: defined only when
 * tools/testing/readahead/replay/ links them in (--impl NAME).
 */
extern const struct ra_impl *const ra_replay_impls[] __attribute__((weak));
extern const char *ra_replay_about(const struct ra_impl *impl)
	__attribute__((weak));

static const char *trace_path, *timeline_path, *blktrace_dir, *folios_path;
static const char *ftrace_path, *outcomes_path, *json_path;
static bool seed_set;
static uint64_t seed_arg;

static void usage(void)
{
	fprintf(stderr,
		"usage: ra_sim [--impl ours|pristine|pristine-6.1|both|all|MODEL]\n"
		"              [--define NAME=VALUE]...\n"
		"              [--seed N] [--trace FILE] [--timeline FILE]\n"
		"              [--blktrace DIR] [--folios FILE] [--ftrace FILE]\n"
		"              [--outcomes FILE] [--json FILE] MACHINE.disks JOBS.fio\n"
		"       ra_sim --list-impls   (the models this binary can run)\n");
	exit(2);
}

/* The options main() knows, each taking an argument. */
static bool known_option(const char *opt)
{
	static const char *const names[] = {
		"--impl", "--define", "--seed", "--trace", "--timeline",
		"--blktrace", "--folios", "--ftrace", "--outcomes", "--json",
	};
	unsigned int k;

	for (k = 0; k < ARRAY_SIZE(names); k++)
		if (!strcmp(opt, names[k]))
			return true;
	return false;
}

/* Lay out every file the jobs name, largest extent each job asks for. */
static int make_files(void)
{
	unsigned int i, k;

	for (i = 0; i < nr_jobs; i++) {
		struct job *j = &jobs[i];
		uint64_t size = 0;

		for (k = 0; k < i; k++)
			if (!strcmp(jobs[k].filename, j->filename))
				break;
		if (k < i) {
			j->si = jobs[k].si;
			continue;
		}
		if (!part_for_path(j->filename)) {
			fprintf(stderr, "%s:%d: filename %s: no partition is mounted there\n",
				j->path, j->filename_line ? j->filename_line :
				j->line, j->filename);
			return -1;
		}
		for (k = i; k < nr_jobs; k++) {
			const struct job *o = &jobs[k];
			struct partition *pt = part_for_path(o->filename);
			uint64_t room = pt->nsect << SECTOR_SHIFT;

			if (strcmp(o->filename, j->filename))
				continue;
			/* Each is at most SIM_MAX_BYTES: the sum cannot wrap. */
			if (o->offset > room || o->size > room - o->offset) {
				fprintf(stderr, "%s:%d: job '%s': offset+size %llu+%llu is past the end of %s (allowed: up to %llu bytes)\n",
					o->path, o->line, o->name,
					(unsigned long long)o->offset,
					(unsigned long long)o->size, pt->name,
					(unsigned long long)room);
				return -1;
			}
			size = max(size, o->offset + o->size);
			if (o->large_folios != j->large_folios) {
				/* The one that set it, against the other. */
				const struct job *s = o->large_folios_line ?
						      o : j;
				const struct job *t = s == o ? j : o;

				fprintf(stderr, "%s:%d: job '%s': large_folios=%d for %s, which job '%s' reads with large_folios=%d (allowed: one value per file)\n",
					s->path, s->large_folios_line, s->name,
					s->large_folios, j->filename, t->name,
					t->large_folios);
				return -1;
			}
		}
		j->si = fs_create(part_for_path(j->filename), j->filename,
				  size, j->large_folios);
	}
	return 0;
}

/*
 * pre_cached: the tail of each file in the page cache, uptodate, in file
 * order (the end youngest), as a file just written leaves it.
 */
static void prefill(void)
{
	unsigned int i, k;

	for (i = 0; i < nr_jobs; i++) {
		struct sim_inode *si = jobs[i].si;
		uint64_t bytes = 0;
		pgoff_t first, end;

		for (k = 0; k < nr_jobs; k++)
			if (jobs[k].si == si) {
				if (k < i)
					break;
				bytes = max(bytes, jobs[k].pre_cached);
			}
		if (k < i || !bytes || !si->size)
			continue;
		end = DIV_ROUND_UP(si->size, PAGE_SIZE);
		bytes = min(bytes, si->size);
		first = (si->size - bytes) >> PAGE_SHIFT;
		for (; first < end; first++)
			cache_populate(si, first);
	}
}

static FILE *open_out(const char *path, const char *impl)
{
	char name[512];
	FILE *f;

	if (!path)
		return NULL;
	snprintf(name, sizeof(name), "%s.%s", path, impl);
	f = fopen(name, "w");
	if (!f)
		sim_die("sim: cannot write %s", name);
	return f;
}

/*
 * Ours' decisions go to --trace's file and to --ftrace's, among the page
 * cache events, as ra-record on the patched kernel records both.
 */
static void trace_sink(const char *line)
{
	if (ra_trace_file)
		fprintf(ra_trace_file, "%s\n", line);
	if (ftrace_file)
		fprintf(ftrace_file, "%s\n", line);
}

/*
 * Ours' window outcomes (mm/readahead_outcome.c) are followed from the
 * start of the traced run when --ftrace or --outcomes asks for them; the
 * tracepoint lines go to ftrace.c, which keeps the outcomes.
 */
static unsigned long long sim_clock(void)
{
	return sim_now;
}

static bool outcomes_start(const struct ra_impl *impl)
{
	if (impl != &ra_ours || (!ftrace_path && !outcomes_path))
		return false;
	shim_clock_fn = sim_clock;
	shim_tracepoint_set_sink(ftrace_tracepoint);
	h_debugfs_write("readahead/outcomes", "0");
	h_debugfs_write("readahead/outcome_enable", "1");
	return true;
}

/* The windows still followed are reported; the table is written. */
static void outcomes_stop(const struct ra_impl *impl)
{
	char table[4096];
	FILE *f;

	h_debugfs_write("readahead/outcome_enable", "0");
	shim_tracepoint_set_sink(NULL);
	f = open_out(outcomes_path, impl->name);
	if (!f)
		return;
	h_debugfs_read("readahead/outcomes", table, sizeof(table));
	fputs(table, f);
	fclose(f);
}

static double cpu_seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static void run(const struct ra_impl *impl, FILE *out)
{
	unsigned int i;
	bool outcomes;
	double t0;

	ra_impl = impl;
	ra_call_observer = &sim_observer;
	ev_init();
	cache_init(sys.memory / PAGE_SIZE);
	if (sys.memcg)
		cache_memcg(sys.memcg / PAGE_SIZE);
	for (i = 0; i < nr_disks; i++) {
		struct disk *d = &disks[i];

		prng_seed(&d->rng, sys.seed, i);
		d->bdi.ra_pages = d->p.read_ahead_kb / (PAGE_SIZE >> 10);
		d->bdi.io_pages = d->p.max_sectors_kb / (PAGE_SIZE >> 10);
		disk_init(d, i);
		blk_init_queue(d);
	}
	ra_trace_file = open_out(trace_path, impl->name);
	/* Ours (and the replay models) print their decisions: printk. */
	ra_real_trace = impl == &ra_ours || (impl->flags & RA_IMPL_OWN_TRACE);
	if (ra_real_trace) {
		h_debugfs_write("readahead/stats", "0");
		if (ra_trace_file || ftrace_path) {
			shim_trace_sink = trace_sink;
			h_debugfs_write("readahead/trace_enable", "1");
		}
	}
	timeline_file = open_out(timeline_path, impl->name);
	fs_folio_log = open_out(folios_path, impl->name);
	if (blktrace_dir)
		blkt_start(disks, nr_disks, blktrace_dir, impl->name);
	prefill();
	/* Traced from here: pre_cached pages were there before. */
	if (ftrace_path)
		ftrace_start(open_out(ftrace_path, impl->name), sys.cpus);
	outcomes = outcomes_start(impl);
	readers_create();
	readers_start();
	if (timeline_file)
		ev_at(0, report_timeline_sample, NULL, 0);
	t0 = cpu_seconds();
	while (ev_step())
		;
	if (!readers_all_done())
		sim_die("sim: %s: readers left sleeping with no event pending",
			impl->name);
	if (outcomes)
		outcomes_stop(impl);
	report_json = open_out(json_path, impl->name);
	report(out, cpu_seconds() - t0);
	if (report_json)
		fclose(report_json);
	report_json = NULL;
	blkt_stop(disks, nr_disks);
	if (ra_trace_file)
		fclose(ra_trace_file);
	if (timeline_file)
		fclose(timeline_file);
	if (fs_folio_log)
		fclose(fs_folio_log);
	ftrace_stop();
}

static const struct ra_impl *replay_impl(const char *name)
{
	unsigned int i;

	for (i = 0; ra_replay_impls && ra_replay_impls[i]; i++)
		if (!strcmp(ra_replay_impls[i]->name, name))
			return ra_replay_impls[i];
	return NULL;
}

/* The models this binary runs, one a line: INDEX NAME COMMIT SUBJECT. */
static void list_impls(void)
{
	unsigned int i;

	for (i = 0; ra_replay_impls && ra_replay_impls[i]; i++) {
		const char *about = ra_replay_about ?
			ra_replay_about(ra_replay_impls[i]) : NULL;

		printf("%u\t%s\t%s\n", i, ra_replay_impls[i]->name,
		       about ? about : "-\t-");
	}
}

static void copy_out(FILE *from)
{
	char buf[65536];
	size_t n;

	rewind(from);
	while ((n = fread(buf, 1, sizeof(buf), from)))
		fwrite(buf, 1, n, stdout);
	fclose(from);
}

int main(int argc, char **argv)
{
	const char *impl = "both";
	int i;

	if (argc == 2 && !strcmp(argv[1], "--list-impls")) {
		list_impls();
		return 0;
	}
	for (i = 1; i < argc && !strncmp(argv[i], "--", 2); i++) {
		const char *opt = argv[i];

		if (i + 1 >= argc) {
			if (known_option(opt))
				fprintf(stderr, "ra_sim: option '%s' needs an argument\n",
					opt);
			usage();
		}
		if (!strcmp(opt, "--impl")) {
			impl = argv[++i];
		} else if (!strcmp(opt, "--define")) {
			char *eq = strchr(argv[++i], '=');

			if (!eq)
				usage();
			*eq = '\0';
			jobfile_define(argv[i], eq + 1);
		} else if (!strcmp(opt, "--seed")) {
			if (parse_uint(argv[++i], &seed_arg))
				usage();
			seed_set = true;
		} else if (!strcmp(opt, "--trace")) {
			trace_path = argv[++i];
		} else if (!strcmp(opt, "--timeline")) {
			timeline_path = argv[++i];
		} else if (!strcmp(opt, "--blktrace")) {
			blktrace_dir = argv[++i];
		} else if (!strcmp(opt, "--folios")) {
			folios_path = argv[++i];
		} else if (!strcmp(opt, "--ftrace")) {
			ftrace_path = argv[++i];
		} else if (!strcmp(opt, "--outcomes")) {
			outcomes_path = argv[++i];
		} else if (!strcmp(opt, "--json")) {
			json_path = argv[++i];
		} else {
			usage();
		}
	}
	if (argc - i != 2) {
		fprintf(stderr, "ra_sim: %d argument%s after the options, expected MACHINE.disks JOBS.fio\n",
			argc - i, argc - i == 1 ? "" : "s");
		usage();
	}
	if (strcmp(impl, "ours") && strcmp(impl, "both") &&
	    strcmp(impl, "pristine") && strcmp(impl, "all") &&
	    strcmp(impl, ra_pristine61.name) && !replay_impl(impl))
		usage();
	if (diskdesc_parse(argv[i]) || jobfile_parse(argv[i + 1]) ||
	    make_files())
		return 1;
	if (seed_set)
		sys.seed = seed_arg;

	if (replay_impl(impl)) {
		run(replay_impl(impl), stdout);
	} else if (!strcmp(impl, "ours")) {
		run(&ra_ours, stdout);
	} else if (!strcmp(impl, "pristine")) {
		run(&ra_pristine, stdout);
	} else if (!strcmp(impl, ra_pristine61.name)) {
		run(&ra_pristine61, stdout);
	} else {
		const struct ra_impl *impls[3] = {
			&ra_ours, &ra_pristine, &ra_pristine61
		};
		int nr = strcmp(impl, "all") ? 2 : 3;
		FILE *outs[3];
		pid_t pids[3];
		int k, status, failed = 0;

		fflush(stdout);
		for (k = 0; k < nr; k++) {
			outs[k] = tmpfile();
			if (!outs[k])
				sim_die("sim: cannot create a temporary file");
			pids[k] = fork();
			if (pids[k] < 0)
				sim_die("sim: fork failed");
			if (!pids[k]) {
				run(impls[k], outs[k]);
				fflush(outs[k]);
				_exit(0);
			}
		}
		for (k = 0; k < nr; k++) {
			if (waitpid(pids[k], &status, 0) < 0 ||
			    !WIFEXITED(status) || WEXITSTATUS(status))
				failed = 1;
			copy_out(outs[k]);
			if (k < nr - 1)
				printf("\n");
		}
		if (failed) {
			fprintf(stderr, "sim: a run failed\n");
			return 1;
		}
	}
	return 0;
}
