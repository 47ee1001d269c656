/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record's options, tracefs setup, command handling and restore, shared
 * with stream: stream runs the same plan with a live reader in place of the
 * recorders and the file.
 */
#ifndef TRACE_RECORD_H
#define TRACE_RECORD_H

#include <stddef.h>

struct command;

/* The help lines of the tracer and function options record and stream share. */
#define RECORD_TRACER_USAGE \
	"  -p PLUGIN           the tracer to run (from available_tracers), as function\n" \
	"  -l FUNC             trace only functions matching FUNC (set_ftrace_filter)\n" \
	"  -n FUNC             do not trace functions matching FUNC (set_ftrace_notrace)\n" \
	"  -g FUNC             graph only FUNC and what it calls (set_graph_function)\n" \
	"  --module MOD        limit -l to the functions of module MOD (alone: all of them)\n" \
	"  --max-graph-depth N the function_graph tracer's depth limit\n" \
	"  --func-stack        a stack trace at each traced function (-p function)\n" \
	"  -P PID              trace only PID (repeatable; set_event_pid, set_ftrace_pid)\n" \
	"  -F                  trace only COMMAND\n" \
	"  -c                  with -F or -P, trace their children too\n"

/* The ring buffers stream reads: each of @nr_cpus CPUs, pages of @page_size. */
struct tsc_conv;

struct record_live_buffers {
	int nr_cpus;
	size_t page_size;
	int quiet;		/* -q */
	int top;		/* the top buffer is traced (events or a tracer) */
	const char **instances;	/* -B NAME, in their order */
	int nr_instances;
	const struct tsc_conv *tsc;	/* --tsc2nsec, -C tsc2nsec: times convert by it; else NULL */
};

/* What takes the recorders' place for stream.  Each hook gets @ctx. */
struct record_live {
	/*
	 * Tracefs is set up and tracing still off: open the readers of the
	 * buffers @b names.  0, or -1 after printing why.
	 */
	int (*open)(void *ctx, const struct record_live_buffers *b);
	/* Every @interval_ms while tracing: print what the buffers hold. 0, 1: output gone, -1. */
	int (*poll)(void *ctx);
	/* Tracing is off: print the rest if @drain, close.  0, or -1 after printing why. */
	int (*close)(void *ctx, int drain);
	void *ctx;
	long interval_ms;
};

/*
 * Parses record's options for @cmd (its name and usage in messages) and runs
 * them: with @live NULL into a file as record does, else through @live.
 * Options for a file (-o, --file-version, ...) are usage errors with @live.
 * Returns the exit status.
 */
int record_main(const struct command *cmd, int argc, char **argv,
		const struct record_live *live);

struct record_net;
/*
 * trace-cmd agent: records as `record ARGS` would (@argv[0] is "record"),
 * into @host (record_net_agent()), which it takes.  Returns the exit status.
 */
int record_agent_main(int argc, char **argv, struct record_net *host);

#endif
