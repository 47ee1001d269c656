/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Facts of the trace.dat format shared by its reader (trace-input) and its
 * writers (trace-output*, listen), and dump: the option and section ids.
 */
#ifndef TRACE_DAT_H
#define TRACE_DAT_H

/* Option ids of trace.dat; v7 section ids are the same (trace-cmd.dat.v7(5), SECTIONS). */
enum {
	TRACE_OPT_DONE		= 0,
	TRACE_OPT_DATE		= 1,
	TRACE_OPT_CPUSTAT	= 2,
	TRACE_OPT_BUFFER	= 3,
	TRACE_OPT_TRACECLOCK	= 4,
	TRACE_OPT_UNAME		= 5,
	TRACE_OPT_HOOK		= 6,
	TRACE_OPT_OFFSET	= 7,
	TRACE_OPT_CPUCOUNT	= 8,
	TRACE_OPT_VERSION	= 9,
	TRACE_OPT_PROCMAPS	= 10,
	TRACE_OPT_TRACEID	= 11,
	TRACE_OPT_TIME_SHIFT	= 12,
	TRACE_OPT_GUEST		= 13,
	TRACE_OPT_TSC2NSEC	= 14,
	TRACE_OPT_STRINGS	= 15,
	TRACE_OPT_HEADER_INFO	= 16,
	TRACE_OPT_FTRACE_EVENTS	= 17,
	TRACE_OPT_EVENT_FORMATS	= 18,
	TRACE_OPT_KALLSYMS	= 19,
	TRACE_OPT_PRINTK	= 20,
	TRACE_OPT_CMDLINES	= 21,
	TRACE_OPT_BUFFER_TEXT	= 22,
	TRACE_OPT_MODULES	= 25,	/* v7: the section of a saved /proc/modules (3.4) */
};

/*
 * v7 section ids: an options section is 0; every other section has the id
 * of the option that points at it or describes it (STRINGS, HEADER_INFO to
 * CMDLINES, BUFFER, BUFFER_TEXT).
 */
#define TRACE_SECT_OPTIONS	0

/* The smallest page size a file header may give (the reader's limit). */
#define TRACE_MIN_PAGE_SIZE	64

/* A v7 file's CPU data is compressed in chunks of at most this many pages. */
#define TRACE_PAGES_IN_CHUNK	10

#endif
