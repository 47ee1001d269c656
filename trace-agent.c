// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd agent: waits on a vsock port for its host (or this machine), or
 * with -N on a TCP port for the one host -N names.  For each
 * connection (one at a time) a child reads the host's TRACE_REQ, opens one
 * data port per CPU, answers TRACE_RESP, and records as `record ARGS` would
 * into the host's connection (trace-record-net.c) until the host sends CLOSE.
 * The protocol is trace-cmd-agent(1)'s, upstream 3.4's on the wire.
 */
#include <errno.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "trace-cmd.h"
#include "trace-net.h"
#include "trace-proxy.h"
#include "trace-record.h"
#include "trace-record-net.h"
#include "trace-ringbuf.h"
#include "trace-tracefs.h"
#include "trace-tsync.h"

extern const struct command cmd_agent;

static const char agent_usage[] =
	"usage: trace-cmd agent [-N CLIENT | -V] [-p PORT] [-D] [-P CID]\n"
	"  Traces this machine for its host when the host's record asks (see trace-cmd-agent(1)).\n"
	"  -N CLIENT  over TCP instead of vsock: accept connections from the host CLIENT\n"
	"             (a name or an address) only\n"
	"  -V         over vsock (the default): accept the host (CID 2) and this machine (CID 1) only\n"
	"  -p PORT    listen on port PORT (default " NET_AGENT_PORT ")\n"
	"  -D         run in the background as a daemon\n"
	"  -P CID     proxy mode (vsock): trace this machine for the record of the guest CID,\n"
	"             the one peer allowed\n"
	"  --verbose[=LEVEL]  the log level (none crit err warn info debug all, or 0-6;\n"
	"             alone: info): at debug each tracefs write\n"
	"  -h         show this help\n";

enum { OPT_VERBOSE = 0x100 };

static const struct option agent_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ NULL, 0, NULL, 0 }
};

/* The host being served: its recording's process and its name. */
struct served {
	pid_t		pid;		/* 0: none */
	char		name[300];
};

struct agent_cfg {
	const char	*client;	/* -N; NULL: vsock */
	const char	*port;		/* -p */
	int		vsock;		/* -V */
	unsigned long	vsock_port;	/* -p without -N */
	int		daemon;		/* -D */
	unsigned long	proxy_cid;	/* -P; 0: not a proxy */
	struct addrinfo	*client_addrs;	/* what -N resolves to */
};

static volatile sig_atomic_t agent_stopping;

static void on_stop(int sig)
{
	agent_stopping = sig;
}

/* A v4-mapped IPv6 peer compares as the IPv4 address it is. */
static int same_host(const struct sockaddr_storage *peer, const struct sockaddr *want)
{
	const struct sockaddr_in6 *p6 = (const void *)peer;
	const struct sockaddr_in *w4 = (const void *)want;

	if (peer->ss_family == AF_INET && want->sa_family == AF_INET)
		return !memcmp(&((const struct sockaddr_in *)peer)->sin_addr, &w4->sin_addr, 4);
	if (peer->ss_family != AF_INET6)
		return 0;
	if (want->sa_family == AF_INET6)
		return !memcmp(&p6->sin6_addr, &((const struct sockaddr_in6 *)want)->sin6_addr, 16);
	return IN6_IS_ADDR_V4MAPPED(&p6->sin6_addr) && want->sa_family == AF_INET &&
	       !memcmp(p6->sin6_addr.s6_addr + 12, &w4->sin_addr, 4);
}

/*
 * Only the host -N named may make the agent trace; over vsock, the host
 * (CID 2) or this machine itself (CID 1), never another guest.
 */
static int client_allowed(const struct agent_cfg *cfg, int fd)
{
	struct sockaddr_storage peer;
	socklen_t len = sizeof(peer);
	long long cid;

	if (!cfg->client) {
		cid = net_vsock_peer_cid(fd);
		if (cfg->proxy_cid)
			return cid == (long long)cfg->proxy_cid;
		return cid == NET_VSOCK_CID_LOCAL || cid == NET_VSOCK_CID_HOST;
	}
	if (getpeername(fd, (struct sockaddr *)&peer, &len) < 0)
		return 0;
	for (const struct addrinfo *ai = cfg->client_addrs; ai; ai = ai->ai_next)
		if (same_host(&peer, ai->ai_addr))
			return 1;
	return 0;
}

/* One log line on standard output, at once (a daemon's goes nowhere). */
static void __attribute__((format(printf, 1, 2))) agent_log(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* One listening TCP socket per CPU on the address the host reached. */
static int *open_data_ports(int fd, int cpus, unsigned int *ports)
{
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	int *fds = xcalloc(cpus, sizeof(*fds));

	if (getsockname(fd, (struct sockaddr *)&local, &len) < 0) {
		error("cannot get the agent's address: %s", strerror(errno));
		free(fds);
		return NULL;
	}
	for (int cpu = 0; cpu < cpus; cpu++) {
		fds[cpu] = net_data_listen((struct sockaddr *)&local, len, 1, &ports[cpu]);
		if (fds[cpu] < 0) {
			while (cpu--)
				close(fds[cpu]);
			free(fds);
			return NULL;
		}
	}
	return fds;
}

static uint64_t new_trace_id(void)
{
	uint64_t id = 0;

	while (!id && getrandom(&id, sizeof(id), 0) == sizeof(id))
		;
	return id ? id : (uint64_t)getpid() << 32 | (uint64_t)time(NULL);
}

/* record -A: the time sync it offers, served by a child (trace-tsync.h). */
static pid_t start_guest_sync(int fd, const struct net_trace_req *req, const char *name,
			      struct net_trace_resp *resp)
{
	unsigned int port = 0;
	const char *proto;
	pid_t tsync = tsync_guest_start(fd, req, name, &port, &proto);

	if (tsync) {
		snprintf(resp->tsync_proto, sizeof(resp->tsync_proto), "%s", proto);
		resp->tsync_port = port;
		agent_log("%s: time sync with %s on port %u", name, proto, port);
	} else if (req->tsync_offered) {
		agent_log("%s offered time synchronization: none in common, the guest's clock is its own",
			  name);
	}
	return tsync;
}

/*
 * The record arguments: the host's, after "record".  A proxy, as 3.4's
 * agent -P, sets no clock of its own: the kernel's unless they name one.
 */
static const char **record_args(const struct net_trace_req *req, int *argc)
{
	const char **argv = xcalloc(req->argc + 2, sizeof(*argv));
	int n = 0;

	argv[n++] = "record";
	memcpy(argv + n, req->argv, req->argc * sizeof(*argv));
	*argc = n + req->argc;
	return argv;
}

/* The child's work for one host: TRACE_REQ (TRACE_PROXY), TRACE_RESP, then the recording. */
static int serve_host(int fd, const char *name, int proxy)
{
	struct net_peer peer = { .fd = fd, .timeout_ms = NET_TIMEOUT_MS, .name = name };
	struct net_msg *m = xmalloc(sizeof(*m));
	struct net_trace_req *req = xmalloc(sizeof(*req));
	struct net_trace_resp resp = { .trace_id = new_trace_id() };
	struct proxy_tsync *pt = NULL;
	struct record_net *host;
	const char **argv = NULL;
	int *fds = NULL, cpus, argc, ret = EXIT_FAILED;
	unsigned int *ports = NULL;
	pid_t tsync = 0;

	if (net_recv_msg(&peer, m) < 0 || net_parse_trace_req(&peer, m, req, proxy) < 0)
		goto out;
	if (!tfs_dir() || (cpus = tfs_cpu_count()) < 1 || cpus > NET_MAX_CPUS) {
		error("'%s': cannot count this machine's cpus in tracefs", name);
		goto out;
	}
	/* 3.4's host offers setup-guest's FIFOs when it has them; sockets answer it as well. */
	if (req->flags & 1)
		agent_log("%s: offers FIFOs: the data goes over sockets", name);
	argv = record_args(req, &argc);
	if (proxy) {
		pt = proxy_agent_start(fd, req, name, tsync_clock_of_args(argc - 1, argv + 1), &resp);
		if (!pt)
			goto out;
		agent_log("%s: proxy for its record, time sync with ptp on port %u", name,
			  resp.tsync_port);
	} else {
		tsync = start_guest_sync(fd, req, name, &resp);
	}
	ports = xcalloc(cpus, sizeof(*ports));
	fds = open_data_ports(fd, cpus, ports);
	if (!fds)
		goto out;
	resp.cpus = cpus;
	resp.page_size = ringbuf_page_size();
	resp.ports = ports;
	if (net_send_trace_resp(&peer, &resp) < 0) {
		for (int cpu = 0; cpu < cpus; cpu++)
			close(fds[cpu]);
		free(fds);
		goto out;
	}
	host = record_net_agent(fd, name, fds, cpus, resp.page_size, resp.trace_id);
	if (pt)
		proxy_agent_attach(pt, host, req->trace_id);
	fd = -1;	/* the recording takes it */
	ret = record_agent_main(argc, (char **)argv, host);
out:
	tsync_guest_finish(tsync, ret != EXIT_OK);
	proxy_tsync_free(pt);
	if (fd >= 0)
		close(fd);
	free(argv);
	free(ports);
	free(req);
	free(m);
	return ret;
}

/*
 * A refused peer's request is read and dropped, for half a second at most,
 * after our end is shut: closing with its bytes unread would reset the
 * connection, and upstream's record, still writing its request, would then
 * die of SIGPIPE instead of saying the agent hung up.
 */
static void drop_peer(int fd)
{
	long long end = net_now_ms() + 500;
	char buf[4096];

	shutdown(fd, SHUT_WR);
	for (;;) {
		struct pollfd pfd = { .fd = fd, .events = POLLIN };
		long long left = end - net_now_ms();

		if (left <= 0 || poll(&pfd, 1, left) <= 0 || read(fd, buf, sizeof(buf)) <= 0)
			break;
	}
}

static pid_t start_child(int lfd, int fd, const char *name, int proxy)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		error("cannot fork: %s", strerror(errno));
		return 0;
	}
	if (pid == 0) {
		close(lfd);
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		exit(serve_host(fd, name, proxy));
	}
	return pid;
}

/* One connection: refused unless it is the -N host and none is being served. */
static void accept_one(int lfd, const struct agent_cfg *cfg, struct served *host)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	char name[sizeof(host->name)] = "a client";

	if (fd < 0)
		return;
	net_peer_name(fd, name, sizeof(name));
	if (!client_allowed(cfg, fd)) {
		if (cfg->proxy_cid)
			agent_log("refused %s: only the guest CID %lu may connect (-P)", name,
				  cfg->proxy_cid);
		else
			agent_log("refused %s: only %s may connect%s", name,
				  cfg->client ? cfg->client : "the host (CID 2) and this machine (CID 1)",
				  cfg->client ? " (-N)" : "");
		drop_peer(fd);
	} else if (host->pid) {
		agent_log("refused %s: already tracing for %s", name, host->name);
		drop_peer(fd);
	} else {
		agent_log("connected with %s", name);
		snprintf(host->name, sizeof(host->name), "%s", name);
		host->pid = start_child(lfd, fd, name, cfg->proxy_cid != 0);
	}
	close(fd);
}

static void reap(struct served *host)
{
	int status;

	if (host->pid && waitpid(host->pid, &status, WNOHANG) == host->pid) {
		agent_log("%s: recording %s", host->name,
			  WIFEXITED(status) && !WEXITSTATUS(status) ? "done" : "failed");
		host->pid = 0;
	}
}

static int serve(int lfd, const struct agent_cfg *cfg)
{
	struct sigaction sa = { .sa_handler = on_stop };
	struct served host = { 0 };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	while (!agent_stopping) {
		struct pollfd pfd = { .fd = lfd, .events = POLLIN };

		reap(&host);
		if (poll(&pfd, 1, 200) > 0)
			accept_one(lfd, cfg, &host);
	}
	close(lfd);
	if (host.pid) {
		kill(host.pid, SIGTERM);
		waitpid(host.pid, NULL, 0);
	}
	return EXIT_OK;
}

static int parse_args(int argc, char **argv, struct agent_cfg *cfg)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hN:p:DVP:", agent_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_agent);
		case 'N':
			cfg->client = optarg;
			break;
		case 'p':
			cfg->port = optarg;
			break;
		case 'D':
			cfg->daemon = 1;
			break;
		case 'V':
			cfg->vsock = 1;
			break;
		case 'P':
			if (parse_ulong("-P", optarg, 1, NET_VSOCK_MAX, &cfg->proxy_cid) < 0)
				return usage_follows(&cmd_agent);
			break;
		case OPT_VERBOSE:
			if (set_log_level("--verbose", optarg) < 0)
				return usage_follows(&cmd_agent);
			break;
		default:
			return option_error(&cmd_agent, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_agent, "unexpected argument '%s'", argv[optind]);
	if (cfg->client && cfg->vsock)
		return usage_error(&cmd_agent, "-N and -V: one transport, TCP (-N) or vsock (-V)");
	if (cfg->client && cfg->proxy_cid)
		return usage_error(&cmd_agent, "-P and -N: a proxy serves its guest over vsock only");
	if (!cfg->client && parse_ulong("-p", cfg->port, 0, NET_VSOCK_MAX, &cfg->vsock_port) < 0)
		return usage_follows(&cmd_agent);
	return PARSE_RUN;
}

static int resolve_client(struct agent_cfg *cfg)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM };
	int err;

	if (!cfg->client)
		return 0;
	err = getaddrinfo(cfg->client, NULL, &hints, &cfg->client_addrs);
	if (err)
		return error("cannot resolve -N '%s': %s", cfg->client, gai_strerror(err));
	return 0;
}

static int run_agent(int argc, char **argv)
{
	struct agent_cfg cfg = { .port = NET_AGENT_PORT };
	int ret = parse_args(argc, argv, &cfg), lfd;

	if (ret != PARSE_RUN)
		return ret;
	if (resolve_client(&cfg) < 0)
		return EXIT_FAILED;
	lfd = cfg.client ? net_listen_tcp(cfg.port, NULL) : net_listen_vsock(cfg.vsock_port);
	if (lfd < 0) {
		if (cfg.client)
			freeaddrinfo(cfg.client_addrs);
		return EXIT_FAILED;
	}
	if (cfg.client)
		printf("listening on port %s for %s\n", cfg.port, cfg.client);
	else
		printf("listening on vsock port %lu for the host\n", cfg.vsock_port);
	fflush(stdout);
	if (cfg.daemon && daemon(1, 0) < 0) {
		error("cannot become a daemon: %s", strerror(errno));
		ret = EXIT_FAILED;
	} else {
		ret = serve(lfd, &cfg);
	}
	if (cfg.client)
		freeaddrinfo(cfg.client_addrs);
	return ret;
}

const struct command cmd_agent = {
	.name = "agent",
	.run = run_agent,
	.usage = agent_usage,
	.summary = "trace this machine for a host's record -A",
};
