// SPDX-License-Identifier: GPL-2.0
/*
 * Time stamps on the clock report shows: a guest's records moved onto its
 * host's clock by the TIME_SHIFT samples of their vCPU, raw counter ticks
 * made nanoseconds by TSC2NSEC or --ts2secs, then the file's DATE and
 * OFFSET and the user's --ts-offset added.  The order and the integer
 * arithmetic are upstream's, so the lines compare byte for byte.
 */
#include <stdlib.h>

#include "trace-cmd.h"
#include "trace-clock.h"
#include "trace-cursor.h"
#include "trace-reader.h"

#define MAX_SHIFT_BITS	63	/* a shift of a u64 by 64 or more means nothing */

int clock_conv_read_tsc2nsec(struct clock_conv *cv, struct cursor *c)
{
	uint64_t at = cur_offset(c);

	if (cur_u32(c, &cv->tsc_mult, "tsc2nsec multiplier") < 0 ||
	    cur_u32(c, &cv->tsc_shift, "tsc2nsec shift") < 0 ||
	    cur_u64(c, &cv->tsc_offset, "tsc2nsec offset") < 0)
		return -1;
	if (cv->tsc_shift > MAX_SHIFT_BITS)
		return cur_bad(c, at, "tsc2nsec shift %u is over %d", cv->tsc_shift,
			       MAX_SHIFT_BITS);
	cv->tsc2nsec = 1;
	return 0;
}

/* Reads @n u64 values of one column (times, offsets or scalings) of @cpu. */
static int read_column(struct cursor *c, struct clock_shift_cpu *cpu, int column,
		       const char *what)
{
	for (uint32_t i = 0; i < cpu->nr; i++) {
		struct clock_sample *s = &cpu->samples[i];
		uint64_t v;

		if (cur_u64(c, &v, what) < 0)
			return -1;
		if (column == 0)
			s->time = v;
		else if (column == 1)
			s->offset = (int64_t)v;
		else
			s->scaling = v;
	}
	return 0;
}

/* The optional fraction bits: none at all, or one u64 per sample of every CPU. */
static int read_fractions(struct clock_conv *cv, struct cursor *c)
{
	uint64_t total = 0;

	for (uint32_t i = 0; i < cv->nr_shift_cpus; i++)
		total += cv->shift[i].nr;
	if (!cur_left(c) || !total)
		return 0;
	if (cur_need(c, total * 8, "time shift fraction bits") < 0)
		return -1;
	for (uint32_t i = 0; i < cv->nr_shift_cpus; i++) {
		for (uint32_t j = 0; j < cv->shift[i].nr; j++) {
			uint64_t at = cur_offset(c), v;

			if (cur_u64(c, &v, "time shift fraction bits") < 0)
				return -1;
			if (v > MAX_SHIFT_BITS)
				return cur_bad(c, at, "CPU %u sample %u: %llu fraction bits, over %d",
					       i, j, (unsigned long long)v, MAX_SHIFT_BITS);
			cv->shift[i].samples[j].fraction = (uint32_t)v;
		}
	}
	return 0;
}

/*
 * Stable insertion sort by time, then the later of equal times dropped.
 * Times compare as signed, as upstream's reader sorts them: a sample at
 * 2^63 or later goes first (the search in sample_pair() compares unsigned).
 */
static void sort_samples(struct clock_shift_cpu *cpu)
{
	uint32_t kept = 0;

	for (uint32_t i = 1; i < cpu->nr; i++) {
		struct clock_sample s = cpu->samples[i];
		uint32_t j = i;

		for (; j > 0 && (int64_t)cpu->samples[j - 1].time > (int64_t)s.time; j--)
			cpu->samples[j] = cpu->samples[j - 1];
		cpu->samples[j] = s;
	}
	for (uint32_t i = 0; i < cpu->nr; i++)
		if (!kept || cpu->samples[kept - 1].time != cpu->samples[i].time)
			cpu->samples[kept++] = cpu->samples[i];
	cpu->nr = kept;
}

int clock_conv_read_time_shift(struct clock_conv *cv, struct cursor *c)
{
	static const char *const columns[] = {
		"time shift sample times", "time shift offsets", "time shift scalings",
	};
	uint64_t at = cur_offset(c);
	uint32_t nr;

	if (cv->shift)
		return cur_bad(c, at, "a second TIME_SHIFT option");
	if (cur_u64(c, &cv->peer_id, "time shift peer trace id") < 0 ||
	    cur_u32(c, &cv->shift_flags, "time shift flags") < 0 ||
	    cur_u32(c, &nr, "time shift CPU count") < 0)
		return -1;
	if (nr > MAX_CPUS)
		return cur_bad(c, at, "time shift CPU count %u is over %d", nr, MAX_CPUS);
	cv->shift = xcalloc(nr ? nr : 1, sizeof(*cv->shift));
	cv->nr_shift_cpus = nr;
	for (uint32_t i = 0; i < nr; i++) {
		struct clock_shift_cpu *cpu = &cv->shift[i];

		if (cur_u32(c, &cpu->nr, "time shift sample count") < 0 ||
		    cur_need(c, (uint64_t)cpu->nr * 24, "time shift samples") < 0)
			return -1;
		cpu->samples = xcalloc(cpu->nr ? cpu->nr : 1, sizeof(*cpu->samples));
		for (int col = 0; col < 3; col++)
			if (read_column(c, cpu, col, columns[col]) < 0)
				return -1;
	}
	if (read_fractions(cv, c) < 0)
		return -1;
	for (uint32_t i = 0; i < nr; i++)
		sort_samples(&cv->shift[i]);
	return 0;
}

/* The signed quotient of wrapping 64-bit values, defined for every divisor but 0. */
static int64_t div_s64(int64_t num, int64_t den)
{
	if (den == -1)
		return (int64_t)(0 - (uint64_t)num);
	return num / den;
}

/*
 * @ts on the host's clock from the samples @lo and @hi around it: scaled by
 * @lo, plus @lo's offset, or with interpolation the offset on the line from
 * @lo to @hi, rounded to the nearest.
 */
static uint64_t shift_between(const struct clock_sample *lo, const struct clock_sample *hi,
			      int interpolate, uint64_t ts)
{
	int64_t offset = lo->offset;

	if (interpolate) {
		int64_t span = (int64_t)(hi->time - lo->time);
		uint64_t moved = (ts - lo->time) * (uint64_t)(hi->offset - lo->offset);

		offset = (int64_t)((uint64_t)lo->offset +
			 (uint64_t)div_s64((int64_t)(moved + (uint64_t)(span / 2)), span));
	}
	return ((ts * lo->scaling) >> lo->fraction) + (uint64_t)offset;
}

/*
 * The first of the two samples (of two or more) @ts is moved by: with times
 * compared unsigned, the first two up to the first sample's time, the last
 * two from the last's, else the last sample before @ts, by bisection.  On
 * samples in unsigned order that is the last at or before @ts; when one at
 * 2^63 or later was sorted first (sort_samples()), the pair upstream's
 * reader takes, so the times compare.  Always at most nr - 2.
 */
static uint32_t sample_pair(const struct clock_shift_cpu *cpu, uint64_t ts)
{
	int64_t lo = 0, hi = (int64_t)cpu->nr - 1, mid = 0;

	if (ts <= cpu->samples[0].time)
		return 0;
	if (ts >= cpu->samples[cpu->nr - 1].time)
		return cpu->nr - 2;
	while (lo <= hi) {
		mid = lo + (hi - lo) / 2;
		if (ts == cpu->samples[mid].time)
			return (uint32_t)mid;
		if (ts < cpu->samples[mid].time)
			hi = mid - 1;
		else
			lo = mid + 1;
	}
	/* Not found: hi = lo - 1 is the last sample bisection left below @ts. */
	return (uint32_t)(hi < 0 ? 0 : hi);
}

static uint64_t shift_to_host(const struct clock_conv *cv, int cpu, uint64_t ts)
{
	const struct clock_shift_cpu *c;
	uint32_t i;

	if (cpu < 0 || (uint32_t)cpu >= cv->nr_shift_cpus)
		return ts;
	c = &cv->shift[cpu];
	if (!c->nr)
		return ts;
	if (c->nr == 1)		/* one sample: its offset, unscaled, as upstream */
		return ts + (uint64_t)c->samples[0].offset;
	i = sample_pair(c, ts);
	return shift_between(&c->samples[i], &c->samples[i + 1],
			     cv->shift_flags & CLOCK_SHIFT_INTERPOLATE, ts);
}

uint64_t clock_conv_ts(const struct clock_conv *cv, int top, int cpu, uint64_t raw)
{
	uint64_t ts = raw;

	if (cv->raw)
		return raw;
	if (cv->shift && top)
		ts = shift_to_host(cv, cpu, ts);
	if (cv->ts2secs_hz)
		ts = (uint64_t)((unsigned __int128)ts * 1000000000ULL / cv->ts2secs_hz);
	else if (cv->tsc2nsec)
		ts = (uint64_t)(((unsigned __int128)ts * cv->tsc_mult) >> cv->tsc_shift);
	return ts + (uint64_t)cv->ts_offset;
}

int clock_conv_in_ns(const struct clock_conv *cv)
{
	return cv->tsc2nsec && !cv->raw;
}

void clock_conv_free(struct clock_conv *cv)
{
	for (uint32_t i = 0; i < cv->nr_shift_cpus; i++)
		free(cv->shift[i].samples);
	free(cv->shift);
	cv->shift = NULL;
	cv->nr_shift_cpus = 0;
}
