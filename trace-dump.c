// SPDX-License-Identifier: GPL-2.0
/*
 * dump: prints a trace.dat's metadata as upstream's dump does (--summary and
 * one flag per part), walking the file itself: v6 in file order, v7 by its
 * sections and options chain, so offsets and section flags can be shown.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-dat.h"
#include "trace-compress.h"
#include "trace-output-v7.h"
#include "trace-outfile.h"

extern const struct command cmd_dump;

static const char dump_usage[] =
	"usage: trace-cmd dump [-i FILE] [-v] [--summary] [--head-page] [--head-event]\n"
	"                      [--ftrace-events] [--systems] [--events] [--kallsyms]\n"
	"                      [--printk] [--cmd-lines] [--options] [--flyrecord] [--clock]\n"
	"                      [--all] [--verbose[=LEVEL]]\n"
	"  -i FILE            read FILE instead of trace.dat\n"
	"  -v                 only check that the file is valid\n"
	"  --summary          a summary of the metadata (the default)\n"
	"  --head-page        the header page format\n"
	"  --head-event       the header event format\n"
	"  --ftrace-events    the ftrace event formats\n"
	"  --systems          the event systems and their event counts\n"
	"  --events           the event formats\n"
	"  --kallsyms         the kernel symbols saved\n"
	"  --printk           the trace_printk() formats\n"
	"  --cmd-lines        the saved pid to comm mappings\n"
	"  --options          every option, with its payload\n"
	"  --flyrecord        each buffer's per-CPU data offsets and sizes\n"
	"  --clock            the trace clock\n"
	"  --all              every part above\n"
	"  --verbose[=LEVEL]  accepted as upstream's (dump prints no log messages)\n"
	"  -h                 show this help\n";

enum {
	D_SUMMARY = 1 << 0, D_HEAD_PAGE = 1 << 1, D_HEAD_EVENT = 1 << 2, D_FTRACE = 1 << 3,
	D_SYSTEMS = 1 << 4, D_EVENTS = 1 << 5, D_KALLSYMS = 1 << 6, D_PRINTK = 1 << 7,
	D_CMDLINES = 1 << 8, D_FLYRECORD = 1 << 9, D_CLOCK = 1 << 10, D_OPTIONS = 1 << 11,
	D_VALIDATE = 1 << 12, D_SECTIONS = 1 << 13,
	D_ALL = ((1 << 12) - 1) | D_SECTIONS,	/* the strings and section list only here */
};

enum { OPT_ALL = 256 + 12, OPT_VERBOSE };

static const struct option dump_options[] = {
	{ "summary",	   no_argument, NULL, 256 + 0 },
	{ "head-page",	   no_argument, NULL, 256 + 1 },
	{ "head-event",	   no_argument, NULL, 256 + 2 },
	{ "ftrace-events", no_argument, NULL, 256 + 3 },
	{ "systems",	   no_argument, NULL, 256 + 4 },
	{ "events",	   no_argument, NULL, 256 + 5 },
	{ "kallsyms",	   no_argument, NULL, 256 + 6 },
	{ "printk",	   no_argument, NULL, 256 + 7 },
	{ "cmd-lines",	   no_argument, NULL, 256 + 8 },
	{ "flyrecord",	   no_argument, NULL, 256 + 9 },
	{ "clock",	   no_argument, NULL, 256 + 10 },
	{ "options",	   no_argument, NULL, 256 + 11 },
	{ "all",	   no_argument, NULL, OPT_ALL },
	{ "verbose",	   optional_argument, NULL, OPT_VERBOSE },
	{ "help",	   no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* A bounded view of bytes: the file (read with pread) or a section body. */
struct src {
	int fd;			/* >= 0: the file */
	const char *buf;	/* else this memory */
	uint64_t size, pos;
	const char *file;
	int swap;		/* the file's byte order is not ours */
};

struct dump {
	unsigned int flags;
	struct src f;
	char *strings;
	size_t strings_len;
	const char *comp;
	int nr_options;
	char *clock_trailer;
};

static int bad(struct src *s, const char *what)
{
	return error("'%s': truncated or damaged at offset %llu reading %s", s->file,
		     (unsigned long long)s->pos, what);
}

static int get(struct src *s, void *dst, uint64_t len, const char *what)
{
	if (len > s->size || s->pos > s->size - len)
		return bad(s, what);
	if (s->fd < 0) {
		memcpy(dst, s->buf + s->pos, len);
	} else {
		uint64_t done = 0;

		while (done < len) {
			ssize_t n = pread(s->fd, (char *)dst + done, len - done, s->pos + done);

			if (n <= 0)
				return bad(s, what);
			done += n;
		}
	}
	s->pos += len;
	return 0;
}

static int get_u16(struct src *s, uint16_t *v, const char *w)
{
	int r = get(s, v, 2, w);

	if (s->swap)
		*v = __builtin_bswap16(*v);
	return r;
}

static int get_u32(struct src *s, uint32_t *v, const char *w)
{
	int r = get(s, v, 4, w);

	if (s->swap)
		*v = __builtin_bswap32(*v);
	return r;
}

static int get_u64(struct src *s, uint64_t *v, const char *w)
{
	int r = get(s, v, 8, w);

	if (s->swap)
		*v = __builtin_bswap64(*v);
	return r;
}

/* A u64 in an option payload, in the file's byte order. */
static uint64_t opt_u64(const struct dump *d, const char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return d->f.swap ? __builtin_bswap64(v) : v;
}

/* A NUL-terminated string (malloc'd). */
static char *get_str(struct src *s, const char *what)
{
	char buf[4096];
	size_t n = 0;

	while (n < sizeof(buf)) {
		if (get(s, &buf[n], 1, what) < 0)
			return NULL;
		if (!buf[n])
			return xstrdup(buf);
		n++;
	}
	bad(s, what);
	return NULL;
}

/* @len bytes as a malloc'd NUL-terminated text. */
static char *get_text(struct src *s, uint64_t len, const char *what)
{
	char *t;

	if (len > s->size - (s->pos < s->size ? s->pos : s->size)) {
		bad(s, what);
		return NULL;
	}
	t = xmalloc(len + 1);
	if (get(s, t, len, what) < 0) {
		free(t);
		return NULL;
	}
	t[len] = '\0';
	return t;
}

static void print_text(const char *head, uint64_t len, const char *text)
{
	printf("\t[%s, %llu bytes]\n", head, (unsigned long long)len);
	fwrite(text, 1, len, stdout);
	putchar('\n');
}

/* header_page and header_event. */
static int do_headers(struct dump *d, struct src *s)
{
	for (int i = 0; i < 2; i++) {
		uint64_t len;
		char *name = get_str(s, "header name"), *text;

		if (!name || get_u64(s, &len, "header size") < 0 ||
		    !(text = get_text(s, len, "header text"))) {
			free(name);
			return -1;
		}
		if (d->flags & (i ? D_HEAD_EVENT : D_HEAD_PAGE))
			print_text(i ? "Header event" : "Header page", len, text);
		else if (d->flags & D_SUMMARY)
			printf("\t[%s, %llu bytes]\n", i ? "Header event" : "Header page",
			       (unsigned long long)len);
		free(name);
		free(text);
	}
	return 0;
}

static int do_formats(struct dump *d, struct src *s, int count, unsigned int flag)
{
	for (int i = 0; i < count; i++) {
		uint64_t len;
		char *text;

		if (get_u64(s, &len, "format size") < 0 || !(text = get_text(s, len, "format")))
			return -1;
		if (d->flags & flag) {
			fwrite(text, 1, len, stdout);
			putchar('\n');
		}
		free(text);
	}
	return 0;
}

static int do_ftrace(struct dump *d, struct src *s)
{
	uint32_t count;

	if (get_u32(s, &count, "ftrace format count") < 0)
		return -1;
	if (d->flags & (D_FTRACE | D_SUMMARY))
		printf("\t[Ftrace format, %u events]\n", count);
	return do_formats(d, s, count, D_FTRACE);
}

static int do_events(struct dump *d, struct src *s)
{
	uint32_t nsys, count;

	if (get_u32(s, &nsys, "system count") < 0)
		return -1;
	if (d->flags & (D_SYSTEMS | D_EVENTS | D_SUMMARY))
		printf("\t[Events format, %u systems]\n", nsys);
	for (uint32_t i = 0; i < nsys; i++) {
		char *name = get_str(s, "system name");

		if (!name || get_u32(s, &count, "event count") < 0) {
			free(name);
			return -1;
		}
		if (d->flags & D_SYSTEMS)
			printf("\t\t%s %u [system, events]\n", name, count);
		free(name);
		if (do_formats(d, s, count, D_EVENTS) < 0)
			return -1;
	}
	return 0;
}

/* kallsyms (u32), printk (u32) or cmdlines (u64 size). */
static int do_sized(struct dump *d, struct src *s, int size64, const char *head,
		    unsigned int flag)
{
	uint64_t len = 0;
	uint32_t l32;
	char *text;

	if (size64 ? get_u64(s, &len, head) < 0 : get_u32(s, &l32, head) < 0)
		return -1;
	if (!size64)
		len = l32;
	text = get_text(s, len, head);
	if (!text)
		return -1;
	if (d->flags & flag)
		print_text(head, len, text);
	else if (d->flags & D_SUMMARY)
		printf("\t[%s, %llu bytes]\n", head, (unsigned long long)len);
	free(text);
	return 0;
}

/* CPU data must lie inside the file (upstream fails such files too). */
static int check_data(struct dump *d, uint32_t cpu, uint64_t off, uint64_t size)
{
	if (off <= d->f.size && size <= d->f.size - off)
		return 0;
	return error("'%s': CPU %u data at offset %llu (%llu bytes) is past the end of the file (%llu bytes)",
		     d->f.file, cpu, (unsigned long long)off, (unsigned long long)size,
		     (unsigned long long)d->f.size);
}

static void print_v6_buffer(struct dump *d, const char *data, uint32_t size)
{
	uint64_t off;

	if (!(d->flags & (D_FLYRECORD | D_OPTIONS)) || size < 9)
		return;
	off = opt_u64(d, data);
	printf("\t\t[Option BUFFER, %u bytes]\n%llu [offset]\n\"%.*s\" [name]\n", size,
	       (unsigned long long)off, (int)strnlen(data + 8, size - 8), data + 8);
}

static const char *const option_names[] = {
	[TRACE_OPT_DONE] = "DONE", [TRACE_OPT_DATE] = "DATE", [TRACE_OPT_CPUSTAT] = "CPUSTAT",
	[TRACE_OPT_BUFFER] = "BUFFER", [TRACE_OPT_TRACECLOCK] = "TRACECLOCK",
	[TRACE_OPT_UNAME] = "UNAME", [TRACE_OPT_HOOK] = "HOOK", [TRACE_OPT_OFFSET] = "OFFSET",
	[TRACE_OPT_CPUCOUNT] = "CPUCOUNT", [TRACE_OPT_VERSION] = "VERSION",
	[TRACE_OPT_PROCMAPS] = "PROCMAPS", [TRACE_OPT_TRACEID] = "TRACEID",
	[TRACE_OPT_TIME_SHIFT] = "TIME_SHIFT", [TRACE_OPT_GUEST] = "GUEST",
	[TRACE_OPT_TSC2NSEC] = "TSC2NSEC", [TRACE_OPT_STRINGS] = "STRINGS",
	[TRACE_OPT_HEADER_INFO] = "HEADERS", [TRACE_OPT_FTRACE_EVENTS] = "FTRACE EVENTS",
	[TRACE_OPT_EVENT_FORMATS] = "EVENT FORMATS", [TRACE_OPT_KALLSYMS] = "KALLSYMS",
	[TRACE_OPT_PRINTK] = "PRINTK", [TRACE_OPT_CMDLINES] = "CMDLINES",
	[TRACE_OPT_BUFFER_TEXT] = "BUFFER_TEXT",
};

static void print_option_head(uint16_t id, uint32_t size)
{
	if (id < ARRAY_SIZE(option_names) && option_names[id])
		printf("\t\t[Option %s, %u bytes]\n", option_names[id], size);
	else
		printf("\t\t[Option %u, %u bytes]\n", id, size);
}

/*
 * --options: each option as upstream's dump shows it; BUFFER, BUFFER_TEXT
 * and the section pointers are printed by their own code.
 */
static void print_option(struct dump *d, uint16_t id, const char *data, uint32_t size)
{
	uint32_t u32;

	if (!(d->flags & D_OPTIONS) || id == TRACE_OPT_BUFFER || id == TRACE_OPT_BUFFER_TEXT ||
	    (id >= TRACE_OPT_HEADER_INFO && id <= TRACE_OPT_CMDLINES))
		return;
	if (id >= ARRAY_SIZE(option_names) || !option_names[id]) {
		printf(" %u %u\t[Unknown option, size - skipping]\n", id, size);
		return;
	}
	print_option_head(id, size);
	switch (id) {
	case TRACE_OPT_TRACEID:
		if (size >= 8)
			printf("0x%llX\n", (unsigned long long)opt_u64(d, data));
		break;
	case TRACE_OPT_CPUCOUNT:
		if (size >= 4) {
			memcpy(&u32, data, 4);
			printf("%u\n", d->f.swap ? __builtin_bswap32(u32) : u32);
		}
		break;
	case TRACE_OPT_DATE: case TRACE_OPT_CPUSTAT: case TRACE_OPT_TRACECLOCK:
	case TRACE_OPT_UNAME: case TRACE_OPT_HOOK: case TRACE_OPT_OFFSET:
	case TRACE_OPT_VERSION: case TRACE_OPT_PROCMAPS:
		printf("%.*s\n", (int)strnlen(data, size), data);
		break;
	default:
		break;
	}
}

static void print_clock_option(struct dump *d, const char *data, uint32_t size)
{
	if ((d->flags & D_CLOCK) && !(d->flags & D_OPTIONS))
		printf("%.*s\n", (int)strnlen(data, size), data);
}

/* v6: the options block, then the flyrecord table and clock trailer. */
static int do_v6_tail(struct dump *d, struct src *s)
{
	uint32_t cpus, size;
	int bad_data = 0;
	uint16_t id;
	char tag[10];

	if (get_u32(s, &cpus, "CPU count") < 0)
		return -1;
	if (d->flags & D_SUMMARY)
		printf("\t%u [CPUs with tracing data]\n", cpus);
	if (get(s, tag, 10, "section tag") < 0)
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		for (;;) {
			char *data;

			if (get_u16(s, &id, "option id") < 0)
				return -1;
			if (id == 0)
				break;
			if (get_u32(s, &size, "option size") < 0 ||
			    !(data = get_text(s, size, "option")))
				return -1;
			d->nr_options++;
			print_option(d, id, data, size);
			if (id == 3)
				print_v6_buffer(d, data, size);
			else if (id == 4)
				print_clock_option(d, data, size);
			free(data);
		}
		if (d->flags & (D_SUMMARY | D_OPTIONS))
			printf("\t[%d options]\n", d->nr_options);
		if (get(s, tag, 10, "section tag") < 0)
			return -1;
	}
	if (!memcmp(tag, "latency  ", 10)) {
		if (d->flags & D_SUMMARY)
			printf("\t[Latency tracing data]\n");
		return 0;
	}
	if (memcmp(tag, "flyrecord", 10))
		return bad(s, "the flyrecord tag");
	if (d->flags & (D_SUMMARY | D_FLYRECORD))
		printf("\t[Flyrecord tracing data]\n");
	for (uint32_t cpu = 0; cpu < cpus; cpu++) {
		uint64_t off, sz;

		if (get_u64(s, &off, "CPU offset") < 0 || get_u64(s, &sz, "CPU size") < 0)
			return -1;
		if (check_data(d, cpu, off, sz) < 0)
			bad_data = 1;
		/* Zeros show as blanks, as upstream prints them. */
		if (d->flags & D_FLYRECORD) {
			char o[24] = "", z[24] = "";

			if (off)
				snprintf(o, sizeof(o), "%llu", (unsigned long long)off);
			if (sz)
				snprintf(z, sizeof(z), "%llu", (unsigned long long)sz);
			printf("\t%11s %10s\t[offset, size of cpu %u]\n", o, z, cpu);
		}
	}
	/* The clock trailer, when there is one. */
	if (d->flags & (D_SUMMARY | D_CLOCK)) {
		uint64_t len = 0;
		char *text = NULL;

		if (s->size - s->pos >= 8 && get_u64(s, &len, "clock size") == 0 && len &&
		    len < 4096)
			text = get_text(s, len, "clock");
		if (text && *text)
			printf("\t[Tracing clock]\n\t\t%s\n", text);
		else
			printf("\t[Tracing clock]\n\t\t No tracing clock saved in the file\n");
		free(text);
	}
	return bad_data ? -1 : 0;
}

static int dump_v6(struct dump *d)
{
	struct src *s = &d->f;

	if (do_headers(d, s) < 0 || do_ftrace(d, s) < 0 || do_events(d, s) < 0 ||
	    do_sized(d, s, 0, "Kallsyms", D_KALLSYMS) < 0 ||
	    do_sized(d, s, 0, "Trace printk", D_PRINTK) < 0 ||
	    do_sized(d, s, 1, "Saved command lines", D_CMDLINES) < 0)
		return -1;
	return do_v6_tail(d, s);
}

/* --- version 7 ------------------------------------------------------------ */

struct section {
	uint16_t id, flags;
	uint32_t desc;
	uint64_t size, at;
};

static const char *desc_of(struct dump *d, uint32_t id)
{
	return id < d->strings_len ? d->strings + id : "";
}

static int read_section(struct dump *d, uint64_t at, struct section *sec)
{
	struct src *s = &d->f;

	s->pos = at;
	sec->at = at;
	if (get_u16(s, &sec->id, "section id") < 0 || get_u16(s, &sec->flags, "section flags") < 0 ||
	    get_u32(s, &sec->desc, "section description") < 0 ||
	    get_u64(s, &sec->size, "section size") < 0)
		return -1;
	if (sec->size > s->size - s->pos)
		return bad(s, "a section body");
	return 0;
}

/* A section's body, decompressed if flagged; *body is malloc'd. */
static int section_body(struct dump *d, struct section *sec, struct src *body, char **mem)
{
	struct src *s = &d->f;
	uint32_t cs, us;
	const char *why;
	char *z;

	s->pos = sec->at + 16;
	*mem = NULL;
	if (!(sec->flags & 1) || !strcmp(d->comp, "none")) {
		*mem = get_text(s, sec->size, "a section body");
	} else {
		if (get_u32(s, &cs, "compressed size") < 0 || get_u32(s, &us, "uncompressed size") < 0)
			return -1;
		if (cs > sec->size - 8 || us > (1U << 30))
			return bad(s, "compressed section sizes");
		z = get_text(s, cs, "a compressed section");
		if (!z)
			return -1;
		*mem = xmalloc(us + 1);
		why = inflate_once(d->comp, z, cs, *mem, us);
		free(z);
		if (why) {
			free(*mem);
			*mem = NULL;
			return error("'%s': section at offset %llu does not decompress with %s (%s)",
				     s->file, (unsigned long long)sec->at, d->comp, why);
		}
		*body = (struct src){ .fd = -1, .buf = *mem, .size = us, .file = s->file,
				      .swap = s->swap };
		return 0;
	}
	if (!*mem)
		return -1;
	*body = (struct src){ .fd = -1, .buf = *mem, .size = sec->size, .file = s->file,
			      .swap = s->swap };
	return 0;
}

/* Every STRINGS section, concatenated in file order. */
static int load_strings(struct dump *d, uint64_t start, int *nr_sections)
{
	uint64_t at = start;

	*nr_sections = 0;
	while (at < d->f.size) {
		struct section sec;
		struct src body;
		char *mem;

		if (read_section(d, at, &sec) < 0)
			return -1;
		(*nr_sections)++;
		if (sec.id == 15) {
			if (section_body(d, &sec, &body, &mem) < 0)
				return -1;
			d->strings = xrealloc(d->strings, d->strings_len + body.size + 1);
			memcpy(d->strings + d->strings_len, mem, body.size);
			d->strings_len += body.size;
			d->strings[d->strings_len] = '\0';
			free(mem);
		}
		at = sec.at + 16 + sec.size;
	}
	return 0;
}

/* --all, version 7: the strings table, then every section in file order. */
static int print_sections(struct dump *d, uint64_t start)
{
	uint64_t at = start;

	printf("\t[String @ offset]\n");
	for (size_t i = 0; i < d->strings_len; i += strlen(d->strings + i) + 1)
		printf("\t\t\"%s\" @ %zu\n", d->strings + i, i);
	while (at < d->f.size) {
		struct section sec;
		uint32_t sizes[2];

		if (read_section(d, at, &sec) < 0)
			return -1;
		printf("\t[Section %2u @ %-16llu\t\"%s\", flags 0x%x, ", sec.id,
		       (unsigned long long)sec.at, desc_of(d, sec.desc), sec.flags);
		if ((sec.flags & 1) && sec.id != TRACE_OPT_BUFFER && sec.id != TRACE_OPT_BUFFER_TEXT) {
			if (get_u32(&d->f, &sizes[0], "compressed size") < 0 ||
			    get_u32(&d->f, &sizes[1], "uncompressed size") < 0)
				return -1;
			printf("%u compressed, %u uncompressed]\n", sizes[0], sizes[1]);
		} else if (sec.flags & 1) {
			printf("%llu compressed bytes]\n", (unsigned long long)sec.size);
		} else {
			printf("%llu bytes]\n", (unsigned long long)sec.size);
		}
		at = sec.at + 16 + sec.size;
	}
	return 0;
}

static void print_section(struct dump *d, struct section *sec)
{
	printf("\t[Section %u @ %llu: \"%s\", flags 0x%x, %llu bytes]\n", sec->id,
	       (unsigned long long)sec->at, desc_of(d, sec->desc), sec->flags,
	       (unsigned long long)sec->size);
}

static int print_v7_buffer(struct dump *d, const char *data, uint32_t size)
{
	struct src o = { .fd = -1, .buf = data, .size = size, .file = d->f.file,
			 .swap = d->f.swap };
	uint64_t sect, total = 0, off, sz;
	uint32_t page, count, cpu;
	char *name, *clock;
	struct section sec;

	if (get_u64(&o, &sect, "buffer offset") < 0 || !(name = get_str(&o, "buffer name")))
		return -1;
	clock = get_str(&o, "buffer clock");
	if (!clock || get_u32(&o, &page, "page size") < 0 || get_u32(&o, &count, "CPU count") < 0)
		goto fail;
	if (d->flags & D_FLYRECORD) {
		if (read_section(d, sect, &sec) < 0)
			goto fail;
		print_section(d, &sec);
	}
	if (d->flags & (D_FLYRECORD | D_OPTIONS))
		printf("\t\t[Option BUFFER, %u bytes]\n%llu [offset]\n\"%s\" [name]\n"
		       "\"%s\" [clock]\n%u [Page size, bytes]\n%u [CPUs]:\n", size,
		       (unsigned long long)sect, name, clock, page, count);
	for (uint32_t i = 0; i < count; i++) {
		if (get_u32(&o, &cpu, "CPU id") < 0 || get_u64(&o, &off, "CPU offset") < 0 ||
		    get_u64(&o, &sz, "CPU size") < 0)
			goto fail;
		total += sz;
		if (check_data(d, cpu, off, sz) < 0)
			goto fail;
		if (d->flags & (D_FLYRECORD | D_OPTIONS))
			printf("   %u %llu\t%llu\t[id, data offset and size]\n", cpu,
			       (unsigned long long)off, (unsigned long long)sz);
	}
	if (d->flags & D_SUMMARY)
		printf("\t[buffer \"%s\", \"%s\" clock, %u page size, %u cpus, %llu bytes flyrecord data]\n",
		       name, clock, page, count, (unsigned long long)total);
	free(name);
	free(clock);
	return 0;
fail:
	free(name);
	free(clock);
	return -1;
}

/* BUFFER_TEXT: a latency tracer's text, named like a buffer. */
static int print_v7_latency(struct dump *d, const char *data, uint32_t size)
{
	struct src o = { .fd = -1, .buf = data, .size = size, .file = d->f.file,
			 .swap = d->f.swap };
	char *name = NULL, *clock = NULL;
	struct section sec;
	uint64_t sect;
	int ret = -1;

	if (get_u64(&o, &sect, "buffer offset") < 0 || !(name = get_str(&o, "buffer name")) ||
	    !(clock = get_str(&o, "buffer clock")))
		goto out;
	if (d->flags & D_FLYRECORD) {
		if (read_section(d, sect, &sec) < 0)
			goto out;
		print_section(d, &sec);
	}
	if (d->flags & (D_FLYRECORD | D_OPTIONS))
		printf("\t\t[Option BUFFER, %u bytes]\n%llu [offset]\n\"%s\" [name]\n"
		       "\"%s\" [clock]\n", size, (unsigned long long)sect, name, clock);
	if (d->flags & D_SUMMARY)
		printf("\t[buffer \"%s\", \"%s\" clock, latency data]\n", name, clock);
	ret = 0;
out:
	free(name);
	free(clock);
	return ret;
}

/* The options chain; section pointers are collected into @ptrs (file order). */
static int walk_options(struct dump *d, uint64_t at, uint64_t *ptrs, int *nr_ptrs)
{
	int guard = 0;

	while (at && guard++ < 4096) {
		struct section sec;
		struct src body;
		char *mem;
		uint64_t next = 0;

		if (read_section(d, at, &sec) < 0 || section_body(d, &sec, &body, &mem) < 0)
			return -1;
		if (sec.id != 0) {
			free(mem);
			return error("'%s': offset %llu is not an options section", d->f.file,
				     (unsigned long long)at);
		}
		if (d->flags & D_OPTIONS)
			print_section(d, &sec);
		for (;;) {
			uint16_t id;
			uint32_t size;
			char *data;

			if (get_u16(&body, &id, "option id") < 0 ||
			    get_u32(&body, &size, "option size") < 0 ||
			    !(data = get_text(&body, size, "option"))) {
				free(mem);
				return -1;
			}
			d->nr_options++;
			if (id == 0) {
				if (size >= 8)
					next = opt_u64(d, data);
				if (d->flags & D_OPTIONS)
					printf("\t\t[Option DONE, %u bytes]\n%llu\n%s", size,
					       (unsigned long long)next, next ? "\n\n" : "");
				free(data);
				break;
			}
			print_option(d, id, data, size);
			if (id >= 16 && id <= 21 && size >= 8 && (d->flags & D_OPTIONS)) {
				printf("\t\t[Option %s, %u bytes] @ %llu\n", option_names[id], size,
				       (unsigned long long)opt_u64(d, data));
			}
			if (id >= 16 && id <= 21 && size >= 8 && *nr_ptrs < 64)
				ptrs[(*nr_ptrs)++] = opt_u64(d, data);
			else if (id == 3 && print_v7_buffer(d, data, size) < 0) {
				free(data);
				free(mem);
				return -1;
			} else if (id == 4) {
				print_clock_option(d, data, size);
			} else if (id == 22 && print_v7_latency(d, data, size) < 0) {
				free(data);
				free(mem);
				return -1;
			}
			free(data);
		}
		free(mem);
		at = next;
	}
	return 0;
}

static int dump_v7_section(struct dump *d, uint64_t at)
{
	static const unsigned int wants[] = {
		[16] = D_HEAD_PAGE | D_HEAD_EVENT, [17] = D_FTRACE, [18] = D_SYSTEMS | D_EVENTS,
		[19] = D_KALLSYMS, [20] = D_PRINTK, [21] = D_CMDLINES,
	};
	struct section sec;
	struct src body;
	char *mem;
	int ret;

	if (read_section(d, at, &sec) < 0)
		return -1;
	if (sec.id < 16 || sec.id > 21)
		return error("'%s': offset %llu is not a metadata section", d->f.file,
			     (unsigned long long)at);
	if (section_body(d, &sec, &body, &mem) < 0)
		return -1;
	if (d->flags & wants[sec.id])
		print_section(d, &sec);
	switch (sec.id) {
	case 16: ret = do_headers(d, &body); break;
	case 17: ret = do_ftrace(d, &body); break;
	case 18: ret = do_events(d, &body); break;
	case 19: ret = do_sized(d, &body, 0, "Kallsyms", D_KALLSYMS); break;
	case 20: ret = do_sized(d, &body, 0, "Trace printk", D_PRINTK); break;
	default: ret = do_sized(d, &body, 1, "Saved command lines", D_CMDLINES); break;
	}
	free(mem);
	return ret;
}

static int dump_v7(struct dump *d)
{
	struct src *s = &d->f;
	uint64_t first, ptrs[64], sections_at;
	int nr_ptrs = 0, nr_sections;
	char *ver;

	d->comp = get_str(s, "compression name");
	ver = d->comp ? get_str(s, "compression version") : NULL;
	if (!ver || get_u64(s, &first, "options offset") < 0)
		return -1;
	if (d->flags & D_SUMMARY)
		printf("\t\t%s\t[Compression algorithm]\n\t\t%s\t[Compression version]\n",
		       d->comp, ver);
	free(ver);
	if (strcmp(d->comp, "none") && strcmp(d->comp, "zlib") && strcmp(d->comp, "zstd"))
		return error("'%s': unknown compression '%s'", s->file, d->comp);
	sections_at = s->pos;
	if (load_strings(d, s->pos, &nr_sections) < 0)
		return -1;
	if ((d->flags & D_SECTIONS) && print_sections(d, sections_at) < 0)
		return -1;
	if (walk_options(d, first, ptrs, &nr_ptrs) < 0)
		return -1;
	if (d->flags & (D_SUMMARY | D_OPTIONS))
		printf("\t[%d options]\n", d->nr_options);
	/* Upstream shows the sections newest option first. */
	for (int i = nr_ptrs - 1; i >= 0; i--)
		if (dump_v7_section(d, ptrs[i]) < 0)
			return -1;
	if (d->flags & D_SUMMARY)
		printf("\t[%d sections]\n", nr_sections);
	return 0;
}

static int dump_file(struct dump *d)
{
	unsigned char pre[18];
	struct src *s = &d->f;
	uint32_t page;
	struct stat st;
	int ret;

	s->fd = open_regular(s->file);
	if (s->fd < 0)
		return -1;
	if (fstat(s->fd, &st) < 0) {
		error("cannot open '%s': %s", s->file, strerror(errno));
		goto fail;
	}
	s->size = st.st_size;
	if (get(s, pre, 18, "the file header") < 0)
		goto fail;
	if (memcmp(pre, "\027\010\104tracing", 10) || pre[11] != '\0' || pre[10] < '1' ||
	    pre[10] > '7') {
		error("'%s' is not a trace.dat file of version 1 to 7", s->file);
		goto fail;
	}
	s->swap = pre[12] != !*(char *)&(int){ 1 };
	memcpy(&page, pre + 14, 4);
	if (s->swap)
		page = __builtin_bswap32(page);
	if (d->flags & D_SUMMARY)
		printf("\n Tracing meta data in file %s:\n\t[Initial format]\n\t\t%c\t[Version]\n"
		       "\t\t%d\t[%s endian]\n\t\t%d\t[Bytes in a long]\n\t\t%u\t[Page size, bytes]\n",
		       s->file, pre[10], pre[12], pre[12] ? "Big" : "Little", pre[13], page);
	ret = pre[10] == '7' ? dump_v7(d) : dump_v6(d);
	if (ret == 0 && (d->flags & D_VALIDATE))
		printf("File %s is a valid trace-cmd file\n", s->file);
	close(s->fd);
	return ret;
fail:
	close(s->fd);
	return -1;
}

/* --verbose takes upstream's log levels; dump has no log messages to show. */
static int parse_verbose(const char *arg)
{
	static const char *const names[] = { "none", "crit", "err", "warn", "info", "debug", "all" };

	if (arg[0] >= '0' && arg[0] <= '6' && !arg[1])
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(arg, names[i]))
			return 0;
	return -1;
}

static int run_dump(int argc, char **argv)
{
	struct dump d = { .f = { .fd = -1, .file = "trace.dat" } };
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:v", dump_options, NULL)) != -1) {
		if (c == 'h')
			return show_usage(&cmd_dump);
		if (c == 'i')
			d.f.file = optarg;
		else if (c == 'v')
			d.flags |= D_VALIDATE;
		else if (c >= 256 && c <= 256 + 11)
			d.flags |= 1U << (c - 256);
		else if (c == OPT_ALL)
			d.flags |= D_ALL;
		else if (c == OPT_VERBOSE) {
			if (optarg && parse_verbose(optarg) < 0)
				return usage_error(&cmd_dump, "invalid --verbose level '%s': use 0 to 6 or none, crit, err, warn, info, debug, all",
						   optarg);
		}
		else if (c == ':')
			return usage_error(&cmd_dump, "option '%s' needs a value", argv[optind - 1]);
		else
			return usage_error(&cmd_dump, "unknown option '%s'", argv[optind - 1]);
	}
	if (optind < argc)
		return usage_error(&cmd_dump, "unexpected argument '%s'", argv[optind]);
	if (!d.flags)
		d.flags = D_SUMMARY;
	ret = dump_file(&d);
	free(d.strings);
	free((char *)d.comp);
	fflush(stdout);
	return ret < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_dump = {
	.name = "dump",
	.run = run_dump,
	.usage = dump_usage,
	.summary = "print the metadata of a trace.dat file",
};
