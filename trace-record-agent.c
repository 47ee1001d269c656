// SPDX-License-Identifier: GPL-2.0
/*
 * record -A HOST:PORT: the host's side of trace-cmd-agent(1)'s protocol, as
 * upstream 3.4's record -A speaks it.  TRACE_REQ with the guest's arguments,
 * TRACE_RESP with its CPUs and data ports, its file header as SEND_DATA up to
 * FIN_DATA, one TCP data channel per CPU read by a process of its own, and at
 * the end CLOSE, CLOSE_RESP and the guest's file finished as listen does.
 * Time sync (ptp, trace-tsync.h) is offered; when the agent takes it, a
 * thread samples the guest's clock while the recording runs, and the
 * guest's file gets the TIME_SHIFT option they make.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "trace-cmd.h"
#include "trace-append.h"
#include "trace-dat.h"
#include "trace-listen.h"
#include "trace-net.h"
#include "trace-outfile.h"
#include "trace-output.h"
#include "trace-record-agent.h"
#include "trace-tracefs.h"
#include "trace-tsync.h"
#include "trace-tsync-kvm.h"
#include "trace-tsc.h"

#define HEADER_MS		30000	/* the agent's tracefs setup and whole file header */
#define CLOSE_RESP_MS		30000	/* the agent's recorders drain before it answers CLOSE */
#define DRAIN_MS		5000	/* after CLOSE_RESP: its data channels' end, its hang-up */

struct guest {
	const char	*target;	/* as given to -A */
	const char	*opt;		/* "-A" or "--proxy", for messages */
	char		*name;		/* --name, or HOST */
	char		*host;		/* or the CID, for vsock */
	char		*port;
	long long	cid;		/* the agent's vsock CID; -1: TCP to HOST */
	const char	**argv;		/* the agent's record arguments */
	int		argc;
	struct net_peer	peer;
	struct net_trace_resp resp;
	unsigned int	ports[NET_MAX_CPUS];
	char		*path;		/* trace-NAME.dat */
	struct outfile	out;
	int		out_open;
	uint64_t	meta_len;
	char		**tmp;		/* per CPU, the data read so far */
	int		*tmp_fds;
	int		*data_fds;
	pid_t		reader;		/* the process reading the data channels; 0: none */
	int		written;	/* trace-NAME.dat is complete */
	struct net_peer	sync;		/* the time-sync connection; fd -1: none */
	struct tsync_host *tsync;	/* its samples */
	pthread_t	tsync_thread;
	int		tsync_running;	/* tsync_thread is to be joined */
	long		tsync_interval;	/* ms between samples */
	int		tsync_status;	/* tsync_host_run()'s */
	volatile sig_atomic_t tsync_stop;
	const char	*sync_clock;	/* --proxy: our clock, which the agent samples */
	int		proxy;		/* --proxy: the agent -P traces its host for us */
	char		*kvm_dir;	/* kvm offered: the VM's KVM debugfs directory (trace-tsync-kvm.h) */
	void		*time_shift;	/* --proxy: the TIME_SHIFT the agent made, for our file */
	size_t		time_shift_len;
};

struct record_guests {
	struct guest	*g;
	int		nr;
	int		current;	/* the guest options go to; -1: none (before -A, after -B) */
	long		tsync_interval;	/* --tsync-interval: ms between samples; < 0: no sync */
	uint64_t	host_id;	/* the host file's trace id, in TIME_SHIFT */
	struct tsc_conv	tsc;		/* --tsc2nsec: the conversion for the guests' files too */
	int		tsc_set;
};

struct record_guests *record_guests_new(void)
{
	struct record_guests *g = xcalloc(1, sizeof(*g));

	g->current = -1;
	return g;
}

void record_guests_tsync_interval(struct record_guests *g, long ms)
{
	g->tsync_interval = ms;
}

int record_guests_count(const struct record_guests *g)
{
	return g ? g->nr : 0;
}

static char *dup_prefix(const char *s, size_t n)
{
	char *p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = 0;
	return p;
}

static int all_digits(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* A vsock CID or port: at most 10 digits, at most NET_VSOCK_MAX. */
static int vsock_number(const char *s)
{
	return all_digits(s) && strlen(s) <= 10 && strtoull(s, NULL, 10) <= NET_VSOCK_MAX;
}

/* CID[:PORT] of vsock: a CID is all digits, the port the agent's default if not given. */
static int parse_vsock(struct guest *gs, const char *arg)
{
	if (!vsock_number(gs->host))
		return error("%s '%s': invalid CID '%s' (0 to %u)", gs->opt, arg, gs->host, NET_VSOCK_MAX);
	gs->cid = strtoull(gs->host, NULL, 10);
	if (!gs->port)
		gs->port = xstrdup(NET_AGENT_PORT);
	if (!vsock_number(gs->port))
		return error("%s '%s': invalid vsock port '%s' (0 to %u)", gs->opt, arg, gs->port,
			     NET_VSOCK_MAX);
	return 0;
}

/*
 * HOST:PORT (3.4's form for TCP: the guest is named HOST) or NAME@HOST:PORT;
 * CID[:PORT] and NAME@CID[:PORT] over vsock (a guest named CID in the first).
 */
static int parse_target(struct guest *gs, const char *arg)
{
	const char *at = strchr(arg, '@'), *rest = at ? at + 1 : arg;
	const char *colon = strrchr(rest, ':');

	if (at && at == arg)
		return error("%s '%s': an empty guest name before '@'", gs->opt, arg);
	gs->host = colon ? dup_prefix(rest, colon - rest) : xstrdup(rest);
	gs->port = colon ? xstrdup(colon + 1) : NULL;
	gs->name = at ? dup_prefix(arg, at - arg) : xstrdup(gs->host);
	if (all_digits(gs->host))
		return parse_vsock(gs, arg);
	if (!colon || !*gs->host)
		return error("%s '%s': give the agent's HOST:PORT (TCP) or CID[:PORT] (vsock)", gs->opt, arg);
	if (!all_digits(gs->port) || atoi(gs->port) < 1 || atoi(gs->port) > 65535)
		return error("%s '%s': invalid port '%s' (1 to 65535)", gs->opt, arg, gs->port);
	return 0;
}

/* The agent's control (or time-sync) connection, over vsock or TCP. */
static int connect_agent(const struct guest *gs, const char *port, const char *what)
{
	if (gs->cid >= 0)
		return net_connect_vsock(gs->cid, strtoul(port, NULL, 10), what);
	return net_connect(gs->host, port, SOCK_STREAM, what);
}

static int check_name(const char *name)
{
	if (!*name || strchr(name, '/'))
		return error("invalid guest name '%s': it names a file, so no '/' and not empty", name);
	return 0;
}

static int add_guest(struct record_guests *g, const char *opt, const char *arg)
{
	struct guest *gs;

	g->g = xrealloc(g->g, (g->nr + 1) * sizeof(*g->g));
	gs = &g->g[g->nr++];
	memset(gs, 0, sizeof(*gs));
	gs->target = arg;
	gs->opt = opt;
	gs->peer.fd = -1;
	gs->sync.fd = -1;
	gs->cid = -1;
	gs->argv = xcalloc(NET_AGENT_MAX_ARGS + 1, sizeof(*gs->argv));
	g->current = g->nr - 1;
	if (parse_target(gs, arg) < 0 || check_name(gs->name) < 0)
		return -1;
	for (int i = 0; i < g->nr - 1; i++)
		if (!strcmp(g->g[i].name, gs->name))
			return error("%s '%s': a guest named '%s' is already traced (--name tells them apart)",
				     gs->opt, arg, gs->name);
	return 0;
}

int record_guests_proxy(struct record_guests *g, const char *arg)
{
	struct guest *gs;

	if (add_guest(g, "--proxy", arg) < 0)
		return -1;
	gs = &g->g[g->nr - 1];
	gs->proxy = 1;
	if (gs->cid < 0)
		return error("--proxy '%s': a vsock CID:PORT (the host's agent -P)", arg);
	return 0;
}

static int add_arg(struct guest *gs, const char *arg)
{
	if (gs->argc >= NET_AGENT_MAX_ARGS)
		return error("%s '%s': more than %d arguments for the agent", gs->opt, gs->target,
			     NET_AGENT_MAX_ARGS);
	gs->argv[gs->argc++] = arg;
	return 0;
}

/* The options after -A that describe the guest's recording (trace-cmd-record(1), -A). */
static const char *const guest_opts[128] = {
	['e'] = "-e", ['f'] = "-f", ['R'] = "-R", ['v'] = "-v", ['p'] = "-p", ['l'] = "-l",
	['n'] = "-n", ['g'] = "-g", ['O'] = "-O", ['T'] = "-T", ['M'] = "-M", ['C'] = "-C",
	['b'] = "-b", ['s'] = "-s", ['d'] = "-d", ['D'] = "-D", ['i'] = "-i",
};

int record_guests_option(struct record_guests *g, int opt, const char *arg, int is_name)
{
	struct guest *gs = g->current >= 0 ? &g->g[g->current] : NULL;

	if (opt == 'A')
		return add_guest(g, "-A", arg) < 0 ? -1 : 1;
	if (is_name) {
		if (!gs)
			return error("--name must follow an -A: it names that guest");
		free(gs->name);
		gs->name = xstrdup(arg);
		return check_name(arg) < 0 ? -1 : 1;
	}
	if (opt == 'B')
		g->current = -1;
	if (!gs || opt == 'B' || opt < 0 || opt >= 128 || !guest_opts[opt])
		return 0;
	/*
	 * 3.4 sends it, and its agent records raw TSC ticks beside the host's
	 * nanoseconds, synchronized by ptp or kvm as they are: no timeline.
	 */
	if (opt == 'C' && arg && !strcmp(arg, "tsc2nsec"))
		return error("%s %s: -C tsc2nsec: the guest's file would get no TSC conversion (3.4's agent writes none): record it on the TSC with -C x86-tsc",
			     gs->opt, gs->target);
	if (add_arg(gs, guest_opts[opt]) < 0 || (arg && add_arg(gs, arg) < 0))
		return -1;
	return 1;
}

/* --- asking the agent ---------------------------------------------------- */

/* 3.4 tells the guest the host's clock first; a -C of the guest's own wins. */
static int guest_args(struct guest *gs, const char *clock, const char ***argv)
{
	/* 3.4's record --proxy adds none: the agent -P picks its own. */
	int n = 0, has_clock = gs->proxy;

	for (int i = 0; i < gs->argc; i++)
		has_clock |= !strcmp(gs->argv[i], "-C");
	*argv = xcalloc(gs->argc + 3, sizeof(**argv));
	if (!has_clock) {
		(*argv)[n++] = "-C";
		(*argv)[n++] = clock;
	}
	memcpy(*argv + n, gs->argv, gs->argc * sizeof(**argv));
	return n + gs->argc;
}

/*
 * Before reading an answer: an agent that hangs up refused us (another -N
 * host, or busy), one that stays silent is stuck; say which.
 */
static int wait_answer(struct guest *gs, const char *what)
{
	struct pollfd pfd = { .fd = gs->peer.fd, .events = POLLIN };
	char c;
	int n;

	do {
		n = poll(&pfd, 1, gs->peer.timeout_ms);
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		return error("'%s': the agent did not answer %s within %d s", gs->target, what,
			     gs->peer.timeout_ms / 1000);
	if (n > 0 && recv(gs->peer.fd, &c, 1, MSG_PEEK) == 0)
		return error("'%s': the agent hung up without answering %s (it serves another host (agent -N), or is busy: see its log)",
			     gs->target, what);
	return 0;
}

/* What the agent chose: one of those offered, or none. */
static int guest_time_sync(struct guest *gs, int offered)
{
	char shown[PRINTABLE_SIZE(16)];

	if (!gs->resp.tsync_proto[0]) {
		log_info("'%s': no time synchronization%s: the guest's timestamps are its own clock's",
			 gs->target, offered ? " (the agent chose none)" : "");
		return 0;
	}
	if (!offered || (strcmp(gs->resp.tsync_proto, TSYNC_PTP) &&
			 (strcmp(gs->resp.tsync_proto, TSYNC_KVM) || !gs->kvm_dir)))
		return error("'%s': the agent chose time-sync protocol '%s', which was not offered",
			     gs->target, printable(shown, sizeof(shown), gs->resp.tsync_proto, 16));
	return 0;
}

/*
 * As 3.4's record: kvm first where the guest is a vsock one recording on the
 * TSC whose KVM settings this machine can read (the guest's TSC then maps
 * onto ours), ptp in any case; none with --tsync-interval < 0.
 */
static const char *tsync_offer(struct guest *gs, int argc, const char **argv, int offer)
{
	const char *clock = tsync_clock_arg(argc, argv);

	if (gs->proxy)
		return TSYNC_PTP "\0";
	if (!offer)
		return NULL;
	if (gs->cid >= 0 && clock && !strcmp(clock, "x86-tsc"))
		gs->kvm_dir = kvm_vm_dir(gs->cid);
	if (gs->kvm_dir)
		log_info("'%s': KVM's TSC settings of its vCPUs in %s: kvm time sync offered", gs->target,
			 gs->kvm_dir);
	return gs->kvm_dir ? TSYNC_KVM "\0" TSYNC_PTP "\0" : TSYNC_PTP "\0";
}

static int request(struct guest *gs, uint64_t host_id, const char *clock, int offer_ptp)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	const char **argv;
	int argc = guest_args(gs, clock, &argv), ret, cpus = 0;
	const char *protos = tsync_offer(gs, argc, argv, offer_ptp);

	/* --proxy: the agent samples our clock, one set per CPU of ours. */
	if (gs->proxy && (cpus = tfs_cpu_count()) < 1)
		ret = error("cannot count this machine's cpus in tracefs");
	else
		ret = net_send_trace_req(&gs->peer, host_id, argc, argv, protos, cpus);
	if (ret == 0)
		ret = wait_answer(gs, "TRACE_REQ");
	if (ret == 0)
		ret = net_recv_msg(&gs->peer, m);
	if (ret == 0)
		ret = net_parse_trace_resp(&gs->peer, m, &gs->resp, gs->ports);
	if (ret == 0 && (gs->resp.flags & 1))
		ret = error("'%s': the agent wants FIFOs, which were not offered", gs->target);
	if (ret == 0 && gs->proxy && strcmp(gs->resp.tsync_proto, TSYNC_PTP))
		ret = error("'%s': the agent -P chose no ptp time sync, which a proxy needs", gs->target);
	free(argv);
	free(m);
	return ret < 0 ? -1 : guest_time_sync(gs, offer_ptp || gs->proxy);
}

/* --- the guest's file ---------------------------------------------------- */

/* 3.4's name: the output's name without its extension, "-NAME.dat" after it. */
static char *guest_path(const char *output, const char *name)
{
	const char *base = strrchr(output, '/'), *dot;
	size_t len = strlen(output);
	char *path;

	base = base ? base + 1 : output;
	dot = strrchr(base, '.');
	if (dot && dot != base)
		len = dot - output;
	path = xmalloc(len + strlen(name) + 6);
	sprintf(path, "%.*s-%s.dat", (int)len, output, name);
	return path;
}

/*
 * The guest's file is written under a new name and renamed when complete;
 * finishing it reads back its header, so it is opened for reading too.
 */
static int open_guest_file(struct guest *gs)
{
	int fd;

	if (outfile_open(&gs->out, gs->path, NULL) < 0)
		return -1;
	gs->out_open = 1;
	if (!gs->out.tmp)
		return error("'%s': a guest's file must be a regular file", gs->path);
	fd = open(gs->out.tmp, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return error("cannot open '%s': %s", gs->out.tmp, strerror(errno));
	dup2(fd, gs->out.fd);
	close(fd);
	return 0;
}

/* SEND_DATA messages up to FIN_DATA, into the guest's new file. */
static int receive_header(struct guest *gs)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	int ret = 0;

	/* The agent sets its tracefs up first: a tracer under emulation takes seconds. */
	gs->peer.timeout_ms = HEADER_MS;
	net_set_deadline(&gs->peer, HEADER_MS, "the agent's file header");
	while (ret == 0) {
		uint32_t n;

		ret = wait_answer(gs, "with its file header");
		if (ret == 0)
			ret = net_recv_msg(&gs->peer, m);
		if (ret < 0 || m->cmd == NET_FIN_DATA)
			break;
		n = m->len - m->fixed_len;
		if (m->cmd != NET_SEND_DATA)
			ret = error("'%s': unexpected %s message (%u) in the agent's file header",
				    gs->target, net_cmd_name(m->cmd), m->cmd);
		else if (gs->meta_len + n > LISTEN_MAX_META)
			ret = error("'%s': the agent's file header is larger than %u MiB",
				    gs->target, LISTEN_MAX_META >> 20);
		else if (write_all(gs->out.fd, m->body + m->fixed_len, n) < 0)
			ret = error("cannot write '%s': %s", outfile_written(&gs->out), strerror(errno));
		gs->meta_len += n;
	}
	net_clear_deadline(&gs->peer);
	gs->peer.timeout_ms = NET_TIMEOUT_MS;
	free(m);
	return ret;
}

static int open_data(struct guest *gs)
{
	uint32_t cpus = gs->resp.cpus;

	gs->tmp = xcalloc(cpus, sizeof(*gs->tmp));
	gs->tmp_fds = xcalloc(cpus, sizeof(*gs->tmp_fds));
	gs->data_fds = xcalloc(cpus, sizeof(*gs->data_fds));
	for (uint32_t cpu = 0; cpu < cpus; cpu++)
		gs->tmp_fds[cpu] = gs->data_fds[cpu] = -1;
	for (uint32_t cpu = 0; cpu < cpus; cpu++) {
		gs->tmp[cpu] = xmalloc(strlen(gs->path) + 32);
		sprintf(gs->tmp[cpu], "%s.cpu%u.XXXXXX", gs->path, cpu);
		gs->tmp_fds[cpu] = mkostemp(gs->tmp[cpu], O_CLOEXEC);
		if (gs->tmp_fds[cpu] < 0) {
			int e = errno;

			free(gs->tmp[cpu]);
			gs->tmp[cpu] = NULL;
			return error("cannot create a temporary file beside '%s': %s", gs->path,
				     strerror(e));
		}
		gs->data_fds[cpu] = net_data_connect(gs->peer.fd, gs->ports[cpu], 1, cpu);
		if (gs->data_fds[cpu] < 0)
			return -1;
	}
	return 0;
}

static void close_data(struct guest *gs)
{
	for (uint32_t cpu = 0; gs->data_fds && cpu < gs->resp.cpus; cpu++) {
		if (gs->data_fds[cpu] >= 0)
			close(gs->data_fds[cpu]);
		gs->data_fds[cpu] = -1;
	}
}

/* The reading process: each channel's bytes into its file, until every one ended. */
static int read_channels(struct guest *gs)
{
	uint32_t cpus = gs->resp.cpus, open = cpus;
	struct pollfd *pfd = xcalloc(cpus, sizeof(*pfd));
	char *buf = xmalloc(1 << 16);
	int ret = 0;

	for (uint32_t cpu = 0; cpu < cpus; cpu++) {
		pfd[cpu].fd = gs->data_fds[cpu];
		pfd[cpu].events = POLLIN;
	}
	while (open && !ret) {
		if (poll(pfd, cpus, -1) < 0) {
			ret = errno == EINTR ? 0 : error("poll: %s", strerror(errno));
			continue;
		}
		for (uint32_t cpu = 0; cpu < cpus && !ret; cpu++) {
			ssize_t n;

			if (pfd[cpu].fd < 0 || !pfd[cpu].revents)
				continue;
			n = read(pfd[cpu].fd, buf, 1 << 16);
			if (n < 0 && errno != EINTR && errno != EAGAIN)
				ret = error("'%s': cannot read cpu %u data: %s", gs->target, cpu,
					    strerror(errno));
			if (n == 0) {
				pfd[cpu].fd = -1;
				open--;
			}
			if (n > 0 && write_all(gs->tmp_fds[cpu], buf, n) < 0)
				ret = error("cannot write '%s': %s", gs->tmp[cpu], strerror(errno));
		}
	}
	free(buf);
	free(pfd);
	return ret;
}

static int start_reader(struct guest *gs)
{
	fflush(NULL);
	gs->reader = fork();
	if (gs->reader < 0) {
		gs->reader = 0;
		return error("cannot fork: %s", strerror(errno));
	}
	if (gs->reader > 0)
		log_info("'%s': its data channels read by process %d", gs->target, (int)gs->reader);
	if (gs->reader == 0) {
		signal(SIGINT, SIG_IGN);	/* the host's Ctrl-C ends the recording, not the data */
		signal(SIGTERM, SIG_DFL);
		_exit(read_channels(gs) < 0 ? EXIT_FAILED : EXIT_OK);
	}
	close_data(gs);
	return 0;
}

/* When the agent took a time sync: its port, connected at once (3.4's agent waits for it). */
static int connect_tsync(struct guest *gs)
{
	char port[16];

	if (!gs->resp.tsync_proto[0])
		return 0;
	snprintf(port, sizeof(port), "%u", gs->resp.tsync_port);
	gs->sync.name = gs->target;
	gs->sync.timeout_ms = NET_TIMEOUT_MS;
	gs->sync.fd = connect_agent(gs, port, "the agent's time sync");
	return gs->sync.fd < 0 ? -1 : 0;
}

static int start_proxy_sync(struct guest *gs, const char *clock);

static int start_guest(struct guest *gs, const char *output, uint64_t host_id, const char *clock,
		       int offer_ptp)
{
	gs->peer.name = gs->target;
	gs->peer.timeout_ms = NET_TIMEOUT_MS;
	gs->peer.fd = connect_agent(gs, gs->port, "the agent");
	if (gs->peer.fd < 0 || request(gs, host_id, clock, offer_ptp) < 0 || connect_tsync(gs) < 0)
		return -1;
	/* --proxy: 3.4's agent -P samples our clock before it sends its header. */
	if (gs->proxy && start_proxy_sync(gs, clock) < 0)
		return -1;
	gs->path = guest_path(output, gs->name);
	if (open_guest_file(gs) < 0)
		return -1;
	if (receive_header(gs) < 0 || open_data(gs) < 0)
		return -1;
	return start_reader(gs);
}

/* --- time sync ----------------------------------------------------------- */

/* The version of the guest's file, from the header received ("\x17\x08\x44tracing" "7"). */
static int header_version(const struct guest *gs)
{
	char head[12] = "";

	if (pread(gs->out.fd, head, sizeof(head), 0) != sizeof(head) || head[11])
		return 0;
	return head[10] - '0';
}

static void *tsync_main(void *arg)
{
	struct guest *gs = arg;

	gs->tsync_status = tsync_host_run(gs->tsync, gs->tsync_interval, &gs->tsync_stop);
	return NULL;
}

/* --proxy: the roles reversed, we answer the agent's samples until its STOP. */
static void *proxy_sync_main(void *arg)
{
	struct guest *gs = arg;

	gs->tsync_status = tsync_guest_serve(&gs->sync, TSYNC_PTP, gs->sync_clock, &gs->tsync_stop);
	return NULL;
}

static int start_thread(struct guest *gs, void *(*fn)(void *))
{
	sigset_t all, old;
	int err;

	/* record's main thread takes the signals: its sigsuspend() waits on them. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&gs->tsync_thread, NULL, fn, gs);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		return error("'%s': cannot start the time-sync thread: %s", gs->target, strerror(err));
	gs->tsync_running = 1;
	return 0;
}

/* --proxy: the agent -P samples us, from now until its STOP at the end. */
static int start_proxy_sync(struct guest *gs, const char *clock)
{
	gs->sync_clock = clock;
	return start_thread(gs, proxy_sync_main);
}

/*
 * When the agent took ptp: a thread sampling until the recording ends.  A
 * version 6 file cannot take the option afterwards: the session is ended at
 * once, unsampled.
 */
static int start_tsync(struct guest *gs, long interval_ms, const char *clock)
{
	if (gs->sync.fd < 0 || gs->proxy)
		return 0;
	gs->tsync = tsync_host_new(&gs->sync, clock, gs->resp.cpus,
				   strcmp(gs->resp.tsync_proto, TSYNC_KVM) ? NULL : gs->kvm_dir);
	if (!gs->tsync)
		return -1;
	if (header_version(gs) != 7) {
		log_info("'%s': no time synchronization: the guest's file is version %d, which cannot take a TIME_SHIFT option afterwards",
			 gs->target, header_version(gs));
		tsync_host_stop(gs->tsync);
		tsync_host_free(gs->tsync);
		gs->tsync = NULL;
		return 0;
	}
	log_info("'%s': time synchronization with %s, every %ld ms", gs->target, gs->resp.tsync_proto,
		 interval_ms);
	gs->tsync_interval = interval_ms;
	return start_thread(gs, tsync_main);
}

/* Ends the sampling (a last sample, then STOP): 0 when it succeeded. */
static int stop_tsync(struct guest *gs)
{
	if (!gs->tsync_running)
		return 0;
	gs->tsync_stop = 1;
	pthread_join(gs->tsync_thread, NULL);
	gs->tsync_running = 0;
	return gs->tsync_status;
}

/* --proxy: the agent's STOP ends the thread, within its reads' timeouts. */
static int stop_tsync_wait(struct guest *gs)
{
	if (!gs->tsync_running)
		return -1;
	pthread_join(gs->tsync_thread, NULL);
	gs->tsync_running = 0;
	return gs->tsync_status;
}

struct closing {
	struct guest		*gs;
	uint64_t		host_id;
	const struct tsc_conv	*tsc;
};

static int add_closing(struct trace_output *out, void *ctx)
{
	const struct closing *c = ctx;
	size_t len;
	void *opt;
	int ret = 0;

	if (c->gs->tsync) {
		opt = tsync_time_shift_option(c->gs->tsync, c->host_id, &len);
		ret = trace_output_add_option(out, TRACE_OPT_TIME_SHIFT, opt, len);
		free(opt);
	}
	if (ret == 0 && c->tsc)
		ret = tsc_conv_add_option(c->tsc, out);
	return ret;
}

/*
 * The written guest file's last options: the samples' TIME_SHIFT, and with
 * --tsc2nsec this machine's TSC2NSEC, which turns the guest's times, once
 * on this machine's TSC, into its nanoseconds.
 */
static int write_closing(struct guest *gs, uint64_t host_id, const struct tsc_conv *tsc)
{
	struct closing c = { .gs = gs, .host_id = host_id, .tsc = tsc };

	if (!gs->tsync && !tsc)
		return 0;
	return append_options(gs->path, add_closing, &c);
}

int record_guests_start(struct record_guests *g, const char *output, uint64_t host_id,
			const char *clock, const struct tsc_conv *tsc)
{
	g->host_id = host_id;
	if (tsc) {
		g->tsc = *tsc;
		g->tsc_set = 1;
	}
	for (int i = 0; i < g->nr; i++)
		if (start_guest(&g->g[i], output, host_id, clock, g->tsync_interval >= 0) < 0)
			return -1;
	/* After every reader's fork: the threads are the record process's alone. */
	for (int i = 0; i < g->nr; i++)
		if (start_tsync(&g->g[i], g->tsync_interval, clock) < 0)
			return -1;
	return 0;
}

/* --- the end ------------------------------------------------------------- */

/* Waits up to @ms for the reader to finish: 0 when it read everything. */
static int wait_reader(struct guest *gs, int ms)
{
	int status = 0;
	pid_t got = 0;

	for (long long end = net_now_ms() + ms; net_now_ms() < end; usleep(20000)) {
		got = waitpid(gs->reader, &status, WNOHANG);
		if (got != 0)
			break;
	}
	if (got == 0) {
		kill(gs->reader, SIGTERM);
		waitpid(gs->reader, &status, 0);
		gs->reader = 0;
		return error("'%s': the agent's data channels did not end within %d s of CLOSE_RESP",
			     gs->target, ms / 1000);
	}
	gs->reader = 0;
	if (got < 0 || !WIFEXITED(status) || WEXITSTATUS(status))
		return error("'%s': reading the agent's cpu data failed", gs->target);
	return 0;
}

/* The agent hangs up once it has put its tracefs back: wait for that, a while. */
static void wait_hang_up(struct guest *gs)
{
	long long end = net_now_ms() + DRAIN_MS;
	char buf[256];

	for (;;) {
		struct pollfd pfd = { .fd = gs->peer.fd, .events = POLLIN };
		long long left = end - net_now_ms();

		if (left <= 0 || poll(&pfd, 1, left) <= 0 || read(gs->peer.fd, buf, sizeof(buf)) <= 0)
			break;
	}
}

/* The agent's last message after a CLOSE: CLOSE_RESP, read into @m. */
static int recv_close_resp(struct guest *gs, struct net_msg *m)
{
	int ret = net_recv_msg(&gs->peer, m);

	if (ret == 0 && m->cmd != NET_CLOSE_RESP)
		ret = error("'%s': expected CLOSE_RESP, got %s (%u)", gs->target,
			    net_cmd_name(m->cmd), m->cmd);
	return ret;
}

static int close_agent(struct guest *gs)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	int ret = net_send_msg(&gs->peer, NET_CLOSE, NULL, 0, NULL, 0);

	gs->peer.timeout_ms = CLOSE_RESP_MS;
	if (ret == 0)
		ret = wait_answer(gs, "CLOSE");
	if (ret == 0)
		ret = recv_close_resp(gs, m);
	free(m);
	return ret;
}

static int finish_file(struct guest *gs)
{
	struct listen_cpu *cpu = xcalloc(gs->resp.cpus, sizeof(*cpu));
	int ret = 0;

	for (uint32_t i = 0; i < gs->resp.cpus && !ret; i++) {
		struct stat st;

		if (fstat(gs->tmp_fds[i], &st) < 0)
			ret = error("cannot stat '%s': %s", gs->tmp[i], strerror(errno));
		cpu[i].fd = gs->tmp_fds[i];
		cpu[i].size = st.st_size;
	}
	if (ret == 0)
		ret = listen_finish_file(gs->out.fd, gs->meta_len, gs->path, gs->resp.cpus, cpu);
	free(cpu);
	if (ret == 0) {
		gs->out_open = 0;
		ret = outfile_commit(&gs->out);
	}
	gs->written = ret == 0;
	return ret;
}

#define PROXY_SHIFT_MAX		(1 << 20)	/* the TIME_SHIFT of 256 CPUs' samples fits */

/* The raw TIME_SHIFT option the agent -P sends after CONT: SEND_DATA up to FIN_DATA. */
static int receive_time_shift(struct guest *gs)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	unsigned char *buf = NULL;
	size_t len = 0;
	uint32_t size = 0;
	uint16_t id = 0;
	int ret = 0;

	while (ret == 0 && (ret = net_recv_msg(&gs->peer, m)) == 0 && m->cmd != NET_FIN_DATA) {
		uint32_t n = m->len - m->fixed_len;

		if (m->cmd != NET_SEND_DATA || len + n > PROXY_SHIFT_MAX) {
			ret = error("'%s': unexpected %s message (%u) for the time shift", gs->target,
				    net_cmd_name(m->cmd), m->cmd);
			break;
		}
		buf = xrealloc(buf, len + n);
		memcpy(buf + len, m->body + m->fixed_len, n);
		len += n;
	}
	if (ret == 0 && len >= 6) {
		memcpy(&id, buf, 2);
		memcpy(&size, buf + 2, 4);
	}
	if (ret == 0 && (len < 6 || id != TRACE_OPT_TIME_SHIFT || size != len - 6))
		ret = error("'%s': the agent's time shift is not one TIME_SHIFT option (%zu bytes)",
			    gs->target, len);
	if (ret == 0) {
		gs->time_shift = xmalloc(size);
		memcpy(gs->time_shift, buf + 6, size);
		gs->time_shift_len = size;
	}
	free(buf);
	free(m);
	return ret;
}

/*
 * --proxy's end: CLOSE; the agent ends the time sync (its STOP ends our
 * thread) and sends the rest of its file's metadata, which goes after its
 * header; CONT asks for the time shift; CLOSE_RESP ends it.
 */
static int close_proxy(struct guest *gs)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	int ret = net_send_msg(&gs->peer, NET_CLOSE, NULL, 0, NULL, 0);

	if (ret == 0)
		ret = receive_header(gs);
	if (stop_tsync_wait(gs) < 0 && ret == 0)
		ret = error("'%s': time sync with the agent -P failed", gs->target);
	if (ret == 0)
		ret = net_send_msg(&gs->peer, NET_CONT, NULL, 0, NULL, 0);
	if (ret == 0)
		ret = receive_time_shift(gs);
	if (ret == 0)
		ret = recv_close_resp(gs, m);
	free(m);
	return ret;
}

static int finish_guest(struct guest *gs, uint64_t host_id, const struct tsc_conv *tsc)
{
	int ret, synced = 1;

	if (!gs->reader)
		return -1;	/* never started */
	if (gs->proxy) {
		ret = close_proxy(gs);
	} else {
		synced = stop_tsync(gs) == 0;
		ret = close_agent(gs);
	}
	if (ret == 0)
		ret = wait_reader(gs, DRAIN_MS);
	if (ret == 0) {
		wait_hang_up(gs);
		ret = finish_file(gs);
	}
	/* A proxy's TIME_SHIFT came with its CLOSE_RESP (close_proxy). */
	if (gs->proxy)
		return ret;
	if (ret == 0 && gs->tsync && !synced)
		ret = error("'%s': time sync failed: '%s' has no TIME_SHIFT option", gs->target,
			    gs->path);
	else if (ret == 0)
		ret = write_closing(gs, host_id, tsc);
	return ret;
}

pid_t *record_guests_add_readers(const struct record_guests *g, pid_t *pids, int *nr)
{
	pids = xrealloc(pids, (*nr + g->nr + 1) * sizeof(*pids));
	for (int i = 0; i < g->nr; i++)
		if (g->g[i].reader > 0)
			pids[(*nr)++] = g->g[i].reader;
	return pids;
}

int record_guests_finish(struct record_guests *g)
{
	int ret = 0;

	for (int i = 0; g && i < g->nr; i++)
		if (finish_guest(&g->g[i], g->host_id, g->tsc_set ? &g->tsc : NULL) < 0)
			ret = -1;
	return ret;
}

/* GUEST (trace-cmd.dat.v7(5)): name, trace id, CPU count, each CPU's host task (-1: none known). */
int record_guests_add_options(const struct record_guests *g, struct trace_output *out)
{
	for (int i = 0; g && i < g->nr; i++) {
		const struct guest *gs = &g->g[i];
		/* --proxy: the agent's file is of its host, whose CPUs are none of ours. */
		uint32_t cpus = gs->proxy ? 0 : gs->resp.cpus;
		size_t name_len = strlen(gs->name) + 1, len = name_len + 12 + cpus * 8;
		unsigned char *buf, *p;
		int ret;

		if (!gs->written)
			continue;
		if (gs->time_shift &&
		    trace_output_add_option(out, TRACE_OPT_TIME_SHIFT, gs->time_shift,
					    gs->time_shift_len) < 0)
			return -1;
		buf = p = xmalloc(len);
		memcpy(p, gs->name, name_len);
		p += name_len;
		memcpy(p, &gs->resp.trace_id, 8);
		memcpy(p + 8, &cpus, 4);
		p += 12;
		for (uint32_t cpu = 0; cpu < cpus; cpu++, p += 8) {
			int32_t pid = -1;

			memcpy(p, &cpu, 4);
			memcpy(p + 4, &pid, 4);
		}
		ret = trace_output_add_option(out, TRACE_OPT_GUEST, buf, len);
		free(buf);
		if (ret < 0)
			return -1;
	}
	return 0;
}

void record_guests_free(struct record_guests *g)
{
	for (int i = 0; g && i < g->nr; i++) {
		struct guest *gs = &g->g[i];

		stop_tsync(gs);
		tsync_host_free(gs->tsync);
		if (gs->sync.fd >= 0)
			close(gs->sync.fd);
		if (gs->reader > 0) {
			kill(gs->reader, SIGTERM);
			waitpid(gs->reader, NULL, 0);
		}
		close_data(gs);
		for (uint32_t cpu = 0; gs->tmp && cpu < gs->resp.cpus; cpu++) {
			if (gs->tmp_fds[cpu] >= 0)
				close(gs->tmp_fds[cpu]);
			if (gs->tmp[cpu])
				unlink(gs->tmp[cpu]);
			free(gs->tmp[cpu]);
		}
		if (gs->out_open)
			outfile_abort(&gs->out);
		if (gs->peer.fd >= 0)
			close(gs->peer.fd);
		free(gs->time_shift);
		free(gs->tmp);
		free(gs->tmp_fds);
		free(gs->data_fds);
		free(gs->path);
		free(gs->kvm_dir);
		free(gs->name);
		free(gs->host);
		free(gs->port);
		free(gs->argv);
	}
	if (g)
		free(g->g);
	free(g);
}
