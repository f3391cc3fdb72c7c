// SPDX-License-Identifier: GPL-2.0
/*
 * plot.c - gnuplot output: PREFIX.dat (one data block per stream),
 * PREFIX.gp (windows over request offset and over call order) and, when
 * gnuplot is on PATH, PREFIX.png.
 */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ra_analyze.h"

static char *with_suffix(const char *prefix, const char *suffix)
{
	size_t n = strlen(prefix);
	char *s = xmalloc(n + strlen(suffix) + 1);

	memcpy(s, prefix, n);
	strcpy(s + n, suffix);
	return s;
}

/* Print @s as a gnuplot single-quoted string. */
static void gp_string(FILE *f, const char *s)
{
	fputc('\'', f);
	for (; *s; s++) {
		if (*s == '\'')
			fputc('\'', f);
		fputc(*s, f);
	}
	fputc('\'', f);
}

static int write_dat(const struct trace *t, const char *path)
{
	const struct ra_stream *s;
	const struct ra_win *r;
	const struct ra_file *fl;
	size_t i, k;
	FILE *f;

	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "ra_analyze: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# call line req_off start size async_size actual\n");
	for (i = 0; i < t->nr_streams; i++) {
		s = &t->streams[i];
		r = &t->recs[s->recs[0]];
		fl = rec_file(t, r);
		fprintf(f, "%s# stream %zu pid=%lu(", i ? "\n\n" : "", i + 1,
			rec_proc(t, r)->pid);
		print_name(f, rec_str(t, rec_proc(t, r)->comm));
		fprintf(f, ") dev=%02x:%02x ino=%llu(", fl->major, fl->minor,
			fl->ino);
		print_name(f, rec_str(t, fl->name));
		fprintf(f, ")\n");
		for (k = 0; k < s->nr; k++) {
			r = &t->recs[s->recs[k]];
			fprintf(f, "%zu %lu %llu %llu %llu %llu %llu\n",
				(size_t)s->recs[k] + 1, r->lineno, r->req_off,
				r->start, r->size, r->async_size, r->actual);
		}
	}
	if (fclose(f)) {
		fprintf(stderr, "ra_analyze: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static void plot_cmd(FILE *f, const struct trace *t, const char *dat,
		     const char *x)
{
	const struct ra_win *r;
	size_t i;

	if (!t->nr_streams) {
		fprintf(f, "plot NaN notitle\n");
		return;
	}
	fprintf(f, "plot ");
	for (i = 0; i < t->nr_streams; i++) {
		r = &t->recs[t->streams[i].recs[0]];
		fprintf(f, "%s", i ? ", \\\n     " : "");
		gp_string(f, dat);
		fprintf(f, " index %zu using %s:4:4:($4+$5) with yerrorbars ",
			i, x);
		if (t->nr_streams <= 16)
			fprintf(f, "title 'pid %lu ino %llu'",
				rec_proc(t, r)->pid, rec_file(t, r)->ino);
		else
			fprintf(f, "notitle");
	}
	fprintf(f, "\n");
}

static int write_gp(const struct trace *t, const char *path,
		    const char *dat, const char *png)
{
	FILE *f;

	f = fopen(path, "w");
	if (!f) {
		fprintf(stderr, "ra_analyze: %s: %s\n", path, strerror(errno));
		return -1;
	}
	fprintf(f, "# readahead windows: each bar spans START..START+SIZE\n");
	fprintf(f, "set terminal png size 1200,1000\nset output ");
	gp_string(f, png);
	fprintf(f, "\nset multiplot layout 2,1\nset key outside right\n");
	fprintf(f, "set ylabel 'window (page offset)'\n");
	fprintf(f, "set title 'readahead windows over request offset'\n");
	fprintf(f, "set xlabel 'request offset (pages)'\n");
	plot_cmd(f, t, dat, "3");
	fprintf(f, "set title 'readahead windows over call order'\n");
	fprintf(f, "set xlabel 'call number'\n");
	plot_cmd(f, t, dat, "1");
	fprintf(f, "unset multiplot\n");
	if (fclose(f)) {
		fprintf(stderr, "ra_analyze: %s: %s\n", path, strerror(errno));
		return -1;
	}
	return 0;
}

static int have_gnuplot(void)
{
	const char *path = getenv("PATH");
	const char *p, *end;
	char buf[4096];
	size_t n;

	for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
		end = strchr(p, ':');
		if (!end)
			end = p + strlen(p);
		n = end - p;
		if (!n || n + sizeof("/gnuplot") > sizeof(buf))
			continue;
		memcpy(buf, p, n);
		strcpy(buf + n, "/gnuplot");
		if (!access(buf, X_OK))
			return 1;
	}
	return 0;
}

static int run_gnuplot(const char *gp)
{
	int status;
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		fprintf(stderr, "ra_analyze: fork: %s\n", strerror(errno));
		return -1;
	}
	if (!pid) {
		execlp("gnuplot", "gnuplot", gp, (char *)NULL);
		fprintf(stderr, "ra_analyze: gnuplot: %s\n", strerror(errno));
		_exit(127);
	}
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		fprintf(stderr, "ra_analyze: gnuplot %s failed\n", gp);
		return -1;
	}
	return 0;
}

int plot_write(const struct trace *t, const char *prefix)
{
	char *dat = with_suffix(prefix, ".dat");
	char *gp = with_suffix(prefix, ".gp");
	char *png = with_suffix(prefix, ".png");
	int ret;

	ret = write_dat(t, dat);
	if (!ret)
		ret = write_gp(t, gp, dat, png);
	if (!ret && !t->nr_streams)
		fprintf(stderr, "ra_analyze: nothing to plot, %s not made\n",
			png);
	else if (!ret && have_gnuplot())
		ret = run_gnuplot(gp);
	free(dat);
	free(gp);
	free(png);
	return ret;
}
