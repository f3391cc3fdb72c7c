// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - reading trace input: files or stdin, line by line, counting
 * parsed, skipped and other lines and reporting unparsable ones.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

static void trace_add(struct trace *t, const struct ra_rec *rec)
{
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 256;
		t->recs = xrealloc(t->recs, t->alloc * sizeof(*t->recs));
	}
	t->recs[t->nr++] = *rec;
}

static unsigned int trace_add_src(struct trace *t, const char *path)
{
	t->srcs = xrealloc(t->srcs, (t->nr_srcs + 1) * sizeof(*t->srcs));
	t->srcs[t->nr_srcs] = path;
	return t->nr_srcs++;
}

/*
 * Read one input ("-" is stdin) into @t.  Returns 0, or -1 after printing
 * an error if the input cannot be opened or read.
 */
int input_read(struct trace *t, const char *path)
{
	const char *shown = strcmp(path, "-") ? path : "<stdin>";
	unsigned long lineno = 0;
	struct ra_rec rec;
	const char *why;
	size_t cap = 0;
	char *line = NULL;
	unsigned int src;
	ssize_t len;
	FILE *f;
	int ret = 0;

	f = strcmp(path, "-") ? fopen(path, "r") : stdin;
	if (!f) {
		fprintf(stderr, "ra_analyze: %s: %s\n", path, strerror(errno));
		return -1;
	}
	src = trace_add_src(t, shown);
	while ((len = getline(&line, &cap, f)) >= 0) {
		lineno++;
		while (len && (line[len - 1] == '\n' || line[len - 1] == '\r'))
			line[--len] = '\0';
		switch (ra_parse_line(line, &rec, &why)) {
		case RA_PARSE_OK:
			rec.src = src;
			rec.lineno = lineno;
			trace_add(t, &rec);
			t->parsed++;
			break;
		case RA_PARSE_OTHER:
			t->other++;
			break;
		case RA_PARSE_BAD:
			fprintf(stderr,
				"ra_analyze: %s:%lu: cannot parse: %s\n",
				shown, lineno, why);
			t->skipped++;
			break;
		}
	}
	if (ferror(f)) {
		fprintf(stderr, "ra_analyze: %s: read error: %s\n", path,
			strerror(errno));
		ret = -1;
	}
	free(line);
	if (f != stdin)
		fclose(f);
	return ret;
}

void trace_free(struct trace *t)
{
	size_t i;

	for (i = 0; i < t->nr; i++)
		ra_rec_free(&t->recs[i]);
	free(t->recs);
	for (i = 0; i < t->nr_streams; i++)
		free(t->streams[i].recs);
	free(t->streams);
	free(t->srcs);
	memset(t, 0, sizeof(*t));
}
