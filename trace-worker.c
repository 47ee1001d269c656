// SPDX-License-Identifier: GPL-2.0
/*
 * record's helper threads.  A thread's syscalls are traced like any task's
 * unless its id is in set_event_notrace_pid, so each is made (and its id
 * learnt) before record writes that list, and parked until the command has
 * been forked: a fork while another thread may hold a lock is best avoided.
 */
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-worker.h"

struct worker {
	void (*fn)(void *arg);
	void *arg;
	pthread_t thread;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	pid_t tid;		/* 0 until the thread has said it */
	int go;			/* 1: run fn, -1: leave without running it */
};

static void *worker_main(void *p)
{
	struct worker *w = p;
	int go;

	/* Below the recorders: a recorder kept waiting for a CPU loses events. */
	setpriority(PRIO_PROCESS, gettid(), 19);
	pthread_mutex_lock(&w->lock);
	w->tid = gettid();
	pthread_cond_broadcast(&w->cond);
	while (!w->go)
		pthread_cond_wait(&w->cond, &w->lock);
	go = w->go;
	pthread_mutex_unlock(&w->lock);
	if (go > 0)
		w->fn(w->arg);
	return NULL;
}

struct worker *worker_new(void (*fn)(void *arg), void *arg)
{
	struct worker *w = xcalloc(1, sizeof(*w));
	sigset_t all, old;
	int ret;

	w->fn = fn;
	w->arg = arg;
	pthread_mutex_init(&w->lock, NULL);
	pthread_cond_init(&w->cond, NULL);
	/* record's main thread takes the signals. */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	ret = pthread_create(&w->thread, NULL, worker_main, w);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (ret) {
		pthread_mutex_destroy(&w->lock);
		pthread_cond_destroy(&w->cond);
		free(w);
		return NULL;
	}
	pthread_mutex_lock(&w->lock);
	while (!w->tid)
		pthread_cond_wait(&w->cond, &w->lock);
	pthread_mutex_unlock(&w->lock);
	return w;
}

static void release(struct worker *w, int go)
{
	pthread_mutex_lock(&w->lock);
	if (!w->go)
		w->go = go;
	pthread_cond_broadcast(&w->cond);
	pthread_mutex_unlock(&w->lock);
}

void worker_go(struct worker *w)
{
	release(w, 1);
}

void worker_join(struct worker *w)
{
	if (!w)
		return;
	/*
	 * Whoever waits for it now needs it done: at nice 19 beside a busy
	 * program it would get a few percent of a CPU.
	 */
	setpriority(PRIO_PROCESS, w->tid, getpriority(PRIO_PROCESS, gettid()));
	release(w, -1);
	pthread_join(w->thread, NULL);
	pthread_mutex_destroy(&w->lock);
	pthread_cond_destroy(&w->cond);
	free(w);
}
