// SPDX-License-Identifier: GPL-2.0
/*
 * record -B NAME: each instance's buffer plan (trace-buffer-plan.h: its
 * events, filters, options, creation and removal), its per-CPU recorders and
 * its buffer in trace.dat.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-buffer-plan.h"
#include "trace-ftrace-setup.h"
#include "trace-output.h"
#include "trace-record-instances.h"
#include "trace-recorder.h"
#include "trace-tracefs.h"
#include "trace-tsc.h"

struct rec_instance {
	struct buffer_plan plan;	/* its -e, -f, -R, -v, -p, -C, -O, -T; made and put back */
	char **tmp_paths;
	int *tmp_fds;			/* points into rec_instances.all_fds */
	pid_t *recorders;
};

struct rec_instances {
	struct rec_instance *inst;
	int nr;
	int argc;
	int nr_cpus;
	int *all_fds;			/* every instance's files, closed in each recorder */
	int nr_fds;
};

struct rec_instances *rec_instances_new(int argc)
{
	struct rec_instances *ri = xcalloc(1, sizeof(*ri));

	ri->argc = argc;
	return ri;
}

static int add_instance(struct rec_instances *ri, const char *name)
{
	struct buffer_plan plan;

	if (buffer_plan_init(&plan, name, ri->argc) < 0)
		return -1;
	for (int i = 0; i < ri->nr; i++) {
		if (!strcmp(ri->inst[i].plan.name, name)) {
			buffer_plan_free(&plan);
			return error("-B %s given twice", name);
		}
	}
	ri->inst = xrealloc(ri->inst, (ri->nr + 1) * sizeof(*ri->inst));
	memset(&ri->inst[ri->nr], 0, sizeof(*ri->inst));
	ri->inst[ri->nr++].plan = plan;
	return 1;
}

int rec_instances_option(struct rec_instances *ri, int opt, const char *arg)
{
	struct rec_instance *in = ri->nr ? &ri->inst[ri->nr - 1] : NULL;

	if (opt == 'B')
		return add_instance(ri, arg) < 0 ? -1 : 1;
	if (!in)
		return 0;
	switch (opt) {
	case 'e': case 'f': case 'R': case 'v': case 'p': case 'C': case 'O': case 'T':
		return buffer_plan_option(&in->plan, opt, arg) < 0 ? -1 : 1;
	case 'l': case 'n': case 'g':
	case FTRACE_OPT_MODULE: case FTRACE_OPT_MAX_GRAPH_DEPTH: case FTRACE_OPT_FUNC_STACK:
		return error("function filters apply to the top buffer, not -B %s", in->plan.name);
	}
	return 0;
}

int rec_instances_check_usage(const struct rec_instances *ri)
{
	for (int i = 0; i < ri->nr; i++) {
		const struct rec_instance *in = &ri->inst[i];

		if (ftrace_setup_check_usage(&in->plan.ftrace) < 0)
			return -1;
		if (!in->plan.nr_specs && !in->plan.ftrace.plugin)
			return error("-B %s has nothing to record: give -e EVENT after it",
				     in->plan.name);
	}
	return 0;
}

int rec_instances_take_tsc(struct rec_instances *ri)
{
	int taken = 0;

	for (int i = 0; i < ri->nr; i++)
		taken += tsc_clock_take(&ri->inst[i].plan.ftrace.clock);
	return taken;
}

int rec_instances_count(const struct rec_instances *ri)
{
	return ri ? ri->nr : 0;
}

const char *rec_instances_name(const struct rec_instances *ri, int i)
{
	return ri->inst[i].plan.name;
}

/* The settings that are record's, not a buffer's, hold in every instance. */
static void copy_globals(struct buffer_plan *b, const struct buffer_plan *top_plan)
{
	struct ftrace_setup *fs = &b->ftrace;
	const struct ftrace_setup *top = &top_plan->ftrace;

	b->size_kb = top_plan->size_kb;
	b->subbuf_kb = top_plan->subbuf_kb;
	b->keep_contents = top_plan->keep_contents;
	fs->ignore_missing = top->ignore_missing;
	fs->no_filter = top->no_filter;
	fs->follow_command = top->follow_command;
	fs->children = top->children;
	memcpy(fs->pids, top->pids, top->nr_pids * sizeof(*fs->pids));
	fs->nr_pids = top->nr_pids;
}

/*
 * The events, tracer, clock and options of @in checked before any instance
 * is created, so a typo creates nothing: in the instance if it exists, else
 * in the top buffer, whose events and tracers a new instance has as well.
 * What only the kernel can judge (filters, triggers) is found at setup, and
 * the instances created by then are removed again (rec_instances_finish).
 */
static int validate_instance(struct rec_instance *in)
{
	struct tfs_instance *where = tfs_instance_exists(in->plan.inst) ? in->plan.inst : NULL;

	if (!tfs_exists(NULL, "instances"))
		return error("this kernel has no instances (no 'instances' in '%s')", tfs_dir());
	if (buffer_plan_select(&in->plan, where) < 0 || buffer_plan_check(&in->plan, where) < 0 ||
	    ftrace_setup_check(&in->plan.ftrace, where) < 0)
		return -1;
	return 0;
}

static int open_temp_files(struct rec_instances *ri, struct rec_instance *in,
			   const char *prefix)
{
	in->tmp_paths = xcalloc(ri->nr_cpus, sizeof(*in->tmp_paths));
	in->tmp_fds = ri->all_fds + ri->nr_fds;
	for (int cpu = 0; cpu < ri->nr_cpus; cpu++) {
		char *p = xmalloc(strlen(prefix) + strlen(in->plan.name) + 32);

		sprintf(p, "%s.%s.cpu%d", prefix, in->plan.name, cpu);
		in->tmp_fds[cpu] = open(p, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (in->tmp_fds[cpu] < 0) {
			error("cannot create '%s': %s", p, strerror(errno));
			free(p);
			return -1;
		}
		in->tmp_paths[cpu] = p;
		ri->nr_fds++;
	}
	return 0;
}

/* In the instance: what record's setup does for the top buffer. */
static int setup_instance(struct rec_instance *in, struct tfs_saved *saved, int nr_cpus)
{
	if (tfs_set(saved, in->plan.inst, "tracing_on", "0") < 0 ||
	    buffer_plan_apply_size(&in->plan, saved, nr_cpus) < 0 ||
	    buffer_plan_clear(&in->plan) < 0)
		return -1;
	if (ftrace_setup_apply(&in->plan.ftrace, in->plan.inst, saved) < 0)
		return -1;
	return buffer_plan_enable(&in->plan, saved);
}

int rec_instances_setup(struct rec_instances *ri, const struct buffer_plan *top,
			struct tfs_saved *saved, int nr_cpus, const char *prefix)
{
	int ret = 0;

	ri->nr_cpus = nr_cpus;
	ri->all_fds = xcalloc(ri->nr * nr_cpus + 1, sizeof(*ri->all_fds));
	for (int i = 0; i < ri->nr; i++) {
		copy_globals(&ri->inst[i].plan, top);
		if (validate_instance(&ri->inst[i]) < 0)
			return -1;
	}
	for (int i = 0; ret == 0 && i < ri->nr; i++) {
		struct rec_instance *in = &ri->inst[i];

		if (buffer_plan_create(&in->plan) < 0 ||
		    (prefix && open_temp_files(ri, in, prefix) < 0))
			return -1;
		ret = setup_instance(in, saved, nr_cpus);
	}
	return ret;
}

/* CPU @cpu's recorder of @in: -m gives it a spare file next to its own. */
static pid_t start_recorder(struct rec_instances *ri, struct rec_instance *in, int cpu,
			    size_t page_size, const struct recorder_opts *opts)
{
	struct recorder_opts own = *opts;
	pid_t pid;

	own.spare_fd = -1;
	own.buffer = in->plan.inst;
	if (own.max_bytes && (own.spare_fd = recorder_open_spare(in->tmp_paths[cpu])) < 0)
		return -1;
	pid = recorder_start_opts(cpu, in->tmp_fds[cpu], page_size, &own, ri->all_fds,
				  ri->nr_fds);
	if (own.spare_fd >= 0)
		close(own.spare_fd);
	return pid;
}

int rec_instances_start(struct rec_instances *ri, size_t page_size,
			const struct recorder_opts *opts,
			int (*tune)(void *arg, int cpu, pid_t pid), void *arg)
{
	int ret = 0;

	for (int i = 0; ret == 0 && i < ri->nr; i++) {
		struct rec_instance *in = &ri->inst[i];

		in->recorders = xcalloc(ri->nr_cpus, sizeof(*in->recorders));
		for (int cpu = 0; ret == 0 && cpu < ri->nr_cpus; cpu++) {
			if (!cpu_is_online(cpu))
				continue;
			in->recorders[cpu] = start_recorder(ri, in, cpu, page_size, opts);
			if (in->recorders[cpu] < 0) {
				in->recorders[cpu] = 0;
				ret = -1;
			} else if (tune) {
				ret = tune(arg, cpu, in->recorders[cpu]);
			}
		}
	}
	return ret;
}

pid_t *rec_instances_all_pids(const struct rec_instances *ri, const pid_t *pids, int nr,
			      int *total)
{
	pid_t *all = xcalloc(nr + ri->nr * ri->nr_cpus + 1, sizeof(*all));

	/* stream has no recorders of its own: pids is NULL then. */
	if (nr)
		memcpy(all, pids, nr * sizeof(*pids));
	*total = nr;
	for (int i = 0; i < ri->nr; i++)
		for (int cpu = 0; ri->inst[i].recorders && cpu < ri->nr_cpus; cpu++)
			all[(*total)++] = ri->inst[i].recorders[cpu];
	return all;
}

/* Calls @fn for each instance; -1 if any call failed (all are made). */
static int for_each(struct rec_instances *ri, int (*fn)(struct rec_instance *, void *),
		    void *arg)
{
	int ret = 0;

	for (int i = 0; i < ri->nr; i++)
		if (fn(&ri->inst[i], arg) < 0)
			ret = -1;
	return ret;
}

struct exclude_arg {
	struct tfs_saved *saved;
	const pid_t *pids;
	int nr;
};

static int exclude_one(struct rec_instance *in, void *arg)
{
	struct exclude_arg *x = arg;

	return ftrace_setup_exclude(&in->plan.ftrace, in->plan.inst, x->saved, x->pids, x->nr);
}

int rec_instances_exclude(struct rec_instances *ri, struct tfs_saved *saved,
			  const pid_t *pids, int nr)
{
	struct exclude_arg x = { saved, pids, nr };

	return for_each(ri, exclude_one, &x);
}

static int child_one(struct rec_instance *in, void *arg)
{
	(void)arg;
	if (ftrace_setup_child(&in->plan.ftrace, in->plan.inst) < 0)
		return -1;
	return tfs_write_file(in->plan.inst, "tracing_on", "1");
}

int rec_instances_child(struct rec_instances *ri)
{
	return for_each(ri, child_one, NULL);
}

static int tracing_one(struct rec_instance *in, void *arg)
{
	return tfs_write_file(in->plan.inst, "tracing_on", arg);
}

int rec_instances_tracing(struct rec_instances *ri, const char *on)
{
	return for_each(ri, tracing_one, (void *)on);
}

int rec_instances_stop(struct rec_instances *ri)
{
	int ret = 0;

	for (int i = 0; i < ri->nr; i++) {
		for (int cpu = 0; ri->inst[i].recorders && cpu < ri->nr_cpus; cpu++) {
			int r = recorder_stop(ri->inst[i].recorders[cpu]);

			if (r > 0)
				error("instance %s, cpu %d: the recorder died of signal %d: its data is cut short",
				      ri->inst[i].plan.name, cpu, r);
			if (r != 0)
				ret = -1;
			ri->inst[i].recorders[cpu] = 0;
		}
	}
	return ret;
}

/* Adds every event of @ev to @all (both name their events in the top's tree). */
static int add_events(struct tfs_events *all, const struct tfs_events *ev)
{
	for (size_t i = 0; i < tfs_events_count(ev); i++) {
		const char *sys = tfs_events_system(ev, i), *name = tfs_events_name(ev, i);
		char *spec = xmalloc(strlen(sys) + strlen(name) + 2);
		int ret;

		sprintf(spec, "%s:%s", sys, name);
		ret = tfs_events_add(all, NULL, spec);
		free(spec);
		if (ret < 0)
			return -1;
	}
	return 0;
}

struct tfs_events *rec_instances_formats(const struct rec_instances *ri,
					 const struct tfs_events *top)
{
	struct tfs_events *all;

	if (!ri || !ri->nr)
		return NULL;
	all = tfs_events_new();
	if (add_events(all, top) < 0)
		goto fail;
	for (int i = 0; i < ri->nr; i++)
		if (ri->inst[i].plan.selected && add_events(all, ri->inst[i].plan.selected) < 0)
			goto fail;
	return all;
fail:
	tfs_events_free(all);
	return NULL;
}

struct write_arg {
	struct trace_output *out;
	int nr_cpus;
	const char *clock;	/* the BUFFER options' clock name, NULL: each one's own */
};

static int stats_one(struct rec_instance *in, void *arg)
{
	struct write_arg *w = arg;

	return trace_output_add_buffer_cpustats(w->out, in->plan.inst, w->nr_cpus);
}

int rec_instances_add_options(struct rec_instances *ri, struct trace_output *out)
{
	struct write_arg w = { out, ri->nr_cpus, NULL };

	/* Upstream's order: every instance's CPUSTATs, then the BUFFER options. */
	if (for_each(ri, stats_one, &w) < 0)
		return -1;
	for (int i = 0; i < ri->nr; i++)
		if (trace_output_add_buffer(out, ri->inst[i].plan.name) < 0)
			return -1;
	return 0;
}

static int write_one(struct rec_instance *in, void *arg)
{
	struct write_arg *w = arg;
	char *clock = w->clock ? xstrdup(w->clock) : tfs_current_clock(in->plan.inst);
	int ret = trace_output_write_buffer(w->out, in->plan.name, w->nr_cpus, in->tmp_fds, clock);

	free(clock);
	return ret;
}

int rec_instances_write(struct rec_instances *ri, struct trace_output *out, const char *clock)
{
	struct write_arg w = { out, ri->nr_cpus, clock };
	int ret = 0;

	/* One at a time, in order: the first failure ends the file. */
	for (int i = 0; ret == 0 && i < ri->nr; i++)
		ret = write_one(&ri->inst[i], &w);
	return ret;
}

void rec_instances_print_stats(struct rec_instances *ri, size_t page_size, int long_size)
{
	for (int i = 0; i < ri->nr; i++) {
		struct rec_instance *in = &ri->inst[i];

		fprintf(stderr, "\nBuffer: %s\n", in->plan.name);
		for (int cpu = 0; cpu < ri->nr_cpus; cpu++) {
			unsigned long long events = 0, missed = 0;
			struct stat st = { 0 };

			fstat(in->tmp_fds[cpu], &st);
			recorder_count_events(in->tmp_fds[cpu], page_size, long_size, &events,
					      &missed);
			fprintf(stderr, "CPU%d: %llu events recorded (%llu bytes), %llu events lost\n",
				cpu, events, (unsigned long long)st.st_size, missed);
		}
	}
}

static void remove_temp_files(struct rec_instances *ri, struct rec_instance *in)
{
	for (int cpu = 0; in->tmp_paths && cpu < ri->nr_cpus; cpu++) {
		if (!in->tmp_paths[cpu])
			continue;
		close(in->tmp_fds[cpu]);
		unlink(in->tmp_paths[cpu]);
		free(in->tmp_paths[cpu]);
	}
	free(in->tmp_paths);
	in->tmp_paths = NULL;
}

int rec_instances_finish(struct rec_instances *ri, int keep)
{
	int ret = 0;

	if (!ri)
		return 0;
	for (int i = 0; i < ri->nr; i++) {
		remove_temp_files(ri, &ri->inst[i]);
		if (buffer_plan_finish(&ri->inst[i].plan, keep) < 0)
			ret = -1;
	}
	return ret;
}

void rec_instances_free(struct rec_instances *ri)
{
	if (!ri)
		return;
	for (int i = 0; i < ri->nr; i++) {
		buffer_plan_free(&ri->inst[i].plan);
		free(ri->inst[i].recorders);
	}
	free(ri->inst);
	free(ri->all_fds);
	free(ri);
}
