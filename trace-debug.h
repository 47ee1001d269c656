/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The debug switches, environment variables the tests set to compare a fast
 * path with its reference: read in one place, once, on first use.
 */
#ifndef TRACE_DEBUG_H
#define TRACE_DEBUG_H

struct trace_debug {
	/* TRACE_CMD_KBUFFER (non-empty, not "0"): walk pages with libtraceevent's kbuffer. */
	int kbuffer;
	/* TRACE_CMD_SLOW_PRINT (non-empty, not "0"): every event through tep_print_event. */
	int slow_print;
	/* TRACE_CMD_NO_AHEAD (set at all): decompress v7 chunks in the reading thread. */
	int no_ahead;
	/*
	 * TRACE_CMD_THREADS=N: report formats its lines in N threads (its own
	 * and N-1 workers); 1 keeps it to the single-threaded path; unset or 0:
	 * one a CPU.
	 */
	int threads;
	/*
	 * TRACE_CMD_THREADS_TEST (set at all): the threads start at the first
	 * line, with batches of a few lines, so that the tests' small files
	 * cross many batches.
	 */
	int threads_test;
};

const struct trace_debug *trace_debug(void);

#endif
