/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report's event lines for records that do not come from its own merge of a
 * file: stream prints what it reads live with the same code, so its lines
 * are the ones record + report would print for the same events.
 */
#ifndef TRACE_REPORT_H
#define TRACE_REPORT_H

struct trace_input;
struct tep_record;
struct report_printer;

/*
 * A printer of report's default lines with the tep handle, clock and time
 * units of @in (which it does not own).  Lines go to stdout.
 */
struct report_printer *report_printer_new(struct trace_input *in);
/*
 * The buffers the records come from, as a file with them would name them:
 * @names[0] is the top buffer's, "" (@names is kept, not copied).  With
 * more than one, lines get report's "NAME: " prefix.
 */
void report_printer_set_buffers(struct report_printer *p, const char **names, int nr);
/*
 * Prints @rec (its cpu, ts and data set as trace_input_next() sets them),
 * of buffer @buffer (0 unless report_printer_set_buffers said more).
 */
void report_printer_print(struct report_printer *p, struct tep_record *rec, int buffer);
/* The task names learnt so far are looked up again (new saved cmdlines). */
void report_printer_forget_comms(struct report_printer *p);

/*
 * How the printer sees the record after @rec on its CPU (and buffer), which
 * a function_graph entry needs: a leaf is an entry whose exit comes next,
 * drawn as one line with the exit skipped.  @peek copies it to @next and
 * returns 1, or 0 if there is none yet; @skip drops it.
 */
struct report_next {
	int (*peek)(void *ctx, const struct tep_record *rec, struct tep_record *next);
	void (*skip)(void *ctx, const struct tep_record *rec);
	void *ctx;
};
/* Draws function_graph entries and exits as report does, through @next (kept). */
void report_printer_set_next(struct report_printer *p, const struct report_next *next);
void report_printer_free(struct report_printer *p);

#endif
