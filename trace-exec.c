// SPDX-License-Identifier: GPL-2.0
/*
 * The traced command of start and set: found on PATH first, run after the
 * child has done what must be done right before exec; an exec failure
 * comes back through a close-on-exec pipe.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-exec.h"

char *find_command_path(const char *name)
{
	const char *path = getenv("PATH");
	char *dirs, *dir, *save = NULL, *full = NULL;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0 ? xstrdup(name) : NULL;
	dirs = xstrdup(path && *path ? path : "/usr/local/bin:/usr/bin:/bin");
	for (dir = strtok_r(dirs, ":", &save); dir; dir = strtok_r(NULL, ":", &save)) {
		struct stat st;

		full = xmalloc(strlen(dir) + strlen(name) + 2);
		sprintf(full, "%s/%s", *dir ? dir : ".", name);
		if (stat(full, &st) == 0 && S_ISREG(st.st_mode) && access(full, X_OK) == 0)
			break;
		free(full);
		full = NULL;
	}
	free(dirs);
	return full;
}

pid_t exec_command(const char *path, char **argv, int (*before)(void *arg), void *arg)
{
	int errpipe[2], err = 0, status;
	pid_t pid;

	if (pipe2(errpipe, O_CLOEXEC) < 0)
		return error("cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		err = errno;
		close(errpipe[0]);
		close(errpipe[1]);
		return error("cannot fork: %s", strerror(err));
	}
	if (pid == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		close(errpipe[0]);
		/* @before printed its own reason: 0 tells the parent so. */
		if (before(arg) == 0) {
			execv(path, argv);
			err = errno;
		}
		write_all(errpipe[1], &err, sizeof(err));
		_exit(127);
	}
	close(errpipe[1]);
	if (read_all(errpipe[0], &err, sizeof(err)) == sizeof(err)) {
		close(errpipe[0]);
		waitpid(pid, &status, 0);
		return err ? error("cannot run '%s': %s", argv[0], strerror(err)) : -1;
	}
	close(errpipe[0]);
	return pid;
}
