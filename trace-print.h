/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The event printer of report: each event's "print fmt" compiled at first
 * use into a short program that writes its text exactly as libtraceevent's
 * interpreter does, for the shapes most events have; every other event, and
 * every record the program is not sure of, goes through libtraceevent.
 */
#ifndef TRACE_PRINT_H
#define TRACE_PRINT_H

struct tep_event;

/*
 * Whether printing @ev may look up kernel functions (kallsyms): a %pS-like
 * conversion, a symbol name as a value, a helper function, a plugin's
 * handler, a trace_printk.
 */
int trace_print_needs_functions(struct tep_event *ev);

#endif
