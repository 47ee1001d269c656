// SPDX-License-Identifier: GPL-2.0
/*
 * list: what this kernel offers: events (with -F their formats), event
 * systems, tracers, options, functions to filter on, clocks, instances, and
 * the trace file compressions this trace-cmd was built with.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <zlib.h>
#include <zstd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "trace-cmd.h"
#include "trace-btf.h"
#include "trace-buffers.h"
#include "trace-line.h"
#include "trace-list.h"
#include "trace-tracefs.h"

extern const struct command cmd_list;

static const char list_usage[] =
	"usage: trace-cmd list [-e [REGEX] [-F [--full] | -R | -l]] [-s] [-t | -p] [-o [REGEX]]\n"
	"                      [-f [REGEX] [--proto]] [-C] [-B] [-c] [-P] [-O]\n"
	"  -e [REGEX]  list the events (\"system:event\"), those REGEX matches if given\n"
	"  -F          with -e: print each event's format (fields)\n"
	"  --full      with -F: print the \"print fmt\" line too\n"
	"  -R          with -e: print each event's triggers (its trigger file) after it\n"
	"  -l          with -e: print each event's filter (its filter file) after it\n"
	"  -s          list the event systems\n"
	"  -t, -p      list the tracers\n"
	"  -o [REGEX]  list the trace options (\"noNAME\" when off), those whose NAME REGEX matches\n"
	"  -f [REGEX]  list the functions the function tracer can filter on\n"
	"  --proto     with -f: each function's prototype, from the kernel's BTF\n"
	"  -C          list the trace clocks, the current one in brackets\n"
	"  -B          list the buffer instances\n"
	"  -c          list the trace file compression algorithms\n"
	"  -P          list the plugin files libtraceevent loads (by path)\n"
	"  -O          list the plugins' options (report -O sets them)\n"
	"With no option, lists systems, events, tracers, options and compressions.\n";

enum { LIST_FULL = 256, LIST_PROTO };

/* Where the running kernel describes its types (CONFIG_DEBUG_INFO_BTF). */
#define BTF_VMLINUX	"/sys/kernel/btf/vmlinux"

static const struct option list_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "full", no_argument, NULL, LIST_FULL },
	{ "proto", no_argument, NULL, LIST_PROTO },
	{ NULL, 0, NULL, 0 }
};

struct list_opts {
	bool events, formats, full, systems, tracers, options, funcs, clocks, instances, comps;
	bool proto;
	bool triggers, filters, plugin_files, plugin_options;
	const char *event_re, *func_re, *option_re;
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
	while ((c = getopt_long(argc, argv, "+:he::FRlstpo::f::CBcPO", list_longopts, NULL)) != -1) {
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
		case 'R':
			o->triggers = true;
			break;
		case 'l':
			o->filters = true;
			break;
		case 't': case 'p':
			o->tracers = true;
			break;
		case 'o':
			o->options = true;
			o->option_re = optional_arg(argc, argv);
			break;
		case 'P':
			o->plugin_files = true;
			break;
		case 'O':
			o->plugin_options = true;
			break;
		case LIST_PROTO:
			o->proto = true;
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
	/* 3.4 ignores it without -f (and lists everything) */
	if (o->proto && !o->funcs)
		return usage_error(&cmd_list, "--proto must be used with -f");
	if (o->full && !o->formats)
		return usage_error(&cmd_list, "--full must be used with -F");
	if ((o->triggers || o->filters) && !o->events)
		return usage_error(&cmd_list, "%s must be used with -e", o->triggers ? "-R" : "-l");
	if ((o->triggers || o->filters) && o->formats)
		return usage_error(&cmd_list, "%s prints after each event line: not with -F",
				   o->triggers ? "-R" : "-l");
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

/*
 * An event's line; with -l its filter file, with -R its trigger file, then
 * an empty line (as 3.4; it prints only the filter when given both).
 */
static int print_event(const char *line, const struct list_opts *o)
{
	const char *colon = strchr(line, ':');
	const char *files[] = { o->filters ? "filter" : NULL, o->triggers ? "trigger" : NULL };

	puts(line);
	if (!o->filters && !o->triggers)
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(files); i++) {
		char file[512], *text;

		if (!files[i])
			continue;
		snprintf(file, sizeof(file), "events/%.*s/%s/%s", (int)(colon - line), line,
			 colon + 1, files[i]);
		text = read_top(file);
		if (!text)
			return EXIT_FAILED;
		fputs(text, stdout);
		free(text);
	}
	putchar('\n');
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
		if (o->formats)
			ret = print_format(line, o->full) < 0 ? EXIT_FAILED : 0;
		else
			ret = print_event(line, o);
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

/*
 * Every option of the options directory (those of every tracer, where
 * trace_options has the current tracer's only), "noNAME" when off, in the
 * directory's order, as 3.4; REGEX is matched against NAME.
 */
static int list_options(const char *re)
{
	char *dir_path = tfs_path(NULL, "options");
	DIR *dir = opendir(dir_path);
	struct dirent *d;
	regex_t rx;
	int ret = compile(&rx, "-o", re);

	if (!ret && !dir)
		ret = error("cannot read '%s': %s", dir_path, strerror(errno)) ? EXIT_FAILED : 0;
	while (!ret && (d = readdir(dir))) {
		char file[300], *val;

		if (d->d_name[0] == '.' || (re && regexec(&rx, d->d_name, 0, NULL, 0)))
			continue;
		snprintf(file, sizeof(file), "options/%s", d->d_name);
		val = read_top(file);
		if (!val) {
			ret = EXIT_FAILED;
			break;
		}
		printf("%s%s\n", val[0] == '0' ? "no" : "", d->d_name);
		free(val);
	}
	if (re)
		regfree(&rx);
	if (dir)
		closedir(dir);
	free(dir_path);
	return ret;
}

struct plugin_paths {
	char **paths;
	size_t nr;
};

static void add_plugin_path(struct tep_handle *tep, const char *path, const char *name,
			    void *data)
{
	struct plugin_paths *p = data;
	size_t len = strlen(path) + strlen(name) + 2;

	(void)tep;
	p->paths = xrealloc(p->paths, (p->nr + 1) * sizeof(*p->paths));
	p->paths[p->nr] = xmalloc(len);
	snprintf(p->paths[p->nr++], len, "%s/%s", path, name);
}

/*
 * -P: the plugin files libtraceevent finds (in its directories), the last
 * found first, as the list of loaded plugins is kept (and 3.4 prints it).
 */
static int list_plugin_files(void)
{
	struct tep_handle *tep = tep_alloc();
	struct plugin_paths p = { 0 };

	if (!tep)
		return error("cannot allocate an event parser: %s", strerror(errno)) ? EXIT_FAILED : 0;
	tep_load_plugins_hook(tep, ".so", add_plugin_path, &p);
	while (p.nr--) {
		printf("  %s\n", p.paths[p.nr]);
		free(p.paths[p.nr]);
	}
	free(p.paths);
	tep_free(tep);
	return 0;
}

/* -O (and the options command): see trace-list.h. */
int list_plugin_options(void)
{
	struct tep_handle *tep = tep_alloc();
	struct tep_plugin_list *plugins;
	struct trace_seq s;

	if (!tep)
		return error("cannot allocate an event parser: %s", strerror(errno)) ? EXIT_FAILED : 0;
	trace_line_register_options();	/* first: listed last, as 3.4 */
	plugins = tep_load_plugins(tep);
	trace_seq_init(&s);
	tep_plugin_print_options(&s);
	trace_seq_terminate(&s);
	fputs(s.buffer, stdout);
	trace_seq_destroy(&s);
	tep_unload_plugins(plugins, tep);
	tep_free(tep);
	return 0;
}

/*
 * --proto: @line's function with its prototype from @btf, as 3.4 prints it;
 * a function BTF does not know (or a module's, "name [module]") as listed.
 */
static void print_func(const struct trace_btf *btf, struct trace_seq *s, char *line)
{
	size_t n = strcspn(line, " \t");
	char end = line[n];

	if (!btf)
		return (void)puts(line);
	line[n] = '\0';
	trace_seq_reset(s);
	if (trace_btf_proto(btf, s, line)) {
		trace_seq_terminate(s);
		puts(s->buffer);
		return;
	}
	line[n] = end;
	puts(line);
}

static int list_funcs(const char *re, bool proto)
{
	struct trace_btf *btf = NULL;
	char *all = NULL, *line, *save = NULL;
	struct trace_seq s;
	regex_t rx;
	int ret = compile(&rx, "-f", re);

	if (ret)
		return ret;
	trace_seq_init(&s);
	if (proto && !(btf = trace_btf_open(BTF_VMLINUX)))
		ret = EXIT_FAILED;
	if (!ret && !(all = read_top("available_filter_functions")))
		ret = EXIT_FAILED;
	for (line = all ? strtok_r(all, "\n", &save) : NULL; line; line = strtok_r(NULL, "\n", &save))
		if (!re || !regexec(&rx, line, 0, NULL, 0))
			print_func(btf, &s, line);
	if (re)
		regfree(&rx);
	trace_seq_destroy(&s);
	trace_btf_free(btf);
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
	/* Compressions and plugins are this program's, not the kernel's: no tracefs needed. */
	if ((o.comps || o.plugin_files || o.plugin_options) &&
	    !(o.events || o.systems || o.tracers || o.options || o.funcs || o.clocks || o.instances)) {
		ret = o.plugin_files ? list_plugin_files() : 0;
		if (!ret && o.plugin_options)
			ret = list_plugin_options();
		if (!ret && o.comps)
			ret = list_compressions();
		return ret;
	}
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
		ret = list_options(o.option_re);
	if (!ret && o.funcs)
		ret = list_funcs(o.func_re, o.proto);
	if (!ret && o.clocks)
		ret = list_file("trace_clock", false);
	if (!ret && o.instances)
		ret = list_instances();
	if (!ret && o.comps)
		ret = list_compressions();
	if (!ret && o.plugin_files)
		ret = list_plugin_files();
	if (!ret && o.plugin_options)
		ret = list_plugin_options();
	return ret;
}

const struct command cmd_list = {
	.name = "list",
	.run = run_list,
	.usage = list_usage,
	.summary = "list the events, tracers, options, functions and compressions",
};
