// SPDX-License-Identifier: GPL-2.0
/*
 * The kernel's BTF, read to print a function's prototype (list -f --proto).
 * Layout: Documentation/bpf/btf.rst: a header, then the type section (each
 * type a 12-byte struct btf_type and its kind's trailing data) and the
 * string section.  Only the host's byte order is read: /sys/kernel/btf/vmlinux
 * is always in it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <trace-seq.h>

#include "trace-cmd.h"
#include "trace-btf.h"

#define BTF_MAGIC	0xeB9F
#define BTF_MAX_DEPTH	32
#define BTF_INT_SIGNED	1	/* an INT's encoding bit */	/* type chains followed, against a loop in damaged data */

enum btf_kind {
	KIND_INT = 1, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION, KIND_ENUM, KIND_FWD,
	KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST, KIND_RESTRICT, KIND_FUNC, KIND_FUNC_PROTO,
	KIND_VAR, KIND_DATASEC, KIND_FLOAT, KIND_DECL_TAG, KIND_TYPE_TAG, KIND_ENUM64,
};

struct btf_type {
	uint32_t name_off;
	uint32_t info;		/* vlen: bits 0-15, kind: bits 24-28, kind_flag: bit 31 */
	uint32_t size_type;	/* a size, or the type it refers to */
};

struct btf_param {
	uint32_t name_off;
	uint32_t type;
};

struct trace_btf {
	unsigned char		*data;
	size_t			len;
	const char		*strings;
	uint32_t		str_len;
	const struct btf_type	**types;	/* by id; [0] is void (NULL) */
	uint32_t		nr_types;
	uint32_t		*funcs;		/* FUNC ids, sorted by name */
	uint32_t		nr_funcs;
};

static unsigned int kind_of(const struct btf_type *t)
{
	return (t->info >> 24) & 0x1f;
}

static unsigned int vlen_of(const struct btf_type *t)
{
	return t->info & 0xffff;
}

/* The bytes a type's kind puts after its struct btf_type, or -1 for an unknown kind. */
static long trailing_size(const struct btf_type *t)
{
	switch (kind_of(t)) {
	case KIND_INT: case KIND_VAR: case KIND_DECL_TAG:
		return 4;
	case KIND_ARRAY:
		return 12;
	case KIND_STRUCT: case KIND_UNION: case KIND_DATASEC: case KIND_ENUM64:
		return 12L * vlen_of(t);
	case KIND_ENUM: case KIND_FUNC_PROTO:
		return 8L * vlen_of(t);
	case KIND_PTR: case KIND_FWD: case KIND_TYPEDEF: case KIND_VOLATILE: case KIND_CONST:
	case KIND_RESTRICT: case KIND_FUNC: case KIND_FLOAT: case KIND_TYPE_TAG:
		return 0;
	}
	return -1;
}

static const char *name_of(const struct trace_btf *btf, uint32_t off)
{
	return off < btf->str_len ? btf->strings + off : "";
}

static const struct btf_type *type_of(const struct trace_btf *btf, uint32_t id)
{
	return id && id < btf->nr_types ? btf->types[id] : NULL;
}

/* qsort_r()'s order of FUNC ids by their names in @arg, the BTF. */
static int by_name(const void *a, const void *b, void *arg)
{
	const struct trace_btf *btf = arg;
	const struct btf_type *ta = btf->types[*(const uint32_t *)a];
	const struct btf_type *tb = btf->types[*(const uint32_t *)b];

	return strcmp(name_of(btf, ta->name_off), name_of(btf, tb->name_off));
}

/* Indexes every type of the type section (@at, @len bytes); -1 when damaged. */
static int index_types(struct trace_btf *btf, size_t at, size_t len, const char *file)
{
	size_t pos = at, cap = 1024;

	btf->types = xcalloc(cap, sizeof(*btf->types));
	btf->nr_types = 1;
	while (pos < at + len) {
		const struct btf_type *t = (const void *)(btf->data + pos);
		long more;

		if (at + len - pos < sizeof(*t) || (more = trailing_size(t)) < 0 ||
		    (size_t)more > at + len - pos - sizeof(*t))
			return error("'%s': BTF type %u at offset %zu is damaged", file,
				     btf->nr_types, pos);
		if (btf->nr_types == cap)
			btf->types = xrealloc(btf->types, sizeof(*btf->types) * (cap *= 2));
		btf->types[btf->nr_types++] = t;
		if (kind_of(t) == KIND_FUNC) {
			btf->funcs = xrealloc(btf->funcs, sizeof(*btf->funcs) * (btf->nr_funcs + 1));
			btf->funcs[btf->nr_funcs++] = btf->nr_types - 1;
		}
		pos += sizeof(*t) + more;
	}
	qsort_r(btf->funcs, btf->nr_funcs, sizeof(*btf->funcs), by_name, btf);
	return 0;
}

struct trace_btf *trace_btf_open(const char *file)
{
	struct trace_btf *btf = xcalloc(1, sizeof(*btf));
	uint32_t hdr[6];	/* magic, version, flags; hdr_len; type and string offsets, sizes */
	size_t hdr_len, type_off, type_len, str_off;

	btf->data = (unsigned char *)read_path_text(file, &btf->len);
	if (!btf->data) {
		error("cannot read '%s': %s", file, strerror(errno));
		goto fail;
	}
	if (btf->len < sizeof(hdr) || (memcpy(hdr, btf->data, sizeof(hdr)),
				       (hdr[0] & 0xffff) != BTF_MAGIC)) {
		error("'%s': not BTF in this machine's byte order", file);
		goto fail;
	}
	hdr_len = hdr[1];
	type_off = hdr_len + (size_t)hdr[2];
	type_len = hdr[3];
	str_off = hdr_len + (size_t)hdr[4];
	btf->str_len = hdr[5];
	if (hdr_len < sizeof(hdr) || type_off > btf->len || type_len > btf->len - type_off ||
	    str_off > btf->len || btf->str_len > btf->len - str_off || (type_off & 3)) {
		error("'%s': its BTF header names sections past its end", file);
		goto fail;
	}
	btf->strings = (const char *)btf->data + str_off;
	if (btf->str_len && btf->strings[btf->str_len - 1]) {
		error("'%s': its BTF strings do not end in a NUL", file);
		goto fail;
	}
	if (index_types(btf, type_off, type_len, file) < 0)
		goto fail;
	return btf;
fail:
	trace_btf_free(btf);
	return NULL;
}

void trace_btf_free(struct trace_btf *btf)
{
	if (!btf)
		return;
	free(btf->data);
	free(btf->types);
	free(btf->funcs);
	free(btf);
}

/*
 * An integer by its size and sign, not its name ("long unsigned int" is
 * "unsigned long long", a plain char "unsigned char"), as 3.4 prints it.
 */
static void print_int(struct trace_seq *s, const struct btf_type *t, const char *name)
{
	static const char *const by_size[] = { [1] = "char", [2] = "short", [4] = "int",
					       [8] = "long long" };
	uint32_t encoding = ((const uint32_t *)(t + 1))[0] >> 24;

	if (t->size_type >= ARRAY_SIZE(by_size) || !by_size[t->size_type]) {
		trace_seq_printf(s, "%s ", name);
		return;
	}
	trace_seq_printf(s, "%s%s ", encoding & BTF_INT_SIGNED ? "" : "unsigned ",
			 by_size[t->size_type]);
}

/*
 * A parameter's type as upstream 3.4 (libtraceevent's BTF reader) prints it
 * before the name: named types and qualifiers with a space after them, a
 * pointer's '*' right after its target; void (but for a plain void pointer),
 * a function type, an array and a struct only declared print nothing.
 */
static void print_type(const struct trace_btf *btf, struct trace_seq *s, uint32_t id, int depth)
{
	const struct btf_type *t = type_of(btf, id);
	const char *name;

	if (!t || depth > BTF_MAX_DEPTH)
		return;
	name = name_of(btf, t->name_off);
	switch (kind_of(t)) {
	case KIND_PTR:
		/* a plain void pointer says so; under a const the void is left out */
		if (!t->size_type)
			trace_seq_puts(s, "void ");
		print_type(btf, s, t->size_type, depth + 1);
		trace_seq_putc(s, '*');
		return;
	case KIND_INT:
		print_int(s, t, name);
		return;
	case KIND_FUNC_PROTO:
		return;
	case KIND_CONST:
		trace_seq_puts(s, "const ");
		print_type(btf, s, t->size_type, depth + 1);
		return;
	case KIND_VOLATILE:
		trace_seq_puts(s, "volatile ");
		print_type(btf, s, t->size_type, depth + 1);
		return;
	case KIND_RESTRICT: case KIND_TYPE_TAG:
		print_type(btf, s, t->size_type, depth + 1);
		return;
	case KIND_STRUCT:
		trace_seq_printf(s, "struct %s ", name);
		return;
	case KIND_UNION:
		trace_seq_printf(s, "union %s ", name);
		return;
	case KIND_ENUM: case KIND_ENUM64:
		trace_seq_printf(s, "enum %s ", name);
		return;
	case KIND_FWD: case KIND_ARRAY:
		/* 3.4 prints neither a declared-only struct nor an array */
		return;
	default:
		trace_seq_printf(s, "%s ", name);
	}
}

static const struct btf_type *find_func(const struct trace_btf *btf, const char *func)
{
	uint32_t lo = 0, hi = btf->nr_funcs;

	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		const struct btf_type *t = btf->types[btf->funcs[mid]];
		int cmp = strcmp(func, name_of(btf, t->name_off));

		if (!cmp)
			return t;
		if (cmp < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return NULL;
}

int trace_btf_proto(const struct trace_btf *btf, struct trace_seq *s, const char *func)
{
	const struct btf_type *f = find_func(btf, func), *proto;
	const struct btf_param *p;

	if (!f)
		return 0;
	trace_seq_printf(s, "%s(", func);
	proto = type_of(btf, f->size_type);
	if (proto && kind_of(proto) == KIND_FUNC_PROTO) {
		p = (const void *)(proto + 1);
		for (unsigned int i = 0; i < vlen_of(proto); i++) {
			if (i)
				trace_seq_puts(s, ", ");
			print_type(btf, s, p[i].type, 0);
			trace_seq_puts(s, name_of(btf, p[i].name_off));
		}
	}
	trace_seq_putc(s, ')');
	return 1;
}
