// SPDX-License-Identifier: GPL-2.0
/*
 * run_for_stdout(): the work runs on a thread while this one waits in
 * poll() on the work's end and on stdout, which reports POLLERR (a pipe)
 * or POLLHUP (a socket) once nobody reads it.  Only where the next write
 * would raise SIGPIPE with its default action, so nothing a user sees
 * changes but the time.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-stdout.h"

struct job {
	void	*(*fn)(void *);
	void	*arg;
	int	done_fd;	/* written once fn has returned */
};

static void *run_job(void *arg)
{
	struct job *job = arg;

	job->fn(job->arg);
	while (write(job->done_fd, "", 1) < 0 && errno == EINTR)
		;
	return NULL;
}

/* stdout a pipe or socket, and SIGPIPE's action the default: it would end us. */
static int reader_can_end_us(void)
{
	struct sigaction sa;
	struct stat st;

	if (fstat(STDOUT_FILENO, &st) < 0 || !(S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode)))
		return 0;
	return sigaction(SIGPIPE, NULL, &sa) == 0 && sa.sa_handler == SIG_DFL;
}

static void wait_job(int done_fd)
{
	struct pollfd fds[2] = { { .fd = done_fd, .events = POLLIN },
				 { .fd = STDOUT_FILENO, .events = 0 } };
	int nfds = 2;

	for (;;) {
		if (poll(fds, nfds, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;	/* the caller's join waits instead */
		}
		if (fds[0].revents)
			return;
		if (fds[1].revents & (POLLERR | POLLHUP))
			raise(SIGPIPE);
		nfds = 1;	/* POLLNVAL, or SIGPIPE blocked: just wait */
	}
}

void run_for_stdout(void *(*fn)(void *), void *arg)
{
	struct job job = { .fn = fn, .arg = arg };
	pthread_t thread;
	int pipe_fds[2];

	if (!reader_can_end_us() || pipe2(pipe_fds, O_CLOEXEC) < 0) {
		fn(arg);
		return;
	}
	job.done_fd = pipe_fds[1];
	if (pthread_create(&thread, NULL, run_job, &job)) {
		fn(arg);
	} else {
		wait_job(pipe_fds[0]);
		pthread_join(thread, NULL);
	}
	close(pipe_fds[0]);
	close(pipe_fds[1]);
}
