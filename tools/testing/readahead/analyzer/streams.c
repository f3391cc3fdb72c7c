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

/* Number the streams, in order of first appearance, and list each's. */
static void assign_streams(struct trace *t)
{
	unsigned long long key[3];
	const struct ra_file *f;
	unsigned int *slot, *count;
	size_t i, alloc = 0, pos;
	struct ra_win *r;
	struct hmap map;

	hmap_init(&map, 3);
	for (i = 0; i < t->nr; i++) {
		r = &t->recs[i];
		f = rec_file(t, r);
		key[0] = rec_proc(t, r)->pid;
		key[1] = (unsigned long long)f->major << 32 | f->minor;
		key[2] = f->ino;
		slot = hmap_slot(&map, key);
		if (*slot == ~0u) {
			t->streams = grow(t->streams, &alloc, t->nr_streams,
					  sizeof(*t->streams));
			memset(&t->streams[t->nr_streams], 0,
			       sizeof(t->streams[0]));
			*slot = t->nr_streams++;
		}
		r->stream = *slot;
		t->streams[*slot].nr++;
	}
	hmap_free(&map);

	/* One array, each stream's records in a run of it, trace order. */
	t->stream_recs = xmalloc(t->nr * sizeof(*t->stream_recs));
	count = xcalloc(t->nr_streams, sizeof(*count));
	for (i = 0, pos = 0; i < t->nr_streams; i++) {
		t->streams[i].recs = t->stream_recs + pos;
		pos += t->streams[i].nr;
	}
	for (i = 0; i < t->nr; i++) {
		r = &t->recs[i];
		t->streams[r->stream].recs[count[r->stream]++] = i;
	}
	free(count);
}

/* Flags that only need the stream's own history. */
static void flag_stream(struct trace *t, const struct ra_stream *s)
{
	struct ra_win *r, *prev = NULL;
	size_t k;

	/* Deferrals issue no window: nothing to flag, nor to compare with. */
	for (k = 0; k < s->nr; k++, prev = r) {
		r = &t->recs[s->recs[k]];
		if (r->defer) {
			r = prev;
			continue;
		}
		if (!r->actual)
			r->flags |= RA_F_CACHED;
		if (!prev)
			continue;
		if (!r->async && !r->untold)
			r->flags |= RA_F_SYNCMID;
		if (r->start > prev->start && r->size < prev->size)
			r->flags |= RA_F_SHRINK;
	}
}

static int overlap(const struct ra_win *a, const struct ra_win *b)
{
	return a->start < b->start + b->size && b->start < a->start + a->size;
}

/*
 * Duplicates.  A window is a duplicate if it overlaps a window another
 * process issued earlier on the same file (dev, ino).  The partner
 * reported is the latest earlier window with the same START if there is
 * one, else the latest overlapping one.  "Overlap" is overlap() above,
 * with its edge cases: an empty window at P overlaps a window that holds
 * P and starts before it, two empty windows never overlap.
 *
 * The records of one file are taken in trace order; each asks about the
 * ones before it, then joins them.  An index answers "the latest record
 * of another pid that ..." through a pair: the latest record of a set,
 * and the latest whose pid differs from that one's.  Whatever the pid
 * asking, one of the two is the answer.
 *
 * The windows are mapped onto a line of keys where overlap is plain
 * intersection: window [S, S+N) with N > 0 becomes the closed range of
 * half-points 2S+1 .. 2(S+N)-1, an empty window at P the point 2P (a key
 * is (x, h) for 2x+h).  A segment tree over the distinct keys of the
 * file holds the non-empty windows; each node keeps the pair of the
 * windows covering it whole ("tag") and of all windows touching it
 * ("any").  A range query takes "any" of the nodes that make up the
 * range and "tag" of every node on the paths from its two ends to the
 * root.  Empty windows are points in a second tree, asked by non-empty
 * windows only.  A pair per distinct START answers "same START".
 * O(n log n) for n records of a file.
 *
 * A file with a window whose end wraps past 2^64 (only a crafted trace
 * has one) or with few records is scanned the plain way, every record
 * against every earlier one.
 */
struct pair {
	unsigned int a, b;		/* local positions + 1; 0: none */
};

struct dupfile {
	const unsigned int *idx;	/* record index of each position */
	const unsigned long *pid;	/* pid of each position */
	size_t n;
};

/* Add position @x (+ 1) to @p; see above. */
static void pair_add(const struct dupfile *d, struct pair *p, unsigned int x)
{
	if (!x || x == p->a || x == p->b)
		return;
	if (!p->a) {
		p->a = x;
	} else if (x > p->a) {
		if (d->pid[x - 1] != d->pid[p->a - 1])
			p->b = p->a;
		p->a = x;
	} else if (d->pid[x - 1] != d->pid[p->a - 1] && x > p->b) {
		p->b = x;
	}
}

static void pair_merge(const struct dupfile *d, struct pair *p,
		       const struct pair *q)
{
	pair_add(d, p, q->a);
	pair_add(d, p, q->b);
}

/* The latest in @p whose pid is not @pid: position + 1, or 0. */
static unsigned int pair_other(const struct dupfile *d, const struct pair *p,
			       unsigned long pid)
{
	if (p->a && d->pid[p->a - 1] != pid)
		return p->a;
	return p->b;
}

/* The plain scan, every record against every earlier one. */
static void dups_scan(struct trace *t, const struct dupfile *d)
{
	size_t i, j, same, any;
	struct ra_win *r;
	const struct ra_win *e;

	for (i = 0; i < d->n; i++) {
		r = &t->recs[d->idx[i]];
		same = any = (size_t)-1;
		for (j = i; j-- > 0;) {
			e = &t->recs[d->idx[j]];
			if (d->pid[j] == d->pid[i] || !overlap(e, r))
				continue;
			if (any == (size_t)-1)
				any = d->idx[j];
			if (e->start == r->start) {
				same = d->idx[j];
				break;
			}
		}
		if (any != (size_t)-1) {
			r->flags |= RA_F_DUP;
			r->dup_of = same != (size_t)-1 ? same : any;
		}
	}
}

struct key {
	unsigned long long x;
	unsigned int h;
};

static int cmp_key(const void *pa, const void *pb)
{
	const struct key *a = pa, *b = pb;

	if (a->x != b->x)
		return a->x < b->x ? -1 : 1;
	return (a->h > b->h) - (a->h < b->h);
}

static size_t key_index(const struct key *keys, size_t m, unsigned long long x,
			unsigned int h)
{
	size_t lo = 0, hi = m;
	struct key k = { x, h };

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_key(&keys[mid], &k) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

static void dups_tree(struct trace *t, const struct dupfile *d)
{
	struct pair *tag, *any, *pts = NULL, *same, res;
	size_t i, m, n = d->n, leaves, l, h, v, a, b, nkeys = 0;
	unsigned int *lo, *hi, x;
	struct key *keys;
	int has_empty = 0;
	struct ra_win *r;

	keys = xmalloc(2 * n * sizeof(*keys));
	for (i = 0; i < n; i++) {
		r = &t->recs[d->idx[i]];
		if (r->size) {
			keys[nkeys++] = (struct key){ r->start, 1 };
			keys[nkeys++] = (struct key){ r->start + r->size - 1,
						      1 };
		} else {
			keys[nkeys++] = (struct key){ r->start, 0 };
			has_empty = 1;
		}
	}
	qsort(keys, nkeys, sizeof(*keys), cmp_key);
	for (i = 1, m = 1; i < nkeys; i++)
		if (cmp_key(&keys[i], &keys[m - 1]))
			keys[m++] = keys[i];
	for (leaves = 1; leaves < m; leaves <<= 1)
		;
	lo = xmalloc(n * sizeof(*lo));
	hi = xmalloc(n * sizeof(*hi));
	for (i = 0; i < n; i++) {
		r = &t->recs[d->idx[i]];
		if (r->size) {
			lo[i] = key_index(keys, m, r->start, 1);
			hi[i] = key_index(keys, m, r->start + r->size - 1, 1);
		} else {
			lo[i] = hi[i] = key_index(keys, m, r->start, 0);
		}
	}
	free(keys);
	tag = xcalloc(2 * leaves, sizeof(*tag));
	any = xcalloc(2 * leaves, sizeof(*any));
	same = xcalloc(m, sizeof(*same));
	if (has_empty)
		pts = xcalloc(2 * leaves, sizeof(*pts));

	for (i = 0; i < n; i++) {
		r = &t->recs[d->idx[i]];
		x = i + 1;
		memset(&res, 0, sizeof(res));
		/* Ask: nodes making up [lo, hi], and the paths' tags. */
		for (a = lo[i] + leaves, b = hi[i] + leaves + 1; a < b;
		     a >>= 1, b >>= 1) {
			if (a & 1) {
				pair_merge(d, &res, &any[a]);
				if (r->size && pts)
					pair_merge(d, &res, &pts[a]);
				a++;
			}
			if (b & 1) {
				b--;
				pair_merge(d, &res, &any[b]);
				if (r->size && pts)
					pair_merge(d, &res, &pts[b]);
			}
		}
		for (l = lo[i] + leaves, h = hi[i] + leaves; l;
		     l >>= 1, h >>= 1) {
			pair_merge(d, &res, &tag[l]);
			if (h != l)
				pair_merge(d, &res, &tag[h]);
		}
		v = pair_other(d, &res, d->pid[i]);
		if (v) {
			unsigned int sv = r->size ?
				pair_other(d, &same[lo[i]], d->pid[i]) : 0;

			r->flags |= RA_F_DUP;
			r->dup_of = d->idx[(sv ? sv : v) - 1];
		}

		/* Join: an empty window is a point, asked by others only. */
		if (!r->size) {
			for (v = lo[i] + leaves; v; v >>= 1)
				pair_add(d, &pts[v], x);
			continue;
		}
		pair_add(d, &same[lo[i]], x);
		for (a = lo[i] + leaves, b = hi[i] + leaves + 1; a < b;
		     a >>= 1, b >>= 1) {
			if (a & 1) {
				pair_add(d, &tag[a], x);
				pair_add(d, &any[a], x);
				a++;
			}
			if (b & 1) {
				b--;
				pair_add(d, &tag[b], x);
				pair_add(d, &any[b], x);
			}
		}
		for (l = (lo[i] + leaves) >> 1, h = (hi[i] + leaves) >> 1; l;
		     l >>= 1, h >>= 1) {
			pair_add(d, &any[l], x);
			if (h != l)
				pair_add(d, &any[h], x);
		}
	}
	free(lo);
	free(hi);
	free(tag);
	free(any);
	free(same);
	free(pts);
}

/*
 * Files of fewer records than this are scanned the plain way.  For the
 * tests, RA_ANALYZE_DUPS=scan or =tree takes one way for every file.
 */
#define DUP_SCAN_MAX	32

static size_t max_size(size_t a, size_t b)
{
	return a > b ? a : b;
}

static void flag_duplicates(struct trace *t)
{
	size_t i, j, k, nr_files = 0, most = 0;
	unsigned int *fid, *slot, *idx, *start;
	const char *how = getenv("RA_ANALYZE_DUPS");
	enum { DUP_AUTO, DUP_SCAN, DUP_TREE } dup_method = DUP_AUTO;
	unsigned long long key[2];
	const struct ra_file *f;
	unsigned long *pid;
	struct dupfile d;
	struct hmap map;
	int wrap;

	if (how && !strcmp(how, "scan"))
		dup_method = DUP_SCAN;
	else if (how && !strcmp(how, "tree"))
		dup_method = DUP_TREE;

	/* Number the files (dev, ino); the records of each in a run. */
	hmap_init(&map, 2);
	fid = xmalloc(t->nr_files * sizeof(*fid));
	for (i = 0; i < t->nr_files; i++) {
		f = &t->files[i];
		key[0] = (unsigned long long)f->major << 32 | f->minor;
		key[1] = f->ino;
		slot = hmap_slot(&map, key);
		if (*slot == ~0u)
			*slot = nr_files++;
		fid[i] = *slot;
	}
	hmap_free(&map);
	/* Deferrals issue no window and duplicate nothing. */
	start = xcalloc(nr_files + 1, sizeof(*start));
	for (i = 0; i < t->nr; i++)
		if (!t->recs[i].defer)
			start[fid[t->recs[i].file] + 1]++;
	for (k = 0; k < nr_files; k++)
		start[k + 1] += start[k];
	for (k = 0; k < nr_files; k++)
		most = max_size(most, start[k + 1] - start[k]);
	idx = xmalloc(t->nr * sizeof(*idx));
	pid = xmalloc(most * sizeof(*pid));
	for (i = 0; i < t->nr; i++)
		if (!t->recs[i].defer)
			idx[start[fid[t->recs[i].file]]++] = i;
	/* start[k] is now the end of file k's run */
	d.pid = pid;
	for (k = 0, i = 0; k < nr_files; i = start[k++]) {
		d.idx = idx + i;
		d.n = start[k] - i;
		wrap = 0;
		for (j = 0; j < d.n; j++) {
			const struct ra_win *r = &t->recs[d.idx[j]];

			pid[j] = rec_proc(t, r)->pid;
			if (r->size && r->start + r->size <= r->start)
				wrap = 1;
		}
		if (wrap || dup_method == DUP_SCAN ||
		    (dup_method == DUP_AUTO && d.n < DUP_SCAN_MAX))
			dups_scan(t, &d);
		else
			dups_tree(t, &d);
	}
	free(pid);
	free(idx);
	free(start);
	free(fid);
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
const char *rec_where(const struct trace *t, const struct ra_win *r,
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
	const struct ra_win *r;
	const struct ra_file *fl;
	const struct ra_proc *p;
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
		fl = rec_file(t, r);
		p = rec_proc(t, r);
		fprintf(out, "%-6zu %-8lu ", i + 1, p->pid);
		print_field(out, rec_str(t, p->comm), 16);
		fprintf(out, " %02x:%02x  %-10llu ", fl->major, fl->minor,
			fl->ino);
		print_field(out, rec_str(t, fl->name), 12);
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
	const struct ra_win *r, *o;
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
				(size_t)r->stream + 1, rec_proc(t, r)->pid);
			if ((1u << f) == RA_F_DUP) {
				o = &t->recs[r->dup_of];
				fprintf(out, "%-8s %lu\n",
					rec_where(t, o, b2, sizeof(b2)),
					rec_proc(t, o)->pid);
			} else {
				fprintf(out, "%-8s %s\n", "-", "-");
			}
		}
		if (r->highlighted)
			fprintf(out, "%-16s %-8s %-6zu %-8lu %-8s %s\n",
				"highlighted", rec_where(t, r, b1, sizeof(b1)),
				(size_t)r->stream + 1, rec_proc(t, r)->pid,
				"-", "-");
	}
}

static void print_flag_list(FILE *out, const struct ra_win *r)
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
	const struct ra_win *r;
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
				rec_where(t, r, b, sizeof(b)),
				rec_str(t, r->pattern),
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
