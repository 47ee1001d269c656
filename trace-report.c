// SPDX-License-Identifier: GPL-2.0
/* trace-cmd report: placeholder until the report module lands. */
#include <string.h>
#include "trace-cmd.h"

static const char report_usage[] = "usage: trace-cmd report [OPTIONS]\n";
extern const struct command cmd_report;

static int run_report(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "-h"))
		return show_usage(&cmd_report);
	return error("not built yet"), EXIT_FAILED;
}

const struct command cmd_report = { "report", run_report, report_usage, "report" };
