// SPDX-License-Identifier: GPL-2.0
/*
 * stack: switch the kernel's stack tracer on or off, forget the deepest
 * stack it found, or print that stack.  The switch is a sysctl, not a
 * tracefs file; the stack and its size are tracefs's stack_trace and
 * stack_max_size.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

extern const struct command cmd_stack;

/* The stack tracer's on/off switch (kernel/trace/trace_stack.c). */
#define STACK_SWITCH "/proc/sys/kernel/stack_tracer_enabled"

static const char stack_usage[] =
	"usage: trace-cmd stack [--start | --stop] [--reset] [--verbose[=LEVEL]]\n"
	"  --start  turn the stack tracer on\n"
	"  --stop   turn the stack tracer off\n"
	"  --reset  forget the deepest stack found so far (stack_max_size to 0)\n"
	"  --verbose[=LEVEL]  accepted as upstream's (stack prints no log messages)\n"
	"Without --start, --stop or --reset, says whether the stack tracer runs and\n"
	"prints the deepest stack it found.\n";

enum { OPT_START = 256, OPT_STOP, OPT_RESET, OPT_VERBOSE };

static const struct option stack_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "start", no_argument, NULL, OPT_START },
	{ "stop", no_argument, NULL, OPT_STOP },
	{ "reset", no_argument, NULL, OPT_RESET },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ NULL, 0, NULL, 0 }
};

struct stack_opts {
	const char *turn;	/* "1" (--start), "0" (--stop), NULL: leave as is */
	bool reset;
};

static int parse(int argc, char **argv, struct stack_opts *o)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:h", stack_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_stack);
		case OPT_START:
		case OPT_STOP:
			if (o->turn && strcmp(o->turn, c == OPT_START ? "1" : "0"))
				return usage_error(&cmd_stack, "--start and --stop exclude each other");
			o->turn = c == OPT_START ? "1" : "0";
			break;
		case OPT_RESET:
			o->reset = true;
			break;
		case OPT_VERBOSE:
			if (set_log_level("--verbose", optarg) < 0)
				return usage_follows(&cmd_stack);
			break;
		default:
			return option_error(&cmd_stack, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_stack, "unexpected argument '%s'", argv[optind]);
	return PARSE_RUN;
}

/* The switch's value ('0' or '1'), or -1 after saying why it cannot be read. */
static int read_switch(void)
{
	char *s = read_path_text(STACK_SWITCH, NULL);
	int on;

	if (!s) {
		if (errno == ENOENT)
			return error("this kernel has no stack tracer ('%s' does not exist)",
				     STACK_SWITCH);
		return error("cannot read '%s': %s", STACK_SWITCH, strerror(errno));
	}
	on = atoi(s) != 0;
	free(s);
	return on;
}

/* Writes @val to the switch unless it already reads so. */
static int turn(const char *val)
{
	int on = read_switch(), fd;

	if (on < 0)
		return -1;
	if (on == (*val == '1'))
		return 0;
	fd = open(STACK_SWITCH, O_WRONLY | O_CLOEXEC);
	if (fd < 0 || write_all(fd, val, 1) < 0) {
		int err = errno;

		if (fd >= 0)
			close(fd);
		return error("cannot write '%s' to '%s': %s", val, STACK_SWITCH, strerror(err));
	}
	close(fd);
	return 0;
}

/* What upstream prints: running or not, then stack_trace without its '#' hints. */
static int print_stack(void)
{
	char *text, *line, *next;
	int on = read_switch();
	size_t len;

	if (on < 0 || tfs_read_file(NULL, "stack_trace", &text, &len) < 0)
		return -1;
	printf("(stack tracer %s)\n", on ? "running" : "not running");
	for (line = text; *line; line = next) {
		next = strchr(line, '\n');
		next = next ? next + 1 : line + strlen(line);
		if (*line != '#')
			fwrite(line, 1, next - line, stdout);
	}
	free(text);
	return 0;
}

static int stack(struct stack_opts *o)
{
	if (!o->turn && !o->reset)
		return print_stack();
	/* Forgotten first: what --start then finds is the new run's. */
	if (o->reset && tfs_write_file(NULL, "stack_max_size", "0") < 0)
		return -1;
	return o->turn ? turn(o->turn) : 0;
}

static int run_stack(int argc, char **argv)
{
	struct stack_opts o = { 0 };
	int ret;

	if ((ret = parse(argc, argv, &o)) != PARSE_RUN)
		return ret;
	/* A kernel without the stack tracer is named before tracefs is looked for. */
	if (read_switch() < 0 || !tfs_dir())
		return EXIT_FAILED;
	return stack(&o) < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_stack = {
	.name = "stack",
	.run = run_stack,
	.usage = stack_usage,
	.summary = "start, stop or reset the kernel's stack tracer, or print its deepest stack",
};
