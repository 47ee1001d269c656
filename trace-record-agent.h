/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record -A: the host's side of trace-cmd-agent(1)'s protocol.  Each -A names
 * an agent (HOST:PORT over TCP); the options after it are its record's.  The
 * agent's file header and CPU data come back here and become trace-NAME.dat
 * beside the host's trace.dat, which names each guest in a GUEST option.
 */
#ifndef TRACE_RECORD_AGENT_H
#define TRACE_RECORD_AGENT_H

#include <sys/types.h>

#include <stdint.h>

struct record_guests;
struct tsc_conv;
struct trace_output;

struct record_guests *record_guests_new(void);
void record_guests_free(struct record_guests *g);

/*
 * One option of record's, in command-line order: -A starts a guest, --name
 * (@is_name) names it, and the options that describe a recording (-e -f -R
 * -v -p -l -n -g -O -T -M -C -b -s -d -D -i) go to the guest last started,
 * until a -B.  Returns 1 when the option was taken, 0 when it is the
 * host's, -1 after a usage error.
 */
int record_guests_option(struct record_guests *g, int opt, const char *arg, int is_name);

/*
 * --proxy CID:PORT: like -A, but the agent (-P) is this guest's host, which
 * it traces for us (upstream 3.4's proxy mode): its file is
 * OUTPUT-CID.dat, and ours gets the TIME_SHIFT it made of our clock.
 */
int record_guests_proxy(struct record_guests *g, const char *arg);
int record_guests_count(const struct record_guests *g);

/*
 * --tsync-interval: ptp samples of every guest's clock every @ms (0: at the
 * start and end only, the default; negative: no time sync offered).
 */
void record_guests_tsync_interval(struct record_guests *g, long ms);

/*
 * Once the host's tracefs is set up and its recorders started: asks each
 * agent to trace (its clock @clock unless its -C says otherwise), receives
 * its file header into @output's guest file, connects its data channels
 * and reads them in a process of its own.  @host_id is the host file's
 * trace id; @tsc (--tsc2nsec; NULL: none) goes into each guest's file too.
 * -1 after a message.
 */
int record_guests_start(struct record_guests *g, const char *output, uint64_t host_id,
			const char *clock, const struct tsc_conv *tsc);

/*
 * After the host's recorders stopped: tells each agent to stop, waits for
 * its data, and writes its file.  -1 after a message if any failed.
 */
int record_guests_finish(struct record_guests *g);
/*
 * @pids (@*nr of them, grown) with the processes reading the guests' data
 * channels added, to keep them out of the host's own trace.
 */
pid_t *record_guests_add_readers(const struct record_guests *g, pid_t *pids, int *nr);

/* The GUEST option of each guest whose file was written. */
int record_guests_add_options(const struct record_guests *g, struct trace_output *out);

#endif
