// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd stream: record's options and tracefs setup (trace-record.c), but
 * instead of recorders and a file, this process reads each CPU's
 * trace_pipe_raw (of the top buffer and each -B instance) without blocking
 * at every interval, into report's per-CPU record streams
 * (trace-cpu-stream.c, the live page source), merges them by timestamp in
 * report's heap (trace-merge.h) and prints them with report's own line
 * printer (trace-line.c), as it happens.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdio_ext.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "trace-line.h"
#include "trace-merge.h"
#include "trace-output.h"
#include "trace-cpu-stream.h"
#include "trace-record.h"
#include "trace-ringbuf.h"
#include "trace-tracefs.h"
#include "trace-tsc.h"

extern const struct command cmd_stream;

static const char stream_usage[] =
	"usage: trace-cmd stream -e EVENT [-e EVENT]... [-p PLUGIN] [-b KB] [OPTIONS]\n"
	"                        [COMMAND [ARG]...]\n"
	"  -e EVENT            stream EVENT: an event name, SYSTEM:EVENT, a SYSTEM, or all;\n"
	"                      globs as in 'sched:sched_s*' (repeatable)\n"
	"  -B NAME             stream the instance NAME too (created if missing, removed\n"
	"                      after); -e -f -R -v -p -C -O -T after it apply to it\n"
	"  -f FILTER           only the events of the -e before it that match FILTER\n"
	"  -R TRIGGER          set TRIGGER on the events of the -e before it\n"
	"  -v                  the -e after it takes its events out (-e sched -v -e sched_switch)\n"
	"  -i                  an -e that matches no event is a warning, not an error\n"
	RECORD_TRACER_USAGE
	"  -C CLOCK            the trace clock (from trace_clock) while streaming;\n"
	"                      tsc2nsec: the TSC, its times shown in ns\n"
	"  --tsc2nsec          show the times converted from TSC ticks to ns (perf's)\n"
	"  -O OPTION           turn trace option OPTION on, or off as -O noOPTION\n"
	"  -M CPUMASK          trace only the CPUs of the hex CPUMASK (tracing_cpumask)\n"
	"  -T                  a stack trace with each event (options/stacktrace)\n"
	"  -b KB               ring buffer size per CPU in KB while streaming (restored after)\n"
	"  --subbuf-size KB    the sub-buffer (page) size in KB while streaming (restored after)\n"
	"  -K                  do not clear the buffers first: what they hold is streamed too\n"
	"  -s USECS            read the buffers every USECS microseconds (default 50000)\n"
	"  --cmdlines-size N   how many command names the kernel keeps (saved_cmdlines_size)\n"
	"  -d                  keep the function tracer off (options/function-trace)\n"
	"  -D                  -d and /proc/sys/kernel/ftrace_enabled off as well\n"
	"  --user USER         run COMMAND as USER\n"
	"  --no-filter         stream trace-cmd's own events too\n"
	"  -k                  keep the tracefs settings after streaming (no restore)\n"
	"  -q, --quiet         quiet: no per-CPU event counts at the end\n"
	"  --verbose[=LEVEL]   the log level: none crit err warn (the default) info debug all,\n"
	"                      or 0 to 6; alone: info; at debug each tracefs write\n"
	"  -h                  show this help\n"
	"Prints the events as report would, as they happen, until COMMAND exits, or with\n"
	"no COMMAND until SIGINT (Ctrl-C) or SIGTERM.  record's options for the file and\n"
	"the recorders are usage errors: stream writes no file.\n";

/* How often the buffers are read: lines appear at most this late. */
#define STREAM_INTERVAL_MS	50
/* Pages read from one CPU before they are printed, so memory stays bounded. */
#define STREAM_BATCH_PAGES	64

/* Rounds a function_graph entry waits for its exit before it is printed open. */
#define STREAM_HOLD_ROUNDS	10

/*
 * One CPU of one buffer: its records come from a per-CPU record stream
 * (trace-cpu-stream.h) over the pages read from its trace_pipe_raw each
 * round.  A round that stops before a record (see print_round) leaves it
 * current, and the next round reads new pages after it.
 */
struct live_cpu {
	int			fd;		/* per_cpu/cpuN/trace_pipe_raw, or -1 */
	char			*path;		/* that file, as messages name it */
	struct cpu_stream	s;
	int			pending;	/* s.rec is the next to print */
	int			held;		/* the rounds it has waited for the next */
	unsigned long long	events;
};

struct stream {
	int			nr_cpus;
	size_t			page_size;
	int			quiet;
	/*
	 * Buffer b's CPU c is cpus[b * nr_cpus + c]; buffer 0 is the top one
	 * (its fds -1 when only instances are traced), then each -B NAME.
	 */
	struct live_cpu		*cpus;
	struct merge_heap	merge;		/* this round's slots with a record, by slot */
	int			nr_bufs;
	const char		**names;	/* "" for the top buffer */
	int			top;		/* the top buffer is read */
	int			graph_entry;	/* funcgraph_entry's id, -1 if none */
	int			draining;	/* tracing is off: nothing more will come */
	struct line_next	next;		/* the printer's view of what follows */
	struct trace_input	*in;		/* the metadata: tep, clock */
	struct tep_handle	*tep;
	struct trace_line	*line;		/* report's printer, with no option set */
	struct line_source	*src;		/* the metadata's events, as it prints them */
	int			cmdlines_read;	/* saved_cmdlines read again this round */
	unsigned char		*seen;		/* bit per pid: its name was looked up */
	int			out_errno;	/* why writing to stdout failed */
};

/*
 * The tep handle, clock and time units report would use: record's metadata
 * written to a memory file as a trace.dat without data, read back by
 * trace-input, so the events decode exactly as in a recorded file.
 */
static struct trace_input *open_metadata(int nr_cpus, size_t page_size, const struct tsc_conv *tsc)
{
	int fd = memfd_create("trace-cmd-stream", MFD_CLOEXEC);
	int *no_data = xcalloc(nr_cpus, sizeof(*no_data));
	struct trace_input *in = NULL;
	struct trace_output *out;
	char path[64], *clock;
	int ret, out_fd;

	if (fd < 0 || (out_fd = dup(fd)) < 0) {
		error("cannot create a memory file: %s", strerror(errno));
		goto out;
	}
	out = trace_output_fdopen(out_fd, "stream metadata", 6);
	if (!out)
		goto out;
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		no_data[cpu] = -1;
	/* The clock's name and the conversion as record writes them: times print in ns. */
	clock = tsc ? xstrdup("tsc2nsec") : tfs_current_clock(NULL);
	ret = trace_output_write_metadata(out, page_size, NULL, NULL);
	if (ret == 0)
		ret = trace_output_add_host_options(out);
	if (ret == 0 && tsc)
		ret = tsc_conv_add_option(tsc, out);
	if (ret == 0)
		ret = trace_output_write_data(out, nr_cpus, no_data, clock);
	free(clock);
	if (trace_output_close(out) < 0 || ret < 0)
		goto out;
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	in = trace_input_open(path, 0);
out:
	if (fd >= 0)
		close(fd);
	free(no_data);
	return in;
}

/* "per_cpu/cpuN/FILE" of buffer @name ("" the top one), as messages name it. */
static void buffer_file(char *rel, size_t size, const char *name, int cpu, const char *file)
{
	if (*name)
		snprintf(rel, size, "instances/%s/per_cpu/cpu%d/%s", name, cpu, file);
	else
		snprintf(rel, size, "per_cpu/cpu%d/%s", cpu, file);
}

static int open_cpu(struct stream *st, int i)
{
	struct live_cpu *c = &st->cpus[i];
	const char *name = st->names[i / st->nr_cpus];
	int cpu = i % st->nr_cpus;
	char rel[PATH_MAX], *path;

	c->fd = -1;
	if (!cpu_is_online(cpu))
		return 0;
	buffer_file(rel, sizeof(rel), name, cpu, "trace_pipe_raw");
	c->path = xstrdup(rel);
	path = tfs_path(NULL, rel);
	c->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	free(path);
	if (c->fd < 0)
		return error("cannot open '%s': %s", rel, strerror(errno));
	return cpu_stream_init_live(st->in, &c->s, cpu, i, st->page_size, c->fd, name, c->path);
}

/* The slot of @rec's stream: every record of a live_cpu points to its stream. */
static struct live_cpu *slot_of(const struct tep_record *rec)
{
	struct cpu_stream *s = rec->priv;

	return (struct live_cpu *)((char *)s - offsetof(struct live_cpu, s));
}

/*
 * The record after @rec on its CPU, if it is also the next of the merge (no
 * other CPU's comes first), as report's peek: that is when report draws a leaf.
 * @rec is the one being printed: its slot is the merge's first.
 */
static int peek_ahead(void *ctx, const struct tep_record *rec, struct tep_record *next)
{
	struct stream *st = ctx;
	struct live_cpu *c = slot_of(rec);

	if (merge_heap_first(&st->merge) != c || !cpu_stream_peek(&c->s, next))
		return 0;
	return !merge_heap_other_before(&st->merge, next->ts, c->s.idx);
}

/* The record after @rec was printed with it (a function_graph leaf): drop it. */
static void skip_ahead(void *ctx, const struct tep_record *rec)
{
	struct live_cpu *c = slot_of(rec);

	(void)ctx;
	c->events++;	/* shown, as part of the leaf's line */
	c->s.skip_next = 1;
}

static int stream_open(void *ctx, const struct record_live_buffers *b)
{
	struct stream *st = ctx;
	struct tep_event *ge;
	int nr;

	st->nr_cpus = b->nr_cpus;
	st->page_size = b->page_size;
	st->quiet = b->quiet;
	st->top = b->top;
	st->nr_bufs = 1 + b->nr_instances;
	st->names = xcalloc(st->nr_bufs, sizeof(*st->names));
	st->names[0] = "";
	memcpy(st->names + 1, b->instances, b->nr_instances * sizeof(*st->names));
	st->in = open_metadata(st->nr_cpus, st->page_size, b->tsc);
	if (!st->in)
		return -1;
	st->tep = trace_input_tep(st->in);
	st->line = trace_line_new(&(struct line_opts){ 0 });
	st->src = line_source_new(st->line, st->in, trace_input_file(st->in));
	line_source_set_buffers(st->src, st->names, st->nr_bufs);
	ge = tep_find_event_by_name(st->tep, "ftrace", "funcgraph_entry");
	st->graph_entry = ge ? ge->id : -1;
	st->next = (struct line_next){ .peek = peek_ahead, .skip = skip_ahead, .ctx = st };
	line_source_set_next(st->src, &st->next);
	line_source_setup_graph(st->src);
	nr = st->nr_bufs * st->nr_cpus;
	st->cpus = xcalloc(nr, sizeof(*st->cpus));
	merge_heap_init(&st->merge, nr);
	for (int i = 0; i < nr; i++)
		st->cpus[i].fd = -1;
	for (int i = b->top ? 0 : st->nr_cpus; i < nr; i++)
		if (open_cpu(st, i) < 0)
			return -1;
	return 0;
}

/* Pids above this are looked up each time. */
#define STREAM_MAX_PID	(1 << 22)

/*
 * The first time a pid shows up, saved_cmdlines is read again (once a
 * round): a task that started after the metadata was read would show as
 * "<...>", or by the name of an older task with its pid.  Report reads the
 * names when the recording ends; this is as close as a live reader gets.
 */
static void learn_comm(struct stream *st, int pid)
{
	char *text, *line, *save = NULL;

	if (pid <= 0)
		return;
	if (pid < STREAM_MAX_PID) {
		if (!st->seen)
			st->seen = xcalloc(STREAM_MAX_PID / 8, 1);
		if (st->seen[pid / 8] & (1 << pid % 8))
			return;
		st->seen[pid / 8] |= 1 << pid % 8;
	}
	if (st->cmdlines_read)
		return;
	st->cmdlines_read = 1;
	if (tfs_read_file(NULL, "saved_cmdlines", &text, NULL) < 0)
		return;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *comm;
		int p = strtol(line, &comm, 10);

		while (*comm == ' ')
			comm++;
		if (p > 0 && *comm)
			tep_override_comm(st->tep, comm, p);
	}
	free(text);
	line_source_forget_comms(st->src);
}

/*
 * A function_graph entry is drawn as a leaf when its exit is the next record
 * on its CPU, which may not have been read yet: the round stops before it,
 * and every CPU's unprinted records wait for the next round's pages.  For
 * a few rounds only, so an exit that does not come (the CPU went idle) holds
 * the output back no longer than that.
 */
static int wait_for_exit(struct stream *st, struct live_cpu *c)
{
	struct tep_record next;

	return st->graph_entry >= 0 && !st->draining && c->held < STREAM_HOLD_ROUNDS &&
	       tep_data_type(st->tep, &c->s.rec) == st->graph_entry &&
	       !cpu_stream_peek(&c->s, &next);
}

/* The round stops: each slot with a record left starts the next round with it. */
static void hold_round(struct stream *st, struct live_cpu *waiting)
{
	for (int i = 0; i < st->merge.len; i++)
		((struct live_cpu *)st->merge.e[i].src)->pending = 1;
	waiting->held++;
}

/* The slots' first records this round, in the merge: 0, or -1 (printed). */
static int start_round(struct stream *st)
{
	st->merge.len = 0;
	for (int i = 0; i < st->nr_bufs * st->nr_cpus; i++) {
		struct live_cpu *c = &st->cpus[i];
		int ret = 1;

		if (c->fd < 0)
			continue;
		if (!c->pending)
			ret = cpu_stream_advance(&c->s);
		c->pending = 0;
		if (ret < 0)
			return -1;
		if (ret)
			merge_heap_add(&st->merge, c->s.rec.ts, i, c);
	}
	merge_heap_order(&st->merge);
	return 0;
}

/* Prints this round's records of every buffer and CPU, merged in timestamp order. */
static int print_round(struct stream *st)
{
	struct live_cpu *min;
	int ret;

	if (start_round(st) < 0)
		return -1;
	while ((min = merge_heap_first(&st->merge))) {
		int min_i = min - st->cpus;

		if (wait_for_exit(st, min)) {
			hold_round(st, min);
			return 0;
		}
		learn_comm(st, tep_data_pid(st->tep, &min->s.rec));
		trace_line_print(st->line, st->src, &min->s.rec, min_i / st->nr_cpus);
		/* A full stdio buffer is written out inside the print: its errno is here. */
		if (ferror(stdout)) {
			st->out_errno = errno;
			return 0;
		}
		min->events++;
		min->held = 0;
		ret = cpu_stream_advance(&min->s);
		if (ret < 0)
			return -1;
		merge_heap_next(&st->merge, ret, min->s.rec.ts);
	}
	return 0;
}

/* Flushes what was printed: 0, 1 if the reader of stdout is gone, -1 on another error. */
static int flush_output(struct stream *st)
{
	if (!st->out_errno && fflush(stdout) != 0)
		st->out_errno = errno;
	if (!st->out_errno)
		return 0;
	/* main() reports a real write error once, at the end. */
	return st->out_errno == EPIPE ? 1 : -1;
}

/* Reads and prints until the buffers hold no more than a partial batch. */
static int stream_poll(void *ctx)
{
	struct stream *st = ctx;
	int more, ret;

	do {
		more = 0;
		st->cmdlines_read = 0;
		for (int i = 0; i < st->nr_bufs * st->nr_cpus; i++) {
			struct live_cpu *c = &st->cpus[i];

			if (c->fd < 0)
				continue;
			ret = cpu_stream_read_live(&c->s, c->pending);
			if (ret < 0)
				return -1;
			more |= ret;
		}
		if (print_round(st) < 0)
			return -1;
		ret = flush_output(st);
		if (ret)
			return ret;
	} while (more);
	return 0;
}

/*
 * Without -q: per CPU, the events printed and those the kernel lost; each
 * instance's after a "Buffer: NAME" line, as record prints them.
 */
static void print_counts(struct stream *st)
{
	for (int i = 0; i < st->nr_bufs * st->nr_cpus; i++) {
		const char *name = st->names[i / st->nr_cpus];
		int cpu = i % st->nr_cpus;
		char rel[PATH_MAX], *stats = NULL;
		unsigned long long lost = 0;

		/* The top buffer when only instances are traced: nothing to say. */
		if (!*name && !st->top)
			continue;
		if (*name && cpu == 0)
			fprintf(stderr, "\nBuffer: %s\n", name);
		buffer_file(rel, sizeof(rel), name, cpu, "stats");
		if (tfs_read_file(NULL, rel, &stats, NULL) == 0)
			lost = ringbuf_stats_lost(stats);
		free(stats);
		fprintf(stderr, "CPU%d: %llu events streamed, %llu events lost\n", cpu,
			st->cpus[i].events, lost);
	}
}

static int stream_close(void *ctx, int drain)
{
	struct stream *st = ctx;
	int ret = 0;

	if (drain && st->cpus) {
		st->draining = 1;
		ret = stream_poll(st) < 0 ? -1 : 0;
		if (!st->quiet)
			print_counts(st);
	}
	for (int i = 0; st->cpus && i < st->nr_bufs * st->nr_cpus; i++) {
		struct live_cpu *c = &st->cpus[i];

		if (c->fd >= 0)
			close(c->fd);
		cpu_stream_free(&c->s);
		free(c->path);
	}
	free(st->cpus);
	st->cpus = NULL;
	merge_heap_free(&st->merge);
	free(st->names);
	st->names = NULL;
	line_source_free(st->src);
	st->src = NULL;
	trace_line_free(st->line);
	st->line = NULL;
	trace_input_close(st->in);
	st->in = NULL;
	free(st->seen);
	st->seen = NULL;
	return ret;
}

static void on_sigpipe(int sig)
{
	(void)sig;	/* a handler, not SIG_IGN: the traced command gets the default back */
}

static int run_stream(int argc, char **argv)
{
	struct stream st = { 0 };
	struct record_live live = {
		.open = stream_open,
		.poll = stream_poll,
		.close = stream_close,
		.ctx = &st,
		.interval_ms = STREAM_INTERVAL_MS,
	};
	struct sigaction sa = { .sa_handler = on_sigpipe }, old;
	int status;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGPIPE, &sa, &old);
	status = record_main(&cmd_stream, argc, argv, &live);
	sigaction(SIGPIPE, &old, NULL);
	/*
	 * A reader that went away is how stream is meant to end (| head), not
	 * a write error: what it could not take is dropped, so main()'s final
	 * stdout check neither fails nor dies writing it with SIGPIPE back.
	 */
	if (st.out_errno == EPIPE) {
		__fpurge(stdout);
		clearerr(stdout);
	}
	return status;
}

const struct command cmd_stream = {
	.name = "stream",
	.run = run_stream,
	.usage = stream_usage,
	.summary = "trace and print the events live, as report would",
};
