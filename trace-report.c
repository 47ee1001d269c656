// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd report: turns the records of a trace.dat into lines, as upstream
 * 3.1.6 prints them (libtraceevent with its plugins), after the header lines
 * trace-cmd 1.x printed.  Filters (-F, -v, --cpu) and the other report options
 * live here; reading the file is trace-input's job.
 */
#include <ctype.h>
#include <errno.h>
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

extern const struct command cmd_report;

static const char report_usage[] =
	"usage: trace-cmd report [OPTIONS] [FILE]\n"
	"\n"
	"  -i FILE          read FILE instead of trace.dat (FILE may also be the last argument)\n"
	"  --events         print the event formats stored in the file, then exit\n"
	"  --cpu LIST       show only these CPUs (e.g. 0,3 or 2-4); repeatable\n"
	"  -F FILTER        show only events matching 'event[,event][: condition]'; repeatable\n"
	"  -v               the -F filters that follow hide the events they match\n"
	"  -h               show this help\n";

enum {
	OPT_EVENTS = 256,
	OPT_CPU,
};

static const struct option long_options[] = {
	{ "events",	no_argument,		NULL, OPT_EVENTS },
	{ "cpu",	required_argument,	NULL, OPT_CPU },
	{ "help",	no_argument,		NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

#define MAX_CPU_FILTER 4096

struct report {
	const char	*file;
	int		show_events;
	int		invert;		/* -v seen: later -F filters hide what they match */
	char		**filters;
	int		*filter_neg;
	int		nr_filters;
	unsigned char	*cpus;		/* NULL: all CPUs */
	struct trace_input *in;
	struct tep_handle *tep;
	struct tep_event_filter *filter;	/* -F before any -v: show only matches */
	struct tep_event_filter *neg_filter;	/* -F after -v: hide matches */
	int		multi_buffer;
	int		name_width;
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

static int event_matches(struct tep_event *ev, const char *pat)
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
		ok = !regexec(&sys_re, ev->system, 0, NULL, 0) &&
		     !regexec(&ev_re, ev->name, 0, NULL, 0);
		regfree(&sys_re);
		regfree(&ev_re);
		return ok;
	}
	snprintf(buf, sizeof(buf), "^%s$", pat);
	if (regcomp(&ev_re, buf, REG_ICASE | REG_NOSUB))
		return 0;
	ok = !regexec(&ev_re, ev->name, 0, NULL, 0) || !regexec(&ev_re, ev->system, 0, NULL, 0);
	regfree(&ev_re);
	return ok;
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
	struct tep_event **all = tep_list_events(r->tep, TEP_EVENT_SORT_ID);
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
			ret = error("filter '%s': no event '%s' in '%s'", spec, pat, r->file);
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
		struct tep_event_filter *f = tep_filter_alloc(r->tep);
		int fd = open("/dev/null", O_WRONLY);

		if (fd >= 0)
			dup2(fd, 2);
		_exit(f && tep_filter_add_filter_str(f, spec) >= 0 ? 0 : 1);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("cannot check filter '%s': %s", spec, strerror(errno));
	if (WIFSIGNALED(status))
		return error("filter '%s': syntax error", spec);
	return 0;
}

static int setup_filters(struct report *r)
{
	for (int i = 0; i < r->nr_filters; i++) {
		struct tep_event_filter **f = r->filter_neg[i] ? &r->neg_filter : &r->filter;
		enum tep_errno err;
		char msg[256];

		if (check_filter(r, r->filters[i]) < 0 ||
		    filter_parses_safely(r, r->filters[i]) < 0)
			return -1;
		if (!*f)
			*f = tep_filter_alloc(r->tep);
		if (!*f)
			return error("out of memory for filters");
		err = tep_filter_add_filter_str(*f, r->filters[i]);
		if (err < 0) {
			if (tep_filter_strerror(*f, err, msg, sizeof(msg)) < 0)
				tep_strerror(r->tep, err, msg, sizeof(msg));
			return error("filter '%s': %s", r->filters[i], trim(msg));
		}
	}
	return 0;
}

/* As upstream: the plain filters choose what is shown, then -v ones remove from it. */
static int record_shown(struct report *r, struct tep_record *rec)
{
	if (r->filter && tep_filter_match(r->filter, rec) != TEP_ERRNO__FILTER_MATCH)
		return 0;
	if (r->neg_filter && tep_filter_match(r->neg_filter, rec) == TEP_ERRNO__FILTER_MATCH)
		return 0;
	return 1;
}

/* ---- output ------------------------------------------------------------ */

static void print_event_formats(struct report *r)
{
	const char *last = NULL;

	for (int i = 0; i < trace_input_nr_formats(r->in); i++) {
		const char *system, *text;
		size_t len;

		text = trace_input_format(r->in, i, &system, &len);
		if (!strcmp(system, "ftrace"))
			continue;
		if (!last || strcmp(last, system))
			printf("\nsystem: %s\n", system);
		last = system;
		fwrite(text, 1, len, stdout);
		putchar('\n');
	}
}

static void print_header(struct report *r)
{
	printf("version = %d\n", trace_input_version(r->in));
	for (int cpu = 0; !trace_input_is_latency(r->in) && cpu < trace_input_buffer_cpus(r->in, 0); cpu++)
		if (!trace_input_cpu_size(r->in, 0, cpu))
			printf("CPU %d is empty\n", cpu);
	printf("cpus=%d\n", trace_input_cpus(r->in));
}

/* The event name as upstream spaces it: " name: " padded to 20 columns. */
static void print_name(struct trace_seq *s, struct tep_event *ev)
{
	static const char spaces[] = "                    ";
	const char *name = ev ? ev->name : "(NULL)";
	size_t len = strlen(name);

	trace_seq_printf(s, " %s: ", name);
	if (len < 20)
		trace_seq_printf(s, "%.*s", (int)(20 - len), spaces);
}

static void print_record(struct report *r, struct trace_seq *s, struct tep_record *rec,
			 int buffer)
{
	struct tep_event *ev = tep_find_event_by_record(r->tep, rec);
	const char *tfmt = trace_input_in_usecs(r->in) ? " %6.1000d:" : "%12d:";

	trace_seq_reset(s);
	if (r->multi_buffer) {
		const char *name = trace_input_buffer_name(r->in, buffer);

		if (*name)
			trace_seq_printf(s, "%*s: ", r->name_width, name);
		else
			trace_seq_printf(s, "%*s  ", r->name_width, "");
	}
	if (rec->missed_events > 0)
		trace_seq_printf(s, "CPU:%d [%lld EVENTS DROPPED]\n", rec->cpu,
				 (long long)rec->missed_events);
	else if (rec->missed_events < 0)
		trace_seq_printf(s, "CPU:%d [EVENTS DROPPED]\n", rec->cpu);
	tep_print_event(r->tep, s, rec, "%16s-%-5d [%03d]", TEP_PRINT_COMM, TEP_PRINT_PID,
			TEP_PRINT_CPU);
	tep_print_event(r->tep, s, rec, tfmt, TEP_PRINT_TIME);
	print_name(s, ev);
	tep_print_event(r->tep, s, rec, "%s", TEP_PRINT_INFO);
	if (s->len && s->buffer[s->len - 1] == '\n')
		s->len--;
	fwrite(s->buffer, 1, s->len, stdout);
	putchar('\n');
}

static int print_records(struct report *r)
{
	struct tep_record *rec;
	struct trace_seq s;
	int buffer, ret;

	trace_seq_init(&s);
	while ((ret = trace_input_next(r->in, &rec, &buffer)) > 0) {
		if (!record_shown(r, rec))
			continue;
		print_record(r, &s, rec, buffer);
	}
	trace_seq_destroy(&s);
	return ret < 0 ? -1 : 0;
}

static int report_file(struct report *r)
{
	r->in = trace_input_open(r->file, 0);
	if (!r->in)
		return EXIT_FAILED;
	r->tep = trace_input_tep(r->in);
	if (r->show_events) {
		print_event_formats(r);
		return EXIT_OK;
	}
	if (setup_filters(r) < 0)
		return EXIT_FAILED;
	if (r->cpus)
		for (int cpu = 0; cpu < MAX_CPU_FILTER; cpu++)
			if (!r->cpus[cpu])
				trace_input_skip_cpu(r->in, cpu);
	r->multi_buffer = trace_input_nr_buffers(r->in) > 1;
	if (r->multi_buffer) {
		for (int b = 0; b < trace_input_nr_buffers(r->in); b++) {
			int len = strlen(trace_input_buffer_name(r->in, b));

			if (len > r->name_width)
				r->name_width = len;
		}
	}
	print_header(r);
	if (trace_input_is_latency(r->in)) {
		size_t len;
		char *text = trace_input_latency_text(r->in, &len);

		if (!text)
			return EXIT_FAILED;
		fwrite(text, 1, len, stdout);
		putchar('\n');
		free(text);
		return EXIT_OK;
	}
	return print_records(r) < 0 ? EXIT_FAILED : EXIT_OK;
}

static int run_report(int argc, char **argv)
{
	static char outbuf[1 << 20];
	struct report r = { 0 };
	int c, ret;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:F:v", long_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_report);
		case 'i':
			if (r.file)
				return usage_error(&cmd_report, "only one input file is supported");
			r.file = optarg;
			break;
		case 'F':
			r.filters = xrealloc(r.filters, sizeof(*r.filters) * (r.nr_filters + 1));
			r.filter_neg = xrealloc(r.filter_neg, sizeof(int) * (r.nr_filters + 1));
			r.filter_neg[r.nr_filters] = r.invert;
			r.filters[r.nr_filters++] = optarg;
			break;
		case 'v':
			r.invert = 1;
			break;
		case OPT_EVENTS:
			r.show_events = 1;
			break;
		case OPT_CPU:
			if (add_cpu_list(&r, optarg) < 0)
				return EXIT_USAGE;
			break;
		case ':':
			return usage_error(&cmd_report, "option '%s' needs a value",
					   argv[optind - 1]);
		default:
			return usage_error(&cmd_report, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc) {
		if (r.file)
			return usage_error(&cmd_report, "unexpected argument '%s'", argv[optind]);
		if (optind + 1 < argc)
			return usage_error(&cmd_report, "unexpected argument '%s'",
					   argv[optind + 1]);
		r.file = argv[optind];
	}
	if (!r.file)
		r.file = "trace.dat";
	setvbuf(stdout, outbuf, _IOFBF, sizeof(outbuf));
	ret = report_file(&r);
	fflush(stdout);
	if (r.filter)
		tep_filter_free(r.filter);
	if (r.neg_filter)
		tep_filter_free(r.neg_filter);
	free(r.filter_neg);
	trace_input_close(r.in);
	free(r.filters);
	free(r.cpus);
	return ret;
}

const struct command cmd_report = {
	.name = "report",
	.run = run_report,
	.usage = report_usage,
	.summary = "show the events of a trace.dat file",
};
