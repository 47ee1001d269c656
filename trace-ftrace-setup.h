/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The ftrace settings of a buffer plan (trace-buffer-plan.h), shared by
 * record (and stream, and each record -B instance) and start/set: -p PLUGIN, the function filters (-l, -n, -g,
 * --module), --max-graph-depth, --func-stack, the -e selection with -v and
 * -i, the event filters and triggers (-f, -R after an -e), and the other
 * tracefs settings (-C, -O, -M, -T, -P, -F, -c, --cmdlines-size).  Checked
 * before tracefs is touched, applied through tfs_set(), put back by
 * tfs_restore() and ftrace_setup_restore().  Where start words or does a
 * thing otherwise, a field says so (list_hint, rules_only).
 */
#ifndef TRACE_FTRACE_SETUP_H
#define TRACE_FTRACE_SETUP_H

#include <sys/types.h>

struct tfs_events;
struct tfs_instance;
struct tfs_saved;

/* The long options' getopt values (short ones are their letter). */
enum {
	FTRACE_OPT_MODULE = 0x1000,
	FTRACE_OPT_MAX_GRAPH_DEPTH,
	FTRACE_OPT_FUNC_STACK,
	FTRACE_OPT_CMDLINES_SIZE,
	FTRACE_OPT_USER,
	FTRACE_OPT_NO_FILTER,
};

/* One -f or -R: the -e spec it follows and the text to write. */
struct ftrace_event_rule {
	const char *spec;
	const char *text;
	int trigger;		/* -R: into the trigger file, else the filter file */
};

struct ftrace_setup {
	const char *plugin;		/* -p, or NULL */
	const char **filters;		/* -l */
	int nr_filters;
	const char **notrace;		/* -n */
	int nr_notrace;
	const char **graph;		/* -g */
	int nr_graph;
	const char *module;		/* --module */
	const char *max_graph_depth;	/* --max-graph-depth, checked number */
	int func_stack;			/* --func-stack */
	struct ftrace_event_rule *rules;
	int nr_rules;
	const char *clock;		/* -C */
	const char *cpumask;		/* -M */
	const char *cmdlines_size;	/* --cmdlines-size, checked number */
	const char **options;		/* -O NAME or -O noNAME */
	int nr_options;
	int stacktrace;			/* -T */
	const char **pids;		/* -P, checked numbers */
	int nr_pids;
	int follow_command;		/* -F */
	int children;			/* -c */
	int no_function_trace;		/* -d: 1, -D: 2 (ftrace_enabled too) */
	const char *user;		/* --user */
	int ignore_missing;		/* -i: an -e that matches nothing is skipped */
	int negate_next;		/* -v seen: the next -e takes events out */
	char *negated;			/* per -e index: it came after a -v */
	int no_filter;			/* --no-filter: trace record's own processes too */
	const struct tfs_events *rules_only;	/* start: -f and -R on these events only (-v) */
	int list_hint;			/* a missing -p, -C or -O in start's words (see trace-cmd list) */
	char *excluded;			/* what ftrace_setup_exclude() wrote, or NULL */
	/* What was changed outside tfs_saved, put back by ftrace_setup_restore(). */
	struct tfs_instance **restore_inst;	/* the buffer of each (NULL: top or /proc) */
	char **restore_rel;
	char **restore_val;
	int nr_restore;
};

/* Room for @argc entries in each list (every option could be one). */
void ftrace_setup_init(struct ftrace_setup *fs, int argc);
/*
 * Takes record's option @opt (its getopt value) with @arg; @last_event is the
 * latest -e spec (NULL before the first).  Returns 1 if the option was one of
 * ours, 0 if not, -1 after printing why it is wrong (a usage error).
 */
int ftrace_setup_option(struct ftrace_setup *fs, int opt, const char *arg,
			const char *last_event);
/*
 * Option combinations that make no sense (-l without a function tracer ...).
 * Prints the reason and returns -1: a usage error.
 */
int ftrace_setup_check_usage(const struct ftrace_setup *fs);
/*
 * Checks against the buffer @inst (NULL: the top one), changing nothing: the tracer is in
 * available_tracers, each function glob matches a function the kernel
 * knows.  Returns 0 or -1 after printing why.
 */
int ftrace_setup_check(const struct ftrace_setup *fs, struct tfs_instance *inst);
/*
 * Writes the function filters, event filters and triggers, then the tracer,
 * in the buffer @inst (NULL: the top one).
 * Every file changed is saved in @saved or in @fs for ftrace_setup_restore().
 */
/*
 * -O alone, in @inst (extract sets them while it reads): each option
 * written, its old value remembered in @saved; -1 after printing why.
 */
int ftrace_setup_apply_options(struct ftrace_setup *fs, struct tfs_instance *inst,
			       struct tfs_saved *saved);
int ftrace_setup_apply(struct ftrace_setup *fs, struct tfs_instance *inst,
		       struct tfs_saved *saved);
/*
 * The -O part of ftrace_setup_check(): each option exists in @inst (not
 * with -p, whose own options appear with it: apply checks them then).
 */
int ftrace_setup_check_options(const struct ftrace_setup *fs, struct tfs_instance *inst);
/*
 * -F: called in the traced command's child before it executes, so only it
 * (and with -c its children) is traced.  apply has saved the files.
 */
int ftrace_setup_child(const struct ftrace_setup *fs, struct tfs_instance *inst);
/* Record's -e number @index was just parsed: it takes the pending -v. */
void ftrace_setup_event(struct ftrace_setup *fs, int index);
/* The events of @all without those of @minus (-v), in a new selection. */
struct tfs_events *ftrace_events_minus(struct tfs_instance *inst, const struct tfs_events *all,
				       const struct tfs_events *minus);
/*
 * The events the -e @specs (@n of them, in parse order) select in the
 * buffer @inst: -i skips a spec that matches nothing (with a warning), a
 * spec after -v takes its events out.  NULL after printing why.
 */
struct tfs_events *ftrace_select_events(const struct ftrace_setup *fs, struct tfs_instance *inst,
					const char **specs, int n);
/*
 * Does -e @spec match any event (as tfs_events_add() would, but printing
 * nothing)?  For -i, which skips the specs that match nothing.
 */
int ftrace_event_spec_matches(struct tfs_instance *inst, const char *spec);
/*
 * Leaves record itself (@self) and its recorders (@pids) out of the events,
 * through set_event_notrace_pid (saved in @saved), as upstream does; not
 * with --no-filter, nor when -P or -F already choose what is traced.
 */
int ftrace_setup_exclude(struct ftrace_setup *fs, struct tfs_instance *inst,
			 struct tfs_saved *saved, const pid_t *pids, int nr_pids);
/* --user: in the child, after tracing is on, become USER (its groups too). */
int ftrace_setup_become_user(const struct ftrace_setup *fs);
/* Puts back what apply wrote outside @saved; -1 if a write failed. */
int ftrace_setup_restore(struct ftrace_setup *fs);
/* Frees the plan; what apply wrote stays unless restore was called. */
void ftrace_setup_free(struct ftrace_setup *fs);

#endif
