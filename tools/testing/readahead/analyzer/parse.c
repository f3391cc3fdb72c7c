// SPDX-License-Identifier: GPL-2.0
/*
 * parse.c - the line parser: strips mail quotes, "==>" highlights and
 * dmesg prefixes, then turns one readahead trace line into a struct ra_rec
 * or says why it cannot.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

struct cursor {
	const char *p;
	const char *why;
};

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

static int expect(struct cursor *c, const char *lit, const char *why)
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

static unsigned long long parse_number(struct cursor *c, int base,
					const char *why)
{
	unsigned long long v;
	char *end;

	if (c->why)
		return 0;
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
static char *text_until(struct cursor *c, const char *delim, const char *why)
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

static char *word(struct cursor *c, const char *why)
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

static void parse_body(struct cursor *c, struct ra_rec *r)
{
	unsigned long long v;

	expect(c, "readahead-", "expected 'readahead-' at start of trace");
	r->pattern = word(c, "missing pattern after 'readahead-'");
	expect(c, "(pid=", "expected '(pid=' after pattern");
	v = parse_number(c, 10, "bad pid");
	r->pid = v;
	if (!c->why && r->pid != v)
		c->why = "pid out of range";
	expect(c, "(", "expected '(' after pid");
	r->comm = text_until(c, "), dev=", "missing '), dev='");
	v = parse_number(c, 16, "bad device major");
	r->major = v;
	if (!c->why && r->major != v)
		c->why = "device major out of range";
	expect(c, ":", "expected ':' in dev");
	v = parse_number(c, 16, "bad device minor");
	r->minor = v;
	if (!c->why && r->minor != v)
		c->why = "device minor out of range";
	expect(c, "(", "expected '(' after dev");
	r->bdev = text_until(c, "), ino=", "missing '), ino='");
	r->ino = parse_number(c, 10, "bad inode number");
	expect(c, "(", "expected '(' after ino");
	r->name = text_until(c, "), req=", "missing '), req='");
	r->req_off = parse_number(c, 10, "bad request offset");
	expect(c, "+", "expected '+' in req");
	r->req_size = parse_number(c, 10, "bad request size");
	expect(c, ", ra=", "expected ', ra='");
	r->start = parse_number(c, 10, "bad window start");
	expect(c, "+", "expected '+' in ra");
	r->size = parse_number(c, 10, "bad window size");
	expect(c, "-", "expected '-' in ra");
	r->async_size = parse_number(c, 10, "bad async size");
	expect(c, ", async=", "expected ', async='");
	r->async = parse_number(c, 10, "bad async value");
	if (!c->why && !strncmp(c->p, ", miss=", 7)) {
		c->p += 7;
		r->has_miss = 1;
		r->miss = parse_number(c, 10, "bad miss value");
	}
	expect(c, ") = ", "expected ') = '");
	r->actual = parse_number(c, 10, "bad result (pages submitted)");
	if (c->why)
		return;
	while (isspace((unsigned char)*c->p))
		c->p++;
	if (*c->p)
		c->why = "trailing text after result";
}

/*
 * Parse one input line (without its newline).  Lines without "readahead-"
 * are RA_PARSE_OTHER; lines with it that do not parse are RA_PARSE_BAD and
 * *why says what was wrong.  On RA_PARSE_OK @rec owns its strings.  The
 * readahead tracepoint's text is the same line: trace_pipe and trace-cmd
 * put "COMM-PID [CPU] ... TIME: readahead: " before it.
 */
enum ra_parse_result ra_parse_line(const char *line, struct ra_rec *rec,
				   const char **why)
{
	struct cursor c = { NULL, NULL };
	const char *event;

	memset(rec, 0, sizeof(*rec));
	if (!strstr(line, "readahead-"))
		return RA_PARSE_OTHER;
	c.p = strip_prefixes(line, &rec->highlighted);
	event = strstr(c.p, ": readahead: readahead-");
	if (event)
		c.p = event + strlen(": readahead: ");
	parse_body(&c, rec);
	if (c.why) {
		ra_rec_free(rec);
		*why = c.why;
		return RA_PARSE_BAD;
	}
	return RA_PARSE_OK;
}
