// SPDX-License-Identifier: GPL-2.0
/*
 * Buffer selection for the small tracefs commands: libtracefs pointed at the
 * tracing directory trace-tracefs.c finds (or mounts), the -B / -a / -t
 * selectors as a list of buffers, and plain file read/write per buffer.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <tracefs.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

struct buffer_entry {
	struct tracefs_instance *inst;	/* NULL: the top buffer */
	int group;
	unsigned long size_kb;
	bool delete;
};

struct buffers {
	struct buffer_entry *e;
	int nr;
	int group;	/* the current group; 0 before any selector */
	bool last_top;	/* the current group is -t */
};

/* One lookup for the whole program: trace-tracefs.c's, shared with libtracefs. */
const char *tracing_dir_setup(void)
{
	static const char *dir;

	if (dir)
		return dir;
	dir = tfs_dir();
	if (dir && tracefs_set_tracing_dir((char *)dir) < 0) {
		error("cannot use tracing directory '%s': %s", dir, strerror(errno));
		dir = NULL;
	}
	return dir;
}

struct buffers *buffers_new(void)
{
	return xcalloc(1, sizeof(struct buffers));
}

void buffers_free(struct buffers *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nr; i++)
		tracefs_instance_free(b->e[i].inst);
	free(b->e);
	free(b);
}

static int find_entry(struct buffers *b, const char *name)
{
	for (int i = 0; i < b->nr; i++) {
		const char *n = b->e[i].inst ? tracefs_instance_get_name(b->e[i].inst) : NULL;

		if ((!name && !n) || (name && n && !strcmp(name, n)))
			return i;
	}
	return -1;
}

/* Adds (or regroups) one buffer; takes ownership of @inst. */
static void add_entry(struct buffers *b, struct tracefs_instance *inst)
{
	int i = find_entry(b, inst ? tracefs_instance_get_name(inst) : NULL);

	if (i >= 0) {
		tracefs_instance_free(inst);
		b->e[i].group = b->group;
		return;
	}
	b->e = xrealloc(b->e, (b->nr + 1) * sizeof(*b->e));
	b->e[b->nr++] = (struct buffer_entry){ .inst = inst, .group = b->group };
}

int buffers_select_name(struct buffers *b, const char *name, bool create)
{
	struct tracefs_instance *inst;

	if (!*name || strchr(name, '/') || !strcmp(name, ".") || !strcmp(name, ".."))
		return error("invalid instance name '%s'", name);
	if (!create) {
		char rel[PATH_MAX];

		snprintf(rel, sizeof(rel), "instances/%s", name);
		if (!buffer_file_exists(NULL, rel))
			return error("no instance '%s'", name);
	}
	inst = create ? tracefs_instance_create(name) : tracefs_instance_alloc(NULL, name);
	if (!inst)
		return error("cannot %s instance '%s': %s", create ? "create" : "open",
			     name, strerror(errno));
	b->group++;
	b->last_top = false;
	add_entry(b, inst);
	return 0;
}

static int add_instance_cb(const char *name, void *data)
{
	struct buffers *b = data;
	struct tracefs_instance *inst = tracefs_instance_alloc(NULL, name);

	if (inst)
		add_entry(b, inst);
	return 0;
}

int buffers_select_all(struct buffers *b)
{
	b->group++;
	b->last_top = false;
	if (tracefs_instances_walk(add_instance_cb, b) < 0 && errno != ENOENT)
		return error("cannot list instances: %s", strerror(errno));
	return 0;
}

void buffers_select_top(struct buffers *b)
{
	b->group++;
	b->last_top = true;
	add_entry(b, NULL);
}

void buffers_default_top(struct buffers *b)
{
	if (b->group == 0)
		add_entry(b, NULL);
}

bool buffers_group_is_top(const struct buffers *b)
{
	return b->group == 0 || b->last_top;
}

/* Group 0 (settings given before any selector) means the top buffer. */
static void set_group(struct buffers *b, unsigned long kb, bool del)
{
	if (b->group == 0)
		add_entry(b, NULL);
	for (int i = 0; i < b->nr; i++) {
		if (b->e[i].group != b->group)
			continue;
		if (del)
			b->e[i].delete = true;
		else
			b->e[i].size_kb = kb;
	}
}

void buffers_set_size(struct buffers *b, unsigned long kb)
{
	set_group(b, kb, false);
}

void buffers_set_delete(struct buffers *b)
{
	set_group(b, 0, true);
}

int buffers_count(const struct buffers *b)
{
	return b->nr;
}

struct tracefs_instance *buffers_instance(const struct buffers *b, int i)
{
	return b->e[i].inst;
}

const char *buffers_name(const struct buffers *b, int i)
{
	return b->e[i].inst ? tracefs_instance_get_name(b->e[i].inst) : "top";
}

bool buffers_is_top(const struct buffers *b, int i)
{
	return !b->e[i].inst;
}

unsigned long buffers_size(const struct buffers *b, int i)
{
	return b->e[i].size_kb;
}

bool buffers_delete(const struct buffers *b, int i)
{
	return b->e[i].delete;
}

char *buffer_read_file(struct tracefs_instance *inst, const char *file)
{
	char *path = tracefs_instance_get_file(inst, file);
	char *buf = NULL;
	size_t len = 0, cap = 0;
	ssize_t n;
	int fd, err;

	if (!path)
		return NULL;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	err = errno;
	tracefs_put_tracing_file(path);
	if (fd < 0) {
		errno = err;
		return NULL;
	}
	do {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			buf = xrealloc(buf, cap);
		}
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n > 0)
			len += n;
	} while (n != 0 && !(n < 0));
	err = errno;
	close(fd);
	if (n < 0) {
		free(buf);
		errno = err;
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

bool buffer_file_exists(struct tracefs_instance *inst, const char *rel)
{
	char *path = tracefs_instance_get_file(inst, rel);
	bool ret = path && access(path, F_OK) == 0;

	tracefs_put_tracing_file(path);
	return ret;
}

int buffer_write_file(struct tracefs_instance *inst, const char *file, const char *val)
{
	char *path = tracefs_instance_get_file(inst, file);
	int fd, err = 0;

	if (!path)
		return -1;
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		err = errno;
	tracefs_put_tracing_file(path);
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

int option_error(const struct command *cmd, char **argv, int c)
{
	const char *arg = argv[optind - 1];
	int len;

	if (optopt && strncmp(arg, "--", 2) != 0) {
		if (c == ':')
			return usage_error(cmd, "option '-%c' needs a value", optopt);
		return usage_error(cmd, "unknown option '-%c'", optopt);
	}
	len = strcspn(arg, "=");
	if (c == ':')
		return usage_error(cmd, "option '%.*s' needs a value", len, arg);
	return usage_error(cmd, "unknown option '%.*s'", len, arg);
}

int buffer_for_each_event(struct tracefs_instance *inst,
			  int (*fn)(const char *system, const char *event, void *data),
			  void *data)
{
	const char *dir = tracefs_instance_get_dir(inst);
	char **systems = tracefs_event_systems(dir), **events;
	int ret = 0;

	if (!systems) {
		error("cannot list the events of '%s': %s", dir, strerror(errno));
		tracefs_put_tracing_file((char *)dir);
		return -1;
	}
	for (int s = 0; !ret && systems[s]; s++) {
		events = tracefs_system_events(dir, systems[s]);
		for (int e = 0; !ret && events && events[e]; e++)
			ret = fn(systems[s], events[e], data);
		tracefs_list_free(events);
	}
	tracefs_list_free(systems);
	tracefs_put_tracing_file((char *)dir);
	return ret;
}

int buffers_option(struct buffers *b, int opt, const char *arg)
{
	switch (opt) {
	case 'B':
		return b && buffers_select_name(b, arg, false) < 0 ? -1 : 1;
	case 'a':
		return b && buffers_select_all(b) < 0 ? -1 : 1;
	case 't':
		if (b)
			buffers_select_top(b);
		return 1;
	}
	return 0;
}
