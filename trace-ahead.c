// SPDX-License-Identifier: GPL-2.0
/*
 * The decompress-ahead worker (see trace-ahead.h): one thread, a queue of
 * jobs in the order asked, one lock and two conditions.
 */
#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

#include "trace-ahead.h"
#include "trace-cmd.h"
#include "trace-compress.h"

struct ahead {
	pthread_t		thread;
	pthread_mutex_t		lock;
	pthread_cond_t		work, done;
	struct ahead_job	*head, *tail;
	int			stop;
	struct inflater		z;		/* the worker's own */
};

static void *worker(void *arg)
{
	struct ahead *a = arg;

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
		pthread_mutex_unlock(&a->lock);
		failed = inflate_exact(&a->z, job->src, job->csize, job->dst, job->usize) != NULL;
		pthread_mutex_lock(&a->lock);
		/* release: a reader spinning in ahead_wait() sees the data with it */
		__atomic_store_n(&job->state, failed ? AHEAD_FAILED : AHEAD_DONE,
				 __ATOMIC_RELEASE);
		pthread_cond_broadcast(&a->done);
	}
	pthread_mutex_unlock(&a->lock);
	return NULL;
}

struct ahead *ahead_new(const char *comp_name)
{
	struct ahead *a;

	if (sysconf(_SC_NPROCESSORS_ONLN) < 2)
		return NULL;
	a = xcalloc(1, sizeof(*a));
	if (inflater_init(&a->z, comp_name) < 0) {
		free(a);
		return NULL;
	}
	pthread_mutex_init(&a->lock, NULL);
	pthread_cond_init(&a->work, NULL);
	pthread_cond_init(&a->done, NULL);
	if (pthread_create(&a->thread, NULL, worker, a)) {
		inflater_release(&a->z);
		free(a);
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
	pthread_cond_signal(&a->work);
	pthread_mutex_unlock(&a->lock);
	pthread_join(a->thread, NULL);
	pthread_mutex_destroy(&a->lock);
	pthread_cond_destroy(&a->work);
	pthread_cond_destroy(&a->done);
	inflater_release(&a->z);
	free(a);
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
 * A chunk takes the worker tens of microseconds; sleeping on the condition
 * and being woken costs about as much again here (two futex calls and two
 * context switches), so the reader first spins a little on the other core.
 */
#define SPIN_TRIES	2000

static void cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#endif
}

void ahead_wait(struct ahead *a, struct ahead_job *job)
{
	for (int i = 0; i < SPIN_TRIES; i++) {
		if (__atomic_load_n(&job->state, __ATOMIC_ACQUIRE) != AHEAD_QUEUED)
			return;
		cpu_relax();
	}
	pthread_mutex_lock(&a->lock);
	while (job->state == AHEAD_QUEUED)
		pthread_cond_wait(&a->done, &a->lock);
	pthread_mutex_unlock(&a->lock);
}
