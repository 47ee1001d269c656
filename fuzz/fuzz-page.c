// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the event-data walk of one page.  The first input byte
 * picks a small v6 fixture (byte order, long size and event formats differ);
 * the rest becomes the only page of data in it, and every record is printed.
 */
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "trace-input.h"
#include "fuzz.h"

#ifndef FUZZ_SRC_DIR
#define FUZZ_SRC_DIR "."
#endif

static const char *const template_names[] = {
	"synth-sched-v6.dat", "synth-sched-be32-v6.dat", "synth-sched-le32-v6.dat",
	"synth-sched-be64-v6.dat", "synth-sched-u32k64-v6.dat", "synth-function-v6.dat",
	"synth-funcgraph-v6.dat", "synth-dropped-v6.dat",
};
#define NR_TEMPLATES (sizeof(template_names) / sizeof(template_names[0]))

struct template {
	unsigned char	*data;
	size_t		size;
	unsigned int	page_size;
	uint64_t	page_off;	/* the page the input replaces */
	size_t		pairs;		/* flyrecord (offset, size) pairs */
	int		cpus, cpu, big;
};

static struct template templates[NR_TEMPLATES];
static int nr_templates;

static void put_u64(unsigned char *p, uint64_t v, int big)
{
	for (int i = 0; i < 8; i++)
		p[big ? 7 - i : i] = v >> (8 * i);
}

static int load_template(struct template *t, const char *path)
{
	unsigned char pair[16];
	struct trace_input *in;
	unsigned char *hit;
	FILE *f;

	f = fopen(path, "rb");
	if (!f)
		return -1;
	t->data = malloc(1 << 20);
	t->size = fread(t->data, 1, 1 << 20, f);
	fclose(f);
	in = trace_input_open(path, TRACE_INPUT_NO_PLUGINS | TRACE_INPUT_NO_TEP);
	if (!in)
		return -1;
	t->page_size = trace_input_page_size(in);
	t->big = trace_input_big_endian(in);
	t->cpus = trace_input_buffer_cpus(in, 0);
	for (t->cpu = 0; t->cpu < t->cpus; t->cpu++)
		if (trace_input_cpu_size(in, 0, t->cpu) >= t->page_size)
			break;
	if (t->cpu == t->cpus) {
		trace_input_close(in);
		return -1;
	}
	t->page_off = trace_input_cpu_offset(in, 0, t->cpu);
	put_u64(pair, t->page_off, t->big);
	put_u64(pair + 8, trace_input_cpu_size(in, 0, t->cpu), t->big);
	trace_input_close(in);
	hit = memmem(t->data, t->size, pair, sizeof(pair));
	if (!hit)
		return -1;
	t->pairs = hit - t->data - 16 * t->cpu;
	/* Only the chosen CPU keeps data, one page of it. */
	for (int cpu = 0; cpu < t->cpus; cpu++)
		put_u64(t->data + t->pairs + 16 * cpu + 8, cpu == t->cpu ? t->page_size : 0,
			t->big);
	return 0;
}

/* FUZZ_PAGE_DUMP=FILE: also write the trace.dat built, for a regression test. */
static void dump_file(const void *buf, size_t size)
{
	const char *path = getenv("FUZZ_PAGE_DUMP");
	FILE *f;

	if (!path)
		return;
	f = fopen(path, "wb");
	if (!f || fwrite(buf, 1, size, f) != size || fclose(f)) {
		perror(path);
		abort();
	}
}

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	const char *dir = getenv("FUZZ_SRC_DIR");
	char path[4096];

	(void)argc;
	(void)argv;
	if (!dir)
		dir = FUZZ_SRC_DIR;
	for (size_t i = 0; i < NR_TEMPLATES; i++) {
		snprintf(path, sizeof(path), "%s/tests/fixtures/%s", dir, template_names[i]);
		if (load_template(&templates[nr_templates], path) < 0) {
			fprintf(stderr, "fuzz-page: cannot use template %s\n", path);
			exit(1);
		}
		nr_templates++;
	}
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned char *buf;
	static int fd = -1;
	struct template *t;
	struct trace_input *in;
	struct tep_record *rec;
	struct trace_seq s;
	size_t n;

	if (!size)
		return 0;
	t = &templates[data[0] % nr_templates];
	free(buf);
	buf = malloc(t->size);
	memcpy(buf, t->data, t->size);
	n = size - 1 < t->page_size ? size - 1 : t->page_size;
	memset(buf + t->page_off, 0, t->page_size);
	memcpy(buf + t->page_off, data + 1, n);
	dump_file(buf, t->size);
	in = trace_input_open(fuzz_memfile(&fd, buf, t->size),
			      data[0] & 0x80 ? 0 : TRACE_INPUT_NO_PLUGINS);
	if (!in)
		return 0;
	trace_seq_init(&s);
	while (trace_input_next(in, &rec, NULL) > 0) {
		trace_seq_reset(&s);
		tep_print_event(trace_input_tep(in), &s, rec, "%16s-%-5d [%03d] %6.1000d: %s: %s",
				TEP_PRINT_COMM, TEP_PRINT_PID, TEP_PRINT_CPU, TEP_PRINT_TIME,
				TEP_PRINT_NAME, TEP_PRINT_INFO);
	}
	trace_seq_destroy(&s);
	trace_input_close(in);
	return 0;
}
