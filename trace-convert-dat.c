// SPDX-License-Identifier: GPL-2.0
/*
 * convert --file-version/--compression: rewrites a trace.dat through the
 * trace_output writer.  Metadata and options are copied from the input as
 * read by trace-input.c; each CPU's data is decompressed into a temporary
 * file first, so the writer sees what record would have given it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-compress.h"
#include "trace-convert-dat.h"
#include "trace-dat.h"
#include "trace-input.h"
#include "trace-outfile.h"
#include "trace-output.h"

/* Input options the writer makes itself (layout), not copied. */
static int is_layout_option(int id)
{
	return id == TRACE_OPT_DONE || id == TRACE_OPT_BUFFER || id == TRACE_OPT_CPUCOUNT ||
	       (id >= TRACE_OPT_STRINGS && id <= TRACE_OPT_BUFFER_TEXT);
}

static int put_sized(struct trace_output *out, const char *text, size_t len, int size64)
{
	uint64_t s64 = len;
	uint32_t s32 = len;

	if (trace_output_write_raw(out, size64 ? (void *)&s64 : (void *)&s32, size64 ? 8 : 4) < 0)
		return -1;
	return trace_output_write_raw(out, text, len);
}

static int copy_headers(struct trace_output *out, struct trace_input *in)
{
	size_t plen, elen;
	const char *page = trace_input_header_page(in, &plen);
	const char *event = trace_input_header_event(in, &elen);

	if (trace_output_begin_section(out, TRACE_OPT_HEADER_INFO) < 0 ||
	    trace_output_write_raw(out, "header_page", 12) < 0 ||
	    put_sized(out, page, page ? plen : 0, 1) < 0 ||
	    trace_output_write_raw(out, "header_event", 13) < 0)
		return -1;
	return put_sized(out, event, event ? elen : 0, 1);
}

/* Formats of @system (consecutive in file order), or of every other system when !ftrace. */
static int copy_formats(struct trace_output *out, struct trace_input *in)
{
	int n = trace_input_nr_formats(in), nr_ftrace = 0, nr_systems = 0;
	const char *sys, *prev = NULL;
	uint32_t u;
	size_t len;

	for (int i = 0; i < n; i++) {
		trace_input_format(in, i, &sys, &len);
		if (!strcmp(sys, "ftrace"))
			nr_ftrace++;
		else if (!prev || strcmp(prev, sys))
			nr_systems++, prev = sys;
	}
	u = nr_ftrace;
	if (trace_output_begin_section(out, TRACE_OPT_FTRACE_EVENTS) < 0 ||
	    trace_output_write_raw(out, &u, 4) < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *text = trace_input_format(in, i, &sys, &len);

		if (!strcmp(sys, "ftrace") && put_sized(out, text, len, 1) < 0)
			return -1;
	}
	u = nr_systems;
	if (trace_output_begin_section(out, TRACE_OPT_EVENT_FORMATS) < 0 ||
	    trace_output_write_raw(out, &u, 4) < 0)
		return -1;
	for (int i = 0; i < n;) {
		const char *text = trace_input_format(in, i, &sys, &len);
		int j = i, count;

		if (!strcmp(sys, "ftrace")) {
			i++;
			continue;
		}
		while (j < n) {
			const char *s2;

			trace_input_format(in, j, &s2, &len);
			if (strcmp(s2, sys))
				break;
			j++;
		}
		count = j - i;
		u = count;
		if (trace_output_write_raw(out, sys, strlen(sys) + 1) < 0 ||
		    trace_output_write_raw(out, &u, 4) < 0)
			return -1;
		for (; i < j; i++) {
			text = trace_input_format(in, i, &sys, &len);
			if (put_sized(out, text, len, 1) < 0)
				return -1;
		}
	}
	return 0;
}

static int buffer_has_data(struct trace_input *in, int buffer)
{
	for (int cpu = 0; cpu < trace_input_buffer_cpus(in, buffer); cpu++)
		if (trace_input_cpu_size(in, buffer, cpu))
			return 1;
	return 0;
}

/*
 * The size of the pages the data copied is in (that of the buffers b with
 * cpu_fds[b], or all when !cpu_fds): report reads a v7 buffer's pages by its
 * BUFFER option's size, not the file header's, and the copy has one size
 * for all (v6 has no other), so buffers of different sizes are not copied.
 */
static int data_page_size(struct trace_input *in, int *const *cpu_fds, uint32_t *page_size)
{
	int first = -1;

	*page_size = trace_input_page_size(in);
	for (int b = 0; b < trace_input_nr_buffers(in); b++) {
		uint32_t size = trace_input_buffer_page_size(in, b);

		if ((cpu_fds && !cpu_fds[b]) || !buffer_has_data(in, b))
			continue;
		if (first >= 0 && size != *page_size)
			return error("'%s': buffer '%s' has pages of %u bytes, buffer '%s' of %u: "
				     "not rewritten", trace_input_file(in),
				     trace_input_buffer_name(in, first), *page_size,
				     trace_input_buffer_name(in, b), size);
		if (first < 0)
			first = b;
		*page_size = size;
	}
	if (*page_size < TRACE_MIN_PAGE_SIZE)
		return error("'%s': pages of %u bytes are too small for a file header: not rewritten",
			     trace_input_file(in), *page_size);
	return 0;
}

/* The metadata, the prefix giving the pages of the data copied (see data_page_size()). */
static int copy_metadata(struct trace_output *out, struct trace_input *in, int *const *cpu_fds)
{
	const char *k = trace_input_kallsyms(in), *p = trace_input_printk(in);
	const char *c = trace_input_cmdlines(in);
	uint32_t page_size;

	/* report shows the addresses; a copy must not lose the names. */
	if (trace_input_kallsyms_damaged(in))
		return error("'%s': its kallsyms section is damaged: not converted",
			     trace_input_file(in));
	if (data_page_size(in, cpu_fds, &page_size) < 0)
		return -1;
	trace_output_set_long_size(out, trace_input_long_size(in));
	if (trace_output_write_prefix(out, page_size) < 0 ||
	    copy_headers(out, in) < 0 || copy_formats(out, in) < 0 ||
	    trace_output_begin_section(out, TRACE_OPT_KALLSYMS) < 0 ||
	    put_sized(out, k ? k : "", k ? strlen(k) : 0, 0) < 0 ||
	    trace_output_begin_section(out, TRACE_OPT_PRINTK) < 0 ||
	    put_sized(out, p ? p : "", p ? strlen(p) : 0, 0) < 0 ||
	    trace_output_begin_section(out, TRACE_OPT_CMDLINES) < 0)
		return -1;
	return put_sized(out, c ? c : "", c ? strlen(c) : 0, 1);
}

/* Every option but the layout ones, by id (readers do not depend on the order). */
static int copy_options(struct trace_output *out, struct trace_input *in)
{
	for (int id = 1; id < 64; id++) {
		const void *data;
		size_t len;

		if (is_layout_option(id))
			continue;
		for (int nth = 0; (data = trace_input_option(in, id, nth, &len)); nth++)
			if (trace_output_add_option(out, id, data, len) < 0)
				return -1;
	}
	return 0;
}

static int read_at(int fd, void *buf, size_t len, uint64_t off)
{
	return pread_all(fd, buf, len, off) == (ssize_t)len ? 0 : -1;
}

/* Chunked (compressed v7) data of one CPU, decompressed into @tmp. */
static int copy_chunks(struct trace_input *in, int fd, uint64_t off, int tmp)
{
	struct inflater z;
	uint32_t count, sizes[2];
	int ret = 0;

	if (inflater_init(&z, trace_input_compression(in)) < 0 || read_at(fd, &count, 4, off) < 0)
		return -1;
	off += 4;
	for (uint32_t i = 0; ret == 0 && i < count; i++) {
		void *src, *dst;

		if (read_at(fd, sizes, 8, off) < 0 || sizes[0] > (1U << 28) || sizes[1] > (1U << 28)) {
			ret = -1;
			break;
		}
		src = xmalloc(sizes[0] + 1);
		dst = xmalloc(sizes[1] + 1);
		ret = read_at(fd, src, sizes[0], off + 8);
		if (ret == 0)
			ret = inflate_exact(&z, src, sizes[0], dst, sizes[1]) ? -1 : 0;
		if (ret == 0 && write_all(tmp, dst, sizes[1]) < 0)
			ret = -1;
		off += 8 + sizes[0];
		free(src);
		free(dst);
	}
	inflater_release(&z);
	return ret;
}

static int copy_raw(int fd, uint64_t off, uint64_t size, int tmp)
{
	char buf[65536];

	while (size) {
		size_t n = size < sizeof(buf) ? size : sizeof(buf);

		if (read_at(fd, buf, n, off) < 0 || write_all(tmp, buf, n) < 0)
			return -1;
		off += n;
		size -= n;
	}
	return 0;
}

/* One temporary (unlinked) file per CPU of @buffer holding its plain pages; -1: empty. */
static int *cpu_files(struct trace_input *in, int fd, int buffer, int nr_cpus)
{
	int *fds = xcalloc(nr_cpus, sizeof(*fds));

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		uint64_t size = trace_input_cpu_size(in, buffer, cpu);
		uint64_t off = trace_input_cpu_offset(in, buffer, cpu);
		char path[] = "/tmp/trace-cmd-convert.XXXXXX";
		int ret;

		fds[cpu] = -1;
		if (!size)
			continue;
		fds[cpu] = mkstemp(path);
		if (fds[cpu] < 0) {
			error("cannot create a temporary file: %s", strerror(errno));
			goto fail;
		}
		unlink(path);
		if (trace_input_buffer_compressed(in, buffer))
			ret = copy_chunks(in, fd, off, fds[cpu]);
		else
			ret = copy_raw(fd, off, size, fds[cpu]);
		if (ret < 0) {
			error("'%s': cannot read the data of CPU %d", trace_input_file(in), cpu);
			goto fail;
		}
	}
	return fds;
fail:
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (fds[cpu] >= 0)
			close(fds[cpu]);
	free(fds);
	return NULL;
}

static void close_files(int *fds, int n)
{
	for (int i = 0; fds && i < n; i++)
		if (fds[i] >= 0)
			close(fds[i]);
	free(fds);
}

static int write_v6_instance(struct trace_output *out, int nr_cpus, const int *fds,
			     const char *clock);

/*
 * v6 names an instance's flyrecord block in a BUFFER option that precedes it:
 * walk the options block written at @opts_at and fill in each offset.
 */
static int patch_v6_buffers(const struct outfile *f, uint64_t opts_at, const uint64_t *at, int nb)
{
	const char *path = f->path;
	int fd = open(outfile_written(f), O_RDWR | O_CLOEXEC), b = 1, ret = 0;
	uint64_t off = opts_at + 4 + 10;
	uint16_t id;
	uint32_t size;

	if (fd < 0)
		return error("cannot write '%s': %s", path, strerror(errno));
	while (ret == 0 && b < nb) {
		if (read_at(fd, &id, 2, off) < 0 || id == TRACE_OPT_DONE ||
		    read_at(fd, &size, 4, off + 2) < 0) {
			ret = error("'%s': the BUFFER options were not found", path);
			break;
		}
		if (id == TRACE_OPT_BUFFER && pwrite(fd, &at[b++], 8, off + 6) != 8)
			ret = error("cannot write '%s': %s", path, strerror(errno));
		off += 6 + size;
	}
	if (close(fd) < 0 && ret == 0)
		ret = error("cannot write '%s': %s", path, strerror(errno));
	return ret;
}

int trace_dat_copy_metadata(struct trace_output *out, struct trace_input *in)
{
	return copy_metadata(out, in, NULL);
}

/* Refuses what the writer cannot reproduce; 0 when @in can be rewritten. */
static int check_rewritable(struct trace_input *in)
{
	int one = 1;

	if (trace_input_is_latency(in))
		return error("'%s': latency trace files are not rewritten", trace_input_file(in));
	if (trace_input_big_endian(in) != !*(char *)&one)
		return error("'%s': its byte order is not this machine's: not rewritten",
			     trace_input_file(in));
	return 0;
}

/* v6 instances: BUFFER options now, their flyrecord offsets patched at the end. */
static int add_v6_buffer_options(struct trace_output *out, const struct dat_buffer_out *bufs,
				 int nr)
{
	for (int i = 0; i < nr; i++) {
		const char *name = bufs[i].name;
		char *payload;
		int ret;

		if (!name)
			continue;
		payload = xcalloc(1, 8 + strlen(name) + 1);
		strcpy(payload + 8, name);
		ret = trace_output_add_option(out, TRACE_OPT_BUFFER, payload, 8 + strlen(name) + 1);
		free(payload);
		if (ret < 0)
			return -1;
	}
	return 0;
}

int trace_dat_write_buffers(struct trace_input *in, struct outfile *f, int version,
			    const char *compression, const struct dat_buffer_out *bufs, int nr)
{
	int nb = trace_input_nr_buffers(in), ret = -1, nr_written = 1;
	const char *clock = trace_input_clock(in);
	const struct dat_buffer_out *top = NULL;
	int top_cpus, **used, *none = NULL;
	uint64_t *bufopt_at, opts_at;
	struct trace_output *out;

	if (check_rewritable(in) < 0)
		return -1;
	/* Which buffers of @in give data: their page size is the file's. */
	used = xcalloc(nb, sizeof(*used));
	for (int i = 0; i < nr; i++) {
		used[bufs[i].src] = bufs[i].fds;
		if (!bufs[i].name)
			top = &bufs[i];
	}
	top_cpus = trace_input_buffer_cpus(in, top ? top->src : 0);
	out = trace_output_fdopen(f->fd, f->path, version);
	if (!out) {
		free(used);
		return -1;
	}
	f->fd = -1;	/* the writer closes it */
	bufopt_at = xcalloc(nr + 1, sizeof(*bufopt_at));
	if (!top) {
		none = xcalloc(top_cpus ? top_cpus : 1, sizeof(*none));
		for (int cpu = 0; cpu < top_cpus; cpu++)
			none[cpu] = -1;
	}
	if ((compression && trace_output_set_compression(out, compression) < 0) ||
	    copy_metadata(out, in, used) < 0 || copy_options(out, in) < 0 ||
	    (version == 6 && add_v6_buffer_options(out, bufs, nr) < 0))
		goto out;
	opts_at = trace_output_offset(out);
	ret = trace_output_write_data(out, top_cpus, top ? top->fds : none, clock);
	for (int i = 0; ret == 0 && i < nr; i++) {
		int n = trace_input_buffer_cpus(in, bufs[i].src);

		if (!bufs[i].name)
			continue;
		bufopt_at[nr_written++] = trace_output_offset(out);
		if (version == 6)
			ret = write_v6_instance(out, n, bufs[i].fds, clock);
		else
			ret = trace_output_write_buffer(out, bufs[i].name, n, bufs[i].fds, clock);
	}
	if (trace_output_close(out) < 0)
		ret = -1;
	out = NULL;
	if (ret == 0 && version == 6 && nr_written > 1)
		ret = patch_v6_buffers(f, opts_at, bufopt_at, nr_written);
out:
	if (out)
		trace_output_close(out);
	free(bufopt_at);
	free(none);
	free(used);
	return ret;
}

int trace_dat_write(struct trace_input *in, struct outfile *f, int version,
		    const char *compression, int *const *cpu_fds)
{
	int nb = trace_input_nr_buffers(in), nr = 0, ret;
	struct dat_buffer_out *bufs = xcalloc(nb, sizeof(*bufs));

	for (int b = 0; b < nb; b++) {
		if (!cpu_fds[b])
			continue;
		bufs[nr].src = b;
		bufs[nr].name = b ? trace_input_buffer_name(in, b) : NULL;
		bufs[nr++].fds = cpu_fds[b];
	}
	ret = trace_dat_write_buffers(in, f, version, compression, bufs, nr);
	free(bufs);
	return ret;
}

/* @input rewritten into @f (not committed). */
static int convert_into(const char *input, struct outfile *f, int version,
			const char *compression)
{
	struct trace_input *in = trace_input_open(input, TRACE_INPUT_NO_TEP | TRACE_INPUT_NO_PLUGINS);
	int nb, fd, ret = -1;
	int **fds;

	if (!in)
		return -1;
	nb = trace_input_nr_buffers(in);
	fds = xcalloc(nb, sizeof(*fds));
	if (check_rewritable(in) < 0)
		goto out;
	fd = open_regular(input);
	if (fd < 0)
		goto out;
	ret = 0;
	for (int b = 0; ret == 0 && b < nb; b++) {
		fds[b] = cpu_files(in, fd, b, trace_input_buffer_cpus(in, b));
		if (!fds[b])
			ret = -1;
	}
	close(fd);
	if (ret == 0)
		ret = trace_dat_write(in, f, version, compression, fds);
out:
	for (int b = 0; b < nb; b++)
		close_files(fds[b], trace_input_buffer_cpus(in, b));
	free(fds);
	trace_input_close(in);
	return ret;
}

int trace_convert_dat(const char *input, const char *output, int version,
		      const char *compression)
{
	const char *inputs[] = { input, NULL };
	struct outfile f;

	if (outfile_open(&f, output, inputs) < 0)
		return -1;
	if (convert_into(input, &f, version, compression) < 0) {
		outfile_abort(&f);
		return -1;
	}
	return outfile_commit(&f);
}

/* A v6 instance: "flyrecord", its CPU table, clock trailer, page-aligned data. */
static int write_v6_instance(struct trace_output *out, int nr_cpus, const int *fds,
			     const char *clock)
{
	char trailer[128];
	uint64_t off, *sizes = xcalloc(nr_cpus, 8), *offs = xcalloc(nr_cpus, 8), v;
	int ret = 0;

	snprintf(trailer, sizeof(trailer), "[%s]", clock);
	off = trace_output_offset(out) + 10 + nr_cpus * 16 + 8 + strlen(trailer);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		off = (off + 4095) / 4096 * 4096;
		sizes[cpu] = fds[cpu] < 0 ? 0 : (uint64_t)lseek(fds[cpu], 0, SEEK_END);
		offs[cpu] = off;
		off += sizes[cpu];
	}
	ret = trace_output_write_raw(out, "flyrecord", 10);
	for (int cpu = 0; ret == 0 && cpu < nr_cpus; cpu++)
		ret = trace_output_write_raw(out, &offs[cpu], 8) < 0 ||
		      trace_output_write_raw(out, &sizes[cpu], 8) < 0 ? -1 : 0;
	v = strlen(trailer);
	if (ret == 0)
		ret = trace_output_write_raw(out, &v, 8) < 0 ||
		      trace_output_write_raw(out, trailer, v) < 0 ? -1 : 0;
	for (int cpu = 0; ret == 0 && cpu < nr_cpus; cpu++) {
		char buf[65536];
		uint64_t done = 0;

		while (ret == 0 && trace_output_offset(out) < offs[cpu]) {
			uint64_t n = offs[cpu] - trace_output_offset(out);

			memset(buf, 0, sizeof(buf) < n ? sizeof(buf) : n);
			ret = trace_output_write_raw(out, buf, n < sizeof(buf) ? n : sizeof(buf));
		}
		while (ret == 0 && done < sizes[cpu]) {
			uint64_t n = sizes[cpu] - done < sizeof(buf) ? sizes[cpu] - done : sizeof(buf);

			ret = read_at(fds[cpu], buf, n, done) < 0 ? -1 :
				trace_output_write_raw(out, buf, n);
			done += n;
		}
	}
	free(sizes);
	free(offs);
	return ret;
}

int trace_dat_parse_format(const struct command *cmd, int opt, const char *arg, int *version,
			   const char **compression)
{
	unsigned long val;

	if (opt == 'V') {
		if (parse_ulong("--file-version", arg, 1, 1000, &val) < 0)
			return usage_follows(cmd);
		if (val < TRACE_OUTPUT_MIN_VERSION || val > TRACE_OUTPUT_MAX_VERSION)
			return usage_error(cmd, "file version %lu is not supported: use %d or %d",
					   val, TRACE_OUTPUT_MIN_VERSION, TRACE_OUTPUT_MAX_VERSION);
		*version = val;
		return PARSE_RUN;
	}
	if (strcmp(arg, "none") && strcmp(arg, "zlib") && strcmp(arg, "zstd") && strcmp(arg, "any"))
		return usage_error(cmd, "unknown compression '%s': use none, zlib, zstd or any", arg);
	*compression = arg;
	return PARSE_RUN;
}

int trace_dat_check_format(const struct command *cmd, int version, const char *compression)
{
	if (version == 6 && compression && strcmp(compression, "none"))
		return usage_error(cmd, "--compression %s needs --file-version 7", compression);
	return PARSE_RUN;
}

int trace_dat_write_via_v6(struct outfile *f, int version, const char *compression,
			   int (*write_v6)(void *ctx, int fd, const char *name), void *ctx)
{
	char tmp[] = "/tmp/trace-cmd-v6.XXXXXX";
	int fd, ret;

	if (version == 6 && (!compression || !strcmp(compression, "none"))) {
		fd = f->fd;
		f->fd = -1;	/* write_v6 closes it */
		return write_v6(ctx, fd, f->path);
	}
	fd = mkstemp(tmp);
	if (fd < 0)
		return error("cannot create a temporary file: %s", strerror(errno));
	ret = write_v6(ctx, fd, tmp);
	if (ret == 0)
		ret = convert_into(tmp, f, version, compression);
	unlink(tmp);
	return ret;
}
