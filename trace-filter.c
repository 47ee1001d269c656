// SPDX-License-Identifier: GPL-2.0
/*
 * report's record filters: -F (-v), --cpu, --pid/--comm, -I/-S, each set
 * made ready for one file.  -F goes through libtraceevent's filter, after
 * checks that keep its silent misreadings and crashes away (a field no
 * event has, an overflowing condition, a crashing parse).
 */
#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-input.h"
#include "trace-filter.h"

#define MAX_CPU_FILTER	4096
#define EVENT_CACHE	65536

struct file_filter {
	struct filter_set *set;
	struct trace_input *in;
	struct tep_handle *tep;
	struct tep_event_filter *filter;	/* -F before any -v: show only matches */
	struct tep_event_filter *neg_filter;	/* -F after -v: hide matches */
	unsigned char	*filter_ids, *neg_ids;	/* by event id, see filter_ids() */
	unsigned char	*reader_ids;	/* filter_ids, stack traces marked FOLLOWS */
	int		stack_ids[2];	/* ftrace's kernel_stack and user_stack, or -1 */
	unsigned char	*cpu_shown;	/* by CPU: whether its last record was shown */
	int		nr_cpus;
	struct tep_event **events;	/* --pid: by id, as tep_find_event() gives them */
};

static char **add_str(char **list, int *n, char *s)
{
	list = xrealloc(list, sizeof(*list) * (*n + 1));
	list[(*n)++] = s;
	return list;
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

int filter_set_add_event(struct filter_set *set, char *spec)
{
	if (check_filter_length(spec) < 0)
		return -1;
	set->filter_neg = xrealloc(set->filter_neg, sizeof(int) * (set->nr_filters + 1));
	set->filter_neg[set->nr_filters] = set->invert;
	set->filters = add_str(set->filters, &set->nr_filters, spec);
	return 0;
}

void filter_set_add_pid(struct filter_set *set, int pid)
{
	set->pids = xrealloc(set->pids, sizeof(int) * (set->nr_pids + 1));
	set->pids[set->nr_pids++] = pid;
}

int filter_set_add_comm(struct filter_set *set, char *comm)
{
	if (check_named("--comm", comm, "a task name") < 0)
		return -1;
	set->comms = add_str(set->comms, &set->nr_comms, comm);
	return 0;
}

void filter_set_free(struct filter_set *set)
{
	free(set->filters);
	free(set->filter_neg);
	free(set->cpus);
	free(set->pids);
	free(set->comms);
}

static void *dup_array(const void *from, size_t size)
{
	return from && size ? memcpy(xmalloc(size), from, size) : NULL;
}

void filter_set_inherit(struct filter_set *set, const struct filter_set *base)
{
	int nr = base->nr_filters + set->nr_filters;
	char **filters = xmalloc(sizeof(*filters) * (nr ? nr : 1));
	int *neg = xmalloc(sizeof(*neg) * (nr ? nr : 1));

	for (int i = 0; i < nr; i++) {
		int own = i - base->nr_filters;

		filters[i] = own < 0 ? base->filters[i] : set->filters[own];
		neg[i] = own < 0 ? base->filter_neg[i] : set->filter_neg[own];
	}
	free(set->filters);
	free(set->filter_neg);
	set->filters = filters;
	set->filter_neg = neg;
	set->nr_filters = nr;
	set->cpus = dup_array(base->cpus, base->cpus ? MAX_CPU_FILTER : 0);
	set->no_irqs = base->no_irqs;
	set->no_softirqs = base->no_softirqs;
	set->pids = dup_array(base->pids, sizeof(*base->pids) * base->nr_pids);
	set->nr_pids = base->nr_pids;
	set->comms = dup_array(base->comms, sizeof(*base->comms) * base->nr_comms);
	set->nr_comms = base->nr_comms;
}

/* "0,3", "2-4", "1:2": the CPU lists upstream accepts. */
int filter_set_add_cpus(struct filter_set *set, const char *arg)
{
	const char *p = arg;

	if (!set->cpus)
		set->cpus = xcalloc(MAX_CPU_FILTER, 1);
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
			set->cpus[c] = 1;
		if (*p == ',' || *p == ':')
			p++;
		else if (*p)
			return error("invalid --cpu value '%s': not a CPU list", arg);
	} while (*p);
	return 0;
}

static int field_in_event(struct tep_event *ev, const char *name)
{
	if (!strcmp(name, "COMM") || !strcmp(name, "CPU"))
		return 1;
	return tep_find_any_field(ev, name) != NULL;
}

struct name_pattern {
	regex_t	sys, ev;
	int	has_sys;	/* SYSTEM/EVENT */
	int	ok;		/* compiled */
};

struct name_pattern *name_pattern_new(const char *pat)
{
	struct name_pattern *np = xcalloc(1, sizeof(*np));
	const char *slash = strchr(pat, '/');
	char buf[512];

	if (!slash) {
		snprintf(buf, sizeof(buf), "^%s$", pat);
		np->ok = !regcomp(&np->ev, buf, REG_ICASE | REG_NOSUB);
		return np;
	}
	snprintf(buf, sizeof(buf), "^%.*s$", (int)(slash - pat), pat);
	if (regcomp(&np->sys, buf, REG_ICASE | REG_NOSUB))
		return np;
	snprintf(buf, sizeof(buf), "^%s$", slash + 1);
	if (regcomp(&np->ev, buf, REG_ICASE | REG_NOSUB)) {
		regfree(&np->sys);
		return np;
	}
	np->has_sys = np->ok = 1;
	return np;
}

int name_pattern_match(const struct name_pattern *np, const char *system, const char *name)
{
	if (!np->ok)
		return 0;
	if (np->has_sys)
		return !regexec(&np->sys, system, 0, NULL, 0) && !regexec(&np->ev, name, 0, NULL, 0);
	return !regexec(&np->ev, name, 0, NULL, 0) || !regexec(&np->ev, system, 0, NULL, 0);
}

void name_pattern_free(struct name_pattern *np)
{
	if (np && np->ok) {
		regfree(&np->ev);
		if (np->has_sys)
			regfree(&np->sys);
	}
	free(np);
}

/* -r and -n: a pattern name_pattern_new() compiles, checked when given. */
int check_event_regex(const char *opt, const char *pat)
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
static int check_filter_fields(const char *spec, struct tep_event **evs, int nr)
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
	return 0;
}

/* Checks that each event named in @spec exists, then its fields. */
static int check_filter(struct file_filter *ff, const char *spec)
{
	char *copy = xstrdup(spec);
	char *colon = strchr(copy, ':');
	struct tep_event **all = tep_list_events(ff->tep, TEP_EVENT_SORT_ID);
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
		struct name_pattern *np = name_pattern_new(pat);

		for (int i = 0; all && all[i]; i++) {
			if (!name_pattern_match(np, all[i]->system, all[i]->name))
				continue;
			evs = xrealloc(evs, sizeof(*evs) * (nr + 1));
			evs[nr++] = all[i];
			matched = 1;
		}
		name_pattern_free(np);
		if (!matched) {
			ret = error("filter '%s': no event '%s' in '%s'", spec, pat, trace_input_file(ff->in));
			goto out;
		}
	}
	ret = check_filter_fields(spec, evs, nr);
out:
	free(evs);
	free(copy);
	return ret;
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

/* The child of filter_parses_safely(): parses @spec, its error to the pipe. */
static void __attribute__((noreturn)) check_filter_child(struct file_filter *ff,
							 const char *spec, int pipe_fd[2])
{
	struct tep_event_filter *f = tep_filter_alloc(ff->tep);
	char msg[TEP_FILTER_ERROR_BUFSZ + 1];
	int fd = open("/dev/null", O_WRONLY);
	enum tep_errno err;

	close(pipe_fd[0]);
	if (fd >= 0)
		dup2(fd, 2);
	if (!f)
		_exit(2);
	err = tep_filter_add_filter_str(f, spec);
	if (err >= 0)
		_exit(0);
	if (tep_filter_strerror(f, err, msg, sizeof(msg)) < 0)
		tep_strerror(ff->tep, err, msg, sizeof(msg));
	write_all(pipe_fd[1], msg, strlen(msg));
	_exit(1);
}

/*
 * libtraceevent 1.7 crashes on some malformed filters (a comparison with no
 * value, "pid =="), and frees memory it uses again on others ("a || b (":
 * valgrind sees it; glibc may abort), so each is parsed first in a child
 * that may die.  A filter that does not parse is never parsed here: the
 * child sends its error message back through a pipe.
 */
static int filter_parses_safely(struct file_filter *ff, const char *spec)
{
	char msg[TEP_FILTER_ERROR_BUFSZ + 1] = "";
	int status, pipe_fd[2];
	ssize_t len;
	pid_t pid;

	fflush(stdout);
	if (pipe(pipe_fd) < 0)
		return error("cannot check filter '%s': %s", spec, strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(pipe_fd[0]);
		close(pipe_fd[1]);
		return error("cannot fork to check filter '%s': %s", spec, strerror(errno));
	}
	if (!pid)
		check_filter_child(ff, spec, pipe_fd);
	close(pipe_fd[1]);
	len = read_all(pipe_fd[0], msg, sizeof(msg) - 1);
	close(pipe_fd[0]);
	msg[len > 0 ? len : 0] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("cannot check filter '%s': %s", spec, strerror(errno));
	/* Exit 1 is a parse error tep reports itself; a sanitizer's crash exits 99. */
	if (WIFSIGNALED(status) || !WIFEXITED(status) || WEXITSTATUS(status) > 1 ||
	    (WEXITSTATUS(status) == 1 && !*msg))
		return error("filter '%s': syntax error", spec);
	if (WEXITSTATUS(status) == 1)
		return filter_parse_error(spec, msg);
	return 0;
}

int file_filter_compile(struct file_filter *ff)
{
	for (int i = 0; i < ff->set->nr_filters; i++) {
		struct tep_event_filter **f = ff->set->filter_neg[i] ? &ff->neg_filter : &ff->filter;
		enum tep_errno err;
		char msg[TEP_FILTER_ERROR_BUFSZ + 1];

		/* The crashes are in conditions: event names alone need no child. */
		if (check_filter(ff, ff->set->filters[i]) < 0 ||
		    (strchr(ff->set->filters[i], ':') &&
		     filter_parses_safely(ff, ff->set->filters[i]) < 0))
			return -1;
		if (!*f)
			*f = tep_filter_alloc(ff->tep);
		if (!*f)
			return error("out of memory for filters");
		err = tep_filter_add_filter_str(*f, ff->set->filters[i]);
		if (err < 0) {
			if (tep_filter_strerror(*f, err, msg, sizeof(msg)) < 0)
				tep_strerror(ff->tep, err, msg, sizeof(msg));
			return filter_parse_error(ff->set->filters[i], trim(msg));
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
static int record_shown(struct file_filter *ff, struct tep_record *rec)
{
	int id;

	if (!ff->filter && !ff->neg_filter)
		return 1;
	id = trace_input_record_type(ff->in, rec);
	if (ff->filter) {
		if (!ff->filter_ids)
			ff->filter_ids = filter_ids(ff->filter);
		if (!filter_says(ff->filter, ff->filter_ids, id, rec))
			return 0;
	}
	if (ff->neg_filter) {
		if (!ff->neg_ids)
			ff->neg_ids = filter_ids(ff->neg_filter);
		if (filter_says(ff->neg_filter, ff->neg_ids, id, rec))
			return 0;
	}
	return 1;
}

void file_filter_print(struct file_filter *ff)
{
	struct tep_event **evs = tep_list_events(ff->tep, TEP_EVENT_SORT_ID);
	struct tep_event_filter *fs[2] = { ff->filter, ff->neg_filter };

	for (int k = 0; k < 2; k++) {
		for (int i = 0; fs[k] && evs && evs[i]; i++) {
			char *str = tep_filter_make_string(fs[k], evs[i]->id);

			if (!str)
				continue;
			printf(" '%s: %s'\n", evs[i]->name, str);
			free(str);
		}
	}
}

static unsigned long long field_val(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	tep_read_number_field(f, rec->data, &v);
	return v;
}

/* tep_find_event_by_record() searches every time; ids are small, so cache them. */
static struct tep_event *event_of(struct file_filter *ff, struct tep_record *rec)
{
	int id = trace_input_record_type(ff->in, rec);

	if (id < 0 || id >= EVENT_CACHE)
		return tep_find_event(ff->tep, id);
	if (!ff->events)
		ff->events = xcalloc(EVENT_CACHE, sizeof(*ff->events));
	if (!ff->events[id])
		ff->events[id] = tep_find_event(ff->tep, id);
	return ff->events[id];
}

/* -I and -S: the context flags of the record's common_flags. */
#define FLAG_HARDIRQ	0x08
#define FLAG_SOFTIRQ	0x10

/*
 * --pid and --comm, as upstream shows them: the task's own events, and the
 * events about it (a wakeup's pid, a switch's next_pid).
 */
static int pid_wanted(const struct filter_set *set, int pid)
{
	for (int i = 0; i < set->nr_pids; i++)
		if (set->pids[i] == pid)
			return 1;
	return 0;
}

static int task_shown(struct file_filter *ff, struct tep_record *rec)
{
	static const char *const fields[] = { "pid", "next_pid", "prev_pid" };
	struct tep_event *ev;

	if (pid_wanted(ff->set, trace_input_record_pid(ff->in, rec)))
		return 1;
	ev = event_of(ff, rec);
	for (size_t i = 0; ev && i < ARRAY_SIZE(fields); i++) {
		struct tep_format_field *f = tep_find_field(ev, fields[i]);

		if (f && pid_wanted(ff->set, field_val(f, rec)))
			return 1;
	}
	return 0;
}

/*
 * --comm NAME: the PIDs the saved cmdlines give that name.  A name no task
 * had is a warning, as in upstream, and shows nothing (upstream 3.4 then
 * drops the --comm and shows every task: t1101 names it).
 */
static int add_comm_pids(struct file_filter *ff)
{
	for (int i = 0; i < ff->set->nr_comms; i++) {
		struct tep_cmdline *c = NULL;
		int found = 0;

		while ((c = tep_data_pid_from_comm(ff->tep, ff->set->comms[i], c))) {
			filter_set_add_pid(ff->set, tep_cmdline_pid(ff->tep, c));
			found = 1;
		}
		if (!found)
			warning("--comm '%s': no task of that name in '%s'", ff->set->comms[i],
				trace_input_file(ff->in));
	}
	return 0;
}

/* -I, -S, --pid, --comm and -F. */
static int record_passes(struct file_filter *ff, struct tep_record *rec)
{
	if (ff->set->no_irqs || ff->set->no_softirqs) {
		int flags = tep_data_flags(ff->tep, rec);

		if ((ff->set->no_irqs && (flags & FLAG_HARDIRQ)) ||
		    (ff->set->no_softirqs && (flags & FLAG_SOFTIRQ)))
			return 0;
	}
	if ((ff->set->nr_pids || ff->set->nr_comms) && !task_shown(ff, rec))
		return 0;
	return record_shown(ff, rec);
}

static int filtering(const struct file_filter *ff)
{
	return ff->filter || ff->neg_filter || ff->set->nr_pids || ff->set->nr_comms ||
	       ff->set->no_irqs || ff->set->no_softirqs;
}

static int is_stack_trace(struct file_filter *ff, struct tep_record *rec)
{
	int id = trace_input_record_type(ff->in, rec);

	return id >= 0 && (id == ff->stack_ids[0] || id == ff->stack_ids[1]);
}

/*
 * As upstream: a kernel_stack or user_stack record is shown with the record
 * before it on its CPU, the event it was taken at, whatever the filters say
 * of the stack itself.
 */
int file_filter_pass(struct file_filter *ff, struct tep_record *rec)
{
	int shown;

	if (!filtering(ff))
		return 1;
	shown = record_passes(ff, rec);
	if (rec->cpu < 0 || rec->cpu >= ff->nr_cpus)
		return shown;
	if (!shown && ff->cpu_shown[rec->cpu] && is_stack_trace(ff, rec))
		shown = 1;
	ff->cpu_shown[rec->cpu] = shown;
	return shown;
}

/* The event patterns of every -F (before each one's ':'), compiled; *@nr of them. */
static struct name_pattern **filter_patterns(const struct filter_set *set, int *nr)
{
	struct name_pattern **nps = NULL;

	*nr = 0;
	for (int k = 0; k < set->nr_filters; k++) {
		char *copy = xstrdup(set->filters[k]), *colon = strchr(copy, ':'), *save, *tok;

		if (colon)
			*colon = 0;
		for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
			if (!*trim(tok))
				continue;
			nps = xrealloc(nps, (*nr + 1) * sizeof(*nps));
			nps[(*nr)++] = name_pattern_new(trim(tok));
		}
		free(copy);
	}
	return nps;
}

/*
 * With -F and no listing, only the formats the filters name are parsed up
 * front (the others as their records come), and kallsyms only for a
 * condition, which may compare a field with a function's name.
 */
int filter_set_parse_events(const struct filter_set *set, struct trace_input *in)
{
	int conditions = 0, nr_pats;
	struct name_pattern **pats = filter_patterns(set, &nr_pats);
	int ret = 0;

	for (int i = 0; i < trace_input_nr_formats(in) && !ret; i++) {
		const char *system, *text = NULL;
		char name[256];
		size_t len, n;

		text = trace_input_format(in, i, &system, &len);
		if (len < 6 || memcmp(text, "name: ", 6))
			continue;
		n = strcspn(text + 6, "\n");
		if (n > len - 6)
			n = len - 6;
		snprintf(name, sizeof(name), "%.*s", (int)n, text + 6);
		for (int k = 0; k < nr_pats; k++) {
			if (name_pattern_match(pats[k], system, name)) {
				ret = trace_input_parse_format(in, i);
				break;
			}
		}
	}
	for (int k = 0; k < nr_pats; k++)
		name_pattern_free(pats[k]);
	free(pats);
	if (ret < 0)
		return -1;
	for (int k = 0; k < set->nr_filters; k++)
		conditions |= strchr(set->filters[k], ':') != NULL;
	if (conditions)
		trace_input_load_functions(in);
	return 0;
}

struct file_filter *file_filter_new(struct filter_set *set, struct trace_input *in)
{
	struct file_filter *ff = xcalloc(1, sizeof(*ff));

	ff->set = set;
	ff->in = in;
	ff->tep = trace_input_tep(in);
	ff->nr_cpus = trace_input_cpus(in);
	ff->cpu_shown = xcalloc(ff->nr_cpus > 0 ? ff->nr_cpus : 1, 1);
	for (int i = 0; i < 2; i++) {
		struct tep_event *ev = trace_input_event_by_name(in, "ftrace",
							i ? "user_stack" : "kernel_stack");

		ff->stack_ids[i] = ev ? ev->id : -1;
	}
	return ff;
}

void file_filter_free(struct file_filter *ff)
{
	if (!ff)
		return;
	if (ff->filter)
		tep_filter_free(ff->filter);
	if (ff->neg_filter)
		tep_filter_free(ff->neg_filter);
	free(ff->filter_ids);
	free(ff->neg_ids);
	free(ff->reader_ids);
	free(ff->cpu_shown);
	free(ff->events);
	free(ff);
}

int file_filter_apply(struct file_filter *ff)
{
	if (add_comm_pids(ff) < 0)
		return -1;
	if (ff->set->cpus)
		for (int cpu = 0; cpu < MAX_CPU_FILTER; cpu++)
			if (!ff->set->cpus[cpu])
				trace_input_skip_cpu(ff->in, cpu);
	return 0;
}

const unsigned char *file_filter_only_ids(struct file_filter *ff)
{
	if (!ff->filter)
		return NULL;
	if (!ff->filter_ids)
		ff->filter_ids = filter_ids(ff->filter);
	if (!ff->reader_ids) {
		ff->reader_ids = xmalloc(FILTER_IDS);
		memcpy(ff->reader_ids, ff->filter_ids, FILTER_IDS);
		for (int i = 0; i < 2; i++)
			if (ff->stack_ids[i] >= 0 && ff->stack_ids[i] < FILTER_IDS &&
			    !ff->reader_ids[ff->stack_ids[i]])
				ff->reader_ids[ff->stack_ids[i]] = TRACE_INPUT_ID_FOLLOWS;
	}
	return ff->reader_ids;
}
