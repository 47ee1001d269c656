/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One CPU of one buffer, of a trace.dat or live, as a stream of records (see
 * trace-cpu-stream.c): for the reader's modules (trace-reader.h) and stream.
 */
#ifndef TRACE_CPU_STREAM_H
#define TRACE_CPU_STREAM_H

#include <stdint.h>

#include <event-parse.h>

#include "trace-ahead.h"
#include "trace-page.h"

#define WINDOW_PAGES		64		/* pages read at once per CPU */
#define WINDOW_SLACK		(1U << 17)	/* zeros after a window, see fill_window() */
#define AHEAD_DEPTH		8		/* chunks queued per stream */

struct trace_input;

struct cpu_stream {
	/* The step, for the walker page_walk_init() chose: no test per record. */
	int			(*advance)(struct cpu_stream *s);
	struct trace_input	*in;
	/* A live buffer's pages (cpu_stream_init_live()) instead of the file's. */
	int			live;
	int			live_fd;	/* its trace_pipe_raw, non-blocking */
	const char		*live_name;	/* its buffer, "" the top one */
	const char		*live_path;	/* the file, as messages name it */
	int			buffer;
	int			cpu;
	int			idx;		/* merge order for equal timestamps */
	int			chunked;
	uint64_t		next;		/* next file offset to read */
	uint64_t		end;		/* end of this CPU's data in the file */
	uint32_t		chunks_left;
	uint32_t		chunks_said;	/* the CPU's chunk count */
	int			count_short;	/* more chunks than said: read to the end */
	unsigned char		*win;
	size_t			win_cap;
	size_t			win_len;
	size_t			win_dirty;	/* win's bytes from here on are zeros */
	uint64_t		win_off;	/* file offset of win[0] (raw data) */
	size_t			page;		/* offset of the loaded page in win */
	int			page_loaded;
	unsigned int		page_size;
	size_t			page_end;	/* end of the loaded page's events in win */
	struct page_walk	walk;
	struct page_walk	peek;		/* looks ahead without moving walk */
	int			peek_ready;
	struct tep_record	rec;
	int			first;		/* rec is its page's first record */
	int			last_off;	/* offset of rec in its page */
	int			skip_next;
	int			no_skip;	/* landing on a peeked record: no id filter */
	int			prev_skipped;	/* the record before was left out by id */
	/* Its next chunks, decompressed by the worker: a ring from ahead_head. */
	struct ahead_job	ahead[AHEAD_DEPTH];
	unsigned int		ahead_head, ahead_nr;
	uint64_t		ahead_next;	/* file offset after the last one queued */
	uint32_t		ahead_chunks;	/* chunks left after the last one queued */
	size_t			ahead_bytes;	/* their decompressed size */
	uint64_t		upos;		/* compressed: win[0]'s place in the CPU's data */
	uint64_t		upos_next;	/* and the next chunk's */
	uint64_t		vbase;		/* report --debug: upstream's offset of upos 0 */
	int			vbase_known;
};

/*
 * Where a stream's pages come from: the file (cpu_stream_init: a window
 * read with pread, or chunks decompressed ahead), or a live buffer
 * (cpu_stream_init_live: what cpu_stream_read_live() read from its
 * trace_pipe_raw).  Either way the records come out the same.
 */

/* Sets @s up for CPU @cpu of buffer @b (no record read yet): 0, or -1 (printed). */
int cpu_stream_init(struct trace_input *in, struct cpu_stream *s, int b, int cpu);
/*
 * Sets @s (zeroed) up for the pages of @page_size bytes read from @fd, CPU
 * @cpu of the live buffer @name ("" the top one), @path in messages; @in
 * holds the metadata (formats, page layout); @order breaks equal time stamps
 * in a merge.  Its timestamps stay the kernel's.  0, or -1 (printed).
 */
int cpu_stream_init_live(struct trace_input *in, struct cpu_stream *s, int cpu, int order,
			 size_t page_size, int fd, const char *name, const char *path);
/*
 * Reads what @s's buffer holds, up to a window of WINDOW_PAGES pages; with
 * @keep, after the pages from the current record's on, which stays current
 * (a merge stopped before it).  Records then come from those pages until
 * cpu_stream_advance() says 0.  Returns 1 when the window is full (read
 * again), 0, or -1 (printed).
 */
int cpu_stream_read_live(struct cpu_stream *s, int keep);
void cpu_stream_free(struct cpu_stream *s);
/* Moves @s to its next record (s->rec): 1 when there is one, 0 at its end, -1 on damage. */
static inline int cpu_stream_advance(struct cpu_stream *s)
{
	return s->advance(s);
}
/*
 * The record after @s's current one, when the window holds it whole and it
 * looks sound: 1 and a copy in *@next, else 0.  @s does not move.
 */
int cpu_stream_peek(struct cpu_stream *s, struct tep_record *next);

#endif
