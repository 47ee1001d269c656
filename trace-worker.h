/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record's helper threads (compressing early, reading metadata ahead): made
 * parked before the exclusion list is written, so that their thread ids go
 * in it, and let go once the command has been forked.
 */
#ifndef TRACE_WORKER_H
#define TRACE_WORKER_H

#include <sys/types.h>

struct worker;

/*
 * A thread that will run @fn(@arg) at nice 19 (below the recorders and the
 * command) once worker_go() lets it; it takes no signals.  NULL if it
 * cannot be made.
 */
struct worker *worker_new(void (*fn)(void *arg), void *arg);
void worker_go(struct worker *w);
/*
 * Waits for @fn to return (if never let go, @fn is not run) at the
 * caller's priority, and frees @w.
 */
void worker_join(struct worker *w);

#endif
