// SPDX-License-Identifier: GPL-2.0
/*
 * Reading record's metadata ahead.  For -e all, reading 2,300 format files
 * and 5 MB of /proc/kallsyms after the command's exit took about 200 ms of
 * the time until trace.dat was complete.  None of it changes while the
 * events are enabled (kallsyms and printk_formats only when a module comes
 * or goes, which is checked), so a thread reads it all while the command
 * runs, and record hands what it read to the writer (trace_output_write_metadata).
 */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-kallsyms.h"
#include "trace-prefetch.h"
#include "trace-tracefs.h"
#include "trace-worker.h"

#define MODULES		"/proc/modules"

struct ahead_file {
	char *path;
	char *text;		/* NULL: not read */
	size_t len;
};

struct prefetch {
	struct worker *worker;
	struct ahead_file *files;
	size_t nr, alloc;
	char *modules;		/* /proc/modules before anything was read */
	int finished;
	/* What prefetch_finish() offered: an open-addressing table by path. */
	struct ahead_file *table;
	size_t table_size;
};

static void add_path(struct prefetch *p, char *path)
{
	if (p->nr == p->alloc) {
		p->alloc = p->alloc ? p->alloc * 2 : 256;
		p->files = xrealloc(p->files, p->alloc * sizeof(*p->files));
	}
	p->files[p->nr++] = (struct ahead_file){ .path = path };
}

static void add_rel(struct prefetch *p, const char *rel)
{
	add_path(p, tfs_path(NULL, rel));
}

static int is_dir(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

/* The ftrace system's formats, which the writer puts in a section of their own. */
static void add_ftrace_formats(struct prefetch *p)
{
	char *dir = tfs_path(NULL, "events/ftrace");
	struct dirent **list = NULL;
	int n = scandir(dir, &list, is_dir, alphasort);
	char rel[512];

	free(dir);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "events/ftrace/%s/format", list[i]->d_name);
		add_rel(p, rel);
		free(list[i]);
	}
	free(list);
}

static void add_event_formats(struct prefetch *p, const struct tfs_events *events)
{
	struct tfs_events *all = NULL;
	char rel[1024];

	if (!events) {
		all = tfs_events_new();
		if (tfs_events_add(all, NULL, "all") < 0) {
			tfs_events_free(all);
			return;
		}
		events = all;
	}
	for (size_t i = 0; i < tfs_events_count(events); i++) {
		snprintf(rel, sizeof(rel), "events/%s/%s/format", tfs_events_system(events, i),
			 tfs_events_name(events, i));
		add_rel(p, rel);
	}
	tfs_events_free(all);
}

/*
 * /proc/modules as names and load addresses: its use counts move all the
 * time (enabling a module's events takes a reference), its modules rarely.
 */
static char *module_list(void)
{
	size_t len, n = 0;
	char *text = read_path_text(MODULES, &len), *line, *save = NULL;
	char *list;

	if (!text)
		return xstrdup("");	/* a kernel without modules */
	list = xmalloc(len + 1);
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char name[256], addr[64];

		/* name size refcount users state address */
		if (sscanf(line, "%255s %*s %*s %*s %*s %63s", name, addr) == 2)
			n += sprintf(list + n, "%s %s\n", name, addr);
		else
			n += sprintf(list + n, "%s\n", line);
	}
	list[n] = '\0';
	free(text);
	return list;
}

static void prefetch_main(void *arg)
{
	struct prefetch *p = arg;

	/* Before anything is read: a module may come while printk_formats is. */
	p->modules = module_list();
	for (size_t i = 0; i < p->nr; i++) {
		struct ahead_file *f = &p->files[i];

		if (strcmp(f->path, KALLSYMS_PROC))
			f->text = read_path_text(f->path, &f->len);
		else
			f->text = kallsyms_read_proc(&f->len);
	}
}

struct prefetch *prefetch_new(const struct tfs_events *events)
{
	struct prefetch *p = xcalloc(1, sizeof(*p));

	add_rel(p, "events/header_page");
	add_rel(p, "events/header_event");
	add_ftrace_formats(p);
	add_event_formats(p, events);
	add_rel(p, "printk_formats");
	add_path(p, xstrdup(KALLSYMS_PROC));
	p->worker = worker_new(prefetch_main, p);
	if (!p->worker) {
		prefetch_free(p);
		return NULL;
	}
	return p;
}

void prefetch_go(struct prefetch *p)
{
	if (p)
		worker_go(p->worker);
}

static uint64_t hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s)
		h = (h ^ (unsigned char)*s++) * 1099511628211ULL;
	return h;
}

static struct ahead_file *slot(const struct prefetch *p, const char *path)
{
	size_t mask = p->table_size - 1, i = hash(path) & mask;

	while (p->table[i].path && strcmp(p->table[i].path, path))
		i = (i + 1) & mask;
	return &p->table[i];
}

/* A module loaded or removed changes the symbols and may change the printk formats. */
static int modules_changed(const struct prefetch *p)
{
	char *now = module_list();
	int changed = !p->modules || strcmp(now, p->modules);

	free(now);
	return changed;
}

static int module_dependent(const char *path)
{
	size_t n = strlen(path);

	return !strcmp(path, KALLSYMS_PROC) || (n >= 14 && !strcmp(path + n - 14, "printk_formats"));
}

void prefetch_finish(struct prefetch *p)
{
	int stale;

	if (!p || p->finished)
		return;
	worker_join(p->worker);
	p->worker = NULL;
	p->finished = 1;
	stale = modules_changed(p);
	for (p->table_size = 64; p->table_size < 2 * p->nr; p->table_size *= 2)
		;
	p->table = xcalloc(p->table_size, sizeof(*p->table));
	for (size_t i = 0; i < p->nr; i++) {
		struct ahead_file *f = &p->files[i];

		if (f->text && !(stale && module_dependent(f->path))) {
			*slot(p, f->path) = *f;
			f->path = f->text = NULL;	/* the table's now */
		}
	}
}

int prefetch_take(struct prefetch *p, const char *path, char **buf, size_t *len)
{
	struct ahead_file *f;

	if (!p || !p->table)
		return 0;
	f = slot(p, path);
	if (!f->path || !f->text)
		return 0;
	*buf = f->text;
	if (len)
		*len = f->len;
	f->text = NULL;		/* the slot stays, so later probes still find their way */
	return 1;
}

void prefetch_free(struct prefetch *p)
{
	if (!p)
		return;
	if (p->worker)
		worker_join(p->worker);
	for (size_t i = 0; i < p->nr; i++) {
		free(p->files[i].path);
		free(p->files[i].text);
	}
	for (size_t i = 0; p->table && i < p->table_size; i++) {
		free(p->table[i].path);
		free(p->table[i].text);
	}
	free(p->table);
	free(p->files);
	free(p->modules);
	free(p);
}
