// SPDX-License-Identifier: GPL-2.0
/*
 * hist: where a trace.dat's events and functions were, per task, as a tree
 * of call chains (the event's kernel stack, or the function tracers' calls),
 * each top level with its share of all chains, printed as upstream 3.4's
 * hist prints it, byte for byte, its quirks included (see trace-cmd-hist(1)).
 */
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-input.h"

extern const struct command cmd_hist;

static const char hist_usage[] =
	"usage: trace-cmd hist [-i FILE] [-P] [FILE]\n"
	"  -i FILE  read FILE (or the FILE argument) instead of trace.dat\n"
	"  -P       ignore pids: one tree of chains for all tasks\n"
	"  -h       show this help\n";

static const struct option hist_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/*
 * One name in a tree of call chains: an event or a function, under the
 * name that came before it in the chain (its caller, or for the top, the
 * task's root).  Names are tep's own strings, told apart by pointer as
 * upstream does: two symbols of one name are two nodes.  NULL is a
 * function address kallsyms does not know.
 */
struct node {
	const char	*name;
	struct node	*children;	/* newest first, until sorted */
	struct node	*sibling;
	struct node	*next_top;	/* the list of top-level nodes */
	struct node	*next_made;	/* every node, to free them without recursion */
	struct task	*task;		/* whose tree it is in */
	int		nr_children;
	int		count;
	int		is_event;	/* a top level that is an event: printed *name* */
};

/* A task's tree (or with -P, everyone's): its root has no name. */
struct task {
	struct task	*next;
	int		pid;
	struct node	root;
};

/* A stack of names, outermost first, as the records build it. */
struct names {
	const char	**v;
	int		len, cap;
};

/* A task's stack put aside while another task's records come. */
struct parked {
	struct parked	*next;
	int		pid;
	struct names	stack;
};

/* The events hist treats apart, and the fields it reads of them. */
struct hist_events {
	int		function, graph_entry, graph_exit, kernel_stack;
	int		wakeup, wakeup_new, sched_switch;
	struct tep_format_field *func_ip, *func_parent;
	struct tep_format_field *entry_func, *entry_depth, *exit_depth;
	struct tep_format_field *stack_caller;
	struct tep_format_field *wakeup_comm, *wakeup_pid, *wakeup_new_comm, *wakeup_new_pid;
	struct tep_format_field *prev_comm, *prev_pid, *next_comm, *next_pid;
};

/*
 * The walk's state.  Like upstream's, it goes on from one instance to the
 * next (nothing is reset between them) and each instance prints every chain
 * counted so far.
 */
struct hist {
	struct trace_input	*in;
	struct tep_handle	*tep;
	const char		*file;
	int			all_pids;	/* -P */
	int			long_size;
	struct hist_events	ev;

	struct names		cur;		/* the current task's stack */
	int			cur_pid;	/* -1: none */
	struct parked		*parked;	/* newest first */
	struct names		pending;	/* an event, waiting for its kernel stack */
	int			pending_pid;	/* -1: none */

	struct task		*tasks;
	struct task		*last_task;	/* the last one looked up */
	struct task		everyone;	/* -P */
	struct node		*tops;		/* newest first, until sorted */
	struct node		*made;		/* every node but the roots */
	int			nr_tops;
	int			total;		/* every chain counted */
	uint64_t		line_mask;	/* printing: the levels that draw a '|' */
};

/* ---- stacks of names ----------------------------------------------------- */

static void names_push(struct names *s, const char *name)
{
	if (s->len == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 16;
		s->v = xrealloc(s->v, s->cap * sizeof(*s->v));
	}
	s->v[s->len++] = name;
}

static void names_free(struct names *s)
{
	free(s->v);
	*s = (struct names){ 0 };
}

static void names_copy(struct names *dst, const struct names *src)
{
	names_free(dst);
	for (int i = 0; i < src->len; i++)
		names_push(dst, src->v[i]);
}

/* The current stack set aside for its task, leaving none current. */
static void park_current(struct hist *h)
{
	struct parked *p = xmalloc(sizeof(*p));

	p->pid = h->cur_pid;
	p->stack = h->cur;
	p->next = h->parked;
	h->parked = p;
	h->cur = (struct names){ 0 };
	h->cur_pid = -1;
}

/* @pid's stack parked last becomes the current one (if it has one: else nothing changes). */
static void unpark(struct hist *h, int pid)
{
	struct parked **pp = &h->parked, *p;

	while (*pp && (*pp)->pid != pid)
		pp = &(*pp)->next;
	p = *pp;
	if (!p)
		return;
	*pp = p->next;
	names_free(&h->cur);
	h->cur = p->stack;
	h->cur_pid = p->pid;
	free(p);
}

/* Records of @pid come: the stack that was current waits for its task's return. */
static void switch_task(struct hist *h, int pid)
{
	if (h->cur_pid >= 0 && pid != h->cur_pid) {
		park_current(h);
		unpark(h, pid);
	}
	h->cur_pid = pid;
}

static void drop_pending(struct hist *h)
{
	names_free(&h->pending);
	h->pending_pid = -1;
}

/* ---- the trees ----------------------------------------------------------- */

static struct task *task_of(struct hist *h, int pid)
{
	struct task *t = h->last_task;

	if (h->all_pids)
		return &h->everyone;
	if (t && t->pid == pid)
		return t;
	for (t = h->tasks; t && t->pid != pid; t = t->next)
		;
	if (!t) {
		t = xcalloc(1, sizeof(*t));
		t->pid = pid;
		t->next = h->tasks;
		h->tasks = t;
	}
	h->last_task = t;
	return t;
}

static struct node *find_child(struct node *n, const char *name)
{
	struct node *c;

	for (c = n->children; c && c->name != name; c = c->sibling)
		;
	return c;
}

/*
 * Counts the chain @s (its last name first, the outermost last) in @pid's
 * tree.  A nameless node counts as a root does, in the total and by making
 * the nodes under it top levels: upstream's tree has no other mark of a root.
 */
static void count_chain(struct hist *h, int pid, const struct names *s, int is_event)
{
	struct task *t = task_of(h, pid);
	struct node *n = &t->root;

	for (int i = s->len; ; i--) {
		struct node *c;

		if (!n->name)
			h->total++;
		n->count++;
		if (!i)
			return;
		c = find_child(n, s->v[i - 1]);
		if (!c) {
			c = xcalloc(1, sizeof(*c));
			c->name = s->v[i - 1];
			c->task = t;
			c->is_event = n == &t->root && is_event;
			c->sibling = n->children;
			c->next_made = h->made;
			h->made = c;
			n->children = c;
			n->nr_children++;
			if (!n->name) {
				c->next_top = h->tops;
				h->tops = c;
				h->nr_tops++;
			}
		}
		n = c;
	}
}

/* ---- the records --------------------------------------------------------- */

/* Whether @rec holds all of @f (a damaged format may place it anywhere). */
static int field_fits(const struct tep_format_field *f, const struct tep_record *rec)
{
	return f->offset >= 0 && f->size >= 0 && (long long)f->offset + f->size <= rec->size;
}

/* @name, the field @f of @rec's event (NULL: its format lacks it), into *@val. */
static int read_field(struct hist *h, struct tep_record *rec, struct tep_format_field *f,
		      const char *name, unsigned long long *val)
{
	if (!f)
		return error("'%s': the format of a record of CPU %d has no field '%s'", h->file,
			     rec->cpu, name);
	if (!field_fits(f, rec) || tep_read_number_field(f, rec->data, val) < 0)
		return error("'%s': a record of CPU %d is too short for its field '%s'", h->file,
			     rec->cpu, name);
	return 0;
}

/* The function tracer: the function, called from the one below it. */
static int on_function(struct hist *h, struct tep_record *rec, int pid)
{
	unsigned long long ip, parent_ip;
	const char *func, *parent;

	if (read_field(h, rec, h->ev.func_ip, "ip", &ip) < 0 ||
	    read_field(h, rec, h->ev.func_parent, "parent_ip", &parent_ip) < 0)
		return -1;
	func = tep_find_function(h->tep, ip);
	parent = tep_find_function(h->tep, parent_ip);
	switch_task(h, pid);
	if (h->cur.len && h->cur.v[h->cur.len - 1] == parent) {
		names_push(&h->cur, func);
		return 0;
	}
	if (h->cur.len) {
		/* Returned from some: the chain so far counts, then back down to the caller. */
		count_chain(h, pid, &h->cur, 0);
		while (h->cur.len) {
			h->cur.len--;
			if (h->cur.len && h->cur.v[h->cur.len - 1] == parent) {
				names_push(&h->cur, func);
				return 0;
			}
		}
	}
	names_push(&h->cur, parent);
	names_push(&h->cur, func);
	return 0;
}

/* function_graph: a call at @depth, or (@entry 0) a return from @depth. */
static int on_graph(struct hist *h, struct tep_record *rec, int pid, int entry)
{
	unsigned long long ip = 0, depth;

	if (read_field(h, rec, entry ? h->ev.entry_depth : h->ev.exit_depth, "depth", &depth) < 0 ||
	    (entry && read_field(h, rec, h->ev.entry_func, "func", &ip) < 0))
		return -1;
	switch_task(h, pid);
	if ((unsigned long long)h->cur.len != depth) {
		count_chain(h, pid, &h->cur, 0);
		while ((unsigned long long)h->cur.len > depth)
			h->cur.len--;
	}
	if (entry)
		names_push(&h->cur, tep_find_function(h->tep, ip));
	return 0;
}

/* Pushes the kernel stack's functions on the current stack, outermost first. */
static void push_kernel_stack(struct hist *h, struct tep_record *rec)
{
	const unsigned char *data = rec->data;
	int ls = h->long_size;
	int start = h->ev.stack_caller->offset;
	int n = 0;

	/* Its addresses end at the record's end, or at one whose low 32 bits are all ones. */
	while (start >= 0 && start + (n + 1) * ls <= rec->size &&
	       (uint32_t)tep_read_number(h->tep, data + start + n * ls, ls) != 0xffffffffU)
		n++;
	while (n--) {
		const char *func = tep_find_function(h->tep,
						     tep_read_number(h->tep, data + start + n * ls, ls));

		if (func)
			names_push(&h->cur, func);
	}
}

/*
 * A kernel stack: the stack of the event before it (pending), or with no
 * event pending, of the function the current stack ends in.
 */
static int on_kernel_stack(struct hist *h, struct tep_record *rec, int pid)
{
	int parked = 0;

	if (h->pending_pid >= 0 && pid != h->pending_pid) {
		drop_pending(h);
		return 0;
	}
	if (!h->ev.stack_caller)
		return error("'%s': its kernel_stack format has no 'caller' field", h->file);
	if (h->pending_pid >= 0 && h->cur_pid >= 0) {
		park_current(h);
		parked = 1;
	} else if (h->pending_pid < 0 && h->cur_pid >= 0) {
		h->pending_pid = h->cur_pid;
		h->pending = h->cur;
		h->cur = (struct names){ 0 };
	}
	h->cur_pid = pid;
	push_kernel_stack(h, rec);
	/* Upstream reads before an empty pending stack; none is pushed here. */
	if (h->pending_pid >= 0) {
		if (h->pending.len)
			names_push(&h->cur, h->pending.v[h->pending.len - 1]);
		drop_pending(h);
	}
	count_chain(h, h->cur_pid, &h->cur, 1);
	if (parked)
		unpark(h, h->cur_pid);
	return 0;
}

/* Names the tasks of sched_switch and sched_wakeup as they run, for the headers. */
static int register_comm(struct hist *h, struct tep_record *rec, struct tep_format_field *comm,
			 struct tep_format_field *pid_field, const char *pid_name)
{
	unsigned long long pid;
	char name[64];
	int len;

	if (read_field(h, rec, pid_field, pid_name, &pid) < 0)
		return -1;
	if (!comm || !field_fits(comm, rec))
		return error("'%s': a record of CPU %d lacks the comm of its '%s'", h->file,
			     rec->cpu, pid_name);
	len = comm->size < (int)sizeof(name) ? comm->size : (int)sizeof(name) - 1;
	len = strnlen((const char *)rec->data + comm->offset, len);
	memcpy(name, (const char *)rec->data + comm->offset, len);
	name[len] = 0;
	/* The file's saved name of a pid stays (tep keeps the first it is given). */
	tep_register_comm(h->tep, name, (int)pid);
	return 0;
}

/*
 * Any other event: counted once its kernel stack comes (or not, when the
 * next event comes first), on top of whatever the current stack holds.
 */
static int on_event(struct hist *h, struct tep_record *rec, int type, int pid)
{
	struct tep_event *event = tep_find_event(h->tep, type);

	if (!event)
		return error("'%s': a record of CPU %d has the unknown event id %d", h->file,
			     rec->cpu, type);
	if (h->pending_pid >= 0) {
		count_chain(h, h->pending_pid, &h->pending, 1);
		drop_pending(h);
	}
	names_copy(&h->pending, &h->cur);
	names_push(&h->pending, event->name);
	h->pending_pid = pid;
	return 0;
}

static int on_record(struct hist *h, struct tep_record *rec)
{
	int type = trace_input_record_type(h->in, rec);
	int pid = trace_input_record_pid(h->in, rec);
	int ret = 0;

	/* Lost events: the current chain ends there. */
	if (rec->missed_events && h->cur_pid >= 0) {
		count_chain(h, h->cur_pid, &h->cur, 0);
		names_free(&h->cur);
		h->cur_pid = -1;
	}
	if (type == h->ev.function)
		return on_function(h, rec, pid);
	if (type == h->ev.graph_entry || type == h->ev.graph_exit)
		return on_graph(h, rec, pid, type == h->ev.graph_entry);
	if (type == h->ev.kernel_stack)
		return on_kernel_stack(h, rec, pid);
	if (type == h->ev.wakeup)
		ret = register_comm(h, rec, h->ev.wakeup_comm, h->ev.wakeup_pid, "pid");
	else if (type == h->ev.wakeup_new)
		ret = register_comm(h, rec, h->ev.wakeup_new_comm, h->ev.wakeup_new_pid, "pid");
	else if (type == h->ev.sched_switch)
		ret = register_comm(h, rec, h->ev.prev_comm, h->ev.prev_pid, "prev_pid") < 0 ? -1 :
		      register_comm(h, rec, h->ev.next_comm, h->ev.next_pid, "next_pid");
	return ret < 0 ? -1 : on_event(h, rec, type, pid);
}

/* The end of an instance's records: every stack still open counts. */
static void count_open_stacks(struct hist *h)
{
	if (h->cur_pid >= 0)
		count_chain(h, h->cur_pid, &h->cur, 0);
	/* Upstream keeps it pending after counting it: the next instance may count it again. */
	if (h->pending_pid >= 0)
		count_chain(h, h->pending_pid, &h->pending, 1);
	while (h->parked) {
		unpark(h, h->parked->pid);
		count_chain(h, h->cur_pid, &h->cur, 0);
	}
}

/* ---- the events' ids and fields ------------------------------------------ */

/*
 * @system:@name's id into *@id (-1 when the file lacks it), then for each
 * (field name, field pointer) pair after it, up to a NULL, the field.
 */
static void find_event(struct tep_handle *tep, const char *system, const char *name, int *id, ...)
{
	struct tep_event *event = tep_find_event_by_name(tep, system, name);
	const char *field;
	va_list ap;

	*id = event ? event->id : -1;
	va_start(ap, id);
	while ((field = va_arg(ap, const char *))) {
		struct tep_format_field **at = va_arg(ap, struct tep_format_field **);

		*at = event ? tep_find_field(event, field) : NULL;
	}
	va_end(ap);
}

static void find_events(struct hist *h)
{
	struct hist_events *ev = &h->ev;

	find_event(h->tep, "ftrace", "function", &ev->function,
		   "ip", &ev->func_ip, "parent_ip", &ev->func_parent, NULL);
	find_event(h->tep, "ftrace", "funcgraph_entry", &ev->graph_entry,
		   "func", &ev->entry_func, "depth", &ev->entry_depth, NULL);
	find_event(h->tep, "ftrace", "funcgraph_exit", &ev->graph_exit,
		   "depth", &ev->exit_depth, NULL);
	find_event(h->tep, "ftrace", "kernel_stack", &ev->kernel_stack,
		   "caller", &ev->stack_caller, NULL);
	find_event(h->tep, "sched", "sched_wakeup", &ev->wakeup,
		   "comm", &ev->wakeup_comm, "pid", &ev->wakeup_pid, NULL);
	find_event(h->tep, "sched", "sched_wakeup_new", &ev->wakeup_new,
		   "comm", &ev->wakeup_new_comm, "pid", &ev->wakeup_new_pid, NULL);
	find_event(h->tep, "sched", "sched_switch", &ev->sched_switch,
		   "prev_comm", &ev->prev_comm, "prev_pid", &ev->prev_pid,
		   "next_comm", &ev->next_comm, "next_pid", &ev->next_pid, NULL);
}

/* ---- sorting ------------------------------------------------------------- */

/*
 * A stable merge sort, most counted first: equal counts keep their order,
 * which makes the newest first the first time, and what an earlier
 * instance's print sorted after that, as upstream's list sort does.
 */
static struct node *sort_list(struct node *list, int n, int by_sibling)
{
	struct node *a = list, *b, **link, *out = NULL, **tail = &out;
	int half = (n + 1) / 2;

	if (n < 2)
		return list;
	link = by_sibling ? &list->sibling : &list->next_top;
	for (int i = 1; i < half; i++) {
		list = *link;
		link = by_sibling ? &list->sibling : &list->next_top;
	}
	b = *link;
	*link = NULL;
	a = sort_list(a, half, by_sibling);
	b = sort_list(b, n - half, by_sibling);
	while (a && b) {
		struct node **from = b->count > a->count ? &b : &a;
		struct node *take = *from;

		*from = by_sibling ? take->sibling : take->next_top;
		*tail = take;
		tail = by_sibling ? &take->sibling : &take->next_top;
	}
	*tail = a ? a : b;
	return out;
}

/* Sorts the children of @n and below: down a chain without branches by a loop, as it may be long. */
static void sort_children(struct node *n)
{
	for (; n; n = n->children) {
		n->children = sort_list(n->children, n->nr_children, 1);
		if (n->nr_children > 1)
			break;
	}
	for (struct node *c = n ? n->children : NULL; c; c = c->sibling)
		sort_children(c);
}

/* ---- printing ------------------------------------------------------------ */

static const char *name_of(const struct node *n)
{
	return n->name ? n->name : "(null)";
}

static double percent(int part, int whole)
{
	return (double)part / (double)whole * 100.0;
}

/* Whether no node from @n down has two children: the chain prints as a plain list. */
static int is_single_path(const struct node *n)
{
	for (; n->children; n = n->children)
		if (n->nr_children > 1)
			return 0;
	return 1;
}

/*
 * Upstream tests level I of its mask with an int (1 << I): past 31 levels
 * the bit wraps, and level 31's reaches every higher bit.  Kept, so deep
 * trees draw as its do.
 */
static uint64_t level_bit(int i)
{
	return (uint64_t)(int64_t)(int32_t)(1U << (i & 31));
}

static void print_indent(const struct hist *h, int levels)
{
	for (int i = 0; i < levels; i++)
		fputs(h->line_mask & level_bit(i) ? "            |" : "             ", stdout);
}

/* The names under @n, each on its line, at @indent (a chain without branches). */
static void print_path(const struct hist *h, const struct node *n, int indent)
{
	for (; n->children; n = n->children) {
		print_indent(h, indent);
		printf("          %s\n", name_of(n->children));
	}
}

static void print_branches(struct hist *h, const struct node *n, int indent)
{
	int i = 0;

	if (is_single_path(n)) {
		print_path(h, n, indent);
		return;
	}
	h->line_mask |= 1ULL << (indent & 63);
	for (const struct node *c = n->children; c; c = c->sibling, i++) {
		const struct node *p = c;

		print_indent(h, indent + 1);
		putchar('\n');
		print_indent(h, indent + 1);
		printf("--%%%.2f-- %s  # %d\n", percent(c->count, n->count), name_of(c), c->count);
		/* The last branch: no line goes on below it at this level. */
		if (i == n->nr_children - 1)
			h->line_mask &= (1ULL << (indent & 63)) - 1;
		if (is_single_path(c)) {
			print_path(h, c, indent + 1);
			continue;
		}
		/* A chain that holds all of its count prints plain down to where it splits. */
		while (p->children && p->nr_children < 2 && p->children->count == p->count) {
			print_indent(h, indent + 1);
			printf("          %s\n", name_of(p->children));
			p = p->children;
		}
		print_branches(h, p, indent + 1);
	}
}

static void print_tops(struct hist *h)
{
	h->tops = sort_list(h->tops, h->nr_tops, 0);
	for (struct node *t = h->tops; t; t = t->next_top)
		sort_children(t);
	for (struct node *t = h->tops; t; t = t->next_top) {
		double share = percent(t->count, h->total);

		if (t != h->tops)
			putchar('\n');
		if (h->all_pids)
			printf("  %%%3.2f <all pids> %30s #%d\n", share, name_of(t), t->count);
		else
			printf("  %%%3.2f  (%d) %s %30s #%d\n", share, t->task->pid,
			       tep_data_comm_from_pid(h->tep, t->task->pid), name_of(t), t->count);
		printf("         |\n");
		printf(t->is_event ? "         --- *%s*\n" : "         --- %s\n", name_of(t));
		print_branches(h, t, 0);
	}
}

/* ---- the command --------------------------------------------------------- */

/* Ends instance @b (or the top buffer): counts what is open and prints every chain. */
static int finish_buffer(struct hist *h, int b, int seen)
{
	if (!seen) {
		if (!b)
			return error("'%s': no records found", h->file);
		return error("'%s': instance '%s' holds no records", h->file,
			     trace_input_buffer_name(h->in, b));
	}
	count_open_stacks(h);
	print_tops(h);
	return 0;
}

/*
 * Upstream reads each CPU's records in turn, not merged by time, and of a
 * file with instances only the instances, one after another.
 */
static int walk_records(struct hist *h)
{
	int nr = trace_input_nr_buffers(h->in);
	int first = nr > 1 ? 1 : 0, b = first, seen = 0;
	struct tep_record *rec;
	int buffer, ret;

	trace_input_cpu_order(h->in);
	while ((ret = trace_input_next(h->in, &rec, &buffer)) > 0) {
		if (buffer < first)
			continue;
		for (; b < buffer; b++, seen = 0)
			if (finish_buffer(h, b, seen) < 0)
				return -1;
		seen = 1;
		if (on_record(h, rec) < 0)
			return -1;
	}
	if (ret < 0)
		return -1;
	for (; b < nr; b++, seen = 0)
		if (finish_buffer(h, b, seen) < 0)
			return -1;
	return 0;
}

static void free_hist(struct hist *h)
{
	struct task *t, *next;

	names_free(&h->cur);
	names_free(&h->pending);
	while (h->parked) {
		struct parked *p = h->parked;

		h->parked = p->next;
		names_free(&p->stack);
		free(p);
	}
	for (t = h->tasks; t; t = next) {
		next = t->next;
		free(t);
	}
	while (h->made) {
		struct node *n = h->made;

		h->made = n->next_made;
		free(n);
	}
	trace_input_close(h->in);
}

static int hist_file(const char *file, int all_pids)
{
	struct hist h = { .file = file, .all_pids = all_pids, .cur_pid = -1, .pending_pid = -1 };
	int ret;

	h.in = trace_input_open(file, 0);
	if (!h.in)
		return -1;
	if (trace_input_is_latency(h.in)) {
		ret = error("'%s': a latency tracer's text has no records to count", file);
	} else {
		h.tep = trace_input_tep(h.in);
		h.long_size = trace_input_long_size(h.in);
		find_events(&h);
		ret = walk_records(&h);
	}
	free_hist(&h);
	return ret;
}

static int run_hist(int argc, char **argv)
{
	const char *file = NULL;
	int all_pids = 0, c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:P", hist_options, NULL)) != -1) {
		if (c == 'h')
			return show_usage(&cmd_hist);
		if (c == 'i') {
			if (file)
				return usage_error(&cmd_hist, "only one input file: '%s' and '%s'",
						   file, optarg);
			file = optarg;
		} else if (c == 'P') {
			all_pids = 1;
		} else {
			return option_error(&cmd_hist, argv, c);
		}
	}
	if (optind < argc && file)
		return usage_error(&cmd_hist, "only one input file: '%s' and '%s'", file,
				   argv[optind]);
	if (optind < argc)
		file = argv[optind++];
	if (optind < argc)
		return usage_error(&cmd_hist, "unexpected argument '%s'", argv[optind]);
	return hist_file(file ? file : "trace.dat", all_pids) < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_hist = {
	.name = "hist",
	.run = run_hist,
	.usage = hist_usage,
	.summary = "show where a trace's events and functions were, as call-chain trees",
};
