// SPDX-License-Identifier: GPL-2.0
/*
 * Output files that never destroy what was there: a command's output is
 * checked against its inputs by device and inode, a regular file is written
 * under a new name beside it and renamed over it when complete, so a
 * failure leaves the old file (or none) and removes only what we created.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-outfile.h"

int outfile_check_inputs(const char *path, const char *const *inputs)
{
	struct stat out, in;

	/* Only a regular file is lost by writing it: a device or FIFO keeps nothing. */
	if (!inputs || stat(path, &out) < 0 || !S_ISREG(out.st_mode))
		return 0;
	for (; *inputs; inputs++) {
		if (stat(*inputs, &in) < 0 || in.st_dev != out.st_dev || in.st_ino != out.st_ino)
			continue;
		if (!strcmp(*inputs, path))
			return error("'%s' is the input file: write to another file", path);
		return error("'%s' is the same file as the input '%s': write to another file",
			     path, *inputs);
	}
	return 0;
}

/* Clears O_NONBLOCK, which only kept open() from waiting on a FIFO. */
static int set_blocking(int fd)
{
	int flags = fcntl(fd, F_GETFL);

	return flags < 0 ? -1 : fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
}

/* A device, FIFO or socket (or a dangling symlink's target): written where it is. */
static int open_in_place(struct outfile *f, int flags)
{
	struct stat st;
	int err;

	f->fd = open(f->path, O_WRONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC | flags, 0644);
	err = errno;
	if (f->fd >= 0 && set_blocking(f->fd) == 0)
		return 0;
	if (f->fd >= 0) {
		err = errno;
		close(f->fd);
		f->fd = -1;
	}
	if (err == ENXIO && stat(f->path, &st) == 0 && S_ISFIFO(st.st_mode))
		return error("cannot write '%s': a FIFO with no reader", f->path);
	if (err == ENXIO && stat(f->path, &st) == 0 && S_ISSOCK(st.st_mode))
		return error("cannot write '%s': a socket, not a file", f->path);
	return error("cannot create '%s': %s", f->path, strerror(err));
}

/* A new file beside @f->target, named after it; O_EXCL so nothing is reused. */
static int create_beside(struct outfile *f)
{
	size_t len = strlen(f->target) + 40;
	int err = EEXIST;

	for (int try = 0; try < 100 && err == EEXIST; try++) {
		char *name = xmalloc(len);

		snprintf(name, len, "%s.tmp-%d-%d", f->target, (int)getpid(), try);
		f->fd = open(name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		if (f->fd >= 0) {
			f->tmp = name;
			return 0;
		}
		err = errno;
		free(name);
	}
	return error("cannot create '%s': %s", f->path, strerror(err));
}

static void outfile_free(struct outfile *f)
{
	free(f->path);
	free(f->target);
	free(f->tmp);
	f->path = f->target = f->tmp = NULL;
}

int outfile_open(struct outfile *f, const char *path, const char *const *inputs)
{
	struct stat st, lst;
	int exists;

	memset(f, 0, sizeof(*f));
	f->fd = -1;
	if (outfile_check_inputs(path, inputs) < 0)
		return -1;
	f->path = xstrdup(path);
	exists = stat(path, &st) == 0;
	if (exists && !S_ISREG(st.st_mode))
		return open_in_place(f, 0) < 0 ? (outfile_free(f), -1) : 0;
	/* Through a symlink the file it names is replaced, not the link. */
	if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
		f->target = realpath(path, NULL);
		if (!f->target)	/* dangling: its target is created where it points */
			return open_in_place(f, O_CREAT | O_TRUNC) < 0 ? (outfile_free(f), -1) : 0;
	} else {
		f->target = xstrdup(path);
	}
	if (create_beside(f) < 0) {
		outfile_free(f);
		return -1;
	}
	/* The new file keeps the old one's permissions. */
	if (exists)
		fchmod(f->fd, st.st_mode & 07777);
	return 0;
}

const char *outfile_written(const struct outfile *f)
{
	return f->tmp ? f->tmp : f->path;
}

int outfile_commit(struct outfile *f)
{
	int ret = 0;

	if (f->fd >= 0 && close(f->fd) < 0)
		ret = error("cannot write '%s': %s", f->path, strerror(errno));
	f->fd = -1;
	if (ret == 0 && f->tmp && rename(f->tmp, f->target) < 0)
		ret = error("cannot write '%s': %s", f->path, strerror(errno));
	if (ret < 0 && f->tmp)
		unlink(f->tmp);
	outfile_free(f);
	return ret;
}

void outfile_abort(struct outfile *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->tmp)
		unlink(f->tmp);
	outfile_free(f);
}

int open_regular(const char *path)
{
	struct stat st;
	int fd, err;

	/* O_NONBLOCK: a FIFO with no writer must not hang open(); it is refused below. */
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return error("cannot open '%s': %s", path, strerror(errno));
	if (fstat(fd, &st) < 0 || set_blocking(fd) < 0) {
		err = errno;
		close(fd);
		return error("cannot open '%s': %s", path, strerror(err));
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return error("'%s': not a regular file", path);
	}
	return fd;
}
