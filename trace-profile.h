/* SPDX-License-Identifier: GPL-2.0 */
/*
 * report --profile: where each task spent its time (blocked, waiting to run,
 * preempted, in interrupts, in functions), with the kernel stacks that led
 * there, accumulated from a trace's records and printed at the end.
 */
#ifndef TRACE_PROFILE_H
#define TRACE_PROFILE_H

struct tep_handle;
struct tep_record;
struct profile;

struct profile_opts {
	int	global_irqs;	/* -G: interrupts counted per CPU, not per task */
	int	by_comm;	/* --by-comm: tasks of one name summed */
	char	**hooks;	/* -H specs */
	int	nr_hooks;
};

/* A profile of the events @tep knows; NULL after printing why (a bad -H). */
struct profile *profile_new(struct tep_handle *tep, const struct profile_opts *opts);
/* Checks an -H spec's syntax only (before any file is read): 0 or -1 (printed). */
int profile_check_hook(const char *spec);
/* Prints @spec's parts as upstream 3.4 does when it reads an -H (its output begins so). */
void profile_echo_hook(const char *spec);
void profile_record(struct profile *p, struct tep_record *rec);
void profile_print(struct profile *p);
void profile_free(struct profile *p);

#endif
