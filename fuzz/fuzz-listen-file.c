// SPDX-License-Identifier: GPL-2.0
/*
 * libFuzzer target: the file header a `record -N` client streams to
 * `listen` (v6 sections, or v7 sections and options), finished into a
 * trace.dat as the listener does it, and then read back as `report` would.
 * The first input byte sets the CPU count and whether each CPU sent data.
 */
#include <string.h>

#include "trace-input.h"
#include "trace-listen.h"
#include "fuzz.h"

#define MAX_FUZZ_CPUS 4

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static int out = -1, cpufd[MAX_FUZZ_CPUS] = { -1, -1, -1, -1 };
	static unsigned char page[4096];
	struct listen_cpu cpu[MAX_FUZZ_CPUS];
	struct trace_input *in;
	struct tep_record *rec;
	uint32_t cpus;
	const char *path;

	if (size < 2)
		return 0;
	cpus = 1 + (data[0] & 3);
	for (uint32_t i = 0; i < cpus; i++) {
		int with_data = data[0] & (0x10 << i);

		fuzz_memfile(&cpufd[i], page, with_data ? sizeof(page) : 0);
		cpu[i].fd = cpufd[i];
		cpu[i].size = with_data ? sizeof(page) : 0;
	}
	path = fuzz_memfile(&out, data + 1, size - 1);
	if (listen_finish_file(out, size - 1, "fuzz:1", cpus, cpu) < 0)
		return 0;
	if (getenv("FUZZ_DUMP")) {
		/* FUZZ_DUMP=FILE: keep the finished file, for a regression test. */
		char cmd[4200];

		snprintf(cmd, sizeof(cmd), "cp %s '%s'", path, getenv("FUZZ_DUMP"));
		if (system(cmd))
			abort();
	}
	in = trace_input_open(path, TRACE_INPUT_NO_PLUGINS);
	if (!in)
		return 0;
	while (trace_input_next(in, &rec, NULL) > 0)
		;
	trace_input_close(in);
	return 0;
}
