// SPDX-License-Identifier: GPL-2.0
/*
 * list: what this kernel offers: events (with -F their formats), event
 * systems, tracers, options, functions to filter on, clocks, instances, and
 * the trace file compressions this trace-cmd was built with.
 */
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

extern const struct command cmd_list;

static const char list_usage[] =
	"usage: trace-cmd list [-e [REGEX] [-F [--full]]] [-s] [-t] [-o] [-f [REGEX]] [-C] [-B] [-c]\n"
	"  -e [REGEX]  list the events (\"system:event\"), those REGEX matches if given\n"
	"  -F          with -e: print each event's format (fields)\n"
	"  --full      with -F: print the \"print fmt\" line too\n"
	"  -s          list the event systems\n"
	"  -t          list the tracers\n"
	"  -o          list the trace options (\"noNAME\" when off)\n"
	"  -f [REGEX]  list the functions the function tracer can filter on\n"
	"  -C          list the trace clocks, the current one in brackets\n"
	"  -B          list the buffer instances\n"
	"  -c          list the trace file compression algorithms\n"
	"With no option, lists systems, events, tracers, options and compressions.\n";

enum { LIST_FULL = 256 };

static const struct option list_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "full", no_argument, NULL, LIST_FULL },
	{ NULL, 0, NULL, 0 }
};

struct list_opts {
	bool events, formats, full, systems, tracers, options, funcs, clocks, instances, comps;
	const char *event_re, *func_re;
};

/* -e and -f take an optional REGEX as their own argument or as the next word. */
static const char *optional_arg(int argc, char **argv)
{
	if (optarg)
		return optarg;
	if (optind < argc && argv[optind][0] != '-')
		return argv[optind++];
	return NULL;
}

static int parse(int argc, char **argv, struct list_opts *o)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:he::Fstof::CBc", list_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_list);
		case 'e':
			o->events = true;
			o->event_re = optional_arg(argc, argv);
			break;
		case 'F':
			o->formats = true;
			break;
		case LIST_FULL:
			o->full = true;
			break;
		case 's':
			o->systems = true;
			break;
		case 't':
			o->tracers = true;
			break;
		case 'o':
			o->options = true;
			break;
		case 'f':
			o->funcs = true;
			o->func_re = optional_arg(argc, argv);
			break;
		case 'C':
			o->clocks = true;
			break;
		case 'B':
			o->instances = true;
			break;
		case 'c':
			o->comps = true;
			break;
		default:
			return option_error(&cmd_list, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_list, "unexpected argument '%s'", argv[optind]);
	if (o->formats && !o->events)
		return usage_error(&cmd_list, "-F must be used with -e");
	if (o->full && !o->formats)
		return usage_error(&cmd_list, "--full must be used with -F");
	return PARSE_RUN;
}

/* Compiles @re (NULL matches everything); a bad one is a usage error. */
static int compile(regex_t *rx, const char *opt, const char *re)
{
	if (!re || compile_regex(opt, re, REG_EXTENDED | REG_NOSUB, rx) == 0)
		return 0;
	fputs(cmd_list.usage, stderr);
	return EXIT_USAGE;
}

static char *read_top(const char *file)
{
	char *s = tfs_read_quiet(NULL, file);

	if (!s)
		error("cannot read '%s': %s", file, strerror(errno));
	return s;
}

/* The format file; without --full it stops before the "print fmt" line. */
static int print_format(const char *line, bool full)
{
	char file[512], *colon = strchr(line, ':'), *fmt, *pf;

	snprintf(file, sizeof(file), "events/%.*s/%s/format", (int)(colon - line), line, colon + 1);
	fmt = read_top(file);
	if (!fmt)
		return -1;
	pf = strstr(fmt, "\nprint fmt:");
	printf("system: %.*s\n", (int)(colon - line), line);
	if (pf && !full)
		pf[1] = '\0';
	fputs(fmt, stdout);
	free(fmt);
	return 0;
}

static int list_events(const struct list_opts *o)
{
	char *all, *line, *save = NULL;
	regex_t rx;
	int ret, found = 0;

	ret = compile(&rx, "-e", o->event_re);
	if (ret)
		return ret;
	all = read_top("available_events");
	if (!all)
		ret = EXIT_FAILED;
	for (line = all ? strtok_r(all, "\n", &save) : NULL; line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		if (!strchr(line, ':') || (o->event_re && regexec(&rx, line, 0, NULL, 0)))
			continue;
		found++;
		if (!o->formats)
			puts(line);
		else if (print_format(line, o->full) < 0)
			ret = EXIT_FAILED;
	}
	if (!ret && !found && o->event_re)
		ret = error("no event matches '%s'", o->event_re) ? EXIT_FAILED : 0;
	if (o->event_re)
		regfree(&rx);
	free(all);
	return ret;
}

static int list_systems(void)
{
	char **systems = tfs_event_systems(NULL);

	if (!systems && !errno)
		return 0;
	if (!systems)
		return error("cannot list the event systems: %s", strerror(errno)) ? EXIT_FAILED : 0;
	for (int i = 0; systems[i]; i++)
		puts(systems[i]);
	tfs_list_free(systems);
	return 0;
}

/* Prints a file as it is, or (@split) one word a line. */
static int list_file(const char *file, bool split)
{
	char *s = read_top(file), *w, *save = NULL;

	if (!s)
		return EXIT_FAILED;
	if (!split)
		fputs(s, stdout);
	for (w = split ? strtok_r(s, " \n", &save) : NULL; w; w = strtok_r(NULL, " \n", &save))
		puts(w);
	free(s);
	return 0;
}

static int list_funcs(const char *re)
{
	char *all, *line, *save = NULL;
	regex_t rx;
	int ret = compile(&rx, "-f", re);

	if (ret)
		return ret;
	all = read_top("available_filter_functions");
	if (!all)
		ret = EXIT_FAILED;
	for (line = all ? strtok_r(all, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
		if (!re || !regexec(&rx, line, 0, NULL, 0))
			puts(line);
	if (re)
		regfree(&rx);
	free(all);
	return ret;
}

static int print_instance(const char *name, void *data)
{
	(void)data;
	puts(name);
	return 0;
}

static int list_instances(void)
{
	if (tfs_instances_walk(print_instance, NULL) < 0 && errno != ENOENT)
		return error("cannot list the instances: %s", strerror(errno)) ? EXIT_FAILED : 0;
	return 0;
}

/* What trace-output can compress v7 files with: both libraries are linked in. */
static int list_compressions(void)
{
	printf("Supported compression algorithms:\n");
	printf("\tzstd, %s\n", ZSTD_versionString());
	printf("\tzlib, %s\n", zlibVersion());
	return 0;
}

static int list_all(void)
{
	int ret = 0;

	printf("event systems:\n");
	ret |= list_systems();
	printf("\nevents:\n");
	ret |= list_events(&(struct list_opts){ .events = true });
	printf("\ntracers:\n");
	ret |= list_file("available_tracers", false);
	printf("\noptions:\n");
	ret |= list_file("trace_options", true);
	printf("\n");
	ret |= list_compressions();
	return ret ? EXIT_FAILED : 0;
}

static int run_list(int argc, char **argv)
{
	struct list_opts o = { 0 };
	int ret;

	if ((ret = parse(argc, argv, &o)) != PARSE_RUN)
		return ret;
	/* Compressions are this program's, not the kernel's: no tracefs needed. */
	if (o.comps && !(o.events || o.systems || o.tracers || o.options || o.funcs ||
			 o.clocks || o.instances))
		return list_compressions();
	if (!tfs_dir())
		return EXIT_FAILED;
	if (!(o.events || o.systems || o.tracers || o.options || o.funcs || o.clocks ||
	      o.instances || o.comps))
		return list_all();
	ret = 0;
	if (o.events)
		ret = list_events(&o);
	if (!ret && o.systems)
		ret = list_systems();
	if (!ret && o.tracers)
		ret = list_file("available_tracers", false);
	if (!ret && o.options)
		ret = list_file("trace_options", true);
	if (!ret && o.funcs)
		ret = list_funcs(o.func_re);
	if (!ret && o.clocks)
		ret = list_file("trace_clock", false);
	if (!ret && o.instances)
		ret = list_instances();
	if (!ret && o.comps)
		ret = list_compressions();
	return ret;
}

const struct command cmd_list = {
	.name = "list",
	.run = run_list,
	.usage = list_usage,
	.summary = "list the events, tracers, options, functions and compressions",
};
