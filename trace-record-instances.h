/* SPDX-License-Identifier: GPL-2.0 */
/*
 * record -B NAME: the instances a recording names.  Each gets the events,
 * filters and options given after its -B, is created when missing (and
 * removed afterwards), recorded by its own per-CPU recorders and written as
 * its own buffer in trace.dat.
 */
#ifndef TRACE_RECORD_INSTANCES_H
#define TRACE_RECORD_INSTANCES_H

#include <stddef.h>
#include <sys/types.h>

struct buffer_plan;
struct tfs_events;
struct tfs_saved;
struct trace_output;
struct rec_instances;
struct recorder_opts;

/* Room for @argc options (each could be one). */
struct rec_instances *rec_instances_new(int argc);
void rec_instances_free(struct rec_instances *ri);

/*
 * Takes record's option @opt: -B NAME starts an instance, and after one
 * -e, -f, -R, -v, -p, -C, -O and -T apply to it.  Returns 1 if taken, 0 if
 * the option is not an instance's (record handles it), -1 after printing
 * why it is wrong (a usage error).
 */
int rec_instances_option(struct rec_instances *ri, int opt, const char *arg);
/* Each instance has something to record, and no -v is left dangling. */
int rec_instances_check_usage(const struct rec_instances *ri);
int rec_instances_count(const struct rec_instances *ri);
/* The name of instance @i (0 to count - 1), in the order of the -B options. */
const char *rec_instances_name(const struct rec_instances *ri, int i);

/*
 * Creates the missing instances and sets each up as the top buffer's plan
 * @top says for all (-i, -P, -F, -c, --no-filter, -b) and its own ask, its
 * buffer cleared.  Everything changed is saved in @saved; the recorders'
 * files are @prefix.NAME.cpuN (none with @prefix NULL: stream).
 */
int rec_instances_setup(struct rec_instances *ri, const struct buffer_plan *top,
			struct tfs_saved *saved, int nr_cpus, const char *prefix);
/*
 * One recorder per online CPU and instance, waiting and keeping as @opts
 * says (-s, --poll, -m); @tune (may be NULL) is called for each as record's
 * --pin and -r need.
 */
int rec_instances_start(struct rec_instances *ri, size_t page_size,
			const struct recorder_opts *opts,
			int (*tune)(void *arg, int cpu, pid_t pid), void *arg);
/*
 * The instances' recorders added to @pids (@nr of them, record's own):
 * a new array of every recorder, its length in *@total.
 */
pid_t *rec_instances_all_pids(const struct rec_instances *ri, const pid_t *pids, int nr,
			      int *total);
/* Leaves @pids out of each instance's events (ftrace_setup_exclude). */
int rec_instances_exclude(struct rec_instances *ri, struct tfs_saved *saved,
			  const pid_t *pids, int nr);
/* In the traced command's child before exec: -F's pid, then tracing on. */
int rec_instances_child(struct rec_instances *ri);
/* tracing_on of every instance ("1" or "0"). */
int rec_instances_tracing(struct rec_instances *ri, const char *on);
int rec_instances_stop(struct rec_instances *ri);

/*
 * The event formats trace.dat needs: @top's events and every instance's, in
 * a new selection; NULL when there are no instances (use @top).
 */
struct tfs_events *rec_instances_formats(const struct rec_instances *ri,
					 const struct tfs_events *top);
/* Each instance's CPUSTATs and its BUFFER declaration, before the data. */
int rec_instances_add_options(struct rec_instances *ri, struct trace_output *out);
/*
 * Each instance's buffer, after trace_output_write_data, its clock named
 * @clock (NULL: the one it records on).
 */
int rec_instances_write(struct rec_instances *ri, struct trace_output *out, const char *clock);
/* -C tsc2nsec after a -B: those instances record on x86-tsc; how many did. */
int rec_instances_take_tsc(struct rec_instances *ri);
/* Per instance and CPU: the events recorded and lost, as record prints them. */
void rec_instances_print_stats(struct rec_instances *ri, size_t page_size, int long_size);

/*
 * After tfs_restore(): puts back what the instances' setup wrote outside
 * @saved (triggers) and removes the instances record created; with @keep
 * (-k) both stay.  Removes the recorders' files.  -1 if something failed.
 */
int rec_instances_finish(struct rec_instances *ri, int keep);

#endif
