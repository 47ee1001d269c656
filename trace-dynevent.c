// SPDX-License-Identifier: GPL-2.0
/*
 * Dynamic events: the lines of dynamic_events ("p:kprobes/kp vfs_read",
 * "r10:...", "e:eprobes/ep ...", "s:synthetic/name ...") typed and removed
 * one by one with "-:GROUP/NAME" appended, never by truncating the file,
 * which would remove them all, kept types included.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-cmd.h"
#include "trace-dynevent.h"
#include "trace-tracefs.h"

static const struct {
	const char *name;
	unsigned int mask;
} type_names[] = {
	{ "kprobe", DYNEVENT_KPROBE },		{ "kretprobe", DYNEVENT_KRETPROBE },
	{ "uprobe", DYNEVENT_UPROBE },		{ "uretprobe", DYNEVENT_URETPROBE },
	{ "eprobe", DYNEVENT_EPROBE },		{ "synth", DYNEVENT_SYNTH },
	{ "all", DYNEVENT_ALL },
};

unsigned int dynevent_type(const char *name)
{
	for (size_t i = 0; i < ARRAY_SIZE(type_names); i++)
		if (!strcmp(name, type_names[i].name))
			return type_names[i].mask;
	return 0;
}

/* "GROUP/NAME" of a line "X[N]:GROUP/NAME ..." into @id; 0, or -1 if it has none. */
static int line_id(const char *line, char *id, size_t size)
{
	const char *colon = strchr(line, ':');
	size_t n;

	if (!colon)
		return -1;
	n = strcspn(colon + 1, " \t\n");
	if (!n || n >= size)
		return -1;
	memcpy(id, colon + 1, n);
	id[n] = '\0';
	return 0;
}

/* Is GROUP/NAME @id a line of @text (uprobe_events: kprobes and uprobes share 'p' and 'r')? */
static bool listed(const char *text, const char *id)
{
	char other[512];

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL)
		if (!line_id(l, other, sizeof(other)) && !strcmp(other, id))
			return true;
	return false;
}

/* The type of a dynamic_events line, 0 if it is none we know. */
static unsigned int line_type(const char *line, const char *id, const char *uprobes)
{
	bool user = uprobes && listed(uprobes, id);

	switch (*line) {
	case 'p': return user ? DYNEVENT_UPROBE : DYNEVENT_KPROBE;
	case 'r': return user ? DYNEVENT_URETPROBE : DYNEVENT_KRETPROBE;
	case 'e': return DYNEVENT_EPROBE;
	case 's': return DYNEVENT_SYNTH;
	}
	return 0;
}

/* Removes the events of @text whose type is in @which; -1 if the kernel refused one. */
static int remove_of(const char *text, const char *uprobes, unsigned int which)
{
	char id[512], cmd[520];
	int ret = 0;

	for (const char *l = text; l && *l; l = strchr(l, '\n') ? strchr(l, '\n') + 1 : NULL) {
		if (line_id(l, id, sizeof(id)) < 0 || !(line_type(l, id, uprobes) & which))
			continue;
		snprintf(cmd, sizeof(cmd), "-:%s\n", id);
		if (tfs_append_quiet(NULL, "dynamic_events", cmd) < 0)
			ret = error("cannot remove dynamic event '%s': %s", id, strerror(errno));
	}
	return ret;
}

int dynevents_remove(unsigned int keep)
{
	char *text = tfs_read_quiet(NULL, "dynamic_events"), *uprobes;
	int ret;

	if (!text)
		return errno == ENOENT ? 0 : error("cannot read 'dynamic_events': %s", strerror(errno));
	uprobes = tfs_read_quiet(NULL, "uprobe_events");
	ret = remove_of(text, uprobes, DYNEVENT_EPROBE & ~keep);
	if (remove_of(text, uprobes, DYNEVENT_ALL & ~DYNEVENT_EPROBE & ~keep) < 0)
		ret = -1;
	free(uprobes);
	free(text);
	return ret;
}
