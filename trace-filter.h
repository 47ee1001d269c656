/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report's record filters: -F (with -v), --cpu, --pid and --comm, -I and -S.
 * A filter_set holds them as the options gave them; a file_filter is a set
 * made ready for one input file (its events, its tasks), so each file has
 * its own: report's options before any -i, then those after the file's -i.
 */
#ifndef TRACE_FILTER_H
#define TRACE_FILTER_H

struct tep_event;
struct tep_record;
struct trace_input;
struct file_filter;

/* The filters as given; zero-initialised, it filters nothing. */
struct filter_set {
	int		invert;		/* -v seen: later -F filters hide what they match */
	char		**filters;	/* -F, each as given */
	int		*filter_neg;	/* by -F: it came after -v */
	int		nr_filters;
	unsigned char	*cpus;		/* --cpu, by CPU; NULL: all CPUs */
	int		no_irqs;	/* -I */
	int		no_softirqs;	/* -S */
	int		*pids;		/* --pid, and the tasks --comm names in the file */
	int		nr_pids;
	char		**comms;	/* --comm */
	int		nr_comms;
};

/* -F @spec ("event[,event][: condition]", kept, not copied); a -v before it inverts it. */
int filter_set_add_event(struct filter_set *set, char *spec);
/* --cpu @arg: "0,3", "2-4", "1:2" as upstream accepts. */
int filter_set_add_cpus(struct filter_set *set, const char *arg);
void filter_set_add_pid(struct filter_set *set, int pid);
/* --comm @comm (kept, not copied). */
int filter_set_add_comm(struct filter_set *set, char *comm);
void filter_set_free(struct filter_set *set);
/*
 * @set, holding a file's own -F filters (those after its -i), made whole
 * from @base (the options before any -i): @base's filters first, then its
 * own, and @base's --cpu, --pid, --comm, -I and -S.  @set gets copies.
 */
void filter_set_inherit(struct filter_set *set, const struct filter_set *base);
/*
 * With lazily parsed formats: parses those of the events the -F filters
 * name, and the kallsyms a condition may compare a field with.
 */
int filter_set_parse_events(const struct filter_set *set, struct trace_input *in);

/* @set (kept; several files may share it) for the records of @in (not owned). */
struct file_filter *file_filter_new(struct filter_set *set, struct trace_input *in);
void file_filter_free(struct file_filter *ff);
/*
 * Checks each -F against the events and fields of the file, then parses it
 * with libtraceevent: 0, or -1 with one message naming the filter and why.
 */
int file_filter_compile(struct file_filter *ff);
/* --comm's tasks looked up in the file; --cpu's other CPUs left unread. */
int file_filter_apply(struct file_filter *ff);
/* Event ids the filters know one by one; the others are looked at record by record. */
#define FILTER_IDS	65536
/*
 * By event id (FILTER_IDS of them): nonzero for the events the -F filters before
 * any -v can show; NULL without such filters.
 */
const unsigned char *file_filter_only_ids(struct file_filter *ff);
/* Whether @rec (of the file) passes every filter. */
int file_filter_pass(struct file_filter *ff, struct tep_record *rec);
/* -T: each event's compiled filter, as upstream prints it. */
void file_filter_print(struct file_filter *ff);

/*
 * An event pattern: "SYSTEM/EVENT", or one name matched against the event's
 * name or its system's, each a case-insensitive regex matched whole;
 * compiled once (a file has thousands of events to match).  A pattern that
 * does not compile matches nothing.
 */
struct name_pattern;
struct name_pattern *name_pattern_new(const char *pat);
int name_pattern_match(const struct name_pattern *np, const char *system, const char *name);
void name_pattern_free(struct name_pattern *np);
/* Checks @pat, an event regex given to option @opt (-r, -n): 0, or -1 with a message. */
int check_event_regex(const char *opt, const char *pat);

#endif
