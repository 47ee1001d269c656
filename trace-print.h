/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event printer of report: each event's "print fmt" compiled at first
 * use into a short program that writes its text exactly as libtraceevent's
 * interpreter does, for the shapes most events have; every other event, and
 * every record the program is not sure of, goes through libtraceevent.
 * TRACE_CMD_SLOW_PRINT=1 in the environment sends everything there (tests
 * compare the two).
 */
#ifndef TRACE_PRINT_H
#define TRACE_PRINT_H

struct tep_event;
struct tep_record;
struct trace_seq;
struct trace_input;
struct trace_printer;
struct print_program;

/*
 * Whether printing @ev through libtraceevent may look up kernel functions
 * (kallsyms): a %pS-like conversion, a symbol name taken for a number (not
 * a string printed by %s), a helper function, a plugin's handler (but
 * sched_switch's and futex's, which look none up), a trace_printk.
 */
int trace_print_needs_functions(struct tep_event *ev);

/*
 * trace_seq_puts() of @text (NUL-terminated), whose length @len is known:
 * copied at once when it fits, as every line does once the buffer has grown.
 */
void seq_put_text(struct trace_seq *s, const char *text, size_t len);

/* A printer for the events of @in (its kallsyms are loaded when an event needs them). */
struct trace_printer *trace_printer_new(struct trace_input *in);
void trace_printer_free(struct trace_printer *p);

/*
 * Appends what tep_print_event(..., "%s", TEP_PRINT_INFO or _RAW) appends
 * for @rec, whose event is @ev (NULL: not in the file).
 */
void trace_printer_print(struct trace_printer *p, struct trace_seq *s, struct tep_event *ev,
			 struct tep_record *rec, int raw);
/*
 * The same text when a compiled program makes it (valid until the next
 * call, NUL-terminated, *len bytes, COPY_SLACK more readable after them for
 * copy_slack()), NULL when libtraceevent must print it.
 */
const char *trace_printer_text(struct trace_printer *p, struct tep_event *ev,
			       struct tep_record *rec, int raw, size_t *len);

/*
 * Printing in other threads: the thread that owns @p compiles (a program
 * for @ev, or NULL when libtraceevent prints it: compiled now, its
 * functions and libtraceevent's function map loaded now); a runner made
 * from @p runs it in another thread, touching no shared state but the
 * programs and tables, which only ever grow in the owner's thread.  The
 * text is valid until the runner's next call (with COPY_SLACK bytes to
 * spare, as trace_printer_text()'s); NULL: this record needs
 * libtraceevent (in the owner's thread).
 */
const struct print_program *trace_printer_program(struct trace_printer *p, struct tep_event *ev);
/* 1 when every text @prog writes needs no JSON escaping (trace_format_json_plain()). */
int trace_printer_program_json_plain(const struct print_program *prog);
struct trace_printer *trace_printer_runner(const struct trace_printer *p);
const char *trace_printer_run(struct trace_printer *runner, const struct print_program *prog,
			      struct tep_record *rec, size_t *len);
/*
 * The same text written straight after the @len bytes of the caller's
 * malloc()ed buffer *@buf (*@size allocated; grown as needed, keeping a NUL
 * and COPY_SLACK bytes to spare after the text): its length, or -1 (the
 * bytes after @len undefined) when libtraceevent must print it.
 */
long trace_printer_run_into(struct trace_printer *runner, const struct print_program *prog,
			    struct tep_record *rec, char **buf, size_t len, size_t *size);

#endif
