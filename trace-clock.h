/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A record's time stamp as report shows it: a guest's TIME_SHIFT onto its
 * host's clock, TSC2NSEC (or --ts2secs) into nanoseconds, then DATE, OFFSET
 * and --ts-offset.  One place for the conversion, called by the CPU streams
 * wherever a record's time stamp is produced.
 */
#ifndef TRACE_CLOCK_H
#define TRACE_CLOCK_H

#include <stdint.h>

struct cursor;

/* One TIME_SHIFT sample: host = ((guest * scaling) >> fraction) + offset. */
struct clock_sample {
	uint64_t	time;		/* guest clock, when it was taken */
	int64_t		offset;
	uint64_t	scaling;
	uint32_t	fraction;	/* bits of fraction in scaling */
};

struct clock_shift_cpu {
	struct clock_sample	*samples;	/* by time, no two at the same time */
	uint32_t		nr;
};

struct clock_conv {
	/* TIME_SHIFT (a guest's file): per vCPU, the samples of its host */
	uint64_t		peer_id;
	uint32_t		shift_flags;
	uint32_t		nr_shift_cpus;
	struct clock_shift_cpu	*shift;
	/* TSC2NSEC: ns = (ticks * mult) >> shift; its offset is not applied */
	int			tsc2nsec;
	uint32_t		tsc_mult, tsc_shift;
	uint64_t		tsc_offset;
	uint64_t		ts2secs_hz;	/* report --ts2secs: replaces TSC2NSEC */
	int64_t			ts_offset;	/* DATE, OFFSET, --ts-offset */
	int			raw;		/* --raw-ts: no change at all */
};

/* Bit of TIME_SHIFT's flags: interpolate the offset between two samples. */
#define CLOCK_SHIFT_INTERPOLATE	1

/* Reads a TSC2NSEC option's payload; 0, or -1 with the message printed. */
int clock_conv_read_tsc2nsec(struct clock_conv *cv, struct cursor *c);

/*
 * Reads a TIME_SHIFT option's payload (trace-cmd.dat.v7(5)) and sorts each
 * CPU's samples by time (signed, as upstream), the first of equal times
 * kept; 0 or -1 (printed).
 */
int clock_conv_read_time_shift(struct clock_conv *cv, struct cursor *c);

/*
 * The time stamp report shows for @raw, a record of @cpu in the top buffer
 * (@top) or an instance.  As upstream 3.4's reader, a TIME_SHIFT moves the
 * top buffer's records alone: a guest's instances (record -B, the guest's
 * side of record --proxy) keep its clock; the other conversions apply to all.
 */
uint64_t clock_conv_ts(const struct clock_conv *cv, int top, int cpu, uint64_t raw);

/* Whether the converted time stamps are nanoseconds (TSC2NSEC applies). */
int clock_conv_in_ns(const struct clock_conv *cv);

void clock_conv_free(struct clock_conv *cv);

#endif
