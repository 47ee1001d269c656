/* SPDX-License-Identifier: GPL-2.0 */
/*
 * agent -P: the time sync of a proxy agent.  A record --proxy on a guest
 * asks the agent (its host) to trace the host; the roles of ptp are then
 * reversed: the agent samples the record's clock, one sample set per CPU of
 * the record, and hands the TIME_SHIFT option they make back to it.
 */
#ifndef TRACE_PROXY_H
#define TRACE_PROXY_H

#include <stddef.h>
#include <stdint.h>

struct proxy_tsync;

/*
 * A time-sync port on the address of the control connection @control_fd
 * (its number in *@port), where a thread accepts the record and samples its
 * @record_cpus CPUs, marking times on this machine's @clock.  NULL after a
 * message.
 */
struct proxy_tsync *proxy_tsync_start(int control_fd, const char *name, const char *clock,
				       int record_cpus, unsigned int *port);
/*
 * Ends the sampling (a last sample, then STOP) and returns the raw option
 * for the record: u16 TIME_SHIFT, u32 length, then the option naming this
 * machine's @trace_id, @len set; NULL after a message.  Free it.
 */
void *proxy_tsync_finish(struct proxy_tsync *pt, uint64_t trace_id, size_t *len);
void proxy_tsync_free(struct proxy_tsync *pt);

#endif
