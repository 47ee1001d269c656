// SPDX-License-Identifier: GPL-2.0
/*
 * dump-header FILE: prints what trace-input parsed from a trace.dat (layout
 * facts, buffers and their per-CPU data, options, format counts), one fact
 * a line, so tests can check the reader against what the writer put there.
 */
#include <stdio.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-input.h"

static void print_buffers(struct trace_input *in)
{
	for (int b = 0; b < trace_input_nr_buffers(in); b++) {
		printf("buffer '%s' cpus %d\n", trace_input_buffer_name(in, b),
		       trace_input_buffer_cpus(in, b));
		for (int cpu = 0; cpu < trace_input_buffer_cpus(in, b); cpu++)
			printf("  cpu %d offset %llu size %llu\n", cpu,
			       (unsigned long long)trace_input_cpu_offset(in, b, cpu),
			       (unsigned long long)trace_input_cpu_size(in, b, cpu));
	}
}

static void print_options(struct trace_input *in)
{
	for (int id = 1; id < 64; id++) {
		const char *p;
		size_t len;

		for (int n = 0; (p = trace_input_option(in, id, n, &len)); n++) {
			printf("option %d size %zu", id, len);
			if (id == 5 || id == 9)
				printf(" '%.*s'", (int)strnlen(p, len), p);
			putchar('\n');
		}
	}
}

int main(int argc, char **argv)
{
	struct trace_input *in;
	size_t hp, he;

	current_command = "dump-header";
	if (argc != 2) {
		fputs("usage: dump-header FILE\n", stderr);
		return 2;
	}
	in = trace_input_open(argv[1], TRACE_INPUT_NO_PLUGINS);
	if (!in)
		return 1;
	printf("version %d\n", trace_input_version(in));
	printf("endian %s\n", trace_input_big_endian(in) ? "big" : "little");
	printf("long size %d\n", trace_input_long_size(in));
	printf("kernel long size %d\n", trace_input_kernel_long_size(in));
	printf("page size %u\n", trace_input_page_size(in));
	printf("compression %s\n", trace_input_compression(in));
	printf("cpus %d\n", trace_input_cpus(in));
	printf("clock %s\n", trace_input_clock(in));
	printf("latency %d\n", trace_input_is_latency(in));
	trace_input_header_page(in, &hp);
	trace_input_header_event(in, &he);
	printf("header_page %zu header_event %zu\n", hp, he);
	printf("formats %d\n", trace_input_nr_formats(in));
	printf("kallsyms %zu printk %zu cmdlines %zu\n",
	       strlen(trace_input_kallsyms(in) ? trace_input_kallsyms(in) : ""),
	       strlen(trace_input_printk(in) ? trace_input_printk(in) : ""),
	       strlen(trace_input_cmdlines(in) ? trace_input_cmdlines(in) : ""));
	print_buffers(in);
	print_options(in);
	trace_input_close(in);
	return 0;
}
