// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU recorder child.  It sleeps in ppoll() until the kernel says the
 * CPU's buffer holds data (buffer_percent), or on a timer with -s, or not at
 * all with --poll; splices whole pages through a pipe into its output without
 * copying them (a UDP socket gets one page per datagram, by read); and at the
 * stop signal drains the rest, including the last partial page that only
 * read() hands out.  With -m it alternates between two files of half the
 * limit and joins them, older half first, at the end.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <netdb.h>
#include <time.h>
#include <unistd.h>

#include <traceevent/kbuffer.h>

#include "trace-cmd.h"
#include "trace-recorder.h"
#include "trace-tracefs.h"

/* Pipe capacity asked for: more pages per splice, fewer wake-ups. */
#define RECORDER_PIPE_SIZE	(1024 * 1024)
/*
 * The recorders' nice value.  A busy traced command (perf bench sched
 * messaging: 160 runnable tasks on 2 CPUs) leaves a nice-0 recorder so little
 * CPU that the kernel overwrites about 40% of the events; at -20 none are lost
 * (bench/record-loss), and the recorder still sleeps until there is data.
 */
#define RECORDER_NICE		(-20)
/* Sleep when the kernel says "readable" but has no whole page yet. */
#define RECORDER_IDLE_NSEC	(100 * 1000 * 1000)
/*
 * The kernel wakes a recorder only at buffer_percent of the buffer: without
 * a wake-up of our own, a record killed with SIGKILL would leave nothing in
 * its files for restore.  Each second the whole pages there are taken.
 */
#define RECORDER_FLUSH_SEC	1

static volatile sig_atomic_t recorder_stopping;

/*
 * Where the pages go.  Without -m, fd[0] only.  With -m, the current half
 * fills up to @half bytes, then the other one is emptied and takes over, so
 * the older half always holds the pages just before the current one's.
 */
struct recorder_out {
	int fd[2];
	int cur;		/* the half being written */
	uint64_t written;	/* bytes in fd[cur] */
	uint64_t half;		/* 0: no limit */
	unsigned long switches;
};

static void on_stop(int sig)
{
	(void)sig;
	recorder_stopping = 1;
}

/* -m: the other half, emptied, becomes the current one. */
static int out_switch(struct recorder_out *out)
{
	int next = !out->cur;

	if (ftruncate(out->fd[next], 0) < 0 || lseek(out->fd[next], 0, SEEK_SET) < 0)
		return -1;
	out->cur = next;
	out->written = 0;
	out->switches++;
	return 0;
}

/* How many of @len bytes (whole pages) may go in next: what fits in a half. */
static size_t out_room(const struct recorder_out *out, size_t len)
{
	uint64_t left = out->written >= out->half ? out->half : out->half - out->written;

	return out->half && left < len ? left : len;
}

/*
 * Before writing bytes already taken from the buffer: a full half makes the
 * other one current.  Only then, so an idle end never empties the older half.
 */
static int out_ready(struct recorder_out *out)
{
	if (out->half && out->written >= out->half)
		return out_switch(out);
	return 0;
}

/* Appends the whole of @from to the end of @to (both regular files). */
static int append_file(int from, int to)
{
	char buf[65536];
	loff_t off = 0;
	ssize_t n;

	if (lseek(to, 0, SEEK_END) < 0)
		return -1;
	while ((n = copy_file_range(from, &off, to, NULL, 1 << 30, 0)) > 0 ||
	       (n < 0 && errno == EINTR))
		;
	if (n == 0)
		return 0;
	if (errno != EXDEV && errno != EINVAL && errno != ENOSYS && errno != EOPNOTSUPP)
		return -1;
	/* A file system that cannot copy in the kernel: through user space. */
	while ((n = pread(from, buf, sizeof(buf), off)) > 0) {
		if (write_all(to, buf, n) < 0)
			return -1;
		off += n;
	}
	return n < 0 ? -1 : 0;
}

/*
 * -m at the end: fd[0] (the file the parent reads) gets the older half, then
 * the newer.  Both are at most half the limit, so this copy is bounded too.
 */
static int out_join(struct recorder_out *out)
{
	if (!out->switches)
		return 0;
	if (out->cur == 1)		/* fd[0] is the older half */
		return append_file(out->fd[1], out->fd[0]);
	/* fd[1] is older: older + newer into fd[1], then all of it into fd[0]. */
	if (append_file(out->fd[0], out->fd[1]) < 0 || ftruncate(out->fd[0], 0) < 0)
		return -1;
	return append_file(out->fd[1], out->fd[0]);
}

/* Moves everything in the pipe to @out_fd. */
static int pipe_to_out(int pipe_rd, int out_fd, size_t len)
{
	while (len) {
		ssize_t n = splice(pipe_rd, NULL, out_fd, NULL, len, SPLICE_F_MOVE);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -1;
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		len -= n;
	}
	return 0;
}

/*
 * Splices whole pages until the kernel has none ready.  Returns the bytes
 * moved, or -1 with errno set (EIO: the output side failed).
 */
static ssize_t splice_ready(int in_fd, int pipe_fds[2], struct recorder_out *out, size_t chunk)
{
	ssize_t total = 0;

	for (;;) {
		ssize_t n = splice(in_fd, NULL, pipe_fds[1], NULL, out_room(out, chunk),
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return total;
		if (n < 0)
			return -1;
		if (n == 0)
			return total;
		if (out_ready(out) < 0 || pipe_to_out(pipe_fds[0], out->fd[out->cur], n) < 0)
			return -1;
		out->written += n;
		total += n;
	}
}

/*
 * Pages by read() until the buffer is empty, each written whole (a short one
 * padded): the last partial page, which splice waits for, and every page for
 * a datagram socket, which gets one page per datagram.  Returns the pages
 * moved, or -1 with errno set.
 */
static ssize_t read_pages(int in_fd, struct recorder_out *out, size_t page_size)
{
	char *page = xmalloc(page_size);
	ssize_t pages = 0;

	for (;;) {
		ssize_t n = read(in_fd, page, page_size);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n < 0 && errno != EAGAIN)
				pages = -1;
			break;
		}
		memset(page + n, 0, page_size - n);
		if (out_ready(out) < 0 || write_all(out->fd[out->cur], page, page_size) < 0) {
			pages = -1;
			break;
		}
		out->written += page_size;
		pages++;
	}
	free(page);
	return pages;
}

/* UDP data channels (record -N): one page per datagram, so no splice. */
static int is_datagram(int fd)
{
	int type = 0;
	socklen_t len = sizeof(type);

	return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_DGRAM;
}

/* Whole pages ready now: by splice, or by read (one datagram each, or --nosplice). */
static ssize_t move_ready(int in_fd, int pipe_fds[2], struct recorder_out *out,
			  size_t page_size, size_t chunk, int by_read)
{
	if (by_read)
		return read_pages(in_fd, out, page_size);
	return splice_ready(in_fd, pipe_fds, out, chunk);
}

/*
 * One line for a failure, naming the listener when the output is a socket.
 * A listener that closed the socket is said once by record, not per CPU.
 */
static int record_failed(int cpu, int out_fd, const char *doing)
{
	struct sockaddr_storage addr;
	socklen_t len = sizeof(addr);
	char host[NI_MAXHOST], port[NI_MAXSERV];
	int err = errno;

	if ((err == EPIPE || err == ECONNRESET || err == ECONNREFUSED) &&
	    getpeername(out_fd, (struct sockaddr *)&addr, &len) == 0)
		return RECORDER_PEER_CLOSED;
	len = sizeof(addr);
	if (getpeername(out_fd, (struct sockaddr *)&addr, &len) == 0 &&
	    getnameinfo((struct sockaddr *)&addr, len, host, sizeof(host), port, sizeof(port),
			NI_NUMERICHOST | NI_NUMERICSERV) == 0)
		return error("cpu %d: cannot send data to '%s:%s': %s", cpu, host, port,
			     strerror(err));
	return error("cpu %d: cannot %s: %s", cpu, doing, strerror(err));
}

/*
 * Everything the buffer holds now, whole pages by splice, the rest by read;
 * all by read with @by_read (a datagram socket, --nosplice).
 */
static int drain(int cpu, int in_fd, int pipe_fds[2], struct recorder_out *out,
		 size_t page_size, size_t chunk, int by_read)
{
	int out_fd = out->fd[0];

	if ((!by_read && splice_ready(in_fd, pipe_fds, out, chunk) < 0) ||
	    read_pages(in_fd, out, page_size) < 0 || out_join(out) < 0)
		return record_failed(cpu, out_fd, "drain the buffer");
	return 0;
}

/*
 * Waits for more data.  By default until the kernel wakes us (readable at
 * buffer_percent) or a second has passed, or a little while if it says readable without a whole
 * page (buffer_percent 0) so we do not spin.  -s: a timer instead, and
 * --poll: no wait at all; neither makes the kernel send wake-ups.  The stop
 * signal is only unblocked inside ppoll, so it can never slip in between the
 * check and the sleep.  Returns whether the kernel said readable.
 */
static int wait_data(struct pollfd *pfd, const struct recorder_opts *opts, int idle,
		     const sigset_t *wait_mask)
{
	struct timespec ts = { 0, RECORDER_IDLE_NSEC };

	if (opts->sleep_usecs || opts->busy_poll) {
		ts.tv_sec = opts->sleep_usecs / 1000000;
		ts.tv_nsec = opts->sleep_usecs % 1000000 * 1000;
		ppoll(NULL, 0, &ts, wait_mask);
		return 0;
	}
	if (idle) {
		ppoll(NULL, 0, &ts, wait_mask);
		return 0;
	}
	ts.tv_sec = RECORDER_FLUSH_SEC;
	ts.tv_nsec = 0;
	return ppoll(pfd, 1, &ts, wait_mask) > 0;
}

static int record_loop(int cpu, int in_fd, int pipe_fds[2], struct recorder_out *out,
		       size_t page_size, const struct recorder_opts *opts,
		       const sigset_t *wait_mask)
{
	struct pollfd pfd = { .fd = in_fd, .events = POLLIN };
	size_t chunk = page_size * 16;
	int pipe_size = fcntl(pipe_fds[1], F_GETPIPE_SZ);
	int readable = 0, by_read = opts->no_splice || is_datagram(out->fd[0]);

	if (pipe_size > 0 && (size_t)pipe_size > chunk)
		chunk = pipe_size - pipe_size % page_size;
	log_info("cpu %d: recorder %d moves pages by %s", cpu, (int)getpid(),
		 by_read ? "read(2) and write(2)" : "splice(2)");
	while (!recorder_stopping) {
		ssize_t n = move_ready(in_fd, pipe_fds, out, page_size, chunk, by_read);

		if (n < 0)
			return record_failed(cpu, out->fd[0], "record");
		readable = wait_data(&pfd, opts, readable && n == 0, wait_mask);
	}
	return drain(cpu, in_fd, pipe_fds, out, page_size, chunk, by_read);
}

/* The output of @opts: @out_fd, and with -m its spare, each half whole pages. */
static void out_init(struct recorder_out *out, int out_fd, size_t page_size,
		     const struct recorder_opts *opts)
{
	memset(out, 0, sizeof(*out));
	out->fd[0] = out_fd;
	out->fd[1] = opts->spare_fd;
	if (opts->max_bytes && opts->spare_fd >= 0) {
		out->half = opts->max_bytes / 2 / page_size * page_size;
		if (out->half < page_size)
			out->half = page_size;
	}
}

/* Opens CPU @cpu's trace_pipe_raw of @buffer and a pipe for splicing from it. */
static int open_cpu(struct tfs_instance *buffer, int cpu, int *in_fd, int pipe_fds[2])
{
	char rel[64];
	char *path;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	path = tfs_path(buffer, rel);
	*in_fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	free(path);
	if (*in_fd < 0)
		return error("cannot open '%s': %s", rel, strerror(errno));
	if (pipe2(pipe_fds, O_CLOEXEC) < 0) {
		close(*in_fd);
		return error("cpu %d: cannot create a pipe: %s", cpu, strerror(errno));
	}
	/* A bigger pipe is an optimisation only; the default size works too. */
	fcntl(pipe_fds[1], F_SETPIPE_SZ, RECORDER_PIPE_SIZE);
	return 0;
}

static void close_cpu(int in_fd, int pipe_fds[2])
{
	close(pipe_fds[0]);
	close(pipe_fds[1]);
	close(in_fd);
}

static const struct recorder_opts default_opts = { .spare_fd = -1 };

int recorder_open_spare(const char *out_path)
{
	char *path = xmalloc(strlen(out_path) + sizeof(".half"));
	int fd;

	sprintf(path, "%s.half", out_path);
	fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		error("cannot create '%s': %s", path, strerror(errno));
	else
		unlink(path);
	free(path);
	return fd;
}

int recorder_drain(int cpu, int out_fd, size_t page_size)
{
	struct recorder_out out;
	int pipe_fds[2];
	int in_fd, ret;

	if (open_cpu(NULL, cpu, &in_fd, pipe_fds) < 0)
		return -1;
	out_init(&out, out_fd, page_size, &default_opts);
	ret = drain(cpu, in_fd, pipe_fds, &out, page_size, page_size * 16, is_datagram(out_fd));
	close_cpu(in_fd, pipe_fds);
	return ret;
}

int recorder_run(int cpu, int out_fd, size_t page_size, const struct recorder_opts *opts)
{
	struct recorder_out out;
	sigset_t wait_mask;
	int pipe_fds[2];
	int in_fd, ret;

	if (!opts)
		opts = &default_opts;
	if (open_cpu(opts->buffer, cpu, &in_fd, pipe_fds) < 0)
		return -1;
	out_init(&out, out_fd, page_size, opts);
	sigprocmask(SIG_BLOCK, NULL, &wait_mask);
	sigdelset(&wait_mask, RECORDER_STOP_SIGNAL);
	ret = record_loop(cpu, in_fd, pipe_fds, &out, page_size, opts, &wait_mask);
	close_cpu(in_fd, pipe_fds);
	return ret;
}

/* In the child: signals as the recorder needs them, then record. */
static void child_main(int cpu, int out_fd, size_t page_size, const struct recorder_opts *opts,
		       pid_t parent)
{
	struct sigaction sa = { .sa_handler = on_stop };

	sigemptyset(&sa.sa_mask);
	sigaction(RECORDER_STOP_SIGNAL, &sa, NULL);
	/* Ctrl-C reaches the whole group; the parent decides when we stop. */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	/* A listener that hung up is a write error with a message, not a silent death. */
	signal(SIGPIPE, SIG_IGN);
	/* If the parent dies, drain and leave rather than record forever. */
	prctl(PR_SET_PDEATHSIG, RECORDER_STOP_SIGNAL);
	if (getppid() != parent)
		recorder_stopping = 1;
	/* Without CAP_SYS_NICE this fails, and the recorder runs at the default. */
	setpriority(PRIO_PROCESS, 0, RECORDER_NICE);
	fflush(NULL);
	switch (recorder_run(cpu, out_fd, page_size, opts)) {
	case 0:
		_exit(0);
	case RECORDER_PEER_CLOSED:
		_exit(RECORDER_EXIT_PEER_CLOSED);
	}
	_exit(1);
}

pid_t recorder_start(int cpu, int out_fd, size_t page_size,
		     const int *close_fds, int nr_close)
{
	return recorder_start_opts(cpu, out_fd, page_size, &default_opts, close_fds, nr_close);
}

pid_t recorder_start_opts(int cpu, int out_fd, size_t page_size,
			  const struct recorder_opts *opts, const int *close_fds, int nr_close)
{
	sigset_t block, old;
	pid_t parent = getpid();
	pid_t pid;

	/* Blocked across fork so a stop sent right away is not lost. */
	sigemptyset(&block);
	sigaddset(&block, RECORDER_STOP_SIGNAL);
	sigprocmask(SIG_BLOCK, &block, &old);
	fflush(NULL);
	pid = fork();
	if (pid == 0) {
		for (int i = 0; i < nr_close; i++)
			if (close_fds[i] != out_fd && close_fds[i] != opts->spare_fd)
				close(close_fds[i]);
		child_main(cpu, out_fd, page_size, opts, parent);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		return error("cannot fork the recorder for cpu %d: %s", cpu, strerror(errno));
	return pid;
}

int recorder_stop(pid_t pid)
{
	int status;

	if (pid <= 0)
		return 0;
	kill(pid, RECORDER_STOP_SIGNAL);
	while (waitpid(pid, &status, 0) < 0) {
		if (errno != EINTR)
			return error("cannot wait for recorder %d: %s", (int)pid, strerror(errno));
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
		return 0;
	if (WIFEXITED(status) && WEXITSTATUS(status) == RECORDER_EXIT_PEER_CLOSED)
		return RECORDER_PEER_CLOSED;
	/* Killed from outside: the caller says which CPU, and can drain the rest. */
	if (WIFSIGNALED(status))
		return WTERMSIG(status);
	return -1;
}

int recorder_count_events(int fd, size_t page_size, int long_size,
			  unsigned long long *events, unsigned long long *missed)
{
	struct kbuffer *kbuf;
	char *page;
	int ret = 0;

	*events = *missed = 0;
	kbuf = kbuffer_alloc(long_size == 4 ? KBUFFER_LSIZE_4 : KBUFFER_LSIZE_8,
			     KBUFFER_ENDIAN_SAME_AS_HOST);
	if (!kbuf)
		return error("cannot count events: out of memory");
	page = xmalloc(page_size);
	if (lseek(fd, 0, SEEK_SET) < 0)
		ret = error("cannot count events: %s", strerror(errno));
	while (ret == 0) {
		ssize_t n = read_all(fd, page, page_size);

		if (n < 0)
			ret = error("cannot count events: %s", strerror(errno));
		if (n <= 0)
			break;
		if (kbuffer_load_subbuffer(kbuf, page) < 0)
			continue;
		if (kbuffer_missed_events(kbuf) > 0)
			*missed += kbuffer_missed_events(kbuf);
		for (void *e = kbuffer_read_event(kbuf, NULL); e; e = kbuffer_next_event(kbuf, NULL))
			(*events)++;
	}
	free(page);
	kbuffer_free(kbuf);
	return ret;
}
