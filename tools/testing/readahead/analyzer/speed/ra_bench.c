// SPDX-License-Identifier: GPL-2.0
/*
 * ra_bench.c - the analyzer benchmark: writes a large synthetic trace and
 * times ra_analyze on it.
 *
 *   ra_bench gen LINES FILE         write LINES lines of trace to FILE
 *   ra_bench run FILE CMD [ARG]...  run CMD ARG... FILE, stdout to
 *                                   /dev/null; print its wall time, CPU
 *                                   time and peak RSS (getrusage)
 *
 * The trace is the shape of a long time_based fio run on the machine of
 * the July 2009 4 KB read(2) report: 13 disks (sda1..sdm1), four 1 GB
 * files each, read round and round: f0 by 3 readers from the start (as
 * in the 2009 report: each reader its own stream, the readers stepping
 * on each other, duplicates and all-cached windows), f1 by 3 readers a
 * third of the file apart, f2 by one reader, f3 by one mmap reader
 * ("around", "random", miss=).  Windows grow 4, 8, 16, 32 to 64 pages;
 * now and then a shrink, a sync readahead mid-stream or a marker hit.
 * One line in 64 carries a dmesg timestamp, one in 50 is some other
 * text.  The same LINES give the same file, byte for byte (a fixed
 * linear congruential generator, no libc random).
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <fcntl.h>

/*
 * The trace's text, READAHEAD_TRACE_FMT, from the kernel's own header:
 * its format part only (the event itself needs the kernel), so the guard
 * of the event part is set first; its closing <trace/define_trace.h> is
 * the library's empty stand-in (-I lib/include/).
 */
#define _TRACE_READAHEAD_H
#include <stdbool.h>
#include <sys/types.h>
typedef unsigned long pgoff_t;		/* the kernel types its structs use */
typedef unsigned long long u64;
#include "../../../../../include/trace/events/readahead.h"

#define NR_DISKS	13
#define FILES_PER_DISK	4
#define NR_FILES	(NR_DISKS * FILES_PER_DISK)
#define FILE_PAGES	262144ULL	/* 1 GB */
#define MAX_WIN		64

static unsigned long long rng = 0x2009;

static unsigned int rnd(unsigned int n)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned int)(rng >> 33) % n;
}

struct reader {
	unsigned int pid, file;
	int mmap;
	unsigned long long base;	/* where it starts reading */
	unsigned long long start, size;	/* the last window */
};

static struct reader readers[NR_DISKS * 10];
static unsigned int nr_readers;
static unsigned long long high[NR_FILES];	/* pages read so far */

static void setup(void)
{
	static const unsigned int per_file[FILES_PER_DISK] = { 3, 3, 1, 1 };
	unsigned int d, f, k;

	for (d = 0; d < NR_DISKS; d++)
		for (f = 0; f < FILES_PER_DISK; f++)
			for (k = 0; k < per_file[f]; k++) {
				struct reader *r = &readers[nr_readers];

				r->pid = 3000 + nr_readers;
				r->file = d * FILES_PER_DISK + f;
				r->mmap = f == 3;
				/* f1: fio's offset_increment, a third each */
				if (f == 1)
					r->base = k * (FILE_PAGES / 3);
				nr_readers++;
			}
}

static void line(FILE *out, const struct reader *r, const char *pattern,
		 unsigned long long req, unsigned long long start,
		 unsigned long long size, unsigned long long async_size,
		 int async, unsigned long long actual, unsigned long n)
{
	unsigned int disk = r->file / FILES_PER_DISK;
	char dev[8], name[16], miss[READAHEAD_TRACE_MISS_LEN] = "";

	if (!(n % 64))
		fprintf(out, "[%6lu.%06lu] ", n / 1000, (n * 7919) % 1000000);
	snprintf(dev, sizeof(dev), "sd%c1", 'a' + disk);
	snprintf(name, sizeof(name), "f%u", r->file % FILES_PER_DISK);
	if (r->mmap)
		snprintf(miss, sizeof(miss), ", miss=%u", rnd(4));
	fprintf(out, READAHEAD_TRACE_FMT "\n", pattern, (int)r->pid,
		r->mmap ? "fio-mmap" : "fio", 8, disk * 16 + 1, dev,
		(unsigned long)(12 + r->file % FILES_PER_DISK), name,
		(unsigned long)req, 1UL, (unsigned long)start,
		(unsigned long)size, (unsigned long)async_size, async, miss,
		(unsigned long)actual);
}

/* Pages of [start, start+size) beyond what the file's readers read. */
static unsigned long long fresh(struct reader *r, unsigned long long start,
				unsigned long long size)
{
	unsigned long long *h = &high[r->file], end = start + size, n;

	if (end <= *h)
		return 0;
	n = end - (start > *h ? start : *h);
	*h = end;
	return n;
}

static int gen(unsigned long lines, const char *path)
{
	FILE *out = fopen(path, "w");
	unsigned long n;

	if (!out) {
		fprintf(stderr, "ra_bench: %s: %s\n", path, strerror(errno));
		return 1;
	}
	setup();
	for (n = 0; n < lines; n++) {
		struct reader *r = &readers[rnd(nr_readers)];
		unsigned long long start, size, req;
		unsigned int ev = rnd(1000);

		if (!(n % 50) && n) {
			fprintf(out, "fio: job %u: still running, %lu ios\n",
				r->pid, n);
			continue;
		}
		if (r->mmap && ev < 100) {
			/* A fault outside the window: random or read-around. */
			req = rnd(FILE_PAGES);
			if (ev < 30) {
				line(out, r, "random", req, req, 1, 0, 0,
				     fresh(r, req, 1) ? 1 : 0, n);
			} else {
				start = req > 16 ? req - 16 : 0;
				line(out, r, "around", req, start, 32, 0, 0,
				     rnd(2) ? 32 : 0, n);
			}
			continue;
		}
		if (!r->size || r->start + r->size >= FILE_PAGES) {
			/* Start (again) at the beginning: fio loops. */
			r->start = r->base;
			r->size = 4;
			if (high[r->file] >= FILE_PAGES)
				high[r->file] = 0;	/* evicted since */
			line(out, r, "initial0", r->base, r->base, 4, 3, 0,
			     fresh(r, r->base, 4), n);
			continue;
		}
		req = r->start + r->size / 2;
		start = r->start + r->size;
		size = r->size < MAX_WIN ? 2 * r->size : MAX_WIN;
		if (ev < 10 && r->size == MAX_WIN) {
			/* A window of twice the size, then back: a shrink. */
			size = 2 * MAX_WIN;
		} else if (ev < 20) {
			/* Another reader moved the stream: sync, mid-stream. */
			start = req + 1;
			line(out, r, "context", req, start, size, size, 0,
			     fresh(r, start, size), n);
			r->start = start;
			r->size = size;
			continue;
		} else if (ev < 60) {
			/* Another reader's window, re-issued: a duplicate. */
			start = high[r->file] > 2 * MAX_WIN ?
				high[r->file] - 2 * MAX_WIN : 0;
			start &= ~(unsigned long long)(MAX_WIN - 1);
		}
		if (start + size > FILE_PAGES)
			size = FILE_PAGES - start;
		line(out, r, ev < 200 ? "marker" : "subsequent", req, start,
		     size, size, 1, fresh(r, start, size), n);
		r->start = start;
		r->size = size;
	}
	if (fclose(out)) {
		fprintf(stderr, "ra_bench: %s: %s\n", path, strerror(errno));
		return 1;
	}
	return 0;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}

static int run(const char *path, char **argv)
{
	struct rusage ru;
	double t0, wall;
	int status, argc, fd;
	char **args;
	pid_t pid;

	for (argc = 0; argv[argc]; argc++)
		;
	args = calloc(argc + 2, sizeof(*args));
	if (!args)
		return 1;
	memcpy(args, argv, argc * sizeof(*args));
	args[argc] = (char *)path;
	t0 = now();
	pid = fork();
	if (pid < 0) {
		perror("ra_bench: fork");
		return 1;
	}
	if (!pid) {
		fd = open("/dev/null", O_WRONLY);
		if (fd < 0 || dup2(fd, 1) < 0)
			_exit(127);
		execvp(args[0], args);
		fprintf(stderr, "ra_bench: %s: %s\n", args[0], strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("ra_bench: waitpid");
		return 1;
	}
	wall = now() - t0;
	/* The only child waited for: its times and its peak RSS. */
	getrusage(RUSAGE_CHILDREN, &ru);
	printf("ra_bench: %s: wall %.2f s, user %.2f s, sys %.2f s, peak RSS %ld MB%s\n",
	       path, wall, ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6,
	       ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6,
	       ru.ru_maxrss / 1024,
	       WIFEXITED(status) && !WEXITSTATUS(status) ? "" :
	       " (the command failed)");
	free(args);
	return !WIFEXITED(status) || WEXITSTATUS(status);
}

int main(int argc, char **argv)
{
	char *end;
	unsigned long lines;

	if (argc == 4 && !strcmp(argv[1], "gen")) {
		lines = strtoul(argv[2], &end, 10);
		if (*end || !lines) {
			fprintf(stderr, "ra_bench: bad line count '%s'\n",
				argv[2]);
			return 2;
		}
		return gen(lines, argv[3]);
	}
	if (argc >= 4 && !strcmp(argv[1], "run"))
		return run(argv[2], argv + 3);
	fprintf(stderr, "usage: ra_bench gen LINES FILE\n"
		"       ra_bench run FILE CMD [ARG]...\n");
	return 2;
}
