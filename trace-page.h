/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Steps through the events of one ring-buffer page (sub-buffer) of a
 * trace.dat file, as trace-cmd.dat.v6(5), RING BUFFER PAGES describes it.  It does
 * the job of libtraceevent's kbuffer, which report used to call once per
 * event through function pointers; the step here is inline so a loop that
 * skips events by id stays tight.  Old-format files (Linux 2.6.30 and
 * before), and TRACE_CMD_KBUFFER=1 (the test oracle), still go through
 * kbuffer: page_walk_init() chooses, once per walk, and a hot loop is
 * compiled for one walker or the other (page_walk_step() with a constant),
 * so the step itself never asks which.  Both trace.dat's pages and live
 * ones (stream's) are walked here, through trace-cpu-stream.c.
 */
#ifndef TRACE_PAGE_H
#define TRACE_PAGE_H

#include <stdint.h>
#include <string.h>

struct kbuffer;

/*
 * The fields belong to trace-page.c and the inline functions below; callers
 * use the functions.  Offsets count from the first event, like kbuffer's.
 */
struct page_walk {
	const unsigned char	*data;		/* the page's first event, after its header */
	uint32_t		size;		/* bytes of events: the commit's data size */
	uint32_t		curr;		/* header of the current event */
	uint32_t		index;		/* its payload */
	uint32_t		next;		/* where the step after it starts */
	uint64_t		ts;		/* of the current event, raw */
	long long		missed;		/* before the page: 0, -1 (unknown) or a count */
	unsigned int		start;		/* page header size: 8 + kernel long */
	int			swap;		/* the file's byte order is not the host's */
	int			big_endian;	/* the file's */
	uint32_t		bad;		/* 1 + offset of a padding in a loop */
	struct kbuffer		*kb;		/* not NULL: kbuffer does the walking */
};

/* A page header's commit word: the data size, and flags for events missed before it. */
#define PAGE_COMMIT_MASK	((1ULL << 27) - 1)
#define PAGE_MISSED_EVENTS	(1ULL << 31)
#define PAGE_MISSED_STORED	(1ULL << 30)	/* their count follows the data */

#define PAGE_TYPE_PADDING	29
#define PAGE_TYPE_TIME_EXTEND	30
#define PAGE_TYPE_TIME_STAMP	31
#define PAGE_TS_BITS		27
/* An absolute time stamp holds 59 bits; the top ones stay from before. */
#define PAGE_TS_MSB		(0xf8ULL << 56)

/*
 * Sets @w up for pages of a file with that byte order and kernel long
 * size.  The old format (Linux 2.6.30 and before), and TRACE_CMD_KBUFFER=1
 * (the test oracle), hand the walk to kbuffer.  Returns 0, or -1 when
 * kbuffer cannot be had (printed).
 */
int page_walk_init(struct page_walk *w, int big_endian, int long_size, int old_format);
void page_walk_free(struct page_walk *w);

/* Whether this machine is big-endian (live pages are in its order). */
int page_walk_host_big_endian(void);

/*
 * One entry of a page as kbuffer's raw reader sees it (report --debug):
 * its type (PAGE_TYPE_* or an event's length word), its delta (a time
 * extend's or time stamp's whole value), its length after the header word,
 * and where the next entry starts.
 */
struct page_entry {
	unsigned int	type;
	uint64_t	delta;
	uint32_t	length;
	unsigned int	next;
};
/*
 * The entry at @pos of @page (events from @data_start, @data_size bytes of
 * them, in the byte order @big_endian): 1, or 0 when @pos is past them.
 */
int page_entry_at(const unsigned char *page, unsigned int data_start, uint32_t data_size,
		  int big_endian, unsigned int pos, struct page_entry *e);

/*
 * Loads the page at @page, whose header the caller has checked, and stands
 * on its first event.  The walk reads up to 8 bytes past the page's data,
 * so those must be readable.
 */
void page_walk_load(struct page_walk *w, const void *page);

/* The page @w stands in was copied to @page: @w goes on there, at the same event. */
void page_walk_moved(struct page_walk *w, const void *page);

/* Stands @dst on @src's current event, to look ahead without moving @src. */
const void *page_walk_copy(struct page_walk *dst, const struct page_walk *src);

const void *page_walk_kb_next(struct page_walk *w);

static inline uint32_t page_walk_u32(const struct page_walk *w, const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, 4);
	return w->swap ? __builtin_bswap32(v) : v;
}

/* The current event's payload, or NULL past the page's last one. */
static inline const void *page_walk_event(const struct page_walk *w)
{
	return w->curr < w->size ? w->data + w->index : NULL;
}

/*
 * Steps to the next event with our own walker (never on a walk that
 * page_walk_init() gave to kbuffer): time extends, time stamps and padding
 * only move the clock or the position.  The arithmetic wraps at 32 bits as
 * kbuffer's does, so a damaged length gives the same positions and the
 * caller's checks see the same thing with either walker.
 */
static inline const void *page_walk_own_next(struct page_walk *w)
{
	uint32_t back = 0;

	for (;;) {
		const unsigned char *p;
		uint32_t word, type_len, delta;

		w->curr = w->next;
		if (w->curr >= w->size)
			return NULL;
		p = w->data + w->curr;
		word = page_walk_u32(w, p);
		if (w->big_endian) {
			type_len = word >> PAGE_TS_BITS;
			delta = word & ((1U << PAGE_TS_BITS) - 1);
		} else {
			type_len = word & 31;
			delta = word >> 5;
		}
		if (type_len && type_len < PAGE_TYPE_PADDING) {
			w->ts += delta;
			w->index = w->curr + 4;
			w->next = w->index + type_len * 4;
			return w->data + w->index;
		}
		if (!type_len) {
			/* the length counts its own word; "- 4 + 3" may wrap */
			w->ts += delta;
			w->index = w->curr + 8;
			w->next = w->index + ((page_walk_u32(w, p + 4) - 1) & ~3U);
			return w->data + w->index;
		}
		if (type_len == PAGE_TYPE_PADDING) {
			/* kbuffer moves the clock by a padding's delta too */
			w->ts += delta;
			w->index = w->curr + 4;
			w->next = w->index + page_walk_u32(w, p + 4);
			/*
			 * A damaged one may point back.  Without a loop no place is
			 * stepped on twice, so more steps back than the page has bytes
			 * mean one, where kbuffer would spin: end the page, and the
			 * caller says why.
			 */
			if (w->next > w->curr || ++back <= w->size)
				continue;
			w->bad = w->curr + w->start + 1;
			w->curr = w->next = w->size;
			return NULL;
		}
		{
			uint64_t t = ((uint64_t)page_walk_u32(w, p + 4) << PAGE_TS_BITS) + delta;

			if (type_len == PAGE_TYPE_TIME_STAMP)
				w->ts = t | (w->ts & PAGE_TS_MSB);
			else
				w->ts += t;
		}
		w->index = w->curr + 8;
		w->next = w->index;
	}
}

/*
 * The next event, with kbuffer when @kb (a constant where this is inlined
 * into a hot loop: the compiler keeps one walker's step, no test per event).
 */
static inline __attribute__((always_inline)) const void *page_walk_step(struct page_walk *w,
									const int kb)
{
	return kb ? page_walk_kb_next(w) : page_walk_own_next(w);
}

/* The next event with whichever walker @w has, where one test per event costs nothing. */
static inline const void *page_walk_next(struct page_walk *w)
{
	return page_walk_step(w, w->kb != NULL);
}

/* Whether page_walk_init() gave @w to kbuffer. */
static inline int page_walk_uses_kbuffer(const struct page_walk *w)
{
	return w->kb != NULL;
}

/* The current event's time stamp, as the page counts it (no offsets). */
static inline uint64_t page_walk_ts(const struct page_walk *w)
{
	return w->ts;
}

/* Its payload size; negative when its length is damaged. */
static inline int page_walk_event_size(const struct page_walk *w)
{
	return (int)(w->next - w->index);
}

/* Its size with its header, 0 past the last event. */
static inline int page_walk_record_size(const struct page_walk *w)
{
	return w->curr < w->size ? (int)(w->next - w->curr) : 0;
}

/* Where its header lies from the page's start. */
static inline int page_walk_offset(const struct page_walk *w)
{
	return (int)(w->curr + w->start);
}

/* Events lost before the page, told on its first event only (-1: unknown). */
static inline int page_walk_missed(const struct page_walk *w)
{
	return w->curr ? 0 : (int)w->missed;
}

/* After NULL: the page offset of a padding in a loop, or -1. */
static inline int page_walk_damage(const struct page_walk *w)
{
	return (int)w->bad - 1;
}

#endif
