/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Export of a trace.dat to the Trace Event Format (JSON object form) that
 * Perfetto's UI and chrome://tracing open.
 */
#ifndef TRACE_CHROME_H
#define TRACE_CHROME_H

/*
 * Writes the events of trace.dat @input to @output ("-": stdout) as Trace
 * Event Format JSON.  Returns 0, or -1 after printing why.
 */
int trace_chrome_export(const char *input, const char *output);

#endif
