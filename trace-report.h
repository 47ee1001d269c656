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
/* Prints @rec (its cpu, ts and data set as trace_input_next() sets them). */
void report_printer_print(struct report_printer *p, struct tep_record *rec);
/* The task names learnt so far are looked up again (new saved cmdlines). */
void report_printer_forget_comms(struct report_printer *p);
void report_printer_free(struct report_printer *p);

#endif
