// SPDX-License-Identifier: GPL-2.0
/*
 * Compression for the trace.dat writer (trace-cmd.dat.v7(5), COMPRESSION): zlib
 * at level 9 in a zlib-wrapped stream, and zstd without a content-size field,
 * as upstream writes them.  "any" picks zstd, the lightest weight.  And the
 * decompression every reader of such files shares.
 */
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <zlib.h>
#include <zstd.h>

#include "trace-cmd.h"
#include "trace-compress.h"

int trace_compress_lookup(const char *name)
{
	if (!strcmp(name, "none"))
		return TRACE_COMP_NONE;
	if (!strcmp(name, "zlib"))
		return TRACE_COMP_ZLIB;
	if (!strcmp(name, "zstd") || !strcmp(name, "any"))
		return TRACE_COMP_ZSTD;
	return -1;
}

const char *trace_compress_name(int comp)
{
	return comp == TRACE_COMP_ZLIB ? "zlib" : comp == TRACE_COMP_ZSTD ? "zstd" : "none";
}

const char *trace_compress_version(int comp)
{
	if (comp == TRACE_COMP_ZLIB)
		return zlibVersion();
	if (comp == TRACE_COMP_ZSTD)
		return ZSTD_versionString();
	return "";
}

static int compress_zlib(const void *src, size_t len, void **dst, size_t *dlen)
{
	uLongf bound = compressBound(len);
	void *buf = xmalloc(bound ? bound : 1);
	int ret = compress2(buf, &bound, src, len, 9);

	if (ret != Z_OK) {
		free(buf);
		return error("zlib compression failed: error %d", ret);
	}
	*dst = buf;
	*dlen = bound;
	return 0;
}

static ZSTD_CCtx *new_zstd_ctx(void)
{
	ZSTD_CCtx *ctx = ZSTD_createCCtx();

	/*
	 * Level 1, not zstd's default 3: on trace data in chunks of 10 pages it
	 * compresses 40% faster and as small or smaller (x8.2 against x8.1 on
	 * a -e all recording); kallsyms and formats differ by a few percent.
	 */
	if (ctx) {
		ZSTD_CCtx_setParameter(ctx, ZSTD_c_contentSizeFlag, 0);
		ZSTD_CCtx_setParameter(ctx, ZSTD_c_compressionLevel, 1);
	} else
		error("zstd compression failed: out of memory");
	return ctx;
}

static int compress_zstd(ZSTD_CCtx *ctx, const void *src, size_t len, void **dst,
			 size_t *dlen)
{
	size_t bound = ZSTD_compressBound(len);
	void *buf;
	size_t ret;

	buf = xmalloc(bound);
	ret = ZSTD_compress2(ctx, buf, bound, src, len);
	if (ZSTD_isError(ret)) {
		free(buf);
		return error("zstd compression failed: %s", ZSTD_getErrorName(ret));
	}
	*dst = buf;
	*dlen = ret;
	return 0;
}

static int compress_with(int comp, ZSTD_CCtx *ctx, const void *src, size_t len,
			 void **dst, size_t *dlen)
{
	if (comp == TRACE_COMP_ZLIB)
		return compress_zlib(src, len, dst, dlen);
	if (comp == TRACE_COMP_ZSTD)
		return compress_zstd(ctx, src, len, dst, dlen);
	*dst = xmalloc(len ? len : 1);
	memcpy(*dst, src, len);
	*dlen = len;
	return 0;
}

int trace_compress(int comp, const void *src, size_t len, void **dst, size_t *dlen)
{
	/* One context for the whole run: these calls come one at a time. */
	static ZSTD_CCtx *ctx;

	if (comp == TRACE_COMP_ZSTD && !ctx && !(ctx = new_zstd_ctx()))
		return -1;
	return compress_with(comp, ctx, src, len, dst, dlen);
}

int compressor_init(struct compressor *c, int comp)
{
	c->comp = comp;
	c->zstd = NULL;
	if (comp == TRACE_COMP_ZSTD && !(c->zstd = new_zstd_ctx()))
		return -1;
	return 0;
}

int compressor_run(struct compressor *c, const void *src, size_t len, void **dst,
		   size_t *dlen)
{
	return compress_with(c->comp, c->zstd, src, len, dst, dlen);
}

void compressor_release(struct compressor *c)
{
	ZSTD_freeCCtx(c->zstd);
	c->zstd = NULL;
}

/* --- many chunks at once ------------------------------------------------- */

struct batch {
	int comp;
	struct compress_job *jobs;
	size_t nr;
	atomic_size_t next;
};

/* Takes jobs until none are left; each thread has its own zstd context. */
static void *compress_worker(void *arg)
{
	struct batch *b = arg;
	ZSTD_CCtx *ctx = NULL;
	size_t i;

	if (b->comp == TRACE_COMP_ZSTD && !(ctx = new_zstd_ctx()))
		return NULL;	/* the jobs it would have taken fall to the others */
	while ((i = atomic_fetch_add(&b->next, 1)) < b->nr) {
		struct compress_job *j = &b->jobs[i];

		j->failed = compress_with(b->comp, ctx, j->src, j->len, &j->dst, &j->dlen) < 0;
	}
	ZSTD_freeCCtx(ctx);
	return NULL;
}

static int online_cpus(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n < 1 ? 1 : n > MAX_COMPRESS_THREADS ? MAX_COMPRESS_THREADS : (int)n;
}

/*
 * Compressing is most of the time between a traced command's exit and a
 * complete v7 trace.dat, and the recorders are gone by then: spread the
 * chunks over the CPUs.  The calling thread works too.
 */
int trace_compress_jobs(int comp, struct compress_job *jobs, size_t nr)
{
	struct batch b = { .comp = comp, .jobs = jobs, .nr = nr };
	pthread_t threads[MAX_COMPRESS_THREADS];
	int nthreads = online_cpus() - 1, started = 0;

	if (!nr)
		return 0;
	for (size_t i = 0; i < nr; i++) {
		jobs[i].dst = NULL;
		jobs[i].failed = 1;
	}
	if ((size_t)nthreads > nr - 1)
		nthreads = nr - 1;
	while (started < nthreads &&
	       pthread_create(&threads[started], NULL, compress_worker, &b) == 0)
		started++;
	compress_worker(&b);
	for (int t = 0; t < started; t++)
		pthread_join(threads[t], NULL);
	for (size_t i = 0; i < nr; i++) {
		if (jobs[i].failed)
			return -1;
	}
	return 0;
}

int inflater_init(struct inflater *z, const char *name)
{
	z->zstd = NULL;
	if (!strcmp(name, "zlib"))
		z->comp = TRACE_COMP_ZLIB;
	else if (!strcmp(name, "zstd"))
		z->comp = TRACE_COMP_ZSTD;
	else
		return z->comp = TRACE_COMP_NONE, -1;
	return 0;
}

void inflater_release(struct inflater *z)
{
	ZSTD_freeDCtx(z->zstd);
	z->zstd = NULL;
}

static const char *inflate_zlib(const void *src, size_t csize, void *dst, size_t usize)
{
	uLongf got = usize;
	int ret = uncompress(dst, &got, src, csize);

	if (ret != Z_OK)
		return zError(ret);
	return got == usize ? NULL : "fewer bytes than its size says";
}

static const char *inflate_zstd(struct inflater *z, const void *src, size_t csize,
				void *dst, size_t usize)
{
	size_t got;

	if (!z->zstd && !(z->zstd = ZSTD_createDCtx()))
		return "out of memory";
	got = ZSTD_decompressDCtx(z->zstd, dst, usize, src, csize);
	if (ZSTD_isError(got))
		return ZSTD_getErrorName(got);
	return got == usize ? NULL : "fewer bytes than its size says";
}

const char *inflate_exact(struct inflater *z, const void *src, size_t csize,
			  void *dst, size_t usize)
{
	if (z->comp == TRACE_COMP_ZLIB)
		return inflate_zlib(src, csize, dst, usize);
	if (z->comp == TRACE_COMP_ZSTD)
		return inflate_zstd(z, src, csize, dst, usize);
	return "the file names no compression";
}

const char *inflate_once(const char *name, const void *src, size_t csize,
			 void *dst, size_t usize)
{
	struct inflater z;
	const char *why;

	if (inflater_init(&z, name) < 0)
		return "an unknown compression";
	why = inflate_exact(&z, src, csize, dst, usize);
	inflater_release(&z);
	return why;
}
