/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A file's kallsyms as one sorted table, answering address lookups the way
 * libtraceevent's own function map does, without a malloc per symbol; and
 * the reading of this machine's /proc/kallsyms that record stores.
 */
#ifndef TRACE_KALLSYMS_H
#define TRACE_KALLSYMS_H

#include <stddef.h>

struct kallsyms;
struct tep_handle;

/*
 * Parses the @len bytes at @text ("ADDR TYPE NAME\t[MODULE]" lines), which
 * must outlive the table; NULL when they hold no symbol.
 */
struct kallsyms *kallsyms_parse(const char *text, size_t len);
void kallsyms_free(struct kallsyms *ks);

/* Makes @tep look functions up in @ks (which must outlive it). */
void kallsyms_attach(struct kallsyms *ks, struct tep_handle *tep);

/*
 * What libtraceevent's lookup through @ks answers for @addr (the name, not
 * NUL-terminated, *len bytes long; the function's start), or NULL; it only
 * reads, so other threads may call it while @ks is in use.
 */
const char *kallsyms_lookup(const struct kallsyms *ks, unsigned long long addr, size_t *len,
			    unsigned long long *start);

/* Registers with @tep every symbol named @name (for print fmts that use a symbol as a value). */
void kallsyms_register_name(struct kallsyms *ks, struct tep_handle *tep, const char *name);

#define KALLSYMS_PROC	"/proc/kallsyms"

/*
 * This machine's /proc/kallsyms (NUL-terminated, *len without the NUL), with
 * kptr_restrict lifted while it is read; NULL (errno) if unreadable.
 */
char *kallsyms_read_proc(size_t *len);

#endif
