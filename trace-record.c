// SPDX-License-Identifier: GPL-2.0
/* trace-cmd record: placeholder until the record module lands. */
#include <string.h>
#include "trace-cmd.h"

static const char record_usage[] = "usage: trace-cmd record [OPTIONS]\n";
extern const struct command cmd_record;

static int run_record(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-h"))
		return show_usage(&cmd_record);
	return error("not built yet"), EXIT_FAILED;
}

const struct command cmd_record = { "record", run_record, record_usage, "record" };
