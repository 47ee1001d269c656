/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Machine-readable records: report --format jsonl|csv writes one record per
 * event (and per lost-events mark) with every field decoded from the event's
 * format; convert --to chrome-json reuses the field decoder through jbuf.
 */
#ifndef TRACE_FORMAT_H
#define TRACE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

struct trace_input;
struct tep_handle;
struct tep_event;
struct tep_record;

enum trace_format_kind {
	TRACE_FORMAT_TEXT,
	TRACE_FORMAT_JSONL,
	TRACE_FORMAT_CSV,
};

/* "text", "jsonl" or "csv" to its kind; -1 for any other name. */
int trace_format_kind(const char *name);

/*
 * Short copies of varying length were memcpy()'s size tests, mispredicted
 * line after line.  copy_slack() copies @n bytes in COPY_SLACK-byte steps
 * instead: both @src and @dst must have COPY_SLACK bytes to spare past @n
 * (buffers that are made so say it).
 */
#define COPY_SLACK	32

static inline void copy_slack(char *dst, const char *src, size_t n)
{
	for (size_t i = 0; i < n; i += COPY_SLACK)
		memcpy(dst + i, src + i, COPY_SLACK);
}

/* @len bytes of @s, a NUL and COPY_SLACK bytes to spare, malloc()ed. */
char *dup_slack(const char *s, size_t len);

/*
 * Writes @v in decimal at @p, at least @width digits wide, padded with @pad
 * on the left (at most 20 digits + the padding); returns the end.  Inline:
 * the text line's prefix (trace-line.c) writes several per event.
 */
/* How many digits @v has in decimal (from its bits: log10(2) ~ 1233 / 4096). */
static inline int decimal_digits(unsigned long long v)
{
	static const unsigned long long pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL, 10000000ULL,
		100000000ULL, 1000000000ULL, 10000000000ULL, 100000000000ULL,
		1000000000000ULL, 10000000000000ULL, 100000000000000ULL,
		1000000000000000ULL, 10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	int t = (64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	return v < 10 ? 1 : t + 1 - (v < pow10[t]);
}

/*
 * @v (below 10^8) as exactly 8 digits at @p.  On a little-endian host all
 * eight at once: the two halves, their pairs, then the pairs' digits, each
 * split in its own lane of one 64-bit word by a multiply and shift
 * (y / 100 is y * 10486 >> 20 below 10^4, z / 10 is z * 103 >> 10 below 100).
 */
static inline void put_8_digits(char *p, unsigned int v)
{
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t halves = v / 10000 | (uint64_t)(v % 10000) << 32;
	uint64_t hundreds = (halves * 10486 >> 20) & 0x0000007f0000007fULL;
	uint64_t pairs = hundreds | (halves - hundreds * 100) << 16;
	uint64_t tens = (pairs * 103 >> 10) & 0x000f000f000f000fULL;
	uint64_t digits = tens | (pairs - tens * 10) << 8;

	digits += 0x3030303030303030ULL;
	memcpy(p, &digits, 8);
#else
	for (int i = 8; i > 0; i--, v /= 10)
		p[i - 1] = '0' + v % 10;
#endif
}

static inline char *put_decimal(char *p, unsigned long long v, int width, char pad)
{
	/* Two digits a division: jsonl writes a dozen numbers an event. */
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	/* The digits are counted first... */
	int n = decimal_digits(v);
	unsigned int w;
	char *q;

	for (int i = n; i < width; i++)
		*p++ = pad;
	/* ...and written in place, from the end. */
	q = p + n;
	/* Eight digits a 64-bit division, the rest in 32 bits: addresses have 20. */
	while (v >= 100000000) {
		q -= 8;
		put_8_digits(q, v % 100000000);
		v /= 100000000;
	}
	for (w = v; w >= 100; w /= 100) {
		*--q = pairs[2 * (w % 100) + 1];
		*--q = pairs[2 * (w % 100)];
	}
	if (w >= 10) {
		*--q = pairs[2 * w + 1];
		*--q = pairs[2 * w];
	} else {
		*--q = '0' + w;
	}
	return p + n;
}

/*
 * @v (below 10^@n) in exactly @n digits, zeros first: the time stamp's
 * fraction and the CPU column, with no digits to count.
 */
static inline char *put_fixed_digits(char *p, unsigned int v, int n)
{
	static const char pairs[] =
		"00010203040506070809101112131415161718192021222324"
		"25262728293031323334353637383940414243444546474849"
		"50515253545556575859606162636465666768697071727374"
		"75767778798081828384858687888990919293949596979899";
	char *end = p + n, *q = end;

	if (n == 8) {
		put_8_digits(p, v);
		return end;
	}
	for (; n >= 2; n -= 2, v /= 100) {
		*--q = pairs[2 * (v % 100) + 1];
		*--q = pairs[2 * (v % 100)];
	}
	if (n)
		*--q = '0' + v % 10;
	return end;
}

/* A growing byte buffer that JSON is built in. */
struct jbuf {
	char	*data;
	size_t	len, size;
};

/* Grows @b for @more bytes; jbuf_reserve() calls it only when they do not fit. */
void jbuf_grow(struct jbuf *b, size_t more);
void jbuf_free(struct jbuf *b);

/* Inline, as the pieces of a jsonl record are a few bytes each. */
static inline void jbuf_reserve(struct jbuf *b, size_t more)
{
	if (b->len + more > b->size)
		jbuf_grow(b, more);
}

static inline void jbuf_putc(struct jbuf *b, char c)
{
	jbuf_reserve(b, 1);
	b->data[b->len++] = c;
}

static inline void jbuf_put(struct jbuf *b, const char *s, size_t len)
{
	jbuf_reserve(b, len);
	memcpy(b->data + b->len, s, len);
	b->len += len;
}

/* Inline so that a literal's length is known when compiled. */
static inline void jbuf_puts(struct jbuf *b, const char *s)
{
	jbuf_put(b, s, strlen(s));
}

static inline void jbuf_u64(struct jbuf *b, uint64_t v)
{
	jbuf_reserve(b, 20);
	b->len = put_decimal(b->data + b->len, v, 0, 0) - b->data;
}

void jbuf_i64(struct jbuf *b, int64_t v);
/* 1 when @len bytes of @s go into a JSON string as they are (printable ASCII, no '"' or '\\'). */
int trace_format_json_plain(const char *s, size_t len);
/* @s (at most @len bytes, up to a NUL) as a quoted JSON string; bad UTF-8 bytes as \u00XX. */
void jbuf_jstr(struct jbuf *b, const char *s, size_t len);

/*
 * The event's own fields (not the common_* ones) of @rec as one JSON object:
 * numbers as numbers (signed where the format says so), char arrays and
 * __data_loc strings as strings, other arrays as arrays of numbers.
 */
void trace_format_fields(struct jbuf *b, struct tep_handle *tep, struct tep_event *ev,
			 struct tep_record *rec);

struct tep_format_field;

/* One field of one record, decoded as report --format jsonl shows it. */
struct trace_field_value {
	enum {
		TRACE_VALUE_NULL,	/* out of the record, or a number of odd size */
		TRACE_VALUE_INT,	/* i */
		TRACE_VALUE_UINT,	/* u */
		TRACE_VALUE_TEXT,	/* data, len bytes (no NUL inside) */
		TRACE_VALUE_ARRAY,	/* data, len bytes of elem-byte numbers */
	} kind;
	int64_t		i;
	uint64_t	u;
	const char	*data;
	size_t		len;
	int		elem, is_signed;
};

/*
 * Decodes @f of @rec into @v (which points into @rec); @last: @f is the
 * event's last field, an array that may run to the record's end.
 */
void trace_format_field_value(struct tep_handle *tep, struct tep_format_field *f,
			      struct tep_record *rec, int last, struct trace_field_value *v);
/* @v as JSON: a number, a string, an array of numbers or null. */
void trace_format_put_value(struct jbuf *b, struct tep_handle *tep,
			    const struct trace_field_value *v);
/* 1 when @f's values are numbers (else text or arrays, or null). */
int trace_format_field_is_number(struct tep_format_field *f);

/* Nanoseconds of @ts when the file's clock allows it: 1 and *ns set, or 0. */
int trace_format_ts_ns(struct trace_input *in, uint64_t ts, uint64_t *ns);

struct trace_format;

/*
 * A writer of @kind records to stdout.  @multi_file: records name their file;
 * @multi_buffer: records name their buffer (instance).  The csv header row is
 * written here.
 */
struct trace_format *trace_format_new(enum trace_format_kind kind, int multi_file,
				      int multi_buffer);
/*
 * The record of @rec of @buffer read from @in (*out_len bytes, valid until
 * the next call), with @text (@len bytes) as the line report would print
 * for it.  A record that follows lost events is preceded by a "lost"
 * record of its own.
 */
const char *trace_format_record(struct trace_format *f, struct trace_input *in,
				struct tep_record *rec, int buffer, const char *text, size_t len,
				size_t *out_len);

/*
 * The same in two steps, for report's threads: what the record needs of
 * @f's caches and libtraceevent, found in the reading thread; then its
 * record appended to @b (@s: the writing thread's own), in any thread, @f
 * only read.
 */
struct ev_desc;
struct comm_form;
/* A writing thread's own, kept from record to record. */
struct trace_format_scratch {
	struct jbuf	cell;		/* a value or a text, escaped again */
	/* the time stamp's digits above the last eight, and that number + 1 */
	uint64_t	ts_high;
	size_t		ts_high_len;
	char		ts_high_text[20 + COPY_SLACK];
};
struct trace_format_prep {
	const struct ev_desc	*desc;
	const struct comm_form	*comm;	/* the task's pid and name as jsonl and csv write them */
	int			flags;
};
void trace_format_prepare(struct trace_format *f, struct trace_input *in,
			  struct tep_record *rec, struct trace_format_prep *p);
/* The same with the record's event id @type and @pid already read. */
void trace_format_prepare_known(struct trace_format *f, struct trace_input *in,
				struct tep_record *rec, int type, int pid,
				struct trace_format_prep *p);
void trace_format_line(const struct trace_format *f, const struct trace_format_prep *p,
		       struct tep_record *rec, int buffer, const char *text, size_t len,
		       struct jbuf *b, struct trace_format_scratch *s);
/*
 * trace_format_line() in two halves, for a text written straight into @b
 * between them (from @text_at on, raw): the start appends the record up to
 * its text, the end escapes or quotes the text where it stands and ends
 * the record.  @plain: the text is known to need no JSON escaping
 * (trace_format_json_plain() of each of its pieces), so jsonl skips its scan.
 */
void trace_format_line_start(const struct trace_format *f, const struct trace_format_prep *p,
			     struct tep_record *rec, int buffer, struct jbuf *b,
			     struct trace_format_scratch *s);
void trace_format_line_end(const struct trace_format *f, struct jbuf *b, size_t text_at,
			   struct trace_format_scratch *s, int plain);
void trace_format_free(struct trace_format *f);

#endif
