// SPDX-License-Identifier: GPL-2.0
/*
 * Reads trace.dat v6 and v7 (trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5) in
 * Documentation/): the file and its metadata, parsed through bounded cursors
 * over a read-only mapping, and the accessors of trace-input.h.  The formats
 * become a tep handle in trace-tep.c; records come from trace-cpu-stream.c,
 * merged in trace-merge.c; trace-reader.c opens and closes the whole, so
 * calls go one way, from those modules down to this one.
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-reader.h"
#include "trace-ahead.h"
#include "trace-kallsyms.h"
#include "trace-outfile.h"
#include "trace-page.h"

void reader_own(struct trace_input *in, void *p)
{
	in->owned = xrealloc(in->owned, sizeof(*in->owned) * (in->nr_owned + 1));
	in->owned[in->nr_owned++] = p;
}

char *reader_strndup(const void *p, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* ---- decompression ------------------------------------------------------ */

/* Messages name @at's file, and are warnings if it says what is kept. */
int reader_decompress(struct trace_input *in, const struct cursor *at, const void *src,
		      size_t csize, void *dst, size_t usize, uint64_t off, const char *what)
{
	const char *why = inflate_exact(&in->inflater, src, csize, dst, usize);
	struct cursor c;

	if (!why)
		return 0;
	cur_init(&c, NULL, 0, 0, 0, in->file);
	c.kept = at ? at->kept : NULL;
	if (in->comp == TRACE_COMP_NONE)
		return cur_bad(&c, off, "%s is compressed but the file names no compression", what);
	return cur_bad(&c, off, "%s does not decompress with %s (%s)", what, in->comp_name, why);
}

/* ---- the v6 header items, also the bodies of v7 sections ----------------- */

static int parse_header_info(struct trace_input *in, struct cursor *c)
{
	const void *p;
	uint64_t size;

	if (cur_bytes(c, 12, &p, "header_page tag") < 0)
		return -1;
	if (memcmp(p, "header_page", 12))
		return cur_bad(c, cur_offset(c) - 12, "expected 'header_page'");
	if (cur_u64(c, &size, "header_page size") < 0 ||
	    cur_bytes(c, size, &p, "header_page") < 0)
		return -1;
	in->header_page = p;
	in->header_page_len = size;
	if (cur_bytes(c, 13, &p, "header_event tag") < 0)
		return -1;
	if (memcmp(p, "header_event", 13))
		return cur_bad(c, cur_offset(c) - 13, "expected 'header_event'");
	if (cur_u64(c, &size, "header_event size") < 0 ||
	    cur_bytes(c, size, &p, "header_event") < 0)
		return -1;
	in->header_event = p;
	in->header_event_len = size;
	return 0;
}

static void add_format(struct trace_input *in, const char *system, const void *text, size_t len)
{
	in->formats = xrealloc(in->formats, sizeof(*in->formats) * (in->nr_formats + 1));
	in->formats[in->nr_formats].system = system;
	in->formats[in->nr_formats].text = text;
	in->formats[in->nr_formats].len = len;
	in->nr_formats++;
}

static int parse_format_list(struct trace_input *in, struct cursor *c, const char *system,
			     const char *what)
{
	uint32_t count;

	if (cur_u32(c, &count, what) < 0)
		return -1;
	for (uint32_t i = 0; i < count; i++) {
		const void *p;
		uint64_t size;

		if (cur_u64(c, &size, "event format size") < 0 ||
		    cur_bytes(c, size, &p, "event format") < 0)
			return -1;
		add_format(in, system, p, size);
	}
	return 0;
}

static int parse_ftrace_events(struct trace_input *in, struct cursor *c)
{
	return parse_format_list(in, c, "ftrace", "ftrace format count");
}

static int parse_event_formats(struct trace_input *in, struct cursor *c)
{
	uint32_t systems;

	if (cur_u32(c, &systems, "event system count") < 0)
		return -1;
	for (uint32_t i = 0; i < systems; i++) {
		const char *name;

		if (cur_string(c, &name, "event system name") < 0 ||
		    parse_format_list(in, c, name, "event count") < 0)
			return -1;
	}
	return 0;
}

static int parse_text32(struct cursor *c, char **out, const char *what)
{
	uint32_t size;
	const void *p;

	if (cur_u32(c, &size, what) < 0 || cur_bytes(c, size, &p, what) < 0)
		return -1;
	*out = reader_strndup(p, size);
	return 0;
}

static int parse_kallsyms(struct trace_input *in, struct cursor *c)
{
	uint32_t size;
	const void *p;

	if (cur_u32(c, &size, "kallsyms") < 0 || cur_bytes(c, size, &p, "kallsyms") < 0)
		return -1;
	/* As the copy would end: at the first NUL. */
	in->kallsyms_at = p;
	in->kallsyms_len = strnlen(p, size);
	return 0;
}

static int parse_printk(struct trace_input *in, struct cursor *c)
{
	return parse_text32(c, &in->printk, "printk formats");
}

static int parse_cmdlines(struct trace_input *in, struct cursor *c)
{
	uint64_t size;
	const void *p;

	if (cur_u64(c, &size, "saved cmdlines size") < 0 ||
	    cur_bytes(c, size, &p, "saved cmdlines") < 0)
		return -1;
	in->cmdlines = reader_strndup(p, size);
	return 0;
}

/* ---- options -------------------------------------------------------------- */

static void set_clock(struct trace_input *in, const char *text, size_t len)
{
	const char *open = memchr(text, '[', len);
	const char *close = open ? memchr(open, ']', len - (open - text)) : NULL;

	free(in->clock);
	if (open && close)
		in->clock = reader_strndup(open + 1, close - open - 1);
	else {
		while (len && (text[len - 1] == '\n' || text[len - 1] == 0 || text[len - 1] == ' '))
			len--;
		in->clock = reader_strndup(text, len);
	}
}

static struct buffer *add_buffer(struct trace_input *in, struct cursor *c, const char *name)
{
	struct buffer *b;

	if (in->nr_buffers >= MAX_BUFFERS) {
		cur_bad(c, cur_offset(c), "more than %d buffers", MAX_BUFFERS);
		return NULL;
	}
	b = &in->buffers[in->nr_buffers++];
	memset(b, 0, sizeof(*b));
	b->name = xstrdup(name);
	b->page_size = in->page_size;
	return b;
}

static int parse_buffer_v7(struct trace_input *in, struct cursor *c)
{
	const char *name, *clock;
	uint64_t sect;
	uint32_t page_size, count;
	unsigned char *seen;	/* CPU ids met */
	struct buffer *b;

	if (cur_u64(c, &sect, "buffer section offset") < 0 ||
	    cur_string(c, &name, "buffer name") < 0 ||
	    cur_string(c, &clock, "buffer clock") < 0 ||
	    cur_u32(c, &page_size, "buffer page size") < 0 ||
	    cur_u32(c, &count, "buffer CPU count") < 0)
		return -1;
	if (!page_size || page_size > MAX_PAGE_SIZE || (page_size & (page_size - 1)))
		return cur_bad(c, cur_offset(c) - 8, "buffer page size %u is not a power of two",
			       page_size);
	if (count > MAX_CPUS)
		return cur_bad(c, cur_offset(c) - 4, "buffer CPU count %u is too large", count);
	b = add_buffer(in, c, name);
	if (!b)
		return -1;
	b->clock = xstrdup(clock);
	b->page_size = page_size;
	b->flyrecord = sect;
	/* Entries past the count are CPUs too: read, with a warning. */
	if (cur_left(c) > (uint64_t)count * BUFFER_ENTRY &&
	    (cur_left(c) - (uint64_t)count * BUFFER_ENTRY) % BUFFER_ENTRY == 0) {
		uint64_t all = cur_left(c) / BUFFER_ENTRY;

		warning("'%s': %s%s%s: CPU count %u at offset %llu, but the option holds %llu CPU entries: all read",
			in->file, *name ? "buffer '" : "the top buffer", name, *name ? "'" : "",
			count, (unsigned long long)cur_offset(c) - 4, (unsigned long long)all);
		count = all;
	}
	b->cpu = xcalloc(count ? count : 1, sizeof(*b->cpu));
	b->cpus = count;	/* raised to the file's CPU count later */
	seen = xcalloc(count ? count : 1, 1);
	for (uint32_t i = 0; i < count; i++) {
		uint32_t cpu;
		uint64_t off, size;

		if (cur_u32(c, &cpu, "buffer CPU id") < 0 ||
		    cur_u64(c, &off, "CPU data offset") < 0 ||
		    cur_u64(c, &size, "CPU data size") < 0)
			goto fail;
		if (cpu >= MAX_CPUS) {
			cur_bad(c, cur_offset(c) - 20, "CPU id %u is too large", cpu);
			goto fail;
		}
		if ((int)cpu >= b->cpus) {
			b->cpu = xrealloc(b->cpu, sizeof(*b->cpu) * (cpu + 1));
			memset(b->cpu + b->cpus, 0, sizeof(*b->cpu) * (cpu + 1 - b->cpus));
			seen = xrealloc(seen, cpu + 1);
			memset(seen + b->cpus, 0, cpu + 1 - b->cpus);
			b->cpus = cpu + 1;
		}
		if (seen[cpu]) {
			cur_bad(c, cur_offset(c) - 20, "%s%s%s lists CPU %u twice",
				*name ? "buffer '" : "the top buffer", name, *name ? "'" : "", cpu);
			goto fail;
		}
		seen[cpu] = 1;
		b->cpu[cpu].offset = off;
		b->cpu[cpu].size = size;
	}
	free(seen);
	if (cur_left(c))
		return cur_bad(c, cur_offset(c), "%s%s%s: %zu bytes after its %u CPU entries",
			       *name ? "buffer '" : "the top buffer", name, *name ? "'" : "",
			       cur_left(c), count);
	return 0;
fail:
	free(seen);
	return -1;
}

static int parse_u64_text(const unsigned char *data, uint32_t size, int base, int64_t *v)
{
	char buf[64];
	char *end;

	if (!size || size >= sizeof(buf))
		return -1;
	memcpy(buf, data, size);
	buf[size] = 0;
	errno = 0;
	*v = strtoll(buf, &end, base);
	return errno || end == buf ? -1 : 0;
}

/* Acts on the options that change how the file is read; all are kept for lookups. */
static int use_option(struct trace_input *in, struct cursor *c, uint16_t id,
		      const unsigned char *data, uint32_t size)
{
	struct cursor oc;
	int64_t v;

	cur_init(&oc, data, size, cur_offset(c) - size, in->big_endian, in->file);
	oc.within = c->within;
	switch (id) {
	case TRACE_OPT_BUFFER:
		if (in->version >= 7)
			return parse_buffer_v7(in, &oc);
		{
			uint64_t off;
			const char *name;
			struct buffer *b;

			if (cur_u64(&oc, &off, "buffer offset") < 0 ||
			    cur_string(&oc, &name, "buffer name") < 0)
				return -1;
			b = add_buffer(in, &oc, name);
			if (!b)
				return -1;
			b->flyrecord = off;
		}
		break;
	case TRACE_OPT_CPUCOUNT: {
		uint32_t n;

		if (cur_u32(&oc, &n, "CPU count") < 0)
			return -1;
		if (n > MAX_CPUS)
			return cur_bad(&oc, oc.base, "CPU count %u is too large", n);
		/* In v6 it follows the BUFFER option of an instance it describes. */
		if (in->version < 7 && in->nr_buffers > 1)
			in->buffers[in->nr_buffers - 1].cpus = n;
		else {
			in->cpus = n;
			in->cpucount_seen = 1;
		}
		break;
	}
	case TRACE_OPT_TRACECLOCK:
		in->traceclock_seen = 1;
		if (size && !in->clock)
			set_clock(in, (const char *)data, size);
		break;
	case TRACE_OPT_DATE:
		if (!(in->flags & (TRACE_INPUT_NO_DATE | TRACE_INPUT_RAW_TS)) &&
		    parse_u64_text(data, size - (size && !data[size - 1]), 0, &v) == 0)
			in->conv.ts_offset += v * 1000;
		break;
	case TRACE_OPT_OFFSET:
		if (!(in->flags & TRACE_INPUT_RAW_TS) &&
		    parse_u64_text(data, size - (size && !data[size - 1]), 0, &v) == 0)
			in->conv.ts_offset += v;
		break;
	/* Like DATE and OFFSET, the clock options mean nothing to --raw-ts. */
	case TRACE_OPT_TSC2NSEC:
		if (!(in->flags & TRACE_INPUT_RAW_TS) &&
		    clock_conv_read_tsc2nsec(&in->conv, &oc) < 0)
			return -1;
		break;
	case TRACE_OPT_TIME_SHIFT:
		if (!(in->flags & TRACE_INPUT_RAW_TS) &&
		    clock_conv_read_time_shift(&in->conv, &oc) < 0)
			return -1;
		break;
	case TRACE_OPT_HEADER_INFO ... TRACE_OPT_CMDLINES:
	case TRACE_OPT_BUFFER_TEXT:
		if (in->version < 7)
			break;
		{
			uint64_t off;

			if (cur_u64(&oc, &off, "section offset") < 0)
				return -1;
			in->sections[id] = off;
		}
		break;
	default:
		break;	/* unknown or informational: kept, skipped by its size */
	}
	return 0;
}

static int record_option(struct trace_input *in, struct cursor *c, uint16_t id)
{
	uint32_t size;
	const void *data;

	if (cur_u32(c, &size, "option size") < 0 || cur_bytes(c, size, &data, "option data") < 0)
		return -1;
	in->opts = xrealloc(in->opts, sizeof(*in->opts) * (in->nr_opts + 1));
	in->opts[in->nr_opts].id = id;
	in->opts[in->nr_opts].size = size;
	in->opts[in->nr_opts].data = data;
	in->nr_opts++;
	return use_option(in, c, id, data, size);
}

/* v6: (u16 id, u32 size, data) until a bare u16 0. */
static int parse_options_v6(struct trace_input *in, struct cursor *c)
{
	for (;;) {
		uint16_t id;

		if (cur_u16(c, &id, "option id") < 0)
			return -1;
		if (id == TRACE_OPT_DONE)
			return 0;
		if (record_option(in, c, id) < 0)
			return -1;
	}
}

/* ---- v6 ------------------------------------------------------------------ */

static int read_tag(struct cursor *c, const char **tag)
{
	const void *p;

	if (cur_bytes(c, 10, &p, "section tag") < 0)
		return -1;
	*tag = p;
	return 0;
}

static int parse_flyrecord(struct trace_input *in, struct cursor *c, struct buffer *b)
{
	b->cpu = xcalloc(b->cpus ? b->cpus : 1, sizeof(*b->cpu));
	for (int i = 0; i < b->cpus; i++) {
		char what[64];

		snprintf(what, sizeof(what), "CPU %d data offset", i);
		if (cur_u64(c, &b->cpu[i].offset, what) < 0)
			return -1;
		snprintf(what, sizeof(what), "CPU %d data size", i);
		if (cur_u64(c, &b->cpu[i].size, what) < 0)
			return -1;
	}
	/* The clock trailer; readers expect it only after a TRACECLOCK option. */
	if (in->traceclock_seen) {
		uint64_t len;
		const void *p;

		if (cur_u64(c, &len, "trace clock size") < 0 ||
		    cur_bytes(c, len, &p, "trace clock") < 0)
			return -1;
		if (len) {
			set_clock(in, p, len);
			free(b->clock);
			b->clock = xstrdup(in->clock);
		}
	}
	return 0;
}

static int parse_v6(struct trace_input *in, struct cursor *c)
{
	const char *tag;
	uint32_t cpus;
	struct buffer *top;

	if (parse_header_info(in, c) < 0 || parse_ftrace_events(in, c) < 0 ||
	    parse_event_formats(in, c) < 0 || parse_kallsyms(in, c) < 0 ||
	    parse_printk(in, c) < 0 || parse_cmdlines(in, c) < 0)
		return -1;
	if (cur_u32(c, &cpus, "CPU count") < 0)
		return -1;
	if (cpus > MAX_CPUS)
		return cur_bad(c, cur_offset(c) - 4, "CPU count %u is too large", cpus);
	in->cpus = cpus;
	top = add_buffer(in, c, "");
	if (read_tag(c, &tag) < 0)
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		if (parse_options_v6(in, c) < 0 || read_tag(c, &tag) < 0)
			return -1;
	}
	top = &in->buffers[0];
	top->cpus = in->cpus;
	if (!memcmp(tag, "latency  ", 10)) {
		in->latency = 1;
		in->latency_off = cur_offset(c);
		top->cpus = 0;
		return 0;
	}
	if (memcmp(tag, "flyrecord", 10))
		return cur_bad(c, cur_offset(c) - 10, "expected 'flyrecord' or 'latency'");
	if (parse_flyrecord(in, c, top) < 0)
		return -1;
	for (int i = 1; i < in->nr_buffers; i++) {
		struct buffer *b = &in->buffers[i];

		if (!b->cpus)
			b->cpus = in->cpus;
		if (cur_seek(c, b->flyrecord, "buffer flyrecord") < 0 || read_tag(c, &tag) < 0)
			return -1;
		if (memcmp(tag, "flyrecord", 10))
			return cur_bad(c, b->flyrecord, "buffer '%s': expected 'flyrecord'", b->name);
		if (parse_flyrecord(in, c, b) < 0)
			return -1;
	}
	return 0;
}

/* ---- v7 ------------------------------------------------------------------ */

/*
 * Reads the section header at @off, checks its id and gives a cursor over its
 * body, decompressed when the section says so.
 */
static int open_section(struct trace_input *in, struct cursor *file, uint64_t off, uint16_t want,
			const char *what, struct cursor *body, uint16_t *flags_out)
{
	struct cursor c = *file;
	uint16_t id, flags;
	uint32_t desc;
	uint64_t size;

	if (cur_seek(&c, off, what) < 0 || cur_u16(&c, &id, "section id") < 0 ||
	    cur_u16(&c, &flags, "section flags") < 0 ||
	    cur_u32(&c, &desc, "section description") < 0 ||
	    cur_u64(&c, &size, "section size") < 0)
		return -1;
	if (id != want)
		return cur_bad(&c, off, "%s: section id %u, expected %u", what, id, want);
	if (flags_out)
		*flags_out = flags;
	if (want == TRACE_OPT_BUFFER || want == TRACE_OPT_BUFFER_TEXT || !(flags & 1))
		return cur_sub(&c, body, size, what);
	{
		uint32_t csize, usize;
		const void *p;
		unsigned char *buf;
		uint64_t start = cur_offset(&c);
		static char within[32][64];

		if (cur_need(&c, size, what) < 0 ||
		    cur_u32(&c, &csize, "compressed size") < 0 ||
		    cur_u32(&c, &usize, "uncompressed size") < 0 ||
		    cur_bytes(&c, csize, &p, what) < 0)
			return -1;
		if (usize > MAX_SECTION_SIZE)
			return cur_bad(&c, start, "%s: uncompressed size %u is too large", what,
				       usize);
		buf = xmalloc(usize + 1);
		reader_own(in, buf);
		if (reader_decompress(in, &c, p, csize, buf, usize, start, what) < 0)
			return -1;
		buf[usize] = 0;
		cur_init(body, buf, usize, 0, in->big_endian, in->file);
		body->kept = c.kept;
		snprintf(within[want & 31], sizeof(within[0]), "decompressed %s section", what);
		body->within = within[want & 31];
	}
	return 0;
}

/* Sections lie back to back from the end of the prefix to the end of the file. */
static int check_sections(struct trace_input *in, struct cursor *file, uint64_t start)
{
	struct cursor c = *file;
	uint64_t strings = 0, max_desc = 0, max_at = 0;
	int described = 0;

	if (cur_seek(&c, start, "first section") < 0)
		return -1;
	while (cur_left(&c)) {
		uint64_t at = cur_offset(&c);
		uint16_t id, flags;
		uint32_t desc;
		uint64_t size;

		/*
		 * What is not a whole section at the end (bytes appended, or a
		 * cut) is noted: trace_input_open() warns of it once every
		 * section read is found whole, and a cut one fails there.
		 */
		if (cur_left(&c) < SECTION_HEADER) {
			in->tail_at = at;
			break;
		}
		cur_u16(&c, &id, "section id");
		cur_u16(&c, &flags, "section flags");
		cur_u32(&c, &desc, "section description");
		cur_u64(&c, &size, "section size");
		if (size > cur_left(&c)) {
			in->tail_at = at;
			break;
		}
		if (id == 0) {
			in->opt_sects = xrealloc(in->opt_sects, sizeof(*in->opt_sects) *
						 (in->nr_opt_sects + 1));
			in->opt_sects[in->nr_opt_sects++] = at;
		}
		if (id == TRACE_OPT_STRINGS) {
			struct cursor body;

			if (open_section(in, file, at, id, "strings", &body, NULL) < 0)
				return -1;
			strings += body.size;
			in->strings_size = strings;
		}
		if (desc != UINT32_MAX && (!described || desc > max_desc)) {
			max_desc = desc;
			max_at = at;
			described = 1;
		}
		c.pos += size;
	}
	/*
	 * A file cut before its STRINGS section still walks; this catches it.
	 * Upstream's listen writes a STRINGS section holding only its own
	 * descriptions, which the client's sections point past: that is a
	 * whole file, with names missing only.
	 */
	if (described && !strings)
		return cur_bad(&c, max_at, "section description %llu lies past the %llu bytes of strings (a cut file?)",
			       (unsigned long long)max_desc, (unsigned long long)strings);
	return 0;
}

/* Notes the options section at @off as read: 1 if it already was. */
static int options_read(struct trace_input *in, uint64_t off)
{
	for (int i = 0; i < in->nr_opt_sects; i++) {
		if (in->opt_sects[i] != off)
			continue;
		if (in->opt_read[i])
			return 1;
		in->opt_read[i] = 1;
	}
	return 0;
}

static int parse_options_v7(struct trace_input *in, struct cursor *file, uint64_t off)
{
	if (!in->opt_read)
		in->opt_read = xcalloc(in->nr_opt_sects + 1, 1);
	for (int n = 0; off; n++) {
		struct cursor c;
		uint16_t flags;

		if (n >= MAX_OPTION_SECTIONS || options_read(in, off))
			return cur_bad(file, off, "options section read twice (a loop?)");
		if (open_section(in, file, off, 0, "options", &c, &flags) < 0)
			return -1;
		off = 0;
		for (;;) {
			uint16_t id;

			if (cur_u16(&c, &id, "option id") < 0)
				return -1;
			if (id == TRACE_OPT_DONE) {
				uint32_t size;

				if (cur_u32(&c, &size, "option size") < 0 ||
				    cur_need(&c, size, "option data") < 0)
					return -1;
				if (size >= 8 && cur_u64(&c, &off, "next options offset") < 0)
					return -1;
				/* The end of the chain, where attach links a new section. */
				if (size >= 8 && !off)
					in->options_link = flags & 1 ? 0 : cur_offset(&c) - 8;
				break;
			}
			if (record_option(in, &c, id) < 0)
				return -1;
		}
	}
	return 0;
}

static int parse_v7_section(struct trace_input *in, struct cursor *file, int id, const char *what,
			    int (*parse)(struct trace_input *, struct cursor *))
{
	struct cursor c;

	if (!in->sections[id])
		return 0;
	if (open_section(in, file, in->sections[id], id, what, &c, NULL) < 0)
		return -1;
	return parse(in, &c);
}

/*
 * kallsyms is most of a v7 file's metadata (5 MB of text here): a
 * compressed one is decompressed when first needed (reader_kallsyms_text()), not
 * at open, so "report | head -1" and the listings need not wait for it.
 */
static int note_kallsyms_v7(struct trace_input *in, struct cursor *c)
{
	uint64_t off = in->sections[TRACE_OPT_KALLSYMS];
	struct cursor s = *c;
	uint16_t flags;

	if (!off)
		return 0;
	if (cur_seek(&s, off + 2, "kallsyms") < 0 || cur_u16(&s, &flags, "section flags") < 0)
		return -1;
	if (!(flags & 1) || in->comp == TRACE_COMP_NONE)
		return parse_v7_section(in, c, TRACE_OPT_KALLSYMS, "kallsyms", parse_kallsyms);
	in->kallsyms_section = off;
	return 0;
}

/*
 * The kallsyms text, decompressed now if it waited.  It only names
 * addresses: a damaged one is a warning, and the functions are shown as
 * addresses (one flipped bit refused the whole file).
 */
void reader_kallsyms_text(struct trace_input *in)
{
	struct cursor file, body;

	if (!in->kallsyms_section)
		return;
	cur_init(&file, in->map, in->fsize, 0, in->big_endian, in->file);
	file.kept = "functions are shown as addresses";
	if (open_section(in, &file, in->kallsyms_section, TRACE_OPT_KALLSYMS, "kallsyms",
			 &body, NULL) < 0 || parse_kallsyms(in, &body) < 0) {
		in->kallsyms_at = NULL;
		in->kallsyms_len = 0;
		in->kallsyms_damaged = 1;
	}
	in->kallsyms_section = 0;
}

/* The name of @b's CPU @cpu data in messages: "CPU 1 data", "buffer 'x' CPU 1 data". */
static const char *cpu_data_name(const struct buffer *b, int cpu, char *buf, size_t size)
{
	if (b->name[0])
		snprintf(buf, size, "buffer '%s' CPU %d data", b->name, cpu);
	else
		snprintf(buf, size, "CPU %d data", cpu);
	return buf;
}

/* v7: each CPU's data lies in its buffer's section (@body), not in another's. */
static int check_in_section(const struct buffer *b, const struct cursor *body)
{
	for (int i = 0; i < b->cpus; i++) {
		const struct cpu_data *d = &b->cpu[i];
		char what[128];

		if (!d->size || (d->offset >= body->base && d->offset - body->base <= body->size &&
				 d->size <= body->size - (d->offset - body->base)))
			continue;
		return cur_bad(body, d->offset, "%s (%llu bytes) lies outside its section (offset %llu, %zu bytes)",
			       cpu_data_name(b, i, what, sizeof(what)), (unsigned long long)d->size,
			       (unsigned long long)body->base - 16, body->size);
	}
	return 0;
}

/* A CPU with data past the CPUCOUNT option's count: a damaged id shows one CPU's events as another's. */
static void check_cpu_ids(struct trace_input *in)
{
	for (int b = 0; b < in->nr_buffers && in->cpucount_seen; b++) {
		const struct buffer *buf = &in->buffers[b];

		for (int i = in->cpus; i < buf->cpus; i++) {
			if (!buf->cpu[i].size)
				continue;
			warning("'%s': %s%s%sCPU %d has data, but the file's CPU count is %d: shown as CPU %d",
				in->file, buf->name[0] ? "buffer '" : "", buf->name,
				buf->name[0] ? "' " : "", i, in->cpus, i);
			return;
		}
	}
}

/* A damaged link (a DONE option of size 0) lost every CPU's data in silence. */
static int read_unlinked_options(struct trace_input *in, struct cursor *c)
{
	for (int i = 0; i < in->nr_opt_sects; i++) {
		if (in->opt_read[i])
			continue;
		warning("'%s': the options section at offset %llu is linked from no other: read all the same",
			in->file, (unsigned long long)in->opt_sects[i]);
		if (parse_options_v7(in, c, in->opt_sects[i]) < 0)
			return -1;
	}
	return 0;
}

static int parse_v7_metadata(struct trace_input *in, struct cursor *c)
{
	return parse_v7_section(in, c, TRACE_OPT_HEADER_INFO, "headers", parse_header_info) < 0 ||
	       parse_v7_section(in, c, TRACE_OPT_FTRACE_EVENTS, "ftrace events",
				parse_ftrace_events) < 0 ||
	       parse_v7_section(in, c, TRACE_OPT_EVENT_FORMATS, "events format",
				parse_event_formats) < 0 ||
	       note_kallsyms_v7(in, c) < 0 ||
	       parse_v7_section(in, c, TRACE_OPT_PRINTK, "printk", parse_printk) < 0 ||
	       parse_v7_section(in, c, TRACE_OPT_CMDLINES, "command lines", parse_cmdlines) < 0 ?
	       -1 : 0;
}

/* The top instance comes first, whatever order its option was in; made if missing. */
static int top_buffer_first(struct trace_input *in, struct cursor *c)
{
	for (int i = 0; i < in->nr_buffers; i++) {
		if (!in->buffers[i].name[0] && i) {
			struct buffer t = in->buffers[i];

			memmove(in->buffers + 1, in->buffers, sizeof(t) * i);
			in->buffers[0] = t;
			break;
		}
	}
	if (!in->nr_buffers || in->buffers[0].name[0]) {
		struct buffer t;

		if (!add_buffer(in, c, ""))
			return -1;
		t = in->buffers[in->nr_buffers - 1];
		memmove(in->buffers + 1, in->buffers, sizeof(t) * (in->nr_buffers - 1));
		in->buffers[0] = t;
		in->buffers[0].cpu = xcalloc(1, sizeof(struct cpu_data));
	}
	return 0;
}

/* Each buffer's BUFFER section: where its data ends, chunked or not, its clock. */
static int open_buffer_sections(struct trace_input *in, struct cursor *c)
{
	for (int i = 0; i < in->nr_buffers; i++) {
		struct buffer *b = &in->buffers[i];
		struct cursor body;
		uint16_t flags = 0;

		if (b->flyrecord &&
		    open_section(in, c, b->flyrecord, TRACE_OPT_BUFFER, "buffer", &body, &flags) < 0)
			return -1;
		b->chunked = (flags & 1) && in->comp != TRACE_COMP_NONE;
		if (b->flyrecord && check_in_section(b, &body) < 0)
			return -1;
		if (b->flyrecord)
			b->data_end = body.base + body.size;
		if (b->clock && b->clock[0] && !i) {
			free(in->shown_clock);
			in->shown_clock = in->clock;
			in->shown_apart = 1;
			in->clock = xstrdup(b->clock);
		}
	}
	return 0;
}

/* Without a CPUCOUNT option, the highest CPU any buffer names; every buffer that wide. */
static void settle_cpu_count(struct trace_input *in)
{
	for (int i = 0; i < in->nr_buffers && !in->cpucount_seen; i++)
		if (in->buffers[i].cpus > in->cpus)
			in->cpus = in->buffers[i].cpus;
	check_cpu_ids(in);
	for (int i = 0; i < in->nr_buffers; i++) {
		struct buffer *b = &in->buffers[i];

		if (b->cpus < in->cpus) {
			b->cpu = xrealloc(b->cpu, sizeof(*b->cpu) * in->cpus);
			memset(b->cpu + b->cpus, 0, sizeof(*b->cpu) * (in->cpus - b->cpus));
			b->cpus = in->cpus;
		}
	}
}

static int parse_v7(struct trace_input *in, struct cursor *c)
{
	const char *name, *version;
	uint64_t opts;

	if (cur_string(c, &name, "compression name") < 0 ||
	    cur_string(c, &version, "compression version") < 0 ||
	    cur_u64(c, &opts, "options offset") < 0)
		return -1;
	in->comp_name = xstrdup(name);
	in->comp_version = xstrdup(version);
	if (inflater_init(&in->inflater, name) == 0)
		in->comp = in->inflater.comp;
	else if (strcmp(name, "none"))
		return cur_bad(c, 18, "unknown compression '%s'", name);
	if (check_sections(in, c, cur_offset(c)) < 0 || parse_options_v7(in, c, opts) < 0 ||
	    read_unlinked_options(in, c) < 0 || parse_v7_metadata(in, c) < 0)
		return -1;
	if (!in->header_page)
		return cur_bad(c, opts, "no headers section");
	if (in->sections[TRACE_OPT_BUFFER_TEXT]) {
		in->latency = 1;
		in->latency_off = in->sections[TRACE_OPT_BUFFER_TEXT];
	}
	if (top_buffer_first(in, c) < 0 || open_buffer_sections(in, c) < 0)
		return -1;
	settle_cpu_count(in);
	return 0;
}

/* ---- common -------------------------------------------------------------- */

static int parse_prefix(struct trace_input *in, struct cursor *c)
{
	static const unsigned char magic[3] = { 0x17, 0x08, 0x44 };
	const void *p;
	const char *version;
	uint8_t endian, lsize;
	uint32_t page_size;
	char *end;
	long v;

	if (cur_bytes(c, 3, &p, "magic") < 0)
		return -1;
	if (memcmp(p, magic, 3))
		return error("'%s': not a trace.dat file (bad magic at offset 0)", in->file);
	if (cur_bytes(c, 7, &p, "'tracing' tag") < 0)
		return -1;
	if (memcmp(p, "tracing", 7))
		return error("'%s': not a trace.dat file (no 'tracing' at offset 3)", in->file);
	if (cur_string(c, &version, "file version") < 0)
		return -1;
	v = strtol(version, &end, 10);
	if (!*version || *end || v < 1 || v > 7)
		return cur_bad(c, 10, "file version '%.8s' is not supported (1 to 7)", version);
	in->version = v;
	/* Upstream's info-level log line, printed before the plugins load, as there. */
	if (in->flags & TRACE_INPUT_LOG_VERSION)
		printf("version = %ld\n", v);
	if (cur_u8(c, &endian, "endianness") < 0 || cur_u8(c, &lsize, "long size") < 0)
		return -1;
	if (endian > 1)
		return cur_bad(c, cur_offset(c) - 2, "endianness byte is %u, not 0 or 1", endian);
	if (lsize != 4 && lsize != 8)
		return cur_bad(c, cur_offset(c) - 1, "long size is %u, not 4 or 8", lsize);
	in->big_endian = endian;
	c->big_endian = endian;
	in->long_size = lsize;
	if (cur_u32(c, &page_size, "page size") < 0)
		return -1;
	if (page_size < TRACE_MIN_PAGE_SIZE || page_size > MAX_PAGE_SIZE || (page_size & (page_size - 1)))
		return cur_bad(c, cur_offset(c) - 4, "page size %u is not a power of two",
			       page_size);
	in->page_size = page_size;
	in->kernel_long_size = lsize;	/* until header_page says otherwise */
	return 0;
}

/* Every CPU's data must lie inside the file. */
static int check_cpu_data(struct trace_input *in)
{
	for (int b = 0; b < in->nr_buffers; b++) {
		struct buffer *buf = &in->buffers[b];

		for (int i = 0; i < buf->cpus; i++) {
			struct cpu_data *d = &buf->cpu[i];
			struct cursor end;
			char what[128];

			if (d->offset <= in->fsize && d->size <= in->fsize - d->offset)
				continue;
			if (buf->name[0])
				snprintf(what, sizeof(what), "buffer '%s' CPU %d data", buf->name, i);
			else
				snprintf(what, sizeof(what), "CPU %d data", i);
			cur_init(&end, in->map, in->fsize, 0, in->big_endian, in->file);
			end.pos = in->fsize;
			if (d->offset >= in->fsize)
				return cur_need(&end, d->size > buf->page_size ? d->size :
						buf->page_size, what);
			end.pos = d->offset;
			return cur_need(&end, d->size, what);
		}
	}
	return 0;
}

/* ---- the page size the data is written in ------------------------------ */

#define MIN_DATA_PAGE	4096	/* no kernel has smaller pages */
#define PAGE_PROBES	16	/* page headers looked at per CPU and size */

/* The timestamp and data size of the page header at file offset @off; -1 if unreadable. */
static int page_head_at(struct trace_input *in, uint64_t off, uint64_t *ts, uint64_t *size)
{
	unsigned char h[16];
	size_t hdr = 8 + in->kernel_long_size;
	struct cursor c;

	if (pread_all(in->fd, h, hdr, off) != (ssize_t)hdr)
		return -1;
	cur_init(&c, h, hdr, off, in->big_endian, in->file);
	*ts = cur_decode(&c, h, 8);
	*size = cur_decode(&c, h + 8, in->kernel_long_size) & PAGE_COMMIT_MASK;
	return 0;
}

/*
 * Whether @d reads as whole pages of @q bytes whose first PAGE_PROBES
 * headers fit and never go back in time.  Returns 0 if not, 1 if so, and 2
 * if so with a page of data where pages of @declared bytes have none.
 */
static int pages_fit(struct trace_input *in, const struct cpu_data *d, uint64_t q,
		     uint64_t declared)
{
	uint64_t hdr = 8 + in->kernel_long_size, last = 0;
	int between = 0;

	if (d->size % q)
		return 0;
	for (uint64_t off = 0, n = 0; off < d->size && n < PAGE_PROBES; off += q, n++) {
		uint64_t ts, size;

		if (page_head_at(in, d->offset + off, &ts, &size) < 0 || size > q - hdr ||
		    (size && ts < last))
			return 0;
		if (size) {
			last = ts;
			between |= off % declared != 0;
		}
	}
	return 1 + between;
}

/*
 * The page size one CPU's data is plainly written in: @declared when that
 * fits, else the one size that does, else 0 (damage that the walk reports).
 * A file that says 64 KB pages over 4 KB ones would otherwise read one page
 * in 16, and say nothing.
 */
static uint64_t cpu_page_size(struct trace_input *in, const struct cpu_data *d, uint64_t declared)
{
	uint64_t hdr = 8 + in->kernel_long_size, ts, first;

	if (page_head_at(in, d->offset, &ts, &first) < 0)
		return 0;
	if (first > declared - hdr) {
		/* Bigger pages: the first that holds the first page's data and fits. */
		for (uint64_t q = declared * 2; q <= MAX_PAGE_SIZE; q *= 2)
			if (first <= q - hdr && pages_fit(in, d, q, q))
				return q;
		return 0;
	}
	/* Smaller pages, the smallest first, if pages start between the declared ones. */
	for (uint64_t q = MIN_DATA_PAGE; q < declared; q *= 2)
		if (first <= q - hdr && pages_fit(in, d, q, declared) == 2)
			return q;
	return pages_fit(in, d, declared, declared) ? declared : 0;
}

/*
 * Reads @b in the page size its data is written in when some CPU's data
 * plainly is in pages of another size and every CPU's fits it, with a
 * warning.  Compressed buffers are left to the walk.
 */
static void check_page_size(struct trace_input *in, struct buffer *b, int top)
{
	uint64_t size = 0;

	if (b->chunked)
		return;
	for (int i = 0; i < b->cpus; i++) {
		uint64_t q = b->cpu[i].size ? cpu_page_size(in, &b->cpu[i], b->page_size) : 0;

		if (q && q != b->page_size) {
			if (size && q != size)
				return;
			size = q;
		}
	}
	for (int i = 0; size && i < b->cpus; i++)
		if (b->cpu[i].size && !pages_fit(in, &b->cpu[i], size, size))
			return;
	if (!size)
		return;
	warning("'%s': %s%s%sCPU data is in %llu-byte pages, not the %u bytes the file says: read as %llu-byte pages",
		in->file, b->name[0] ? "buffer '" : "", b->name, b->name[0] ? "' " : "",
		(unsigned long long)size, b->page_size, (unsigned long long)size);
	b->page_size = size;
	if (top) {
		in->page_size = size;
		if (in->tep)
			tep_set_page_size(in->tep, size);
	}
}

/* The offset of the last v7 section read. */
static uint64_t last_section_read(const struct trace_input *in)
{
	uint64_t last = 0;

	for (size_t i = 0; i < ARRAY_SIZE(in->sections); i++)
		if (in->sections[i] > last)
			last = in->sections[i];
	for (int i = 0; i < in->nr_buffers; i++)
		if (in->buffers[i].flyrecord > last)
			last = in->buffers[i].flyrecord;
	for (int i = 0; i < in->nr_opt_sects; i++)
		if (in->opt_read[i] && in->opt_sects[i] > last)
			last = in->opt_sects[i];
	return last;
}

/*
 * v7: what is not a whole section at the end.  After the last section read
 * it is bytes appended (upstream reads such a file): a warning.  Before
 * one, it is a section whose size is damaged.
 */
static int check_tail(struct trace_input *in)
{
	struct cursor c;

	if (last_section_read(in) < in->tail_at) {
		warning("'%s': %llu bytes at offset %llu are not a whole section: ignored", in->file,
			(unsigned long long)(in->fsize - in->tail_at),
			(unsigned long long)in->tail_at);
		return 0;
	}
	cur_init(&c, NULL, 0, 0, 0, in->file);
	return cur_bad(&c, in->tail_at, "the section's size runs past the end of the file");
}

struct data_range {
	uint64_t	offset, size;
	int		buffer, cpu;
};

static int range_cmp(const void *a, const void *b)
{
	const struct data_range *x = a, *y = b;

	if (x->offset != y->offset)
		return x->offset < y->offset ? -1 : 1;
	return x->size < y->size ? -1 : x->size > y->size;
}

/*
 * Every CPU's data range, empty ones too, sorted by offset; their count in
 * *@n.  With @ends, each buffer's end of data too (CPU -1): its section's
 * end in v7, the file's in v6.
 */
static struct data_range *data_ranges(struct trace_input *in, int *n, int ends)
{
	struct data_range *r;
	int total = in->nr_buffers;

	for (int b = 0; b < in->nr_buffers; b++)
		total += in->buffers[b].cpus;
	r = xcalloc(total ? total : 1, sizeof(*r));
	*n = 0;
	for (int b = 0; b < in->nr_buffers; b++) {
		for (int i = 0; i < in->buffers[b].cpus; i++)
			r[(*n)++] = (struct data_range){ in->buffers[b].cpu[i].offset,
							 in->buffers[b].cpu[i].size, b, i };
		if (ends)
			r[(*n)++] = (struct data_range){ in->buffers[b].data_end ?
							 in->buffers[b].data_end : in->fsize,
							 1, b, -1 };
	}
	qsort(r, *n, sizeof(*r), range_cmp);
	return r;
}

/*
 * Whether the @page_size bytes at @off look like a ring-buffer page: a
 * timestamp and a data size that fits.  Alignment padding and section
 * headers have a zero timestamp or size, or lie off page boundaries.
 */
static int looks_like_page(struct trace_input *in, uint64_t off, uint64_t page_size)
{
	uint64_t ts, size;

	return off % page_size == 0 && page_head_at(in, off, &ts, &size) == 0 && ts && size &&
	       size <= page_size - 8 - in->kernel_long_size;
}

/* Whether a buffer's flyrecord (v6) or section (v7) starts in [@from, @to). */
static int buffer_header_in(const struct trace_input *in, uint64_t from, uint64_t to)
{
	for (int b = 0; b < in->nr_buffers; b++)
		if (in->buffers[b].flyrecord >= from && in->buffers[b].flyrecord < to)
			return 1;
	return 0;
}

/*
 * v7 compressed: a CPU that says it has no data, though a chunk count and
 * a chunk that fits stand at its offset, inside its section and no other
 * CPU's data (a damaged size dropped every event of that CPU in silence).
 */
static void check_empty_chunked(struct trace_input *in, const struct buffer *b,
				const struct data_range *r, int n)
{
	for (int i = 0; i < b->cpus; i++) {
		const struct cpu_data *d = &b->cpu[i];
		unsigned char h[12];
		struct cursor c;
		uint32_t count, cs, us;
		int claimed = 0;

		if (d->size || d->offset + sizeof(h) > b->data_end ||
		    pread_all(in->fd, h, sizeof(h), d->offset) != sizeof(h))
			continue;
		for (int j = 0; j < n; j++)
			claimed |= r[j].cpu >= 0 && r[j].size && d->offset >= r[j].offset &&
				   d->offset - r[j].offset < r[j].size;
		cur_init(&c, h, sizeof(h), d->offset, in->big_endian, in->file);
		cur_u32(&c, &count, "chunk count");
		cur_u32(&c, &cs, "chunk size");
		cur_u32(&c, &us, "chunk size");
		if (claimed || !count || !cs || !us || us > MAX_CHUNK_SIZE ||
		    cs > b->data_end - d->offset - sizeof(h))
			continue;
		warning("'%s': %s%s%sCPU %d says it has no data, but %u chunks stand at its offset %llu: ignored",
			in->file, b->name[0] ? "buffer '" : "", b->name, b->name[0] ? "' " : "", i,
			count, (unsigned long long)d->offset);
	}
}

/*
 * A whole page between CPU data ranges that no CPU claims: a CPU's data
 * size or offset was damaged, and the walk would skip its events in
 * silence.  Warned of; compressed buffers end in their chunk walk instead.
 */
static void check_unclaimed(struct trace_input *in)
{
	int n;
	struct data_range *r = data_ranges(in, &n, 1);

	for (int i = 0; i + 1 < n; i++) {
		struct buffer *b = &in->buffers[r[i].buffer];
		uint64_t ps = b->page_size, end = r[i].offset + r[i].size;
		uint64_t page = (end + ps - 1) / ps * ps;

		if (r[i].cpu < 0 || b->chunked || in->buffers[r[i + 1].buffer].chunked || !r[i + 1].size ||
		    r[i + 1].offset < page + ps || buffer_header_in(in, end, r[i + 1].offset) ||
		    !looks_like_page(in, page, ps))
			continue;
		warning("'%s': %llu bytes of pages at offset %llu are in no CPU's data: ignored",
			in->file, (unsigned long long)(r[i + 1].offset - page),
			(unsigned long long)page);
		break;
	}
	for (int b = 0; b < in->nr_buffers; b++)
		if (in->buffers[b].chunked)
			check_empty_chunked(in, &in->buffers[b], r, n);
	free(r);
}

/* No two CPUs' data overlap: one CPU's pages would be shown as another's. */
static int check_overlaps(struct trace_input *in)
{
	int n, ret = 0;
	struct data_range *r = data_ranges(in, &n, 0);

	for (int i = 1, prev = -1; i < n && !ret; i++) {
		char a[128], b[128];
		struct cursor c;

		prev = r[i - 1].size ? i - 1 : prev;
		if (!r[i].size || prev < 0 || r[i].offset - r[prev].offset >= r[prev].size)
			continue;
		cur_init(&c, NULL, 0, 0, 0, in->file);
		ret = cur_bad(&c, r[i].offset, "%s overlaps %s (offset %llu, %llu bytes)",
			      cpu_data_name(&in->buffers[r[i].buffer], r[i].cpu, a, sizeof(a)),
			      cpu_data_name(&in->buffers[r[prev].buffer], r[prev].cpu, b, sizeof(b)),
			      (unsigned long long)r[prev].offset, (unsigned long long)r[prev].size);
	}
	free(r);
	return ret;
}

/* Clocks whose timestamps are nanoseconds, shown as seconds.microseconds. */
static int clock_in_usecs(const char *clock)
{
	static const char *const ns_clocks[] = {
		"local", "global", "uptime", "perf", "tai", "boot", "tsc2nsec",
	};

	if (!clock || !*clock || !strncmp(clock, "mono", 4))
		return 1;
	for (size_t i = 0; i < ARRAY_SIZE(ns_clocks); i++)
		if (!strcmp(clock, ns_clocks[i]))
			return 1;
	return 0;
}

struct trace_input *reader_open_file(const char *file, int flags)
{
	struct trace_input *in = xcalloc(1, sizeof(*in));
	const char *shown;
	struct cursor c;
	struct stat st;
	int ret;

	in->file = xstrdup(file);
	in->flags = flags;
	in->conv.raw = !!(flags & TRACE_INPUT_RAW_TS);
	in->fd = open_regular(file);
	if (in->fd < 0)
		goto fail;
	if (fstat(in->fd, &st) < 0) {
		error("cannot stat '%s': %s", file, strerror(errno));
		goto fail;
	}
	in->fsize = st.st_size;
	if (in->fsize) {
		void *m = mmap(NULL, in->fsize, PROT_READ, MAP_PRIVATE, in->fd, 0);

		if (m == MAP_FAILED) {
			error("cannot map '%s': %s", file, strerror(errno));
			goto fail;
		}
		in->map = m;
	}
	cur_init(&c, in->map, in->fsize, 0, 0, in->file);
	if (parse_prefix(in, &c) < 0)
		goto fail;
	ret = in->version >= 7 ? parse_v7(in, &c) : parse_v6(in, &c);
	if (ret < 0 || check_cpu_data(in) < 0 || check_overlaps(in) < 0)
		goto fail;
	if (in->tail_at && check_tail(in) < 0)
		goto fail;
	if (!in->comp_name) {
		in->comp_name = xstrdup("none");
		in->comp_version = xstrdup("");
	}
	/* Like upstream, a file that names no clock is shown in seconds even with --raw-ts. */
	shown = in->shown_apart ? in->shown_clock : in->clock;
	in->in_usecs = !shown || (!(flags & TRACE_INPUT_RAW_TS) && clock_in_usecs(shown)) ||
		       clock_conv_in_ns(&in->conv);
	return in;
fail:
	reader_free(in);
	return NULL;
}

void reader_check_layout(struct trace_input *in)
{
	for (int b = 0; b < in->nr_buffers; b++)
		check_page_size(in, &in->buffers[b], !b);
	check_unclaimed(in);
}

void reader_free(struct trace_input *in)
{
	if (in->plugins)
		tep_unload_plugins(in->plugins, in->tep);
	if (in->tep)
		tep_free(in->tep);
	kallsyms_free(in->ksyms);
	for (int i = 0; i < in->nr_buffers; i++) {
		free(in->buffers[i].name);
		free(in->buffers[i].clock);
		free(in->buffers[i].cpu);
	}
	for (int i = 0; i < in->nr_owned; i++)
		free(in->owned[i]);
	free(in->owned);
	free(in->opts);
	free(in->opt_sects);
	free(in->opt_read);
	free(in->formats);
	free(in->format_id);
	free(in->flex_by_id);
	free(in->format_done);
	free(in->id_done);
	free(in->kallsyms);
	free(in->printk);
	free(in->cmdlines);
	clock_conv_free(&in->conv);
	free(in->clock);
	free(in->shown_clock);
	free(in->comp_name);
	free(in->comp_version);
	inflater_release(&in->inflater);
	free(in->skip_cpu);
	if (in->map)
		munmap((void *)in->map, in->fsize);
	if (in->fd >= 0)
		close(in->fd);
	free(in->file);
	free(in);
}

/* ---- accessors ----------------------------------------------------------- */

const char *trace_input_file(const struct trace_input *in) { return in->file; }
int trace_input_version(const struct trace_input *in) { return in->version; }
int trace_input_big_endian(const struct trace_input *in) { return in->big_endian; }
int trace_input_long_size(const struct trace_input *in) { return in->long_size; }
int trace_input_kernel_long_size(const struct trace_input *in) { return in->kernel_long_size; }
unsigned int trace_input_page_size(const struct trace_input *in) { return in->page_size; }
const char *trace_input_compression(const struct trace_input *in) { return in->comp_name; }
int trace_input_cpus(const struct trace_input *in) { return in->cpus; }
int trace_input_is_latency(const struct trace_input *in) { return in->latency; }
struct tep_handle *trace_input_tep(const struct trace_input *in) { return in->tep; }
int trace_input_in_usecs(const struct trace_input *in) { return in->in_usecs; }
int trace_input_clock_known(const struct trace_input *in) { return in->clock != NULL; }
int trace_input_nr_buffers(const struct trace_input *in) { return in->nr_buffers; }
int trace_input_nr_formats(const struct trace_input *in) { return in->nr_formats; }
int trace_input_kallsyms_damaged(const struct trace_input *in) { return in->kallsyms_damaged; }
const char *trace_input_kallsyms(const struct trace_input *in)
{
	struct trace_input *mut = (struct trace_input *)in;	/* a cache, made once */

	reader_kallsyms_text(mut);
	if (!in->kallsyms && in->kallsyms_at)
		mut->kallsyms = reader_strndup(in->kallsyms_at, in->kallsyms_len);
	return in->kallsyms;
}
const char *trace_input_printk(const struct trace_input *in) { return in->printk; }
const char *trace_input_cmdlines(const struct trace_input *in) { return in->cmdlines; }

const char *trace_input_compression_version(const struct trace_input *in)
{
	return in->comp_version;
}

const char *trace_input_clock(const struct trace_input *in)
{
	return in->clock ? in->clock : "local";
}

const char *trace_input_buffer_name(const struct trace_input *in, int buffer)
{
	return in->buffers[buffer].name;
}

int trace_input_buffer_cpus(const struct trace_input *in, int buffer)
{
	return in->buffers[buffer].cpus;
}

uint64_t trace_input_cpu_size(const struct trace_input *in, int buffer, int cpu)
{
	const struct buffer *b = &in->buffers[buffer];

	return b->cpu && cpu < b->cpus ? b->cpu[cpu].size : 0;
}

uint64_t trace_input_cpu_offset(const struct trace_input *in, int buffer, int cpu)
{
	const struct buffer *b = &in->buffers[buffer];

	return b->cpu && cpu < b->cpus ? b->cpu[cpu].offset : 0;
}

const char *trace_input_format(const struct trace_input *in, int i, const char **system,
			       size_t *len)
{
	*system = in->formats[i].system;
	*len = in->formats[i].len;
	return in->formats[i].text;
}

const char *trace_input_header_page(const struct trace_input *in, size_t *len)
{
	*len = in->header_page_len;
	return in->header_page;
}

const char *trace_input_header_event(const struct trace_input *in, size_t *len)
{
	*len = in->header_event_len;
	return in->header_event;
}

uint64_t trace_input_options_link(const struct trace_input *in) { return in->options_link; }
uint64_t trace_input_strings_size(const struct trace_input *in) { return in->strings_size; }

const void *trace_input_option(const struct trace_input *in, int id, int nth, size_t *len)
{
	for (int i = 0; i < in->nr_opts; i++) {
		if (in->opts[i].id != id || nth--)
			continue;
		*len = in->opts[i].size;
		return in->opts[i].data;
	}
	return NULL;
}

void trace_input_add_ts_offset(struct trace_input *in, int64_t offset)
{
	in->conv.ts_offset += offset;
}

void trace_input_set_ts2secs(struct trace_input *in, uint64_t hz)
{
	in->conv.ts2secs_hz = hz;
	in->in_usecs |= !in->conv.raw;	/* --raw-ts: nothing converted */
}

void trace_input_skip_cpu(struct trace_input *in, int cpu)
{
	if (!in->skip_cpu)
		in->skip_cpu = xcalloc(MAX_CPUS, 1);
	if (cpu >= 0 && cpu < MAX_CPUS)
		in->skip_cpu[cpu] = 1;
}

void trace_input_cpu_order(struct trace_input *in)
{
	in->cpu_order = 1;
}

char *trace_input_latency_text(struct trace_input *in, size_t *len)
{
	struct cursor file, body;
	uint16_t flags = 0;

	cur_init(&file, in->map, in->fsize, 0, in->big_endian, in->file);
	if (in->version < 7) {
		*len = in->fsize - in->latency_off;
		return reader_strndup(in->map + in->latency_off, *len);
	}
	if (open_section(in, &file, in->latency_off, TRACE_OPT_BUFFER_TEXT, "latency", &body,
			 &flags) < 0)
		return NULL;
	if (!(flags & 1) || in->comp == TRACE_COMP_NONE) {
		*len = body.size;
		return reader_strndup(body.data, body.size);
	}
	{
		uint32_t count;
		char *text = NULL;
		size_t n = 0;

		if (cur_u32(&body, &count, "latency chunk count") < 0)
			return NULL;
		for (uint32_t i = 0; i < count; i++) {
			uint32_t cs, us;
			const void *p;
			uint64_t off = cur_offset(&body);

			if (cur_u32(&body, &cs, "chunk compressed size") < 0 ||
			    cur_u32(&body, &us, "chunk uncompressed size") < 0 ||
			    cur_bytes(&body, cs, &p, "latency chunk") < 0)
				goto bad;
			if (us > MAX_CHUNK_SIZE) {
				cur_bad(&body, off, "latency chunk of %u bytes is too large", us);
				goto bad;
			}
			text = xrealloc(text, n + us + 1);
			if (reader_decompress(in, NULL, p, cs, text + n, us, off, "latency chunk") < 0)
				goto bad;
			n += us;
		}
		text = xrealloc(text, n + 1);
		text[n] = 0;
		*len = n;
		return text;
bad:
		free(text);
		return NULL;
	}
}

unsigned int trace_input_buffer_page_size(const struct trace_input *in, int buffer)
{
	return in->buffers[buffer].page_size;
}

int trace_input_buffer_compressed(const struct trace_input *in, int buffer)
{
	return in->buffers[buffer].chunked;
}
