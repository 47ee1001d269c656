/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Files the commands write and read without destroying anything or hanging:
 * an output is never one of the command's inputs, a regular file is written
 * under a new name beside it and renamed over it only when complete, and a
 * device or FIFO is written in place and never removed.
 */
#ifndef TRACE_OUTFILE_H
#define TRACE_OUTFILE_H

/* An output being written; outfile_commit() or outfile_abort() ends it. */
struct outfile {
	char	*path;		/* the name given, for messages */
	char	*target;	/* what the new file is renamed to (a symlink's target) */
	char	*tmp;		/* the new file beside it; NULL: written in place */
	int	fd;		/* -1 once the writer took it and closed it */
};

/*
 * Refuses @path when it is one of @inputs (NULL-terminated), compared by
 * device and inode, so a symlink, a hard link or "dir/../x" is recognized.
 */
int outfile_check_inputs(const char *path, const char *const *inputs);

/*
 * Starts writing @path (none of @inputs): a new file beside a regular file
 * or a name not yet taken; the device or FIFO itself otherwise, opened
 * without blocking (a FIFO with no reader is an error, not a hang).
 */
int outfile_open(struct outfile *f, const char *path, const char *const *inputs);

/* The name the data goes to now: the new file, or the device written in place. */
const char *outfile_written(const struct outfile *f);

/* Closes the file (unless the writer did) and renames it over @path; -1 on failure. */
int outfile_commit(struct outfile *f);

/* Closes the file and removes it if it is the new one: what was there stays. */
void outfile_abort(struct outfile *f);

/*
 * Opens @path to read as a trace or data file: a regular file only, refused
 * at once otherwise (a FIFO with no writer does not hang open()).
 */
int open_regular(const char *path);

#endif
