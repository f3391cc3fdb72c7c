// SPDX-License-Identifier: GPL-2.0
/*
 * jobfile.c - the fio job file parser (a subset of fio's format).
 *
 * Owns reading job files into struct job: "[global]" and job sections,
 * "key=value" and bare "key" lines, '#' and ';' comments, ${NAME}
 * expanded from --define or the environment.  The options are fio's:
 * rw=read|randread, bs, size, offset, io_size (bytes each process
 * reads, default size; sizes with k/m/g/t suffixes, base 1024),
 * ioengine=sync|psync|mmap, numjobs, filename, fadvise_hint=0|1,
 * thinktime (microseconds, or with a us/ms/s suffix), invalidate=0|1,
 * group_reporting, continue_on_error=none|read|io|all|0|1 (the job
 * stops at its first I/O error, or counts it and goes on), and one
 * option of the simulator's own: pre_cached=SIZE, the file's last SIZE
 * bytes in the page cache at start (a file just written; fio's
 * invalidate=1 drops them again), fio's mmap engine option thp=0|1
 * (MADV_HUGEPAGE on the mapping), and large_folios=0|1, the file's
 * mapping supports large folios (as XFS's in 6.1; every job naming the
 * file must agree).  Defaults follow fio: rw=read, bs=4k, numjobs=1,
 * fadvise_hint=1, invalidate=1; ioengine=sync.  Any other option, a
 * malformed line or a bad value is an error naming the file and line,
 * and the caller runs nothing.  Also the small parsing helpers the
 * machine description parser shares.
 */
#include "jobs.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <string.h>

struct job jobs[MAX_JOBS];
unsigned int nr_jobs;

#define MAX_DEFINES	64
static struct {
	char name[64];
	char value[256];
} defines[MAX_DEFINES];
static unsigned int nr_defines;

void jobfile_define(const char *name, const char *value)
{
	if (nr_defines == MAX_DEFINES)
		sim_die("sim: too many --define");
	snprintf(defines[nr_defines].name, sizeof(defines[0].name), "%s",
		 name);
	snprintf(defines[nr_defines].value, sizeof(defines[0].value), "%s",
		 value);
	nr_defines++;
}

static const char *lookup_define(const char *name)
{
	unsigned int i;

	for (i = nr_defines; i-- > 0;)
		if (!strcmp(defines[i].name, name))
			return defines[i].value;
	return getenv(name);
}

char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = '\0';
	return s;
}

/*
 * The number parsers return 0, -1 for a malformed value, or -2 for a
 * number too large for its type (strtoull() saturates at UINT64_MAX and
 * strtod() at HUGE_VAL: neither is taken as the value).
 */
int parse_uint(const char *s, uint64_t *out)
{
	char *end;
	uint64_t v;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (*end)
		return -1;
	if (errno == ERANGE)
		return -2;
	*out = v;
	return 0;
}

int parse_double(const char *s, double *out)
{
	char *end;
	double v;

	if (!isdigit((unsigned char)*s) && *s != '.')
		return -1;
	errno = 0;
	v = strtod(s, &end);
	if (*end)
		return -1;
	if (errno == ERANGE || !isfinite(v))
		return -2;
	*out = v;
	return 0;
}

int parse_size(const char *s, uint64_t *out)
{
	char *end;
	uint64_t v, mult = 1;

	if (!isdigit((unsigned char)*s))
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno == ERANGE)
		v = UINT64_MAX;
	switch (tolower((unsigned char)*end)) {
	case 'k':
		mult = 1ULL << 10;
		break;
	case 'm':
		mult = 1ULL << 20;
		break;
	case 'g':
		mult = 1ULL << 30;
		break;
	case 't':
		mult = 1ULL << 40;
		break;
	case '\0':
		break;
	default:
		return -1;
	}
	if (*end) {
		end++;
		if (tolower((unsigned char)*end) == 'i')
			end++;
		if (tolower((unsigned char)*end) == 'b')
			end++;
	}
	if (*end)
		return -1;
	if (v == UINT64_MAX || v > UINT64_MAX / mult)
		return -2;
	*out = v * mult;
	return 0;
}

/* @v as a size the parser reads back: "64t", "1m", "512". */
static void fmt_size(char *buf, size_t n, uint64_t v)
{
	static const char sfx[] = "kmgt";
	int i = -1;

	while (i < 3 && v && !(v & 1023)) {
		v >>= 10;
		i++;
	}
	if (i < 0)
		snprintf(buf, n, "%llu", (unsigned long long)v);
	else
		snprintf(buf, n, "%llu%c", (unsigned long long)v, sfx[i]);
}

/*
 * The checked option values, shared by the two parsers: parse @val into
 * *@out if it lies in [@lo, @hi], else print the "PATH:LINE:" error (a
 * number out of range names the range) and leave *@out alone.
 */
static int range_err(const char *path, int line, const char *key,
		     const char *val, const char *lo, const char *hi)
{
	return file_err(path, line,
			"bad value '%s' for option '%s' (allowed: %s to %s)",
			val, key, lo, hi);
}

/* A whole number by @parse, in [lo, hi] (printed by @fmt) or an error. */
static int opt_u64(const char *path, int line, const char *key,
		   const char *val, uint64_t lo, uint64_t hi, uint64_t *out,
		   int (*parse)(const char *s, uint64_t *out), bool size)
{
	char l[32], h[32];
	uint64_t v = 0;
	int ret = parse(val, &v);

	if (ret == -1)
		return file_err(path, line, "bad value '%s' for option '%s'",
				val, key);
	if (ret || v < lo || v > hi) {
		if (size) {
			fmt_size(l, sizeof(l), lo);
			fmt_size(h, sizeof(h), hi);
		} else {
			snprintf(l, sizeof(l), "%llu", (unsigned long long)lo);
			snprintf(h, sizeof(h), "%llu", (unsigned long long)hi);
		}
		return range_err(path, line, key, val, l, h);
	}
	*out = v;
	return 0;
}

int opt_size(const char *path, int line, const char *key, const char *val,
	     uint64_t lo, uint64_t hi, uint64_t *out)
{
	return opt_u64(path, line, key, val, lo, hi, out, parse_size, true);
}

int opt_uint(const char *path, int line, const char *key, const char *val,
	     uint64_t lo, uint64_t hi, uint64_t *out)
{
	return opt_u64(path, line, key, val, lo, hi, out, parse_uint, false);
}

int opt_double(const char *path, int line, const char *key, const char *val,
	       double lo, double hi, double *out)
{
	char l[32], h[32];
	double v = 0;
	int ret = parse_double(val, &v);

	if (ret == -1)
		return file_err(path, line, "bad value '%s' for option '%s'",
				val, key);
	if (ret || !(v >= lo && v <= hi)) {
		snprintf(l, sizeof(l), "%.15g", lo);
		snprintf(h, sizeof(h), "%.15g", hi);
		return range_err(path, line, key, val, l, h);
	}
	*out = v;
	return 0;
}

static int parse_bool(const char *s, bool *out)
{
	if (!*s || !strcmp(s, "1")) {
		*out = true;
		return 0;
	}
	if (!strcmp(s, "0")) {
		*out = false;
		return 0;
	}
	return -1;
}

/* Microseconds, or with a us/ms/s suffix; -2 above @max_us. */
static int parse_time_us(const char *s, uint64_t max_us, uint64_t *out)
{
	char num[64], *end;
	uint64_t v, mult = 1;
	size_t n = strspn(s, "0123456789");

	if (!n || n >= sizeof(num))
		return -1;
	memcpy(num, s, n);
	num[n] = '\0';
	errno = 0;
	v = strtoull(num, &end, 10);
	s += n;
	if (!strcmp(s, "") || !strcmp(s, "us"))
		mult = 1;
	else if (!strcmp(s, "ms"))
		mult = 1000;
	else if (!strcmp(s, "s"))
		mult = 1000000;
	else
		return -1;
	if (errno == ERANGE || v > max_us / mult)
		return -2;
	*out = v * mult;
	return 0;
}

static const char *cur_path;
static int cur_line;

/* "FILE:LINE: message" on stderr; returns -1.  Both parsers use it. */
int file_err(const char *path, int line, const char *fmt, ...)
{
	va_list ap;

	fprintf(stderr, "%s:%d: ", path, line);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	return -1;
}

#define err(...) file_err(cur_path, cur_line, __VA_ARGS__)

/* Expand ${NAME} in @in into @out. */
static int expand(const char *in, char *out, size_t size)
{
	size_t o = 0;

	while (*in) {
		if (in[0] == '$' && in[1] == '{') {
			const char *close = strchr(in, '}');
			char name[64];
			const char *v;
			size_t n;

			if (!close || close - in - 2 >= (long)sizeof(name) ||
			    close == in + 2)
				return err("malformed variable reference");
			n = close - in - 2;
			memcpy(name, in + 2, n);
			name[n] = '\0';
			v = lookup_define(name);
			if (!v)
				return err("undefined variable ${%s}", name);
			n = strlen(v);
			if (o + n >= size)
				return err("line too long");
			memcpy(out + o, v, n);
			o += n;
			in = close + 1;
			continue;
		}
		if (o + 1 >= size)
			return err("line too long");
		out[o++] = *in++;
	}
	out[o] = '\0';
	return 0;
}

static int set_option(struct job *j, const char *key, const char *val)
{
	uint64_t u;

	if (!strcmp(key, "rw")) {
		if (!strcmp(val, "read"))
			j->rw = RW_READ;
		else if (!strcmp(val, "randread"))
			j->rw = RW_RANDREAD;
		else
			goto bad;
	} else if (!strcmp(key, "bs")) {
		if (opt_size(cur_path, cur_line, key, val, 512, SIM_MAX_BS, &u))
			return -1;
		if (u % 512)
			return err("bad value '%s' for option '%s' (allowed: a multiple of 512)",
				   val, key);
		j->bs = u;
	} else if (!strcmp(key, "size")) {
		return opt_size(cur_path, cur_line, key, val, 1, SIM_MAX_BYTES,
				&j->size);
	} else if (!strcmp(key, "offset")) {
		return opt_size(cur_path, cur_line, key, val, 0, SIM_MAX_BYTES,
				&j->offset);
	} else if (!strcmp(key, "io_size")) {
		return opt_size(cur_path, cur_line, key, val, 0, SIM_MAX_BYTES,
				&j->io_size);
	} else if (!strcmp(key, "ioengine")) {
		if (!strcmp(val, "sync"))
			j->engine = ENG_SYNC;
		else if (!strcmp(val, "psync"))
			j->engine = ENG_PSYNC;
		else if (!strcmp(val, "mmap"))
			j->engine = ENG_MMAP;
		else
			goto bad;
	} else if (!strcmp(key, "numjobs")) {
		if (opt_uint(cur_path, cur_line, key, val, 1, 4096, &u))
			return -1;
		j->numjobs = u;
	} else if (!strcmp(key, "filename")) {
		if (!*val || strlen(val) >= sizeof(j->filename) ||
		    strchr(val, ':'))
			goto bad;
		strcpy(j->filename, val);
		j->filename_line = cur_line;
	} else if (!strcmp(key, "fadvise_hint")) {
		if (!*val || parse_bool(val, &j->fadvise_hint))
			goto bad;
	} else if (!strcmp(key, "thinktime")) {
		int ret = parse_time_us(val, SIM_MAX_THINK_US, &u);

		if (ret == -1)
			goto bad;
		if (ret)
			return err("bad value '%s' for option '%s' (allowed: 0 to %llus)",
				   val, key, SIM_MAX_THINK_US / 1000000);
		j->thinktime_us = u;
	} else if (!strcmp(key, "invalidate")) {
		if (!*val || parse_bool(val, &j->invalidate))
			goto bad;
	} else if (!strcmp(key, "continue_on_error")) {
		if (!strcmp(val, "none") || !strcmp(val, "0"))
			j->continue_on_error = false;
		else if (!strcmp(val, "read") || !strcmp(val, "io") ||
			 !strcmp(val, "all") || !strcmp(val, "1"))
			j->continue_on_error = true;
		else
			goto bad;
	} else if (!strcmp(key, "pre_cached")) {
		return opt_size(cur_path, cur_line, key, val, 0, SIM_MAX_BYTES,
				&j->pre_cached);
	} else if (!strcmp(key, "group_reporting")) {
		if (parse_bool(val, &j->group_reporting))
			goto bad;
	} else if (!strcmp(key, "thp")) {
		if (!*val || parse_bool(val, &j->thp))
			return err("bad value '%s' for option '%s' (allowed: 0 or 1)",
				   val, key);
		j->thp_line = cur_line;
	} else if (!strcmp(key, "large_folios")) {
		if (!*val || parse_bool(val, &j->large_folios))
			return err("bad value '%s' for option '%s' (allowed: 0 or 1)",
				   val, key);
		j->large_folios_line = cur_line;
	} else {
		return err("unknown option '%s'", key);
	}
	return 0;
bad:
	return err("bad value '%s' for option '%s'", val, key);
}

static void job_defaults(struct job *j)
{
	memset(j, 0, sizeof(*j));
	j->rw = RW_READ;
	j->engine = ENG_SYNC;
	j->bs = 4096;
	j->numjobs = 1;
	j->fadvise_hint = true;
	j->invalidate = true;
}

static int finish_job(struct job *j)
{
	const char *what = !j->filename[0] ? "filename" :
			   !j->size ? "size" : NULL;

	if (j->thp && j->engine != ENG_MMAP) {
		fprintf(stderr, "%s:%d: job '%s': thp=1 is an option of the mmap engine (allowed: with ioengine=mmap)\n",
			cur_path, j->thp_line, j->name);
		return -1;
	}
	if (!what)
		return 0;
	fprintf(stderr, "%s:%d: job '%s': no %s\n", cur_path, j->line,
		j->name, what);
	return -1;
}

int jobfile_parse(const char *path)
{
	FILE *f = fopen(path, "r");
	char raw[1024], line[2048];
	struct job global, *cur = NULL;
	bool in_global = false;
	int ret = 0;

	cur_path = path;
	cur_line = 0;
	if (!f) {
		fprintf(stderr, "%s: cannot open\n", path);
		return -1;
	}
	job_defaults(&global);
	while (fgets(raw, sizeof(raw), f)) {
		char *s, *eq;

		cur_line++;
		if (!strchr(raw, '\n') && !feof(f)) {
			ret = err("line too long");
			break;
		}
		s = trim(raw);
		if (!*s || *s == '#' || *s == ';')
			continue;
		if (expand(s, line, sizeof(line))) {
			ret = -1;
			break;
		}
		s = line;
		if (*s == '[') {
			char *close = strchr(s, ']');

			if (!close || close[1] || close == s + 1) {
				ret = err("malformed section header");
				break;
			}
			*close = '\0';
			if (cur)
				ret = finish_job(cur);
			if (ret)
				break;
			cur = NULL;
			in_global = !strcmp(s + 1, "global");
			if (in_global)
				continue;
			if (nr_jobs == MAX_JOBS) {
				ret = err("too many jobs");
				break;
			}
			cur = &jobs[nr_jobs++];
			*cur = global;
			snprintf(cur->name, sizeof(cur->name), "%.63s", s + 1);
			cur->path = path;
			cur->line = cur_line;
			continue;
		}
		if (!cur && !in_global) {
			ret = err("option outside a section");
			break;
		}
		eq = strchr(s, '=');
		if (eq) {
			*eq = '\0';
			s = trim(s);
			eq = trim(eq + 1);
			if (!*s || !*eq) {
				ret = err("malformed line");
				break;
			}
		} else {
			eq = "";
		}
		if (strspn(s, "abcdefghijklmnopqrstuvwxyz_0123456789") !=
		    strlen(s)) {
			ret = err("malformed line");
			break;
		}
		ret = set_option(cur ? cur : &global, s, eq);
		if (ret)
			break;
	}
	fclose(f);
	if (!ret && cur)
		ret = finish_job(cur);
	if (!ret && !nr_jobs) {
		fprintf(stderr, "%s: no jobs\n", path);
		ret = -1;
	}
	return ret;
}
