/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Time synchronization between `record -A` (the host) and its agent (the
 * guest): the "ptp" protocol as upstream 3.4 speaks it over the TIME_SYNC
 * message (trace-net.h), its samples, and the TIME_SHIFT option they make.
 *
 * One sample, for one guest CPU: the host asks (PROBE "none", the CPU); the
 * guest, pinned to that CPU, sends START (round, flags), the host echoes it;
 * then TSYNC_PTP_PROBES times the guest marks 's', sends PROBE n, the host
 * marks 'r' and echoes it, the guest marks 'r'.  Marks are raw markers in a
 * tracefs instance of each side's own, so their times are the trace clock's.
 * The guest sends END; the host answers RESULTS, its 'r' times; the guest
 * picks the probe with the shortest round trip and answers OFFSET: its time
 * at the middle of that trip and the host's time minus it.  The host ends
 * the session with STOP ("none").
 *
 * "kvm", which a host offers first where it can read the guest's vCPUs' TSC
 * settings from KVM (trace-tsync-kvm.h): after the PROBE, the guest sends
 * REQUEST with its time (a raw marker's), the host answers RESPONSE with
 * that vCPU's offset, scaling and fraction bits, which make the sample.
 */
#ifndef TRACE_TSYNC_H
#define TRACE_TSYNC_H

#include <signal.h>
#include <stdint.h>
#include <stddef.h>
#include <sys/types.h>

#include "trace-net.h"

#define TSYNC_PTP		"ptp"
#define TSYNC_KVM		"kvm"
#define TSYNC_PTP_PROBES	339	/* upstream's probes per sample */
#define TSYNC_FLAG_INTERPOLATE	1	/* TIME_SHIFT flags: interpolate between samples */

/* One sample of a guest CPU: host time = guest time + offset, at guest @time. */
struct tsync_sample {
	uint64_t	time;		/* the guest's trace clock */
	int64_t		offset;
	uint64_t	scaling;	/* ptp: 1 */
	uint64_t	frac;		/* fraction bits of the scaling; ptp: 0 */
};

/*
 * The ptp arithmetic over one sample's probes, indexed 1..TSYNC_PTP_PROBES
 * (0 where a time is missing): the guest's send and receive times and the
 * host's receive time.  The fastest round trip wins; ties go to the first.
 * Returns 0 with @out set, or -1 when no probe is whole.
 */
int tsync_ptp_offset(const uint64_t *guest_sent, const uint64_t *guest_recv,
		     const uint64_t *host_recv, struct tsync_sample *out);

/* The trace clock a TRACE_REQ's record arguments ask for (-C; tsc2nsec: x86-tsc), "local" by default. */
const char *tsync_clock_of_args(int argc, const char *const *argv);
/* The same, NULL when the arguments name none. */
const char *tsync_clock_arg(int argc, const char *const *argv);

/*
 * The guest's side, over the connected time-sync socket of @peer: answers
 * the host's sample requests by @proto (TSYNC_PTP or TSYNC_KVM), marking
 * times on @clock, until the host's STOP
 * (0), or an error or *@stop (-1 after a message, none for *@stop).
 */
int tsync_guest_serve(struct net_peer *peer, const char *proto, const char *clock,
		      volatile sig_atomic_t *stop);

/*
 * The agent's time sync when the host's TRACE_REQ (@req, on the control
 * connection @control_fd) offers kvm or ptp (*@proto: the one taken, kvm
 * first as 3.4's agent): a time-sync port (its number in *@port) served by
 * a child process, started before the data ports exist so it holds none of
 * them.  Returns the child, or 0: no time sync, the host is told none.
 */
pid_t tsync_guest_start(int control_fd, const struct net_trace_req *req, const char *name,
			unsigned int *port, const char **proto);
/*
 * After the recording: waits for the child to see the host's STOP (a few
 * seconds at most), or stops it at once when the recording @failed.
 */
void tsync_guest_finish(pid_t child, int failed);

/* The host's side: its samples of each guest CPU. */
struct tsync_host;

/*
 * Over @peer's connected time-sync socket, for a guest of @guest_cpus CPUs:
 * with @kvm_dir (kvm_vm_dir()'s) by kvm, else by ptp marking times on the
 * host's @clock.  NULL after a message.
 */
struct tsync_host *tsync_host_new(struct net_peer *peer, const char *clock, int guest_cpus,
				  const char *kvm_dir);
/* One sample of every guest CPU: 0, or -1 after a message. */
int tsync_host_sample_all(struct tsync_host *h);
/*
 * The whole session as upstream's record runs it: samples at once, then
 * every @interval_ms (0: none between), then a last one when *@stop is set
 * (or the guest hangs up); then STOP.  0, or -1 after a message.
 */
int tsync_host_run(struct tsync_host *h, long interval_ms, volatile sig_atomic_t *stop);
/* Ends the session (STOP). */
int tsync_host_stop(struct tsync_host *h);
/* The samples of guest CPU @cpu so far. */
size_t tsync_host_samples(const struct tsync_host *h, int cpu, const struct tsync_sample **s);
/*
 * The TIME_SHIFT option for the guest's file, in this machine's byte order:
 * u64 @host_trace_id, u32 flags, u32 cpus; per CPU u32 count, u64 times[],
 * offsets[], scalings[]; then per CPU u64 fractions[].  Free it.
 */
void *tsync_time_shift_option(const struct tsync_host *h, uint64_t host_trace_id, size_t *len);
void tsync_host_free(struct tsync_host *h);

#endif
