/* SPDX-License-Identifier: GPL-2.0 */
/*
 * tap.h - TAP for the C test programs (the harness, the replay's tests,
 * the nbd filter's, the schedulers' elv_test), as scripts/tap.sh prints
 * it for the shell ones.
 */
#ifndef RA_TAP_H
#define RA_TAP_H

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

/*
 * TAP, as kselftest prints it: "TAP version 13", one "ok N - NAME" or
 * "not ok N - NAME" per test ("ok N - NAME # SKIP REASON" for one that
 * cannot run here: neither passed nor failed), "# " lines for anything
 * else, and the plan "1..N" with the totals at the end.  The counts live
 * in one struct tap_state per program (TAP_STATE defines it).
 */
#ifndef __printf
#define __printf(a, b)	__attribute__((format(printf, a, b)))
#endif

struct tap_state {
	int n, passed, failed, skipped;
};

extern struct tap_state tap;
#define TAP_STATE struct tap_state tap

static inline void tap_begin(void)
{
	printf("TAP version 13\n");
}

static inline void tap_vline(const char *result, const char *fmt,
			     va_list ap)
{
	printf("%s %d - ", result, ++tap.n);
	vprintf(fmt, ap);
}

static inline __printf(2, 3)
void tap_result(bool ok, const char *fmt, ...)
{
	va_list ap;

	if (ok)
		tap.passed++;
	else
		tap.failed++;
	va_start(ap, fmt);
	tap_vline(ok ? "ok" : "not ok", fmt, ap);
	va_end(ap);
	printf("\n");
}

static inline __printf(2, 3)
void tap_skip(const char *reason, const char *fmt, ...)
{
	va_list ap;

	tap.skipped++;
	va_start(ap, fmt);
	tap_vline("ok", fmt, ap);
	va_end(ap);
	printf(" # SKIP %s\n", reason);
}

/* Diagnostic lines: each line of the text after "# ". */
static inline __printf(1, 2)
void tap_diag(const char *fmt, ...)
{
	char buf[4096], *line, *next;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	for (line = buf; line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		printf("# %s\n", line);
	}
}

/* The plan and the totals; the exit status of the program. */
static inline int tap_end(void)
{
	printf("1..%d\n", tap.n);
	printf("# Totals: pass:%d fail:%d xfail:0 xpass:0 skip:%d error:0\n",
	       tap.passed, tap.failed, tap.skipped);
	return tap.failed ? 1 : 0;
}

#endif /* RA_TAP_H */
