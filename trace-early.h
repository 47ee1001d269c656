/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Compressing early: while the traced command runs, a thread of record
 * compresses the chunks the recorders have finished, so that after the
 * command's exit only the last ones are left to compress.
 */
#ifndef TRACE_EARLY_H
#define TRACE_EARLY_H

#include <stddef.h>
#include <sys/types.h>

struct early_compress;
struct cpu_chunks;

/*
 * A thread (trace-worker.h) to compress with @comp (TRACE_COMP_*) the data
 * the recorders write to @raw_fds (one per CPU, kept open by the caller) in
 * chunks of @chunk bytes (TRACE_PAGES_IN_CHUNK pages), each CPU's into an
 * unnamed file beside @paths[cpu]; it starts at early_go().  NULL if it
 * cannot be made: the writer then compresses everything.
 */
struct early_compress *early_start(int comp, int nr_cpus, const int *raw_fds,
				   char *const *paths, size_t chunk);
void early_go(struct early_compress *e);
/*
 * Stops the thread.  Returns each CPU's chunks compressed so far, valid
 * until early_free(), or NULL if compressing failed (nothing is lost: the
 * raw files still hold all the data).
 */
const struct cpu_chunks *early_stop(struct early_compress *e);
/* Stops the thread if it runs and closes its files. */
void early_free(struct early_compress *e);

#endif
