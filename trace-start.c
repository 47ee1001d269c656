// SPDX-License-Identifier: GPL-2.0
/*
 * start and set: configure Ftrace from record-like options without
 * recording.  start replaces the event selection, clears the buffer and
 * leaves tracing on; set changes only what its options name.  Everything is
 * checked before the first write, and a refused write puts back what was done.
 * Each buffer is a buffer plan (trace-buffer-plan.h), as record's are; a
 * COMMAND after the options runs with the buffers set up (trace-exec.h).
 */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-buffer-plan.h"
#include "trace-buffers.h"
#include "trace-exec.h"
#include "trace-ftrace-setup.h"
#include "trace-tracefs.h"

extern const struct command cmd_start, cmd_set;

#define START_OPTIONS \
	"  -e EVENT   enable EVENT: system:event, system, event or all, globs allowed\n" \
	"  -f FILTER  filter the events of the preceding -e (kernel filter syntax)\n" \
	"  -R TRIGGER add TRIGGER to the events of the preceding -e (their trigger file)\n" \
	"  -p TRACER  set the tracer (trace-cmd list shows them)\n" \
	"  -b SIZE    per-CPU buffer size in KiB\n" \
	"  --subbuf-size KB     the ring buffer's sub-buffer (page) size in KiB\n" \
	"  -C CLOCK   the trace clock (trace-cmd list shows them)\n" \
	"  -O OPTION  set a trace option, noOPTION clears it (trace-cmd list shows them)\n" \
	"  -B NAME    the options after it apply to the instance NAME (created if needed)\n" \
	"  -l FUNC    with -p function(_graph): trace only functions matching FUNC\n" \
	"  -n FUNC    with -p function(_graph): do not trace functions matching FUNC\n" \
	"  -g FUNC    with -p function_graph: graph only FUNC and what it calls\n" \
	"  --module MOD         limit -l to module MOD (alone: all its functions)\n" \
	"  --max-graph-depth N  the function_graph depth limit\n" \
	"  --func-stack         a stack trace at each traced function (-p function)\n" \
	"  -P PID     trace only PID's events (repeatable; set_event_pid, set_ftrace_pid)\n" \
	"  -F         trace only COMMAND (and with -c its children)\n" \
	"  -c         with -P or -F, their children too (options/event-fork, function-fork)\n" \
	"  -M CPUMASK trace only the CPUs of the hex CPUMASK (tracing_cpumask)\n" \
	"  -T         a stack trace with each event (options/stacktrace)\n" \
	"  -d         keep the function tracer off (options/function-trace)\n" \
	"  -D         -d and /proc/sys/kernel/ftrace_enabled off as well\n" \
	"  --cmdlines-size N    how many command names the kernel keeps (saved_cmdlines_size)\n" \
	"  -i         an -e that matches no event is a warning, not an error\n" \
	"  -v         the -e after it takes its events out (-e sched -v -e sched_switch)\n" \
	"  -K         do not clear the buffers before tracing (set never clears them)\n" \
	"  -k         accepted as upstream's: start and set never reset the buffers after\n" \
	"  -q, --quiet          accepted as upstream's: start and set print no statistics\n" \
	"  -m KB, -s USECS      in upstream's usage, about record's recorders: refused\n" \
	"  --verbose[=LEVEL]    the log level (none crit err warn info debug all, or 0-6;\n" \
	"                       info alone): at debug, each tracefs write\n" \
	"  --user USER          run COMMAND as USER\n" \
	"  --fork               return once COMMAND is started, without waiting for it\n" \
	"  COMMAND    run with tracing set up (and on, for start), as a shell would; the exit\n" \
	"             status is its own\n"

static const char start_usage[] =
	"usage: trace-cmd start [-e EVENT [-f FILTER] [-R TRIGGER]]... [-p TRACER] [-b SIZE] [-C CLOCK]\n"
	"                       [-O OPTION]... [-K] [--subbuf-size KB] [-B NAME [OPTIONS]]...\n"
	"                       [-F] [--fork] [--user USER] [COMMAND [ARG]...]\n"
	START_OPTIONS
	"Replaces the events enabled in each buffer it names, clears it and turns tracing on.\n";

static const char set_usage[] =
	"usage: trace-cmd set [-e EVENT [-f FILTER] [-R TRIGGER]]... [-p TRACER] [-b SIZE] [-C CLOCK]\n"
	"                     [-O OPTION]... [-K] [--subbuf-size KB] [-B NAME [OPTIONS]]...\n"
	"                     [-F] [--fork] [--user USER] [COMMAND [ARG]...]\n"
	START_OPTIONS
	"Changes only what its options name; tracing_on and the buffer stay as they are.\n";

enum { START_OPT_FORK = 0x4000, START_OPT_VERBOSE };	/* after the modules' (their headers) */

static const struct option start_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "module", required_argument, NULL, FTRACE_OPT_MODULE },
	{ "max-graph-depth", required_argument, NULL, FTRACE_OPT_MAX_GRAPH_DEPTH },
	{ "func-stack", no_argument, NULL, FTRACE_OPT_FUNC_STACK },
	{ "cmdlines-size", required_argument, NULL, FTRACE_OPT_CMDLINES_SIZE },
	{ "subbuf-size", required_argument, NULL, BUFFER_OPT_SUBBUF_SIZE },
	{ "user", required_argument, NULL, FTRACE_OPT_USER },
	{ "quiet", no_argument, NULL, 'q' },
	{ "fork", no_argument, NULL, START_OPT_FORK },
	{ "verbose", optional_argument, NULL, START_OPT_VERBOSE },
	{ NULL, 0, NULL, 0 }
};

/*
 * What one buffer (the top one, or an instance) is to get: the plan record
 * keeps per buffer: its -e, -v, -f, -R, -O, -p, -C, -b and --subbuf-size; the
 * top buffer's other settings (-l, -P, -F ...) are start_plan.ftrace.
 */
struct start_buffer {
	struct buffer_plan plan;
	bool used;		/* an option names it (the top buffer may be unused) */
};

struct start_plan {
	const struct command *cmd;
	bool start;
	int argc;		/* each buffer's lists have room for every option */
	struct start_buffer *bufs;
	int nr_bufs;
	struct tfs_saved *saved;
	int nr_cpus;		/* -b resizes each CPU's buffer */
	struct ftrace_setup ftrace;	/* -l, -n, -g ... of the top buffer */
	char **argv;		/* COMMAND and its arguments, or NULL */
	char *cmd_path;		/* where COMMAND was found */
	bool fork_only;		/* --fork: do not wait for COMMAND */
	bool keep_contents;	/* -K: no buffer is cleared */
};

static int bad_value(struct start_plan *p)
{
	return usage_follows(p->cmd);
}

/* The instance is named now and looked up later (check_plan). */
static void add_buffer(struct start_plan *p, const char *instance)
{
	struct start_buffer *b;

	p->bufs = xrealloc(p->bufs, (p->nr_bufs + 1) * sizeof(*p->bufs));
	b = &p->bufs[p->nr_bufs++];
	buffer_plan_init(&b->plan, NULL, p->argc);
	b->plan.name = instance;
	b->used = instance != NULL;
}

static struct start_buffer *cur(struct start_plan *p)
{
	if (!p->nr_bufs)
		add_buffer(p, NULL);
	return &p->bufs[p->nr_bufs - 1];
}

/* Has the latest -e of @b a -f (or with @trigger a -R) already? */
static bool has_rule(const struct start_buffer *b, bool trigger)
{
	const struct ftrace_setup *ev = &b->plan.ftrace;

	for (int i = 0; i < ev->nr_rules; i++)
		if (ev->rules[i].spec == buffer_plan_last_event(&b->plan) &&
		    !ev->rules[i].trigger == !trigger)
			return true;
	return false;
}

/* -f or -R: after an -e that enables events, once each. */
static int event_rule(struct start_plan *p, struct start_buffer *b, int c, const char *arg)
{
	if (!b->plan.nr_specs || has_rule(b, c == 'R'))
		return usage_error(p->cmd, "-%c must follow an -e", c);
	if (b->plan.ftrace.negated[b->plan.nr_specs - 1])
		return usage_error(p->cmd, "-%c cannot follow a -v -e: its events are not enabled", c);
	if (buffer_plan_option(&b->plan, c, arg) < 0)
		return bad_value(p);
	return PARSE_RUN;
}

/* The options of the top buffer (the function filters, -P ...) and -i. */
static int top_option(struct start_plan *p, struct start_buffer *b, int c, const char *arg)
{
	/* For every buffer, wherever it is given, as record's -i. */
	if (c == 'i') {
		ftrace_setup_option(&p->ftrace, c, arg, NULL);
		return PARSE_RUN;
	}
	/* The function filter files exist in the top buffer only. */
	if (b->plan.name && (c == 'l' || c == 'n' || c == 'g' || c == FTRACE_OPT_MODULE ||
			    c == FTRACE_OPT_MAX_GRAPH_DEPTH || c == FTRACE_OPT_FUNC_STACK))
		return usage_error(p->cmd, "function filters apply to the top buffer, not -B %s",
				   b->plan.name);
	/* The others are set once, in the top buffer, as for the function filters. */
	if (b->plan.name && c == FTRACE_OPT_CMDLINES_SIZE)
		return usage_error(p->cmd, "--cmdlines-size applies to the whole kernel, not -B %s",
				   b->plan.name);
	if (b->plan.name)
		return usage_error(p->cmd, "-%c applies to the top buffer, not -B %s", c, b->plan.name);
	if (ftrace_setup_option(&p->ftrace, c, arg, NULL) < 0)
		return bad_value(p);
	/* -c alone changes nothing: with -F it holds in every buffer traced. */
	if (c != 'c')
		b->used = true;
	return PARSE_RUN;
}

/* The options about the run rather than a buffer: -F, -K, -k, -q, --user, --fork, --verbose. */
static int run_option(struct start_plan *p, int c, const char *arg)
{
	switch (c) {
	case 'F':
	case FTRACE_OPT_USER:
		if (ftrace_setup_option(&p->ftrace, c, arg, NULL) < 0)
			return bad_value(p);
		break;
	case 'K':
		p->keep_contents = true;
		break;
	case START_OPT_FORK:
		p->fork_only = true;
		break;
	case START_OPT_VERBOSE:
		if (set_log_level("--verbose", arg) < 0)
			return bad_value(p);
		break;
	}
	return PARSE_RUN;
}

/* What COMMAND's options need. */
static int check_command(struct start_plan *p)
{
	const char *need = p->ftrace.follow_command ? "-F" : p->ftrace.user ? "--user" :
			   p->fork_only ? "--fork" : NULL;

	if (!p->argv && need)
		return usage_error(p->cmd, "%s needs a COMMAND", need);
	return PARSE_RUN;
}

/* What the options say together, once all are read. */
static int check_parsed(struct start_plan *p, int argc, char **argv)
{
	bool any = false;

	for (int i = 0; i < p->nr_bufs; i++)
		if (p->bufs[i].plan.ftrace.negate_next)
			return usage_error(p->cmd, "-v must come before an -e");
	if (p->nr_bufs && !p->bufs[0].plan.name)
		p->ftrace.plugin = p->bufs[0].plan.ftrace.plugin;
	if (ftrace_setup_check_usage(&p->ftrace) < 0)
		return bad_value(p);
	p->argv = optind < argc ? argv + optind : NULL;
	if (check_command(p) != PARSE_RUN)
		return EXIT_USAGE;
	/* Every option but -v, -f, -R and -i puts its buffer to use. */
	for (int i = 0; i < p->nr_bufs; i++)
		any = any || p->bufs[i].used;
	if (!any)
		return usage_error(p->cmd, "nothing to do: give -e, -p, -b, -C, -O or -B");
	return PARSE_RUN;
}

/*
 * Reads the options into the plan; names are checked against tracefs later.
 * PARSE_RUN, or the exit status (trace-cmd.h).
 */
static int parse(struct start_plan *p, int argc, char **argv)
{
	struct start_buffer *b;
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:he:f:R:p:b:C:O:B:l:n:g:P:cM:TdDivFKkqm:s:", start_longopts, NULL)) != -1) {
		b = cur(p);
		switch (c) {
		case 'h':
			return show_usage(p->cmd);
		case 'e':
			if (buffer_plan_event(&b->plan, optarg) < 0)
				return bad_value(p);
			b->used = true;
			break;
		case 'v':
			b->plan.ftrace.negate_next = 1;
			break;
		case 'f':
		case 'R':
			if ((ret = event_rule(p, b, c, optarg)) != PARSE_RUN)
				return ret;
			break;
		case 'p':
			if (check_named("-p", optarg, "a tracer name") < 0)
				return bad_value(p);
			b->plan.ftrace.plugin = optarg;
			b->used = true;
			break;
		case 'b':
		case BUFFER_OPT_SUBBUF_SIZE:
			if (buffer_plan_option(&b->plan, c, optarg) < 0)
				return bad_value(p);
			b->used = true;
			break;
		case 'C':
			if (check_named("-C", optarg, "a clock name") < 0)
				return bad_value(p);
			b->plan.ftrace.clock = optarg;
			b->used = true;
			break;
		case 'O':
			if (check_named("-O", optarg, "a trace option") < 0)
				return bad_value(p);
			b->plan.ftrace.options[b->plan.ftrace.nr_options++] = optarg;
			b->used = true;
			break;
		case 'B':
			if (check_named("-B", optarg, "an instance name") < 0)
				return bad_value(p);
			add_buffer(p, optarg);
			break;
		case 'l': case 'n': case 'g': case 'i':
		case FTRACE_OPT_MODULE: case FTRACE_OPT_MAX_GRAPH_DEPTH: case FTRACE_OPT_FUNC_STACK:
		case 'P': case 'c': case 'M': case 'T': case 'd': case 'D':
		case FTRACE_OPT_CMDLINES_SIZE:
			if ((ret = top_option(p, b, c, optarg)) != PARSE_RUN)
				return ret;
			break;
		case 'F': case 'K': case 'k': case 'q':
		case FTRACE_OPT_USER: case START_OPT_FORK: case START_OPT_VERBOSE:
			if ((ret = run_option(p, c, optarg)) != PARSE_RUN)
				return ret;
			break;
		case 'm':
		case 's':
			/* In 3.4's usage (shared with record's), meaningless without recorders. */
			return usage_error(p->cmd, "-%c is about record's recorders: %s records nothing",
					   c, p->cmd->name);
		default:
			return option_error(p->cmd, argv, c);
		}
	}
	return check_parsed(p, argc, argv);
}

/*
 * -F and -c hold in every buffer traced: each instance's plan gets them (the
 * top buffer's are in start_plan.ftrace), and the child writes its pid in each.
 */
static void follow_command_everywhere(struct start_plan *p)
{
	for (int i = 0; i < p->nr_bufs; i++) {
		struct ftrace_setup *fs = &p->bufs[i].plan.ftrace;

		if (p->bufs[i].plan.name) {
			fs->follow_command = p->ftrace.follow_command;
			fs->children = p->ftrace.children && p->ftrace.follow_command;
		}
		p->bufs[i].plan.keep_contents = p->keep_contents;
	}
	/* An unused top buffer is left alone (it has no -P then: -P uses it). */
	if (!p->nr_bufs || p->bufs[0].plan.name || !p->bufs[0].used) {
		p->ftrace.follow_command = 0;
		p->ftrace.children = 0;
	}
}

/* Every name in the plan, checked before anything is written. */
static int check_plan(struct start_plan *p)
{
	if (p->argv && !(p->cmd_path = find_command_path(p->argv[0])))
		return error("cannot run '%s': command not found", p->argv[0]);
	follow_command_everywhere(p);
	for (int i = 0; i < p->nr_bufs; i++) {
		struct buffer_plan *b = &p->bufs[i].plan;

		if (b->name && !(b->inst = tfs_instance_alloc(b->name)))
			return -1;
		/* A new instance gets the files the top buffer has. */
		if (buffer_plan_check(b, b->inst && tfs_instance_exists(b->inst) ? b->inst : NULL) < 0)
			return -1;
		/* -i holds for every buffer; a spec it skips takes its -f and -R along. */
		b->ftrace.ignore_missing = p->ftrace.ignore_missing;
		if (buffer_plan_select(b, NULL) < 0)
			return -1;
		/*
		 * The tracer and clock in the top buffer's lists, the options in the
		 * buffer (a tracer's own only once it is set: apply checks them),
		 * in start's words.
		 */
		b->ftrace.list_hint = 1;
		if (ftrace_setup_check(&b->ftrace, NULL) < 0 ||
		    (b->inst && ftrace_setup_check_options(&b->ftrace, b->inst) < 0))
			return -1;
	}
	return 0;
}

static int set_rel(struct start_plan *p, struct buffer_plan *b, const char *rel, const char *val)
{
	return tfs_set(p->saved, b->inst, rel, val);
}

/*
 * start replaces the event selection.  set_event cannot be saved and written
 * back as one value (its lines are events), so each enabled event's own
 * enable file is saved before set_event is emptied.
 */
static int disable_events(struct start_plan *p, struct buffer_plan *b)
{
	char *list, *line, *save = NULL, *colon;
	char rel[512];
	size_t len;
	int ret = 0;

	if (tfs_read_file(b->inst, "set_event", &list, &len) < 0)
		return -1;
	for (line = strtok_r(list, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		snprintf(rel, sizeof(rel), "events/%.*s/%s/enable", (int)(colon - line), line,
			 colon + 1);
		ret = tfs_save(p->saved, b->inst, rel);
	}
	free(list);
	return ret ? -1 : tfs_write_file(b->inst, "set_event", "");
}

/*
 * Each event's own enable file, so set enables exactly what it names (the
 * filters and triggers are on already, so no unfiltered event slips in).
 */
static int enable_events(struct start_plan *p, struct buffer_plan *b)
{
	const struct tfs_events *ev = b->selected;
	char rel[512];

	for (size_t i = 0; i < tfs_events_count(ev); i++) {
		snprintf(rel, sizeof(rel), "events/%s/%s/enable",
			 tfs_events_system(ev, i), tfs_events_name(ev, i));
		if (set_rel(p, b, rel, "1") < 0)
			return -1;
	}
	return 0;
}

/*
 * The buffer's plan applied as record's are (clock, options, -F's pid
 * files, filters and triggers, tracer), then its size and events.  start
 * replaces the event selection and the tracer (nop without -p); the filters
 * go only on the events selected, as -v takes an event out of them too.
 */
static int apply_buffer(struct start_plan *p, struct buffer_plan *b)
{
	if (buffer_plan_create(b) < 0)
		return -1;
	if (p->start && disable_events(p, b) < 0)
		return -1;
	if (p->start && !b->ftrace.plugin)
		b->ftrace.plugin = "nop";
	b->ftrace.rules_only = b->selected;
	if (ftrace_setup_apply(&b->ftrace, b->inst, p->saved) < 0)
		return -1;
	if (buffer_plan_apply_size(b, p->saved, p->nr_cpus) < 0)
		return -1;
	return enable_events(p, b);
}

/* start's last steps: they are what it is for, so they are not undone. */
static int start_tracing(struct start_plan *p)
{
	for (int i = 0; p->start && i < p->nr_bufs; i++) {
		struct buffer_plan *b = &p->bufs[i].plan;

		if (!p->bufs[i].used)
			continue;
		if (buffer_plan_clear(b) < 0 || tfs_write_file(b->inst, "tracing_on", "1") < 0)
			return -1;
	}
	return 0;
}

/*
 * In COMMAND's child, right before exec: -F's pid in each buffer traced,
 * then (start) tracing on, as record does, so the trace begins with it.
 */
static int before_exec(void *arg)
{
	struct start_plan *p = arg;

	for (int i = 0; i < p->nr_bufs; i++) {
		struct buffer_plan *b = &p->bufs[i].plan;

		if (p->bufs[i].used &&
		    ftrace_setup_child(b->inst ? &b->ftrace : &p->ftrace, b->inst) < 0)
			return -1;
	}
	if (start_tracing(p) < 0)
		return -1;
	if (ftrace_setup_become_user(&p->ftrace) < 0)
		return error("--user %s: cannot become that user: %s", p->ftrace.user,
			     strerror(errno));
	return 0;
}

/* COMMAND, its exit status ours as a shell would give it; --fork: 0 once it runs. */
static int run_command(struct start_plan *p)
{
	pid_t pid = exec_command(p->cmd_path, p->argv, before_exec, p);
	int status;

	if (pid < 0)
		return EXIT_FAILED;
	if (p->fork_only)
		return EXIT_OK;
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR) {
			error("waiting for '%s': %s", p->argv[0], strerror(errno));
			return EXIT_FAILED;
		}
	}
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}

/* Puts every changed file back and removes the instances this run created. */
static void undo(struct start_plan *p)
{
	for (int i = p->nr_bufs - 1; i >= 0; i--)
		ftrace_setup_restore(&p->bufs[i].plan.ftrace);
	tfs_restore(p->saved);
	for (int i = 0; i < p->nr_bufs; i++)
		buffer_plan_finish(&p->bufs[i].plan, 0);
}

static void free_plan(struct start_plan *p)
{
	for (int i = 0; i < p->nr_bufs; i++)
		buffer_plan_free(&p->bufs[i].plan);
	free(p->bufs);
	free(p->cmd_path);
	tfs_saved_free(p->saved);
	ftrace_setup_free(&p->ftrace);
}

static int run(const struct command *cmd, bool start, int argc, char **argv)
{
	struct start_plan p = { .cmd = cmd, .start = start, .argc = argc };
	int ret;

	ftrace_setup_init(&p.ftrace, argc);
	if ((ret = parse(&p, argc, argv)) != PARSE_RUN) {
		free_plan(&p);
		return ret;
	}
	ret = EXIT_FAILED;
	if (!tfs_dir() || check_plan(&p) < 0 || ftrace_setup_check(&p.ftrace, NULL) < 0)
		goto out;
	p.saved = tfs_saved_new();
	p.nr_cpus = tfs_cpu_count();
	for (int i = 0; i < p.nr_bufs; i++) {
		if (p.bufs[i].used && apply_buffer(&p, &p.bufs[i].plan) < 0) {
			undo(&p);
			goto out;
		}
	}
	if (ftrace_setup_apply(&p.ftrace, NULL, p.saved) < 0) {
		ftrace_setup_restore(&p.ftrace);
		undo(&p);
		goto out;
	}
	if (p.argv)
		ret = run_command(&p);
	else
		ret = start_tracing(&p) < 0 ? EXIT_FAILED : EXIT_OK;
out:
	free_plan(&p);
	return ret;
}

static int run_start(int argc, char **argv)
{
	return run(&cmd_start, true, argc, argv);
}

static int run_set(int argc, char **argv)
{
	return run(&cmd_set, false, argc, argv);
}

const struct command cmd_start = {
	.name = "start",
	.run = run_start,
	.usage = start_usage,
	.summary = "set up tracing into the kernel's buffer and start it, without recording",
};

const struct command cmd_set = {
	.name = "set",
	.run = run_set,
	.usage = set_usage,
	.summary = "change tracing settings without recording",
};
