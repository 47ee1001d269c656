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

struct trace_output;

/*
 * Writes @in's prefix (its page and long sizes), headers, formats, kallsyms,
 * printk formats and command lines to @out: a partial file's metadata.
 */
int trace_dat_copy_metadata(struct trace_output *out, struct trace_input *in);

struct command;

/*
 * --file-version (@opt 'V') or --compression: checks @arg as record does
 * and stores it.  Returns -1 when accepted, else the exit status (usage printed).
 */
int trace_dat_parse_format(const struct command *cmd, int opt, const char *arg, int *version,
			   const char **compression);
/* After parsing: a compression needs version 7.  -1 when fine, else the exit status. */
int trace_dat_check_format(const struct command *cmd, int version, const char *compression);

/*
 * For writers that make version 6 (extract, restore): the path to write
 * the v6 file to (malloc'd): @output itself for plain v6, else a temporary
 * file that trace_dat_finish_v6() converts into @output as
 * @version/@compression and removes.  NULL after printing why.
 */
char *trace_dat_temp_v6(const char *output, int version, const char *compression);
/* Frees @written; returns -1 after printing why (no @output left then). */
int trace_dat_finish_v6(char *written, const char *output, int version, const char *compression);

#endif
