// SPDX-License-Identifier: GPL-2.0
/*
 * clear: empty the ring buffers of the top buffer, -B instances, or -a all
 * of them (top included), leaving every setting as it is.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

extern const struct command cmd_clear;

static const char clear_usage[] =
	"usage: trace-cmd clear [-B NAME]... [-a]\n"
	"  -B NAME  clear the instance NAME (repeatable) instead of the top buffer\n"
	"  -a       clear every buffer, the top one and all instances\n";

static const struct option clear_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* First pass (@b NULL) only checks; returns PARSE_RUN or the exit status. */
static int parse(const void *ctx, int argc, char **argv, struct buffers *b)
{
	(void)ctx;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hB:a", clear_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_clear);
		case 'B':
			if (b && buffers_select_name(b, optarg) < 0)
				return EXIT_FAILED;
			break;
		case 'a':
			if (b) {
				buffers_select_top(b);
				if (buffers_select_all(b) < 0)
					return EXIT_FAILED;
			}
			break;
		default:
			return option_error(&cmd_clear, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_clear, "unexpected argument '%s'", argv[optind]);
	return PARSE_RUN;
}

static int clear(struct buffers *b)
{
	buffers_default_top(b);
	for (int i = 0; i < buffers_count(b); i++) {
		if (tfs_write_quiet(buffers_instance(b, i), "trace", "") < 0) {
			if (buffers_is_top(b, i))
				error("cannot clear the top buffer: %s", strerror(errno));
			else
				error("cannot clear instance '%s': %s", buffers_name(b, i),
				      strerror(errno));
			return EXIT_FAILED;
		}
	}
	return EXIT_OK;
}

static int run_clear(int argc, char **argv)
{
	struct buffers *b;
	int ret = buffers_parse(parse, NULL, argc, argv, &b);

	if (ret != PARSE_RUN)
		return ret;
	ret = clear(b);
	buffers_free(b);
	return ret;
}

const struct command cmd_clear = {
	.name = "clear",
	.run = run_clear,
	.usage = clear_usage,
	.summary = "empty the kernel's ring buffers",
};
