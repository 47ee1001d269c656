// SPDX-License-Identifier: GPL-2.0
/*
 * stdout-wait block|sleep: runs work under run_for_stdout().  "block" never
 * ends (it reads a pipe nobody writes), so only a reader of stdout going
 * away ends the process; "sleep" takes a second, then says "work done" on
 * stderr and "after" on stdout.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "../../trace-stdout.h"

static void *block(void *arg)
{
	int fds[2];
	char c;

	(void)arg;
	if (pipe(fds) == 0)
		(void)!read(fds[0], &c, 1);
	return NULL;
}

static void *slow(void *arg)
{
	(void)arg;
	sleep(1);
	fputs("work done\n", stderr);
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 2 || (strcmp(argv[1], "block") && strcmp(argv[1], "sleep"))) {
		fputs("usage: stdout-wait block|sleep\n", stderr);
		return 2;
	}
	run_for_stdout(strcmp(argv[1], "block") ? slow : block, NULL);
	puts("after");
	return 0;
}
