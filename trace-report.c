// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd report: its options, the listing modes (--events, --stat, ...),
 * and the merge of the -i files into lines, after the header lines trace-cmd
 * 1.x printed.  Reading a file is trace-input's job, choosing its records
 * trace-filter's, and printing them as upstream 3.1.6 does trace-line's.
 */
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <getopt.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "trace-filter.h"
#include "trace-format.h"
#include "trace-kvm-guest.h"
#include "trace-line.h"
#include "trace-profile.h"

extern const struct command cmd_report;

static const char report_usage[] =
	"usage: trace-cmd report [OPTIONS] [FILE...]\n"
	"\n"
	"  -i FILE          read FILE instead of trace.dat (or give the FILEs last); several\n"
	"                   files merge into one timeline, lines labelled by file\n"
	"  --cpu LIST       show only these CPUs (e.g. 0,3 or 2-4); repeatable\n"
	"  -F FILTER        show only events matching 'event[,event][: condition]'; repeatable;\n"
	"                   after an -i, for that file only (with those before any -i)\n"
	"  -v               the -F filters that follow hide the events they match\n"
	"  --pid PID        show only the events of task PID (and its wakeups and switches)\n"
	"  --comm COMM      show only the events of the tasks named COMM\n"
	"  -w               show each task's wakeup latency at its sched_switch\n"
	"  -T               print the -F filters as parsed, then exit\n"
	"  -I               hide events in hard interrupt context\n"
	"  -S               hide events in soft interrupt context\n"
	"  -t               print timestamps in nanoseconds\n"
	"  -l               latency format: CPU, irqs-off, need-resched, context, preempt depth\n"
	"  --line-3.1       lines as trace-cmd 3.1 printed them: no latency column after the CPU\n"
	"  --boundary       a line CPU:N [SUBBUFFER START] before each sub-buffer's first event\n"
	"  --debug          those lines with the page's time stamp and offset, each event's\n"
	"                   delta, offset and size, the paddings and time extends after it;\n"
	"                   and the header's version, as at --verbose=info\n"
	"  -R               print every event's raw fields\n"
	"  -r EVENTS        print the raw fields of the events matching regex EVENTS\n"
	"  -n EVENTS        ignore plugin handlers for the events matching regex EVENTS\n"
	"  -N               load no plugins\n"
	"  -O OPTION        pass [plugin:]var[=value] to the plugins\n"
	"  -q               quiet: no warnings from the event parser\n"
	"  -L               load only the user's plugins, not the system's\n"
	"  --verbose[=LEVEL]  log level of the event parser: none crit err warn info debug\n"
	"                   all, or 0-6 (info when LEVEL is left out)\n"
	"  -V[LEVEL]        the same as --verbose[=LEVEL]\n"
	"  --kallsyms FILE  read function names from FILE (/proc/kallsyms lines) too\n"
	"  --ts-offset N    add N (raw units, may be negative) to every timestamp; after\n"
	"                   an -i, to that file's only\n"
	"  --ts2secs HZ     convert counter timestamps with HZ ticks per second; after an\n"
	"                   -i, that file's only\n"
	"  --align-ts       show timestamps relative to the first event\n"
	"  --ts-diff        show the time since the previous event shown\n"
	"  --ts-check       warn when a timestamp goes backwards\n"
	"  --raw-ts         show raw timestamps, without any correction\n"
	"  --nodate         ignore the wall-clock offset stored in the DATE option\n"
	"  --events         print the event formats stored in the file, then exit\n"
	"  --event RE       print the formats of the events matching RE ('system:event' or\n"
	"                   one name for either, regexes), then exit; repeatable\n"
	"  -E               list the events the file has formats for, then exit\n"
	"  -e               print the file's and the host's byte order, then exit\n"
	"  -f               list the functions (kallsyms) stored in the file, then exit\n"
	"  -P               list the printk formats stored in the file, then exit\n"
	"  -p               print the file's and the host's page size, then exit\n"
	"  --cpus           list the CPUs that have data, then exit\n"
	"  --first-event    list the first timestamp of each CPU with data, then exit\n"
	"  --last-event     list the last timestamp of each CPU with data, then exit\n"
	"  --stat           print the kernel buffer statistics stored at record time\n"
	"  --uname          print the uname and version stored at record time\n"
	"  --version        print the trace-cmd version that recorded the file\n"
	"  --check-events   check that every event format parses, then exit\n"
	"  --format FORMAT  text (the default), jsonl or csv: one record per event, all fields\n"
	"  --profile        where each task blocked, waited and was preempted, with stacks,\n"
	"                   instead of the events\n"
	"  -G               with --profile: interrupts counted per CPU, not per task\n"
	"  -H HOOK          with --profile: time between two events,\n"
	"                   [sys:]start,match[,pid]/[sys:]end,match[,flags]; repeatable\n"
	"  --by-comm        with --profile: the tasks of one name summed\n"
	"  -h               show this help\n";

enum {
	OPT_EVENTS = 256,
	OPT_CPU,
	OPT_TS_OFFSET,
	OPT_TS2SECS,
	OPT_ALIGN_TS,
	OPT_TS_DIFF,
	OPT_LINE_31,
	OPT_TS_CHECK,
	OPT_RAW_TS,
	OPT_NODATE,
	OPT_CPUS,
	OPT_FIRST,
	OPT_LAST,
	OPT_STAT,
	OPT_UNAME,
	OPT_VERSION,
	OPT_CHECK_EVENTS,
	OPT_FORMAT,
	OPT_PID,
	OPT_COMM,
	OPT_VERBOSE,
	OPT_EVENT,
	OPT_KALLSYMS,
	OPT_BOUNDARY,
	OPT_DEBUG,
	OPT_PROFILE,
	OPT_BY_COMM,
};

static const struct option long_options[] = {
	{ "events",		no_argument,		NULL, OPT_EVENTS },
	{ "event",		required_argument,	NULL, OPT_EVENT },
	{ "kallsyms",		required_argument,	NULL, OPT_KALLSYMS },
	{ "cpu",		required_argument,	NULL, OPT_CPU },
	{ "ts-offset",		required_argument,	NULL, OPT_TS_OFFSET },
	{ "ts2secs",		required_argument,	NULL, OPT_TS2SECS },
	{ "align-ts",		no_argument,		NULL, OPT_ALIGN_TS },
	{ "ts-diff",		no_argument,		NULL, OPT_TS_DIFF },
	{ "line-3.1",		no_argument,		NULL, OPT_LINE_31 },
	{ "boundary",		no_argument,		NULL, OPT_BOUNDARY },
	{ "debug",		no_argument,		NULL, OPT_DEBUG },
	{ "ts-check",		no_argument,		NULL, OPT_TS_CHECK },
	{ "raw-ts",		no_argument,		NULL, OPT_RAW_TS },
	{ "nodate",		no_argument,		NULL, OPT_NODATE },
	{ "cpus",		no_argument,		NULL, OPT_CPUS },
	{ "first-event",	no_argument,		NULL, OPT_FIRST },
	{ "last-event",		no_argument,		NULL, OPT_LAST },
	{ "stat",		no_argument,		NULL, OPT_STAT },
	{ "uname",		no_argument,		NULL, OPT_UNAME },
	{ "version",		no_argument,		NULL, OPT_VERSION },
	{ "check-events",	no_argument,		NULL, OPT_CHECK_EVENTS },
	{ "pid",		required_argument,	NULL, OPT_PID },
	{ "verbose",		optional_argument,	NULL, OPT_VERBOSE },
	{ "comm",		required_argument,	NULL, OPT_COMM },
	{ "format",		required_argument,	NULL, OPT_FORMAT },
	{ "profile",		no_argument,		NULL, OPT_PROFILE },
	{ "by-comm",		no_argument,		NULL, OPT_BY_COMM },
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* What report prints instead of the events. */
enum mode {
	MODE_EVENTS_LINES,
	MODE_FORMATS,		/* --events */
	MODE_FORMAT_MATCH,	/* --event */
	MODE_PAGE_SIZE,		/* -p */
	MODE_EVENT_LIST,	/* -E */
	MODE_ENDIAN,		/* -e */
	MODE_FUNCS,		/* -f */
	MODE_PRINTK,		/* -P */
	MODE_CPUS,		/* --cpus */
	MODE_FIRST,		/* --first-event */
	MODE_LAST,		/* --last-event */
	MODE_STAT,		/* --stat */
	MODE_UNAME,		/* --uname */
	MODE_VERSION,		/* --version */
	MODE_CHECK,		/* --check-events */
	MODE_TEST_FILTERS,	/* -T */
};

/* One input file and what depends on its own tep handle. */
struct file_ctx {
	const char	*file;
	const char	*label;		/* its base name, as upstream labels merged files */
	struct trace_input *in;
	struct tep_handle *tep;
	struct filter_set filters;	/* the -F after its -i, then report's own added */
	struct file_filter *filter;	/* which of its records are shown */
	int		own_ts_offset, own_ts2secs;	/* given after its -i */
	int64_t		ts_offset;
	uint64_t	ts2secs;
	int		multi_buffer;
	struct line_source *line;	/* how its records are printed */
	struct tep_record *rec;		/* its next record in the merge, or NULL */
	int		buffer;
};

/* --event: a system and an event regex, or one regex for either (upstream's rule). */
struct event_match {
	regex_t		system, event;
	int		both;		/* "system:event": both must match */
};

struct report {
	enum mode	mode;
	struct filter_set filters;	/* -F, -v, --cpu, --pid, --comm, -I, -S: every file's */
	int		input_flags;
	struct line_opts line_opts;	/* -t, -l, -R, --ts-diff, -w, -N */
	int		quiet;
	int		info_header;	/* -V/--verbose at info or above, --debug */
	int		ts_check, align_ts;
	int64_t		ts_offset;	/* --ts-offset and --ts2secs before any -i: */
	uint64_t	ts2secs;	/* every file's that has none of its own */
	struct event_match *event_matches;	/* --event */
	int		nr_event_matches;
	char		**kallsyms_files;	/* --kallsyms, read for every file */
	int		nr_kallsyms_files;
	char		*kallsyms;		/* their text, one after the other */
	size_t		kallsyms_len;
	char		**raw_events, **nohandle_events;
	int		nr_raw_events, nr_nohandle_events;
	char		**plugin_opts;	/* -O, checked once the plugins are loaded */
	int		nr_plugin_opts;
	struct file_ctx	*files;		/* several -i files are merged into one timeline */
	int		nr_files;
	int		format;		/* --format: enum trace_format_kind */
	struct trace_format *fmt;	/* its writer; NULL for text */
	struct trace_line *line;	/* the event lines' printer */
	int		label_width;	/* with several files: the widest file or buffer name */
	uint64_t	last_check_ts;
	int		profile;		/* --profile */
	struct profile_opts profile_opts;	/* -G, -H, --by-comm */
	char		**file_hooks;		/* the file's HOOK options (record -H), copied */
	int		nr_file_hooks;
	struct profile	*prof;
};

/* ---- output ------------------------------------------------------------ */

/*
 * --event: whether format @text (@len bytes) of @system is one to print.  As
 * upstream, the event's name is its text's first line, less "name: ".
 */
static int event_matches(const struct report *r, const char *system, const char *text,
			 size_t len)
{
	const char *nl = memchr(text, '\n', len);
	size_t n = nl ? (size_t)(nl - text) : len;
	char *name;
	int found = 0;

	if (n >= 6 && !memcmp(text, "name: ", 6)) {
		text += 6;
		n -= 6;
	}
	name = xmalloc(n + 1);
	memcpy(name, text, n);
	name[n] = 0;
	for (int i = 0; i < r->nr_event_matches && !found; i++) {
		const struct event_match *m = &r->event_matches[i];
		int sys = !regexec(&m->system, system, 0, NULL, 0);
		int ev = !regexec(&m->event, name, 0, NULL, 0);

		found = m->both ? sys && ev : sys || ev;
	}
	free(name);
	return found;
}

static void print_event_formats(const struct report *r, struct file_ctx *f)
{
	const char *last = NULL;

	for (int i = 0; i < trace_input_nr_formats(f->in); i++) {
		const char *system, *text;
		size_t len;

		text = trace_input_format(f->in, i, &system, &len);
		if (!strcmp(system, "ftrace"))
			continue;
		if (r->mode == MODE_FORMAT_MATCH && !event_matches(r, system, text, len))
			continue;
		if (!last || strcmp(last, system))
			printf("\nsystem: %s\n", system);
		last = system;
		fwrite(text, 1, len, stdout);
		putchar('\n');
	}
}

/* With several files, each line starts with its file's name, as upstream does. */
static void print_label(const struct report *r, const char *name)
{
	if (r->nr_files > 1)
		printf("%*s: ", r->label_width, name);
}

static void print_header(const struct report *r, struct file_ctx *f)
{
	if (r->format != TRACE_FORMAT_TEXT)
		return;
	print_label(r, f->label);
	printf("cpus=%d\n", trace_input_cpus(f->in));
}

/*
 * At the info log level, the CPUs without data, as upstream's libtracecmd
 * logs them when it opens the file (3.1.6 and 3.4 alike): every one of a v6
 * file; of a v7 file, those below the last CPU with data (its table ends there).
 */
static void log_empty_cpus(struct trace_input *in)
{
	int nr = trace_input_is_latency(in) ? 0 : trace_input_buffer_cpus(in, 0);

	while (trace_input_version(in) >= 7 && nr > 0 && !trace_input_cpu_size(in, 0, nr - 1))
		nr--;
	for (int cpu = 0; cpu < nr; cpu++) {
		if (!trace_input_cpu_size(in, 0, cpu))
			printf("CPU %d is empty\n", cpu);
	}
}

/* A timestamp as the CPU listings show it (tep's "%6.1000d" / "%9.1d"). */
static void print_ts(const struct report *r, struct file_ctx *f, uint64_t ts)
{
	if (!trace_input_in_usecs(f->in))
		printf("%12llu", (unsigned long long)ts);
	else if (r->line_opts.nsec)
		printf("%5llu.%09llu", (unsigned long long)(ts / 1000000000ULL),
		       (unsigned long long)(ts % 1000000000ULL));
	else {
		unsigned long long us = (ts + 500) / 1000;

		printf("%5llu.%06llu", us / 1000000, us % 1000000);
	}
}

static int print_cpu_list(const struct report *r, struct file_ctx *f)
{
	printf("List of CPUs in %s with data:\n", f->file);
	for (int cpu = 0; cpu < trace_input_buffer_cpus(f->in, 0); cpu++) {
		uint64_t first, last;
		int ret;

		if (!trace_input_cpu_size(f->in, 0, cpu))
			continue;
		if (r->mode == MODE_CPUS) {
			printf("  %d\n", cpu);
			continue;
		}
		ret = trace_input_cpu_first_last(f->in, 0, cpu, &first, &last);
		if (ret < 0)
			return -1;
		if (!ret)
			continue;
		printf("  %d\t%s event:", cpu, r->mode == MODE_FIRST ? "First" : "Last");
		print_ts(r, f, r->mode == MODE_FIRST ? first : last);
		putchar('\n');
	}
	return 0;
}

/* Prints the NUL-terminated text options with @id, one a line. */
static int print_text_option(struct file_ctx *f, int id)
{
	const char *p;
	size_t len;
	int n;

	for (n = 0; (p = trace_input_option(f->in, id, n, &len)); n++)
		printf("%.*s\n", (int)strnlen(p, len), p);
	return n;
}

static void print_stat(struct file_ctx *f)
{
	printf("\nKernel buffer statistics:\n"
	       "  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
	       "        recorded in the trace data. They should all be zero.\n\n");
	if (!print_text_option(f, TRACE_OPT_CPUSTAT))
		printf(" No stats in this file\n");
	else
		putchar('\n');
	/*
	 * Upstream shows compressed data where it decompresses it: one page in,
	 * each CPU after the one before.
	 */
	uint64_t off = trace_input_page_size(f->in);

	for (int cpu = 0; cpu < trace_input_buffer_cpus(f->in, 0); cpu++) {
		uint64_t size = trace_input_cpu_data_size(f->in, 0, cpu);

		/* v7 files list only the CPUs with data. */
		if (!size && trace_input_version(f->in) >= 7)
			continue;
		if (!trace_input_buffer_compressed(f->in, 0))
			off = trace_input_cpu_offset(f->in, 0, cpu);
		printf("CPU%d data recorded at offset=0x%llx\n", cpu, (unsigned long long)off);
		printf("    %llu bytes in size\n", (unsigned long long)size);
		off += size;
	}
}

static void list_events(struct file_ctx *f)
{
	struct tep_event **evs = tep_list_events(f->tep, TEP_EVENT_SORT_SYSTEM);

	for (int i = 0; evs && evs[i]; i++)
		printf("%s:%s\n", evs[i]->system, evs[i]->name);
}

/*
 * Whether @opt ("[plugin:]option", up to @len) is an option of a loaded
 * plugin.  tep_plugin_list_options() of libtraceevent 1.7 reallocs its list
 * by bytes, not pointers (heap corruption past four options), so the list
 * is read from tep_plugin_print_options(): a "plugin:" line, then "option:".
 */
static int plugin_has_option(const char *opt, size_t len)
{
	const char *colon = memchr(opt, ':', len);
	char plugin[256] = "", name[256];
	struct trace_seq s;
	int found = 0;

	trace_seq_init(&s);
	tep_plugin_print_options(&s);
	trace_seq_terminate(&s);
	for (char *line = s.buffer; line && *line && !found; line = strchr(line, '\n')) {
		line += *line == '\n';
		if (*line == '-' || *line == '=')	/* the next option's block */
			plugin[0] = '\0';
		if (sscanf(line, " plugin: %255s", plugin) == 1 ||
		    sscanf(line, " option: %255s", name) != 1)
			continue;
		if (colon)
			found = (size_t)(colon - opt) == strlen(plugin) &&
				!strncmp(opt, plugin, colon - opt) &&
				strlen(name) == len - (colon - opt) - 1 &&
				!strncmp(colon + 1, name, strlen(name));
		else
			found = strlen(name) == len && !strncmp(opt, name, len);
	}
	trace_seq_destroy(&s);
	return found;
}

/*
 * libtraceevent keeps an -O that no plugin has for a plugin that may come,
 * so a typo would change nothing in silence: each must name an option of
 * the plugins loaded.
 */
static int check_plugin_options(struct report *r)
{
	trace_line_register_options();
	for (int i = 0; i < r->nr_plugin_opts; i++) {
		const char *opt = r->plugin_opts[i];
		size_t len = strcspn(opt, "=");

		if (!plugin_has_option(opt, len))
			return error("no plugin option '%.*s'%s", (int)len, opt,
				     r->input_flags & TRACE_INPUT_NO_PLUGINS ?
				     " (-N loads no plugins)" : "");
	}
	return 0;
}

/* The file whose pending record comes first (ties: the earlier file). */
static struct file_ctx *next_file(struct report *r)
{
	struct file_ctx *best = NULL;

	for (int i = 0; i < r->nr_files; i++) {
		struct file_ctx *f = &r->files[i];

		if (f->rec && (!best || f->rec->ts < best->rec->ts))
			best = f;
	}
	return best;
}

static int advance_file(struct file_ctx *f)
{
	int ret = trace_input_next(f->in, &f->rec, &f->buffer);

	if (ret <= 0)
		f->rec = NULL;
	return ret < 0 ? -1 : 0;
}

static int print_records(struct report *r)
{
	struct tep_record *rec;
	struct file_ctx *f;
	uint64_t base = 0;
	int ret = 0, first = 1, shown = 0, next_flush = 1;

	for (int i = 0; i < r->nr_files; i++)
		if (advance_file(&r->files[i]) < 0)
			return -1;
	if (r->format != TRACE_FORMAT_TEXT) {
		int multi_buffer = 0;

		for (int i = 0; i < r->nr_files; i++)
			multi_buffer |= r->files[i].multi_buffer;
		r->fmt = trace_format_new(r->format, r->nr_files > 1, multi_buffer);
		trace_line_set_format(r->line, r->fmt);
	}
	trace_line_set_files(r->line, r->nr_files, r->label_width);
	trace_line_allow_parallel(r->line);
	while ((f = next_file(r))) {
		rec = f->rec;
		if (first && r->align_ts)
			base = rec->ts;
		first = 0;
		rec->ts -= base;
		if (!file_filter_pass(f->filter, rec))
			goto next;
		if (r->ts_check && rec->ts < r->last_check_ts)
			warning("record on cpu %d went backwards: %llu to %llu delta: -%llu",
				rec->cpu, (unsigned long long)r->last_check_ts,
				(unsigned long long)rec->ts,
				(unsigned long long)(r->last_check_ts - rec->ts));
		r->last_check_ts = rec->ts;
		if (r->prof) {
			profile_record(r->prof, rec);
			goto next;
		}
		trace_line_print(r->line, f->line, rec, f->buffer);
		/*
		 * Output is buffered in 1 MB blocks, but the first lines go out at
		 * once, and then in blocks that double: "report | head" answers at
		 * once, and the write after head has gone stops us soon.
		 */
		if (++shown == next_flush && next_flush < (1 << 16)) {
			fflush(stdout);
			next_flush *= 2;
		}
next:
		if (advance_file(f) < 0) {
			ret = -1;
			break;
		}
	}
	trace_line_flush(r->line);
	if (r->line_opts.wakeup && !ret)
		trace_line_wakeup_summary(r->line);
	if (r->prof && !ret)
		profile_print(r->prof);
	return ret;
}

/* -r and -n: regexes matched against event and system names, whole. */
static void flag_events(struct file_ctx *f, char **pats, int n, int flag)
{
	struct tep_event **evs = tep_list_events(f->tep, TEP_EVENT_SORT_ID);

	for (int k = 0; k < n; k++) {
		struct name_pattern *np = name_pattern_new(pats[k]);

		for (int i = 0; evs && evs[i]; i++)
			if (name_pattern_match(np, evs[i]->system, evs[i]->name))
				evs[i]->flags |= flag;
		name_pattern_free(np);
	}
}

static int needs_all_events(struct report *r)
{
	return r->nr_raw_events || r->nr_nohandle_events || r->profile ||
	       r->mode == MODE_EVENT_LIST || r->mode == MODE_CHECK ||
	       r->mode == MODE_TEST_FILTERS || r->mode == MODE_FUNCS;
}

static int open_file(struct report *r, struct file_ctx *f)
{
	/* Formats and kallsyms load as records need them, unless all are listed or filtered. */
	/* The info-level header lines belong to the text lines, not to a --format stream. */
	int log = r->info_header && r->format == TRACE_FORMAT_TEXT;

	f->in = trace_input_open(f->file, r->input_flags | TRACE_INPUT_LAZY |
				 (log ? TRACE_INPUT_LOG_VERSION : 0));
	if (!f->in)
		return -1;
	if (log)
		log_empty_cpus(f->in);
	if (r->kallsyms)
		trace_input_add_kallsyms(f->in, r->kallsyms, r->kallsyms_len);
	filter_set_inherit(&f->filters, &r->filters);
	if (needs_all_events(r) ? trace_input_parse_all(f->in) < 0 :
	    f->filters.nr_filters && filter_set_parse_events(&f->filters, f->in) < 0)
		return -1;
	f->tep = trace_input_tep(f->in);
	f->filter = file_filter_new(&f->filters, f->in);
	if (r->line_opts.nsec)
		tep_set_flag(f->tep, TEP_NSEC_OUTPUT);
	if (!f->own_ts_offset)
		f->ts_offset = r->ts_offset;
	if (!f->own_ts2secs)
		f->ts2secs = r->ts2secs;
	if (f->ts_offset)
		trace_input_add_ts_offset(f->in, f->ts_offset);
	if (f->ts2secs)
		trace_input_set_ts2secs(f->in, f->ts2secs);
	f->line = line_source_new(r->line, f->in, f->label);
	return 0;
}

/* Filters, flags and formats of @f, before its events are read. */
static int prepare_events(struct report *r, struct file_ctx *f)
{
	const unsigned char *ids;

	if (file_filter_compile(f->filter) < 0 || file_filter_apply(f->filter) < 0)
		return -1;
	f->multi_buffer = trace_input_nr_buffers(f->in) > 1;
	for (int b = 0; b < trace_input_nr_buffers(f->in); b++) {
		int len = strlen(trace_input_buffer_name(f->in, b));

		if (len > r->label_width)
			r->label_width = len;
	}
	flag_events(f, r->raw_events, r->nr_raw_events, TEP_EVENT_FL_PRINTRAW);
	flag_events(f, r->nohandle_events, r->nr_nohandle_events, TEP_EVENT_FL_NOHANDLE);
	line_source_setup_graph(f->line);
	/*
	 * Events no -F names are never shown: the reader drops them by id.  Not
	 * with --align-ts (the first record sets the base) nor when graph
	 * entries are shown (their leaf test looks at the other CPUs' records).
	 */
	ids = file_filter_only_ids(f->filter);
	if (ids && !r->align_ts) {
		int graph = line_source_graph_entry(f->line);

		if (graph < 0 || graph >= FILTER_IDS || !ids[graph])
			trace_input_only_ids(f->in, ids);
	}
	return 0;
}

/* A host's kvm events name the functions of its guests among the files. */
static void map_guests(struct report *r)
{
	struct trace_input **ins = xcalloc(r->nr_files, sizeof(*ins));

	for (int i = 0; i < r->nr_files; i++)
		ins[i] = r->files[i].in;
	kvm_guest_map(ins, r->nr_files);
	free(ins);
}

/* Several -i files: their events merged into one timeline. */
static int report_files(struct report *r)
{
	for (int i = 0; i < r->nr_files; i++) {
		const char *slash = strrchr(r->files[i].file, '/');
		int len;

		r->files[i].label = slash ? slash + 1 : r->files[i].file;
		len = strlen(r->files[i].label);

		if (len > r->label_width)
			r->label_width = len;
		if (open_file(r, &r->files[i]) < 0)
			return EXIT_FAILED;
		if (trace_input_is_latency(r->files[i].in)) {
			error("'%s': a latency trace cannot be merged with other files",
			      r->files[i].file);
			return EXIT_FAILED;
		}
	}
	if (check_plugin_options(r) < 0)
		return usage_follows(&cmd_report);
	for (int i = 0; i < r->nr_files; i++)
		if (prepare_events(r, &r->files[i]) < 0)
			return EXIT_FAILED;
	map_guests(r);
	for (int i = 0; i < r->nr_files; i++)
		print_header(r, &r->files[i]);
	return print_records(r) < 0 ? EXIT_FAILED : EXIT_OK;
}

/* The listings that need no more than the file opened: -1 if @r->mode is none of them. */
static int list_opened(const struct report *r, struct file_ctx *f)
{
	const uint16_t probe = 1;

	switch (r->mode) {
	case MODE_FORMATS:
	case MODE_FORMAT_MATCH:
		print_event_formats(r, f);
		return EXIT_OK;
	case MODE_PAGE_SIZE:
		printf("file page size is %u, and host page size is %d\n",
		       trace_input_page_size(f->in), getpagesize());
		return EXIT_OK;
	case MODE_EVENT_LIST:
		list_events(f);
		return EXIT_OK;
	case MODE_ENDIAN:
		printf("file is %s endian and host is %s endian\n",
		       trace_input_big_endian(f->in) ? "big" : "little",
		       *(const unsigned char *)&probe ? "little" : "big");
		return EXIT_OK;
	case MODE_FUNCS:
		fflush(stdout);
		tep_print_funcs(f->tep);
		return EXIT_OK;
	case MODE_PRINTK:
		fflush(stdout);
		tep_print_printk(f->tep);
		return EXIT_OK;
	case MODE_CPUS:
	case MODE_FIRST:
	case MODE_LAST:
		return print_cpu_list(r, f) < 0 ? EXIT_FAILED : EXIT_OK;
	case MODE_CHECK:
		/*
		 * Every format was parsed when the file was opened for this
		 * mode, and one that does not parse at all failed it there.  One
		 * whose print format alone does not parse keeps its fields (its
		 * events print as FAILED TO PARSE), so, as upstream's, it passes.
		 */
		return EXIT_OK;
	case MODE_TEST_FILTERS:
		if (file_filter_compile(f->filter) < 0)
			return EXIT_FAILED;
		file_filter_print(f->filter);
		return EXIT_OK;
	default:
		return -1;
	}
}

/* The listings printed after the header: -1 if @r->mode is none of them. */
static int list_prepared(const struct report *r, struct file_ctx *f)
{
	switch (r->mode) {
	case MODE_STAT:
		print_stat(f);
		return EXIT_OK;
	case MODE_UNAME:
		if (!print_text_option(f, TRACE_OPT_UNAME))
			printf(" uname was not recorded in this file\n");
		/* upstream prints the version too */
		__attribute__((fallthrough));
	case MODE_VERSION:
		if (!print_text_option(f, TRACE_OPT_VERSION))
			printf(" version was not recorded in this file\n");
		return EXIT_OK;
	default:
		return -1;
	}
}

/* A latency tracer's file holds its text, printed as it is. */
static int print_latency_text(const struct report *r, struct file_ctx *f)
{
	size_t len;
	char *text;

	if (r->format != TRACE_FORMAT_TEXT) {
		error("--format: '%s' holds a latency tracer's text, not event records", f->file);
		return EXIT_FAILED;
	}
	text = trace_input_latency_text(f->in, &len);
	if (!text)
		return EXIT_FAILED;
	fwrite(text, 1, len, stdout);
	putchar('\n');
	free(text);
	return EXIT_OK;
}

static char **add_str(char **list, int *n, char *s)
{
	list = xrealloc(list, sizeof(*list) * (*n + 1));
	list[(*n)++] = s;
	return list;
}

/*
 * With --profile, the hooks record -H kept in the file (HOOK options) count
 * after the command line's, echoed as 3.4 echoes them, before the header.
 */
static int add_file_hooks(struct report *r, struct file_ctx *f)
{
	const char *hook;
	size_t len;

	for (int nth = 0; (hook = trace_input_option(f->in, TRACE_OPT_HOOK, nth, &len)); nth++) {
		char *spec = xmalloc(len + 1);

		memcpy(spec, hook, len);
		spec[len] = '\0';

		if (profile_check_hook(spec) < 0) {
			free(spec);
			return error("'%s': its HOOK option %d is not a hook", f->file, nth + 1);
		}
		profile_echo_hook(spec);
		r->file_hooks = add_str(r->file_hooks, &r->nr_file_hooks, spec);
		r->profile_opts.hooks = add_str(r->profile_opts.hooks, &r->profile_opts.nr_hooks, spec);
	}
	return 0;
}

static int report_file(struct report *r)
{
	struct file_ctx *f = &r->files[0];
	int ret;

	if (r->nr_files > 1)
		return report_files(r);
	if (open_file(r, f) < 0)
		return EXIT_FAILED;
	if (check_plugin_options(r) < 0)
		return usage_follows(&cmd_report);
	ret = list_opened(r, f);
	if (ret >= 0)
		return ret;
	if (prepare_events(r, f) < 0)
		return EXIT_FAILED;
	if (r->profile && add_file_hooks(r, f) < 0)
		return EXIT_FAILED;
	print_header(r, f);
	ret = list_prepared(r, f);
	if (ret >= 0)
		return ret;
	if (trace_input_is_latency(f->in))
		return print_latency_text(r, f);
	if (r->profile) {
		trace_input_load_functions(f->in);
		r->prof = profile_new(f->tep, &r->profile_opts);
		if (!r->prof)
			return EXIT_FAILED;
	}
	return print_records(r) < 0 ? EXIT_FAILED : EXIT_OK;
}


/*
 * --verbose[=LEVEL] and -V[LEVEL] (@opt): the log level, libtraceevent's
 * too.  From info up, the header names the file's version (@r's info_header).
 */
static int set_verbose(struct report *r, const char *opt, const char *arg)
{
	if (set_log_level(opt, arg) < 0)
		return -1;
	r->info_header = log_level() >= LOG_INFO;
	return 0;
}

static void add_file(struct report *r, const char *file)
{
	r->files = xrealloc(r->files, sizeof(*r->files) * (r->nr_files + 1));
	memset(&r->files[r->nr_files], 0, sizeof(*r->files));
	r->files[r->nr_files++].file = file;
}

/* The listing options: each prints something of the file instead of its events. */
static const struct listing_opt {
	int		opt;
	enum mode	mode;
	const char	*name;
} listing_opts[] = {
	{ 'T',			MODE_TEST_FILTERS,	"-T" },
	{ 'e',			MODE_ENDIAN,		"-e" },
	{ 'E',			MODE_EVENT_LIST,	"-E" },
	{ 'f',			MODE_FUNCS,		"-f" },
	{ 'P',			MODE_PRINTK,		"-P" },
	{ OPT_EVENTS,		MODE_FORMATS,		"--events" },
	{ OPT_EVENT,		MODE_FORMAT_MATCH,	"--event" },
	{ 'p',			MODE_PAGE_SIZE,		"-p" },
	{ OPT_CPUS,		MODE_CPUS,		"--cpus" },
	{ OPT_FIRST,		MODE_FIRST,		"--first-event" },
	{ OPT_LAST,		MODE_LAST,		"--last-event" },
	{ OPT_STAT,		MODE_STAT,		"--stat" },
	{ OPT_UNAME,		MODE_UNAME,		"--uname" },
	{ OPT_VERSION,		MODE_VERSION,		"--version" },
	{ OPT_CHECK_EVENTS,	MODE_CHECK,		"--check-events" },
};

/*
 * --event RE: upstream cuts RE at its colons ("sys:ev"), an empty part
 * skipped; with one part it is matched against system and event names alike.
 * Both are case-insensitive regexes, matched anywhere in the name.
 */
static int add_event_match(struct report *r, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;
	char *system = strtok_r(copy, ":", &save), *event = strtok_r(NULL, ":", &save);
	struct event_match *m;
	int ret = 0;

	if (!system) {
		free(copy);
		return usage_error(&cmd_report, "--event needs a system or event regex");
	}
	r->event_matches = xrealloc(r->event_matches,
				    sizeof(*r->event_matches) * (r->nr_event_matches + 1));
	m = &r->event_matches[r->nr_event_matches];
	m->both = event != NULL;
	if (compile_regex("--event", system, REG_ICASE | REG_NOSUB, &m->system) < 0)
		ret = usage_follows(&cmd_report);
	else if (compile_regex("--event", event ? event : system, REG_ICASE | REG_NOSUB,
			       &m->event) < 0) {
		regfree(&m->system);
		ret = usage_follows(&cmd_report);
	} else {
		r->nr_event_matches++;
	}
	free(copy);
	return ret;
}

/* What an option parser returns for an option that is not one of its own. */
#define NOT_MINE	(-2)

static int parse_listing_opt(struct report *r, int c)
{
	for (size_t i = 0; i < ARRAY_SIZE(listing_opts); i++) {
		const struct listing_opt *o = &listing_opts[i];

		if (o->opt != c)
			continue;
		if (r->mode != MODE_EVENTS_LINES && r->mode != o->mode)
			return usage_error(&cmd_report,
					   "%s cannot be combined with another listing option",
					   o->name);
		r->mode = o->mode;
		return c == OPT_EVENT ? add_event_match(r, optarg) : 0;
	}
	return NOT_MINE;
}

/*
 * -F, -v, -I, -S, --cpu, --pid, --comm: 0, EXIT_USAGE or NOT_MINE.  A -F
 * after an -i is that file's, as upstream's; -v holds for every -F after it.
 */
static int parse_filter_opt(struct report *r, int c)
{
	struct filter_set *set = &r->filters;
	long l;

	switch (c) {
	case 'F':
		if (r->nr_files) {
			set = &r->files[r->nr_files - 1].filters;
			set->invert = r->filters.invert;
		}
		return filter_set_add_event(set, optarg) < 0 ? usage_follows(&cmd_report) : 0;
	case 'v':
		set->invert = 1;
		return 0;
	case 'I':
		set->no_irqs = 1;
		return 0;
	case 'S':
		set->no_softirqs = 1;
		return 0;
	case OPT_CPU:
		return filter_set_add_cpus(set, optarg) < 0 ? EXIT_USAGE : 0;
	case OPT_PID:
		if (parse_long("--pid", optarg, 0, INT_MAX, &l) < 0)
			return EXIT_USAGE;
		filter_set_add_pid(set, l);
		return 0;
	case OPT_COMM:
		return filter_set_add_comm(set, optarg) < 0 ? usage_follows(&cmd_report) : 0;
	default:
		return NOT_MINE;
	}
}

/*
 * -t and the --ts-* options, --raw-ts, --nodate: 0, EXIT_USAGE or NOT_MINE.
 * --ts-offset and --ts2secs after an -i are that file's, as upstream's.
 */
static int parse_time_opt(struct report *r, int c)
{
	struct file_ctx *last = r->nr_files ? &r->files[r->nr_files - 1] : NULL;
	unsigned long ul;
	long l;

	switch (c) {
	case 't':
		r->line_opts.nsec = 1;
		return 0;
	case OPT_TS_OFFSET:
		if (parse_long("--ts-offset", optarg, LONG_MIN, LONG_MAX, &l) < 0)
			return EXIT_USAGE;
		/* The last one counts, as upstream's. */
		*(last ? &last->ts_offset : &r->ts_offset) = l;
		if (last)
			last->own_ts_offset = 1;
		return 0;
	case OPT_TS2SECS:
		if (parse_ulong("--ts2secs", optarg, 1, ULONG_MAX, &ul) < 0)
			return EXIT_USAGE;
		*(last ? &last->ts2secs : &r->ts2secs) = ul;
		if (last)
			last->own_ts2secs = 1;
		r->line_opts.ts2secs = 1;
		return 0;
	case OPT_ALIGN_TS:
		r->align_ts = 1;
		return 0;
	case OPT_TS_DIFF:
		r->line_opts.ts_diff = 1;
		return 0;
	case OPT_TS_CHECK:
		r->ts_check = 1;
		return 0;
	case OPT_RAW_TS:
		r->input_flags |= TRACE_INPUT_RAW_TS;
		return 0;
	case OPT_NODATE:
		r->input_flags |= TRACE_INPUT_NO_DATE;
		return 0;
	default:
		return NOT_MINE;
	}
}

/* -O [plugin:]var[=value]: passed to the plugins, checked once they are loaded. */
static int add_plugin_opt(struct report *r, char *arg)
{
	char *eq = strchr(arg, '=');

	if (eq == arg)
		return usage_error(&cmd_report, "-O needs a plugin option before '='");
	if (check_named("-O", arg, "a plugin option") < 0)
		return usage_follows(&cmd_report);
	r->plugin_opts = add_str(r->plugin_opts, &r->nr_plugin_opts, arg);
	if (eq)
		*eq = 0;
	tep_plugin_add_option(arg, eq ? eq + 1 : NULL);
	if (eq)
		*eq = '=';
	return 0;
}

/* How events are printed and parsed: 0, EXIT_USAGE or NOT_MINE. */
static int parse_print_opt(struct report *r, int c)
{
	switch (c) {
	case 'l':
		r->line_opts.latency = 1;
		return 0;
	case OPT_LINE_31:
		r->line_opts.line_31 = 1;
		return 0;
	case OPT_BOUNDARY:
		r->line_opts.boundary = 1;
		return 0;
	case OPT_DEBUG:
		/* as upstream's libtracecmd debug flag, which logs the version too */
		r->line_opts.debug = 1;
		r->info_header = 1;
		return 0;
	case 'R':
		r->line_opts.raw = 1;
		return 0;
	case 'w':
		r->line_opts.wakeup = 1;
		return 0;
	case 'r':
		if (check_event_regex("-r", optarg) < 0)
			return usage_follows(&cmd_report);
		r->raw_events = add_str(r->raw_events, &r->nr_raw_events, optarg);
		return 0;
	case 'n':
		if (check_event_regex("-n", optarg) < 0)
			return usage_follows(&cmd_report);
		r->nohandle_events = add_str(r->nohandle_events, &r->nr_nohandle_events, optarg);
		return 0;
	case 'N':
		r->input_flags |= TRACE_INPUT_NO_PLUGINS;
		return 0;
	case 'L':
		r->input_flags |= TRACE_INPUT_LOCAL_PLUGINS;
		return 0;
	case 'O':
		return add_plugin_opt(r, optarg);
	case 'q':
		r->quiet = 1;
		return 0;
	case OPT_VERBOSE:
		return set_verbose(r, "--verbose", optarg) < 0 ? EXIT_USAGE : 0;
	case 'V':
		return set_verbose(r, "-V", optarg) < 0 ? EXIT_USAGE : 0;
	case OPT_KALLSYMS:
		if (check_named("--kallsyms", optarg, "a file name") < 0)
			return usage_follows(&cmd_report);
		r->kallsyms_files = add_str(r->kallsyms_files, &r->nr_kallsyms_files, optarg);
		return 0;
	case OPT_FORMAT:
		r->format = trace_format_kind(optarg);
		if (r->format < 0)
			return usage_error(&cmd_report, "invalid --format value '%s': "
					   "not text, jsonl or csv", optarg);
		return 0;
	default:
		return NOT_MINE;
	}
}

/* --profile and its -G, -H, --by-comm. */
static int parse_profile_opt(struct report *r, int c)
{
	struct profile_opts *o = &r->profile_opts;

	switch (c) {
	case OPT_PROFILE:
		r->profile = 1;
		return 0;
	case OPT_BY_COMM:
		o->by_comm = 1;
		return 0;
	case 'G':
		o->global_irqs = 1;
		return 0;
	case 'H':
		if (profile_check_hook(optarg) < 0)
			return usage_follows(&cmd_report);
		o->hooks = add_str(o->hooks, &o->nr_hooks, optarg);
		return 0;
	default:
		return NOT_MINE;
	}
}

/* Each option in turn: PARSE_RUN, or the exit status (after -h or a usage error). */
static int parse_opts(struct report *r, int argc, char **argv)
{
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:F:vTIStlRr:n:NO:qeEfPpwLV::GH:", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_report);
		case 'i':
			add_file(r, optarg);
			continue;
		case ':':
			return option_error(&cmd_report, argv, c);
		}
		ret = parse_listing_opt(r, c);
		if (ret == NOT_MINE)
			ret = parse_filter_opt(r, c);
		if (ret == NOT_MINE)
			ret = parse_time_opt(r, c);
		if (ret == NOT_MINE)
			ret = parse_print_opt(r, c);
		if (ret == NOT_MINE)
			ret = parse_profile_opt(r, c);
		if (ret == NOT_MINE)
			return option_error(&cmd_report, argv, c);
		if (ret)
			return ret;
	}
	return PARSE_RUN;
}

/* -G, -H and --by-comm belong to --profile, which prints no event lines. */
static int check_profile_args(const struct report *r)
{
	const struct profile_opts *o = &r->profile_opts;

	if (!r->profile) {
		if (o->global_irqs || o->nr_hooks || o->by_comm)
			return usage_error(&cmd_report, "%s needs --profile",
					   o->global_irqs ? "-G" : o->nr_hooks ? "-H" :
					   "--by-comm");
		return PARSE_RUN;
	}
	if (r->format != TRACE_FORMAT_TEXT)
		return usage_error(&cmd_report, "--profile cannot be combined with --format");
	if (r->mode != MODE_EVENTS_LINES)
		return usage_error(&cmd_report,
				   "--profile cannot be combined with a listing option");
	if (r->nr_files > 1)
		return usage_error(&cmd_report, "--profile reads one file, not %d", r->nr_files);
	return PARSE_RUN;
}

static int parse_args(struct report *r, int argc, char **argv)
{
	int ret = parse_opts(r, argc, argv);

	if (ret != PARSE_RUN)
		return ret;
	/* Files given last are as many -i (not after an -i, as upstream). */
	if (optind < argc && r->nr_files)
		return usage_error(&cmd_report, "unexpected argument '%s'", argv[optind]);
	while (optind < argc)
		add_file(r, argv[optind++]);
	if (!r->nr_files)
		add_file(r, "trace.dat");
	if (r->format != TRACE_FORMAT_TEXT && r->mode != MODE_EVENTS_LINES)
		return usage_error(&cmd_report, "--format cannot be combined with a listing option");
	if (r->nr_files > 1 && r->mode != MODE_EVENTS_LINES)
		return usage_error(&cmd_report, "listing options read one file, not %d",
				   r->nr_files);
	return check_profile_args(r);
}

/* --kallsyms: every file's text, one after the other, for every input file. */
static int read_kallsyms_files(struct report *r)
{
	for (int i = 0; i < r->nr_kallsyms_files; i++) {
		size_t len;
		char *text = read_path_text(r->kallsyms_files[i], &len);

		if (!text)
			return error("cannot read --kallsyms file '%s': %s", r->kallsyms_files[i],
				     strerror(errno));
		r->kallsyms = xrealloc(r->kallsyms, r->kallsyms_len + len + 2);
		memcpy(r->kallsyms + r->kallsyms_len, text, len);
		r->kallsyms_len += len;
		if (len && text[len - 1] != '\n')
			r->kallsyms[r->kallsyms_len++] = '\n';
		r->kallsyms[r->kallsyms_len] = 0;
		free(text);
	}
	return 0;
}

static int run_report(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct report r = { 0 };
	int ret;

	/* What the options allocated is freed after -h or a usage error too. */
	if ((ret = parse_args(&r, argc, argv)) != PARSE_RUN)
		goto out;
	if (r.quiet)
		tep_set_loglevel(TEP_LOG_NONE);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	for (int i = 0; i < r.profile_opts.nr_hooks; i++)
		profile_echo_hook(r.profile_opts.hooks[i]);
	r.line_opts.no_plugins = !!(r.input_flags & TRACE_INPUT_NO_PLUGINS);
	r.line = trace_line_new(&r.line_opts);
	ret = read_kallsyms_files(&r) < 0 ? EXIT_FAILED : report_file(&r);
	fflush(stdout);
out:
	kvm_guest_unmap();
	for (int i = 0; i < r.nr_files; i++) {
		struct file_ctx *f = &r.files[i];

		file_filter_free(f->filter);
		filter_set_free(&f->filters);
		line_source_free(f->line);
		trace_input_close(f->in);
	}
	for (int i = 0; i < r.nr_event_matches; i++) {
		regfree(&r.event_matches[i].system);
		regfree(&r.event_matches[i].event);
	}
	free(r.event_matches);
	free(r.kallsyms_files);
	free(r.kallsyms);
	trace_format_free(r.fmt);
	trace_line_free(r.line);
	free(r.files);
	filter_set_free(&r.filters);
	free(r.raw_events);
	free(r.nohandle_events);
	free(r.plugin_opts);
	profile_free(r.prof);
	free(r.profile_opts.hooks);
	for (int i = 0; i < r.nr_file_hooks; i++)
		free(r.file_hooks[i]);
	free(r.file_hooks);
	return ret;
}

const struct command cmd_report = {
	.name = "report",
	.run = run_report,
	.usage = report_usage,
	.summary = "show the events of a trace.dat file",
};
