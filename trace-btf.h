/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel's BTF (/sys/kernel/btf/vmlinux), read for one job: a function's
 * prototype, as "list -f --proto" prints it.  The layout is the kernel's
 * Documentation/bpf/btf.rst, "BTF Type and String Encoding".
 */
#ifndef TRACE_BTF_H
#define TRACE_BTF_H

#include <stddef.h>

struct trace_btf;
struct trace_seq;

/*
 * Reads and indexes the BTF in @file.  Returns NULL after printing why
 * (cannot read it, or not BTF, or damaged).
 */
struct trace_btf *trace_btf_open(const char *file);
void trace_btf_free(struct trace_btf *btf);

/*
 * Appends @func's prototype to @s, "name(type arg, ...)", as upstream 3.4
 * prints it.  Returns 1, or 0 when BTF has no such function.
 */
int trace_btf_proto(const struct trace_btf *btf, struct trace_seq *s, const char *func);

#endif
