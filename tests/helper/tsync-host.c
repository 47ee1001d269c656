// SPDX-License-Identifier: GPL-2.0
/*
 * A test driver for the host's side of time sync (trace-tsync.c): plays
 * record -A against an agent (ours or upstream's) just far enough to sync.
 *
 *   tsync-host [--interval MSEC] [--run MSEC] [--option FILE] HOST PORT
 *
 * Sends TRACE_REQ ("-C local -e initcall", offering ptp), takes TRACE_RESP,
 * connects its time-sync port and data ports (drained meanwhile), samples
 * every guest CPU at once, every --interval and after --run, sends STOP and
 * CLOSE.  Prints each sample as "cpu N time T offset O", and writes the
 * TIME_SHIFT option it makes (host trace id 1) to FILE.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/time.h>

#include "trace-cmd.h"
#include "trace-net.h"
#include "trace-tsync.h"

struct resp {
	uint32_t	cpus;
	char		proto[17];
	int		tsync_port;
	int		ports[NET_MAX_CPUS];
};

static volatile sig_atomic_t run_over;
static int drain_fds[NET_MAX_CPUS + 1];
static int drain_count;

static uint32_t be32_at(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return ntohl(v);
}

static int send_req(struct net_peer *p)
{
	static const char args[] = "-C\0local\0-e\0initcall";
	unsigned char fixed[16] = { 0 }, pl[128], *at = pl;
	uint32_t v;

	fixed[15] = 1;					/* trace id 1 */
	v = htonl(0); memcpy(at, &v, 4); at += 4;	/* ARGS */
	v = htonl(4 + sizeof(args)); memcpy(at, &v, 4); at += 4;
	v = htonl(4); memcpy(at, &v, 4); at += 4;	/* argc */
	memcpy(at, args, sizeof(args)); at += sizeof(args);
	v = htonl(1); memcpy(at, &v, 4); at += 4;	/* TSYNC_PROTOS */
	v = htonl(5); memcpy(at, &v, 4); at += 4;
	memcpy(at, "ptp\0", 5); at += 5;
	return net_send_msg(p, NET_TRACE_REQ, fixed, sizeof(fixed), pl, at - pl);
}

static int recv_resp(struct net_peer *p, struct resp *r)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	const char *port;
	int ret = -1;

	if (net_recv_msg(p, m) < 0)
		goto out;
	if (m->cmd != NET_TRACE_RESP || m->fixed_len < 40) {
		error("expected TRACE_RESP, got %s", net_cmd_name(m->cmd));
		goto out;
	}
	r->cpus = be32_at(m->body + 4);
	memcpy(r->proto, m->body + 20, 16);
	r->tsync_port = be32_at(m->body + 36);
	port = (const char *)m->body + m->fixed_len;
	for (uint32_t i = 0; i < r->cpus && i < NET_MAX_CPUS; i++) {
		r->ports[i] = atoi(port);
		port += strlen(port) + 1;
	}
	ret = r->cpus && r->cpus <= NET_MAX_CPUS ? 0 : error("bad cpu count %u", r->cpus);
out:
	free(m);
	return ret;
}

/* Reads and drops what the agent sends on the control and data connections. */
static void *drain(void *unused)
{
	char buf[65536];

	(void)unused;
	while (!run_over) {
		struct pollfd pfd[NET_MAX_CPUS + 1];

		for (int i = 0; i < drain_count; i++)
			pfd[i] = (struct pollfd){ .fd = drain_fds[i], .events = POLLIN };
		if (poll(pfd, drain_count, 100) <= 0)
			continue;
		for (int i = 0; i < drain_count; i++)
			if (pfd[i].revents && read(drain_fds[i], buf, sizeof(buf)) <= 0)
				drain_fds[i] = -1;
	}
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
	run_over = 1;
}

static void print_samples(struct tsync_host *h, uint32_t cpus)
{
	for (uint32_t cpu = 0; cpu < cpus; cpu++) {
		const struct tsync_sample *s;
		size_t n = tsync_host_samples(h, cpu, &s);

		for (size_t i = 0; i < n; i++)
			printf("cpu %u time %llu offset %lld\n", cpu, (unsigned long long)s[i].time,
			       (long long)s[i].offset);
	}
}

static int write_option(struct tsync_host *h, const char *file)
{
	size_t len;
	void *opt = tsync_time_shift_option(h, 1, &len);
	int fd = open(file, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	int ret = fd >= 0 && write_all(fd, opt, len) == (ssize_t)len ? 0 : -1;

	if (fd >= 0)
		close(fd);
	free(opt);
	return ret;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "interval", required_argument, NULL, 'i' },
		{ "run", required_argument, NULL, 'r' },
		{ "option", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 }
	};
	long interval = 0, run_ms = 500;
	const char *option = NULL;
	struct net_peer ctl = { .timeout_ms = NET_TIMEOUT_MS, .name = "agent" };
	struct net_peer sync = { .timeout_ms = NET_TIMEOUT_MS, .name = "agent (time sync)" };
	struct tsync_host *h = NULL;
	struct resp r = { 0 };
	pthread_t drainer;
	char port[16];
	int c, ret = 1;

	while ((c = getopt_long(argc, argv, "", longopts, NULL)) != -1) {
		if (c == 'i')
			interval = atol(optarg);
		else if (c == 'r')
			run_ms = atol(optarg);
		else if (c == 'o')
			option = optarg;
		else
			return 2;
	}
	if (argc - optind != 2)
		return fprintf(stderr, "usage: tsync-host [--interval MS] [--run MS] [--option FILE] HOST PORT\n"), 2;
	signal(SIGPIPE, SIG_IGN);
	ctl.fd = net_connect(argv[optind], argv[optind + 1], SOCK_STREAM, "the agent");
	if (ctl.fd < 0 || send_req(&ctl) < 0 || recv_resp(&ctl, &r) < 0)
		return 1;
	if (strcmp(r.proto, TSYNC_PTP))
		return error("the agent answered time sync '%s', not ptp", r.proto), 1;
	snprintf(port, sizeof(port), "%d", r.tsync_port);
	sync.fd = net_connect(argv[optind], port, SOCK_STREAM, "the time-sync port");
	drain_fds[drain_count++] = ctl.fd;
	for (uint32_t cpu = 0; cpu < r.cpus; cpu++)
		drain_fds[drain_count++] = net_data_connect(ctl.fd, r.ports[cpu], 1, cpu);
	pthread_create(&drainer, NULL, drain, NULL);
	signal(SIGALRM, on_alarm);
	setitimer(ITIMER_REAL, &(struct itimerval){ .it_value = { run_ms / 1000, run_ms % 1000 * 1000 } },
		  NULL);
	h = sync.fd >= 0 ? tsync_host_new(&sync, "local", r.cpus, NULL) : NULL;
	if (h && tsync_host_run(h, interval, &run_over) == 0) {
		print_samples(h, r.cpus);
		ret = option && write_option(h, option) < 0;
	}
	run_over = 1;
	pthread_join(drainer, NULL);
	net_send_msg(&ctl, NET_CLOSE, NULL, 0, NULL, 0);
	/* until the agent hangs up: it finishes its file first */
	for (char buf[4096]; read(ctl.fd, buf, sizeof(buf)) > 0;)
		;
	tsync_host_free(h);
	return ret;
}
