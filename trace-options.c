// SPDX-License-Identifier: GPL-2.0
/*
 * options: the plugin options report -O takes, as libtraceevent's plugins
 * and report's own function graph options describe them, in upstream's
 * layout (plugin, option, description, current value).
 */
#include <getopt.h>
#include <stdio.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-list.h"

extern const struct command cmd_options;

static const char options_usage[] =
	"usage: trace-cmd options\n"
	"  -h    show this help\n"
	"Lists the plugin options report takes, each with its description and value.\n";

static const struct option options_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static int parse(int argc, char **argv)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":h", options_longopts, NULL)) != -1) {
		if (c == 'h')
			return show_usage(&cmd_options);
		return option_error(&cmd_options, argv, c);
	}
	if (optind < argc)
		return usage_error(&cmd_options, "unexpected argument '%s'", argv[optind]);
	return PARSE_RUN;
}

static int run_options(int argc, char **argv)
{
	int ret = parse(argc, argv);

	if (ret != PARSE_RUN)
		return ret;
	return list_plugin_options() ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_options = {
	.name = "options",
	.run = run_options,
	.usage = options_usage,
	.summary = "list the plugin options report -O takes",
};
