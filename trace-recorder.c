// SPDX-License-Identifier: GPL-2.0
/*
 * The per-CPU recorder child.  It sleeps in ppoll() until the kernel says the
 * CPU's buffer holds data (buffer_percent), splices whole pages through a pipe
 * into its output without copying them (a UDP socket gets one page per
 * datagram, by read), and at the stop signal drains the rest, including the
 * last partial page that only read() hands out.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
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

static volatile sig_atomic_t recorder_stopping;

static void on_stop(int sig)
{
	(void)sig;
	recorder_stopping = 1;
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
static ssize_t splice_ready(int in_fd, int pipe_fds[2], int out_fd, size_t chunk)
{
	ssize_t total = 0;

	for (;;) {
		ssize_t n = splice(in_fd, NULL, pipe_fds[1], NULL, chunk,
				   SPLICE_F_MOVE | SPLICE_F_NONBLOCK);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			return total;
		if (n < 0)
			return -1;
		if (n == 0)
			return total;
		if (pipe_to_out(pipe_fds[0], out_fd, n) < 0)
			return -1;
		total += n;
	}
}

/*
 * Pages by read() until the buffer is empty, each written whole (a short one
 * padded): the last partial page, which splice waits for, and every page for
 * a datagram socket, which gets one page per datagram.  Returns the pages
 * moved, or -1 with errno set.
 */
static ssize_t read_pages(int in_fd, int out_fd, size_t page_size)
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
		if (write_all(out_fd, page, page_size) < 0) {
			pages = -1;
			break;
		}
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

/* Whole pages ready now: by splice, or one datagram each by read. */
static ssize_t move_ready(int in_fd, int pipe_fds[2], int out_fd, size_t page_size,
			  size_t chunk, int datagram)
{
	if (datagram)
		return read_pages(in_fd, out_fd, page_size);
	return splice_ready(in_fd, pipe_fds, out_fd, chunk);
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

/* Everything the buffer holds now, whole pages by splice, the rest by read. */
static int drain(int cpu, int in_fd, int pipe_fds[2], int out_fd, size_t page_size, size_t chunk)
{
	if ((!is_datagram(out_fd) && splice_ready(in_fd, pipe_fds, out_fd, chunk) < 0) ||
	    read_pages(in_fd, out_fd, page_size) < 0)
		return record_failed(cpu, out_fd, "drain the buffer");
	return 0;
}

static int record_loop(int cpu, int in_fd, int pipe_fds[2], int out_fd, size_t page_size,
		       const sigset_t *wait_mask)
{
	struct timespec idle = { 0, RECORDER_IDLE_NSEC };
	struct pollfd pfd = { .fd = in_fd, .events = POLLIN };
	size_t chunk = page_size * 16;
	int pipe_size = fcntl(pipe_fds[1], F_GETPIPE_SZ);
	int idle_wait = 0, datagram = is_datagram(out_fd);

	if (pipe_size > 0 && (size_t)pipe_size > chunk)
		chunk = pipe_size - pipe_size % page_size;
	while (!recorder_stopping) {
		ssize_t n = move_ready(in_fd, pipe_fds, out_fd, page_size, chunk, datagram);

		if (n < 0)
			return record_failed(cpu, out_fd, "record");
		/*
		 * Readable without a whole page (buffer_percent 0): sleep a
		 * little instead of spinning.  Else sleep until the kernel wakes us.
		 * Either way the stop signal is only unblocked inside ppoll, so
		 * it can never slip in between the check and the sleep.
		 */
		if (idle_wait && n == 0)
			ppoll(NULL, 0, &idle, wait_mask);
		else
			idle_wait = ppoll(&pfd, 1, NULL, wait_mask) > 0;
	}
	return drain(cpu, in_fd, pipe_fds, out_fd, page_size, chunk);
}

/* Opens CPU @cpu's trace_pipe_raw and a pipe for splicing from it. */
static int open_cpu(int cpu, int *in_fd, int pipe_fds[2])
{
	char rel[64];
	char *path;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/trace_pipe_raw", cpu);
	path = tfs_path(rel);
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

int recorder_drain(int cpu, int out_fd, size_t page_size)
{
	int pipe_fds[2];
	int in_fd, ret;

	if (open_cpu(cpu, &in_fd, pipe_fds) < 0)
		return -1;
	ret = drain(cpu, in_fd, pipe_fds, out_fd, page_size, page_size * 16);
	close_cpu(in_fd, pipe_fds);
	return ret;
}

int recorder_run(int cpu, int out_fd, size_t page_size)
{
	sigset_t wait_mask;
	int pipe_fds[2];
	int in_fd, ret;

	if (open_cpu(cpu, &in_fd, pipe_fds) < 0)
		return -1;
	sigprocmask(SIG_BLOCK, NULL, &wait_mask);
	sigdelset(&wait_mask, RECORDER_STOP_SIGNAL);
	ret = record_loop(cpu, in_fd, pipe_fds, out_fd, page_size, &wait_mask);
	close_cpu(in_fd, pipe_fds);
	return ret;
}

/* In the child: signals as the recorder needs them, then record. */
static void child_main(int cpu, int out_fd, size_t page_size, pid_t parent)
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
	switch (recorder_run(cpu, out_fd, page_size)) {
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
			if (close_fds[i] != out_fd)
				close(close_fds[i]);
		child_main(cpu, out_fd, page_size, parent);
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
