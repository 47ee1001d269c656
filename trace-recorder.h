/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The per-CPU recorder: a child process that splices one CPU's ring buffer
 * (per_cpu/cpuN/trace_pipe_raw) into a file descriptor until told to stop,
 * then drains what is left.  Also counts the events in what it recorded.
 */
#ifndef TRACE_RECORDER_H
#define TRACE_RECORDER_H

#include <stddef.h>
#include <sys/types.h>

/* The signal the parent sends a recorder to make it drain and exit. */
#define RECORDER_STOP_SIGNAL SIGUSR1

struct tfs_instance;

/*
 * How a recorder waits and how much it keeps (record -s, --poll, -m).  All
 * zero: it sleeps until the kernel signals data and keeps everything.
 */
struct recorder_opts {
	unsigned long sleep_usecs;	/* -s: wake every USECS instead of waiting on the kernel */
	int busy_poll;		/* --poll: never wait on the kernel (sleeps -s between checks) */
	int no_splice;		/* --nosplice: read(2) and write(2) pages, no splice(2) */
	unsigned long long max_bytes;	/* -m: keep the newest max/2 to max bytes (0: all) */
	int spare_fd;		/* -m: a second file for the other half (unlinked) */
	struct tfs_instance *buffer;	/* the buffer whose CPUs are read (NULL: the top one) */
};

/*
 * -m: the recorder's other half, '@out_path.half', created and unlinked at
 * once so only the recorder's fd holds it.  The fd, or -1 after printing why.
 */
int recorder_open_spare(const char *out_path);

/* recorder_start() with the way to wait and the size limit of @opts. */
pid_t recorder_start_opts(int cpu, int out_fd, size_t page_size,
			  const struct recorder_opts *opts, const int *close_fds, int nr_close);

/*
 * Forks a recorder for CPU @cpu of the tracing directory (tfs_dir()) that
 * writes raw pages of @page_size bytes to @out_fd (a file, a pipe or a
 * socket).  @close_fds (count @nr_close) are closed in the child so it holds
 * nothing it does not need.  Returns the child's pid, or -1 after printing why.
 */
pid_t recorder_start(int cpu, int out_fd, size_t page_size,
		     const int *close_fds, int nr_close);

/*
 * Returned by recorder_run() and recorder_stop() when the output is a socket
 * its peer closed (a listener gone): nothing was printed, the caller says it.
 */
#define RECORDER_PEER_CLOSED		(-2)
#define RECORDER_EXIT_PEER_CLOSED	3	/* the child's exit status for it */

/*
 * Tells the recorder @pid to drain and exit, and waits for it.  Returns 0 if
 * it finished cleanly, RECORDER_PEER_CLOSED, the signal's number if it died
 * of one (nothing printed), or -1 if it failed (it printed why).
 */
int recorder_stop(pid_t pid);

/*
 * Runs a recorder in the calling process (what the child of recorder_start
 * does).  Returns when RECORDER_STOP_SIGNAL arrives and the buffer is drained:
 * 0, RECORDER_PEER_CLOSED, or -1 after printing why.  The signal must be
 * blocked on entry.
 */
int recorder_run(int cpu, int out_fd, size_t page_size, const struct recorder_opts *opts);

/*
 * Moves what CPU @cpu's buffer holds right now to @out_fd and returns, in
 * the calling process (for extract): 0, or -1 after printing why.
 */
int recorder_drain(int cpu, int out_fd, size_t page_size);

/*
 * Counts the events in a file of raw ring-buffer pages (@long_size is the
 * kernel's, 4 or 8; pages are in host byte order).  Returns 0 or -1.
 */
int recorder_count_events(int fd, size_t page_size, int long_size,
			  unsigned long long *events, unsigned long long *missed);

#endif
