// SPDX-License-Identifier: GPL-2.0
/*
 * report --profile's output, as upstream 3.4 prints it: a task's events
 * sorted (switches, then wakeups, then by event id and time), each with its
 * count and times, and its kernel stacks merged into a call tree from the
 * innermost function out, each branch with its share of the time (or count).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-profile-int.h"

/* sched_switch's prev_state bits, from bit 0 on (0 alone is R, running) */
static const char switch_states[] = "SDTtZXxKWP";

static const char *const softirq_names[] = {
	"HI", "TIMER", "NET_TX", "NET_RX", "BLOCK", "IRQ_POLL", "TASKLET", "SCHED",
	"HRTIMER", "RCU",
};

#define NR_SOFTIRQS (sizeof(softirq_names) / sizeof(softirq_names[0]))

struct node {
	unsigned long long	addr;
	struct stat_time	time;
	struct node		**kids;
	int			nr_kids;
};

static int kind_rank(int kind)
{
	return kind == EV_SWITCH ? 0 : kind == EV_WAKEUP ? 1 : 2;
}

static int cmp_counted(const struct counted *a, const struct counted *b)
{
	int ra = kind_rank(a->kind), rb = kind_rank(b->kind);

	if (ra != rb)
		return ra - rb;
	if (ra == 0 && a->val != b->val)
		return a->val < b->val ? -1 : 1;
	if (ra)
		if (a->ev_id != b->ev_id)
			return a->ev_id < b->ev_id ? -1 : 1;
	if (a->time.total != b->time.total)
		return a->time.total > b->time.total ? -1 : 1;
	if (a->val != b->val)
		return a->val < b->val ? -1 : 1;
	return 0;
}

void profile_sort_counted(struct counted **list, int n)
{
	/* insertion sort: stable, and a task has few events */
	for (int i = 1; i < n; i++) {
		struct counted *c = list[i];
		int j = i;

		for (; j > 0 && cmp_counted(list[j - 1], c) > 0; j--)
			list[j] = list[j - 1];
		list[j] = c;
	}
}

static void print_ts(uint64_t ts)
{
	unsigned long long us = (ts + 500) / 1000;	/* rounded, as upstream */

	printf("%llu.%06llu", us / 1000000, us % 1000000);
}

static void print_name(struct tep_handle *tep, const struct counted *c)
{
	const char *func;

	switch (c->kind) {
	case EV_SWITCH:
		printf("%s:", c->name);
		if (!c->val)
			putchar('R');
		for (unsigned int i = 0; i < sizeof(switch_states) - 1; i++)
			if (c->val & (1ULL << i))
				putchar(switch_states[i]);
		return;
	case EV_FUNC:
	case EV_GRAPH_ENTRY:
		func = tep_find_function(tep, c->val);
		if (func)
			printf("func: %s()", func);
		else
			printf("func: 0x%llx", c->val);
		return;
	default:
		if (c->style == VALUE_SOFTIRQ && c->val < NR_SOFTIRQS)
			printf("%s:%s", c->name, softirq_names[c->val]);
		else if (c->style == VALUE_DECIMAL)
			printf("%s:%lld", c->name, (long long)c->val);
		else
			printf("%s:0x%llx", c->name, c->val);
	}
}

/* ---- the stacks' call tree ------------------------------------------------ */

void profile_merge_time(struct stat_time *to, const struct stat_time *from)
{
	if (from->timed) {
		if (!to->timed || from->max >= to->max) {
			to->max = from->max;
			to->max_ts = from->max_ts;
		}
		if (!to->timed || from->min <= to->min) {
			to->min = from->min;
			to->min_ts = from->min_ts;
		}
		to->timed = 1;
	}
	to->count += from->count;
	to->total += from->total;
}

static struct node *kid(struct node *n, unsigned long long addr)
{
	struct node *k;

	for (int i = 0; i < n->nr_kids; i++)
		if (n->kids[i]->addr == addr)
			return n->kids[i];
	k = xcalloc(1, sizeof(*k));
	k->addr = addr;
	n->kids = xrealloc(n->kids, sizeof(*n->kids) * (n->nr_kids + 1));
	n->kids[n->nr_kids++] = k;
	return k;
}

static long long weight(const struct node *n, int timed)
{
	return timed ? n->time.total : n->time.count;
}

/* Heaviest first; ties by address, as upstream's come out. */
static int lighter(const struct node *a, const struct node *b, int timed)
{
	if (weight(a, timed) != weight(b, timed))
		return weight(a, timed) < weight(b, timed);
	return a->addr > b->addr;
}

static void sort_kids(struct node *n, int timed)
{
	for (int i = 1; i < n->nr_kids; i++) {
		struct node *k = n->kids[i];
		int j = i;

		for (; j > 0 && lighter(n->kids[j - 1], k, timed); j--)
			n->kids[j] = n->kids[j - 1];
		n->kids[j] = k;
	}
}

static void free_tree(struct node *n)
{
	for (int i = 0; i < n->nr_kids; i++)
		free_tree(n->kids[i]);
	free(n->kids);
	free(n);
}

static void print_func(struct tep_handle *tep, unsigned long long addr)
{
	const char *name = tep_find_function(tep, addr);

	printf("%s (0x%llx)\n", name ? name : "??", addr);
}

static void print_share(const struct node *n, const struct node *parent, int timed)
{
	long long whole = weight(parent, timed);

	printf("%.0f%% (%lld)", whole ? 100.0 * weight(n, timed) / whole : 100.0, n->time.count);
	if (n->time.total) {
		printf(" time:%lld max:%lld(ts:", n->time.total, n->time.max);
		print_ts(n->time.max_ts);
		printf(") min:%lld(ts:", n->time.min);
		print_ts(n->time.min_ts);
		printf(") avg:%lld", n->time.total / n->time.count);
	}
	putchar('\n');
}

/*
 * The kids of @parent, each a "+" line, its share, then the chain of single
 * callers after it, until a caller splits into several (printed one level in).
 */
static void print_kids(struct tep_handle *tep, const struct node *parent, const char *prefix,
		       int timed)
{
	size_t len = strlen(prefix);
	char *lead = xmalloc(len + 8);

	for (int i = 0; i < parent->nr_kids; i++) {
		const struct node *n = parent->kids[i];
		int last = i == parent->nr_kids - 1;

		printf("%s| \n%s+ ", prefix, prefix);
		print_func(tep, n->addr);
		sprintf(lead, "%s%s", prefix, last ? "  " : "| ");
		printf("%s  ", lead);
		print_share(n, parent, timed);
		while (n->nr_kids == 1) {
			n = n->kids[0];
			printf("%s   ", lead);
			print_func(tep, n->addr);
		}
		if (n->nr_kids > 1) {
			char *inner = xmalloc(len + 8);

			sprintf(inner, "%s    ", lead);
			print_kids(tep, n, inner, timed);
			free(inner);
			printf("%s\n", lead);
		}
	}
	printf("%s  \n", prefix);
	free(lead);
}

static void sort_tree(struct node *n, int timed)
{
	sort_kids(n, timed);
	for (int i = 0; i < n->nr_kids; i++)
		sort_tree(n->kids[i], timed);
}

static void print_stacks(struct tep_handle *tep, const struct counted *c)
{
	struct node *root = xcalloc(1, sizeof(*root));
	int timed = 0;

	/* oldest first: the list holds the newest at its head */
	for (int i = c->nr_stacks - 1; i >= 0; i--) {
		const struct stack_count *s = c->stacks;
		struct node *n = root;

		for (int k = 0; k < i; k++)
			s = s->next;
		timed |= s->time.total != 0;
		profile_merge_time(&root->time, &s->time);
		for (int a = 0; a < s->stack.n; a++) {
			n = kid(n, s->stack.addrs[a]);
			profile_merge_time(&n->time, &s->time);
		}
	}
	sort_tree(root, timed);
	print_kids(tep, root, "          ", timed);
	printf("      \n");
	free_tree(root);
}

void profile_print_counted(struct tep_handle *tep, struct counted *c)
{
	printf("  Event: ");
	print_name(tep, c);
	printf(" (%lld)", c->time.count);
	if (c->time.total) {
		printf(" Total: %lld Avg: %lld Max: %lld(ts:", c->time.total,
		       c->time.total / c->time.count, c->time.max);
		print_ts(c->time.max_ts);
		printf(") Min:%lld(ts:", c->time.min);
		print_ts(c->time.min_ts);
		putchar(')');
	}
	putchar('\n');
	if (c->nr_stacks)
		print_stacks(tep, c);
}
