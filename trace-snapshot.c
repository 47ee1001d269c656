// SPDX-License-Identifier: GPL-2.0
/*
 * snapshot: take (-s), clear (-r) or free (-f) the kernel's snapshot buffer
 * of the top buffer or an instance, or print it.  The snapshot file's own
 * protocol: 1 swaps the live buffer in, 2 clears it, 0 frees it.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>


#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-tracefs.h"

extern const struct command cmd_snapshot;

static const char snapshot_usage[] =
	"usage: trace-cmd snapshot [-s | -r | -f] [-c CPU] [-B NAME]\n"
	"  -s       take a snapshot: swap the live buffer into the snapshot buffer\n"
	"  -r       clear the snapshot buffer, keeping it allocated\n"
	"  -f       free the snapshot buffer\n"
	"  -c CPU   act on (or print) only the snapshot of CPU\n"
	"  -B NAME  act on the snapshot of the instance NAME\n"
	"Without -s, -r or -f, prints the snapshot buffer.\n";

static const struct option snapshot_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

struct snap_opts {
	const char *value;	/* what to write; NULL: print */
	const char *instance;
	long cpu;
};

static int parse(int argc, char **argv, struct snap_opts *o)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hsrfc:B:", snapshot_longopts, NULL)) != -1) {
		const char *v = c == 's' ? "1" : c == 'r' ? "2" : c == 'f' ? "0" : NULL;

		switch (c) {
		case 'h':
			return show_usage(&cmd_snapshot);
		case 's':
		case 'r':
		case 'f':
			if (o->value && strcmp(o->value, v))
				return usage_error(&cmd_snapshot, "-s, -r and -f exclude each other");
			o->value = v;
			break;
		case 'c':
			if (parse_long("-c", optarg, 0, 4095, &o->cpu) < 0) {
				fputs(snapshot_usage, stderr);
				return EXIT_USAGE;
			}
			break;
		case 'B':
			o->instance = optarg;
			break;
		default:
			return option_error(&cmd_snapshot, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_snapshot, "unexpected argument '%s'", argv[optind]);
	return PARSE_RUN;
}

static int print_file(struct tfs_instance *inst, const char *rel)
{
	char *s = tfs_read_quiet(inst, rel);

	if (!s)
		return error("cannot read '%s': %s", rel, strerror(errno));
	fputs(s, stdout);
	free(s);
	return 0;
}

static int snapshot(struct snap_opts *o)
{
	struct buffers *b = buffers_new();
	struct tfs_instance *inst;
	char rel[64];
	int ret = -1;

	if (o->instance && buffers_select_name(b, o->instance) < 0)
		goto out;
	buffers_default_top(b);
	inst = buffers_instance(b, 0);
	if (!tfs_exists(inst, "snapshot")) {
		error("this kernel has no snapshot buffer (no 'snapshot' file)");
		goto out;
	}
	if (o->cpu >= 0)
		snprintf(rel, sizeof(rel), "per_cpu/cpu%ld/snapshot", o->cpu);
	else
		snprintf(rel, sizeof(rel), "snapshot");
	if (o->cpu >= 0 && !tfs_exists(inst, rel)) {
		error("no snapshot for CPU %ld ('%s' does not exist)", o->cpu, rel);
		goto out;
	}
	if (!o->value)
		ret = print_file(inst, rel);
	else if (tfs_write_quiet(inst, rel, o->value) < 0)
		error("cannot write '%s' to '%s': %s", o->value, rel, strerror(errno));
	else
		ret = 0;
out:
	buffers_free(b);
	return ret;
}

static int run_snapshot(int argc, char **argv)
{
	struct snap_opts o = { .cpu = -1 };
	int ret;

	if ((ret = parse(argc, argv, &o)) != PARSE_RUN)
		return ret;
	if (!tfs_dir())
		return EXIT_FAILED;
	return snapshot(&o) < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_snapshot = {
	.name = "snapshot",
	.run = run_snapshot,
	.usage = snapshot_usage,
	.summary = "take, clear, free or print the kernel's snapshot buffer",
};
