// SPDX-License-Identifier: GPL-2.0
/*
 * The tep handle of a trace.dat: its event formats given to libtraceevent
 * (all at open, or with TRACE_INPUT_LAZY each when a record of its id is
 * first met), kallsyms as functions, printk formats and saved cmdlines.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-reader.h"
#include "trace-kallsyms.h"
#include "trace-stdout.h"

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
	reader_own(in, text);
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

	reader_kallsyms_text(in);
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
	char *text = reader_strndup(in->kallsyms_at, in->kallsyms_len);

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

const struct kallsyms *trace_input_function_table(const struct trace_input *in)
{
	return in->ksyms;
}

void trace_input_register_symbol(struct trace_input *in, const char *name)
{
	trace_input_load_functions(in);
	if (in->ksyms)
		kallsyms_register_name(in->ksyms, in->tep, name);
}

int reader_build_tep(struct trace_input *in)
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
		char *hp = reader_strndup(in->header_page, in->header_page_len);

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
