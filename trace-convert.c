// SPDX-License-Identifier: GPL-2.0
/*
 * convert: turn a trace.dat into another form.  Today that is --to
 * chrome-json (the Trace Event Format, trace-chrome.c).  Rewriting a file to
 * another version or compression (--file-version, --compression) belongs
 * here too, as its own function beside convert_chrome(); until it is written
 * those options are not accepted.
 */
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-chrome.h"

extern const struct command cmd_convert;

static const char convert_usage[] =
	"usage: trace-cmd convert --to chrome-json [-i FILE] -o OUTPUT\n"
	"  -i FILE          read FILE instead of trace.dat\n"
	"  -o OUTPUT        write to OUTPUT ('-' for standard output)\n"
	"  --to FORMAT      the form to write: chrome-json (the Trace Event Format)\n"
	"  -h               show this help\n";

enum { OPT_TO = 256 };

static const struct option convert_options[] = {
	{ "to",		required_argument,	NULL, OPT_TO },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct convert {
	const char	*input;
	const char	*output;
	const char	*to;
};

/* Returns -1 to go on, else the exit status. */
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
		case ':':
			return usage_error(&cmd_convert, "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error(&cmd_convert, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_convert, "unexpected argument '%s'", argv[optind]);
	if (!cv->to)
		return usage_error(&cmd_convert, "no --to given: say which form to write");
	if (strcmp(cv->to, "chrome-json"))
		return usage_error(&cmd_convert, "invalid --to value '%s': only chrome-json is supported",
				   cv->to);
	if (!cv->output)
		return usage_error(&cmd_convert, "no -o given: say where to write");
	if (!cv->input)
		cv->input = "trace.dat";
	return -1;
}

/* --to chrome-json: independent of any rewriting of versions or compression. */
static int convert_chrome(struct convert *cv)
{
	return trace_chrome_export(cv->input, cv->output) < 0 ? EXIT_FAILED : EXIT_OK;
}

static int run_convert(int argc, char **argv)
{
	struct convert cv = { 0 };
	int ret = parse_args(&cv, argc, argv);

	if (ret >= 0)
		return ret;
	return convert_chrome(&cv);
}

const struct command cmd_convert = {
	.name = "convert",
	.run = run_convert,
	.usage = convert_usage,
	.summary = "convert a trace.dat to another form (the Trace Event Format)",
};
