/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Options added to a complete version 7 trace.dat (attach, and record -A's
 * TIME_SHIFT): a copy of the file is written beside it with a new options
 * section chained from its last one
 * (trace-cmd.dat.v7(5), OPTIONS SECTIONS), and renamed over it only once
 * complete.
 */
#ifndef TRACE_APPEND_H
#define TRACE_APPEND_H

#include <stddef.h>

#include "trace-outfile.h"

struct trace_input;
struct trace_output;

/*
 * @file opened for reading (raw timestamps, no plugins) if options can be
 * added to it: version 7, this machine's byte order (the options are written
 * in it), its last options section not compressed.  NULL after a message.
 */
struct trace_input *append_open(const char *file);

/* A file with its new options, written beside it until committed. */
struct append {
	struct outfile		out;
	struct trace_output	*writer;	/* trace_output_add_option() the new ones */
};

/* Starts the copy of @file (@in, from append_open()).  -1 after a message. */
int append_begin(struct append *a, const char *file, struct trace_input *in);
/*
 * Writes the new options; the copy stays beside the file until
 * outfile_commit(&a->out) renames it over it (outfile_abort() drops it).
 */
int append_finish(struct append *a);

/*
 * The whole cycle: @add(writer, @ctx) adds the options (0, or -1 after a
 * message), and @file is replaced once complete.  -1 after a message.
 */
int append_options(const char *file, int (*add)(struct trace_output *out, void *ctx), void *ctx);

#endif
