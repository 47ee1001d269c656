// SPDX-License-Identifier: GPL-2.0
/*
 * Loading a ring-buffer page for the walk in trace-page.h, and the kbuffer
 * fallback behind the same functions: kbuffer's position is copied into
 * the walk after each of its steps, so the accessors read fields either way.
 */
#include <stdlib.h>

#include <kbuffer.h>

#include "trace-cmd.h"
#include "trace-debug.h"
#include "trace-page.h"

static int host_big_endian(void)
{
	const uint16_t one = 1;

	return !*(const unsigned char *)&one;
}

int page_walk_init(struct page_walk *w, int big_endian, int long_size, int old_format)
{
	memset(w, 0, sizeof(*w));
	w->big_endian = big_endian;
	w->swap = big_endian != host_big_endian();
	w->start = 8 + long_size;
	/* TRACE_CMD_KBUFFER=1 hands every walk to kbuffer, a test oracle (t1110). */
	if (!old_format && !trace_debug()->kbuffer)
		return 0;
	w->kb = kbuffer_alloc(long_size == 8 ? KBUFFER_LSIZE_8 : KBUFFER_LSIZE_4,
			      big_endian ? KBUFFER_ENDIAN_BIG : KBUFFER_ENDIAN_LITTLE);
	if (!w->kb)
		return error("out of memory for a page reader");
	/* Linux 2.6.30 and before: see kbuffer_set_old_format() */
	if (old_format)
		kbuffer_set_old_format(w->kb);
	return 0;
}

int page_walk_host_big_endian(void)
{
	return host_big_endian();
}

static uint32_t entry_u32(const unsigned char *p, int big_endian)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return big_endian != host_big_endian() ? __builtin_bswap32(v) : v;
}

int page_entry_at(const unsigned char *page, unsigned int data_start, uint32_t data_size,
		  int big_endian, unsigned int pos, struct page_entry *e)
{
	uint32_t word, arg;

	if (pos < data_start || pos - data_start >= data_size)
		return 0;
	word = entry_u32(page + pos, big_endian);
	arg = entry_u32(page + pos + 4, big_endian);
	e->type = big_endian ? word >> PAGE_TS_BITS : word & 31;
	e->delta = big_endian ? word & ((1U << PAGE_TS_BITS) - 1) : word >> 5;
	switch (e->type) {
	case PAGE_TYPE_PADDING:
		e->length = arg;
		e->next = pos + 4 + arg;
		break;
	case PAGE_TYPE_TIME_EXTEND:
	case PAGE_TYPE_TIME_STAMP:
		e->delta += (uint64_t)arg << PAGE_TS_BITS;
		e->length = 0;
		e->next = pos + 8;
		break;
	case 0:
		/* the length word counts itself; kbuffer rounds the rest up to 4 */
		e->length = (arg - 4 + 3) & ~3U;
		e->next = pos + 8 + e->length;
		break;
	default:
		e->length = e->type * 4;
		e->next = pos + 4 + e->length;
	}
	return 1;
}

void page_walk_free(struct page_walk *w)
{
	if (w->kb)
		kbuffer_free(w->kb);
	w->kb = NULL;
}

static uint64_t page_u64(const struct page_walk *w, const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, 8);
	return w->swap ? __builtin_bswap64(v) : v;
}

static uint64_t page_long(const struct page_walk *w, const unsigned char *p)
{
	return w->start == 16 ? page_u64(w, p) : page_walk_u32(w, p);
}

/* Copies kbuffer's position after a step that gave @ev (NULL: page done). */
static const void *kb_sync(struct page_walk *w, const void *ev)
{
	w->curr = kbuffer_curr_offset(w->kb) - w->start;
	w->ts = kbuffer_timestamp(w->kb);
	if (ev) {
		w->index = (const unsigned char *)ev - w->data;
		w->next = w->index + kbuffer_event_size(w->kb);
	}
	return ev;
}

const void *page_walk_kb_next(struct page_walk *w)
{
	return kb_sync(w, kbuffer_next_event(w->kb, NULL));
}

void page_walk_load(struct page_walk *w, const void *page)
{
	const unsigned char *p = page;
	uint64_t commit = page_long(w, p + 8);

	w->data = p + w->start;
	w->bad = 0;
	w->size = commit & PAGE_COMMIT_MASK;
	if (w->kb) {
		/* kbuffer only fails on a NULL page */
		kbuffer_load_subbuffer(w->kb, (void *)page);
		w->size = kbuffer_subbuffer_size(w->kb);
		w->missed = kbuffer_missed_events(w->kb);
		kb_sync(w, kbuffer_read_event(w->kb, NULL));
		return;
	}
	if (!(commit & PAGE_MISSED_EVENTS))
		w->missed = 0;
	else if (commit & PAGE_MISSED_STORED)
		w->missed = page_long(w, w->data + w->size);
	else
		w->missed = -1;
	w->ts = page_u64(w, p);
	w->curr = w->index = w->next = 0;
	page_walk_own_next(w);
}

const void *page_walk_copy(struct page_walk *dst, const struct page_walk *src)
{
	struct kbuffer *kb = dst->kb;

	if (!kb) {
		*dst = *src;
		return page_walk_event(dst);
	}
	/* kbuffer's state is its own: walk a second one up to the same event. */
	*dst = *src;
	dst->kb = kb;
	kbuffer_load_subbuffer(kb, (void *)(src->data - src->start));
	return kb_sync(dst, kbuffer_read_at_offset(kb, page_walk_offset(src), NULL));
}

void page_walk_moved(struct page_walk *w, const void *page)
{
	w->data = (const unsigned char *)page + w->start;
	if (!w->kb)
		return;
	/* kbuffer keeps its own pointer to the page: load it again, at the same event. */
	kbuffer_load_subbuffer(w->kb, (void *)page);
	kb_sync(w, kbuffer_read_at_offset(w->kb, page_walk_offset(w), NULL));
}
