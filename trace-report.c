// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd report: turns the records of a trace.dat into lines, as upstream
 * 3.1.6 prints them (libtraceevent with its plugins), after the header lines
 * trace-cmd 1.x printed.  Filters (-F, -v, --cpu) and the other report options
 * live here; reading the file is trace-input's job.
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
#include "trace-format.h"
#include "trace-line.h"

extern const struct command cmd_report;

static const char report_usage[] =
	"usage: trace-cmd report [OPTIONS] [FILE]\n"
	"\n"
	"  -i FILE          read FILE instead of trace.dat (or give FILE last); several\n"
	"                   -i files merge into one timeline, lines labelled by file\n"
	"  --cpu LIST       show only these CPUs (e.g. 0,3 or 2-4); repeatable\n"
	"  -F FILTER        show only events matching 'event[,event][: condition]'; repeatable\n"
	"  -v               the -F filters that follow hide the events they match\n"
	"  --pid PID        show only the events of task PID (and its wakeups and switches)\n"
	"  --comm COMM      show only the events of the tasks named COMM\n"
	"  -w               show each task's wakeup latency at its sched_switch\n"
	"  -T               print the -F filters as parsed, then exit\n"
	"  -I               hide events in hard interrupt context\n"
	"  -S               hide events in soft interrupt context\n"
	"  -t               print timestamps in nanoseconds\n"
	"  -l               latency format: CPU, irqs-off, need-resched, context, preempt depth\n"
	"  -R               print every event's raw fields\n"
	"  -r EVENTS        print the raw fields of the events matching regex EVENTS\n"
	"  -n EVENTS        ignore plugin handlers for the events matching regex EVENTS\n"
	"  -N               load no plugins\n"
	"  -O OPTION        pass [plugin:]var[=value] to the plugins\n"
	"  -q               quiet: no warnings from the event parser\n"
	"  -L               load only the user's plugins, not the system's\n"
	"  --verbose[=LEVEL]  log level of the event parser: none crit err warn info debug\n"
	"                   all, or 0-6 (info when LEVEL is left out)\n"
	"  --ts-offset N    add N (raw units, may be negative) to every timestamp\n"
	"  --ts2secs HZ     convert counter timestamps with HZ ticks per second\n"
	"  --align-ts       show timestamps relative to the first event\n"
	"  --ts-diff        show the time since the previous event shown\n"
	"  --ts-check       warn when a timestamp goes backwards\n"
	"  --raw-ts         show raw timestamps, without any correction\n"
	"  --nodate         ignore the wall-clock offset stored in the DATE option\n"
	"  --events         print the event formats stored in the file, then exit\n"
	"  -E               list the events the file has formats for, then exit\n"
	"  -e               print the file's and the host's byte order, then exit\n"
	"  -f               list the functions (kallsyms) stored in the file, then exit\n"
	"  -P               list the printk formats stored in the file, then exit\n"
	"  --cpus           list the CPUs that have data, then exit\n"
	"  --first-event    list the first timestamp of each CPU with data, then exit\n"
	"  --last-event     list the last timestamp of each CPU with data, then exit\n"
	"  --stat           print the kernel buffer statistics stored at record time\n"
	"  --uname          print the uname and version stored at record time\n"
	"  --version        print the trace-cmd version that recorded the file\n"
	"  --check-events   check that every event format parses, then exit\n"
	"  --format FORMAT  text (the default), jsonl or csv: one record per event, all fields\n"
	"  -h               show this help\n";

enum {
	OPT_EVENTS = 256,
	OPT_CPU,
	OPT_TS_OFFSET,
	OPT_TS2SECS,
	OPT_ALIGN_TS,
	OPT_TS_DIFF,
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
};

static const struct option long_options[] = {
	{ "events",		no_argument,		NULL, OPT_EVENTS },
	{ "cpu",		required_argument,	NULL, OPT_CPU },
	{ "ts-offset",		required_argument,	NULL, OPT_TS_OFFSET },
	{ "ts2secs",		required_argument,	NULL, OPT_TS2SECS },
	{ "align-ts",		no_argument,		NULL, OPT_ALIGN_TS },
	{ "ts-diff",		no_argument,		NULL, OPT_TS_DIFF },
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
	{ "help",		no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* What report prints instead of the events. */
enum mode {
	MODE_EVENTS_LINES,
	MODE_FORMATS,		/* --events */
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

#define MAX_CPU_FILTER 4096

#define EVENT_CACHE	65536

/* One input file and what depends on its own tep handle. */
struct file_ctx {
	const char	*file;
	const char	*label;		/* its base name, as upstream labels merged files */
	struct trace_input *in;
	struct tep_handle *tep;
	struct tep_event_filter *filter;	/* -F before any -v: show only matches */
	struct tep_event_filter *neg_filter;	/* -F after -v: hide matches */
	unsigned char	*filter_ids, *neg_ids;	/* by event id, see filter_ids() */
	int		multi_buffer;
	struct tep_event **events;	/* by id: tep_find_event() searches each time */
	struct line_source *line;	/* how its records are printed */
	struct tep_record *rec;		/* its next record in the merge, or NULL */
	int		buffer;
};

struct report {
	enum mode	mode;
	int		invert;		/* -v seen: later -F filters hide what they match */
	char		**filters;
	int		*filter_neg;
	int		nr_filters;
	unsigned char	*cpus;		/* NULL: all CPUs */
	int		input_flags;
	struct line_opts line_opts;	/* -t, -l, -R, --ts-diff, -w, -N */
	int		no_irqs, no_softirqs, quiet;
	int		ts_check, align_ts;
	int64_t		ts_offset;
	uint64_t	ts2secs;
	char		**raw_events, **nohandle_events;
	int		nr_raw_events, nr_nohandle_events;
	char		**plugin_opts;	/* -O, checked once the plugins are loaded */
	int		nr_plugin_opts;
	int		*pids;		/* --pid, and the tasks --comm names */
	int		nr_pids;
	char		**comms;
	int		nr_comms;
	struct file_ctx	*files;		/* several -i files are merged into one timeline */
	int		nr_files;
	int		format;		/* --format: enum trace_format_kind */
	struct trace_format *fmt;	/* its writer; NULL for text */
	struct trace_line *line;	/* the event lines' printer */
	struct file_ctx	*c;		/* the file being worked on */
	int		label_width;	/* with several files: the widest file or buffer name */
	uint64_t	last_check_ts;
};

/* --cpu 0,3 / 2-4 / 1:2, as upstream accepts. */
static int add_cpu_list(struct report *r, const char *arg)
{
	const char *p = arg;

	if (!r->cpus)
		r->cpus = xcalloc(MAX_CPU_FILTER, 1);
	do {
		unsigned long a, b;
		char *end;

		while (isspace((unsigned char)*p))
			p++;
		if (!isdigit((unsigned char)*p))
			return error("invalid --cpu value '%s': not a CPU list", arg);
		a = b = strtoul(p, &end, 10);
		p = end;
		if (*p == '-') {
			p++;
			if (!isdigit((unsigned char)*p))
				return error("invalid --cpu value '%s': not a CPU list", arg);
			b = strtoul(p, &end, 10);
			p = end;
		}
		if (a > b)
			return error("invalid --cpu value '%s': range must go from lower to higher",
				     arg);
		if (b >= MAX_CPU_FILTER)
			return error("invalid --cpu value '%s': out of range (0 to %d)", arg,
				     MAX_CPU_FILTER - 1);
		for (unsigned long c = a; c <= b; c++)
			r->cpus[c] = 1;
		if (*p == ',' || *p == ':')
			p++;
		else if (*p)
			return error("invalid --cpu value '%s': not a CPU list", arg);
	} while (*p);
	return 0;
}

/* ---- -F ---------------------------------------------------------------- */

static int field_in_event(struct tep_event *ev, const char *name)
{
	if (!strcmp(name, "COMM") || !strcmp(name, "CPU"))
		return 1;
	return tep_find_any_field(ev, name) != NULL;
}

static int names_match(const char *system, const char *name, const char *pat);

static int event_matches(struct tep_event *ev, const char *pat)
{
	return names_match(ev->system, ev->name, pat);
}

static int names_match(const char *system, const char *name, const char *pat)
{
	char buf[512];
	const char *slash = strchr(pat, '/');
	regex_t sys_re, ev_re;
	int ok;

	/* SYSTEM/EVENT, or one name matched against either, as regexes. */
	if (slash) {
		snprintf(buf, sizeof(buf), "^%.*s$", (int)(slash - pat), pat);
		if (regcomp(&sys_re, buf, REG_ICASE | REG_NOSUB))
			return 0;
		snprintf(buf, sizeof(buf), "^%s$", slash + 1);
		if (regcomp(&ev_re, buf, REG_ICASE | REG_NOSUB)) {
			regfree(&sys_re);
			return 0;
		}
		ok = !regexec(&sys_re, system, 0, NULL, 0) &&
		     !regexec(&ev_re, name, 0, NULL, 0);
		regfree(&sys_re);
		regfree(&ev_re);
		return ok;
	}
	snprintf(buf, sizeof(buf), "^%s$", pat);
	if (regcomp(&ev_re, buf, REG_ICASE | REG_NOSUB))
		return 0;
	ok = !regexec(&ev_re, name, 0, NULL, 0) || !regexec(&ev_re, system, 0, NULL, 0);
	regfree(&ev_re);
	return ok;
}

/* -r and -n: a pattern names_match() can use, checked when given. */
static int check_name_pattern(const char *opt, const char *pat)
{
	const char *slash = strchr(pat, '/');
	char *part[2] = { xstrdup(pat), NULL };
	int ret = check_named(opt, pat, "an event regex");

	if (slash) {
		part[0][slash - pat] = '\0';
		part[1] = xstrdup(slash + 1);
	}
	for (int i = 0; i < 2 && !ret && part[i]; i++) {
		regex_t rx;

		ret = compile_regex(opt, part[i], REG_ICASE | REG_NOSUB, &rx);
		if (!ret)
			regfree(&rx);
	}
	free(part[0]);
	free(part[1]);
	return ret;
}

static char *trim(char *s)
{
	char *e;

	while (isspace((unsigned char)*s))
		s++;
	e = s + strlen(s);
	while (e > s && isspace((unsigned char)e[-1]))
		*--e = 0;
	return s;
}

/*
 * libtraceevent treats a field that an event lacks as false, so a typo
 * filters everything out in silence.  Each field named in the condition must
 * exist in at least one of the events the filter names.
 */
static int check_filter_fields(struct report *r, const char *spec, struct tep_event **evs,
			       int nr)
{
	const char *p = strchr(spec, ':');

	if (!p)
		return 0;
	for (p++; *p;) {
		char name[256];
		size_t n = 0;

		if (*p == '"' || *p == '\'') {
			char q = *p++;

			while (*p && *p != q)
				p += (*p == '\\' && p[1]) ? 2 : 1;
			if (*p)
				p++;
			continue;
		}
		if (isdigit((unsigned char)*p)) {
			while (isalnum((unsigned char)*p) || *p == '_' || *p == '.')
				p++;
			continue;
		}
		if (!isalpha((unsigned char)*p) && *p != '_') {
			p++;
			continue;
		}
		while ((isalnum((unsigned char)*p) || *p == '_') && n < sizeof(name) - 1)
			name[n++] = *p++;
		name[n] = 0;
		int found = 0;

		for (int i = 0; i < nr && !found; i++)
			found = field_in_event(evs[i], name);
		if (!found)
			return error("filter '%s': no field '%s' in %s", spec, name,
				     nr == 1 ? evs[0]->name : "any of the events it names");
	}
	(void)r;
	return 0;
}

/* Checks that each event named in @spec exists, then its fields. */
static int check_filter(struct report *r, const char *spec)
{
	char *copy = xstrdup(spec);
	char *colon = strchr(copy, ':');
	struct tep_event **all = tep_list_events(r->c->tep, TEP_EVENT_SORT_ID);
	struct tep_event **evs = NULL;
	int nr = 0, ret = 0;
	char *save, *tok;

	if (colon)
		*colon = 0;
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		char *pat = trim(tok);
		int matched = 0;

		if (!*pat) {
			ret = error("filter '%s': empty event name", spec);
			goto out;
		}
		for (int i = 0; all && all[i]; i++) {
			if (!event_matches(all[i], pat))
				continue;
			evs = xrealloc(evs, sizeof(*evs) * (nr + 1));
			evs[nr++] = all[i];
			matched = 1;
		}
		if (!matched) {
			ret = error("filter '%s': no event '%s' in '%s'", spec, pat, r->c->file);
			goto out;
		}
	}
	ret = check_filter_fields(r, spec, evs, nr);
out:
	free(evs);
	free(copy);
	return ret;
}

/*
 * libtraceevent's filter parser writes its error message into a 1 KiB buffer
 * without bounds: the condition (the text after the first ':'), a newline,
 * as many spaces again up to where the error is, then a caret and the reason.
 * A condition of 511 bytes or more with an error at its end overflows it (a
 * heap overflow found with the ASan build; 510 nested parentheses are 1020
 * bytes of such text, the use-after-free seen there is the same overflow).
 * Deep nesting alone is harmless (50,000 levels parse), so length is the one
 * limit, with a margin.
 */
#define FILTER_CONDITION_MAX	500

static int check_filter_length(const char *spec)
{
	const char *cond = strchr(spec, ':');
	size_t len = cond ? strlen(cond + 1) : 0;

	if (len <= FILTER_CONDITION_MAX)
		return 0;
	return error("filter '%.32s...': condition too long: %zu bytes, at most %d "
		     "(more can overflow libtraceevent's 1 KiB error buffer)",
		     spec, len, FILTER_CONDITION_MAX);
}

/*
 * libtraceevent 1.7 crashes on some malformed filters (a comparison with no
 * value, "pid =="), so each is parsed first in a child that may die.
 */
static int filter_parses_safely(struct report *r, const char *spec)
{
	int status;
	pid_t pid;

	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return error("cannot fork to check filter '%s': %s", spec, strerror(errno));
	if (!pid) {
		struct tep_event_filter *f = tep_filter_alloc(r->c->tep);
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, 2);
		_exit(f && tep_filter_add_filter_str(f, spec) >= 0 ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("cannot check filter '%s': %s", spec, strerror(errno));
	/* Exit 1 is a parse error tep reports itself; a sanitizer's crash exits 99. */
	if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) > 1)
		return error("filter '%s': syntax error", spec);
	return 0;
}

/*
 * libtraceevent's parse error is three lines: the condition, a caret under
 * the fault, the reason.  One line instead: the reason and the column.
 */
static int filter_parse_error(const char *spec, char *msg)
{
	char *reason = strrchr(msg, '\n'), *caret;

	if (!reason)
		return error("filter '%s': %s", spec, trim(msg));
	*reason++ = '\0';
	caret = strchr(msg, '^');
	if (!caret || !strchr(msg, '\n') || caret < strchr(msg, '\n'))
		return error("filter '%s': %s", spec, trim(reason));
	if (*reason)
		*reason = tolower((unsigned char)*reason);
	return error("filter '%s': %s (at column %d of the condition)", spec, trim(reason),
		     (int)(caret - strchr(msg, '\n')));
}

static int setup_filters(struct report *r)
{
	for (int i = 0; i < r->nr_filters; i++) {
		struct tep_event_filter **f = r->filter_neg[i] ? &r->c->neg_filter : &r->c->filter;
		enum tep_errno err;
		char msg[TEP_FILTER_ERROR_BUFSZ + 1];

		if (check_filter(r, r->filters[i]) < 0 ||
		    filter_parses_safely(r, r->filters[i]) < 0)
			return -1;
		if (!*f)
			*f = tep_filter_alloc(r->c->tep);
		if (!*f)
			return error("out of memory for filters");
		err = tep_filter_add_filter_str(*f, r->filters[i]);
		if (err < 0) {
			if (tep_filter_strerror(*f, err, msg, sizeof(msg)) < 0)
				tep_strerror(r->c->tep, err, msg, sizeof(msg));
			return filter_parse_error(r->filters[i], trim(msg));
		}
	}
	return 0;
}

/*
 * What each event id's filter needs, so most records are decided by their id
 * alone: FILTER_ID_NONE (no filter), FILTER_ID_TRUE (the whole event),
 * FILTER_ID_MATCH (a condition libtraceevent must test).
 */
enum { FILTER_ID_NONE, FILTER_ID_TRUE, FILTER_ID_MATCH };
#define FILTER_IDS	65536

static unsigned char *filter_ids(struct tep_event_filter *f)
{
	unsigned char *ids = xcalloc(FILTER_IDS, 1);

	for (int i = 0; i < f->filters; i++) {
		struct tep_filter_type *t = &f->event_filters[i];
		int whole = t->filter && t->filter->type == TEP_FILTER_ARG_BOOLEAN &&
			    t->filter->boolean.value == TEP_FILTER_TRUE;

		if (t->event_id >= 0 && t->event_id < FILTER_IDS)
			ids[t->event_id] = whole ? FILTER_ID_TRUE : FILTER_ID_MATCH;
	}
	return ids;
}

static int filter_says(struct tep_event_filter *f, unsigned char *ids, int id,
		       struct tep_record *rec)
{
	if (id < 0 || id >= FILTER_IDS)
		return tep_filter_match(f, rec) == TEP_ERRNO__FILTER_MATCH;
	if (ids[id] == FILTER_ID_NONE)
		return 0;
	return ids[id] == FILTER_ID_TRUE || tep_filter_match(f, rec) == TEP_ERRNO__FILTER_MATCH;
}

/* As upstream: the plain filters choose what is shown, then -v ones remove from it. */
static int record_shown(struct report *r, struct tep_record *rec)
{
	struct file_ctx *c = r->c;
	int id;

	if (!c->filter && !c->neg_filter)
		return 1;
	id = trace_input_record_type(c->in, rec);
	if (c->filter) {
		if (!c->filter_ids)
			c->filter_ids = filter_ids(c->filter);
		if (!filter_says(c->filter, c->filter_ids, id, rec))
			return 0;
	}
	if (c->neg_filter) {
		if (!c->neg_ids)
			c->neg_ids = filter_ids(c->neg_filter);
		if (filter_says(c->neg_filter, c->neg_ids, id, rec))
			return 0;
	}
	return 1;
}

/* ---- output ------------------------------------------------------------ */

static void print_event_formats(struct report *r)
{
	const char *last = NULL;

	for (int i = 0; i < trace_input_nr_formats(r->c->in); i++) {
		const char *system, *text;
		size_t len;

		text = trace_input_format(r->c->in, i, &system, &len);
		if (!strcmp(system, "ftrace"))
			continue;
		if (!last || strcmp(last, system))
			printf("\nsystem: %s\n", system);
		last = system;
		fwrite(text, 1, len, stdout);
		putchar('\n');
	}
}

/* With several files, each line starts with its file's name, as upstream does. */
static void print_label(struct report *r, const char *name)
{
	if (r->nr_files > 1)
		printf("%*s: ", r->label_width, name);
}

static void print_header(struct report *r)
{
	if (r->format != TRACE_FORMAT_TEXT)
		return;
	print_label(r, r->c->label);
	printf("version = %d\n", trace_input_version(r->c->in));
	for (int cpu = 0; !trace_input_is_latency(r->c->in) &&
	     cpu < trace_input_buffer_cpus(r->c->in, 0); cpu++) {
		if (trace_input_cpu_size(r->c->in, 0, cpu))
			continue;
		print_label(r, r->c->label);
		printf("CPU %d is empty\n", cpu);
	}
	print_label(r, r->c->label);
	printf("cpus=%d\n", trace_input_cpus(r->c->in));
}

/* A timestamp as the CPU listings show it (tep's "%6.1000d" / "%9.1d"). */
static void print_ts(struct report *r, uint64_t ts)
{
	if (!trace_input_in_usecs(r->c->in))
		printf("%12llu", (unsigned long long)ts);
	else if (r->line_opts.nsec)
		printf("%5llu.%09llu", (unsigned long long)(ts / 1000000000ULL),
		       (unsigned long long)(ts % 1000000000ULL));
	else {
		unsigned long long us = (ts + 500) / 1000;

		printf("%5llu.%06llu", us / 1000000, us % 1000000);
	}
}

static int print_cpu_list(struct report *r)
{
	printf("List of CPUs in %s with data:\n", r->c->file);
	for (int cpu = 0; cpu < trace_input_buffer_cpus(r->c->in, 0); cpu++) {
		uint64_t first, last;
		int ret;

		if (!trace_input_cpu_size(r->c->in, 0, cpu))
			continue;
		if (r->mode == MODE_CPUS) {
			printf("  %d\n", cpu);
			continue;
		}
		ret = trace_input_cpu_first_last(r->c->in, 0, cpu, &first, &last);
		if (ret < 0)
			return -1;
		if (!ret)
			continue;
		printf("  %d\t%s event:", cpu, r->mode == MODE_FIRST ? "First" : "Last");
		print_ts(r, r->mode == MODE_FIRST ? first : last);
		putchar('\n');
	}
	return 0;
}

/* Prints the NUL-terminated text options with @id, one a line. */
static int print_text_option(struct report *r, int id)
{
	const char *p;
	size_t len;
	int n;

	for (n = 0; (p = trace_input_option(r->c->in, id, n, &len)); n++)
		printf("%.*s\n", (int)strnlen(p, len), p);
	return n;
}

static void print_stat(struct report *r)
{
	printf("\nKernel buffer statistics:\n"
	       "  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
	       "        recorded in the trace data. They should all be zero.\n\n");
	if (!print_text_option(r, TRACE_OPT_CPUSTAT))
		printf(" No stats in this file\n");
	else
		putchar('\n');
	/*
	 * Upstream shows compressed data where it decompresses it: one page in,
	 * each CPU after the one before.
	 */
	uint64_t off = trace_input_page_size(r->c->in);

	for (int cpu = 0; cpu < trace_input_buffer_cpus(r->c->in, 0); cpu++) {
		uint64_t size = trace_input_cpu_data_size(r->c->in, 0, cpu);

		/* v7 files list only the CPUs with data. */
		if (!size && trace_input_version(r->c->in) >= 7)
			continue;
		if (!trace_input_buffer_compressed(r->c->in, 0))
			off = trace_input_cpu_offset(r->c->in, 0, cpu);
		printf("CPU%d data recorded at offset=0x%llx\n", cpu, (unsigned long long)off);
		printf("    %llu bytes in size\n", (unsigned long long)size);
		off += size;
	}
}

static int check_events(struct report *r)
{
	struct tep_event **evs = tep_list_events(r->c->tep, TEP_EVENT_SORT_ID);
	int bad = 0;

	for (int i = 0; evs && evs[i]; i++) {
		if (!(evs[i]->flags & TEP_EVENT_FL_FAILED))
			continue;
		error("'%s': the format of %s:%s does not parse", r->c->file, evs[i]->system,
		      evs[i]->name);
		bad = 1;
	}
	return bad ? EXIT_FAILED : EXIT_OK;
}

static void list_events(struct report *r)
{
	struct tep_event **evs = tep_list_events(r->c->tep, TEP_EVENT_SORT_SYSTEM);

	for (int i = 0; evs && evs[i]; i++)
		printf("%s:%s\n", evs[i]->system, evs[i]->name);
}

/* -T: each event's filter as libtraceevent parsed it, as upstream prints it. */
static int test_filters(struct report *r)
{
	struct tep_event **evs = tep_list_events(r->c->tep, TEP_EVENT_SORT_ID);
	struct tep_event_filter *fs[2] = { r->c->filter, r->c->neg_filter };

	for (int k = 0; k < 2; k++) {
		for (int i = 0; fs[k] && evs && evs[i]; i++) {
			char *str = tep_filter_make_string(fs[k], evs[i]->id);

			if (!str)
				continue;
			printf(" '%s: %s'\n", evs[i]->name, str);
			free(str);
		}
	}
	return EXIT_OK;
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

/* tep_find_event_by_record() searches every time; ids are small, so cache them. */
static struct tep_event *event_of(struct report *r, struct tep_record *rec)
{
	int id = trace_input_record_type(r->c->in, rec);

	if (id < 0 || id >= EVENT_CACHE)
		return tep_find_event(r->c->tep, id);
	if (!r->c->events[id])
		r->c->events[id] = tep_find_event(r->c->tep, id);
	return r->c->events[id];
}

static unsigned long long field_val(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field(f, rec->data, &v);
	return v;
}

/* -I and -S: the context flags of the record's common_flags. */
#define FLAG_HARDIRQ	0x08
#define FLAG_SOFTIRQ	0x10

/*
 * --pid and --comm, as upstream shows them: the task's own events, and the
 * events about it (a wakeup's pid, a switch's next_pid).
 */
static int pid_wanted(struct report *r, int pid)
{
	for (int i = 0; i < r->nr_pids; i++)
		if (r->pids[i] == pid)
			return 1;
	return 0;
}

static int task_shown(struct report *r, struct tep_record *rec)
{
	static const char *const fields[] = { "pid", "next_pid", "prev_pid" };
	struct tep_event *ev;

	if (pid_wanted(r, trace_input_record_pid(r->c->in, rec)))
		return 1;
	ev = event_of(r, rec);
	for (size_t i = 0; ev && i < ARRAY_SIZE(fields); i++) {
		struct tep_format_field *f = tep_find_field(ev, fields[i]);

		if (f && pid_wanted(r, field_val(f, rec)))
			return 1;
	}
	return 0;
}

/* --comm NAME: the PIDs the saved cmdlines give that name. */
static int add_comm_pids(struct report *r)
{
	for (int i = 0; i < r->nr_comms; i++) {
		struct tep_cmdline *c = NULL;
		int found = 0;

		while ((c = tep_data_pid_from_comm(r->c->tep, r->comms[i], c))) {
			r->pids = xrealloc(r->pids, sizeof(int) * (r->nr_pids + 1));
			r->pids[r->nr_pids++] = tep_cmdline_pid(r->c->tep, c);
			found = 1;
		}
		if (!found)
			return error("--comm '%s': no task of that name in '%s'", r->comms[i],
				     r->c->file);
	}
	return 0;
}

/*
 * -I, -S, --pid, --comm and -F.  (Upstream 3.1.6 shows some kernel_stack
 * records that -F does not name, by a rule its output does not make clear;
 * here -F applies to them like to any event.)
 */
static int filters_pass(struct report *r, struct tep_record *rec)
{
	if (r->no_irqs || r->no_softirqs) {
		int flags = tep_data_flags(r->c->tep, rec);

		if ((r->no_irqs && (flags & FLAG_HARDIRQ)) ||
		    (r->no_softirqs && (flags & FLAG_SOFTIRQ)))
			return 0;
	}
	if ((r->nr_pids || r->nr_comms) && !task_shown(r, rec))
		return 0;
	return record_shown(r, rec);
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
	while ((f = next_file(r))) {
		r->c = f;
		rec = f->rec;
		if (first && r->align_ts)
			base = rec->ts;
		first = 0;
		rec->ts -= base;
		if (!filters_pass(r, rec))
			goto next;
		if (r->ts_check && rec->ts < r->last_check_ts)
			warning("record on cpu %d went backwards: %llu to %llu delta: -%llu",
				rec->cpu, (unsigned long long)r->last_check_ts,
				(unsigned long long)rec->ts,
				(unsigned long long)(r->last_check_ts - rec->ts));
		r->last_check_ts = rec->ts;
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
	if (r->line_opts.wakeup && !ret)
		trace_line_wakeup_summary(r->line);
	return ret;
}

/* -r and -n: regexes matched against event and system names, whole. */
static void flag_events(struct report *r, char **pats, int n, int flag)
{
	struct tep_event **evs = tep_list_events(r->c->tep, TEP_EVENT_SORT_ID);

	for (int k = 0; k < n; k++)
		for (int i = 0; evs && evs[i]; i++)
			if (event_matches(evs[i], pats[k]))
				evs[i]->flags |= flag;
}

static int needs_all_events(struct report *r)
{
	return r->nr_raw_events || r->nr_nohandle_events ||
	       r->mode == MODE_EVENT_LIST || r->mode == MODE_CHECK ||
	       r->mode == MODE_TEST_FILTERS || r->mode == MODE_FUNCS;
}

/* Whether -F @spec names the event @name of @system (what check_filter() matches). */
static int filter_names(const char *spec, const char *system, const char *name)
{
	char *copy = xstrdup(spec), *colon = strchr(copy, ':'), *save, *tok;
	int found = 0;

	if (colon)
		*colon = 0;
	for (tok = strtok_r(copy, ",", &save); tok && !found; tok = strtok_r(NULL, ",", &save))
		found = *trim(tok) && names_match(system, name, trim(tok));
	free(copy);
	return found;
}

/*
 * With -F and no listing, only the formats the filters name are parsed up
 * front (the others as their records come), and kallsyms only for a
 * condition, which may compare a field with a function's name.
 */
static int parse_filtered_events(struct report *r, struct file_ctx *f)
{
	int conditions = 0;

	for (int i = 0; i < trace_input_nr_formats(f->in); i++) {
		const char *system, *text = NULL;
		char name[256];
		size_t len, n;

		text = trace_input_format(f->in, i, &system, &len);
		if (len < 6 || memcmp(text, "name: ", 6))
			continue;
		n = strcspn(text + 6, "\n");
		if (n > len - 6)
			n = len - 6;
		snprintf(name, sizeof(name), "%.*s", (int)n, text + 6);
		for (int k = 0; k < r->nr_filters; k++) {
			if (filter_names(r->filters[k], system, name)) {
				if (trace_input_parse_format(f->in, i) < 0)
					return -1;
				break;
			}
		}
	}
	for (int k = 0; k < r->nr_filters; k++)
		conditions |= strchr(r->filters[k], ':') != NULL;
	if (conditions)
		trace_input_load_functions(f->in);
	return 0;
}

static int open_file(struct report *r, struct file_ctx *f)
{
	r->c = f;
	/* Formats and kallsyms load as records need them, unless all are listed or filtered. */
	f->in = trace_input_open(f->file, r->input_flags | TRACE_INPUT_LAZY);
	if (!f->in)
		return -1;
	if (needs_all_events(r) ? trace_input_parse_all(f->in) < 0 :
	    r->nr_filters && parse_filtered_events(r, f) < 0)
		return -1;
	f->tep = trace_input_tep(f->in);
	f->events = xcalloc(EVENT_CACHE, sizeof(*f->events));
	if (r->line_opts.nsec)
		tep_set_flag(f->tep, TEP_NSEC_OUTPUT);
	if (r->ts_offset)
		trace_input_add_ts_offset(f->in, r->ts_offset);
	if (r->ts2secs)
		trace_input_set_ts2secs(f->in, r->ts2secs);
	f->line = line_source_new(r->line, f->in, f->label);
	return 0;
}

/* Filters, flags and formats of the current file, before its events are read. */
static int prepare_events(struct report *r)
{
	if (setup_filters(r) < 0 || add_comm_pids(r) < 0)
		return -1;
	if (r->cpus)
		for (int cpu = 0; cpu < MAX_CPU_FILTER; cpu++)
			if (!r->cpus[cpu])
				trace_input_skip_cpu(r->c->in, cpu);
	r->c->multi_buffer = trace_input_nr_buffers(r->c->in) > 1;
	for (int b = 0; b < trace_input_nr_buffers(r->c->in); b++) {
		int len = strlen(trace_input_buffer_name(r->c->in, b));

		if (len > r->label_width)
			r->label_width = len;
	}
	flag_events(r, r->raw_events, r->nr_raw_events, TEP_EVENT_FL_PRINTRAW);
	flag_events(r, r->nohandle_events, r->nr_nohandle_events, TEP_EVENT_FL_NOHANDLE);
	line_source_setup_graph(r->c->line);
	/*
	 * Events no -F names are never shown: the reader drops them by id.  Not
	 * with --align-ts (the first record sets the base) nor when graph
	 * entries are shown (their leaf test looks at the other CPUs' records).
	 */
	if (r->c->filter && !r->align_ts) {
		if (!r->c->filter_ids)
			r->c->filter_ids = filter_ids(r->c->filter);
		int graph = line_source_graph_entry(r->c->line);

		if (graph < 0 || graph >= FILTER_IDS || !r->c->filter_ids[graph])
			trace_input_only_ids(r->c->in, r->c->filter_ids);
	}
	return 0;
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
		return EXIT_USAGE;
	for (int i = 0; i < r->nr_files; i++) {
		r->c = &r->files[i];
		if (prepare_events(r) < 0)
			return EXIT_FAILED;
	}
	for (int i = 0; i < r->nr_files; i++) {
		r->c = &r->files[i];
		print_header(r);
	}
	return print_records(r) < 0 ? EXIT_FAILED : EXIT_OK;
}

static int report_file(struct report *r)
{
	if (r->nr_files > 1)
		return report_files(r);
	if (open_file(r, &r->files[0]) < 0)
		return EXIT_FAILED;
	if (check_plugin_options(r) < 0)
		return EXIT_USAGE;

	switch (r->mode) {
	case MODE_FORMATS:
		print_event_formats(r);
		return EXIT_OK;
	case MODE_EVENT_LIST:
		list_events(r);
		return EXIT_OK;
	case MODE_ENDIAN: {
		const uint16_t probe = 1;

		printf("file is %s endian and host is %s endian\n",
		       trace_input_big_endian(r->c->in) ? "big" : "little",
		       *(const unsigned char *)&probe ? "little" : "big");
		return EXIT_OK;
	}
	case MODE_FUNCS:
		fflush(stdout);
		tep_print_funcs(r->c->tep);
		return EXIT_OK;
	case MODE_PRINTK:
		fflush(stdout);
		tep_print_printk(r->c->tep);
		return EXIT_OK;
	case MODE_CPUS:
	case MODE_FIRST:
	case MODE_LAST:
		return print_cpu_list(r) < 0 ? EXIT_FAILED : EXIT_OK;
	case MODE_CHECK:
		return check_events(r);
	default:
		break;
	}
	if (r->mode == MODE_TEST_FILTERS)
		return setup_filters(r) < 0 ? EXIT_FAILED : test_filters(r);
	if (prepare_events(r) < 0)
		return EXIT_FAILED;
	print_header(r);
	switch (r->mode) {
	case MODE_STAT:
		print_stat(r);
		return EXIT_OK;
	case MODE_UNAME:
		if (!print_text_option(r, TRACE_OPT_UNAME))
			printf(" uname was not recorded in this file\n");
		/* upstream prints the version too */
		__attribute__((fallthrough));
	case MODE_VERSION:
		if (!print_text_option(r, TRACE_OPT_VERSION))
			printf(" version was not recorded in this file\n");
		return EXIT_OK;
	default:
		break;
	}
	if (trace_input_is_latency(r->c->in) && r->format != TRACE_FORMAT_TEXT) {
		error("--format: '%s' holds a latency tracer's text, not event records", r->c->file);
		return EXIT_FAILED;
	}
	if (trace_input_is_latency(r->c->in)) {
		size_t len;
		char *text = trace_input_latency_text(r->c->in, &len);

		if (!text)
			return EXIT_FAILED;
		fwrite(text, 1, len, stdout);
		putchar('\n');
		free(text);
		return EXIT_OK;
	}
	return print_records(r) < 0 ? EXIT_FAILED : EXIT_OK;
}

static char **add_str(char **list, int *n, char *s)
{
	list = xrealloc(list, sizeof(*list) * (*n + 1));
	list[(*n)++] = s;
	return list;
}

/* --verbose[=LEVEL]: libtraceevent's log level, by name or number. */
static int set_verbose(const char *arg)
{
	static const char *const names[] = {
		"none", "crit", "err", "warn", "info", "debug", "all",
	};
	unsigned long n;

	if (!arg) {
		tep_set_loglevel(TEP_LOG_INFO);
		return 0;
	}
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		if (!strncmp(arg, names[i], strlen(names[i]))) {
			tep_set_loglevel(i);
			return 0;
		}
	}
	if (parse_ulong("--verbose", arg, 0, ARRAY_SIZE(names) - 1, &n) < 0)
		return -1;
	tep_set_loglevel(n);
	return 0;
}

static void add_file(struct report *r, const char *file)
{
	r->files = xrealloc(r->files, sizeof(*r->files) * (r->nr_files + 1));
	memset(&r->files[r->nr_files], 0, sizeof(*r->files));
	r->files[r->nr_files++].file = file;
}

static int set_mode(struct report *r, enum mode m, const char *opt)
{
	if (r->mode != MODE_EVENTS_LINES && r->mode != m)
		return usage_error(&cmd_report, "%s cannot be combined with another listing option",
				   opt);
	r->mode = m;
	return 0;
}

static int parse_args(struct report *r, int argc, char **argv)
{
	unsigned long ul;
	long l;
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:F:vTIStlRr:n:NO:qeEfPwL", long_options,
				NULL)) != -1) {
		switch (c) {
		case 'h':
			show_usage(&cmd_report);
			return -1;
		case 'i':
			add_file(r, optarg);
			break;
		case 'F':
			if (check_filter_length(optarg) < 0)
				return EXIT_USAGE;
			r->filter_neg = xrealloc(r->filter_neg, sizeof(int) * (r->nr_filters + 1));
			r->filter_neg[r->nr_filters] = r->invert;
			r->filters = add_str(r->filters, &r->nr_filters, optarg);
			break;
		case 'v':
			r->invert = 1;
			break;
		case 'T':
			if (set_mode(r, MODE_TEST_FILTERS, "-T"))
				return EXIT_USAGE;
			break;
		case 'w':
			r->line_opts.wakeup = 1;
			break;
		case 'L':
			r->input_flags |= TRACE_INPUT_LOCAL_PLUGINS;
			break;
		case OPT_VERBOSE:
			if (set_verbose(optarg) < 0)
				return EXIT_USAGE;
			break;
		case 'I':
			r->no_irqs = 1;
			break;
		case 'S':
			r->no_softirqs = 1;
			break;
		case 't':
			r->line_opts.nsec = 1;
			break;
		case 'l':
			r->line_opts.latency = 1;
			break;
		case 'R':
			r->line_opts.raw = 1;
			break;
		case 'r':
			if (check_name_pattern("-r", optarg) < 0)
				return EXIT_USAGE;
			r->raw_events = add_str(r->raw_events, &r->nr_raw_events, optarg);
			break;
		case 'n':
			if (check_name_pattern("-n", optarg) < 0)
				return EXIT_USAGE;
			r->nohandle_events = add_str(r->nohandle_events, &r->nr_nohandle_events,
						     optarg);
			break;
		case 'N':
			r->input_flags |= TRACE_INPUT_NO_PLUGINS;
			break;
		case 'O': {
			char *eq = strchr(optarg, '=');

			if (eq == optarg || check_named("-O", optarg, "a plugin option") < 0)
				return eq == optarg ? usage_error(&cmd_report,
					"-O needs a plugin option before '='") : EXIT_USAGE;
			r->plugin_opts = add_str(r->plugin_opts, &r->nr_plugin_opts, optarg);
			if (eq)
				*eq = 0;
			tep_plugin_add_option(optarg, eq ? eq + 1 : NULL);
			if (eq)
				*eq = '=';
			break;
		}
		case 'q':
			r->quiet = 1;
			break;
		case 'e':
			if (set_mode(r, MODE_ENDIAN, "-e"))
				return EXIT_USAGE;
			break;
		case 'E':
			if (set_mode(r, MODE_EVENT_LIST, "-E"))
				return EXIT_USAGE;
			break;
		case 'f':
			if (set_mode(r, MODE_FUNCS, "-f"))
				return EXIT_USAGE;
			break;
		case 'P':
			if (set_mode(r, MODE_PRINTK, "-P"))
				return EXIT_USAGE;
			break;
		case OPT_EVENTS:
			if (set_mode(r, MODE_FORMATS, "--events"))
				return EXIT_USAGE;
			break;
		case OPT_CPUS:
			if (set_mode(r, MODE_CPUS, "--cpus"))
				return EXIT_USAGE;
			break;
		case OPT_FIRST:
			if (set_mode(r, MODE_FIRST, "--first-event"))
				return EXIT_USAGE;
			break;
		case OPT_LAST:
			if (set_mode(r, MODE_LAST, "--last-event"))
				return EXIT_USAGE;
			break;
		case OPT_STAT:
			if (set_mode(r, MODE_STAT, "--stat"))
				return EXIT_USAGE;
			break;
		case OPT_UNAME:
			if (set_mode(r, MODE_UNAME, "--uname"))
				return EXIT_USAGE;
			break;
		case OPT_VERSION:
			if (set_mode(r, MODE_VERSION, "--version"))
				return EXIT_USAGE;
			break;
		case OPT_CHECK_EVENTS:
			if (set_mode(r, MODE_CHECK, "--check-events"))
				return EXIT_USAGE;
			break;
		case OPT_PID:
			if (parse_long("--pid", optarg, 0, INT_MAX, &l) < 0)
				return EXIT_USAGE;
			r->pids = xrealloc(r->pids, sizeof(int) * (r->nr_pids + 1));
			r->pids[r->nr_pids++] = l;
			break;
		case OPT_COMM:
			if (check_named("--comm", optarg, "a task name") < 0)
				return EXIT_USAGE;
			r->comms = add_str(r->comms, &r->nr_comms, optarg);
			break;
		case OPT_FORMAT:
			r->format = trace_format_kind(optarg);
			if (r->format < 0)
				return usage_error(&cmd_report, "invalid --format value '%s': "
						   "not text, jsonl or csv", optarg);
			break;
		case OPT_CPU:
			if (add_cpu_list(r, optarg) < 0)
				return EXIT_USAGE;
			break;
		case OPT_TS_OFFSET:
			if (parse_long("--ts-offset", optarg, LONG_MIN, LONG_MAX, &l) < 0)
				return EXIT_USAGE;
			r->ts_offset += l;
			break;
		case OPT_TS2SECS:
			if (parse_ulong("--ts2secs", optarg, 1, ULONG_MAX, &ul) < 0)
				return EXIT_USAGE;
			r->ts2secs = ul;
			break;
		case OPT_ALIGN_TS:
			r->align_ts = 1;
			break;
		case OPT_TS_DIFF:
			r->line_opts.ts_diff = 1;
			break;
		case OPT_TS_CHECK:
			r->ts_check = 1;
			break;
		case OPT_RAW_TS:
			r->input_flags |= TRACE_INPUT_RAW_TS;
			break;
		case OPT_NODATE:
			r->input_flags |= TRACE_INPUT_NO_DATE;
			break;
		case ':':
			return usage_error(&cmd_report, "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error(&cmd_report, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (r->nr_files)
			return usage_error(&cmd_report, "unexpected argument '%s'", argv[optind]);
		if (optind + 1 < argc)
			return usage_error(&cmd_report, "unexpected argument '%s'",
					   argv[optind + 1]);
		add_file(r, argv[optind]);
	}
	if (!r->nr_files)
		add_file(r, "trace.dat");
	if (r->format != TRACE_FORMAT_TEXT && r->mode != MODE_EVENTS_LINES)
		return usage_error(&cmd_report, "--format cannot be combined with a listing option");
	if (r->nr_files > 1 && r->mode != MODE_EVENTS_LINES)
		return usage_error(&cmd_report, "listing options read one file, not %d",
				   r->nr_files);
	r->c = &r->files[0];
	return 0;
}

static int run_report(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct report r = { 0 };
	int ret;

	ret = parse_args(&r, argc, argv);
	if (ret) {
		/* What the options allocated is freed on a usage error too. */
		ret = ret < 0 ? EXIT_OK : ret;
		goto out;
	}
	if (r.quiet)
		tep_set_loglevel(TEP_LOG_NONE);
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	r.line_opts.no_plugins = !!(r.input_flags & TRACE_INPUT_NO_PLUGINS);
	r.line = trace_line_new(&r.line_opts);
	ret = report_file(&r);
	fflush(stdout);
out:
	for (int i = 0; i < r.nr_files; i++) {
		struct file_ctx *f = &r.files[i];

		if (f->filter)
			tep_filter_free(f->filter);
		if (f->neg_filter)
			tep_filter_free(f->neg_filter);
		line_source_free(f->line);
		trace_input_close(f->in);
		free(f->events);
		free(f->filter_ids);
		free(f->neg_ids);
	}
	trace_format_free(r.fmt);
	trace_line_free(r.line);
	free(r.files);
	free(r.filters);
	free(r.filter_neg);
	free(r.raw_events);
	free(r.pids);
	free(r.comms);
	free(r.nohandle_events);
	free(r.plugin_opts);
	free(r.cpus);
	return ret;
}

const struct command cmd_report = {
	.name = "report",
	.run = run_report,
	.usage = report_usage,
	.summary = "show the events of a trace.dat file",
};
