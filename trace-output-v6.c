// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat version 6 layout after the metadata (trace-cmd.dat.v6(5)):
 * strictly sequential, so it goes to a file, a pipe or a socket alike, but
 * for an instance's BUFFER option, whose offset is filled in afterwards.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-dat.h"
#include "trace-dat-out.h"
#include "trace-output-v6.h"

#define FLYRECORD_TAG		"flyrecord"	/* 10 bytes with the NUL */
#define OPTIONS_TAG		"options  "

/* Where each instance's BUFFER option had its offset written, by name. */
struct v6_writer {
	char **buffer_names;
	uint64_t *buffer_offset_at;
	size_t nr_buffers;
};

struct v6_writer *v6_new(void)
{
	return xcalloc(1, sizeof(struct v6_writer));
}

void v6_free(struct v6_writer *w)
{
	if (!w)
		return;
	for (size_t i = 0; i < w->nr_buffers; i++)
		free(w->buffer_names[i]);
	free(w->buffer_names);
	free(w->buffer_offset_at);
	free(w);
}

void v6_add_buffer(struct dat_out *d, const char *name)
{
	size_t len = strlen(name) + 1;
	char *payload = xcalloc(1, 8 + len);

	memcpy(payload + 8, name, len);
	dat_add_option(d, TRACE_OPT_BUFFER, payload, 8 + len);
	free(payload);
}

/* A BUFFER option is being written at d->pos: remember where, by name. */
static void note_buffer_option(struct v6_writer *w, const struct dat_out *d,
			       const struct dat_option *o)
{
	if (o->id != TRACE_OPT_BUFFER || o->size < 9 || o->data[o->size - 1])
		return;
	w->buffer_names = xrealloc(w->buffer_names,
				   (w->nr_buffers + 1) * sizeof(*w->buffer_names));
	w->buffer_offset_at = xrealloc(w->buffer_offset_at,
				       (w->nr_buffers + 1) * sizeof(*w->buffer_offset_at));
	/* The payload ends with the name's NUL (v6_add_buffer). */
	w->buffer_names[w->nr_buffers] = xstrdup(o->data + 8);
	w->buffer_offset_at[w->nr_buffers++] = d->pos;
}

static int write_options(struct v6_writer *w, struct dat_out *d)
{
	if (!d->nr_opts)
		return 0;
	if (dat_str(d, OPTIONS_TAG) < 0)
		return -1;
	for (size_t i = 0; i < d->nr_opts; i++) {
		struct dat_option *o = &d->opts[i];

		if (dat_u16(d, o->id) < 0 || dat_u32(d, o->size) < 0)
			return -1;
		note_buffer_option(w, d, o);
		if (dat_write(d, o->data, o->size) < 0)
			return -1;
	}
	/* v6 ends the run with a bare id 0, no size after it. */
	return dat_u16(d, TRACE_OPT_DONE);
}

int v6_end_metadata(struct v6_writer *w, struct dat_out *d, int nr_cpus)
{
	return dat_u32(d, nr_cpus) < 0 ? -1 : write_options(w, d);
}

/*
 * "flyrecord", the per-CPU offsets and sizes, the clock trailer, then each
 * CPU's data page-aligned: the top buffer's part, and each instance's.
 */
static int write_flyrecord(struct dat_out *d, int nr_cpus, const int *cpu_fds,
			   const char *clock)
{
	uint64_t *sizes = xcalloc(nr_cpus, sizeof(*sizes));
	uint64_t *offsets = xcalloc(nr_cpus, sizeof(*offsets));
	char trailer[128];
	uint64_t off;
	int ret = -1;

	snprintf(trailer, sizeof(trailer), "[%s]", clock ? clock : "local");
	if (dat_str(d, FLYRECORD_TAG) < 0)
		goto out;
	/* Offsets first: after the table and the trailer, each CPU on a page. */
	off = d->pos + nr_cpus * 16 + 8 + strlen(trailer);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		off = (off + d->page_size - 1) / d->page_size * d->page_size;
		sizes[cpu] = fd_size(cpu_fds[cpu]);
		offsets[cpu] = off;
		off += sizes[cpu];
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (dat_u64(d, offsets[cpu]) < 0 || dat_u64(d, sizes[cpu]) < 0)
			goto out;
	if (dat_u64(d, strlen(trailer)) < 0 || dat_write(d, trailer, strlen(trailer)) < 0)
		goto out;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		if (dat_pad_to(d, offsets[cpu]) < 0)
			goto out;
		if (sizes[cpu] && dat_copy_fd(d, cpu_fds[cpu], sizes[cpu]) < 0)
			goto out;
	}
	ret = 0;
out:
	free(sizes);
	free(offsets);
	return ret;
}

int v6_write_data(struct v6_writer *w, struct dat_out *d, int nr_cpus, const int *cpu_fds,
		  const char *clock)
{
	if (v6_end_metadata(w, d, nr_cpus) < 0)
		return -1;
	return write_flyrecord(d, nr_cpus, cpu_fds, clock);
}

int v6_write_buffer(struct v6_writer *w, struct dat_out *d, const char *name, int nr_cpus,
		    const int *cpu_fds, const char *clock)
{
	uint64_t here = d->pos;
	size_t i;

	for (i = 0; i < w->nr_buffers; i++)
		if (!strcmp(w->buffer_names[i], name))
			break;
	if (i == w->nr_buffers)
		return error("'%s': no BUFFER option for instance '%s'", d->name, name);
	/* The one write that is not sequential: the file must be seekable. */
	if (pwrite(d->fd, &here, sizeof(here), w->buffer_offset_at[i]) != sizeof(here))
		return error("cannot write '%s': %s", d->name,
			     errno == ESPIPE ? "instances need a seekable output" :
			     strerror(errno));
	return write_flyrecord(d, nr_cpus, cpu_fds, clock);
}
