/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reading trace.dat (v6 and v7, see trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5)):
 * every layout fact comes from the file, the tep handle is built from the
 * file's own formats, and records come out merged across CPUs and buffers in
 * timestamp order, reading per-CPU data in bounded windows.
 */
#ifndef TRACE_INPUT_H
#define TRACE_INPUT_H

#include <stddef.h>
#include <stdint.h>

#include "trace-dat.h"

struct trace_input;
struct kallsyms;
struct tep_handle;
struct tep_record;


/* Flags for trace_input_open(). */
enum {
	TRACE_INPUT_NO_PLUGINS	= 1 << 0,	/* do not load libtraceevent plugins */
	TRACE_INPUT_RAW_TS	= 1 << 1,	/* no correction at all (trace-clock.h) */
	TRACE_INPUT_NO_DATE	= 1 << 2,	/* ignore the DATE option */
	TRACE_INPUT_NO_TEP	= 1 << 3,	/* read the layout only, build no tep handle */
	TRACE_INPUT_LOCAL_PLUGINS = 1 << 4,	/* only the user's plugins, not the system's */
	TRACE_INPUT_LAZY	= 1 << 5,	/* formats and kallsyms parsed when needed */
	TRACE_INPUT_LOG_VERSION	= 1 << 6,	/* print "version = N" once it is read */
};

/*
 * Opens and checks @file: every section is read and bounds-checked here, so
 * a damaged file fails now with one message.  Returns NULL after printing it.
 */
struct trace_input *trace_input_open(const char *file, int flags);
void trace_input_close(struct trace_input *in);

/* Layout facts, all taken from the file. */
const char *trace_input_file(const struct trace_input *in);
int trace_input_version(const struct trace_input *in);
int trace_input_big_endian(const struct trace_input *in);
int trace_input_long_size(const struct trace_input *in);	/* as the file header says */
int trace_input_kernel_long_size(const struct trace_input *in);	/* from header_page */
unsigned int trace_input_page_size(const struct trace_input *in);
const char *trace_input_compression(const struct trace_input *in);	/* "none", "zlib", "zstd" */
const char *trace_input_compression_version(const struct trace_input *in);
int trace_input_cpus(const struct trace_input *in);
int trace_input_is_latency(const struct trace_input *in);
/* The latency text of a latency-tracer file (malloc'd, NUL-terminated) or NULL on error. */
char *trace_input_latency_text(struct trace_input *in, size_t *len);
struct tep_handle *trace_input_tep(const struct trace_input *in);
/*
 * With TRACE_INPUT_LAZY the tep handle holds only the formats of the records
 * read so far (and one more), and no functions: these load what a caller
 * needs beyond that.  Each returns -1 (or NULL) after printing why.
 */
int trace_input_parse_all(struct trace_input *in);
int trace_input_parse_format(struct trace_input *in, int i);	/* see trace_input_format() */
int trace_input_need_event(struct trace_input *in, int id);
struct tep_event *trace_input_event_by_name(struct trace_input *in, const char *system,
					    const char *name);
void trace_input_load_functions(struct trace_input *in);
/*
 * The table libtraceevent asks for functions once they are loaded, which
 * other threads may read (trace-kallsyms.h); NULL when libtraceevent holds
 * them itself (its map, only read once sorted), or there are none.
 */
const struct kallsyms *trace_input_function_table(const struct trace_input *in);
/* A record's common_type and common_pid, as tep_data_type() and tep_data_pid() read them. */
int trace_input_record_type(struct trace_input *in, struct tep_record *rec);
int trace_input_record_pid(struct trace_input *in, struct tep_record *rec);
/* The record's common_flags, as tep_data_flags() reads them. */
int trace_input_record_flags(struct trace_input *in, struct tep_record *rec);
/*
 * report --kallsyms: the @len bytes of @text ("ADDR TYPE NAME" lines, kept by
 * the caller until close) are read with the file's own kallsyms, before it,
 * as upstream does.  Call it before anything loads the functions.
 */
void trace_input_add_kallsyms(struct trace_input *in, const char *text, size_t len);
/* Loads functions and makes @name known to print fmts that use it as a value. */
void trace_input_register_symbol(struct trace_input *in, const char *name);
/* The trace clock ("local", "x86-tsc", ...), and whether timestamps are in ns. */
const char *trace_input_clock(const struct trace_input *in);
int trace_input_in_usecs(const struct trace_input *in);
/* Whether the file names its clock at all (old files do not). */
int trace_input_clock_known(const struct trace_input *in);

/* Buffers: 0 is the top instance (name ""), then instances in file order. */
int trace_input_nr_buffers(const struct trace_input *in);
const char *trace_input_buffer_name(const struct trace_input *in, int buffer);
int trace_input_buffer_cpus(const struct trace_input *in, int buffer);
/* Bytes of data recorded for @cpu of @buffer (0: the CPU is empty). */
uint64_t trace_input_cpu_size(const struct trace_input *in, int buffer, int cpu);
/* The bytes of @cpu's data once decompressed (its size for uncompressed data). */
uint64_t trace_input_cpu_data_size(struct trace_input *in, int buffer, int cpu);
/* The size of the buffer's pages (v7: its BUFFER option's; else the file's). */
unsigned int trace_input_buffer_page_size(const struct trace_input *in, int buffer);
/* Whether the buffer's CPU data is stored compressed. */
int trace_input_buffer_compressed(const struct trace_input *in, int buffer);
/* File offset of that data (for v7 compressed data, of its chunk count). */
uint64_t trace_input_cpu_offset(const struct trace_input *in, int buffer, int cpu);

/* Event formats in file order; system is "ftrace" for the ftrace formats. */
int trace_input_nr_formats(const struct trace_input *in);
const char *trace_input_format(const struct trace_input *in, int i, const char **system,
			       size_t *len);
/* The header_page and header_event texts. */
const char *trace_input_header_page(const struct trace_input *in, size_t *len);
const char *trace_input_header_event(const struct trace_input *in, size_t *len);
/* Its kallsyms section did not decompress: functions are shown as addresses (warned). */
int trace_input_kallsyms_damaged(const struct trace_input *in);
/* kallsyms, printk formats and saved cmdlines texts (NUL-terminated). */
const char *trace_input_kallsyms(const struct trace_input *in);
const char *trace_input_printk(const struct trace_input *in);
/* The printk lines libtraceevent was given (malformed ones left out), malloc'd; NULL: none. */
char *trace_input_usable_printk(struct trace_input *in);
const char *trace_input_cmdlines(const struct trace_input *in);

/* The @nth option with @id (in file order), or NULL; *len is its payload size. */
const void *trace_input_option(const struct trace_input *in, int id, int nth, size_t *len);

/*
 * v7, for appending options (attach): the file offset of the last options
 * section's DONE link (its next-section offset, 0 in the file), or 0 when
 * that section is compressed; and the bytes the STRINGS sections hold, where
 * a new description's offset starts.
 */
uint64_t trace_input_options_link(const struct trace_input *in);
uint64_t trace_input_strings_size(const struct trace_input *in);

/* Adds @offset to every timestamp (report --ts-offset, --align-ts). */
void trace_input_add_ts_offset(struct trace_input *in, int64_t offset);
/* Multiplies raw timestamps into ns with @hz ticks per second (report --ts2secs). */
void trace_input_set_ts2secs(struct trace_input *in, uint64_t hz);

/*
 * Leaves the records whose event id has a 0 in @ids (65536 entries, kept by
 * the caller) out of the stream, before they are filled in (report -F).
 */
void trace_input_only_ids(struct trace_input *in, const unsigned char *ids);
/*
 * A value in that table: the event is kept only when the one before it on
 * its CPU was (a stack trace goes with the event it was taken at).
 */
#define TRACE_INPUT_ID_FOLLOWS	0xff

/*
 * Records then come buffer by buffer and, in each, CPU by CPU, each CPU's in
 * file order, instead of merged by time: hist walks them so, as upstream's
 * does.  Call it before the first trace_input_next().
 */
void trace_input_cpu_order(struct trace_input *in);

/* Leaves @cpu of every buffer out of the merged stream (report --cpu). */
void trace_input_skip_cpu(struct trace_input *in, int cpu);

/*
 * The next record in timestamp order across all CPUs and buffers.  Returns
 * 1 and sets *rec (valid until the next call) and *buffer, 0 at the end, or
 * -1 after printing what is damaged.
 */
int trace_input_next(struct trace_input *in, struct tep_record **rec, int *buffer);

/*
 * The record after @rec in the merged stream, when it is on the same CPU and
 * in the data already read (*next is a copy, valid until the next
 * trace_input_next()).  Returns 1, or 0 otherwise.
 */
int trace_input_peek_same_cpu(struct trace_input *in, struct tep_record *rec,
			      struct tep_record *next);
/* Drops the record after @rec on its CPU (one just peeked and printed with it). */
void trace_input_skip_next_same_cpu(struct trace_input *in, struct tep_record *rec);

/* Timestamps of the first and last records of @cpu in @buffer: 1, 0 if none, -1 on damage. */
int trace_input_cpu_first_last(struct trace_input *in, int buffer, int cpu, uint64_t *first,
			       uint64_t *last);

/* Whether @rec is the first record of its sub-buffer (page). */
int trace_input_record_at_page_start(const struct tep_record *rec);

/*
 * Where a record from trace_input_next() lies in its sub-buffer as stored:
 * the page's bytes, the record's offset and size there (its event header
 * included, not the time extends before it) and its raw timestamp (before
 * any TIME_SHIFT, TSC2NSEC, DATE, OFFSET or --ts-offset correction).  For split, which
 * copies pages; valid until the next trace_input_next().
 */
struct trace_input_raw {
	const unsigned char *page;
	unsigned int page_size, offset, size;
	uint64_t raw_ts;
	unsigned int data_start;	/* the page header's size: where events start */
	uint32_t data_size;		/* the page's commit: bytes of events */
	int big_endian;			/* the page's byte order (the file's) */
};
void trace_input_record_raw(const struct tep_record *rec, struct trace_input_raw *raw);

/*
 * The number upstream's libtracecmd gives @rec's position (report --debug):
 * its file offset, or in compressed data an offset in the CPUs' decompressed
 * data laid end to end (each CPU rounded up to whole pages, buffers in file
 * order, the top one first), starting one page in.
 */
uint64_t trace_input_record_offset(struct trace_input *in, const struct tep_record *rec);

#endif
