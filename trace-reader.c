// SPDX-License-Identifier: GPL-2.0
/*
 * Opens and closes a trace.dat reader, the layer above its parts: the file
 * and metadata (trace-input.c), then the formats as a tep handle
 * (trace-tep.c); at close, the merge's per-CPU streams (trace-merge.c) go
 * first.  Living here, these calls keep every other call among the
 * reader's modules going one way: down to trace-input.c.
 */
#include "trace-cmd.h"
#include "trace-reader.h"

struct trace_input *trace_input_open(const char *file, int flags)
{
	struct trace_input *in = reader_open_file(file, flags);

	if (!in)
		return NULL;
	if (!(flags & TRACE_INPUT_NO_TEP) && reader_build_tep(in) < 0) {
		trace_input_close(in);
		return NULL;
	}
	reader_check_layout(in);
	return in;
}

void trace_input_close(struct trace_input *in)
{
	if (!in)
		return;
	merge_free(in);
	reader_free(in);
}
