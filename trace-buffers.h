/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Buffer selection for the small tracefs commands (stop, reset, clear, show,
 * stat, extract, ...): -B NAME / -a / -t turned into a list of buffers,
 * each a tfs_instance (trace-tracefs.h) to read and write through.
 */
#ifndef TRACE_BUFFERS_H
#define TRACE_BUFFERS_H

#include <stdbool.h>

struct tfs_instance;

/* A list of selected buffers; the top buffer is represented by a NULL instance. */
struct buffers;

struct buffers *buffers_new(void);
void buffers_free(struct buffers *b);

/*
 * Selectors, in command-line order.  Each starts a new group that later
 * per-group settings (buffers_set_size, buffers_set_delete) apply to.
 * buffers_select_name fails with "no instance 'NAME'" when it does not exist.
 */
int buffers_select_name(struct buffers *b, const char *name);
int buffers_select_all(struct buffers *b);
void buffers_select_top(struct buffers *b);
/*
 * The common -B NAME / -a / -t options of a two-pass parse (@b NULL on the
 * first, checking pass): returns 1 when @opt was one of them, 0 when it was
 * not, -1 when the selection failed (the error is printed).
 */
int buffers_option(struct buffers *b, int opt, const char *arg);
/* A command's option parser: with @b NULL it only checks the words. */
typedef int (*buffers_parse_fn)(const void *ctx, int argc, char **argv, struct buffers *b);
/*
 * A small command's two passes over its words: @parse checks them all first
 * (@b NULL, so a bad one changes nothing), then, with the tracing directory
 * found, selects into a new list.  PARSE_RUN with *@out the list (the
 * caller frees it), or the exit status.
 */
int buffers_parse(buffers_parse_fn parse, const void *ctx, int argc, char **argv,
		  struct buffers **out);
/* Adds the top buffer when nothing was selected at all. */
void buffers_default_top(struct buffers *b);
/* True when the most recent selector was -t, or none was given yet. */
bool buffers_group_is_top(const struct buffers *b);

/* Per-group settings for the most recent selector. */
void buffers_set_size(struct buffers *b, unsigned long kb);
void buffers_set_delete(struct buffers *b);

int buffers_count(const struct buffers *b);
struct tfs_instance *buffers_instance(const struct buffers *b, int i);
/* "top" for the top buffer, else the instance name (for messages). */
const char *buffers_name(const struct buffers *b, int i);
bool buffers_is_top(const struct buffers *b, int i);
/* The -b size given for this buffer's group, or 0 when none was. */
unsigned long buffers_size(const struct buffers *b, int i);
bool buffers_delete(const struct buffers *b, int i);

/*
 * The usage error for what getopt_long returned as '?' or ':' (the option
 * string starts with "+:" or ":" and opterr is 0): "unknown option '-x'" or
 * "option '-x' needs a value", then the usage; returns EXIT_USAGE.
 */
struct command;

#endif
