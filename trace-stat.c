// SPDX-License-Identifier: GPL-2.0
/*
 * stat: a readable summary of how tracing is set up right now, per buffer:
 * instances, tracer, enabled events, event filters and triggers, PIDs,
 * buffer sizes, clock, CPU mask, on or off, and with -o every option.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

extern const struct command cmd_stat;

static const char stat_usage[] =
	"usage: trace-cmd stat [-B NAME]... [-t] [-o]\n"
	"  -B NAME  show the instance NAME (repeatable) instead of the top buffer\n"
	"  -t       show the top buffer too, before the instances of -B\n"
	"  -o       list every trace option too (\"noNAME\" when off)\n";

static const struct option stat_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

static char *chomp(char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

/* Prints each line of @text indented by @indent, or @none when it is empty. */
static void print_lines(const char *title, const char *text, const char *indent, const char *none)
{
	const char *l = text, *nl;

	if ((!text || !*text) && !none)
		return;
	printf("\n%s:\n", title);
	if (!text || !*text) {
		printf("%s%s\n", indent, none);
		return;
	}
	for (; *l; l = nl ? nl + 1 : l + strlen(l)) {
		nl = strchr(l, '\n');
		printf("%s%.*s\n", indent, nl ? (int)(nl - l) : (int)strlen(l), l);
	}
}

static int print_instance(const char *name, void *data)
{
	(void)data;
	printf(" %s\n", name);
	return 0;
}

/* Is there any instance at all?  Stops the walk at the first. */
static int any_instance(const char *name, void *data)
{
	(void)name;
	*(bool *)data = true;
	return 1;
}

struct event_walk {
	struct tfs_instance *inst;
	bool triggers;		/* print triggers instead of filters */
	int found;
};

static int print_filter(const char *sys, const char *ev, void *data)
{
	struct event_walk *w = data;
	char file[512], *s, *l, *save = NULL;

	snprintf(file, sizeof(file), "events/%s/%s/%s", sys, ev, w->triggers ? "trigger" : "filter");
	s = chomp(tfs_read_quiet(w->inst, file));
	if (!s)
		return 0;
	for (l = strtok_r(s, "\n", &save); l; l = strtok_r(NULL, "\n", &save)) {
		if (*l == '#' || (!w->triggers && !strcmp(l, "none")))
			continue;
		if (!w->found++)
			printf("\n%s:\n", w->triggers ? "Event triggers" : "Event filters");
		printf(" %s:%s  %s\n", sys, ev, l);
	}
	free(s);
	return 0;
}

static void print_file(struct tfs_instance *inst, const char *title, const char *file,
		       const char *indent, const char *none)
{
	char *s = chomp(tfs_read_quiet(inst, file));

	if (s || errno != ENOENT)
		print_lines(title, s ? s : strerror(errno), indent, none);
	free(s);
}

static void print_one_line(struct tfs_instance *inst, const char *fmt, const char *file)
{
	char *s = chomp(tfs_read_quiet(inst, file));

	if (s) {
		printf("\n");
		printf(fmt, s);
		printf("\n");
	}
	free(s);
}

static int stat_buffer(struct tfs_instance *inst, const char *name, bool options)
{
	struct event_walk w = { .inst = inst };
	char *s;

	if (name) {
		printf("Instance: %s\n", name);
	} else {
		bool any = false;

		tfs_instances_walk(any_instance, &any);
		if (any) {
			printf("\nInstances:\n");
			tfs_instances_walk(print_instance, NULL);
		}
	}
	print_one_line(inst, "Tracer: %s", "current_tracer");
	print_file(inst, "Events", "set_event", " ", "All disabled");
	if (tfs_for_each_event(inst, print_filter, &w) < 0)
		return -1;
	w.triggers = true;
	w.found = 0;
	tfs_for_each_event(inst, print_filter, &w);
	print_file(inst, "Event PIDs", "set_event_pid", " ", NULL);
	print_file(inst, "Buffer size in kilobytes (per cpu)", "buffer_size_kb", "   ", NULL);
	print_file(inst, "Buffer total size in kilobytes", "buffer_total_size_kb", "   ", NULL);
	s = chomp(tfs_read_quiet(inst, "trace_clock"));
	if (s && strchr(s, '[')) {
		char *end = strchr(s, ']');

		if (end)
			*end = '\0';
		printf("\nTrace clock: %s\n", strchr(s, '[') + 1);
	}
	free(s);
	print_one_line(inst, "Trace CPU mask: %s", "tracing_cpumask");
	if (options) {
		s = chomp(tfs_read_quiet(inst, "trace_options"));
		print_lines("Options", s, "   ", NULL);
		free(s);
	}
	s = chomp(tfs_read_quiet(inst, "tracing_on"));
	printf("\nTracing is %s\n\n", s && !strcmp(s, "0") ? "disabled" : "enabled");
	free(s);
	return 0;
}

static int parse(int argc, char **argv, struct buffers *b, bool *options)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hB:to", stat_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_stat);
		case 'B':
			if (b && buffers_select_name(b, optarg) < 0)
				return EXIT_FAILED;
			break;
		case 't':
			if (b)
				buffers_select_top(b);
			break;
		case 'o':
			*options = true;
			break;
		default:
			return option_error(&cmd_stat, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_stat, "unexpected argument '%s'", argv[optind]);
	return PARSE_RUN;
}

static int stat_buffers(struct buffers *b, bool options)
{
	buffers_default_top(b);
	/* The top buffer first, as -t promises, then the instances in order. */
	for (int pass = 0; pass < 2; pass++) {
		for (int i = 0; i < buffers_count(b); i++) {
			if (buffers_is_top(b, i) != (pass == 0))
				continue;
			if (stat_buffer(buffers_instance(b, i),
					buffers_is_top(b, i) ? NULL : buffers_name(b, i), options) < 0)
				return EXIT_FAILED;
		}
	}
	return EXIT_OK;
}

static int run_stat(int argc, char **argv)
{
	struct buffers *b;
	bool options = false;
	int ret;

	if ((ret = parse(argc, argv, NULL, &options)) != PARSE_RUN)
		return ret;
	if (!tfs_dir())
		return EXIT_FAILED;
	b = buffers_new();
	if ((ret = parse(argc, argv, b, &options)) == PARSE_RUN)
		ret = stat_buffers(b, options);
	buffers_free(b);
	return ret;
}

const struct command cmd_stat = {
	.name = "stat",
	.run = run_stat,
	.usage = stat_usage,
	.summary = "show how tracing is set up now",
};
