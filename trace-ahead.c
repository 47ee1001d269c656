// SPDX-License-Identifier: GPL-2.0
/*
 * The decompress-ahead workers (see trace-ahead.h): a thread a CPU, each
 * with its own decompressor, taking jobs from one queue in the order asked;
 * one lock and two conditions.  -F EVENT on a v7 file does little but
 * decompress: with one thread, that thread was its bound.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "trace-ahead.h"
#include "trace-cmd.h"
#include "trace-compress.h"

#define MAX_AHEAD_THREADS	4

struct ahead_thread {
	struct ahead		*a;
	pthread_t		thread;
	struct inflater		z;		/* the thread's own */
};

struct ahead {
	struct ahead_thread	threads[MAX_AHEAD_THREADS];
	struct inflater		reader_z;	/* for the jobs the reader takes back */
	int			nr_threads;
	pthread_mutex_t		lock;
	pthread_cond_t		work, done;
	struct ahead_job	*head, *tail;
	int			stop;
};

static void finish_job(struct ahead_job *job, int failed)
{
	/* release: a reader spinning in ahead_wait() sees the data with it */
	__atomic_store_n(&job->state, failed ? AHEAD_FAILED : AHEAD_DONE, __ATOMIC_RELEASE);
}

static void *worker(void *arg)
{
	struct ahead_thread *t = arg;
	struct ahead *a = t->a;

	pthread_mutex_lock(&a->lock);
	while (!a->stop) {
		struct ahead_job *job = a->head;
		int failed;

		if (!job) {
			pthread_cond_wait(&a->work, &a->lock);
			continue;
		}
		a->head = job->next;
		if (!a->head)
			a->tail = NULL;
		__atomic_store_n(&job->state, AHEAD_RUNNING, __ATOMIC_RELAXED);
		pthread_mutex_unlock(&a->lock);
		failed = inflate_exact(&t->z, job->src, job->csize, job->dst, job->usize) != NULL;
		pthread_mutex_lock(&a->lock);
		finish_job(job, failed);
		pthread_cond_broadcast(&a->done);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

static void free_ahead(struct ahead *a)
{
	inflater_release(&a->reader_z);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->work);
	pthread_cond_destroy(&a->done);
	free(a);
}

/* A thread a CPU (up to MAX_AHEAD_THREADS): the reader mostly waits for them. */
struct ahead *ahead_new(const char *comp_name)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	struct ahead *a;

	if (cpus < 2)
		return NULL;
	a = xcalloc(1, sizeof(*a));
	if (inflater_init(&a->reader_z, comp_name) < 0) {
		free(a);
		return NULL;
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->work, NULL);
	pthread_cond_init(&a->done, NULL);
	for (; a->nr_threads < cpus && a->nr_threads < MAX_AHEAD_THREADS; a->nr_threads++) {
		struct ahead_thread *t = &a->threads[a->nr_threads];

		t->a = a;
		if (inflater_init(&t->z, comp_name) < 0)
			break;
		if (pthread_create(&t->thread, NULL, worker, t)) {
			inflater_release(&t->z);
			break;
		}
	}
	if (!a->nr_threads) {
		free_ahead(a);
		return NULL;
	}
	return a;
}

void ahead_free(struct ahead *a)
{
	if (!a)
		return;
	pthread_mutex_lock(&a->lock);
	a->stop = 1;
	pthread_cond_broadcast(&a->work);
	pthread_mutex_unlock(&a->lock);
	for (int i = 0; i < a->nr_threads; i++) {
		pthread_join(a->threads[i].thread, NULL);
		inflater_release(&a->threads[i].z);
	}
	free_ahead(a);
}

void ahead_queue(struct ahead *a, struct ahead_job *job)
{
	pthread_mutex_lock(&a->lock);
	job->state = AHEAD_QUEUED;
	job->next = NULL;
	if (a->tail)
		a->tail->next = job;
	else
		a->head = job;
	a->tail = job;
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->lock);
}

/*
 * A chunk takes a worker tens of microseconds; sleeping on the condition
 * and being woken costs about as much again here (two futex calls and two
 * context switches), so the reader spins a little on the other core for a
 * job a worker has started.
 */
#define SPIN_TRIES	200

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

/* Takes @job out of the queue if no worker has started it: 1 if so. */
static int take_back(struct ahead *a, struct ahead_job *job)
{
	struct ahead_job **link, *prev = NULL;

	if (job->state != AHEAD_QUEUED)
		return 0;
	for (link = &a->head; *link != job; link = &(*link)->next)
		prev = *link;
	*link = job->next;
	if (a->tail == job)
		a->tail = prev;
	return 1;
}

void ahead_wait(struct ahead *a, struct ahead_job *job)
{
	int mine;

	if (__atomic_load_n(&job->state, __ATOMIC_ACQUIRE) >= AHEAD_DONE)
		return;
	/*
	 * With two cores, the reader waiting while two workers share one
	 * other core was the bound of -F on a v7 file: it works instead.
	 */
	pthread_mutex_lock(&a->lock);
	mine = take_back(a, job);
	pthread_mutex_unlock(&a->lock);
	if (mine) {
		finish_job(job, inflate_exact(&a->reader_z, job->src, job->csize, job->dst,
					      job->usize) != NULL);
		return;
	}
	for (int i = 0; i < SPIN_TRIES; i++) {
		if (__atomic_load_n(&job->state, __ATOMIC_ACQUIRE) >= AHEAD_DONE)
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&a->lock);
	while (job->state < AHEAD_DONE)
		pthread_cond_wait(&a->done, &a->lock);
	pthread_mutex_unlock(&a->lock);
}
