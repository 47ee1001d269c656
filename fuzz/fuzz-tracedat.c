// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: a whole trace.dat (v6 or v7, any compression) opened and
 * read to the end as `report` does: every section and option, every event
 * format, the latency text, first/last timestamps and every record printed;
 * then report's own run over it.
 */
#include <event-parse.h>
#include <trace-seq.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "fuzz.h"

extern const struct command cmd_report;

static void touch_layout(struct trace_input *in)
{
	size_t len;
	uint64_t first, last;

	for (int i = 0; i < trace_input_nr_formats(in); i++) {
		const char *system;

		trace_input_format(in, i, &system, &len);
	}
	trace_input_header_page(in, &len);
	trace_input_header_event(in, &len);
	trace_input_compression_version(in);
	trace_input_clock(in);
	for (int id = 0; id <= TRACE_OPT_BUFFER_TEXT; id++)
		for (int n = 0; trace_input_option(in, id, n, &len); n++)
			;
	for (int b = 0; b < trace_input_nr_buffers(in); b++) {
		trace_input_buffer_name(in, b);
		for (int cpu = 0; cpu < trace_input_buffer_cpus(in, b) && cpu < 64; cpu++) {
			trace_input_cpu_size(in, b, cpu);
			if (trace_input_cpu_first_last(in, b, cpu, &first, &last) < 0)
				break;
		}
	}
}

static void print_all(struct trace_input *in)
{
	struct tep_handle *tep = trace_input_tep(in);
	struct tep_record *rec, next;
	struct trace_seq s;
	int buffer;

	trace_seq_init(&s);
	while (trace_input_next(in, &rec, &buffer) > 0) {
		trace_seq_reset(&s);
		tep_find_event_by_record(tep, rec);
		tep_print_event(tep, &s, rec, "%16s-%-5d [%03d] %6.1000d: %s: %s", TEP_PRINT_COMM,
				TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_TIME, TEP_PRINT_NAME,
				TEP_PRINT_INFO);
		trace_input_record_at_page_start(rec);
		trace_input_peek_same_cpu(in, rec, &next);
	}
	trace_seq_destroy(&s);
}

/*
 * The report command itself over the same file: its own printers (the
 * function graph, the compiled print formats, the fast prefix) are not
 * libtraceevent's, and a damaged file once made the graph's indent 2 GB.
 * Its output goes to the closed stdout (-close_fd_mask).
 */
static void run_report(const char *path, int plugins)
{
	char *argv[] = { "report", plugins ? "-q" : "-N", "-i", (char *)path, NULL };

	cmd_report.run(4, argv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int fd = -1;
	const char *path = fuzz_memfile(&fd, data, size);
	/* Plugins cost a dlopen per input: load them for half the inputs. */
	int flags = size && (data[size - 1] & 1) ? 0 : TRACE_INPUT_NO_PLUGINS;
	struct trace_input *in = trace_input_open(path, flags);

	if (!in)
		return 0;
	touch_layout(in);
	if (trace_input_is_latency(in)) {
		size_t len;

		free(trace_input_latency_text(in, &len));
	} else {
		print_all(in);
	}
	trace_input_close(in);
	run_report(path, !flags);
	return 0;
}
