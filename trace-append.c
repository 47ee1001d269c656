// SPDX-License-Identifier: GPL-2.0
/*
 * Options added to a complete version 7 file, written beside it and renamed
 * over it when complete (trace-append.h).
 */
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-append.h"
#include "trace-input.h"
#include "trace-output.h"

struct trace_input *append_open(const char *file)
{
	/* Raw timestamps: attach reads the host's TSC ticks, which kvm_write_tsc_offset offsets. */
	struct trace_input *in = trace_input_open(file, TRACE_INPUT_NO_PLUGINS | TRACE_INPUT_LAZY |
						       TRACE_INPUT_RAW_TS);
	int one = 1, big = !*(char *)&one;

	if (!in)
		return NULL;
	if (trace_input_version(in) < 7)
		error("'%s': a version %d file cannot take new options: make it version 7 first (trace-cmd convert --file-version 7)",
		      file, trace_input_version(in));
	else if (trace_input_big_endian(in) != big)
		error("'%s': a %s-endian file cannot take options written on this %s-endian machine",
		      file, big ? "little" : "big", big ? "big" : "little");
	else if (!trace_input_options_link(in))
		error("'%s': its last options section is compressed: new options cannot be chained to it",
		      file);
	else
		return in;
	trace_input_close(in);
	return NULL;
}

int append_begin(struct append *a, const char *file, struct trace_input *in)
{
	int src = open_regular(file);

	if (src < 0)
		return -1;
	if (outfile_open(&a->out, file, NULL) < 0) {
		close(src);
		return -1;
	}
	a->writer = trace_output_append(a->out.fd, file, src, fd_size(src),
					trace_input_compression(in),
					trace_input_options_link(in),
					trace_input_strings_size(in));
	a->out.fd = -1;	/* the writer's now */
	close(src);
	if (!a->writer) {
		outfile_abort(&a->out);
		return -1;
	}
	return 0;
}

int append_finish(struct append *a)
{
	int ret = trace_output_close(a->writer);

	a->writer = NULL;
	if (ret < 0)
		outfile_abort(&a->out);
	return ret;
}

int append_options(const char *file, int (*add)(struct trace_output *out, void *ctx), void *ctx)
{
	struct trace_input *in = append_open(file);
	struct append a = { 0 };
	int ret = in ? append_begin(&a, file, in) : -1;

	trace_input_close(in);
	if (ret < 0)
		return -1;
	if (add(a.writer, ctx) < 0) {
		trace_output_close(a.writer);
		outfile_abort(&a.out);
		return -1;
	}
	if (append_finish(&a) < 0)
		return -1;
	return outfile_commit(&a.out);
}
