// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - summaries: the "# patterns", "# files" and "# processes"
 * tables (calls, pages submitted, mean window, sync/async, all-cached).
 * Rows are in order of first appearance in the trace; a hash on each
 * table's key finds a record's row.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

struct group {
	size_t first;			/* record that created the group */
	unsigned long calls, sync, async, cached;
	unsigned long long pages, window;
};

struct groups {
	struct group *g;
	size_t nr, alloc;
};

/* The key a record is grouped by: 3 words. */
typedef void (*key_fn)(const struct trace *t, const struct ra_win *r,
		       unsigned long long key[3]);

static void pattern_key(const struct trace *t, const struct ra_win *r,
			unsigned long long key[3])
{
	(void)t;
	key[0] = r->pattern;
	key[1] = key[2] = 0;
}

/* A file here is (dev, ino, name): the bdev name does not count. */
static void file_key(const struct trace *t, const struct ra_win *r,
		     unsigned long long key[3])
{
	const struct ra_file *f = rec_file(t, r);

	key[0] = (unsigned long long)f->major << 32 | f->minor;
	key[1] = f->ino;
	key[2] = f->name;
}

/* A process is (pid, comm), as trace->procs numbers them. */
static void process_key(const struct trace *t, const struct ra_win *r,
			unsigned long long key[3])
{
	(void)t;
	key[0] = r->proc;
	key[1] = key[2] = 0;
}

/* Groups in order of first appearance; a hash finds a record's group. */
static void group_by(const struct trace *t, key_fn keyf, struct groups *gs)
{
	unsigned long long key[3];
	const struct ra_win *r;
	struct hmap map;
	unsigned int *slot;
	struct group *g;
	size_t i;

	memset(gs, 0, sizeof(*gs));
	hmap_init(&map, 3);
	for (i = 0; i < t->nr; i++) {
		r = &t->recs[i];
		keyf(t, r, key);
		slot = hmap_slot(&map, key);
		if (*slot == ~0u) {
			gs->g = grow(gs->g, &gs->alloc, gs->nr,
				     sizeof(*gs->g));
			memset(&gs->g[gs->nr], 0, sizeof(gs->g[gs->nr]));
			gs->g[gs->nr].first = i;
			*slot = gs->nr++;
		}
		g = &gs->g[*slot];
		g->calls++;
		/* A deferral issues no window: a call, nothing more. */
		if (r->defer)
			continue;
		g->pages += r->actual;
		g->window += r->size;
		if (r->untold)
			;
		else if (r->async)
			g->async++;
		else
			g->sync++;
		if (!r->actual)
			g->cached++;
	}
	hmap_free(&map);
}

static void print_counts(FILE *out, const struct group *g)
{
	fprintf(out, " %6lu %8llu %11.2f %6lu %6lu %10lu\n", g->calls,
		g->pages, (double)g->window / g->calls, g->sync, g->async,
		g->cached);
}

#define COUNTS_HDR \
	" %6s %8s %11s %6s %6s %10s\n", "calls", "pages", "mean_window", \
	"sync", "async", "all_cached"

void stats_print(FILE *out, const struct trace *t)
{
	const struct ra_file *f;
	const struct ra_proc *p;
	struct groups gs;
	size_t i;

	group_by(t, pattern_key, &gs);
	fprintf(out, "# patterns\n%-12s", "pattern");
	fprintf(out, COUNTS_HDR);
	for (i = 0; i < gs.nr; i++) {
		fprintf(out, "%-12s",
			rec_str(t, t->recs[gs.g[i].first].pattern));
		print_counts(out, &gs.g[i]);
	}
	free(gs.g);

	group_by(t, file_key, &gs);
	fprintf(out, "# files\n%-6s %-8s %-10s %-12s", "dev", "bdev", "ino",
		"name");
	fprintf(out, COUNTS_HDR);
	for (i = 0; i < gs.nr; i++) {
		f = rec_file(t, &t->recs[gs.g[i].first]);
		fprintf(out, "%02x:%02x  ", f->major, f->minor);
		print_field(out, rec_str(t, f->bdev), 8);
		fprintf(out, " %-10llu ", f->ino);
		print_field(out, rec_str(t, f->name), 12);
		print_counts(out, &gs.g[i]);
	}
	free(gs.g);

	group_by(t, process_key, &gs);
	fprintf(out, "# processes\n%-8s %-16s", "pid", "comm");
	fprintf(out, COUNTS_HDR);
	for (i = 0; i < gs.nr; i++) {
		p = rec_proc(t, &t->recs[gs.g[i].first]);
		fprintf(out, "%-8lu ", p->pid);
		print_field(out, rec_str(t, p->comm), 16);
		print_counts(out, &gs.g[i]);
	}
	free(gs.g);
}
