// SPDX-License-Identifier: GPL-2.0
/*
 * report --format jsonl|csv: one record per event, every field decoded from
 * the event's format with libtraceevent's tep_format_field description, and
 * lost events as records of their own.  The JSON pieces (jbuf, the field
 * object) are shared with convert --to chrome-json.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-cursor.h"
#include "trace-input.h"
#include "trace-format.h"

int trace_format_kind(const char *name)
{
	if (!strcmp(name, "text"))
		return TRACE_FORMAT_TEXT;
	if (!strcmp(name, "jsonl"))
		return TRACE_FORMAT_JSONL;
	if (!strcmp(name, "csv"))
		return TRACE_FORMAT_CSV;
	return -1;
}

/* ---- jbuf ---------------------------------------------------------------- */

char *dup_slack(const char *s, size_t len)
{
	char *copy = xmalloc(len + 1 + COPY_SLACK);

	memcpy(copy, s, len);
	copy[len] = 0;
	return copy;
}

void jbuf_grow(struct jbuf *b, size_t more)
{
	while (b->len + more > b->size)
		b->size = b->size ? b->size * 2 : 4096;
	b->data = xrealloc(b->data, b->size);
}

void jbuf_free(struct jbuf *b)
{
	free(b->data);
	b->data = NULL;
	b->len = b->size = 0;
}

void jbuf_i64(struct jbuf *b, int64_t v)
{
	if (v < 0) {
		jbuf_putc(b, '-');
		jbuf_u64(b, -(uint64_t)v);
	} else {
		jbuf_u64(b, v);
	}
}

/* Length of the valid UTF-8 sequence at @s (at most @left bytes), or 0. */
static int utf8_len(const unsigned char *s, size_t left)
{
	int n;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	n = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : 2;
	if ((size_t)n > left)
		return 0;
	for (int i = 1; i < n; i++)
		if ((s[i] & 0xc0) != 0x80)
			return 0;
	if ((s[0] == 0xe0 && s[1] < 0xa0) || (s[0] == 0xed && s[1] > 0x9f) ||
	    (s[0] == 0xf0 && s[1] < 0x90) || (s[0] == 0xf4 && s[1] > 0x8f))
		return 0;
	return n;
}

/*
 * What put_text() copies unchanged: for JSON printable ASCII but the quote
 * and the backslash; in a csv cell every byte below 0x80 but NUL and the
 * quote; and where a csv cell needs no quotes, no comma or line break either.
 */
enum { PLAIN_JSON, PLAIN_CSV, PLAIN_CSV_BARE };

/* Sixteen bytes compared at once (SSE2 on x86-64, what the target has elsewhere). */
typedef unsigned char bytes16 __attribute__((vector_size(16)));
typedef signed char mask16 __attribute__((vector_size(16)));
#ifdef __SSE2__
typedef char __v16qi_compat __attribute__((vector_size(16)));
#endif

static mask16 stops16(bytes16 x, int mode)
{
	mask16 sx = (mask16)x;
	mask16 hit;

	/*
	 * signed, bytes 0x80 and up are below zero: one compare finds them and
	 * the controls; with bit 1 flipped, the quote (0x22) is 0x20 and falls
	 * in the same compare
	 */
	if (mode == PLAIN_JSON)
		return ((sx ^ 2) < 0x21) | (sx == '\\') | (sx == 0x7f);
	hit = (sx <= 0) | (sx == '"');
	if (mode == PLAIN_CSV_BARE)
		hit |= (sx == ',') | (sx == '\n') | (sx == '\r');
	return hit;
}

/* @m's lanes as bits, lane 0 the lowest: one byte's top bit each. */
static unsigned int lane_bits(mask16 m)
{
#ifdef __SSE2__
	return (unsigned int)__builtin_ia32_pmovmskb128((__v16qi_compat)m);
#else
	unsigned int bits = 0;

	for (int i = 0; i < 16; i++)
		bits |= (unsigned int)(m[i] != 0) << i;
	return bits;
#endif
}

/* The index of @m's first lane set, 16 when none is. */
static size_t first_lane(mask16 m)
{
	unsigned int bits = lane_bits(m);

	return bits ? (size_t)__builtin_ctz(bits) : 16;
}

/*
 * How many bytes of @s from @i on (to @len) are plain for @mode: sixteen
 * at a time, as most of a report's text is; the last few read with the
 * sixteen before them, or in a short string padded with a quote, which
 * stops every mode.
 */
static size_t plain_run(const unsigned char *s, size_t i, size_t len, int mode)
{
	size_t run = i, n;
	bytes16 x;

	while (run + 16 <= len) {
		memcpy(&x, s + run, 16);
		n = first_lane(stops16(x, mode));
		run += n;
		if (n < 16)
			return run - i;
	}
	if (run < len && len >= 16) {
		/* the last sixteen bytes, those before @run already found plain */
		unsigned int bits;

		memcpy(&x, s + len - 16, 16);
		bits = lane_bits(stops16(x, mode)) >> (16 - (len - run));
		run = bits ? run + __builtin_ctz(bits) : len;
	} else if (run < len) {
		memset(&x, '"', 16);
		memcpy(&x, s + run, len - run);
		run += first_lane(stops16(x, mode));
	}
	return run - i;
}

/*
 * Copies @s into @b; @json: escaped for a JSON string, else doubled quotes
 * for a quoted csv cell.  A byte that is not UTF-8 becomes the character of
 * the same number (Latin-1), so the output always decodes.
 */
static void put_text(struct jbuf *b, const char *str, size_t len, int json)
{
	static const char hex[] = "0123456789abcdef";
	const unsigned char *s = (const unsigned char *)str;

	jbuf_reserve(b, len + 2);
	for (size_t i = 0; i < len && s[i]; i++) {
		unsigned char c = s[i];
		size_t run = plain_run(s, i, len, json ? PLAIN_JSON : PLAIN_CSV);
		int n;

		/* the common case: a run of printable ASCII, copied at once */
		if (run) {
			jbuf_put(b, str + i, run);
			i += run - 1;
			continue;
		}
		if (c == '"') {
			jbuf_put(b, json ? "\\\"" : "\"\"", 2);
		} else if (c == '\\') {
			jbuf_put(b, json ? "\\\\" : "\\", json ? 2 : 1);
		} else if (c >= 0x80 && (n = utf8_len(s + i, len - i))) {
			jbuf_put(b, str + i, n);
			i += n - 1;
		} else if (c >= 0x80) {
			char u[2] = { (char)(0xc0 | (c >> 6)), (char)(0x80 | (c & 0x3f)) };

			if (json) {
				char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

				jbuf_put(b, e, 6);
			} else {
				jbuf_put(b, u, 2);
			}
		} else if (!json && c != 0x7f) {
			jbuf_putc(b, c);
		} else if (c == '\n') {
			jbuf_put(b, "\\n", 2);
		} else if (c == '\t') {
			jbuf_put(b, "\\t", 2);
		} else {
			char e[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };

			if (json)
				jbuf_put(b, e, 6);
			else
				jbuf_putc(b, c);
		}
	}
}

int trace_format_json_plain(const char *s, size_t len)
{
	return plain_run((const unsigned char *)s, 0, len, PLAIN_JSON) == len;
}

void jbuf_jstr(struct jbuf *b, const char *s, size_t len)
{
	jbuf_putc(b, '"');
	put_text(b, s, len, 1);
	jbuf_putc(b, '"');
}

/* ---- fields -------------------------------------------------------------- */

/*
 * A field's number as read in place: where, how wide, signed or not; size 0
 * for any other field (an array, a string, a number of odd size).
 */
struct plain_op {
	int			offset, size, is_signed;
	int			shift;		/* 64 - its bits: sign extension */
};

/* An event's own fields, their JSON keys written once. */
struct ev_desc {
	struct tep_event	*ev;
	int			nr;
	struct tep_format_field	**fields;
	char			**keys;		/* "name": */
	size_t			*key_lens;
	char			**csv_keys;	/* ""name"": as inside a quoted csv cell */
	size_t			*csv_key_lens;
	struct plain_op		*ops;		/* per field: where its number is, if plain */
	char			*texts;		/* per field: is_text() */
	char			*head;		/* "system":"..","event":".." */
	size_t			head_len;
	char			*csv_head;	/* the system's and event's csv cells, commas after */
	size_t			csv_head_len;
	int			swap;		/* the file's byte order is not ours */
	/* Every field a plain number: the object in one reserve of this room. */
	int			all_plain, plain_end;
	size_t			plain_room, csv_plain_room;
};

#define DESC_SLOTS 4096
static struct ev_desc *descs[DESC_SLOTS];

/*
 * @b's bytes as a string of their own size, @b freed: a jbuf starts at
 * 4 KB, and an event's keys are kept for the whole report.
 */
static char *jbuf_string(struct jbuf *b)
{
	/* room to spare: the record's pieces are copied with copy_slack() */
	char *s = dup_slack(b->data, b->len);

	jbuf_free(b);
	return s;
}

static char *json_key(const char *name)
{
	struct jbuf b = { 0 };

	jbuf_jstr(&b, name, strlen(name));
	jbuf_putc(&b, ':');
	return jbuf_string(&b);
}

/* @len bytes of @s with each quote doubled, as inside a quoted csv cell. */
static void put_doubled(struct jbuf *b, const char *s, size_t len)
{
	const char *q;

	while ((q = memchr(s, '"', len))) {
		jbuf_put(b, s, q - s + 1);
		jbuf_putc(b, '"');
		len -= q - s + 1;
		s = q + 1;
	}
	jbuf_put(b, s, len);
}

static char *csv_doubled(const char *s)
{
	struct jbuf b = { 0 };

	put_doubled(&b, s, strlen(s));
	return jbuf_string(&b);
}

static void csv_cell(struct jbuf *b, const char *s, size_t len, int last);

/*
 * libtraceevent calls u8/s8 arrays strings too; only char arrays are text,
 * and old kernels' "char buf; size:0" (ftrace's print) is one.
 */
static int is_text(struct tep_format_field *f)
{
	return ((f->flags & TEP_FIELD_IS_STRING) || !f->size) && strstr(f->type, "char");
}

static struct ev_desc *desc_of(struct tep_event *ev)
{
	unsigned int h = (unsigned int)(((uintptr_t)ev >> 4) % DESC_SLOTS);
	struct ev_desc *d;
	struct jbuf b = { 0 };
	int n = 0;

	for (unsigned int i = 0; i < DESC_SLOTS; i++, h = (h + 1) % DESC_SLOTS) {
		if (!descs[h])
			break;
		if (descs[h]->ev == ev)
			return descs[h];
	}
	d = xcalloc(1, sizeof(*d));
	d->ev = ev;
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next)
		n++;
	d->fields = xcalloc(n + 1, sizeof(*d->fields));
	d->keys = xcalloc(n + 1, sizeof(*d->keys));
	d->key_lens = xcalloc(n + 1, sizeof(*d->key_lens));
	d->csv_keys = xcalloc(n + 1, sizeof(*d->csv_keys));
	d->csv_key_lens = xcalloc(n + 1, sizeof(*d->csv_key_lens));
	d->ops = xcalloc(n + 1, sizeof(*d->ops));
	d->texts = xcalloc(n + 1, 1);
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		d->fields[d->nr] = f;
		d->texts[d->nr] = is_text(f);
		d->keys[d->nr] = json_key(f->name);
		d->key_lens[d->nr] = strlen(d->keys[d->nr]);
		d->csv_keys[d->nr] = csv_doubled(d->keys[d->nr]);
		d->csv_key_lens[d->nr] = strlen(d->csv_keys[d->nr]);
		if (!(f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY)) &&
		    (f->size == 1 || f->size == 2 || f->size == 4 || f->size == 8) &&
		    f->offset >= 0) {
			d->ops[d->nr].offset = f->offset;
			d->ops[d->nr].size = f->size;
			d->ops[d->nr].is_signed = !!(f->flags & TEP_FIELD_IS_SIGNED);
			d->ops[d->nr].shift = f->size < 8 ? 64 - 8 * f->size : 0;
			if (f->offset + f->size > d->plain_end)
				d->plain_end = f->offset + f->size;
		}
		d->plain_room += d->key_lens[d->nr] + 22;
		d->csv_plain_room += d->csv_key_lens[d->nr] + 22;
		d->nr++;
	}
	d->all_plain = 1;
	for (int i = 0; i < d->nr; i++)
		d->all_plain &= d->ops[i].size != 0;
	jbuf_puts(&b, "\"system\":");
	jbuf_jstr(&b, ev->system, strlen(ev->system));
	jbuf_puts(&b, ",\"event\":");
	jbuf_jstr(&b, ev->name, strlen(ev->name));
	d->head_len = b.len;
	d->head = jbuf_string(&b);
	csv_cell(&b, ev->system, strlen(ev->system), 0);
	csv_cell(&b, ev->name, strlen(ev->name), 0);
	d->csv_head_len = b.len;
	d->csv_head = jbuf_string(&b);
	d->swap = tep_is_file_bigendian(ev->tep) != tep_is_local_bigendian(ev->tep);
	if (!descs[h])
		descs[h] = d;	/* a full table just stops caching */
	return d;
}

/* The number of @size bytes at @p, signed or not as the format says; NULL for odd sizes. */
static void number_value(struct tep_handle *tep, const void *p, int size, int is_signed,
			 struct trace_field_value *v)
{
	uint64_t n;

	if (size != 1 && size != 2 && size != 4 && size != 8) {
		v->kind = TRACE_VALUE_NULL;
		return;
	}
	n = tep_read_number(tep, p, size);
	v->kind = is_signed ? TRACE_VALUE_INT : TRACE_VALUE_UINT;
	v->u = n;
	if (!is_signed)
		return;
	switch (size) {
	case 1: v->i = (int8_t)n; break;
	case 2: v->i = (int16_t)n; break;
	case 4: v->i = (int32_t)n; break;
	default: v->i = (int64_t)n; break;
	}
}

/* The element size an array's type names, where the format gives none (u32 buf[]). */
static int type_elem_size(struct tep_handle *tep, const char *type)
{
	if (strstr(type, "64") || strstr(type, "long long"))
		return 8;
	if (strstr(type, "32") || strstr(type, "int"))
		return 4;
	if (strstr(type, "16") || strstr(type, "short"))
		return 2;
	if (strstr(type, "long"))
		return tep_get_long_size(tep);
	return 1;
}

/*
 * A plain field's number (1, 2, 4 or 8 bytes at @p), as number_value() reads
 * it and trace_format_put_value() writes it, at @out (room for 21 bytes);
 * returns the end.
 */
static char *put_plain(char *out, const void *p, const struct plain_op *op, int swap)
{
	uint64_t n = load_number(p, op->size, swap);
	/* sign-extended from the field's size: chosen, not branched on */
	uint64_t extended = (uint64_t)((int64_t)(n << op->shift) >> op->shift);

	n = op->is_signed ? extended : n;
	if (op->is_signed && (int64_t)n < 0) {
		*out++ = '-';
		n = -n;
	}
	return put_decimal(out, n, 0, 0);
}

/* The array's numbers as put_plain() writes them, in one reserve (a stack has dozens). */
static void put_array(struct jbuf *b, struct tep_handle *tep, const unsigned char *p,
		      size_t len, int elem, int is_signed)
{
	struct plain_op op = { 0 };
	int swap = tep_is_file_bigendian(tep) != tep_is_local_bigendian(tep);
	char *q;

	if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
		elem = 1;
	op.size = elem;
	op.is_signed = is_signed;
	op.shift = elem < 8 ? 64 - 8 * elem : 0;
	/* each element's digits, sign and comma: "-128," to 20 digits and a comma */
	jbuf_reserve(b, 2 + (len / elem + 1) * (elem == 8 ? 22 : elem == 4 ? 12 : 7));
	q = b->data + b->len;
	*q++ = '[';
	for (size_t off = 0; off + elem <= len; off += elem) {
		if (off)
			*q++ = ',';
		q = put_plain(q, p + off, &op, swap);
	}
	*q++ = ']';
	b->len = q - b->data;
}

void trace_format_put_value(struct jbuf *b, struct tep_handle *tep,
			    const struct trace_field_value *v)
{
	switch (v->kind) {
	case TRACE_VALUE_NULL:
		jbuf_puts(b, "null");
		break;
	case TRACE_VALUE_INT:
		jbuf_i64(b, v->i);
		break;
	case TRACE_VALUE_UINT:
		jbuf_u64(b, v->u);
		break;
	case TRACE_VALUE_TEXT:
		jbuf_jstr(b, v->data, v->len);
		break;
	case TRACE_VALUE_ARRAY:
		put_array(b, tep, (const unsigned char *)v->data, v->len, v->elem, v->is_signed);
		break;
	}
}

int trace_format_field_is_number(struct tep_format_field *f)
{
	return !(f->flags & (TEP_FIELD_IS_DYNAMIC | TEP_FIELD_IS_ARRAY)) && f->size;
}

static void text_value(const char *p, size_t len, struct trace_field_value *v)
{
	v->kind = TRACE_VALUE_TEXT;
	v->data = p;
	v->len = strnlen(p, len);
}

static void array_value(const unsigned char *p, size_t len, int elem, int is_signed,
			struct trace_field_value *v)
{
	v->kind = TRACE_VALUE_ARRAY;
	v->data = (const char *)p;
	v->len = len;
	v->elem = elem;
	v->is_signed = is_signed;
}

/* A __data_loc / __rel_loc field: a 32-bit word of offset (low) and length (high). */
static void dynamic_value(struct tep_handle *tep, struct tep_format_field *f,
			  struct tep_record *rec, int text, struct trace_field_value *v)
{
	const unsigned char *data = rec->data;
	uint64_t w = tep_read_number(tep, data + f->offset, f->size >= 4 ? 4 : f->size);
	size_t off = w & 0xffff, len = f->size >= 4 ? w >> 16 : 0;

	if (f->flags & TEP_FIELD_IS_RELATIVE)
		off += f->offset + f->size;
	if (off > (size_t)rec->size) {
		v->kind = TRACE_VALUE_NULL;
		return;
	}
	if (len > rec->size - off)
		len = rec->size - off;
	if (text)
		text_value((const char *)data + off, len, v);
	else
		array_value(data + off, len, f->elementsize ? (int)f->elementsize :
			    type_elem_size(tep, f->type), f->flags & TEP_FIELD_IS_SIGNED, v);
}

/*
 * @last: @f is the event's last field.  A last array of words runs to the
 * record's end: kernel_stack and user_stack declare caller[8] and carry as
 * many entries as the stack had, fewer or more.  (Smaller elements could be
 * the record's padding.)
 */
static void field_value(struct tep_handle *tep, struct tep_format_field *f, struct tep_record *rec,
			int last, int text, struct trace_field_value *v)
{
	const unsigned char *p = (const unsigned char *)rec->data + f->offset;
	int is_signed = f->flags & TEP_FIELD_IS_SIGNED;

	if (f->offset < 0 || f->size < 0 || f->offset > rec->size ||
	    (f->offset + f->size > rec->size && !(f->flags & TEP_FIELD_IS_ARRAY))) {
		v->kind = TRACE_VALUE_NULL;
	} else if (f->flags & TEP_FIELD_IS_DYNAMIC) {
		dynamic_value(tep, f, rec, text, v);
	} else if (((f->flags & TEP_FIELD_IS_ARRAY) || !f->size) && text) {
		/* char buf[] (ftrace's print): the string runs to the record's end */
		text_value((const char *)p, f->size ? (size_t)f->size :
			   (size_t)(rec->size - f->offset), v);
	} else if ((f->flags & TEP_FIELD_IS_ARRAY) || !f->size) {
		int elem = f->elementsize;
		size_t len = f->size;

		if (!elem && f->arraylen)
			elem = f->size / f->arraylen;
		if (!elem)
			elem = type_elem_size(tep, f->type);
		/* a trailing [] array (bprint's buf) holds the rest of the record */
		if (!f->size || f->offset + f->size > rec->size || (last && elem >= 4))
			len = rec->size - f->offset;
		array_value(p, len, elem, is_signed, v);
	} else {
		number_value(tep, p, f->size, is_signed, v);
	}
}

void trace_format_field_value(struct tep_handle *tep, struct tep_format_field *f,
			      struct tep_record *rec, int last, struct trace_field_value *v)
{
	field_value(tep, f, rec, last, is_text(f), v);
}

/* Field @i of @d's event in @rec, not a plain number in the record. */
static void put_field(struct jbuf *b, struct tep_handle *tep, const struct ev_desc *d, int i,
		      struct tep_record *rec)
{
	struct trace_field_value v;

	field_value(tep, d->fields[i], rec, i == d->nr - 1, d->texts[i], &v);
	trace_format_put_value(b, tep, &v);
}

/*
 * Field @i, a plain number, as a member (a comma first but for the first)
 * at @p.  Inline: its call was a tenth of what a field cost.
 */
static inline __attribute__((always_inline)) char *
put_plain_member(char *p, const struct ev_desc *d, int i, const void *data, char *const *keys,
		 const size_t *key_lens)
{
	const struct plain_op *op = &d->ops[i];

	*p = ',';
	p += i != 0;
	copy_slack(p, keys[i], key_lens[i]);
	return put_plain(p + key_lens[i], (const char *)data + op->offset, op, d->swap);
}

/* The object of an event whose fields are all plain numbers, all in the record. */
static char *put_plain_fields(char *p, const struct ev_desc *d, const void *data,
			      char *const *keys, const size_t *key_lens)
{
	*p++ = '{';
	for (int i = 0; i < d->nr; i++)
		p = put_plain_member(p, d, i, data, keys, key_lens);
	*p++ = '}';
	return p;
}

/*
 * The fields' JSON object; with @csv (scratch for a value), its quotes
 * doubled as inside a quoted csv cell, written in one pass: the object
 * always has quotes, and escaping it afterwards cost csv a fifth of its time.
 * A plain number field is one reserve, its key copied and its digits written.
 */
static void put_fields(struct jbuf *b, struct tep_handle *tep, const struct ev_desc *d,
		       struct tep_record *rec, struct jbuf *csv)
{
	char *const *keys = csv ? d->csv_keys : d->keys;
	const size_t *key_lens = csv ? d->csv_key_lens : d->key_lens;

	if (d->all_plain && (int)rec->size >= d->plain_end) {
		jbuf_reserve(b, (csv ? d->csv_plain_room : d->plain_room) + 2 + COPY_SLACK);
		b->len = put_plain_fields(b->data + b->len, d, rec->data, keys, key_lens) - b->data;
		return;
	}
	jbuf_putc(b, '{');
	for (int i = 0; i < d->nr; i++) {
		const struct plain_op *op = &d->ops[i];

		if (op->size && op->offset + op->size <= rec->size) {
			jbuf_reserve(b, 1 + key_lens[i] + 21 + COPY_SLACK);
			b->len = put_plain_member(b->data + b->len, d, i, rec->data, keys,
						  key_lens) - b->data;
			continue;
		}
		if (i)
			jbuf_putc(b, ',');
		jbuf_put(b, keys[i], key_lens[i]);
		if (!csv) {
			put_field(b, tep, d, i, rec);
		} else {
			csv->len = 0;
			put_field(csv, tep, d, i, rec);
			put_doubled(b, csv->data, csv->len);
		}
	}
	jbuf_putc(b, '}');
}

void trace_format_fields(struct jbuf *b, struct tep_handle *tep, struct tep_event *ev,
			 struct tep_record *rec)
{
	put_fields(b, tep, desc_of(ev), rec, NULL);
}

/* How @in's timestamps become ns: 0 they cannot, 1 they are ns, 2 by TSC2NSEC. */
static int ns_mode(struct trace_input *in, uint32_t *mult, uint32_t *shift, uint64_t *offset)
{
	struct tep_handle *tep = trace_input_tep(in);
	const unsigned char *p;
	size_t len;

	if (trace_input_in_usecs(in))
		return 1;
	/* Counter clocks: the TSC2NSEC option says how the kernel turned them into ns. */
	p = trace_input_option(in, TRACE_OPT_TSC2NSEC, 0, &len);
	if (!p || len < 16 || !tep)
		return 0;
	*mult = tep_read_number(tep, p, 4);
	*shift = tep_read_number(tep, p + 4, 4) & 127;
	*offset = tep_read_number(tep, p + 8, 8);
	return 2;
}

static uint64_t tsc_to_ns(uint64_t ts, uint32_t mult, uint32_t shift, uint64_t offset)
{
	unsigned __int128 v = (unsigned __int128)ts * mult;

	return (uint64_t)(v >> shift) + offset;
}

int trace_format_ts_ns(struct trace_input *in, uint64_t ts, uint64_t *ns)
{
	uint32_t mult, shift;
	uint64_t offset;

	switch (ns_mode(in, &mult, &shift, &offset)) {
	case 1:
		*ns = ts;
		return 1;
	case 2:
		*ns = tsc_to_ns(ts, mult, shift, offset);
		return 1;
	}
	return 0;
}


/* ---- records ------------------------------------------------------------- */

#define COMM_CACHE	4096
#define EVENT_CACHE	65536
#define COMM_FORMS	1024

/*
 * A task's pid and name written once as jsonl and csv have them, between
 * the record's common fields and its event's: ',"pid":N,"comm":"NAME",' and
 * 'N,NAME,'.  Kept by both, never dropped while the report runs, as queued
 * records point to it.
 */
struct comm_form {
	struct comm_form	*next;
	int			pid;
	char			*json, *csv;
	size_t			json_len, csv_len;
	char			name[];
};

struct trace_format {
	enum trace_format_kind	kind;
	int			multi_file, multi_buffer;
	struct jbuf		b;
	struct trace_format_scratch scratch;	/* trace_format_record()'s */
	/* what belongs to the input last seen */
	struct trace_input	*in;
	struct tep_handle	*tep;
	char			*file_json, *clock_json, *clock_csv;
	size_t			clock_json_len, clock_csv_len;	/* clock_csv: its comma after */
	int			ns_mode;
	uint32_t		mult, shift;
	uint64_t		offset;
	struct {
		int		pid;
		const struct comm_form *form;
	} comms[COMM_CACHE];
	struct ev_desc		*events[EVENT_CACHE];
	struct comm_form	*forms[COMM_FORMS];	/* by the name's hash */
};

static uint64_t ts_ns(const struct trace_format *f, uint64_t ts)
{
	return f->ns_mode == 1 ? ts : tsc_to_ns(ts, f->mult, f->shift, f->offset);
}

static char *json_string(const char *s)
{
	struct jbuf b = { 0 };

	jbuf_jstr(&b, s, strlen(s));
	jbuf_putc(&b, 0);
	return b.data;
}

struct trace_format *trace_format_new(enum trace_format_kind kind, int multi_file,
				      int multi_buffer)
{
	struct trace_format *f = xcalloc(1, sizeof(*f));

	f->kind = kind;
	f->multi_file = multi_file;
	f->multi_buffer = multi_buffer;
	if (kind == TRACE_FORMAT_CSV)
		printf("%s%sts,ts_ns,clock,cpu,pid,comm,system,event,flags,fields,text\r\n",
		       multi_file ? "file," : "", multi_buffer ? "buffer," : "");
	return f;
}

void trace_format_free(struct trace_format *f)
{
	if (!f)
		return;
	jbuf_free(&f->b);
	jbuf_free(&f->scratch.cell);
	for (int i = 0; i < COMM_FORMS; i++) {
		for (struct comm_form *c = f->forms[i], *next; c; c = next) {
			next = c->next;
			free(c->json);
			free(c->csv);
			free(c);
		}
	}
	free(f->file_json);
	free(f->clock_json);
	free(f->clock_csv);
	free(f);
}

static void switch_input(struct trace_format *f, struct trace_input *in)
{
	const char *clock = trace_input_clock(in);
	f->in = in;
	f->tep = trace_input_tep(in);
	free(f->file_json);
	free(f->clock_json);
	free(f->clock_csv);
	f->file_json = json_string(trace_input_file(in));
	f->clock_json = json_string(clock && *clock ? clock : "local");
	f->clock_json_len = strlen(f->clock_json);
	{
		struct jbuf b = { 0 };
		const char *name = clock && *clock ? clock : "local";

		csv_cell(&b, name, strlen(name), 0);
		f->clock_csv_len = b.len;
		f->clock_csv = jbuf_string(&b);
	}
	f->ns_mode = ns_mode(in, &f->mult, &f->shift, &f->offset);
	memset(f->comms, 0, sizeof(f->comms));
	memset(f->events, 0, sizeof(f->events));
}

/* @pid's and @name's JSON and csv forms, made the first time they are met. */
static const struct comm_form *comm_form(struct trace_format *f, int pid, const char *name)
{
	unsigned int h = 5381 + (unsigned int)pid;
	struct comm_form *c;
	size_t len = strlen(name);
	struct jbuf b = { 0 };

	for (size_t i = 0; i < len; i++)
		h = h * 33 + (unsigned char)name[i];
	h %= COMM_FORMS;
	for (c = f->forms[h]; c; c = c->next)
		if (c->pid == pid && !strcmp(c->name, name))
			return c;
	c = xcalloc(1, sizeof(*c) + len + 1);
	c->pid = pid;
	memcpy(c->name, name, len + 1);
	jbuf_puts(&b, ",\"pid\":");
	jbuf_i64(&b, pid);
	jbuf_puts(&b, ",\"comm\":");
	jbuf_jstr(&b, name, len);
	jbuf_putc(&b, ',');
	c->json_len = b.len;
	c->json = jbuf_string(&b);
	jbuf_i64(&b, pid);
	jbuf_putc(&b, ',');
	csv_cell(&b, name, len, 0);
	c->csv_len = b.len;
	c->csv = jbuf_string(&b);
	c->next = f->forms[h];
	f->forms[h] = c;
	return c;
}

static const struct comm_form *comm_of(struct trace_format *f, int pid)
{
	unsigned int h = (unsigned int)pid % COMM_CACHE;

	if (!f->comms[h].form || f->comms[h].pid != pid) {
		f->comms[h].pid = pid;
		f->comms[h].form = comm_form(f, pid, tep_data_comm_from_pid(f->tep, pid));
	}
	return f->comms[h].form;
}

static struct ev_desc *event_desc(struct trace_format *f, int id)
{
	struct tep_event *ev;

	if (id >= 0 && id < EVENT_CACHE && f->events[id])
		return f->events[id];
	ev = tep_find_event(f->tep, id);
	if (!ev)
		return NULL;
	if (id >= 0 && id < EVENT_CACHE)
		f->events[id] = desc_of(ev);
	return desc_of(ev);
}

/* @n bytes of @s at @p (a literal: the copy is inlined); returns the end. */
static inline char *put_lit(char *p, const char *s, size_t n)
{
	memcpy(p, s, n);
	return p + n;
}

/* @v in decimal at @p, its sign first; returns the end. */
static inline char *put_signed(char *p, int64_t v)
{
	if (v < 0) {
		*p++ = '-';
		return put_decimal(p, -(uint64_t)v, 0, 0);
	}
	return put_decimal(p, v, 0, 0);
}

/*
 * @ts in decimal at @p; returns the end.  Its digits above the last eight
 * change ten times a second: they are copied from @s, made again when they
 * change.
 */
static char *put_ts(char *p, uint64_t ts, struct trace_format_scratch *s)
{
	uint64_t high = ts / 100000000;

	if (!high)
		return put_decimal(p, ts, 0, 0);
	if (s->ts_high != high + 1) {
		s->ts_high = high + 1;
		s->ts_high_len = put_decimal(s->ts_high_text, high, 0, 0) - s->ts_high_text;
	}
	copy_slack(p, s->ts_high_text, s->ts_high_len);
	return put_fixed_digits(p + s->ts_high_len, ts % 100000000, 8);
}

/* "ts":..,"ts_ns":..,"clock":..,"cpu":.. with the file and buffer first when several. */
static void json_common(const struct trace_format *f, struct jbuf *b, struct tep_record *rec,
			int buffer, struct trace_format_scratch *s)
{
	char *p, *ts_at;
	size_t ts_len;

	jbuf_putc(b, '{');
	if (f->multi_file) {
		jbuf_puts(b, "\"file\":");
		jbuf_puts(b, f->file_json);
		jbuf_putc(b, ',');
	}
	if (f->multi_buffer) {
		const char *name = trace_input_buffer_name(f->in, buffer);

		jbuf_puts(b, "\"buffer\":");
		jbuf_jstr(b, name, strlen(name));
		jbuf_putc(b, ',');
	}
	/* the rest three numbers, the clock and keys: one reserve, written in place */
	jbuf_reserve(b, 64 + 3 * 20 + f->clock_json_len + COPY_SLACK);
	p = b->data + b->len;
	p = put_lit(p, "\"ts\":", 5);
	ts_at = p;
	p = put_ts(p, rec->ts, s);
	ts_len = p - ts_at;
	if (f->ns_mode == 1) {
		/* the same digits: a fixed-size move (they are at most 20) */
		p = put_lit(p, ",\"ts_ns\":", 9);
		memmove(p, ts_at, 24);
		p += ts_len;
	} else if (f->ns_mode) {
		p = put_lit(p, ",\"ts_ns\":", 9);
		p = put_decimal(p, ts_ns(f, rec->ts), 0, 0);
	}
	p = put_lit(p, ",\"clock\":", 9);
	copy_slack(p, f->clock_json, f->clock_json_len);	/* a jbuf's: room to spare */
	p = put_lit(p + f->clock_json_len, ",\"cpu\":", 7);
	p = put_decimal(p, rec->cpu, 0, 0);
	b->len = p - b->data;
}

static void jsonl_lost(const struct trace_format *f, struct tep_record *rec, int buffer,
		       struct jbuf *b, struct trace_format_scratch *s)
{
	json_common(f, b, rec, buffer, s);
	jbuf_puts(b, ",\"event\":\"lost\",\"count\":");
	if (rec->missed_events > 0)
		jbuf_u64(b, rec->missed_events);
	else
		jbuf_puts(b, "null");
	jbuf_puts(b, "}\n");
}

/* A jsonl record up to its text's first byte, after the text's opening quote. */
static void jsonl_start(const struct trace_format *f, const struct trace_format_prep *p,
			struct tep_record *rec, int buffer, struct jbuf *b,
			struct trace_format_scratch *s)
{
	const struct ev_desc *d = p->desc;
	static const char no_head[] = "\"system\":null,\"event\":null";
	size_t head_len = d ? d->head_len : sizeof(no_head) - 1;
	char *q;

	json_common(f, b, rec, buffer, s);
	/* pid, comm, system, event and flags: one reserve, written in place */
	jbuf_reserve(b, 64 + 21 + p->comm->json_len + head_len + 2 * COPY_SLACK);
	q = b->data + b->len;
	copy_slack(q, p->comm->json, p->comm->json_len);
	q += p->comm->json_len;
	if (d)
		copy_slack(q, d->head, head_len);
	else
		memcpy(q, no_head, head_len);
	q += head_len;
	q = put_lit(q, ",\"flags\":", 9);
	q = put_signed(q, p->flags);
	q = put_lit(q, ",\"fields\":", 10);
	b->len = q - b->data;
	if (d)
		put_fields(b, f->tep, d, rec, NULL);
	else
		jbuf_puts(b, "{}");
	jbuf_puts(b, ",\"text\":\"");
}

/* The raw text from @text_at to @b's end moved out to @cell, to be written again escaped. */
static const char *take_text(struct jbuf *b, size_t text_at, struct jbuf *cell)
{
	cell->len = 0;
	jbuf_put(cell, b->data + text_at, b->len - text_at);
	b->len = text_at;
	return cell->data;
}

/*
 * The text written raw at @text_at, escaped where it stands: most lines
 * need nothing, the rest are copied out (to @cell) and escaped back.
 * @plain: the text is known to need nothing, and is not looked at.
 */
static void jsonl_end(struct jbuf *b, size_t text_at, struct jbuf *cell, int plain)
{
	size_t n = b->len - text_at;

	if (!plain && plain_run((const unsigned char *)b->data + text_at, 0, n, PLAIN_JSON) != n)
		put_text(b, take_text(b, text_at, cell), n, 1);
	jbuf_puts(b, "\"}\n");
}

/* One csv cell: quoted (RFC 4180) only when it holds a comma, quote or line break. */
static void csv_cell(struct jbuf *b, const char *s, size_t len, int last)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t i = plain_run(u, 0, len, PLAIN_CSV_BARE);
	int quote = 0;

	if (i == len) {
		jbuf_reserve(b, len + 2);	/* an empty cell first: memcpy to no buffer */
		jbuf_put(b, s, len);
		jbuf_put(b, last ? "\r\n" : ",", last ? 2 : 1);
		return;
	}
	/* past the bytes that stop the scan but need no quotes (UTF-8), up to a NUL */
	while (i < len && u[i] && !quote) {
		quote = u[i] == ',' || u[i] == '"' || u[i] == '\n' || u[i] == '\r';
		if (!quote)
			i += 1 + plain_run(u, i + 1, len, PLAIN_CSV_BARE);
	}
	if (quote)
		jbuf_putc(b, '"');
	put_text(b, s, len, 0);
	if (quote)
		jbuf_putc(b, '"');
	jbuf_put(b, last ? "\r\n" : ",", last ? 2 : 1);
}

static void csv_num(struct jbuf *b, int64_t v)
{
	jbuf_i64(b, v);
	jbuf_putc(b, ',');
}

static void csv_common(const struct trace_format *f, struct tep_record *rec, int buffer,
		       struct jbuf *b, struct trace_format_scratch *s)
{
	char *p, *ts_at;
	size_t ts_len;

	if (f->multi_file) {
		const char *file = trace_input_file(f->in);

		csv_cell(b, file, strlen(file), 0);
	}
	if (f->multi_buffer) {
		const char *name = trace_input_buffer_name(f->in, buffer);

		csv_cell(b, name, strlen(name), 0);
	}
	/* ts, ts_ns, clock and cpu: one reserve, written in place */
	jbuf_reserve(b, 3 * 21 + f->clock_csv_len + COPY_SLACK);
	p = b->data + b->len;
	ts_at = p;
	p = put_ts(p, rec->ts, s);
	ts_len = p - ts_at;
	*p++ = ',';
	if (f->ns_mode == 1) {
		/* the same digits: a fixed-size move (they are at most 20) */
		memmove(p, ts_at, 24);
		p += ts_len;
	} else if (f->ns_mode) {
		p = put_decimal(p, ts_ns(f, rec->ts), 0, 0);
	}
	*p++ = ',';
	copy_slack(p, f->clock_csv, f->clock_csv_len);
	p += f->clock_csv_len;
	p = put_signed(p, rec->cpu);
	*p++ = ',';
	b->len = p - b->data;
}

static void csv_lost(const struct trace_format *f, struct tep_record *rec, int buffer,
		     struct jbuf *b, struct trace_format_scratch *s)
{
	char text[64];

	csv_common(f, rec, buffer, b, s);
	jbuf_puts(b, ",,,lost,,");
	if (rec->missed_events > 0) {
		jbuf_puts(b, "\"{\"\"count\"\":");
		jbuf_u64(b, rec->missed_events);
		jbuf_puts(b, "}\",");
		snprintf(text, sizeof(text), "CPU:%d [%lld EVENTS DROPPED]", rec->cpu,
			 (long long)rec->missed_events);
	} else {
		jbuf_puts(b, "\"{\"\"count\"\":null}\",");
		snprintf(text, sizeof(text), "CPU:%d [EVENTS DROPPED]", rec->cpu);
	}
	csv_cell(b, text, strlen(text), 1);
}

/* A csv record up to its text cell. */
static void csv_start(const struct trace_format *f, const struct trace_format_prep *p,
		      struct tep_record *rec, int buffer, struct jbuf *b,
		      struct trace_format_scratch *s)
{
	const struct ev_desc *d = p->desc;

	csv_common(f, rec, buffer, b, s);
	jbuf_reserve(b, p->comm->csv_len + COPY_SLACK);
	copy_slack(b->data + b->len, p->comm->csv, p->comm->csv_len);
	b->len += p->comm->csv_len;
	if (d)
		jbuf_put(b, d->csv_head, d->csv_head_len);
	else
		jbuf_put(b, ",,", 2);
	csv_num(b, p->flags);
	if (d && d->nr) {
		/* keys in quotes: the cell is quoted */
		jbuf_putc(b, '"');
		put_fields(b, f->tep, d, rec, &s->cell);
		jbuf_put(b, "\",", 2);
	} else {
		jbuf_puts(b, "{},");
	}
}

/*
 * The text written raw at @text_at made the record's last cell where it
 * stands, as csv_cell() makes it: as it is, or quoted as it is (a comma,
 * nothing to double), or else copied out (to @cell) and made again.
 */
static void csv_end(struct jbuf *b, size_t text_at, struct jbuf *cell)
{
	size_t n = b->len - text_at;
	const unsigned char *u = (const unsigned char *)b->data + text_at;

	if (plain_run(u, 0, n, PLAIN_CSV_BARE) == n) {
		jbuf_put(b, "\r\n", 2);
	} else if (plain_run(u, 0, n, PLAIN_CSV) == n) {
		jbuf_reserve(b, 4);
		memmove(b->data + text_at + 1, b->data + text_at, n);
		b->data[text_at] = '"';
		b->len++;
		jbuf_put(b, "\"\r\n", 3);
	} else {
		csv_cell(b, take_text(b, text_at, cell), n, 1);
	}
}

void trace_format_prepare_known(struct trace_format *f, struct trace_input *in,
				struct tep_record *rec, int type, int pid,
				struct trace_format_prep *p)
{
	if (in != f->in)
		switch_input(f, in);
	p->desc = event_desc(f, type);
	p->comm = comm_of(f, pid);
	p->flags = trace_input_record_flags(in, rec);
}

void trace_format_prepare(struct trace_format *f, struct trace_input *in,
			  struct tep_record *rec, struct trace_format_prep *p)
{
	/* the input's own readers of the type, pid, flags: libtraceevent's cost a call each */
	trace_format_prepare_known(f, in, rec, trace_input_record_type(in, rec),
				   trace_input_record_pid(in, rec), p);
}

void trace_format_line_start(const struct trace_format *f, const struct trace_format_prep *p,
			     struct tep_record *rec, int buffer, struct jbuf *b,
			     struct trace_format_scratch *s)
{
	if (f->kind == TRACE_FORMAT_CSV) {
		if (rec->missed_events)
			csv_lost(f, rec, buffer, b, s);
		csv_start(f, p, rec, buffer, b, s);
	} else {
		if (rec->missed_events)
			jsonl_lost(f, rec, buffer, b, s);
		jsonl_start(f, p, rec, buffer, b, s);
	}
}

void trace_format_line_end(const struct trace_format *f, struct jbuf *b, size_t text_at,
			   struct trace_format_scratch *s, int plain)
{
	if (f->kind == TRACE_FORMAT_CSV)
		csv_end(b, text_at, &s->cell);
	else
		jsonl_end(b, text_at, &s->cell, plain);
}

void trace_format_line(const struct trace_format *f, const struct trace_format_prep *p,
		       struct tep_record *rec, int buffer, const char *text, size_t len,
		       struct jbuf *b, struct trace_format_scratch *s)
{
	size_t text_at;

	trace_format_line_start(f, p, rec, buffer, b, s);
	text_at = b->len;
	jbuf_put(b, text, len);
	trace_format_line_end(f, b, text_at, s, 0);
}

const char *trace_format_record(struct trace_format *f, struct trace_input *in,
				struct tep_record *rec, int buffer, const char *text, size_t len,
				size_t *out_len)
{
	struct trace_format_prep p;

	trace_format_prepare(f, in, rec, &p);
	f->b.len = 0;
	trace_format_line(f, &p, rec, buffer, text, len, &f->b, &f->scratch);
	*out_len = f->b.len;
	return f->b.data;
}
