// SPDX-License-Identifier: GPL-2.0
/*
 * The debug switches (trace-debug.h), taken from the environment the first
 * time anyone asks, from whichever thread.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "trace-debug.h"

static struct trace_debug debug;
static pthread_once_t debug_once = PTHREAD_ONCE_INIT;

/* Set to something other than "" or "0". */
static int switched_on(const char *name)
{
	const char *v = getenv(name);

	return v && *v && strcmp(v, "0");
}

static void read_switches(void)
{
	debug.kbuffer = switched_on("TRACE_CMD_KBUFFER");
	debug.slow_print = switched_on("TRACE_CMD_SLOW_PRINT");
	debug.no_ahead = getenv("TRACE_CMD_NO_AHEAD") != NULL;
	debug.threads = getenv("TRACE_CMD_THREADS") ? atoi(getenv("TRACE_CMD_THREADS")) : 0;
	debug.threads_test = getenv("TRACE_CMD_THREADS_TEST") != NULL;
}

const struct trace_debug *trace_debug(void)
{
	pthread_once(&debug_once, read_switches);
	return &debug;
}
