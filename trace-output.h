/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Writing trace.dat, version 6 or 7 (trace-cmd.dat.v6(5), v7(5)): the prefix,
 * the metadata sections read from the tracing directory, options, and each
 * buffer's CPU data placed page-aligned.  Every write is checked.
 */
#ifndef TRACE_OUTPUT_H
#define TRACE_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "trace-dat.h"
#include "trace-output-v7.h"	/* struct cpu_chunks */

struct prefetch;
struct tfs_events;
struct trace_output;

/* The versions this writer produces. */
#define TRACE_OUTPUT_MIN_VERSION 6
#define TRACE_OUTPUT_MAX_VERSION 7

/*
 * Creates (truncating) @path, mode 0644.  Returns NULL after printing why.
 */
struct trace_output *trace_output_create(const char *path, int version);
/*
 * Writes to an open @fd (a file, pipe or socket; only sequential writes are
 * made).  @name is used in messages.  The output owns @fd from now on.
 */
struct trace_output *trace_output_fdopen(int fd, const char *name, int version);

/*
 * A version 7 file with options added (attach): writes to @fd (owned from
 * now on) a copy of the @size bytes of @src_fd, a complete file compressed
 * with @comp; trace_output_add_option() queues the new options, which
 * trace_output_close() writes in a new options section chained from the
 * file's last DONE link at @link_at, and a STRINGS section after it whose
 * descriptions start at @strings_size.  NULL after printing why.
 */
struct trace_output *trace_output_append(int fd, const char *name, int src_fd, uint64_t size,
					const char *comp, uint64_t link_at, uint64_t strings_size);

/* Bytes written so far. */
uint64_t trace_output_offset(const struct trace_output *out);

/* Writes @len bytes as they are (e.g. metadata a peer sent). */
int trace_output_write_raw(struct trace_output *out, const void *buf, size_t len);

/*
 * The whole metadata from the tracing directory (tfs_dir()): prefix (with
 * the ring buffer's @page_size), header_page/header_event, ftrace formats,
 * the formats of @events (all systems when NULL), kallsyms, printk formats,
 * saved cmdlines.  Files @ahead read already (trace-prefetch.h; NULL: none)
 * are taken from it, the others read now.
 */
int trace_output_write_metadata(struct trace_output *out, uint32_t page_size,
				const struct tfs_events *events, struct prefetch *ahead);

/* The single steps of trace_output_write_metadata, in file order. */
int trace_output_write_prefix(struct trace_output *out, uint32_t page_size);
int trace_output_write_header_info(struct trace_output *out, struct prefetch *ahead);
int trace_output_write_ftrace_formats(struct trace_output *out, struct prefetch *ahead);
int trace_output_write_event_formats(struct trace_output *out, const struct tfs_events *events,
				     struct prefetch *ahead);
/* @path: a kallsyms file, NULL for this machine's (trace-kallsyms.h). */
int trace_output_write_kallsyms(struct trace_output *out, const char *path,
				struct prefetch *ahead);
int trace_output_write_printk(struct trace_output *out, struct prefetch *ahead);
int trace_output_write_cmdlines(struct trace_output *out);

/* Queues an option for the options block (written by trace_output_write_data). */
int trace_output_add_option(struct trace_output *out, uint16_t id, const void *data,
			    uint32_t size);
/* TRACECLOCK, UNAME, VERSION and TRACEID, as upstream records them. */
int trace_output_add_host_options(struct trace_output *out);
/*
 * --date: the DATE option, wall-clock minus trace time in microseconds as
 * "0x<hex>" (trace-cmd.dat.v7(5), OPTION IDS), so report shows dates.  The
 * local and global clocks count from boot like CLOCK_MONOTONIC, whose offset
 * this is.
 */
int trace_output_add_date(struct trace_output *out);
/* A new trace id (TRACEID), for a host file whose id its agents are told first. */
uint64_t trace_output_new_trace_id(void);
/* The same with the TRACEID @id (an agent's, as it told the host); 0: a new one. */
int trace_output_add_host_options_id(struct trace_output *out, uint64_t id);
/* One CPUSTAT per CPU from @buffer's per_cpu/cpuN/stats (read them after recording). */
struct tfs_instance;
int trace_output_add_cpustats(struct trace_output *out, struct tfs_instance *buffer, int nr_cpus);
/*
 * An instance's CPUSTATs: the "Buffer: NAME" entry upstream puts first, then
 * trace_output_add_cpustats() of the instance.
 */
int trace_output_add_buffer_cpustats(struct trace_output *out, struct tfs_instance *buffer,
				     int nr_cpus);
/*
 * Declares instance @name before trace_output_write_data: version 6 lists
 * it in a BUFFER option whose offset trace_output_write_buffer fills in
 * (version 7 writes its BUFFER option with the buffer).
 */
int trace_output_add_buffer(struct trace_output *out, const char *name);

/*
 * The end of the file: CPU count, options, "flyrecord", per-CPU offsets and
 * sizes, the clock trailer ("[@clock]"), then the content of each of
 * @cpu_fds (regular files, read from offset 0 to their end; -1: no data)
 * page-aligned.
 */
int trace_output_write_data(struct trace_output *out, int nr_cpus, const int *cpu_fds,
			    const char *clock);

/*
 * Version 7 compressed with @comp: trace_output_write_data copies the top
 * buffer's chunks from @chunks (kept until then) and compresses only the
 * rest of each CPU's data.  -1 (nothing to do) if the output's compression
 * is another.
 */
int trace_output_set_chunks(struct trace_output *out, int comp, const struct cpu_chunks *chunks,
			    int nr_cpus);

/*
 * A latency file's end, instead of trace_output_write_data: the CPU count
 * and options, then @text (a latency tracer's 'trace' file): after
 * "latency" in version 6, in a BUFFER_TEXT section (chunked when
 * compressed) with its option, @clock the top buffer's, in version 7.
 */
int trace_output_write_latency(struct trace_output *out, int nr_cpus, const char *text,
			       size_t len, const char *clock);

/*
 * Where a network listener takes over (record -N): the CPU count and the
 * queued options (v6), or the first options section with the CPU count (v7).
 * The listener appends the CPU data; nothing else is written after this.
 */
int trace_output_end_metadata(struct trace_output *out, int nr_cpus);
/*
 * Version 7, agent -P: the metadata written so far ends here; the first
 * options section (trace_output_end_metadata, later) will start at this
 * offset, which the prefix already states, so what precedes can be sent now.
 */
int trace_output_link_options_here(struct trace_output *out);

/*
 * Version 7 only: "none", "zlib", "zstd" or "any" (the default, zstd).  Call
 * before the prefix is written.  Version 6 accepts only "none".
 */
int trace_output_set_compression(struct trace_output *out, const char *name);
/* The long size the prefix states (a rewritten file keeps its machine's); default this one's. */
void trace_output_set_long_size(struct trace_output *out, int long_size);

/*
 * After trace_output_write_data: an instance's buffer @name with its CPU
 * data files.  Version 7 adds any options queued meanwhile; version 6 needs
 * trace_output_add_buffer(@name) first, and a seekable output.
 */
int trace_output_write_buffer(struct trace_output *out, const char *name, int nr_cpus,
			      const int *cpu_fds, const char *clock);

/*
 * For metadata written with trace_output_write_raw (convert): in version 7
 * the bytes that follow form section @id (16-21); version 6 ignores it.
 */
int trace_output_begin_section(struct trace_output *out, uint16_t id);

/* Closes the output; returns -1 if the final close failed (printed). */
int trace_output_close(struct trace_output *out);

#endif
