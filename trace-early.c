// SPDX-License-Identifier: GPL-2.0
/*
 * Compressing early.  A v7 trace.dat holds each CPU's data as compressed
 * chunks of 10 pages; compressing them all once the command has exited
 * made record's finish of -e all (400 MB of data) slower than upstream's.
 * While the command runs, this thread takes every whole chunk below a
 * recorder file's size (what the recorder has written and will not touch
 * again), compresses it, and appends it in the file's own chunk format to
 * a file of its own, so the writer copies those and compresses only the
 * rest.  It sleeps while no chunk is ready; any failure only stops it, as
 * the recorders' files still hold every byte.
 */
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-compress.h"
#include "trace-dat.h"
#include "trace-early.h"
#include "trace-output.h"
#include "trace-worker.h"

/* How long the thread sleeps when no CPU has a whole chunk to compress. */
#define IDLE_MS		50

struct early_compress {
	struct compressor c;
	int nr_cpus;
	size_t chunk;
	const int *raw_fds;
	struct cpu_chunks *chunks;	/* per CPU: the file, how many, how far */
	char *buf;
	struct worker *worker;
	atomic_int stop;
	int failed;
	pthread_mutex_t lock;
	pthread_cond_t wake;
};

static int open_unnamed(const char *path)
{
	char *name = xmalloc(strlen(path) + 8);
	int fd;

	sprintf(name, "%s.early", path);
	fd = open(name, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd >= 0)
		unlink(name);	/* only this process needs it, even if it dies */
	free(name);
	return fd;
}

/* One chunk of @cpu's data: u32 compressed size, u32 size, the bytes. */
static int compress_chunk(struct early_compress *e, int cpu)
{
	struct cpu_chunks *cc = &e->chunks[cpu];
	uint32_t sizes[2];
	size_t dlen;
	void *dst;
	int ret;

	if (pread_all(e->raw_fds[cpu], e->buf, e->chunk, cc->raw) != (ssize_t)e->chunk ||
	    compressor_run(&e->c, e->buf, e->chunk, &dst, &dlen) < 0)
		return -1;
	sizes[0] = dlen;
	sizes[1] = e->chunk;
	ret = write_all(cc->fd, sizes, sizeof(sizes)) < 0 || write_all(cc->fd, dst, dlen) < 0;
	free(dst);
	if (ret)
		return -1;
	cc->nr++;
	cc->raw += e->chunk;
	return 0;
}

/*
 * What the recorder has written in whole pages.  A recorder killed in the
 * middle of a write leaves a part of a page, which record cuts off before
 * it drains the CPU into the same file: that part is not final.
 */
static uint64_t written_size(const struct early_compress *e, int fd)
{
	uint64_t page = e->chunk / TRACE_PAGES_IN_CHUNK;
	struct stat st;

	if (fstat(fd, &st) < 0)
		return 0;
	return (uint64_t)st.st_size - (uint64_t)st.st_size % page;
}

/* Every whole chunk ready on every CPU; 1 if there was one, -1 on failure. */
static int compress_ready(struct early_compress *e)
{
	int found = 0;

	for (int cpu = 0; cpu < e->nr_cpus; cpu++) {
		uint64_t size = written_size(e, e->raw_fds[cpu]);

		while (!atomic_load(&e->stop) && e->chunks[cpu].raw + e->chunk <= size) {
			if (compress_chunk(e, cpu) < 0)
				return -1;
			found = 1;
		}
	}
	return found;
}

static void idle(struct early_compress *e)
{
	struct timespec until;

	clock_gettime(CLOCK_REALTIME, &until);
	until.tv_nsec += IDLE_MS * 1000000L;
	if (until.tv_nsec >= 1000000000L) {
		until.tv_sec++;
		until.tv_nsec -= 1000000000L;
	}
	pthread_mutex_lock(&e->lock);
	if (!atomic_load(&e->stop))
		pthread_cond_timedwait(&e->wake, &e->lock, &until);
	pthread_mutex_unlock(&e->lock);
}

static void early_main(void *arg)
{
	struct early_compress *e = arg;

	while (!atomic_load(&e->stop)) {
		int found = compress_ready(e);

		if (found < 0) {
			e->failed = 1;
			break;
		}
		if (!found)
			idle(e);
	}
}

struct early_compress *early_start(int comp, int nr_cpus, const int *raw_fds,
				   char *const *paths, size_t chunk)
{
	struct early_compress *e = xcalloc(1, sizeof(*e));

	e->nr_cpus = nr_cpus;
	e->chunk = chunk;
	e->raw_fds = raw_fds;
	e->chunks = xcalloc(nr_cpus, sizeof(*e->chunks));
	e->buf = xmalloc(chunk);
	pthread_mutex_init(&e->lock, NULL);
	pthread_cond_init(&e->wake, NULL);
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		e->chunks[cpu].fd = -1;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		if ((e->chunks[cpu].fd = open_unnamed(paths[cpu])) < 0) {
			early_free(e);
			return NULL;
		}
	}
	if (compressor_init(&e->c, comp) < 0 || !(e->worker = worker_new(early_main, e))) {
		early_free(e);
		return NULL;
	}
	return e;
}

void early_go(struct early_compress *e)
{
	if (e)
		worker_go(e->worker);
}

const struct cpu_chunks *early_stop(struct early_compress *e)
{
	if (!e)
		return NULL;
	if (e->worker) {
		pthread_mutex_lock(&e->lock);
		atomic_store(&e->stop, 1);
		pthread_cond_signal(&e->wake);
		pthread_mutex_unlock(&e->lock);
		worker_join(e->worker);
		e->worker = NULL;
	}
	return e->failed ? NULL : e->chunks;
}

void early_free(struct early_compress *e)
{
	if (!e)
		return;
	early_stop(e);
	for (int cpu = 0; cpu < e->nr_cpus; cpu++) {
		if (e->chunks[cpu].fd >= 0)
			close(e->chunks[cpu].fd);
	}
	compressor_release(&e->c);
	pthread_mutex_destroy(&e->lock);
	pthread_cond_destroy(&e->wake);
	free(e->chunks);
	free(e->buf);
	free(e);
}
