// SPDX-License-Identifier: GPL-2.0
/*
 * Buffer selection for the small tracefs commands: the -B / -a / -t
 * selectors as a list of tfs_instance buffers (NULL for the top one), each
 * with the -b size and -d of its group.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

struct buffer_entry {
	struct tfs_instance *inst;	/* NULL: the top buffer */
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

struct buffers *buffers_new(void)
{
	return xcalloc(1, sizeof(struct buffers));
}

void buffers_free(struct buffers *b)
{
	if (!b)
		return;
	for (int i = 0; i < b->nr; i++)
		tfs_instance_free(b->e[i].inst);
	free(b->e);
	free(b);
}

static int find_entry(struct buffers *b, const char *name)
{
	for (int i = 0; i < b->nr; i++) {
		const char *n = tfs_instance_name(b->e[i].inst);

		if ((!name && !n) || (name && n && !strcmp(name, n)))
			return i;
	}
	return -1;
}

/* Adds (or regroups) one buffer; takes ownership of @inst. */
static void add_entry(struct buffers *b, struct tfs_instance *inst)
{
	int i = find_entry(b, tfs_instance_name(inst));

	if (i >= 0) {
		tfs_instance_free(inst);
		b->e[i].group = b->group;
		return;
	}
	b->e = xrealloc(b->e, (b->nr + 1) * sizeof(*b->e));
	b->e[b->nr++] = (struct buffer_entry){ .inst = inst, .group = b->group };
}

int buffers_select_name(struct buffers *b, const char *name)
{
	struct tfs_instance *inst = tfs_instance_alloc(name);

	if (!inst)
		return -1;
	if (!tfs_instance_exists(inst)) {
		tfs_instance_free(inst);
		return error("no instance '%s'", name);
	}
	b->group++;
	b->last_top = false;
	add_entry(b, inst);
	return 0;
}

static int add_instance_cb(const char *name, void *data)
{
	struct buffers *b = data;
	struct tfs_instance *inst = tfs_instance_alloc(name);

	if (inst)
		add_entry(b, inst);
	return 0;
}

int buffers_select_all(struct buffers *b)
{
	b->group++;
	b->last_top = false;
	if (tfs_instances_walk(add_instance_cb, b) < 0 && errno != ENOENT)
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

struct tfs_instance *buffers_instance(const struct buffers *b, int i)
{
	return b->e[i].inst;
}

const char *buffers_name(const struct buffers *b, int i)
{
	return b->e[i].inst ? tfs_instance_name(b->e[i].inst) : "top";
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

int buffers_option(struct buffers *b, int opt, const char *arg)
{
	switch (opt) {
	case 'B':
		return b && buffers_select_name(b, arg) < 0 ? -1 : 1;
	case 'a':
		return b && buffers_select_all(b) < 0 ? -1 : 1;
	case 't':
		if (b)
			buffers_select_top(b);
		return 1;
	}
	return 0;
}

int buffers_parse(buffers_parse_fn parse, const void *ctx, int argc, char **argv,
		  struct buffers **out)
{
	int ret = parse(ctx, argc, argv, NULL);

	*out = NULL;
	if (ret != PARSE_RUN)
		return ret;
	if (!tfs_dir())
		return EXIT_FAILED;
	*out = buffers_new();
	ret = parse(ctx, argc, argv, *out);
	if (ret != PARSE_RUN) {
		buffers_free(*out);
		*out = NULL;
	}
	return ret;
}
