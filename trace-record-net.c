// SPDX-License-Identifier: GPL-2.0
/*
 * record -N: connect to a listener, agree on protocol v3 (or v1), open one
 * data channel per CPU, and send the file header over the control connection
 * as trace-cmd-listen(1), PROTOCOL describes it.  The header is built
 * in a memfd (v7 patches offsets in it), never in a file on disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "trace-cmd.h"
#include "trace-dat.h"
#include "trace-net.h"
#include "trace-output.h"
#include "trace-record-net.h"

struct record_net {
	struct net_peer		peer;		/* the control connection */
	char			name[300];	/* HOST:PORT as given to -N */
	char			host[256];
	char			port[16];
	int			version;	/* 1 or 3 */
	struct net_init		init;
	unsigned int		*ports;		/* the listener's data port of each CPU */
	int			*data_fds;	/* per CPU, closed at the end */
	int			meta_fd;	/* the memfd the header is written into */
	struct trace_output	*out;
	uint64_t		sent;		/* bytes of the header already sent */
	int			reported;	/* the listener's loss was said */
	int			*listen_fds;	/* agent: per CPU, the host connects to them */
	uint64_t		trace_id;	/* agent: as told in TRACE_RESP */
	struct record_net_proxy	proxy;		/* agent -P; .time_shift NULL: not a proxy */
	struct record_net_header header;	/* agent -P: its options come at the end */
};

/* HOST:PORT, or [ADDR]:PORT for an IPv6 address. */
static int split_target(const char *target, char *host, size_t hsize, char *port, size_t psize)
{
	const char *colon = strrchr(target, ':');
	const char *h = target, *hend = colon;
	unsigned long v;
	char *end;

	if (target[0] == '[') {
		hend = strchr(target, ']');
		h = target + 1;
		if (!hend || hend[1] != ':')
			return -1;
		colon = hend + 1;
	}
	if (!colon || hend == h || (size_t)(hend - h) >= hsize || strlen(colon + 1) >= psize)
		return -1;
	errno = 0;
	v = strtoul(colon + 1, &end, 10);
	if (!colon[1] || *end || errno || v == 0 || v > 65535 || colon[1] == '-')
		return -1;
	snprintf(host, hsize, "%.*s", (int)(hend - h), h);
	snprintf(port, psize, "%s", colon + 1);
	return 0;
}

int record_net_check_opts(const struct record_net_opts *o)
{
	char host[256], port[16];

	if (!o->target) {
		if (o->tcp)
			return error("-t needs -N HOST:PORT (it chooses TCP data channels)");
		if (o->v1)
			return error("--v1 needs -N HOST:PORT (it chooses the protocol)");
		if (o->no_timeout_asked)
			return error("--notimeout needs -N HOST:PORT (it is about the listener's replies)");
		return 0;
	}
	if (split_target(o->target, host, sizeof(host), port, sizeof(port)) < 0)
		return error("invalid -N value '%s': expected HOST:PORT, PORT 1 to 65535",
			     o->target);
	return 0;
}

/* Opens the control connection and reads the greeting; 3 or 1 as agreed, -1. */
static int hello(struct record_net *n, int want_v3)
{
	n->peer.fd = net_connect(n->host, n->port, SOCK_STREAM, "the control connection");
	if (n->peer.fd < 0)
		return -1;
	return net_client_hello(&n->peer, want_v3);
}

/* Upstream's client falls back to v1 when a listener refuses v3: so do we. */
static int negotiate(struct record_net *n, int want_v3)
{
	int v = hello(n, want_v3);

	if (v != 1 || !want_v3)
		return v;
	warning("'%s' refused protocol v3: using v1 (file version 6, not compressed)",
		n->name);
	close(n->peer.fd);
	return hello(n, 0);
}

/* TINIT and RINIT (v3), or the v1 strings and port list. */
static int announce(struct record_net *n, unsigned int *ports)
{
	struct net_msg *m;
	int ret;

	if (n->version == 1)
		return net_v1_send_init(&n->peer, &n->init) < 0 ? -1 :
			net_v1_recv_ports(&n->peer, n->init.cpus, ports);
	if (net_send_tinit(&n->peer, &n->init) < 0)
		return -1;
	m = xmalloc(sizeof(*m));
	ret = net_recv_msg(&n->peer, m);
	if (ret == 0)
		ret = net_parse_rinit(&n->peer, m, n->init.cpus, ports);
	free(m);
	return ret;
}

/* Agent: the host connects to each CPU's port after the header; it gets 5 s. */
static int accept_data_channel(struct record_net *n, uint32_t cpu)
{
	struct pollfd pfd = { .fd = n->listen_fds[cpu], .events = POLLIN };
	int ret, fd;

	do
		ret = poll(&pfd, 1, NET_TIMEOUT_MS);
	while (ret < 0 && errno == EINTR);
	if (ret == 0)
		return error("'%s': the host did not connect the data channel of cpu %u within %d s",
			     n->name, cpu, NET_TIMEOUT_MS / 1000);
	fd = ret < 0 ? -1 : accept4(n->listen_fds[cpu], NULL, NULL, SOCK_CLOEXEC);
	if (fd < 0)
		return error("'%s': cannot accept the data channel of cpu %u: %s", n->name, cpu,
			     strerror(errno));
	close(n->listen_fds[cpu]);
	n->listen_fds[cpu] = -1;
	return fd;
}

static int open_data_channels(struct record_net *n)
{
	const unsigned int *ports = n->ports;

	n->data_fds = xcalloc(n->init.cpus, sizeof(*n->data_fds));
	for (uint32_t cpu = 0; cpu < n->init.cpus; cpu++)
		n->data_fds[cpu] = -1;
	for (uint32_t cpu = 0; cpu < n->init.cpus; cpu++) {
		n->data_fds[cpu] = n->listen_fds ? accept_data_channel(n, cpu) :
				   net_data_connect(n->peer.fd, ports[cpu], n->init.tcp, cpu);
		if (n->data_fds[cpu] < 0)
			return -1;
	}
	return 0;
}

struct record_net *record_net_connect(const struct record_net_opts *o, int nr_cpus,
				      uint32_t page_size)
{
	struct record_net *n = xcalloc(1, sizeof(*n));

	n->peer.fd = n->meta_fd = -1;
	n->peer.name = n->name;
	/* --notimeout: as upstream's, for a listener held in a debugger. */
	n->peer.timeout_ms = o->no_timeout ? -1 : NET_TIMEOUT_MS;
	snprintf(n->name, sizeof(n->name), "%s", o->target);
	if (record_net_check_opts(o) < 0)
		goto fail;
	split_target(o->target, n->host, sizeof(n->host), n->port, sizeof(n->port));
	if (nr_cpus > NET_MAX_CPUS) {
		error("cannot trace %d cpus over the network (at most %d)", nr_cpus, NET_MAX_CPUS);
		goto fail;
	}
	n->init.cpus = nr_cpus;
	n->init.page_size = page_size;
	/* A page must fit a datagram, else TCP, as upstream decides. */
	n->init.tcp = o->tcp || page_size >= NET_UDP_MAX_PACKET;
	n->version = negotiate(n, !o->v1);
	if (n->version < 0)
		goto fail;
	n->ports = xcalloc(nr_cpus, sizeof(*n->ports));
	if (announce(n, n->ports) < 0)
		goto fail;
	return n;
fail:
	record_net_free(n);
	return NULL;
}

struct record_net *record_net_agent(int fd, const char *name, int *listen_fds, int nr_cpus,
				    uint32_t page_size, uint64_t trace_id)
{
	struct record_net *n = xcalloc(1, sizeof(*n));

	n->peer.fd = fd;
	n->meta_fd = -1;
	n->peer.name = n->name;
	n->peer.timeout_ms = NET_TIMEOUT_MS;
	snprintf(n->name, sizeof(n->name), "%s", name);
	n->version = 3;
	n->init.cpus = nr_cpus;
	n->init.page_size = page_size;
	n->init.tcp = 1;
	n->listen_fds = listen_fds;
	n->trace_id = trace_id;
	return n;
}

void record_net_set_proxy(struct record_net *n, const struct record_net_proxy *proxy)
{
	n->proxy = *proxy;
}

uint64_t record_net_trace_id(const struct record_net *n)
{
	return n->trace_id;
}

const int *record_net_data_fds(const struct record_net *n)
{
	return n->data_fds;
}

const char *record_net_name(const struct record_net *n)
{
	return n->name;
}

/* What the header output holds beyond what was sent: v3 messages, or raw in v1. */
static int send_upto(struct record_net *n, uint64_t end)
{
	char buf[NET_MSG_MAX - NET_MSG_HDR];

	while (n->sent < end) {
		size_t want = end - n->sent < sizeof(buf) ? end - n->sent : sizeof(buf);
		ssize_t got = pread(n->meta_fd, buf, want, n->sent);

		if (got <= 0)
			return error("cannot read back the file header: %s",
				     got < 0 ? strerror(errno) : "it shrank");
		if (n->version == 3 ? net_send_data(&n->peer, buf, got) < 0 :
				      net_write(&n->peer, buf, got, "the file header") < 0)
			return -1;
		n->sent += got;
	}
	return 0;
}

static int send_new(struct record_net *n)
{
	return send_upto(n, trace_output_offset(n->out));
}

static int open_header(struct record_net *n, const struct record_net_header *h)
{
	int version = n->version == 1 ? 6 : h->version;
	int fd;

	n->meta_fd = memfd_create("trace-cmd-header", MFD_CLOEXEC);
	if (n->meta_fd < 0)
		return error("cannot create a memfd for the file header: %s", strerror(errno));
	fd = dup(n->meta_fd);
	if (fd < 0)
		return error("cannot duplicate the header memfd: %s", strerror(errno));
	n->out = trace_output_fdopen(fd, n->name, version);
	if (!n->out) {
		close(fd);
		return -1;
	}
	if (version == 7 && h->compression &&
	    trace_output_set_compression(n->out, h->compression) < 0)
		return -1;
	return 0;
}

/*
 * A listener that hangs up, or says anything, after the header stops the
 * recording: its control connection raises SIGTERM, which record handles.
 */
static void watch_listener(struct record_net *n, int on)
{
	int flags = fcntl(n->peer.fd, F_GETFL);

	if (flags < 0)
		return;
	if (on) {
		fcntl(n->peer.fd, F_SETOWN, getpid());
		fcntl(n->peer.fd, F_SETSIG, SIGTERM);
	}
	fcntl(n->peer.fd, F_SETFL, on ? flags | O_ASYNC : flags & ~O_ASYNC);
	/* A host's CLOSE may have come before the watch: no signal would tell. */
	if (on && n->listen_fds) {
		struct pollfd pfd = { .fd = n->peer.fd, .events = POLLIN };

		if (poll(&pfd, 1, 0) > 0)
			kill(getpid(), SIGTERM);
	}
}

int record_net_send_header(struct record_net *n, const struct record_net_header *h)
{
	struct trace_output *out;

	if (open_header(n, h) < 0)
		return -1;
	out = n->out;
	if (trace_output_write_prefix(out, h->page_size) < 0 ||
	    trace_output_write_header_info(out, NULL) < 0 ||
	    trace_output_write_ftrace_formats(out, NULL) < 0 ||
	    trace_output_write_event_formats(out, h->events, NULL) < 0 ||
	    trace_output_write_kallsyms(out, NULL, NULL) < 0 || trace_output_write_printk(out, NULL) < 0)
		return -1;
	/* agent -P: up to the options, which follow the record's CLOSE. */
	if (n->proxy.time_shift) {
		n->header = *h;
		if (trace_output_write_cmdlines(out) < 0 || trace_output_link_options_here(out) < 0)
			return -1;
	/* v1: the listener adds CPU count and options; cmdlines come at the end. */
	} else if (n->version == 3 &&
	    (trace_output_write_cmdlines(out) < 0 ||
	     (h->add_options && h->add_options(out, h->arg) < 0) ||
	     trace_output_end_metadata(out, n->init.cpus) < 0))
		return -1;
	if (send_new(n) < 0)
		return -1;
	if (n->version == 3 && net_send_msg(&n->peer, NET_FIN_DATA, NULL, 0, NULL, 0) < 0)
		return -1;
	/* The data channels connect after the header, as upstream's do. */
	if (open_data_channels(n) < 0)
		return -1;
	watch_listener(n, 1);
	return 0;
}

/* 0 while the listener is quiet, as it should be during the recording. */
static int check_listener(struct record_net *n)
{
	struct pollfd pfd = { .fd = n->peer.fd, .events = POLLIN };
	char c;
	ssize_t got;

	if (n->reported)
		return -1;
	if (poll(&pfd, 1, 0) <= 0)
		return 0;
	got = recv(n->peer.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);
	if (got < 0 && errno == EAGAIN)
		return 0;
	n->reported = 1;
	if (got == 0)
		return error("'%s': the listener closed the connection during the recording",
			     n->name);
	if (got < 0)
		return error("'%s': connection lost during the recording: %s", n->name,
			     strerror(errno));
	return error("'%s': the listener sent an unexpected message during the recording",
		     n->name);
}

int record_net_lost(struct record_net *n)
{
	if (check_listener(n) < 0 || n->reported)
		return -1;
	n->reported = 1;
	return error("'%s': the listener closed data channels during the recording", n->name);
}

/* The recorders are gone: closing our copies ends each TCP channel. */
static void close_data_channels(struct record_net *n)
{
	for (uint32_t cpu = 0; n->data_fds && cpu < n->init.cpus; cpu++) {
		if (n->data_fds[cpu] >= 0)
			close(n->data_fds[cpu]);
		n->data_fds[cpu] = -1;
	}
}

/*
 * Upstream's listener copies a v1 control connection into the file until a
 * read fails, and the exit of the reader of a TCP channel interrupts that
 * read (SIGCHLD, without SA_RESTART): a read then waiting for more of the
 * header ends the copy, and the rest is lost (the command lines, or more
 * while it is still busy with kallsyms).  So the channels close only once the
 * listener's kernel holds all we sent: our send queue is empty, every byte
 * acknowledged, and its reads no longer wait for us.
 */
static void wait_control_sent(struct record_net *n)
{
	for (int waited = 0; waited < NET_TIMEOUT_MS; waited += 5) {
		int unacked;

		if (ioctl(n->peer.fd, SIOCOUTQ, &unacked) < 0 || unacked <= 0)
			return;
		usleep(5000);
	}
}

/* agent -P: the GUEST option naming the record --proxy ("::GUEST::", no CPUs). */
static int add_proxy_guest(struct record_net *n)
{
	static const char name[] = "::GUEST::";
	unsigned char buf[sizeof(name) + 12];
	uint32_t cpus = 0;

	memcpy(buf, name, sizeof(name));
	memcpy(buf + sizeof(name), &n->proxy.trace_id, 8);
	memcpy(buf + sizeof(name) + 8, &cpus, 4);
	return trace_output_add_option(n->out, TRACE_OPT_GUEST, buf, sizeof(buf));
}

/* agent -P: the options and STRINGS sections, the rest of the file's metadata. */
static int send_proxy_options(struct record_net *n)
{
	const struct record_net_header *h = &n->header;
	struct stat st;
	int ret;

	if ((h->add_options && h->add_options(n->out, h->arg) < 0) || add_proxy_guest(n) < 0 ||
	    trace_output_end_metadata(n->out, n->init.cpus) < 0)
		return -1;
	/* Closing writes the STRINGS section; the memfd holds it all. */
	ret = trace_output_close(n->out);
	n->out = NULL;
	if (ret < 0)
		return -1;
	if (fstat(n->meta_fd, &st) < 0)
		return error("cannot read back the file header: %s", strerror(errno));
	if (send_upto(n, st.st_size) < 0)
		return -1;
	return net_send_msg(&n->peer, NET_FIN_DATA, NULL, 0, NULL, 0);
}

/*
 * agent -P: the time sync ends with the recording (the record waits for
 * its STOP before it asks for the rest); after CONT, its TIME_SHIFT goes as
 * one raw option.
 */
static int send_proxy_rest(struct record_net *n)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	size_t len = 0;
	void *opt = n->proxy.time_shift(n->proxy.arg, n->trace_id, &len);
	int ret = opt ? send_proxy_options(n) : -1;

	if (ret == 0)
		ret = net_recv_msg(&n->peer, m);
	if (ret == 0 && m->cmd != NET_CONT)
		ret = error("'%s': expected CONT, got %s (%u)", n->name, net_cmd_name(m->cmd),
			    m->cmd);
	free(m);
	if (ret == 0)
		ret = net_send_data(&n->peer, opt, len);
	free(opt);
	if (ret == 0)
		ret = net_send_msg(&n->peer, NET_FIN_DATA, NULL, 0, NULL, 0);
	return ret;
}

/*
 * Agent: the host's CLOSE stopped the recording; once the data channels have
 * ended, CLOSE_RESP tells it that all is sent.
 */
static int agent_finish(struct record_net *n)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	int ret = net_recv_msg(&n->peer, m);

	if (ret == 0 && m->cmd != NET_CLOSE)
		ret = error("'%s': expected CLOSE, got %s (%u)", n->name, net_cmd_name(m->cmd),
			    m->cmd);
	free(m);
	close_data_channels(n);
	if (ret == 0 && n->proxy.time_shift)
		ret = send_proxy_rest(n);
	if (ret == 0)
		ret = net_send_msg(&n->peer, NET_CLOSE_RESP, NULL, 0, NULL, 0);
	return ret;
}

int record_net_finish(struct record_net *n)
{
	int ret = 0;

	watch_listener(n, 0);
	if (n->listen_fds)
		return agent_finish(n);
	if (check_listener(n) < 0)
		return -1;
	/*
	 * v1 sends the saved command lines last, so they name the traced
	 * tasks, then its end of the header (EOF), before the channels end.
	 */
	if (n->version == 1) {
		ret = trace_output_write_cmdlines(n->out) < 0 || send_new(n) < 0 ? -1 : 0;
		if (ret == 0)
			shutdown(n->peer.fd, SHUT_WR);
	}
	if (ret == 0)
		wait_control_sent(n);
	close_data_channels(n);
	if (ret == 0 && n->version == 3)
		ret = net_send_msg(&n->peer, NET_CLOSE, NULL, 0, NULL, 0);
	return ret;
}

void record_net_free(struct record_net *n)
{
	if (!n)
		return;
	close_data_channels(n);
	for (uint32_t cpu = 0; n->listen_fds && cpu < n->init.cpus; cpu++)
		if (n->listen_fds[cpu] >= 0)
			close(n->listen_fds[cpu]);
	free(n->listen_fds);
	free(n->data_fds);
	free(n->ports);
	trace_output_close(n->out);
	if (n->meta_fd >= 0)
		close(n->meta_fd);
	if (n->peer.fd >= 0)
		close(n->peer.fd);
	free(n);
}
