/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The tracing directory: find it (mounting tracefs, else debugfs), make and
 * remove instances, read and write the files of a buffer (instance first,
 * NULL for the top buffer) with the kernel's reason shown on refusal,
 * remember what a command changed so it can be put back, and match -e specs.
 */
#ifndef TRACE_TRACEFS_H
#define TRACE_TRACEFS_H

#include <stddef.h>

/* Tests point the module at a fake tracing directory with this variable. */
#define TFS_DIR_ENV "TRACE_CMD_TRACING_DIR"

/*
 * The tracing directory.  The first call honours $TRACE_CMD_TRACING_DIR (or
 * tfs_set_dir()), else finds a mounted tracefs (or tracefs inside debugfs),
 * else mounts tracefs at /sys/kernel/tracing, else debugfs at
 * /sys/kernel/debug.  Returns NULL after printing why.
 */
const char *tfs_dir(void);
/* Use @dir as the tracing directory from now on (NULL: find it again). */
void tfs_set_dir(const char *dir);

/*
 * A buffer of the tracing directory: an instance (its files under
 * instances/NAME/), or the top buffer, which every function taking one
 * accepts as NULL (as libtracefs does).  Each keeps its own view of its
 * error_log, so a refusal shows only that buffer's new entry.
 */
struct tfs_instance;

/*
 * The instance NAME, whether it exists or not (tfs_instance_exists,
 * tfs_instance_create).  NULL after printing "invalid instance name 'NAME'"
 * for "", ".", ".." or a name with a '/'.
 */
struct tfs_instance *tfs_instance_alloc(const char *name);
void tfs_instance_free(struct tfs_instance *inst);
/* Its name, NULL for the top buffer. */
const char *tfs_instance_name(const struct tfs_instance *inst);
/* Does the instance's directory exist (the top buffer always does)? */
int tfs_instance_exists(struct tfs_instance *inst);
/*
 * Creates the instance unless it exists: 1 if it made it, 0 if it was there,
 * -1 after printing "cannot create instance 'NAME': REASON".
 */
int tfs_instance_create(struct tfs_instance *inst);
/* Removes the instance: 0, or -1 after printing "cannot remove instance ...". */
int tfs_instance_destroy(struct tfs_instance *inst);
/*
 * Calls @fn with the name of every instance (in directory order); stops
 * when it returns non-zero.  -1 with errno set when instances/ cannot be
 * read (ENOENT: the kernel has none), else 0.
 */
int tfs_instances_walk(int (*fn)(const char *name, void *data), void *data);

/* "DIR/REL" of the buffer @inst in a new allocation. */
char *tfs_path(struct tfs_instance *inst, const char *rel);
/* Does DIR/REL of @inst exist? */
int tfs_exists(struct tfs_instance *inst, const char *rel);

/*
 * Reads all of REL of @inst into a new NUL-terminated buffer (*len without
 * the NUL).  Returns 0, or -1 after printing why.
 */
int tfs_read_file(struct tfs_instance *inst, const char *rel, char **buf, size_t *len);
/* Reads a file that holds a number (e.g. per_cpu/cpu0/buffer_size_kb). */
int tfs_read_ulong(struct tfs_instance *inst, const char *rel, unsigned long *val);

/*
 * Writes @val to REL of @inst (truncating).  A refusal prints
 * "writing 'VAL' to 'REL': REASON" and the kernel's error_log entry if it
 * wrote one.  Returns 0 or -1.
 */
int tfs_write_file(struct tfs_instance *inst, const char *rel, const char *val);

/*
 * For commands that word their own messages: REL of @inst read into a new
 * NUL-terminated string, or written with O_TRUNC (nothing written for "");
 * NULL or -1 with errno set, nothing printed.
 */
char *tfs_read_quiet(struct tfs_instance *inst, const char *rel);
int tfs_write_quiet(struct tfs_instance *inst, const char *rel, const char *val);
/*
 * The same without truncating, for the files where truncating is a command
 * of its own: opening dynamic_events with O_TRUNC removes every dynamic event.
 */
int tfs_append_quiet(struct tfs_instance *inst, const char *rel, const char *val);

/*
 * The event systems of @inst, and the events of one, as libtracefs lists
 * them (directory order, NULL-terminated, free with tfs_list_free); NULL
 * with errno set when they cannot be read, NULL with errno 0 when there are
 * none (libtracefs's empty list).
 */
char **tfs_event_systems(struct tfs_instance *inst);
char **tfs_system_events(struct tfs_instance *inst, const char *system);
void tfs_list_free(char **list);

/*
 * Calls @fn for every event of @inst (systems and events in tracefs order);
 * stops early when @fn returns non-zero, and returns that value, or -1
 * after printing why the events cannot be listed.
 */
int tfs_for_each_event(struct tfs_instance *inst,
		       int (*fn)(const char *system, const char *event, void *data),
		       void *data);

/* The online CPUs (from the tracing directory's per_cpu, capped by sysconf). */
int tfs_cpu_count(void);

/* The current trace clock of @inst (the bracketed name in trace_clock), e.g. "local". */
char *tfs_current_clock(struct tfs_instance *inst);

/*
 * Saved state: every file a command changes through tfs_set() is read first,
 * and tfs_restore() writes the original values back in reverse order.  Files
 * whose read form differs from their write form ("[local] global" in
 * trace_clock, "7 (expanded: 1408)" in buffer_size_kb) are normalised.
 */
struct tfs_saved;

struct tfs_saved *tfs_saved_new(void);
/* Remember REL of @inst's current value (once), so a later restore writes it back. */
int tfs_save(struct tfs_saved *saved, struct tfs_instance *inst, const char *rel);
/* tfs_save() then tfs_write_file(). */
int tfs_set(struct tfs_saved *saved, struct tfs_instance *inst, const char *rel,
	    const char *val);
/* Puts every saved file back; returns -1 if any write failed (all are tried). */
int tfs_restore(struct tfs_saved *saved);
/* How many files are saved (0: nothing was touched). */
size_t tfs_saved_count(const struct tfs_saved *saved);
void tfs_saved_free(struct tfs_saved *saved);

/*
 * Event selection from -e specs: "all", "SYSTEM", "EVENT", "SYSTEM:EVENT",
 * each part a glob (fnmatch), as in "sched:sched_s*" or "*:*_exit".  Only
 * events with an enable file are selected; reading tracefs changes nothing.
 */
struct tfs_events;

struct tfs_events *tfs_events_new(void);
/*
 * Adds the events of @inst that @spec matches.  Returns how many it matched (0 prints
 * "no event matches 'SPEC'"), or -1 on a read error.
 */
int tfs_events_add(struct tfs_events *ev, struct tfs_instance *inst, const char *spec);
size_t tfs_events_count(const struct tfs_events *ev);
/* The i-th event in system, then name order. */
const char *tfs_events_system(const struct tfs_events *ev, size_t i);
const char *tfs_events_name(const struct tfs_events *ev, size_t i);
/* Enables every selected event in @inst (saving each enable file in @saved). */
int tfs_events_enable(const struct tfs_events *ev, struct tfs_instance *inst,
		      struct tfs_saved *saved);
void tfs_events_free(struct tfs_events *ev);

#endif
