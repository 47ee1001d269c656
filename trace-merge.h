/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The merge of per-CPU record sources in timestamp order: a binary heap keyed
 * by (timestamp, order), the order breaking ties (stream index, slot).  The
 * reader's merge of a trace.dat (trace-merge.c) and stream's of live buffers
 * (trace-stream.c) both go through it.
 */
#ifndef TRACE_MERGE_H
#define TRACE_MERGE_H

#include <stdint.h>

struct merge_entry {
	uint64_t		ts;
	int			order;
	void			*src;
};

struct merge_heap {
	struct merge_entry	*e;
	int			len;
};

/* Room for @cap sources, none in it yet. */
void merge_heap_init(struct merge_heap *h, int cap);
void merge_heap_free(struct merge_heap *h);
/* Adds a source; merge_heap_order() orders what was added. */
void merge_heap_add(struct merge_heap *h, uint64_t ts, int order, void *src);
void merge_heap_order(struct merge_heap *h);
/* The first source, or NULL when none is left. */
static inline void *merge_heap_first(const struct merge_heap *h)
{
	return h->len ? h->e[0].src : NULL;
}
/* The first source moved on to a record at @ts, or (@more 0) ended. */
void merge_heap_next(struct merge_heap *h, int more, uint64_t ts);
/* Whether a source other than the first has a record before (@ts, @order). */
int merge_heap_other_before(const struct merge_heap *h, uint64_t ts, int order);

#endif
