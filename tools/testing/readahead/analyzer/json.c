// SPDX-License-Identifier: GPL-2.0
/*
 * json.c - ra_analyze --json: the tables' figures as JSON lines, one
 * object a line (as fio's --output-format=json is one object a run): a
 * "stream" record per stream, a "file" record per file, a
 * "kernel_outcome" record per row of the kernel_outcomes tables ("by":
 * "file", "all" or "pattern") and an "outcome_agreement" record when
 * the trace has readahead_outcome events, then a "lines" record.  A
 * stream's and a file's "outcome" is null unless the windows were
 * inferred from a stock kernel's events; within an outcome, what the
 * trace cannot tell (the use of a page, in a trace without access
 * events; a page read twice, in the kernel's events) is null too.
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

/* Print @v, or null unless @told. */
static void json_ull(FILE *out, const char *key, unsigned long long v,
		     int told)
{
	if (told)
		fprintf(out, "\"%s\":%llu", key, v);
	else
		fprintf(out, "\"%s\":null", key);
}

static void json_outcome(FILE *out, const struct ra_outcome *o,
			 unsigned int told)
{
	int uses = told & RA_TOLD_USES;

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
	json_ull(out, "read_twice", o->twice, told & RA_TOLD_TWICE);
	fputc(',', out);
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

/* A kernel_outcome record's figures, after its key. */
static void json_kout_row(FILE *out, const struct ra_outcome *o)
{
	fprintf(out, ",\"windows\":%lu", o->windows);
	json_outcome(out, o, RA_TOLD_USES);
	fputs("}\n", out);
}

/* The kernel_outcomes tables' rows: per file, all, per pattern. */
static void json_kernel_outcomes(FILE *out, const struct trace *t)
{
	struct ra_outcome all = { 0 };
	struct kout_row *rows;
	size_t i, nr;

	nr = kout_rows(t, 0, &rows);
	for (i = 0; i < nr; i++) {
		fputs("{\"record\":\"kernel_outcome\",\"by\":\"file\",", out);
		json_file(out, t, &t->files[rows[i].key]);
		json_kout_row(out, &rows[i].o);
		ra_outcome_sum(&all, &rows[i].o);
	}
	free(rows);
	fputs("{\"record\":\"kernel_outcome\",\"by\":\"all\"", out);
	json_kout_row(out, &all);
	nr = kout_rows(t, 1, &rows);
	for (i = 0; i < nr; i++) {
		fputs("{\"record\":\"kernel_outcome\",\"by\":\"pattern\",\"pattern\":",
		      out);
		json_str(out, rec_str(t, rows[i].key));
		json_kout_row(out, &rows[i].o);
	}
	free(rows);
}

/* One side of the agreement: its windows and its matched pages. */
static void json_side(FILE *out, const char *side, unsigned long windows,
		      unsigned long matched, const struct ra_outcome *o,
		      int uses)
{
	fprintf(out,
		",\"%s\":{\"windows\":%lu,\"matched\":%lu,\"unmatched\":%lu,\"pages\":%llu,",
		side, windows, matched, windows - matched, o->pages);
	json_ull(out, "used", o->used, uses);
	fprintf(out, ",\"evicted\":%llu,", o->evicted);
	json_ull(out, "cached", o->cached, uses);
	fputc(',', out);
	json_ull(out, "unused", o->evicted + o->cached, uses);
	fputc('}', out);
}

static void json_pct(FILE *out, const char *key, unsigned long long kernel,
		     unsigned long long stock, int uses)
{
	double pct;

	if (uses && kout_diff_pct(kernel, stock, &pct))
		fprintf(out, ",\"%s\":%.6f", key, pct);
	else
		fprintf(out, ",\"%s\":null", key);
}

static void json_agreement(FILE *out, const struct trace *t)
{
	struct kout_agree a;

	if (!kout_agreement(t, &a))
		return;
	fputs("{\"record\":\"outcome_agreement\"", out);
	json_side(out, "kernel", a.kernel, a.matched, &a.k, 1);
	json_side(out, "stock", a.stock, a.matched, &a.s, a.uses);
	fprintf(out, ",\"sizes_agreed\":%lu,\"ended_full\":%lu", a.sizes_agreed,
		a.full);
	json_pct(out, "used_diff_pct", a.k.used, a.s.used, a.uses);
	json_pct(out, "unused_diff_pct", a.k.evicted + a.k.cached,
		 a.s.evicted + a.s.cached, a.uses);
	fprintf(out, ",\"verdict\":\"%s\"}\n",
		kout_agrees(&a) ? "agree" : "differ");
}

void json_print(FILE *out, const struct trace *t)
{
	struct ra_outcome *o = stock_outcomes(t), *fo = NULL;
	struct counts *sc, *fc;
	unsigned int *fstream, *slot, nr_files = 0;
	unsigned long long key[2];
	unsigned int told = RA_TOLD_TWICE |
			    (stock_has_uses(t) ? RA_TOLD_USES : 0);
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
		json_outcome(out, o ? &o[i] : NULL, told);
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
		json_outcome(out, fo ? &fo[i] : NULL, told);
		fputs("}\n", out);
	}
	if (t->nr_kouts) {
		json_kernel_outcomes(out, t);
		json_agreement(out, t);
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
