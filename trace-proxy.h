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
struct net_trace_req;
struct net_trace_resp;
struct record_net;

/*
 * The agent's answer to TRACE_PROXY @req on @control_fd: ptp (which the
 * record must offer) on a time-sync port, named in @resp, where a thread
 * of this process samples the record's CPUs on this machine's @clock
 * (marks in an instance of its own, trace-tsync.h).  NULL after a message.
 */
struct proxy_tsync *proxy_agent_start(int control_fd, const struct net_trace_req *req,
				      const char *name, const char *clock,
				      struct net_trace_resp *resp);
/*
 * Makes @host, the recording for the record, a proxy's (record_net_set_proxy):
 * at its end the sampling stops (a last sample, then STOP) and the record
 * gets the TIME_SHIFT option naming this agent's trace id.
 */
void proxy_agent_attach(struct proxy_tsync *pt, struct record_net *host, uint64_t record_trace_id);
void proxy_tsync_free(struct proxy_tsync *pt);

#endif
