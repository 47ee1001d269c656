// SPDX-License-Identifier: GPL-2.0
/*
 * perf-clock: what perf's user page of CPU 0 says about the TSC, read here
 * on its own so that tests need not trust trace-tsc.c: one line,
 * "cap_user_time=N mult=M shift=S", or why the page could not be read (exit 1).
 */
#include <linux/perf_event.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

int main(void)
{
	struct perf_event_attr attr;
	struct perf_event_mmap_page *pg;
	long page = sysconf(_SC_PAGESIZE);
	int fd;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, 0, -1, 0);
	if (fd < 0) {
		perror("perf_event_open");
		return 1;
	}
	pg = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (pg == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	printf("cap_user_time=%d mult=%u shift=%u\n", (int)pg->cap_user_time,
	       pg->time_mult, (unsigned)pg->time_shift);
	return 0;
}
