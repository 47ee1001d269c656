// SPDX-License-Identifier: GPL-2.0
/*
 * write-v7 [-c COMPRESSION] [-k KALLSYMS] OUT CPUFILE... [-B NAME CPUFILE...]...:
 * writes a version 7 trace.dat through the trace-output API alone, with
 * instances after -B, so tests check the v7 writer without recording.
 * Metadata comes from $TRACE_CMD_TRACING_DIR; '-' is a CPU without data.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-output.h"
#include "trace-tracefs.h"

/* Opens the CPU files from @argv up to the next -B; returns how many. */
static int open_cpus(char **argv, int argc, int **fds)
{
	int n = 0;

	while (n < argc && strcmp(argv[n], "-B"))
		n++;
	*fds = xcalloc(n ? n : 1, sizeof(**fds));
	for (int i = 0; i < n; i++) {
		(*fds)[i] = strcmp(argv[i], "-") ? open(argv[i], O_RDONLY) : -1;
		if (strcmp(argv[i], "-") && (*fds)[i] < 0) {
			perror(argv[i]);
			exit(1);
		}
	}
	return n;
}

static int write_meta(struct trace_output *out, const char *kallsyms, int nr)
{
	if (trace_output_write_prefix(out, getpagesize()) < 0 ||
	    trace_output_write_header_info(out, NULL) < 0 ||
	    trace_output_write_ftrace_formats(out, NULL) < 0 ||
	    trace_output_write_event_formats(out, NULL, NULL) < 0 ||
	    trace_output_write_kallsyms(out, kallsyms, NULL) < 0 ||
	    trace_output_write_printk(out, NULL) < 0 ||
	    trace_output_write_cmdlines(out) < 0 ||
	    trace_output_add_host_options(out) < 0)
		return -1;
	return trace_output_add_cpustats(out, NULL, nr);
}

int main(int argc, char **argv)
{
	const char *kallsyms = NULL, *comp = NULL;
	struct trace_output *out;
	int c, nr, i, ret;
	int *fds;

	current_command = "write-v7";
	while ((c = getopt(argc, argv, "+c:k:")) != -1) {
		if (c == 'c')
			comp = optarg;
		else if (c == 'k')
			kallsyms = optarg;
		else
			return 2;
	}
	if (argc - optind < 2 || !tfs_dir())
		return 2;
	out = trace_output_create(argv[optind], 7);
	if (!out || (comp && trace_output_set_compression(out, comp) < 0))
		return 1;
	i = optind + 1;
	nr = open_cpus(argv + i, argc - i, &fds);
	ret = write_meta(out, kallsyms, nr);
	if (ret == 0)
		ret = trace_output_write_data(out, nr, fds, "local");
	for (i += nr; ret == 0 && i + 1 < argc; i += nr) {
		const char *name = argv[i + 1];

		i += 2;
		nr = open_cpus(argv + i, argc - i, &fds);
		ret = trace_output_write_buffer(out, name, nr, fds, "local");
	}
	if (trace_output_close(out) < 0)
		ret = -1;
	return ret < 0 ? 1 : 0;
}
