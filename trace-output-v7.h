/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version 7 layout of trace.dat (trace-cmd.dat.v7(5)): trace-output.c
 * calls these when the output is version 7, so every user of the
 * trace_output API writes v7 without knowing the layout.  They write
 * through the common layer (trace-dat-out.h) and call nothing above.
 */
#ifndef TRACE_OUTPUT_V7_H
#define TRACE_OUTPUT_V7_H

#include <stddef.h>
#include <stdint.h>

#include "trace-compress.h"

struct dat_out;
struct v7_writer;

/* One CPU's first chunks of data, compressed while recording (trace-early.c). */
struct cpu_chunks {
	int fd;		/* the chunks as the file holds them, from offset 0 to its end */
	uint32_t nr;	/* how many */
	uint64_t raw;	/* how many bytes of the CPU's data they hold, from its start */
};

struct v7_writer *v7_new(int comp);
void v7_free(struct v7_writer *w);
/*
 * A complete file appended to (attach): options queued from now on go in a
 * new section that the DONE link at @link_at points to, with the STRINGS
 * section after it, whose descriptions start at @strings_size.
 */
void v7_continue(struct v7_writer *w, uint64_t link_at, uint64_t strings_size);
/* Before anything is written: the output must be seekable. */
int v7_check_output(struct dat_out *d);
/* After the 18-byte prefix: compression name/version and the options offset. */
int v7_write_prefix_tail(struct v7_writer *w, struct dat_out *d);
/* Starts capturing metadata section @id (ending the one open, if any). */
int v7_begin(struct v7_writer *w, struct dat_out *d, uint16_t id);
/* Options #1: pointers to the metadata sections, the queued options, the CPU count. */
int v7_end_metadata(struct v7_writer *w, struct dat_out *d, int nr_cpus);
/* Ends the capture and points the last link (prefix or DONE) at the current offset. */
int v7_link_options_here(struct v7_writer *w, struct dat_out *d);
/* Options #1, the top buffer's section and its BUFFER option. */
int v7_write_data(struct v7_writer *w, struct dat_out *d, int nr_cpus, const int *cpu_fds,
		  const char *clock);
/* trace_output_set_chunks(): -1 if @comp is not the output's compression. */
/* A latency file's end (trace-output.h, trace_output_write_latency). */
int v7_write_latency(struct v7_writer *w, struct dat_out *d, int nr_cpus, const char *text,
		     size_t len, const char *clock);
int v7_set_chunks(struct v7_writer *w, int comp, const struct cpu_chunks *chunks, int nr_cpus);
/* An instance's buffer section and its options (after v7_write_data). */
int v7_write_buffer(struct v7_writer *w, struct dat_out *d, const char *name, int nr_cpus,
		    const int *cpu_fds, const char *clock);
/* Unsaved options and the STRINGS section: the end of the file. */
int v7_finish(struct v7_writer *w, struct dat_out *d);

#endif
