// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing directory for every command that changes Ftrace: find or mount
 * it, read and write its files (explaining refusals with the kernel's
 * error_log), save what a command changes and put it back, match -e specs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-tracefs.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

#define TRACEFS_MOUNT	"/sys/kernel/tracing"
#define DEBUGFS_MOUNT	"/sys/kernel/debug"

static char *tracing_dir;
/*
 * The buffer relative paths resolve in: "instances/NAME/", or NULL for the
 * top buffer (tfs_set_instance).  Forked children (recorders) inherit it.
 */
static char *instance_prefix;
/*
 * The last error_log entry already seen (its timestamped first line), so a
 * refusal shows only a new entry.  Not a byte count: the kernel keeps a
 * fixed number of entries, so a full log stays the same size as it changes.
 */
static char *error_log_seen;

static int is_fs(const char *path, long magic)
{
	struct statfs st;

	return statfs(path, &st) == 0 && (long)st.f_type == magic;
}

/* A mounted tracefs, directly or as debugfs's "tracing" directory. */
static char *find_mounted(void)
{
	char line[4096], dev[256], mnt[4096], type[64];
	char *found = NULL;
	FILE *f;

	if (is_fs(TRACEFS_MOUNT, TRACEFS_MAGIC))
		return xstrdup(TRACEFS_MOUNT);
	f = fopen("/proc/mounts", "r");
	if (!f)
		return NULL;
	/* A listed mount may be covered by a later one: statfs says which is real. */
	while (!found && fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %4095s %63s", dev, mnt, type) != 3)
			continue;
		if (!strcmp(type, "tracefs") && is_fs(mnt, TRACEFS_MAGIC)) {
			found = xstrdup(mnt);
		} else if (!strcmp(type, "debugfs") && is_fs(mnt, DEBUGFS_MAGIC)) {
			char *p = xmalloc(strlen(mnt) + sizeof("/tracing"));

			sprintf(p, "%s/tracing", mnt);
			if (is_fs(p, TRACEFS_MAGIC))
				found = p;
			else
				free(p);
		}
	}
	fclose(f);
	return found;
}

/* Nothing mounted: mount tracefs, or debugfs (whose "tracing" automounts). */
static char *mount_tracing(void)
{
	int err;

	if (mount("nodev", TRACEFS_MOUNT, "tracefs", 0, NULL) == 0 &&
	    is_fs(TRACEFS_MOUNT, TRACEFS_MAGIC))
		return xstrdup(TRACEFS_MOUNT);
	err = errno;
	if (mount("nodev", DEBUGFS_MOUNT, "debugfs", 0, NULL) == 0 &&
	    is_fs(DEBUGFS_MOUNT "/tracing", TRACEFS_MAGIC))
		return xstrdup(DEBUGFS_MOUNT "/tracing");
	error("cannot mount tracefs at '%s': %s", TRACEFS_MOUNT, strerror(err));
	return NULL;
}

/* The first line of the last entry of error_log (optional: NULL if none). */
static char *last_error_entry(void)
{
	char *buf, *entry = NULL;

	if (!tfs_exists("error_log") || tfs_read_file("error_log", &buf, NULL) < 0)
		return NULL;
	for (char *p = buf; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (*p == '[')
			entry = p;
	if (entry) {
		entry[strcspn(entry, "\n")] = '\0';
		entry = xstrdup(entry);
	}
	free(buf);
	return entry;
}

const char *tfs_dir(void)
{
	const char *env;

	if (tracing_dir)
		return tracing_dir;
	env = getenv(TFS_DIR_ENV);
	if (env && *env) {
		struct stat st;

		if (stat(env, &st) < 0 || !S_ISDIR(st.st_mode)) {
			error("tracing directory '%s' (from %s): %s", env, TFS_DIR_ENV,
			      errno ? strerror(errno) : "not a directory");
			return NULL;
		}
		tracing_dir = xstrdup(env);
	} else {
		tracing_dir = find_mounted();
		if (!tracing_dir)
			tracing_dir = mount_tracing();
		if (!tracing_dir)
			return NULL;
	}
	free(error_log_seen);
	error_log_seen = last_error_entry();
	return tracing_dir;
}

void tfs_set_dir(const char *dir)
{
	free(tracing_dir);
	tracing_dir = dir ? xstrdup(dir) : NULL;
	free(error_log_seen);
	error_log_seen = tracing_dir ? last_error_entry() : NULL;
}

char *tfs_path(const char *rel)
{
	const char *dir = tracing_dir ? tracing_dir : "";
	const char *pre = instance_prefix ? instance_prefix : "";
	char *p = xmalloc(strlen(dir) + strlen(pre) + strlen(rel) + 2);

	sprintf(p, "%s/%s%s", dir, pre, rel);
	return p;
}

void tfs_set_instance(const char *name)
{
	free(instance_prefix);
	instance_prefix = NULL;
	if (name) {
		instance_prefix = xmalloc(strlen(name) + sizeof("instances//"));
		sprintf(instance_prefix, "instances/%s/", name);
	}
	/* Each buffer has its own error_log: only its new entries explain a refusal. */
	free(error_log_seen);
	error_log_seen = tracing_dir ? last_error_entry() : NULL;
}

const char *tfs_instance(void)
{
	return instance_prefix ? instance_prefix + strlen("instances/") : NULL;
}

/* @rel as seen from the top of the tracing directory, in a new allocation. */
static char *top_rel(const char *rel)
{
	const char *pre = instance_prefix ? instance_prefix : "";
	char *p = xmalloc(strlen(pre) + strlen(rel) + 1);

	sprintf(p, "%s%s", pre, rel);
	return p;
}

int tfs_exists(const char *rel)
{
	char *p = tfs_path(rel);
	int ret = access(p, F_OK) == 0;

	free(p);
	return ret;
}

/* "WHAT 'REL': REASON", with REL as seen from the top (an instance's shows it). */
static int path_error(const char *what, const char *rel, int err)
{
	char *shown = top_rel(rel);

	error("%s '%s': %s", what, shown, strerror(err));
	free(shown);
	return -1;
}

int tfs_read_file(const char *rel, char **bufp, size_t *lenp)
{
	char *p = tfs_path(rel), *buf;
	int fd;

	fd = open(p, O_RDONLY | O_CLOEXEC);
	free(p);
	if (fd < 0)
		return path_error("cannot open", rel, errno);
	buf = read_text(fd, lenp);
	if (!buf) {
		int e = errno;

		close(fd);
		return path_error("cannot read", rel, e);
	}
	close(fd);
	*bufp = buf;
	return 0;
}

int tfs_read_ulong(const char *rel, unsigned long *val)
{
	char *buf, *end;
	int ret = 0;

	if (tfs_read_file(rel, &buf, NULL) < 0)
		return -1;
	errno = 0;
	*val = strtoul(buf, &end, 10);
	if (end == buf || errno)
		ret = error("'%s' holds no number", rel);
	free(buf);
	return ret;
}

/* The kernel's error_log entry written since we last looked, first line only. */
static char *new_error_log(void)
{
	char *last = last_error_entry(), *entry = NULL, *p;

	if (last && (!error_log_seen || strcmp(last, error_log_seen))) {
		/* Drop the "[ 123.456789] " timestamp. */
		p = strchr(last, ']');
		entry = xstrdup(p ? p + 1 + (p[1] == ' ') : last);
	}
	free(error_log_seen);
	error_log_seen = last;
	return entry;
}

int tfs_write_file(const char *rel, const char *val)
{
	char *p = tfs_path(rel);
	size_t len = strlen(val);
	int fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
	ssize_t n = -1;
	int err;

	free(p);
	if (fd >= 0) {
		do {
			n = write(fd, val, len);
		} while (n < 0 && errno == EINTR);
	}
	err = errno;
	if (fd >= 0 && close(fd) < 0 && n >= 0) {
		n = -1;
		err = errno;
	}
	if (n == (ssize_t)len)
		return 0;
	if (n >= 0)
		err = EIO;
	{
		char *log = new_error_log(), *shown = top_rel(rel);

		if (log)
			error("writing '%s' to '%s': %s (kernel: %s)", val, shown, strerror(err), log);
		else
			error("writing '%s' to '%s': %s", val, shown, strerror(err));
		free(shown);
		free(log);
	}
	errno = err;
	return -1;
}

int tfs_cpu_count(void)
{
	long conf = sysconf(_SC_NPROCESSORS_CONF);
	int n = 0;
	char rel[64];

	if (conf < 1)
		conf = 1;
	/* per_cpu lists the possible CPUs; stop at the first one it lacks. */
	while (n < conf) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d", n);
		if (!tfs_exists(rel))
			break;
		n++;
	}
	return n;
}

char *tfs_current_clock(void)
{
	char *buf, *s, *e;

	if (tfs_read_file("trace_clock", &buf, NULL) < 0)
		return NULL;
	s = strchr(buf, '[');
	e = s ? strchr(s, ']') : NULL;
	if (!e) {
		free(buf);
		return xstrdup("local");
	}
	*e = '\0';
	s = xstrdup(s + 1);
	free(buf);
	return s;
}

/* --- saved state ------------------------------------------------------- */

struct saved_file {
	char *rel;
	char *val;
};

struct tfs_saved {
	struct saved_file *files;
	size_t nr, alloc;
};

struct tfs_saved *tfs_saved_new(void)
{
	return xcalloc(1, sizeof(struct tfs_saved));
}

/* Turns what a file reads as into what must be written to get it back. */
static void normalise(const char *rel, char *val)
{
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	char *s, *e;

	if ((s = strchr(val, '[')) && (e = strchr(s, ']'))) {
		memmove(val, s + 1, e - s - 1);
		val[e - s - 1] = '\0';
		return;
	}
	if (!strcmp(base, "enable")) {
		val[val[0] ? 1 : 0] = '\0';
		return;
	}
	/*
	 * Until first used, the buffer reads "7 (expanded: 1408)": 1408 is
	 * the size it has once expanded, as it is after any trace.
	 */
	if (!strcmp(base, "buffer_size_kb") && (s = strstr(val, "(expanded: ")))
		memmove(val, s + 11, strlen(s + 11) + 1);
	if (!strcmp(base, "buffer_size_kb") && (s = strpbrk(val, " )")))
		*s = '\0';
	val[strcspn(val, "\n")] = '\0';
	/* A filter reads "none" when unset, and "0" is what clears it. */
	if (!strcmp(base, "filter") && !strcmp(val, "none"))
		strcpy(val, "0");
}

static int is_saved(const struct tfs_saved *saved, const char *full)
{
	for (size_t i = 0; i < saved->nr; i++) {
		if (!strcmp(saved->files[i].rel, full))
			return 1;
	}
	return 0;
}

/* Keeps VAL (already normalised, now owned by SAVED) as REL's old value. */
static void add_saved(struct tfs_saved *saved, char *full, char *val)
{
	struct saved_file *f;

	if (saved->nr == saved->alloc) {
		saved->alloc = saved->alloc ? saved->alloc * 2 : 16;
		saved->files = xrealloc(saved->files, saved->alloc * sizeof(*saved->files));
	}
	f = &saved->files[saved->nr++];
	f->rel = full;	/* from the top, so restore needs no current buffer */
	f->val = val;
}

int tfs_save(struct tfs_saved *saved, const char *rel)
{
	char *val, *full = top_rel(rel);

	if (is_saved(saved, full)) {
		free(full);
		return 0;
	}
	if (tfs_read_file(rel, &val, NULL) < 0) {
		free(full);
		return -1;
	}
	normalise(rel, val);
	add_saved(saved, full, val);
	return 0;
}

/*
 * tfs_set() for a caller that has just read REL as OLD: enabling all of
 * -e all's systems and events reads each enable file once, not twice.
 */
static int set_read(struct tfs_saved *saved, const char *rel, char *old,
		    const char *val)
{
	char *full = top_rel(rel);

	if (is_saved(saved, full)) {
		free(full);
		free(old);
	} else {
		normalise(rel, old);
		add_saved(saved, full, old);
	}
	return tfs_write_file(rel, val);
}

int tfs_set(struct tfs_saved *saved, const char *rel, const char *val)
{
	if (tfs_save(saved, rel) < 0)
		return -1;
	return tfs_write_file(rel, val);
}

int tfs_restore(struct tfs_saved *saved)
{
	char *prefix = instance_prefix;
	int ret = 0;

	if (!saved)
		return 0;
	instance_prefix = NULL;	/* the saved paths start at the top */
	/* Reverse order: tracing_on, saved first, goes back last. */
	while (saved->nr) {
		struct saved_file *f = &saved->files[--saved->nr];
		char *line = xmalloc(strlen(f->val) + 2);

		/* With the newline the file read, so a fake directory ends up identical. */
		sprintf(line, "%s\n", f->val);
		if (tfs_write_file(f->rel, line) < 0)
			ret = -1;
		free(line);
		free(f->rel);
		free(f->val);
	}
	instance_prefix = prefix;
	return ret;
}

size_t tfs_saved_count(const struct tfs_saved *saved)
{
	return saved ? saved->nr : 0;
}

void tfs_saved_free(struct tfs_saved *saved)
{
	if (!saved)
		return;
	for (size_t i = 0; i < saved->nr; i++) {
		free(saved->files[i].rel);
		free(saved->files[i].val);
	}
	free(saved->files);
	free(saved);
}

/* --- events -------------------------------------------------------------- */

struct event_id {
	char *system;
	char *name;
	int whole;		/* came with its whole system ("sched", "all") */
};

struct tfs_events {
	struct event_id *ev;
	size_t nr, alloc;
};

struct tfs_events *tfs_events_new(void)
{
	return xcalloc(1, sizeof(struct tfs_events));
}

static int cmp_event(const void *a, const void *b)
{
	const struct event_id *x = a, *y = b;
	int c = strcmp(x->system, y->system);

	return c ? c : strcmp(x->name, y->name);
}

static struct event_id *find_event(const struct tfs_events *ev, const char *sys,
				   const char *name)
{
	for (size_t i = 0; i < ev->nr; i++)
		if (!strcmp(ev->ev[i].name, name) && !strcmp(ev->ev[i].system, sys))
			return &ev->ev[i];
	return NULL;
}

static int only_dirs(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

/* The sub-directories of REL, sorted; returns the count or -1. */
static int list_dirs(const char *rel, struct dirent ***list)
{
	char *p = tfs_path(rel);
	int n = scandir(p, list, only_dirs, alphasort);

	free(p);
	if (n < 0)
		return path_error("cannot list", rel, errno);
	return n;
}

static int add_event(struct tfs_events *ev, const char *sys, const char *name, int whole)
{
	struct event_id *old = find_event(ev, sys, name);

	if (old) {
		old->whole |= whole;
		return 0;
	}
	if (ev->nr == ev->alloc) {
		ev->alloc = ev->alloc ? ev->alloc * 2 : 64;
		ev->ev = xrealloc(ev->ev, ev->alloc * sizeof(*ev->ev));
	}
	ev->ev[ev->nr].system = xstrdup(sys);
	ev->ev[ev->nr].name = xstrdup(name);
	ev->ev[ev->nr].whole = whole;
	ev->nr++;
	return 1;
}

/* Adds the events of one system that @evglob matches (NULL: all). */
static int add_system(struct tfs_events *ev, const char *sys, const char *evglob, int *matched)
{
	struct dirent **list;
	char rel[1024];
	int n, all_enable;

	/* A plain name is one stat, not a listing (eventfs builds those slowly). */
	if (evglob && !strpbrk(evglob, "*?[\\")) {
		snprintf(rel, sizeof(rel), "events/%s/%s/enable", sys, evglob);
		if (tfs_exists(rel)) {
			(*matched)++;
			add_event(ev, sys, evglob, 0);
		}
		return 0;
	}
	/*
	 * The kernel gives a system an enable file unless it is ftrace, whose
	 * events are the only ones without one: a whole system with it needs no
	 * stat per event.
	 */
	snprintf(rel, sizeof(rel), "events/%s/enable", sys);
	all_enable = !evglob && tfs_exists(rel);
	snprintf(rel, sizeof(rel), "events/%s", sys);
	n = list_dirs(rel, &list);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;

		snprintf(rel, sizeof(rel), "events/%s/%s/enable", sys, name);
		/* ftrace's own events (function, print, ...) cannot be enabled. */
		if ((!evglob || !fnmatch(evglob, name, 0)) && (all_enable || tfs_exists(rel))) {
			(*matched)++;
			add_event(ev, sys, name, !evglob);
		}
		free(list[i]);
	}
	free(list);
	return 0;
}

int tfs_events_add(struct tfs_events *ev, const char *spec)
{
	struct dirent **systems;
	char *copy = xstrdup(spec);
	char *sysglob = NULL, *evglob = NULL, *colon = strchr(copy, ':');
	int n, matched = 0, ret = 0;

	if (colon) {
		*colon = '\0';
		sysglob = *copy ? copy : "*";
		evglob = colon[1] ? colon + 1 : "*";
	}
	n = list_dirs("events", &systems);
	if (n < 0) {
		free(copy);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *sys = systems[i]->d_name;

		if (ret == 0) {
			if (!strcmp(spec, "all"))
				ret = add_system(ev, sys, NULL, &matched);
			else if (colon)
				ret = fnmatch(sysglob, sys, 0) ? 0 :
				      add_system(ev, sys, evglob, &matched);
			else if (!fnmatch(spec, sys, 0))
				ret = add_system(ev, sys, NULL, &matched);
			else
				ret = add_system(ev, sys, spec, &matched);
		}
		free(systems[i]);
	}
	free(systems);
	free(copy);
	/* Sorted so the file lists systems, and events within them, in order
	 * (qsort's array may not be NULL, even when empty). */
	if (ev->nr)
		qsort(ev->ev, ev->nr, sizeof(*ev->ev), cmp_event);
	if (ret < 0)
		return -1;
	if (!matched)
		error("no event matches '%s'", spec);
	return matched;
}

size_t tfs_events_count(const struct tfs_events *ev)
{
	return ev->nr;
}

const char *tfs_events_system(const struct tfs_events *ev, size_t i)
{
	return i < ev->nr ? ev->ev[i].system : NULL;
}

const char *tfs_events_name(const struct tfs_events *ev, size_t i)
{
	return i < ev->nr ? ev->ev[i].name : NULL;
}

/*
 * Whether no event of the buffer is enabled (its events/enable reads 0).
 * Then that 0 is saved, and written back it turns off every event record
 * enabled in one write, not one per system and event (over 100 for -e
 * all).  A fake tracing directory without the file is restored file by
 * file.
 */
static int save_all_off(struct tfs_saved *saved)
{
	char *cur;
	int off;

	if (!tfs_exists("events/enable") || tfs_read_file("events/enable", &cur, NULL) < 0)
		return 0;
	off = cur[0] == '0';
	free(cur);
	return off && tfs_save(saved, "events/enable") == 0;
}

/* Writes 1 to @rel, which read @cur (freed), saving @cur unless events/enable's 0 restores it. */
static int enable_read(struct tfs_saved *saved, int all_off, const char *rel, char *cur)
{
	if (!all_off)
		return set_read(saved, rel, cur, "1");
	free(cur);
	return tfs_write_file(rel, "1");
}

/*
 * A whole system selected while all its events are off: one write to the
 * system's enable file instead of one per event (syscalls has hundreds, and
 * each write is a trip into the kernel), and "0" there restores it.  Returns
 * the number of events it enabled (@nr), 0 if per-event writes are needed,
 * or -1.
 */
static int enable_system(const struct tfs_events *ev, size_t first,
			 struct tfs_saved *saved, int all_off)
{
	const char *sys = ev->ev[first].system;
	char rel[1024];
	char *cur;
	size_t nr = 0;
	int whole = 0;

	while (first + nr < ev->nr && !strcmp(ev->ev[first + nr].system, sys))
		whole |= ev->ev[first + nr++].whole;
	/* One event marked whole means add_system() put them all in. */
	if (nr < 2 || !whole)
		return 0;
	snprintf(rel, sizeof(rel), "events/%s/enable", sys);
	if (!tfs_exists(rel) || tfs_read_file(rel, &cur, NULL) < 0)
		return 0;
	if (cur[0] != '0') {
		free(cur);
		return 0;
	}
	return enable_read(saved, all_off, rel, cur) < 0 ? -1 : (int)nr;
}

int tfs_events_enable(const struct tfs_events *ev, struct tfs_saved *saved)
{
	int all_off = ev->nr && save_all_off(saved);
	char rel[1024];

	for (size_t i = 0; i < ev->nr; i++) {
		int done = enable_system(ev, i, saved, all_off);
		char *cur;

		if (done < 0)
			return -1;
		if (done > 0) {
			i += done - 1;
			continue;
		}

		snprintf(rel, sizeof(rel), "events/%s/%s/enable", ev->ev[i].system,
			 ev->ev[i].name);
		if (tfs_read_file(rel, &cur, NULL) < 0)
			return -1;
		/* Already on: leave it, and leave it on afterwards. */
		if (cur[0] == '1')
			free(cur);
		else if (enable_read(saved, all_off, rel, cur) < 0)
			return -1;
	}
	return 0;
}

void tfs_events_free(struct tfs_events *ev)
{
	if (!ev)
		return;
	for (size_t i = 0; i < ev->nr; i++) {
		free(ev->ev[i].system);
		free(ev->ev[i].name);
	}
	free(ev->ev);
	free(ev);
}
