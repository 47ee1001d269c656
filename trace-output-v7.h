/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The version 7 half of the trace.dat writer (trace-cmd.dat.v7(5)): trace-output.c
 * calls these hooks when the output is version 7, so every user of the
 * trace_output API writes v7 without knowing the layout.
 */
#ifndef TRACE_OUTPUT_V7_H
#define TRACE_OUTPUT_V7_H

#include <stddef.h>
#include <stdint.h>

#include "trace-compress.h"

struct trace_output;
struct v7_writer;
struct cpu_chunks;

/* Section ids (the option ids that point at them). */
enum {
	TRACE_SECT_HEADER_INFO		= 16,
	TRACE_SECT_FTRACE_EVENTS	= 17,
	TRACE_SECT_EVENT_FORMATS	= 18,
	TRACE_SECT_KALLSYMS		= 19,
	TRACE_SECT_PRINTK		= 20,
	TRACE_SECT_CMDLINES		= 21,
};

struct v7_writer *v7_new(int comp);
void v7_free(struct v7_writer *w);
/* Appends to the section being captured; returns 0 when no section is open. */
int v7_capture(struct v7_writer *w, const void *buf, size_t len);
/* Before anything is written: the output must be seekable. */
int v7_check_output(struct trace_output *out);
/* After the 18-byte prefix: compression name/version and the options offset. */
int v7_write_prefix_tail(struct trace_output *out, struct v7_writer *w);
/* Starts capturing metadata section @id (ending the one open, if any). */
int v7_begin(struct trace_output *out, struct v7_writer *w, uint16_t id);
/* Options #1: pointers to the metadata sections, the queued options, the CPU count. */
int v7_end_metadata(struct trace_output *out, struct v7_writer *w, int nr_cpus);
/* Options #1, the top buffer's section and its BUFFER option. */
int v7_write_data(struct trace_output *out, struct v7_writer *w, int nr_cpus,
		  const int *cpu_fds, const char *clock);
/* trace_output_set_chunks(): -1 if @comp is not the output's compression. */
int v7_set_chunks(struct v7_writer *w, int comp, const struct cpu_chunks *chunks, int nr_cpus);
/* An instance's buffer section and its options (after v7_write_data). */
int v7_write_buffer(struct trace_output *out, struct v7_writer *w, const char *name,
		    int nr_cpus, const int *cpu_fds, const char *clock);
/* Unsaved options and the STRINGS section: the end of the file. */
int v7_finish(struct trace_output *out, struct v7_writer *w);

/* What trace-output.c lends the v7 writer. */
int trace_output_fd(const struct trace_output *out);
const char *trace_output_name(const struct trace_output *out);
uint32_t trace_output_page_size(const struct trace_output *out);
size_t trace_output_nr_options(const struct trace_output *out);
void trace_output_get_option(const struct trace_output *out, size_t i, uint16_t *id,
			     const void **data, uint32_t *size);
void trace_output_clear_options(struct trace_output *out);

#endif
