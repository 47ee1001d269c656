// SPDX-License-Identifier: GPL-2.0
/*
 * Ordered output from several threads (trace-parallel.h): a ring of batches,
 * filled by the producing thread, formatted by whichever thread takes them
 * first (the producer too, rather than wait), written by the producer in the
 * order they were filled.  The ring bounds the memory whatever the input.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-parallel.h"

#define RING		8	/* batches filled, queued, formatting or waiting to be written */
#define ALIGN8(n)	(((n) + 7) & ~(size_t)7)

enum { ENTRY_TEXT, ENTRY_JOB };
enum { B_FILLING, B_QUEUED, B_TAKEN, B_DONE };

/* Each entry of a batch's input: this header, then len bytes, padded to 8. */
struct entry {
	uint32_t	kind;
	uint32_t	len;
};

/* A job only the producer could format: its text goes at out offset @at. */
struct hole {
	size_t		at;
	const void	*job;
};

struct batch {
	struct jbuf	in;		/* entries, as appended */
	int		nr_jobs;
	struct jbuf	out;		/* the text, once formatted */
	struct hole	*holes;
	int		nr_holes, cap_holes;
	int		state;
};

struct par_out {
	const struct par_ops *ops;
	void		*arg;
	FILE		*stream;
	int		batch_jobs;
	pthread_mutex_t	lock;
	pthread_cond_t	queued, done;	/* a batch to take; a batch formatted */
	struct batch	ring[RING];
	/* Batches head..tail-1 are queued, taken or done; ring[tail % RING] fills. */
	unsigned long	head, tail;
	int		stop;
	int		direct;		/* write(2) to the stream's file, past its buffer */
	int		nr_workers;	/* threads running */
	int		nr_ctx;		/* states made: one a thread asked for */
	pthread_t	*threads;
	void		**ctx;		/* each worker's state */
	void		*own_ctx;	/* the producer's, for the batches it formats */
	struct jbuf	fallback;
};

static void *append_entry(struct par_out *po, int kind, size_t size)
{
	struct batch *b = &po->ring[po->tail % RING];
	struct entry *e;

	jbuf_reserve(&b->in, sizeof(*e) + ALIGN8(size));
	e = (struct entry *)(b->in.data + b->in.len);

	e->kind = kind;
	e->len = size;
	b->in.len += sizeof(*e) + ALIGN8(size);
	return e + 1;
}

static void add_hole(struct batch *b, const void *job)
{
	if (b->nr_holes == b->cap_holes) {
		b->cap_holes = b->cap_holes ? 2 * b->cap_holes : 16;
		b->holes = xrealloc(b->holes, sizeof(*b->holes) * b->cap_holes);
	}
	b->holes[b->nr_holes].at = b->out.len;
	b->holes[b->nr_holes++].job = job;
}

/* Runs in whichever thread took @b, with that thread's @ctx. */
static void format_batch(struct par_out *po, struct batch *b, void *ctx)
{
	size_t pos = 0;

	while (pos < b->in.len) {
		const struct entry *e = (const struct entry *)(b->in.data + pos);
		const void *body = e + 1;

		if (e->kind == ENTRY_TEXT)
			jbuf_put(&b->out, body, e->len);
		else if (po->ops->format(ctx, body, &b->out) < 0)
			add_hole(b, body);
		pos += sizeof(*e) + ALIGN8(e->len);
	}
}

/* The oldest queued batch, marked taken, or NULL.  Under the lock. */
static struct batch *take_queued(struct par_out *po)
{
	for (unsigned long i = po->head; i != po->tail; i++) {
		struct batch *b = &po->ring[i % RING];

		if (b->state == B_QUEUED) {
			b->state = B_TAKEN;
			return b;
		}
	}
	return NULL;
}

struct worker_start {
	struct par_out	*po;
	void		*ctx;
};

static void *worker_main(void *arg)
{
	struct par_out *po = ((struct worker_start *)arg)->po;
	void *ctx = ((struct worker_start *)arg)->ctx;
	struct batch *b;

	free(arg);
	pthread_mutex_lock(&po->lock);
	for (;;) {
		while (!(b = take_queued(po)) && !po->stop)
			pthread_cond_wait(&po->queued, &po->lock);
		if (!b)
			break;
		pthread_mutex_unlock(&po->lock);
		format_batch(po, b, ctx);
		pthread_mutex_lock(&po->lock);
		b->state = B_DONE;
		pthread_cond_broadcast(&po->done);
	}
	pthread_mutex_unlock(&po->lock);
	return NULL;
}

/*
 * A batch's bytes go to the stream's file directly: copying a report's
 * hundreds of megabytes through stdio's buffer cost the producer a tenth
 * of its time.  After a failed write, the rest goes through stdio, whose
 * own write then fails and leaves the error for the exit status.
 */
static void write_out(struct par_out *po, const char *data, size_t len)
{
	while (len && po->direct) {
		ssize_t n = write(fileno(po->stream), data, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			po->direct = 0;
		else
			data += n, len -= n;
	}
	if (len)
		fwrite_unlocked(data, 1, len, po->stream);
}

/* The producer writes a formatted batch: its text, the holes filled in. */
static void write_batch(struct par_out *po, struct batch *b)
{
	size_t pos = 0;

	if (po->direct)
		fflush_unlocked(po->stream);
	for (int i = 0; i < b->nr_holes; i++) {
		write_out(po, b->out.data + pos, b->holes[i].at - pos);
		po->fallback.len = 0;
		po->ops->fallback(po->arg, b->holes[i].job, &po->fallback);
		write_out(po, po->fallback.data, po->fallback.len);
		pos = b->holes[i].at;
	}
	write_out(po, b->out.data + pos, b->out.len - pos);
	b->in.len = 0;
	b->out.len = 0;
	b->nr_jobs = 0;
	b->nr_holes = 0;
}

/*
 * Writes the oldest batch once formatted: while it is not, the producer
 * (ahead of the workers) formats the queued batches itself.
 */
static void write_head(struct par_out *po)
{
	struct batch *b = &po->ring[po->head % RING], *q;

	pthread_mutex_lock(&po->lock);
	/* Rather than wait, format what no worker took yet, oldest first. */
	while (b->state != B_DONE && (q = take_queued(po))) {
		pthread_mutex_unlock(&po->lock);
		format_batch(po, q, po->own_ctx);
		pthread_mutex_lock(&po->lock);
		q->state = B_DONE;
	}
	while (b->state != B_DONE)
		pthread_cond_wait(&po->done, &po->lock);
	pthread_mutex_unlock(&po->lock);
	write_batch(po, b);
	/* The workers look at head and the states, under the lock. */
	pthread_mutex_lock(&po->lock);
	b->state = B_FILLING;
	po->head++;
	pthread_mutex_unlock(&po->lock);
}

/* Whether the oldest batch is formatted (read without waiting). */
static int head_done(struct par_out *po)
{
	int done;

	pthread_mutex_lock(&po->lock);
	done = po->head != po->tail && po->ring[po->head % RING].state == B_DONE;
	pthread_mutex_unlock(&po->lock);
	return done;
}

/* The filling batch goes to the workers; the next one is made free to fill. */
static void submit(struct par_out *po)
{
	struct batch *b = &po->ring[po->tail % RING];

	if (!b->in.len)
		return;
	pthread_mutex_lock(&po->lock);
	b->state = B_QUEUED;
	po->tail++;
	pthread_cond_signal(&po->queued);
	pthread_mutex_unlock(&po->lock);
	while (head_done(po))
		write_head(po);
	if (po->tail - po->head >= RING)
		write_head(po);
}

void *par_out_job(struct par_out *po, size_t size)
{
	struct batch *b = &po->ring[po->tail % RING];

	if (b->nr_jobs >= po->batch_jobs)
		submit(po);
	b = &po->ring[po->tail % RING];
	b->nr_jobs++;
	return append_entry(po, ENTRY_JOB, size);
}

void par_out_text(struct par_out *po, const char *s, size_t n)
{
	while (n) {
		size_t part = n > UINT32_MAX ? UINT32_MAX : n;

		memcpy(append_entry(po, ENTRY_TEXT, part), s, part);
		s += part;
		n -= part;
	}
}

void par_out_flush(struct par_out *po)
{
	submit(po);
	while (po->head != po->tail)
		write_head(po);
}

static int start_worker(struct par_out *po, int i)
{
	struct worker_start *ws = xmalloc(sizeof(*ws));
	sigset_t all, old;
	int err;

	ws->po = po;
	ws->ctx = po->ctx[i];
	/* Signals stay with the producing thread. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	err = pthread_create(&po->threads[i], NULL, worker_main, ws);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (err)
		free(ws);
	return err ? -1 : 0;
}

static void stop_workers(struct par_out *po)
{
	pthread_mutex_lock(&po->lock);
	po->stop = 1;
	pthread_cond_broadcast(&po->queued);
	pthread_mutex_unlock(&po->lock);
	for (int i = 0; i < po->nr_workers; i++)
		pthread_join(po->threads[i], NULL);
}

static void free_par_out(struct par_out *po)
{
	for (int i = 0; i < po->nr_ctx; i++)
		po->ops->worker_free(po->ctx[i]);
	po->ops->worker_free(po->own_ctx);
	for (int i = 0; i < RING; i++) {
		free(po->ring[i].in.data);
		free(po->ring[i].out.data);
		free(po->ring[i].holes);
	}
	pthread_mutex_destroy(&po->lock);
	pthread_cond_destroy(&po->queued);
	pthread_cond_destroy(&po->done);
	free(po->fallback.data);
	free(po->threads);
	free(po->ctx);
	free(po);
}

struct par_out *par_out_new(const struct par_ops *ops, void *arg, FILE *stream, int nr_workers,
			    int batch_jobs)
{
	struct par_out *po = xcalloc(1, sizeof(*po));

	po->ops = ops;
	po->arg = arg;
	po->stream = stream;
	po->direct = fileno(stream) >= 0;
	po->batch_jobs = batch_jobs > 0 ? batch_jobs : 1;
	pthread_mutex_init(&po->lock, NULL);
	pthread_cond_init(&po->queued, NULL);
	pthread_cond_init(&po->done, NULL);
	po->threads = xcalloc(nr_workers, sizeof(*po->threads));
	po->ctx = xcalloc(nr_workers, sizeof(*po->ctx));
	po->own_ctx = ops->worker_new(arg);
	for (; po->nr_ctx < nr_workers; po->nr_ctx++)
		po->ctx[po->nr_ctx] = ops->worker_new(arg);
	for (; po->nr_workers < nr_workers; po->nr_workers++)
		if (start_worker(po, po->nr_workers) < 0)
			break;
	if (!po->nr_workers) {
		free_par_out(po);
		return NULL;
	}
	return po;
}

void par_out_free(struct par_out *po)
{
	if (!po)
		return;
	par_out_flush(po);
	stop_workers(po);
	free_par_out(po);
}
