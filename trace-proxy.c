// SPDX-License-Identifier: GPL-2.0
/*
 * agent -P's time sync (trace-proxy.h): upstream 3.4's proxy protocol, where
 * the agent plays ptp's host and the record --proxy its guest.
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "trace-cmd.h"
#include "trace-dat.h"
#include "trace-proxy.h"
#include "trace-record-net.h"
#include "trace-tsync.h"

#define PROXY_ACCEPT_MS		5000	/* the record connects right after TRACE_RESP */

struct proxy_tsync {
	int			lfd;		/* the time-sync port until the record connects */
	struct net_peer		peer;
	char			name[300];
	const char		*clock;
	int			cpus;		/* the record's */
	struct tsync_host	*host;
	pthread_t		thread;
	int			running;
	int			status;		/* the thread's: 0, or -1 after a message */
	volatile sig_atomic_t	stop;
};

/* The thread: the record's connection, then samples until stopped. */
static void *sync_main(void *arg)
{
	struct proxy_tsync *pt = arg;
	struct pollfd pfd = { .fd = pt->lfd, .events = POLLIN };

	pt->status = -1;
	if (poll(&pfd, 1, PROXY_ACCEPT_MS) > 0)
		pt->peer.fd = accept4(pt->lfd, NULL, NULL, SOCK_CLOEXEC);
	if (pt->peer.fd < 0) {
		error("'%s': the record did not connect for time sync within %d s", pt->name,
		      PROXY_ACCEPT_MS / 1000);
		return NULL;
	}
	pt->host = tsync_host_new(&pt->peer, pt->clock, pt->cpus, NULL);
	if (pt->host)
		pt->status = tsync_host_run(pt->host, 0, &pt->stop);
	return NULL;
}

/*
 * A time-sync port on the address of the control connection @control_fd
 * (its number in *@port), where a thread accepts the record and samples its
 * @record_cpus CPUs.
 */
static struct proxy_tsync *proxy_tsync_start(int control_fd, const char *name, const char *clock,
					     int record_cpus, unsigned int *port)
{
	struct proxy_tsync *pt = xcalloc(1, sizeof(*pt));
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	sigset_t all, old;
	int err;

	pt->peer.fd = -1;
	pt->peer.timeout_ms = NET_TIMEOUT_MS;
	pt->peer.name = pt->name;
	snprintf(pt->name, sizeof(pt->name), "%s", name);
	pt->clock = clock;
	pt->cpus = record_cpus;
	if (getsockname(control_fd, (struct sockaddr *)&local, &len) < 0) {
		error("'%s': cannot get the agent's address: %s", name, strerror(errno));
		goto fail;
	}
	pt->lfd = net_data_listen((struct sockaddr *)&local, len, 1, port);
	if (pt->lfd < 0)
		goto fail;
	/* The recording's main thread takes the signals. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	err = pthread_create(&pt->thread, NULL, sync_main, pt);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err) {
		error("'%s': cannot start the time-sync thread: %s", name, strerror(err));
		close(pt->lfd);
		goto fail;
	}
	pt->running = 1;
	return pt;
fail:
	free(pt);
	return NULL;
}

/* Stops the thread once: its status. */
static int stop_thread(struct proxy_tsync *pt)
{
	if (pt->running) {
		pt->stop = 1;
		pthread_join(pt->thread, NULL);
		pt->running = 0;
		close(pt->lfd);
	}
	return pt->status;
}

/* The raw option for the record: u16 TIME_SHIFT, u32 length, then the option naming @trace_id. */
static void *proxy_tsync_finish(void *arg, uint64_t trace_id, size_t *len)
{
	struct proxy_tsync *pt = arg;
	unsigned char *raw;
	void *opt;
	size_t opt_len;
	uint16_t id = TRACE_OPT_TIME_SHIFT;
	uint32_t size;

	if (stop_thread(pt) < 0 || !pt->host)
		return NULL;
	opt = tsync_time_shift_option(pt->host, trace_id, &opt_len);
	if (!opt)
		return NULL;
	size = opt_len;
	raw = xmalloc(opt_len + 6);
	memcpy(raw, &id, 2);
	memcpy(raw + 2, &size, 4);
	memcpy(raw + 6, opt, opt_len);
	free(opt);
	*len = opt_len + 6;
	return raw;
}

/*
 * record --proxy: ptp with the roles reversed, this agent sampling the
 * record's clock (trace-proxy.h), on the clock the agent records with.
 */
struct proxy_tsync *proxy_agent_start(int fd, const struct net_trace_req *req, const char *name,
				      const char *clock, struct net_trace_resp *resp)
{
	struct proxy_tsync *pt;
	unsigned int port = 0;

	if (!req->tsync_ptp) {
		error("'%s': its record --proxy offers no ptp time sync, which a proxy needs", name);
		return NULL;
	}
	pt = proxy_tsync_start(fd, name, clock, req->proxy_cpus, &port);
	if (!pt)
		return NULL;
	snprintf(resp->tsync_proto, sizeof(resp->tsync_proto), "%s", TSYNC_PTP);
	resp->tsync_port = port;
	return pt;
}


void proxy_agent_attach(struct proxy_tsync *pt, struct record_net *host, uint64_t record_trace_id)
{
	struct record_net_proxy proxy = {
		.trace_id = record_trace_id, .time_shift = proxy_tsync_finish, .arg = pt,
	};

	record_net_set_proxy(host, &proxy);
}

void proxy_tsync_free(struct proxy_tsync *pt)
{
	if (!pt)
		return;
	stop_thread(pt);
	tsync_host_free(pt->host);
	if (pt->peer.fd >= 0)
		close(pt->peer.fd);
	free(pt);
}
