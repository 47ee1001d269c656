// SPDX-License-Identifier: GPL-2.0
/*
 * stop and restart: turn writing into the ring buffer off (tracing_on 0) or
 * back on for the top buffer, -B instances, or -a all of them.  Nothing else
 * changes: events and tracers stay as they are.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

extern const struct command cmd_stop, cmd_restart;

static const char stop_usage[] =
	"usage: trace-cmd stop [-B NAME]... [-a] [-t]\n"
	"  -B NAME  stop the instance NAME (repeatable); the top buffer only with -t\n"
	"  -a       stop every instance; the top buffer only with -t\n"
	"  -t       stop the top buffer too (the default without -B or -a)\n";

static const char restart_usage[] =
	"usage: trace-cmd restart [-B NAME]... [-a] [-t]\n"
	"  -B NAME  restart the instance NAME (repeatable); the top buffer only with -t\n"
	"  -a       restart every instance; the top buffer only with -t\n"
	"  -t       restart the top buffer too (the default without -B or -a)\n";

static const struct option stop_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * Two passes over the options: the first (@b NULL) only checks them, so -h
 * and usage errors need neither root nor tracefs; the second selects.
 * Returns PARSE_RUN to go on, else the exit status.
 */
static int parse(const void *ctx, int argc, char **argv, struct buffers *b)
{
	const struct command *cmd = ctx;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hB:at", stop_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(cmd);
		case 'B':
		case 'a':
		case 't':
			if (buffers_option(b, c, optarg) < 0)
				return EXIT_FAILED;
			break;
		default:
			return option_error(cmd, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(cmd, "unexpected argument '%s'", argv[optind]);
	return PARSE_RUN;
}

static int write_tracing_on(struct buffers *b, const char *val)
{
	buffers_default_top(b);
	for (int i = 0; i < buffers_count(b); i++) {
		if (tfs_write_quiet(buffers_instance(b, i), "tracing_on", val) < 0) {
			error("cannot write '%s' to 'tracing_on' of %s: %s", val,
			      buffers_name(b, i), strerror(errno));
			return EXIT_FAILED;
		}
	}
	return EXIT_OK;
}

static int set_tracing_on(const struct command *cmd, int argc, char **argv, const char *val)
{
	struct buffers *b;
	int ret;

	/* A bad -B changes nothing: every name is checked before any write. */
	if ((ret = buffers_parse(parse, cmd, argc, argv, &b)) != PARSE_RUN)
		return ret;
	ret = write_tracing_on(b, val);
	buffers_free(b);
	return ret;
}

static int run_stop(int argc, char **argv)
{
	return set_tracing_on(&cmd_stop, argc, argv, "0");
}

static int run_restart(int argc, char **argv)
{
	return set_tracing_on(&cmd_restart, argc, argv, "1");
}

const struct command cmd_stop = {
	.name = "stop",
	.run = run_stop,
	.usage = stop_usage,
	.summary = "stop writing into the kernel's ring buffer",
};

const struct command cmd_restart = {
	.name = "restart",
	.run = run_restart,
	.usage = restart_usage,
	.summary = "start writing into the ring buffer again after stop",
};
