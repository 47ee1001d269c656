/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record --tsc2nsec and -C tsc2nsec: the kernel's own conversion of the
 * TSC into nanoseconds (ns = (tsc * mult) >> shift), as perf publishes it
 * in the first page of an event's mmap, for the TSC2NSEC option.
 */
#ifndef TRACE_TSC_H
#define TRACE_TSC_H

#include <stdint.h>

struct tsc_conv {
	uint32_t	mult;
	uint32_t	shift;
};

/*
 * Reads the conversion from every CPU's perf page (they must agree).  0, or
 * -1 after printing why there is none, @what naming the option asked for.
 */
int tsc_conv_read(struct tsc_conv *tc, const char *what);

/*
 * -C tsc2nsec: when *@clock names it, the buffer records on the TSC
 * (x86-tsc) instead, and the file gets the conversion: 1; else 0.
 */
int tsc_clock_take(const char **clock);

struct trace_output;
/* The TSC2NSEC option of @tc: u32 multiplier, u32 shift, u64 offset 0, as 3.4's.  0 or -1. */
int tsc_conv_add_option(const struct tsc_conv *tc, struct trace_output *out);

#endif
