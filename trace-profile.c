// SPDX-License-Identifier: GPL-2.0
/*
 * report --profile (trace-cmd-profile(1), trace-cmd-report(1)): each record
 * is counted against the task (or, with -G, the CPU) it belongs to; pairs of
 * events (switched out .. woken .. switched in, irq entry .. exit, -H hooks)
 * add the time between them; a kernel stack is counted with its task's last
 * event (or the wait its last wakeup began, see on_stack).  The stacks are
 * printed as a call tree by trace-profile-print.c.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-profile.h"
#include "trace-profile-int.h"

#define OWNER_BUCKETS	256
#define MAX_STACK	1024	/* entries of one kernel stack kept */
#define GLOBAL_CPU	1	/* -G, -H ...,gp: counted per CPU */
#define GLOBAL_ALL	2	/* -H ...,g: counted once for the whole trace */
#define SWITCH_STATE_MASK 0x3ff	/* the prev_state bits trace-profile-print.c names */

/* A start event and the end event that closes it (built in, or -H). */
struct mate {
	struct ev_info		*start, *end;
	struct tep_format_field	*start_match, *end_match, *start_pid;
	int			global;		/* GLOBAL_* */
	struct mate		*next;
};

struct ev_info {
	struct tep_event	*event;
	enum ev_kind		kind;
	struct tep_format_field	*value;		/* the value counted under; NULL: 0 */
	struct mate		*starts, *ends;
	int			style;		/* how its value is printed: VALUE_* */
};

/* What a kernel stack record of a task belongs to: the task's last event that began,
 * ended or counted something. */
struct stack_target {
	struct pending		*pending;	/* begun by it */
	struct counted		*ended;		/* ended by it (-H pairs), after ... */
	long long		delta;		/* ... this long */
	struct counted		*counted;	/* counted plainly */
};

/* An interval begun and not yet ended. */
struct pending {
	struct owner		*owner;		/* where its time is counted */
	struct ev_info		*ev;		/* counted under this event ... */
	const struct mate	*mate;		/* the pair it is of (NULL: no pair) */
	unsigned long long	val;		/* ... and value */
	unsigned long long	key;		/* what its end must match */
	uint64_t		ts;
	struct stack		stack;
	struct owner		*aimed;		/* whose stack target it is */
	struct pending		*next;
};

struct owner {
	int			pid;		/* a task's; a CPU's number, -1 global */
	char			*comm;
	int			sleeping;	/* switched out in a state other than R */
	struct counted		*counted[OWNER_BUCKETS];
	struct pending		*pending;
	struct stack_target	target;		/* a task's */
	struct pending		*woken;		/* the wait its wakeup began: its next stack's */
	struct stack		held;		/* a stack nothing took, for its next graph entry */
	struct owner		*next;
};


struct profile {
	struct tep_handle	*tep;
	struct profile_opts	opts;
	struct ev_info		*evs;
	int			nr_evs;
	struct mate		*mates;
	struct ev_info		*sched_switch, *wakeup, *graph_entry;
	struct owner		*tasks[OWNER_BUCKETS];
	struct owner		**cpus;
	struct owner		*global;	/* -H ...,g pairs' */
	int			nr_cpus;
	int			long_size;
};

static struct ev_info *ev_of(struct profile *p, int id)
{
	return id >= 0 && id < p->nr_evs && p->evs[id].event ? &p->evs[id] : NULL;
}

static unsigned long long field_val(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f && tep_read_number_field(f, rec->data, &v) < 0)
		v = 0;
	return v;
}

static struct owner *owner_new(int pid)
{
	struct owner *o = xcalloc(1, sizeof(*o));

	o->pid = pid;
	return o;
}

static struct owner *find_task(struct profile *p, int pid)
{
	struct owner **b = &p->tasks[(unsigned int)pid % OWNER_BUCKETS];

	for (struct owner *o = *b; o; o = o->next)
		if (o->pid == pid)
			return o;
	struct owner *o = owner_new(pid);

	o->next = *b;
	*b = o;
	return o;
}

static struct owner *find_cpu(struct profile *p, int cpu)
{
	if (cpu < 0)
		cpu = 0;
	if (cpu >= p->nr_cpus) {
		p->cpus = xrealloc(p->cpus, sizeof(*p->cpus) * (cpu + 1));
		for (int i = p->nr_cpus; i <= cpu; i++)
			p->cpus[i] = NULL;
		p->nr_cpus = cpu + 1;
	}
	if (!p->cpus[cpu])
		p->cpus[cpu] = owner_new(cpu);
	return p->cpus[cpu];
}


static void set_comm(struct owner *o, const char *comm)
{
	if (!o->comm && comm)
		o->comm = xstrdup(comm);
}

static struct counted *find_counted(struct owner *o, struct ev_info *ev,
				    unsigned long long val)
{
	unsigned int b = (unsigned int)((uintptr_t)ev->event->id * 31 + val) % OWNER_BUCKETS;
	struct counted *c;

	for (c = o->counted[b]; c; c = c->next)
		if (c->ev_id == ev->event->id && c->val == val)
			return c;
	c = xcalloc(1, sizeof(*c));
	c->ev_id = ev->event->id;
	c->ev = ev;
	c->kind = ev->kind;
	c->name = ev->event->name;
	c->style = ev->style;
	c->val = val;
	c->next = o->counted[b];
	o->counted[b] = c;
	return c;
}

/* ---- pending intervals ------------------------------------------------- */

static struct pending *find_pending(struct owner *o, struct ev_info *ev, const struct mate *m,
				    unsigned long long key,
				    struct pending ***link)
{
	for (struct pending **pp = &o->pending; *pp; pp = &(*pp)->next)
		if ((*pp)->ev == ev && (*pp)->mate == m && (*pp)->key == key) {
			*link = pp;
			return *pp;
		}
	return NULL;
}

/*
 * A new interval of @o under @ev/@val; a stack may follow.  An end closes the
 * newest of its key, as upstream's: an older one waits for a later end.
 */
static struct pending *start_pending(struct owner *o, struct ev_info *ev, const struct mate *m,
				     unsigned long long key, unsigned long long val,
				     struct tep_record *rec, struct owner *aim)
{
	struct pending *pd = xcalloc(1, sizeof(*pd));

	pd->next = o->pending;
	o->pending = pd;
	pd->owner = o;
	pd->ev = ev;
	pd->mate = m;
	pd->key = key;
	pd->val = val;
	pd->ts = rec->ts;
	if (aim) {
		aim->target = (struct stack_target){ .pending = pd };
		pd->aimed = aim;
	}
	return pd;
}

static void add_time(struct stat_time *t, long long delta, uint64_t ts)
{
	if (!t->timed || delta > t->max) {
		t->max = delta;
		t->max_ts = ts;
	}
	if (!t->timed || delta < t->min) {
		t->min = delta;
		t->min_ts = ts;
	}
	t->timed = 1;
	t->count++;
	t->total += delta;
}

static struct stack_count *find_stack(struct counted *c, const struct stack *stack)
{
	struct stack_count *s;

	for (s = c->stacks; s; s = s->next)
		if (s->stack.n == stack->n &&
		    !memcmp(s->stack.addrs, stack->addrs, sizeof(*stack->addrs) * stack->n))
			break;
	return s;
}

/* @c's count of @stack, a new one (a copy) if it has none. */
static struct stack_count *stack_of(struct counted *c, const struct stack *stack)
{
	struct stack_count *s = find_stack(c, stack);

	if (s)
		return s;
	s = xcalloc(1, sizeof(*s));
	s->stack.n = stack->n;
	s->stack.addrs = xmalloc(sizeof(*stack->addrs) * (stack->n ? stack->n : 1));
	memcpy(s->stack.addrs, stack->addrs, sizeof(*stack->addrs) * stack->n);
	s->next = c->stacks;
	c->stacks = s;
	c->nr_stacks++;
	return s;
}

/* Adds @stack (taken over) to @c's stacks, with the interval's time if @timed. */
static void count_stack(struct counted *c, struct stack *stack, int timed, long long delta,
			uint64_t ts)
{
	struct stack_count *s = find_stack(c, stack);

	if (!s) {
		s = xcalloc(1, sizeof(*s));
		s->stack = *stack;
		s->next = c->stacks;
		c->stacks = s;
		c->nr_stacks++;
	} else {
		free(stack->addrs);
	}
	*stack = (struct stack){ 0 };
	if (timed)
		add_time(&s->time, delta, ts);
	else
		s->time.count++;
}

/* Ends @pd at @rec: its time counted, its stack with it, and it is freed. */
static struct counted *end_pending(struct pending **link, struct tep_record *rec,
				   long long *deltap)
{
	struct pending *pd = *link;
	struct counted *c = find_counted(pd->owner, pd->ev, pd->val);
	long long delta = rec->ts - pd->ts;

	add_time(&c->time, delta, rec->ts);
	if (pd->stack.n)
		count_stack(c, &pd->stack, 1, delta, pd->stack.ts);
	else
		free(pd->stack.addrs);
	if (pd->aimed && pd->aimed->target.pending == pd)
		pd->aimed->target.pending = NULL;
	if (pd->aimed && pd->aimed->woken == pd)
		pd->aimed->woken = NULL;
	*link = pd->next;
	free(pd);
	if (deltap)
		*deltap = delta;
	return c;
}

static struct counted *end_if_pending(struct owner *o, struct ev_info *ev, const struct mate *m,
				      unsigned long long key, struct tep_record *rec,
				      long long *deltap)
{
	struct pending **link;

	if (find_pending(o, ev, m, key, &link))
		return end_pending(link, rec, deltap);
	return NULL;
}

/* ---- the events --------------------------------------------------------- */

static void count_plain(struct owner *o, struct ev_info *ev, unsigned long long val)
{
	struct counted *c = find_counted(o, ev, val);

	c->time.count++;
	o->target = (struct stack_target){ .counted = c };
}

static int read_int(struct tep_event *event, const char *name, struct tep_record *rec,
		    unsigned long long *v)
{
	struct tep_format_field *f = tep_find_field(event, name);

	*v = 0;
	return f ? tep_read_number_field(f, rec->data, v) : -1;
}

static void set_comm_field(struct owner *o, struct tep_event *event, const char *name,
			   struct tep_record *rec)
{
	struct tep_format_field *f = tep_find_field(event, name);
	char comm[32];
	int len;

	if (o->comm || !f || (int)(f->offset + f->size) > rec->size)
		return;
	len = f->size < (int)sizeof(comm) - 1 ? f->size : (int)sizeof(comm) - 1;
	memcpy(comm, (char *)rec->data + f->offset, len);
	comm[len] = '\0';
	set_comm(o, comm);
}

/*
 * sched_switch: the task leaving starts an interval under its state, which
 * ends when it is woken (it slept) or switched back in (it was preempted); the
 * task entering ends its wait since its wakeup.
 */
static void on_switch(struct profile *p, struct ev_info *ev, struct tep_record *rec)
{
	unsigned long long prev_pid, state, next_pid;
	struct owner *prev, *next;

	if (read_int(ev->event, "prev_pid", rec, &prev_pid) < 0 ||
	    read_int(ev->event, "next_pid", rec, &next_pid) < 0)
		return;
	read_int(ev->event, "prev_state", rec, &state);
	prev = find_task(p, (int)prev_pid);
	set_comm_field(prev, ev->event, "prev_comm", rec);
	/* bits above the states named (a preemption on older kernels) are R */
	state &= SWITCH_STATE_MASK;
	prev->sleeping = state != 0;
	start_pending(prev, ev, NULL, 0, state, rec, prev);

	next = find_task(p, (int)next_pid);
	set_comm_field(next, ev->event, "next_comm", rec);
	end_if_pending(next, ev, NULL, 0, rec, NULL);
	if (p->wakeup)
		end_if_pending(next, p->wakeup, NULL, 0, rec, NULL);
	next->sleeping = 0;
}

/* sched_wakeup: a sleeping task's sleep ends here, and its wait to run begins. */
static void on_wakeup(struct profile *p, struct ev_info *ev, struct tep_record *rec)
{
	unsigned long long pid;
	struct pending **link;
	struct owner *o, *waker;

	if (read_int(ev->event, "pid", rec, &pid) < 0)
		return;
	o = find_task(p, (int)pid);
	set_comm_field(o, ev->event, "comm", rec);
	waker = find_task(p, tep_data_pid(p->tep, rec));
	if (!o->sleeping || !p->sched_switch || !find_pending(o, p->sched_switch, NULL, 0, &link)) {
		/* no event takes the stack after a wakeup that changes nothing */
		waker->target = (struct stack_target){ 0 };
		waker->woken = NULL;
		return;
	}
	end_pending(link, rec, NULL);
	/* a stack after it is the waker's: it goes with the wait it began */
	waker->target = (struct stack_target){ 0 };
	waker->woken = start_pending(o, ev, NULL, 0, pid, rec, NULL);
	waker->woken->aimed = waker;
}

/* The addresses of kernel stack record @rec, innermost first; 0 if it holds none. */
static int read_stack(struct profile *p, struct ev_info *ev, struct tep_record *rec,
		      struct stack *stack)
{
	struct tep_format_field *f = tep_find_field(ev->event, "caller");
	unsigned long long size = 0;
	int avail;

	*stack = (struct stack){ .ts = rec->ts };
	if (!f)
		return 0;
	read_int(ev->event, "size", rec, &size);
	avail = ((int)rec->size - f->offset) / p->long_size;
	if (avail <= 0)
		return 0;
	if (size == 0 || size > (unsigned long long)avail)
		size = avail;
	if (size > MAX_STACK)
		size = MAX_STACK;
	stack->addrs = xmalloc(sizeof(*stack->addrs) * size);
	for (unsigned int i = 0; i < size; i++) {
		unsigned long long a = tep_read_number(p->tep, (char *)rec->data + f->offset +
						       i * p->long_size, p->long_size);

		if (!a || a == (p->long_size == 4 ? 0xffffffffULL : ~0ULL))
			break;
		stack->addrs[stack->n++] = a;
	}
	return 1;
}

/* Gives @stack (taken over) to what @t aims at, and clears @t. */
static void give_stack(struct stack_target *t, struct stack *stack)
{
	if (t->pending) {
		free(t->pending->stack.addrs);
		t->pending->stack = *stack;
	} else if (t->ended) {
		count_stack(t->ended, stack, 1, t->delta, stack->ts);
	} else {
		count_stack(t->counted, stack, 0, 0, 0);
	}
	*t = (struct stack_target){ 0 };
}

/*
 * A kernel stack goes with the wait its task's last wakeup began, whatever
 * the task did since (pid 0 runs on every CPU at once); else with the task's
 * last event.  One that has neither is held: a function_graph entry that is
 * the task's next record takes it.  3.4 does all this.
 */
static void on_stack(struct profile *p, struct ev_info *ev, struct tep_record *rec)
{
	struct owner *o = find_task(p, tep_data_pid(p->tep, rec));
	struct stack_target woken = { .pending = o->woken };
	struct stack stack;

	free(o->held.addrs);
	o->held = (struct stack){ 0 };
	if (!read_stack(p, ev, rec, &stack))
		return;
	if (o->woken) {
		give_stack(&woken, &stack);
		o->woken = NULL;
	} else if (o->target.pending || o->target.ended || o->target.counted) {
		give_stack(&o->target, &stack);
	} else {
		o->held = stack;
	}
}

/* The owner of a pair's time: the CPU when global, else the task (or @pid_field's). */
static struct owner *mate_owner(struct profile *p, struct mate *m, struct tep_record *rec,
				struct tep_format_field *pid_field)
{
	if (m->global == GLOBAL_ALL) {
		if (!p->global)
			p->global = owner_new(-1);
		return p->global;
	}
	if (m->global)
		return find_cpu(p, rec->cpu);
	if (pid_field)
		return find_task(p, (int)field_val(pid_field, rec));
	return find_task(p, tep_data_pid(p->tep, rec));
}

static void on_mates(struct profile *p, struct ev_info *ev, struct tep_record *rec)
{
	struct mate *m;

	/*
	 * An end first: softirq_entry ends its raise, then begins its run.  An
	 * event that is both ends of one pair (-H sched_switch,...) only starts
	 * it, as in upstream 3.4.
	 */
	if ((m = ev->ends) && m != ev->starts) {
		struct owner *o = mate_owner(p, m, rec, NULL);
		struct ev_info *start = m->start;
		unsigned long long key = field_val(m->end_match, rec);
		long long delta;
		struct counted *c = end_if_pending(o, start, m, key, rec, &delta);

		/* a stack right after the end is counted with the pair too */
		if (c && !m->global)
			o->target = (struct stack_target){ .ended = c, .delta = delta };
	}
	if ((m = ev->starts)) {
		struct owner *o = mate_owner(p, m, rec, m->start_pid);
		unsigned long long val = field_val(m->start_match, rec);
		/* a global start, or one another task owns, takes no stack */
		start_pending(o, ev, m, val, val, rec,
			      !m->global && o->pid == tep_data_pid(p->tep, rec) ? o : NULL);
	}
}

/* function_graph: an entry's interval ends at the exit of the same function. */
static void on_graph(struct profile *p, struct ev_info *ev, struct tep_record *rec)
{
	struct owner *o = find_task(p, tep_data_pid(p->tep, rec));
	unsigned long long func;

	if (read_int(ev->event, "func", rec, &func) < 0)
		return;
	if (ev->kind == EV_GRAPH_ENTRY) {
		/* takes no stack after it, only one held from before */
		struct pending *pd = start_pending(o, ev, NULL, func, func, rec, NULL);

		pd->stack = o->held;
		o->held = (struct stack){ 0 };
	}
	else if (p->graph_entry)
		end_if_pending(o, p->graph_entry, NULL, func, rec, NULL);
}

void profile_record(struct profile *p, struct tep_record *rec)
{
	struct ev_info *ev = ev_of(p, tep_data_type(p->tep, rec));
	struct owner *o;

	if (!ev)
		return;
	if (ev->kind == EV_STACK) {
		on_stack(p, ev, rec);
		return;
	}
	/*
	 * A kernel stack belongs to its task's last record that began, ended
	 * or counted something (on_stack says which).
	 */
	o = find_task(p, tep_data_pid(p->tep, rec));
	switch (ev->kind) {
	case EV_SWITCH:
		on_switch(p, ev, rec);
		break;
	case EV_WAKEUP:
		on_wakeup(p, ev, rec);
		break;
	case EV_GRAPH_ENTRY:
	case EV_GRAPH_EXIT:
		on_graph(p, ev, rec);
		break;
	case EV_EXEC:
		/* not counted: the task's name is taken again from its next switch */
		free(o->comm);
		o->comm = NULL;
		break;
	case EV_FUNC:
		count_plain(o, ev, field_val(tep_find_field(ev->event, "ip"), rec));
		break;
	default:
		if (ev->starts || ev->ends)
			on_mates(p, ev, rec);
		else
			count_plain(o, ev, field_val(ev->value, rec));
		break;
	}
	/* a held stack waits no longer than the task's next record */
	free(o->held.addrs);
	o->held = (struct stack){ 0 };
}

/* ---- setup -------------------------------------------------------------- */

static struct ev_info *ev_named(struct profile *p, const char *system, const char *name)
{
	struct tep_event *e = tep_find_event_by_name(p->tep, system, name);

	return e ? ev_of(p, e->id) : NULL;
}

/* The first field after the common ones: what an event is counted under. */
static struct tep_format_field *first_field(struct tep_event *e)
{
	struct tep_format_field **fields = tep_event_fields(e);
	struct tep_format_field *f = fields ? fields[0] : NULL;

	free(fields);
	return f;
}

static struct mate *add_mate(struct profile *p, struct ev_info *start, struct ev_info *end)
{
	struct mate *m = xcalloc(1, sizeof(*m));

	m->start = start;
	m->end = end;
	m->next = p->mates;
	p->mates = m;
	start->starts = m;
	end->ends = m;
	return m;
}

/*
 * A built-in pair, matched on @field in both: without its end in the file,
 * the start is counted plainly under value 0, as upstream does.
 */
static void builtin_mate(struct profile *p, const char *system, const char *start_name,
			 const char *end_name, const char *field, int is_irq)
{
	struct ev_info *start = ev_named(p, system, start_name);
	struct ev_info *end = ev_named(p, system, end_name);
	struct mate *m;

	if (!start)
		return;
	start->value = NULL;
	if (!end)
		return;
	m = add_mate(p, start, end);
	m->start_match = tep_find_field(start->event, field);
	m->end_match = tep_find_field(end->event, field);
	m->global = is_irq && p->opts.global_irqs ? GLOBAL_CPU : 0;
}

static void set_kind(struct profile *p, const char *system, const char *name,
		     enum ev_kind kind)
{
	struct ev_info *ev = ev_named(p, system, name);

	if (ev)
		ev->kind = kind;
}

/* ---- -H hooks ----------------------------------------------------------- */

struct hook_spec {
	char	*start_sys, *start_name, *start_match, *start_pid;
	char	*end_sys, *end_name, *end_match, *flags;
};

/* "[sys:]event" */
static void split_event(char *s, char **sys, char **name)
{
	char *colon = strchr(s, ':');

	*sys = NULL;
	*name = s;
	if (colon) {
		*colon = '\0';
		*sys = s;
		*name = colon + 1;
	}
}

/* Splits @buf (modified) into @h; -1 (printed) when a part is missing or a flag unknown. */
static int parse_hook(const char *spec, char *buf, struct hook_spec *h)
{
	char *slash = strchr(buf, '/');
	char *a[4] = { 0 }, *b[4] = { 0 };
	int na = 0, nb = 0;

	if (!slash)
		return error("-H '%s': no '/' between the start and the end event", spec);
	*slash = '\0';
	for (char *t = strtok(buf, ","); t && na < 4; t = strtok(NULL, ","))
		a[na++] = t;
	for (char *t = strtok(slash + 1, ","); t && nb < 4; t = strtok(NULL, ","))
		b[nb++] = t;
	if (na < 2 || na > 3 || nb < 2 || nb > 3)
		return error("-H '%s': expected [sys:]start,match[,pid]/[sys:]end,match[,flags]",
			     spec);
	split_event(a[0], &h->start_sys, &h->start_name);
	h->start_match = a[1];
	h->start_pid = na > 2 ? a[2] : NULL;
	split_event(b[0], &h->end_sys, &h->end_name);
	h->end_match = b[1];
	h->flags = nb > 2 ? b[2] : "";
	for (const char *f = h->flags; *f; f++)
		if (!strchr("pPsSgG", *f))
			return error("-H '%s': unknown flag '%c' (p, s or g)", spec, *f);
	return 0;
}

int profile_check_hook(const char *spec)
{
	char *buf = xstrdup(spec);
	struct hook_spec h;
	int ret = parse_hook(spec, buf, &h);

	free(buf);
	return ret;
}

#define OR_NULL(s) ((s) ? (s) : "(null)")

void profile_echo_hook(const char *spec)
{
	char *buf = xstrdup(spec);
	struct hook_spec h;

	if (parse_hook(spec, buf, &h) == 0)
		printf("start %s:%s:%s (%s) end %s:%s:%s (%s)\n", OR_NULL(h.start_sys),
		       h.start_name, h.start_match, OR_NULL(h.start_pid), OR_NULL(h.end_sys),
		       h.end_name, h.end_match, *h.flags ? h.flags : "(null)");
	free(buf);
}

static struct tep_format_field *hook_field(const char *spec, struct ev_info *ev,
					   const char *name)
{
	struct tep_format_field *f = tep_find_any_field(ev->event, name);

	if (!f)
		error("-H '%s': event '%s' has no field '%s'", spec, ev->event->name, name);
	return f;
}

/* An event in a -H pair is counted only as the pair says: no built-in pair or role. */
static void hook_takes(struct profile *p, struct ev_info *ev)
{
	ev->style = VALUE_HEX;
	ev->starts = NULL;
	ev->ends = NULL;
	if (ev->kind == EV_GENERIC)
		return;
	if (ev == p->wakeup)
		p->wakeup = NULL;
	if (ev == p->sched_switch)
		p->sched_switch = NULL;
	if (ev == p->graph_entry)
		p->graph_entry = NULL;
	ev->kind = EV_GENERIC;
}

static int add_hook(struct profile *p, const char *spec)
{
	char *buf = xstrdup(spec);
	struct ev_info *start, *end;
	struct hook_spec h;
	struct mate *m;
	int ret = -1;

	if (parse_hook(spec, buf, &h) < 0)
		goto out;
	start = ev_named(p, h.start_sys, h.start_name);
	end = ev_named(p, h.end_sys, h.end_name);
	if (!start || !end) {
		error("-H '%s': event '%s' is not in the file", spec,
		      start ? h.end_name : h.start_name);
		goto out;
	}
	hook_takes(p, start);
	hook_takes(p, end);
	m = add_mate(p, start, end);
	m->start_match = hook_field(spec, start, h.start_match);
	m->end_match = hook_field(spec, end, h.end_match);
	m->start_pid = h.start_pid ? hook_field(spec, start, h.start_pid) : NULL;
	if (!m->start_match || !m->end_match || (h.start_pid && !m->start_pid))
		goto out;
	/* p alone changes nothing: upstream matches the newest start on any CPU */
	if (strpbrk(h.flags, "gG"))
		m->global = strpbrk(h.flags, "pP") ? GLOBAL_CPU : GLOBAL_ALL;
	ret = 0;
out:
	free(buf);
	return ret;
}

static void init_events(struct profile *p)
{
	struct tep_event **events = tep_list_events(p->tep, TEP_EVENT_SORT_ID);
	int max = -1;

	for (int i = 0; events && events[i]; i++)
		if (events[i]->id > max)
			max = events[i]->id;
	p->nr_evs = max + 1;
	p->evs = xcalloc(p->nr_evs > 0 ? p->nr_evs : 1, sizeof(*p->evs));
	for (int i = 0; events && events[i]; i++) {
		struct ev_info *ev = &p->evs[events[i]->id];

		ev->event = events[i];
		ev->value = first_field(events[i]);
	}
}

struct profile *profile_new(struct tep_handle *tep, const struct profile_opts *opts)
{
	struct profile *p = xcalloc(1, sizeof(*p));
	struct ev_info *ev;

	p->tep = tep;
	p->opts = *opts;
	p->long_size = tep_get_long_size(tep) == 4 ? 4 : 8;
	init_events(p);
	set_kind(p, "sched", "sched_switch", EV_SWITCH);
	set_kind(p, "sched", "sched_wakeup", EV_WAKEUP);
	set_kind(p, "ftrace", "kernel_stack", EV_STACK);
	set_kind(p, "sched", "sched_process_exec", EV_EXEC);
	set_kind(p, "ftrace", "function", EV_FUNC);
	set_kind(p, "ftrace", "funcgraph_entry", EV_GRAPH_ENTRY);
	set_kind(p, "ftrace", "funcgraph_exit", EV_GRAPH_EXIT);
	p->sched_switch = ev_named(p, "sched", "sched_switch");
	if (p->sched_switch && p->sched_switch->kind != EV_SWITCH)
		p->sched_switch = NULL;
	p->wakeup = ev_named(p, "sched", "sched_wakeup");
	p->graph_entry = ev_named(p, "ftrace", "funcgraph_entry");
	builtin_mate(p, "irq", "softirq_raise", "softirq_entry", "vec", 1);
	builtin_mate(p, "irq", "softirq_entry", "softirq_exit", "vec", 1);
	builtin_mate(p, "irq", "irq_handler_entry", "irq_handler_exit", "irq", 1);
	builtin_mate(p, "raw_syscalls", "sys_enter", "sys_exit", "id", 0);
	if ((ev = ev_named(p, "irq", "softirq_raise")))
		ev->style = VALUE_SOFTIRQ;
	if ((ev = ev_named(p, "irq", "softirq_entry")))
		ev->style = VALUE_SOFTIRQ;
	if ((ev = ev_named(p, "raw_syscalls", "sys_enter")))
		ev->style = VALUE_DECIMAL;
	/* -H pairs come last: they replace a built-in role of their events */
	for (int i = 0; i < opts->nr_hooks; i++)
		if (add_hook(p, opts->hooks[i]) < 0) {
			profile_free(p);
			return NULL;
		}
	return p;
}

/* ---- output ------------------------------------------------------------- */

static void print_owner(struct profile *p, struct owner *o)
{
	struct counted **list = NULL;
	int n = 0;

	for (int b = 0; b < OWNER_BUCKETS; b++)
		for (struct counted *c = o->counted[b]; c; c = c->next) {
			list = xrealloc(list, sizeof(*list) * (n + 1));
			list[n++] = c;
		}
	profile_sort_counted(list, n);
	for (int i = 0; i < n; i++)
		profile_print_counted(p->tep, list[i]);
	free(list);
}

static int by_pid(const void *a, const void *b)
{
	const struct owner *x = *(struct owner * const *)a, *y = *(struct owner * const *)b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

static struct owner **sorted_tasks(struct profile *p, int *n)
{
	struct owner **list = NULL;

	*n = 0;
	for (int b = 0; b < OWNER_BUCKETS; b++)
		for (struct owner *o = p->tasks[b]; o; o = o->next) {
			list = xrealloc(list, sizeof(*list) * (*n + 1));
			list[(*n)++] = o;
		}
	if (*n)
		qsort(list, *n, sizeof(*list), by_pid);
	return list;
}

static int has_counts(const struct owner *o)
{
	for (int b = 0; o && b < OWNER_BUCKETS; b++)
		if (o->counted[b])
			return 1;
	return 0;
}

static void free_owner(struct owner *o);

static const char *task_comm(struct profile *p, const struct owner *o)
{
	return o->comm ? o->comm : tep_data_comm_from_pid(p->tep, o->pid);
}

/* Adds @from's counts (and stacks) into @to, whose own copy of each it makes. */
static void merge_owner(struct owner *to, const struct owner *from)
{
	for (int b = 0; b < OWNER_BUCKETS; b++)
		for (struct counted *c = from->counted[b]; c; c = c->next) {
			/* a wakeup is counted under its task's pid: one group, one value */
			struct counted *g = find_counted(to, c->ev,
							 c->kind == EV_WAKEUP ? 0 : c->val);

			profile_merge_time(&g->time, &c->time);
			for (struct stack_count *s = c->stacks; s; s = s->next)
				profile_merge_time(&stack_of(g, &s->stack)->time, &s->time);
		}
}

static void print_task(struct profile *p, struct owner *o)
{
	printf("\ntask: %s-%d\n", task_comm(p, o), o->pid);
	print_owner(p, o);
}

/*
 * --by-comm: the tasks of one name summed, in the order of their first pid.
 * As upstream's, a task whose name no event gave (or whose exec took it)
 * stays alone, after the groups.
 */
static void print_groups(struct profile *p, struct owner **tasks, int n)
{
	struct owner **groups = xcalloc(n ? n : 1, sizeof(*groups));
	int nr = 0;

	for (int i = 0; i < n; i++) {
		const char *comm = tasks[i]->comm;
		int g = 0;

		if (!comm)
			continue;

		while (g < nr && strcmp(groups[g]->comm, comm))
			g++;
		if (g == nr) {
			groups[nr] = owner_new(tasks[i]->pid);
			groups[nr++]->comm = xstrdup(comm);
		}
		merge_owner(groups[g], tasks[i]);
	}
	for (int g = 0; g < nr; g++) {
		printf("\ngroup: %s\n", groups[g]->comm);
		print_owner(p, groups[g]);
		free_owner(groups[g]);
	}
	free(groups);
	for (int i = 0; i < n; i++)
		if (!tasks[i]->comm)
			print_task(p, tasks[i]);
}

void profile_print(struct profile *p)
{
	struct owner **tasks;
	int n;

	if (has_counts(p->global)) {
		printf("Global Events\n");
		print_owner(p, p->global);
	}
	for (int i = 0; i < p->nr_cpus; i++) {
		struct owner *o = p->cpus[i];

		if (!has_counts(o))
			continue;
		printf("Global CPU[%d] Events\n", i);
		print_owner(p, o);
	}
	tasks = sorted_tasks(p, &n);
	if (p->opts.by_comm)
		print_groups(p, tasks, n);
	else
		for (int i = 0; i < n; i++)
			print_task(p, tasks[i]);
	free(tasks);
}

/* ---- freeing ------------------------------------------------------------ */

static void free_owner(struct owner *o)
{
	for (int b = 0; b < OWNER_BUCKETS; b++)
		while (o->counted[b]) {
			struct counted *c = o->counted[b];

			o->counted[b] = c->next;
			while (c->stacks) {
				struct stack_count *s = c->stacks;

				c->stacks = s->next;
				free(s->stack.addrs);
				free(s);
			}
			free(c);
		}
	while (o->pending) {
		struct pending *pd = o->pending;

		o->pending = pd->next;
		free(pd->stack.addrs);
		free(pd);
	}
	free(o->held.addrs);
	free(o->comm);
	free(o);
}

void profile_free(struct profile *p)
{
	if (!p)
		return;
	for (int b = 0; b < OWNER_BUCKETS; b++)
		while (p->tasks[b]) {
			struct owner *o = p->tasks[b];

			p->tasks[b] = o->next;
			free_owner(o);
		}
	for (int i = 0; i < p->nr_cpus; i++)
		if (p->cpus[i])
			free_owner(p->cpus[i]);
	if (p->global)
		free_owner(p->global);
	free(p->cpus);
	while (p->mates) {
		struct mate *m = p->mates;

		p->mates = m->next;
		free(m);
	}
	free(p->evs);
	free(p);
}
