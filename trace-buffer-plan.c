// SPDX-License-Identifier: GPL-2.0
/*
 * One buffer's plan: the -e specs and their selection, the ftrace settings,
 * the sizes, and the instance's life (made if missing, removed after if this
 * run made it).  record, stream and start/set keep one per buffer.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-buffer-plan.h"
#include "trace-tracefs.h"

int buffer_plan_init(struct buffer_plan *b, const char *name, int argc)
{
	memset(b, 0, sizeof(*b));
	if (name && !(b->inst = tfs_instance_alloc(name)))
		return -1;
	b->name = name;
	b->specs = xcalloc(argc + 1, sizeof(*b->specs));
	ftrace_setup_init(&b->ftrace, argc + 1);
	return 0;
}

int buffer_plan_event(struct buffer_plan *b, const char *spec)
{
	if (check_named("-e", spec, "an event name") < 0)
		return -1;
	ftrace_setup_event(&b->ftrace, b->nr_specs);
	b->specs[b->nr_specs++] = spec;
	return 0;
}

const char *buffer_plan_last_event(const struct buffer_plan *b)
{
	return b->nr_specs ? b->specs[b->nr_specs - 1] : NULL;
}

int buffer_plan_option(struct buffer_plan *b, int opt, const char *arg)
{
	unsigned long num;

	switch (opt) {
	case 'e':
		return buffer_plan_event(b, arg) < 0 ? -1 : 1;
	case 'b':
		return parse_ulong("-b", arg, 1, 1UL << 30, &b->size_kb) < 0 ? -1 : 1;
	case 'K':
		b->keep_contents = 1;
		return 1;
	case BUFFER_OPT_SUBBUF_SIZE:
		/* The kernel rounds to a power of two pages and says what it refuses. */
		if (parse_ulong("--subbuf-size", arg, 1, 1UL << 20, &num) < 0)
			return -1;
		b->subbuf_kb = arg;
		return 1;
	}
	return ftrace_setup_option(&b->ftrace, opt, arg, buffer_plan_last_event(b));
}

int buffer_plan_select(struct buffer_plan *b, struct tfs_instance *where)
{
	tfs_events_free(b->selected);
	b->selected = ftrace_select_events(&b->ftrace, where, b->specs, b->nr_specs);
	return b->selected ? 0 : -1;
}

/*
 * Kernels before 6.8 have one sub-buffer size, the page size, and no file;
 * a locked-down tracefs shows the file but refuses writes.  Writing the size
 * it holds back changes nothing, and finds that out before anything else.
 */
static int check_subbuf(struct tfs_instance *where)
{
	static const char rel[] = "buffer_subbuf_size_kb";
	char *cur;
	int ret = 0;

	if (!tfs_exists(where, rel))
		return error("--subbuf-size: this kernel cannot change the sub-buffer size (no '%s' in '%s')",
			     rel, tfs_dir());
	cur = tfs_read_quiet(where, rel);
	if (!cur)
		return error("--subbuf-size: cannot read '%s': %s", rel, strerror(errno));
	cur[strcspn(cur, "\n")] = '\0';
	if (tfs_write_quiet(where, rel, cur) < 0)
		ret = error("--subbuf-size: the kernel refuses to change the sub-buffer size (writing '%s' back to '%s': %s)",
			    cur, rel, strerror(errno));
	free(cur);
	return ret;
}

int buffer_plan_check(const struct buffer_plan *b, struct tfs_instance *where)
{
	return b->subbuf_kb ? check_subbuf(where) : 0;
}

int buffer_plan_create(struct buffer_plan *b)
{
	int made;

	if (!b->inst)
		return 0;
	made = tfs_instance_create(b->inst);
	if (made > 0)
		b->created = 1;
	return made < 0 ? -1 : 0;
}

/*
 * A buffer never used since boot reads "7 (expanded: 1408)" at the top and
 * "7" per CPU; any trace expands it for good.  Expanding it first means the
 * sizes saved below are the real ones, so 1408 comes back, not 7 KB.
 */
static void expand_buffer(struct tfs_instance *inst)
{
	char *top, *at;
	size_t len;

	if (tfs_read_file(inst, "buffer_size_kb", &top, &len) < 0)
		return;
	at = strstr(top, "(expanded: ");
	if (at) {
		at[11 + strspn(at + 11, "0123456789")] = '\0';
		tfs_write_file(inst, "buffer_size_kb", at + 11);
	}
	free(top);
}

int buffer_plan_apply_size(struct buffer_plan *b, struct tfs_saved *saved, int nr_cpus)
{
	char rel[64], val[32];

	/* First: a new sub-buffer size reallocates the buffer, at the size below. */
	if (b->subbuf_kb && tfs_set(saved, b->inst, "buffer_subbuf_size_kb", b->subbuf_kb) < 0)
		return -1;
	if (!b->size_kb)
		return 0;
	/* Only the top buffer is ever unexpanded: an instance is made at full size. */
	if (!b->inst)
		expand_buffer(NULL);
	/* Each CPU's own file, so different sizes come back as they were. */
	snprintf(val, sizeof(val), "%lu", b->size_kb);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/buffer_size_kb", cpu);
		if (tfs_set(saved, b->inst, rel, val) < 0)
			return -1;
	}
	return 0;
}

int buffer_plan_clear(const struct buffer_plan *b)
{
	return b->keep_contents ? 0 : tfs_write_file(b->inst, "trace", "");
}

int buffer_plan_enable(struct buffer_plan *b, struct tfs_saved *saved)
{
	return tfs_events_enable(b->selected, b->inst, saved);
}

int buffer_plan_finish(struct buffer_plan *b, int keep)
{
	int ret = 0;

	if (!keep && ftrace_setup_restore(&b->ftrace) < 0)
		ret = -1;
	if (b->created && !keep && tfs_instance_destroy(b->inst) < 0)
		ret = -1;
	b->created = 0;
	return ret;
}

void buffer_plan_free(struct buffer_plan *b)
{
	free(b->specs);
	ftrace_setup_free(&b->ftrace);
	tfs_events_free(b->selected);
	tfs_instance_free(b->inst);
	memset(b, 0, sizeof(*b));
}
