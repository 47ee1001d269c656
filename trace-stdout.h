/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Work the output waits for, such as parsing kallsyms before a line that
 * names a function: when stdout is a pipe whose reader goes away meanwhile
 * ("report | head -1"), the process ends at once, as its next write would
 * end it, instead of after the work.
 */
#ifndef TRACE_STDOUT_H
#define TRACE_STDOUT_H

/* Runs @fn(@arg) to its end, unless stdout's reader is gone first (SIGPIPE). */
void run_for_stdout(void *(*fn)(void *), void *arg);

#endif
