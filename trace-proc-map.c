// SPDX-License-Identifier: GPL-2.0
/*
 * record --proc-map: reads the traced processes' /proc/PID/maps into the
 * PROCMAPS option's text.  The traced command is seized with ptrace and
 * stops once, at its exit, when its maps still hold every library it loaded.
 */
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-proc-map.h"

struct proc_maps {
	char *text;
	size_t len;
};

struct proc_maps *proc_maps_new(void)
{
	return xcalloc(1, sizeof(struct proc_maps));
}

void proc_maps_free(struct proc_maps *pm)
{
	if (!pm)
		return;
	free(pm->text);
	free(pm);
}

static void append(struct proc_maps *pm, const char *s, size_t len)
{
	pm->text = xrealloc(pm->text, pm->len + len + 1);
	memcpy(pm->text + pm->len, s, len);
	pm->len += len;
	pm->text[pm->len] = '\0';
}

int proc_maps_seize(pid_t pid)
{
	if (ptrace(PTRACE_SEIZE, pid, NULL, (void *)(long)PTRACE_O_TRACEEXIT) < 0)
		return error("--proc-map: cannot trace process %d: %s", (int)pid, strerror(errno));
	return 0;
}

/* "START-END PERMS OFFSET DEV INODE PATH": the mapping of a file, else 0. */
static int parse_line(const char *line, unsigned long long *start, unsigned long long *end,
		      const char **path)
{
	int n = 0;

	if (sscanf(line, "%llx-%llx %*s %*s %*s %*s %n", start, end, &n) < 2 || !n)
		return 0;
	*path = line + n;
	return **path != '\0';
}

void proc_maps_read(struct proc_maps *pm, pid_t pid)
{
	char file[64], exe[PATH_MAX], line[PATH_MAX + 128], head[PATH_MAX + 64];
	struct proc_maps body = { 0 };
	unsigned long long start, end;
	const char *path;
	int count = 0;
	ssize_t n;
	FILE *f;

	snprintf(file, sizeof(file), "/proc/%d/exe", (int)pid);
	n = readlink(file, exe, sizeof(exe) - 1);
	exe[n > 0 ? n : 0] = '\0';
	snprintf(file, sizeof(file), "/proc/%d/maps", (int)pid);
	f = fopen(file, "re");
	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (!parse_line(line, &start, &end, &path))
			continue;
		n = snprintf(head, sizeof(head), "%llx %llx %s\n", start, end, path);
		append(&body, head, n);
		count++;
	}
	fclose(f);
	if (count) {
		n = snprintf(head, sizeof(head), "%x %x %s\n", (unsigned)pid, (unsigned)count, exe);
		append(pm, head, n);
		append(pm, body.text, body.len);
	}
	free(body.text);
}

int proc_maps_stopped(struct proc_maps *pm, pid_t pid, int status)
{
	int sig;

	if (!WIFSTOPPED(status))
		return 0;
	sig = WSTOPSIG(status);
	if (sig == SIGTRAP && (status >> 16) == PTRACE_EVENT_EXIT) {
		proc_maps_read(pm, pid);
		sig = 0;
	} else if (status >> 16) {
		sig = 0;	/* another event stop (group stop): just go on */
	}
	ptrace(PTRACE_CONT, pid, NULL, (void *)(long)sig);
	return 1;
}

const char *proc_maps_text(const struct proc_maps *pm, size_t *size)
{
	if (!pm || !pm->len)
		return NULL;
	*size = pm->len + 1;
	return pm->text;
}
