/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version 6 layout of trace.dat (trace-cmd.dat.v6(5)) after the
 * metadata: the CPU count, the options block, and the flyrecord part of the
 * top buffer and of each instance.  trace-output.c calls it; it writes
 * through the common layer (trace-dat-out.h) and calls nothing above.
 */
#ifndef TRACE_OUTPUT_V6_H
#define TRACE_OUTPUT_V6_H

#include <stdint.h>

struct dat_out;
struct v6_writer;

struct v6_writer *v6_new(void);
void v6_free(struct v6_writer *w);

/*
 * Queues instance @name's BUFFER option, its offset 0 until
 * v6_write_buffer() puts the real one in.
 */
void v6_add_buffer(struct dat_out *d, const char *name);
/* The CPU count and the queued options: where a network listener takes over. */
int v6_end_metadata(struct v6_writer *w, struct dat_out *d, int nr_cpus);
/* The CPU count, the queued options, then the top buffer's flyrecord part. */
int v6_write_data(struct v6_writer *w, struct dat_out *d, int nr_cpus, const int *cpu_fds,
		  const char *clock);
/* Instance @name's flyrecord part here, its BUFFER option pointed at it (seeks back). */
int v6_write_buffer(struct v6_writer *w, struct dat_out *d, const char *name, int nr_cpus,
		    const int *cpu_fds, const char *clock);

#endif
