/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ra_analyze.h - shared types of the readahead trace analyzer: one parsed
 * trace record, the whole trace, and the entry points of each part.
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

/* One readahead decision, i.e. one parsed trace line. */
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

	/* Filled in by streams_build(). */
	size_t stream;			/* index into trace->streams */
	unsigned int flags;		/* RA_F_* */
	size_t dup_of;			/* record index, valid if RA_F_DUP */
};

/* A stream: the windows of one (pid, dev, ino), in trace order. */
struct ra_stream {
	size_t *recs;			/* record indices */
	size_t nr, alloc;
};

struct trace {
	struct ra_rec *recs;
	size_t nr, alloc;
	const char **srcs;		/* input names, "-" is stdin */
	unsigned int nr_srcs;
	unsigned long parsed, skipped, other;
	struct ra_stream *streams;
	size_t nr_streams;
};

/* parse.c */
enum ra_parse_result { RA_PARSE_OK, RA_PARSE_OTHER, RA_PARSE_BAD };
enum ra_parse_result ra_parse_line(const char *line, struct ra_rec *rec,
				   const char **why);
void ra_rec_free(struct ra_rec *rec);

/* input.c */
int input_read(struct trace *t, const char *path);
void trace_free(struct trace *t);

/* stats.c */
void stats_print(FILE *out, const struct trace *t);

/* streams.c */
void streams_build(struct trace *t);
void streams_print_flags(FILE *out, const struct trace *t);
void streams_print_windows(FILE *out, const struct trace *t);
const char *rec_where(const struct trace *t, const struct ra_rec *r,
		      char *buf, size_t len);

/* plot.c */
int plot_write(const struct trace *t, const char *prefix);

/* util.c */
void *xmalloc(size_t size);
void *xrealloc(void *p, size_t size);
char *xstrndup(const char *s, size_t n);
int print_name(FILE *out, const char *s);
void print_field(FILE *out, const char *s, int width);

#endif /* RA_ANALYZE_H */
