/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Output made in order by several threads: the producing thread appends
 * jobs (formatted later by worker threads) and ready text to batches; each
 * batch's bytes are written to the stream in the order they were appended.
 * report formats its lines with it on every CPU while its own thread reads
 * and merges the records.
 */
#ifndef TRACE_PARALLEL_H
#define TRACE_PARALLEL_H

#include <stddef.h>
#include <stdio.h>

#include "trace-format.h"	/* struct jbuf, the bytes a job's text is appended to */

struct par_ops {
	/* A worker thread's own state, made and freed in the producing thread. */
	void *(*worker_new)(void *arg);
	void (*worker_free)(void *ctx);
	/*
	 * Appends @job's text to @out, in a worker thread (or the producing
	 * one, with a worker's state): 0, or -1 (nothing appended) when only
	 * the producing thread can, with fallback().
	 */
	int (*format)(void *ctx, const void *job, struct jbuf *out);
	/* In the producing thread, when the job's bytes are written. */
	void (*fallback)(void *arg, const void *job, struct jbuf *out);
};

struct par_out;

/*
 * @nr_workers threads (at least 1) formatting with @ops, writing to @out;
 * NULL (nothing started) if no thread could be made.  Batches of up to
 * @batch_jobs jobs.
 */
struct par_out *par_out_new(const struct par_ops *ops, void *arg, FILE *out, int nr_workers,
			    int batch_jobs);
/* Room for a job of @size bytes (8-byte aligned), after everything appended so far. */
void *par_out_job(struct par_out *po, size_t size);
/* @n bytes of ready text after everything appended so far. */
void par_out_text(struct par_out *po, const char *s, size_t n);
/* Everything appended is written to the stream (in order); the threads stay. */
void par_out_flush(struct par_out *po);
/* Flushes, stops the threads and frees @po. */
void par_out_free(struct par_out *po);

#endif
