// SPDX-License-Identifier: GPL-2.0
/*
 * input.c - reading trace input: files or stdin, line by line, counting
 * parsed, skipped and other lines and reporting unparsable ones; each
 * parsed line kept as a decision, an outcome event or a stock event.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

static unsigned int intern_file(struct trace *t, struct ra_rec *rec)
{
	unsigned long long key[4];
	unsigned int *slot;
	struct ra_file *f;

	if (!t->file_map.words)
		hmap_init(&t->file_map, 4);
	key[0] = (unsigned long long)rec->major << 32 | rec->minor;
	key[1] = rec->ino;
	key[2] = strtab_add(&t->strs, rec->bdev);
	key[3] = strtab_add(&t->strs, rec->name);
	rec->bdev = rec->name = NULL;
	slot = hmap_slot(&t->file_map, key);
	if (*slot != ~0u)
		return *slot;
	t->files = grow(t->files, &t->alloc_files, t->nr_files,
			sizeof(*t->files));
	f = &t->files[t->nr_files];
	f->major = rec->major;
	f->minor = rec->minor;
	f->ino = rec->ino;
	f->bdev = key[2];
	f->name = key[3];
	return *slot = t->nr_files++;
}

static unsigned int intern_proc(struct trace *t, struct ra_rec *rec)
{
	unsigned long long key[2];
	unsigned int *slot;

	if (!t->proc_map.words)
		hmap_init(&t->proc_map, 2);
	key[0] = rec->pid;
	key[1] = strtab_add(&t->strs, rec->comm);
	rec->comm = NULL;
	slot = hmap_slot(&t->proc_map, key);
	if (*slot != ~0u)
		return *slot;
	t->procs = grow(t->procs, &t->alloc_procs, t->nr_procs,
			sizeof(*t->procs));
	t->procs[t->nr_procs].pid = rec->pid;
	t->procs[t->nr_procs].comm = key[1];
	return *slot = t->nr_procs++;
}

/* A new record at the end of the trace's, zeroed. */
struct ra_win *trace_new_rec(struct trace *t)
{
	struct ra_win *w;

	if (t->nr == RA_MAX_RECS) {
		fputs("ra_analyze: too many trace lines\n", stderr);
		exit(1);
	}
	t->recs = grow(t->recs, &t->alloc, t->nr, sizeof(*t->recs));
	w = &t->recs[t->nr++];
	memset(w, 0, sizeof(*w));
	return w;
}

/* Keep a stock kernel's event: its file and task go to the tables. */
static void stock_keep(struct trace *t, struct ra_rec *rec,
		       struct stock_ev *ev)
{
	ev->file = intern_file(t, rec);
	ev->proc = intern_proc(t, rec);
	stock_add(t, ev);
}

/* Keep a patched kernel's outcome event: its file and pattern, no task. */
static void kout_keep(struct trace *t, struct ra_rec *rec, struct ra_kout *ko)
{
	ko->pattern = strtab_add(&t->strs, rec->pattern);
	rec->pattern = NULL;
	ko->file = intern_file(t, rec);
	ra_rec_free(rec);
	kout_add(t, ko);
}

/* Keep @rec: its strings go to the trace's tables. */
static void trace_add(struct trace *t, struct ra_rec *rec)
{
	struct ra_win *w = trace_new_rec(t);

	w->lineno = rec->lineno;
	w->req_off = rec->req_off;
	w->req_size = rec->req_size;
	w->start = rec->start;
	w->size = rec->size;
	w->async_size = rec->async_size;
	w->async = rec->async;
	w->miss = rec->miss;
	w->actual = rec->actual;
	w->src = rec->src;
	w->highlighted = !!rec->highlighted;
	w->has_miss = !!rec->has_miss;
	/* A marker left to another reader: a decision, not a window. */
	w->defer = !strcmp(rec->pattern, "defer");
	w->pattern = strtab_add(&t->strs, rec->pattern);
	rec->pattern = NULL;
	w->file = intern_file(t, rec);
	w->proc = intern_proc(t, rec);
}

/*
 * One line: an outcome event (first: its task may be "readahead-..."),
 * a decision, a stock kernel's event, or other; counted as parsed,
 * skipped (and reported) or other.
 */
static void add_line(struct trace *t, const char *line, unsigned int src,
		     unsigned long lineno, const char *shown)
{
	enum ra_parse_result res;
	struct stock_ev ev;
	struct ra_kout ko;
	struct ra_rec rec;
	const char *why;

	res = kout_parse_line(line, &rec, &ko, &why);
	if (res == RA_PARSE_OK) {
		ko.src = src;
		ko.lineno = lineno;
		kout_keep(t, &rec, &ko);
	}
	if (res == RA_PARSE_OTHER) {
		res = ra_parse_line(line, &rec, &why);
		if (res == RA_PARSE_OK) {
			rec.src = src;
			rec.lineno = lineno;
			trace_add(t, &rec);
		}
	}
	if (res == RA_PARSE_OTHER) {
		res = stock_parse_line(line, &rec, &ev, &why);
		if (res == RA_PARSE_OK) {
			ev.src = src;
			ev.lineno = lineno;
			stock_keep(t, &rec, &ev);
		}
	}
	if (res == RA_PARSE_OK) {
		t->parsed++;
	} else if (res == RA_PARSE_OTHER) {
		t->other++;
	} else {
		fprintf(stderr, "ra_analyze: %s:%lu: cannot parse: %s\n",
			shown, lineno, why);
		t->skipped++;
	}
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
		add_line(t, line, src, lineno, shown);
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
	free(t->recs);
	strtab_free(&t->strs);
	free(t->files);
	hmap_free(&t->file_map);
	free(t->procs);
	hmap_free(&t->proc_map);
	free(t->streams);
	free(t->stream_recs);
	free(t->srcs);
	free(t->kouts);
	stock_free(t->stock);
	memset(t, 0, sizeof(*t));
}
