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
 * printing why (a partial @output is removed).
 */
int trace_convert_dat(const char *input, const char *output, int version,
		      const char *compression);

struct trace_input;

/*
 * Writes @output as @version/@compression (NULL: the writer's default) with
 * @in's metadata and options, and for each buffer b of @in whose
 * cpu_fds[b] is set, each CPU's plain pages read from cpu_fds[b][cpu] (a
 * regular file, from offset 0 to its end; -1: no data).  The top buffer is
 * always written, empty when cpu_fds[0] is NULL.  Returns 0, or -1 after
 * printing why (a partial @output is removed).
 */
int trace_dat_write(struct trace_input *in, const char *output, int version,
		    const char *compression, int *const *cpu_fds);

#endif
