// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd listen: accepts `record -N` clients on a TCP port and forks one
 * process per client (trace-listen-client.c), which writes the client's
 * trace into NAME.HOST:PORT.dat.  The parent only accepts, limits, logs and
 * stops its children cleanly on SIGINT/SIGTERM.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <netdb.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "trace-cmd.h"
#include "trace-listen.h"
#include "trace-net.h"

#define DEFAULT_MAX_CLIENTS	64
#define MAX_MAX_CLIENTS		1024
/*
 * With every slot taken, a client still in its handshake or file header
 * this long gives way to a new one: a real client is through both in well
 * under a second, one that dawdles there holds a slot a new client needs.
 */
#define MAKE_ROOM_AFTER_MS	1000

extern const struct command cmd_listen;

static volatile sig_atomic_t listen_stopping;
static int log_fd = 1;
static int log_prefix;		/* "[PID]" before each line, in the -l file */

static const char listen_usage[] =
	"usage: trace-cmd listen -p PORT [-D] [-d DIR] [-l LOGFILE] [-o NAME] [--bind ADDR]\n"
	"                        [--max-clients N] [--timeout SECS] [--v1] [--verbose[=LEVEL]]\n"
	"                        [--debug]\n"
	"\n"
	"  -p, --port PORT    listen on TCP port PORT (required)\n"
	"  -D                 run as a daemon, detached, logging only to LOGFILE\n"
	"  -d DIR             write the received files into DIR (default: the current directory)\n"
	"  -l LOGFILE         append log lines to LOGFILE, each prefixed [PID], instead of stdout\n"
	"  -o NAME            name files NAME.HOST:PORT.dat instead of trace.HOST:PORT.dat\n"
	"  --bind ADDR        listen on the address ADDR only (default: all addresses)\n"
	"  --max-clients N    serve at most N clients at once (default: 64); when all are\n"
	"                     taken, cut the one longest (over 1 s) in its handshake or\n"
	"                     file header for a new client, else refuse it\n"
	"  --timeout SECS     give up on a client whose handshake takes this long, whose\n"
	"                     message once started takes this long, or silent this long\n"
	"                     between messages of its file header (default: 5)\n"
	"  --v1               refuse protocol v3, so clients fall back to protocol v1\n"
	"  --verbose[=LEVEL]  how much to say on stderr: none crit err warn (the default)\n"
	"                     info debug all, or 0 to 6; alone: info (each client's file\n"
	"                     header complete); debug: each control message\n"
	"  --debug            --verbose=debug, and each client served in the listener's own\n"
	"                     process, one at a time, not in a child (to run it in a debugger)\n"
	"  -h                 show this help\n";

enum { OPT_BIND = 256, OPT_MAX_CLIENTS, OPT_TIMEOUT, OPT_V1, OPT_VERBOSE, OPT_DEBUG };

static const struct option listen_options[] = {
	{ "bind",	 required_argument, NULL, OPT_BIND },
	{ "max-clients", required_argument, NULL, OPT_MAX_CLIENTS },
	{ "timeout",	 required_argument, NULL, OPT_TIMEOUT },
	{ "v1",		 no_argument,	    NULL, OPT_V1 },
	{ "port",	 required_argument, NULL, 'p' },
	{ "verbose",	 optional_argument, NULL, OPT_VERBOSE },
	{ "debug",	 no_argument,	    NULL, OPT_DEBUG },
	{ "help",	 no_argument,	    NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct listen_cfg {
	const char	*port;
	const char	*bind;
	const char	*dir;
	const char	*logfile;
	int		daemon;
	int		debug;		/* --debug: clients served in this process, one at a time */
	unsigned long	max_clients;
	struct listen_opts opts;
};

static void listen_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* One log line: "msg" on stdout, or "[PID]msg" in the -l file. */
static void listen_log(const char *fmt, ...)
{
	char line[1024];
	int n = 0;
	va_list ap;

	if (log_fd < 0)
		return;
	if (log_prefix)
		n = snprintf(line, sizeof(line), "[%d]", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n - 1, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* One write per line: clients log to the same file at once. */
	write_all(log_fd, line, n);
}

/* In a client with a log file, error() and warning() lines go to the log. */
static ssize_t log_cookie_write(void *cookie, const char *buf, size_t size)
{
	static char line[1024];
	static size_t len;

	(void)cookie;
	for (size_t i = 0; i < size; i++) {
		if (buf[i] == '\n' || len == sizeof(line) - 1) {
			line[len] = 0;
			listen_log("%s", line);
			len = 0;
			if (buf[i] == '\n')
				continue;
		}
		line[len++] = buf[i];
	}
	return size;
}

static void errors_to_log(void)
{
	cookie_io_functions_t io = { .write = log_cookie_write };
	FILE *f = fopencookie(NULL, "w", io);

	if (!f)
		return;
	setvbuf(f, NULL, _IOLBF, 0);
	stderr = f;
}

static void on_stop(int sig)
{
	(void)sig;
	listen_stopping = 1;
}

static void on_child(int sig)
{
	(void)sig;
}

static void set_handlers(void)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sa.sa_handler = on_child;
	sigaction(SIGCHLD, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
}

/* A client's process, as the accept loop sees it. */
struct kid {
	pid_t		pid;		/* 0: a free place */
	int		fd;		/* our copy of its connection while we may cut it, or -1 */
	int		leaving;	/* cut: it ends and no longer counts */
	long long	since;		/* when it connected */
};

/*
 * The clients' processes, with twice --max-clients places: those cut to make
 * room take a place until they have ended.  @slot, shared with the children,
 * has one entry per place.
 */
struct kids {
	struct kid	*kid;
	struct listen_slot *slot;
	unsigned long	size;
	unsigned long	nr;		/* served, not cut */
};

static int kids_init(struct kids *k, unsigned long max_clients)
{
	k->size = 2 * max_clients;
	k->nr = 0;
	k->slot = mmap(NULL, k->size * sizeof(*k->slot), PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (k->slot == MAP_FAILED)
		return error("cannot map memory shared with the clients: %s", strerror(errno));
	k->kid = xcalloc(k->size, sizeof(*k->kid));
	for (unsigned long i = 0; i < k->size; i++)
		k->kid[i].fd = -1;
	return 0;
}

static void drop_fd(struct kid *kid)
{
	if (kid->fd >= 0)
		close(kid->fd);
	kid->fd = -1;
}

static void kids_free(struct kids *k)
{
	for (unsigned long i = 0; i < k->size; i++)
		drop_fd(&k->kid[i]);
	free(k->kid);
	munmap(k->slot, k->size * sizeof(*k->slot));
}

/* The child: serve one client, leave with _exit so nothing of the parent runs. */
static void run_child(int lfd, int fd, struct kids *k, unsigned long place,
		      const struct listen_cfg *cfg, const sigset_t *old)
{
	close(lfd);
	/* Other clients' connections end when their own child closes them. */
	for (unsigned long i = 0; i < k->size; i++)
		if (i != place)
			drop_fd(&k->kid[i]);
	sigprocmask(SIG_SETMASK, old, NULL);
	if (log_prefix)
		errors_to_log();
	fflush(stdout);
	_exit(listen_client(fd, &(struct listen_client_env){
		.opts = &cfg->opts,
		.slot = &k->slot[place],
		.stopping = &listen_stopping,
		.log = listen_log,
	}));
}

/*
 * --debug, as upstream's: the client is served in the listener's process,
 * which a debugger follows; others wait in the backlog meanwhile.  The
 * signals are let in as a child has them, so SIGINT still ends the client.
 */
static void serve_here(int fd, const struct listen_cfg *cfg, struct listen_slot *slot,
		       const sigset_t *old)
{
	sigset_t blocked;
	int status;

	sigprocmask(SIG_SETMASK, old, &blocked);
	status = listen_client(fd, &(struct listen_client_env){
		.opts = &cfg->opts,
		.slot = slot,
		.stopping = &listen_stopping,
		.log = listen_log,
	});
	sigprocmask(SIG_SETMASK, &blocked, NULL);
	log_debug("the client was served in the listener's process (--debug), status %d", status);
}

/* Forgets the children that ended, and our copy of connections past their header. */
static void reap(struct kids *k)
{
	pid_t pid;

	while ((pid = waitpid(-1, NULL, WNOHANG)) > 0)
		for (unsigned long i = 0; i < k->size; i++)
			if (k->kid[i].pid == pid) {
				drop_fd(&k->kid[i]);
				k->nr -= !k->kid[i].leaving;
				k->kid[i].pid = 0;
				break;
			}
	for (unsigned long i = 0; i < k->size; i++)
		if (k->kid[i].pid && k->slot[i].settled)
			drop_fd(&k->kid[i]);
}

/*
 * Every slot is taken: cuts the connection of the client that has been the
 * longest in its handshake or file header, if it has been there a while.
 * Its child says so in the log and ends.  0 when a slot is free now.
 */
static int make_room(struct kids *k)
{
	long long oldest = net_now_ms() - MAKE_ROOM_AFTER_MS;
	struct kid *victim = NULL;
	unsigned long at = 0;

	for (unsigned long i = 0; i < k->size; i++) {
		struct kid *kid = &k->kid[i];

		if (kid->pid && !kid->leaving && kid->fd >= 0 && !k->slot[i].settled &&
		    kid->since <= oldest && (!victim || kid->since < victim->since)) {
			victim = kid;
			at = i;
		}
	}
	if (!victim)
		return -1;
	k->slot[at].cut = 1;
	shutdown(victim->fd, SHUT_RDWR);
	drop_fd(victim);
	victim->leaving = 1;
	k->nr--;
	return 0;
}

static long free_place(const struct kids *k)
{
	for (unsigned long i = 0; i < k->size; i++)
		if (!k->kid[i].pid)
			return i;
	return -1;
}

static void accept_one(int lfd, const struct listen_cfg *cfg, struct kids *k,
		       const sigset_t *old)
{
	int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	long place;
	pid_t pid;

	if (fd < 0) {
		if (errno != EINTR && errno != EAGAIN && errno != ECONNABORTED)
			listen_log("Error: cannot accept a connection: %s", strerror(errno));
		return;
	}
	place = free_place(k);
	if (place < 0 || (k->nr >= cfg->max_clients && make_room(k) < 0)) {
		char name[128] = "a client";

		net_peer_name(fd, name, sizeof(name));
		listen_log("Refused %s: already serving %lu clients (--max-clients)", name, k->nr);
		close(fd);
		return;
	}
	k->slot[place] = (struct listen_slot){ 0 };
	if (cfg->debug) {
		serve_here(fd, cfg, &k->slot[place], old);
		return;
	}
	pid = fork();
	if (pid == 0)
		run_child(lfd, fd, k, place, cfg, old);
	if (pid < 0) {
		listen_log("Error: cannot fork for a client: %s", strerror(errno));
		close(fd);
		return;
	}
	k->kid[place] = (struct kid){ .pid = pid, .fd = fd, .since = net_now_ms() };
	k->nr++;
}

static int serve(int lfd, const struct listen_cfg *cfg)
{
	struct kids k = { 0 };
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	if (kids_init(&k, cfg->max_clients) < 0)
		return EXIT_FAILED;
	sigprocmask(SIG_BLOCK, &block, &old);
	set_handlers();
	/* --debug serves here: its errors go where a child's would. */
	if (cfg->debug && log_prefix)
		errors_to_log();
	while (!listen_stopping) {
		struct pollfd pfd = { .fd = lfd, .events = POLLIN };

		reap(&k);
		/* Signals are delivered only while waiting here, so none is lost. */
		if (ppoll(&pfd, 1, NULL, &old) > 0)
			accept_one(lfd, cfg, &k, &old);
	}
	close(lfd);
	/* Each child finishes its file (or marks it incomplete) and leaves. */
	for (unsigned long i = 0; i < k.size; i++) {
		drop_fd(&k.kid[i]);
		if (k.kid[i].pid)
			kill(k.kid[i].pid, SIGTERM);
	}
	while (waitpid(-1, NULL, 0) > 0 || errno == EINTR)
		;
	kids_free(&k);
	return EXIT_OK;
}

static int become_daemon(void)
{
	int null = open("/dev/null", O_RDWR);
	pid_t pid;

	if (null < 0)
		return error("cannot open '/dev/null': %s", strerror(errno));
	fflush(stdout);
	pid = fork();
	if (pid < 0)
		return error("cannot fork: %s", strerror(errno));
	if (pid > 0)
		_exit(EXIT_OK);
	setsid();
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	close(null);
	if (log_fd == 1)
		log_fd = -1;
	return 0;
}

static int setup(struct listen_cfg *cfg)
{
	cfg->opts.dir_fd = open(cfg->dir ? cfg->dir : ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (cfg->opts.dir_fd < 0)
		return error("cannot open directory '%s': %s", cfg->dir ? cfg->dir : ".",
			     strerror(errno));
	if (faccessat(cfg->opts.dir_fd, ".", W_OK, AT_EACCESS) < 0)
		return error("cannot write into directory '%s': %s", cfg->dir ? cfg->dir : ".",
			     strerror(errno));
	if (cfg->logfile) {
		log_fd = open(cfg->logfile, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
		if (log_fd < 0)
			return error("cannot open log file '%s': %s", cfg->logfile,
				     strerror(errno));
		log_prefix = 1;
	}
	return 0;
}

/* parse_ulong() said what is wrong; the usage follows, as for any usage error. */
static int bad_number(void)
{
	fputs(listen_usage, stderr);
	return EXIT_USAGE;
}

static int parse_args(int argc, char **argv, struct listen_cfg *cfg)
{
	unsigned long v;
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hp:Dd:l:o:", listen_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_listen);
		case 'p':
			if (parse_ulong("-p", optarg, 1, 65535, &v) < 0)
				return bad_number();
			cfg->port = optarg;
			break;
		case 'D':
			cfg->daemon = 1;
			break;
		case 'd':
			cfg->dir = optarg;
			break;
		case 'l':
			cfg->logfile = optarg;
			break;
		case 'o':
			if (!*optarg || strchr(optarg, '/'))
				return usage_error(&cmd_listen,
						   "invalid -o value '%s': a file name prefix, without '/' (use -d for the directory)",
						   optarg);
			cfg->opts.prefix = optarg;
			break;
		case OPT_BIND:
			cfg->bind = optarg;
			break;
		case OPT_MAX_CLIENTS:
			if (parse_ulong("--max-clients", optarg, 1, MAX_MAX_CLIENTS,
					&cfg->max_clients) < 0)
				return bad_number();
			break;
		case OPT_TIMEOUT:
			if (parse_ulong("--timeout", optarg, 1, 3600, &v) < 0)
				return bad_number();
			cfg->opts.timeout_ms = v * 1000;
			break;
		case OPT_V1:
			cfg->opts.allow_v3 = 0;
			break;
		case OPT_VERBOSE:
			if (set_log_level("--verbose", optarg) < 0)
				return bad_number();
			break;
		case OPT_DEBUG:
			set_log_level("--debug", "debug");
			cfg->debug = 1;
			break;
		default:
			return option_error(&cmd_listen, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_listen, "unexpected argument '%s'", argv[optind]);
	if (!cfg->port)
		return usage_error(&cmd_listen, "-p PORT is required");
	return PARSE_RUN;
}

static int run_listen(int argc, char **argv)
{
	struct listen_cfg cfg = {
		.max_clients = DEFAULT_MAX_CLIENTS,
		.opts = { .prefix = "trace", .allow_v3 = 1, .timeout_ms = NET_TIMEOUT_MS },
	};
	int ret, lfd;

	if ((ret = parse_args(argc, argv, &cfg)) != PARSE_RUN)
		return ret;
	if (setup(&cfg) < 0)
		return EXIT_FAILED;
	lfd = net_listen_tcp(cfg.port, cfg.bind);
	if (lfd < 0)
		return EXIT_FAILED;
	if (cfg.daemon && become_daemon() < 0)
		return EXIT_FAILED;
	return serve(lfd, &cfg);
}

const struct command cmd_listen = {
	.name = "listen",
	.run = run_listen,
	.usage = listen_usage,
	.summary = "receive traces from record -N clients over the network",
};
