// SPDX-License-Identifier: GPL-2.0
/*
 * Report's event printer: compiles an event's print fmt into a program that
 * prints what libtraceevent 1.7's pretty_print() prints, for the common
 * shapes, and says which events need kallsyms before they are printed.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include <event-parse.h>

#include "trace-print.h"

/* An atom libtraceevent would look up as a symbol name (see test_for_symbol). */
static int atom_is_symbol(const char *atom)
{
	return atom && !isdigit((unsigned char)atom[0]) && !strtoull(atom, NULL, 0);
}

static int args_need_functions(struct tep_print_arg *arg)
{
	for (; arg; arg = arg->next) {
		switch (arg->type) {
		case TEP_PRINT_ATOM:
			if (atom_is_symbol(arg->atom.atom))
				return 1;
			break;
		case TEP_PRINT_FUNC:
			return 1;
		case TEP_PRINT_TYPE:
			if (args_need_functions(arg->typecast.item))
				return 1;
			break;
		case TEP_PRINT_OP:
			if (args_need_functions(arg->op.left) || args_need_functions(arg->op.right))
				return 1;
			break;
		case TEP_PRINT_FLAGS:
			if (args_need_functions(arg->flags.field))
				return 1;
			break;
		case TEP_PRINT_SYMBOL:
			if (args_need_functions(arg->symbol.field))
				return 1;
			break;
		case TEP_PRINT_HEX:
		case TEP_PRINT_HEX_STR:
			if (args_need_functions(arg->hex.field) || args_need_functions(arg->hex.size))
				return 1;
			break;
		case TEP_PRINT_INT_ARRAY:
			if (args_need_functions(arg->int_array.field) ||
			    args_need_functions(arg->int_array.count) ||
			    args_need_functions(arg->int_array.el_size))
				return 1;
			break;
		default:
			break;
		}
	}
	return 0;
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

int trace_print_needs_functions(struct tep_event *ev)
{
	if (!ev)
		return 0;
	if (ev->handler || (ev->flags & TEP_EVENT_FL_ISBPRINT))
		return 1;
	return format_prints_symbol(ev->print_fmt.format) ||
	       args_need_functions(ev->print_fmt.args);
}
