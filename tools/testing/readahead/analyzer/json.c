// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - ra_analyze --json: the tables' figures as JSON lines, one
 * object a line (as fio's --output-format=json is one object a run): a
 * "stream" record per stream, a "file" record per file, then a "lines"
 * record.  A stream's and a file's "outcome" is null unless the windows
 * were inferred from a stock kernel's events; within it, what the trace
 * cannot tell (the use of a page, in a trace without access events) is
 * null too.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

static void json_str(FILE *out, const char *s)
{
	fputc('"', out);
	for (; *s; s++) {
		unsigned char c = *s;

		if (c == '"' || c == '\\')
			fprintf(out, "\\%c", c);
		else if (c < 0x20)
			fprintf(out, "\\u%04x", c);
		else
			fputc(c, out);
	}
	fputc('"', out);
}

/* The windows' counts of a stream or a file. */
struct counts {
	unsigned long windows, defer, sync, async, untold, cached;
	unsigned long long pages, window_pages;
};

static void counts_add(struct counts *c, const struct ra_win *r)
{
	if (r->defer) {
		c->defer++;
		return;
	}
	c->windows++;
	c->pages += r->actual;
	c->window_pages += r->size;
	if (r->untold)
		c->untold++;
	else if (r->async)
		c->async++;
	else
		c->sync++;
	c->cached += !r->actual;
}

static void json_counts(FILE *out, const struct counts *c)
{
	fprintf(out,
		"\"windows\":%lu,\"defer\":%lu,\"sync\":%lu,\"async\":%lu,\"trigger_unknown\":%lu,\"all_cached\":%lu,\"pages\":%llu,\"window_pages\":%llu",
		c->windows, c->defer, c->sync, c->async, c->untold, c->cached,
		c->pages, c->window_pages);
}

static void json_outcome(FILE *out, const struct ra_outcome *o, int uses)
{
	if (!o) {
		fputs(",\"outcome\":null", out);
		return;
	}
	fprintf(out, ",\"outcome\":{\"stalls\":%lu,\"pages\":%llu,", o->stalls,
		o->pages);
	if (uses)
		fprintf(out, "\"used\":%llu,", o->used);
	else
		fputs("\"used\":null,", out);
	fprintf(out, "\"evicted_unused\":%llu,", o->evicted);
	if (uses)
		fprintf(out, "\"cached_unused\":%llu,", o->cached);
	else
		fputs("\"cached_unused\":null,", out);
	fprintf(out, "\"read_twice\":%llu,", o->twice);
	if (uses && o->pages)
		fprintf(out, "\"used_per_read\":%.6f,",
			(double)o->used / o->pages);
	else
		fputs("\"used_per_read\":null,", out);
	if (uses && o->used)
		fprintf(out, "\"lead_ms\":%.6f,", o->lead_ns / 1e6 / o->used);
	else
		fputs("\"lead_ms\":null,", out);
	fprintf(out, "\"thrashing\":%s}",
		ra_outcome_thrashing(o) ? "true" : "false");
}

static void json_file(FILE *out, const struct trace *t,
		      const struct ra_file *f)
{
	fprintf(out, "\"dev\":\"%02x:%02x\",\"ino\":%llu,\"bdev\":", f->major,
		f->minor, f->ino);
	json_str(out, rec_str(t, f->bdev));
	fputs(",\"name\":", out);
	json_str(out, rec_str(t, f->name));
}

void json_print(FILE *out, const struct trace *t)
{
	struct ra_outcome *o = stock_outcomes(t), *fo = NULL;
	struct counts *sc, *fc;
	unsigned int *fstream, *slot, nr_files = 0;
	unsigned long long key[2];
	int uses = stock_has_uses(t);
	struct hmap map;
	size_t i, k;

	sc = xcalloc(t->nr_streams, sizeof(*sc));
	for (i = 0; i < t->nr; i++)
		counts_add(&sc[t->recs[i].stream], &t->recs[i]);
	/* Files by (dev, ino), in order of first appearance. */
	fc = xcalloc(t->nr_streams, sizeof(*fc));
	fstream = xmalloc((t->nr_streams + 1) * sizeof(*fstream));
	if (o)
		fo = xcalloc(t->nr_streams, sizeof(*fo));
	hmap_init(&map, 2);

	for (i = 0; i < t->nr_streams; i++) {
		const struct ra_stream *s = &t->streams[i];
		const struct ra_win *r = &t->recs[s->recs[0]];
		const struct ra_file *f = rec_file(t, r);
		const struct ra_proc *p = rec_proc(t, r);
		unsigned long flag[4] = { 0 };

		for (k = 0; k < s->nr; k++) {
			unsigned char fl = t->recs[s->recs[k]].flags;

			flag[0] += !!(fl & RA_F_DUP);
			flag[1] += !!(fl & RA_F_CACHED);
			flag[2] += !!(fl & RA_F_SHRINK);
			flag[3] += !!(fl & RA_F_SYNCMID);
		}
		fprintf(out, "{\"record\":\"stream\",\"stream\":%zu,\"pid\":%lu,\"comm\":",
			i + 1, p->pid);
		json_str(out, rec_str(t, p->comm));
		fputc(',', out);
		json_file(out, t, f);
		fputc(',', out);
		json_counts(out, &sc[i]);
		fprintf(out,
			",\"flags\":{\"duplicate\":%lu,\"all_cached\":%lu,\"shrink\":%lu,\"sync_mid_stream\":%lu}",
			flag[0], flag[1], flag[2], flag[3]);
		json_outcome(out, o ? &o[i] : NULL, uses);
		fputs("}\n", out);

		key[0] = (unsigned long long)f->major << 32 | f->minor;
		key[1] = f->ino;
		slot = hmap_slot(&map, key);
		if (*slot == ~0u) {
			fstream[nr_files] = i;
			*slot = nr_files++;
		}
		fc[*slot].windows += sc[i].windows;
		fc[*slot].defer += sc[i].defer;
		fc[*slot].sync += sc[i].sync;
		fc[*slot].async += sc[i].async;
		fc[*slot].untold += sc[i].untold;
		fc[*slot].cached += sc[i].cached;
		fc[*slot].pages += sc[i].pages;
		fc[*slot].window_pages += sc[i].window_pages;
		if (o)
			ra_outcome_sum(&fo[*slot], &o[i]);
	}
	for (i = 0; i < nr_files; i++) {
		const struct ra_stream *s = &t->streams[fstream[i]];

		fputs("{\"record\":\"file\",", out);
		json_file(out, t, rec_file(t, &t->recs[s->recs[0]]));
		fputc(',', out);
		json_counts(out, &fc[i]);
		json_outcome(out, fo ? &fo[i] : NULL, uses);
		fputs("}\n", out);
	}
	fprintf(out,
		"{\"record\":\"lines\",\"parsed\":%lu,\"skipped\":%lu,\"other\":%lu,\"source\":\"%s\"}\n",
		t->parsed, t->skipped, t->other,
		o ? "stock" : "decisions");
	hmap_free(&map);
	free(sc);
	free(fc);
	free(fstream);
	free(o);
	free(fo);
}
