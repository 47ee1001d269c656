/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --proc-map: the address maps of the traced processes, taken from
 * /proc/PID/maps as each exits (the traced command, through ptrace's exit
 * stop) or when recording ends (-P), for the PROCMAPS option of trace.dat.
 */
#ifndef TRACE_PROC_MAP_H
#define TRACE_PROC_MAP_H

#include <stddef.h>
#include <sys/types.h>

struct proc_maps;

struct proc_maps *proc_maps_new(void);
void proc_maps_free(struct proc_maps *pm);

/*
 * Traces the just forked @pid (PTRACE_SEIZE, stopping only at its exit),
 * so its maps can be read while it is still whole.  Returns 0 or -1 after
 * printing why.
 */
int proc_maps_seize(pid_t pid);
/*
 * A waitpid() status of a seized @pid: a stop is handled (at the exit stop
 * the maps are read, and the process goes on with any signal it was
 * stopped for) and 1 returned; 0 for anything else (it exited).
 */
int proc_maps_stopped(struct proc_maps *pm, pid_t pid, int status);
/* Reads /proc/@pid/maps now (-P); a process that is gone adds nothing. */
void proc_maps_read(struct proc_maps *pm, pid_t pid);

/*
 * The PROCMAPS option text (trace-cmd.dat.v7(5), OPTION IDS): per process
 * "PID COUNT EXE\n" then "START END PATH\n" for each mapping of a file,
 * numbers in hex; NUL ended.  NULL when nothing was read.
 */
const char *proc_maps_text(const struct proc_maps *pm, size_t *size);

#endif
