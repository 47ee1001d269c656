// SPDX-License-Identifier: GPL-2.0
/*
 * Reads trace.dat v6 and v7 (trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5) in
 * Documentation/).  The metadata is parsed through bounded cursors
 * over a read-only mapping; per-CPU data is read in windows with pread (or
 * decompressed chunk by chunk), so memory does not grow with the file.
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
#include "trace-cursor.h"
#include "trace-debug.h"
#include "trace-input.h"
#include "trace-ahead.h"
#include "trace-compress.h"
#include "trace-kallsyms.h"
#include "trace-outfile.h"
#include "trace-page.h"
#include "trace-stdout.h"

#define MAX_CPUS		4096
#define MAX_PAGE_SIZE		(1U << 24)
#define MAX_BUFFERS		256
#define MAX_OPTION_SECTIONS	1024
#define MAX_SECTION_SIZE	(1ULL << 30)	/* decompressed metadata */
#define MAX_CHUNK_SIZE		(1U << 26)	/* decompressed CPU data chunk */
#define LAZY_IDS		65536		/* event ids with a done flag */
#define WINDOW_PAGES		64		/* pages read at once per CPU */
#define WINDOW_SLACK		(1U << 17)	/* zeros after a window, see fill_window() */
#define AHEAD_DEPTH		8		/* chunks queued per stream */
#define BUFFER_ENTRY		20		/* v7 BUFFER option: u32 CPU, u64 offset, u64 size */
#define SECTION_HEADER		16		/* v7: u16 id, u16 flags, u32 description, u64 size */


struct option_rec {
	uint16_t		id;
	uint32_t		size;
	const unsigned char	*data;
};

struct cpu_data {
	uint64_t		offset;
	uint64_t		size;
};

struct buffer {
	char			*name;
	char			*clock;
	int			cpus;
	unsigned int		page_size;
	int			chunked;	/* v7 compressed data */
	uint64_t		flyrecord;	/* v6: offset of its flyrecord block */
	uint64_t		data_end;	/* v7: end of its section */
	struct cpu_data		*cpu;
};

struct format {
	const char		*system;
	const char		*text;
	size_t			len;
};

struct stream {
	struct trace_input	*in;
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
	/* Its next chunks, decompressed by the worker: a ring from ahead_head. */
	struct ahead_job	ahead[AHEAD_DEPTH];
	unsigned int		ahead_head, ahead_nr;
	uint64_t		ahead_next;	/* file offset after the last one queued */
	uint32_t		ahead_chunks;	/* chunks left after the last one queued */
	size_t			ahead_bytes;	/* their decompressed size */
};

struct trace_input {
	char			*file;
	int			fd;
	uint64_t		fsize;
	const unsigned char	*map;
	int			flags;
	int			version;
	int			big_endian;
	int			long_size;
	int			kernel_long_size;
	unsigned int		page_size;
	int			comp;		/* TRACE_COMP_* */
	struct inflater		inflater;	/* the reading thread's */
	char			*comp_name;
	char			*comp_version;
	int			cpus;
	int			cpucount_seen;
	int			latency;
	uint64_t		latency_off;	/* v6: text start; v7: section header */
	struct tep_handle	*tep;
	struct tep_plugin_list	*plugins;
	/*
	 * TRACE_INPUT_LAZY: formats are parsed when a record of theirs is
	 * first met (format_id: each format's "ID:", -1 when it has none;
	 * id_done: ids already looked for), kallsyms when first needed.
	 */
	int			*format_id;
	unsigned char		*id_done;
	unsigned char		*format_done;
	int			funcs_loaded;
	int			all_parsed;	/* trace_input_parse_all(): functions registered */
	struct kallsyms		*ksyms;		/* lazily: see trace_input_load_functions() */
	struct ahead		*ahead;		/* started with the first chunked stream */
	uint64_t		*flex_by_id;	/* 1 + each id's, see id_flex_offset() */
	const unsigned char	*want_ids;	/* trace_input_only_ids() */
	int			common_known;	/* 1: the fields below are set, -1: unusable */
	int			type_offset, type_size;
	int			pid_offset, pid_size;
	struct cursor		type_cursor;	/* decodes common fields in the file's order */

	struct buffer		buffers[MAX_BUFFERS];
	int			nr_buffers;
	struct option_rec	*opts;
	int			nr_opts;
	struct format		*formats;
	int			nr_formats;
	const char		*header_page, *header_event;
	size_t			header_page_len, header_event_len;
	/* kallsyms stays in the map or its section until asked for as text. */
	const char		*kallsyms_at;
	size_t			kallsyms_len;
	uint64_t		kallsyms_section;	/* v7, compressed: not yet decompressed */
	int			kallsyms_damaged;	/* it did not decompress (warned) */
	const char		*extra_kallsyms;	/* report --kallsyms, read after the file's */
	size_t			extra_kallsyms_len;
	char			*kallsyms, *printk, *cmdlines;
	int			traceclock_seen;
	char			*clock;
	int			in_usecs;

	void			**owned;	/* decompressed sections, freed at close */
	int			nr_owned;
	uint64_t		sections[32];	/* v7: section offsets by option id */
	uint64_t		*opt_sects;	/* v7: every options section, in file order */
	unsigned char		*opt_read;	/* whether it was read */
	int			nr_opt_sects;
	uint64_t		tail_at;	/* v7: not a whole section from here to the end */

	int64_t			ts_offset;	/* DATE, OFFSET, --ts-offset */
	uint64_t		ts2secs_hz;
	int			tsc2nsec;
	uint32_t		tsc_mult, tsc_shift;
	uint64_t		tsc_offset;

	unsigned char		*skip_cpu;
	struct stream		*streams;
	int			nr_streams;
	struct stream		**heap;
	int			heap_len;
	int			started;
	int			failed;
};

static void own(struct trace_input *in, void *p)
{
	in->owned = xrealloc(in->owned, sizeof(*in->owned) * (in->nr_owned + 1));
	in->owned[in->nr_owned++] = p;
}

static char *strndup_x(const void *p, size_t n)
{
	char *s = xmalloc(n + 1);

	memcpy(s, p, n);
	s[n] = 0;
	return s;
}

/* ---- decompression ------------------------------------------------------ */

/* Messages name @at's file, and are warnings if it says what is kept. */
static int decompress(struct trace_input *in, const struct cursor *at, const void *src,
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
	*out = strndup_x(p, size);
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
	in->cmdlines = strndup_x(p, size);
	return 0;
}

/* ---- options -------------------------------------------------------------- */

static void set_clock(struct trace_input *in, const char *text, size_t len)
{
	const char *open = memchr(text, '[', len);
	const char *close = open ? memchr(open, ']', len - (open - text)) : NULL;

	free(in->clock);
	if (open && close)
		in->clock = strndup_x(open + 1, close - open - 1);
	else {
		while (len && (text[len - 1] == '\n' || text[len - 1] == 0 || text[len - 1] == ' '))
			len--;
		in->clock = strndup_x(text, len);
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
			in->ts_offset += v * 1000;
		break;
	case TRACE_OPT_OFFSET:
		if (!(in->flags & TRACE_INPUT_RAW_TS) &&
		    parse_u64_text(data, size - (size && !data[size - 1]), 0, &v) == 0)
			in->ts_offset += v;
		break;
	case TRACE_OPT_TSC2NSEC:
		if (cur_u32(&oc, &in->tsc_mult, "tsc2nsec multiplier") < 0 ||
		    cur_u32(&oc, &in->tsc_shift, "tsc2nsec shift") < 0 ||
		    cur_u64(&oc, &in->tsc_offset, "tsc2nsec offset") < 0)
			return -1;
		in->tsc2nsec = 1;
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
		own(in, buf);
		if (decompress(in, &c, p, csize, buf, usize, start, what) < 0)
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

		if (n >= MAX_OPTION_SECTIONS || options_read(in, off))
			return cur_bad(file, off, "options section read twice (a loop?)");
		if (open_section(in, file, off, 0, "options", &c, NULL) < 0)
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
 * compressed one is decompressed when first needed (kallsyms_text()), not
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
static void kallsyms_text(struct trace_input *in)
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
	if (check_sections(in, c, cur_offset(c)) < 0 || parse_options_v7(in, c, opts) < 0)
		return -1;
	/* A damaged link (a DONE option of size 0) lost every CPU's data in silence. */
	for (int i = 0; i < in->nr_opt_sects; i++) {
		if (in->opt_read[i])
			continue;
		warning("'%s': the options section at offset %llu is linked from no other: read all the same",
			in->file, (unsigned long long)in->opt_sects[i]);
		if (parse_options_v7(in, c, in->opt_sects[i]) < 0)
			return -1;
	}
	if (parse_v7_section(in, c, TRACE_OPT_HEADER_INFO, "headers", parse_header_info) < 0 ||
	    parse_v7_section(in, c, TRACE_OPT_FTRACE_EVENTS, "ftrace events",
			     parse_ftrace_events) < 0 ||
	    parse_v7_section(in, c, TRACE_OPT_EVENT_FORMATS, "events format",
			     parse_event_formats) < 0 ||
	    note_kallsyms_v7(in, c) < 0 ||
	    parse_v7_section(in, c, TRACE_OPT_PRINTK, "printk", parse_printk) < 0 ||
	    parse_v7_section(in, c, TRACE_OPT_CMDLINES, "command lines", parse_cmdlines) < 0)
		return -1;
	if (!in->header_page)
		return cur_bad(c, opts, "no headers section");
	if (in->sections[TRACE_OPT_BUFFER_TEXT]) {
		in->latency = 1;
		in->latency_off = in->sections[TRACE_OPT_BUFFER_TEXT];
	}
	/* The top instance comes first, whatever order its option was in. */
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
			free(in->clock);
			in->clock = xstrdup(b->clock);
		}
	}
	/* Without a CPUCOUNT option, the highest CPU any buffer names. */
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

/*
 * Whether every REC->NAME of a format's "print fmt" is one of its fields as
 * libtraceevent reads them (the format is parsed first with an empty print
 * fmt, into a scratch handle).  libtraceevent 1.7.1 dereferences NULL on
 * some expressions over a field it does not have (a damaged name or field
 * line), so such a format is not given to it.
 */
static int print_fields_defined(const char *text, size_t len, char *missing, size_t size)
{
	const char *end = text + len, *fmt = memmem(text, len, "print fmt:", 10);
	static const char empty[] = "print fmt: \"\"\n";
	struct tep_handle *scratch;
	struct tep_event *ev = NULL;
	char *head, name[64];
	int ok = 1;

	/* Its tokenizer also dereferences NULL on some bytes that are not text. */
	for (const char *p = text; p < (fmt ? fmt : end); p++) {
		unsigned char c = *p;

		if ((c < 0x20 && c != '\t' && c != '\n') || c >= 0x7f) {
			snprintf(missing, size, "has the byte 0x%02x in its fields", c);
			return 0;
		}
	}
	if (!fmt)
		return 1;
	head = xmalloc(fmt - text + sizeof(empty));
	memcpy(head, text, fmt - text);
	memcpy(head + (fmt - text), empty, sizeof(empty));
	scratch = tep_alloc();
	if (scratch)
		tep_parse_format(scratch, &ev, head, fmt - text + sizeof(empty) - 1, "scratch");
	for (const char *p = fmt; ev && ok && (p = memmem(p, end - p, "REC->", 5)); ) {
		size_t l = 0;

		p += 5;
		while (p + l < end && (isalnum((unsigned char)p[l]) || p[l] == '_'))
			l++;
		snprintf(name, sizeof(name), "%.*s", (int)(l < sizeof(name) - 1 ? l : sizeof(name) - 1), p);
		if (!tep_find_any_field(ev, name)) {
			snprintf(missing, size, "prints field '%s' it does not define", name);
			ok = 0;
		}
	}
	if (scratch)
		tep_free(scratch);
	free(head);
	return ok;
}

static int parse_fatal(enum tep_errno err)
{
	return err == TEP_ERRNO__MEM_ALLOC_FAILED || err == TEP_ERRNO__PARSE_EVENT_FAILED ||
	       err == TEP_ERRNO__READ_ID_FAILED || err == TEP_ERRNO__READ_FORMAT_FAILED;
}

/*
 * The printk format lines libtraceevent can take: "ADDR : FMT" with at least
 * three characters of FMT after its opening quote.  It reads before the
 * string it copies for a shorter one and past the text for a line with no
 * colon, so a damaged section loses those lines, with a warning.
 */
static char *usable_printk(struct trace_input *in, int quiet)
{
	/* + 2: a last line without its newline gets one. */
	char *out = xmalloc(strlen(in->printk) + 2), *o = out;
	int dropped = 0;

	for (const char *line = in->printk; *line;) {
		size_t len = strcspn(line, "\n");
		const char *colon = memchr(line, ':', len);
		const char *fmt = colon && colon + 1 < line + len ? colon + 2 : NULL;

		if (fmt && fmt < line + len && *fmt == '"')
			fmt++;
		if (fmt && line + len - fmt >= 3) {
			memcpy(o, line, len);
			o += len;
			*o++ = '\n';
		} else if (len) {
			dropped++;
		}
		line += len + (line[len] == '\n');
	}
	*o = 0;
	if (dropped && !quiet)
		warning("'%s': ignoring %d malformed printk format line%s", in->file, dropped,
			dropped > 1 ? "s" : "");
	return out;
}

char *trace_input_usable_printk(struct trace_input *in)
{
	return in->printk && *in->printk ? usable_printk(in, 1) : NULL;
}

/*
 * The kallsyms text into tep's function map: what tep_parse_kallsyms() does,
 * without its sscanf() per line, which is most of the time to open a file.
 * Lines are "ADDR TYPE NAME" with an optional "\t[MODULE]".
 */
static void parse_kallsyms_fast(struct tep_handle *tep, char *text)
{
	char *p = text;

	while (*p) {
		char *line = p, *end = strchr(p, '\n'), *name, *mod = NULL, *q;
		unsigned long long addr;

		if (end)
			*end = 0;
		p = end ? end + 1 : line + strlen(line);
		addr = strtoull(line, &q, 16);
		if (q == line || *q != ' ' || !q[1] || q[2] != ' ' || !q[3])
			goto next;
		/* Absolute symbols (per-CPU offsets, _etext on arm) are no functions. */
		if (q[1] == 'A' || q[1] == 'a')
			goto next;
		name = q + 3;
		q = strchr(name, '\t');
		if (q) {
			*q = 0;
			if (q[1] == '[') {
				mod = q + 2;
				q = strchr(mod, ']');
				if (q)
					*q = 0;
			}
		}
		q = name + strcspn(name, " ");
		*q = 0;
		tep_register_function(tep, name, addr, mod);
next:
		if (end)
			*end = '\n';
	}
}

/*
 * Gives format @i to libtraceevent, once.  A format that would crash it is
 * left out with a warning; one it cannot parse at all is an error.
 */
static int parse_format(struct trace_input *in, int i)
{
	struct format *f = &in->formats[i];
	enum tep_errno err;
	char missing[120];

	if (in->format_done) {
		if (in->format_done[i])
			return 0;
		in->format_done[i] = 1;
	}
	if (!print_fields_defined(f->text, f->len, missing, sizeof(missing))) {
		warning("'%s': event format %d of system '%s' %s: ignored", in->file, i,
			f->system, missing);
		return 0;
	}
	err = tep_parse_event(in->tep, f->text, f->len, f->system);
	if (err && parse_fatal(err)) {
		char buf[128];

		tep_strerror(in->tep, err, buf, sizeof(buf));
		return error("'%s': bad event format %d of system '%s': %s", in->file, i,
			     f->system, buf);
	}
	return 0;
}

/* The number after "ID:" in a format's text, or -1. */
static int format_text_id(const struct format *f)
{
	const char *p = memmem(f->text, f->len, "\nID:", 4);
	const char *end = f->text + f->len;
	long id = 0;

	if (!p)
		return -1;
	for (p += 4; p < end && (*p == ' ' || *p == '\t'); p++)
		;
	if (p >= end || !isdigit((unsigned char)*p))
		return -1;
	for (; p < end && isdigit((unsigned char)*p) && id < INT32_MAX / 10; p++)
		id = id * 10 + (*p - '0');
	return id;
}

/*
 * Lazy mode: each format's id, read from its text, and the first format
 * that parses, so that libtraceevent knows where the common fields are
 * (it takes them from its first event).
 */
static int index_formats(struct trace_input *in)
{
	in->format_id = xcalloc(in->nr_formats ? in->nr_formats : 1, sizeof(int));
	in->format_done = xcalloc(in->nr_formats ? in->nr_formats : 1, 1);
	in->id_done = xcalloc(LAZY_IDS, 1);
	for (int i = 0; i < in->nr_formats; i++)
		in->format_id[i] = format_text_id(&in->formats[i]);
	for (int i = 0; i < in->nr_formats && !tep_get_events_count(in->tep); i++)
		if (parse_format(in, i) < 0)
			return -1;
	return 0;
}

int trace_input_need_event(struct trace_input *in, int id)
{
	if (!in->id_done || id < 0)
		return 0;
	if (id < LAZY_IDS) {
		if (in->id_done[id])
			return 0;
		in->id_done[id] = 1;
	}
	for (int i = 0; i < in->nr_formats; i++)
		if (in->format_id[i] == id && parse_format(in, i) < 0)
			return -1;
	return 0;
}

/* Whether format @i names event @name of @system. */
static int format_is(const struct format *f, const char *system, const char *name)
{
	size_t n = strlen(name);

	if (strcmp(f->system, system) || f->len < 6 + n || memcmp(f->text, "name: ", 6) ||
	    memcmp(f->text + 6, name, n))
		return 0;
	return f->len == 6 + n || f->text[6 + n] == '\n';
}

struct tep_event *trace_input_event_by_name(struct trace_input *in, const char *system,
					    const char *name)
{
	for (int i = 0; in->format_done && i < in->nr_formats; i++)
		if (format_is(&in->formats[i], system, name) && parse_format(in, i) < 0)
			return NULL;
	return tep_find_event_by_name(in->tep, system, name);
}

int trace_input_parse_format(struct trace_input *in, int i)
{
	return in->format_done && i >= 0 && i < in->nr_formats ? parse_format(in, i) : 0;
}

int trace_input_parse_all(struct trace_input *in)
{
	in->all_parsed = 1;
	for (int i = 0; in->format_done && i < in->nr_formats; i++)
		if (parse_format(in, i) < 0)
			return -1;
	trace_input_load_functions(in);
	return 0;
}

/*
 * report --kallsyms: its lines and the file's as one text, so both ways of
 * loading give what upstream gives, which reads it before the file's (for
 * equal addresses, the file's symbol comes first).
 */
static void add_extra_kallsyms(struct trace_input *in)
{
	size_t len = in->extra_kallsyms_len;
	char *text = xmalloc(len + 1 + in->kallsyms_len + 1);

	memcpy(text, in->extra_kallsyms, len);
	if (len && text[len - 1] != '\n')
		text[len++] = '\n';
	if (in->kallsyms_len)
		memcpy(text + len, in->kallsyms_at, in->kallsyms_len);
	len += in->kallsyms_len;
	text[len] = 0;
	own(in, text);
	in->kallsyms_at = text;
	in->kallsyms_len = len;
	in->extra_kallsyms = NULL;
}

void trace_input_add_kallsyms(struct trace_input *in, const char *text, size_t len)
{
	in->extra_kallsyms = text;
	in->extra_kallsyms_len = len;
}

/*
 * Lazily, libtraceevent asks our table (trace-kallsyms.c) for functions;
 * when everything is parsed (listings, -f) it gets them all registered.
 */
static void *load_functions(void *arg)
{
	struct trace_input *in = arg;

	kallsyms_text(in);
	if (in->extra_kallsyms)
		add_extra_kallsyms(in);
	if (!in->kallsyms_len)
		return NULL;
	if (in->format_done && !in->all_parsed) {
		in->ksyms = kallsyms_parse(in->kallsyms_at, in->kallsyms_len);
		if (in->ksyms)
			kallsyms_attach(in->ksyms, in->tep);
		return NULL;
	}
	/* It cuts the text into names: a copy of its own. */
	char *text = strndup_x(in->kallsyms_at, in->kallsyms_len);

	parse_kallsyms_fast(in->tep, text);
	free(text);
	return NULL;
}

void trace_input_load_functions(struct trace_input *in)
{
	if (in->funcs_loaded || !in->tep)
		return;
	in->funcs_loaded = 1;
	/* Often the wait after a first line: it ends with the pipe's reader. */
	run_for_stdout(load_functions, in);
}

void trace_input_register_symbol(struct trace_input *in, const char *name)
{
	trace_input_load_functions(in);
	if (in->ksyms)
		kallsyms_register_name(in->ksyms, in->tep, name);
}

static int build_tep(struct trace_input *in)
{
	struct tep_handle *tep = tep_alloc();
	const uint16_t probe = 1;
	int host_big = *(const unsigned char *)&probe == 0;

	if (!tep)
		return error("'%s': out of memory for the event parser", in->file);
	in->tep = tep;
	tep_set_file_bigendian(tep, in->big_endian ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_local_bigendian(tep, host_big ? TEP_BIG_ENDIAN : TEP_LITTLE_ENDIAN);
	tep_set_long_size(tep, in->long_size);
	tep_set_page_size(tep, in->page_size);
	tep_set_cpus(tep, in->cpus);
	/* Plugins first, as upstream: their handlers then wait for the formats. */
	if (in->flags & TRACE_INPUT_LOCAL_PLUGINS)
		tep_set_flag(tep, TEP_DISABLE_SYS_PLUGINS);
	if (!(in->flags & TRACE_INPUT_NO_PLUGINS))
		in->plugins = tep_load_plugins(tep);
	in->kernel_long_size = in->long_size;
	if (in->header_page) {
		char *hp = strndup_x(in->header_page, in->header_page_len);

		tep_parse_header_page(tep, hp, in->header_page_len, in->long_size);
		free(hp);
		if (in->header_page_len) {
			int ls = tep_get_header_page_size(tep);

			if (ls == 4 || ls == 8) {
				in->kernel_long_size = ls;
				tep_set_long_size(tep, ls);
			}
		}
	}
	if (in->flags & TRACE_INPUT_LAZY) {
		if (index_formats(in) < 0)
			return -1;
	} else {
		for (int i = 0; i < in->nr_formats; i++)
			if (parse_format(in, i) < 0)
				return -1;
		trace_input_load_functions(in);
	}
	if (in->printk && *in->printk) {
		char *printk = usable_printk(in, 0);

		tep_parse_printk_formats(tep, printk);
		free(printk);
	}
	if (in->cmdlines && *in->cmdlines)
		tep_parse_saved_cmdlines(tep, in->cmdlines);

	return 0;
}

struct trace_input *trace_input_open(const char *file, int flags)
{
	struct trace_input *in = xcalloc(1, sizeof(*in));
	struct cursor c;
	struct stat st;
	int ret;

	in->file = xstrdup(file);
	in->flags = flags;
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
	in->in_usecs = !in->clock || (!(flags & TRACE_INPUT_RAW_TS) && clock_in_usecs(in->clock));
	if (!(flags & TRACE_INPUT_NO_TEP) && build_tep(in) < 0)
		goto fail;
	for (int b = 0; b < in->nr_buffers; b++)
		check_page_size(in, &in->buffers[b], !b);
	check_unclaimed(in);
	return in;
fail:
	trace_input_close(in);
	return NULL;
}

void trace_input_close(struct trace_input *in)
{
	if (!in)
		return;
	ahead_free(in->ahead);
	for (int i = 0; i < in->nr_streams; i++) {
		for (int j = 0; j < AHEAD_DEPTH; j++) {
			free(in->streams[i].ahead[j].src);
			free(in->streams[i].ahead[j].dst);
		}
		page_walk_free(&in->streams[i].walk);
		page_walk_free(&in->streams[i].peek);
		free(in->streams[i].win);
	}
	free(in->streams);
	free(in->heap);
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
	free(in->clock);
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

	kallsyms_text(mut);
	if (!in->kallsyms && in->kallsyms_at)
		mut->kallsyms = strndup_x(in->kallsyms_at, in->kallsyms_len);
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
	in->ts_offset += offset;
}

void trace_input_set_ts2secs(struct trace_input *in, uint64_t hz)
{
	in->ts2secs_hz = hz;
	in->in_usecs = 1;
}

void trace_input_skip_cpu(struct trace_input *in, int cpu)
{
	if (!in->skip_cpu)
		in->skip_cpu = xcalloc(MAX_CPUS, 1);
	if (cpu >= 0 && cpu < MAX_CPUS)
		in->skip_cpu[cpu] = 1;
}

char *trace_input_latency_text(struct trace_input *in, size_t *len)
{
	struct cursor file, body;
	uint16_t flags = 0;

	cur_init(&file, in->map, in->fsize, 0, in->big_endian, in->file);
	if (in->version < 7) {
		*len = in->fsize - in->latency_off;
		return strndup_x(in->map + in->latency_off, *len);
	}
	if (open_section(in, &file, in->latency_off, TRACE_OPT_BUFFER_TEXT, "latency", &body,
			 &flags) < 0)
		return NULL;
	if (!(flags & 1) || in->comp == TRACE_COMP_NONE) {
		*len = body.size;
		return strndup_x(body.data, body.size);
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
			if (decompress(in, NULL, p, cs, text + n, us, off, "latency chunk") < 0)
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

/* ---- per-CPU streams and the merge --------------------------------------- */

static int stream_bad(struct stream *s, uint64_t off, const char *fmt, const char *detail,
		      unsigned long long v)
{
	struct cursor c;
	char msg[256];
	const char *name = s->in->buffers[s->buffer].name;

	cur_init(&c, NULL, 0, 0, 0, s->in->file);
	snprintf(msg, sizeof(msg), fmt, detail, v);
	if (*name)
		return cur_bad(&c, off, "buffer '%s' CPU %d: %s", name, s->cpu, msg);
	return cur_bad(&c, off, "CPU %d: %s", s->cpu, msg);
}

static int stream_truncated(struct stream *s, uint64_t off, uint64_t need, const char *what)
{
	struct cursor c;
	char full[128];
	const char *name = s->in->buffers[s->buffer].name;

	cur_init(&c, NULL, 0, off, 0, s->in->file);
	if (*name)
		snprintf(full, sizeof(full), "buffer '%s' CPU %d %s", name, s->cpu, what);
	else
		snprintf(full, sizeof(full), "CPU %d %s", s->cpu, what);
	return cur_need(&c, need, full);
}

static int read_at(struct stream *s, void *buf, size_t len, uint64_t off, const char *what)
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
static void ensure_window(struct stream *s, size_t len)
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
static void zero_slack(struct stream *s, size_t len)
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
static int queue_one_ahead(struct stream *s)
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
static void queue_ahead(struct stream *s)
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
static void drop_ahead(struct stream *s)
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
static size_t take_ahead(struct stream *s)
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
static int more_chunks(struct stream *s)
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
static int fill_window(struct stream *s)
{
	size_t len;

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
		if (decompress(s->in, NULL, cbuf, cs, s->win, us, s->next, "CPU data chunk") < 0) {
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
	zero_slack(s, len);
	s->win_len = len;
	s->page = 0;
	s->page_loaded = 0;
	return 1;
}

static uint64_t adjust_ts(struct trace_input *in, uint64_t ts)
{
	if (in->tsc2nsec && !(in->flags & TRACE_INPUT_RAW_TS) && in->clock &&
	    !strcmp(in->clock, "tsc2nsec")) {
		unsigned __int128 v = (unsigned __int128)ts * in->tsc_mult;

		ts = (uint64_t)(v >> in->tsc_shift) + in->tsc_offset;
	}
	if (in->ts2secs_hz) {
		unsigned __int128 v = (unsigned __int128)ts * 1000000000ULL;

		ts = (uint64_t)(v / in->ts2secs_hz);
	}
	return ts + in->ts_offset;
}

static uint64_t page_offset(struct stream *s)
{
	return s->chunked ? s->win_off : s->win_off + s->page;
}

/* The commit word of the page at @page in the window (its header is there). */
static uint64_t page_commit(struct stream *s, size_t page)
{
	struct cursor c;

	cur_init(&c, NULL, 0, 0, s->in->big_endian, s->in->file);
	return cur_decode(&c, s->win + page + 8, s->in->kernel_long_size);
}

/* What is wrong with a page header's @commit word: 0 nothing, or HEADER_*. */
enum { HEADER_TOO_BIG = 1, HEADER_NO_MISSED_ROOM };

static int header_fault(const struct stream *s, uint64_t commit)
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
static int load_page(struct stream *s)
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
static int check_record(struct stream *s, struct tep_record *rec)
{
	struct trace_input *in = s ? s->in : ((struct stream *)rec->priv)->in;
	uint64_t need;
	int id;

	if (!in->tep)
		return 0;
	id = trace_input_record_type(in, rec);
	if (in->id_done && trace_input_need_event(in, id) < 0)
		return -1;
	need = id_flex_offset(in, id);
	if ((uint64_t)rec->size >= need)
		return 0;
	if (!s)
		return -1;
	return stream_bad(s, rec->offset, "%s record ends before its last field (at %llu)",
			  tep_find_event(in->tep, id)->name, need);
}

static int fill_record(struct stream *s, const void *data, int first)
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
	s->rec.ts = adjust_ts(s->in, page_walk_ts(&s->walk));
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
static const void *skip_unwanted(struct stream *s, const void *data, int *first)
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
		if (id >= LAZY_IDS || ids[id])
			break;
		s->last_off = off;
		*first = 0;
		data = page_walk_next(&s->walk);
	}
	return data;
}

/* A padding loop ends its page early: that is damage, not the end. */
static int page_done(struct stream *s)
{
	int bad = page_walk_damage(&s->walk);

	if (bad >= 0)
		return stream_bad(s, page_offset(s) + bad, "%s at page offset %llu loops back",
				  "padding", bad);
	s->page += s->page_size;
	s->page_loaded = 0;
	return 0;
}

/* Moves @s to its next record: 1 when there is one, 0 at its end, -1 on damage. */
static int stream_advance(struct stream *s)
{
	const void *data;

	if (s->skip_next) {
		int ret;

		/* Land on the record to drop (whatever its id); the code below steps past it. */
		s->skip_next = 0;
		s->no_skip = 1;
		ret = stream_advance(s);
		s->no_skip = 0;
		if (ret <= 0)
			return ret;
	}
	if (s->page_loaded) {
		int first = 0;

		data = skip_unwanted(s, page_walk_next(&s->walk), &first);
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
		data = skip_unwanted(s, page_walk_event(&s->walk), &first);
		if (data)
			return fill_record(s, data, first);
		if (page_done(s) < 0)
			return -1;
	}
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
	struct tep_format_field *type, *pid;

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

void trace_input_only_ids(struct trace_input *in, const unsigned char *ids)
{
	if (learn_common(in))
		in->want_ids = ids;
}

static int stream_less(const struct stream *a, const struct stream *b)
{
	if (a->rec.ts != b->rec.ts)
		return a->rec.ts < b->rec.ts;
	return a->idx < b->idx;
}

static void heap_down(struct trace_input *in, int i)
{
	struct stream **h = in->heap;

	for (;;) {
		int l = 2 * i + 1, r = l + 1, m = i;

		if (l < in->heap_len && stream_less(h[l], h[m]))
			m = l;
		if (r < in->heap_len && stream_less(h[r], h[m]))
			m = r;
		if (m == i)
			return;
		struct stream *t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

/*
 * Sets up a page walk for @in's pages.  Old-format files and
 * TRACE_CMD_KBUFFER=1 (to compare the two walkers) go through kbuffer.
 */
static int walk_init(struct trace_input *in, struct page_walk *w)
{
	int old = in->tep && tep_is_old_format(in->tep);

	if (page_walk_init(w, in->big_endian, in->kernel_long_size,
			   old || trace_debug()->kbuffer) < 0)
		return -1;
	if (old)
		page_walk_old_format(w);
	return 0;
}

static int stream_init(struct trace_input *in, struct stream *s, int b, int cpu)
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
	if (walk_init(in, &s->walk) < 0)
		return -1;
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

static void stream_free(struct stream *s)
{
	page_walk_free(&s->walk);
	page_walk_free(&s->peek);
	free(s->win);
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
			struct stream *s;
			int ret;

			if (!buf->cpu[cpu].size || (in->skip_cpu && cpu < MAX_CPUS &&
						    in->skip_cpu[cpu]))
				continue;
			if (buf->chunked && !in->ahead && !trace_debug()->no_ahead)
				in->ahead = ahead_new(in->comp_name);
			s = &in->streams[in->nr_streams];
			s->idx = in->nr_streams++;
			if (stream_init(in, s, b, cpu) < 0)
				return -1;
			ret = stream_advance(s);
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
	struct stream *s;
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
		ret = stream_advance(s);
		if (ret < 0)
			goto fail;
		if (!ret)
			in->heap[0] = in->heap[--in->heap_len];
		heap_down(in, 0);
	}
	if (!in->heap_len) {
		/* A damaged kallsyms section no line needed is warned of all the same. */
		kallsyms_text(in);
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

int trace_input_record_at_page_start(const struct tep_record *rec)
{
	const struct stream *s = rec->priv;

	return s->first;
}

void trace_input_record_raw(const struct tep_record *rec, struct trace_input_raw *raw)
{
	const struct stream *s = rec->priv;

	raw->page = s->win + s->page;
	raw->page_size = s->page_size;
	raw->offset = page_walk_offset(&s->walk);
	raw->size = page_walk_record_size(&s->walk);
	raw->raw_ts = page_walk_ts(&s->walk);
}

/* Whether the page at @page in the window has a header load_page() would take. */
static int page_sound(struct stream *s, size_t page)
{
	return !header_fault(s, page_commit(s, page));
}

int trace_input_peek_same_cpu(struct trace_input *in, struct tep_record *rec,
			      struct tep_record *next)
{
	struct stream *s = rec->priv;
	size_t page = s->page;
	const void *data;

	if (!s->page_loaded || s->skip_next)
		return 0;
	if (!s->peek_ready) {
		if (walk_init(in, &s->peek) < 0)
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
	next->ts = adjust_ts(in, page_walk_ts(&s->peek));
	next->size = page_walk_event_size(&s->peek);
	next->data = (void *)data;
	next->cpu = s->cpu;
	next->ref_count = 1;
	next->priv = s;
	if (next->size < 0 || (const unsigned char *)data + next->size > s->win + page + s->page_size ||
	    check_record(NULL, next) < 0)
		return 0;
	/* It must also be the next record of the merge: no other CPU's comes first. */
	for (int i = 1; i <= 2 && i < in->heap_len; i++) {
		struct stream *o = in->heap[i];

		if (o->rec.ts < next->ts || (o->rec.ts == next->ts && o->idx < s->idx))
			return 0;
	}
	return 1;
}

void trace_input_skip_next_same_cpu(struct trace_input *in, struct tep_record *rec)
{
	struct stream *s = rec->priv;

	(void)in;
	s->skip_next = 1;
}

int trace_input_cpu_first_last(struct trace_input *in, int buffer, int cpu, uint64_t *first,
			       uint64_t *last)
{
	struct stream s = { 0 };
	int ret, n = 0;

	if (buffer >= in->nr_buffers || cpu >= in->buffers[buffer].cpus ||
	    !in->buffers[buffer].cpu[cpu].size)
		return 0;
	if (stream_init(in, &s, buffer, cpu) < 0) {
		stream_free(&s);
		return -1;
	}
	while ((ret = stream_advance(&s)) > 0) {
		if (!n++)
			*first = s.rec.ts;
		*last = s.rec.ts;
	}
	stream_free(&s);
	return ret < 0 ? -1 : n > 0;
}

unsigned int trace_input_buffer_page_size(const struct trace_input *in, int buffer)
{
	return in->buffers[buffer].page_size;
}

int trace_input_buffer_compressed(const struct trace_input *in, int buffer)
{
	return in->buffers[buffer].chunked;
}

uint64_t trace_input_cpu_data_size(struct trace_input *in, int buffer, int cpu)
{
	struct stream s = { 0 };
	uint64_t total = 0;

	if (!trace_input_cpu_size(in, buffer, cpu) || !in->buffers[buffer].chunked)
		return trace_input_cpu_size(in, buffer, cpu);
	if (stream_init(in, &s, buffer, cpu) == 0) {
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
	stream_free(&s);
	return total;
}
