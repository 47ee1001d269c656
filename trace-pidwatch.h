/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Waiting for tasks that are not our children to end (record -P with no
 * command stops when the tasks it follows have all exited, as upstream's).
 */
#ifndef TRACE_PIDWATCH_H
#define TRACE_PIDWATCH_H

#include <signal.h>
#include <time.h>

struct pidwatch;

/* Watches the @nr task ids in @pids (decimal strings). */
struct pidwatch *pidwatch_new(const char *const *pids, int nr);
/* Whether every watched task has ended. */
int pidwatch_done(struct pidwatch *w);
/*
 * Sleeps until a watched task ends, a signal outside @mask comes, or
 * @timeout (NULL: none) passes.
 */
void pidwatch_wait(struct pidwatch *w, const struct timespec *timeout, const sigset_t *mask);
void pidwatch_free(struct pidwatch *w);

#endif
