// SPDX-License-Identifier: GPL-2.0
/*
 * convert --to sqlite: a trace.dat as a SQLite database.  Every record is
 * inserted as it is read (prepared statements, one transaction per
 * ROWS_PER_COMMIT rows), so memory follows the number of tasks and event
 * types, not the file's size; the derived tables are built on the way from
 * small per-CPU and per-task states, the indexes once at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>
#include <sqlite3.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "trace-format.h"
#include "trace-outfile.h"
#include "trace-sqlite.h"
#include "trace-keymap.h"

#define ROWS_PER_COMMIT		100000
/*
 * SQLite's page cache, in KiB (a negative cache_size): what bounds its
 * memory.  Building an index sorts in as much again, so the cache is
 * smaller then (bench/RESULTS.md: peak RSS no longer grows with the file,
 * at no cost in time).
 */
#define CACHE_KIB		16384
#define INDEX_CACHE_KIB		4096
/* Per-CPU state is per buffer and CPU: track = buffer * TRACKS_PER_BUFFER + cpu. */
#define TRACKS_PER_BUFFER	4096
#define MAX_EVENT_ID		65536	/* ids are the 16-bit common_type */
#define IRQ_DEPTH		8	/* nested handlers kept per CPU */
#define COMM_LEN		64

/* The columns every event table starts with; a field of the same name gets EV_PREFIX. */
static const char *const common_columns[] = { "ts", "cpu", "pid", "comm", "buffer", NULL };
#define EV_PREFIX		"ev_"

static const char schema[] =
	"CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT);\n"
	"CREATE TABLE task (pid INTEGER PRIMARY KEY, comm TEXT);\n"
	"CREATE TABLE lost_events (ts INTEGER, cpu INTEGER, buffer TEXT, count INTEGER);\n"
	"CREATE TABLE sched_slice (cpu INTEGER, ts INTEGER, dur INTEGER, pid INTEGER, "
	"comm TEXT, end_state TEXT, buffer TEXT);\n"
	"CREATE TABLE wakeup_latency (pid INTEGER, comm TEXT, cpu INTEGER, waking_ts INTEGER, "
	"running_ts INTEGER, latency INTEGER, buffer TEXT);\n"
	"CREATE TABLE irq_slice (cpu INTEGER, irq INTEGER, name TEXT, ts INTEGER, dur INTEGER, "
	"ret INTEGER, buffer TEXT);\n";

static const char derived_indexes[] =
	"CREATE INDEX sched_slice_ts ON sched_slice (ts);\n"
	"CREATE INDEX sched_slice_pid ON sched_slice (pid);\n"
	"CREATE INDEX wakeup_latency_ts ON wakeup_latency (waking_ts);\n"
	"CREATE INDEX wakeup_latency_pid ON wakeup_latency (pid);\n"
	"CREATE INDEX irq_slice_ts ON irq_slice (ts);\n";

/* One event type's table and its insert. */
struct ev_table {
	struct tep_event	*ev;
	char			*name;
	sqlite3_stmt		*insert;
	int			nr_fields;
	struct tep_format_field	**fields;
};

/* A task: its last known name, and a wakeup not yet followed by its run. */
struct task {
	int		pid, buffer;
	char		comm[COMM_LEN];
	int		woken;
	uint64_t	wake_ts;
};

struct irq_open {
	int		irq;
	uint64_t	ts;
	char		name[COMM_LEN];
};

/* What runs on one CPU of one buffer since when, and its open irq handlers. */
struct cpu_state {
	int		running;
	int		pid;
	uint64_t	start;
	char		comm[COMM_LEN];
	int		irq_depth;
	struct irq_open	irqs[IRQ_DEPTH];
};

struct sqlite_export {
	const char		*output;	/* for messages */
	sqlite3			*db;
	struct trace_input	*in;
	struct tep_handle	*tep;
	int			ns;		/* timestamps convert to ns */
	long			rows;		/* in the open transaction */
	struct ev_table		**tables;	/* by event id */
	int			nr_tables;
	struct keymap		tasks;		/* (buffer, pid) -> struct task */
	struct cpu_state	*cpus;
	int			nr_cpus;
	struct jbuf		sql, array;
	sqlite3_stmt		*lost, *slice, *wakeup, *irq;
	struct tep_event	*sched_switch, *waking, *wakeup_ev, *wakeup_new;
	struct tep_event	*irq_entry, *irq_exit;
	int			use_waking;	/* sched_waking seen: wakeups only from it */
};

/* ---- SQLite ------------------------------------------------------------ */

static int db_error(struct sqlite_export *x, const char *what)
{
	return error("cannot write '%s': %s: %s", x->output, what, sqlite3_errmsg(x->db));
}

static int exec(struct sqlite_export *x, const char *sql)
{
	char *msg = NULL;

	if (sqlite3_exec(x->db, sql, NULL, NULL, &msg) == SQLITE_OK)
		return 0;
	error("cannot write '%s': %s", x->output, msg ? msg : sqlite3_errmsg(x->db));
	sqlite3_free(msg);
	return -1;
}

static int prepare(struct sqlite_export *x, const char *sql, sqlite3_stmt **stmt)
{
	if (sqlite3_prepare_v2(x->db, sql, -1, stmt, NULL) != SQLITE_OK)
		return db_error(x, "preparing an insert");
	return 0;
}

/* Runs a bound insert; every ROWS_PER_COMMIT rows the transaction is committed. */
static int step(struct sqlite_export *x, sqlite3_stmt *stmt)
{
	int ret = sqlite3_step(stmt);

	sqlite3_reset(stmt);
	sqlite3_clear_bindings(stmt);
	if (ret != SQLITE_DONE)
		return db_error(x, "inserting a row");
	if (++x->rows < ROWS_PER_COMMIT)
		return 0;
	x->rows = 0;
	return exec(x, "COMMIT; BEGIN");
}

static void put_ident(struct jbuf *b, const char *name)
{
	jbuf_putc(b, '"');
	for (; *name; name++) {
		if (*name == '"')
			jbuf_putc(b, '"');
		jbuf_putc(b, *name);
	}
	jbuf_putc(b, '"');
}

static void bind_text(sqlite3_stmt *stmt, int col, const char *s)
{
	sqlite3_bind_text(stmt, col, s, -1, SQLITE_STATIC);
}

static const char *buffer_name(struct sqlite_export *x, int buffer)
{
	return trace_input_buffer_name(x->in, buffer);
}

/* A timestamp in ns where the clock allows, else the raw count (meta says which). */
static int64_t ts_of(struct sqlite_export *x, uint64_t ts)
{
	uint64_t ns;

	if (x->ns && trace_format_ts_ns(x->in, ts, &ns))
		return (int64_t)ns;
	return (int64_t)ts;
}

/* ---- event tables ------------------------------------------------------- */

static int is_common_column(const char *name)
{
	for (int i = 0; common_columns[i]; i++)
		if (!strcmp(name, common_columns[i]))
			return 1;
	return 0;
}

/* CREATE TABLE @name: ts, cpu, pid, comm, buffer, then the event's own fields. */
static int create_table(struct sqlite_export *x, struct ev_table *t, const char *name)
{
	struct jbuf *b = &x->sql;

	b->len = 0;
	jbuf_puts(b, "CREATE TABLE ");
	put_ident(b, name);
	jbuf_puts(b, " (ts INTEGER, cpu INTEGER, pid INTEGER, comm TEXT, buffer TEXT");
	for (int i = 0; i < t->nr_fields; i++) {
		struct tep_format_field *f = t->fields[i];
		char col[256];

		snprintf(col, sizeof(col), "%s%s", is_common_column(f->name) ? EV_PREFIX : "",
			 f->name);
		jbuf_puts(b, ", ");
		put_ident(b, col);
		jbuf_puts(b, trace_format_field_is_number(f) ? " INTEGER" : " TEXT");
	}
	jbuf_puts(b, ")");
	jbuf_putc(b, 0);
	return sqlite3_exec(x->db, b->data, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

/*
 * The table is named after the event; where that name is taken (the same
 * event name in two systems, a derived table, SQLite's own), "system_event",
 * then "system_event_id".
 */
static int name_table(struct sqlite_export *x, struct ev_table *t)
{
	struct tep_event *ev = t->ev;
	char name[512];

	snprintf(name, sizeof(name), "%s", ev->name);
	if (create_table(x, t, name) < 0) {
		snprintf(name, sizeof(name), "%s_%s", ev->system, ev->name);
		if (create_table(x, t, name) < 0) {
			snprintf(name, sizeof(name), "%s_%s_%d", ev->system, ev->name, ev->id);
			if (create_table(x, t, name) < 0)
				return db_error(x, "creating an event's table");
		}
	}
	t->name = xstrdup(name);
	return 0;
}

static int prepare_insert(struct sqlite_export *x, struct ev_table *t)
{
	struct jbuf *b = &x->sql;

	b->len = 0;
	jbuf_puts(b, "INSERT INTO ");
	put_ident(b, t->name);
	jbuf_puts(b, " VALUES (?, ?, ?, ?, ?");
	for (int i = 0; i < t->nr_fields; i++)
		jbuf_puts(b, ", ?");
	jbuf_puts(b, ")");
	jbuf_putc(b, 0);
	return prepare(x, b->data, &t->insert);
}

/* The table of @ev, created the first time one of its records comes. */
static struct ev_table *table_of(struct sqlite_export *x, struct tep_event *ev)
{
	struct ev_table *t;
	int n = 0;

	if (ev->id < 0 || ev->id >= MAX_EVENT_ID) {
		error("'%s': event %s:%s has id %d, out of range", trace_input_file(x->in),
		      ev->system, ev->name, ev->id);
		return NULL;
	}
	if (ev->id < x->nr_tables && x->tables[ev->id])
		return x->tables[ev->id];
	if (ev->id >= x->nr_tables) {
		x->tables = xrealloc(x->tables, (ev->id + 1) * sizeof(*x->tables));
		memset(x->tables + x->nr_tables, 0,
		       (ev->id + 1 - x->nr_tables) * sizeof(*x->tables));
		x->nr_tables = ev->id + 1;
	}
	t = xcalloc(1, sizeof(*t));
	t->ev = ev;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		n++;
	t->fields = xcalloc(n + 1, sizeof(*t->fields));
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		t->fields[t->nr_fields++] = f;
	x->tables[ev->id] = t;
	if (name_table(x, t) < 0 || prepare_insert(x, t) < 0)
		return NULL;
	return t;
}

static void bind_value(struct sqlite_export *x, sqlite3_stmt *stmt, int col,
		       const struct trace_field_value *v)
{
	switch (v->kind) {
	case TRACE_VALUE_NULL:
		break;
	case TRACE_VALUE_INT:
		sqlite3_bind_int64(stmt, col, v->i);
		break;
	case TRACE_VALUE_UINT:
		/* above 2^63 - 1: the same 64 bits, as SQLite's integers are signed */
		sqlite3_bind_int64(stmt, col, (int64_t)v->u);
		break;
	case TRACE_VALUE_TEXT:
		sqlite3_bind_text(stmt, col, v->data, (int)v->len, SQLITE_STATIC);
		break;
	case TRACE_VALUE_ARRAY:
		x->array.len = 0;
		trace_format_put_value(&x->array, x->tep, v);
		sqlite3_bind_text(stmt, col, x->array.data, (int)x->array.len, SQLITE_TRANSIENT);
		break;
	}
}

static int insert_event(struct sqlite_export *x, struct ev_table *t, struct tep_record *rec,
			int buffer, int pid)
{
	sqlite3_stmt *stmt = t->insert;
	struct trace_field_value v;

	sqlite3_bind_int64(stmt, 1, ts_of(x, rec->ts));
	sqlite3_bind_int64(stmt, 2, rec->cpu);
	sqlite3_bind_int64(stmt, 3, pid);
	bind_text(stmt, 4, tep_data_comm_from_pid(x->tep, pid));
	bind_text(stmt, 5, buffer_name(x, buffer));
	for (int i = 0; i < t->nr_fields; i++) {
		trace_format_field_value(x->tep, t->fields[i], rec, i == t->nr_fields - 1, &v);
		bind_value(x, stmt, 6 + i, &v);
	}
	return step(x, stmt);
}

static int insert_lost(struct sqlite_export *x, struct tep_record *rec, int buffer)
{
	sqlite3_bind_int64(x->lost, 1, ts_of(x, rec->ts));
	sqlite3_bind_int64(x->lost, 2, rec->cpu);
	bind_text(x->lost, 3, buffer_name(x, buffer));
	if (rec->missed_events > 0)
		sqlite3_bind_int64(x->lost, 4, rec->missed_events);
	return step(x, x->lost);
}

/* ---- tasks --------------------------------------------------------------- */

static struct task *task_of(struct sqlite_export *x, int buffer, int pid)
{
	bool added;
	struct task *t = keymap_get(&x->tasks, (uint64_t)buffer << 32 | (uint32_t)pid, &added);

	if (added) {
		t->pid = pid;
		t->buffer = buffer;
	}
	return t;
}

static void name_task(struct task *t, const char *comm)
{
	if (comm)
		snprintf(t->comm, sizeof(t->comm), "%s", comm);
}

/* One row per pid: the name it last went by in any buffer, else the saved cmdlines'. */
static int insert_tasks(struct sqlite_export *x)
{
	sqlite3_stmt *stmt;
	int ret = 0;

	if (prepare(x, "INSERT INTO task VALUES (?, ?) ON CONFLICT (pid) DO UPDATE SET "
		    "comm = excluded.comm WHERE excluded.comm != ''", &stmt) < 0)
		return -1;
	for (size_t i = 0; i < x->tasks.slots && !ret; i++) {
		struct task *t = keymap_slot(&x->tasks, i);

		if (!t)
			continue;
		sqlite3_bind_int64(stmt, 1, t->pid);
		bind_text(stmt, 2, t->comm[0] ? t->comm : tep_data_comm_from_pid(x->tep, t->pid));
		ret = step(x, stmt);
	}
	sqlite3_finalize(stmt);
	return ret;
}

/* ---- derived tables -------------------------------------------------------- */

static struct cpu_state *cpu_of(struct sqlite_export *x, int track)
{
	if (track >= x->nr_cpus) {
		int n = track + 1;

		x->cpus = xrealloc(x->cpus, n * sizeof(*x->cpus));
		memset(x->cpus + x->nr_cpus, 0, (n - x->nr_cpus) * sizeof(*x->cpus));
		x->nr_cpus = n;
	}
	return &x->cpus[track];
}

static void field_value(struct sqlite_export *x, struct tep_event *ev, const char *name,
			struct tep_record *rec, struct trace_field_value *v)
{
	struct tep_format_field *f = tep_find_field(ev, name);

	v->kind = TRACE_VALUE_NULL;
	if (f)
		trace_format_field_value(x->tep, f, rec, 0, v);
}

static int64_t field_num(struct sqlite_export *x, struct tep_event *ev, const char *name,
			 struct tep_record *rec)
{
	struct trace_field_value v;

	field_value(x, ev, name, rec, &v);
	return v.kind == TRACE_VALUE_INT ? v.i : v.kind == TRACE_VALUE_UINT ? (int64_t)v.u : -1;
}

static void field_text(struct sqlite_export *x, struct tep_event *ev, const char *name,
		       struct tep_record *rec, char *buf, size_t size)
{
	struct trace_field_value v;

	field_value(x, ev, name, rec, &v);
	if (v.kind != TRACE_VALUE_TEXT)
		v.len = 0;
	snprintf(buf, size, "%.*s", (int)v.len, v.len ? v.data : "");
}

/*
 * prev_state as report prints it with the sched_switch plugin: a letter per
 * state bit in the order "SDTtZXxW", joined by '|', "R" for none.
 */
static void state_text(int64_t state, char *buf, size_t size)
{
	static const char letters[] = "SDTtZXxW";
	size_t n = 0;

	for (int i = 0; letters[i] && n + 2 < size; i++) {
		if (!(state & (1 << i)))
			continue;
		if (n)
			buf[n++] = '|';
		buf[n++] = letters[i];
	}
	if (!n)
		buf[n++] = 'R';
	buf[n] = 0;
}

static int insert_slice(struct sqlite_export *x, struct cpu_state *s, int cpu, int buffer,
			uint64_t end, const char *state)
{
	sqlite3_stmt *stmt = x->slice;

	sqlite3_bind_int64(stmt, 1, cpu);
	sqlite3_bind_int64(stmt, 2, ts_of(x, s->start));
	sqlite3_bind_int64(stmt, 3, ts_of(x, end) - ts_of(x, s->start));
	sqlite3_bind_int64(stmt, 4, s->pid);
	bind_text(stmt, 5, s->comm);
	bind_text(stmt, 6, state);
	bind_text(stmt, 7, buffer_name(x, buffer));
	return step(x, stmt);
}

static int insert_wakeup(struct sqlite_export *x, struct task *t, int cpu, uint64_t ts)
{
	sqlite3_stmt *stmt = x->wakeup;

	sqlite3_bind_int64(stmt, 1, t->pid);
	bind_text(stmt, 2, t->comm);
	sqlite3_bind_int64(stmt, 3, cpu);
	sqlite3_bind_int64(stmt, 4, ts_of(x, t->wake_ts));
	sqlite3_bind_int64(stmt, 5, ts_of(x, ts));
	sqlite3_bind_int64(stmt, 6, ts_of(x, ts) - ts_of(x, t->wake_ts));
	bind_text(stmt, 7, buffer_name(x, t->buffer));
	t->woken = 0;
	return step(x, stmt);
}

/*
 * A switch ends the slice open on its CPU and opens the next task's; a
 * task switched in after a wakeup gives its wakeup latency.  A task
 * switched out still runnable ("R") was not waiting for a wakeup.
 */
static int sched_switch(struct sqlite_export *x, struct tep_record *rec, int buffer,
			struct cpu_state *s)
{
	struct tep_event *ev = x->sched_switch;
	int64_t prev_state = field_num(x, ev, "prev_state", rec);
	int prev_pid = (int)field_num(x, ev, "prev_pid", rec);
	int next_pid = (int)field_num(x, ev, "next_pid", rec);
	char prev[COMM_LEN], next[COMM_LEN], state[32];
	struct task *t;

	field_text(x, ev, "prev_comm", rec, prev, sizeof(prev));
	field_text(x, ev, "next_comm", rec, next, sizeof(next));
	state_text(prev_state, state, sizeof(state));
	t = task_of(x, buffer, prev_pid);
	name_task(t, prev);
	if (!strcmp(state, "R"))
		t->woken = 0;
	if (s->running && insert_slice(x, s, rec->cpu, buffer, rec->ts, state) < 0)
		return -1;
	s->running = 1;
	s->pid = next_pid;
	s->start = rec->ts;
	snprintf(s->comm, sizeof(s->comm), "%s", next);
	t = task_of(x, buffer, next_pid);
	name_task(t, next);
	if (t->woken && insert_wakeup(x, t, rec->cpu, rec->ts) < 0)
		return -1;
	return 0;
}

/* The latest wakeup before the task runs counts (an earlier one may not have slept it). */
static void wakeup(struct sqlite_export *x, struct tep_event *ev, struct tep_record *rec,
		   int buffer)
{
	char comm[COMM_LEN];
	struct task *t = task_of(x, buffer, (int)field_num(x, ev, "pid", rec));

	field_text(x, ev, "comm", rec, comm, sizeof(comm));
	if (comm[0])
		name_task(t, comm);
	t->woken = 1;
	t->wake_ts = rec->ts;
}

static void irq_entry(struct sqlite_export *x, struct tep_record *rec, struct cpu_state *s)
{
	struct irq_open *o;

	if (s->irq_depth == IRQ_DEPTH)
		return;		/* deeper than any kernel nests: not a slice we can trust */
	o = &s->irqs[s->irq_depth++];
	o->irq = (int)field_num(x, x->irq_entry, "irq", rec);
	o->ts = rec->ts;
	field_text(x, x->irq_entry, "name", rec, o->name, sizeof(o->name));
}

/* An exit closes the innermost handler of its irq; one whose entry was not seen is left out. */
static int irq_exit(struct sqlite_export *x, struct tep_record *rec, int buffer,
		    struct cpu_state *s)
{
	int irq = (int)field_num(x, x->irq_exit, "irq", rec);
	sqlite3_stmt *stmt = x->irq;
	struct irq_open *o;
	int i;

	for (i = s->irq_depth - 1; i >= 0 && s->irqs[i].irq != irq; i--)
		;
	if (i < 0)
		return 0;
	o = &s->irqs[i];
	s->irq_depth = i;
	sqlite3_bind_int64(stmt, 1, rec->cpu);
	sqlite3_bind_int64(stmt, 2, irq);
	bind_text(stmt, 3, o->name);
	sqlite3_bind_int64(stmt, 4, ts_of(x, o->ts));
	sqlite3_bind_int64(stmt, 5, ts_of(x, rec->ts) - ts_of(x, o->ts));
	sqlite3_bind_int64(stmt, 6, field_num(x, x->irq_exit, "ret", rec));
	bind_text(stmt, 7, buffer_name(x, buffer));
	return step(x, stmt);
}

static int derive(struct sqlite_export *x, struct tep_event *ev, struct tep_record *rec,
		  int buffer, struct cpu_state *s)
{
	if (ev == x->sched_switch)
		return sched_switch(x, rec, buffer, s);
	if (ev == x->waking)
		x->use_waking = 1;
	if (ev == x->wakeup_new || ev == (x->use_waking ? x->waking : x->wakeup_ev))
		wakeup(x, ev, rec, buffer);
	else if (ev == x->irq_entry)
		irq_entry(x, rec, s);
	else if (ev == x->irq_exit)
		return irq_exit(x, rec, buffer, s);
	return 0;
}

/* ---- the whole file ------------------------------------------------------ */

static struct tep_event *event_with(struct sqlite_export *x, const char *system,
				    const char *name, const char *const *fields)
{
	struct tep_event *ev = tep_find_event_by_name(x->tep, system, name);

	for (int i = 0; ev && fields[i]; i++)
		if (!tep_find_field(ev, fields[i]))
			ev = NULL;
	return ev;
}

static void find_events(struct sqlite_export *x)
{
	static const char *const switch_fields[] = {
		"prev_comm", "prev_pid", "prev_state", "next_comm", "next_pid", NULL };
	static const char *const wake_fields[] = { "pid", NULL };
	static const char *const entry_fields[] = { "irq", "name", NULL };
	static const char *const exit_fields[] = { "irq", "ret", NULL };

	x->sched_switch = event_with(x, "sched", "sched_switch", switch_fields);
	x->waking = event_with(x, "sched", "sched_waking", wake_fields);
	x->wakeup_ev = event_with(x, "sched", "sched_wakeup", wake_fields);
	x->wakeup_new = event_with(x, "sched", "sched_wakeup_new", wake_fields);
	x->irq_entry = event_with(x, "irq", "irq_handler_entry", entry_fields);
	x->irq_exit = event_with(x, "irq", "irq_handler_exit", exit_fields);
}

static void register_comm(struct sqlite_export *x, struct tep_event *ev, const char *comm_field,
			  const char *pid_field, struct tep_record *rec)
{
	char comm[COMM_LEN];

	field_text(x, ev, comm_field, rec, comm, sizeof(comm));
	if (comm[0])
		tep_register_comm(x->tep, comm, (int)field_num(x, ev, pid_field, rec));
}

/*
 * The names report learns on the way: libtraceevent's sched_switch plugin
 * registers the comms of sched_switch and sched_wakeup(_new) as it prints
 * them, and a later record of such a pid is shown with it.
 */
static void learn_comms(struct sqlite_export *x, struct tep_event *ev, struct tep_record *rec)
{
	if (ev == x->sched_switch) {
		register_comm(x, ev, "prev_comm", "prev_pid", rec);
		register_comm(x, ev, "next_comm", "next_pid", rec);
	} else if (ev == x->wakeup_ev || ev == x->wakeup_new) {
		register_comm(x, ev, "comm", "pid", rec);
	}
}

static int one_record(struct sqlite_export *x, struct tep_record *rec, int buffer)
{
	struct tep_event *ev = tep_find_event_by_record(x->tep, rec);
	struct cpu_state *s = cpu_of(x, buffer * TRACKS_PER_BUFFER + rec->cpu);
	struct ev_table *t;
	int pid;

	if (rec->missed_events) {
		/* what was open on this CPU may have ended in what was lost */
		s->running = 0;
		s->irq_depth = 0;
		if (insert_lost(x, rec, buffer) < 0)
			return -1;
	}
	if (!ev)
		return 0;
	learn_comms(x, ev, rec);
	pid = tep_data_pid(x->tep, rec);
	task_of(x, buffer, pid);
	t = table_of(x, ev);
	if (!t || insert_event(x, t, rec, buffer, pid) < 0)
		return -1;
	return derive(x, ev, rec, buffer, s);
}

static int insert_meta(struct sqlite_export *x)
{
	const char *clock = trace_input_clock(x->in);
	const char *rows[][2] = {
		{ "source", trace_input_file(x->in) },
		{ "clock", clock && *clock ? clock : "local" },
		{ "ts_unit", x->ns ? "ns" : "raw counter" },
	};
	sqlite3_stmt *stmt;
	int ret = 0;

	if (prepare(x, "INSERT INTO meta VALUES (?, ?)", &stmt) < 0)
		return -1;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && !ret; i++) {
		bind_text(stmt, 1, rows[i][0]);
		bind_text(stmt, 2, rows[i][1]);
		ret = step(x, stmt);
	}
	sqlite3_finalize(stmt);
	return ret;
}

/* Indexes on ts and pid of every event table, built once its rows are in. */
static int create_indexes(struct sqlite_export *x)
{
	struct jbuf *b = &x->sql;
	char pragma[64];

	snprintf(pragma, sizeof(pragma), "PRAGMA cache_size = -%d", INDEX_CACHE_KIB);
	if (exec(x, pragma) < 0)
		return -1;
	b->len = 0;
	jbuf_puts(b, derived_indexes);
	for (int i = 0; i < x->nr_tables; i++) {
		struct ev_table *t = x->tables[i];
		char name[600];

		if (!t || !t->name)
			continue;
		for (int k = 0; k < 2; k++) {
			snprintf(name, sizeof(name), "%s_%s", t->name, k ? "pid" : "ts");
			jbuf_puts(b, "CREATE INDEX ");
			put_ident(b, name);
			jbuf_puts(b, " ON ");
			put_ident(b, t->name);
			jbuf_puts(b, k ? " (pid);\n" : " (ts);\n");
		}
	}
	jbuf_putc(b, 0);
	return exec(x, b->data);
}

static int prepare_derived(struct sqlite_export *x)
{
	if (prepare(x, "INSERT INTO lost_events VALUES (?, ?, ?, ?)", &x->lost) < 0 ||
	    prepare(x, "INSERT INTO sched_slice VALUES (?, ?, ?, ?, ?, ?, ?)", &x->slice) < 0 ||
	    prepare(x, "INSERT INTO wakeup_latency VALUES (?, ?, ?, ?, ?, ?, ?)", &x->wakeup) < 0 ||
	    prepare(x, "INSERT INTO irq_slice VALUES (?, ?, ?, ?, ?, ?, ?)", &x->irq) < 0)
		return -1;
	return 0;
}

static int export(struct sqlite_export *x)
{
	struct tep_record *rec;
	char pragmas[128];
	uint64_t ns;
	int buffer, ret;

	x->tep = trace_input_tep(x->in);
	x->ns = trace_format_ts_ns(x->in, 0, &ns);
	find_events(x);
	/* a new file renamed into place when complete: no journal is needed */
	snprintf(pragmas, sizeof(pragmas),
		 "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -%d",
		 CACHE_KIB);
	if (exec(x, pragmas) < 0 || exec(x, schema) < 0 || prepare_derived(x) < 0 || exec(x, "BEGIN") < 0)
		return -1;
	while ((ret = trace_input_next(x->in, &rec, &buffer)) > 0)
		if (one_record(x, rec, buffer) < 0)
			return -1;
	if (ret < 0)
		return -1;
	if (insert_tasks(x) < 0 || insert_meta(x) < 0 || exec(x, "COMMIT") < 0)
		return -1;
	return create_indexes(x);
}

static void free_export(struct sqlite_export *x)
{
	for (int i = 0; i < x->nr_tables; i++) {
		struct ev_table *t = x->tables[i];

		if (!t)
			continue;
		sqlite3_finalize(t->insert);
		free(t->name);
		free(t->fields);
		free(t);
	}
	sqlite3_finalize(x->lost);
	sqlite3_finalize(x->slice);
	sqlite3_finalize(x->wakeup);
	sqlite3_finalize(x->irq);
	free(x->tables);
	keymap_free(&x->tasks);
	free(x->cpus);
	jbuf_free(&x->sql);
	jbuf_free(&x->array);
}

/* The database is built in outfile's new file, then renamed over @output. */
static int export_to_file(struct sqlite_export *x, const char *input, const char *output)
{
	const char *inputs[] = { input, NULL };
	struct outfile f;
	int ret;

	if (outfile_open(&f, output, inputs) < 0)
		return -1;
	if (!f.tmp) {
		outfile_abort(&f);
		return error("cannot write '%s': a SQLite database must be a regular file",
			     output);
	}
	close(f.fd);
	f.fd = -1;
	ret = sqlite3_open_v2(f.tmp, &x->db, SQLITE_OPEN_READWRITE, NULL);
	if (ret != SQLITE_OK)
		ret = error("cannot write '%s': %s", output, x->db ? sqlite3_errmsg(x->db) :
			    sqlite3_errstr(ret));
	else
		ret = export(x);
	free_export(x);
	if (sqlite3_close(x->db) != SQLITE_OK && !ret)
		ret = db_error(x, "closing");
	if (ret < 0) {
		outfile_abort(&f);
		return -1;
	}
	return outfile_commit(&f);
}

int trace_sqlite_export(const char *input, const char *output)
{
	struct sqlite_export x = { .output = output, .tasks = KEYMAP_INIT(struct task) };
	int ret;

	x.in = trace_input_open(input, 0);
	if (!x.in)
		return -1;
	if (trace_input_is_latency(x.in))
		ret = error("'%s': a latency tracer's text has no events to convert", input);
	else
		ret = export_to_file(&x, input, output);
	trace_input_close(x.in);
	return ret;
}
