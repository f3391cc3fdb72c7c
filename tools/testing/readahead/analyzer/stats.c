// SPDX-License-Identifier: GPL-2.0
/*
 * stats.c - summaries: the "# patterns", "# files" and "# processes"
 * tables (calls, pages submitted, mean window, sync/async, all-cached).
 * Rows are in order of first appearance in the trace.
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

typedef int (*same_fn)(const struct ra_rec *a, const struct ra_rec *b);

static int same_pattern(const struct ra_rec *a, const struct ra_rec *b)
{
	return !strcmp(a->pattern, b->pattern);
}

static int same_file(const struct ra_rec *a, const struct ra_rec *b)
{
	return a->major == b->major && a->minor == b->minor &&
	       a->ino == b->ino && !strcmp(a->name, b->name);
}

static int same_process(const struct ra_rec *a, const struct ra_rec *b)
{
	return a->pid == b->pid && !strcmp(a->comm, b->comm);
}

static void group_by(const struct trace *t, same_fn same, struct groups *gs)
{
	const struct ra_rec *r;
	struct group *g;
	size_t i, j;

	memset(gs, 0, sizeof(*gs));
	for (i = 0; i < t->nr; i++) {
		r = &t->recs[i];
		for (j = 0; j < gs->nr; j++)
			if (same(&t->recs[gs->g[j].first], r))
				break;
		if (j == gs->nr) {
			if (gs->nr == gs->alloc) {
				gs->alloc = gs->alloc ? 2 * gs->alloc : 16;
				gs->g = xrealloc(gs->g,
						 gs->alloc * sizeof(*gs->g));
			}
			memset(&gs->g[j], 0, sizeof(gs->g[j]));
			gs->g[j].first = i;
			gs->nr++;
		}
		g = &gs->g[j];
		g->calls++;
		g->pages += r->actual;
		g->window += r->size;
		if (r->async)
			g->async++;
		else
			g->sync++;
		if (!r->actual)
			g->cached++;
	}
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
	const struct ra_rec *r;
	struct groups gs;
	size_t i;

	group_by(t, same_pattern, &gs);
	fprintf(out, "# patterns\n%-12s", "pattern");
	fprintf(out, COUNTS_HDR);
	for (i = 0; i < gs.nr; i++) {
		fprintf(out, "%-12s", t->recs[gs.g[i].first].pattern);
		print_counts(out, &gs.g[i]);
	}
	free(gs.g);

	group_by(t, same_file, &gs);
	fprintf(out, "# files\n%-6s %-8s %-10s %-12s", "dev", "bdev", "ino",
		"name");
	fprintf(out, COUNTS_HDR);
	for (i = 0; i < gs.nr; i++) {
		r = &t->recs[gs.g[i].first];
		fprintf(out, "%02x:%02x  ", r->major, r->minor);
		print_field(out, r->bdev, 8);
		fprintf(out, " %-10llu ", r->ino);
		print_field(out, r->name, 12);
		print_counts(out, &gs.g[i]);
	}
	free(gs.g);

	group_by(t, same_process, &gs);
	fprintf(out, "# processes\n%-8s %-16s", "pid", "comm");
	fprintf(out, COUNTS_HDR);
	for (i = 0; i < gs.nr; i++) {
		r = &t->recs[gs.g[i].first];
		fprintf(out, "%-8lu ", r->pid);
		print_field(out, r->comm, 16);
		print_counts(out, &gs.g[i]);
	}
	free(gs.g);
}
