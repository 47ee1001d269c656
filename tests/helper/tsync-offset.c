// SPDX-License-Identifier: GPL-2.0
/*
 * The ptp arithmetic of trace-tsync.c on given times: reads lines
 * "N GUEST_SENT GUEST_RECV HOST_RECV" (probe N, 1..339; 0 = no time) and
 * prints "time T offset O" for the sample they make, or exits 1 when none.
 */
#include <stdio.h>
#include <stdlib.h>

#include "trace-tsync.h"

int main(void)
{
	static uint64_t sent[TSYNC_PTP_PROBES + 1], recv[TSYNC_PTP_PROBES + 1],
			host[TSYNC_PTP_PROBES + 1];
	unsigned long long s, r, h;
	struct tsync_sample out;
	unsigned int n;

	while (scanf("%u %llu %llu %llu", &n, &s, &r, &h) == 4) {
		if (n < 1 || n > TSYNC_PTP_PROBES)
			return 2;
		sent[n] = s;
		recv[n] = r;
		host[n] = h;
	}
	if (tsync_ptp_offset(sent, recv, host, &out) < 0)
		return 1;
	printf("time %llu offset %lld scaling %llu frac %llu\n", (unsigned long long)out.time,
	       (long long)out.offset, (unsigned long long)out.scaling,
	       (unsigned long long)out.frac);
	return 0;
}
