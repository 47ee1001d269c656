/* SPDX-License-Identifier: GPL-2.0 */
/*
 * convert --file-version/--compression (trace-convert-dat.c): rewrites a
 * trace.dat in another version or compression with the same content.
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

#endif
