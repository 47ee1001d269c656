/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert --file-version/--compression (trace-convert-dat.c): rewrites a
 * trace.dat in another version or compression with the same content; split
 * writes its pieces through the same writer.
 */
#ifndef TRACE_CONVERT_DAT_H
#define TRACE_CONVERT_DAT_H

/*
 * Writes @input to @output as @version (6 or 7), compressed with
 * @compression (NULL: the writer's default).  Returns 0, or -1 after
 * printing why (@output then is as it was: see trace-outfile.h).
 */
int trace_convert_dat(const char *input, const char *output, int version,
		      const char *compression);

struct trace_input;
struct outfile;

/*
 * Writes @f (taking its fd) as @version/@compression (NULL: the writer's default) with
 * @in's metadata and options, and for each buffer b of @in whose
 * cpu_fds[b] is set, each CPU's plain pages read from cpu_fds[b][cpu] (a
 * regular file, from offset 0 to its end; -1: no data).  The top buffer is
 * always written, empty when cpu_fds[0] is NULL.  Returns 0, or -1 after
 * printing why; the caller commits or aborts @f.
 */
int trace_dat_write(struct trace_input *in, struct outfile *f, int version,
		    const char *compression, int *const *cpu_fds);

/* One buffer of a file trace_dat_write_buffers() writes. */
struct dat_buffer_out {
	int src;		/* the buffer of the input whose metadata it has */
	const char *name;	/* its name in the output; NULL: the output's top buffer */
	int *fds;		/* its CPUs' plain pages, as cpu_fds[b] above */
};

/*
 * As trace_dat_write(), with the output's buffers given one by one, so a
 * buffer may be renamed or become the top one (split -b, -t): instances in
 * @bufs' order, the top buffer empty (with @in's top's CPUs) when none of
 * @bufs has a NULL name.  At most one may.
 */
int trace_dat_write_buffers(struct trace_input *in, struct outfile *f, int version,
			    const char *compression, const struct dat_buffer_out *bufs, int nr);

struct trace_output;

/*
 * Writes @in's prefix (its page and long sizes), headers, formats, kallsyms,
 * printk formats and command lines to @out: a partial file's metadata.
 */
int trace_dat_copy_metadata(struct trace_output *out, struct trace_input *in);

struct command;

/*
 * --file-version (@opt 'V') or --compression: checks @arg as record does
 * and stores it.  Returns PARSE_RUN when accepted, else the exit status (usage printed).
 */
int trace_dat_parse_format(const struct command *cmd, int opt, const char *arg, int *version,
			   const char **compression);
/* After parsing: a compression needs version 7.  PARSE_RUN when fine, else the exit status. */
int trace_dat_check_format(const struct command *cmd, int version, const char *compression);

/*
 * For writers that make version 6 (extract, restore): @write_v6 writes the
 * trace as version 6 to @fd (closing it; @name for messages), into @f itself
 * for plain v6, else into a temporary file then converted into @f as
 * @version/@compression.  Returns -1 after printing why; the caller commits
 * or aborts @f.
 */
int trace_dat_write_via_v6(struct outfile *f, int version, const char *compression,
			   int (*write_v6)(void *ctx, int fd, const char *name), void *ctx);

#endif
