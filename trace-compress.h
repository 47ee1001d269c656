/* SPDX-License-Identifier: GPL-2.0 */
/*
 * zlib and zstd for trace.dat (trace-cmd.dat.v7(5), COMPRESSION): the writer's
 * compression of sections and data chunks, and the readers' decompression.
 */
#ifndef TRACE_COMPRESS_H
#define TRACE_COMPRESS_H

#include <stddef.h>

/* Compression ids; trace_compress_lookup() maps names to them. */
enum { TRACE_COMP_NONE, TRACE_COMP_ZLIB, TRACE_COMP_ZSTD };

/* "none", "zlib", "zstd" or "any" (the best built in); -1 if unknown. */
int trace_compress_lookup(const char *name);
const char *trace_compress_name(int comp);
const char *trace_compress_version(int comp);
/* Compresses @len bytes of @src into a malloc'd buffer; -1 on failure (printed). */
int trace_compress(int comp, const void *src, size_t len, void **dst, size_t *dlen);

/* Compressing on a thread of its own: zstd's context is made once. */
struct compressor {
	int		comp;		/* TRACE_COMP_* */
	void		*zstd;		/* ZSTD_CCtx */
};

int compressor_init(struct compressor *c, int comp);
/* trace_compress() with @c's context; -1 on failure (printed). */
int compressor_run(struct compressor *c, const void *src, size_t len, void **dst,
		   size_t *dlen);
void compressor_release(struct compressor *c);

/* One chunk for trace_compress_jobs(): @dst/@dlen are filled in (free @dst). */
struct compress_job {
	const void *src;
	size_t len;
	void *dst;
	size_t dlen;
	int failed;
};

#define MAX_COMPRESS_THREADS 8
/* Compresses every job, on up to one thread per online CPU; -1 if any failed. */
int trace_compress_jobs(int comp, struct compress_job *jobs, size_t nr);
/*
 * Decompressing: one inflater per thread that reads a file, so zstd's
 * context (about 96 KB, which ZSTD_decompress() would allocate and free
 * for every chunk) is made once and reused.
 */
struct inflater {
	int		comp;		/* TRACE_COMP_* */
	void		*zstd;		/* ZSTD_DCtx, made on first use */
};

/* An inflater for the compression a file names ("zlib", "zstd"); -1 if unknown. */
int inflater_init(struct inflater *z, const char *name);
void inflater_release(struct inflater *z);
/*
 * Decompresses @csize bytes at @src into exactly @usize bytes at @dst.
 * NULL on success, else why not (a static string: callers say what and where).
 */
const char *inflate_exact(struct inflater *z, const void *src, size_t csize,
			  void *dst, size_t usize);
/* The same for one section, with the compression named. */
const char *inflate_once(const char *name, const void *src, size_t csize,
			 void *dst, size_t usize);

#endif
