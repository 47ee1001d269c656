// SPDX-License-Identifier: GPL-2.0
/*
 * The ring buffer's page size and per-CPU stats (see trace-ringbuf.h), read
 * the same way by record, extract, restore and stream.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-ringbuf.h"
#include "trace-tracefs.h"

size_t ringbuf_page_size(void)
{
	unsigned long kb;

	if (tfs_exists(NULL, "buffer_subbuf_size_kb") &&
	    tfs_read_ulong(NULL, "buffer_subbuf_size_kb", &kb) == 0 && kb)
		return kb * 1024;
	return getpagesize();
}

int ringbuf_stat_find(const char *stats, const char *name, unsigned long long *val)
{
	size_t len = strlen(name);

	for (const char *p = stats; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (!strncmp(p, name, len) && p[len] == ':') {
			*val = strtoull(p + len + 1, NULL, 10);
			return 0;
		}
	return -1;
}

static unsigned long long stat_value(const char *stats, const char *name)
{
	unsigned long long val = 0;

	ringbuf_stat_find(stats, name, &val);
	return val;
}

unsigned long long ringbuf_stats_lost(const char *stats)
{
	return stat_value(stats, "overrun") + stat_value(stats, "commit overrun") +
	       stat_value(stats, "dropped events");
}
