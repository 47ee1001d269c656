/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's dynamic events (kprobes, uprobes, event probes, synthetic
 * events), global to the tracing directory: named by type, and removed all
 * at once but for the types a command keeps (reset -k).
 */
#ifndef TRACE_DYNEVENT_H
#define TRACE_DYNEVENT_H

/* The types, as bits of a mask; DYNEVENT_ALL is every one. */
enum {
	DYNEVENT_KPROBE		= 1 << 0,
	DYNEVENT_KRETPROBE	= 1 << 1,
	DYNEVENT_UPROBE		= 1 << 2,
	DYNEVENT_URETPROBE	= 1 << 3,
	DYNEVENT_EPROBE		= 1 << 4,
	DYNEVENT_SYNTH		= 1 << 5,
	DYNEVENT_ALL		= (1 << 6) - 1,
};

/* The mask of a type's name (kprobe, ..., synth, all); 0 for an unknown name. */
unsigned int dynevent_type(const char *name);

/*
 * Removes every dynamic event whose type is not in @keep, event probes
 * first (they may sit on another dynamic event).  A removal the kernel
 * refuses is named; returns -1 if any was, else 0 (also on a kernel without
 * dynamic_events, which then has none).
 */
int dynevents_remove(unsigned int keep);

#endif
