// SPDX-License-Identifier: GPL-2.0
/*
 * The buffer plan of record and start/set: checks -p, -C, -O and the
 * function globs against the tracing directory before anything changes,
 * then writes the filters, triggers, tracer and options of one buffer,
 * saving each file so that the run's cleanup (or start's undo) puts
 * tracefs back as it was.
 */
#include <errno.h>
#include <dirent.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-ftrace-setup.h"
#include "trace-tracefs.h"

void ftrace_setup_init(struct ftrace_setup *fs, int argc)
{
	memset(fs, 0, sizeof(*fs));
	fs->filters = xcalloc(argc, sizeof(*fs->filters));
	fs->notrace = xcalloc(argc, sizeof(*fs->notrace));
	fs->graph = xcalloc(argc, sizeof(*fs->graph));
	fs->rules = xcalloc(argc, sizeof(*fs->rules));
	fs->options = xcalloc(argc, sizeof(*fs->options));
	fs->pids = xcalloc(argc, sizeof(*fs->pids));
	fs->negated = xcalloc(argc, 1);
}

int ftrace_setup_option(struct ftrace_setup *fs, int opt, const char *arg,
			const char *last_event)
{
	static const struct { int opt; const char *name, *what; } named[] = {
		{ 'p', "-p", "a tracer name" }, { 'l', "-l", "a function name" },
		{ 'n', "-n", "a function name" }, { 'g', "-g", "a function name" },
		{ 'f', "-f", "a filter" }, { 'R', "-R", "a trigger" },
		{ 'C', "-C", "a clock name" }, { 'O', "-O", "a trace option" },
		{ FTRACE_OPT_MODULE, "--module", "a module name" },
	};
	unsigned long num;

	for (size_t i = 0; i < ARRAY_SIZE(named); i++)
		if (opt == named[i].opt && check_named(named[i].name, arg, named[i].what) < 0)
			return -1;
	switch (opt) {
	case 'p':
		if (fs->plugin && strcmp(fs->plugin, arg))
			return error("only one -p: '%s' and '%s' given", fs->plugin, arg);
		fs->plugin = arg;
		return 1;
	case 'l':
		fs->filters[fs->nr_filters++] = arg;
		return 1;
	case 'n':
		fs->notrace[fs->nr_notrace++] = arg;
		return 1;
	case 'g':
		fs->graph[fs->nr_graph++] = arg;
		return 1;
	case 'f':
	case 'R':
		if (!last_event)
			return error("-%c must follow an -e", opt);
		fs->rules[fs->nr_rules].spec = last_event;
		fs->rules[fs->nr_rules].text = arg;
		fs->rules[fs->nr_rules++].trigger = opt == 'R';
		return 1;
	case FTRACE_OPT_MODULE:
		fs->module = arg;
		return 1;
	case FTRACE_OPT_MAX_GRAPH_DEPTH:
		if (parse_ulong("--max-graph-depth", arg, 1, 10000, &num) < 0)
			return -1;
		fs->max_graph_depth = arg;
		return 1;
	case FTRACE_OPT_FUNC_STACK:
		fs->func_stack = 1;
		return 1;
	case FTRACE_OPT_CMDLINES_SIZE:
		if (parse_ulong("--cmdlines-size", arg, 1, 1UL << 20, &num) < 0)
			return -1;
		fs->cmdlines_size = arg;
		return 1;
	case 'C':
		fs->clock = arg;
		return 1;
	case 'M':
		if (!*arg || arg[strspn(arg, "0123456789abcdefABCDEF,")])
			return error("invalid -M value '%s': not a hex CPU mask", arg);
		if (!arg[strspn(arg, "0,")])
			return error("invalid -M value '%s': the mask selects no CPU", arg);
		fs->cpumask = arg;
		return 1;
	case 'O':
		if (strchr(arg, '/'))
			return error("invalid -O value '%s': not an option name", arg);
		fs->options[fs->nr_options++] = arg;
		return 1;
	case 'T':
		fs->stacktrace = 1;
		return 1;
	case 'P':
		if (parse_ulong("-P", arg, 1, 1UL << 22, &num) < 0)
			return -1;
		fs->pids[fs->nr_pids++] = arg;
		return 1;
	case 'F':
		fs->follow_command = 1;
		return 1;
	case 'c':
		fs->children = 1;
		return 1;
	case 'd':
	case 'D':
		if (fs->no_function_trace < (opt == 'D' ? 2 : 1))
			fs->no_function_trace = opt == 'D' ? 2 : 1;
		return 1;
	case 'i':
		fs->ignore_missing = 1;
		return 1;
	case 'v':
		fs->negate_next = 1;
		return 1;
	case FTRACE_OPT_NO_FILTER:
		fs->no_filter = 1;
		return 1;
	case FTRACE_OPT_USER:
		if (!getpwnam(arg))
			return error("no user '%s'", arg);
		fs->user = arg;
		return 1;
	}
	return 0;
}

static int is_function_tracer(const char *plugin)
{
	return plugin && (!strcmp(plugin, "function") || !strcmp(plugin, "function_graph"));
}

static int is_graph_tracer(const char *plugin)
{
	return plugin && !strcmp(plugin, "function_graph");
}

int ftrace_setup_check_usage(const struct ftrace_setup *fs)
{
	const char *need = NULL, *opt = NULL;

	if (fs->nr_filters || fs->nr_notrace || fs->module) {
		opt = fs->nr_filters ? "-l" : fs->nr_notrace ? "-n" : "--module";
		if (!is_function_tracer(fs->plugin))
			need = "-p function or -p function_graph";
	}
	if (!need && (fs->nr_graph || fs->max_graph_depth)) {
		opt = fs->nr_graph ? "-g" : "--max-graph-depth";
		if (!is_graph_tracer(fs->plugin))
			need = "-p function_graph";
	}
	if (!need && fs->func_stack && !(fs->plugin && !strcmp(fs->plugin, "function"))) {
		opt = "--func-stack";
		need = "-p function";
	}
	if (!need && fs->children && !fs->follow_command && !fs->nr_pids) {
		opt = "-c";
		need = "-F or -P";
	}
	if (need)
		return error("%s needs %s", opt, need);
	if (fs->negate_next)
		return error("-v must come before an -e");
	return 0;
}

/* Is @name one of the whitespace-separated words of @list? */
static int has_word(const char *list, const char *name)
{
	size_t len = strlen(name);

	for (const char *p = list; *p; ) {
		size_t n;

		p += strspn(p, " \t\n");
		n = strcspn(p, " \t\n");
		if (n == len && !strncmp(p, name, len))
			return 1;
		p += n;
	}
	return 0;
}

/* fs->list_hint: start's words, which point to trace-cmd list. */
static int check_tracer(const struct ftrace_setup *fs, struct tfs_instance *inst)
{
	const char *plugin = fs->plugin;
	char *list;
	int ret = 0;

	if (!tfs_exists(inst, "available_tracers")) {
		if (fs->list_hint)
			return error("no tracer '%s' (see trace-cmd list -t)", plugin);
		return error("tracer '%s' is not available (no available_tracers in '%s')",
			     plugin, tfs_dir());
	}
	if (tfs_read_file(inst, "available_tracers", &list, NULL) < 0)
		return -1;
	if (!has_word(list, plugin)) {
		list[strcspn(list, "\n")] = '\0';
		ret = fs->list_hint ? error("no tracer '%s' (see trace-cmd list -t)", plugin) :
			error("tracer '%s' is not available (available: %s)", plugin, list);
	}
	free(list);
	return ret;
}

/*
 * Does a line of available_filter_functions ("name" or "name [module]")
 * match @glob, limited to @module when one is given?
 */
static int function_matches(const char *line, size_t len, const char *glob,
			    const char *module)
{
	char name[512], mod[256] = "";
	size_t n = strcspn(line, " \t\n");

	if (n >= sizeof(name) || n > len)
		return 0;
	memcpy(name, line, n);
	name[n] = '\0';
	if (module) {
		const char *b = memchr(line, '[', len);
		const char *e = b ? memchr(b, ']', len - (b - line)) : NULL;

		if (!e || (size_t)(e - b - 1) >= sizeof(mod))
			return 0;
		memcpy(mod, b + 1, e - b - 1);
		mod[e - b - 1] = '\0';
		if (strcmp(mod, module))
			return 0;
	}
	return fnmatch(glob, name, 0) == 0;
}

static int glob_known(const char *funcs, const char *glob, const char *module)
{
	for (const char *p = funcs; p && *p; ) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);

		if (function_matches(p, len, glob, module))
			return 1;
		p = nl ? nl + 1 : NULL;
	}
	return 0;
}

/*
 * GLOB, or GLOB:mod:MODULE as the kernel takes it in a filter file (an
 * empty GLOB there is every function of the module); --module adds the
 * module to plain globs.
 */
static int glob_known_inline(const char *funcs, const char *glob, const char *module)
{
	const char *mod = strstr(glob, ":mod:");
	char *head;
	int known;

	if (!mod)
		return glob_known(funcs, glob, module);
	head = xstrdup(glob);
	head[mod - glob] = '\0';
	known = glob_known(funcs, *head ? head : "*", mod + 5);
	free(head);
	return known;
}

static int check_globs(const char *funcs, const char **globs, int n, const char *module)
{
	for (int i = 0; i < n; i++)
		if (!glob_known_inline(funcs, globs[i], module))
			return module ?
				error("no function of module '%s' matches '%s'", module, globs[i]) :
				error("no function matches '%s' (see available_filter_functions)",
				      globs[i]);
	return 0;
}

static int check_functions(const struct ftrace_setup *fs, struct tfs_instance *inst)
{
	char *funcs;
	int ret;

	if (!fs->nr_filters && !fs->nr_notrace && !fs->nr_graph && !fs->module)
		return 0;
	if (tfs_read_file(inst, "available_filter_functions", &funcs, NULL) < 0)
		return -1;
	ret = check_globs(funcs, fs->filters, fs->nr_filters, fs->module);
	if (ret == 0)
		ret = check_globs(funcs, fs->notrace, fs->nr_notrace, NULL);
	if (ret == 0)
		ret = check_globs(funcs, fs->graph, fs->nr_graph, NULL);
	if (ret == 0 && fs->module && !fs->nr_filters) {
		const char *all = "*";

		ret = check_globs(funcs, &all, 1, fs->module);
	}
	free(funcs);
	return ret;
}

static int check_clock(const struct ftrace_setup *fs, struct tfs_instance *inst)
{
	const char *clock = fs->clock;
	char *list, *words, *p;
	int ret = 0;

	if (tfs_read_file(inst, "trace_clock", &list, NULL) < 0)
		return -1;
	list[strcspn(list, "\n")] = '\0';
	words = xstrdup(list);
	for (p = words; *p; p++)
		if (*p == '[' || *p == ']')
			*p = ' ';
	if (!has_word(words, clock))
		ret = fs->list_hint ? error("no trace clock '%s' (see trace-cmd list -C)", clock) :
			error("clock '%s' is not available (available: %s)", clock, list);
	free(words);
	free(list);
	return ret;
}

/* Does options/@name exist in @inst?  (A name with a '/' is no option.) */
static int option_exists(struct tfs_instance *inst, const char *name)
{
	char rel[300];

	if (!*name || strchr(name, '/'))
		return 0;
	snprintf(rel, sizeof(rel), "options/%s", name);
	return tfs_exists(inst, rel);
}

/* "noNAME" turns NAME off, unless noNAME is an option of its own. */
static const char *option_name(struct tfs_instance *inst, const char *opt, int *on)
{
	*on = strncmp(opt, "no", 2) || option_exists(inst, opt);
	return *on ? opt : opt + 2;
}

/* The error for -O @opt (option @name) missing, in the words fs->list_hint asks for. */
static int missing_option(const struct ftrace_setup *fs, const char *opt, const char *name)
{
	const char *what = fs->list_hint ? name : opt;
	const char *hint = fs->list_hint ? "trace-cmd list -o" : "the options directory";

	if (fs->plugin)
		return error("no trace option '%s' with tracer '%s' (see %s)", what, fs->plugin,
			     hint);
	return error("no trace option '%s' (see %s)", what, hint);
}

int ftrace_setup_check_options(const struct ftrace_setup *fs, struct tfs_instance *inst)
{
	const char *name;
	int on;

	/* A tracer's own options may appear only once it is set: checked then. */
	if (fs->plugin)
		return 0;
	for (int i = 0; i < fs->nr_options; i++) {
		name = option_name(inst, fs->options[i], &on);
		if (!option_exists(inst, name))
			return missing_option(fs, fs->options[i], name);
	}
	return 0;
}

int ftrace_setup_apply_options(struct ftrace_setup *fs, struct tfs_instance *inst,
			       struct tfs_saved *saved)
{
	const char *name;
	char rel[300];
	int on;

	for (int i = 0; i < fs->nr_options; i++) {
		name = option_name(inst, fs->options[i], &on);
		/* After the tracer: its own options exist now, if it has them. */
		if (!option_exists(inst, name))
			return missing_option(fs, fs->options[i], name);
		snprintf(rel, sizeof(rel), "options/%s", name);
		if (tfs_set(saved, inst, rel, on ? "1" : "0") < 0)
			return -1;
	}
	return 0;
}

int ftrace_setup_check(const struct ftrace_setup *fs, struct tfs_instance *inst)
{
	if (fs->plugin && check_tracer(fs, inst) < 0)
		return -1;
	if (fs->clock && check_clock(fs, inst) < 0)
		return -1;
	if (ftrace_setup_check_options(fs, inst) < 0)
		return -1;
	return check_functions(fs, inst);
}

/*
 * Writes each line of @lines to DIR/REL in its own write(), after one
 * truncating open: the function filter files take one glob per write, and
 * the open with O_TRUNC is what clears them.
 */
static int write_lines(struct tfs_instance *inst, const char *rel, const char *lines)
{
	char *path = rel[0] == '/' ? xstrdup(rel) : tfs_path(inst, rel);
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	const char *p = lines;
	int err = errno;

	free(path);
	do {
		size_t n = strcspn(p, "\n");
		char *line = xmalloc(n + 2);

		memcpy(line, p, n);
		line[n] = '\n';
		line[n + 1] = '\0';
		if (fd < 0 || (n && write_all(fd, line, n + 1) != (ssize_t)(n + 1))) {
			if (fd >= 0)
				err = errno;
			line[n] = '\0';
			error("writing '%s' to '%s': %s", line, rel, strerror(err));
			free(line);
			if (fd >= 0)
				close(fd);
			return -1;
		}
		free(line);
		p += n + (p[n] == '\n');
	} while (*p);
	if (close(fd) < 0)
		return error("writing to '%s': %s", rel, strerror(errno));
	return 0;
}

/* A small file outside tracefs (/proc/sys), whole. */
static int read_whole(const char *path, char **val)
{
	char buf[64];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (fd < 0)
		return -1;
	n = read_all(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	*val = xstrdup(buf);
	return 0;
}

static int write_whole(const char *path, const char *val)
{
	int fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	int err;

	if (fd < 0)
		return -1;
	if (write_all(fd, val, strlen(val)) != (ssize_t)strlen(val)) {
		err = errno;
		close(fd);
		errno = err;
		return -1;
	}
	return close(fd);
}

/* Remembers @val to be written back to @rel by ftrace_setup_restore(). */
static void remember(struct ftrace_setup *fs, struct tfs_instance *inst, const char *rel,
		     char *val)
{
	fs->restore_inst = xrealloc(fs->restore_inst, (fs->nr_restore + 1) * sizeof(*fs->restore_inst));
	fs->restore_inst[fs->nr_restore] = inst;
	fs->restore_rel = xrealloc(fs->restore_rel, (fs->nr_restore + 1) * sizeof(char *));
	fs->restore_val = xrealloc(fs->restore_val, (fs->nr_restore + 1) * sizeof(char *));
	fs->restore_rel[fs->nr_restore] = xstrdup(rel);
	fs->restore_val[fs->nr_restore] = val;
	fs->nr_restore++;
}

/*
 * A function filter file lists one glob a line; "#### all functions
 * enabled ####" and the like mean empty, which a truncating open restores.
 */
static int set_function_list(struct ftrace_setup *fs, struct tfs_instance *inst, const char *rel,
			     const char **globs, int n, const char *module)
{
	size_t len = 1;
	char *old = NULL, *val;

	if (!n && !module)
		return 0;
	/* Unreadable (as the function tracer's files are where it is refused): stop. */
	if (tfs_exists(inst, rel) && tfs_read_file(inst, rel, &old, NULL) < 0)
		return -1;
	if (old && old[0] == '#')
		old[0] = '\0';
	remember(fs, inst, rel, old ? old : xstrdup(""));
	for (int i = 0; i < n; i++)
		len += strlen(globs[i]) + (module ? strlen(module) + 5 : 0) + 1;
	if (!n)
		len += strlen(module) + 6;
	val = xcalloc(1, len);
	for (int i = 0; i < n; i++)
		sprintf(val + strlen(val), module ? "%s:mod:%s\n" : "%s\n", globs[i],
			module ? module : "");
	if (!n)
		sprintf(val, ":mod:%s\n", module);
	n = write_lines(inst, rel, val);
	free(val);
	return n;
}

/* An event directory events/SYS/EVT with an enable file matching the globs. */
static int system_has_event(struct tfs_instance *inst, const char *sys, const char *evglob)
{
	char *rel = xmalloc(strlen(sys) + 16);
	char *path;
	struct dirent *d;
	DIR *dir;
	int found = 0;

	sprintf(rel, "events/%s", sys);
	path = tfs_path(inst, rel);
	dir = opendir(path);
	while (dir && !found && (d = readdir(dir))) {
		char *en = xmalloc(strlen(rel) + strlen(d->d_name) + 16);

		sprintf(en, "%s/%s/enable", rel, d->d_name);
		found = d->d_name[0] != '.' && fnmatch(evglob, d->d_name, 0) == 0 &&
			tfs_exists(inst, en);
		free(en);
	}
	if (dir)
		closedir(dir);
	free(path);
	free(rel);
	return found;
}

void ftrace_setup_event(struct ftrace_setup *fs, int index)
{
	fs->negated[index] = fs->negate_next;
	fs->negate_next = 0;
}

struct tfs_events *ftrace_events_minus(struct tfs_instance *inst, const struct tfs_events *all,
				       const struct tfs_events *minus)
{
	struct tfs_events *ev = tfs_events_new();

	for (size_t i = 0; i < tfs_events_count(all); i++) {
		const char *sys = tfs_events_system(all, i), *name = tfs_events_name(all, i);
		char *spec;
		size_t j;

		for (j = 0; j < tfs_events_count(minus); j++)
			if (!strcmp(sys, tfs_events_system(minus, j)) &&
			    !strcmp(name, tfs_events_name(minus, j)))
				break;
		if (j < tfs_events_count(minus))
			continue;
		spec = xmalloc(strlen(sys) + strlen(name) + 2);
		sprintf(spec, "%s:%s", sys, name);
		if (tfs_events_add(ev, inst, spec) < 0) {
			free(spec);
			tfs_events_free(ev);
			return NULL;
		}
		free(spec);
	}
	return ev;
}

int ftrace_event_spec_matches(struct tfs_instance *inst, const char *spec)
{
	char *copy = xstrdup(spec), *colon = strchr(copy, ':');
	char *path = tfs_path(inst, "events");
	DIR *dir = opendir(path);
	struct dirent *d;
	int found = 0;

	if (colon)
		*colon = '\0';
	while (dir && !found && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		if (!strcmp(copy, "all"))
			found = system_has_event(inst, d->d_name, "*");
		else if (colon)
			found = fnmatch(copy, d->d_name, 0) == 0 &&
				system_has_event(inst, d->d_name, colon + 1);
		else
			found = (fnmatch(copy, d->d_name, 0) == 0 &&
				 system_has_event(inst, d->d_name, "*")) ||
				system_has_event(inst, d->d_name, copy);
	}
	if (dir)
		closedir(dir);
	free(path);
	free(copy);
	return found;
}

/* -v -e SPEC: the events the negated specs match, taken out of @ev. */
static int exclude_negated(const struct ftrace_setup *fs, struct tfs_instance *inst,
			   const char **specs, int n,
			   struct tfs_events **ev)
{
	struct tfs_events *minus = tfs_events_new(), *rest = NULL;
	int nr_minus = 0;

	for (int i = 0; i < n; i++) {
		if (!fs->negated[i])
			continue;
		nr_minus++;
		if (tfs_events_add(minus, inst, specs[i]) <= 0) {
			tfs_events_free(minus);
			return -1;
		}
	}
	if (nr_minus && !(rest = ftrace_events_minus(inst, *ev, minus))) {
		tfs_events_free(minus);
		return -1;
	}
	tfs_events_free(minus);
	if (rest) {
		tfs_events_free(*ev);
		*ev = rest;
	}
	return 0;
}

struct tfs_events *ftrace_select_events(const struct ftrace_setup *fs, struct tfs_instance *inst,
					const char **specs, int n)
{
	struct tfs_events *ev = tfs_events_new();

	for (int i = 0; i < n; i++) {
		if (fs->ignore_missing && !ftrace_event_spec_matches(inst, specs[i])) {
			warning("no event matches '%s': ignored (-i)", specs[i]);
			continue;
		}
		if (fs->negated[i])
			continue;
		if (tfs_events_add(ev, inst, specs[i]) <= 0) {
			tfs_events_free(ev);
			return NULL;
		}
	}
	if (exclude_negated(fs, inst, specs, n, &ev) < 0) {
		tfs_events_free(ev);
		return NULL;
	}
	return ev;
}

/* Is event @i of @ev one of @only? */
static int event_in(const struct tfs_events *ev, size_t i, const struct tfs_events *only)
{
	for (size_t j = 0; j < tfs_events_count(only); j++)
		if (!strcmp(tfs_events_system(ev, i), tfs_events_system(only, j)) &&
		    !strcmp(tfs_events_name(ev, i), tfs_events_name(only, j)))
			return 1;
	return 0;
}

/* The -f and -R of one -e spec, on every event the spec matches (of @only, if given). */
static int apply_rule(struct ftrace_setup *fs, struct tfs_instance *inst,
		      const struct ftrace_event_rule *r,
		      struct tfs_saved *saved, const struct tfs_events *only)
{
	struct tfs_events *ev;
	int ret;

	if (fs->ignore_missing && !ftrace_event_spec_matches(inst, r->spec))
		return 0;	/* -i skipped its -e */
	ev = tfs_events_new();
	ret = tfs_events_add(ev, inst, r->spec) > 0 ? 0 : -1;

	for (size_t i = 0; ret == 0 && i < tfs_events_count(ev); i++) {
		char *rel;

		if (only && !event_in(ev, i, only))
			continue;
		rel = xmalloc(strlen(tfs_events_system(ev, i)) + strlen(tfs_events_name(ev, i)) + 32);
		sprintf(rel, "events/%s/%s/%s", tfs_events_system(ev, i),
			tfs_events_name(ev, i), r->trigger ? "trigger" : "filter");
		if (!r->trigger) {
			ret = tfs_set(saved, inst, rel, r->text);
		} else if ((ret = tfs_write_file(inst, rel, r->text)) == 0) {
			/* A trigger goes away by writing it back with '!' before it. */
			char *undo = xmalloc(strlen(r->text) + 2);

			sprintf(undo, "!%s", r->text);
			remember(fs, inst, rel, undo);
		}
		free(rel);
	}
	tfs_events_free(ev);
	return ret;
}

static int apply_tracer(struct ftrace_setup *fs, struct tfs_instance *inst,
			struct tfs_saved *saved)
{
	if (fs->max_graph_depth && tfs_set(saved, inst, "max_graph_depth", fs->max_graph_depth) < 0)
		return -1;
	if (fs->plugin && tfs_set(saved, inst, "current_tracer", fs->plugin) < 0)
		return -1;
	/* The tracer's own options appear once it is the current tracer. */
	if (fs->func_stack && tfs_set(saved, inst, "options/func_stack_trace", "1") < 0)
		return -1;
	return fs->plugin ? ftrace_setup_apply_options(fs, inst, saved) : 0;
}

/* -P and -F: the event pid filter, and the function one for function tracers. */
static int apply_pids(struct ftrace_setup *fs, struct tfs_instance *inst,
		      struct tfs_saved *saved)
{
	size_t len = 1;
	char *val;
	int ret;

	if (!fs->nr_pids && !fs->follow_command)
		return 0;
	if (fs->children && (tfs_set(saved, inst, "options/event-fork", "1") < 0 ||
			     (is_function_tracer(fs->plugin) &&
			      tfs_set(saved, inst, "options/function-fork", "1") < 0)))
		return -1;
	if (tfs_save(saved, inst, "set_event_pid") < 0 ||
	    (is_function_tracer(fs->plugin) && tfs_save(saved, inst, "set_ftrace_pid") < 0))
		return -1;
	if (!fs->nr_pids)
		return 0;	/* -F: the child writes its pid */
	for (int i = 0; i < fs->nr_pids; i++)
		len += strlen(fs->pids[i]) + 1;
	val = xcalloc(1, len);
	for (int i = 0; i < fs->nr_pids; i++)
		sprintf(val + strlen(val), "%s%s", i ? " " : "", fs->pids[i]);
	ret = tfs_write_file(inst, "set_event_pid", val);
	if (ret == 0 && is_function_tracer(fs->plugin))
		ret = tfs_write_file(inst, "set_ftrace_pid", val);
	free(val);
	return ret;
}

int ftrace_setup_child(const struct ftrace_setup *fs, struct tfs_instance *inst)
{
	char pid[32];

	/*
	 * With options/event-fork on, the fork made this child one of the
	 * excluded pids: writing the same list again takes it out.
	 */
	if (fs->excluded && tfs_write_file(inst, "set_event_notrace_pid", fs->excluded) < 0)
		return -1;
	if (!fs->follow_command)
		return 0;
	snprintf(pid, sizeof(pid), "%d", (int)getpid());
	if (tfs_write_file(inst, "set_event_pid", pid) < 0)
		return -1;
	if (is_function_tracer(fs->plugin) && tfs_write_file(inst, "set_ftrace_pid", pid) < 0)
		return -1;
	return 0;
}

static int option_is_on(struct tfs_instance *inst, const char *name)
{
	char rel[64], *val;
	int on;

	snprintf(rel, sizeof(rel), "options/%s", name);
	if (!tfs_exists(inst, rel) || tfs_read_file(inst, rel, &val, NULL) < 0)
		return 0;
	on = val[0] == '1';
	free(val);
	return on;
}

int ftrace_setup_exclude(struct ftrace_setup *fs, struct tfs_instance *inst,
			 struct tfs_saved *saved,
			 const pid_t *pids, int nr_pids)
{
	char *val;
	int ret;

	if (fs->no_filter || fs->nr_pids || fs->follow_command ||
	    !tfs_exists(inst, "set_event_notrace_pid"))
		return 0;
	val = xmalloc((nr_pids + 1) * 12 + 1);
	sprintf(val, "%d", (int)getpid());
	for (int i = 0; i < nr_pids; i++)
		if (pids[i] > 0)	/* 0: no recorder (offline CPU), not the idle task */
			sprintf(val + strlen(val), " %d", (int)pids[i]);
	ret = tfs_set(saved, inst, "set_event_notrace_pid", val);
	free(fs->excluded);
	fs->excluded = NULL;
	/* Rewriting the list costs the child ~50 ms: only where forks inherit it. */
	if (ret == 0 && option_is_on(inst, "event-fork"))
		fs->excluded = val;
	else
		free(val);
	return ret;
}

int ftrace_setup_become_user(const struct ftrace_setup *fs)
{
	struct passwd *pw;

	if (!fs->user)
		return 0;
	pw = getpwnam(fs->user);
	if (!pw) {
		errno = ENOENT;
		return -1;
	}
	if (initgroups(pw->pw_name, pw->pw_gid) < 0 || setgid(pw->pw_gid) < 0 ||
	    setuid(pw->pw_uid) < 0)
		return -1;
	return 0;
}

/*
 * -d: the function-trace option off, so latency tracers do not trace
 * functions; -D also the global switch /proc/sys/kernel/ftrace_enabled,
 * outside tracefs, saved and put back by ftrace_setup_restore().
 */
static int apply_no_function_trace(struct ftrace_setup *fs, struct tfs_instance *inst,
				   struct tfs_saved *saved)
{
	static const char proc[] = "/proc/sys/kernel/ftrace_enabled";
	char *old;

	if (!fs->no_function_trace)
		return 0;
	if (tfs_set(saved, inst, "options/function-trace", "0") < 0)
		return -1;
	if (fs->no_function_trace < 2)
		return 0;
	if (read_whole(proc, &old) < 0)
		return error("cannot read '%s': %s", proc, strerror(errno));
	old[strcspn(old, "\n")] = '\0';
	if (write_whole(proc, "0") < 0) {
		error("writing '0' to '%s': %s", proc, strerror(errno));
		free(old);
		return -1;
	}
	remember(fs, NULL, proc, old);
	return 0;
}

/* -C, -M, --cmdlines-size, -O (without -p) and -T: one file each, saved first. */
static int apply_settings(struct ftrace_setup *fs, struct tfs_instance *inst,
			  struct tfs_saved *saved)
{
	if (fs->clock && tfs_set(saved, inst, "trace_clock", fs->clock) < 0)
		return -1;
	if (fs->cpumask && tfs_set(saved, inst, "tracing_cpumask", fs->cpumask) < 0)
		return -1;
	if (fs->cmdlines_size && tfs_set(saved, inst, "saved_cmdlines_size", fs->cmdlines_size) < 0)
		return -1;
	if (fs->stacktrace && tfs_set(saved, inst, "options/stacktrace", "1") < 0)
		return -1;
	if (apply_no_function_trace(fs, inst, saved) < 0)
		return -1;
	if (!fs->plugin && ftrace_setup_apply_options(fs, inst, saved) < 0)
		return -1;
	return apply_pids(fs, inst, saved);
}

/* Each -f and -R on the events its -e matches (of @only, if given). */
static int apply_rules(struct ftrace_setup *fs, struct tfs_instance *inst,
		       struct tfs_saved *saved, const struct tfs_events *only)
{
	for (int i = 0; i < fs->nr_rules; i++)
		if (apply_rule(fs, inst, &fs->rules[i], saved, only) < 0)
			return -1;
	return 0;
}

int ftrace_setup_apply(struct ftrace_setup *fs, struct tfs_instance *inst,
		       struct tfs_saved *saved)
{
	if (apply_settings(fs, inst, saved) < 0)
		return -1;
	if (apply_rules(fs, inst, saved, fs->rules_only) < 0)
		return -1;
	if (set_function_list(fs, inst, "set_ftrace_filter", fs->filters, fs->nr_filters,
			      fs->module) < 0 ||
	    set_function_list(fs, inst, "set_ftrace_notrace", fs->notrace, fs->nr_notrace, NULL) < 0 ||
	    set_function_list(fs, inst, "set_graph_function", fs->graph, fs->nr_graph, NULL) < 0)
		return -1;
	return apply_tracer(fs, inst, saved);
}

int ftrace_setup_restore(struct ftrace_setup *fs)
{
	int ret = 0;

	while (fs->nr_restore) {
		int i = --fs->nr_restore;

		if (write_lines(fs->restore_inst[i], fs->restore_rel[i], fs->restore_val[i]) < 0)
			ret = -1;
		free(fs->restore_rel[i]);
		free(fs->restore_val[i]);
	}
	return ret;
}

void ftrace_setup_free(struct ftrace_setup *fs)
{
	/* Not restored here: record -k and start keep what they set. */
	for (int i = 0; i < fs->nr_restore; i++) {
		free(fs->restore_rel[i]);
		free(fs->restore_val[i]);
	}
	free(fs->restore_inst);
	free(fs->restore_rel);
	free(fs->restore_val);
	free(fs->excluded);
	free(fs->filters);
	free(fs->notrace);
	free(fs->graph);
	free(fs->rules);
	free(fs->options);
	free(fs->pids);
	free(fs->negated);
}
