/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record -N HOST:PORT: the client's side of the listen protocol
 * (trace-cmd-listen(1), PROTOCOL).  The recording is the same as a local
 * one; the file header goes over the control connection and each CPU's pages
 * over its own data channel, and nothing is written to the client's disk.
 */
#ifndef TRACE_RECORD_NET_H
#define TRACE_RECORD_NET_H

#include <stddef.h>
#include <stdint.h>

struct record_net;
struct tfs_events;
struct trace_output;

/* What -N, -t and --v1 asked for. */
struct record_net_opts {
	const char	*target;	/* -N HOST:PORT; NULL: record into a file */
	int		tcp;		/* -t: TCP data channels instead of UDP */
	int		v1;		/* --v1: speak protocol v1 only */
	int		no_timeout;	/* --notimeout, --debug: wait on the listener for ever */
	int		no_timeout_asked;	/* --notimeout itself, which needs -N */
	struct record_net *agent;	/* trace-cmd agent: the host's connection instead of -N */
};

/* Checks the options for record's usage: 0, or -1 after a usage error. */
int record_net_check_opts(const struct record_net_opts *o);

/*
 * Connects to the listener and agrees on the protocol (v3, or v1 when the
 * listener refuses v3 or --v1 asks for it), and announces @nr_cpus and
 * @page_size.  Touches no tracefs.
 * Returns NULL after printing why.
 */
struct record_net *record_net_connect(const struct record_net_opts *o, int nr_cpus,
				      uint32_t page_size);

/*
 * trace-cmd agent (trace-cmd-agent(1)): the recording goes to the host that
 * sent TRACE_REQ on @fd and was answered with TRACE_RESP naming the ports of
 * @listen_fds (one listening TCP socket per CPU, which the host connects to
 * once it has the header) and @trace_id.  It ends when the host sends CLOSE,
 * answered with CLOSE_RESP.  Takes @fd and @listen_fds; @name is for messages.
 */
struct record_net *record_net_agent(int fd, const char *name, int *listen_fds, int nr_cpus,
				    uint32_t page_size, uint64_t trace_id);

/*
 * agent -P: the host asked by a record --proxy (its @trace_id, for the
 * GUEST option).  The header stops before the options, which go after the
 * record's CLOSE; then the record's CONT is answered with @time_shift's raw
 * option (trace-proxy.h), asked of @arg with this agent's trace id.
 */
struct record_net_proxy {
	uint64_t	trace_id;
	void		*(*time_shift)(void *arg, uint64_t trace_id, size_t *len);
	void		*arg;
};
void record_net_set_proxy(struct record_net *n, const struct record_net_proxy *proxy);

/* The agent's trace id, for its file's TRACEID option; 0 for -N. */
uint64_t record_net_trace_id(const struct record_net *n);

/* The data channels, one per CPU, for the recorders (after the header). */
const int *record_net_data_fds(const struct record_net *n);

/* How the file header is written: the same choices as a local recording. */
struct record_net_header {
	const struct tfs_events	*events;
	uint32_t		page_size;
	int			version;	/* 6 or 7 (v1 sends 6 whatever this says) */
	const char		*compression;	/* NULL: the version's default */
	/* Options for the header besides the CPU count (the host's, --date). */
	int (*add_options)(struct trace_output *out, void *arg);
	void			*arg;
};

/*
 * Once tracefs is set up, before the recorders start: sends the file header
 * (v3: all of it, then FIN_DATA; v1: up to the printk formats), then
 * connects one data channel per CPU.  From then on a listener that hangs up
 * stops the recording with SIGTERM.
 */
int record_net_send_header(struct record_net *n, const struct record_net_header *h);

/*
 * After the recorders drained: closes the data channels, then v1 sends the
 * saved command lines and v3 sends CLOSE.  Fails if the listener hung up.
 */
int record_net_finish(struct record_net *n);

/*
 * A recorder found its data channel closed by the listener: says once which
 * (the whole connection gone, or only data channels) and returns -1.
 */
int record_net_lost(struct record_net *n);

/* The listener's HOST:PORT, for messages. */
const char *record_net_name(const struct record_net *n);

/* Closes everything (a listener not told CLOSE keeps an incomplete file). */
void record_net_free(struct record_net *n);

#endif
