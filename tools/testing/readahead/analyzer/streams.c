// SPDX-License-Identifier: GPL-2.0
/*
 * streams.c - per-stream window sequences and the flags a maintainer looks
 * for: a stream is one (pid, dev, ino); its windows are kept in trace
 * order.  Flags: duplicate, all-cached, shrink, sync-mid-stream (and the
 * "==>" highlight carried over from the input).  Prints the "# streams",
 * "# flags", "# flag_lines" and "# windows" tables.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

static const char *const flag_names[] = {
	"duplicate", "all-cached", "shrink", "sync-mid-stream",
};
#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define NR_FLAGS ARRAY_SIZE(flag_names)

static int same_stream(const struct ra_rec *a, const struct ra_rec *b)
{
	return a->pid == b->pid && a->major == b->major &&
	       a->minor == b->minor && a->ino == b->ino;
}

static int same_file(const struct ra_rec *a, const struct ra_rec *b)
{
	return a->major == b->major && a->minor == b->minor &&
	       a->ino == b->ino;
}

static void stream_add(struct ra_stream *s, size_t rec)
{
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->recs = xrealloc(s->recs, s->alloc * sizeof(*s->recs));
	}
	s->recs[s->nr++] = rec;
}

static void assign_streams(struct trace *t)
{
	size_t i, j, alloc = 0;

	for (i = 0; i < t->nr; i++) {
		for (j = t->nr_streams; j-- > 0;)
			if (same_stream(&t->recs[t->streams[j].recs[0]],
					&t->recs[i]))
				break;
		if (j == (size_t)-1) {
			if (t->nr_streams == alloc) {
				alloc = alloc ? 2 * alloc : 16;
				t->streams = xrealloc(t->streams, alloc *
						      sizeof(*t->streams));
			}
			j = t->nr_streams++;
			memset(&t->streams[j], 0, sizeof(t->streams[j]));
		}
		stream_add(&t->streams[j], i);
		t->recs[i].stream = j;
	}
}

/* Flags that only need the stream's own history. */
static void flag_stream(struct trace *t, const struct ra_stream *s)
{
	struct ra_rec *r, *prev;
	size_t k;

	for (k = 0; k < s->nr; k++) {
		r = &t->recs[s->recs[k]];
		if (!r->actual)
			r->flags |= RA_F_CACHED;
		if (!k)
			continue;
		prev = &t->recs[s->recs[k - 1]];
		if (!r->async)
			r->flags |= RA_F_SYNCMID;
		if (r->start > prev->start && r->size < prev->size)
			r->flags |= RA_F_SHRINK;
	}
}

static int overlap(const struct ra_rec *a, const struct ra_rec *b)
{
	return a->start < b->start + b->size && b->start < a->start + a->size;
}

static const struct trace *sort_trace;

/* Order record indices by file, then by trace order. */
static int cmp_file(const void *pa, const void *pb)
{
	size_t ia = *(const size_t *)pa, ib = *(const size_t *)pb;
	const struct ra_rec *a = &sort_trace->recs[ia];
	const struct ra_rec *b = &sort_trace->recs[ib];

	if (a->major != b->major)
		return a->major < b->major ? -1 : 1;
	if (a->minor != b->minor)
		return a->minor < b->minor ? -1 : 1;
	if (a->ino != b->ino)
		return a->ino < b->ino ? -1 : 1;
	return ia < ib ? -1 : ia > ib;
}

/*
 * A window is a duplicate if it overlaps a window another process issued
 * earlier on the same file.  The partner reported is the latest earlier
 * window with the same START if there is one, else the latest overlapping
 * one.
 */
static void flag_duplicates(struct trace *t)
{
	size_t *idx = xmalloc(t->nr * sizeof(*idx));
	size_t i, j, first, same, any;
	struct ra_rec *r, *e;

	for (i = 0; i < t->nr; i++)
		idx[i] = i;
	sort_trace = t;
	qsort(idx, t->nr, sizeof(*idx), cmp_file);
	for (first = 0, i = 0; i < t->nr; i++) {
		r = &t->recs[idx[i]];
		if (!same_file(&t->recs[idx[first]], r))
			first = i;
		same = any = (size_t)-1;
		for (j = i; j-- > first;) {
			e = &t->recs[idx[j]];
			if (e->pid == r->pid || !overlap(e, r))
				continue;
			if (any == (size_t)-1)
				any = idx[j];
			if (e->start == r->start) {
				same = idx[j];
				break;
			}
		}
		if (any != (size_t)-1) {
			r->flags |= RA_F_DUP;
			r->dup_of = same != (size_t)-1 ? same : any;
		}
	}
	free(idx);
}

void streams_build(struct trace *t)
{
	size_t i;

	assign_streams(t);
	for (i = 0; i < t->nr_streams; i++)
		flag_stream(t, &t->streams[i]);
	flag_duplicates(t);
}

/* Where a record came from: "LINE", or "FILE:LINE" with several inputs. */
const char *rec_where(const struct trace *t, const struct ra_rec *r,
		      char *buf, size_t len)
{
	if (t->nr_srcs > 1)
		snprintf(buf, len, "%s:%lu", t->srcs[r->src], r->lineno);
	else
		snprintf(buf, len, "%lu", r->lineno);
	return buf;
}

static void print_streams(FILE *out, const struct trace *t)
{
	const struct ra_stream *s;
	const struct ra_rec *r;
	unsigned long count[NR_FLAGS];
	char b1[64], b2[64];
	size_t i, k, f;

	fprintf(out, "# streams\n");
	fprintf(out, "%-6s %-8s %-16s %-6s %-10s %-12s %6s %-8s %-8s",
		"stream", "pid", "comm", "dev", "ino", "name", "calls",
		"first", "last");
	for (f = 0; f < NR_FLAGS; f++)
		fprintf(out, " %s", flag_names[f]);
	fputc('\n', out);
	for (i = 0; i < t->nr_streams; i++) {
		s = &t->streams[i];
		memset(count, 0, sizeof(count));
		for (k = 0; k < s->nr; k++)
			for (f = 0; f < NR_FLAGS; f++)
				if (t->recs[s->recs[k]].flags & (1u << f))
					count[f]++;
		r = &t->recs[s->recs[0]];
		fprintf(out, "%-6zu %-8lu ", i + 1, r->pid);
		print_field(out, r->comm, 16);
		fprintf(out, " %02x:%02x  %-10llu ", r->major, r->minor,
			r->ino);
		print_field(out, r->name, 12);
		fprintf(out, " %6zu %-8s %-8s", s->nr,
			rec_where(t, r, b1, sizeof(b1)),
			rec_where(t, &t->recs[s->recs[s->nr - 1]], b2,
				  sizeof(b2)));
		for (f = 0; f < NR_FLAGS; f++)
			fprintf(out, " %*lu", (int)strlen(flag_names[f]),
				count[f]);
		fputc('\n', out);
	}
}

void streams_print_flags(FILE *out, const struct trace *t)
{
	unsigned long count[NR_FLAGS] = { 0 }, hl = 0;
	const struct ra_rec *r, *o;
	char b1[64], b2[64];
	size_t i, f;

	print_streams(out, t);
	for (i = 0; i < t->nr; i++) {
		for (f = 0; f < NR_FLAGS; f++)
			if (t->recs[i].flags & (1u << f))
				count[f]++;
		hl += t->recs[i].highlighted;
	}
	fprintf(out, "# flags\n%-16s %6s\n", "flag", "count");
	for (f = 0; f < NR_FLAGS; f++)
		fprintf(out, "%-16s %6lu\n", flag_names[f], count[f]);
	fprintf(out, "%-16s %6lu\n", "highlighted", hl);

	fprintf(out, "# flag_lines\n%-16s %-8s %-6s %-8s %-8s %-8s\n", "flag",
		"line", "stream", "pid", "other", "other_pid");
	for (i = 0; i < t->nr; i++) {
		r = &t->recs[i];
		for (f = 0; f < NR_FLAGS; f++) {
			if (!(r->flags & (1u << f)))
				continue;
			fprintf(out, "%-16s %-8s %-6zu %-8lu ", flag_names[f],
				rec_where(t, r, b1, sizeof(b1)),
				r->stream + 1, r->pid);
			if ((1u << f) == RA_F_DUP) {
				o = &t->recs[r->dup_of];
				fprintf(out, "%-8s %lu\n",
					rec_where(t, o, b2, sizeof(b2)),
					o->pid);
			} else {
				fprintf(out, "%-8s %s\n", "-", "-");
			}
		}
		if (r->highlighted)
			fprintf(out, "%-16s %-8s %-6zu %-8lu %-8s %s\n",
				"highlighted", rec_where(t, r, b1, sizeof(b1)),
				r->stream + 1, r->pid, "-", "-");
	}
}

static void print_flag_list(FILE *out, const struct ra_rec *r)
{
	const char *sep = "";
	size_t f;

	for (f = 0; f < NR_FLAGS; f++) {
		if (r->flags & (1u << f)) {
			fprintf(out, "%s%s", sep, flag_names[f]);
			sep = ",";
		}
	}
	if (r->highlighted) {
		fprintf(out, "%shighlighted", sep);
		sep = ",";
	}
	fprintf(out, "%s\n", *sep ? "" : "-");
}

/* The --streams output: every stream's windows, in trace order. */
void streams_print_windows(FILE *out, const struct trace *t)
{
	const struct ra_stream *s;
	const struct ra_rec *r;
	size_t i, k;
	char b[64];

	fprintf(out, "# windows\n");
	fprintf(out, "%-6s %-8s %-12s %10s %6s %10s %6s %10s %5s ",
		"stream", "line", "pattern", "req_off", "req", "start",
		"size", "async_size", "async");
	fprintf(out, "%6s %6s %s\n", "miss", "actual", "flags");
	for (i = 0; i < t->nr_streams; i++) {
		s = &t->streams[i];
		for (k = 0; k < s->nr; k++) {
			r = &t->recs[s->recs[k]];
			fprintf(out, "%-6zu %-8s %-12s %10llu %6llu ", i + 1,
				rec_where(t, r, b, sizeof(b)), r->pattern,
				r->req_off, r->req_size);
			fprintf(out, "%10llu %6llu %10llu %5llu ", r->start,
				r->size, r->async_size, r->async);
			if (r->has_miss)
				fprintf(out, "%6llu ", r->miss);
			else
				fprintf(out, "%6s ", "-");
			fprintf(out, "%6llu ", r->actual);
			print_flag_list(out, r);
		}
	}
}
