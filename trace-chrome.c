// SPDX-License-Identifier: GPL-2.0
/*
 * convert --to chrome-json: a trace.dat as the Trace Event Format.  Each CPU
 * is a thread of a "CPUs" process whose slices (B/E pairs) are the tasks
 * sched_switch ran there; function_graph entry/exit become nested B/E events of the task;
 * every other event is an instant event with its fields as args.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "trace-format.h"
#include "trace-outfile.h"
#include "trace-chrome.h"
#include "trace-keymap.h"

/* The pseudo process holding one track per CPU, far from any real pid. */
#define CPUS_PID	1000000000
#define FLUSH_AT	(1 << 20)
/* Tracks are per buffer and CPU: track = buffer * TRACKS_PER_BUFFER + cpu. */
#define TRACKS_PER_BUFFER 4096

/* A task: its name for the metadata, and its open function_graph calls. */
struct task {
	int		pid;
	char		*comm;
	uint64_t	*stack;
	int		depth, cap;
};

/* What runs on one CPU since when, per sched_switch. */
struct cpu_state {
	int		seen, running;
	uint64_t	first, start;
	int		pid;
	char		*comm;
};

struct chrome {
	const char		*output;
	FILE			*out;
	struct trace_input	*in;
	struct tep_handle	*tep;
	struct jbuf		b;
	int			nr_events;
	int			usecs;	/* timestamps convert to µs */
	uint64_t		last_ts;
	struct keymap		tasks;		/* pid -> struct task */
	struct cpu_state	*cpus;
	int			nr_cpus;
	struct tep_event	*sched_switch, *graph_entry, *graph_exit;
	struct tep_format_field	*prev_pid, *prev_comm, *next_pid, *next_comm;
	struct tep_format_field	*ge_func, *gx_func;
};

/* ---- tasks ------------------------------------------------------------- */

static struct task *task_of(struct chrome *c, int pid)
{
	bool added;
	struct task *t = keymap_get(&c->tasks, (uint32_t)pid, &added);

	if (added)
		t->pid = pid;
	return t;
}

/* The name a task goes by: the last comm sched_switch gave, else the saved cmdlines'. */
static void name_task(struct chrome *c, int pid, const char *comm)
{
	struct task *t = task_of(c, pid);

	if (comm) {
		if (!t->comm || strcmp(t->comm, comm)) {
			free(t->comm);
			t->comm = xstrdup(comm);
		}
	} else if (!t->comm) {
		t->comm = xstrdup(tep_data_comm_from_pid(c->tep, pid));
	}
}

/* ---- output ------------------------------------------------------------ */

static int flush_out(struct chrome *c)
{
	if (c->b.len && fwrite(c->b.data, 1, c->b.len, c->out) != c->b.len)
		return error("cannot write '%s': %s", c->output, strerror(errno));
	c->b.len = 0;
	return 0;
}

/* Starts one event object: {"name":NAME,"ph":"PH","pid":P,"tid":T */
static void begin_event(struct chrome *c, const char *name, const char *ph, int pid, int tid)
{
	struct jbuf *b = &c->b;

	jbuf_puts(b, c->nr_events++ ? ",\n{\"name\":" : "\n{\"name\":");
	jbuf_jstr(b, name, strlen(name));
	jbuf_puts(b, ",\"ph\":\"");
	jbuf_puts(b, ph);
	jbuf_puts(b, "\",\"pid\":");
	jbuf_i64(b, pid);
	jbuf_puts(b, ",\"tid\":");
	jbuf_i64(b, tid);
}

/* A time as the format wants it, µs with ns decimals; raw counts where the clock has no ns. */
static void put_time(struct chrome *c, uint64_t t)
{
	jbuf_u64(&c->b, t / 1000);
	jbuf_putc(&c->b, '.');
	jbuf_putc(&c->b, '0' + (t / 100) % 10);
	jbuf_putc(&c->b, '0' + (t / 10) % 10);
	jbuf_putc(&c->b, '0' + t % 10);
}

static void put_ts(struct chrome *c, const char *key, uint64_t ts)
{
	uint64_t ns;

	jbuf_puts(&c->b, key);
	if (c->usecs && trace_format_ts_ns(c->in, ts, &ns))
		put_time(c, ns);
	else
		jbuf_u64(&c->b, ts);
}

static void put_metadata(struct chrome *c, const char *what, int pid, int tid,
			 const char *name)
{
	begin_event(c, what, "M", pid, tid);
	jbuf_puts(&c->b, ",\"args\":{\"name\":");
	jbuf_jstr(&c->b, name, strlen(name));
	jbuf_puts(&c->b, "}}");
}

/* ---- sched_switch: per-CPU slices -------------------------------------- */

static struct cpu_state *cpu_of(struct chrome *c, int cpu)
{
	if (cpu >= c->nr_cpus) {
		int n = cpu + 1;

		c->cpus = xrealloc(c->cpus, n * sizeof(*c->cpus));
		memset(c->cpus + c->nr_cpus, 0, (n - c->nr_cpus) * sizeof(*c->cpus));
		c->nr_cpus = n;
	}
	return &c->cpus[cpu];
}

/*
 * A CPU's slices are B/E pairs, not X events: the E closing one task and the
 * B opening the next are written with the same timestamp text, so they meet
 * exactly in any viewer's arithmetic.  An X's ts + dur, summed in binary
 * floating point, can land a hair past the next slice's ts, and viewers
 * (speedscope) then nest the slices instead of laying them side by side.
 * The E repeats the B's args: speedscope matches an E to its B by both.
 */
static void slice_event(struct chrome *c, int track, const char *ph, uint64_t ts)
{
	struct cpu_state *s = &c->cpus[track];

	begin_event(c, s->comm, ph, CPUS_PID, CPUS_PID + track);
	jbuf_puts(&c->b, ",\"cat\":\"sched\"");
	put_ts(c, ",\"ts\":", ts);
	jbuf_puts(&c->b, ",\"args\":{\"pid\":");
	jbuf_i64(&c->b, s->pid);
	jbuf_puts(&c->b, "}}");
}

static void close_slice(struct chrome *c, int track, uint64_t end)
{
	struct cpu_state *s = &c->cpus[track];

	if (!s->running)
		return;
	slice_event(c, track, "E", end);
	s->running = 0;
}

static void open_slice(struct chrome *c, int track, int pid, const char *comm, uint64_t start)
{
	struct cpu_state *s = &c->cpus[track];

	free(s->comm);
	s->comm = xstrdup(comm);
	s->pid = pid;
	s->running = 1;
	slice_event(c, track, "B", start);
}

static void read_comm(struct tep_format_field *f, struct tep_record *rec, char *buf, size_t size)
{
	size_t n = (size_t)f->size < size - 1 ? (size_t)f->size : size - 1;

	if (f->offset + f->size > rec->size)
		n = 0;
	memcpy(buf, (const char *)rec->data + f->offset, n);
	buf[n] = 0;
	buf[strnlen(buf, n)] = 0;
}

static unsigned long long num(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f->offset + f->size <= rec->size)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

static void sched_switch(struct chrome *c, struct tep_record *rec, int track)
{
	struct cpu_state *s = &c->cpus[track];
	char prev[64], next[64];
	int prev_pid = (int)num(c->prev_pid, rec), next_pid = (int)num(c->next_pid, rec);

	read_comm(c->prev_comm, rec, prev, sizeof(prev));
	read_comm(c->next_comm, rec, next, sizeof(next));
	name_task(c, prev_pid, prev);
	name_task(c, next_pid, next);
	/* What ran before the first switch ran since the CPU's first event. */
	if (!s->running && !s->comm)
		open_slice(c, track, prev_pid, prev, s->first);
	/* the same task again goes on in its slice: a new one would start where it ends */
	if (s->running && s->pid == next_pid && !strcmp(s->comm, next))
		return;
	close_slice(c, track, rec->ts);
	open_slice(c, track, next_pid, next, rec->ts);
}

/* ---- function_graph: nested B/E ---------------------------------------- */

static void func_name(struct chrome *c, uint64_t addr, char *buf, size_t size)
{
	const char *name = tep_find_function(c->tep, addr);

	if (name)
		snprintf(buf, size, "%s", name);
	else
		snprintf(buf, size, "0x%llx", (unsigned long long)addr);
}

static void end_call(struct chrome *c, struct task *t, uint64_t ts)
{
	char name[256];

	func_name(c, t->stack[--t->depth], name, sizeof(name));
	begin_event(c, name, "E", t->pid, t->pid);
	put_ts(c, ",\"ts\":", ts);
	jbuf_puts(&c->b, ",\"cat\":\"funcgraph\"}");
}

static void graph_entry(struct chrome *c, struct tep_record *rec, int pid)
{
	struct task *t = task_of(c, pid);
	uint64_t func = num(c->ge_func, rec);
	char name[256];

	if (t->depth == t->cap) {
		t->cap = t->cap ? t->cap * 2 : 16;
		t->stack = xrealloc(t->stack, t->cap * sizeof(*t->stack));
	}
	t->stack[t->depth++] = func;
	func_name(c, func, name, sizeof(name));
	begin_event(c, name, "B", pid, pid);
	put_ts(c, ",\"ts\":", rec->ts);
	jbuf_puts(&c->b, ",\"cat\":\"funcgraph\"}");
}

/*
 * An exit closes its entry and any call left open inside it (an exit lost
 * with dropped events); an exit whose entry came before the trace started
 * has nothing to close and is left out, so B and E stay balanced.
 */
static void graph_exit(struct chrome *c, struct tep_record *rec, int pid)
{
	struct task *t = task_of(c, pid);
	uint64_t func = num(c->gx_func, rec);
	int i;

	for (i = t->depth - 1; i >= 0 && t->stack[i] != func; i--)
		;
	if (i < 0)
		return;
	while (t->depth > i)
		end_call(c, t, rec->ts);
}

/* ---- every other event ------------------------------------------------- */

/*
 * Phase "I": the spec's "i" is one that DevTools' engine drops (it takes only
 * Chrome's own "I"), and Perfetto's importer takes both.  The idle task, pid
 * 0, is one task per CPU, so its events go on the CPU's track: Perfetto drops
 * a thread's instant event whose tid is 0.
 */
static void instant(struct chrome *c, struct tep_record *rec, struct tep_event *ev, int pid,
		    int track)
{
	if (pid)
		begin_event(c, ev->name, "I", pid, pid);
	else
		begin_event(c, ev->name, "I", CPUS_PID, CPUS_PID + track);
	jbuf_puts(&c->b, ",\"cat\":");
	jbuf_jstr(&c->b, ev->system, strlen(ev->system));
	jbuf_puts(&c->b, ",\"s\":\"t\"");
	put_ts(c, ",\"ts\":", rec->ts);
	jbuf_puts(&c->b, ",\"args\":");
	trace_format_fields(&c->b, c->tep, ev, rec);
	jbuf_putc(&c->b, '}');
}

static void lost(struct chrome *c, struct tep_record *rec, int track)
{
	begin_event(c, "lost events", "I", CPUS_PID, CPUS_PID + track);
	jbuf_puts(&c->b, ",\"cat\":\"lost\",\"s\":\"t\"");
	put_ts(c, ",\"ts\":", rec->ts);
	jbuf_puts(&c->b, ",\"args\":{\"count\":");
	if (rec->missed_events > 0)
		jbuf_u64(&c->b, rec->missed_events);
	else
		jbuf_puts(&c->b, "null");
	jbuf_puts(&c->b, "}}");
}

static void one_record(struct chrome *c, struct tep_record *rec, int buffer)
{
	struct tep_event *ev = tep_find_event_by_record(c->tep, rec);
	int track = buffer * TRACKS_PER_BUFFER + rec->cpu;
	struct cpu_state *s = cpu_of(c, track);
	int pid = tep_data_pid(c->tep, rec);

	if (!s->seen) {
		s->seen = 1;
		s->first = rec->ts;
	}
	c->last_ts = rec->ts;
	if (rec->missed_events)
		lost(c, rec, track);
	if (!ev)
		return;
	name_task(c, pid, NULL);
	if (ev == c->sched_switch)
		sched_switch(c, rec, track);
	else if (ev == c->graph_entry)
		graph_entry(c, rec, pid);
	else if (ev == c->graph_exit)
		graph_exit(c, rec, pid);
	else
		instant(c, rec, ev, pid, track);
}

/* ---- the whole file ---------------------------------------------------- */

static void find_events(struct chrome *c)
{
	c->sched_switch = tep_find_event_by_name(c->tep, "sched", "sched_switch");
	if (c->sched_switch) {
		c->prev_pid = tep_find_field(c->sched_switch, "prev_pid");
		c->prev_comm = tep_find_field(c->sched_switch, "prev_comm");
		c->next_pid = tep_find_field(c->sched_switch, "next_pid");
		c->next_comm = tep_find_field(c->sched_switch, "next_comm");
		if (!c->prev_pid || !c->prev_comm || !c->next_pid || !c->next_comm)
			c->sched_switch = NULL;
	}
	c->graph_entry = tep_find_event_by_name(c->tep, "ftrace", "funcgraph_entry");
	c->graph_exit = tep_find_event_by_name(c->tep, "ftrace", "funcgraph_exit");
	c->ge_func = c->graph_entry ? tep_find_field(c->graph_entry, "func") : NULL;
	c->gx_func = c->graph_exit ? tep_find_field(c->graph_exit, "func") : NULL;
	if (!c->ge_func || !c->gx_func)
		c->graph_entry = c->graph_exit = NULL;
}

/* Closes what is still open at the end, then names the processes and threads. */
static void finish_events(struct chrome *c)
{
	char name[300];

	for (int t = 0; t < c->nr_cpus; t++)
		close_slice(c, t, c->last_ts);
	for (size_t i = 0; i < c->tasks.slots; i++) {
		struct task *t = keymap_slot(&c->tasks, i);

		if (!t)
			continue;
		while (t->depth)
			end_call(c, t, c->last_ts);
		put_metadata(c, "process_name", t->pid, t->pid, t->comm);
		put_metadata(c, "thread_name", t->pid, t->pid, t->comm);
	}
	if (!c->nr_cpus)
		return;
	put_metadata(c, "process_name", CPUS_PID, CPUS_PID, "CPUs");
	for (int t = 0; t < c->nr_cpus; t++) {
		const char *buffer = trace_input_buffer_name(c->in, t / TRACKS_PER_BUFFER);

		if (!c->cpus[t].seen)
			continue;
		/* an instance's CPUs are tracks of their own, named after it */
		snprintf(name, sizeof(name), "%s%sCPU %d", buffer, *buffer ? " " : "",
			 t % TRACKS_PER_BUFFER);
		put_metadata(c, "thread_name", CPUS_PID, CPUS_PID + t, name);
		begin_event(c, "thread_sort_index", "M", CPUS_PID, CPUS_PID + t);
		jbuf_puts(&c->b, ",\"args\":{\"sort_index\":");
		jbuf_u64(&c->b, t);
		jbuf_puts(&c->b, "}}");
	}
}

/* The closing metadata: the clock, and what the timestamps are in. */
static void finish_file(struct chrome *c)
{
	const char *clock = trace_input_clock(c->in);
	struct jbuf *b = &c->b;

	if (!clock || !*clock)
		clock = "local";
	jbuf_puts(b, "\n],\n\"displayTimeUnit\":\"ns\",\n\"otherData\":{\"source\":");
	jbuf_jstr(b, trace_input_file(c->in), strlen(trace_input_file(c->in)));
	jbuf_puts(b, ",\"clock\":");
	jbuf_jstr(b, clock, strlen(clock));
	if (c->usecs)
		jbuf_puts(b, ",\"ts_unit\":\"us\"");
	else
		jbuf_puts(b, ",\"ts_unit\":\"raw counter\",\"note\":\"the trace clock is a raw "
			  "counter with no conversion to time in the file: ts and dur are counter "
			  "ticks, not microseconds\"");
	jbuf_puts(b, "}}\n");
}

static int export(struct chrome *c)
{
	struct tep_record *rec;
	uint64_t ns;
	int buffer, ret;

	c->tep = trace_input_tep(c->in);
	c->usecs = trace_format_ts_ns(c->in, 0, &ns);
	find_events(c);
	jbuf_puts(&c->b, "{\"traceEvents\":[");
	while ((ret = trace_input_next(c->in, &rec, &buffer)) > 0) {
		one_record(c, rec, buffer);
		if (c->b.len >= FLUSH_AT && flush_out(c) < 0)
			return -1;
	}
	if (ret < 0)
		return -1;
	finish_events(c);
	finish_file(c);
	return flush_out(c);
}

/* What the export holds, freed whether it ended or stopped at a damaged record. */
static void free_chrome(struct chrome *c)
{
	for (int t = 0; t < c->nr_cpus; t++)
		free(c->cpus[t].comm);
	for (size_t i = 0; i < c->tasks.slots; i++) {
		struct task *t = keymap_slot(&c->tasks, i);

		if (t) {
			free(t->comm);
			free(t->stack);
		}
	}
	jbuf_free(&c->b);
	keymap_free(&c->tasks);
	free(c->cpus);
	trace_input_close(c->in);
}

/* To a file: never the input, and what was there stays if the export fails. */
static int export_to_file(struct chrome *c, const char *input, const char *output)
{
	const char *inputs[] = { input, NULL };
	struct outfile f;
	int ret;

	if (outfile_open(&f, output, inputs) < 0)
		return -1;
	c->out = fdopen(f.fd, "w");
	if (!c->out) {
		ret = errno;
		outfile_abort(&f);
		return error("cannot write '%s': %s", output, strerror(ret));
	}
	f.fd = -1;	/* fclose() closes it */
	ret = export(c);
	if (fclose(c->out) && !ret)
		ret = error("cannot write '%s': %s", output, strerror(errno));
	if (ret < 0) {
		outfile_abort(&f);
		return -1;
	}
	return outfile_commit(&f);
}

static int export_to_stdout(struct chrome *c)
{
	int ret;

	c->out = stdout;
	ret = export(c);
	if (fflush(stdout) && !ret)
		ret = error("cannot write to stdout: %s", strerror(errno));
	return ret;
}

int trace_chrome_export(const char *input, const char *output)
{
	struct chrome c = { .output = output, .tasks = KEYMAP_INIT(struct task) };
	int ret;

	c.in = trace_input_open(input, 0);
	if (!c.in)
		return -1;
	if (trace_input_is_latency(c.in))
		ret = error("'%s': a latency tracer's text has no events to convert", input);
	else if (strcmp(output, "-"))
		ret = export_to_file(&c, input, output);
	else
		ret = export_to_stdout(&c);
	free_chrome(&c);
	return ret;
}
