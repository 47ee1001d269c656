// SPDX-License-Identifier: GPL-2.0
/*
 * restore: rebuild a trace.dat from the per-CPU files (FILE.cpuN) a record
 * that crashed left behind, with the metadata of this machine, of another
 * tracing directory, or of a partial file made earlier with -c.  The
 * trace is written as version 6, then converted to what --file-version and
 * --compression ask (v7 uncompressed by default, as upstream's restore).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-convert-dat.h"
#include "trace-input.h"
#include "trace-outfile.h"
#include "trace-output.h"
#include "trace-ringbuf.h"
#include "trace-tracefs.h"

extern const struct command cmd_restore;

static const char restore_usage[] =
	"usage: trace-cmd restore [-o FILE] [-i PARTIAL | -t DIR] [-k KALLSYMS]\n"
	"                         [--file-version 6|7] [--compression C] CPU-FILE...\n"
	"       trace-cmd restore -c [-o FILE] [-t DIR] [-k KALLSYMS]\n"
	"  -c           write only the metadata, a partial file (default trace-partial.dat)\n"
	"  -o FILE      the file to write (default trace.dat)\n"
	"  -i PARTIAL   take the metadata from PARTIAL (made by -c) instead of this machine\n"
	"  -t DIR       read event formats from the tracing directory DIR\n"
	"  -k KALLSYMS  read kernel symbols from KALLSYMS instead of /proc/kallsyms\n"
	"  --file-version N  the trace.dat version to write: 6 or 7 (default 7)\n"
	"  --compression C   version 7 compression: none (the default, as upstream's\n"
	"                    restore), zlib, zstd or any (the best built in)\n"
	"CPU-FILE: the per-CPU data files in CPU order, e.g. trace.dat.cpu0 trace.dat.cpu1\n";

enum { OPT_FILE_VERSION = 256, OPT_COMPRESSION };

static const struct option restore_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ NULL, 0, NULL, 0 }
};

#define PREFIX_SIZE 18	/* magic, "tracing", version, endian, long size, page size */

struct restore_opts {
	bool partial;
	const char *output, *input, *dir, *kallsyms;
	char **cpu_files;
	int nr_cpus;
	int version;			/* --file-version, default 7 */
	const char *compression;	/* --compression, default none */
	bool format_given;
};

static int parse(int argc, char **argv, struct restore_opts *o)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hco:i:t:k:", restore_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_restore);
		case 'c':
			o->partial = true;
			break;
		case 'o':
			o->output = optarg;
			break;
		case 'i':
			o->input = optarg;
			break;
		case 't':
			o->dir = optarg;
			break;
		case 'k':
			o->kallsyms = optarg;
			break;
		case OPT_FILE_VERSION:
		case OPT_COMPRESSION: {
			int ret = trace_dat_parse_format(&cmd_restore, c == OPT_FILE_VERSION ? 'V' : 'C',
							 optarg, &o->version, &o->compression);

			if (ret != PARSE_RUN)
				return ret;
			o->format_given = true;
			break;
		}
		default:
			return option_error(&cmd_restore, argv, c);
		}
	}
	o->cpu_files = argv + optind;
	o->nr_cpus = argc - optind;
	if (o->partial && o->nr_cpus)
		return usage_error(&cmd_restore, "-c takes no CPU files");
	if (o->partial && o->input)
		return usage_error(&cmd_restore, "-c and -i exclude each other");
	if (o->input && (o->dir || o->kallsyms))
		return usage_error(&cmd_restore, "-i takes the metadata from its file: no -t or -k");
	if (!o->partial && !o->nr_cpus)
		return usage_error(&cmd_restore, "no CPU files given");
	if (o->partial && o->format_given)
		return usage_error(&cmd_restore,
				   "-c writes a version 6 partial file: no --file-version or --compression");
	if (!o->compression)
		o->compression = "none";
	if (!o->output)
		o->output = o->partial ? "trace-partial.dat" : "trace.dat";
	if (!*o->output)
		return usage_error(&cmd_restore, "-o needs a file name");
	return trace_dat_check_format(&cmd_restore, o->version, o->compression);
}

static int write_local_metadata(struct trace_output *out, const struct restore_opts *o)
{
	if (o->dir)
		tfs_set_dir(o->dir);
	if (!tfs_dir())
		return -1;
	if (trace_output_write_prefix(out, ringbuf_page_size()) < 0 ||
	    trace_output_write_header_info(out, NULL) < 0 ||
	    trace_output_write_ftrace_formats(out, NULL) < 0 ||
	    trace_output_write_event_formats(out, NULL, NULL) < 0 ||
	    trace_output_write_kallsyms(out, o->kallsyms, NULL) < 0 ||
	    trace_output_write_printk(out, NULL) < 0 ||
	    trace_output_write_cmdlines(out) < 0)
		return -1;
	return 0;
}

/*
 * A version 7 partial file (upstream's restore -c writes them): its sections
 * read as any file's, their contents written out as a v6 partial holds them.
 */
static int copy_partial_v7(struct trace_output *out, const char *path)
{
	struct trace_input *in = trace_input_open(path, TRACE_INPUT_NO_TEP);
	int one = 1, ret;

	if (!in)
		return -1;
	if (trace_input_big_endian(in) != !*(char *)&one) {
		trace_input_close(in);
		return error("'%s': made on a machine of another byte order", path);
	}
	ret = trace_dat_copy_metadata(out, in);
	trace_input_close(in);
	return ret;
}

/*
 * A partial file is the metadata as -c wrote it: the prefix is rewritten
 * through the writer (which keeps the page size for the data part), the rest
 * is copied as it is.  Only this machine's byte order and word size fit.
 */
static int copy_partial(struct trace_output *out, const char *path)
{
	unsigned char prefix[PREFIX_SIZE];
	char buf[65536];
	uint32_t psize;
	ssize_t n;
	int fd = open_regular(path), ret = -1;

	if (fd < 0)
		return -1;
	if (read_all(fd, prefix, sizeof(prefix)) != sizeof(prefix) ||
	    memcmp(prefix, "\x17\x08\x44tracing", 10)) {
		error("'%s': not a trace.dat partial file (bad magic)", path);
		goto out;
	}
	if (!memcmp(prefix + 10, "7", 2)) {
		ret = copy_partial_v7(out, path);
		goto out;
	}
	if (memcmp(prefix + 10, "6", 2)) {
		error("'%s': version %.1s, restore reads version 6 and 7 partial files", path,
		      prefix + 10);
		goto out;
	}
	if (prefix[12] != (__BYTE_ORDER == __BIG_ENDIAN) || prefix[13] != sizeof(long)) {
		error("'%s': made on a machine of another byte order or word size", path);
		goto out;
	}
	memcpy(&psize, prefix + 14, 4);
	if (trace_output_write_prefix(out, psize) < 0)
		goto out;
	while ((n = read(fd, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			error("cannot read '%s': %s", path, strerror(errno));
			goto out;
		}
		if (trace_output_write_raw(out, buf, n) < 0)
			goto out;
	}
	ret = 0;
out:
	close(fd);
	return ret;
}

/* Writes version 6 to @fd (@name for messages): the partial file, the output, or a file to convert. */
static int write_v6(void *ctx, int fd, const char *name)
{
	const struct restore_opts *o = ctx;
	struct trace_output *out = trace_output_fdopen(fd, name, 6);
	int *fds = xcalloc(o->nr_cpus ? o->nr_cpus : 1, sizeof(int)), ret = -1, nr_open = 0;
	char *clock = NULL;

	if (!out) {
		close(fd);
		free(fds);
		return -1;
	}
	for (; nr_open < o->nr_cpus; nr_open++)
		if ((fds[nr_open] = open_regular(o->cpu_files[nr_open])) < 0)
			goto out;
	if (o->input ? copy_partial(out, o->input) < 0 : write_local_metadata(out, o) < 0)
		goto out;
	if (!o->partial) {
		/* The clock and host of the machine restoring: the files do not say theirs. */
		if (tfs_dir())
			clock = tfs_current_clock(NULL);
		if (trace_output_add_host_options(out) < 0 ||
		    trace_output_write_data(out, o->nr_cpus, fds, clock ? clock : "local") < 0)
			goto out;
	}
	ret = 0;
out:
	if (trace_output_close(out) < 0)
		ret = -1;
	while (nr_open--)
		close(fds[nr_open]);
	free(fds);
	free(clock);
	return ret;
}

/* What restore reads, which its output must not be: the CPU files, -i and -k. */
static const char **restore_inputs(const struct restore_opts *o)
{
	const char **inputs = xcalloc(o->nr_cpus + 3, sizeof(*inputs));
	int n = 0;

	for (int i = 0; i < o->nr_cpus; i++)
		inputs[n++] = o->cpu_files[i];
	if (o->input)
		inputs[n++] = o->input;
	if (o->kallsyms)
		inputs[n++] = o->kallsyms;
	return inputs;
}

/* The output as --file-version/--compression ask (-c: v6): written directly or converted. */
static int restore(const struct restore_opts *o)
{
	const char **inputs = restore_inputs(o);
	struct outfile f;
	int ret = outfile_open(&f, o->output, inputs);

	free(inputs);
	if (ret < 0)
		return -1;
	if (trace_dat_write_via_v6(&f, o->partial ? 6 : o->version,
				   o->partial ? "none" : o->compression, write_v6, (void *)o) < 0) {
		outfile_abort(&f);
		return -1;
	}
	return outfile_commit(&f);
}

static int run_restore(int argc, char **argv)
{
	struct restore_opts o = { .version = 7 };
	int ret;

	if ((ret = parse(argc, argv, &o)) != PARSE_RUN)
		return ret;
	return restore(&o) < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_restore = {
	.name = "restore",
	.run = run_restore,
	.usage = restore_usage,
	.summary = "rebuild a trace.dat from the per-CPU files of a crashed record",
};
