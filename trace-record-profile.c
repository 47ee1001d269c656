// SPDX-License-Identifier: GPL-2.0
/*
 * record --profile (trace-cmd-record(1)): the events upstream 3.4 records
 * for a profile, as far as this kernel has them: the scheduler's switches
 * and wakeups with their stacks, exec, interrupts, softirqs, system calls and
 * user page faults; and function_graph at depth 1 (where each task enters and
 * leaves the kernel) when the kernel has it and -p chose no tracer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-buffer-plan.h"
#include "trace-ftrace-setup.h"
#include "trace-record-profile.h"
#include "trace-tracefs.h"

struct profile_event {
	const char	*spec;		/* SYSTEM:EVENT, as -e takes it */
	int		stack;		/* a stacktrace trigger on it */
};

static const struct profile_event profile_events[] = {
	{ "sched:sched_switch", 1 },
	{ "sched:sched_wakeup", 1 },
	{ "sched:sched_process_exec", 0 },
	{ "irq:irq_handler_entry", 0 },
	{ "irq:irq_handler_exit", 0 },
	{ "irq:softirq_entry", 0 },
	{ "irq:softirq_exit", 0 },
	{ "irq:softirq_raise", 0 },
	{ "raw_syscalls:sys_enter", 0 },
	{ "raw_syscalls:sys_exit", 0 },
	{ "exceptions:page_fault_user", 0 },
};

static int has_event(const char *spec)
{
	char rel[128];

	snprintf(rel, sizeof(rel), "events/%.*s/%s", (int)strcspn(spec, ":"), spec,
		 strchr(spec, ':') + 1);
	return tfs_exists(NULL, rel);
}

static int has_tracer(const char *name)
{
	char *list = tfs_read_quiet(NULL, "available_tracers");
	int found = 0;

	for (char *t = list ? strtok(list, " \n") : NULL; t && !found; t = strtok(NULL, " \n"))
		found = !strcmp(t, name);
	free(list);
	return found;
}

int record_profile_plan(struct buffer_plan *top, int with_events)
{
	int added = 0;

	if (!tfs_dir())
		return -1;
	for (size_t i = 0; with_events && i < ARRAY_SIZE(profile_events); i++) {
		const struct profile_event *e = &profile_events[i];

		if (!has_event(e->spec)) {
			log_info("--profile: this kernel has no event '%s'", e->spec);
			continue;
		}
		if (buffer_plan_event(top, e->spec) < 0 ||
		    (e->stack && buffer_plan_option(top, 'R', "stacktrace") < 0))
			return -1;
		added++;
	}
	if (top->ftrace.plugin)
		return 0;
	if (has_tracer("function_graph") && tfs_exists(NULL, "max_graph_depth"))
		return buffer_plan_option(top, 'p', "function_graph") < 0 ||
		       buffer_plan_option(top, FTRACE_OPT_MAX_GRAPH_DEPTH, "1") < 0 ? -1 : 0;
	warning("--profile: no function_graph tracer with max_graph_depth in this kernel: "
		"where tasks enter and leave the kernel is not recorded");
	if (!added && with_events)
		return error("--profile: this kernel has none of the events a profile reads");
	return 0;
}
