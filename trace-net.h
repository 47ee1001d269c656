/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The wire protocol of `record -N` and `listen` (trace-cmd-listen(1), PROTOCOL):
 * the v1 text handshake, the v3 messages, the negotiation between them and
 * the per-CPU data channels.  Everything a peer sends is bounds-checked here.
 */
#ifndef TRACE_NET_H
#define TRACE_NET_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>

#define NET_MSG_HDR		12		/* be32 size, be32 cmd, be32 cmd_size */
#define NET_MSG_MAX		8192		/* upstream's limit for a whole message */
#define NET_MAX_CPUS		256		/* a TINIT asking for more is refused */
#define NET_MIN_PAGE		1024
#define NET_MAX_PAGE		(1 << 20)
#define NET_MAX_STRING		64		/* v1 handshake strings and ports */
#define NET_MAX_V1_OPT		4096		/* upstream's limit for one v1 option */
#define NET_TIMEOUT_MS		5000		/* upstream waits 5 s for each message */
#define NET_UDP_MAX_PACKET	65516		/* pages this big force TCP */

/* v3 commands (trace-cmd-listen(1), PROTOCOL): 0-5 and 8 serve -N, 0 and 3-8 record -A. */
enum net_cmd {
	NET_CLOSE	= 0,
	NET_TINIT	= 1,
	NET_RINIT	= 2,
	NET_SEND_DATA	= 3,
	NET_FIN_DATA	= 4,
	NET_NOT_SUPP	= 5,
	NET_TRACE_REQ	= 6,		/* record -A asks an agent to trace */
	NET_TRACE_RESP	= 7,		/* the agent's CPUs, page size, ports */
	NET_CLOSE_RESP	= 8,
	NET_TIME_SYNC	= 9,		/* time sync between record -A and its agent (trace-tsync.c) */
	NET_TRACE_PROXY	= 10,		/* record --proxy asks an agent -P to trace its host */
	NET_CONT	= 11,		/* record --proxy: send the time shift now */
	NET_NR_CMDS	= 12,
};

/* One received v3 message: the fixed command part, then the payload. */
struct net_msg {
	uint32_t	cmd;
	uint32_t	fixed_len;	/* bytes of @body that are the command struct */
	uint32_t	len;		/* bytes of @body in all */
	unsigned char	body[NET_MSG_MAX - NET_MSG_HDR];
};

/* What a client announces: TINIT in v3, the first strings in v1. */
struct net_init {
	uint32_t	cpus;
	uint32_t	page_size;
	int		tcp;		/* data channels over TCP instead of UDP */
};

/*
 * What must be over by a given time, whatever the pauses in it: a peer that
 * sends a byte now and then would hold a per-read timeout off for ever.
 */
struct net_deadline {
	long long	at;		/* net_now_ms() by which reads must be done; 0: none */
	int		span_ms;	/* how long it was given, for the message */
	const char	*what;		/* "the handshake", "a message" */
};

/*
 * A peer: its socket, how long to wait for each read, the deadline of what
 * is being read, and its name ("HOST:PORT") for messages.
 */
struct net_peer {
	int		fd;
	int		timeout_ms;	/* for each read; < 0: wait forever */
	struct net_deadline deadline;
	/* Set (elsewhere) when our side cut the connection: its reads say so. */
	const volatile unsigned char *cut;
	const char	*cut_why;
	const char	*name;
};

/* CLOCK_MONOTONIC in milliseconds. */
long long net_now_ms(void);
/* Every read from now on ends by @ms from now, or fails naming @what. */
void net_set_deadline(struct net_peer *p, int ms, const char *what);
void net_clear_deadline(struct net_peer *p);

/* Reads exactly @len bytes; a timeout or EOF is an error naming @what. */
int net_read(struct net_peer *p, void *buf, size_t len, const char *what);
/* Reads a NUL-terminated string of at most @max bytes (NUL included). */
int net_read_string(struct net_peer *p, char *buf, size_t max, const char *what);
int net_write(struct net_peer *p, const void *buf, size_t len, const char *what);

/*
 * v3 messages. net_recv_msg() returns 0, or -1 after one message.  A message
 * once started must be whole within the peer's timeout (or the deadline that
 * stands, if sooner).
 */
int net_recv_msg(struct net_peer *p, struct net_msg *m);
int net_send_msg(struct net_peer *p, uint32_t cmd, const void *fixed, uint32_t fixed_len,
		 const void *payload, uint32_t len);
const char *net_cmd_name(uint32_t cmd);

int net_send_tinit(struct net_peer *p, const struct net_init *init);
int net_parse_tinit(struct net_peer *p, const struct net_msg *m, struct net_init *init);
int net_send_rinit(struct net_peer *p, uint32_t cpus, const unsigned int *ports);
int net_parse_rinit(struct net_peer *p, const struct net_msg *m, uint32_t cpus,
		    unsigned int *ports);
/* Sends @len bytes of file metadata as SEND_DATA messages. */
int net_send_data(struct net_peer *p, const void *buf, size_t len);

#define NET_AGENT_PORT		"823"	/* the agent's, TCP or vsock: upstream's TRACE_AGENT_DEFAULT_PORT */
#define NET_AGENT_MAX_ARGS	256	/* a TRACE_REQ with more arguments is refused */

/* What record -A asks of an agent (TRACE_REQ); @args point into the message. */
struct net_trace_req {
	uint32_t	flags;		/* 1: the host offers FIFOs (never taken) */
	uint64_t	trace_id;	/* the host's */
	int		argc;
	const char	*argv[NET_AGENT_MAX_ARGS + 1];
	int		tsync_offered;	/* the host named time-sync protocols */
	int		tsync_ptp;	/* ... and "ptp" among them */
	int		tsync_kvm;	/* ... and "kvm" */
	int		proxy;		/* TRACE_PROXY (record --proxy) instead of TRACE_REQ */
	uint32_t	proxy_cpus;	/* TRACE_PROXY: the record's CPU count (for time sync) */
};

/* What the agent answers (TRACE_RESP): ours no FIFOs; a time-sync protocol or none. */
struct net_trace_resp {
	uint32_t	flags;		/* 1: FIFOs (refused by record -A) */
	uint32_t	cpus;
	uint32_t	page_size;
	uint64_t	trace_id;	/* the agent's: its file's TRACEID */
	const unsigned int *ports;	/* the data port of each CPU (vsock's are 32-bit) */
	char		tsync_proto[17];	/* the time-sync protocol chosen ("ptp"); "": none */
	uint32_t	tsync_port;		/* where the host connects for it */
};

/* TRACE_REQ, or TRACE_PROXY (@req->proxy set) when @proxy: another command is refused. */
int net_parse_trace_req(struct net_peer *p, const struct net_msg *m, struct net_trace_req *req,
			int proxy);
int net_send_trace_resp(struct net_peer *p, const struct net_trace_resp *resp);
/*
 * record -A's side: the request (the host's @trace_id, the agent's record
 * arguments, the time-sync protocols offered: @protos, NUL-terminated names
 * and an empty one last, NULL for none; record --proxy: TRACE_PROXY
 * with its @proxy_cpus, 0 for TRACE_REQ)...
 */
int net_send_trace_req(struct net_peer *p, uint64_t trace_id, int argc, const char *const *argv,
		       const char *protos, uint32_t proxy_cpus);
/* ...and the answer, its ports stored in @ports (NET_MAX_CPUS of them) and pointed to by @resp. */
int net_parse_trace_resp(struct net_peer *p, const struct net_msg *m, struct net_trace_resp *resp,
			 unsigned int *ports);

/* v1: the client's strings, and the listener's comma-separated port list. */
int net_v1_send_init(struct net_peer *p, const struct net_init *init);
/* Parses the v1 strings; @cpus_str is the first one, already read. */
int net_v1_recv_init(struct net_peer *p, const char *cpus_str, struct net_init *init);
int net_v1_send_ports(struct net_peer *p, uint32_t cpus, const unsigned int *ports);
int net_v1_recv_ports(struct net_peer *p, uint32_t cpus, unsigned int *ports);

/*
 * A listening TCP socket on PORT, on every address (IPv4 and IPv6 both when
 * it can) or only on @addr; -1 after a message.
 */
int net_listen_tcp(const char *port, const char *addr);

/* Connects to HOST:PORT over TCP (the control connection), or -1 with a message. */
int net_connect(const char *host, const char *port, int sock_type, const char *what);

/*
 * The client's side of the version negotiation on a fresh connection:
 * returns 3 when the listener speaks v3, 1 when it did not (the caller then
 * reconnects and speaks v1), -1 on failure.  @want_v3 = 0 skips straight to v1.
 */
int net_client_hello(struct net_peer *p, int want_v3);

/* The "tracecmd" greeting that starts every connection. */
#define NET_GREETING		"tracecmd"
#define NET_GREETING_LEN	8
#define NET_V3_REQUEST		"-1V3"		/* sent with its NUL */
#define NET_V3_MAGIC		"766679"	/* sent as 8 bytes, NUL padded */
#define NET_V3_MAGIC_LEN	8

/*
 * Opens the data socket for one CPU on the address @local (the listener's
 * end of the control connection) with a port the kernel picks; stores the
 * port in *port.  TCP sockets are listening.
 */
int net_data_listen(const struct sockaddr *local, socklen_t len, int tcp, unsigned int *port);

/*
 * The client's data socket for CPU @cpu: UDP (or TCP with @tcp) connected to
 * @port at the address the control connection @control_fd reached, so both
 * go to the same interface.  Returns the socket, or -1 after a message.
 */
int net_data_connect(int control_fd, unsigned int port, int tcp, int cpu);

/*
 * vsock (vsock(7)): the agent's transport between a host and its guests,
 * a context ID (CID) for an address.  1 is this machine itself, 2 its host.
 */
#define NET_VSOCK_CID_LOCAL	1
#define NET_VSOCK_CID_HOST	2
#define NET_VSOCK_MAX		0xfffffffeu	/* the largest CID or port: 0xffffffff is "any" */

/* A listening vsock socket on @port of every CID of this machine; -1 after a message. */
int net_listen_vsock(unsigned int port);
/* Connects to CID:PORT over vsock, or -1 with a message naming @what. */
int net_connect_vsock(unsigned int cid, unsigned int port, const char *what);
/* The CID of @fd's peer, or -1 when @fd is not a vsock connection. */
long long net_vsock_peer_cid(int fd);

/* Puts "HOST:PORT" (vsock: "CID:PORT") of the peer of @fd into @buf; HOST resolved when it can be. */
int net_peer_name(int fd, char *buf, size_t size);

/* The protocol's numbers are big-endian (network order) on the wire. */
static inline void put_be32(unsigned char *p, uint32_t v)
{
	v = htonl(v);
	memcpy(p, &v, 4);
}

static inline void put_be64(unsigned char *p, uint64_t v)
{
	put_be32(p, v >> 32);
	put_be32(p + 4, (uint32_t)v);
}

static inline uint32_t get_be32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

static inline uint64_t get_be64(const unsigned char *p)
{
	return (uint64_t)get_be32(p) << 32 | get_be32(p + 4);
}

#endif
