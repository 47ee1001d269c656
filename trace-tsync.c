// SPDX-License-Identifier: GPL-2.0
/*
 * The "ptp" and "kvm" time syncs of record -A and its agent, both roles,
 * and the agent's process that serves them (see trace-tsync.h for the
 * exchanges).  Times come from raw markers written in an instance of our
 * own with the recording's trace clock and read back from its
 * trace_pipe_raw, so they are the times the trace's events carry; kvm's
 * host side reads KVM's settings instead (trace-tsync-kvm.c).
 */
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "trace-cmd.h"
#include "trace-page.h"
#include "trace-tracefs.h"
#include "trace-tsync.h"
#include "trace-tsync-kvm.h"

/* TIME_SYNC: char[16] protocol name, be32 command; then its payload. */
#define TSYNC_NAME_LEN		16
#define TSYNC_NONE		"none"
enum { SYNC_PROBE = 1, SYNC_STOP = 2 };			/* with "none" */
enum { PTP_START = 1, PTP_PROBE = 2, PTP_RESULTS = 3, PTP_OFFSET = 4, PTP_END = 5 };
/*
 * kvm: the guest's REQUEST carries its time; the host's RESPONSE that time
 * and the vCPU's offset, scaling and fraction bits: four s64 each, in the
 * sender's byte order (3.4's; kvm is x86's, so little-endian).
 */
enum { KVM_REQUEST = 1, KVM_RESPONSE = 2 };
#define KVM_MSG_LEN		32
#define PTP_FLAGS		3	/* upstream's: fastest response, times from markers */
/* RESULTS: be32 round, be32 count, then room for twice the probes of (be64 time, be32 n). */
#define PTP_RESULT_LEN		12
#define PTP_RESULTS_LEN		(8 + 2 * TSYNC_PTP_PROBES * PTP_RESULT_LEN)
#define MARK_SENT		's'
#define MARK_RECV		'r'

/* ---- messages ----------------------------------------------------------- */

static int sync_send(struct net_peer *p, const char *proto, uint32_t cmd, const void *payload,
		     uint32_t len)
{
	unsigned char fixed[TSYNC_NAME_LEN + 4] = { 0 };

	strncpy((char *)fixed, proto, TSYNC_NAME_LEN - 1);
	put_be32(fixed + TSYNC_NAME_LEN, cmd);
	return net_send_msg(p, NET_TIME_SYNC, fixed, sizeof(fixed), payload, len);
}

/* A TIME_SYNC of @proto and @cmd with at least @min payload bytes; its payload. */
static const unsigned char *sync_expect(struct net_peer *p, struct net_msg *m, const char *proto,
					uint32_t cmd, uint32_t min)
{
	char name[TSYNC_NAME_LEN + 1] = "";
	uint32_t got = 0;

	if (net_recv_msg(p, m) < 0)
		return NULL;
	if (m->cmd == NET_TIME_SYNC && m->fixed_len >= TSYNC_NAME_LEN + 4) {
		memcpy(name, m->body, TSYNC_NAME_LEN);
		got = get_be32(m->body + TSYNC_NAME_LEN);
		if (!strcmp(name, proto) && got == cmd && m->len - m->fixed_len >= min)
			return m->body + m->fixed_len;
	}
	error("'%s': time sync: expected %s command %u, got %s (%s %u, %u bytes)", p->name, proto,
	      cmd, net_cmd_name(m->cmd), *name ? name : "?", got, m->len);
	return NULL;
}

/* ---- marks: times on the trace clock ------------------------------------ */

struct tsync_marks {
	struct tfs_instance	*inst;
	int			fd;		/* its trace_marker_raw */
	unsigned int		raw_id;		/* ftrace's raw_data event */
	int			cpus;
	size_t			page_size;
};

static void marks_close(struct tsync_marks *mk)
{
	if (mk->fd >= 0)
		close(mk->fd);
	mk->fd = -1;
	if (mk->inst) {
		tfs_instance_destroy(mk->inst);
		tfs_instance_free(mk->inst);
	}
	mk->inst = NULL;
}

static int marks_open(struct tsync_marks *mk, const char *clock)
{
	char name[64], *path, *format = NULL, *id;

	memset(mk, 0, sizeof(*mk));
	mk->fd = -1;
	if (!tfs_dir())
		return -1;
	snprintf(name, sizeof(name), "trace-cmd-tsync-%d", (int)getpid());
	mk->inst = tfs_instance_alloc(name);
	if (!mk->inst || tfs_instance_create(mk->inst) < 0) {
		tfs_instance_free(mk->inst);
		mk->inst = NULL;
		return -1;
	}
	/* ftrace's own events have no id file: their format says "ID: N". */
	if (tfs_write_file(mk->inst, "trace_clock", clock) < 0 ||
	    tfs_read_file(NULL, "events/ftrace/raw_data/format", &format, NULL) < 0)
		goto fail;
	id = strstr(format, "\nID: ");
	if (!id || sscanf(id, "\nID: %u", &mk->raw_id) != 1) {
		error("time sync: no ID in the raw_data event's format");
		free(format);
		goto fail;
	}
	free(format);
	mk->cpus = tfs_cpu_count();
	mk->page_size = sysconf(_SC_PAGESIZE);
	path = tfs_path(mk->inst, "trace_marker_raw");
	mk->fd = open(path, O_WRONLY | O_CLOEXEC);
	if (mk->fd < 0)
		error("time sync: cannot open '%s': %s", path, strerror(errno));
	free(path);
	if (mk->fd >= 0)
		return 0;
fail:
	marks_close(mk);
	return -1;
}

static int marks_clear(struct tsync_marks *mk)
{
	return tfs_write_file(mk->inst, "trace", "");
}

/* A raw marker: u32 round (raw_data's id), then 0, 0, probe, kind as ints. */
static int mark(struct tsync_marks *mk, uint32_t round, uint32_t n, int kind)
{
	uint32_t buf[5] = { round, 0, 0, n, (uint32_t)kind };

	if (write(mk->fd, buf, sizeof(buf)) == sizeof(buf))
		return 0;
	return error("time sync: cannot write a marker: %s", strerror(errno));
}

/* The marks of one page: @sent and @recv (of @round) get their times. */
static void marks_of_page(const struct tsync_marks *mk, struct page_walk *w, uint32_t round,
			  uint64_t *sent, uint64_t *recv)
{
	/* page_walk_load() stood on the first event */
	for (const unsigned char *ev = page_walk_event(w); ev; ev = page_walk_next(w)) {
		uint32_t f[5];
		uint16_t type;

		memcpy(&type, ev, 2);
		if (type != mk->raw_id || w->next - w->index < 8 + sizeof(f))
			continue;
		memcpy(f, ev + 8, sizeof(f));
		if (f[0] != round || !f[3] || f[3] > TSYNC_PTP_PROBES)
			continue;
		if (f[4] == MARK_SENT)
			sent[f[3]] = w->ts;
		else if (f[4] == MARK_RECV)
			recv[f[3]] = w->ts;
	}
}

/* Reads every CPU's pages of the instance for the marks of @round. */
static int marks_collect(struct tsync_marks *mk, uint32_t round, uint64_t *sent, uint64_t *recv)
{
	size_t header = 8 + sizeof(long);
	unsigned char *page = xcalloc(1, mk->page_size + 8);
	struct page_walk w;

	if (page_walk_init(&w, page_walk_host_big_endian(), sizeof(long), 0) < 0) {
		free(page);
		return -1;
	}
	for (int cpu = 0; cpu < mk->cpus; cpu++) {
		char rel[64], *path;
		int fd;

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
		path = tfs_path(mk->inst, rel);
		fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		free(path);
		if (fd < 0)
			continue;	/* an offline CPU */
		while (read(fd, page, mk->page_size) > (ssize_t)header) {
			unsigned long commit;

			memcpy(&commit, page + 8, sizeof(commit));
			if ((commit & PAGE_COMMIT_MASK) > mk->page_size - header)
				continue;
			page_walk_load(&w, page);
			marks_of_page(mk, &w, round, sent, recv);
			memset(page, 0, mk->page_size);
		}
		close(fd);
	}
	page_walk_free(&w);
	free(page);
	return 0;
}

/* ---- the arithmetic ------------------------------------------------------ */

int tsync_ptp_offset(const uint64_t *guest_sent, const uint64_t *guest_recv,
		     const uint64_t *host_recv, struct tsync_sample *out)
{
	uint64_t best = UINT64_MAX;

	for (int n = 1; n <= TSYNC_PTP_PROBES; n++) {
		uint64_t trip;

		if (!guest_sent[n] || !host_recv[n] || guest_recv[n] < guest_sent[n])
			continue;
		trip = guest_recv[n] - guest_sent[n];
		if (trip >= best)
			continue;
		best = trip;
		out->time = guest_sent[n] + trip / 2;
		out->offset = (int64_t)(host_recv[n] - out->time);
		out->scaling = 1;
		out->frac = 0;
	}
	return best == UINT64_MAX ? -1 : 0;
}

const char *tsync_clock_of_args(int argc, const char *const *argv)
{
	const char *clock = tsync_clock_arg(argc, argv);

	/* -C tsc2nsec records on the TSC: so are the agent's marks. */
	if (clock && !strcmp(clock, "tsc2nsec"))
		return "x86-tsc";
	return clock ? clock : "local";
}

const char *tsync_clock_arg(int argc, const char *const *argv)
{
	const char *clock = NULL;

	for (int i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "-C") && i + 1 < argc)
			clock = argv[++i];
		else if (!strncmp(argv[i], "-C", 2) && argv[i][2])
			clock = argv[i] + 2;
	}
	return clock;
}

/* ---- the guest ----------------------------------------------------------- */

struct probe_times {
	uint64_t	sent[TSYNC_PTP_PROBES + 1];
	uint64_t	recv[TSYNC_PTP_PROBES + 1];
	uint64_t	host[TSYNC_PTP_PROBES + 1];
};

/* The host's RESULTS: its receive time of each probe. */
static int parse_results(struct net_peer *p, const unsigned char *pl, uint32_t len,
			 uint32_t round, uint64_t *host)
{
	uint32_t count = get_be32(pl + 4);

	if (get_be32(pl) != round || count > TSYNC_PTP_PROBES * 2 ||
	    8 + (uint64_t)count * PTP_RESULT_LEN > len)
		return error("'%s': time sync: bad RESULTS (round %u, %u times in %u bytes)",
			     p->name, get_be32(pl), count, len);
	for (uint32_t i = 0; i < count; i++) {
		const unsigned char *r = pl + 8 + i * PTP_RESULT_LEN;
		uint32_t n = get_be32(r + 8);

		if (n && n <= TSYNC_PTP_PROBES)
			host[n] = get_be64(r);
	}
	return 0;
}

/* The probes of one round, the guest's part. */
static int guest_probes(struct net_peer *p, struct net_msg *m, struct tsync_marks *mk,
			uint32_t round)
{
	for (uint32_t n = 1; n <= TSYNC_PTP_PROBES; n++) {
		unsigned char be[4];
		const unsigned char *pl;

		put_be32(be, n);
		if (mark(mk, round, n, MARK_SENT) < 0 || sync_send(p, TSYNC_PTP, PTP_PROBE, be, 4) < 0)
			return -1;
		pl = sync_expect(p, m, TSYNC_PTP, PTP_PROBE, 4);
		if (!pl)
			return -1;
		if (get_be32(pl) != n)
			return error("'%s': time sync: probe %u answered as %u", p->name, n,
				     get_be32(pl));
		if (mark(mk, round, n, MARK_RECV) < 0)
			return -1;
	}
	return 0;
}

/* One sample, on the CPU the host named. */
static int guest_round(struct net_peer *p, struct net_msg *m, struct tsync_marks *mk,
		       uint32_t round)
{
	struct probe_times *t = xcalloc(1, sizeof(*t));
	struct tsync_sample s;
	unsigned char start[8], off[16];
	const unsigned char *pl;
	int ret = -1;

	put_be32(start, round);
	put_be32(start + 4, PTP_FLAGS);
	if (marks_clear(mk) < 0 || sync_send(p, TSYNC_PTP, PTP_START, start, 8) < 0 ||
	    !sync_expect(p, m, TSYNC_PTP, PTP_START, 8) || guest_probes(p, m, mk, round) < 0 ||
	    sync_send(p, TSYNC_PTP, PTP_END, NULL, 0) < 0)
		goto out;
	pl = sync_expect(p, m, TSYNC_PTP, PTP_RESULTS, 8);
	if (!pl || parse_results(p, pl, m->len - m->fixed_len, round, t->host) < 0 ||
	    marks_collect(mk, round, t->sent, t->recv) < 0)
		goto out;
	if (tsync_ptp_offset(t->sent, t->recv, t->host, &s) < 0) {
		error("'%s': time sync: no probe of round %u has all its times", p->name, round);
		goto out;
	}
	put_be64(off, s.time);
	put_be64(off + 8, (uint64_t)s.offset);
	ret = sync_send(p, TSYNC_PTP, PTP_OFFSET, off, sizeof(off));
out:
	free(t);
	return ret;
}

/* kvm's sample: this CPU's time now, for the host to answer with the vCPU's TSC settings. */
static int guest_kvm_round(struct net_peer *p, struct net_msg *m, struct tsync_marks *mk,
			   uint32_t round)
{
	uint64_t sent[TSYNC_PTP_PROBES + 1] = { 0 }, recv[TSYNC_PTP_PROBES + 1];
	int64_t msg[4] = { 0 };

	if (marks_clear(mk) < 0 || mark(mk, round, 1, MARK_SENT) < 0 ||
	    marks_collect(mk, round, sent, recv) < 0)
		return -1;
	if (!sent[1])
		return error("'%s': time sync: the mark of round %u is not in the buffer", p->name, round);
	msg[0] = (int64_t)sent[1];
	if (sync_send(p, TSYNC_KVM, KVM_REQUEST, msg, sizeof(msg)) < 0 ||
	    !sync_expect(p, m, TSYNC_KVM, KVM_RESPONSE, KVM_MSG_LEN))
		return -1;
	return 0;
}

/* Runs one round pinned to @cpu (the guest CPU sampled), then unpinned. */
static int guest_round_on(struct net_peer *p, struct net_msg *m, struct tsync_marks *mk,
			  const char *proto, uint32_t round, unsigned int cpu)
{
	cpu_set_t old, one;
	int pinned, ret;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	pinned = cpu < CPU_SETSIZE && !sched_getaffinity(0, sizeof(old), &old) &&
		 !sched_setaffinity(0, sizeof(one), &one);
	ret = strcmp(proto, TSYNC_KVM) ? guest_round(p, m, mk, round) : guest_kvm_round(p, m, mk, round);
	if (pinned)
		sched_setaffinity(0, sizeof(old), &old);
	return ret;
}

/* Waits for the host's next request, or *@stop: 1 when one is there. */
static int wait_request(struct net_peer *p, volatile sig_atomic_t *stop)
{
	while (!*stop) {
		struct pollfd pfd = { .fd = p->fd, .events = POLLIN };

		if (poll(&pfd, 1, 200) > 0)
			return 1;
	}
	return 0;
}

int tsync_guest_serve(struct net_peer *p, const char *proto, const char *clock,
		      volatile sig_atomic_t *stop)
{
	struct net_msg *m = xmalloc(sizeof(*m));
	struct tsync_marks mk;
	uint32_t round = 0;
	int ret = -1;

	if (marks_open(&mk, clock) < 0) {
		free(m);
		return -1;
	}
	while (wait_request(p, stop)) {
		char name[TSYNC_NAME_LEN + 1] = "";
		uint32_t cmd;
		uint16_t cpu;

		if (net_recv_msg(p, m) < 0)
			break;
		if (m->cmd != NET_TIME_SYNC || m->fixed_len < TSYNC_NAME_LEN + 4) {
			error("'%s': time sync: expected TIME_SYNC, got %s", p->name,
			      net_cmd_name(m->cmd));
			break;
		}
		memcpy(name, m->body, TSYNC_NAME_LEN);
		cmd = get_be32(m->body + TSYNC_NAME_LEN);
		if (!strcmp(name, TSYNC_NONE) && cmd == SYNC_STOP) {
			ret = 0;
			break;
		}
		if (strcmp(name, TSYNC_NONE) || cmd != SYNC_PROBE || m->len - m->fixed_len < 2) {
			error("'%s': time sync: unexpected request %s %u", p->name, name, cmd);
			break;
		}
		/* The CPU is a u16 in the host's byte order: upstream's x86 hosts, little-endian. */
		cpu = m->body[m->fixed_len] | m->body[m->fixed_len + 1] << 8;
		if (guest_round_on(p, m, &mk, proto, ++round, cpu) < 0)
			break;
	}
	if (*stop)
		ret = 0;
	marks_close(&mk);
	free(m);
	return ret;
}

/* ---- the agent's time-sync process, beside its recording ---- */

#define TSYNC_ACCEPT_MS		5000	/* the host connects right after TRACE_RESP */
#define TSYNC_FINISH_MS		10000	/* its STOP comes as its recording ends */

static volatile sig_atomic_t tsync_stopping;

static void on_tsync_stop(int sig)
{
	tsync_stopping = sig;
}

/* The time-sync child: takes the host's connection on @lfd and answers it. */
static int tsync_child(int lfd, const char *proto, const char *clock, const char *name)
{
	struct sigaction sa = { .sa_handler = on_tsync_stop };
	struct pollfd pfd = { .fd = lfd, .events = POLLIN };
	struct net_peer peer = { .fd = -1, .timeout_ms = NET_TIMEOUT_MS, .name = name };
	int ret;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	if (poll(&pfd, 1, TSYNC_ACCEPT_MS) > 0)
		peer.fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	close(lfd);
	if (peer.fd < 0) {
		if (!tsync_stopping)
			error("'%s': the host did not connect for time sync within %d s", name,
			      TSYNC_ACCEPT_MS / 1000);
		return EXIT_FAILED;
	}
	ret = tsync_guest_serve(&peer, proto, clock, &tsync_stopping);
	close(peer.fd);
	return ret < 0 ? EXIT_FAILED : EXIT_OK;
}

pid_t tsync_guest_start(int fd, const struct net_trace_req *req, const char *name,
			unsigned int *port, const char **proto)
{
	struct sockaddr_storage local;
	socklen_t len = sizeof(local);
	int lfd;
	pid_t pid;

	/* kvm first, as 3.4's agent: a host offers it only where it reads KVM's settings. */
	*proto = req->tsync_kvm ? TSYNC_KVM : req->tsync_ptp ? TSYNC_PTP : NULL;
	if (!*proto || getsockname(fd, (struct sockaddr *)&local, &len) < 0)
		return 0;
	lfd = net_data_listen((struct sockaddr *)&local, len, 1, port);
	if (lfd < 0)
		return 0;
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		close(fd);
		exit(tsync_child(lfd, *proto, tsync_clock_of_args(req->argc, req->argv), name));
	}
	close(lfd);
	if (pid < 0) {
		error("cannot fork for time sync: %s", strerror(errno));
		return 0;
	}
	return pid;
}

void tsync_guest_finish(pid_t pid, int failed)
{
	long long end = net_now_ms() + (failed ? 0 : TSYNC_FINISH_MS);

	if (!pid)
		return;
	while (waitpid(pid, NULL, WNOHANG) == 0) {
		if (net_now_ms() >= end) {
			kill(pid, SIGTERM);
			waitpid(pid, NULL, 0);
			return;
		}
		poll(NULL, 0, 50);
	}
}

/* ---- the host ------------------------------------------------------------ */

struct cpu_samples {
	size_t			n, cap;
	struct tsync_sample	*s;
};

struct tsync_host {
	struct net_peer		*peer;
	struct net_msg		*m;
	struct tsync_marks	marks;
	int			cpus;		/* the guest's */
	struct cpu_samples	*per_cpu;
	uint64_t		*recv;		/* this round's marks, by probe */
	uint64_t		*unused;
	char			*kvm_dir;	/* kvm: the VM's KVM debugfs directory; NULL: ptp */
};

struct tsync_host *tsync_host_new(struct net_peer *peer, const char *clock, int guest_cpus,
				  const char *kvm_dir)
{
	struct tsync_host *h = xcalloc(1, sizeof(*h));

	h->peer = peer;
	h->cpus = guest_cpus;
	h->marks.fd = -1;
	/* kvm reads the host's side from KVM: no marks here. */
	if (guest_cpus < 1 || guest_cpus > NET_MAX_CPUS || (!kvm_dir && marks_open(&h->marks, clock) < 0)) {
		if (guest_cpus < 1 || guest_cpus > NET_MAX_CPUS)
			error("'%s': time sync: %d guest cpus", peer->name, guest_cpus);
		free(h);
		return NULL;
	}
	h->m = xmalloc(sizeof(*h->m));
	h->kvm_dir = kvm_dir ? xstrdup(kvm_dir) : NULL;
	h->per_cpu = xcalloc(guest_cpus, sizeof(*h->per_cpu));
	h->recv = xcalloc(TSYNC_PTP_PROBES + 1, sizeof(*h->recv));
	h->unused = xcalloc(TSYNC_PTP_PROBES + 1, sizeof(*h->unused));
	return h;
}

/* The host's part of the probes: mark each on arrival, echo it, until END. */
static int host_probes(struct tsync_host *h, uint32_t round)
{
	struct net_peer *p = h->peer;

	for (;;) {
		char name[TSYNC_NAME_LEN + 1] = "";
		uint32_t cmd, n;

		if (net_recv_msg(p, h->m) < 0)
			return -1;
		if (h->m->cmd != NET_TIME_SYNC || h->m->fixed_len < TSYNC_NAME_LEN + 4)
			return error("'%s': time sync: expected TIME_SYNC, got %s", p->name,
				     net_cmd_name(h->m->cmd));
		memcpy(name, h->m->body, TSYNC_NAME_LEN);
		cmd = get_be32(h->m->body + TSYNC_NAME_LEN);
		if (!strcmp(name, TSYNC_PTP) && cmd == PTP_END)
			return 0;
		if (strcmp(name, TSYNC_PTP) || cmd != PTP_PROBE || h->m->len - h->m->fixed_len < 4)
			return error("'%s': time sync: unexpected %s command %u", p->name, name, cmd);
		n = get_be32(h->m->body + h->m->fixed_len);
		if (mark(&h->marks, round, n, MARK_RECV) < 0 ||
		    sync_send(p, TSYNC_PTP, PTP_PROBE, h->m->body + h->m->fixed_len, 4) < 0)
			return -1;
	}
}

static int host_send_results(struct tsync_host *h, uint32_t round)
{
	unsigned char *pl = xcalloc(1, PTP_RESULTS_LEN);
	uint32_t count = 0;
	int ret;

	memset(h->recv, 0, (TSYNC_PTP_PROBES + 1) * sizeof(*h->recv));
	if (marks_collect(&h->marks, round, h->unused, h->recv) < 0) {
		free(pl);
		return -1;
	}
	for (uint32_t n = 1; n <= TSYNC_PTP_PROBES; n++) {
		unsigned char *r = pl + 8 + count * PTP_RESULT_LEN;

		if (!h->recv[n])
			continue;
		put_be64(r, h->recv[n]);
		put_be32(r + 8, n);
		count++;
	}
	put_be32(pl, round);
	put_be32(pl + 4, count);
	ret = sync_send(h->peer, TSYNC_PTP, PTP_RESULTS, pl, PTP_RESULTS_LEN);
	free(pl);
	return ret;
}

static void add_sample(struct cpu_samples *c, const struct tsync_sample *s)
{
	if (c->n == c->cap) {
		c->cap = c->cap ? c->cap * 2 : 8;
		c->s = xrealloc(c->s, c->cap * sizeof(*c->s));
	}
	c->s[c->n++] = *s;
}

/* kvm's sample of guest CPU @cpu: the guest's time, and that vCPU's settings now. */
static int host_kvm_sample(struct tsync_host *h, int cpu)
{
	struct tsync_sample s = { 0 };
	const unsigned char *pl = sync_expect(h->peer, h->m, TSYNC_KVM, KVM_REQUEST, KVM_MSG_LEN);
	int64_t msg[4];

	if (!pl || kvm_vcpu_shift(h->kvm_dir, cpu, &s) < 0)
		return -1;
	memcpy(msg, pl, sizeof(msg));
	s.time = (uint64_t)msg[0];
	msg[1] = s.offset;
	msg[2] = (int64_t)s.scaling;
	msg[3] = (int64_t)s.frac;
	if (sync_send(h->peer, TSYNC_KVM, KVM_RESPONSE, msg, sizeof(msg)) < 0)
		return -1;
	add_sample(&h->per_cpu[cpu], &s);
	return 0;
}

/* One sample of guest CPU @cpu. */
static int host_sample(struct tsync_host *h, int cpu)
{
	struct net_peer *p = h->peer;
	unsigned char req[2] = { cpu & 0xff, cpu >> 8 };	/* u16, little-endian as x86 sends it */
	const unsigned char *pl;
	struct tsync_sample s = { .scaling = 1 };
	uint32_t round;

	if (h->kvm_dir)
		return sync_send(p, TSYNC_NONE, SYNC_PROBE, req, 2) < 0 ? -1 : host_kvm_sample(h, cpu);
	if (marks_clear(&h->marks) < 0 || sync_send(p, TSYNC_NONE, SYNC_PROBE, req, 2) < 0)
		return -1;
	pl = sync_expect(p, h->m, TSYNC_PTP, PTP_START, 8);
	if (!pl)
		return -1;
	round = get_be32(pl);
	if (sync_send(p, TSYNC_PTP, PTP_START, pl, 8) < 0 || host_probes(h, round) < 0 ||
	    host_send_results(h, round) < 0)
		return -1;
	pl = sync_expect(p, h->m, TSYNC_PTP, PTP_OFFSET, 16);
	if (!pl)
		return -1;
	s.time = get_be64(pl);
	s.offset = (int64_t)get_be64(pl + 8);
	add_sample(&h->per_cpu[cpu], &s);
	return 0;
}

int tsync_host_sample_all(struct tsync_host *h)
{
	for (int cpu = 0; cpu < h->cpus; cpu++)
		if (host_sample(h, cpu) < 0)
			return -1;
	return 0;
}

int tsync_host_stop(struct tsync_host *h)
{
	return sync_send(h->peer, TSYNC_NONE, SYNC_STOP, NULL, 0);
}

/* Sleeps @ms, or until *@stop: 1 when stopped. */
static int nap(long ms, volatile sig_atomic_t *stop)
{
	long long end = net_now_ms() + ms;

	while (!*stop && (ms <= 0 || net_now_ms() < end))
		poll(NULL, 0, 50);
	return !!*stop;
}

int tsync_host_run(struct tsync_host *h, long interval_ms, volatile sig_atomic_t *stop)
{
	if (tsync_host_sample_all(h) < 0)
		return -1;
	while (!nap(interval_ms, stop))
		if (tsync_host_sample_all(h) < 0)
			return -1;
	if (tsync_host_sample_all(h) < 0)
		return -1;
	return tsync_host_stop(h);
}

size_t tsync_host_samples(const struct tsync_host *h, int cpu, const struct tsync_sample **s)
{
	*s = h->per_cpu[cpu].s;
	return h->per_cpu[cpu].n;
}

void *tsync_time_shift_option(const struct tsync_host *h, uint64_t host_trace_id, size_t *len)
{
	size_t size = 16, at = 0;
	unsigned char *buf;
	uint32_t u32;

	for (int cpu = 0; cpu < h->cpus; cpu++)
		size += 4 + h->per_cpu[cpu].n * 4 * 8;
	buf = xmalloc(size);
#define PUT(v) (memcpy(buf + at, &(v), sizeof(v)), at += sizeof(v))
	PUT(host_trace_id);
	u32 = TSYNC_FLAG_INTERPOLATE;
	PUT(u32);
	u32 = h->cpus;
	PUT(u32);
	for (int cpu = 0; cpu < h->cpus; cpu++) {
		const struct cpu_samples *c = &h->per_cpu[cpu];

		u32 = c->n;
		PUT(u32);
		for (size_t i = 0; i < c->n; i++)
			PUT(c->s[i].time);
		for (size_t i = 0; i < c->n; i++)
			PUT(c->s[i].offset);
		for (size_t i = 0; i < c->n; i++)
			PUT(c->s[i].scaling);
	}
	for (int cpu = 0; cpu < h->cpus; cpu++)
		for (size_t i = 0; i < h->per_cpu[cpu].n; i++)
			PUT(h->per_cpu[cpu].s[i].frac);
#undef PUT
	*len = at;
	return buf;
}

void tsync_host_free(struct tsync_host *h)
{
	if (!h)
		return;
	marks_close(&h->marks);
	free(h->kvm_dir);
	for (int cpu = 0; cpu < h->cpus; cpu++)
		free(h->per_cpu[cpu].s);
	free(h->per_cpu);
	free(h->recv);
	free(h->unused);
	free(h->m);
	free(h);
}
