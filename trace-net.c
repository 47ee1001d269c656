// SPDX-License-Identifier: GPL-2.0
/*
 * The `record -N` / `listen` wire protocol (trace-cmd-listen(1), PROTOCOL): reads and
 * writes with timeouts, v3 messages parsed through the bounded cursor, the
 * v1 strings, the version negotiation and the per-CPU data sockets.
 */
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <linux/vm_sockets.h>

#include "trace-cmd.h"
#include "trace-cursor.h"
#include "trace-net.h"

static const char *const cmd_names[NET_NR_CMDS] = {
	"CLOSE", "TINIT", "RINIT", "SEND_DATA", "FIN_DATA", "NOT_SUPP",
	"TRACE_REQ", "TRACE_RESP", "CLOSE_RESP", "TIME_SYNC", "TRACE_PROXY", "CONT",
};

const char *net_cmd_name(uint32_t cmd)
{
	return cmd < NET_NR_CMDS ? cmd_names[cmd] : "unknown command";
}

long long net_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

void net_set_deadline(struct net_peer *p, int ms, const char *what)
{
	p->deadline.at = net_now_ms() + ms;
	p->deadline.span_ms = ms;
	p->deadline.what = what;
}

void net_clear_deadline(struct net_peer *p)
{
	p->deadline.at = 0;
}

/*
 * Waits until the peer is readable; 0, or -1 with errno ETIMEDOUT (silent
 * for its timeout) or ETIME (its deadline passed).
 */
static int wait_readable(struct net_peer *p)
{
	struct pollfd pfd = { .fd = p->fd, .events = POLLIN };
	int n, wait, by_deadline;

	do {
		long long left = p->deadline.at ? p->deadline.at - net_now_ms() : -1;

		wait = p->timeout_ms;
		by_deadline = left >= 0 && (wait < 0 || left <= wait);
		if (by_deadline)
			wait = left;
		n = poll(&pfd, 1, wait);
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		errno = by_deadline ? ETIME : ETIMEDOUT;
	return n > 0 ? 0 : -1;
}

/* Reads up to @len bytes, stopping early only at EOF; returns the count or -1. */
static ssize_t read_some(struct net_peer *p, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n;

		if (wait_readable(p) < 0)
			return -1;
		n = read(p->fd, (char *)buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

static int read_failed(struct net_peer *p, size_t got, size_t len, const char *what)
{
	if (p->cut && *p->cut)
		return error("'%s': %s", p->name, p->cut_why);
	if (errno == ETIME)
		return error("'%s': %s took longer than %d s (still waiting for %s)", p->name,
			     p->deadline.what, p->deadline.span_ms / 1000, what);
	if (errno == ETIMEDOUT)
		return error("'%s': timed out after %d s waiting for %s", p->name,
			     p->timeout_ms / 1000, what);
	if (got < len && errno == 0)
		return error("'%s': connection closed reading %s (got %zu of %zu bytes)",
			     p->name, what, got, len);
	return error("'%s': cannot read %s: %s", p->name, what, strerror(errno));
}

int net_read(struct net_peer *p, void *buf, size_t len, const char *what)
{
	ssize_t n;

	errno = 0;
	n = read_some(p, buf, len);
	if (n == (ssize_t)len)
		return 0;
	return read_failed(p, n < 0 ? 0 : n, len, what);
}

int net_read_string(struct net_peer *p, char *buf, size_t max, const char *what)
{
	for (size_t i = 0; i < max; i++) {
		if (net_read(p, buf + i, 1, what) < 0)
			return -1;
		if (!buf[i])
			return 0;
	}
	return error("'%s': %s longer than %zu bytes", p->name, what, max - 1);
}

/* send(), not write(): a peer that hung up is an error here, not a SIGPIPE. */
int net_write(struct net_peer *p, const void *buf, size_t len, const char *what)
{
	while (len) {
		ssize_t n = send(p->fd, buf, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0 && p->cut && *p->cut)
			return error("'%s': %s", p->name, p->cut_why);
		if (n <= 0)
			return error("'%s': cannot send %s: %s", p->name, what,
				     n < 0 ? strerror(errno) : "nothing written");
		buf = (const char *)buf + n;
		len -= n;
	}
	return 0;
}

/* --- v3 messages -------------------------------------------------------- */

static int recv_msg(struct net_peer *p, struct net_msg *m)
{
	unsigned char hdr[NET_MSG_HDR];
	struct cursor c;
	uint32_t size;

	if (net_read(p, hdr, sizeof(hdr), "a message header") < 0)
		return -1;
	cur_init(&c, hdr, sizeof(hdr), 0, 1, p->name);
	cur_u32(&c, &size, "message size");
	cur_u32(&c, &m->cmd, "message command");
	cur_u32(&c, &m->fixed_len, "message command size");
	if (size < NET_MSG_HDR || size > NET_MSG_MAX)
		return error("'%s': invalid message: size %u is not in %d..%d", p->name, size,
			     NET_MSG_HDR, NET_MSG_MAX);
	m->len = size - NET_MSG_HDR;
	if (m->fixed_len > m->len)
		return error("'%s': invalid %s message: command size %u exceeds its size %u",
			     p->name, net_cmd_name(m->cmd), m->fixed_len, size);
	return net_read(p, m->body, m->len, "a message body");
}

int net_recv_msg(struct net_peer *p, struct net_msg *m)
{
	struct net_deadline outer = p->deadline;
	int ret;

	if (p->timeout_ms >= 0 &&
	    (!outer.at || net_now_ms() + p->timeout_ms < outer.at))
		net_set_deadline(p, p->timeout_ms, "a message");
	ret = recv_msg(p, m);
	p->deadline = outer;
	return ret;
}

int net_send_msg(struct net_peer *p, uint32_t cmd, const void *fixed, uint32_t fixed_len,
		 const void *payload, uint32_t len)
{
	unsigned char buf[NET_MSG_MAX];
	uint32_t size = NET_MSG_HDR + fixed_len + len;

	if (size > NET_MSG_MAX)
		return error("'%s': %s message of %u bytes exceeds %d", p->name,
			     net_cmd_name(cmd), size, NET_MSG_MAX);
	put_be32(buf, size);
	put_be32(buf + 4, cmd);
	put_be32(buf + 8, fixed_len);
	if (fixed_len)
		memcpy(buf + NET_MSG_HDR, fixed, fixed_len);
	if (len)
		memcpy(buf + NET_MSG_HDR + fixed_len, payload, len);
	return net_write(p, buf, size, net_cmd_name(cmd));
}

int net_send_tinit(struct net_peer *p, const struct net_init *init)
{
	unsigned char fixed[12];
	static const char tcp[] = "tcp";

	put_be32(fixed, init->cpus);
	put_be32(fixed + 4, init->page_size);
	put_be32(fixed + 8, init->tcp ? 1 : 0);
	return net_send_msg(p, NET_TINIT, fixed, sizeof(fixed), tcp, init->tcp ? sizeof(tcp) : 0);
}

/* A cursor over the fixed part and one over the payload of @m. */
static void msg_cursors(struct net_peer *p, const struct net_msg *m, struct cursor *fixed,
			struct cursor *payload)
{
	cur_init(fixed, m->body, m->fixed_len, NET_MSG_HDR, 1, p->name);
	cur_init(payload, m->body + m->fixed_len, m->len - m->fixed_len,
		 NET_MSG_HDR + m->fixed_len, 1, p->name);
}

static int check_init(struct net_peer *p, const struct net_init *init)
{
	if (!init->cpus || init->cpus > NET_MAX_CPUS)
		return error("'%s': invalid cpu count %u (1 to %d)", p->name, init->cpus,
			     NET_MAX_CPUS);
	if (init->page_size < NET_MIN_PAGE || init->page_size > NET_MAX_PAGE ||
	    (init->page_size & (init->page_size - 1)))
		return error("'%s': invalid page size %u (a power of 2, %d to %d)", p->name,
			     init->page_size, NET_MIN_PAGE, NET_MAX_PAGE);
	return 0;
}

int net_parse_tinit(struct net_peer *p, const struct net_msg *m, struct net_init *init)
{
	struct cursor fixed, opts;
	uint32_t nr_opts;

	if (m->cmd != NET_TINIT)
		return error("'%s': expected TINIT, got %s (%u)", p->name, net_cmd_name(m->cmd),
			     m->cmd);
	msg_cursors(p, m, &fixed, &opts);
	if (cur_u32(&fixed, &init->cpus, "TINIT cpu count") < 0 ||
	    cur_u32(&fixed, &init->page_size, "TINIT page size") < 0 ||
	    cur_u32(&fixed, &nr_opts, "TINIT option count") < 0)
		return -1;
	init->tcp = 0;
	if (nr_opts > opts.size)
		return error("'%s': invalid TINIT: %u options in %zu bytes", p->name, nr_opts,
			     opts.size);
	for (uint32_t i = 0; i < nr_opts; i++) {
		const char *opt;

		if (cur_string(&opts, &opt, "TINIT option") < 0)
			return -1;
		if (strcmp(opt, "tcp")) {
			char shown[PRINTABLE_SIZE(32)];

			return error("'%s': TINIT option '%s' is not supported", p->name,
				     printable(shown, sizeof(shown), opt, 32));
		}
		init->tcp = 1;
	}
	return check_init(p, init);
}

int net_send_rinit(struct net_peer *p, uint32_t cpus, const unsigned int *ports)
{
	char payload[NET_MAX_CPUS * 8];
	unsigned char fixed[4];
	size_t len = 0;

	for (uint32_t i = 0; i < cpus && i < NET_MAX_CPUS; i++)
		len += snprintf(payload + len, sizeof(payload) - len, "%u", ports[i]) + 1;
	put_be32(fixed, cpus);
	return net_send_msg(p, NET_RINIT, fixed, sizeof(fixed), payload, len);
}

/* TRACE_REQ's ARGS parameter: be32 argc, then argc NUL-terminated strings. */
static int parse_req_args(struct net_peer *p, struct cursor *c, struct net_trace_req *req)
{
	uint32_t argc;

	if (cur_u32(c, &argc, "TRACE_REQ argument count") < 0)
		return -1;
	if (argc > NET_AGENT_MAX_ARGS)
		return error("'%s': TRACE_REQ has %u arguments (at most %d)", p->name, argc,
			     NET_AGENT_MAX_ARGS);
	for (uint32_t i = 0; i < argc; i++)
		if (cur_string(c, &req->argv[i], "TRACE_REQ argument") < 0)
			return -1;
	req->argc = argc;
	req->argv[argc] = NULL;
	return 0;
}

enum { REQ_PARAM_ARGS = 0, REQ_PARAM_TSYNC = 1 };

/* TRACE_REQ's TSYNC_PROTOS parameter: NUL-terminated names, an empty one last. */
static void req_tsync_protos(struct cursor *c, struct net_trace_req *req)
{
	const char *name;

	req->tsync_offered = 1;
	while (cur_left(c) > 0 && cur_string(c, &name, "TRACE_REQ time-sync protocol") == 0 && *name)
		if (!strcmp(name, "ptp"))
			req->tsync_ptp = 1;
		else if (!strcmp(name, "kvm"))
			req->tsync_kvm = 1;
}

int net_parse_trace_req(struct net_peer *p, const struct net_msg *m, struct net_trace_req *req,
			int proxy)
{
	uint32_t want = proxy ? NET_TRACE_PROXY : NET_TRACE_REQ;
	struct cursor fixed, params;
	uint32_t argc, siblings;

	if (m->cmd != want)
		return error("'%s': expected %s, got %s (%u)", p->name, net_cmd_name(want),
			     net_cmd_name(m->cmd), m->cmd);
	memset(req, 0, sizeof(*req));
	msg_cursors(p, m, &fixed, &params);
	if (cur_u32(&fixed, &req->flags, "TRACE_REQ flags") < 0 ||
	    cur_u32(&fixed, &argc, "TRACE_REQ argc") < 0 ||
	    cur_u64(&fixed, &req->trace_id, "TRACE_REQ trace id") < 0)
		return -1;
	/* TRACE_PROXY: TRACE_REQ's fixed part, then be32 cpus and be32 siblings (unused). */
	if (proxy && (cur_u32(&fixed, &req->proxy_cpus, "TRACE_PROXY cpu count") < 0 ||
		      cur_u32(&fixed, &siblings, "TRACE_PROXY siblings") < 0))
		return -1;
	if (proxy && (req->proxy_cpus < 1 || req->proxy_cpus > NET_MAX_CPUS))
		return error("'%s': TRACE_PROXY has %u cpus (1 to %d)", p->name, req->proxy_cpus,
			     NET_MAX_CPUS);
	req->proxy = proxy;
	/* Parameters: be32 id, be32 length, that many bytes; unknown ids are skipped. */
	while (cur_left(&params) > 0) {
		struct cursor one;
		uint32_t id, len;

		if (cur_u32(&params, &id, "TRACE_REQ parameter id") < 0 ||
		    cur_u32(&params, &len, "TRACE_REQ parameter length") < 0 ||
		    cur_sub(&params, &one, len, "TRACE_REQ parameter") < 0)
			return -1;
		if (id == REQ_PARAM_ARGS && parse_req_args(p, &one, req) < 0)
			return -1;
		if (id == REQ_PARAM_TSYNC && len > 1)
			req_tsync_protos(&one, req);
	}
	return 0;
}

int net_send_trace_resp(struct net_peer *p, const struct net_trace_resp *resp)
{
	char payload[NET_MAX_CPUS * 8];
	/* be32 flags, cpus, page size; be64 trace id; char[16] tsync name; be32 tsync port */
	unsigned char fixed[4 + 4 + 4 + 8 + 16 + 4] = { 0 };
	size_t len = 0;

	for (uint32_t i = 0; i < resp->cpus && i < NET_MAX_CPUS; i++)
		len += snprintf(payload + len, sizeof(payload) - len, "%u", resp->ports[i]) + 1;
	put_be32(fixed + 4, resp->cpus);
	put_be32(fixed + 8, resp->page_size);
	put_be64(fixed + 12, resp->trace_id);
	if (resp->tsync_proto[0]) {
		/* NUL-terminated within its 16 bytes, as the fixed part is zeroed. */
		memcpy(fixed + 20, resp->tsync_proto, strnlen(resp->tsync_proto, 15));
		put_be32(fixed + 36, resp->tsync_port);
	}
	return net_send_msg(p, NET_TRACE_RESP, fixed, sizeof(fixed), payload, len);
}

/* A data port: TCP's up to 65535, vsock's (TRACE_RESP) up to NET_VSOCK_MAX. */
static int parse_port(struct net_peer *p, const char *s, long long max, unsigned int *port)
{
	char shown[PRINTABLE_SIZE(16)];
	char *end;
	long long v;

	errno = 0;
	v = strtoll(s, &end, 10);
	if (!*s || *end || errno || v <= 0 || v > max)
		return error("'%s': invalid port '%s'", p->name, printable(shown, sizeof(shown), s, 16));
	*port = v;
	return 0;
}

int net_parse_rinit(struct net_peer *p, const struct net_msg *m, uint32_t cpus,
		    unsigned int *ports)
{
	struct cursor fixed, list;
	uint32_t n;

	if (m->cmd != NET_RINIT)
		return error("'%s': expected RINIT, got %s (%u)", p->name, net_cmd_name(m->cmd),
			     m->cmd);
	msg_cursors(p, m, &fixed, &list);
	if (cur_u32(&fixed, &n, "RINIT cpu count") < 0)
		return -1;
	if (n != cpus)
		return error("'%s': RINIT has %u ports for %u cpus", p->name, n, cpus);
	for (uint32_t i = 0; i < cpus; i++) {
		const char *s;

		if (cur_string(&list, &s, "RINIT port") < 0 || parse_port(p, s, 65535, &ports[i]) < 0)
			return -1;
	}
	return 0;
}

/* The bytes of a protocol list: its names, each with its NUL, and the empty one last. */
static size_t protos_size(const char *protos)
{
	size_t len = 0;

	while (protos[len])
		len += strlen(protos + len) + 1;
	return len + 1;
}

/*
 * TRACE_REQ as 3.4's record -A sends it: argc 0 in the fixed part, the
 * arguments as a parameter, and with @protos the time-sync protocols one
 * (as "kvm\0ptp\0": the names, then the empty name that ends the list).
 */
int net_send_trace_req(struct net_peer *p, uint64_t trace_id, int argc, const char *const *argv,
		       const char *protos, uint32_t proxy_cpus)
{
	size_t plen = protos ? protos_size(protos) : 0;
	unsigned char payload[NET_MSG_MAX];
	/* be32 flags, be32 argc, be64 trace id; TRACE_PROXY: be32 cpus, be32 siblings */
	unsigned char fixed[24] = { 0 };
	size_t len = 12, room = NET_MSG_MAX - NET_MSG_HDR - sizeof(fixed) - 8 - plen;

	put_be32(payload, REQ_PARAM_ARGS);
	put_be32(payload + 8, argc);
	for (int i = 0; i < argc; i++) {
		size_t n = strlen(argv[i]) + 1;

		if (len + n > room)
			return error("'%s': the agent's arguments do not fit in one TRACE_REQ (%zu bytes at most)",
				     p->name, room - 12);
		memcpy(payload + len, argv[i], n);
		len += n;
	}
	put_be32(payload + 4, len - 8);
	if (protos) {
		put_be32(payload + len, REQ_PARAM_TSYNC);
		put_be32(payload + len + 4, plen);
		memcpy(payload + len + 8, protos, plen);
		len += 8 + plen;
	}
	put_be64(fixed + 8, trace_id);
	if (proxy_cpus) {
		put_be32(fixed + 16, proxy_cpus);
		return net_send_msg(p, NET_TRACE_PROXY, fixed, 24, payload, len);
	}
	return net_send_msg(p, NET_TRACE_REQ, fixed, 16, payload, len);
}

int net_parse_trace_resp(struct net_peer *p, const struct net_msg *m, struct net_trace_resp *resp,
			 unsigned int *ports)
{
	struct net_init init = { 0 };
	struct cursor fixed, list;
	const void *proto;

	if (m->cmd != NET_TRACE_RESP)
		return error("'%s': expected TRACE_RESP, got %s (%u)", p->name,
			     net_cmd_name(m->cmd), m->cmd);
	memset(resp, 0, sizeof(*resp));
	msg_cursors(p, m, &fixed, &list);
	if (cur_u32(&fixed, &resp->flags, "TRACE_RESP flags") < 0 ||
	    cur_u32(&fixed, &init.cpus, "TRACE_RESP cpu count") < 0 ||
	    cur_u32(&fixed, &init.page_size, "TRACE_RESP page size") < 0 ||
	    cur_u64(&fixed, &resp->trace_id, "TRACE_RESP trace id") < 0 ||
	    cur_bytes(&fixed, sizeof(resp->tsync_proto) - 1, &proto, "TRACE_RESP time-sync protocol") < 0 ||
	    cur_u32(&fixed, &resp->tsync_port, "TRACE_RESP time-sync port") < 0 ||
	    check_init(p, &init) < 0)
		return -1;
	memcpy(resp->tsync_proto, proto, sizeof(resp->tsync_proto) - 1);
	resp->cpus = init.cpus;
	resp->page_size = init.page_size;
	for (uint32_t i = 0; i < init.cpus; i++) {
		const char *s;

		if (cur_string(&list, &s, "TRACE_RESP port") < 0 ||
		    parse_port(p, s, NET_VSOCK_MAX, &ports[i]) < 0)
			return -1;
	}
	resp->ports = ports;
	return 0;
}

int net_send_data(struct net_peer *p, const void *buf, size_t len)
{
	const size_t chunk = NET_MSG_MAX - NET_MSG_HDR;

	for (size_t off = 0; off < len; off += chunk) {
		size_t n = len - off < chunk ? len - off : chunk;

		if (net_send_msg(p, NET_SEND_DATA, NULL, 0, (const char *)buf + off, n) < 0)
			return -1;
	}
	return 0;
}

/* --- v1 ----------------------------------------------------------------- */

static int send_string(struct net_peer *p, const char *s, const char *what)
{
	return net_write(p, s, strlen(s) + 1, what);
}

int net_v1_send_init(struct net_peer *p, const struct net_init *init)
{
	char buf[32];

	snprintf(buf, sizeof(buf), "%u", init->cpus);
	if (send_string(p, buf, "cpu count") < 0)
		return -1;
	snprintf(buf, sizeof(buf), "%u", init->page_size);
	if (send_string(p, buf, "page size") < 0)
		return -1;
	if (!init->tcp)
		return send_string(p, "0", "option count");
	return send_string(p, "1", "option count") || send_string(p, "4", "option size") ||
	       send_string(p, "TCP", "option") ? -1 : 0;
}

static int v1_number(struct net_peer *p, const char *s, unsigned long max, uint32_t *v,
		     const char *what)
{
	char shown[PRINTABLE_SIZE(16)];
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (!*s || *s == '-' || *end || errno || n > max)
		return error("'%s': invalid %s '%s'", p->name, what,
			     printable(shown, sizeof(shown), s, 16));
	*v = n;
	return 0;
}

int net_v1_recv_init(struct net_peer *p, const char *cpus_str, struct net_init *init)
{
	char buf[NET_MAX_STRING];
	uint32_t nr_opts;

	init->tcp = 0;
	if (v1_number(p, cpus_str, NET_MAX_CPUS, &init->cpus, "cpu count") < 0 ||
	    net_read_string(p, buf, sizeof(buf), "page size") < 0 ||
	    v1_number(p, buf, NET_MAX_PAGE, &init->page_size, "page size") < 0 ||
	    net_read_string(p, buf, sizeof(buf), "option count") < 0 ||
	    v1_number(p, buf, 16, &nr_opts, "option count") < 0)
		return -1;
	for (uint32_t i = 0; i < nr_opts; i++) {
		char opt[NET_MAX_V1_OPT];
		uint32_t size;

		if (net_read_string(p, buf, sizeof(buf), "option size") < 0 ||
		    v1_number(p, buf, NET_MAX_V1_OPT, &size, "option size") < 0 ||
		    net_read(p, opt, size, "option") < 0)
			return -1;
		if (size != 4 || memcmp(opt, "TCP", 4)) {
			char shown[PRINTABLE_SIZE(32)];

			return error("'%s': v1 option '%s' is not supported", p->name,
				     printable(shown, sizeof(shown), opt, size < 32 ? size : 32));
		}
		init->tcp = 1;
	}
	return check_init(p, init);
}

int net_v1_send_ports(struct net_peer *p, uint32_t cpus, const unsigned int *ports)
{
	char buf[NET_MAX_CPUS * 8];
	size_t len = 0;

	for (uint32_t i = 0; i < cpus && i < NET_MAX_CPUS; i++)
		len += snprintf(buf + len, sizeof(buf) - len, "%s%u", i ? "," : "", ports[i]);
	return net_write(p, buf, len + 1, "port list");
}

int net_v1_recv_ports(struct net_peer *p, uint32_t cpus, unsigned int *ports)
{
	char buf[NET_MAX_CPUS * 8];
	char *s = buf;

	if (net_read_string(p, buf, sizeof(buf), "port list") < 0)
		return -1;
	for (uint32_t i = 0; i < cpus; i++) {
		char *comma = strchr(s, ',');

		if (comma)
			*comma = 0;
		if (parse_port(p, s, 65535, &ports[i]) < 0)
			return -1;
		if (!comma && i + 1 < cpus)
			return error("'%s': port list has %u ports for %u cpus", p->name,
				     i + 1, cpus);
		s = comma ? comma + 1 : s + strlen(s);
	}
	return 0;
}

/* --- connections -------------------------------------------------------- */

static int connect_to(int fd, const struct addrinfo *ai)
{
	return connect(fd, ai->ai_addr, ai->ai_addrlen);
}

static int listen_on(int fd, const struct addrinfo *ai)
{
	int one = 1;

	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	return bind(fd, ai->ai_addr, ai->ai_addrlen) || listen(fd, 64) ? -1 : 0;
}

/*
 * A socket on the first address of @res that @take (connect_to, listen_on)
 * succeeds with; -1 with errno from the last failure.
 */
static int first_taken(const struct addrinfo *res, int (*take)(int fd, const struct addrinfo *ai))
{
	int saved = 0;

	for (const struct addrinfo *ai = res; ai; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, ai->ai_protocol);

		if (fd >= 0 && take(fd, ai) == 0)
			return fd;
		saved = errno;
		if (fd >= 0)
			close(fd);
	}
	errno = saved;
	return -1;
}

int net_connect(const char *host, const char *port, int sock_type, const char *what)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = sock_type };
	struct addrinfo *res;
	int fd, err;

	err = getaddrinfo(host, port, &hints, &res);
	if (err)
		return error("cannot resolve '%s' for %s: %s", host, what, gai_strerror(err));
	fd = first_taken(res, connect_to);
	err = errno;
	freeaddrinfo(res);
	if (fd < 0)
		return error("cannot connect to '%s:%s' for %s: %s", host, port, what,
			     strerror(err));
	return fd;
}

int net_client_hello(struct net_peer *p, int want_v3)
{
	char greeting[NET_GREETING_LEN];
	char reply[NET_MAX_STRING];
	char magic[NET_V3_MAGIC_LEN] = NET_V3_MAGIC;
	ssize_t n;

	if (net_read(p, greeting, sizeof(greeting), "the greeting") < 0)
		return -1;
	if (memcmp(greeting, NET_GREETING, NET_GREETING_LEN))
		return error("'%s': not a trace-cmd listener (bad greeting)", p->name);
	if (!want_v3)
		return 1;
	if (net_write(p, NET_V3_REQUEST, sizeof(NET_V3_REQUEST), "the protocol version") < 0)
		return -1;
	/* An old listener took "-1" for a cpu count and hung up: speak v1. */
	errno = 0;
	n = read_some(p, reply, 1);
	if (n < 0)
		return read_failed(p, 0, 1, "the protocol version reply");
	if (n == 0 || !reply[0])
		return 1;
	if (net_read_string(p, reply + 1, sizeof(reply) - 1, "the protocol version reply") < 0)
		return -1;
	if (strcmp(reply, "V3")) {
		char shown[PRINTABLE_SIZE(16)];

		return error("'%s': listener answered protocol '%s', not V3", p->name,
			     printable(shown, sizeof(shown), reply, 16));
	}
	if (net_write(p, magic, sizeof(magic), "the v3 magic") < 0 ||
	    net_read(p, reply, 2, "the v3 magic reply") < 0)
		return -1;
	if (memcmp(reply, "OK", 2))
		return error("'%s': listener refused the v3 magic", p->name);
	return 3;
}

/*
 * The listener takes IPv4 clients on its IPv6 socket, as ::ffff:a.b.c.d:
 * they are named, and their data sockets bound, by their IPv4 address.
 */
static void unmap_v4(struct sockaddr_storage *addr, socklen_t *len)
{
	struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)addr;
	struct sockaddr_in a4 = { .sin_family = AF_INET };

	if (addr->ss_family != AF_INET6 || !IN6_IS_ADDR_V4MAPPED(&a6->sin6_addr))
		return;
	a4.sin_port = a6->sin6_port;
	memcpy(&a4.sin_addr, &a6->sin6_addr.s6_addr[12], sizeof(a4.sin_addr));
	memcpy(addr, &a4, sizeof(a4));
	*len = sizeof(a4);
}

/*
 * With no address given, one IPv6 socket takes IPv4 clients too: a client
 * whose "localhost" is ::1 first (as on a Debian machine) reaches it over
 * IPv6, and upstream's record -N sends its UDP data where the name resolves,
 * not where the control connection went.  -1 where IPv6 is not to be had.
 */
static int open_dual_stack(const char *port_str)
{
	struct sockaddr_in6 any = { .sin6_family = AF_INET6, .sin6_addr = IN6ADDR_ANY_INIT };
	int fd, one = 1, zero = 0;
	char *end;
	long port = strtol(port_str, &end, 10);

	if (*end || port < 0 || port > 65535)
		return -1;	/* a service name: getaddrinfo resolves it */
	any.sin6_port = htons(port);
	fd = socket(AF_INET6, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &zero, sizeof(zero)) < 0 ||
	    bind(fd, (struct sockaddr *)&any, sizeof(any)) < 0 || listen(fd, 64) < 0) {
		close(fd);
		return -1;
	}
	return fd;
}

int net_listen_tcp(const char *port, const char *addr)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
				  .ai_flags = AI_PASSIVE };
	struct addrinfo *res;
	int fd, err;

	if (!addr && (fd = open_dual_stack(port)) >= 0)
		return fd;
	err = getaddrinfo(addr, port, &hints, &res);
	if (err)
		return error("cannot resolve '%s': %s", addr ? addr : port,
			     gai_strerror(err));
	fd = first_taken(res, listen_on);
	err = errno;
	freeaddrinfo(res);
	if (fd < 0)
		return error("cannot listen on port %s%s%s: %s", port,
			     addr ? " of " : "", addr ? addr : "", strerror(err));
	return fd;
}

/*
 * Sets the port of an IPv4, IPv6 or vsock address; 0 asks for any port, of
 * an address to bind.  A vsock one then takes every CID of this machine as
 * well: the CID the host reached may be the loopback one (1), which a guest
 * cannot bind, or the guest's own.
 */
static void set_port(struct sockaddr_storage *addr, unsigned int port)
{
	struct sockaddr_vm *vm = (struct sockaddr_vm *)addr;

	if (addr->ss_family == AF_INET)
		((struct sockaddr_in *)addr)->sin_port = htons(port);
	else if (addr->ss_family == AF_INET6)
		((struct sockaddr_in6 *)addr)->sin6_port = htons(port);
	else if (addr->ss_family == AF_VSOCK && port == 0)
		*vm = (struct sockaddr_vm){ .svm_family = AF_VSOCK, .svm_cid = VMADDR_CID_ANY,
					    .svm_port = VMADDR_PORT_ANY };
	else if (addr->ss_family == AF_VSOCK)
		vm->svm_port = port;
}

static unsigned int get_port(const struct sockaddr_storage *addr)
{
	if (addr->ss_family == AF_VSOCK)
		return ((const struct sockaddr_vm *)addr)->svm_port;
	return ntohs(addr->ss_family == AF_INET ? ((const struct sockaddr_in *)addr)->sin_port
						: ((const struct sockaddr_in6 *)addr)->sin6_port);
}

int net_data_listen(const struct sockaddr *local, socklen_t len, int tcp, unsigned int *port)
{
	struct sockaddr_storage addr;
	socklen_t alen = sizeof(addr);
	int rcvbuf = 4 << 20;
	int fd;

	memcpy(&addr, local, len);
	unmap_v4(&addr, &len);
	set_port(&addr, 0);
	fd = socket(addr.ss_family, (tcp ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return error("cannot create a data socket: %s", strerror(errno));
	/* UDP drops what does not fit the socket buffer: ask for room. */
	if (!tcp && setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &rcvbuf, sizeof(rcvbuf)) < 0)
		setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	if (bind(fd, (struct sockaddr *)&addr, len) < 0 || (tcp && listen(fd, 1) < 0) ||
	    getsockname(fd, (struct sockaddr *)&addr, &alen) < 0) {
		error("cannot bind a data socket: %s", strerror(errno));
		close(fd);
		return -1;
	}
	*port = get_port(&addr);
	return fd;
}

int net_data_connect(int control_fd, unsigned int port, int tcp, int cpu)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	char host[NI_MAXHOST] = "?";
	int fd;

	if (getpeername(control_fd, (struct sockaddr *)&addr, &len) < 0)
		return error("cannot get the listener's address: %s", strerror(errno));
	set_port(&addr, port);
	if (addr.ss_family == AF_VSOCK)
		snprintf(host, sizeof(host), "%u", ((struct sockaddr_vm *)&addr)->svm_cid);
	else
		getnameinfo((struct sockaddr *)&addr, len, host, sizeof(host), NULL, 0,
			    NI_NUMERICHOST);
	fd = socket(addr.ss_family, (tcp ? SOCK_STREAM : SOCK_DGRAM) | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return error("cannot create the data socket for cpu %d: %s", cpu, strerror(errno));
	if (connect(fd, (struct sockaddr *)&addr, len) < 0) {
		int e = errno;

		close(fd);
		return error("cannot connect to '%s:%u' for cpu %d data: %s", host, port, cpu,
			     strerror(e));
	}
	return fd;
}

/* A resolved name goes into a file name: it must be a plain host name. */
static int safe_host(const char *s)
{
	if (!*s || *s == '.' || *s == '-')
		return 0;
	for (; *s; s++)
		if (!(('a' <= *s && *s <= 'z') || ('A' <= *s && *s <= 'Z') ||
		      ('0' <= *s && *s <= '9') || *s == '.' || *s == '-' || *s == '_' ||
		      *s == ':'))
			return 0;
	return 1;
}

int net_peer_name(int fd, char *buf, size_t size)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	char host[NI_MAXHOST], port[NI_MAXSERV];

	if (getpeername(fd, (struct sockaddr *)&addr, &len) < 0)
		return error("cannot get the client's address: %s", strerror(errno));
	if (addr.ss_family == AF_VSOCK) {
		const struct sockaddr_vm *vm = (const struct sockaddr_vm *)&addr;

		snprintf(buf, size, "%u:%u", vm->svm_cid, vm->svm_port);
		return 0;
	}
	unmap_v4(&addr, &len);
	if (getnameinfo((struct sockaddr *)&addr, len, host, sizeof(host), port, sizeof(port),
			NI_NUMERICSERV) || !safe_host(host))
		if (getnameinfo((struct sockaddr *)&addr, len, host, sizeof(host), port,
				sizeof(port), NI_NUMERICHOST | NI_NUMERICSERV))
			return error("cannot name the client's address");
	snprintf(buf, size, "%s:%s", host, port);
	return 0;
}

/* --- vsock -------------------------------------------------------------- */

int net_listen_vsock(unsigned int port)
{
	struct sockaddr_vm addr = { .svm_family = AF_VSOCK, .svm_cid = VMADDR_CID_ANY,
				    .svm_port = port };
	int fd = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return error("cannot listen on vsock port %u: %s (this kernel has no vsock: use -N CLIENT for TCP)",
			     port, strerror(errno));
	if (bind(fd, (struct sockaddr *)&addr, sizeof(addr)) < 0 || listen(fd, 64) < 0) {
		err = errno;
		close(fd);
		return error("cannot listen on vsock port %u: %s", port, strerror(err));
	}
	return fd;
}

/*
 * The kernel bounds the wait (2 s by default) where no transport reaches
 * the CID: a host without vsock_loopback or a guest, as ETIMEDOUT or ENODEV.
 */
int net_connect_vsock(unsigned int cid, unsigned int port, const char *what)
{
	struct sockaddr_vm addr = { .svm_family = AF_VSOCK, .svm_cid = cid, .svm_port = port };
	int fd = socket(AF_VSOCK, SOCK_STREAM | SOCK_CLOEXEC, 0), err;

	if (fd < 0)
		return error("cannot connect to vsock CID %u port %u for %s: %s (this kernel has no vsock)",
			     cid, port, what, strerror(errno));
	if (connect(fd, (struct sockaddr *)&addr, sizeof(addr)) == 0)
		return fd;
	err = errno;
	close(fd);
	if (err == ETIMEDOUT || err == ENODEV)
		return error("cannot connect to vsock CID %u port %u for %s: %s (no vsock transport reaches CID %u here)",
			     cid, port, what, strerror(err), cid);
	return error("cannot connect to vsock CID %u port %u for %s: %s", cid, port, what,
		     strerror(err));
}

long long net_vsock_peer_cid(int fd)
{
	struct sockaddr_vm addr;
	socklen_t len = sizeof(addr);

	if (getpeername(fd, (struct sockaddr *)&addr, &len) < 0 || addr.svm_family != AF_VSOCK)
		return -1;
	return addr.svm_cid;
}
