// SPDX-License-Identifier: GPL-2.0
/*
 * start and set: configure Ftrace from record-like options without
 * recording.  start replaces the event selection, clears the buffer and
 * leaves tracing on; set changes only what its options name.  Everything is
 * checked before the first write, and a refused write puts back what was done.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-ftrace-setup.h"
#include "trace-tracefs.h"

extern const struct command cmd_start, cmd_set;

#define START_OPTIONS \
	"  -e EVENT   enable EVENT: system:event, system, event or all, globs allowed\n" \
	"  -f FILTER  filter the events of the preceding -e (kernel filter syntax)\n" \
	"  -R TRIGGER add TRIGGER to the events of the preceding -e (their trigger file)\n" \
	"  -p TRACER  set the tracer (trace-cmd list shows them)\n" \
	"  -b SIZE    per-CPU buffer size in KiB\n" \
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
	"  -c         with -P, their children too (options/event-fork, function-fork)\n" \
	"  -M CPUMASK trace only the CPUs of the hex CPUMASK (tracing_cpumask)\n" \
	"  -T         a stack trace with each event (options/stacktrace)\n" \
	"  -d         keep the function tracer off (options/function-trace)\n" \
	"  -D         -d and /proc/sys/kernel/ftrace_enabled off as well\n" \
	"  --cmdlines-size N    how many command names the kernel keeps (saved_cmdlines_size)\n" \
	"  -i         an -e that matches no event is a warning, not an error\n" \
	"  -v         the -e after it takes its events out (-e sched -v -e sched_switch)\n"

static const char start_usage[] =
	"usage: trace-cmd start [-e EVENT [-f FILTER] [-R TRIGGER]]... [-p TRACER] [-b SIZE] [-C CLOCK]\n"
	"                       [-O OPTION]... [-B NAME [OPTIONS]]...\n"
	START_OPTIONS
	"Replaces the events enabled in each buffer it names, clears it and turns tracing on.\n";

static const char set_usage[] =
	"usage: trace-cmd set [-e EVENT [-f FILTER] [-R TRIGGER]]... [-p TRACER] [-b SIZE] [-C CLOCK]\n"
	"                     [-O OPTION]... [-B NAME [OPTIONS]]...\n"
	START_OPTIONS
	"Changes only what its options name; tracing_on and the buffer stay as they are.\n";

static const struct option start_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "module", required_argument, NULL, FTRACE_OPT_MODULE },
	{ "max-graph-depth", required_argument, NULL, FTRACE_OPT_MAX_GRAPH_DEPTH },
	{ "func-stack", no_argument, NULL, FTRACE_OPT_FUNC_STACK },
	{ "cmdlines-size", required_argument, NULL, FTRACE_OPT_CMDLINES_SIZE },
	{ NULL, 0, NULL, 0 }
};

struct event_group {
	const char *spec;
	struct tfs_events *events;
	const char *filter;
	const char *trigger;	/* -R */
	bool negated;		/* -v before its -e: its events are left out */
};

/* What one buffer (the top one, or an instance) is to get. */
struct buffer_plan {
	const char *instance;	/* NULL: top */
	struct tfs_instance *buf;	/* the instance's, NULL for the top buffer */
	bool used;		/* an option names it (the top buffer may be unused) */
	bool created;
	struct event_group *groups;
	int nr_groups;
	const char *tracer, *clock;
	unsigned long size_kb;
	const char **options;
	int nr_options;
	bool negate_next;	/* a -v waiting for its -e */
};

/* A file written outside the saved state, and what undo() writes back. */
struct start_undo {
	struct tfs_instance *buf;
	char *rel;
	char *val;
};

struct start_plan {
	const struct command *cmd;
	bool start;
	struct buffer_plan *bufs;
	int nr_bufs;
	struct tfs_saved *saved;
	struct start_undo *cleared;	/* filters to clear ("0") on undo */
	int nr_cleared;
	struct start_undo *triggered;	/* trigger files written, and each one's undo */
	int nr_triggered;
	struct ftrace_setup ftrace;	/* -l, -n, -g ... of the top buffer */
};

static struct buffer_plan *cur(struct start_plan *p)
{
	if (!p->nr_bufs) {
		p->bufs = xcalloc(1, sizeof(*p->bufs));
		p->nr_bufs = 1;
	}
	return &p->bufs[p->nr_bufs - 1];
}

static int bad_value(struct start_plan *p)
{
	return usage_follows(p->cmd);
}

/*
 * Reads the options into the plan; names are checked against tracefs later.
 * PARSE_RUN, or the exit status (trace-cmd.h).
 */
static int parse(struct start_plan *p, int argc, char **argv)
{
	struct buffer_plan *b;
	bool any = false;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:he:f:R:p:b:C:O:B:l:n:g:P:cM:TdDiv", start_longopts, NULL)) != -1) {
		b = cur(p);
		switch (c) {
		case 'h':
			return show_usage(p->cmd);
		case 'e':
			if (check_named("-e", optarg, "an event name") < 0)
				return bad_value(p);
			b->groups = xrealloc(b->groups, (b->nr_groups + 1) * sizeof(*b->groups));
			b->groups[b->nr_groups++] = (struct event_group){
				.spec = optarg, .negated = b->negate_next };
			b->negate_next = false;
			b->used = any = true;
			break;
		case 'v':
			b->negate_next = true;
			break;
		case 'f':
			if (!b->nr_groups || b->groups[b->nr_groups - 1].filter)
				return usage_error(p->cmd, "-f must follow an -e");
			if (b->groups[b->nr_groups - 1].negated)
				return usage_error(p->cmd, "-f cannot follow a -v -e: its events are not enabled");
			if (check_named("-f", optarg, "a filter") < 0)
				return bad_value(p);
			b->groups[b->nr_groups - 1].filter = optarg;
			break;
		case 'R':
			if (!b->nr_groups || b->groups[b->nr_groups - 1].trigger)
				return usage_error(p->cmd, "-R must follow an -e");
			if (b->groups[b->nr_groups - 1].negated)
				return usage_error(p->cmd, "-R cannot follow a -v -e: its events are not enabled");
			if (check_named("-R", optarg, "a trigger") < 0)
				return bad_value(p);
			b->groups[b->nr_groups - 1].trigger = optarg;
			break;
		case 'p':
			if (check_named("-p", optarg, "a tracer name") < 0)
				return bad_value(p);
			b->tracer = optarg;
			b->used = any = true;
			break;
		case 'b':
			if (parse_ulong("-b", optarg, 1, 1UL << 30, &b->size_kb) < 0)
				return bad_value(p);
			b->used = any = true;
			break;
		case 'C':
			if (check_named("-C", optarg, "a clock name") < 0)
				return bad_value(p);
			b->clock = optarg;
			b->used = any = true;
			break;
		case 'O':
			if (check_named("-O", optarg, "a trace option") < 0)
				return bad_value(p);
			b->options = xrealloc(b->options, (b->nr_options + 1) * sizeof(char *));
			b->options[b->nr_options++] = optarg;
			b->used = any = true;
			break;
		case 'B':
			if (check_named("-B", optarg, "an instance name") < 0)
				return bad_value(p);
			p->bufs = xrealloc(p->bufs, (p->nr_bufs + 1) * sizeof(*p->bufs));
			p->bufs[p->nr_bufs++] = (struct buffer_plan){ .instance = optarg, .used = true };
			any = true;
			break;
		case 'l':
		case 'n':
		case 'g':
		case FTRACE_OPT_MODULE:
		case FTRACE_OPT_MAX_GRAPH_DEPTH:
		case FTRACE_OPT_FUNC_STACK:
			/* The function filter files exist in the top buffer only. */
			if (b->instance)
				return usage_error(p->cmd,
					"function filters apply to the top buffer, not -B %s",
					b->instance);
			if (ftrace_setup_option(&p->ftrace, c, optarg, NULL) < 0)
				return bad_value(p);
			b->used = any = true;
			break;
		case 'i':
			/* For every buffer, wherever it is given, as record's -i. */
			ftrace_setup_option(&p->ftrace, c, optarg, NULL);
			break;
		case 'P': case 'c': case 'M': case 'T': case 'd': case 'D':
		case FTRACE_OPT_CMDLINES_SIZE:
			/* Set once, in the top buffer, as for the function filters. */
			if (b->instance && c == FTRACE_OPT_CMDLINES_SIZE)
				return usage_error(p->cmd, "--cmdlines-size applies to the whole kernel, not -B %s",
						   b->instance);
			if (b->instance)
				return usage_error(p->cmd, "-%c applies to the top buffer, not -B %s",
						   c, b->instance);
			if (ftrace_setup_option(&p->ftrace, c, optarg, NULL) < 0)
				return bad_value(p);
			b->used = any = true;
			break;
		default:
			return option_error(p->cmd, argv, c);
		}
	}
	for (int i = 0; i < p->nr_bufs; i++)
		if (p->bufs[i].negate_next)
			return usage_error(p->cmd, "-v must come before an -e");
	if (p->nr_bufs && !p->bufs[0].instance)
		p->ftrace.plugin = p->bufs[0].tracer;
	if (ftrace_setup_check_usage(&p->ftrace) < 0)
		return bad_value(p);
	if (optind < argc)
		return usage_error(p->cmd, "unexpected argument '%s'", argv[optind]);
	if (!any)
		return usage_error(p->cmd, "nothing to do: give -e, -p, -b, -C, -O or -B");
	return PARSE_RUN;
}

/* Is @word one of the space separated words of tracefs file @rel ("[x]" counts as x)? */
static bool in_list(const char *rel, const char *word)
{
	char *s, *w, *save = NULL;
	bool found = false;
	size_t len;

	if (tfs_read_file(NULL, rel, &s, &len) < 0)
		return false;
	for (w = strtok_r(s, " \n", &save); w && !found; w = strtok_r(NULL, " \n", &save)) {
		if (*w == '[' && w[strlen(w) - 1] == ']') {
			w[strlen(w) - 1] = '\0';
			w++;
		}
		found = !strcmp(w, word);
	}
	free(s);
	return found;
}

/* Does options/NAME exist in the buffer? */
static bool has_option(const struct buffer_plan *b, const char *name)
{
	char rel[256];

	if (!*name || strchr(name, '/'))
		return false;
	snprintf(rel, sizeof(rel), "options/%s", name);
	return tfs_exists(b->buf, rel);
}

/* The option file -O @opt writes, and the value ("noNAME" clears NAME). */
static const char *option_target(const struct buffer_plan *b, const char *opt, bool *on)
{
	/* "nofoo" may also be an option whose name starts with "no". */
	*on = strncmp(opt, "no", 2) || has_option(b, opt);
	return *on ? opt : opt + 2;
}

static int check_option(const struct buffer_plan *b, const char *opt)
{
	bool on;
	const char *name = option_target(b, opt, &on);

	if (has_option(b, name))
		return 0;
	if (b->tracer)
		return error("no trace option '%s' with tracer '%s' (see trace-cmd list -o)",
			     name, b->tracer);
	return error("no trace option '%s' (see trace-cmd list -o)", name);
}

/* Every name in the plan, checked before anything is written. */
static int check_plan(struct start_plan *p)
{
	for (int i = 0; i < p->nr_bufs; i++) {
		struct buffer_plan *b = &p->bufs[i];

		if (b->instance && !(b->buf = tfs_instance_alloc(b->instance)))
			return -1;
		for (int g = 0; g < b->nr_groups; g++) {
			b->groups[g].events = tfs_events_new();
			/* -i: a spec that matches nothing enables nothing, its -f with it. */
			if (p->ftrace.ignore_missing &&
			    !ftrace_event_spec_matches(NULL, b->groups[g].spec)) {
				warning("no event matches '%s': ignored (-i)", b->groups[g].spec);
				continue;
			}
			if (tfs_events_add(b->groups[g].events, NULL, b->groups[g].spec) <= 0)
				return -1;
		}
		if (b->tracer && !in_list("available_tracers", b->tracer))
			return error("no tracer '%s' (see trace-cmd list -t)", b->tracer);
		if (b->clock && !in_list("trace_clock", b->clock))
			return error("no trace clock '%s' (see trace-cmd list -C)", b->clock);
		/* A tracer's own options may appear only once it is set: apply checks them. */
		for (int o = 0; !b->tracer && o < b->nr_options; o++)
			if (check_option(b, b->options[o]) < 0)
				return -1;
	}
	return 0;
}

static int set_rel(struct start_plan *p, struct buffer_plan *b, const char *rel, const char *val)
{
	return tfs_set(p->saved, b->buf, rel, val);
}

/*
 * A filter reads "none" but is cleared by writing "0", so filters that had
 * none are kept in a list of their own for undo() instead of in p->saved.
 */
static int set_filter(struct start_plan *p, struct buffer_plan *b, const char *rel,
		      const char *filter)
{
	char *now;
	size_t len;
	int ret;

	if (tfs_read_file(b->buf, rel, &now, &len) < 0)
		return -1;
	if (!strncmp(now, "none", 4)) {
		p->cleared = xrealloc(p->cleared, (p->nr_cleared + 1) * sizeof(*p->cleared));
		p->cleared[p->nr_cleared++] = (struct start_undo){ b->buf, xstrdup(rel), NULL };
		ret = tfs_write_file(b->buf, rel, filter);
	} else {
		ret = tfs_set(p->saved, b->buf, rel, filter);
	}
	free(now);
	return ret;
}

/*
 * A trigger file takes triggers one by one, and one goes away by writing it
 * back with '!' before it: that is the undo kept.
 */
static int set_trigger(struct start_plan *p, struct buffer_plan *b, const char *rel,
		       const char *trigger)
{
	struct start_undo *u;

	if (tfs_write_file(b->buf, rel, trigger) < 0)
		return -1;
	p->triggered = xrealloc(p->triggered, (p->nr_triggered + 1) * sizeof(*p->triggered));
	u = &p->triggered[p->nr_triggered++];
	u->buf = b->buf;
	u->rel = xstrdup(rel);
	u->val = xmalloc(strlen(trigger) + 2);
	sprintf(u->val, "!%s", trigger);
	return 0;
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

	if (tfs_read_file(b->buf, "set_event", &list, &len) < 0)
		return -1;
	for (line = strtok_r(list, "\n", &save); line && !ret;
	     line = strtok_r(NULL, "\n", &save)) {
		colon = strchr(line, ':');
		if (!colon)
			continue;
		snprintf(rel, sizeof(rel), "events/%.*s/%s/enable", (int)(colon - line), line,
			 colon + 1);
		ret = tfs_save(p->saved, b->buf, rel);
	}
	free(list);
	return ret ? -1 : tfs_write_file(b->buf, "set_event", "");
}

/* -v: does a negated -e of @b take event @i of @ev out? */
static bool left_out(const struct buffer_plan *b, const struct tfs_events *ev, size_t i)
{
	for (int g = 0; g < b->nr_groups; g++) {
		const struct tfs_events *neg = b->groups[g].events;

		for (size_t j = 0; b->groups[g].negated && j < tfs_events_count(neg); j++)
			if (!strcmp(tfs_events_system(neg, j), tfs_events_system(ev, i)) &&
			    !strcmp(tfs_events_name(neg, j), tfs_events_name(ev, i)))
				return true;
	}
	return false;
}

static int apply_events(struct start_plan *p, struct buffer_plan *b)
{
	char rel[512];

	for (int g = 0; g < b->nr_groups; g++) {
		struct tfs_events *ev = b->groups[g].events;

		for (size_t i = 0; !b->groups[g].negated && i < tfs_events_count(ev); i++) {
			if (left_out(b, ev, i))
				continue;
			snprintf(rel, sizeof(rel), "events/%s/%s/",
				 tfs_events_system(ev, i), tfs_events_name(ev, i));
			/* The filter first, so no unfiltered event slips in. */
			strcat(rel, "filter");
			if (b->groups[g].filter && set_filter(p, b, rel, b->groups[g].filter) < 0)
				return -1;
			strcpy(strrchr(rel, '/') + 1, "trigger");
			if (b->groups[g].trigger && set_trigger(p, b, rel, b->groups[g].trigger) < 0)
				return -1;
			strcpy(strrchr(rel, '/') + 1, "enable");
			if (set_rel(p, b, rel, "1") < 0)
				return -1;
		}
	}
	return 0;
}

static int apply_options(struct start_plan *p, struct buffer_plan *b)
{
	char rel[256];

	for (int o = 0; o < b->nr_options; o++) {
		bool on;
		const char *name = option_target(b, b->options[o], &on);

		/* After the tracer: its own options exist now, if it has them. */
		if (check_option(b, b->options[o]) < 0)
			return -1;
		snprintf(rel, sizeof(rel), "options/%s", name);
		if (set_rel(p, b, rel, on ? "1" : "0") < 0)
			return -1;
	}
	return 0;
}

static int apply_buffer(struct start_plan *p, struct buffer_plan *b)
{
	char num[32];

	if (b->buf) {
		int made = tfs_instance_create(b->buf);

		if (made < 0)
			return -1;
		b->created = made > 0;
	}
	if (p->start && disable_events(p, b) < 0)
		return -1;
	if ((b->tracer || p->start) && set_rel(p, b, "current_tracer", b->tracer ? b->tracer : "nop") < 0)
		return -1;
	if (b->clock && set_rel(p, b, "trace_clock", b->clock) < 0)
		return -1;
	if (apply_options(p, b) < 0)
		return -1;
	snprintf(num, sizeof(num), "%lu", b->size_kb);
	if (b->size_kb && set_rel(p, b, "buffer_size_kb", num) < 0)
		return -1;
	if (apply_events(p, b) < 0)
		return -1;
	return 0;
}

/* start's last steps: they are what it is for, so they are not undone. */
static int start_tracing(struct buffer_plan *b)
{
	if (tfs_write_file(b->buf, "trace", "") < 0)
		return -1;
	return tfs_write_file(b->buf, "tracing_on", "1");
}

/* Puts every changed file back and removes the instances this run created. */
static void undo(struct start_plan *p)
{
	for (int i = p->nr_triggered - 1; i >= 0; i--)
		tfs_write_file(p->triggered[i].buf, p->triggered[i].rel, p->triggered[i].val);
	tfs_restore(p->saved);
	for (int i = 0; i < p->nr_cleared; i++)
		tfs_write_file(p->cleared[i].buf, p->cleared[i].rel, "0");
	for (int i = 0; i < p->nr_bufs; i++)
		if (p->bufs[i].created)
			tfs_instance_destroy(p->bufs[i].buf);
}

static void free_plan(struct start_plan *p)
{
	for (int i = 0; i < p->nr_bufs; i++) {
		for (int g = 0; g < p->bufs[i].nr_groups; g++)
			tfs_events_free(p->bufs[i].groups[g].events);
		free(p->bufs[i].groups);
		free(p->bufs[i].options);
		tfs_instance_free(p->bufs[i].buf);
	}
	free(p->bufs);
	for (int i = 0; i < p->nr_cleared; i++)
		free(p->cleared[i].rel);
	free(p->cleared);
	for (int i = 0; i < p->nr_triggered; i++) {
		free(p->triggered[i].rel);
		free(p->triggered[i].val);
	}
	free(p->triggered);
	tfs_saved_free(p->saved);
	ftrace_setup_free(&p->ftrace);
}

static int run(const struct command *cmd, bool start, int argc, char **argv)
{
	struct start_plan p = { .cmd = cmd, .start = start };
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
	for (int i = 0; i < p.nr_bufs; i++) {
		if (p.bufs[i].used && apply_buffer(&p, &p.bufs[i]) < 0) {
			undo(&p);
			goto out;
		}
	}
	if (ftrace_setup_apply(&p.ftrace, NULL, p.saved) < 0) {
		ftrace_setup_restore(&p.ftrace);
		undo(&p);
		goto out;
	}
	for (int i = 0; start && i < p.nr_bufs; i++)
		if (p.bufs[i].used && start_tracing(&p.bufs[i]) < 0)
			goto out;
	ret = EXIT_OK;
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
