// SPDX-License-Identifier: GPL-2.0
/*
 * Compression for the trace.dat writer (FORMATS.md 3.3, "Algorithms"): zlib
 * at level 9 in a zlib-wrapped stream, and zstd without a content-size field,
 * as upstream writes them.  "any" picks zstd, the lightest weight.
 */
#include <stdlib.h>
#include <string.h>
#include <zlib.h>
#include <zstd.h>

#include "trace-cmd.h"
#include "trace-output-v7.h"

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

static int compress_zstd(const void *src, size_t len, void **dst, size_t *dlen)
{
	static ZSTD_CCtx *ctx;
	size_t bound = ZSTD_compressBound(len);
	void *buf;
	size_t ret;

	/* One context for the whole run: chunks are compressed one at a time. */
	if (!ctx) {
		ctx = ZSTD_createCCtx();
		if (!ctx)
			return error("zstd compression failed: out of memory");
		ZSTD_CCtx_setParameter(ctx, ZSTD_c_contentSizeFlag, 0);
	}
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

int trace_compress(int comp, const void *src, size_t len, void **dst, size_t *dlen)
{
	if (comp == TRACE_COMP_ZLIB)
		return compress_zlib(src, len, dst, dlen);
	if (comp == TRACE_COMP_ZSTD)
		return compress_zstd(src, len, dst, dlen);
	*dst = xmalloc(len ? len : 1);
	memcpy(*dst, src, len);
	*dlen = len;
	return 0;
}

int trace_decompress(const char *name, const void *src, size_t len, void *dst, size_t dlen)
{
	if (!strcmp(name, "zlib")) {
		uLongf dl = dlen;

		if (uncompress(dst, &dl, src, len) != Z_OK || dl != dlen)
			return error("zlib data is damaged");
		return 0;
	}
	if (!strcmp(name, "zstd")) {
		size_t r = ZSTD_decompress(dst, dlen, src, len);

		if (ZSTD_isError(r) || r != dlen)
			return error("zstd data is damaged");
		return 0;
	}
	return error("unknown compression '%s'", name);
}
