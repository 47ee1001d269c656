/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file's printk formats as libtraceevent keeps them (its printk map): the
 * strings report prints for a "%s" of a pointer-sized field, looked up here
 * without going through libtraceevent's interpreter.
 */
#ifndef TRACE_PRINTK_H
#define TRACE_PRINTK_H

#include <stdint.h>

struct printk_table;

/* From the lines libtraceevent is given ("ADDR : \"FMT\"", see usable_printk()). */
struct printk_table *printk_table_parse(const char *text);
void printk_table_free(struct printk_table *t);

/*
 * The string registered at @addr: 1 with *str set, 0 when there is none, -1
 * when several differ (libtraceevent's unstable sort decides: left to it).
 */
int printk_table_find(const struct printk_table *t, uint64_t addr, const char **str);

#endif
