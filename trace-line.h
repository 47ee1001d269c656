/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report's event lines: the "COMM-PID [CPU] TIME:" prefix (or -l's latency
 * columns), the event's name and text, the function graph, --ts-diff and -w,
 * or a --format record.  report prints its merge of files with it; stream
 * prints what it reads live with the same code, so its lines are the ones
 * record + report would print for the same events.
 */
#ifndef TRACE_LINE_H
#define TRACE_LINE_H

struct trace_input;
struct trace_format;
struct tep_record;
struct trace_line;
struct line_source;

/* What every line shows (report's options; all 0 for stream). */
struct line_opts {
	int	nsec;		/* -t: nanosecond timestamps */
	int	latency;	/* -l: irqs-off, need-resched, context, preempt depth */
	int	raw;		/* -R: every event's raw fields */
	int	ts_diff;	/* --ts-diff: the time since the line before */
	int	ts2secs;	/* --ts2secs: timestamps converted, --ts-diff in ns */
	int	wakeup;		/* -w: wakeup latency at each sched_switch */
	int	no_plugins;	/* -N: no function graph drawing either */
	int	line_31;	/* --line-3.1: no latency column, as trace-cmd 3.1 and older */
	int	boundary;	/* --boundary: a line before each sub-buffer's first event */
	int	debug;		/* --debug: that line, and where each event lies in its page */
};

/*
 * A printer of lines to stdout, with the state lines share across sources
 * (the --ts-diff base, -w's pending wakeups and totals).
 */
struct trace_line *trace_line_new(const struct line_opts *opts);
/*
 * With @nr_files > 1, each line starts with its file's label (or its
 * buffer's name), right-aligned to @label_width.
 */
void trace_line_set_files(struct trace_line *l, int nr_files, int label_width);
/* Records go to @fmt (kept, not owned), a --format writer, instead of text lines. */
void trace_line_set_format(struct trace_line *l, struct trace_format *fmt);
/*
 * Prints @rec (its cpu, ts and data set as trace_input_next() sets them) of
 * @src's buffer @buffer.
 */
void trace_line_print(struct trace_line *l, struct line_source *src, struct tep_record *rec,
		      int buffer);
/*
 * report's lines may be formatted in other threads (trace-parallel.c): from
 * the 16384th line on, when there are CPUs to spare and TRACE_CMD_THREADS
 * is not 1.  Lines still come out in order, byte for byte the same.
 */
void trace_line_allow_parallel(struct trace_line *l);
/* Every line printed so far has reached stdout's buffer. */
void trace_line_flush(struct trace_line *l);
/* -w: the latency summary, after the last line (nothing if no wakeup was seen). */
void trace_line_wakeup_summary(struct trace_line *l);
void trace_line_free(struct trace_line *l);
/* Registers the function graph's -O options (fgraph:tailprint, fgraph:depth), once. */
void trace_line_register_options(void);

/*
 * The records of @in (which it does not own), printed by @l: the tep handle,
 * clock and time units of @in, and caches of its event names and task names.
 * @label names it when several files are merged.  Make it after the reader's
 * timestamps are set up (--ts2secs changes the units).
 */
struct line_source *line_source_new(const struct trace_line *l, struct trace_input *in,
				    const char *label);
/*
 * The buffers the records come from, when @in does not hold them (stream):
 * @names[0] is the top buffer's, "" (@names is kept, not copied).  With
 * more than one, lines get report's "NAME: " prefix.
 */
void line_source_set_buffers(struct line_source *src, const char **names, int nr);

/*
 * How the printer sees the record after @rec on its CPU (and buffer), which
 * a function_graph entry needs: a leaf is an entry whose exit comes next,
 * drawn as one line with the exit skipped.  @peek copies it to @next and
 * returns 1, or 0 if there is none yet; @skip drops it.  Without one, the
 * source's trace_input is asked.
 */
struct line_next {
	int (*peek)(void *ctx, const struct tep_record *rec, struct tep_record *next);
	void (*skip)(void *ctx, const struct tep_record *rec);
	void *ctx;
};
void line_source_set_next(struct line_source *src, const struct line_next *next);
/* Function graph entries and exits are drawn as report does from now on. */
void line_source_setup_graph(struct line_source *src);
/* funcgraph_entry's id once drawn (line_source_setup_graph), or -1. */
int line_source_graph_entry(const struct line_source *src);
/* The task names learnt so far are looked up again (new saved cmdlines). */
void line_source_forget_comms(struct line_source *src);
void line_source_free(struct line_source *src);

#endif
