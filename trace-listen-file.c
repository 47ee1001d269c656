// SPDX-License-Identifier: GPL-2.0
/*
 * Finishing a received trace.dat: walk the metadata the client sent (v6
 * sections, or v7 sections and the chain of options sections) through the
 * bounded cursor, then append the CPU data as trace-cmd.dat.v6(5), FLYRECORD
 * and trace-cmd.dat.v7(5), BUFFER SECTIONS lay it out.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>

#include "trace-cmd.h"
#include "trace-compress.h"
#include "trace-cursor.h"
#include "trace-dat.h"
#include "trace-listen.h"

#define MAX_OPTIONS_SIZE	(64u << 20)
#define MAX_NAMES_SIZE		(1u << 20)	/* rebuilt section descriptions */

/* Our own STRINGS section: descriptions of the sections we append. */
static const char our_strings[] = "buffer flyrecord \0options\0strings";
#define DESC_BUFFER	0
#define DESC_OPTIONS	18
#define DESC_STRINGS	26

/* A growing byte buffer in the file's byte order. */
struct out {
	unsigned char	*p;
	size_t		len, cap;
	int		big;
};

/* What the walk of the metadata found, and what the tail must supply. */
struct meta {
	struct cursor	c;
	int		version;
	uint32_t	page_size;
	char		clock[32];	/* from TRACECLOCK, "local" without it */
	/* v6: parts the client did not send (a v1 client may stop early) */
	int		need_cmdlines, need_cpus, need_tag;
	/* v7 */
	char		comp[16];
	uint64_t	done_pos;	/* file offset of the last DONE's u64 */
	uint64_t	strings_base;	/* bytes of STRINGS sections already there */
	struct out	*names;		/* the client's section descriptions, rebuilt */
};

static void out_bytes(struct out *o, const void *p, size_t n)
{
	if (!n)
		return;
	if (o->len + n > o->cap) {
		o->cap = (o->len + n) * 2 + 256;
		o->p = xrealloc(o->p, o->cap);
	}
	memcpy(o->p + o->len, p, n);
	o->len += n;
}

static void out_uint(struct out *o, uint64_t v, int size)
{
	unsigned char b[8];

	for (int i = 0; i < size; i++)
		b[o->big ? size - 1 - i : i] = v >> (8 * i);
	out_bytes(o, b, size);
}

static uint64_t align_up(uint64_t v, uint64_t a)
{
	return (v + a - 1) / a * a;
}

/* "[local] global ..." -> "local" */
static void take_clock(struct meta *m, const char *text, uint32_t size)
{
	const char *open = memchr(text, '[', size);
	const char *close = open ? memchr(open, ']', size - (open - text)) : NULL;

	if (open && close && close - open - 1 < (long)sizeof(m->clock) && close > open + 1)
		snprintf(m->clock, sizeof(m->clock), "%.*s", (int)(close - open - 1), open + 1);
}

/* --- v6 ------------------------------------------------------------------ */

static int skip_sized(struct cursor *c, int size_len, const char *what)
{
	uint64_t size;

	return cur_uint(c, size_len, &size, what) < 0 ? -1 : cur_skip(c, size, what);
}

static int named_section(struct cursor *c, const char *name)
{
	const char *s;
	uint64_t off = cur_offset(c);

	if (cur_string(c, &s, name) < 0)
		return -1;
	if (strcmp(s, name))
		return cur_bad(c, off, "expected '%s'", name);
	return skip_sized(c, 8, name);
}

static int skip_formats(struct cursor *c)
{
	uint32_t n, systems;

	if (cur_u32(c, &n, "ftrace format count") < 0)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		if (skip_sized(c, 8, "ftrace format") < 0)
			return -1;
	if (cur_u32(c, &systems, "event system count") < 0)
		return -1;
	for (uint32_t s = 0; s < systems; s++) {
		const char *name;

		if (cur_string(c, &name, "event system name") < 0 ||
		    cur_u32(c, &n, "event format count") < 0)
			return -1;
		for (uint32_t i = 0; i < n; i++)
			if (skip_sized(c, 8, "event format") < 0)
				return -1;
	}
	return 0;
}

/* A v6 options block, after its tag, up to and including the bare u16 0. */
static int walk_v6_options(struct meta *m)
{
	for (;;) {
		const void *data;
		uint16_t id;
		uint32_t size;

		if (cur_u16(&m->c, &id, "option id") < 0)
			return -1;
		if (id == TRACE_OPT_DONE)
			return 0;
		if (cur_u32(&m->c, &size, "option size") < 0 ||
		    cur_bytes(&m->c, size, &data, "option data") < 0)
			return -1;
		if (id == TRACE_OPT_TRACECLOCK)
			take_clock(m, data, size);
	}
}

static int walk_v6(struct meta *m, uint32_t cpus)
{
	struct cursor *c = &m->c;
	const void *tag;
	uint32_t file_cpus;

	if (named_section(c, "header_page") < 0 || named_section(c, "header_event") < 0 ||
	    skip_formats(c) < 0 || skip_sized(c, 4, "kallsyms") < 0 ||
	    skip_sized(c, 4, "printk formats") < 0)
		return -1;
	/* A v1 client stops after printk formats or saved cmdlines. */
	m->need_cmdlines = m->need_cpus = m->need_tag = !cur_left(c);
	if (m->need_cmdlines)
		return 0;
	if (skip_sized(c, 8, "saved cmdlines") < 0)
		return -1;
	m->need_cpus = m->need_tag = !cur_left(c);
	if (m->need_cpus)
		return 0;
	if (cur_u32(c, &file_cpus, "cpu count") < 0)
		return -1;
	if (file_cpus != cpus)
		return cur_bad(c, cur_offset(c) - 4, "the file has %u cpus, the client announced %u",
			       file_cpus, cpus);
	m->need_tag = 1;
	if (!cur_left(c))
		return 0;
	if (cur_bytes(c, 10, &tag, "section tag") < 0)
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		if (walk_v6_options(m) < 0)
			return -1;
		if (!cur_left(c))
			return 0;
		if (cur_bytes(c, 10, &tag, "section tag") < 0)
			return -1;
	}
	if (memcmp(tag, "flyrecord", 10))
		return cur_bad(c, cur_offset(c) - 10, "expected 'flyrecord' (latency traces cannot be received)");
	m->need_tag = 0;
	if (cur_left(c))
		return cur_bad(c, cur_offset(c), "data after the flyrecord tag");
	return 0;
}

/* flyrecord: tag, per-CPU offsets and sizes, the clock trailer, page-aligned data. */
static int tail_v6(struct meta *m, struct out *o, uint32_t cpus, const struct listen_cpu *cpu,
		   uint64_t *offsets)
{
	uint64_t pos, data;
	char trailer[40];
	int tlen = snprintf(trailer, sizeof(trailer), "[%s]", m->clock);

	if (m->need_cmdlines)
		out_uint(o, 0, 8);
	if (m->need_cpus)
		out_uint(o, cpus, 4);
	if (m->need_tag)
		out_bytes(o, "flyrecord", 10);
	pos = m->c.size + o->len + cpus * 16 + 8 + tlen;
	data = align_up(pos, m->page_size);
	for (uint32_t i = 0; i < cpus; i++) {
		offsets[i] = data;
		out_uint(o, data, 8);
		out_uint(o, cpu[i].size, 8);
		data = align_up(data + cpu[i].size, m->page_size);
	}
	out_uint(o, tlen, 8);
	out_bytes(o, trailer, tlen);
	return 0;
}

/* --- v7 ------------------------------------------------------------------ */

/* The descriptions upstream's writer gives the sections it streams. */
static const char *section_name(uint16_t id)
{
	switch (id) {
	case 0: return "options";
	case 16: return "headers";
	case 17: return "ftrace events";
	case 18: return "events format";
	case 19: return "kallsyms";
	case 20: return "printk";
	case 21: return "command lines";
	case 22: return "buffer latency";
	case 23: return "BTF";
	case 25: return "modules";
	}
	return "";
}

/*
 * A streaming client writes its STRINGS section only at the end, which never
 * comes over the wire: its sections point at descriptions nobody sent.
 * Rebuild them (each is the standard name, at the offset the client gave)
 * so that our STRINGS section covers every description in the file.
 */
static void rebuild_name(struct meta *m, uint16_t id, uint32_t desc)
{
	const char *name = section_name(id);
	static const char zeros[64];

	if (desc == (uint32_t)-1 || desc < m->names->len || desc > MAX_NAMES_SIZE)
		return;
	while (m->names->len < desc) {
		size_t n = desc - m->names->len;

		out_bytes(m->names, zeros, n < sizeof(zeros) ? n : sizeof(zeros));
	}
	out_bytes(m->names, name, strlen(name) + 1);
}

static int decompress(struct meta *m, uint64_t off, const void *src, uint32_t csize,
		      void *dst, uint32_t usize)
{
	const char *why;

	if (strcmp(m->comp, "zstd") && strcmp(m->comp, "zlib"))
		return cur_bad(&m->c, off, "compressed section in a file compressed with '%s'",
			       m->comp);
	why = inflate_once(m->comp, src, csize, dst, usize);
	if (why)
		return cur_bad(&m->c, off, "%s data does not decompress to %u bytes (%s)",
			       m->comp, usize, why);
	return 0;
}

/*
 * The options of one options section: follows TRACECLOCK and returns the
 * DONE's next-section offset in *next, and where it sits in the file.
 */
static int walk_v7_options(struct meta *m, struct cursor *c, uint64_t *next, uint64_t *done_at)
{
	for (;;) {
		const void *data;
		uint16_t id;
		uint32_t size;

		if (cur_u16(c, &id, "option id") < 0 || cur_u32(c, &size, "option size") < 0)
			return -1;
		if (id == TRACE_OPT_DONE) {
			*done_at = cur_offset(c);
			if (size != 8)
				return cur_bad(c, *done_at - 6, "DONE option of %u bytes, not 8", size);
			return cur_u64(c, next, "next options offset");
		}
		if (cur_bytes(c, size, &data, "option data") < 0)
			return -1;
		if (id == TRACE_OPT_TRACECLOCK)
			take_clock(m, data, size);
	}
}

/* A section header at @off; @body gets a cursor over its (decompressed) body. */
static int v7_section(struct meta *m, uint64_t off, uint16_t *id, uint16_t *flags,
		      struct cursor *body, void **buf)
{
	struct cursor c = m->c;
	uint32_t desc, csize, usize;
	uint64_t size;

	*buf = NULL;
	if (cur_seek(&c, off, "section header") < 0 || cur_u16(&c, id, "section id") < 0 ||
	    cur_u16(&c, flags, "section flags") < 0 ||
	    cur_u32(&c, &desc, "section description") < 0 ||
	    cur_u64(&c, &size, "section size") < 0 ||
	    cur_sub(&c, body, size, "section body") < 0)
		return -1;
	if (!(*flags & 1) || *id != 0)
		return 0;
	if (cur_u32(body, &csize, "compressed size") < 0 ||
	    cur_u32(body, &usize, "uncompressed size") < 0 ||
	    cur_need(body, csize, "compressed options") < 0)
		return -1;
	if (usize > MAX_OPTIONS_SIZE)
		return cur_bad(body, off, "options section of %u bytes", usize);
	*buf = xmalloc(usize);
	if (decompress(m, off, body->data + body->pos, csize, *buf, usize) < 0)
		return -1;
	cur_init(body, *buf, usize, 0, m->c.big_endian, m->c.name);
	body->within = "decompressed options section";
	return 0;
}

/* Follows the options chain from the prefix to its last DONE. */
static int walk_v7_chain(struct meta *m, uint64_t off, uint64_t nr_sections)
{
	for (uint64_t n = 0; off; n++) {
		struct cursor body;
		uint16_t id, flags;
		uint64_t next, done_at;
		void *buf;
		int ret;

		if (n >= nr_sections)
			return cur_bad(&m->c, off, "the options sections form a loop");
		if (v7_section(m, off, &id, &flags, &body, &buf) < 0) {
			free(buf);
			return -1;
		}
		if (id != 0) {
			free(buf);
			return cur_bad(&m->c, off, "options offset points at a section of id %u", id);
		}
		ret = walk_v7_options(m, &body, &next, &done_at);
		free(buf);
		if (ret < 0)
			return -1;
		/* Chaining rewrites the last DONE: it must be stored plainly. */
		m->done_pos = (flags & 1) ? 0 : done_at;
		off = next;
	}
	if (!m->done_pos)
		return error("'%s': the last options section is compressed: cannot chain the data to it",
			     m->c.name);
	return 0;
}

static int walk_v7(struct meta *m)
{
	struct cursor *c = &m->c;
	const char *comp, *ver;
	uint64_t first, nr = 0;

	if (cur_string(c, &comp, "compression name") < 0 ||
	    cur_string(c, &ver, "compression version") < 0 ||
	    cur_u64(c, &first, "options offset") < 0)
		return -1;
	snprintf(m->comp, sizeof(m->comp), "%s", comp);
	if (strcmp(comp, "none") && strcmp(comp, "zstd") && strcmp(comp, "zlib")) {
		char shown[PRINTABLE_SIZE(16)];

		return cur_bad(c, 18, "unknown compression '%s'",
			       printable(shown, sizeof(shown), comp, 16));
	}
	/* Sections are contiguous up to the end of what the client sent. */
	while (cur_left(c)) {
		uint16_t id, flags;
		uint32_t desc, usize;
		uint64_t size;
		struct cursor body;

		if (cur_u16(c, &id, "section id") < 0 || cur_u16(c, &flags, "section flags") < 0 ||
		    cur_u32(c, &desc, "section description") < 0 ||
		    cur_u64(c, &size, "section size") < 0 ||
		    cur_sub(c, &body, size, "section body") < 0)
			return -1;
		if (id == TRACE_OPT_STRINGS) {
			usize = size;
			if ((flags & 1) && (cur_skip(&body, 4, "compressed size") < 0 ||
					    cur_u32(&body, &usize, "uncompressed size") < 0))
				return -1;
			m->strings_base += usize;
		}
		rebuild_name(m, id, desc);
		nr++;
	}
	if (!first)
		return error("'%s': the client sent no options section", c->name);
	/* A client that sent its strings needs none rebuilt. */
	if (m->strings_base)
		m->names->len = 0;
	m->strings_base += m->names->len;
	return walk_v7_chain(m, first, nr);
}

/* BUFFER section, an options section holding the BUFFER option, STRINGS. */
static int tail_v7(struct meta *m, struct out *hdr, struct out *o, uint32_t cpus,
		   const struct listen_cpu *cpu, uint64_t *offsets, uint64_t *opts_at)
{
	uint64_t sec = m->c.size, data, end, opts, body_len;
	size_t clock_len = strlen(m->clock) + 1;

	data = align_up(sec + 16, m->page_size);
	end = data;
	for (uint32_t i = 0; i < cpus; i++) {
		offsets[i] = align_up(end, m->page_size);
		end = offsets[i] + cpu[i].size;
	}
	out_uint(hdr, TRACE_OPT_BUFFER, 2);
	out_uint(hdr, 0, 2);
	out_uint(hdr, m->strings_base + DESC_BUFFER, 4);
	out_uint(hdr, end - sec - 16, 8);
	/* The options and strings follow the data. */
	opts = end;
	body_len = 6 + 8 + 1 + clock_len + 4 + 4 + cpus * 20 + 6 + 8;
	*opts_at = opts;
	out_uint(o, 0, 2);
	out_uint(o, 0, 2);
	out_uint(o, m->strings_base + DESC_OPTIONS, 4);
	out_uint(o, body_len, 8);
	out_uint(o, TRACE_OPT_BUFFER, 2);
	out_uint(o, 8 + 1 + clock_len + 4 + 4 + cpus * 20, 4);
	out_uint(o, sec, 8);
	out_bytes(o, "", 1);
	out_bytes(o, m->clock, clock_len);
	out_uint(o, m->page_size, 4);
	out_uint(o, cpus, 4);
	for (uint32_t i = 0; i < cpus; i++) {
		out_uint(o, i, 4);
		out_uint(o, offsets[i], 8);
		out_uint(o, cpu[i].size, 8);
	}
	out_uint(o, TRACE_OPT_DONE, 2);
	out_uint(o, 8, 4);
	out_uint(o, 0, 8);
	out_uint(o, TRACE_OPT_STRINGS, 2);
	out_uint(o, 0, 2);
	out_uint(o, m->strings_base + DESC_STRINGS, 4);
	out_uint(o, m->names->len + sizeof(our_strings), 8);
	out_bytes(o, m->names->p, m->names->len);
	out_bytes(o, our_strings, sizeof(our_strings));
	return 0;
}

/* --- writing ------------------------------------------------------------- */

static int pwrite_all(int fd, const void *buf, size_t len, uint64_t off, const char *name)
{
	const char *p = buf;

	while (len) {
		ssize_t n = pwrite(fd, p, len, off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error("cannot write '%s': %s", name, n < 0 ? strerror(errno) : "no space");
		p += n;
		len -= n;
		off += n;
	}
	return 0;
}

static int copy_cpu(int out, uint64_t off, const struct listen_cpu *cpu, const char *name)
{
	static char buf[1 << 16];

	for (uint64_t done = 0; done < cpu->size;) {
		size_t want = cpu->size - done < sizeof(buf) ? cpu->size - done : sizeof(buf);
		ssize_t n = pread(cpu->fd, buf, want, done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error("cannot read the received data for '%s': %s", name,
				     n < 0 ? strerror(errno) : "file shrank");
		if (pwrite_all(out, buf, n, off + done, name) < 0)
			return -1;
		done += n;
	}
	return 0;
}

static int parse_prefix(struct meta *m)
{
	static const unsigned char magic[10] = { 0x17, 0x08, 0x44, 't', 'r', 'a', 'c', 'i', 'n', 'g' };
	struct cursor *c = &m->c;
	const void *p;
	const char *ver;
	uint8_t endian, lsize;
	uint32_t page;

	if (cur_bytes(c, 10, &p, "file magic") < 0)
		return -1;
	if (memcmp(p, magic, 10))
		return cur_bad(c, 0, "not a trace.dat (bad magic)");
	if (cur_string(c, &ver, "file version") < 0 || cur_u8(c, &endian, "endianness") < 0 ||
	    cur_u8(c, &lsize, "long size") < 0)
		return -1;
	if (strcmp(ver, "6") && strcmp(ver, "7")) {
		char shown[PRINTABLE_SIZE(8)];

		return cur_bad(c, 10, "file version '%s' cannot be received",
			       printable(shown, sizeof(shown), ver, 8));
	}
	if (endian > 1)
		return cur_bad(c, cur_offset(c) - 2, "bad endianness byte %u", endian);
	m->version = ver[0] - '0';
	c->big_endian = endian;
	if (cur_u32(c, &page, "page size") < 0)
		return -1;
	if (page < 1024 || page > (1u << 20) || (page & (page - 1)))
		return cur_bad(c, cur_offset(c) - 4, "bad page size %u", page);
	m->page_size = page;
	return 0;
}

int listen_finish_file(int fd, uint64_t meta_len, const char *name, uint32_t cpus,
		       const struct listen_cpu *cpu)
{
	struct out o = { 0 }, names = { 0 };
	struct meta m = { .clock = "local", .names = &names };
	uint64_t *offsets = xcalloc(cpus, sizeof(*offsets));
	uint64_t opts_at = 0;
	void *map;
	int ret = -1;

	if (!meta_len) {
		free(offsets);
		return error("'%s': the client sent no file header", name);
	}
	map = mmap(NULL, meta_len, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		free(offsets);
		return error("cannot map '%s': %s", name, strerror(errno));
	}
	cur_init(&m.c, map, meta_len, 0, 0, name);
	if (parse_prefix(&m) < 0)
		goto out;
	o.big = m.c.big_endian;
	if (m.version == 6) {
		if (walk_v6(&m, cpus) < 0 || tail_v6(&m, &o, cpus, cpu, offsets) < 0 ||
		    pwrite_all(fd, o.p, o.len, meta_len, name) < 0)
			goto out;
	} else {
		struct out hdr = { .big = o.big }, done = { .big = o.big };
		int bad;

		if (walk_v7(&m) < 0 || tail_v7(&m, &hdr, &o, cpus, cpu, offsets, &opts_at) < 0)
			goto out;
		out_uint(&done, opts_at, 8);
		bad = pwrite_all(fd, hdr.p, hdr.len, meta_len, name) < 0 ||
		      pwrite_all(fd, o.p, o.len, opts_at, name) < 0 ||
		      pwrite_all(fd, done.p, done.len, m.done_pos, name) < 0;
		free(hdr.p);
		free(done.p);
		if (bad)
			goto out;
	}
	for (uint32_t i = 0; i < cpus; i++)
		if (copy_cpu(fd, offsets[i], &cpu[i], name) < 0)
			goto out;
	ret = 0;
out:
	munmap(map, meta_len);
	free(names.p);
	free(o.p);
	free(offsets);
	return ret;
}
