/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One buffer's plan (the top buffer or a -B instance), shared by record,
 * stream and start/set: its -e specs and what they select, its ftrace
 * settings (trace-ftrace-setup.h), its size and sub-buffer size, whether this
 * run created it; created, sized and put back here.
 */
#ifndef TRACE_BUFFER_PLAN_H
#define TRACE_BUFFER_PLAN_H

#include "trace-ftrace-setup.h"

struct tfs_events;
struct tfs_instance;
struct tfs_saved;

/* The long options' getopt values (after trace-ftrace-setup.h's and record's own). */
enum {
	BUFFER_OPT_SUBBUF_SIZE = 0x3000,
};

struct buffer_plan {
	const char *name;		/* the instance's name, NULL: the top buffer */
	struct tfs_instance *inst;	/* NULL for the top buffer */
	const char **specs;		/* -e, in order */
	int nr_specs;
	struct ftrace_setup ftrace;	/* -v, -f, -R, -p, -C, -O ... */
	struct tfs_events *selected;	/* what the -e and -v select */
	unsigned long size_kb;		/* -b, 0 keeps the kernel's */
	const char *subbuf_kb;		/* --subbuf-size, checked number; NULL keeps the kernel's */
	int keep_contents;		/* -K: what the buffer holds is not cleared first */
	int created;			/* this run made the instance */
};

/*
 * A plan for the buffer @name (NULL: top), with room for @argc options.
 * -1 after printing why the name cannot be an instance's.
 */
int buffer_plan_init(struct buffer_plan *b, const char *name, int argc);
/* -e @spec: checked, it takes a pending -v.  -1 after printing why. */
int buffer_plan_event(struct buffer_plan *b, const char *spec);
/* The latest -e spec, NULL before the first (what -f and -R follow). */
const char *buffer_plan_last_event(const struct buffer_plan *b);
/*
 * Takes option @opt (-e, -b, -K, --subbuf-size or one of ftrace_setup_option's)
 * with @arg: 1 taken, 0 not ours, -1 after printing why (a usage error).
 */
int buffer_plan_option(struct buffer_plan *b, int opt, const char *arg);
/* The events the -e specs select, looked up in @where (NULL: top).  -1 after printing. */
int buffer_plan_select(struct buffer_plan *b, struct tfs_instance *where);
/*
 * What the kernel must have for the plan, changing nothing, in @where (NULL:
 * top; where a new instance's files are): the sub-buffer size file for
 * --subbuf-size, and that the kernel takes a write to it.  -1 after printing why.
 */
int buffer_plan_check(const struct buffer_plan *b, struct tfs_instance *where);
/* Makes the instance if missing (created is then set).  -1 after printing. */
int buffer_plan_create(struct buffer_plan *b);
/*
 * -b and --subbuf-size: each of the @nr_cpus CPUs' buffers resized, and the
 * sub-buffer size, saved in @saved first.  -1 after printing why.
 */
int buffer_plan_apply_size(struct buffer_plan *b, struct tfs_saved *saved, int nr_cpus);
/* Empties the buffer before tracing, unless -K keeps what it holds. */
int buffer_plan_clear(const struct buffer_plan *b);
/* The events selected, enabled (each saved).  -1 after printing why. */
int buffer_plan_enable(struct buffer_plan *b, struct tfs_saved *saved);
/*
 * After tfs_restore(): what the plan wrote outside tfs_saved put back and
 * the instance removed if this run made it; with @keep both stay.  -1 if
 * something failed.
 */
int buffer_plan_finish(struct buffer_plan *b, int keep);
void buffer_plan_free(struct buffer_plan *b);

#endif
