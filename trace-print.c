// SPDX-License-Identifier: GPL-2.0
/*
 * Report's event printer.  libtraceevent 1.7 interprets an event's print fmt
 * for every record (pretty_print(): a printf per argument, a malloc per
 * string); here the fmt and its argument tree are compiled once per event
 * into a list of items that write the same bytes.  What is compiled follows
 * libtraceevent's own rules (parse_args(), eval_num_arg(), print_str_arg(),
 * print_arg_pointer()); anything else, and any record that would make
 * libtraceevent warn (a field past the record's end), is left to it.
 */
#include <ctype.h>
#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>
#include <trace-seq.h>

#include "trace-cmd.h"
#include "trace-cursor.h"
#include "trace-debug.h"
#include "trace-format.h"
#include "trace-input.h"
#include "trace-print.h"
#include "trace-printk.h"
#include "trace-kallsyms.h"

#define PRINTER_IDS	65536	/* event ids with a cached program */
#define COMPILE_TRIES	8	/* compiles of an event whose symbols are not yet resolved */

/* ---- which events need kallsyms ------------------------------------------ */

/* An atom libtraceevent would look up as a symbol name (see test_for_symbol). */
static int atom_is_symbol(const char *atom)
{
	return atom && !isdigit((unsigned char)atom[0]) && !strtoull(atom, NULL, 0);
}

/* The arguments inside @arg (operands, fields, counts): up to 3 into @inner. */
static int inner_args(struct tep_print_arg *arg, struct tep_print_arg *inner[3])
{
	int n = 0;

	switch (arg->type) {
	case TEP_PRINT_TYPE:
		inner[n++] = arg->typecast.item;
		break;
	case TEP_PRINT_OP:
		inner[n++] = arg->op.left;
		inner[n++] = arg->op.right;
		break;
	case TEP_PRINT_FLAGS:
		inner[n++] = arg->flags.field;
		break;
	case TEP_PRINT_SYMBOL:
		inner[n++] = arg->symbol.field;
		break;
	case TEP_PRINT_HEX:
	case TEP_PRINT_HEX_STR:
		inner[n++] = arg->hex.field;
		inner[n++] = arg->hex.size;
		break;
	case TEP_PRINT_INT_ARRAY:
		inner[n++] = arg->int_array.field;
		inner[n++] = arg->int_array.count;
		inner[n++] = arg->int_array.el_size;
		break;
	case TEP_PRINT_FUNC:
		inner[n++] = arg->func.args;
		break;
	default:
		break;
	}
	return n;
}

static int walk_print_args(struct tep_print_arg *arg,
			   int (*visit)(struct tep_print_arg *arg, void *ctx), void *ctx);

/*
 * Calls @visit on @arg and, depth first, on the arguments inside it; stops
 * at the first that returns non-zero, and returns that.
 */
static int walk_print_arg(struct tep_print_arg *arg,
			  int (*visit)(struct tep_print_arg *arg, void *ctx), void *ctx)
{
	struct tep_print_arg *inner[3];
	int n, ret = visit(arg, ctx);

	n = ret ? 0 : inner_args(arg, inner);
	for (int i = 0; i < n && !ret; i++)
		ret = walk_print_args(inner[i], visit, ctx);
	return ret;
}

/* walk_print_arg() on each argument of @arg's list. */
static int walk_print_args(struct tep_print_arg *arg,
			   int (*visit)(struct tep_print_arg *arg, void *ctx), void *ctx)
{
	int ret = 0;

	for (; arg && !ret; arg = arg->next)
		ret = walk_print_arg(arg, visit, ctx);
	return ret;
}

/* A print function, or a symbol name used as a value: libtraceevent needs kallsyms. */
static int needs_functions(struct tep_print_arg *arg, void *ctx)
{
	(void)ctx;
	return arg->type == TEP_PRINT_FUNC ||
	       (arg->type == TEP_PRINT_ATOM && atom_is_symbol(arg->atom.atom));
}

/*
 * libtraceevent looks an atom up as a function's name only where it takes
 * it for a number (eval_num_arg()'s test_for_symbol()); an atom printed by
 * a %s (print_str_arg(): "R" in sched_switch's "? :") is text.  Calls
 * @visit on each atom taken for a number and each print function inside
 * @arg, printed as a string when @string; stops at the first non-zero.
 */
static int walk_symbol_args(struct tep_print_arg *arg, int string,
			    int (*visit)(struct tep_print_arg *arg, void *ctx), void *ctx)
{
	struct tep_print_arg *colon;
	int ret;

	if (!string)
		return walk_print_arg(arg, visit, ctx);
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		return 0;
	case TEP_PRINT_OP:
		colon = arg->op.right;
		if (!arg->op.op || strcmp(arg->op.op, "?") || !colon ||
		    colon->type != TEP_PRINT_OP || !colon->op.op || strcmp(colon->op.op, ":"))
			break;
		ret = arg->op.left ? walk_print_arg(arg->op.left, visit, ctx) : 0;
		if (!ret && colon->op.left)
			ret = walk_symbol_args(colon->op.left, 1, visit, ctx);
		if (!ret && colon->op.right)
			ret = walk_symbol_args(colon->op.right, 1, visit, ctx);
		return ret;
	default:
		break;
	}
	return walk_print_arg(arg, visit, ctx);
}

/*
 * walk_symbol_args() on each argument of @ev's print fmt, paired with its
 * conversion as libtraceevent's parse_arg_format() pairs them (a '*' takes
 * a number first).  Past a conversion it does not know, every argument
 * left counts as a number.
 */
static int walk_print_fmt_symbols(struct tep_event *ev,
				  int (*visit)(struct tep_print_arg *arg, void *ctx), void *ctx)
{
	const char *f = ev->print_fmt.format;
	struct tep_print_arg *arg = ev->print_fmt.args;
	int ret = 0;

	for (; f && *f && arg && !ret; f++) {
		if (*f == '\\' && f[1]) {
			f++;
			continue;
		}
		if (*f != '%')
			continue;
		if (f[1] == '%') {
			f++;
			continue;
		}
		for (f++; *f && strchr("#-+ 0123456789.*hlLzZ", *f) && !ret; f++) {
			if (*f == '*') {
				ret = walk_print_arg(arg, visit, ctx);
				arg = arg->next;
				if (!arg)
					return ret;
			}
		}
		if (!*f || !strchr("pduixXos", *f))
			break;
		if (!ret)
			ret = walk_symbol_args(arg, *f == 's', visit, ctx);
		arg = arg->next;
	}
	return ret ? ret : walk_print_args(arg, visit, ctx);
}

/* A %p followed by one of the letters that print a symbol. */
static int format_prints_symbol(const char *fmt)
{
	for (const char *p = fmt ? strchr(fmt, '%') : NULL; p; p = strchr(p + 1, '%')) {
		const char *q = p + 1 + strspn(p + 1, "#-+ 0123456789.*hlLzZ");

		if (*q == 'p' && q[1] && strchr("fFsS", q[1]))
			return 1;
	}
	return 0;
}

/* ---- compiled programs ---------------------------------------------------- */

enum expr_kind { X_CONST, X_FIELD, X_INDEX, X_MASK, X_COND, X_OP };

enum op {
	OP_NOT, OP_NE, OP_BITNOT, OP_OR, OP_LOR, OP_AND, OP_LAND, OP_LT, OP_SHL, OP_LE,
	OP_GT, OP_SHR, OP_GE, OP_EQ, OP_SUB, OP_ADD, OP_DIV, OP_MOD, OP_MUL,
};

/* A number as eval_num_arg() computes it. */
struct expr {
	enum expr_kind	kind;
	enum op		op;
	uint64_t	val;		/* X_CONST; X_MASK and X_INDEX: the cast's mask;
					   X_FIELD: its size's mask and its cast's */
	int		offset, size;	/* X_FIELD; X_INDEX: array start, element size */
	struct expr	*a, *b, *c;	/* operands; X_INDEX: a is the index */
};

enum str_kind { S_CONST, S_ARRAY, S_DYN, S_COND, S_SYMBOL, S_FLAGS, S_PRINTK };

struct sym {
	long long	val;
	const char	*str;		/* the program's copy, COPY_SLACK to spare */
	size_t		len;
};

/* A string as print_str_arg() finds it, printed with the item's %s spec. */
struct str {
	enum str_kind	kind;
	const char	*text;		/* S_CONST; S_FLAGS: the delimiter or NULL */
	int		offset, size;	/* S_ARRAY: size 0 is the rest of the record; S_DYN; S_PRINTK */
	int		relative;	/* S_DYN: __rel_loc */
	struct expr	*e;		/* S_COND, S_SYMBOL, S_FLAGS */
	struct str	*yes, *no;	/* S_COND */
	struct sym	*syms;		/* S_SYMBOL, S_FLAGS */
	int		nr_syms;
};

/* I_END: the item after a program's last, where run() stops. */
enum item_kind { I_TEXT, I_NUM, I_STR, I_PTR, I_FUNC, I_CALL_SITE, I_END };

struct spec {
	char		fmt[32];	/* as libtraceevent passes it to printf */
	int		simple;		/* only '-', '0', a width: formatted here */
	int		left, zero, width, prec;
	char		conv;
	int		ls;		/* -2 char ... 2 long long, as parse_arg_format() */
};

struct item {
	enum item_kind	kind;
	/* Text put before the item: the I_TEXT before a conversion, folded in. */
	const char	*pre;
	size_t		pre_len;
	struct spec	sp;
	const char	*text;		/* I_TEXT */
	size_t		len;
	struct expr	*e;		/* I_NUM, I_PTR, I_FUNC, I_CALL_SITE */
	struct str	*s;		/* I_STR */
	int		offset_too;	/* I_FUNC: %pS/%pF add +0xOFF */
};

struct program {
	struct item	*items;
	int		nr_items;
	int		needs_functions;
	int		json_plain;	/* its every text needs no JSON escaping */
};

enum { PROG_NONE, PROG_OK, PROG_SLOW, PROG_RETRY };

struct slot {
	struct tep_event	*ev;
	struct program		*prog;
	int			state;
	int			tries;
};

/*
 * The functions found for addresses, as tep_find_function() and
 * tep_find_function_address() answer: both are a binary search of kallsyms,
 * and the same call sites come back on every other line.
 */
#define FUNC_CACHE	1024

struct func_entry {
	unsigned long long	addr, start;
	char			*name;		/* our copy, COPY_SLACK to spare; NULL: empty */
	size_t			len, cap;
};

struct trace_printer {
	struct trace_input	*in;
	struct tep_handle	*tep;
	int			swap;		/* file and host byte orders differ */
	int			load_masked;	/* both little-endian: a field is its low bytes */
	int			disabled;	/* TRACE_CMD_SLOW_PRINT */
	struct slot		*slots;
	int			slots_used;	/* past the highest id seen: free reads no more */
	/* Everything a program owns, freed together. */
	void			**owned;
	int			nr_owned, cap_owned;
	/* The line being built, and the record it is built from. */
	char			*buf;
	size_t			len, cap;
	const unsigned char	*data;
	int			size;
	int			bail;		/* this record needs libtraceevent */
	struct printk_table	*printk;	/* made when a program first needs it */
	struct func_entry	*funcs;		/* FUNC_CACHE of them, made on first use */
	int			functions_sorted;	/* libtraceevent's map, for runners */
	/* A runner (trace_printer_runner): the printer whose programs it runs. */
	const struct trace_printer *owner;
};

static void *own(struct trace_printer *p, void *mem)
{
	if (p->nr_owned == p->cap_owned) {
		p->cap_owned = p->cap_owned ? 2 * p->cap_owned : 64;
		p->owned = xrealloc(p->owned, sizeof(*p->owned) * p->cap_owned);
	}
	p->owned[p->nr_owned++] = mem;
	return mem;
}

static void *alloc(struct trace_printer *p, size_t size)
{
	return own(p, xcalloc(1, size));
}

/* ---- compiling numbers ---------------------------------------------------- */

/* All the bits of a number of @size (1, 2, 4 or 8) bytes. */
static uint64_t size_mask(int size)
{
	return size >= 8 ? ~0ULL : (1ULL << (8 * size)) - 1;
}

/* A number field of 1, 2, 4 or 8 bytes: its mask, all its bits. */
static struct expr *field_expr(struct trace_printer *p, const struct tep_format_field *f)
{
	struct expr *x = alloc(p, sizeof(*x));

	x->kind = X_FIELD;
	x->offset = f->offset;
	x->size = f->size;
	x->val = size_mask(f->size);
	return x;
}

static struct expr *compile_num(struct trace_printer *p, struct tep_event *ev,
				struct tep_print_arg *arg);

/* eval_type_str(): what a cast keeps of a value, as a mask (0: all of it). */
static int cast_mask(const char *type, int pointer, uint64_t *mask)
{
	size_t len = type ? strlen(type) : 0;
	char ref[64];

	*mask = 0;
	if (len < 2)
		return -1;
	if (pointer) {
		if (type[len - 1] != '*' || len - 2 >= sizeof(ref))
			return -1;
		memcpy(ref, type, len - 2);
		ref[len - 2] = 0;
		return cast_mask(ref, 0, mask);
	}
	if (type[len - 1] == '*' || !strncmp(type, "struct", 6))
		return 0;
	if (!strcmp(type, "u8") || !strcmp(type, "s8"))
		*mask = 0xff;
	else if (!strcmp(type, "u16") || !strcmp(type, "s16"))
		*mask = 0xffff;
	else if (!strcmp(type, "u32") || !strcmp(type, "s32"))
		*mask = 0xffffffff;
	else {
		if (!strncmp(type, "unsigned ", 9))
			type += 9;
		if (!strcmp(type, "char"))
			*mask = 0xff;
		else if (!strcmp(type, "short"))
			*mask = 0xffff;
		else if (!strcmp(type, "int"))
			*mask = 0xffffffff;
	}
	return 0;
}

static struct tep_format_field *arg_field(struct tep_event *ev, struct tep_print_arg *arg)
{
	if (!arg->field.field)
		arg->field.field = tep_find_any_field(ev, arg->field.name);
	return arg->field.field;
}

static int number_size(int size)
{
	return size == 1 || size == 2 || size == 4 || size == 8;
}

/* REC->array[index], possibly cast: the '[' case of eval_num_arg(). */
static struct expr *compile_index(struct trace_printer *p, struct tep_event *ev,
				  struct tep_print_arg *arg)
{
	struct tep_print_arg *larg = arg->op.left, *typearg = NULL;
	struct tep_format_field *f;
	struct expr *x;

	while (larg && larg->type == TEP_PRINT_TYPE) {
		if (!typearg)
			typearg = larg;
		larg = larg->typecast.item;
	}
	if (!larg || larg->type != TEP_PRINT_FIELD || !(f = arg_field(ev, larg)) ||
	    !number_size(f->elementsize))
		return NULL;
	x = alloc(p, sizeof(*x));
	x->kind = X_INDEX;
	x->offset = f->offset;
	x->size = f->elementsize;
	if (typearg && cast_mask(typearg->typecast.type, 1, &x->val) < 0)
		return NULL;
	x->a = compile_num(p, ev, arg->op.right);
	if (x->a && x->a->kind == X_CONST && x->a->val < 65536) {
		/* REC->args[2]: a field of its own, as the printer reads it */
		uint64_t mask = x->val;

		x->kind = X_FIELD;
		x->offset += (int)x->a->val * x->size;
		x->val = size_mask(x->size);
		if (mask)
			x->val &= mask;
		x->a = NULL;
	}
	return x->a || x->kind == X_FIELD ? x : NULL;
}

static int op_code(const char *op, enum op *code)
{
	static const struct { const char *name; enum op code; } ops[] = {
		{ "!", OP_NOT }, { "!=", OP_NE }, { "~", OP_BITNOT }, { "|", OP_OR },
		{ "||", OP_LOR }, { "&", OP_AND }, { "&&", OP_LAND }, { "<", OP_LT },
		{ "<<", OP_SHL }, { "<=", OP_LE }, { ">", OP_GT }, { ">>", OP_SHR },
		{ ">=", OP_GE }, { "==", OP_EQ }, { "-", OP_SUB }, { "+", OP_ADD },
		{ "/", OP_DIV }, { "%", OP_MOD }, { "*", OP_MUL },
	};

	for (size_t i = 0; i < ARRAY_SIZE(ops); i++) {
		if (!strcmp(op, ops[i].name)) {
			*code = ops[i].code;
			return 0;
		}
	}
	return -1;
}

static struct expr *compile_op(struct trace_printer *p, struct tep_event *ev,
			       struct tep_print_arg *arg)
{
	struct expr *x;

	if (!arg->op.op)
		return NULL;
	if (!strcmp(arg->op.op, "["))
		return compile_index(p, ev, arg);
	x = alloc(p, sizeof(*x));
	if (!strcmp(arg->op.op, "?")) {
		struct tep_print_arg *colon = arg->op.right;

		if (!colon || colon->type != TEP_PRINT_OP || !colon->op.op ||
		    strcmp(colon->op.op, ":"))
			return NULL;
		x->kind = X_COND;
		x->a = compile_num(p, ev, arg->op.left);
		x->b = compile_num(p, ev, colon->op.left);
		x->c = compile_num(p, ev, colon->op.right);
		return x->a && x->b && x->c ? x : NULL;
	}
	if (op_code(arg->op.op, &x->op) < 0)
		return NULL;
	/* Both operands are evaluated, even of a unary operator (its left is NULL). */
	x->kind = X_OP;
	x->a = compile_num(p, ev, arg->op.left);
	x->b = compile_num(p, ev, arg->op.right);
	return x->a && x->b ? x : NULL;
}

static struct expr *compile_num(struct trace_printer *p, struct tep_event *ev,
				struct tep_print_arg *arg)
{
	struct tep_format_field *f;
	struct expr *x;

	if (!arg)
		return NULL;
	switch (arg->type) {
	case TEP_PRINT_NULL:
		x = alloc(p, sizeof(*x));
		x->kind = X_CONST;
		return x;
	case TEP_PRINT_ATOM:
		/* A symbol name is resolved by libtraceevent on first use; wait for it. */
		if (!arg->atom.atom || atom_is_symbol(arg->atom.atom))
			return NULL;
		x = alloc(p, sizeof(*x));
		x->kind = X_CONST;
		x->val = strtoull(arg->atom.atom, NULL, 0);
		return x;
	case TEP_PRINT_FIELD:
		f = arg_field(ev, arg);
		if (!f || !number_size(f->size))
			return NULL;
		return field_expr(p, f);
	case TEP_PRINT_TYPE:
		x = alloc(p, sizeof(*x));
		x->kind = X_MASK;
		if (cast_mask(arg->typecast.type, 0, &x->val) < 0)
			return NULL;
		x->a = compile_num(p, ev, arg->typecast.item);
		if (x->a && x->a->kind == X_FIELD) {
			/* a cast field is a field with a narrower mask, or its own (no mask) */
			if (x->val)
				x->a->val &= x->val;
			return x->a;
		}
		return x->a ? x : NULL;
	case TEP_PRINT_OP:
		return compile_op(p, ev, arg);
	default:
		return NULL;
	}
}

/* ---- compiling strings ---------------------------------------------------- */

/* eval_flag(): a symbol table value, numeric or one of the names libtraceevent knows. */
static long long flag_value(const char *v)
{
	static const struct { const char *name; long long val; } names[] = {
		{ "HI_SOFTIRQ", 0 }, { "TIMER_SOFTIRQ", 1 }, { "NET_TX_SOFTIRQ", 2 },
		{ "NET_RX_SOFTIRQ", 3 }, { "BLOCK_SOFTIRQ", 4 }, { "IRQ_POLL_SOFTIRQ", 5 },
		{ "TASKLET_SOFTIRQ", 6 }, { "SCHED_SOFTIRQ", 7 }, { "HRTIMER_SOFTIRQ", 8 },
		{ "RCU_SOFTIRQ", 9 }, { "HRTIMER_NORESTART", 0 }, { "HRTIMER_RESTART", 1 },
	};

	if (isdigit((unsigned char)v[0]))
		return strtoull(v, NULL, 0);
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(names[i].name, v))
			return names[i].val;
	return -1LL;
}

static int compile_syms(struct trace_printer *p, struct str *s, struct tep_print_flag_sym *fs)
{
	for (struct tep_print_flag_sym *f = fs; f; f = f->next)
		if (!f->value || !f->str)
			return -1;
		else
			s->nr_syms++;
	s->syms = alloc(p, sizeof(*s->syms) * (s->nr_syms + 1));
	s->nr_syms = 0;
	for (struct tep_print_flag_sym *f = fs; f; f = f->next) {
		struct sym *sym = &s->syms[s->nr_syms++];

		sym->val = flag_value(f->value);
		sym->len = strlen(f->str);
		sym->str = own(p, dup_slack(f->str, sym->len));
	}
	return 0;
}

static struct str *compile_str(struct trace_printer *p, struct tep_event *ev,
			       struct tep_print_arg *arg)
{
	struct tep_format_field *f;
	struct str *s;

	if (!arg)
		return NULL;
	s = alloc(p, sizeof(*s));
	switch (arg->type) {
	case TEP_PRINT_ATOM:
		s->kind = S_CONST;
		s->text = arg->atom.atom;
		return s->text ? s : NULL;
	case TEP_PRINT_FIELD:
		f = arg_field(ev, arg);
		if (!f)
			return NULL;
		/* A long-sized scalar is a pointer to a printk string. */
		if (!(f->flags & TEP_FIELD_IS_ARRAY) && f->size == tep_get_long_size(ev->tep)) {
			if (!p->printk) {
				char *text = trace_input_usable_printk(p->in);

				p->printk = printk_table_parse(text ? text : "");
				free(text);
			}
			s->kind = S_PRINTK;
			s->offset = f->offset;
			s->size = f->size == 8 ? 8 : 4;
			return s;
		}
		s->kind = S_ARRAY;
		s->offset = f->offset;
		s->size = f->size;
		return s;
	case TEP_PRINT_STRING:
		if (!arg->string.field)
			arg->string.field = tep_find_any_field(ev, arg->string.string);
		f = arg->string.field;
		if (!f || (f->size != 2 && f->size != 4))
			return NULL;
		s->kind = S_DYN;
		s->offset = f->offset;
		s->size = f->size;
		s->relative = !!(f->flags & TEP_FIELD_IS_RELATIVE);
		return s;
	case TEP_PRINT_OP:
		if (!arg->op.op || strcmp(arg->op.op, "?") || !arg->op.right ||
		    arg->op.right->type != TEP_PRINT_OP)
			return NULL;
		s->kind = S_COND;
		s->e = compile_num(p, ev, arg->op.left);
		s->yes = compile_str(p, ev, arg->op.right->op.left);
		s->no = compile_str(p, ev, arg->op.right->op.right);
		return s->e && s->yes && s->no ? s : NULL;
	case TEP_PRINT_SYMBOL:
		s->kind = S_SYMBOL;
		s->e = compile_num(p, ev, arg->symbol.field);
		return s->e && compile_syms(p, s, arg->symbol.symbols) == 0 ? s : NULL;
	case TEP_PRINT_FLAGS:
		s->kind = S_FLAGS;
		s->text = arg->flags.delim;
		s->e = compile_num(p, ev, arg->flags.field);
		return s->e && compile_syms(p, s, arg->flags.flags) == 0 ? s : NULL;
	default:
		return NULL;
	}
}

/* ---- compiling the format ------------------------------------------------- */

/* Reads a printf spec ("%-5lu") into @sp: what is formatted here, what by printf. */
static void parse_spec(struct spec *sp)
{
	const char *q = sp->fmt + 1;
	int other = 0;

	sp->prec = -1;
	for (; strchr("-+ #0", *q); q++) {
		if (*q == '-')
			sp->left = 1;
		else if (*q == '0')
			sp->zero = 1;
		else
			other = 1;
	}
	for (; isdigit((unsigned char)*q); q++)
		sp->width = sp->width * 10 + (*q - '0');
	if (*q == '.') {
		sp->prec = 0;
		for (q++; isdigit((unsigned char)*q); q++)
			sp->prec = sp->prec * 10 + (*q - '0');
	}
	q += strspn(q, "hlLzZ");
	sp->conv = *q;
	sp->simple = !other && sp->width < 64 && sp->conv != 'o';
}

static struct item *add_item(struct trace_printer *p, struct program *prog, enum item_kind kind)
{
	struct item *it;

	prog->items = xrealloc(prog->items, sizeof(*prog->items) * (prog->nr_items + 1));
	it = &prog->items[prog->nr_items++];
	memset(it, 0, sizeof(*it));
	it->kind = kind;
	(void)p;
	return it;
}

/* Text up to the next conversion, with parse_arg_string()'s escapes.  Returns its length in @fmt. */
static int compile_text(struct trace_printer *p, struct program *prog, const char *fmt)
{
	char *text = own(p, xmalloc(strlen(fmt) + 1 + COPY_SLACK));
	const char *f = fmt;
	size_t n = 0;
	struct item *it;

	for (; *f; f++) {
		if (*f == '\\') {
			f++;
			if (!*f)
				return -1;
			text[n++] = *f == 'n' ? '\n' : *f == 't' ? '\t' : *f == 'r' ? '\r' : *f;
		} else if (*f == '%') {
			if (f[1] != '%')
				break;
			text[n++] = '%';
			f++;
		} else {
			text[n++] = *f;
		}
	}
	text[n] = 0;
	it = add_item(p, prog, I_TEXT);
	it->text = text;
	it->len = n;
	return f - fmt;
}

/*
 * One conversion at @fmt with its argument, as parse_arg_format() splits it.
 * Returns the characters it covers, or -1 for what is left to libtraceevent.
 */
static int compile_conv(struct trace_printer *p, struct program *prog, struct tep_event *ev,
			const char *fmt, struct tep_print_arg **arg)
{
	const char *f = fmt + 1;
	struct item *it;
	int ls = 0;
	size_t len;

	for (;; f++) {
		if (*f == 'h')
			ls--;
		else if (*f == 'l')
			ls++;
		else if (*f == 'L')
			ls = 2;
		else if (*f == 'z' || *f == 'Z')
			ls = 1;
		else if (!(*f == '#' || *f == '.' || *f == '-' || *f == '+' || isdigit((unsigned char)*f)))
			break;
	}
	if (!*arg || !strchr("pduixXos", *f) || !*f)
		return -1;
	if (*f == 'p') {
		it = add_item(p, prog, I_PTR);
		if (f[1] && strchr("FfSs", f[1])) {
			it->kind = I_FUNC;
			it->offset_too = f[1] == 'F' || f[1] == 'S';
			f++;
			prog->needs_functions = 1;
		} else if (f[1] && strchr("MmIiUh", f[1])) {
			return -1;
		}
		it->e = compile_num(p, ev, *arg);
		if (!it->e)
			return -1;
	} else if (*f == 's') {
		it = add_item(p, prog, I_STR);
		it->s = compile_str(p, ev, *arg);
		if (!it->s || ls)
			return -1;
	} else {
		it = add_item(p, prog, I_NUM);
		if (ls < -2 || ls > 2)
			return -1;
		it->e = compile_num(p, ev, *arg);
		if (!it->e)
			return -1;
	}
	len = f + 1 - fmt;
	if (len >= sizeof(it->sp.fmt))
		return -1;
	memcpy(it->sp.fmt, fmt, len);
	it->sp.fmt[len] = 0;
	it->sp.ls = ls;
	parse_spec(&it->sp);
	if (it->kind == I_STR && (it->sp.zero || !it->sp.simple))
		return -1;
	if (it->kind == I_NUM && it->sp.prec >= 0)
		it->sp.simple = 0;	/* printf pads digits to a precision; not done here */
	*arg = (*arg)->next;
	return len;
}

/* ---- plugins' handlers ---------------------------------------------------- */

/*
 * Handlers whose output is reproduced here, known by the plugin that
 * registered them (dladdr() names the file the function lies in) and the
 * event: one from another plugin, or a user's own, stays with libtraceevent.
 */
enum handler { H_NONE, H_KMEM, H_OTHER };

static const char *plugin_file(tep_event_handler_func fn)
{
	Dl_info info;
	const char *slash;

	if (!dladdr((void *)fn, &info) || !info.dli_fname)
		return "";
	slash = strrchr(info.dli_fname, '/');
	return slash ? slash + 1 : info.dli_fname;
}

static enum handler handler_of(const struct tep_event *ev)
{
	static const char *const kmem_events[] = {
		"kfree", "kmalloc", "kmalloc_node", "kmem_cache_alloc", "kmem_cache_alloc_node",
		"kmem_cache_free",
	};

	if (!ev->handler || (ev->flags & TEP_EVENT_FL_NOHANDLE))
		return H_NONE;
	if (!ev->system || strcmp(ev->system, "kmem") || strcmp(plugin_file(ev->handler), "plugin_kmem.so"))
		return H_OTHER;
	for (size_t i = 0; i < ARRAY_SIZE(kmem_events); i++)
		if (!strcmp(ev->name, kmem_events[i]))
			return H_KMEM;
	return H_OTHER;
}

/*
 * Plugins whose handlers never look a function up (none imports
 * tep_find_function* or tep_print_func_field): their events need kallsyms
 * only for their print fmt, which libtraceevent prints when the handler
 * gives up.
 */
static int handler_needs_functions(const struct tep_event *ev)
{
	const char *file;

	if (handler_of(ev) == H_NONE)
		return 0;
	file = plugin_file(ev->handler);
	return strcmp(file, "plugin_sched_switch.so") && strcmp(file, "plugin_futex.so");
}

/* Whether libtraceevent's print of @ev may look a function up. */
static int fmt_needs_functions(struct tep_event *ev)
{
	return format_prints_symbol(ev->print_fmt.format) ||
	       walk_print_fmt_symbols(ev, needs_functions, NULL);
}

int trace_print_needs_functions(struct tep_event *ev)
{
	if (!ev)
		return 0;
	if (handler_needs_functions(ev) || (ev->flags & TEP_EVENT_FL_ISBPRINT))
		return 1;
	return fmt_needs_functions(ev);
}

/*
 * plugin_kmem's call_site_handler(): "(FUNC+0xOFF) " before the event's own
 * text when the call_site field (found by tep_find_field, read by its size)
 * names a function; nothing when it does not.
 */
static void compile_call_site(struct trace_printer *p, struct program *prog, struct tep_event *ev)
{
	struct tep_format_field *f = tep_find_field(ev, "call_site");
	struct item *it;

	if (!f || !number_size(f->size))
		return;
	it = add_item(p, prog, I_CALL_SITE);
	it->e = field_expr(p, f);
	prog->needs_functions = 1;
}

static void free_program(struct program *prog)
{
	if (prog)
		free(prog->items);
	free(prog);
}

/* Text known at compile time, kept as the program's own copy. */
static void add_text(struct trace_printer *p, struct program *prog, const char *text)
{
	struct item *it = add_item(p, prog, I_TEXT);

	it->len = strlen(text);
	it->text = own(p, dup_slack(text, it->len));
}

/*
 * tep_print_field_content() on a number field: the printf format it picks
 * by the field's flags and size, with the cut to its type (spec.ls).
 */
static const char *field_number_format(const struct tep_format_field *f)
{
	if (f->flags & TEP_FIELD_IS_POINTER)
		return "0x%llx";
	if (!(f->flags & TEP_FIELD_IS_SIGNED))
		return f->flags & TEP_FIELD_IS_LONG ? "0x%llx" : "%llu";
	switch (f->size) {
	case 4:
		return f->flags & TEP_FIELD_IS_LONG ? "0x%x" : "%d";
	case 2:
		return "%2hd";
	case 1:
		return "%1hhd";
	default:
		return "%lld";
	}
}

static int compile_field_number(struct trace_printer *p, struct program *prog,
				const struct tep_format_field *f)
{
	const char *fmt = field_number_format(f);
	struct item *it;

	if (!strncmp(fmt, "0x", 2)) {
		add_text(p, prog, "0x");
		fmt += 2;
	}
	it = add_item(p, prog, I_NUM);
	snprintf(it->sp.fmt, sizeof(it->sp.fmt), "%s", fmt);
	it->sp.ls = strstr(fmt, "ll") ? 2 : strstr(fmt, "hh") ? -2 : strchr(fmt, 'h') ? -1 : 0;
	parse_spec(&it->sp);
	it->e = field_expr(p, f);
	return 0;
}

/*
 * A format libtraceevent could not parse: pretty_print() prints "[FAILED TO
 * PARSE]", then tep_print_fields() each field as " NAME=VALUE".  Events
 * with an array field (printed as a string or ARRAY[..]) stay with it.
 */
static struct program *compile_failed(struct trace_printer *p, struct tep_event *ev)
{
	struct program *prog = xcalloc(1, sizeof(*prog));
	char text[256];

	add_text(p, prog, "[FAILED TO PARSE]");
	for (struct tep_format_field *f = ev->format.fields; f; f = f->next) {
		if ((f->flags & TEP_FIELD_IS_ARRAY) || !number_size(f->size) ||
		    snprintf(text, sizeof(text), " %s=", f->name) >= (int)sizeof(text)) {
			free_program(prog);
			return NULL;
		}
		add_text(p, prog, text);
		compile_field_number(p, prog, f);
	}
	return prog;
}

static int text_plain(const char *text)
{
	return trace_format_json_plain(text, strlen(text));
}

/* Whether each string @s may print is one known now, needing no JSON escaping. */
static int str_json_plain(const struct str *s)
{
	switch (s->kind) {
	case S_CONST:
		return text_plain(s->text);
	case S_COND:
		return str_json_plain(s->yes) && str_json_plain(s->no);
	case S_FLAGS:
		if (s->text && !text_plain(s->text))
			return 0;
		/* the names, and the value left in hex: as a symbol's */
		__attribute__((fallthrough));
	case S_SYMBOL:
		for (int i = 0; i < s->nr_syms; i++)
			if (!trace_format_json_plain(s->syms[i].str, s->syms[i].len))
				return 0;
		return 1;
	default:
		return 0;	/* the record's own bytes */
	}
}

/*
 * Whether every text @prog writes goes into a JSON string as it is: its
 * own text, numbers (digits, signs, hex, padding), and strings it knows
 * now; not the record's strings or function names.  jsonl then skips
 * looking at the text for what to escape.
 */
static int program_json_plain(const struct program *prog)
{
	for (int i = 0; i < prog->nr_items; i++) {
		const struct item *it = &prog->items[i];

		if (it->pre_len && !trace_format_json_plain(it->pre, it->pre_len))
			return 0;
		switch (it->kind) {
		case I_TEXT:
			if (!trace_format_json_plain(it->text, it->len))
				return 0;
			break;
		case I_NUM:
		case I_PTR:
		case I_END:
			break;
		case I_STR:
			if (!str_json_plain(it->s))
				return 0;
			break;
		default:
			return 0;
		}
	}
	return 1;
}

/*
 * Each text item goes into the conversion after it as that item's prefix:
 * run() dispatches on half the items, and the dispatch is what its time
 * was.  Then the I_END item run() stops at.
 */
static void finish_program(struct program *prog)
{
	int n = 0;

	for (int i = 0; i < prog->nr_items; i++) {
		struct item *it = &prog->items[i];
		struct item *next = it + 1;

		if (it->kind == I_TEXT && i + 1 < prog->nr_items && next->kind != I_TEXT &&
		    !next->pre_len) {
			next->pre = it->text;
			next->pre_len = it->len;
			continue;
		}
		prog->items[n++] = *it;
	}
	prog->nr_items = n;
	prog->items = xrealloc(prog->items, sizeof(*prog->items) * (n + 1));
	memset(&prog->items[n], 0, sizeof(prog->items[n]));
	prog->items[n].kind = I_END;
	prog->json_plain = program_json_plain(prog);
}

static struct program *compile(struct trace_printer *p, struct tep_event *ev)
{
	struct tep_print_arg *arg = ev->print_fmt.args;
	const char *fmt = ev->print_fmt.format;
	struct program *prog;

	if (ev->flags & TEP_EVENT_FL_FAILED) {
		prog = compile_failed(p, ev);
		if (prog)
			finish_program(prog);
		return prog;
	}
	if (!fmt)
		return NULL;
	prog = xcalloc(1, sizeof(*prog));
	if (handler_of(ev) == H_KMEM)
		compile_call_site(p, prog, ev);
	while (*fmt) {
		int n = *fmt == '%' && fmt[1] != '%' ? compile_conv(p, prog, ev, fmt, &arg) :
			compile_text(p, prog, fmt);

		if (n <= 0)
			goto fail;
		fmt += n;
	}
	finish_program(prog);
	return prog;
fail:
	free_program(prog);
	return NULL;
}

/* ---- running a program ---------------------------------------------------- */

/* Room for @n bytes, a NUL and COPY_SLACK to spare: the line is copied with copy_slack(). */
static void reserve(struct trace_printer *p, size_t n)
{
	if (p->len + n + 1 + COPY_SLACK <= p->cap)
		return;
	p->cap = (p->len + n + 1 + COPY_SLACK) * 2;
	p->buf = xrealloc(p->buf, p->cap);
}

static void put(struct trace_printer *p, const char *s, size_t n)
{
	reserve(p, n);
	memcpy(p->buf + p->len, s, n);
	p->len += n;
}

/* put() of text with COPY_SLACK bytes to spare after it. */
static inline __attribute__((always_inline)) void put_slack(struct trace_printer *p, const char *s,
							   size_t n)
{
	reserve(p, n);
	copy_slack(p->buf + p->len, s, n);
	p->len += n;
}

static void pad(struct trace_printer *p, char c, int n)
{
	if (n <= 0)
		return;
	reserve(p, n);
	memset(p->buf + p->len, c, n);
	p->len += n;
}

static uint64_t read_num(struct trace_printer *p, int offset, int size)
{
	if (offset < 0 || offset + size > p->size) {
		p->bail = 1;
		return 0;
	}
	return load_number(p->data + offset, size, p->swap);
}

static uint64_t eval(struct trace_printer *p, const struct expr *x);

/* eval() with its commonest case, a plain field, not called. */
static inline uint64_t eval_fast(struct trace_printer *p, const struct expr *x)
{
	uint64_t v;

	if (x->kind != X_FIELD || x->offset < 0)
		return eval(p, x);
	/* Eight bytes and the mask: no branch on the size. */
	if (p->load_masked && x->offset + 8 <= p->size) {
		memcpy(&v, p->data + x->offset, 8);
		return v & x->val;
	}
	if (x->offset + x->size <= p->size)
		return load_number(p->data + x->offset, x->size, p->swap) & x->val;
	return eval(p, x);
}

static uint64_t eval(struct trace_printer *p, const struct expr *x)
{
	uint64_t l, r;

	switch (x->kind) {
	case X_CONST:
		return x->val;
	case X_FIELD:
		return read_num(p, x->offset, x->size) & x->val;
	case X_INDEX:
		r = eval_fast(p, x->a);
		l = read_num(p, x->offset + (int)(r * x->size), x->size);
		return x->val ? l & x->val : l;
	case X_MASK:
		l = eval_fast(p, x->a);
		return x->val ? l & x->val : l;
	case X_COND:
		return eval_fast(p, x->a) ? eval_fast(p, x->b) : eval_fast(p, x->c);
	case X_OP:
		break;
	}
	l = eval_fast(p, x->a);
	r = eval_fast(p, x->b);
	switch (x->op) {
	case OP_NOT: return !r;
	case OP_NE: return l != r;
	case OP_BITNOT: return ~r;
	case OP_OR: return l | r;
	case OP_LOR: return l || r;
	case OP_AND: return l & r;
	case OP_LAND: return l && r;
	case OP_LT: return l < r;
	case OP_SHL: return l << r;
	case OP_LE: return l <= r;
	case OP_GT: return l > r;
	case OP_SHR: return l >> r;
	case OP_GE: return l >= r;
	case OP_EQ: return l == r;
	case OP_SUB: return l - r;
	case OP_ADD: return l + r;
	case OP_DIV:
	case OP_MOD:
		if (!r) {
			p->bail = 1;
			return 0;
		}
		return x->op == OP_DIV ? l / r : l % r;
	case OP_MUL: return l * r;
	}
	return 0;
}

/* A string with a %s spec: precision cuts, width pads. */
static void put_str(struct trace_printer *p, const struct spec *sp, const char *s, size_t max)
{
	size_t n = strnlen(s, sp->prec >= 0 && (size_t)sp->prec < max ? (size_t)sp->prec : max);

	if (!sp->left)
		pad(p, ' ', sp->width - (int)n);
	put(p, s, n);
	if (sp->left)
		pad(p, ' ', sp->width - (int)n);
}

/* "0x%llx", without printf, straight into the line (see run_num()). */
static void put_hex_value(struct trace_printer *p, unsigned long long v)
{
	int n = (64 - __builtin_clzll(v | 1) + 3) / 4;
	char *d;

	reserve(p, n + 2);
	d = p->buf + p->len;
	d[0] = '0';
	d[1] = 'x';
	for (int i = n + 1; i >= 2; i--, v >>= 4)
		d[i] = "0123456789abcdef"[v & 15];
	p->len += n + 2;
}

/*
 * print_str_arg() reads the pointer in the host's byte order and prints the
 * string whole, or the address in hex, either way without the %s's width.
 */
static void run_printk(struct trace_printer *p, const struct str *s)
{
	const char *str;
	uint32_t v4;
	uint64_t addr;
	char tmp[24];

	if (s->offset + s->size > p->size) {
		p->bail = 1;
		return;
	}
	if (s->size == 8) {
		memcpy(&addr, p->data + s->offset, 8);
	} else {
		memcpy(&v4, p->data + s->offset, 4);
		addr = v4;
	}
	switch (printk_table_find(p->owner ? p->owner->printk : p->printk, addr, &str)) {
	case 1:
		put(p, str, strlen(str));
		return;
	case 0:
		put(p, tmp, snprintf(tmp, sizeof(tmp), "%llx", (unsigned long long)addr));
		return;
	default:
		p->bail = 1;
	}
}

/* A symbol's name; with no width or precision, a plain copy. */
static void put_sym(struct trace_printer *p, const struct spec *sp, const struct sym *sym)
{
	if (!sp->width && sp->prec < 0)
		put_slack(p, sym->str, sym->len);
	else
		put_str(p, sp, sym->str, SIZE_MAX);
}

static void run_str(struct trace_printer *p, const struct spec *sp, const struct str *s)
{
	unsigned int o, l;
	uint64_t v;

	switch (s->kind) {
	case S_CONST:
		put_str(p, sp, s->text, SIZE_MAX);
		return;
	case S_ARRAY:
		/* libtraceevent copies the field (or the rest of the record) and ends it. */
		o = s->offset;
		l = s->size ? (unsigned int)s->size : (unsigned int)(p->size - s->offset);
		if ((int)o > p->size || o + l > (unsigned int)p->size) {
			p->bail = 1;
			return;
		}
		put_str(p, sp, (const char *)p->data + o, l);
		return;
	case S_DYN:
		v = read_num(p, s->offset, s->size);
		o = v & 0xffff;
		l = s->size == 2 ? p->size - o : (v >> 16) & 0xffff;
		if (s->relative)
			o += s->offset + s->size;
		/* Empty, outside the record or unterminated: libtraceevent's corner cases. */
		if (p->bail || !l || o + l > (unsigned int)p->size ||
		    !memchr(p->data + o, 0, p->size - o)) {
			p->bail = 1;
			return;
		}
		put_str(p, sp, (const char *)p->data + o, SIZE_MAX);
		return;
	case S_PRINTK:
		run_printk(p, s);
		return;
	case S_COND:
		run_str(p, sp, eval_fast(p, s->e) ? s->yes : s->no);
		return;
	case S_SYMBOL: {
		long long val = eval_fast(p, s->e);

		for (int i = 0; i < s->nr_syms; i++) {
			if (val == s->syms[i].val) {
				put_sym(p, sp, &s->syms[i]);
				return;
			}
		}
		put_hex_value(p, val);
		return;
	}
	case S_FLAGS: {
		long long val = eval_fast(p, s->e);
		int printed = 0;

		for (int i = 0; i < s->nr_syms; i++) {
			long long fv = s->syms[i].val;

			if (!val && fv < 0) {
				put_sym(p, sp, &s->syms[i]);
				break;
			}
			if (fv > 0 && (val & fv) == fv) {
				if (printed && s->text)
					put(p, s->text, strlen(s->text));
				put_sym(p, sp, &s->syms[i]);
				printed = 1;
				val &= ~fv;
			}
		}
		if (val) {
			if (printed && s->text)
				put(p, s->text, strlen(s->text));
			put_hex_value(p, val);
		}
		return;
	}
	}
}

/* The value as print_arg_number() passes it to printf: cut to its ls type. */
static void run_num(struct trace_printer *p, const struct spec *sp, uint64_t val)
{
	int is_signed = sp->conv == 'd' || sp->conv == 'i';
	char tmp[72];
	unsigned long long u;
	int n = 0, neg = 0, hex;

	if (!sp->simple) {
		switch (sp->ls) {
		case -2: n = snprintf(tmp, sizeof(tmp), sp->fmt, (char)val); break;
		case -1: n = snprintf(tmp, sizeof(tmp), sp->fmt, (short)val); break;
		case 0: n = snprintf(tmp, sizeof(tmp), sp->fmt, (int)val); break;
		case 1: n = snprintf(tmp, sizeof(tmp), sp->fmt, (long)val); break;
		default: n = snprintf(tmp, sizeof(tmp), sp->fmt, (long long)val); break;
		}
		if (n >= (int)sizeof(tmp)) {
			p->bail = 1;
			return;
		}
		put(p, tmp, n);
		return;
	}
	switch (sp->ls) {
	case -2: u = is_signed ? (unsigned long long)(signed char)val : (unsigned char)val; break;
	case -1: u = is_signed ? (unsigned long long)(short)val : (unsigned short)val; break;
	case 0: u = is_signed ? (unsigned long long)(int)val : (unsigned int)val; break;
	default: u = val; break;
	}
	if (is_signed && (long long)u < 0) {
		neg = 1;
		u = -u;
	}
	/*
	 * The digits are written where they go: made in a scratch array and
	 * copied, the copy's wide load waited on their narrow stores.
	 */
	hex = sp->conv == 'x' || sp->conv == 'X';
	n = hex ? (64 - __builtin_clzll(u | 1) + 3) / 4 : decimal_digits(u);
	reserve(p, sp->width + 24);
	if (!sp->left && !sp->zero)
		pad(p, ' ', sp->width - n - neg);
	if (neg)
		p->buf[p->len++] = '-';
	if (!sp->left && sp->zero)
		pad(p, '0', sp->width - n - neg);
	if (hex) {
		const char *digits = sp->conv == 'x' ? "0123456789abcdef" : "0123456789ABCDEF";
		char *d = p->buf + p->len;

		for (int i = n - 1; i >= 0; i--, u >>= 4)
			d[i] = digits[u & 15];
	} else {
		put_decimal(p->buf + p->len, u, 0, 0);
	}
	p->len += n;
	if (sp->left)
		pad(p, ' ', sp->width - n - neg);
}

/*
 * A found name stays right: functions only ever load, once.  A miss is not
 * kept, as kallsyms may load after it.
 */
static const char *find_function(struct trace_printer *p, unsigned long long addr,
				 size_t *len, unsigned long long *start)
{
	const struct kallsyms *ks = p->owner ? trace_input_function_table(p->in) : NULL;
	struct func_entry *e;
	const char *name;
	size_t name_len = 0;

	if (!p->funcs)
		p->funcs = xcalloc(FUNC_CACHE, sizeof(*p->funcs));
	e = &p->funcs[(addr ^ addr >> 10) & (FUNC_CACHE - 1)];
	if (e->name && e->addr == addr) {
		*start = e->start;
		*len = e->len;
		return e->name;
	}
	/*
	 * A runner in another thread asks the table itself: libtraceevent's
	 * lookup through it writes to the handle (its resolver's answer).
	 */
	if (ks) {
		name = kallsyms_lookup(ks, addr, &name_len, start);
	} else {
		name = tep_find_function(p->tep, addr);
		if (name) {
			name_len = strlen(name);
			*start = tep_find_function_address(p->tep, addr);
		}
	}
	if (!name)
		return NULL;
	if (e->cap < name_len + 1 + COPY_SLACK) {
		e->cap = name_len + 1 + COPY_SLACK;
		e->name = xrealloc(e->name, e->cap);
	}
	memcpy(e->name, name, name_len);
	e->name[name_len] = 0;
	e->len = name_len;
	e->start = *start;
	e->addr = addr;
	*len = e->len;
	return e->name;
}

static void run_func(struct trace_printer *p, const struct item *it)
{
	uint64_t val = eval_fast(p, it->e);
	unsigned long long start;
	size_t len;
	const char *name = find_function(p, val, &len, &start);

	if (!name) {
		put_hex_value(p, val);
		return;
	}
	put_slack(p, name, len);
	if (it->offset_too) {
		put(p, "+", 1);
		put_hex_value(p, val - start);
	}
}

static void run_call_site(struct trace_printer *p, const struct item *it)
{
	uint64_t val = eval_fast(p, it->e);
	unsigned long long start;
	size_t len;
	const char *name = find_function(p, val, &len, &start);

	if (!name)
		return;
	put(p, "(", 1);
	put_slack(p, name, len);
	put(p, "+", 1);
	put_hex_value(p, (unsigned int)(int)(val - start));
	put(p, ") ", 2);
}

static void run_ptr(struct trace_printer *p, uint64_t val)
{
	if (!val)
		put(p, "(nil)", 5);
	else
		put_hex_value(p, val);
}

/*
 * Returns 0 with the text in p->buf from @start, -1 when this record must go
 * to libtraceevent.  Each item jumps to the next item's code from its own end
 * (GCC's labels as values): one jump site per kind of item predicts what
 * follows it far better than one switch for all did.
 */
static int run(struct trace_printer *p, const struct program *prog, struct tep_record *rec,
	       size_t start)
{
	static const void *const code[] = {
		[I_TEXT] = &&text, [I_NUM] = &&num, [I_STR] = &&str, [I_PTR] = &&ptr,
		[I_FUNC] = &&func, [I_CALL_SITE] = &&call_site, [I_END] = &&end,
	};
	const struct item *it = prog->items;

	p->len = start;
	p->bail = 0;
	p->data = rec->data;
	p->size = rec->size;
	reserve(p, 0);
#define NEXT_ITEM()						\
	do {							\
		if (p->bail)					\
			return -1;				\
		it++;						\
		if (it->pre_len)				\
			put_slack(p, it->pre, it->pre_len);	\
		goto *code[it->kind];				\
	} while (0)
	if (it->pre_len)
		put_slack(p, it->pre, it->pre_len);
	goto *code[it->kind];
text:
	put_slack(p, it->text, it->len);
	NEXT_ITEM();
num:
	run_num(p, &it->sp, eval_fast(p, it->e));
	NEXT_ITEM();
str:
	run_str(p, &it->sp, it->s);
	NEXT_ITEM();
ptr:
	run_ptr(p, eval_fast(p, it->e));
	NEXT_ITEM();
func:
	run_func(p, it);
	NEXT_ITEM();
call_site:
	run_call_site(p, it);
	NEXT_ITEM();
#undef NEXT_ITEM
end:
	p->buf[p->len] = 0;
	return 0;
}

/* ---- the printer ---------------------------------------------------------- */

struct trace_printer *trace_printer_new(struct trace_input *in)
{
	struct trace_printer *p = xcalloc(1, sizeof(*p));
	const uint16_t probe = 1;
	int host_big = *(const unsigned char *)&probe == 0;

	p->in = in;
	p->tep = trace_input_tep(in);
	p->swap = !!trace_input_big_endian(in) != host_big;
	p->load_masked = !host_big && !p->swap;
	p->disabled = trace_debug()->slow_print;
	p->slots = xcalloc(PRINTER_IDS, sizeof(*p->slots));
	return p;
}

void trace_printer_free(struct trace_printer *p)
{
	if (!p)
		return;
	for (int i = 0; p->slots && i < p->slots_used; i++)
		free_program(p->slots[i].prog);
	for (int i = 0; i < p->nr_owned; i++)
		free(p->owned[i]);
	free(p->owned);
	free(p->slots);
	free(p->buf);
	for (int i = 0; p->funcs && i < FUNC_CACHE; i++)
		free(p->funcs[i].name);
	free(p->funcs);
	printk_table_free(p->printk);
	free(p);
}

/*
 * Plugins' handlers and trace_printk stay with libtraceevent; so does a
 * failed format with a handler, which prints before the field list.
 */
static int compilable(const struct trace_printer *p, const struct tep_event *ev)
{
	if (p->disabled || (ev->flags & (TEP_EVENT_FL_ISBPRINT | TEP_EVENT_FL_PRINTRAW)))
		return 0;
	if (ev->flags & TEP_EVENT_FL_FAILED)
		return handler_of(ev) == H_NONE;
	return handler_of(ev) != H_OTHER;
}

static int register_symbol_atom(struct tep_print_arg *arg, void *ctx)
{
	struct trace_printer *p = ctx;

	if (arg->type == TEP_PRINT_ATOM && atom_is_symbol(arg->atom.atom))
		trace_input_register_symbol(p->in, arg->atom.atom);
	return 0;
}

/* Symbol names used as values: libtraceevent looks them up by name, once. */
static void register_symbol_atoms(struct trace_printer *p, struct tep_event *ev)
{
	walk_print_fmt_symbols(ev, register_symbol_atom, p);
}

static void prepare(struct trace_printer *p, struct slot *sl, struct tep_event *ev)
{
	if (sl->ev != ev) {
		free_program(sl->prog);
		memset(sl, 0, sizeof(*sl));
		sl->ev = ev;
	}
	if (sl->state == PROG_NONE || sl->state == PROG_RETRY) {
		sl->prog = compilable(p, ev) ? compile(p, ev) : NULL;
		sl->tries++;
		if (sl->prog)
			sl->state = PROG_OK;
		else if (compilable(p, ev) && sl->tries < COMPILE_TRIES &&
			 walk_print_fmt_symbols(ev, needs_functions, NULL))
			sl->state = PROG_RETRY;	/* after libtraceevent resolved its symbols */
		else
			sl->state = PROG_SLOW;
	}
	if (sl->prog ? sl->prog->needs_functions : trace_print_needs_functions(ev))
		trace_input_load_functions(p->in);
	if (!sl->prog && sl->tries == 1)
		register_symbol_atoms(p, ev);
}

const char *trace_printer_text(struct trace_printer *p, struct tep_event *ev,
			       struct tep_record *rec, int raw, size_t *len)
{
	struct slot *sl, scratch = { 0 };
	const char *text = NULL;

	if (!ev)
		return NULL;
	sl = ev->id >= 0 && ev->id < PRINTER_IDS ? &p->slots[ev->id] : &scratch;
	if (sl != &scratch && ev->id >= p->slots_used)
		p->slots_used = ev->id + 1;
	if (sl->ev != ev || sl->state == PROG_NONE || sl->state == PROG_RETRY)
		prepare(p, sl, ev);
	if (!raw && !(ev->flags & TEP_EVENT_FL_PRINTRAW) && sl->prog &&
	    run(p, sl->prog, rec, 0) == 0) {
		text = p->buf;
		*len = p->len;
	}
	if (sl == &scratch)
		free_program(scratch.prog);
	return text;
}

const struct print_program *trace_printer_program(struct trace_printer *p, struct tep_event *ev)
{
	struct slot *sl;

	if (!ev || ev->id < 0 || ev->id >= PRINTER_IDS || (ev->flags & TEP_EVENT_FL_PRINTRAW))
		return NULL;
	sl = &p->slots[ev->id];
	if (ev->id >= p->slots_used)
		p->slots_used = ev->id + 1;
	if (sl->ev != ev || sl->state == PROG_NONE || sl->state == PROG_RETRY)
		prepare(p, sl, ev);
	if (!sl->prog)
		return NULL;
	/*
	 * libtraceevent sorts its function map at the first lookup: done here,
	 * so that runners in other threads only ever read it.
	 */
	if (sl->prog->needs_functions && !p->functions_sorted) {
		tep_find_function(p->tep, 0);
		p->functions_sorted = 1;
	}
	return (const struct print_program *)sl->prog;
}

int trace_printer_program_json_plain(const struct print_program *prog)
{
	return ((const struct program *)prog)->json_plain;
}

struct trace_printer *trace_printer_runner(const struct trace_printer *p)
{
	struct trace_printer *r = xcalloc(1, sizeof(*r));

	r->in = p->in;
	r->tep = p->tep;
	r->swap = p->swap;
	r->load_masked = p->load_masked;
	r->disabled = p->disabled;
	r->owner = p;
	return r;
}

const char *trace_printer_run(struct trace_printer *r, const struct print_program *prog,
			      struct tep_record *rec, size_t *len)
{
	if (run(r, (const struct program *)prog, rec, 0) < 0)
		return NULL;
	*len = r->len;
	return r->buf;
}

long trace_printer_run_into(struct trace_printer *r, const struct print_program *prog,
			    struct tep_record *rec, char **buf, size_t len, size_t *size)
{
	char *own_buf = r->buf;
	size_t own_cap = r->cap;
	int ret;

	r->buf = *buf;
	r->cap = *size;
	ret = run(r, (const struct program *)prog, rec, len);
	*buf = r->buf;
	*size = r->cap;
	r->buf = own_buf;
	r->cap = own_cap;
	return ret < 0 ? -1 : (long)(r->len - len);
}

void seq_put_text(struct trace_seq *s, const char *text, size_t len)
{
	/* trace_seq_puts()'s own test: room for the text and a NUL after it */
	if (s->state == TRACE_SEQ__GOOD && len < s->buffer_size - s->len) {
		memcpy(s->buffer + s->len, text, len);
		s->len += len;
		return;
	}
	trace_seq_puts(s, text);
}

void trace_printer_print(struct trace_printer *p, struct trace_seq *s, struct tep_event *ev,
			 struct tep_record *rec, int raw)
{
	size_t len;
	const char *text = trace_printer_text(p, ev, rec, raw, &len);

	if (text)
		seq_put_text(s, text, len);
	else
		tep_print_event(p->tep, s, rec, "%s", raw ? TEP_PRINT_INFO_RAW : TEP_PRINT_INFO);
}
