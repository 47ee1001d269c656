// SPDX-License-Identifier: GPL-2.0
/*
 * show: print a tracing file of the top buffer or an instance: the trace
 * (or trace_pipe, or the snapshot), whole or for one CPU, or one of the
 * settings files upstream's long options name.
 */
#include <dirent.h>
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

extern const struct command cmd_show;

static const char show_help[] =
	"usage: trace-cmd show [-p | -s] [-c CPU] [-B NAME] [-f] [FILE-OPTION]...\n"
	"  -p       read trace_pipe (consuming, waits for data) instead of trace\n"
	"  -s       read the snapshot buffer instead of trace\n"
	"  -c CPU   read only the file of CPU (per_cpu/cpuCPU)\n"
	"  -B NAME  read the files of the instance NAME\n"
	"  -f       print the full path of each file before its contents\n"
	"FILE-OPTION prints that file instead of the trace:\n"
	"  --tracing_on         tracing_on\n"
	"  --current_tracer     current_tracer\n"
	"  --buffer_size        buffer_size_kb (of CPU with -c)\n"
	"  --buffer_total_size  buffer_total_size_kb\n"
	"  --set_event          set_event (the enabled events)\n"
	"  --ftrace_filter      set_ftrace_filter\n"
	"  --ftrace_notrace     set_ftrace_notrace\n"
	"  --ftrace_pid         set_ftrace_pid\n"
	"  --graph_function     set_graph_function\n"
	"  --graph_notrace      set_graph_notrace\n"
	"  --cpumask            tracing_cpumask\n"
	"  --buffer_subbuf_size buffer_subbuf_size_kb\n"
	"  --buffer_percent     buffer_percent\n"
	"  --max_latency        tracing_max_latency\n"
	"  --hist EVENT         events/SYSTEM/EVENT/hist (EVENT: [SYSTEM:]EVENT)\n"
	"  --trigger EVENT      events/SYSTEM/EVENT/trigger\n";

/* Long options with a val of 256 + index name the file of files[index]. */
static const char *const files[] = {
	"tracing_on", "current_tracer", "buffer_size_kb", "buffer_total_size_kb", "set_event",
	"set_ftrace_filter", "set_ftrace_notrace", "set_ftrace_pid", "set_graph_function",
	"set_graph_notrace", "tracing_cpumask", "buffer_subbuf_size_kb", "buffer_percent",
	"tracing_max_latency",
};

/* What a file's absence means, for the files some kernels lack. */
static const char *const missing[][2] = {
	{ "buffer_subbuf_size_kb", "this kernel cannot size sub-buffers" },
	{ "buffer_percent", "this kernel has no buffer_percent" },
	{ "tracing_max_latency", "this kernel has no latency tracers" },
	{ "hist", "this kernel has no hist triggers" },
};

enum { OPT_HIST = 512, OPT_TRIGGER };

static const struct option show_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "tracing_on", no_argument, NULL, 256 },
	{ "current_tracer", no_argument, NULL, 257 },
	{ "buffer_size", no_argument, NULL, 258 },
	{ "buffer_total_size", no_argument, NULL, 259 },
	{ "set_event", no_argument, NULL, 260 },
	{ "ftrace_filter", no_argument, NULL, 261 },
	{ "ftrace_notrace", no_argument, NULL, 262 },
	{ "ftrace_pid", no_argument, NULL, 263 },
	{ "graph_function", no_argument, NULL, 264 },
	{ "graph_notrace", no_argument, NULL, 265 },
	{ "cpumask", no_argument, NULL, 266 },
	{ "buffer_subbuf_size", no_argument, NULL, 267 },
	{ "buffer_percent", no_argument, NULL, 268 },
	{ "max_latency", no_argument, NULL, 269 },
	{ "hist", required_argument, NULL, OPT_HIST },
	{ "trigger", required_argument, NULL, OPT_TRIGGER },
	{ NULL, 0, NULL, 0 }
};

struct show_opts {
	const char *instance;
	long cpu;		/* -1: all */
	bool pipe, snapshot, path;
	const char *want[ARRAY_SIZE(files) + 64];	/* files, or "hist"/"trigger" */
	const char *event[ARRAY_SIZE(files) + 64];	/* the EVENT of --hist, --trigger */
	int nr_want;
};

static int parse(int argc, char **argv, struct show_opts *o)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hpsc:B:f", show_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_show);
		case 'p':
			o->pipe = true;
			break;
		case 's':
			o->snapshot = true;
			break;
		case 'c':
			if (parse_long("-c", optarg, 0, 4095, &o->cpu) < 0) {
				fputs(show_help, stderr);
				return EXIT_USAGE;
			}
			break;
		case 'B':
			o->instance = optarg;
			break;
		case 'f':
			o->path = true;
			break;
		case 256 ... 256 + ARRAY_SIZE(files) - 1:
		case OPT_HIST: case OPT_TRIGGER:
			if (o->nr_want == ARRAY_SIZE(o->want))
				return usage_error(&cmd_show, "too many file options");
			if (c >= OPT_HIST && check_named(argv[optind - 1], optarg, "an event") < 0)
				return usage_follows(&cmd_show);
			o->event[o->nr_want] = c >= OPT_HIST ? optarg : NULL;
			o->want[o->nr_want++] = c == OPT_HIST ? "hist" : c == OPT_TRIGGER ? "trigger" :
						files[c - 256];
			break;
		default:
			return option_error(&cmd_show, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_show, "unexpected argument '%s'", argv[optind]);
	if (o->pipe && o->snapshot)
		return usage_error(&cmd_show, "-p and -s cannot be used together");
	return PARSE_RUN;
}

/* Copies the file to stdout; trace_pipe blocks, which is what the user asked for. */
static int cat_file(struct tfs_instance *inst, const char *rel, bool path)
{
	char *file = tfs_path(inst, rel);
	char buf[65536];
	ssize_t n;
	int fd;

	fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		error("cannot open '%s': %s", rel, strerror(errno));
		free(file);
		return -1;
	}
	if (path)
		printf("%s\n", file);
	free(file);
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("cannot read '%s': %s", rel, strerror(errno));
			close(fd);
			return -1;
		}
		if (fwrite(buf, 1, n, stdout) != (size_t)n)
			break;	/* main() reports the write error */
		if (!strcmp(rel + strlen(rel) - 4, "pipe"))
			fflush(stdout);
	}
	close(fd);
	return 0;
}

/* "events/SYSTEM/EVENT/@file" of [SYSTEM:]EVENT (the first system having EVENT), in @rel. */
static int event_file(struct tfs_instance *inst, const char *event, const char *file,
		      char *rel, size_t size)
{
	const char *colon = strchr(event, ':');
	char *dir_path;
	struct dirent *d;
	DIR *dir;

	if (colon) {
		snprintf(rel, size, "events/%.*s/%s", (int)(colon - event), event, colon + 1);
		if (!tfs_exists(inst, rel))
			return error("no event '%s' ('%s' does not exist)", event, rel);
		snprintf(rel, size, "events/%.*s/%s/%s", (int)(colon - event), event, colon + 1, file);
		return 0;
	}
	dir_path = tfs_path(inst, "events");
	dir = opendir(dir_path);
	free(dir_path);
	while (dir && (d = readdir(dir))) {
		snprintf(rel, size, "events/%s/%s", d->d_name, event);
		if (d->d_name[0] != '.' && tfs_exists(inst, rel)) {
			snprintf(rel, size, "events/%s/%s/%s", d->d_name, event, file);
			closedir(dir);	/* d lives in it */
			return 0;
		}
	}
	if (dir)
		closedir(dir);
	return error("no event '%s' in any system", event);
}

/* A file some kernels lack: say what is missing rather than "cannot open". */
static int check_missing(struct tfs_instance *inst, const char *rel)
{
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;

	for (size_t i = 0; i < ARRAY_SIZE(missing); i++)
		if (!strcmp(base, missing[i][0]) && !tfs_exists(inst, rel))
			return error("%s ('%s' does not exist)", missing[i][1], rel);
	return 0;
}

static int show(struct show_opts *o)
{
	struct buffers *b = buffers_new();
	struct tfs_instance *inst;
	const char *what = o->pipe ? "trace_pipe" : o->snapshot ? "snapshot" : "trace";
	char rel[512];
	int ret = 0;

	if (o->instance && buffers_select_name(b, o->instance) < 0) {
		buffers_free(b);
		return -1;
	}
	buffers_default_top(b);
	inst = buffers_instance(b, 0);
	snprintf(rel, sizeof(rel), "per_cpu/cpu%ld", o->cpu);
	if (o->snapshot && !tfs_exists(inst, "snapshot"))
		ret = error("this kernel has no snapshot buffer (no 'snapshot' file)");
	else if (o->cpu >= 0 && !tfs_exists(inst, rel))
		ret = error("no CPU %ld ('%s' does not exist)", o->cpu, rel);
	for (int i = 0; !ret && i < o->nr_want; i++) {
		if (o->event[i])
			ret = event_file(inst, o->event[i], o->want[i], rel, sizeof(rel));
		else if (o->cpu >= 0 && !strcmp(o->want[i], "buffer_size_kb"))
			snprintf(rel, sizeof(rel), "per_cpu/cpu%ld/buffer_size_kb", o->cpu);
		else
			snprintf(rel, sizeof(rel), "%s", o->want[i]);
		if (!ret)
			ret = check_missing(inst, rel);
		if (!ret)
			ret = cat_file(inst, rel, o->path);
		/* An empty line after an event's file, as 3.4 (and list -R, -l) print. */
		if (!ret && o->event[i])
			putchar('\n');
	}
	if (!ret && !o->nr_want) {
		if (o->cpu >= 0)
			snprintf(rel, sizeof(rel), "per_cpu/cpu%ld/%s", o->cpu, what);
		else
			snprintf(rel, sizeof(rel), "%s", what);
		ret = cat_file(inst, rel, o->path);
	}
	buffers_free(b);
	return ret;
}

static int run_show(int argc, char **argv)
{
	struct show_opts o = { .cpu = -1 };
	int ret;

	if ((ret = parse(argc, argv, &o)) != PARSE_RUN)
		return ret;
	if (!tfs_dir())
		return EXIT_FAILED;
	return show(&o) < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_show = {
	.name = "show",
	.run = run_show,
	.usage = show_help,
	.summary = "print the trace or a setting from tracefs",
};
