/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading record's metadata ahead: while the command runs, a thread reads
 * the files trace.dat's header is made of (event formats, kallsyms,
 * printk_formats), and record hands them to the writer at the end
 * (trace_output_write_metadata).
 */
#ifndef TRACE_PREFETCH_H
#define TRACE_PREFETCH_H

#include <stddef.h>
#include <sys/types.h>

struct prefetch;
struct tfs_events;

/*
 * A parked thread (trace-worker.h) to read the header files and the
 * formats of @events (NULL: every event), from the current tracing
 * directory.  NULL if it cannot be made: the writer reads them itself.
 */
struct prefetch *prefetch_new(const struct tfs_events *events);
void prefetch_go(struct prefetch *p);
/*
 * Waits for the thread and offers what it read to prefetch_take(), but
 * kallsyms and printk_formats only if no module came or went meanwhile.
 */
void prefetch_finish(struct prefetch *p);
/* Finishes if needed and drops what was not taken. */
void prefetch_free(struct prefetch *p);
/*
 * @path's text as @p read it ahead (NUL-terminated, now the caller's), 1;
 * or 0 when it did not (or @p is NULL): read it now.  Each file is handed
 * out once, and only after prefetch_finish().
 */
int prefetch_take(struct prefetch *p, const char *path, char **buf, size_t *len);

#endif
