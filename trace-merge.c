// SPDX-License-Identifier: GPL-2.0
/*
 * The records of every CPU and buffer of a trace.dat in timestamp order: a
 * heap of per-CPU streams (trace-cpu-stream.c), equal timestamps in stream
 * order, and the peek at the record after the current one.
 */
#include <stdlib.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-reader.h"
#include "trace-ahead.h"
#include "trace-cpu-stream.h"

static int stream_less(const struct cpu_stream *a, const struct cpu_stream *b)
{
	if (a->rec.ts != b->rec.ts)
		return a->rec.ts < b->rec.ts;
	return a->idx < b->idx;
}

static void heap_down(struct trace_input *in, int i)
{
	struct cpu_stream **h = in->heap;

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < in->heap_len && stream_less(h[l], h[m]))
			m = l;
		if (r < in->heap_len && stream_less(h[r], h[m]))
			m = r;
		if (m == i)
			return;
		struct cpu_stream *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}
static int start_streams(struct trace_input *in)
{
	int n = 0;

	for (int b = 0; b < in->nr_buffers; b++)
		n += in->buffers[b].cpus;
	in->streams = xcalloc(n ? n : 1, sizeof(*in->streams));
	in->heap = xcalloc(n ? n : 1, sizeof(*in->heap));
	for (int b = 0; b < in->nr_buffers; b++) {
		struct buffer *buf = &in->buffers[b];

		for (int cpu = 0; cpu < buf->cpus; cpu++) {
			struct cpu_stream *s;
			int ret;

			if (!buf->cpu[cpu].size || (in->skip_cpu && cpu < MAX_CPUS &&
						    in->skip_cpu[cpu]))
				continue;
			if (buf->chunked && !in->ahead && !getenv("TRACE_CMD_NO_AHEAD"))
				in->ahead = ahead_new(in->comp_name);
			s = &in->streams[in->nr_streams];
			s->idx = in->nr_streams++;
			if (cpu_stream_init(in, s, b, cpu) < 0)
				return -1;
			ret = cpu_stream_advance(s);
			if (ret < 0)
				return -1;
			if (ret)
				in->heap[in->heap_len++] = s;
		}
	}
	for (int i = in->heap_len / 2 - 1; i >= 0; i--)
		heap_down(in, i);
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
	} else if (in->heap_len) {
		/* The record handed out last time is consumed now. */
		s = in->heap[0];
		ret = cpu_stream_advance(s);
		if (ret < 0)
			goto fail;
		if (!ret)
			in->heap[0] = in->heap[--in->heap_len];
		heap_down(in, 0);
	}
	if (!in->heap_len) {
		/* A damaged kallsyms section no line needed is warned of all the same. */
		reader_kallsyms_text(in);
		return 0;
	}
	s = in->heap[0];
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
	for (int i = 1; i <= 2 && i < in->heap_len; i++) {
		struct cpu_stream *o = in->heap[i];

		if (o->rec.ts < next->ts || (o->rec.ts == next->ts && o->idx < s->idx))
			return 0;
	}
	return 1;
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
	free(in->heap);
}
