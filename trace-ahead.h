/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Decompressing ahead: while report prints one v7 data chunk of a CPU, a
 * second thread decompresses that CPU's next ones, so zstd or zlib is off
 * the printing thread.  The reader owns the jobs (one per CPU stream); the
 * worker only fills their output and says when it is done.  A job that
 * fails is left to the reader, which decompresses again and reports why.
 */
#ifndef TRACE_AHEAD_H
#define TRACE_AHEAD_H

#include <stddef.h>
#include <stdint.h>

enum ahead_state { AHEAD_IDLE, AHEAD_QUEUED, AHEAD_RUNNING, AHEAD_DONE, AHEAD_FAILED };

struct ahead_job {
	enum ahead_state	state;		/* QUEUED, RUNNING: the workers' until DONE/FAILED */
	uint64_t		at;		/* file offset of the chunk's header */
	unsigned char		*src;		/* its compressed bytes */
	size_t			csize, src_cap;
	unsigned char		*dst;		/* its data, with dst_cap bytes allocated */
	size_t			usize, dst_cap;
	size_t			dst_dirty;	/* dst's bytes from here on are zeros */
	struct ahead_job	*next;		/* in the worker's queue */
};

struct ahead;

/* Workers for files compressed with @comp_name; NULL when they would not help (one CPU). */
struct ahead *ahead_new(const char *comp_name);
/* Stops the workers once their current jobs are done; queued jobs stay undone. */
void ahead_free(struct ahead *a);

void ahead_queue(struct ahead *a, struct ahead_job *job);
/*
 * Until @job is no longer the workers': a job no worker has started yet
 * the caller (the reader, one thread) decompresses itself.
 */
void ahead_wait(struct ahead *a, struct ahead_job *job);

#endif
