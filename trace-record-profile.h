/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --profile: what it traces for report --profile.
 */
#ifndef TRACE_RECORD_PROFILE_H
#define TRACE_RECORD_PROFILE_H

struct buffer_plan;

/* How many -e (and -R) entries record_profile_plan() may add: the plan's arrays hold them. */
#define RECORD_PROFILE_ENTRIES	32

/*
 * Adds to @top the events report --profile reads that this kernel has (a
 * stack trace with each sched_switch and sched_wakeup), and, unless -p gave a
 * tracer, function_graph at depth 1 where the kernel has it.  Without
 * @with_events (-S), only the tracer: the events are the user's -e.  0, or -1
 * after printing why.
 */
int record_profile_plan(struct buffer_plan *top, int with_events);

#endif
