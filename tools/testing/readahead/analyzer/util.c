// SPDX-License-Identifier: GPL-2.0
/*
 * util.c - small helpers: allocation that cannot fail, and printing names
 * (comm, file, bdev) as single whitespace-free table fields.
 */
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

static void *check(void *p)
{
	if (!p) {
		fputs("ra_analyze: out of memory\n", stderr);
		exit(1);
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check(malloc(size ? size : 1));
}

void *xrealloc(void *p, size_t size)
{
	return check(realloc(p, size ? size : 1));
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

/*
 * Print @s so that it stays one field: whitespace, backslash and
 * non-printable bytes become octal escapes as in /proc/mounts ("\040"),
 * and an empty name becomes "-".
 */
int print_name(FILE *out, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;
	int n = 0;

	if (!*p)
		return fprintf(out, "-");
	for (; *p; p++) {
		if (*p <= ' ' || *p == '\\' || *p >= 0x7f)
			n += fprintf(out, "\\%03o", *p);
		else
			n += fprintf(out, "%c", *p);
	}
	return n;
}

/* print_name() padded with blanks to @width columns. */
void print_field(FILE *out, const char *s, int width)
{
	int n = print_name(out, s);

	while (n++ < width)
		fputc(' ', out);
}
