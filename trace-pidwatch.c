// SPDX-License-Identifier: GPL-2.0
/*
 * Tasks followed to their end through pidfds: poll() says when each exits.
 * Where the kernel has no pidfd_open (before 5.3), kill(pid, 0) is asked
 * every tenth of a second instead.
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <unistd.h>
#include <sys/syscall.h>

#include "trace-cmd.h"
#include "trace-pidwatch.h"

#define PIDWATCH_POLL_NSEC	(100 * 1000 * 1000)

struct pidwatch {
	struct pollfd	*fds;	/* fd -1: that task has ended */
	pid_t		*pids;	/* the tasks kill() asks about, without pidfds */
	int		nr;
	int		no_pidfd;
};

static int pidfd_open_(pid_t pid)
{
#ifdef SYS_pidfd_open
	return syscall(SYS_pidfd_open, pid, 0);
#else
	(void)pid;
	errno = ENOSYS;
	return -1;
#endif
}

struct pidwatch *pidwatch_new(const char *const *pids, int nr)
{
	struct pidwatch *w = xcalloc(1, sizeof(*w));

	w->nr = nr;
	w->fds = xcalloc(nr ? nr : 1, sizeof(*w->fds));
	w->pids = xcalloc(nr ? nr : 1, sizeof(*w->pids));
	for (int i = 0; i < nr; i++) {
		w->pids[i] = atoi(pids[i]);
		w->fds[i].events = POLLIN;
		w->fds[i].fd = pidfd_open_(w->pids[i]);
		if (w->fds[i].fd < 0 && errno == ENOSYS)
			w->no_pidfd = 1;
	}
	return w;
}

/* Marks the tasks that have ended (their pidfd readable, or gone). */
static void reap(struct pidwatch *w)
{
	if (w->no_pidfd) {
		for (int i = 0; i < w->nr; i++)
			if (w->pids[i] && kill(w->pids[i], 0) < 0 && errno == ESRCH)
				w->pids[i] = 0;
		return;
	}
	if (poll(w->fds, w->nr, 0) <= 0)
		return;
	for (int i = 0; i < w->nr; i++)
		if (w->fds[i].fd >= 0 && (w->fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
			close(w->fds[i].fd);
			w->fds[i].fd = -1;
		}
}

int pidwatch_done(struct pidwatch *w)
{
	reap(w);
	for (int i = 0; i < w->nr; i++)
		if (w->no_pidfd ? w->pids[i] != 0 : w->fds[i].fd >= 0)
			return 0;
	return 1;
}

void pidwatch_wait(struct pidwatch *w, const struct timespec *timeout, const sigset_t *mask)
{
	struct timespec tick = { 0, PIDWATCH_POLL_NSEC };

	if (w->no_pidfd) {
		if (!timeout || timeout->tv_sec > 0 || timeout->tv_nsec > tick.tv_nsec)
			timeout = &tick;
		ppoll(NULL, 0, timeout, mask);
		return;
	}
	ppoll(w->fds, w->nr, timeout, mask);
}

void pidwatch_free(struct pidwatch *w)
{
	if (!w)
		return;
	for (int i = 0; i < w->nr; i++)
		if (w->fds[i].fd >= 0)
			close(w->fds[i].fd);
	free(w->fds);
	free(w->pids);
	free(w);
}
