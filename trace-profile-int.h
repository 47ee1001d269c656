/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The counts report --profile keeps, shared by trace-profile.c (counting)
 * and trace-profile-print.c (printing them, stacks as call trees).
 */
#ifndef TRACE_PROFILE_INT_H
#define TRACE_PROFILE_INT_H

#include <stdint.h>

struct ev_info;
struct tep_handle;

/* How an event's value is printed: 0x%llx, a softirq's name (built-in pairs), %lld (sys_enter's id). */
enum { VALUE_HEX, VALUE_SOFTIRQ, VALUE_DECIMAL };

enum ev_kind { EV_GENERIC, EV_SWITCH, EV_WAKEUP, EV_STACK, EV_FUNC, EV_GRAPH_ENTRY,
	       EV_GRAPH_EXIT, EV_EXEC };

struct stack {
	unsigned long long	*addrs;		/* innermost first */
	int			n;
	uint64_t		ts;		/* its record's */
};

struct stat_time {
	long long		count, total, max, min;
	uint64_t		max_ts, min_ts;	/* when the max and min were seen */
	int			timed;		/* max and min hold times (0 is one) */
};

struct stack_count {
	struct stack		stack;
	struct stat_time	time;
	struct stack_count	*next;
};

/* One event (and value) of a task or CPU: how often, how long, from which stacks. */
struct counted {
	int			ev_id;
	struct ev_info		*ev;
	int			kind;		/* enum ev_kind, for the sort */
	const char		*name;
	int			style;		/* how the value is printed: VALUE_* */
	unsigned long long	val;
	struct stat_time	time;
	struct stack_count	*stacks;
	int			nr_stacks;
	struct counted		*next;
};

/* Adds @from's counts to @to's; the later of equal maxima (and minima) kept. */
void profile_merge_time(struct stat_time *to, const struct stat_time *from);
/* Prints @c's event line and its stacks' tree. */
void profile_print_counted(struct tep_handle *tep, struct counted *c);
/* Sorts @list (@n) as upstream lists a task's events. */
void profile_sort_counted(struct counted **list, int n);

#endif
