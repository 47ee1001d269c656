// SPDX-License-Identifier: GPL-2.0
/*
 * The tracing directory for every command that touches Ftrace: find or mount
 * it, make and remove instances, read and write the files of a buffer (the
 * instance passed first, NULL for the top one, explaining refusals with the
 * buffer's error_log), save what a command changes and put it back, match
 * -e specs.  The only place libtracefs is called.
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

#include <tracefs.h>

#include "trace-cmd.h"
#include "trace-tracefs.h"

#ifndef TRACEFS_MAGIC
#define TRACEFS_MAGIC 0x74726163
#endif

#define TRACEFS_MOUNT	"/sys/kernel/tracing"
#define DEBUGFS_MOUNT	"/sys/kernel/debug"

static char *tracing_dir;

struct tfs_instance {
	char *name;		/* NULL: the top buffer */
	char *prefix;		/* "instances/NAME/", "" for the top buffer */
	/*
	 * The last entry of the buffer's own error_log already seen (its
	 * timestamped first line), so a refusal shows only a new entry.  Not
	 * a byte count: the kernel keeps a fixed number of entries, so a full
	 * log stays the same size as it changes.
	 */
	char *log_seen;
	int log_known;		/* log_seen was read (an instance's before its first write) */
};

/* What NULL stands for. */
static struct tfs_instance top_buffer = { .prefix = "" };

static struct tfs_instance *buffer_of(struct tfs_instance *inst)
{
	return inst ? inst : &top_buffer;
}

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

/* The first line of the last entry of @inst's error_log (optional: NULL if none). */
static char *last_error_entry(struct tfs_instance *inst)
{
	char *buf, *entry = NULL;

	if (!tfs_exists(inst, "error_log") || tfs_read_file(inst, "error_log", &buf, NULL) < 0)
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

/* The top buffer's error_log as it is now: later refusals show only new entries. */
static void remember_top_log(void)
{
	free(top_buffer.log_seen);
	top_buffer.log_seen = tracing_dir ? last_error_entry(NULL) : NULL;
	top_buffer.log_known = tracing_dir != NULL;
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
	/* The libtracefs calls underneath (event and instance lists) look there too. */
	if (tracefs_set_tracing_dir(tracing_dir) < 0) {
		error("cannot use tracing directory '%s': %s", tracing_dir, strerror(errno));
		free(tracing_dir);
		tracing_dir = NULL;
		return NULL;
	}
	remember_top_log();
	return tracing_dir;
}

void tfs_set_dir(const char *dir)
{
	free(tracing_dir);
	tracing_dir = dir ? xstrdup(dir) : NULL;
	if (tracing_dir)
		tracefs_set_tracing_dir(tracing_dir);
	remember_top_log();
}

char *tfs_path(struct tfs_instance *inst, const char *rel)
{
	const char *dir = tracing_dir ? tracing_dir : "";
	const char *pre = buffer_of(inst)->prefix;
	char *p = xmalloc(strlen(dir) + strlen(pre) + strlen(rel) + 2);

	sprintf(p, "%s/%s%s", dir, pre, rel);
	return p;
}

struct tfs_instance *tfs_instance_alloc(const char *name)
{
	struct tfs_instance *inst;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, "..")) {
		error("invalid instance name '%s'", name);
		return NULL;
	}
	inst = xcalloc(1, sizeof(*inst));
	inst->name = xstrdup(name);
	inst->prefix = xmalloc(strlen(name) + sizeof("instances//"));
	sprintf(inst->prefix, "instances/%s/", name);
	return inst;
}

void tfs_instance_free(struct tfs_instance *inst)
{
	if (!inst)
		return;
	free(inst->name);
	free(inst->prefix);
	free(inst->log_seen);
	free(inst);
}

const char *tfs_instance_name(const struct tfs_instance *inst)
{
	return inst ? inst->name : NULL;
}

int tfs_instance_exists(struct tfs_instance *inst)
{
	return tfs_exists(inst, "");
}

/* "instances/NAME" as a full path, for mkdir and rmdir. */
static char *instance_dir(const struct tfs_instance *inst)
{
	const char *dir = tracing_dir ? tracing_dir : "";
	char *p = xmalloc(strlen(dir) + strlen(inst->name) + sizeof("/instances/"));

	sprintf(p, "%s/instances/%s", dir, inst->name);
	return p;
}

int tfs_instance_create(struct tfs_instance *inst)
{
	char *path;
	int ret = 1;

	if (tfs_instance_exists(inst))
		return 0;
	path = instance_dir(inst);
	if (mkdir(path, 0755) < 0)
		ret = error("cannot create instance '%s': %s", inst->name, strerror(errno));
	free(path);
	return ret;
}

int tfs_instance_destroy(struct tfs_instance *inst)
{
	char *path = instance_dir(inst);
	int ret = 0;

	if (rmdir(path) < 0)
		ret = error("cannot remove instance '%s': %s", inst->name, strerror(errno));
	free(path);
	return ret;
}

int tfs_instances_walk(int (*fn)(const char *name, void *data), void *data)
{
	return tracefs_instances_walk(fn, data);
}

/* @rel of @inst as seen from the top of the tracing directory, in a new allocation. */
static char *top_rel(struct tfs_instance *inst, const char *rel)
{
	const char *pre = buffer_of(inst)->prefix;
	char *p = xmalloc(strlen(pre) + strlen(rel) + 1);

	sprintf(p, "%s%s", pre, rel);
	return p;
}

int tfs_exists(struct tfs_instance *inst, const char *rel)
{
	char *p = tfs_path(inst, rel);
	int ret = access(p, F_OK) == 0;

	free(p);
	return ret;
}

/* "WHAT 'REL': REASON", with REL as seen from the top (an instance's shows it). */
static int path_error(struct tfs_instance *inst, const char *what, const char *rel, int err)
{
	char *shown = top_rel(inst, rel);

	error("%s '%s': %s", what, shown, strerror(err));
	free(shown);
	return -1;
}

int tfs_read_file(struct tfs_instance *inst, const char *rel, char **bufp, size_t *lenp)
{
	char *p = tfs_path(inst, rel), *buf;
	int fd;

	fd = open(p, O_RDONLY | O_CLOEXEC);
	free(p);
	if (fd < 0)
		return path_error(inst, "cannot open", rel, errno);
	buf = read_text(fd, lenp);
	if (!buf) {
		int e = errno;

		close(fd);
		return path_error(inst, "cannot read", rel, e);
	}
	close(fd);
	*bufp = buf;
	return 0;
}

int tfs_read_ulong(struct tfs_instance *inst, const char *rel, unsigned long *val)
{
	char *buf, *end;
	int ret = 0;

	if (tfs_read_file(inst, rel, &buf, NULL) < 0)
		return -1;
	errno = 0;
	*val = strtoul(buf, &end, 10);
	if (end == buf || errno)
		ret = error("'%s' holds no number", rel);
	free(buf);
	return ret;
}

/* The kernel's error_log entry of @inst written since we last looked, first line only. */
static char *new_error_log(struct tfs_instance *inst)
{
	struct tfs_instance *b = buffer_of(inst);
	char *last = last_error_entry(inst), *entry = NULL, *p;

	if (last && (!b->log_seen || strcmp(last, b->log_seen))) {
		/* Drop the "[ 123.456789] " timestamp. */
		p = strchr(last, ']');
		entry = xstrdup(p ? p + 1 + (p[1] == ' ') : last);
	}
	free(b->log_seen);
	b->log_seen = last;
	return entry;
}

int tfs_write_file(struct tfs_instance *inst, const char *rel, const char *val)
{
	char *p;
	size_t len = strlen(val);
	int fd;
	ssize_t n = -1;
	int err;

	/* An instance's log is first read before its first write (the top's in tfs_dir). */
	if (!buffer_of(inst)->log_known && tracing_dir) {
		buffer_of(inst)->log_seen = last_error_entry(inst);
		buffer_of(inst)->log_known = 1;
	}
	p = tfs_path(inst, rel);
	/* --verbose=debug: every change to tracefs, in the order made. */
	log_debug("writing '%.*s' to '%s'", (int)strcspn(val, "\n"), val, p);
	fd = open(p, O_WRONLY | O_TRUNC | O_CLOEXEC);
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
		char *log = new_error_log(inst), *shown = top_rel(inst, rel);

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

char *tfs_read_quiet(struct tfs_instance *inst, const char *rel)
{
	char *path = tfs_path(inst, rel);
	char *buf = read_path_text(path, NULL);
	int err = errno;

	free(path);
	errno = err;
	return buf;
}

/* tfs_write_quiet() and tfs_append_quiet(): @flags is O_TRUNC or O_APPEND. */
static int write_quiet(struct tfs_instance *inst, const char *rel, const char *val, int flags)
{
	char *path = tfs_path(inst, rel);
	int fd = open(path, O_WRONLY | flags | O_CLOEXEC), err = 0;

	if (fd < 0)
		err = errno;
	free(path);
	if (fd < 0) {
		errno = err;
		return -1;
	}
	if (*val && write_all(fd, val, strlen(val)) < 0)
		err = errno;
	if (close(fd) < 0 && !err)
		err = errno;
	errno = err;
	return err ? -1 : 0;
}

int tfs_write_quiet(struct tfs_instance *inst, const char *rel, const char *val)
{
	return write_quiet(inst, rel, val, O_TRUNC);
}

int tfs_append_quiet(struct tfs_instance *inst, const char *rel, const char *val)
{
	return write_quiet(inst, rel, val, O_APPEND);
}

/* The buffer's directory without the trailing '/', as libtracefs's own paths are. */
static char *buffer_dir(struct tfs_instance *inst)
{
	char *dir = tfs_path(inst, "");

	dir[strlen(dir) - 1] = '\0';
	return dir;
}

char **tfs_event_systems(struct tfs_instance *inst)
{
	char *dir = buffer_dir(inst);
	char **list = tracefs_event_systems(dir);
	int err = errno;

	free(dir);
	/* No system with an enable file: an empty list, not a failure. */
	if (!list && err == ENOENT && tfs_exists(inst, "events"))
		err = 0;
	errno = err;
	return list;
}

char **tfs_system_events(struct tfs_instance *inst, const char *system)
{
	char *dir = buffer_dir(inst);
	char **list = tracefs_system_events(dir, system);
	int err = errno;

	free(dir);
	errno = err;
	return list;
}

void tfs_list_free(char **list)
{
	tracefs_list_free(list);
}

int tfs_for_each_event(struct tfs_instance *inst,
		       int (*fn)(const char *system, const char *event, void *data),
		       void *data)
{
	char **systems = tfs_event_systems(inst), **events;
	int ret = 0;

	if (!systems && !errno)
		return 0;
	if (!systems) {
		char *dir = buffer_dir(inst);

		error("cannot list the events of '%s': %s", dir, strerror(errno));
		free(dir);
		return -1;
	}
	for (int s = 0; !ret && systems[s]; s++) {
		events = tfs_system_events(inst, systems[s]);
		for (int e = 0; !ret && events && events[e]; e++)
			ret = fn(systems[s], events[e], data);
		tfs_list_free(events);
	}
	tfs_list_free(systems);
	return ret;
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
		if (!tfs_exists(NULL, rel))
			break;
		n++;
	}
	return n;
}

char *tfs_current_clock(struct tfs_instance *inst)
{
	char *buf, *s, *e;

	if (tfs_read_file(inst, "trace_clock", &buf, NULL) < 0)
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
	/* An empty set_ftrace_pid reads "no pid", which the kernel refuses. */
	if (!strncmp(base, "set_ftrace_", 11) && !strcmp(val, "no pid"))
		val[0] = '\0';
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

int tfs_save(struct tfs_saved *saved, struct tfs_instance *inst, const char *rel)
{
	char *val, *full = top_rel(inst, rel);

	if (is_saved(saved, full)) {
		free(full);
		return 0;
	}
	if (tfs_read_file(inst, rel, &val, NULL) < 0) {
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
static int set_read(struct tfs_saved *saved, struct tfs_instance *inst, const char *rel,
		    char *old, const char *val)
{
	char *full = top_rel(inst, rel);

	if (is_saved(saved, full)) {
		free(full);
		free(old);
	} else {
		normalise(rel, old);
		add_saved(saved, full, old);
	}
	return tfs_write_file(inst, rel, val);
}

int tfs_set(struct tfs_saved *saved, struct tfs_instance *inst, const char *rel,
	    const char *val)
{
	if (tfs_save(saved, inst, rel) < 0)
		return -1;
	return tfs_write_file(inst, rel, val);
}

int tfs_restore(struct tfs_saved *saved)
{
	int ret = 0;

	if (!saved)
		return 0;
	/* The saved paths start at the top. */
	/* Reverse order: tracing_on, saved first, goes back last. */
	while (saved->nr) {
		struct saved_file *f = &saved->files[--saved->nr];
		char *line = xmalloc(strlen(f->val) + 2);

		/* With the newline the file read, so a fake directory ends up identical. */
		sprintf(line, "%s\n", f->val);
		if (tfs_write_file(NULL, f->rel, line) < 0)
			ret = -1;
		free(line);
		free(f->rel);
		free(f->val);
	}
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
static int list_dirs(struct tfs_instance *inst, const char *rel, struct dirent ***list)
{
	char *p = tfs_path(inst, rel);
	int n = scandir(p, list, only_dirs, alphasort);

	free(p);
	if (n < 0)
		return path_error(inst, "cannot list", rel, errno);
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
static int add_system(struct tfs_events *ev, struct tfs_instance *inst, const char *sys,
		      const char *evglob, int *matched)
{
	struct dirent **list;
	char rel[1024];
	int n, all_enable;

	/* A plain name is one stat, not a listing (eventfs builds those slowly). */
	if (evglob && !strpbrk(evglob, "*?[\\")) {
		snprintf(rel, sizeof(rel), "events/%s/%s/enable", sys, evglob);
		if (tfs_exists(inst, rel)) {
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
	all_enable = !evglob && tfs_exists(inst, rel);
	snprintf(rel, sizeof(rel), "events/%s", sys);
	n = list_dirs(inst, rel, &list);
	if (n < 0)
		return -1;
	for (int i = 0; i < n; i++) {
		const char *name = list[i]->d_name;

		snprintf(rel, sizeof(rel), "events/%s/%s/enable", sys, name);
		/* ftrace's own events (function, print, ...) cannot be enabled. */
		if ((!evglob || !fnmatch(evglob, name, 0)) && (all_enable || tfs_exists(inst, rel))) {
			(*matched)++;
			add_event(ev, sys, name, !evglob);
		}
		free(list[i]);
	}
	free(list);
	return 0;
}

int tfs_events_add(struct tfs_events *ev, struct tfs_instance *inst, const char *spec)
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
	n = list_dirs(inst, "events", &systems);
	if (n < 0) {
		free(copy);
		return -1;
	}
	for (int i = 0; i < n; i++) {
		const char *sys = systems[i]->d_name;

		if (ret == 0) {
			if (!strcmp(spec, "all"))
				ret = add_system(ev, inst, sys, NULL, &matched);
			else if (colon)
				ret = fnmatch(sysglob, sys, 0) ? 0 :
				      add_system(ev, inst, sys, evglob, &matched);
			else if (!fnmatch(spec, sys, 0))
				ret = add_system(ev, inst, sys, NULL, &matched);
			else
				ret = add_system(ev, inst, sys, spec, &matched);
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
static int save_all_off(struct tfs_saved *saved, struct tfs_instance *inst)
{
	char *cur;
	int off;

	if (!tfs_exists(inst, "events/enable") ||
	    tfs_read_file(inst, "events/enable", &cur, NULL) < 0)
		return 0;
	off = cur[0] == '0';
	free(cur);
	return off && tfs_save(saved, inst, "events/enable") == 0;
}

/* Writes 1 to @rel, which read @cur (freed), saving @cur unless events/enable's 0 restores it. */
static int enable_read(struct tfs_saved *saved, struct tfs_instance *inst, int all_off,
		       const char *rel, char *cur)
{
	if (!all_off)
		return set_read(saved, inst, rel, cur, "1");
	free(cur);
	return tfs_write_file(inst, rel, "1");
}

/*
 * A whole system selected while all its events are off: one write to the
 * system's enable file instead of one per event (syscalls has hundreds, and
 * each write is a trip into the kernel), and "0" there restores it.  Returns
 * the number of events it enabled (@nr), 0 if per-event writes are needed,
 * or -1.
 */
static int enable_system(const struct tfs_events *ev, size_t first, struct tfs_instance *inst,
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
	if (!tfs_exists(inst, rel) || tfs_read_file(inst, rel, &cur, NULL) < 0)
		return 0;
	if (cur[0] != '0') {
		free(cur);
		return 0;
	}
	return enable_read(saved, inst, all_off, rel, cur) < 0 ? -1 : (int)nr;
}

int tfs_events_enable(const struct tfs_events *ev, struct tfs_instance *inst,
		      struct tfs_saved *saved)
{
	int all_off = ev->nr && save_all_off(saved, inst);
	char rel[1024];

	for (size_t i = 0; i < ev->nr; i++) {
		int done = enable_system(ev, i, inst, saved, all_off);
		char *cur;

		if (done < 0)
			return -1;
		if (done > 0) {
			i += done - 1;
			continue;
		}

		snprintf(rel, sizeof(rel), "events/%s/%s/enable", ev->ev[i].system,
			 ev->ev[i].name);
		if (tfs_read_file(inst, rel, &cur, NULL) < 0)
			return -1;
		/* Already on: leave it, and leave it on afterwards. */
		if (cur[0] == '1')
			free(cur);
		else if (enable_read(saved, inst, all_off, rel, cur) < 0)
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
