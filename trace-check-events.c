// SPDX-License-Identifier: GPL-2.0
/*
 * check-events: parses every event format of the tracing directory (and the
 * header page) with libtraceevent, plugins loaded unless -N, as upstream's
 * check-events does; silent when all parse, else names each failure.
 */
#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-tracefs.h"

extern const struct command cmd_check_events;

static const char check_events_usage[] =
	"usage: trace-cmd check-events [-N] [--verbose[=LEVEL]]\n"
	"  -N                 do not load the libtraceevent plugins\n"
	"  --verbose[=LEVEL]  the log level (none crit err warn info debug all, or 0-6;\n"
	"                     alone: info): from info, libtraceevent says what it parses\n"
	"  -h                 show this help\n"
	"Parses every event format of the tracing directory; prints the ones that\n"
	"fail to parse and exits 1 if any did.\n";

enum { OPT_VERBOSE = 0x100 };

static const struct option check_events_options[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ NULL, 0, NULL, 0 }
};

static int is_dir_entry(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

/* Parses the format of each event of @system; returns how many failed. */
static int check_system(struct tep_handle *tep, const char *system)
{
	struct dirent **list;
	char rel[512];
	char *dir;
	int n, bad = 0;

	snprintf(rel, sizeof(rel), "events/%s", system);
	dir = tfs_path(NULL, rel);
	n = scandir(dir, &list, is_dir_entry, alphasort);
	free(dir);
	if (n < 0)
		return 0;
	for (int i = 0; i < n; i++) {
		char *buf;
		size_t len;

		snprintf(rel, sizeof(rel), "events/%s/%s/format", system, list[i]->d_name);
		if (tfs_exists(NULL, rel) && tfs_read_file(NULL, rel, &buf, &len) == 0) {
			if (tep_parse_event(tep, buf, len, system) != TEP_ERRNO__SUCCESS) {
				error("cannot parse the format of '%s:%s'", system,
				      list[i]->d_name);
				bad++;
			}
			free(buf);
		}
		free(list[i]);
	}
	free(list);
	return bad;
}

static int check_all(int no_plugins)
{
	struct tep_handle *tep = tep_alloc();
	struct dirent **list;
	char *dir, *buf;
	size_t len;
	struct tep_plugin_list *plugins = NULL;
	int n, bad = 0;

	if (!tep)
		return error("out of memory");
	if (!no_plugins)
		plugins = tep_load_plugins(tep);
	if (tfs_exists(NULL, "events/header_page") &&
	    tfs_read_file(NULL, "events/header_page", &buf, &len) == 0) {
		if (tep_parse_header_page(tep, buf, len, sizeof(long)) < 0) {
			error("cannot parse '%s'", "events/header_page");
			bad++;
		}
		free(buf);
	}
	dir = tfs_path(NULL, "events");
	n = scandir(dir, &list, is_dir_entry, alphasort);
	if (n < 0) {
		error("cannot read '%s': %s", dir, strerror(errno));
		free(dir);
		tep_unload_plugins(plugins, tep);
		tep_free(tep);
		return -1;
	}
	free(dir);
	for (int i = 0; i < n; i++) {
		bad += check_system(tep, list[i]->d_name);
		free(list[i]);
	}
	free(list);
	if (!no_plugins)
		tep_unload_plugins(NULL, tep);
	tep_unload_plugins(plugins, tep);
	tep_free(tep);
	return bad ? -1 : 0;
}

static int run_check_events(int argc, char **argv)
{
	int c, no_plugins = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hN", check_events_options, NULL)) != -1) {
		if (c == 'h')
			return show_usage(&cmd_check_events);
		if (c == 'N')
			no_plugins = 1;
		else if (c == OPT_VERBOSE) {
			if (set_log_level("--verbose", optarg) < 0)
				return usage_follows(&cmd_check_events);
		} else
			return option_error(&cmd_check_events, argv, c);
	}
	if (optind < argc)
		return usage_error(&cmd_check_events, "unexpected argument '%s'", argv[optind]);
	if (!tfs_dir())
		return EXIT_FAILED;
	return check_all(no_plugins) < 0 ? EXIT_FAILED : EXIT_OK;
}

const struct command cmd_check_events = {
	.name = "check-events",
	.run = run_check_events,
	.usage = check_events_usage,
	.summary = "check that every event format of the system parses",
};
