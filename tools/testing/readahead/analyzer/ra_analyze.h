/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ra_analyze.h - shared types of the readahead trace analyzer: one parsed
 * trace record, a patched kernel's outcome event, the whole trace, and
 * the entry points of each part.
 */
#ifndef RA_ANALYZE_H
#define RA_ANALYZE_H

#include <stddef.h>
#include <stdio.h>

/* Per-record flags, set by streams.c. */
#define RA_F_DUP	0x1	/* overlaps an earlier window of another pid */
#define RA_F_CACHED	0x2	/* ACTUAL == 0: nothing submitted */
#define RA_F_SHRINK	0x4	/* smaller than previous, START advanced */
#define RA_F_SYNCMID	0x8	/* async=0 on a stream that had windows */

/* One readahead decision, i.e. one parsed trace line (parse.c's output). */
struct ra_rec {
	unsigned int src;		/* index into trace->srcs */
	unsigned long lineno;		/* line number in that input */
	int highlighted;		/* line carried a "==>" marker */
	char *pattern;
	unsigned long pid;
	char *comm;
	unsigned int major, minor;
	char *bdev;
	unsigned long long ino;
	char *name;
	unsigned long long req_off, req_size;
	unsigned long long start, size, async_size;
	unsigned long long async;
	int has_miss;
	unsigned long long miss;
	unsigned long long actual;
};

/*
 * What the trace keeps of one record.  A trace of a fio run is millions
 * of lines that name a few files and processes: the names are kept once
 * (trace->strs), the (dev, bdev, ino, name) of a file and the (pid, comm)
 * of a process once each (trace->files, trace->procs), and a record
 * holds their indices.
 */
struct ra_file {
	unsigned int major, minor;
	unsigned long long ino;
	unsigned int bdev, name;	/* indices into trace->strs */
};

struct ra_proc {
	unsigned long pid;
	unsigned int comm;		/* index into trace->strs */
};

struct ra_win {
	unsigned long lineno;		/* line number in its input */
	unsigned long long req_off, req_size;
	unsigned long long start, size, async_size;
	unsigned long long async;
	unsigned long long miss;	/* valid if has_miss */
	unsigned long long actual;
	unsigned int src;		/* index into trace->srcs */
	unsigned int pattern;		/* index into trace->strs */
	unsigned int file;		/* index into trace->files */
	unsigned int proc;		/* index into trace->procs */

	/* Filled in by streams_build(). */
	unsigned int stream;		/* index into trace->streams */
	unsigned int dup_of;		/* record index, valid if RA_F_DUP */
	unsigned char flags;		/* RA_F_* */
	unsigned char highlighted;	/* line carried a "==>" marker */
	unsigned char has_miss;
	unsigned char defer;		/* "defer": no window was issued */
	unsigned char untold;		/* neither sync nor async is known */
};

/* Records are numbered by unsigned int; one is kept free. */
#define RA_MAX_RECS	(~0u - 1)

/* A stream: the windows of one (pid, dev, ino), in trace order. */
struct ra_stream {
	unsigned int *recs;		/* record indices */
	size_t nr;
};

/* Open-addressing hash from up to 4 64-bit words to an unsigned int. */
struct hmap {
	unsigned long long *keys;	/* @words per slot */
	unsigned int *vals;		/* ~0u: empty slot */
	size_t cap, nr;
	unsigned int words;
};

/* Interned strings: each distinct text once, numbered in order. */
struct strtab {
	char **str;
	size_t nr, alloc;
	unsigned int *slot;		/* hash slots: index + 1, 0 empty */
	size_t cap;
};

struct stock;
struct ra_kout;

struct trace {
	struct ra_win *recs;
	size_t nr, alloc;
	const char **srcs;		/* input names, "-" is stdin */
	unsigned int nr_srcs;
	unsigned long parsed, skipped, other;
	struct strtab strs;
	struct ra_file *files;
	size_t nr_files, alloc_files;
	struct hmap file_map;
	struct ra_proc *procs;
	size_t nr_procs, alloc_procs;
	struct hmap proc_map;
	struct ra_stream *streams;
	size_t nr_streams;
	unsigned int *stream_recs;	/* what streams[].recs point into */
	struct stock *stock;		/* a stock kernel's events (stock.c) */
	struct ra_kout *kouts;		/* readahead_outcome (outcome.c) */
	size_t nr_kouts, alloc_kouts;
};

static inline const char *rec_str(const struct trace *t, unsigned int i)
{
	return t->strs.str[i];
}

static inline const struct ra_file *rec_file(const struct trace *t,
					     const struct ra_win *r)
{
	return &t->files[r->file];
}

static inline const struct ra_proc *rec_proc(const struct trace *t,
					     const struct ra_win *r)
{
	return &t->procs[r->proc];
}

/* parse.c: a line being parsed, and the first error found in it */
struct ra_cursor {
	const char *p;
	const char *why;
};

enum ra_parse_result { RA_PARSE_OK, RA_PARSE_OTHER, RA_PARSE_BAD };
enum ra_parse_result ra_parse_line(const char *line, struct ra_rec *rec,
				   const char **why);
void ra_rec_free(struct ra_rec *rec);
int ra_expect(struct ra_cursor *c, const char *lit, const char *why);
unsigned long long ra_number(struct ra_cursor *c, int base, const char *why);
void ra_parse_task(struct ra_cursor *c, struct ra_rec *r, const char *end);
enum ra_parse_result ra_parse_event_end(const struct ra_cursor *c,
					struct ra_rec *rec, const char **why);
unsigned long long ra_field(struct ra_cursor *c, const char *key, int base,
			    const char *why);
const char *ra_find_event(const char *line, const char *name,
			  const char **fields);
void ra_event_head(struct ra_cursor *c, struct ra_rec *r);

/* input.c */
int input_read(struct trace *t, const char *path);
struct ra_win *trace_new_rec(struct trace *t);
void trace_free(struct trace *t);

/* stock.c: one event of a stock kernel's trace */
enum stock_type {
	ST_ADD, ST_DELETE, ST_GET_PAGES, ST_MAP_PAGES, ST_FAULT,
	ST_SYNC_RA, ST_ASYNC_RA, ST_BLOCK,
};

struct stock_ev {
	unsigned long long ns;		/* the event's time */
	unsigned long long first, last;	/* pages (ADD/DELETE: the folio's) */
	unsigned long lineno;
	unsigned int src, file, proc;	/* file, proc: as trace's */
	unsigned char type;		/* enum stock_type */
};

enum ra_parse_result stock_parse_line(const char *line, struct ra_rec *rec,
				      struct stock_ev *ev, const char **why);
/* What became of the pages of a stream's (or a file's) windows. */
struct ra_outcome {
	unsigned long windows, stalls;
	unsigned long long pages, used, evicted, cached, twice, lead_ns;
};

/* What an outcome's figures can tell, for printing it. */
#define RA_TOLD_USES	0x1	/* used and cached: the trace has accesses */
#define RA_TOLD_TWICE	0x2	/* read twice: the trace has every arrival */

void stock_add(struct trace *t, const struct stock_ev *ev);
void stock_infer(struct trace *t);
void stock_print(FILE *out, const struct trace *t);
void stock_free(struct stock *s);
void ra_outcome_sum(struct ra_outcome *sum, const struct ra_outcome *o);
struct ra_outcome *stock_outcomes(const struct trace *t);
struct ra_outcome *stock_rec_outcomes(const struct trace *t, int *decisions);
int stock_has_uses(const struct trace *t);
int ra_outcome_thrashing(const struct ra_outcome *o);
void ra_outcome_header(FILE *out);
void ra_outcome_print(FILE *out, const struct ra_outcome *o,
		      unsigned int told);

/* outcome.c: one readahead_outcome event of a patched kernel */
enum kout_end { KOUT_SETTLED, KOUT_STOPPED, KOUT_FULL };

struct ra_kout {
	unsigned long long start, size;	/* the decision's window */
	unsigned long long pages, used, evicted, cached, lead_ns;
	unsigned long lineno;
	unsigned int src, file;		/* file: as trace's */
	unsigned int pattern;		/* index into trace->strs */
	unsigned char stall;
	unsigned char end;		/* enum kout_end */
};

/* The events summed by file or by pattern: a row of a table. */
struct kout_row {
	unsigned int key;		/* file (trace->files) or pattern */
	struct ra_outcome o;
};

/* The events matched to the windows the stock events gave. */
struct kout_agree {
	unsigned long kernel, stock;	/* events, and records to match */
	unsigned long matched;		/* pairs of one of each */
	unsigned long sizes_agreed;	/* pairs' pages within one page */
	unsigned long first_differs;	/* the first other pair's event line */
	unsigned long full;		/* events of a full tracker */
	struct ra_outcome k, s;		/* the pairs' sums, on each side */
	int uses;			/* the stock side tells used pages */
};

enum ra_parse_result kout_parse_line(const char *line, struct ra_rec *rec,
				     struct ra_kout *ko, const char **why);
void kout_add(struct trace *t, const struct ra_kout *ko);
size_t kout_rows(const struct trace *t, int by_pattern,
		 struct kout_row **rows);
int kout_agreement(const struct trace *t, struct kout_agree *a);
int kout_diff_pct(unsigned long long kernel, unsigned long long stock,
		  double *pct);
int kout_agrees(const struct kout_agree *a);
void kout_print(FILE *out, const struct trace *t);

/* json.c */
void json_print(FILE *out, const struct trace *t);

/* stats.c */
void stats_print(FILE *out, const struct trace *t);

/* streams.c */
void streams_build(struct trace *t);
void streams_print_flags(FILE *out, const struct trace *t);
void streams_print_windows(FILE *out, const struct trace *t);
const char *rec_where(const struct trace *t, const struct ra_win *r,
		      char *buf, size_t len);

/* plot.c */
int plot_write(const struct trace *t, const char *prefix);

/* util.c */
void *xmalloc(size_t size);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t size);
char *xstrndup(const char *s, size_t n);
void *grow(void *p, size_t *alloc, size_t nr, size_t size);
void hmap_init(struct hmap *h, unsigned int words);
unsigned int *hmap_slot(struct hmap *h, const unsigned long long *key);
unsigned int hmap_get(const struct hmap *h, const unsigned long long *key);
void hmap_free(struct hmap *h);
unsigned int strtab_add(struct strtab *st, char *s);
void strtab_free(struct strtab *st);
int print_name(FILE *out, const char *s);
void print_field(FILE *out, const char *s, int width);

#endif /* RA_ANALYZE_H */
