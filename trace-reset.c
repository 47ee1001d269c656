// SPDX-License-Identifier: GPL-2.0
/*
 * reset: bring Ftrace back to full performance in the selected buffers, each
 * item of trace-cmd-reset(1) set and then read back, so that a value that did
 * not stick is named and makes the command exit 1.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-dynevent.h"
#include "trace-tracefs.h"

extern const struct command cmd_reset;

static const char reset_usage[] =
	"usage: trace-cmd reset [-b SIZE] [-B NAME [-b SIZE] [-d]]... [-a [-b SIZE] [-d]] [-t [-b SIZE]]\n"
	"                       [-k TYPE]...\n"
	"  -b SIZE  set the per-CPU buffer size in KiB of the buffers the most recent\n"
	"           -B, -a or -t selected (the top buffer before any of them)\n"
	"  -B NAME  reset the instance NAME (repeatable); the top buffer only with -t\n"
	"  -a       reset every instance; the top buffer only with -t\n"
	"  -t       reset the top buffer too (the default without -B or -a)\n"
	"  -d       delete the instances the most recent -B or -a selected\n"
	"  -k TYPE  keep the dynamic events of TYPE (repeatable): kprobe, kretprobe,\n"
	"           uprobe, uretprobe, eprobe, synth or all; the others are removed\n";

static const struct option reset_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * The kernel's default trace options (kernel/trace/trace.h TRACE_DEFAULT_FLAGS
 * and each tracer's own flags).  A new instance starts with the top buffer's
 * flags except the two that only make sense once: printk and marker copies.
 * Options not listed here are left as they are.
 */
static const struct {
	const char *name;
	char top, instance;
} option_defaults[] = {
	{ "print-parent", 1, 1 },	{ "sym-offset", 0, 0 },
	{ "sym-addr", 0, 0 },		{ "verbose", 0, 0 },
	{ "raw", 0, 0 },		{ "hex", 0, 0 },
	{ "bin", 0, 0 },		{ "block", 0, 0 },
	{ "fields", 0, 0 },		{ "trace_printk", 1, 1 },
	{ "annotate", 1, 1 },		{ "userstacktrace", 0, 0 },
	{ "sym-userobj", 0, 0 },	{ "printk-msg-only", 0, 0 },
	{ "context-info", 1, 1 },	{ "latency-format", 0, 0 },
	{ "record-cmd", 1, 1 },		{ "record-tgid", 0, 0 },
	{ "overwrite", 1, 1 },		{ "disable_on_free", 0, 0 },
	{ "irq-info", 1, 1 },		{ "markers", 1, 1 },
	{ "event-fork", 0, 0 },		{ "trace_printk_dest", 1, 0 },
	{ "copy_trace_marker", 1, 0 },	{ "pause-on-trace", 0, 0 },
	{ "hash-ptr", 1, 1 },		{ "function-trace", 1, 1 },
	{ "function-fork", 0, 0 },	{ "display-graph", 0, 0 },
	{ "stacktrace", 0, 0 },		{ "func_stack_trace", 0, 0 },
	{ "func-no-repeats", 0, 0 },	{ "test_nop_accept", 0, 0 },
	{ "test_nop_refuse", 0, 0 },	{ "blk_classic", 0, 0 },
	{ "blk_cgroup", 0, 0 },		{ "blk_cgname", 0, 0 },
	{ "funcgraph-overrun", 0, 0 },	{ "funcgraph-cpu", 1, 1 },
	{ "funcgraph-overhead", 1, 1 },	{ "funcgraph-proc", 0, 0 },
	{ "funcgraph-duration", 1, 1 },	{ "funcgraph-abstime", 0, 0 },
	{ "funcgraph-irqs", 1, 1 },	{ "funcgraph-tail", 0, 0 },
	{ "funcgraph-retval", 0, 0 },	{ "funcgraph-retval-hex", 0, 0 },
	{ "funcgraph-retaddr", 0, 0 },	{ "funcgraph-args", 0, 0 },
	{ "sleep-time", 1, 1 },		{ "graph-time", 1, 1 },
};

/* One buffer being reset: where messages say it is, and whether all went well. */
struct target {
	struct tfs_instance *inst;
	const char *name;	/* NULL for the top buffer */
	int failed;
};

/* "cannot reset 'FILE'[ of instance 'NAME']: REASON" */
static void fail(struct target *t, const char *file, const char *why)
{
	if (t->name)
		error("cannot reset '%s' of instance '%s': %s", file, t->name, why);
	else
		error("cannot reset '%s': %s", file, why);
	t->failed = 1;
}

static void note(struct target *t, const char *file, const char *why)
{
	if (t->name)
		warning("cannot reset '%s' of instance '%s': %s", file, t->name, why);
	else
		warning("cannot reset '%s': %s", file, why);
}

/* Trims trailing newlines and spaces in place. */
static char *chomp(char *s)
{
	size_t n = strlen(s);

	while (n && (s[n - 1] == '\n' || s[n - 1] == ' '))
		s[--n] = '\0';
	return s;
}

/*
 * Writes @val, then checks that the file reads back as @want (or, with @want
 * NULL, as @val); a missing file is a feature this kernel lacks, not a failure.
 */
static void set_and_check(struct target *t, const char *file, const char *val, const char *want)
{
	char *now;

	if (tfs_write_quiet(t->inst, file, val) < 0) {
		if (errno != ENOENT)
			fail(t, file, strerror(errno));
		return;
	}
	now = tfs_read_quiet(t->inst, file);
	if (!now) {
		fail(t, file, strerror(errno));
		return;
	}
	chomp(now);
	if (strcmp(now, want ? want : val)) {
		char why[256];

		snprintf(why, sizeof(why), "it still reads '%.200s'", now);
		fail(t, file, why);
	}
	free(now);
}

/* True when every line of @s is empty or a comment. */
static bool only_comments(const char *s)
{
	for (const char *l = s; *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : l + strlen(l))
		if (*l != '#' && *l != '\n')
			return false;
	return true;
}

/*
 * set_ftrace_filter and set_ftrace_notrace are cleared where the kernel
 * allows.  A kernel that refuses them (EPERM) to us refuses them to everyone,
 * so no filter can be in place: that is said by name but is not a failure.
 * A filter that is readable and still set after the attempt is one.
 */
static void clear_function_filter(struct target *t, const char *file)
{
	char *now;
	int err = 0;

	if (tfs_write_quiet(t->inst, file, "") < 0) {
		err = errno;
		if (err == ENOENT)
			return;
	}
	now = tfs_read_quiet(t->inst, file);
	if (!now) {
		if (err == EPERM || errno == EPERM)
			note(t, file, strerror(err ? err : errno));
		else
			fail(t, file, strerror(errno));
		return;
	}
	if (!only_comments(now))
		fail(t, file, err ? strerror(err) : "a filter is still set");
	else if (err)
		note(t, file, strerror(err));
	free(now);
}

/*
 * Triggers are removed one by one: "!" and the trigger without count or
 * filter.  Returns whether one is still set: the kernel refuses to remove a
 * hist trigger whose variable another event's trigger still uses.
 */
static bool clear_triggers(struct target *t, const char *file)
{
	char *s = tfs_read_quiet(t->inst, file), *line, *save = NULL;
	char cmd[4096];
	bool left;
	size_t n;

	if (!s)
		return false;
	for (line = strtok_r(s, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (*line == '#')
			continue;
		n = strcspn(line, " ");
		snprintf(cmd, sizeof(cmd), "!%.*s", (int)n, line);
		if (strstr(cmd, ":unlimited"))
			*strstr(cmd, ":unlimited") = '\0';
		else if (strstr(cmd, ":count="))
			*strstr(cmd, ":count=") = '\0';
		tfs_write_quiet(t->inst, file, cmd);
	}
	free(s);
	s = tfs_read_quiet(t->inst, file);
	left = s && !only_comments(s);
	free(s);
	return left;
}

/*
 * The trigger files whose triggers clear_triggers() left, tried again while
 * each round removes some (the users of a variable go first, in any
 * order of events); what stays is named.
 */
static void clear_left_triggers(struct target *t, char **files, int nr)
{
	int kept, before;

	do {
		before = nr;
		kept = 0;
		for (int i = 0; i < nr; i++)
			if (clear_triggers(t, files[i]))
				files[kept++] = files[i];
			else
				free(files[i]);
		nr = kept;
	} while (nr && nr < before);
	for (int i = 0; i < nr; i++) {
		fail(t, files[i], "a trigger is still set");
		free(files[i]);
	}
	free(files);
}

/* Every event's filter back to "none" and its triggers removed. */
static void reset_events(struct target *t)
{
	char **systems = tfs_event_systems(t->inst), **events, **left = NULL;
	char file[1024], *f;
	int nr_left = 0;

	if (!systems) {
		if (errno)
			fail(t, "events", strerror(errno));
		return;
	}
	for (int s = 0; systems[s]; s++) {
		snprintf(file, sizeof(file), "events/%s/filter", systems[s]);
		/* One write clears the filters of the whole system. */
		tfs_write_quiet(t->inst, file, "0");
		events = tfs_system_events(t->inst, systems[s]);
		for (int e = 0; events && events[e]; e++) {
			snprintf(file, sizeof(file), "events/%s/%s/filter", systems[s], events[e]);
			f = tfs_read_quiet(t->inst, file);
			if (f && strcmp(chomp(f), "none"))
				set_and_check(t, file, "0", "none");
			free(f);
			snprintf(file, sizeof(file), "events/%s/%s/trigger", systems[s], events[e]);
			if (clear_triggers(t, file)) {
				left = xrealloc(left, sizeof(*left) * (nr_left + 1));
				left[nr_left++] = xstrdup(file);
			}
		}
		tfs_list_free(events);
	}
	tfs_list_free(systems);
	clear_left_triggers(t, left, nr_left);
}

static void reset_options(struct target *t)
{
	char file[256], *now;
	char want;

	for (size_t i = 0; i < ARRAY_SIZE(option_defaults); i++) {
		snprintf(file, sizeof(file), "options/%s", option_defaults[i].name);
		now = tfs_read_quiet(t->inst, file);
		if (!now)
			continue;	/* not an option of this kernel or buffer */
		want = t->name ? option_defaults[i].instance : option_defaults[i].top;
		if (atoi(now) != want)
			set_and_check(t, file, want ? "1" : "0", NULL);
		free(now);
	}
}

static void reset_clock(struct target *t)
{
	char *now;

	if (tfs_write_quiet(t->inst, "trace_clock", "local") < 0) {
		fail(t, "trace_clock", strerror(errno));
		return;
	}
	/* The clock in use is the bracketed one, or the only one listed. */
	now = tfs_read_quiet(t->inst, "trace_clock");
	if (!now || (!strstr(now, "[local]") && strcmp(chomp(now), "local")))
		fail(t, "trace_clock", "the clock is not 'local'");
	free(now);
}

static void reset_size(struct target *t, unsigned long kb)
{
	char val[32];

	snprintf(val, sizeof(val), "%lu", kb);
	if (tfs_write_quiet(t->inst, "buffer_size_kb", val) < 0)
		fail(t, "buffer_size_kb", strerror(errno));
}

/* The items in the order that quiets tracing first and turns it on last. */
static int reset_buffer(struct tfs_instance *inst, const char *name, unsigned long kb)
{
	struct target t = { .inst = inst, .name = name };

	tfs_write_quiet(inst, "set_event", "");
	set_and_check(&t, "current_tracer", "nop", NULL);
	reset_events(&t);
	/* Checked only now: an event with a trigger stays soft-enabled. */
	set_and_check(&t, "set_event", "", NULL);
	set_and_check(&t, "set_event_pid", "", NULL);
	set_and_check(&t, "set_event_notrace_pid", "", NULL);
	clear_function_filter(&t, "set_ftrace_filter");
	clear_function_filter(&t, "set_ftrace_notrace");
	clear_function_filter(&t, "set_graph_function");
	clear_function_filter(&t, "set_graph_notrace");
	set_and_check(&t, "max_graph_depth", "0", NULL);
	reset_clock(&t);
	reset_options(&t);
	if (kb)
		reset_size(&t, kb);
	/* Not on the list: the data is stale once its settings are gone. */
	tfs_write_quiet(inst, "trace", "");
	set_and_check(&t, "tracing_on", "1", NULL);
	return t.failed ? -1 : 0;
}

/* @ctx points to where -k's dynamic event types (DYNEVENT_* bits) are or'ed in. */
static int parse(const void *ctx, int argc, char **argv, struct buffers *b)
{
	unsigned int *keep = *(unsigned int *const *)ctx;
	unsigned long kb;
	bool top = true;	/* the most recent selector is -t, or there is none */
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hb:B:atdk:", reset_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_reset);
		case 'b':
			if (parse_ulong("-b", optarg, 1, 1UL << 30, &kb) < 0) {
				fputs(reset_usage, stderr);
				return EXIT_USAGE;
			}
			if (b)
				buffers_set_size(b, kb);
			break;
		case 'B':
			top = false;
			if (b && buffers_select_name(b, optarg) < 0)
				return EXIT_FAILED;
			break;
		case 'a':
			top = false;
			if (b && buffers_select_all(b) < 0)
				return EXIT_FAILED;
			break;
		case 't':
			top = true;
			if (b)
				buffers_select_top(b);
			break;
		case 'd':
			if (top)
				return usage_error(&cmd_reset,
						   "-d must follow -B or -a: the top buffer cannot be deleted");
			if (b)
				buffers_set_delete(b);
			break;
		case 'k':
			if (!dynevent_type(optarg))
				return usage_error(&cmd_reset, "invalid -k type '%s': use kprobe, kretprobe, uprobe, uretprobe, eprobe, synth or all",
						   optarg);
			*keep |= dynevent_type(optarg);
			break;
		default:
			return option_error(&cmd_reset, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_reset, "unexpected argument '%s'", argv[optind]);
	return PARSE_RUN;
}

static int run_reset(int argc, char **argv)
{
	unsigned int keep = 0, *keep_out = &keep;
	struct buffers *b;
	int ret;

	if ((ret = buffers_parse(parse, &keep_out, argc, argv, &b)) != PARSE_RUN)
		return ret;
	buffers_default_top(b);
	ret = EXIT_OK;
	for (int i = 0; i < buffers_count(b); i++) {
		struct tfs_instance *inst = buffers_instance(b, i);

		if (buffers_delete(b, i)) {
			if (tfs_instance_destroy(inst) < 0)
				ret = EXIT_FAILED;
			continue;
		}
		if (reset_buffer(inst, buffers_is_top(b, i) ? NULL : buffers_name(b, i),
				 buffers_size(b, i)) < 0)
			ret = EXIT_FAILED;
	}
	/* Global, and only once their triggers and enables are gone from the buffers. */
	if (dynevents_remove(keep) < 0)
		ret = EXIT_FAILED;
	buffers_free(b);
	return ret;
}

const struct command cmd_reset = {
	.name = "reset",
	.run = run_reset,
	.usage = reset_usage,
	.summary = "turn all tracing off and bring back full performance",
};
