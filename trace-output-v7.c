// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat version 7 writer (trace-cmd.dat.v7(5)), behind trace-output.c's
 * API: metadata steps become (compressed) sections, options go in OPTIONS
 * sections chained by DONE, CPU data in chunks of at most 10 pages, and a
 * STRINGS section at the end holds every section's description.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-output.h"
#include "trace-output-v7.h"

#define SECTION_OPTIONS		0
#define SECTION_STRINGS		15
#define SECTION_FIRST_META	16
#define SECTION_CMDLINES	21
#define NR_SECTION_IDS		32

struct membuf {
	char *data;
	size_t len, cap;
};

struct v7_writer {
	int comp;
	struct membuf strings;
	struct membuf capture;
	int capturing;
	uint16_t cur_id;
	uint64_t section_at[NR_SECTION_IDS];	/* header offset of each metadata section */
	uint64_t prefix_opts_at;	/* the prefix's "first options" field */
	uint64_t done_at;		/* the last options section's DONE payload, 0: none */
	const struct cpu_chunks *chunks;	/* the top buffer's, compressed while recording */
	int nr_chunk_cpus;
};

static const char *section_desc(uint16_t id)
{
	static const char *names[] = {
		[16] = "headers", [17] = "ftrace events", [18] = "events format",
		[19] = "kallsyms", [20] = "printk", [21] = "command lines",
	};

	return id < 22 && names[id] ? names[id] : "options";
}

static void mb_add(struct membuf *m, const void *buf, size_t len)
{
	if (m->len + len > m->cap) {
		m->cap = (m->len + len) * 2 + 256;
		m->data = xrealloc(m->data, m->cap);
	}
	memcpy(m->data + m->len, buf, len);
	m->len += len;
}

static void mb_u16(struct membuf *m, uint16_t v) { mb_add(m, &v, 2); }
static void mb_u32(struct membuf *m, uint32_t v) { mb_add(m, &v, 4); }
static void mb_u64(struct membuf *m, uint64_t v) { mb_add(m, &v, 8); }

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
	free(w->capture.data);
	free(w);
}

int v7_capture(struct v7_writer *w, const void *buf, size_t len)
{
	if (!w->capturing)
		return 0;
	mb_add(&w->capture, buf, len);
	return 1;
}

/* A description's id is its byte offset in the STRINGS contents (no dedup, as upstream). */
static uint32_t add_string(struct v7_writer *w, const char *s)
{
	uint32_t id = w->strings.len;

	mb_add(&w->strings, s, strlen(s) + 1);
	return id;
}

static int put_header(struct trace_output *out, struct v7_writer *w, uint16_t id,
		      uint16_t flags, const char *desc, uint64_t size)
{
	struct membuf h = { 0 };
	int ret;

	mb_u16(&h, id);
	mb_u16(&h, flags);
	mb_u32(&h, add_string(w, desc));
	mb_u64(&h, size);
	ret = trace_output_write_raw(out, h.data, h.len);
	free(h.data);
	return ret;
}

/* A whole section body at once: one compressed block when the file is compressed. */
static int put_section(struct trace_output *out, struct v7_writer *w, uint16_t id,
		       const char *desc, const void *body, size_t len, int compress)
{
	void *z;
	size_t zlen;
	uint32_t sizes[2];
	int ret;

	if (!compress || w->comp == TRACE_COMP_NONE)
		return put_header(out, w, id, 0, desc, len) < 0 ? -1 :
			trace_output_write_raw(out, body, len);
	if (trace_compress(w->comp, body, len, &z, &zlen) < 0)
		return -1;
	sizes[0] = zlen;
	sizes[1] = len;
	ret = put_header(out, w, id, 1, desc, zlen + 8);
	if (ret == 0)
		ret = trace_output_write_raw(out, sizes, sizeof(sizes));
	if (ret == 0)
		ret = trace_output_write_raw(out, z, zlen);
	free(z);
	return ret;
}

static int end_capture(struct trace_output *out, struct v7_writer *w)
{
	int ret;

	if (!w->capturing)
		return 0;
	w->capturing = 0;
	if (w->cur_id < NR_SECTION_IDS)
		w->section_at[w->cur_id] = trace_output_offset(out);
	ret = put_section(out, w, w->cur_id, section_desc(w->cur_id), w->capture.data,
			  w->capture.len, 1);
	w->capture.len = 0;
	return ret;
}

int v7_begin(struct trace_output *out, struct v7_writer *w, uint16_t id)
{
	if (end_capture(out, w) < 0)
		return -1;
	w->capturing = 1;
	w->cur_id = id;
	w->capture.len = 0;
	return 0;
}

int v7_check_output(struct trace_output *out)
{
	/* Offsets and sizes are filled in afterwards, so the output must seek. */
	if (lseek(trace_output_fd(out), 0, SEEK_CUR) < 0)
		return error("cannot write '%s': version 7 is written to a regular file, not a pipe",
			     trace_output_name(out));
	return 0;
}

int v7_write_prefix_tail(struct trace_output *out, struct v7_writer *w)
{
	const char *name = trace_compress_name(w->comp);
	const char *version = trace_compress_version(w->comp);
	uint64_t zero = 0;

	if (trace_output_write_raw(out, name, strlen(name) + 1) < 0 ||
	    trace_output_write_raw(out, version, strlen(version) + 1) < 0)
		return -1;
	w->prefix_opts_at = trace_output_offset(out);
	return trace_output_write_raw(out, &zero, 8);
}

/* Overwrites a u64 already written at @at (the output is a regular file). */
static int patch_u64(struct trace_output *out, uint64_t at, uint64_t v)
{
	if (pwrite(trace_output_fd(out), &v, 8, at) != 8)
		return error("cannot write '%s': %s", trace_output_name(out),
			     errno ? strerror(errno) : "short write");
	return 0;
}

static int patch_u32(struct trace_output *out, uint64_t at, uint32_t v)
{
	if (pwrite(trace_output_fd(out), &v, 4, at) != 4)
		return error("cannot write '%s': %s", trace_output_name(out),
			     errno ? strerror(errno) : "short write");
	return 0;
}

/*
 * An OPTIONS section from @opts (whole options already encoded) plus the
 * queued ones, ending with DONE; the previous section's DONE (or the
 * prefix) is pointed at it.
 */
static int put_options(struct trace_output *out, struct v7_writer *w, struct membuf *pre,
		       struct membuf *post)
{
	struct membuf m = { 0 };
	uint64_t at = trace_output_offset(out);
	int ret;

	if (pre)
		mb_add(&m, pre->data, pre->len);
	for (size_t i = 0; i < trace_output_nr_options(out); i++) {
		const void *data;
		uint32_t size;
		uint16_t id;

		trace_output_get_option(out, i, &id, &data, &size);
		mb_u16(&m, id);
		mb_u32(&m, size);
		mb_add(&m, data, size);
	}
	trace_output_clear_options(out);
	if (post)
		mb_add(&m, post->data, post->len);
	mb_u16(&m, 0);
	mb_u32(&m, 8);
	mb_u64(&m, 0);
	ret = put_section(out, w, SECTION_OPTIONS, "options", m.data, m.len, 0);
	free(m.data);
	if (ret < 0)
		return -1;
	if (w->done_at)
		ret = patch_u64(out, w->done_at, at);
	else
		ret = patch_u64(out, w->prefix_opts_at, at);
	w->done_at = trace_output_offset(out) - 8;
	return ret;
}

static uint64_t fd_size(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return 0;
	return st.st_size;
}

static int pad_to(struct trace_output *out, uint64_t offset)
{
	static const char zeros[4096];

	while (trace_output_offset(out) < offset) {
		uint64_t n = offset - trace_output_offset(out);

		if (trace_output_write_raw(out, zeros, n < sizeof(zeros) ? n : sizeof(zeros)) < 0)
			return -1;
	}
	return 0;
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

static int put_raw_cpu_data(struct trace_output *out, int fd, uint64_t size, size_t chunk)
{
	char *buf = xmalloc(chunk);
	int ret = 0;

	for (uint64_t off = 0; ret == 0 && off < size; off += chunk) {
		size_t n = size - off < chunk ? size - off : chunk;

		ret = read_at(fd, buf, n, off);
		if (ret == 0)
			ret = trace_output_write_raw(out, buf, n);
	}
	free(buf);
	return ret;
}

/* Writes each job as its sizes (compressed, raw) and its bytes, in order. */
static int put_chunks(struct trace_output *out, struct compress_job *jobs, size_t nr)
{
	int ret = 0;

	for (size_t i = 0; ret == 0 && i < nr; i++) {
		uint32_t sizes[2] = { jobs[i].dlen, jobs[i].len };

		ret = trace_output_write_raw(out, sizes, 8);
		if (ret == 0)
			ret = trace_output_write_raw(out, jobs[i].dst, jobs[i].dlen);
	}
	return ret;
}

/* Copies the chunks compressed while recording, as they are. */
static int put_early_chunks(struct trace_output *out, const struct cpu_chunks *early)
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
			ret = trace_output_write_raw(out, buf, len);
	}
	free(buf);
	return ret;
}

/*
 * One CPU's data: raw, or u32 chunk count + chunks of at most 10 pages:
 * first those compressed while recording (@early, if any), then the rest
 * compressed a batch at a time.
 */
static int put_cpu_data(struct trace_output *out, struct v7_writer *w, int fd, uint64_t size,
			const struct cpu_chunks *early)
{
	size_t chunk = (size_t)trace_output_page_size(out) * TRACE_PAGES_IN_CHUNK;
	struct compress_job jobs[CHUNKS_IN_BATCH];
	uint64_t count_at = trace_output_offset(out);
	uint32_t count = 0;
	char *buf;
	int ret;

	if (w->comp == TRACE_COMP_NONE)
		return put_raw_cpu_data(out, fd, size, chunk);
	buf = xmalloc(chunk * CHUNKS_IN_BATCH);
	ret = trace_output_write_raw(out, &count, 4);
	if (ret == 0 && early && early->nr) {
		ret = put_early_chunks(out, early);
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
			ret = put_chunks(out, jobs, nr);
		for (size_t i = 0; i < nr; i++)
			free(jobs[i].dst);
		count += nr;
	}
	free(buf);
	if (ret == 0)
		ret = patch_u32(out, count_at, count);
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
static int put_buffer(struct trace_output *out, struct v7_writer *w, const char *name,
		      int nr_cpus, const int *cpu_fds, const char *clock,
		      const struct cpu_chunks *early)
{
	uint32_t page = trace_output_page_size(out);
	uint64_t sect = trace_output_offset(out);
	uint64_t *offs = xcalloc(nr_cpus, sizeof(*offs));
	uint64_t *sizes = xcalloc(nr_cpus, sizeof(*sizes));
	struct membuf opt = { 0 }, body = { 0 };
	char desc[256];
	uint32_t listed = 0;
	int ret;

	snprintf(desc, sizeof(desc), "buffer flyrecord %s", name);
	ret = put_header(out, w, TRACE_OPT_BUFFER, w->comp != TRACE_COMP_NONE, desc, 0);
	for (int cpu = 0; ret == 0 && cpu < nr_cpus; cpu++) {
		uint64_t size = fd_size(cpu_fds[cpu]);

		if (!size)
			continue;
		ret = pad_to(out, page_align(trace_output_offset(out), page));
		offs[cpu] = trace_output_offset(out);
		if (ret == 0)
			ret = put_cpu_data(out, w, cpu_fds[cpu], size,
					   early && cpu < w->nr_chunk_cpus ? &early[cpu] : NULL);
		sizes[cpu] = trace_output_offset(out) - offs[cpu];
		listed++;
	}
	if (ret == 0)
		ret = patch_u64(out, sect + 8, trace_output_offset(out) - sect - 16);
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
		ret = put_options(out, w, &opt, NULL);
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

int v7_end_metadata(struct trace_output *out, struct v7_writer *w, int nr_cpus)
{
	struct membuf pre = { 0 }, post = { 0 };
	int ret;

	if (end_capture(out, w) < 0)
		return -1;
	/* Pointers to the metadata sections, CPU count last, as upstream orders them. */
	for (uint16_t id = SECTION_FIRST_META; id < SECTION_CMDLINES; id++)
		if (w->section_at[id])
			add_pointer(&pre, id, w->section_at[id]);
	if (w->section_at[SECTION_CMDLINES])
		add_pointer(&post, SECTION_CMDLINES, w->section_at[SECTION_CMDLINES]);
	mb_u16(&post, TRACE_OPT_CPUCOUNT);
	mb_u32(&post, 4);
	mb_u32(&post, nr_cpus);
	ret = put_options(out, w, &pre, &post);
	free(pre.data);
	free(post.data);
	return ret;
}

int v7_write_data(struct trace_output *out, struct v7_writer *w, int nr_cpus,
		  const int *cpu_fds, const char *clock)
{
	if (v7_end_metadata(out, w, nr_cpus) < 0)
		return -1;
	return put_buffer(out, w, "", nr_cpus, cpu_fds, clock ? clock : "local", w->chunks);
}

int v7_set_chunks(struct v7_writer *w, int comp, const struct cpu_chunks *chunks, int nr_cpus)
{
	if (comp != w->comp || comp == TRACE_COMP_NONE)
		return -1;
	w->chunks = chunks;
	w->nr_chunk_cpus = nr_cpus;
	return 0;
}

int v7_write_buffer(struct trace_output *out, struct v7_writer *w, const char *name,
		    int nr_cpus, const int *cpu_fds, const char *clock)
{
	return put_buffer(out, w, name, nr_cpus, cpu_fds, clock ? clock : "local", NULL);
}

int v7_finish(struct trace_output *out, struct v7_writer *w)
{
	uint32_t desc;
	int ret;

	if (!w->prefix_opts_at)
		return 0;	/* nothing was written */
	if (end_capture(out, w) < 0)
		return -1;
	if (trace_output_nr_options(out) && put_options(out, w, NULL, NULL) < 0)
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
		mb_u16(&h, SECTION_STRINGS);
		mb_u16(&h, comp);
		mb_u32(&h, desc);
		mb_u64(&h, zlen + (comp ? 8 : 0));
		if (comp)
			mb_add(&h, sizes, 8);
		mb_add(&h, z, zlen);
		ret = trace_output_write_raw(out, h.data, h.len);
		free(h.data);
		if (comp)
			free(z);
	}
	return ret;
}
