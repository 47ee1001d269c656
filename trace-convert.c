// SPDX-License-Identifier: GPL-2.0
/*
 * convert: turn a trace.dat into another form.  Today that is --to
 * chrome-json (the Trace Event Format, trace-chrome.c), --to sqlite (a
 * SQLite database, trace-sqlite.c), or the same trace
 * in another trace.dat version or compression (--file-version,
 * --compression: convert_dat(), trace-convert-dat.c), by default v7 with
 * the best compression, as upstream's convert writes.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-chrome.h"
#include "trace-convert-dat.h"
#include "trace-sqlite.h"

extern const struct command cmd_convert;

static const char convert_usage[] =
	"usage: trace-cmd convert --to chrome-json [-i FILE] -o OUTPUT\n"
	"       trace-cmd convert --to sqlite [-i FILE] -o OUTPUT\n"
	"       trace-cmd convert [--file-version 6|7] [--compression C] [-i FILE] -o OUTPUT\n"
	"       trace-cmd convert [--file-version 6|7] [--compression C] [-i FILE] OUTPUT\n"
	"  -i FILE          read FILE instead of trace.dat\n"
	"  -o OUTPUT        write to OUTPUT ('-' for standard output with --to chrome-json)\n"
	"  --to FORMAT      the form to write: chrome-json (the Trace Event Format) or\n"
	"                   sqlite (a SQLite database)\n"
	"  --file-version N rewrite as trace.dat version N, 6 or 7 (default 7: without\n"
	"                   --to, convert rewrites the trace.dat as upstream's does)\n"
	"  --compression C  version 7 compression: none, zlib, zstd or any (default any:\n"
	"                   zstd)\n"
	"  -h               show this help\n";

enum { OPT_TO = 256, OPT_FILE_VERSION, OPT_COMPRESSION };

static const struct option convert_options[] = {
	{ "to",		required_argument,	NULL, OPT_TO },
	{ "file-version", required_argument,	NULL, OPT_FILE_VERSION },
	{ "compression", required_argument,	NULL, OPT_COMPRESSION },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct convert {
	const char	*input;
	const char	*output;
	const char	*to;
	unsigned long	version;	/* 0: not a trace.dat rewrite */
	const char	*compression;
};

/* Returns PARSE_RUN to go on, else the exit status. */
static int parse_args(struct convert *cv, int argc, char **argv)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:o:", convert_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_convert);
		case 'i':
			if (cv->input)
				return usage_error(&cmd_convert, "only one input file is supported");
			cv->input = optarg;
			break;
		case 'o':
			if (cv->output)
				return usage_error(&cmd_convert, "only one output file is supported");
			cv->output = optarg;
			break;
		case OPT_TO:
			cv->to = optarg;
			break;
		case OPT_FILE_VERSION:
			if (parse_ulong("--file-version", optarg, 0, 1000, &cv->version) < 0) {
				fputs(convert_usage, stderr);
				return EXIT_USAGE;
			}
			if (cv->version != 6 && cv->version != 7)
				return usage_error(&cmd_convert,
					"file version %lu is not supported: use 6 or 7", cv->version);
			break;
		case OPT_COMPRESSION:
			if (strcmp(optarg, "none") && strcmp(optarg, "zlib") &&
			    strcmp(optarg, "zstd") && strcmp(optarg, "any"))
				return usage_error(&cmd_convert,
					"unknown compression '%s': use none, zlib, zstd or any", optarg);
			cv->compression = optarg;
			break;
		default:
			return option_error(&cmd_convert, argv, c);
		}
	}
	/* As upstream: the output may be named last instead of with -o. */
	if (optind < argc && !cv->output)
		cv->output = argv[optind++];
	if (optind < argc)
		return usage_error(&cmd_convert, "unexpected argument '%s'", argv[optind]);
	if (!cv->to && !cv->version)
		cv->version = 7;
	if (cv->to && cv->version)
		return usage_error(&cmd_convert,
				   "--to cannot be combined with --file-version or --compression");
	if (cv->version == 6 && cv->compression && strcmp(cv->compression, "none"))
		return usage_error(&cmd_convert, "--compression %s needs --file-version 7",
				   cv->compression);
	if (cv->version) {
		if (!cv->output)
			return usage_error(&cmd_convert, "no -o given: say where to write");
		if (!strcmp(cv->output, "-"))
			return usage_error(&cmd_convert, "a trace.dat is written to a file, not '-'");
		if (!cv->input)
			cv->input = "trace.dat";
		return PARSE_RUN;
	}
	if (strcmp(cv->to, "chrome-json") && strcmp(cv->to, "sqlite"))
		return usage_error(&cmd_convert,
				   "invalid --to value '%s': use chrome-json or sqlite", cv->to);
	if (!cv->output)
		return usage_error(&cmd_convert, "no -o given: say where to write");
	if (!strcmp(cv->to, "sqlite") && !strcmp(cv->output, "-"))
		return usage_error(&cmd_convert, "a SQLite database is written to a file, not '-'");
	if (!cv->input)
		cv->input = "trace.dat";
	return PARSE_RUN;
}

/* --to chrome-json: independent of any rewriting of versions or compression. */
static int convert_chrome(struct convert *cv)
{
	return trace_chrome_export(cv->input, cv->output) < 0 ? EXIT_FAILED : EXIT_OK;
}

/* --to sqlite: the events, tasks and derived tables in a new database. */
static int convert_sqlite(struct convert *cv)
{
	return trace_sqlite_export(cv->input, cv->output) < 0 ? EXIT_FAILED : EXIT_OK;
}

/* --file-version/--compression: the same trace.dat in another layout. */
static int convert_dat(struct convert *cv)
{
	return trace_convert_dat(cv->input, cv->output, cv->version, cv->compression) < 0 ?
		EXIT_FAILED : EXIT_OK;
}

static int run_convert(int argc, char **argv)
{
	struct convert cv = { 0 };
	int ret;

	if ((ret = parse_args(&cv, argc, argv)) != PARSE_RUN)
		return ret;
	if (cv.version)
		return convert_dat(&cv);
	if (!strcmp(cv.to, "sqlite"))
		return convert_sqlite(&cv);
	return convert_chrome(&cv);
}

const struct command cmd_convert = {
	.name = "convert",
	.run = run_convert,
	.usage = convert_usage,
	.summary = "convert a trace.dat to another form (the Trace Event Format, SQLite)",
};
