/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Private interface between the parts of `trace-cmd listen`: the command and
 * its accept loop (trace-listen.c), one client's session
 * (trace-listen-client.c) and finishing the received file (trace-listen-file.c).
 */
#ifndef TRACE_LISTEN_H
#define TRACE_LISTEN_H

#include <signal.h>
#include <stdint.h>

#define LISTEN_MAX_META		(256u << 20)	/* metadata a client may send */

struct listen_opts {
	int		dir_fd;		/* where files go (-d, default cwd) */
	const char	*prefix;	/* -o, default "trace" */
	int		allow_v3;	/* 0 with --v1: refuse v3, the client falls back */
	int		timeout_ms;	/* the handshake, each message, a pause in the header */
};

/*
 * A client's place in the listener, in memory shared by both: the client
 * says when it has sent its whole file header, and from then on is a trace
 * like any other; until then, when every slot is taken, the listener may cut
 * its connection to make room for a new client and sets @cut so that the
 * client says why.
 */
struct listen_slot {
	unsigned char	settled;
	unsigned char	cut;
};

/*
 * What the listener hands one client's process: the client module calls
 * nothing of the listener's and reads none of its globals.
 */
struct listen_client_env {
	const struct listen_opts *opts;
	struct listen_slot	*slot;
	/* Set by SIGINT/SIGTERM in the listener: finish or give up and leave. */
	const volatile sig_atomic_t *stopping;
	/* One log line: "msg" on stdout, or "[PID]msg" in the -l file. */
	void			(*log)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
};

/* Serves one connected client in a child process; returns its exit status. */
int listen_client(int fd, const struct listen_client_env *env);

/* One CPU's received data, in a temporary file. */
struct listen_cpu {
	int		fd;
	uint64_t	size;
};

/*
 * Appends the CPU data to the metadata a client sent (the first @meta_len
 * bytes of @fd) so that it becomes a complete trace.dat: flyrecord for v6,
 * a BUFFER section, options and strings for v7.  @name is for messages.
 */
int listen_finish_file(int fd, uint64_t meta_len, const char *name, uint32_t cpus,
		       const struct listen_cpu *cpu);

#endif
