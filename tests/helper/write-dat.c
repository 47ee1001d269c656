// SPDX-License-Identifier: GPL-2.0
/*
 * write-dat [-v VERSION] [-k KALLSYMS] OUT CPUFILE...: writes a trace.dat
 * through the trace-output API alone, metadata from the tracing directory
 * ($TRACE_CMD_TRACING_DIR), CPU data from the files ('-': a CPU without
 * data), so tests can check the writer's layout without recording.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-output.h"
#include "trace-tracefs.h"

static int write_file(struct trace_output *out, const char *kallsyms, int nr, const int *fds)
{
	if (trace_output_write_prefix(out, getpagesize()) < 0 ||
	    trace_output_write_header_info(out, NULL) < 0 ||
	    trace_output_write_ftrace_formats(out, NULL) < 0 ||
	    trace_output_write_event_formats(out, NULL, NULL) < 0 ||
	    trace_output_write_kallsyms(out, kallsyms, NULL) < 0 ||
	    trace_output_write_printk(out, NULL) < 0 ||
	    trace_output_write_cmdlines(out) < 0 ||
	    trace_output_add_host_options(out) < 0 ||
	    trace_output_add_cpustats(out, NULL, nr) < 0)
		return -1;
	return trace_output_write_data(out, nr, fds, "local");
}

int main(int argc, char **argv)
{
	const char *kallsyms = NULL;
	struct trace_output *out;
	int version = 6, c, nr, ret;
	int *fds;

	current_command = "write-dat";
	while ((c = getopt(argc, argv, "v:k:")) != -1) {
		if (c == 'v')
			version = atoi(optarg);
		else if (c == 'k')
			kallsyms = optarg;
		else
			return 2;
	}
	if (argc - optind < 2) {
		fprintf(stderr, "usage: write-dat [-v VERSION] [-k KALLSYMS] OUT CPUFILE...\n");
		return 2;
	}
	if (!tfs_dir())
		return 1;
	out = trace_output_create(argv[optind], version);
	if (!out)
		return 1;
	nr = argc - optind - 1;
	fds = xcalloc(nr, sizeof(*fds));
	for (int i = 0; i < nr; i++) {
		const char *f = argv[optind + 1 + i];

		fds[i] = strcmp(f, "-") ? open(f, O_RDONLY) : -1;
		if (strcmp(f, "-") && fds[i] < 0) {
			perror(f);
			return 1;
		}
	}
	ret = write_file(out, kallsyms, nr, fds);
	if (trace_output_close(out) < 0)
		ret = -1;
	return ret < 0 ? 1 : 0;
}
