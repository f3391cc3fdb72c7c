// SPDX-License-Identifier: GPL-2.0
/*
 * outcome.c - a patched kernel's own account of its windows: parses the
 * readahead:readahead_outcome events (one per window: of the pages it
 * read, how many were used, evicted unused, or still cached unused when
 * reported) as trace_pipe, trace-cmd report or perf script print them,
 * and prints the kernel_outcomes (per file, and all),
 * kernel_outcomes_per_pattern and outcome_agreement tables.  An event
 * does not tell which pages were read twice: "twice" prints as "-".
 *
 * outcome_agreement is for a trace that also has the stock filemap
 * events, whose windows and their outcome stock.c infers: the records.
 * The matching rule: an event matches a record of the same file (dev,
 * ino) whose first page is the event's start.  The records are the
 * inferred windows; or, in a trace with decisions, the decisions that
 * read pages (nr_read, or inferred windows attributed to them), whose
 * size must then be the event's too (the same decision window), and
 * whose outcome is that of the inferred windows attributed to them
 * (stock.c).  Each record matches once: the events, in trace order, take
 * the records of their key in trace order.  A window whose first pages
 * were cached starts past its decision's start in the stock events: a
 * trace without decisions leaves its event unmatched.
 *
 * The table gives, for the events (kernel) and the records (stock): how
 * many, matched and unmatched; the pairs whose pages agree within one
 * page; the events of a full tracker ("end=full": their cached pages
 * were not followed to the end); the matched pairs' pages, used,
 * evicted, cached and unused (evicted + cached) on each side, used and
 * unused also as the stock side's difference from the kernel's, in
 * percent of the kernel's; the line of the first event whose pages do
 * not agree, if one does not (first_differs).  The verdict is "agree" when every event
 * matched, every pair's pages agree within one page, and the used and
 * unused totals within 1%; else "differ", also when the stock events
 * have no accesses (6.1): their use cannot be told, and prints as "-".
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

/* ---- parsing ---- */

/* "end=" and how the window's report came: enum kout_end. */
static unsigned char parse_end(struct ra_cursor *c)
{
	static const char *const names[] = { "settled", "stopped", "full" };
	unsigned char i;

	if (c->why)
		return 0;
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
	if (ra_expect(c, "end=", "expected 'end='"))
		return 0;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);

		if (!strncmp(c->p, names[i], n)) {
			c->p += n;
			return i;
		}
	}
	c->why = "bad end (settled, stopped or full)";
	return 0;
}

/* The fields of readahead_outcome, in the order its TP_printk prints. */
static void parse_fields(struct ra_cursor *c, struct ra_rec *r,
			 struct ra_kout *k)
{
	unsigned long long v;

	ra_event_head(c, r);
	k->start = ra_field(c, "start=", 10, "expected 'start='");
	k->size = ra_field(c, "size=", 10, "expected 'size='");
	k->pages = ra_field(c, "pages=", 10, "expected 'pages='");
	k->used = ra_field(c, "used=", 10, "expected 'used='");
	k->evicted = ra_field(c, "evicted=", 10, "expected 'evicted='");
	k->cached = ra_field(c, "cached=", 10, "expected 'cached='");
	k->lead_ns = ra_field(c, "lead_ns=", 10, "expected 'lead_ns='");
	v = ra_field(c, "stall=", 10, "expected 'stall=' (0 or 1)");
	if (!c->why && v > 1)
		c->why = "stall is neither 0 nor 1";
	k->stall = v;
	k->end = parse_end(c);
	if (c->why)
		return;
	while (isspace((unsigned char)*c->p))
		c->p++;
	if (*c->p)
		c->why = "trailing text after end";
	else if (k->used > k->pages || k->evicted > k->pages - k->used ||
		 k->cached != k->pages - k->used - k->evicted)
		c->why = "used + evicted + cached is not pages";
}

/*
 * Parse one line: RA_PARSE_OTHER unless it holds a readahead_outcome
 * event, RA_PARSE_BAD (*@why says why) if that does not parse.  On
 * RA_PARSE_OK @rec holds the task, file and pattern, @ko the rest.
 */
enum ra_parse_result kout_parse_line(const char *line, struct ra_rec *rec,
				     struct ra_kout *ko, const char **why)
{
	struct ra_cursor c = { line, NULL };
	const char *event, *fields;

	memset(rec, 0, sizeof(*rec));
	memset(ko, 0, sizeof(*ko));
	event = ra_find_event(line, "readahead_outcome", &fields);
	if (!event)
		return RA_PARSE_OTHER;
	ra_parse_task(&c, rec, event);
	if (!c.why) {
		c.p = fields;
		parse_fields(&c, rec, ko);
	}
	return ra_parse_event_end(&c, rec, why);
}

void kout_add(struct trace *t, const struct ra_kout *ko)
{
	t->kouts = grow(t->kouts, &t->alloc_kouts, t->nr_kouts,
			sizeof(*t->kouts));
	t->kouts[t->nr_kouts++] = *ko;
}

/* ---- sums ---- */

static void kout_outcome(const struct ra_kout *k, struct ra_outcome *o)
{
	memset(o, 0, sizeof(*o));
	o->windows = 1;
	o->stalls = k->stall;
	o->pages = k->pages;
	o->used = k->used;
	o->evicted = k->evicted;
	o->cached = k->cached;
	o->lead_ns = k->lead_ns;
}

/* A file is (dev, ino): a log line's names do not count. */
static void file_key(const struct trace *t, unsigned int file,
		     unsigned long long key[2])
{
	const struct ra_file *f = &t->files[file];

	key[0] = (unsigned long long)f->major << 32 | f->minor;
	key[1] = f->ino;
}

/*
 * The events summed by file, or by pattern, in order of first
 * appearance: *@rows (the caller frees it); returns how many.
 */
size_t kout_rows(const struct trace *t, int by_pattern,
		 struct kout_row **rows)
{
	unsigned long long key[2] = { 0, 0 };
	struct ra_outcome o;
	unsigned int *slot;
	struct hmap map;
	size_t i, nr = 0;

	*rows = xcalloc(t->nr_kouts, sizeof(**rows));
	hmap_init(&map, 2);
	for (i = 0; i < t->nr_kouts; i++) {
		const struct ra_kout *k = &t->kouts[i];

		if (by_pattern)
			key[0] = k->pattern;
		else
			file_key(t, k->file, key);
		slot = hmap_slot(&map, key);
		if (*slot == ~0u) {
			(*rows)[nr].key = by_pattern ? k->pattern : k->file;
			*slot = nr++;
		}
		kout_outcome(k, &o);
		ra_outcome_sum(&(*rows)[*slot].o, &o);
	}
	hmap_free(&map);
	return nr;
}

/* ---- agreement ---- */

/* The key of a record or an event: file, start, and a decision's size. */
static void match_key(const struct trace *t, unsigned int file,
		      unsigned long long start, unsigned long long size,
		      unsigned long long key[4])
{
	file_key(t, file, key);
	key[2] = start;
	key[3] = size;
}

/*
 * The records events can match, a queue per key in trace order: @map
 * gives a key's queue, head[] its first record not yet matched (~0u: no
 * more), next[] the record after one.  Decisions that read nothing (and
 * deferrals) have no window; an inferred window always has.
 */
struct queues {
	struct hmap map;
	unsigned int *head, *next;
	unsigned long nr;		/* records queued */
};

static void queues_build(const struct trace *t, const struct ra_outcome *so,
			 int decisions, struct queues *q)
{
	unsigned long long key[4];
	unsigned int *slot, nr_q = 0;
	size_t i;

	hmap_init(&q->map, 4);
	q->head = xmalloc((t->nr + 1) * sizeof(*q->head));
	q->next = xmalloc((t->nr + 1) * sizeof(*q->next));
	q->nr = 0;
	for (i = t->nr; i-- > 0;) {
		const struct ra_win *r = &t->recs[i];

		if (r->defer || (!r->actual && !so[i].pages))
			continue;
		match_key(t, r->file, r->start, decisions ? r->size : 0, key);
		slot = hmap_slot(&q->map, key);
		if (*slot == ~0u) {
			q->head[nr_q] = ~0u;
			*slot = nr_q++;
		}
		q->next[i] = q->head[*slot];
		q->head[*slot] = i;
		q->nr++;
	}
}

/* The first record of @key's queue not yet matched, taken; or ~0u. */
static unsigned int queues_take(struct queues *q,
				const unsigned long long key[4])
{
	unsigned int k = hmap_get(&q->map, key), i;

	if (k == ~0u || q->head[k] == ~0u)
		return ~0u;
	i = q->head[k];
	q->head[k] = q->next[i];
	return i;
}

static void queues_free(struct queues *q)
{
	hmap_free(&q->map);
	free(q->head);
	free(q->next);
}

/* Add the pair of event @k and record outcome @s to @a. */
static void agree_pair(struct kout_agree *a, const struct ra_kout *k,
		       const struct ra_outcome *s)
{
	struct ra_outcome o;

	kout_outcome(k, &o);
	ra_outcome_sum(&a->k, &o);
	ra_outcome_sum(&a->s, s);
	a->matched++;
	if (k->pages + 1 >= s->pages && k->pages <= s->pages + 1)
		a->sizes_agreed++;
	else if (!a->first_differs)
		a->first_differs = k->lineno;
}

/*
 * Match the kernel's events to the records the stock events gave (see
 * the header comment): 0 when there are no events or no inferred
 * windows, else 1 and @a.
 */
int kout_agreement(const struct trace *t, struct kout_agree *a)
{
	unsigned long long key[4];
	struct ra_outcome *so;
	struct queues q;
	unsigned int i;
	int decisions;
	size_t n;

	memset(a, 0, sizeof(*a));
	if (!t->nr_kouts)
		return 0;
	so = stock_rec_outcomes(t, &decisions);
	if (!so)
		return 0;
	a->uses = stock_has_uses(t);
	queues_build(t, so, decisions, &q);
	a->stock = q.nr;
	for (n = 0; n < t->nr_kouts; n++) {
		const struct ra_kout *k = &t->kouts[n];

		a->kernel++;
		a->full += k->end == KOUT_FULL;
		match_key(t, k->file, k->start, decisions ? k->size : 0, key);
		i = queues_take(&q, key);
		if (i != ~0u)
			agree_pair(a, k, &so[i]);
	}
	queues_free(&q);
	free(so);
	return 1;
}

/*
 * The stock figure's difference from the kernel's, in percent of the
 * kernel's: 0 when that is 0 and the stock one is not (no percentage).
 */
int kout_diff_pct(unsigned long long kernel, unsigned long long stock,
		  double *pct)
{
	if (!kernel && stock)
		return 0;
	*pct = kernel ? 100.0 * ((double)stock - (double)kernel) / kernel : 0;
	return 1;
}

/* Is @stock within 1% of @kernel? */
static int within_pct(unsigned long long kernel, unsigned long long stock)
{
	unsigned long long d = stock > kernel ? stock - kernel : kernel - stock;

	return d <= kernel / 100;
}

int kout_agrees(const struct kout_agree *a)
{
	return a->uses && a->matched && a->matched == a->kernel &&
	       a->sizes_agreed == a->matched &&
	       within_pct(a->k.used, a->s.used) &&
	       within_pct(a->k.evicted + a->k.cached,
			  a->s.evicted + a->s.cached);
}

/* ---- tables ---- */

static void print_kernel_outcomes(FILE *out, const struct trace *t)
{
	struct ra_outcome all = { 0 };
	struct kout_row *rows;
	size_t i, nr;

	nr = kout_rows(t, 0, &rows);
	fprintf(out, "# kernel_outcomes\n%-6s %-10s", "dev", "ino");
	ra_outcome_header(out);
	for (i = 0; i < nr; i++) {
		const struct ra_file *f = &t->files[rows[i].key];

		fprintf(out, "%02x:%02x  %-10llu", f->major, f->minor, f->ino);
		ra_outcome_print(out, &rows[i].o, RA_TOLD_USES);
		ra_outcome_sum(&all, &rows[i].o);
	}
	fprintf(out, "%-17s", "all");
	ra_outcome_print(out, &all, RA_TOLD_USES);
	free(rows);

	nr = kout_rows(t, 1, &rows);
	fprintf(out, "# kernel_outcomes_per_pattern\n%-12s", "pattern");
	ra_outcome_header(out);
	for (i = 0; i < nr; i++) {
		fprintf(out, "%-12s", rec_str(t, rows[i].key));
		ra_outcome_print(out, &rows[i].o, RA_TOLD_USES);
	}
	free(rows);
}

/* A row of outcome_agreement: the figures, and their difference. */
static void print_agree_row(FILE *out, const char *what,
			    unsigned long long kernel,
			    unsigned long long stock, int told, int diff)
{
	double pct;

	fprintf(out, "%-14s %10llu", what, kernel);
	if (told)
		fprintf(out, " %10llu", stock);
	else
		fprintf(out, " %10s", "-");
	if (told && diff && kout_diff_pct(kernel, stock, &pct))
		fprintf(out, " %9.2f\n", pct);
	else
		fprintf(out, " %9s\n", "-");
}

static void print_agreement(FILE *out, const struct kout_agree *a)
{
	fprintf(out, "# outcome_agreement\n%-14s %10s %10s %9s\n", "what",
		"kernel", "stock", "diff_pct");
	print_agree_row(out, "windows", a->kernel, a->stock, 1, 0);
	print_agree_row(out, "matched", a->matched, a->matched, 1, 0);
	print_agree_row(out, "unmatched", a->kernel - a->matched,
			a->stock - a->matched, 1, 0);
	print_agree_row(out, "sizes_agreed", a->sizes_agreed, 0, 0, 0);
	if (a->first_differs)
		print_agree_row(out, "first_differs", a->first_differs, 0, 0,
				0);
	print_agree_row(out, "ended_full", a->full, 0, 0, 0);
	print_agree_row(out, "pages", a->k.pages, a->s.pages, 1, 0);
	print_agree_row(out, "used", a->k.used, a->s.used, a->uses, 1);
	print_agree_row(out, "evicted", a->k.evicted, a->s.evicted, 1, 0);
	print_agree_row(out, "cached", a->k.cached, a->s.cached, a->uses, 0);
	print_agree_row(out, "unused", a->k.evicted + a->k.cached,
			a->s.evicted + a->s.cached, a->uses, 1);
	fprintf(out, "%-14s %s\n", "verdict",
		kout_agrees(a) ? "agree" : "differ");
}

/* The tables, when the trace has readahead_outcome events. */
void kout_print(FILE *out, const struct trace *t)
{
	struct kout_agree a;

	if (!t->nr_kouts)
		return;
	print_kernel_outcomes(out, t);
	if (kout_agreement(t, &a))
		print_agreement(out, &a);
}
