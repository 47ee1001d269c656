/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A bounded cursor over a memory buffer: it knows the byte order and the
 * bytes left, and every read names what it reads, so damaged input gives
 * "'NAME': truncated at offset N reading WHAT (need M bytes)" instead of a
 * crash.  Used for trace.dat sections and for network messages alike.
 */
#ifndef TRACE_CURSOR_H
#define TRACE_CURSOR_H

#include <stddef.h>
#include <stdint.h>

struct cursor {
	const unsigned char	*data;
	size_t			size;
	size_t			pos;
	uint64_t		base;		/* offset of data[0] in the stream, for messages */
	int			big_endian;
	const char		*name;		/* file or peer, quoted in messages */
	const char		*within;	/* NULL, or e.g. "decompressed kallsyms section" */
	/*
	 * NULL: damage is an error.  Else what the caller goes on with, and
	 * the damage a warning: "...: ignored; functions shown as addresses".
	 */
	const char		*kept;
	/* NULL, or prints its owner's own truncation message instead (returns -1). */
	int			(*on_truncated)(const struct cursor *c, uint64_t need,
						const char *what);
};

/* A cursor over @size bytes at @data; @base is data[0]'s offset in @name. */
void cur_init(struct cursor *c, const void *data, size_t size, uint64_t base,
	      int big_endian, const char *name);

static inline size_t cur_left(const struct cursor *c)
{
	return c->size - c->pos;
}

/* The stream offset of the next byte to read. */
static inline uint64_t cur_offset(const struct cursor *c)
{
	return c->base + c->pos;
}

/* Each returns 0, or prints the truncation message and returns -1. */
int cur_u8(struct cursor *c, uint8_t *v, const char *what);
int cur_u16(struct cursor *c, uint16_t *v, const char *what);
int cur_u32(struct cursor *c, uint32_t *v, const char *what);
int cur_u64(struct cursor *c, uint64_t *v, const char *what);
/* Reads an integer of @size bytes (1, 2, 4 or 8). */
int cur_uint(struct cursor *c, int size, uint64_t *v, const char *what);
/* Points *p at the next @n bytes and steps over them. */
int cur_bytes(struct cursor *c, uint64_t n, const void **p, const char *what);
int cur_skip(struct cursor *c, uint64_t n, const char *what);
/* A NUL-terminated string that must end inside the buffer. */
int cur_string(struct cursor *c, const char **s, const char *what);
/* Moves to stream offset @off, which must lie inside the buffer (or at its end). */
int cur_seek(struct cursor *c, uint64_t off, const char *what);
/* @sub covers the next @n bytes of @c, which steps over them. */
int cur_sub(struct cursor *c, struct cursor *sub, uint64_t n, const char *what);
/* Checks that @n more bytes are there without reading them. */
int cur_need(const struct cursor *c, uint64_t n, const char *what);

/*
 * Prints "'NAME': WHAT at offset N: <fmt>" and returns -1, for damage that is
 * not truncation (a warning when the cursor says what is kept).
 */
int cur_bad(const struct cursor *c, uint64_t off, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Converts a value of @size bytes in the cursor's byte order. */
uint64_t cur_decode(const struct cursor *c, const void *p, int size);

/*
 * The unsigned number of @size bytes (1, 2, 4; any other: 8) at @p, with its
 * bytes swapped when @swap: one load, for report's per-record reads.
 */
static inline uint64_t load_number(const void *p, int size, int swap)
{
	uint64_t v8;
	uint32_t v4;
	uint16_t v2;

	switch (size) {
	case 1:
		return *(const unsigned char *)p;
	case 2:
		__builtin_memcpy(&v2, p, 2);
		return swap ? __builtin_bswap16(v2) : v2;
	case 4:
		__builtin_memcpy(&v4, p, 4);
		return swap ? __builtin_bswap32(v4) : v4;
	default:
		__builtin_memcpy(&v8, p, 8);
		return swap ? __builtin_bswap64(v8) : v8;
	}
}

#endif
