// SPDX-License-Identifier: GPL-2.0
/*
 * One CPU of one buffer of a trace.dat as a stream of records: its data read
 * in windows with pread, or chunk by chunk decompressed (ahead, by the worker
 * of trace-ahead.c), or a live buffer's pages read from its trace_pipe_raw
 * (stream), each page checked and stepped through with trace-page.h.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-reader.h"
#include "trace-cpu-stream.h"

/* @s's buffer in messages: "" for the top one. */
static const char *buffer_name(const struct cpu_stream *s)
{
	return s->live ? s->live_name : s->in->buffers[s->buffer].name;
}

/*
 * @raw as report shows it, converted by the file's options (buffer 0 is the
 * top); a live buffer's metadata has only stream's TSC2NSEC, if any.
 */
static uint64_t stream_ts(const struct cpu_stream *s, uint64_t raw)
{
	return clock_conv_ts(&s->in->conv, !s->live && s->buffer == 0, s->cpu, raw);
}

static int stream_bad(struct cpu_stream *s, uint64_t off, const char *fmt, const char *detail,
		      unsigned long long v)
{
	struct cursor c;
	char msg[256];
	const char *name = buffer_name(s);

	cur_init(&c, NULL, 0, 0, 0, s->in->file);
	snprintf(msg, sizeof(msg), fmt, detail, v);
	if (*name)
		return cur_bad(&c, off, "buffer '%s' CPU %d: %s", name, s->cpu, msg);
	return cur_bad(&c, off, "CPU %d: %s", s->cpu, msg);
}

static int stream_truncated(struct cpu_stream *s, uint64_t off, uint64_t need, const char *what)
{
	struct cursor c;
	char full[128];
	const char *name = buffer_name(s);

	cur_init(&c, NULL, 0, off, 0, s->in->file);
	if (*name)
		snprintf(full, sizeof(full), "buffer '%s' CPU %d %s", name, s->cpu, what);
	else
		snprintf(full, sizeof(full), "CPU %d %s", s->cpu, what);
	return cur_need(&c, need, full);
}

static int read_at(struct cpu_stream *s, void *buf, size_t len, uint64_t off, const char *what)
{
	ssize_t n = pread(s->in->fd, buf, len, off);
	size_t got = n < 0 ? 0 : n;

	while (n > 0 && got < len) {
		n = pread(s->in->fd, (char *)buf + got, len - got, off + got);
		if (n > 0)
			got += n;
	}
	if (n < 0)
		return error("'%s': read error at offset %llu: %s", s->in->file,
			     (unsigned long long)off, strerror(errno));
	if (got < len)
		return stream_truncated(s, off + got, len - got, what);
	return 0;
}

/* Room in win for @len bytes the caller is about to write, and the slack. */
static void ensure_window(struct cpu_stream *s, size_t len)
{
	if (len + WINDOW_SLACK > s->win_cap) {
		free(s->win);
		s->win_cap = len + WINDOW_SLACK;
		s->win = xcalloc(1, s->win_cap);
		s->win_dirty = 0;
	}
	if (s->win_dirty < len)
		s->win_dirty = len;
}

/*
 * The zeros after a window's @len bytes of data (see fill_window()):
 * only what an earlier, longer window left there is cleared, not the whole
 * slack each time, which cost a 128 KB memset per window.
 */
static void zero_slack(struct cpu_stream *s, size_t len)
{
	if (s->win_dirty > len)
		memset(s->win + len, 0, s->win_dirty - len);
	s->win_dirty = len;
}

#define AHEAD_MAX_CHUNK	(8U << 20)	/* bigger chunks are not doubled in memory */
#define AHEAD_BYTES	(1U << 20)	/* queued per stream, at least one chunk */

/*
 * Hands the chunk at s->ahead_next to the worker in the ring's next slot.
 * Anything odd is left for fill_window() to find and report, so nothing is
 * said here.  Returns 0 when it queued one.
 */
static int queue_one_ahead(struct cpu_stream *s)
{
	struct trace_input *in = s->in;
	struct ahead_job *j = &s->ahead[(s->ahead_head + s->ahead_nr) % AHEAD_DEPTH];
	unsigned char hdr[8];
	struct cursor c;
	uint32_t cs, us;

	if (!s->ahead_chunks || s->ahead_next + 8 > s->end ||
	    pread(in->fd, hdr, 8, s->ahead_next) != 8)
		return -1;
	cur_init(&c, hdr, 8, s->ahead_next, in->big_endian, in->file);
	cur_u32(&c, &cs, "chunk size");
	cur_u32(&c, &us, "chunk size");
	if (!us || us > AHEAD_MAX_CHUNK || cs > s->end - s->ahead_next - 8)
		return -1;
	if (j->src_cap < cs) {
		free(j->src);
		j->src_cap = cs;
		j->src = xmalloc(cs ? cs : 1);
	}
	if (pread(in->fd, j->src, cs, s->ahead_next + 8) != (ssize_t)cs)
		return -1;
	if (j->dst_cap < us + WINDOW_SLACK) {
		free(j->dst);
		j->dst_cap = us + WINDOW_SLACK;
		j->dst = xcalloc(1, j->dst_cap);
		j->dst_dirty = 0;
	}
	if (j->dst_dirty < us)
		j->dst_dirty = us;	/* the worker writes that much */
	j->at = s->ahead_next;
	j->csize = cs;
	j->usize = us;
	ahead_queue(in->ahead, j);
	s->ahead_nr++;
	s->ahead_bytes += us;
	s->ahead_next += 8 + cs;
	s->ahead_chunks--;
	return 0;
}

/*
 * Keeps up to AHEAD_DEPTH chunks (AHEAD_BYTES of data) of the stream queued,
 * so the worker has the next one at hand while the reader takes the last.
 */
static void queue_ahead(struct cpu_stream *s)
{
	if (!s->in->ahead)
		return;
	if (!s->ahead_nr) {
		s->ahead_next = s->next;
		s->ahead_chunks = s->chunks_left;
	}
	/* ahead_bytes is 0 when the ring is empty: at least one is queued */
	while (s->ahead_nr < AHEAD_DEPTH && s->ahead_bytes < AHEAD_BYTES)
		if (queue_one_ahead(s) < 0)
			break;
}

/* Waits for every chunk still queued and empties the ring. */
static void drop_ahead(struct cpu_stream *s)
{
	for (; s->ahead_nr; s->ahead_nr--) {
		struct ahead_job *j = &s->ahead[s->ahead_head];

		ahead_wait(s->in->ahead, j);
		j->state = AHEAD_IDLE;
		s->ahead_head = (s->ahead_head + 1) % AHEAD_DEPTH;
	}
	s->ahead_bytes = 0;
}

/* The chunk at s->next from the worker, when it has it: its length, else 0. */
static size_t take_ahead(struct cpu_stream *s)
{
	struct ahead_job *j = &s->ahead[s->ahead_head];
	unsigned char *win = s->win;
	size_t cap = s->win_cap, dirty = s->win_dirty;

	if (!s->ahead_nr)
		return 0;
	ahead_wait(s->in->ahead, j);
	if (j->state != AHEAD_DONE || j->at != s->next) {
		/* fill_window() reads it again and says what is wrong */
		drop_ahead(s);
		return 0;
	}
	j->state = AHEAD_IDLE;
	s->ahead_head = (s->ahead_head + 1) % AHEAD_DEPTH;
	s->ahead_nr--;
	s->ahead_bytes -= j->usize;
	s->win = j->dst;
	s->win_cap = j->dst_cap;
	s->win_dirty = j->dst_dirty;
	j->dst = win;
	j->dst_cap = win ? cap : 0;
	j->dst_dirty = win ? dirty : 0;
	s->win_off = s->next;
	s->next += 8 + j->csize;
	s->chunks_left--;
	return j->usize;
}

/*
 * Called when @s has read the chunks its count promised: 1 if a whole
 * chunk header still lies in its data, which is then read to its end, with
 * a warning (a count of 1 over 3 chunks dropped two in silence), else 0.
 * (The 4 bytes after a CPU that upstream 3.1.6 leaves out of its size are
 * less than a header.)
 */
static int more_chunks(struct cpu_stream *s)
{
	const char *name = s->in->buffers[s->buffer].name;
	unsigned char hdr[8];
	struct cursor c;
	uint32_t cs, us;

	if (s->count_short || s->next + 8 > s->end || read_at(s, hdr, 8, s->next, "chunk") < 0)
		return 0;
	s->count_short = 1;
	cur_init(&c, hdr, 8, s->next, s->in->big_endian, s->in->file);
	cur_u32(&c, &cs, "chunk size");
	cur_u32(&c, &us, "chunk size");
	if (!us || us > MAX_CHUNK_SIZE || cs > s->end - s->next - 8) {
		warning("'%s': %s%s%sCPU %d: %llu bytes after its %u chunks are not a chunk: ignored",
			s->in->file, *name ? "buffer '" : "", name, *name ? "' " : "", s->cpu,
			(unsigned long long)(s->end - s->next), s->chunks_said);
		return 0;
	}
	warning("'%s': %s%s%sCPU %d: chunk count %u, but more chunks follow in its data: all read",
		s->in->file, *name ? "buffer '" : "", name, *name ? "' " : "", s->cpu,
		s->chunks_said);
	s->chunks_left = UINT32_MAX;
	return 1;
}

/*
 * Loads the next window of pages.  Zeros follow the data so that a damaged
 * event that points a little past its page still reads inside the buffer.
 * Returns 1 with data, 0 at the end of this CPU, -1 on damage.
 */
static int fill_window(struct cpu_stream *s)
{
	size_t len;

	if (s->live)
		return 0;	/* its pages come from cpu_stream_read_live() */
	if (!s->chunked) {
		if (s->next >= s->end)
			return 0;
		len = s->end - s->next;
		if (len > (size_t)WINDOW_PAGES * s->page_size)
			len = (size_t)WINDOW_PAGES * s->page_size;
		ensure_window(s, len);
		if (read_at(s, s->win, len, s->next, "data") < 0)
			return -1;
		s->win_off = s->next;
		s->next += len;
	} else {
		unsigned char hdr[8];
		struct cursor c;
		uint32_t cs, us;
		void *cbuf;

		if (!s->chunks_left && more_chunks(s) <= 0)
			return 0;
		len = take_ahead(s);
		if (len) {
			queue_ahead(s);
			goto loaded;
		}
		if (s->next + 8 > s->end) {
			if (s->count_short)
				return 0;	/* the count was short: its end is the data's */
			return stream_truncated(s, s->next, 8, "data chunk header");
		}
		if (read_at(s, hdr, 8, s->next, "data chunk header") < 0)
			return -1;
		cur_init(&c, hdr, 8, s->next, s->in->big_endian, s->in->file);
		cur_u32(&c, &cs, "chunk size");
		cur_u32(&c, &us, "chunk size");
		if (us > MAX_CHUNK_SIZE || !us)
			return stream_bad(s, s->next, "%s of %llu bytes", "bad chunk size", us);
		if (cs > s->end - s->next - 8)
			return stream_truncated(s, s->next + 8, cs, "data chunk");
		cbuf = xmalloc(cs ? cs : 1);
		if (read_at(s, cbuf, cs, s->next + 8, "data chunk") < 0) {
			free(cbuf);
			return -1;
		}
		ensure_window(s, us);
		if (reader_decompress(s->in, NULL, cbuf, cs, s->win, us, s->next, "CPU data chunk") < 0) {
			free(cbuf);
			return -1;
		}
		free(cbuf);
		s->win_off = s->next;
		s->next += 8 + cs;
		s->chunks_left--;
		len = us;
		queue_ahead(s);
	}
loaded:
	s->upos = s->upos_next;
	s->upos_next += len;
	zero_slack(s, len);
	s->win_len = len;
	s->page = 0;
	s->page_loaded = 0;
	return 1;
}

static uint64_t page_offset(struct cpu_stream *s)
{
	return s->chunked ? s->win_off : s->win_off + s->page;
}

/* The commit word of the page at @page in the window (its header is there). */
static uint64_t page_commit(const struct cpu_stream *s, size_t page)
{
	struct cursor c;

	cur_init(&c, NULL, 0, 0, s->in->big_endian, s->in->file);
	return cur_decode(&c, s->win + page + 8, s->in->kernel_long_size);
}

/* What is wrong with a page header's @commit word: 0 nothing, or HEADER_*. */
enum { HEADER_TOO_BIG = 1, HEADER_NO_MISSED_ROOM };

static int header_fault(const struct cpu_stream *s, uint64_t commit)
{
	size_t hdr = 8 + s->in->kernel_long_size;
	uint64_t size = commit & PAGE_COMMIT_MASK;

	if (size > s->page_size - hdr)
		return HEADER_TOO_BIG;
	if ((commit & PAGE_MISSED_STORED) && hdr + size + s->in->kernel_long_size > s->page_size)
		return HEADER_NO_MISSED_ROOM;
	return 0;
}

/* Loads the page at s->page after checking its header against its bounds. */
static int load_page(struct cpu_stream *s)
{
	struct trace_input *in = s->in;
	size_t avail = s->win_len - s->page;
	size_t hdr = 8 + in->kernel_long_size;
	uint64_t commit, size;
	int fault;

	if (avail > s->page_size)
		avail = s->page_size;
	if (avail < hdr)
		return stream_truncated(s, page_offset(s), hdr, "page header");
	commit = page_commit(s, s->page);
	size = commit & PAGE_COMMIT_MASK;
	fault = header_fault(s, commit);
	if (fault == HEADER_TOO_BIG)
		return stream_bad(s, page_offset(s), "%s %llu is larger than the page",
				  "page data size", size);
	if (hdr + size > avail)
		return stream_truncated(s, page_offset(s), hdr + size, "page");
	if (fault == HEADER_NO_MISSED_ROOM)
		return stream_bad(s, page_offset(s), "%s%llu", "no room for the missed count at ",
				  hdr + size);
	page_walk_load(&s->walk, s->win + s->page);
	s->page_end = s->page + hdr + size;
	s->page_loaded = 1;
	return 0;
}

/*
 * Where @rec's trailing "char buf[]" field (size 0) starts, or 0.  For such
 * a field libtraceevent takes the record size minus the field offset as a
 * length, which a record shorter than the offset turns huge.  (Shorter
 * fixed fields are normal: kernel_stack's caller[8] holds only the frames
 * recorded, and reads past a record stay inside the zeroed window slack.)
 */
static uint64_t event_flex_offset(struct tep_event *ev)
{
	uint64_t need = 0;

	for (struct tep_format_field *f = ev ? ev->format.fields : NULL; f; f = f->next)
		if (!f->size && (uint64_t)(unsigned int)f->offset > need)
			need = (unsigned int)f->offset;
	return need;
}

/* The same, by event id, from a cache (filled once the id's format is parsed). */
static uint64_t id_flex_offset(struct trace_input *in, int id)
{
	if (id < 0 || id >= LAZY_IDS)
		return event_flex_offset(tep_find_event(in->tep, id));
	/* calloc's zeros (untouched pages, for 512 KB) mean not looked up yet. */
	if (!in->flex_by_id)
		in->flex_by_id = xcalloc(LAZY_IDS, sizeof(*in->flex_by_id));
	if (!in->flex_by_id[id])
		in->flex_by_id[id] = event_flex_offset(tep_find_event(in->tep, id)) + 1;
	return in->flex_by_id[id] - 1;
}

/* Parses @rec's format if needed; 0 if @rec is long enough for it, -1 (printed) if not. */
static int check_record(struct cpu_stream *s, struct tep_record *rec)
{
	struct trace_input *in = s ? s->in : ((struct cpu_stream *)rec->priv)->in;
	uint64_t need;
	int id;

	if (!in->tep)
		return 0;
	id = trace_input_record_type(in, rec);
	/* An id already looked for costs no call into trace-tep.c. */
	if (in->id_done && !(id >= 0 && id < LAZY_IDS && in->id_done[id]) &&
	    trace_input_need_event(in, id) < 0)
		return -1;
	need = id_flex_offset(in, id);
	if ((uint64_t)rec->size >= need)
		return 0;
	if (!s)
		return -1;
	return stream_bad(s, rec->offset, "%s record ends before its last field (at %llu)",
			  tep_find_event(in->tep, id)->name, need);
}

static int fill_record(struct cpu_stream *s, const void *data, int first)
{
	const unsigned char *p = data;
	int size = page_walk_event_size(&s->walk);
	int off = page_walk_offset(&s->walk);

	/* A damaged length can make the walk wrap back in the page: a loop. */
	if (!first && off <= s->last_off)
		return stream_bad(s, page_offset(s) + s->last_off, "%s at page offset %llu lies before it",
				  "the next event", off);
	s->last_off = off;

	if (p < s->win + s->page || size < 0 || p + size > s->win + s->page_end)
		return stream_bad(s, page_offset(s) + off, "%s (%llu bytes) runs past its page",
				  "event", size);
	memset(&s->rec, 0, sizeof(s->rec));
	s->rec.ts = stream_ts(s, page_walk_ts(&s->walk));
	s->rec.offset = page_offset(s) + off;
	s->rec.size = size;
	s->rec.record_size = page_walk_record_size(&s->walk);
	s->rec.data = (void *)data;
	s->rec.cpu = s->cpu;
	s->rec.ref_count = 1;
	s->rec.missed_events = first ? page_walk_missed(&s->walk) : 0;
	s->rec.priv = s;
	s->first = first;
	return check_record(s, &s->rec) < 0 ? -1 : 1;
}

/* A common field of 1, 2 or 4 bytes (see common_usable()) in the file's order. */
static inline uint32_t common_value(const unsigned char *p, int size, int big_endian)
{
	if (size == 1)
		return p[0];
	if (size == 2)
		return big_endian ? (uint32_t)p[0] << 8 | p[1] : (uint32_t)p[1] << 8 | p[0];
	if (big_endian)
		return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
	return (uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0];
}

/*
 * Steps past the events trace_input_only_ids() left out, from @data on,
 * deciding by id alone before any record is filled in: this loop is where
 * "report -F" on a rare event spends its time.  Returns the first event to
 * keep, or NULL at the page's end; *@first is cleared once one is skipped.
 * A damaged position is left to fill_record() to report.
 */
static inline __attribute__((always_inline)) const void *
skip_unwanted(struct cpu_stream *s, const void *data, int *first, const int kb)
{
	struct trace_input *in = s->in;
	const unsigned char *ids = in->want_ids;
	const unsigned char *end = s->win + s->page_end;
	size_t field_end = (size_t)in->type_offset + in->type_size;

	if (!ids || s->no_skip)
		return data;
	while (data) {
		const unsigned char *p = data;
		int off = page_walk_offset(&s->walk);
		uint32_t id;

		if ((!*first && off <= s->last_off) || p > end || field_end > (size_t)(end - p))
			break;
		id = common_value(p + in->type_offset, in->type_size, in->big_endian);
		if (id >= LAZY_IDS ||
		    (ids[id] && (ids[id] != TRACE_INPUT_ID_FOLLOWS || !s->prev_skipped))) {
			s->prev_skipped = 0;
			break;
		}
		s->prev_skipped = 1;
		s->last_off = off;
		*first = 0;
		data = page_walk_step(&s->walk, kb);
	}
	return data;
}

/* A padding loop ends its page early: that is damage, not the end. */
static int page_done(struct cpu_stream *s)
{
	int bad = page_walk_damage(&s->walk);

	if (bad >= 0)
		return stream_bad(s, page_offset(s) + bad, "%s at page offset %llu loops back",
				  "padding", bad);
	s->page += s->page_size;
	s->page_loaded = 0;
	return 0;
}

/*
 * Moves @s to its next record: 1 when there is one, 0 at its end, -1 on
 * damage.  Compiled once per walker (@kb constant): see advance_own().
 */
static inline __attribute__((always_inline)) int advance_with(struct cpu_stream *s, const int kb)
{
	const void *data;

	if (s->skip_next) {
		int ret;

		/* Land on the record to drop (whatever its id); the code below steps past it. */
		s->skip_next = 0;
		s->no_skip = 1;
		ret = s->advance(s);
		s->no_skip = 0;
		if (ret <= 0)
			return ret;
	}
	if (s->page_loaded) {
		int first = 0;

		data = skip_unwanted(s, page_walk_step(&s->walk, kb), &first, kb);
		if (data)
			return fill_record(s, data, 0);
		if (page_done(s) < 0)
			return -1;
	}
	for (;;) {
		int first = 1;

		if (s->page >= s->win_len) {
			int ret = fill_window(s);

			if (ret <= 0)
				return ret;
		}
		if (load_page(s) < 0)
			return -1;
		data = skip_unwanted(s, page_walk_event(&s->walk), &first, kb);
		if (data)
			return fill_record(s, data, first);
		if (page_done(s) < 0)
			return -1;
	}
}

/* The stream's step with our walker, and with kbuffer: cpu_stream_init() picks one. */
static int advance_own(struct cpu_stream *s)
{
	return advance_with(s, 0);
}

static int advance_kbuffer(struct cpu_stream *s)
{
	return advance_with(s, 1);
}

static int common_usable(const struct tep_format_field *f)
{
	return f && (f->size == 1 || f->size == 2 || f->size == 4) && f->offset >= 0;
}

/*
 * libtraceevent reads every event's common_type and common_pid where its
 * first event has them; learnt once here, they are read without its lookups.
 */
static int learn_common(struct trace_input *in)
{
	struct tep_event *ev;
	struct tep_format_field *type, *pid, *flags;

	if (in->common_known)
		return in->common_known > 0;
	ev = in->tep ? tep_get_first_event(in->tep) : NULL;
	if (!ev)
		return 0;	/* no format parsed yet: ask again later */
	type = tep_find_common_field(ev, "common_type");
	pid = tep_find_common_field(ev, "common_pid");
	if (!common_usable(type) || !common_usable(pid)) {
		in->common_known = -1;
		return 0;
	}
	in->type_offset = type->offset;
	in->type_size = type->size;
	in->pid_offset = pid->offset;
	in->pid_size = pid->size;
	flags = tep_find_common_field(ev, "common_flags");
	if (common_usable(flags)) {
		in->flags_offset = flags->offset;
		in->flags_size = flags->size;
	}
	cur_init(&in->type_cursor, NULL, 0, 0, in->big_endian, in->file);
	in->common_known = 1;
	return 1;
}

int trace_input_record_type(struct trace_input *in, struct tep_record *rec)
{
	if (!learn_common(in) || rec->size < in->type_offset + in->type_size)
		return tep_data_type(in->tep, rec);
	return (int)cur_decode(&in->type_cursor, (const char *)rec->data + in->type_offset,
			       in->type_size);
}

int trace_input_record_pid(struct trace_input *in, struct tep_record *rec)
{
	if (!learn_common(in) || rec->size < in->pid_offset + in->pid_size)
		return tep_data_pid(in->tep, rec);
	return (int)cur_decode(&in->type_cursor, (const char *)rec->data + in->pid_offset,
			       in->pid_size);
}

int trace_input_record_flags(struct trace_input *in, struct tep_record *rec)
{
	if (!learn_common(in) || !in->flags_size ||
	    rec->size < in->flags_offset + in->flags_size)
		return tep_data_flags(in->tep, rec);
	return (int)cur_decode(&in->type_cursor, (const char *)rec->data + in->flags_offset,
			       in->flags_size);
}

void trace_input_only_ids(struct trace_input *in, const unsigned char *ids)
{
	if (learn_common(in))
		in->want_ids = ids;
}



/* Sets up a page walk for @in's pages (kbuffer's for old-format files). */
static int walk_init(struct trace_input *in, struct page_walk *w)
{
	return page_walk_init(w, in->big_endian, in->kernel_long_size,
			      in->tep && tep_is_old_format(in->tep));
}

/* The walk of s->in's pages, and the step for the walker it got. */
static int init_walk(struct cpu_stream *s)
{
	if (walk_init(s->in, &s->walk) < 0)
		return -1;
	s->advance = page_walk_uses_kbuffer(&s->walk) ? advance_kbuffer : advance_own;
	return 0;
}

int cpu_stream_init(struct trace_input *in, struct cpu_stream *s, int b, int cpu)
{
	struct buffer *buf = &in->buffers[b];

	s->in = in;
	s->buffer = b;
	s->cpu = cpu;
	s->page_size = buf->page_size;
	s->next = buf->cpu[cpu].offset;
	s->end = buf->cpu[cpu].offset + buf->cpu[cpu].size;
	s->chunked = buf->chunked;
	/*
	 * Upstream 3.1.6 leaves the chunk count out of a compressed CPU's
	 * size although the data offset points at it; accept both.
	 */
	if (s->chunked && s->end + 4 <= in->fsize)
		s->end += 4;
	if (init_walk(s) < 0)
		return -1;
	s->live_fd = -1;
	if (s->chunked) {
		unsigned char hdr[4];
		struct cursor c;

		if (s->end - s->next < 4)
			return stream_truncated(s, s->next, 4, "chunk count");
		if (read_at(s, hdr, 4, s->next, "chunk count") < 0)
			return -1;
		cur_init(&c, hdr, 4, s->next, in->big_endian, in->file);
		cur_u32(&c, &s->chunks_left, "chunk count");
		s->chunks_said = s->chunks_left;
		s->next += 4;
	}
	return 0;
}

int cpu_stream_init_live(struct trace_input *in, struct cpu_stream *s, int cpu, int order,
			 size_t page_size, int fd, const char *name, const char *path)
{
	s->in = in;
	s->cpu = cpu;
	s->idx = order;
	s->page_size = page_size;
	s->live = 1;
	s->live_fd = fd;
	s->live_name = name;
	s->live_path = path;
	if (init_walk(s) < 0)
		return -1;
	ensure_window(s, (size_t)WINDOW_PAGES * page_size);
	return 0;
}

/* Moves the pages from the current record's on to the window's start. */
static void keep_current(struct cpu_stream *s)
{
	size_t from = s->page;

	memmove(s->win, s->win + from, s->win_len - from);
	s->win_len -= from;
	s->page = 0;
	s->page_end -= from;
	page_walk_moved(&s->walk, s->win);
	s->rec.data = (char *)s->rec.data - from;
}

int cpu_stream_read_live(struct cpu_stream *s, int keep)
{
	size_t ps = s->page_size, slots;

	if (keep && s->page_loaded) {
		keep_current(s);
	} else {
		s->win_len = 0;
		s->page = 0;
		s->page_loaded = 0;
	}
	/* A page left out still takes its place in the window's count. */
	for (slots = s->win_len / ps; slots < WINDOW_PAGES; slots++) {
		unsigned char *page = s->win + s->win_len;
		ssize_t n = read(s->live_fd, page, ps);

		if (n < 0 && errno == EINTR) {
			slots--;
			continue;
		}
		if (n < 0 && errno == EAGAIN)
			return 0;
		if (n < 0)
			return error("cannot read '%s': %s", s->live_path, strerror(errno));
		if (n == 0)
			return 0;
		memset(page + n, 0, ps - n);
		/* The kernel's page with a header that claims more than it holds: left out. */
		if (!header_fault(s, page_commit(s, s->win_len)))
			s->win_len += ps;
	}
	return 1;
}

void cpu_stream_free(struct cpu_stream *s)
{
	page_walk_free(&s->walk);
	page_walk_free(&s->peek);
	free(s->win);
}


int trace_input_record_at_page_start(const struct tep_record *rec)
{
	const struct cpu_stream *s = rec->priv;

	return s->first;
}

void trace_input_record_raw(const struct tep_record *rec, struct trace_input_raw *raw)
{
	const struct cpu_stream *s = rec->priv;

	raw->page = s->win + s->page;
	raw->page_size = s->page_size;
	raw->offset = page_walk_offset(&s->walk);
	raw->size = page_walk_record_size(&s->walk);
	raw->raw_ts = page_walk_ts(&s->walk);
	raw->data_start = 8 + s->in->kernel_long_size;
	raw->data_size = page_commit(s, s->page) & PAGE_COMMIT_MASK;
	raw->big_endian = s->in->big_endian;
}

/* A compressed CPU's data size once decompressed: its chunks' sizes summed. */
static uint64_t chunked_size(struct trace_input *in, int b, int cpu)
{
	struct cpu_stream s = { .in = in, .buffer = b, .cpu = cpu };
	const struct cpu_data *d = &in->buffers[b].cpu[cpu];
	uint64_t at = d->offset + 4, end = d->offset + d->size + 4, total = 0;
	unsigned char hdr[8];
	uint32_t count, cs, us;
	struct cursor c;

	if (!d->size || read_at(&s, hdr, 4, d->offset, "chunk count") < 0)
		return 0;
	cur_init(&c, hdr, 4, d->offset, in->big_endian, in->file);
	cur_u32(&c, &count, "chunk count");
	for (; count && at + 8 <= end; count--) {
		if (read_at(&s, hdr, 8, at, "data chunk header") < 0)
			break;
		cur_init(&c, hdr, 8, at, in->big_endian, in->file);
		cur_u32(&c, &cs, "chunk size");
		cur_u32(&c, &us, "chunk size");
		total += us;
		at += 8 + (uint64_t)cs;
	}
	return total;
}

/* The top buffer's index: the one without a name. */
static int top_index(const struct trace_input *in)
{
	for (int i = 0; i < in->nr_buffers; i++)
		if (!in->buffers[i].name || !*in->buffers[i].name)
			return i;
	return 0;
}

/* Where upstream's decompressed copy puts @b's CPU @cpu (see trace_input_record_offset()). */
static uint64_t chunked_base(struct trace_input *in, int b, int cpu)
{
	uint64_t base = in->page_size;
	int top = top_index(in);

	for (int i = 0; i < in->nr_buffers; i++) {
		/* the top buffer first, then the others in file order */
		int bi = i == 0 ? top : (i <= top ? i - 1 : i);
		const struct buffer *buf = &in->buffers[bi];

		for (int c = 0; c < buf->cpus; c++) {
			uint64_t ps = buf->page_size;

			if (bi == b && c == cpu)
				return base;
			base += (chunked_size(in, bi, c) + ps - 1) / ps * ps;
		}
	}
	return base;
}

uint64_t trace_input_record_offset(struct trace_input *in, const struct tep_record *rec)
{
	struct cpu_stream *s = rec->priv;

	if (!s->chunked)
		return rec->offset;
	if (!s->vbase_known) {
		s->vbase = chunked_base(in, s->buffer, s->cpu);
		s->vbase_known = 1;
	}
	return s->vbase + s->upos + s->page + page_walk_offset(&s->walk);
}

/* Whether the page at @page in the window has a header load_page() would take. */
static int page_sound(struct cpu_stream *s, size_t page)
{
	return !header_fault(s, page_commit(s, page));
}

int cpu_stream_peek(struct cpu_stream *s, struct tep_record *next)
{
	size_t page = s->page;
	const void *data;

	if (!s->page_loaded || s->skip_next)
		return 0;
	if (!s->peek_ready) {
		if (walk_init(s->in, &s->peek) < 0)
			return 0;
		s->peek_ready = 1;
	}
	/* Stand a second walk on the current record, then step once. */
	if (!page_walk_copy(&s->peek, &s->walk))
		return 0;
	data = page_walk_next(&s->peek);
	while (!data) {
		/* The next page, if this window holds it whole and it looks sound. */
		page += s->page_size;
		if (page + s->page_size > s->win_len || !page_sound(s, page))
			return 0;
		page_walk_load(&s->peek, s->win + page);
		data = page_walk_event(&s->peek);
	}
	memset(next, 0, sizeof(*next));
	next->ts = stream_ts(s, page_walk_ts(&s->peek));
	next->size = page_walk_event_size(&s->peek);
	next->data = (void *)data;
	next->cpu = s->cpu;
	next->ref_count = 1;
	next->priv = s;
	if (next->size < 0 || (const unsigned char *)data + next->size > s->win + page + s->page_size ||
	    check_record(NULL, next) < 0)
		return 0;
	return 1;
}

int trace_input_cpu_first_last(struct trace_input *in, int buffer, int cpu, uint64_t *first,
			       uint64_t *last)
{
	struct cpu_stream s = { 0 };
	int ret, n = 0;

	if (buffer >= in->nr_buffers || cpu >= in->buffers[buffer].cpus ||
	    !in->buffers[buffer].cpu[cpu].size)
		return 0;
	if (cpu_stream_init(in, &s, buffer, cpu) < 0) {
		cpu_stream_free(&s);
		return -1;
	}
	while ((ret = cpu_stream_advance(&s)) > 0) {
		if (!n++)
			*first = s.rec.ts;
		*last = s.rec.ts;
	}
	cpu_stream_free(&s);
	return ret < 0 ? -1 : n > 0;
}


uint64_t trace_input_cpu_data_size(struct trace_input *in, int buffer, int cpu)
{
	struct cpu_stream s = { 0 };
	uint64_t total = 0;

	if (!trace_input_cpu_size(in, buffer, cpu) || !in->buffers[buffer].chunked)
		return trace_input_cpu_size(in, buffer, cpu);
	if (cpu_stream_init(in, &s, buffer, cpu) == 0) {
		while (s.chunks_left && s.next + 8 <= s.end) {
			unsigned char hdr[8];
			struct cursor c;
			uint32_t cs, us;

			if (read_at(&s, hdr, 8, s.next, "data chunk header") < 0)
				break;
			cur_init(&c, hdr, 8, s.next, in->big_endian, in->file);
			cur_u32(&c, &cs, "chunk size");
			cur_u32(&c, &us, "chunk size");
			total += us;
			s.next += 8 + (uint64_t)cs;
			s.chunks_left--;
		}
	}
	cpu_stream_free(&s);
	return total;
}
