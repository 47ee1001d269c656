/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Export of a trace.dat to a SQLite database: one table per event type,
 * the tasks, and the tables derived from the scheduler and irq events
 * (sched_slice, wakeup_latency, irq_slice).  The schema is in
 * trace-cmd-convert(1).
 */
#ifndef TRACE_SQLITE_H
#define TRACE_SQLITE_H

/*
 * Writes the events of trace.dat @input to a new SQLite database @output
 * (replacing the file only once it is complete).  Returns 0, or -1 after
 * printing why.
 */
int trace_sqlite_export(const char *input, const char *output);

#endif
