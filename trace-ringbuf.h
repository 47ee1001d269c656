/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts about the kernel's ring buffer as the tracing directory shows them
 * (of the current buffer, tfs_set_instance()): the size of the pages
 * trace_pipe_raw hands out, and the fields of per_cpu/cpuN/stats.
 */
#ifndef TRACE_RINGBUF_H
#define TRACE_RINGBUF_H

#include <stddef.h>

/* buffer_subbuf_size_kb in bytes, or the machine's page size on kernels without it. */
size_t ringbuf_page_size(void);

/* Field @name ("overrun", "read events") of a stats text into @val: 0, or -1 if absent. */
int ringbuf_stat_find(const char *stats, const char *name, unsigned long long *val);
/* The events a stats text says were lost: overrun, commit overrun and dropped events. */
unsigned long long ringbuf_stats_lost(const char *stats);

#endif
