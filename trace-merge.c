// SPDX-License-Identifier: GPL-2.0
/*
 * The records of every CPU and buffer of a trace.dat in timestamp order: a
 * heap of per-CPU streams (trace-cpu-stream.c), equal timestamps in stream
 * order, and the peek at the record after the current one.
 */
#include <stdlib.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-debug.h"
#include "trace-reader.h"
#include "trace-ahead.h"
#include "trace-cpu-stream.h"
#include "trace-merge.h"

/* ---- the heap ---------------------------------------------------------- */

void merge_heap_init(struct merge_heap *h, int cap)
{
	h->e = xcalloc(cap ? cap : 1, sizeof(*h->e));
	h->len = 0;
}

void merge_heap_free(struct merge_heap *h)
{
	free(h->e);
	h->e = NULL;
	h->len = 0;
}

void merge_heap_add(struct merge_heap *h, uint64_t ts, int order, void *src)
{
	h->e[h->len++] = (struct merge_entry){ .ts = ts, .order = order, .src = src };
}

static inline int entry_less(const struct merge_entry *a, const struct merge_entry *b)
{
	if (a->ts != b->ts)
		return a->ts < b->ts;
	return a->order < b->order;
}

static void heap_down(struct merge_heap *h, int i)
{
	struct merge_entry *e = h->e;

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < h->len && entry_less(&e[l], &e[m]))
			m = l;
		if (r < h->len && entry_less(&e[r], &e[m]))
			m = r;
		if (m == i)
			return;
		struct merge_entry t = e[i];
		e[i] = e[m];
		e[m] = t;
		i = m;
	}
}

void merge_heap_order(struct merge_heap *h)
{
	for (int i = h->len / 2 - 1; i >= 0; i--)
		heap_down(h, i);
}

void merge_heap_next(struct merge_heap *h, int more, uint64_t ts)
{
	if (more)
		h->e[0].ts = ts;
	else
		h->e[0] = h->e[--h->len];
	heap_down(h, 0);
}

int merge_heap_other_before(const struct merge_heap *h, uint64_t ts, int order)
{
	const struct merge_entry key = { .ts = ts, .order = order };

	/* The first's children hold the least of the others. */
	for (int i = 1; i <= 2 && i < h->len; i++)
		if (entry_less(&h->e[i], &key))
			return 1;
	return 0;
}

/* ---- a trace.dat's streams --------------------------------------------- */

/* A stream's place in the heap: its record's time, or none (one stream after another). */
static uint64_t stream_key(const struct trace_input *in, const struct cpu_stream *s)
{
	return in->cpu_order ? 0 : s->rec.ts;
}

static int start_streams(struct trace_input *in)
{
	int n = 0;

	for (int b = 0; b < in->nr_buffers; b++)
		n += in->buffers[b].cpus;
	in->streams = xcalloc(n ? n : 1, sizeof(*in->streams));
	merge_heap_init(&in->heap, n);
	for (int b = 0; b < in->nr_buffers; b++) {
		struct buffer *buf = &in->buffers[b];

		for (int cpu = 0; cpu < buf->cpus; cpu++) {
			struct cpu_stream *s;
			int ret;

			if (!buf->cpu[cpu].size || (in->skip_cpu && cpu < MAX_CPUS &&
						    in->skip_cpu[cpu]))
				continue;
			if (buf->chunked && !in->ahead && !trace_debug()->no_ahead)
				in->ahead = ahead_new(in->comp_name);
			s = &in->streams[in->nr_streams];
			s->idx = in->nr_streams++;
			if (cpu_stream_init(in, s, b, cpu) < 0)
				return -1;
			ret = cpu_stream_advance(s);
			if (ret < 0)
				return -1;
			if (ret)
				merge_heap_add(&in->heap, stream_key(in, s), s->idx, s);
		}
	}
	merge_heap_order(&in->heap);
	return 0;
}

int trace_input_next(struct trace_input *in, struct tep_record **rec, int *buffer)
{
	struct cpu_stream *s;
	int ret;

	if (in->failed)
		return -1;
	if (!in->started) {
		in->started = 1;
		if (start_streams(in) < 0)
			goto fail;
	} else if (in->heap.len) {
		/* The record handed out last time is consumed now. */
		s = merge_heap_first(&in->heap);
		ret = cpu_stream_advance(s);
		if (ret < 0)
			goto fail;
		merge_heap_next(&in->heap, ret, stream_key(in, s));
	}
	if (!in->heap.len) {
		/* A damaged kallsyms section no line needed is warned of all the same. */
		reader_kallsyms_text(in);
		return 0;
	}
	s = merge_heap_first(&in->heap);
	*rec = &s->rec;
	if (buffer)
		*buffer = s->buffer;
	return 1;
fail:
	in->failed = 1;
	return -1;
}

int trace_input_peek_same_cpu(struct trace_input *in, struct tep_record *rec,
			      struct tep_record *next)
{
	struct cpu_stream *s = rec->priv;

	if (!cpu_stream_peek(s, next))
		return 0;
	/* It must also be the next record of the merge: no other CPU's comes first. */
	return !merge_heap_other_before(&in->heap, next->ts, s->idx);
}

void trace_input_skip_next_same_cpu(struct trace_input *in, struct tep_record *rec)
{
	struct cpu_stream *s = rec->priv;

	(void)in;
	s->skip_next = 1;
}

void merge_free(struct trace_input *in)
{
	ahead_free(in->ahead);
	for (int i = 0; i < in->nr_streams; i++) {
		for (int j = 0; j < AHEAD_DEPTH; j++) {
			free(in->streams[i].ahead[j].src);
			free(in->streams[i].ahead[j].dst);
		}
		cpu_stream_free(&in->streams[i]);
	}
	free(in->streams);
	merge_heap_free(&in->heap);
}
