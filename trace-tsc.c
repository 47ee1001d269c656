// SPDX-License-Identifier: GPL-2.0
/* The TSC-to-ns conversion from perf's user page (trace-tsc.h). */
#include <errno.h>
#include <linux/perf_event.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-output.h"
#include "trace-tsc.h"

/* What one CPU's page says: 1 a conversion, 0 none (why in @why), -1 perf refused. */
static int read_page(const volatile struct perf_event_mmap_page *pg, struct tsc_conv *tc,
		     const char **why)
{
	uint32_t seq;
	int cap;

	/* The kernel updates the page under the seqcount in 'lock'. */
	do {
		seq = pg->lock;
		__sync_synchronize();
		cap = pg->cap_user_time;
		tc->mult = pg->time_mult;
		tc->shift = pg->time_shift;
		__sync_synchronize();
	} while (pg->lock != seq);
	if (!cap) {
		*why = "perf's clock page has no user time conversion (cap_user_time 0): the kernel's sched_clock is not a stable TSC here";
		return 0;
	}
	if (!tc->mult) {
		*why = "perf's clock page has a zero TSC multiplier";
		return 0;
	}
	return 1;
}

/* @cpu's conversion: 1, 0 with @why, or -1 (CPU offline: skipped). */
static int read_cpu(int cpu, struct tsc_conv *tc, const char **why, int *err)
{
	struct perf_event_attr attr;
	long page = sysconf(_SC_PAGESIZE);
	void *map;
	int fd, ret;

	memset(&attr, 0, sizeof(attr));
	attr.size = sizeof(attr);
	attr.type = PERF_TYPE_SOFTWARE;
	attr.config = PERF_COUNT_SW_CPU_CLOCK;
	attr.disabled = 1;
	attr.exclude_kernel = 1;
	fd = syscall(SYS_perf_event_open, &attr, 0, cpu, -1, 0);
	if (fd < 0) {
		*err = errno;
		if (errno == ENODEV)
			return -1;
		*why = "perf_event_open";
		return 0;
	}
	map = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED) {
		*err = errno;
		*why = "mmap of perf's clock page";
		close(fd);
		return 0;
	}
	ret = read_page(map, tc, why);
	munmap(map, page);
	close(fd);
	return ret;
}

int tsc_clock_take(const char **clock)
{
	if (!*clock || strcmp(*clock, "tsc2nsec"))
		return 0;
	*clock = "x86-tsc";
	return 1;
}

int tsc_conv_add_option(const struct tsc_conv *tc, struct trace_output *out)
{
	char payload[16] = { 0 };

	memcpy(payload, &tc->mult, 4);
	memcpy(payload + 4, &tc->shift, 4);
	return trace_output_add_option(out, TRACE_OPT_TSC2NSEC, payload, sizeof(payload));
}

int tsc_conv_read(struct tsc_conv *tc, const char *what)
{
	long cpus = sysconf(_SC_NPROCESSORS_CONF);
	const char *why = NULL;
	int found = 0, err = 0;

	for (long cpu = 0; cpu < cpus; cpu++) {
		struct tsc_conv one;
		int ret = read_cpu(cpu, &one, &why, &err);

		if (ret < 0)
			continue;
		if (ret == 0)
			return err ? error("%s: %s: %s", what, why, strerror(err)) :
				error("%s: %s", what, why);
		/* One conversion for the whole file: the CPUs must agree. */
		if (found && (one.mult != tc->mult || one.shift != tc->shift))
			return error("%s: CPU %ld's TSC multiplier and shift (%u, %u) differ from the first CPU's (%u, %u)",
				     what, cpu, one.mult, one.shift, tc->mult, tc->shift);
		*tc = one;
		found = 1;
	}
	if (!found)
		return error("%s: no online CPU has a perf clock page", what);
	return 0;
}
