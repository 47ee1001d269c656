// SPDX-License-Identifier: GPL-2.0
/*
 * One client of `trace-cmd listen`, served in its own process: the version
 * negotiation, the v1 or v3 handshake, one data socket per CPU, the metadata
 * stream into NAME.HOST:PORT.dat, the CPU data into temporary files, and the
 * finished file.  Any failure ends this client only, with one log line.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>

#include "trace-cmd.h"
#include "trace-listen.h"
#include "trace-net.h"

/*
 * After CLOSE (v1: EOF), UDP data and TCP connections not made yet are over
 * once all stays quiet this long (upstream waits 2 s in all; recorders may
 * still be flushing or connecting when CLOSE arrives).
 */
#define DRAIN_QUIET_MS	1000

struct cpu_chan {
	int		sock;		/* UDP socket, or TCP listening then accepted */
	int		listening;	/* TCP: not accepted yet */
	int		done;		/* TCP: EOF seen */
	struct listen_cpu data;
	char		tmp[300];
};

struct session {
	const struct listen_opts *o;
	struct listen_slot *slot;
	const volatile sig_atomic_t *stopping;	/* the listener is stopping */
	void		(*log)(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
	struct net_peer	peer;
	char		name[128];	/* HOST:PORT */
	char		file[300];	/* PREFIX.HOST:PORT.dat */
	int		version;	/* 1 or 3 */
	struct net_init	init;
	struct cpu_chan	*cpu;
	int		dat;
	uint64_t	meta_len;
	int		meta_done;	/* v3: FIN_DATA seen */
	int		closed;		/* v3: CLOSE seen; v1: EOF */
	long long	header_deadline;	/* v3: the next message by then, until FIN_DATA */
	long long	last_meta;	/* v1: when the header last grew */
	int		short_warned;
	unsigned char	*page;
};

/* --- handshake ----------------------------------------------------------- */

/*
 * Reads the client's first string: a v3 request ("-1V3"), or in v1 its cpu
 * count.  Returns 3, 1, or 0 when v3 was refused and the client will retry.
 */
static int negotiate(struct session *s, char *first, size_t size)
{
	char prev[NET_MAX_STRING] = "";
	char magic[NET_V3_MAGIC_LEN];
	static const char want[NET_V3_MAGIC_LEN] = NET_V3_MAGIC;

	if (net_write(&s->peer, NET_GREETING, NET_GREETING_LEN, "the greeting") < 0)
		return -1;
	for (;;) {
		if (net_read_string(&s->peer, first, size, "the protocol version") < 0)
			return -1;
		if (strncmp(first, "-1V", 3))
			return 1;
		/* Hanging up makes a 3.x client reconnect and speak v1. */
		if (!s->o->allow_v3)
			return 0;
		if (!strcmp(first, NET_V3_REQUEST))
			break;
		if (!strcmp(first, prev)) {
			char shown[PRINTABLE_SIZE(16)];

			return error("'%s': no common protocol version (client insists on '%s')",
				     s->name, printable(shown, sizeof(shown), first + 2, 16));
		}
		snprintf(prev, sizeof(prev), "%s", first);
		if (net_write(&s->peer, "V3", 3, "the protocol version") < 0)
			return -1;
	}
	if (net_write(&s->peer, "V3", 3, "the protocol version") < 0 ||
	    net_read(&s->peer, magic, sizeof(magic), "the v3 magic") < 0)
		return -1;
	if (memcmp(magic, want, sizeof(want)))
		return error("'%s': bad v3 magic", s->name);
	if (net_write(&s->peer, "OK", 2, "the v3 answer") < 0)
		return -1;
	return 3;
}

static int handshake(struct session *s)
{
	char first[NET_MAX_STRING];
	struct net_msg *m;
	int ret;

	ret = negotiate(s, first, sizeof(first));
	if (ret <= 0)
		return ret;
	s->version = ret;
	if (s->version == 1)
		return net_v1_recv_init(&s->peer, first, &s->init) < 0 ? -1 : 1;
	m = xmalloc(sizeof(*m));
	ret = net_recv_msg(&s->peer, m);
	if (!ret && m->cmd != NET_TINIT)
		net_send_msg(&s->peer, NET_NOT_SUPP, NULL, 0, NULL, 0);
	if (!ret)
		ret = net_parse_tinit(&s->peer, m, &s->init);
	free(m);
	return ret < 0 ? -1 : 1;
}

/* --- files and sockets --------------------------------------------------- */

static int open_out(struct session *s, const char *path, int flags)
{
	int fd = openat(s->o->dir_fd, path, flags | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW,
			0644);

	if (fd < 0)
		return error("cannot create '%s': %s", path, strerror(errno));
	return fd;
}

static int open_channels(struct session *s, unsigned int *ports)
{
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);

	if (getsockname(s->peer.fd, (struct sockaddr *)&local, &len) < 0)
		return error("cannot get the listening address: %s", strerror(errno));
	s->cpu = xcalloc(s->init.cpus, sizeof(*s->cpu));
	for (uint32_t i = 0; i < s->init.cpus; i++) {
		s->cpu[i].sock = -1;
		s->cpu[i].data.fd = -1;
	}
	for (uint32_t i = 0; i < s->init.cpus; i++) {
		struct cpu_chan *c = &s->cpu[i];

		snprintf(c->tmp, sizeof(c->tmp), "%s.%s.cpu%u", s->o->prefix, s->name, i);
		c->data.fd = open_out(s, c->tmp, O_RDWR);
		if (c->data.fd < 0)
			return -1;
		c->sock = net_data_listen((struct sockaddr *)&local, len, s->init.tcp, &ports[i]);
		if (c->sock < 0)
			return -1;
		c->listening = s->init.tcp;
	}
	return 0;
}

static void close_channels(struct session *s)
{
	for (uint32_t i = 0; s->cpu && i < s->init.cpus; i++) {
		if (s->cpu[i].sock >= 0)
			close(s->cpu[i].sock);
		if (s->cpu[i].data.fd >= 0) {
			close(s->cpu[i].data.fd);
			unlinkat(s->o->dir_fd, s->cpu[i].tmp, 0);
		}
	}
	free(s->cpu);
	s->cpu = NULL;
}

static int append_meta(struct session *s, const void *p, size_t n)
{
	if (s->meta_len + n > LISTEN_MAX_META)
		return error("'%s': file header larger than %u MiB", s->name, LISTEN_MAX_META >> 20);
	if (write_all(s->dat, p, n) < 0)
		return error("cannot write '%s': %s", s->file, strerror(errno));
	s->meta_len += n;
	return 0;
}

/* --- the data phase ------------------------------------------------------ */

static int read_cpu(struct session *s, struct cpu_chan *c)
{
	ssize_t n;

	if (c->listening) {
		int fd = accept4(c->sock, NULL, NULL, SOCK_CLOEXEC);

		if (fd < 0)
			return errno == EINTR || errno == EAGAIN ? 0 :
				error("cannot accept a data connection: %s", strerror(errno));
		close(c->sock);
		c->sock = fd;
		c->listening = 0;
		return 0;
	}
	n = recv(c->sock, s->page, s->init.page_size, MSG_DONTWAIT);
	if (n < 0)
		return errno == EINTR || errno == EAGAIN ? 0 :
			error("'%s': cannot read cpu data: %s", s->name, strerror(errno));
	if (n == 0 && s->init.tcp) {
		c->done = 1;
		return 0;
	}
	if (!s->init.tcp && (uint32_t)n != s->init.page_size && !s->short_warned) {
		warning("'%s': read %zd bytes, expected %u", s->name, n, s->init.page_size);
		s->short_warned = 1;
	}
	if (pwrite(c->data.fd, s->page, n, c->data.size) != n)
		return error("cannot write '%s': %s", c->tmp, strerror(errno));
	c->data.size += n;
	return 0;
}

/*
 * The whole file header is here: from now on the client is a trace like any
 * other, which the listener does not cut to make room for a new one.
 */
static void settle(struct session *s)
{
	if (!s->slot->settled)
		log_info("'%s': file header complete, %llu bytes", s->name,
			 (unsigned long long)s->meta_len);
	s->slot->settled = 1;
}

/*
 * v1 has no end to its file header: the client sends it at once after the
 * port list, then only, perhaps, its command lines at the end.  The header
 * is taken as whole once the control connection has been quiet for the
 * timeout after it.  Sets the poll timeout until then.
 */
static void v1_header_wait(struct session *s, int *timeout)
{
	long long left;

	if (s->slot->settled || !s->meta_len)
		return;
	left = s->last_meta + s->o->timeout_ms - net_now_ms();
	if (left <= 0)
		settle(s);
	else
		*timeout = left;
}

/*
 * Until FIN_DATA the client is sending its file header, message after
 * message (upstream's listener waits 5 s for each): a client that stalls
 * there is dropped.  After it, the trace may run for hours in silence.
 * Sets the poll timeout; -1 with a message when the time is up.
 */
static int header_wait(struct session *s, int *timeout)
{
	long long left;

	if (s->version == 1)
		v1_header_wait(s, timeout);
	if (s->version != 3 || s->meta_done)
		return 0;
	left = s->header_deadline - net_now_ms();
	if (left <= 0)
		return error("'%s': timed out after %d s waiting for the next message of the file header",
			     s->name, s->o->timeout_ms / 1000);
	*timeout = left;
	return 0;
}

/* The listener cut the connection: say so rather than that the client hung up. */
static int was_cut(struct session *s)
{
	return s->slot->cut ? error("'%s': %s", s->name, s->peer.cut_why) : 0;
}

/* One v3 control message: metadata, its end, or the end of the trace. */
static int control_v3(struct session *s, struct net_msg *m)
{
	if (net_recv_msg(&s->peer, m) < 0)
		return -1;
	log_debug("'%s': %s message (%u), %u bytes", s->name, net_cmd_name(m->cmd), m->cmd, m->len);
	s->header_deadline = net_now_ms() + s->o->timeout_ms;
	switch (m->cmd) {
	case NET_SEND_DATA:
		if (s->meta_done)
			break;
		return append_meta(s, m->body + m->fixed_len, m->len - m->fixed_len);
	case NET_FIN_DATA:
		if (s->meta_done)
			break;
		s->meta_done = 1;
		settle(s);
		return 0;
	case NET_CLOSE:
		s->closed = 1;
		return 0;
	}
	net_send_msg(&s->peer, NET_NOT_SUPP, NULL, 0, NULL, 0);
	return error("'%s': unexpected %s message (%u)", s->name, net_cmd_name(m->cmd), m->cmd);
}

/* v1: the control socket carries the metadata until the client hangs up. */
static int control_v1(struct session *s)
{
	char buf[8192];
	ssize_t n = read(s->peer.fd, buf, sizeof(buf));

	if (n < 0)
		return errno == EINTR ? 0 : error("'%s': cannot read: %s", s->name, strerror(errno));
	if (n == 0) {
		s->closed = s->meta_done = 1;
		return was_cut(s);
	}
	s->last_meta = net_now_ms();
	return append_meta(s, buf, n);
}

/* 1 when the peer hung up without a word, 0 when data waits, -1 on error. */
static int peer_hung_up(struct session *s)
{
	char c;
	ssize_t n = recv(s->peer.fd, &c, 1, MSG_PEEK | MSG_DONTWAIT);

	return n == 0 ? 1 : n < 0 && errno != EAGAIN && errno != EINTR ? -1 : 0;
}

/*
 * Polls the control socket and every data socket until the client says it is
 * done (or @draining and the data went quiet).  Returns 1 when the client
 * hung up before CLOSE, -1 on error.
 */
static int pump(struct session *s, int draining)
{
	uint32_t n = s->init.cpus;
	struct pollfd *pfd = xcalloc(n + 1, sizeof(*pfd));
	struct net_msg *m = xmalloc(sizeof(*m));
	int ret = 0;

	while (!ret && !*s->stopping) {
		int timeout = -1, open = 0, waiting = !s->init.tcp, k;

		for (uint32_t i = 0; i < n; i++) {
			pfd[i].fd = s->cpu[i].done ? -1 : s->cpu[i].sock;
			pfd[i].events = POLLIN;
			open += !s->cpu[i].done;
			waiting |= s->cpu[i].listening;
		}
		pfd[n].fd = draining || s->closed ? -1 : s->peer.fd;
		pfd[n].events = POLLIN;
		if (!draining && header_wait(s, &timeout) < 0) {
			ret = -1;
			break;
		}
		if (draining) {
			if (!open)
				break;
			/* Recorders may connect late; one that never does sent nothing. */
			timeout = waiting ? DRAIN_QUIET_MS : s->o->timeout_ms;
		}
		k = poll(pfd, n + 1, timeout);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			ret = error("poll: %s", strerror(errno));
			break;
		}
		if (k == 0 && !draining)
			continue;	/* header_wait() decides */
		if (k == 0)
			break;
		for (uint32_t i = 0; i < n && !ret; i++)
			if (pfd[i].revents)
				ret = read_cpu(s, &s->cpu[i]);
		if (ret || !pfd[n].revents)
			continue;
		if (s->version == 1) {
			ret = control_v1(s);
		} else if ((k = peer_hung_up(s)) != 0) {
			ret = was_cut(s) ?: k > 0 ? 1 :
				error("'%s': connection lost: %s", s->name, strerror(errno));
		} else {
			ret = control_v3(s, m);
		}
		if (!ret && s->closed)
			break;
	}
	free(m);
	free(pfd);
	return ret;
}

/* --- the session --------------------------------------------------------- */

/* The final name: the .dat itself, or ".incomplete" appended when cut off. */
static int finish(struct session *s, int cut_off)
{
	struct listen_cpu *cpu = xcalloc(s->init.cpus, sizeof(*cpu));
	char final[sizeof(s->file) + 16];
	int ret;

	for (uint32_t i = 0; i < s->init.cpus; i++)
		cpu[i] = s->cpu[i].data;
	ret = listen_finish_file(s->dat, s->meta_len, s->file, s->init.cpus, cpu);
	free(cpu);
	if (ret < 0)
		return -1;
	if (!cut_off) {
		s->log("Finished with %s: wrote %s", s->name, s->file);
		return 0;
	}
	snprintf(final, sizeof(final), "%s.incomplete", s->file);
	if (renameat(s->o->dir_fd, s->file, s->o->dir_fd, final) < 0)
		return error("cannot rename '%s': %s", s->file, strerror(errno));
	s->log("Incomplete trace from %s: %s before the end, kept what arrived in %s", s->name,
		   *s->stopping ? "the listener was stopped" : "the client hung up", final);
	return 0;
}

static int serve(struct session *s)
{
	unsigned int ports[NET_MAX_CPUS];
	int ret;

	/* Each read has its timeout, and the handshake as a whole has it too. */
	net_set_deadline(&s->peer, s->o->timeout_ms, "the handshake");
	ret = handshake(s);
	net_clear_deadline(&s->peer);
	if (ret <= 0) {
		if (!ret)
			s->log("Refused protocol v3 from %s (v1 only): it may reconnect with v1",
				   s->name);
		return ret;
	}
	s->log("cpus=%u", s->init.cpus);
	s->log("pagesize=%u", s->init.page_size);
	if (s->init.tcp)
		s->log("Using TCP for live connection");
	s->page = xmalloc(s->init.page_size);
	s->dat = open_out(s, s->file, O_RDWR);
	if (s->dat < 0 || open_channels(s, ports) < 0)
		return -1;
	ret = s->version == 3 ? net_send_rinit(&s->peer, s->init.cpus, ports)
			      : net_v1_send_ports(&s->peer, s->init.cpus, ports);
	if (ret < 0)
		return -1;
	if (s->version == 1)
		s->peer.timeout_ms = -1;
	s->header_deadline = net_now_ms() + s->o->timeout_ms;
	ret = pump(s, 0);
	if (ret < 0)
		return -1;
	if (!*s->stopping)
		pump(s, 1);
	return finish(s, ret > 0 || *s->stopping);
}

int listen_client(int fd, const struct listen_client_env *env)
{
	const struct listen_opts *o = env->opts;
	struct session s = {
		.o = o, .slot = env->slot, .stopping = env->stopping, .log = env->log, .dat = -1
	};
	int ret;

	s.peer.fd = fd;
	s.peer.cut = &env->slot->cut;
	s.peer.cut_why = "dropped to make room for a new client: every --max-clients slot was taken, and this client had been the longest in its handshake or file header";
	s.peer.timeout_ms = o->timeout_ms;
	s.peer.name = s.name;
	if (net_peer_name(fd, s.name, sizeof(s.name)) < 0)
		return EXIT_FAILED;
	snprintf(s.file, sizeof(s.file), "%s.%s.dat", o->prefix, s.name);
	s.log("Connected with %s", s.name);
	ret = serve(&s);
	close_channels(&s);
	if (s.dat >= 0) {
		close(s.dat);
		if (ret < 0)
			unlinkat(o->dir_fd, s.file, 0);
	}
	free(s.page);
	close(fd);
	return ret < 0 ? EXIT_FAILED : EXIT_OK;
}
