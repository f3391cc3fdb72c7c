// SPDX-License-Identifier: GPL-2.0
/*
 * main.c - ra_analyze: command line options and the order of the report.
 *
 * Reads readahead trace lines ("readahead-PATTERN(pid=...) = ACTUAL") from
 * the files named, or stdin, and prints named tables: patterns, files,
 * processes, streams, flags, flag_lines (and windows with --streams), then
 * "lines: N parsed, N skipped, N other".  A trace with no readahead
 * decision but a stock kernel's filemap events (stock.c) gets the windows
 * inferred from them, and the stock_trace, outcomes and
 * outcomes_per_file tables.  A patched kernel's readahead_outcome events
 * (outcome.c) get the kernel_outcomes tables, and beside the filemap
 * events the outcome_agreement table.  --json prints the same figures
 * as JSON lines (json.c).
 */
#define _POSIX_C_SOURCE 200809L
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "ra_analyze.h"

static void print_usage(FILE *out)
{
	fprintf(out,
		"usage: ra_analyze [--streams | --json] [--plot PREFIX] [FILE...]\n"
		"  Summarise readahead trace lines from FILEs (or stdin): the\n"
		"  readahead decisions, or a stock kernel's filemap events\n"
		"  (trace-cmd report, trace_pipe or perf script text of\n"
		"  filemap:* and block:block_rq_insert/issue), whose windows\n"
		"  and their outcome are inferred, and a patched kernel's\n"
		"  readahead:readahead_outcome events (checked against the\n"
		"  inferred outcome when both are there).\n"
		"  --streams       also print every stream's window sequence\n"
		"  --json          print the figures as JSON lines instead:\n"
		"                  a record per stream, per file, kernel\n"
		"                  outcome row, the agreement, and lines\n"
		"  --plot PREFIX   write PREFIX.gp, PREFIX.dat and, when\n"
		"                  gnuplot is on PATH, PREFIX.png\n"
		"  -h, --help      show this help\n");
}

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "plot", required_argument, NULL, 'p' },
		{ "streams", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *plot = NULL;
	struct trace t = { 0 };
	int streams = 0, json = 0, c, i, ret = 0;

	opterr = 0;
	while ((c = getopt_long(argc, argv, "h", opts, NULL)) != -1) {
		switch (c) {
		case 'p':
			if (!*optarg) {
				fputs("ra_analyze: --plot needs a prefix\n",
				      stderr);
				print_usage(stderr);
				return 2;
			}
			plot = optarg;
			break;
		case 's':
			streams = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			/* optopt is a long option's val for "--streams=x" */
			if (optopt && optopt != 'p' && optopt != 's' &&
			    optopt != 'j')
				fprintf(stderr,
					"ra_analyze: bad option '-%c'\n",
					optopt);
			else
				fprintf(stderr, "ra_analyze: bad option '%s'\n",
					argv[optind - 1]);
			print_usage(stderr);
			return 2;
		}
	}

	if (json && streams) {
		fputs("ra_analyze: --json and --streams: one or the other\n",
		      stderr);
		print_usage(stderr);
		return 2;
	}
	if (optind == argc) {
		if (input_read(&t, "-"))
			ret = 1;
	}
	for (i = optind; !ret && i < argc; i++)
		if (input_read(&t, argv[i]))
			ret = 1;
	if (ret) {
		trace_free(&t);
		return ret;
	}

	stock_infer(&t);
	streams_build(&t);
	if (json) {
		json_print(stdout, &t);
	} else {
		stats_print(stdout, &t);
		streams_print_flags(stdout, &t);
		stock_print(stdout, &t);
		kout_print(stdout, &t);
		if (streams)
			streams_print_windows(stdout, &t);
		printf("lines: %lu parsed, %lu skipped, %lu other\n",
		       t.parsed, t.skipped, t.other);
	}
	if (fflush(stdout) || ferror(stdout)) {
		fputs("ra_analyze: write error on stdout\n", stderr);
		ret = 1;
	}
	if (plot && plot_write(&t, plot))
		ret = 1;
	trace_free(&t);
	return ret;
}
