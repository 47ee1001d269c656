// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat version 7 layout (trace-cmd.dat.v7(5)), below trace-output.c's
 * API: metadata steps become (compressed) sections, options go in OPTIONS
 * sections chained by DONE, CPU data in chunks of at most 10 pages, and a
 * STRINGS section at the end holds every section's description.  It writes
 * through the common layer (trace-dat-out.h) and calls nothing above.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-dat.h"
#include "trace-dat-out.h"
#include "trace-output-v7.h"

#define NR_SECTION_IDS		32

struct v7_writer {
	int comp;
	struct membuf strings;
	uint64_t strings_base;		/* bytes of descriptions already in the file */
	uint16_t cur_id;		/* the section being captured (d->capturing) */
	uint64_t section_at[NR_SECTION_IDS];	/* header offset of each metadata section */
	uint64_t prefix_opts_at;	/* the prefix's "first options" field */
	uint64_t done_at;		/* the last options section's DONE payload, 0: none */
	const struct cpu_chunks *chunks;	/* the top buffer's, compressed while recording */
	int nr_chunk_cpus;
};

static const char *section_desc(uint16_t id)
{
	static const char *names[] = {
		[TRACE_OPT_HEADER_INFO] = "headers", [TRACE_OPT_FTRACE_EVENTS] = "ftrace events",
		[TRACE_OPT_EVENT_FORMATS] = "events format", [TRACE_OPT_KALLSYMS] = "kallsyms",
		[TRACE_OPT_PRINTK] = "printk", [TRACE_OPT_CMDLINES] = "command lines",
	};

	return id < ARRAY_SIZE(names) && names[id] ? names[id] : "options";
}

struct v7_writer *v7_new(int comp)
{
	struct v7_writer *w = xcalloc(1, sizeof(*w));

	w->comp = comp;
	return w;
}

void v7_free(struct v7_writer *w)
{
	if (!w)
		return;
	free(w->strings.data);
	free(w);
}

/* A description's id is its byte offset in the STRINGS contents (no dedup, as upstream). */
static uint32_t add_string(struct v7_writer *w, const char *s)
{
	uint32_t id = w->strings_base + w->strings.len;

	mb_add(&w->strings, s, strlen(s) + 1);
	return id;
}

static int put_header(struct dat_out *d, struct v7_writer *w, uint16_t id,
		      uint16_t flags, const char *desc, uint64_t size)
{
	struct membuf h = { 0 };
	int ret;

	mb_u16(&h, id);
	mb_u16(&h, flags);
	mb_u32(&h, add_string(w, desc));
	mb_u64(&h, size);
	ret = dat_write(d, h.data, h.len);
	free(h.data);
	return ret;
}

/* A whole section body at once: one compressed block when the file is compressed. */
static int put_section(struct dat_out *d, struct v7_writer *w, uint16_t id,
		       const char *desc, const void *body, size_t len, int compress)
{
	void *z;
	size_t zlen;
	uint32_t sizes[2];
	int ret;

	if (!compress || w->comp == TRACE_COMP_NONE)
		return put_header(d, w, id, 0, desc, len) < 0 ? -1 : dat_write(d, body, len);
	if (trace_compress(w->comp, body, len, &z, &zlen) < 0)
		return -1;
	sizes[0] = zlen;
	sizes[1] = len;
	ret = put_header(d, w, id, 1, desc, zlen + 8);
	if (ret == 0)
		ret = dat_write(d, sizes, sizeof(sizes));
	if (ret == 0)
		ret = dat_write(d, z, zlen);
	free(z);
	return ret;
}

/* The captured section, written as one (compressed) section now. */
static int end_capture(struct v7_writer *w, struct dat_out *d)
{
	int ret;

	if (!d->capturing)
		return 0;
	dat_capture_end(d);
	if (w->cur_id < NR_SECTION_IDS)
		w->section_at[w->cur_id] = d->pos;
	ret = put_section(d, w, w->cur_id, section_desc(w->cur_id), d->capture.data,
			  d->capture.len, 1);
	d->capture.len = 0;
	return ret;
}

int v7_begin(struct v7_writer *w, struct dat_out *d, uint16_t id)
{
	if (end_capture(w, d) < 0)
		return -1;
	dat_capture_begin(d);
	w->cur_id = id;
	return 0;
}

void v7_continue(struct v7_writer *w, uint64_t link_at, uint64_t strings_size)
{
	w->prefix_opts_at = link_at;
	w->done_at = link_at;
	w->strings_base = strings_size;
}

int v7_check_output(struct dat_out *d)
{
	/* Offsets and sizes are filled in afterwards, so the output must seek. */
	if (lseek(d->fd, 0, SEEK_CUR) < 0)
		return error("cannot write '%s': version 7 is written to a regular file, not a pipe",
			     d->name);
	return 0;
}

int v7_write_prefix_tail(struct v7_writer *w, struct dat_out *d)
{
	const char *name = trace_compress_name(w->comp);
	const char *version = trace_compress_version(w->comp);

	if (dat_str(d, name) < 0 || dat_str(d, version) < 0)
		return -1;
	w->prefix_opts_at = d->pos;
	return dat_u64(d, 0);
}

/*
 * An OPTIONS section from @opts (whole options already encoded) plus the
 * queued ones, ending with DONE; the previous section's DONE (or the
 * prefix) is pointed at it.
 */
static int put_options(struct v7_writer *w, struct dat_out *d, struct membuf *pre,
		       struct membuf *post)
{
	struct membuf m = { 0 };
	uint64_t at = d->pos;
	int ret;

	if (pre)
		mb_add(&m, pre->data, pre->len);
	for (size_t i = 0; i < d->nr_opts; i++) {
		mb_u16(&m, d->opts[i].id);
		mb_u32(&m, d->opts[i].size);
		mb_add(&m, d->opts[i].data, d->opts[i].size);
	}
	dat_clear_options(d);
	if (post)
		mb_add(&m, post->data, post->len);
	mb_u16(&m, TRACE_OPT_DONE);
	mb_u32(&m, 8);
	mb_u64(&m, 0);
	ret = put_section(d, w, TRACE_SECT_OPTIONS, "options", m.data, m.len, 0);
	free(m.data);
	if (ret < 0)
		return -1;
	/* The previous DONE, or the prefix, points at this section. */
	ret = dat_patch(d, w->done_at ? w->done_at : w->prefix_opts_at, &at, 8);
	w->done_at = d->pos - 8;
	return ret;
}

static int read_at(int fd, char *buf, size_t len, uint64_t off)
{
	ssize_t n = pread_all(fd, buf, len, off);

	if (n != (ssize_t)len)
		return error("cannot read CPU data: %s", n < 0 ? strerror(errno) : "file shrank");
	return 0;
}

/* Chunks read and compressed together: enough to keep every CPU busy. */
#define CHUNKS_IN_BATCH 32

static int put_raw_cpu_data(struct dat_out *d, int fd, uint64_t size, size_t chunk)
{
	char *buf = xmalloc(chunk);
	int ret = 0;

	for (uint64_t off = 0; ret == 0 && off < size; off += chunk) {
		size_t n = size - off < chunk ? size - off : chunk;

		ret = read_at(fd, buf, n, off);
		if (ret == 0)
			ret = dat_write(d, buf, n);
	}
	free(buf);
	return ret;
}

/* Writes each job as its sizes (compressed, raw) and its bytes, in order. */
static int put_chunks(struct dat_out *d, struct compress_job *jobs, size_t nr)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < nr; i++) {
		uint32_t sizes[2] = { jobs[i].dlen, jobs[i].len };

		ret = dat_write(d, sizes, 8);
		if (ret == 0)
			ret = dat_write(d, jobs[i].dst, jobs[i].dlen);
	}
	return ret;
}

/* Copies the chunks compressed while recording, as they are. */
static int put_early_chunks(struct dat_out *d, const struct cpu_chunks *early)
{
	uint64_t size = fd_size(early->fd);
	size_t len = 1 << 20;
	char *buf = xmalloc(len);
	int ret = 0;

	for (uint64_t off = 0; ret == 0 && off < size; off += len) {
		if (size - off < len)
			len = size - off;
		ret = read_at(early->fd, buf, len, off);
		if (ret == 0)
			ret = dat_write(d, buf, len);
	}
	free(buf);
	return ret;
}

/*
 * One CPU's data: raw, or u32 chunk count + chunks of at most 10 pages:
 * first those compressed while recording (@early, if any), then the rest
 * compressed a batch at a time.
 */
static int put_cpu_data(struct v7_writer *w, struct dat_out *d, int fd, uint64_t size,
			const struct cpu_chunks *early)
{
	size_t chunk = (size_t)d->page_size * TRACE_PAGES_IN_CHUNK;
	struct compress_job jobs[CHUNKS_IN_BATCH];
	uint64_t count_at = d->pos;
	uint32_t count = 0;
	char *buf;
	int ret;

	if (w->comp == TRACE_COMP_NONE)
		return put_raw_cpu_data(d, fd, size, chunk);
	buf = xmalloc(chunk * CHUNKS_IN_BATCH);
	ret = dat_u32(d, count);
	if (ret == 0 && early && early->nr) {
		ret = put_early_chunks(d, early);
		count = early->nr;
	}
	for (uint64_t off = early ? early->raw : 0; ret == 0 && off < size;) {
		uint64_t start = off;
		size_t nr = 0;

		for (; nr < CHUNKS_IN_BATCH && off < size; nr++) {
			jobs[nr].src = buf + nr * chunk;
			jobs[nr].len = size - off < chunk ? size - off : chunk;
			off += jobs[nr].len;
		}
		ret = read_at(fd, buf, off - start, start);
		if (ret == 0)
			ret = trace_compress_jobs(w->comp, jobs, nr);
		if (ret == 0)
			ret = put_chunks(d, jobs, nr);
		for (size_t i = 0; i < nr; i++)
			free(jobs[i].dst);
		count += nr;
	}
	free(buf);
	if (ret == 0)
		ret = dat_patch(d, count_at, &count, 4);
	return ret;
}

static uint64_t page_align(uint64_t v, uint32_t page)
{
	return (v + page - 1) / page * page;
}

/*
 * The BUFFER section of one instance, then an OPTIONS section holding its
 * BUFFER option (CPUs with data only, as upstream lists them).
 */
static int put_buffer(struct v7_writer *w, struct dat_out *d, const char *name,
		      int nr_cpus, const int *cpu_fds, const char *clock,
		      const struct cpu_chunks *early)
{
	uint32_t page = d->page_size;
	uint64_t sect = d->pos;
	uint64_t *offs = xcalloc(nr_cpus, sizeof(*offs));
	uint64_t *sizes = xcalloc(nr_cpus, sizeof(*sizes));
	struct membuf opt = { 0 }, body = { 0 };
	char desc[256];
	uint32_t listed = 0;
	int ret;

	snprintf(desc, sizeof(desc), "buffer flyrecord %s", name);
	ret = put_header(d, w, TRACE_OPT_BUFFER, w->comp != TRACE_COMP_NONE, desc, 0);
	for (int cpu = 0; ret == 0 && cpu < nr_cpus; cpu++) {
		uint64_t size = fd_size(cpu_fds[cpu]);

		if (!size)
			continue;
		ret = dat_pad_to(d, page_align(d->pos, page));
		offs[cpu] = d->pos;
		if (ret == 0)
			ret = put_cpu_data(w, d, cpu_fds[cpu], size,
					   early && cpu < w->nr_chunk_cpus ? &early[cpu] : NULL);
		sizes[cpu] = d->pos - offs[cpu];
		listed++;
	}
	if (ret == 0) {
		uint64_t body_size = d->pos - sect - 16;

		ret = dat_patch(d, sect + 8, &body_size, 8);
	}
	if (ret == 0) {
		mb_u64(&body, sect);
		mb_add(&body, name, strlen(name) + 1);
		mb_add(&body, clock, strlen(clock) + 1);
		mb_u32(&body, page);
		mb_u32(&body, listed);
		for (int cpu = 0; cpu < nr_cpus; cpu++) {
			if (!sizes[cpu])
				continue;
			mb_u32(&body, cpu);
			mb_u64(&body, offs[cpu]);
			mb_u64(&body, sizes[cpu]);
		}
		mb_u16(&opt, TRACE_OPT_BUFFER);
		mb_u32(&opt, body.len);
		mb_add(&opt, body.data, body.len);
		ret = put_options(w, d, &opt, NULL);
	}
	free(opt.data);
	free(body.data);
	free(offs);
	free(sizes);
	return ret;
}

static void add_pointer(struct membuf *m, uint16_t id, uint64_t at)
{
	mb_u16(m, id);
	mb_u32(m, 8);
	mb_u64(m, at);
}

int v7_end_metadata(struct v7_writer *w, struct dat_out *d, int nr_cpus)
{
	struct membuf pre = { 0 }, post = { 0 };
	int ret;

	if (end_capture(w, d) < 0)
		return -1;
	/* Pointers to the metadata sections, CPU count last, as upstream orders them. */
	for (uint16_t id = TRACE_OPT_HEADER_INFO; id < TRACE_OPT_CMDLINES; id++)
		if (w->section_at[id])
			add_pointer(&pre, id, w->section_at[id]);
	if (w->section_at[TRACE_OPT_CMDLINES])
		add_pointer(&post, TRACE_OPT_CMDLINES, w->section_at[TRACE_OPT_CMDLINES]);
	mb_u16(&post, TRACE_OPT_CPUCOUNT);
	mb_u32(&post, 4);
	mb_u32(&post, nr_cpus);
	ret = put_options(w, d, &pre, &post);
	free(pre.data);
	free(post.data);
	return ret;
}

int v7_link_options_here(struct v7_writer *w, struct dat_out *d)
{
	uint64_t at;

	if (end_capture(w, d) < 0)
		return -1;
	at = d->pos;
	return dat_patch(d, w->done_at ? w->done_at : w->prefix_opts_at, &at, 8);
}

int v7_write_data(struct v7_writer *w, struct dat_out *d, int nr_cpus, const int *cpu_fds,
		  const char *clock)
{
	if (v7_end_metadata(w, d, nr_cpus) < 0)
		return -1;
	return put_buffer(w, d, "", nr_cpus, cpu_fds, clock ? clock : "local", w->chunks);
}

/*
 * The BUFFER_TEXT section: @text as it is, or (compressed) u32 chunk count
 * and chunks of at most 10 pages, as a CPU's data.  The section's size is
 * patched in at its end.
 */
static int put_text_section(struct v7_writer *w, struct dat_out *d, const char *text, size_t len)
{
	size_t chunk = (size_t)d->page_size * TRACE_PAGES_IN_CHUNK;
	int comp = w->comp != TRACE_COMP_NONE;
	uint64_t sect = d->pos, count_at, body_size;
	uint32_t count = 0;
	int ret = put_header(d, w, TRACE_OPT_BUFFER_TEXT, comp, "buffer latency", 0);

	if (ret == 0 && !comp)
		ret = dat_write(d, text, len);
	count_at = d->pos;
	if (ret == 0 && comp)
		ret = dat_u32(d, 0);
	for (size_t off = 0; ret == 0 && comp && off < len; off += chunk, count++) {
		struct compress_job job = { .src = text + off,
					    .len = len - off < chunk ? len - off : chunk };

		ret = trace_compress_jobs(w->comp, &job, 1);
		if (ret == 0)
			ret = put_chunks(d, &job, 1);
		free(job.dst);
	}
	if (ret == 0 && comp)
		ret = dat_patch(d, count_at, &count, 4);
	body_size = d->pos - sect - 16;
	return ret ? ret : dat_patch(d, sect + 8, &body_size, 8);
}

int v7_write_latency(struct v7_writer *w, struct dat_out *d, int nr_cpus, const char *text,
		     size_t len, const char *clock)
{
	struct membuf opt = { 0 };
	uint64_t sect;
	int ret;

	if (v7_end_metadata(w, d, nr_cpus) < 0)
		return -1;
	sect = d->pos;
	ret = put_text_section(w, d, text, len);
	if (ret == 0) {
		/* The BUFFER_TEXT option: the section, the top buffer's name ("") and clock. */
		mb_u16(&opt, TRACE_OPT_BUFFER_TEXT);
		mb_u32(&opt, 8 + 1 + strlen(clock) + 1);
		mb_u64(&opt, sect);
		mb_add(&opt, "", 1);
		mb_add(&opt, clock, strlen(clock) + 1);
		ret = put_options(w, d, &opt, NULL);
	}
	free(opt.data);
	return ret;
}

int v7_set_chunks(struct v7_writer *w, int comp, const struct cpu_chunks *chunks, int nr_cpus)
{
	if (comp != w->comp || comp == TRACE_COMP_NONE)
		return -1;
	w->chunks = chunks;
	w->nr_chunk_cpus = nr_cpus;
	return 0;
}

int v7_write_buffer(struct v7_writer *w, struct dat_out *d, const char *name, int nr_cpus,
		    const int *cpu_fds, const char *clock)
{
	return put_buffer(w, d, name, nr_cpus, cpu_fds, clock ? clock : "local", NULL);
}

int v7_finish(struct v7_writer *w, struct dat_out *d)
{
	uint32_t desc;
	int ret;

	if (!w->prefix_opts_at)
		return 0;	/* nothing was written */
	if (end_capture(w, d) < 0)
		return -1;
	if (d->nr_opts && put_options(w, d, NULL, NULL) < 0)
		return -1;
	/* The STRINGS section names itself, so its own description goes in first. */
	desc = add_string(w, "strings");
	{
		struct membuf h = { 0 };
		void *z = w->strings.data;
		size_t zlen = w->strings.len;
		uint32_t sizes[2] = { 0, w->strings.len };
		int comp = w->comp != TRACE_COMP_NONE;

		if (comp && trace_compress(w->comp, w->strings.data, w->strings.len, &z, &zlen) < 0)
			return -1;
		sizes[0] = zlen;
		mb_u16(&h, TRACE_OPT_STRINGS);
		mb_u16(&h, comp);
		mb_u32(&h, desc);
		mb_u64(&h, zlen + (comp ? 8 : 0));
		if (comp)
			mb_add(&h, sizes, 8);
		mb_add(&h, z, zlen);
		ret = dat_write(d, h.data, h.len);
		free(h.data);
		if (comp)
			free(z);
	}
	return ret;
}
