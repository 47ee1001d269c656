// SPDX-License-Identifier: GPL-2.0
/*
 * The bounded cursor (see trace-cursor.h): every read checks the bytes left
 * first and names what it wanted, so a parser never reads past its buffer
 * and a damaged input produces one message that says where and what.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-cursor.h"

void cur_init(struct cursor *c, const void *data, size_t size, uint64_t base,
	      int big_endian, const char *name)
{
	c->data = data;
	c->size = size;
	c->pos = 0;
	c->base = base;
	c->big_endian = big_endian;
	c->name = name;
	c->within = NULL;
	c->kept = NULL;
	c->on_truncated = NULL;
}

/* An error, or a warning that says what the reader goes on with. */
static int damage(const struct cursor *c, const char *msg)
{
	if (c->kept) {
		warning("%s: ignored; %s", msg, c->kept);
		return -1;
	}
	return error("%s", msg);
}

static int truncated(const struct cursor *c, uint64_t need, const char *what)
{
	char msg[512];

	if (c->on_truncated)
		return c->on_truncated(c, need, what);
	if (c->within)
		snprintf(msg, sizeof(msg), "'%s': truncated at offset %llu of the %s reading %s (need %llu bytes)",
			 c->name, (unsigned long long)cur_offset(c), c->within, what,
			 (unsigned long long)need);
	else
		snprintf(msg, sizeof(msg), "'%s': truncated at offset %llu reading %s (need %llu bytes)",
			 c->name, (unsigned long long)cur_offset(c), what,
			 (unsigned long long)need);
	return damage(c, msg);
}

int cur_need(const struct cursor *c, uint64_t n, const char *what)
{
	if (n > cur_left(c))
		return truncated(c, n, what);
	return 0;
}

#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
#define HOST_BIG_ENDIAN	1
#else
#define HOST_BIG_ENDIAN	0
#endif

uint64_t cur_decode(const struct cursor *c, const void *p, int size)
{
	const unsigned char *b = p;
	uint64_t v = 0;

	/* The usual sizes at once: report reads each record's type and pid here. */
	if (size == 1 || size == 2 || size == 4 || size == 8)
		return load_number(p, size, !!c->big_endian != HOST_BIG_ENDIAN);
	if (c->big_endian)
		for (int i = 0; i < size; i++)
			v = (v << 8) | b[i];
	else
		for (int i = size - 1; i >= 0; i--)
			v = (v << 8) | b[i];
	return v;
}

int cur_uint(struct cursor *c, int size, uint64_t *v, const char *what)
{
	if (cur_need(c, size, what) < 0)
		return -1;
	*v = cur_decode(c, c->data + c->pos, size);
	c->pos += size;
	return 0;
}

int cur_u8(struct cursor *c, uint8_t *v, const char *what)
{
	uint64_t x;

	if (cur_uint(c, 1, &x, what) < 0)
		return -1;
	*v = x;
	return 0;
}

int cur_u16(struct cursor *c, uint16_t *v, const char *what)
{
	uint64_t x;

	if (cur_uint(c, 2, &x, what) < 0)
		return -1;
	*v = x;
	return 0;
}

int cur_u32(struct cursor *c, uint32_t *v, const char *what)
{
	uint64_t x;

	if (cur_uint(c, 4, &x, what) < 0)
		return -1;
	*v = x;
	return 0;
}

int cur_u64(struct cursor *c, uint64_t *v, const char *what)
{
	return cur_uint(c, 8, v, what);
}

int cur_bytes(struct cursor *c, uint64_t n, const void **p, const char *what)
{
	if (cur_need(c, n, what) < 0)
		return -1;
	*p = c->data + c->pos;
	c->pos += n;
	return 0;
}

int cur_skip(struct cursor *c, uint64_t n, const char *what)
{
	const void *p;

	return cur_bytes(c, n, &p, what);
}

int cur_string(struct cursor *c, const char **s, const char *what)
{
	const unsigned char *nul = memchr(c->data + c->pos, 0, cur_left(c));

	if (!nul)
		return truncated(c, cur_left(c) + 1, what);
	*s = (const char *)c->data + c->pos;
	c->pos = nul - c->data + 1;
	return 0;
}

int cur_seek(struct cursor *c, uint64_t off, const char *what)
{
	if (off < c->base)
		return cur_bad(c, off, "%s points before the start", what);
	if (off - c->base > c->size) {
		struct cursor end = *c;

		end.pos = end.size;
		return truncated(&end, off - c->base - c->size, what);
	}
	c->pos = off - c->base;
	return 0;
}

int cur_sub(struct cursor *c, struct cursor *sub, uint64_t n, const char *what)
{
	uint64_t start = cur_offset(c);
	const void *p;

	if (cur_bytes(c, n, &p, what) < 0)
		return -1;
	cur_init(sub, p, n, start, c->big_endian, c->name);
	sub->within = c->within;
	sub->kept = c->kept;
	sub->on_truncated = c->on_truncated;
	return 0;
}

int cur_bad(const struct cursor *c, uint64_t off, const char *fmt, ...)
{
	char why[512], msg[1024];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	if (c->within)
		snprintf(msg, sizeof(msg), "'%s': bad data at offset %llu of the %s: %s", c->name,
			 (unsigned long long)off, c->within, why);
	else
		snprintf(msg, sizeof(msg), "'%s': bad data at offset %llu: %s", c->name,
			 (unsigned long long)off, why);
	return damage(c, msg);
}
