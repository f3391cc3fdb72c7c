// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - the line parser: turns one readahead decision into a struct
 * ra_rec or says why it cannot.  A decision is either a log line of the
 * debugfs view (READAHEAD_TRACE_FMT, after mail quotes, "==>" highlights
 * and dmesg prefixes are stripped) or a readahead:readahead_decision
 * event as trace_pipe, trace-cmd report or perf script print it.  Also
 * the pieces the other event parsers share (stock.c, outcome.c): the
 * cursor's literals, numbers and "key=" fields, an event's name and
 * task, and the "dev= ino= pattern=" our events begin with.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

/* Skip a dmesg "[   54.738105]" timestamp; return the new position. */
static const char *skip_timestamp(const char *p)
{
	const char *q = p + 1;

	while (*q == ' ')
		q++;
	if (!isdigit((unsigned char)*q))
		return p;
	while (isdigit((unsigned char)*q) || *q == '.')
		q++;
	if (*q != ']')
		return p;
	return q + 1;
}

/* Skip a syslog "<6>" level; return the new position. */
static const char *skip_level(const char *p)
{
	const char *q = p + 1;

	if (!isdigit((unsigned char)*q))
		return p;
	while (isdigit((unsigned char)*q))
		q++;
	if (*q != '>')
		return p;
	return q + 1;
}

/*
 * Strip everything that may precede the trace text, in any order: blanks,
 * mail quotes ("> ", "> > ", ">>"), "==>" highlights, timestamps, levels.
 */
static const char *strip_prefixes(const char *p, int *highlighted)
{
	const char *q;

	for (;;) {
		if (*p == ' ' || *p == '\t') {
			p++;
		} else if (!strncmp(p, "==>", 3)) {
			*highlighted = 1;
			p += 3;
		} else if (*p == '>') {
			p++;
		} else if (*p == '[') {
			q = skip_timestamp(p);
			if (q == p)
				return p;
			p = q;
		} else if (*p == '<') {
			q = skip_level(p);
			if (q == p)
				return p;
			p = q;
		} else {
			return p;
		}
	}
}

/* The literal @lit, else @why. */
int ra_expect(struct ra_cursor *c, const char *lit, const char *why)
{
	size_t n = strlen(lit);

	if (c->why)
		return -1;
	if (strncmp(c->p, lit, n)) {
		c->why = why;
		return -1;
	}
	c->p += n;
	return 0;
}

/* A number in @base (16: "0x" optional), else @why. */
unsigned long long ra_number(struct ra_cursor *c, int base, const char *why)
{
	unsigned long long v;
	char *end;

	if (c->why)
		return 0;
	if (base == 16 && !strncmp(c->p, "0x", 2))
		c->p += 2;
	if (!isxdigit((unsigned char)*c->p) ||
	    (base == 10 && !isdigit((unsigned char)*c->p))) {
		c->why = why;
		return 0;
	}
	errno = 0;
	v = strtoull(c->p, &end, base);
	if (errno == ERANGE) {
		c->why = "number out of range";
		return 0;
	}
	c->p = end;
	return v;
}

/* Take the text up to the delimiter @delim, which must follow it. */
static char *text_until(struct ra_cursor *c, const char *delim, const char *why)
{
	const char *end;
	char *s;

	if (c->why)
		return NULL;
	end = strstr(c->p, delim);
	if (!end) {
		c->why = why;
		return NULL;
	}
	s = xstrndup(c->p, end - c->p);
	c->p = end + strlen(delim);
	return s;
}

static char *word(struct ra_cursor *c, const char *why)
{
	const char *s = c->p;

	if (c->why)
		return NULL;
	while ((*c->p >= 'a' && *c->p <= 'z') ||
	       (*c->p >= '0' && *c->p <= '9') || *c->p == '_')
		c->p++;
	if (c->p == s) {
		c->why = why;
		return NULL;
	}
	return xstrndup(s, c->p - s);
}

void ra_rec_free(struct ra_rec *rec)
{
	free(rec->pattern);
	free(rec->comm);
	free(rec->bdev);
	free(rec->name);
	rec->pattern = rec->comm = rec->bdev = rec->name = NULL;
}

static void parse_body(struct ra_cursor *c, struct ra_rec *r)
{
	unsigned long long v;

	ra_expect(c, "readahead-", "expected 'readahead-' at start of trace");
	r->pattern = word(c, "missing pattern after 'readahead-'");
	ra_expect(c, "(pid=", "expected '(pid=' after pattern");
	v = ra_number(c, 10, "bad pid");
	r->pid = v;
	if (!c->why && r->pid != v)
		c->why = "pid out of range";
	ra_expect(c, "(", "expected '(' after pid");
	r->comm = text_until(c, "), dev=", "missing '), dev='");
	v = ra_number(c, 16, "bad device major");
	r->major = v;
	if (!c->why && r->major != v)
		c->why = "device major out of range";
	ra_expect(c, ":", "expected ':' in dev");
	v = ra_number(c, 16, "bad device minor");
	r->minor = v;
	if (!c->why && r->minor != v)
		c->why = "device minor out of range";
	ra_expect(c, "(", "expected '(' after dev");
	r->bdev = text_until(c, "), ino=", "missing '), ino='");
	r->ino = ra_number(c, 10, "bad inode number");
	ra_expect(c, "(", "expected '(' after ino");
	r->name = text_until(c, "), req=", "missing '), req='");
	r->req_off = ra_number(c, 10, "bad request offset");
	ra_expect(c, "+", "expected '+' in req");
	r->req_size = ra_number(c, 10, "bad request size");
	ra_expect(c, ", ra=", "expected ', ra='");
	r->start = ra_number(c, 10, "bad window start");
	ra_expect(c, "+", "expected '+' in ra");
	r->size = ra_number(c, 10, "bad window size");
	ra_expect(c, "-", "expected '-' in ra");
	r->async_size = ra_number(c, 10, "bad async size");
	ra_expect(c, ", async=", "expected ', async='");
	r->async = ra_number(c, 10, "bad async value");
	if (!c->why && !strncmp(c->p, ", miss=", 7)) {
		c->p += 7;
		r->has_miss = 1;
		r->miss = ra_number(c, 10, "bad miss value");
	}
	ra_expect(c, ") = ", "expected ') = '");
	r->actual = ra_number(c, 10, "bad result (pages submitted)");
	if (c->why)
		return;
	while (isspace((unsigned char)*c->p))
		c->p++;
	if (*c->p)
		c->why = "trailing text after result";
}

/*
 * The end of an event line's parse: RA_PARSE_BAD with the cursor's error
 * (@rec freed), else RA_PARSE_OK with @rec's device and file names empty
 * (an event names a file by its numbers).
 */
enum ra_parse_result ra_parse_event_end(const struct ra_cursor *c,
					struct ra_rec *rec, const char **why)
{
	if (c->why) {
		ra_rec_free(rec);
		*why = c->why;
		return RA_PARSE_BAD;
	}
	rec->bdev = xstrndup("", 0);
	rec->name = xstrndup("", 0);
	return RA_PARSE_OK;
}

/*
 * The task of an event line, up to @end (the event's name): "COMM-PID"
 * (trace_pipe, trace-cmd) or "COMM PID" (perf script), right before the
 * " [CPU]" column.  The comm may hold blanks and dashes: the pid is the
 * digits after the last dash or blank before the column.
 */
void ra_parse_task(struct ra_cursor *c, struct ra_rec *r, const char *end)
{
	const char *col, *pid, *comm = c->p;

	while (*comm == ' ' || *comm == '\t')
		comm++;
	if (end - comm < 2 || strncmp(end - 2, ": ", 2))
		goto bad;
	for (col = strstr(comm, " ["); col && col < end;
	     col = strstr(col + 1, " [")) {
		const char *q = col;

		while (q > comm && q[-1] == ' ')
			q--;
		pid = q;
		while (pid > comm && isdigit((unsigned char)pid[-1]))
			pid--;
		if (pid < q && pid > comm + 1 &&
		    (pid[-1] == '-' || pid[-1] == ' ')) {
			const char *ce = pid - 1;

			while (ce > comm && ce[-1] == ' ')
				ce--;
			r->comm = xstrndup(comm, ce - comm);
			c->p = pid;
			r->pid = ra_number(c, 10, "bad pid");
			c->p = end;
			return;
		}
	}
bad:
	c->why = "expected 'COMM-PID [CPU] ... TIME: ' before the event";
}

/* Blanks, then "@key=" and a number in @base. */
unsigned long long ra_field(struct ra_cursor *c, const char *key, int base,
			    const char *why)
{
	if (c->why)
		return 0;
	while (*c->p == ' ' || *c->p == '\t')
		c->p++;
	if (ra_expect(c, key, why))
		return 0;
	return ra_number(c, base, why);
}

/*
 * Find the event readahead:@name in @line, as perf script
 * ("readahead:NAME:") or trace_pipe and trace-cmd report ("NAME:") print
 * it.  Returns where the event begins (the task and time are before it)
 * and sets *@fields past its name's colon; NULL if it is not there.
 */
const char *ra_find_event(const char *line, const char *name,
			  const char **fields)
{
	static const char sys[] = "readahead:";
	size_t n = strlen(name), ns = sizeof(sys) - 1;
	const char *p;

	for (p = strstr(line, name); p; p = strstr(p + 1, name)) {
		if (p[n] != ':')
			continue;
		*fields = p + n + 1;
		if ((size_t)(p - line) >= ns && !strncmp(p - ns, sys, ns))
			return p - ns;
		return p;
	}
	return NULL;
}

/*
 * "dev=MAJOR:MINOR ino=HEX pattern=NAME": how readahead_decision and
 * readahead_outcome begin.
 */
void ra_event_head(struct ra_cursor *c, struct ra_rec *r)
{
	unsigned long long v;

	v = ra_field(c, "dev=", 10, "expected 'dev=MAJOR:MINOR'");
	r->major = v;
	if (!c->why && r->major != v)
		c->why = "device major out of range";
	ra_expect(c, ":", "expected ':' in dev");
	v = ra_number(c, 10, "bad device minor");
	r->minor = v;
	if (!c->why && r->minor != v)
		c->why = "device minor out of range";
	r->ino = ra_field(c, "ino=", 16, "expected 'ino=' (hex)");
	if (!c->why) {
		while (*c->p == ' ')
			c->p++;
		ra_expect(c, "pattern=", "expected 'pattern='");
		r->pattern = word(c, "missing pattern after 'pattern='");
	}
}

/*
 * The fields of readahead_decision, in the order its TP_printk prints
 * them.  The event has no names: no bdev, no file name (they print as
 * "-"), and the window is asynchronous when it starts past the request,
 * as the log line says.
 */
static void parse_event(struct ra_cursor *c, struct ra_rec *r)
{
	ra_event_head(c, r);
	r->req_off = ra_field(c, "index=", 10, "expected 'index='");
	r->req_size = ra_field(c, "req_count=", 10, "expected 'req_count='");
	r->start = ra_field(c, "start=", 10, "expected 'start='");
	r->size = ra_field(c, "size=", 10, "expected 'size='");
	r->async_size = ra_field(c, "async_size=", 10,
				 "expected 'async_size='");
	ra_field(c, "order=", 10, "expected 'order='");
	r->has_miss = ra_field(c, "fault=", 10, "expected 'fault=' (0 or 1)");
	if (!c->why && r->has_miss > 1)
		c->why = "fault is neither 0 nor 1";
	r->miss = ra_field(c, "mmap_miss=", 10, "expected 'mmap_miss='");
	r->actual = ra_field(c, "nr_read=", 10, "expected 'nr_read='");
	if (c->why)
		return;
	r->async = r->start > r->req_off;
	r->bdev = xstrndup("", 0);
	r->name = xstrndup("", 0);
	while (isspace((unsigned char)*c->p))
		c->p++;
	if (*c->p)
		c->why = "trailing text after nr_read";
}

/*
 * Parse one input line (without its newline).  Lines that are neither a
 * readahead_decision event nor hold "readahead-" are RA_PARSE_OTHER (the
 * other readahead events among them); lines that are and do not parse
 * are RA_PARSE_BAD and *why says what was wrong.  On RA_PARSE_OK @rec
 * owns its strings.
 */
enum ra_parse_result ra_parse_line(const char *line, struct ra_rec *rec,
				   const char **why)
{
	struct ra_cursor c = { line, NULL };
	const char *event, *fields;

	memset(rec, 0, sizeof(*rec));
	event = ra_find_event(line, "readahead_decision", &fields);
	if (event) {
		ra_parse_task(&c, rec, event);
		c.p = c.why ? c.p : fields;
		parse_event(&c, rec);
		goto done;
	}
	if (!strstr(line, "readahead-"))
		return RA_PARSE_OTHER;
	c.p = strip_prefixes(line, &rec->highlighted);
	parse_body(&c, rec);
done:
	if (c.why) {
		ra_rec_free(rec);
		*why = c.why;
		return RA_PARSE_BAD;
	}
	return RA_PARSE_OK;
}
