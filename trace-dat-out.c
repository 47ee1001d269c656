// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat writer's common layer (see trace-dat-out.h): every byte of
 * every layout goes through dat_write(), which checks it, counts it, or
 * captures it while a v7 section is being collected.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-dat-out.h"

void mb_add(struct membuf *m, const void *buf, size_t len)
{
	if (m->len + len > m->cap) {
		m->cap = (m->len + len) * 2 + 256;
		m->data = xrealloc(m->data, m->cap);
	}
	memcpy(m->data + m->len, buf, len);
	m->len += len;
}

void mb_u16(struct membuf *m, uint16_t v) { mb_add(m, &v, 2); }
void mb_u32(struct membuf *m, uint32_t v) { mb_add(m, &v, 4); }
void mb_u64(struct membuf *m, uint64_t v) { mb_add(m, &v, 8); }

struct dat_out *dat_out_new(int fd, const char *name)
{
	struct dat_out *d = xcalloc(1, sizeof(*d));

	d->fd = fd;
	d->name = xstrdup(name);
	d->page_size = getpagesize();
	return d;
}

int dat_out_close(struct dat_out *d)
{
	int ret = 0;

	if (d->fd >= 0 && close(d->fd) < 0)
		ret = error("cannot write '%s': %s", d->name, strerror(errno));
	dat_clear_options(d);
	free(d->opts);
	free(d->capture.data);
	free(d->name);
	free(d);
	return ret;
}

int dat_write(struct dat_out *d, const void *buf, size_t len)
{
	if (d->capturing) {
		mb_add(&d->capture, buf, len);
		return 0;
	}
	if (write_all(d->fd, buf, len) < 0) {
		d->failed = 1;
		return error("cannot write '%s': %s", d->name, strerror(errno));
	}
	d->pos += len;
	return 0;
}

int dat_u16(struct dat_out *d, uint16_t v)
{
	return dat_write(d, &v, sizeof(v));
}

int dat_u32(struct dat_out *d, uint32_t v)
{
	return dat_write(d, &v, sizeof(v));
}

int dat_u64(struct dat_out *d, uint64_t v)
{
	return dat_write(d, &v, sizeof(v));
}

int dat_str(struct dat_out *d, const char *s)
{
	return dat_write(d, s, strlen(s) + 1);
}

int dat_pad_to(struct dat_out *d, uint64_t offset)
{
	static const char zeros[4096];

	while (d->pos < offset) {
		uint64_t n = offset - d->pos;

		if (dat_write(d, zeros, n < sizeof(zeros) ? n : sizeof(zeros)) < 0)
			return -1;
	}
	return 0;
}

int dat_patch(struct dat_out *d, uint64_t at, const void *buf, size_t len)
{
	errno = 0;
	if (pwrite(d->fd, buf, len, at) != (ssize_t)len)
		return error("cannot write '%s': %s", d->name,
			     errno ? strerror(errno) : "short write");
	return 0;
}

int dat_copy_fd(struct dat_out *d, int fd, uint64_t len)
{
	char buf[65536];
	loff_t in_off = 0;

	/* In the kernel where it can. */
	while (len && !d->capturing) {
		ssize_t n = copy_file_range(fd, &in_off, d->fd, NULL, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		d->pos += n;
		len -= n;
	}
	/* Pipes, sockets and older kernels: plain reads and writes. */
	while (len) {
		ssize_t n = pread(fd, buf, len < sizeof(buf) ? len : sizeof(buf), in_off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error("cannot read the data copied into '%s': %s", d->name,
				     n < 0 ? strerror(errno) : "file shrank");
		if (dat_write(d, buf, n) < 0)
			return -1;
		in_off += n;
		len -= n;
	}
	return 0;
}

void dat_capture_begin(struct dat_out *d)
{
	d->capturing = 1;
	d->capture.len = 0;
}

void dat_capture_end(struct dat_out *d)
{
	d->capturing = 0;
}

void dat_add_option(struct dat_out *d, uint16_t id, const void *data, uint32_t size)
{
	struct dat_option *o;

	d->opts = xrealloc(d->opts, (d->nr_opts + 1) * sizeof(*d->opts));
	o = &d->opts[d->nr_opts++];
	o->id = id;
	o->size = size;
	o->data = xmalloc(size ? size : 1);
	memcpy(o->data, data, size);
}

void dat_clear_options(struct dat_out *d)
{
	for (size_t i = 0; i < d->nr_opts; i++)
		free(d->opts[i].data);
	d->nr_opts = 0;
}
