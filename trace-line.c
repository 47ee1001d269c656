// SPDX-License-Identifier: GPL-2.0
/*
 * report's event lines, as upstream 3.1.6 prints them (libtraceevent with its
 * plugins): the prefix, the event's name and text (trace-print.c), the
 * function graph, -l, --ts-diff, -w; or a --format record (trace-format.c).
 * report and stream both print through it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "trace-format.h"
#include "trace-print.h"
#include "trace-line.h"
#include "trace-page.h"
#include "trace-debug.h"
#include "trace-parallel.h"

#define COMM_CACHE	4096
#define EVENT_CACHE	65536

/* A task's name and its length, which every line's prefix needs. */
struct task_name {
	const char	*comm;
	size_t		len;
};

struct comm_slot {
	int		pid;
	struct task_name name;
	int		json_plain;	/* the name needs no JSON escaping (jsonl's text) */
};

/*
 * A thread's prefix pieces kept from line to line: the "comm-pid" columns
 * of the tasks seen last, and the time stamp's seconds.
 */
#define TASK_COL_CACHE	64

struct task_col {
	int		pid;
	size_t		comm_len;
	size_t		len;		/* 0: empty */
	char		text[96 + COPY_SLACK];
};

struct prefix_cache {
	struct task_col	tasks[TASK_COL_CACHE];
	unsigned long long sec;
	size_t		sec_len;	/* 0: none yet */
	char		sec_text[32];
};

struct wake_stats {
	uint64_t	total, count, max, max_ts, min, min_ts;
};

struct trace_line {
	struct line_opts opts;
	int		nr_files;	/* more than one: lines start with a label */
	int		label_width;	/* then: the widest file or buffer name */
	struct trace_format *fmt;	/* --format's writer; NULL for text */
	struct trace_seq s;		/* the line being built */
	uint64_t	last_ts;	/* --ts-diff: the line before's */
	uint64_t	*woken;		/* -w: wakeup time + 1 by pid (0: none pending) */
	struct wake_stats wake, wake_rt;
	/*
	 * The latency column's lock-depth and migrate-disable digits: 1 shown,
	 * -1 not, 0 not decided yet.  libtraceevent decides once per process,
	 * from the first file whose line it prints, and keeps to it for every
	 * file after (one without the field then shows '.').
	 */
	int		lock_depth_col, migrate_col;
	/*
	 * report's lines formatted in other threads (trace-parallel.c), once
	 * allowed and past the first PARALLEL_AFTER lines: only the plain
	 * lines of @par_src, everything else formatted here and queued as
	 * text between them.
	 */
	int		parallel_ok;
	unsigned long	lines;
	struct par_out	*par;
	struct line_source *par_src;
	struct trace_seq fallback_s;	/* a queued line libtraceevent must print */
	struct line_worker *here;	/* this thread's scratch for those */
	struct prefix_cache prefix;	/* this thread's */
};

/* One input's records and what depends on its own tep handle. */
struct line_source {
	struct trace_input *in;
	struct tep_handle *tep;
	const char	*label;		/* its file's base name, as upstream labels merged files */
	int		multi_buffer;
	int		name_width;	/* the widest buffer name, with several */
	const char	*time_fmt;	/* -l's time column */
	int		usecs;
	struct tep_event *graph_entry, *graph_exit;
	struct tep_format_field *ge_func, *ge_depth, *gx_func, *gx_depth, *gx_calltime,
				*gx_rettime;
	/* The common fields of the latency column (NULL: the file has none). */
	int		lat_learnt;
	struct tep_format_field *lat_flags, *lat_pc, *lat_lock_depth, *lat_migrate;
	struct tep_event **events;	/* by id: tep_find_event() searches each time */
	struct event_name *names;	/* by id: " name: " as printed */
	int		names_end;	/* 1 + the highest id in names */
	struct comm_slot *comms;
	const char	**buffer_names;	/* stream's buffers, which @in does not hold */
	const struct line_next *next;	/* stream's records, which @in does not read */
	struct trace_printer *printer;	/* each event's print fmt, compiled */
};

/*
 * An event's name as a line shows it, and its length, which every line
 * needs (sixteen bytes: an array of them is indexed by the line's event id).
 */
struct event_name {
	char		*text;
	unsigned int	len;
	int		json_plain;	/* needs no JSON escaping (jsonl's text) */
};

/* The event name as upstream spaces it: " name: " padded to 20 columns. */
static char *name_text(struct tep_event *ev)
{
	const char *name = ev ? ev->name : "(NULL)";
	size_t len = strlen(name);
	char *text = xmalloc(len + 24 + COPY_SLACK);

	sprintf(text, " %s: %*s", name, len < 20 ? (int)(20 - len) : 0, "");
	return text;
}

/* Up to names_end only: the rest of the 512 KB was never touched. */
static void free_names(struct line_source *src)
{
	for (int id = 0; src->names && id < src->names_end; id++)
		free(src->names[id].text);
	free(src->names);
}

/* The cached name_text() of an event whose id is below EVENT_CACHE. */
static const struct event_name *cached_name(struct line_source *src, struct tep_event *ev)
{
	struct event_name *name = &src->names[ev->id];

	if (!name->text) {
		name->text = name_text(ev);
		name->len = strlen(name->text);
		name->json_plain = trace_format_json_plain(name->text, name->len);
		if (ev->id >= src->names_end)
			src->names_end = ev->id + 1;
	}
	return name;
}

static void print_name(struct line_source *src, struct trace_seq *s, struct tep_event *ev)
{
	char *text;

	if (!ev || ev->id < 0 || ev->id >= EVENT_CACHE) {
		text = name_text(ev);
		trace_seq_puts(s, text);
		free(text);
		return;
	}
	trace_seq_puts(s, cached_name(src, ev)->text);
}

/*
 * Upstream's function graph options, set with -O [fgraph:]tailprint and
 * -O [fgraph:]depth: the function's name after each closing brace, and each
 * call's depth.
 */
static struct tep_plugin_option graph_options[] = {
	{ .name = "tailprint", .plugin_alias = "fgraph",
	  .description = "Print function name at function exit in function graph" },
	{ .name = "depth", .plugin_alias = "fgraph",
	  .description = "Show the depth of each entry" },
	{ .name = NULL }
};

static int graph_option(int i)
{
	const char *v = graph_options[i].value;

	return graph_options[i].set && (!v || strcmp(v, "0"));
}

void trace_line_register_options(void)
{
	static int registered;

	if (!registered++)
		tep_plugin_add_options("fgraph", graph_options);
}

void line_source_setup_graph(struct line_source *src)
{
	trace_line_register_options();
	src->graph_entry = trace_input_event_by_name(src->in, "ftrace", "funcgraph_entry");
	src->graph_exit = trace_input_event_by_name(src->in, "ftrace", "funcgraph_exit");
	if (src->graph_entry) {
		src->ge_func = tep_find_field(src->graph_entry, "func");
		src->ge_depth = tep_find_field(src->graph_entry, "depth");
		if (!src->ge_func || !src->ge_depth)
			src->graph_entry = NULL;
	}
	if (src->graph_exit) {
		src->gx_func = tep_find_field(src->graph_exit, "func");
		src->gx_depth = tep_find_field(src->graph_exit, "depth");
		src->gx_calltime = tep_find_field(src->graph_exit, "calltime");
		src->gx_rettime = tep_find_field(src->graph_exit, "rettime");
		if (!src->gx_func || !src->gx_depth || !src->gx_calltime || !src->gx_rettime)
			src->graph_exit = NULL;
	}
}

static unsigned long long field_val(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field(f, rec->data, &v);
	return v;
}

/* A graph duration: a mark for long ones, then microseconds, 13 columns then '|'. */
static void graph_duration(struct trace_seq *s, unsigned long long ns)
{
	unsigned long long us = ns / 1000;
	/* Upstream compares nanoseconds: 10.355 us is over 10 us ('+'). */
	char mark = ns > 1000000000ULL ? '$' : ns > 1000000 ? '#' : ns > 100000 ? '!' :
		    ns > 10000 ? '+' : ' ';
	char buf[48];
	int len;

	if (us < 1000000)
		len = snprintf(buf, sizeof(buf), "%llu.%03llu", us, ns % 1000);
	else
		len = snprintf(buf, sizeof(buf), "%llu", us);
	trace_seq_printf(s, "%c %s us%*s|", mark, buf, len < 8 ? 8 - len : 1, "");
}

/*
 * The indent of a call at DEPTH: two columns a level, as upstream.  The
 * kernel's return stack holds at most a few hundred calls; a damaged file's
 * depth of a billion would be gigabytes of blanks (upstream's int cast
 * prints some of those and drops others), so deeper calls are drawn at the
 * deepest real level; -O depth still shows the number read.
 */
#define GRAPH_MAX_DEPTH 512

static void graph_indent(struct trace_seq *s, unsigned long long depth)
{
	if (depth > GRAPH_MAX_DEPTH)
		depth = GRAPH_MAX_DEPTH;
	trace_seq_printf(s, "%*s", (int)(2 + 2 * depth), "");
}

static void graph_func(struct line_source *src, struct trace_seq *s, unsigned long long addr)
{
	const char *name;

	trace_input_load_functions(src->in);
	name = tep_find_function(src->tep, addr);

	if (name)
		trace_seq_puts(s, name);
	else
		trace_seq_printf(s, "0x%llx", addr);
}

/* The record after @rec on its CPU, if read yet: from @in, or stream's reader. */
static int peek_next(struct line_source *src, struct tep_record *rec, struct tep_record *next)
{
	if (src->next)
		return src->next->peek(src->next->ctx, rec, next);
	return trace_input_peek_same_cpu(src->in, rec, next);
}

static void skip_next(struct line_source *src, struct tep_record *rec)
{
	if (src->next)
		src->next->skip(src->next->ctx, rec);
	else
		trace_input_skip_next_same_cpu(src->in, rec);
}

/*
 * The function graph as upstream trace-cmd draws it: an entry whose exit is
 * the next record on its CPU is a leaf, "func();" with its duration, and the
 * exit is not shown; other entries open "func() {", exits close "}".
 */
static int print_graph(struct trace_line *l, struct line_source *src, struct trace_seq *s,
		       struct tep_record *rec, struct tep_event *ev)
{
	struct tep_record next;
	unsigned long long depth, func;

	/* Upstream's graph drawing goes away with the plugins (-N). */
	if (l->opts.raw || l->opts.no_plugins ||
	    (ev->flags & (TEP_EVENT_FL_NOHANDLE | TEP_EVENT_FL_PRINTRAW)))
		return 0;
	if (ev == src->graph_exit) {
		depth = field_val(src->gx_depth, rec);
		graph_duration(s, field_val(src->gx_rettime, rec) - field_val(src->gx_calltime, rec));
		graph_indent(s, depth);
		trace_seq_putc(s, '}');
		if (graph_option(0)) {
			trace_seq_puts(s, " /* ");
			graph_func(src, s, field_val(src->gx_func, rec));
			trace_seq_puts(s, " */");
		}
		if (graph_option(1))
			trace_seq_printf(s, " (%llu)", depth);
		return 1;
	}
	func = field_val(src->ge_func, rec);
	depth = field_val(src->ge_depth, rec);
	if (!l->fmt && src->graph_exit && peek_next(src, rec, &next) &&
	    tep_data_type(src->tep, &next) == src->graph_exit->id &&
	    tep_data_pid(src->tep, &next) == tep_data_pid(src->tep, rec) &&
	    field_val(src->gx_func, &next) == func) {
		graph_duration(s, field_val(src->gx_rettime, &next) -
				  field_val(src->gx_calltime, &next));
		graph_indent(s, depth);
		graph_func(src, s, func);
		trace_seq_puts(s, "();");
		if (graph_option(1))
			trace_seq_printf(s, " (%llu)", depth);
		skip_next(src, rec);
		return 1;
	}
	trace_seq_printf(s, "%13s|", "");
	graph_indent(s, depth);
	graph_func(src, s, func);
	trace_seq_puts(s, "() {");
	if (graph_option(1))
		trace_seq_printf(s, " (%llu)", depth);
	return 1;
}

static void print_ts_diff(struct trace_line *l, struct line_source *src, struct trace_seq *s,
			  struct tep_record *rec)
{
	uint64_t ts = rec->ts;
	char buf[50] = "";

	/*
	 * Upstream rounds to microseconds whenever the file names its clock,
	 * but not once --ts2secs has converted the timestamps: then ns.
	 */
	if (trace_input_clock_known(src->in) && !l->opts.nsec && !l->opts.ts2secs)
		ts = (ts + 500) / 1000;
	if (l->last_ts)
		snprintf(buf, sizeof(buf), "(+%lld)", (long long)(ts - l->last_ts));
	l->last_ts = ts;
	trace_seq_printf(s, " %-8s", buf);
}

/*
 * The fast path for the default line prefix: what tep_print_event would print
 * for "%16s-%-5d [%03d]" and the time formats, without its format parsing
 * and printf per field.  Tests compare it with upstream byte for byte.
 */
static struct task_name comm_of(struct line_source *src, int pid)
{
	struct comm_slot *c = &src->comms[(unsigned int)pid % COMM_CACHE];
	struct task_name name;

	if (c->name.comm && c->pid == pid)
		return c->name;
	name.comm = tep_data_comm_from_pid(src->tep, pid);
	name.len = strlen(name.comm);
	/*
	 * An unknown task ("<...>") is not cached: the sched_switch plugin
	 * registers the names it prints, and upstream shows them from then on.
	 */
	if (strcmp(name.comm, "<...>")) {
		c->pid = pid;
		c->name = name;
		c->json_plain = trace_format_json_plain(name.comm, name.len);
	}
	return name;
}

/* Whether @comm, comm_of() @pid just now, needs no JSON escaping. */
static int comm_json_plain(const struct line_source *src, int pid, struct task_name comm)
{
	const struct comm_slot *c = &src->comms[(unsigned int)pid % COMM_CACHE];

	if (c->name.comm == comm.comm && c->pid == pid)
		return c->json_plain;
	return trace_format_json_plain(comm.comm, comm.len);
}

/*
 * The latency column (libtraceevent's TEP_PRINT_LATENCY) from the record's
 * common fields, found in the file's first event as libtraceevent finds
 * them.  A field the file lacks reads as -1, as there.
 */
static void learn_latency_fields(struct line_source *src)
{
	struct tep_event *first = tep_get_first_event(src->tep);

	src->lat_learnt = 1;
	if (!first)
		return;
	src->lat_flags = tep_find_common_field(first, "common_flags");
	src->lat_pc = tep_find_common_field(first, "common_preempt_count");
	src->lat_lock_depth = tep_find_common_field(first, "common_lock_depth");
	src->lat_migrate = tep_find_common_field(first, "common_migrate_disable");
}

static long long common_val(const struct line_source *src, struct tep_format_field *f,
			    const struct tep_record *rec)
{
	if (!f)
		return -1;
	if (f->offset < 0 || f->size <= 0 || f->offset + f->size > rec->size)
		return 0;
	if (f->size == 1)	/* flags and preempt count: no byte order to mind */
		return ((const unsigned char *)rec->data)[f->offset];
	return tep_read_number(src->tep, (const char *)rec->data + f->offset, f->size);
}

/*
 * The optional digits of the column: shown once the first file whose line
 * is printed had their fields.  Decided before a line's prefix is made, in
 * report's own thread.
 */
static void decide_extra_cols(struct trace_line *l, const struct line_source *src)
{
	if (!l->migrate_col)
		l->migrate_col = src->lat_migrate ? 1 : -1;
	if (!l->lock_depth_col)
		l->lock_depth_col = src->lat_lock_depth ? 1 : -1;
}

static char *put_extra_col(char *p, int col, long long v)
{
	if (col < 0)
		return p;
	if ((int)v < 0)
		*p++ = '.';
	else
		p = put_decimal(p, (int)v, 0, ' ');
	return p;
}

static char *put_hex(char *p, unsigned int v)
{
	static const char digits[] = "0123456789abcdef";
	char tmp[8];
	int n = 0;

	do {
		tmp[n++] = digits[v & 0xf];
		v >>= 4;
	} while (v);
	while (n)
		*p++ = tmp[--n];
	return p;
}

/* "d..1." and the like: irqs off, need-resched, irq context, preempt depths. */
static char *latency_text(const struct trace_line *l, const struct line_source *src,
			  const struct tep_record *rec, char *p)
{
	unsigned int flags, pc;
	int hardirq, softirq;

	flags = (unsigned int)common_val(src, src->lat_flags, rec);
	pc = (unsigned int)common_val(src, src->lat_pc, rec);
	hardirq = flags & TRACE_FLAG_HARDIRQ;
	softirq = flags & TRACE_FLAG_SOFTIRQ;
	*p++ = (flags & TRACE_FLAG_IRQS_OFF) ? 'd' : (flags & TRACE_FLAG_IRQS_NOSUPPORT) ? 'X' : '.';
	*p++ = (flags & TRACE_FLAG_NEED_RESCHED) ? 'N' : '.';
	*p++ = hardirq && softirq ? 'H' : hardirq ? 'h' : softirq ? 's' : '.';
	if (pc & 0xf)
		p = put_hex(p, pc & 0xf);
	else
		*p++ = '.';
	if (pc & 0xf0)
		p = put_hex(p, pc >> 4);
	else
		*p++ = '.';
	p = put_extra_col(p, l->migrate_col, common_val(src, src->lat_migrate, rec));
	return put_extra_col(p, l->lock_depth_col, common_val(src, src->lat_lock_depth, rec));
}

/*
 * "COMM-PID [CPU] LAT TIME:" as upstream 3.3 and later print it (without LAT
 * as 3.1 did, --line-3.1), into @line (PREFIX_MAX bytes).
 */
#define PREFIX_MAX	192

/* "      comm-pid  ": the column before '[', @comm cut at 60 bytes. */
static size_t task_col_text(char *line, int pid, struct task_name comm)
{
	char *p = line;
	size_t len = comm.len > 60 ? 60 : comm.len;
	char *start;

	for (size_t i = len; i < 16; i++)
		*p++ = ' ';
	memcpy(p, comm.comm, len);
	p += len;
	*p++ = '-';
	start = p;
	if (pid < 0) {
		*p++ = '-';
		p = put_decimal(p, -(long long)pid, 0, ' ');
	} else {
		p = put_decimal(p, pid, 0, ' ');
	}
	while (p - start < 5)
		*p++ = ' ';
	*p++ = ' ';
	return p - line;
}

/* The cached column of @pid if it was made from the same name. */
static const struct task_col *task_col_of(struct prefix_cache *pc, int pid, struct task_name comm)
{
	struct task_col *c = &pc->tasks[(unsigned int)pid % TASK_COL_CACHE];
	size_t len = comm.len > 60 ? 60 : comm.len;

	if (!c->len || c->pid != pid || c->comm_len != comm.len ||
	    memcmp(c->text + (len < 16 ? 16 - len : 0), comm.comm, len)) {
		c->pid = pid;
		c->comm_len = comm.len;
		c->len = task_col_text(c->text, pid, comm);
	}
	return c;
}

/* " SSSSS.": the time stamp's seconds, the same for many lines. */
static char *put_seconds(struct prefix_cache *pc, char *p, unsigned long long sec)
{
	if (!pc->sec_len || pc->sec != sec) {
		char *q = pc->sec_text;

		*q++ = ' ';
		q = put_decimal(q, sec, 5, ' ');
		*q++ = '.';
		pc->sec = sec;
		pc->sec_len = q - pc->sec_text;
	}
	copy_slack(p, pc->sec_text, pc->sec_len);
	return p + pc->sec_len;
}

static size_t prefix_of(const struct trace_line *l, const struct line_source *src,
			struct prefix_cache *pc, const struct tep_record *rec, int pid,
			struct task_name comm, char *line)
{
	const struct task_col *col = task_col_of(pc, pid, comm);
	char *p = line;

	copy_slack(p, col->text, col->len);
	p += col->len;
	*p++ = '[';
	if ((unsigned int)rec->cpu < 1000)
		p = put_fixed_digits(p, rec->cpu, 3);
	else
		p = put_decimal(p, rec->cpu, 3, '0');
	*p++ = ']';
	if (l->opts.line_31) {
		/* trace-cmd 3.1: no latency column */
	} else if (l->opts.raw) {
		/* -R: the flags' value, as -l -R prints it */
		*p++ = '-';
		*p++ = '0';
		*p++ = 'x';
		p = put_hex(p, (unsigned int)common_val(src, src->lat_flags, rec));
	} else {
		*p++ = ' ';
		p = latency_text(l, src, rec, p);
	}
	if (!src->usecs) {
		p = put_decimal(p, rec->ts, 12, ' ');
	} else if (l->opts.nsec) {
		p = put_seconds(pc, p, rec->ts / 1000000000ULL);
		p = put_fixed_digits(p, rec->ts % 1000000000ULL, 9);
	} else {
		unsigned long long us = (rec->ts + 500) / 1000;

		p = put_seconds(pc, p, us / 1000000);
		p = put_fixed_digits(p, us % 1000000, 6);
	}
	*p++ = ':';
	*p = 0;
	return p - line;
}

static size_t prefix_text(struct trace_line *l, struct line_source *src, struct tep_record *rec,
			  char *line)
{
	int pid = trace_input_record_pid(src->in, rec);

	if (!src->lat_learnt)
		learn_latency_fields(src);
	decide_extra_cols(l, src);
	return prefix_of(l, src, &l->prefix, rec, pid, comm_of(src, pid), line);
}

static void fast_prefix(struct trace_line *l, struct line_source *src, struct trace_seq *s,
			struct tep_record *rec)
{
	char line[PREFIX_MAX];
	size_t len = prefix_text(l, src, rec, line);

	seq_put_text(s, line, len);
}

/*
 * The prefix as libtraceevent prints it, the reference the fast one is
 * tested against (TRACE_CMD_SLOW_PRINT).
 */
static void slow_prefix(struct trace_line *l, struct line_source *src, struct trace_seq *s,
			struct tep_record *rec)
{
	tep_print_event(src->tep, s, rec, "%16s-%-5d [%03d]", TEP_PRINT_COMM, TEP_PRINT_PID,
			TEP_PRINT_CPU);
	if (l->opts.raw && !l->opts.line_31)
		trace_seq_printf(s, "-0x%x", tep_data_flags(src->tep, rec));
	else if (!l->opts.line_31)
		tep_print_event(src->tep, s, rec, " %s", TEP_PRINT_LATENCY);
	tep_print_event(src->tep, s, rec, src->time_fmt, TEP_PRINT_TIME);
}

/* tep_find_event_by_record() searches every time; ids are small, so cache them. */
static struct tep_event *event_of(struct line_source *src, struct tep_record *rec)
{
	int id = trace_input_record_type(src->in, rec);

	if (id < 0 || id >= EVENT_CACHE)
		return tep_find_event(src->tep, id);
	if (!src->events[id])
		src->events[id] = tep_find_event(src->tep, id);
	return src->events[id];
}

/*
 * -w: a sched_wakeup (or _new) notes when its task was woken; the
 * sched_switch to that task shows the latency, and the end a summary, as
 * upstream prints them.
 */
#define MAX_WAKE_PID	(1 << 22)

static struct tep_format_field *field_of(struct tep_event *ev, const char *name)
{
	return ev ? tep_find_field(ev, name) : NULL;
}

static void add_wake(struct wake_stats *st, uint64_t lat, uint64_t ts)
{
	if (!st->count || lat > st->max) {
		st->max = lat;
		st->max_ts = ts;
	}
	if (!st->count || lat < st->min) {
		st->min = lat;
		st->min_ts = ts;
	}
	st->total += lat;
	st->count++;
}

static void wakeup_latency(struct trace_line *l, struct line_source *src, struct trace_seq *s,
			   struct tep_record *rec)
{
	struct tep_event *ev = event_of(src, rec);
	struct tep_format_field *f;
	uint64_t pid, lat;

	if (!ev || strcmp(ev->system, "sched"))
		return;
	if (!strcmp(ev->name, "sched_wakeup") || !strcmp(ev->name, "sched_wakeup_new")) {
		f = field_of(ev, "success");
		if (f && !field_val(f, rec))
			return;
		f = field_of(ev, "pid");
		if (!f || (pid = field_val(f, rec)) >= MAX_WAKE_PID)
			return;
		if (!l->woken)
			l->woken = xcalloc(MAX_WAKE_PID, sizeof(*l->woken));
		l->woken[pid] = rec->ts + 1;
		return;
	}
	if (strcmp(ev->name, "sched_switch") || !l->woken)
		return;
	f = field_of(ev, "next_pid");
	if (!f || (pid = field_val(f, rec)) >= MAX_WAKE_PID || !l->woken[pid])
		return;
	lat = rec->ts - (l->woken[pid] - 1);
	l->woken[pid] = 0;
	add_wake(&l->wake, lat, rec->ts);
	/* Real-time tasks (prio < 100) are also counted on their own. */
	f = field_of(ev, "next_prio");
	if (f && (int)field_val(f, rec) < 100)
		add_wake(&l->wake_rt, lat, rec->ts);
	trace_seq_printf(s, " Latency: %llu.%03llu usecs", (unsigned long long)(lat / 1000),
			 (unsigned long long)(lat % 1000));
}

static void print_wake_stats(struct wake_stats *st)
{
	uint64_t avg = st->total / st->count;

	printf("\nAverage wakeup latency: %llu.%03llu usecs\n", (unsigned long long)(avg / 1000),
	       (unsigned long long)(avg % 1000));
	printf("Maximum Latency: %llu.%03llu usecs at timestamp: %llu.%06llu\n",
	       (unsigned long long)(st->max / 1000), (unsigned long long)(st->max % 1000),
	       (unsigned long long)(st->max_ts / 1000000000ULL),
	       (unsigned long long)(((st->max_ts + 500) % 1000000000ULL) / 1000));
	printf("Minimum Latency: %llu.%03llu usecs at timestamp: %llu.%06llu\n\n",
	       (unsigned long long)(st->min / 1000), (unsigned long long)(st->min % 1000),
	       (unsigned long long)(st->min_ts / 1000000000ULL),
	       (unsigned long long)(((st->min_ts + 500) % 1000000000ULL) / 1000));
}

void trace_line_wakeup_summary(struct trace_line *l)
{
	if (l->wake.count)
		print_wake_stats(&l->wake);
	if (l->wake_rt.count) {
		printf("RT task timings:\n");
		print_wake_stats(&l->wake_rt);
	}
}

/* Buffer @buffer's name: "" for the top one. */
static const char *buffer_name(const struct line_source *src, int buffer)
{
	if (src->buffer_names)
		return src->buffer_names[buffer];
	return trace_input_buffer_name(src->in, buffer);
}

/*
 * Whether @rec's line is only prefix, name and the event's own text (with
 * --format, the text its record carries).
 */
static int plain_record(const struct trace_line *l, const struct line_source *src,
			const struct tep_record *rec, const struct tep_event *ev)
{
	return l->nr_files <= 1 && !src->multi_buffer && !rec->missed_events &&
	       !l->opts.boundary && !l->opts.debug && !l->opts.latency && !l->opts.ts_diff && !l->opts.wakeup && !l->opts.raw &&
	       ev && ev->id >= 0 &&
	       ev->id < EVENT_CACHE && ev != src->graph_entry && ev != src->graph_exit;
}

static int plain_line(const struct trace_line *l, const struct line_source *src,
		      const struct tep_record *rec, const struct tep_event *ev)
{
	return !l->fmt && plain_record(l, src, rec, ev);
}

/* A line's bytes: to stdout, or after the lines queued before it. */
static void line_write(struct trace_line *l, const char *text, size_t len)
{
	if (l->par)
		par_out_text(l->par, text, len);
	else
		fwrite_unlocked(text, 1, len, stdout);
}

/*
 * The common line, assembled in one buffer and written with one call: 0, or
 * -1 (nothing written) when its event has no compiled program.
 */
static int print_plain(struct trace_line *l, struct line_source *src, struct tep_record *rec,
		       struct tep_event *ev)
{
	char line[1024];
	const struct event_name *name;
	const char *text;
	size_t len, name_len, text_len;

	text = trace_printer_text(src->printer, ev, rec, 0, &text_len);
	if (!text)
		return -1;
	if (text_len && text[text_len - 1] == '\n')
		text_len--;
	len = prefix_text(l, src, rec, line);
	name = cached_name(src, ev);
	name_len = name->len;
	if (len + name_len + text_len + 1 + 2 * COPY_SLACK > sizeof(line)) {
		line_write(l, line, len);
		line_write(l, name->text, name_len);
		line_write(l, text, text_len);
		line_write(l, "\n", 1);
		return 0;
	}
	/* the name and the printer's line both have COPY_SLACK bytes to spare */
	copy_slack(line + len, name->text, name_len);
	len += name_len;
	copy_slack(line + len, text, text_len);
	len += text_len;
	line[len++] = '\n';
	line_write(l, line, len);
	return 0;
}

/*
 * A plain line queued for another thread: what it needs from this one (the
 * task's name as known now, the compiled program), then the record's data.
 */
struct plain_job {
	const struct trace_line	*l;
	const struct line_source *src;
	const struct print_program *prog;
	struct tep_event	*ev;
	struct task_name	comm;
	const struct event_name	*name;
	struct trace_format_prep prep;	/* --format's */
	uint64_t		ts;
	int			cpu, pid, size, buffer;
	int			json_plain;	/* the line the program prints needs no escaping */
};

/* A worker's own printing state. */
struct line_worker {
	struct trace_printer	*runner;
	struct prefix_cache	prefix;
	struct trace_format_scratch fmt;	/* --format's */
};

static void *line_worker_new(void *arg)
{
	struct line_worker *w = xcalloc(1, sizeof(*w));
	struct trace_line *l = arg;

	w->runner = trace_printer_runner(l->par_src->printer);
	return w;
}

static void line_worker_free(void *ctx)
{
	struct line_worker *w = ctx;

	trace_printer_free(w->runner);
	jbuf_free(&w->fmt.cell);
	free(w);
}

static void job_record(const struct plain_job *j, struct tep_record *rec)
{
	memset(rec, 0, sizeof(*rec));
	rec->ts = j->ts;
	rec->cpu = j->cpu;
	rec->size = j->size;
	rec->data = (void *)(j + 1);
}

/* A job's "PREFIX NAME: " at @out's end, with room for @more bytes after it. */
static void put_job_head(struct prefix_cache *pc, const struct plain_job *j,
			 const struct tep_record *rec, size_t more, struct jbuf *out)
{
	size_t name_len = j->name->len;
	char *p;

	jbuf_reserve(out, PREFIX_MAX + name_len + more + COPY_SLACK);
	p = out->data + out->len;
	p += prefix_of(j->l, j->src, pc, rec, j->pid, j->comm, p);
	copy_slack(p, j->name->text, name_len);
	out->len = p + name_len - out->data;
}

/*
 * The job's head, then its event's text, the newline cut: libtraceevent's
 * @text, or when it is NULL the program run straight into @out.  0, or -1
 * with @out as it was when the program cannot print the record.
 */
static int put_job_text(struct line_worker *w, const struct plain_job *j, struct tep_record *rec,
			const char *text, size_t text_len, struct jbuf *out)
{
	size_t start = out->len;
	long n;

	if (text) {
		if (text_len && text[text_len - 1] == '\n')
			text_len--;
		put_job_head(&w->prefix, j, rec, text_len, out);
		memcpy(out->data + out->len, text, text_len);
		out->len += text_len;
		return 0;
	}
	put_job_head(&w->prefix, j, rec, 0, out);
	n = trace_printer_run_into(w->runner, j->prog, rec, &out->data, out->len, &out->size);
	if (n < 0) {
		out->len = start;
		return -1;
	}
	out->len += n;
	if (n && out->data[out->len - 1] == '\n')
		out->len--;
	return 0;
}

/*
 * The job's line, or with --format its record, in @out (the text as
 * put_job_text() takes it): 0, or -1 with @out as it was.
 */
static int put_job(struct line_worker *w, const struct plain_job *j, struct tep_record *rec,
		   const char *text, size_t text_len, struct jbuf *out)
{
	size_t start = out->len, text_at;
	/* the prefix is digits and marks but for the task's and event's names */
	int plain = !text && j->json_plain;

	if (!j->l->fmt) {
		if (put_job_text(w, j, rec, text, text_len, out) < 0)
			return -1;
		jbuf_putc(out, '\n');
		return 0;
	}
	trace_format_line_start(j->l->fmt, &j->prep, rec, j->buffer, out, &w->fmt);
	text_at = out->len;
	if (put_job_text(w, j, rec, text, text_len, out) < 0) {
		out->len = start;
		return -1;
	}
	trace_format_line_end(j->l->fmt, out, text_at, &w->fmt, plain);
	return 0;
}

static int format_job(void *ctx, const void *job, struct jbuf *out)
{
	struct line_worker *w = ctx;
	const struct plain_job *j = job;
	struct tep_record rec;

	job_record(j, &rec);
	return put_job(w, j, &rec, NULL, 0, out);
}

/* A record its program was not sure of: libtraceevent prints it, in this thread. */
static void format_job_here(void *arg, const void *job, struct jbuf *out)
{
	struct trace_line *l = arg;
	const struct plain_job *j = job;
	struct trace_seq *s = &l->fallback_s;
	struct tep_record rec;

	job_record(j, &rec);
	trace_seq_reset(s);
	trace_printer_print(j->src->printer, s, j->ev, &rec, 0);
	put_job(l->here, j, &rec, s->buffer, s->len, out);
}

static const struct par_ops line_par_ops = {
	.worker_new = line_worker_new,
	.worker_free = line_worker_free,
	.format = format_job,
	.fallback = format_job_here,
};

/* Lines printed before the threads start: a short read never starts them. */
#define PARALLEL_AFTER	16384
#define BATCH_LINES	2048
#define TEST_BATCH_LINES 7

/* The threads, started once past the first lines, if they may be. */
static void start_parallel(struct trace_line *l, struct line_source *src)
{
	const struct trace_debug *dbg;
	long threads;

	if (!l->parallel_ok || l->nr_files > 1)
		return;
	dbg = trace_debug();
	if (++l->lines < (dbg->threads_test ? 1 : PARALLEL_AFTER))
		return;
	l->parallel_ok = 0;	/* one try */
	threads = dbg->threads ? dbg->threads : sysconf(_SC_NPROCESSORS_ONLN);
	if (dbg->slow_print || threads < 2)
		return;
	/* What the workers read of @src and @l is settled here, before they run. */
	if (!src->lat_learnt)
		learn_latency_fields(src);
	decide_extra_cols(l, src);
	l->par_src = src;
	trace_seq_init(&l->fallback_s);
	l->here = line_worker_new(l);
	fflush(stdout);
	l->par = par_out_new(&line_par_ops, l, stdout, threads - 1,
			     dbg->threads_test ? TEST_BATCH_LINES : BATCH_LINES);
}

/* Queues @rec's plain line for a worker: 0, or -1 if it has no program. */
static int queue_plain(struct trace_line *l, struct line_source *src, struct tep_record *rec,
		       struct tep_event *ev, int buffer)
{
	const struct print_program *prog = trace_printer_program(src->printer, ev);
	struct trace_format_prep prep = { 0 };
	struct plain_job *j;
	int pid;

	if (!prog)
		return -1;
	pid = trace_input_record_pid(src->in, rec);
	if (l->fmt)
		trace_format_prepare_known(l->fmt, src->in, rec, ev->id, pid, &prep);
	j = par_out_job(l->par, sizeof(*j) + rec->size);
	j->prep = prep;
	j->buffer = buffer;
	j->l = l;
	j->src = src;
	j->prog = prog;
	j->ev = ev;
	j->comm = comm_of(src, pid);
	j->name = cached_name(src, ev);
	/* jsonl's alone: text lines pay nothing for it */
	j->json_plain = l->fmt && j->name->json_plain && comm_json_plain(src, pid, j->comm) &&
			trace_printer_program_json_plain(prog);
	j->ts = rec->ts;
	j->cpu = rec->cpu;
	j->pid = pid;
	j->size = rec->size;
	memcpy(j + 1, rec->data, rec->size);
	return 0;
}

/* A page header's time stamp: its first 8 bytes, in the file's order. */
static uint64_t page_header_ts(const struct trace_input_raw *raw)
{
	uint64_t v;

	memcpy(&v, raw->page, 8);
	return raw->big_endian != page_walk_host_big_endian() ? __builtin_bswap64(v) : v;
}

/*
 * --boundary and --debug: "CPU:N [SUBBUFFER START]" before a page's first
 * event (if it is shown), as upstream 3.4 marks it; --debug adds the page's time stamp and upstream's offset of it.
 */
static void print_boundary(const struct trace_line *l, struct line_source *src,
			   struct trace_seq *s, struct tep_record *rec)
{
	struct trace_input_raw raw;

	if (!trace_input_record_at_page_start(rec))
		return;
	trace_input_record_raw(rec, &raw);
	trace_seq_printf(s, "CPU:%d [SUBBUFFER START]", rec->cpu);
	if (l->opts.debug)
		trace_seq_printf(s, " [%lld:0x%llx]", (long long)page_header_ts(&raw),
				 (unsigned long long)(trace_input_record_offset(src->in, rec) &
						      ~(uint64_t)(raw.page_size - 1)));
	trace_seq_putc(s, '\n');
}

/*
 * --debug: " [delta:offset:size]" of the event (its header's delta, its
 * offset in the page, its payload size), then a line for each padding,
 * time extend or time stamp before the next event, as upstream 3.4 prints.
 */
static void print_debug(struct line_source *src, struct trace_seq *s, struct tep_record *rec)
{
	struct trace_input_raw raw;
	struct page_entry e;
	unsigned int pos;

	trace_input_record_raw(rec, &raw);
	if (!page_entry_at(raw.page, raw.data_start, raw.data_size, raw.big_endian, raw.offset, &e))
		return;
	trace_seq_printf(s, " [%d:0x%llx:%d]", (int)(e.delta & ((1U << PAGE_TS_BITS) - 1)),
			 (unsigned long long)(trace_input_record_offset(src->in, rec) &
					      (raw.page_size - 1)), rec->size);
	for (pos = e.next; page_entry_at(raw.page, raw.data_start, raw.data_size, raw.big_endian,
					  pos, &e) && e.type >= PAGE_TYPE_PADDING; pos = e.next) {
		static const char *const names[] = { "PADDING", "TIME EXTEND", "TIME STAMP" };

		trace_seq_printf(s, "\n %s: %s:%lld length:%u", names[e.type - PAGE_TYPE_PADDING],
				 e.type == PAGE_TYPE_TIME_STAMP ? "timestamp" : "delta",
				 (long long)e.delta, e.length);
	}
}

void trace_line_print(struct trace_line *l, struct line_source *src, struct tep_record *rec,
		      int buffer)
{
	struct trace_seq *s = &l->s;
	struct tep_event *ev = event_of(src, rec);
	size_t start, len;

	start_parallel(l, src);
	if (l->par && src == l->par_src && plain_record(l, src, rec, ev) &&
	    queue_plain(l, src, rec, ev, buffer) == 0)
		return;
	if (plain_line(l, src, rec, ev) && print_plain(l, src, rec, ev) == 0)
		return;
	trace_seq_reset(s);
	if (l->nr_files > 1) {
		const char *name = buffer_name(src, buffer);

		trace_seq_printf(s, "%*s: ", l->label_width, *name ? name : src->label);
	} else if (src->multi_buffer) {
		const char *name = buffer_name(src, buffer);

		if (*name)
			trace_seq_printf(s, "%*s: ", src->name_width, name);
		else
			trace_seq_printf(s, "%*s  ", src->name_width, "");
	}
	if (rec->missed_events > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]\n", rec->cpu,
				 (long long)rec->missed_events);
	else if (rec->missed_events < 0)
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]\n", rec->cpu);
	if (l->opts.boundary || l->opts.debug)
		print_boundary(l, src, s, rec);
	start = s->len;
	if (l->opts.latency) {
		tep_print_event(src->tep, s, rec, "%8.8s-%-5d %3d", TEP_PRINT_COMM, TEP_PRINT_PID,
				TEP_PRINT_CPU);
		if (l->opts.raw)
			trace_seq_printf(s, "-0x%x", tep_data_flags(src->tep, rec));
		else
			tep_print_event(src->tep, s, rec, "%s", TEP_PRINT_LATENCY);
		tep_print_event(src->tep, s, rec, src->time_fmt, TEP_PRINT_TIME);
	} else if (!ev) {
		/*
		 * An id with no format: upstream's tep_print_event() calls (task
		 * and CPU, the latency column, the time) each print this instead;
		 * -R's flags are read from the record all the same.
		 */
		trace_seq_puts(s, "[UNKNOWN EVENT]");
		if (l->opts.raw && !l->opts.line_31)
			trace_seq_printf(s, "-0x%x", tep_data_flags(src->tep, rec));
		else if (!l->opts.line_31)
			trace_seq_puts(s, "[UNKNOWN EVENT]");
		trace_seq_puts(s, "[UNKNOWN EVENT]");
	} else if (trace_debug()->slow_print) {
		slow_prefix(l, src, s, rec);
	} else {
		fast_prefix(l, src, s, rec);
	}
	if (l->opts.ts_diff)
		print_ts_diff(l, src, s, rec);
	print_name(src, s, ev);
	if (!ev || !(ev == src->graph_entry || ev == src->graph_exit) ||
	    !print_graph(l, src, s, rec, ev))
		trace_printer_print(src->printer, s, ev, rec, l->opts.raw);
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
	if (l->opts.debug && !l->fmt)
		print_debug(src, s, rec);
	if (l->opts.wakeup)
		wakeup_latency(l, src, s, rec);
	if (l->fmt) {
		const char *record = trace_format_record(l->fmt, src->in, rec, buffer,
							 s->buffer + start, s->len - start, &len);

		line_write(l, record, len);
		return;
	}
	trace_seq_putc(s, '\n');
	line_write(l, s->buffer, s->len);
}

void trace_line_allow_parallel(struct trace_line *l)
{
	l->parallel_ok = 1;
}

void trace_line_flush(struct trace_line *l)
{
	if (l->par)
		par_out_flush(l->par);
}

struct trace_line *trace_line_new(const struct line_opts *opts)
{
	struct trace_line *l = xcalloc(1, sizeof(*l));

	l->opts = *opts;
	l->nr_files = 1;
	trace_seq_init(&l->s);
	return l;
}

void trace_line_set_files(struct trace_line *l, int nr_files, int label_width)
{
	l->nr_files = nr_files;
	l->label_width = label_width;
}

void trace_line_set_format(struct trace_line *l, struct trace_format *fmt)
{
	l->fmt = fmt;
}

void trace_line_free(struct trace_line *l)
{
	if (!l)
		return;
	if (l->par) {
		par_out_free(l->par);
		trace_seq_destroy(&l->fallback_s);
		line_worker_free(l->here);
	}
	trace_seq_destroy(&l->s);
	free(l->woken);
	free(l);
}

struct line_source *line_source_new(const struct trace_line *l, struct trace_input *in,
				    const char *label)
{
	struct line_source *src = xcalloc(1, sizeof(*src));
	int nr = trace_input_nr_buffers(in);

	src->in = in;
	src->tep = trace_input_tep(in);
	src->label = label;
	src->printer = trace_printer_new(in);
	src->events = xcalloc(EVENT_CACHE, sizeof(*src->events));
	src->names = xcalloc(EVENT_CACHE, sizeof(*src->names));
	src->comms = xcalloc(COMM_CACHE, sizeof(*src->comms));
	src->multi_buffer = nr > 1;
	for (int b = 0; src->multi_buffer && b < nr; b++) {
		int len = strlen(trace_input_buffer_name(in, b));

		if (len > src->name_width)
			src->name_width = len;
	}
	src->usecs = trace_input_in_usecs(in);
	if (!src->usecs)
		src->time_fmt = "%12d:";
	else
		src->time_fmt = l->opts.nsec ? " %9.1d:" : " %6.1000d:";
	/* No graph drawing (graph_entry NULL) until line_source_setup_graph(). */
	return src;
}

void line_source_set_buffers(struct line_source *src, const char **names, int nr)
{
	src->buffer_names = names;
	src->multi_buffer = nr > 1;
	src->name_width = 0;
	for (int b = 0; nr > 1 && b < nr; b++)
		if ((int)strlen(names[b]) > src->name_width)
			src->name_width = strlen(names[b]);
}

void line_source_set_next(struct line_source *src, const struct line_next *next)
{
	src->next = next;
}

int line_source_graph_entry(const struct line_source *src)
{
	return src->graph_entry ? src->graph_entry->id : -1;
}

void line_source_forget_comms(struct line_source *src)
{
	memset(src->comms, 0, COMM_CACHE * sizeof(*src->comms));
}

void line_source_free(struct line_source *src)
{
	if (!src)
		return;
	trace_printer_free(src->printer);
	free(src->events);
	free_names(src);
	free(src->comms);
	free(src);
}
