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
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-compress.h"
#include "trace-cursor.h"
#include "trace-dat.h"
#include "trace-outfile.h"

extern const struct command cmd_dump;

static const char dump_usage[] =
	"usage: trace-cmd dump [-i FILE] [-v] [--summary] [--head-page] [--head-event]\n"
	"                      [--ftrace-events] [--systems] [--events] [--kallsyms]\n"
	"                      [--printk] [--cmd-lines] [--options] [--flyrecord] [--clock]\n"
	"                      [--strings] [--sections] [--modules] [--all] [--verbose[=LEVEL]]\n"
	"  -i FILE            read FILE instead of trace.dat\n"
	"  -v, --validate     only check that the file is valid\n"
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
	"  --strings          version 7: the strings table, each with its offset\n"
	"  --sections         version 7: every section, in file order\n"
	"  --modules          version 7: the /proc/modules saved by record\n"
	"  --all              every part above\n"
	"  --verbose[=LEVEL]  accepted as upstream's (dump prints no log messages)\n"
	"  -h                 show this help\n";

enum {
	D_SUMMARY = 1 << 0, D_HEAD_PAGE = 1 << 1, D_HEAD_EVENT = 1 << 2, D_FTRACE = 1 << 3,
	D_SYSTEMS = 1 << 4, D_EVENTS = 1 << 5, D_KALLSYMS = 1 << 6, D_PRINTK = 1 << 7,
	D_CMDLINES = 1 << 8, D_FLYRECORD = 1 << 9, D_CLOCK = 1 << 10, D_OPTIONS = 1 << 11,
	D_VALIDATE = 1 << 12, D_STRINGS = 1 << 13, D_SECTIONS = 1 << 14, D_MODULES = 1 << 15,
	D_ALL = ((1 << 12) - 1) | D_STRINGS | D_SECTIONS | D_MODULES,
};

/* Each option's value is 256 + its flag's bit. */
enum { OPT_ALL = 256 + 16, OPT_VERBOSE };

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
	{ "validate",	   no_argument, NULL, 256 + 12 },
	{ "strings",	   no_argument, NULL, 256 + 13 },
	{ "sections",	   no_argument, NULL, 256 + 14 },
	{ "modules",	   no_argument, NULL, 256 + 15 },
	{ "all",	   no_argument, NULL, OPT_ALL },
	{ "verbose",	   optional_argument, NULL, OPT_VERBOSE },
	{ "help",	   no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* Names are read up to this long, as upstream's dump does. */
#define MAX_NAME	4096

struct dump {
	unsigned int flags;
	struct cursor f;	/* the whole file, mapped */
	char *strings;
	size_t strings_len;
	const char *comp;
	int nr_options;
};

/* dump's own words for every short read, its offset relative to the cursor's data. */
static int bad_at(const struct cursor *c, uint64_t off, const char *what)
{
	return error("'%s': truncated or damaged at offset %llu reading %s", c->name,
		     (unsigned long long)off, what);
}

static int truncated(const struct cursor *c, uint64_t need, const char *what)
{
	(void)need;
	return bad_at(c, cur_offset(c), what);
}

/* A cursor over a section body or an option payload: offsets from its start. */
static void sub_cursor(struct cursor *sub, const struct cursor *c, const void *data,
		       uint64_t size)
{
	cur_init(sub, data, size, 0, c->big_endian, c->name);
	sub->on_truncated = truncated;
}

/* A u64 in an option payload, in the file's byte order. */
static uint64_t opt_u64(const struct dump *d, const char *p)
{
	return cur_decode(&d->f, p, 8);
}

/* A NUL-terminated string of at most MAX_NAME bytes, in place. */
static const char *get_str(struct cursor *c, const char *what)
{
	size_t max = cur_left(c) < MAX_NAME ? cur_left(c) : MAX_NAME;
	const char *p = (const char *)c->data + c->pos;
	const char *nul = memchr(p, 0, max);

	if (!nul) {
		bad_at(c, cur_offset(c) + max, what);
		return NULL;
	}
	c->pos += nul - p + 1;
	return p;
}

/* The next @len bytes, in place. */
static const char *get_text(struct cursor *c, uint64_t len, const char *what)
{
	const void *p;

	return cur_bytes(c, len, &p, what) < 0 ? NULL : p;
}

static void print_text(const char *head, uint64_t len, const char *text)
{
	printf("\t[%s, %llu bytes]\n", head, (unsigned long long)len);
	fwrite(text, 1, len, stdout);
	putchar('\n');
}

/* header_page and header_event. */
static int do_headers(struct dump *d, struct cursor *s)
{
	for (int i = 0; i < 2; i++) {
		uint64_t len;
		const char *text;

		if (!get_str(s, "header name") || cur_u64(s, &len, "header size") < 0 ||
		    !(text = get_text(s, len, "header text")))
			return -1;
		if (d->flags & (i ? D_HEAD_EVENT : D_HEAD_PAGE))
			print_text(i ? "Header event" : "Header page", len, text);
		else if (d->flags & D_SUMMARY)
			printf("\t[%s, %llu bytes]\n", i ? "Header event" : "Header page",
			       (unsigned long long)len);
	}
	return 0;
}

static int do_formats(struct dump *d, struct cursor *s, int count, unsigned int flag)
{
	for (int i = 0; i < count; i++) {
		uint64_t len;
		const char *text;

		if (cur_u64(s, &len, "format size") < 0 || !(text = get_text(s, len, "format")))
			return -1;
		if (d->flags & flag) {
			fwrite(text, 1, len, stdout);
			putchar('\n');
		}
	}
	return 0;
}

static int do_ftrace(struct dump *d, struct cursor *s)
{
	uint32_t count;

	if (cur_u32(s, &count, "ftrace format count") < 0)
		return -1;
	if (d->flags & (D_FTRACE | D_SUMMARY))
		printf("\t[Ftrace format, %u events]\n", count);
	return do_formats(d, s, count, D_FTRACE);
}

static int do_events(struct dump *d, struct cursor *s)
{
	uint32_t nsys, count;

	if (cur_u32(s, &nsys, "system count") < 0)
		return -1;
	if (d->flags & (D_SYSTEMS | D_EVENTS | D_SUMMARY))
		printf("\t[Events format, %u systems]\n", nsys);
	for (uint32_t i = 0; i < nsys; i++) {
		const char *name = get_str(s, "system name");

		if (!name || cur_u32(s, &count, "event count") < 0)
			return -1;
		if (d->flags & D_SYSTEMS)
			printf("\t\t%s %u [system, events]\n", name, count);
		if (do_formats(d, s, count, D_EVENTS) < 0)
			return -1;
	}
	return 0;
}

/* kallsyms (u32), printk (u32) or cmdlines (u64 size). */
static int do_sized(struct dump *d, struct cursor *s, int size64, const char *head,
		    unsigned int flag)
{
	uint64_t len = 0;
	uint32_t l32;
	const char *text;

	if (size64 ? cur_u64(s, &len, head) < 0 : cur_u32(s, &l32, head) < 0)
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
	return 0;
}

/*
 * The saved /proc/modules: its text, as it is, under --modules and in the
 * summary (upstream 3.4 prints it in both; of an uncompressed section it
 * prints blanks before the text, its bug).
 */
static void do_modules(struct dump *d, struct cursor *s)
{
	if (!(d->flags & (D_MODULES | D_SUMMARY)))
		return;
	printf("\t[Saved modules]\n");
	fwrite(s->data, 1, s->size, stdout);
	printf("\n[%llu bytes]\n", (unsigned long long)s->size);
}

/* CPU data must lie inside the file (upstream fails such files too). */
static int check_data(struct dump *d, uint32_t cpu, uint64_t off, uint64_t size)
{
	if (off <= d->f.size && size <= d->f.size - off)
		return 0;
	return error("'%s': CPU %u data at offset %llu (%llu bytes) is past the end of the file (%llu bytes)",
		     d->f.name, cpu, (unsigned long long)off, (unsigned long long)size,
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
	[TRACE_OPT_TIME_SHIFT] = "TimeShift", [TRACE_OPT_GUEST] = "GUEST",
	[TRACE_OPT_TSC2NSEC] = "TSC2NSEC", [TRACE_OPT_STRINGS] = "STRINGS",
	[TRACE_OPT_HEADER_INFO] = "HEADERS", [TRACE_OPT_FTRACE_EVENTS] = "FTRACE EVENTS",
	[TRACE_OPT_EVENT_FORMATS] = "EVENT FORMATS", [TRACE_OPT_KALLSYMS] = "KALLSYMS",
	[TRACE_OPT_PRINTK] = "PRINTK", [TRACE_OPT_CMDLINES] = "CMDLINES",
	[TRACE_OPT_BUFFER_TEXT] = "BUFFER_TEXT", [TRACE_OPT_MODULES] = "MODULES_FILE",
};

static void print_option_head(uint16_t id, uint32_t size)
{
	if (id < ARRAY_SIZE(option_names) && option_names[id])
		printf("\t\t[Option %s, %u bytes]\n", option_names[id], size);
	else
		printf("\t\t[Option %u, %u bytes]\n", id, size);
}

/* TSC2NSEC: the kernel's counter-to-ns conversion. */
static int print_tsc2nsec(struct dump *d, const char *data, uint32_t size)
{
	uint32_t mult, shift;
	uint64_t offset;
	struct cursor c;

	sub_cursor(&c, &d->f, data, size);
	if (cur_u32(&c, &mult, "tsc2nsec multiplier") < 0 ||
	    cur_u32(&c, &shift, "tsc2nsec shift") < 0 ||
	    cur_u64(&c, &offset, "tsc2nsec offset") < 0)
		return -1;
	printf("%d %d %llu [multiplier, shift, offset]\n", (int)mult, (int)shift,
	       (unsigned long long)offset);
	return 0;
}

/* GUEST: a guest's name, trace id and which host task runs each vCPU. */
static int print_guest(struct dump *d, const char *data, uint32_t size)
{
	const char *name;
	uint32_t cpus;
	uint64_t id;
	struct cursor c;

	sub_cursor(&c, &d->f, data, size);
	if (!(name = get_str(&c, "guest name")) ||
	    cur_u64(&c, &id, "guest trace id") < 0 || cur_u32(&c, &cpus, "guest CPU count") < 0)
		return -1;
	printf("%s [Guest name]\n0x%llX [trace id]\n%d [Guest CPUs]\n", name,
	       (unsigned long long)id, (int)cpus);
	for (uint32_t i = 0; i < cpus; i++) {
		uint32_t cpu, pid;

		if (cur_u32(&c, &cpu, "guest CPU") < 0 || cur_u32(&c, &pid, "guest CPU's host pid") < 0)
			return -1;
		printf("  %d %d [guest cpu, host pid]\n", (int)cpu, (int)pid);
	}
	return 0;
}

/* TIME_SHIFT's samples of each CPU, with their fraction bits when the file has them. */
static void print_shift_samples(struct dump *d, const struct cursor *c, const uint32_t *nr,
				const size_t *at, uint32_t cpus, size_t frac_at, int fractions)
{
	const unsigned char *p = c->data;

	for (uint32_t i = 0; i < cpus; i++) {
		for (uint32_t j = 0; j < nr[i]; j++) {
			const unsigned char *s = p + at[i] + 8 * (size_t)j;
			uint64_t frac = fractions ? cur_decode(&d->f, p + frac_at + 8 * (size_t)j, 8) : 0;

			printf("\t%lld %lld %u %lld[offset * scaling >> fraction @ time]\n",
			       (long long)cur_decode(&d->f, s + 8 * (size_t)nr[i], 8),
			       (long long)cur_decode(&d->f, s + 16 * (size_t)nr[i], 8),
			       (unsigned int)frac, (long long)cur_decode(&d->f, s, 8));
		}
		frac_at += 8 * (size_t)nr[i];
	}
}

/* TIME_SHIFT: the peer, then every CPU's sample count, then the samples. */
static int print_time_shift(struct dump *d, const char *data, uint32_t size)
{
	uint32_t flags, cpus, *nr = NULL;
	uint64_t peer, total = 0;
	size_t *at = NULL;
	struct cursor c;
	int ret = -1;

	sub_cursor(&c, &d->f, data, size);
	if (cur_u64(&c, &peer, "time shift peer trace id") < 0 ||
	    cur_u32(&c, &flags, "time shift flags") < 0 ||
	    cur_u32(&c, &cpus, "time shift CPU count") < 0 ||
	    cur_need(&c, (uint64_t)cpus * 4, "time shift sample counts") < 0)
		return -1;
	nr = xcalloc(cpus ? cpus : 1, sizeof(*nr));
	at = xcalloc(cpus ? cpus : 1, sizeof(*at));
	for (uint32_t i = 0; i < cpus; i++) {
		if (cur_u32(&c, &nr[i], "time shift sample count") < 0)
			goto out;
		at[i] = c.pos;
		total += nr[i];
		if (cur_skip(&c, (uint64_t)nr[i] * 24, "time shift samples") < 0)
			goto out;
	}
	printf("0x%llX [peer's trace id]\n0x%X [peer's protocol flags]\n0x%X [peer's CPU count]\n",
	       (unsigned long long)peer, flags, cpus);
	for (uint32_t i = 0; i < cpus; i++)
		printf("%u [samples count for CPU %u]\n", nr[i], i);
	print_shift_samples(d, &c, nr, at, cpus, c.pos, cur_left(&c) >= total * 8);
	ret = 0;
out:
	free(nr);
	free(at);
	return ret;
}

/*
 * --options: each option as upstream's dump shows it; BUFFER, BUFFER_TEXT
 * and the section pointers are printed by their own code.
 */
static int print_option(struct dump *d, uint16_t id, const char *data, uint32_t size)
{
	if (!(d->flags & D_OPTIONS) || id == TRACE_OPT_BUFFER || id == TRACE_OPT_BUFFER_TEXT ||
	    (id >= TRACE_OPT_HEADER_INFO && id <= TRACE_OPT_CMDLINES) || id == TRACE_OPT_MODULES)
		return 0;
	if (id >= ARRAY_SIZE(option_names) || !option_names[id]) {
		printf(" %u %u\t[Unknown option, size - skipping]\n", id, size);
		return 0;
	}
	if (id == TRACE_OPT_TSC2NSEC)
		putchar('\n');		/* upstream's dump sets it apart */
	print_option_head(id, size);
	switch (id) {
	case TRACE_OPT_TSC2NSEC:
		return print_tsc2nsec(d, data, size);
	case TRACE_OPT_GUEST:
		return print_guest(d, data, size);
	case TRACE_OPT_TIME_SHIFT:
		return print_time_shift(d, data, size);
	case TRACE_OPT_TRACEID:
		if (size >= 8)
			printf("0x%llX\n", (unsigned long long)opt_u64(d, data));
		break;
	case TRACE_OPT_CPUCOUNT:
		if (size >= 4)
			printf("%u\n", (uint32_t)cur_decode(&d->f, data, 4));
		break;
	case TRACE_OPT_DATE: case TRACE_OPT_CPUSTAT: case TRACE_OPT_TRACECLOCK:
	case TRACE_OPT_UNAME: case TRACE_OPT_HOOK: case TRACE_OPT_OFFSET:
	case TRACE_OPT_VERSION: case TRACE_OPT_PROCMAPS:
		printf("%.*s\n", (int)strnlen(data, size), data);
		break;
	default:
		break;
	}
	return 0;
}

static void print_clock_option(struct dump *d, const char *data, uint32_t size)
{
	if ((d->flags & D_CLOCK) && !(d->flags & D_OPTIONS))
		printf("%.*s\n", (int)strnlen(data, size), data);
}

/* v6: the options block, up to its bare id 0. */
static int do_v6_options(struct dump *d, struct cursor *s)
{
	for (;;) {
		const char *data;
		uint32_t size;
		uint16_t id;

		if (cur_u16(s, &id, "option id") < 0)
			return -1;
		if (id == TRACE_OPT_DONE)
			break;
		if (cur_u32(s, &size, "option size") < 0 || !(data = get_text(s, size, "option")))
			return -1;
		d->nr_options++;
		if (print_option(d, id, data, size) < 0)
			return -1;
		if (id == TRACE_OPT_BUFFER)
			print_v6_buffer(d, data, size);
		else if (id == TRACE_OPT_TRACECLOCK)
			print_clock_option(d, data, size);
	}
	if (d->flags & (D_SUMMARY | D_OPTIONS))
		printf("\t[%d options]\n", d->nr_options);
	return 0;
}

/* v6: the CPU count, the options block, then the flyrecord table and clock trailer. */
static int do_v6_tail(struct dump *d, struct cursor *s)
{
	int bad_data = 0;
	const char *tag;
	uint32_t cpus;

	if (cur_u32(s, &cpus, "CPU count") < 0)
		return -1;
	if (d->flags & D_SUMMARY)
		printf("\t%u [CPUs with tracing data]\n", cpus);
	if (!(tag = get_text(s, 10, "section tag")))
		return -1;
	if (!memcmp(tag, "options  ", 10)) {
		if (do_v6_options(d, s) < 0 || !(tag = get_text(s, 10, "section tag")))
			return -1;
	}
	if (!memcmp(tag, "latency  ", 10)) {
		if (d->flags & D_SUMMARY)
			printf("\t[Latency tracing data]\n");
		return 0;
	}
	if (memcmp(tag, "flyrecord", 10))
		return bad_at(s, cur_offset(s), "the flyrecord tag");
	if (d->flags & (D_SUMMARY | D_FLYRECORD))
		printf("\t[Flyrecord tracing data]\n");
	for (uint32_t cpu = 0; cpu < cpus; cpu++) {
		uint64_t off, sz;

		if (cur_u64(s, &off, "CPU offset") < 0 || cur_u64(s, &sz, "CPU size") < 0)
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
		const char *text = NULL;

		if (cur_left(s) >= 8 && cur_u64(s, &len, "clock size") == 0 && len && len < 4096)
			text = get_text(s, len, "clock");
		if (text && *text)
			printf("\t[Tracing clock]\n\t\t%.*s\n", (int)strnlen(text, len), text);
		else
			printf("\t[Tracing clock]\n\t\t No tracing clock saved in the file\n");
	}
	return bad_data ? -1 : 0;
}

static int dump_v6(struct dump *d)
{
	struct cursor *s = &d->f;

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
	struct cursor *s = &d->f;

	if (at > s->size)
		return bad_at(s, at, "section id");
	s->pos = at;
	sec->at = at;
	if (cur_u16(s, &sec->id, "section id") < 0 || cur_u16(s, &sec->flags, "section flags") < 0 ||
	    cur_u32(s, &sec->desc, "section description") < 0 ||
	    cur_u64(s, &sec->size, "section size") < 0)
		return -1;
	if (sec->size > cur_left(s))
		return bad_at(s, cur_offset(s), "a section body");
	return 0;
}

/* A section's body, decompressed if flagged (into *mem, else NULL: in place). */
static int section_body(struct dump *d, struct section *sec, struct cursor *body, char **mem)
{
	struct cursor *s = &d->f;
	uint32_t cs, us;
	const char *why, *z;

	s->pos = sec->at + 16;
	*mem = NULL;
	if (!(sec->flags & 1) || !strcmp(d->comp, "none")) {
		z = get_text(s, sec->size, "a section body");
		if (!z)
			return -1;
		sub_cursor(body, s, z, sec->size);
		return 0;
	}
	if (cur_u32(s, &cs, "compressed size") < 0 || cur_u32(s, &us, "uncompressed size") < 0)
		return -1;
	if (cs > sec->size - 8 || us > (1U << 30))
		return bad_at(s, cur_offset(s), "compressed section sizes");
	z = get_text(s, cs, "a compressed section");
	if (!z)
		return -1;
	*mem = xmalloc(us + 1);
	why = inflate_once(d->comp, z, cs, *mem, us);
	if (why) {
		free(*mem);
		*mem = NULL;
		return error("'%s': section at offset %llu does not decompress with %s (%s)",
			     s->name, (unsigned long long)sec->at, d->comp, why);
	}
	sub_cursor(body, s, *mem, us);
	return 0;
}

/* Every STRINGS section, concatenated in file order. */
static int load_strings(struct dump *d, uint64_t start, int *nr_sections)
{
	uint64_t at = start;

	*nr_sections = 0;
	while (at < d->f.size) {
		struct section sec;
		struct cursor body;
		char *mem;

		if (read_section(d, at, &sec) < 0)
			return -1;
		(*nr_sections)++;
		if (sec.id == TRACE_OPT_STRINGS) {
			if (section_body(d, &sec, &body, &mem) < 0)
				return -1;
			d->strings = xrealloc(d->strings, d->strings_len + body.size + 1);
			memcpy(d->strings + d->strings_len, body.data, body.size);
			d->strings_len += body.size;
			d->strings[d->strings_len] = '\0';
			free(mem);
		}
		at = sec.at + 16 + sec.size;
	}
	return 0;
}

/* --strings, version 7: the strings table, each string at its offset. */
static void print_strings(const struct dump *d)
{
	printf("\t[String @ offset]\n");
	for (size_t i = 0; i < d->strings_len; i += strlen(d->strings + i) + 1)
		printf("\t\t\"%s\" @ %zu\n", d->strings + i, i);
}

/* --sections, version 7: every section in file order. */
static int print_sections(struct dump *d, uint64_t start)
{
	uint64_t at = start;

	while (at < d->f.size) {
		struct section sec;
		uint32_t sizes[2];

		if (read_section(d, at, &sec) < 0)
			return -1;
		printf("\t[Section %2u @ %-16llu\t\"%s\", flags 0x%x, ", sec.id,
		       (unsigned long long)sec.at, desc_of(d, sec.desc), sec.flags);
		if ((sec.flags & 1) && sec.id != TRACE_OPT_BUFFER && sec.id != TRACE_OPT_BUFFER_TEXT) {
			if (cur_u32(&d->f, &sizes[0], "compressed size") < 0 ||
			    cur_u32(&d->f, &sizes[1], "uncompressed size") < 0)
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

/*
 * What BUFFER and BUFFER_TEXT options begin with: the section's offset, the
 * buffer's name and clock, read into @o; the section itself shown with
 * --flyrecord.
 */
static int buffer_head(struct dump *d, struct cursor *o, const char *data, uint32_t size,
		       uint64_t *sect, const char **name, const char **clock)
{
	struct section sec;

	sub_cursor(o, &d->f, data, size);
	if (cur_u64(o, sect, "buffer offset") < 0 || !(*name = get_str(o, "buffer name")) ||
	    !(*clock = get_str(o, "buffer clock")))
		return -1;
	if (d->flags & D_FLYRECORD) {
		if (read_section(d, *sect, &sec) < 0)
			return -1;
		print_section(d, &sec);
	}
	return 0;
}

static int print_v7_buffer(struct dump *d, const char *data, uint32_t size)
{
	uint64_t sect, total = 0, off, sz;
	uint32_t page, count, cpu;
	const char *name, *clock;
	struct cursor o;

	if (buffer_head(d, &o, data, size, &sect, &name, &clock) < 0 ||
	    cur_u32(&o, &page, "page size") < 0 || cur_u32(&o, &count, "CPU count") < 0)
		return -1;
	if (d->flags & (D_FLYRECORD | D_OPTIONS))
		printf("\t\t[Option BUFFER, %u bytes]\n%llu [offset]\n\"%s\" [name]\n"
		       "\"%s\" [clock]\n%u [Page size, bytes]\n%u [CPUs]:\n", size,
		       (unsigned long long)sect, name, clock, page, count);
	for (uint32_t i = 0; i < count; i++) {
		if (cur_u32(&o, &cpu, "CPU id") < 0 || cur_u64(&o, &off, "CPU offset") < 0 ||
		    cur_u64(&o, &sz, "CPU size") < 0)
			return -1;
		total += sz;
		if (check_data(d, cpu, off, sz) < 0)
			return -1;
		if (d->flags & (D_FLYRECORD | D_OPTIONS))
			printf("   %u %llu\t%llu\t[id, data offset and size]\n", cpu,
			       (unsigned long long)off, (unsigned long long)sz);
	}
	if (d->flags & D_SUMMARY)
		printf("\t[buffer \"%s\", \"%s\" clock, %u page size, %u cpus, %llu bytes flyrecord data]\n",
		       name, clock, page, count, (unsigned long long)total);
	return 0;
}

/* BUFFER_TEXT: a latency tracer's text, named like a buffer. */
static int print_v7_latency(struct dump *d, const char *data, uint32_t size)
{
	const char *name, *clock;
	struct cursor o;
	uint64_t sect;

	if (buffer_head(d, &o, data, size, &sect, &name, &clock) < 0)
		return -1;
	if (d->flags & (D_FLYRECORD | D_OPTIONS))
		printf("\t\t[Option BUFFER, %u bytes]\n%llu [offset]\n\"%s\" [name]\n"
		       "\"%s\" [clock]\n", size, (unsigned long long)sect, name, clock);
	if (d->flags & D_SUMMARY)
		printf("\t[buffer \"%s\", \"%s\" clock, latency data]\n", name, clock);
	return 0;
}

/* One option of an options section; a section pointer goes into @ptrs. */
static int v7_option(struct dump *d, uint16_t id, const char *data, uint32_t size,
		     uint64_t *ptrs, int *nr_ptrs)
{
	int pointer = ((id >= TRACE_OPT_HEADER_INFO && id <= TRACE_OPT_CMDLINES) ||
		       id == TRACE_OPT_MODULES) && size >= 8;

	if (print_option(d, id, data, size) < 0)
		return -1;
	if (pointer && (d->flags & D_OPTIONS))
		printf("\t\t[Option %s, %u bytes] @ %llu\n", option_names[id], size,
		       (unsigned long long)opt_u64(d, data));
	if (pointer && *nr_ptrs < 64)
		ptrs[(*nr_ptrs)++] = opt_u64(d, data);
	else if (id == TRACE_OPT_BUFFER)
		return print_v7_buffer(d, data, size);
	else if (id == TRACE_OPT_TRACECLOCK)
		print_clock_option(d, data, size);
	else if (id == TRACE_OPT_BUFFER_TEXT)
		return print_v7_latency(d, data, size);
	return 0;
}

/* An options section's options; *next: the section DONE points at, 0 for none. */
static int v7_options(struct dump *d, struct cursor *body, uint64_t *next, uint64_t *ptrs,
		      int *nr_ptrs)
{
	for (;;) {
		const char *data;
		uint32_t size;
		uint16_t id;

		if (cur_u16(body, &id, "option id") < 0 || cur_u32(body, &size, "option size") < 0 ||
		    !(data = get_text(body, size, "option")))
			return -1;
		d->nr_options++;
		if (id == TRACE_OPT_DONE) {
			if (size >= 8)
				*next = opt_u64(d, data);
			if (d->flags & D_OPTIONS)
				printf("\t\t[Option DONE, %u bytes]\n%llu\n%s", size,
				       (unsigned long long)*next, *next ? "\n\n" : "");
			return 0;
		}
		if (v7_option(d, id, data, size, ptrs, nr_ptrs) < 0)
			return -1;
	}
}

/* The options chain; section pointers are collected into @ptrs (file order). */
static int walk_options(struct dump *d, uint64_t at, uint64_t *ptrs, int *nr_ptrs)
{
	int guard = 0;

	while (at && guard++ < 4096) {
		struct section sec;
		struct cursor body;
		uint64_t next = 0;
		char *mem;
		int ret;

		if (read_section(d, at, &sec) < 0 || section_body(d, &sec, &body, &mem) < 0)
			return -1;
		if (sec.id != TRACE_SECT_OPTIONS) {
			free(mem);
			return error("'%s': offset %llu is not an options section", d->f.name,
				     (unsigned long long)at);
		}
		if (d->flags & D_OPTIONS)
			print_section(d, &sec);
		ret = v7_options(d, &body, &next, ptrs, nr_ptrs);
		free(mem);
		if (ret < 0)
			return -1;
		at = next;
	}
	return 0;
}

static int dump_v7_section(struct dump *d, uint64_t at)
{
	static const unsigned int wants[] = {
		[TRACE_OPT_HEADER_INFO] = D_HEAD_PAGE | D_HEAD_EVENT,
		[TRACE_OPT_FTRACE_EVENTS] = D_FTRACE, [TRACE_OPT_EVENT_FORMATS] = D_SYSTEMS | D_EVENTS,
		[TRACE_OPT_KALLSYMS] = D_KALLSYMS, [TRACE_OPT_PRINTK] = D_PRINTK,
		[TRACE_OPT_CMDLINES] = D_CMDLINES, [TRACE_OPT_MODULES] = D_MODULES,
	};
	struct section sec;
	struct cursor body;
	char *mem;
	int ret;

	if (read_section(d, at, &sec) < 0)
		return -1;
	if ((sec.id < TRACE_OPT_HEADER_INFO || sec.id > TRACE_OPT_CMDLINES) &&
	    sec.id != TRACE_OPT_MODULES)
		return error("'%s': offset %llu is not a metadata section", d->f.name,
			     (unsigned long long)at);
	if (section_body(d, &sec, &body, &mem) < 0)
		return -1;
	if (d->flags & wants[sec.id])
		print_section(d, &sec);
	switch (sec.id) {
	case TRACE_OPT_HEADER_INFO: ret = do_headers(d, &body); break;
	case TRACE_OPT_FTRACE_EVENTS: ret = do_ftrace(d, &body); break;
	case TRACE_OPT_EVENT_FORMATS: ret = do_events(d, &body); break;
	case TRACE_OPT_KALLSYMS: ret = do_sized(d, &body, 0, "Kallsyms", D_KALLSYMS); break;
	case TRACE_OPT_PRINTK: ret = do_sized(d, &body, 0, "Trace printk", D_PRINTK); break;
	case TRACE_OPT_MODULES: do_modules(d, &body); ret = 0; break;
	default: ret = do_sized(d, &body, 1, "Saved command lines", D_CMDLINES); break;
	}
	free(mem);
	return ret;
}

static int dump_v7(struct dump *d)
{
	struct cursor *s = &d->f;
	uint64_t first, ptrs[64], sections_at;
	int nr_ptrs = 0, nr_sections;
	const char *ver;

	d->comp = get_str(s, "compression name");
	ver = d->comp ? get_str(s, "compression version") : NULL;
	if (!ver || cur_u64(s, &first, "options offset") < 0)
		return -1;
	if (d->flags & D_SUMMARY)
		printf("\t\t%s\t[Compression algorithm]\n\t\t%s\t[Compression version]\n",
		       d->comp, ver);
	if (strcmp(d->comp, "none") && strcmp(d->comp, "zlib") && strcmp(d->comp, "zstd"))
		return error("'%s': unknown compression '%s'", s->name, d->comp);
	sections_at = cur_offset(s);
	if (load_strings(d, sections_at, &nr_sections) < 0)
		return -1;
	if (d->flags & D_STRINGS)
		print_strings(d);
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
	if (d->flags & (D_SUMMARY | D_SECTIONS))
		printf("\t[%d sections]\n", nr_sections);
	return 0;
}

/* The prefix: magic, version, endianness, long size and page size. */
static int dump_prefix(struct dump *d, char *version)
{
	const int host_big = !*(char *)&(int){ 1 };
	struct cursor *s = &d->f;
	const unsigned char *pre;
	uint32_t page;

	pre = (const unsigned char *)get_text(s, 18, "the file header");
	if (!pre)
		return -1;
	if (memcmp(pre, "\027\010\104tracing", 10) || pre[11] != '\0' || pre[10] < '1' ||
	    pre[10] > '7')
		return error("'%s' is not a trace.dat file of version 1 to 7", s->name);
	/* Swapped when the endian byte is not this machine's. */
	s->big_endian = pre[12] != host_big ? !host_big : host_big;
	page = cur_decode(s, pre + 14, 4);
	if (d->flags & D_SUMMARY)
		printf("\n Tracing meta data in file %s:\n\t[Initial format]\n\t\t%c\t[Version]\n"
		       "\t\t%d\t[%s endian]\n\t\t%d\t[Bytes in a long]\n\t\t%u\t[Page size, bytes]\n",
		       s->name, pre[10], pre[12], pre[12] ? "Big" : "Little", pre[13], page);
	*version = pre[10];
	return 0;
}

static int dump_file(struct dump *d, const char *file)
{
	void *map = NULL;
	struct stat st;
	char version = 0;
	int fd, ret;

	fd = open_regular(file);
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) < 0) {
		error("cannot open '%s': %s", file, strerror(errno));
		close(fd);
		return -1;
	}
	if (st.st_size)
		map = mmap(NULL, st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (map == MAP_FAILED) {
		error("cannot read '%s': %s", file, strerror(errno));
		close(fd);
		return -1;
	}
	close(fd);
	cur_init(&d->f, map ? map : "", st.st_size, 0, 0, file);
	d->f.on_truncated = truncated;
	ret = dump_prefix(d, &version);
	if (ret == 0)
		ret = version == '7' ? dump_v7(d) : dump_v6(d);
	if (ret == 0 && (d->flags & D_VALIDATE))
		printf("File %s is a valid trace-cmd file\n", file);
	if (map)
		munmap(map, st.st_size);
	return ret;
}

static int run_dump(int argc, char **argv)
{
	const char *file = "trace.dat";
	struct dump d = { 0 };
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:v", dump_options, NULL)) != -1) {
		if (c == 'h')
			return show_usage(&cmd_dump);
		if (c == 'i')
			file = optarg;
		else if (c == 'v')
			d.flags |= D_VALIDATE;
		else if (c >= 256 && c <= 256 + 15)
			d.flags |= 1U << (c - 256);
		else if (c == OPT_ALL)
			d.flags |= D_ALL;
		else if (c == OPT_VERBOSE) {
			if (set_log_level("--verbose", optarg) < 0)
				return usage_follows(&cmd_dump);
		}
		else
			return option_error(&cmd_dump, argv, c);
	}
	if (optind < argc)
		return usage_error(&cmd_dump, "unexpected argument '%s'", argv[optind]);
	if (!d.flags)
		d.flags = D_SUMMARY;
	ret = dump_file(&d, file);
	free(d.strings);
	fflush(stdout);
	return ret < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_dump = {
	.name = "dump",
	.run = run_dump,
	.usage = dump_usage,
	.summary = "print the metadata of a trace.dat file",
};
