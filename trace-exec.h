/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The traced command: found on PATH before tracefs is touched, and started
 * so that what must happen in the child right before exec (tracing on, a
 * pid filter, another user) happens there, an exec failure coming back.
 */
#ifndef TRACE_EXEC_H
#define TRACE_EXEC_H

#include <sys/types.h>

/* @name's path (as execvp would find it), in new memory; NULL if there is none. */
char *find_command_path(const char *name);

/*
 * Forks and runs @path with @argv after @before(@arg) returned 0 in the
 * child.  Returns the child's pid once it has executed, or -1 after printing
 * why it could not (@before's failure or exec's, errno from the child).
 */
pid_t exec_command(const char *path, char **argv, int (*before)(void *arg), void *arg);

#endif
