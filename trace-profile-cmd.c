// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd profile (trace-cmd-profile(1)): record --profile into a
 * temporary file while COMMAND runs (or until Ctrl-C), then report --profile
 * of it, as upstream 3.4's does in one step; the file is removed after.
 */
#include <fcntl.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-profile.h"
#include "trace-record.h"

extern const struct command cmd_profile, cmd_report;

static const char profile_usage[] =
	"usage: trace-cmd profile [-e EVENT]... [-p TRACER] [-S] [-d] [-O OPTION]... [-P PID]...\n"
	"                         [-G] [-H HOOK]... [--by-comm] [-o FILE] [COMMAND [ARG]...]\n"
	"  -e EVENT       record EVENT too (repeatable)\n"
	"  -p TRACER      run TRACER instead of function_graph at depth 1\n"
	"  -S             only the -e events, not the profile's own (record -S)\n"
	"  -d             keep the function tracer off (record -d)\n"
	"  -O OPTION      set a trace option (record -O; repeatable)\n"
	"  -P PID         trace only PID (record -P; repeatable)\n"
	"  -G             interrupts counted per CPU, not per task\n"
	"  -H HOOK        time between two events, [sys:]start,match[,pid]/[sys:]end,match[,flags]\n"
	"                 (repeatable; both events are recorded)\n"
	"  --by-comm      the tasks of one name summed\n"
	"  -o FILE        write the profile to FILE instead of standard output\n"
	"  -h             show this help\n"
	"Profiles until COMMAND exits, or with no COMMAND until SIGINT (Ctrl-C) or SIGTERM.\n";

enum { OPT_BY_COMM = 256 };

static const struct option profile_options[] = {
	{ "by-comm", no_argument, NULL, OPT_BY_COMM },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* An argv under construction: record's and report's. */
struct args {
	char	**v;
	int	n;
};

static void arg_add(struct args *a, const char *s)
{
	a->v = xrealloc(a->v, sizeof(*a->v) * (a->n + 2));
	a->v[a->n++] = (char *)s;
	a->v[a->n] = NULL;
}

/*
 * -H's two events are recorded too ("[sys:]event,..." each side of the '/'):
 * their names are copied into @names, freed by the caller.  -1 after printing.
 */
static int record_hook_events(struct args *rec, const char *hook, struct args *names)
{
	const char *end = strchr(hook, '/');

	if (profile_check_hook(hook) < 0)
		return -1;
	for (const char *side = hook; side; side = side == hook ? end + 1 : NULL) {
		char *name = xstrdup(side);

		name[strcspn(name, ",")] = '\0';
		arg_add(names, name);
		arg_add(rec, "-e");
		arg_add(rec, name);
	}
	return 0;
}

/* Sorts profile's options into record's and report's: PARSE_RUN or the exit status. */
static int parse(int argc, char **argv, struct args *rec, struct args *rep, const char **out,
		 struct args *names)
{
	int c;

	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:he:p:SdO:P:GH:o:", profile_options, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_profile);
		case 'e':
			arg_add(rec, "-e");
			arg_add(rec, optarg);
			break;
		case 'p':
		case 'O':
		case 'P':
			arg_add(rec, c == 'p' ? "-p" : c == 'O' ? "-O" : "-P");
			arg_add(rec, optarg);
			break;
		case 'S':
		case 'd':
			arg_add(rec, c == 'S' ? "-S" : "-d");
			break;
		case 'G':
			arg_add(rep, "-G");
			break;
		case 'H':
			arg_add(rep, "-H");
			arg_add(rep, optarg);
			if (record_hook_events(rec, optarg, names) < 0)
				return usage_follows(&cmd_profile);
			break;
		case OPT_BY_COMM:
			arg_add(rep, "--by-comm");
			break;
		case 'o':
			if (check_named("-o", optarg, "a file name") < 0)
				return usage_follows(&cmd_profile);
			*out = optarg;
			break;
		default:
			return option_error(&cmd_profile, argv, c);
		}
	}
	while (optind < argc)
		arg_add(rec, argv[optind++]);
	return PARSE_RUN;
}

/* Runs report --profile of @file with @rep's options, its output to @out if given. */
static int report_to(struct args *rep, const char *file, const char *out)
{
	int saved = -1, fd, ret;

	arg_add(rep, "-i");
	arg_add(rep, file);
	if (out) {
		fd = open(out, O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0) {
			error("cannot open -o file '%s': %m", out);
			return EXIT_FAILED;
		}
		fflush(stdout);
		saved = dup(STDOUT_FILENO);
		dup2(fd, STDOUT_FILENO);
		close(fd);
	}
	ret = cmd_report.run(rep->n, rep->v);
	if (saved >= 0) {
		if (fflush(stdout) != 0 && !ret) {
			error("cannot write -o file '%s': %m", out);
			ret = EXIT_FAILED;
		}
		dup2(saved, STDOUT_FILENO);
		close(saved);
	}
	return ret;
}

static int run_profile(int argc, char **argv)
{
	struct args rec = { 0 }, rep = { 0 }, names = { 0 };
	char tmp[] = "/tmp/trace-cmd-profile-XXXXXX";
	const char *out = NULL;
	int fd, ret;

	arg_add(&rec, "profile");
	arg_add(&rep, "report");
	arg_add(&rep, "--profile");
	ret = parse(argc, argv, &rec, &rep, &out, &names);
	if (ret != PARSE_RUN)
		goto free;
	fd = mkstemp(tmp);
	if (fd < 0) {
		error("cannot make a temporary file '%s': %m", tmp);
		ret = EXIT_FAILED;
		goto free;
	}
	close(fd);
	{
		/* record's own options: the profile's events, quietly, into the file */
		char *head[] = { "profile", "--profile", "-q", "-o", tmp };
		struct args all = { 0 };

		for (size_t i = 0; i < ARRAY_SIZE(head); i++)
			arg_add(&all, head[i]);
		for (int i = 1; i < rec.n; i++)
			arg_add(&all, rec.v[i]);
		ret = record_main(&cmd_profile, all.n, all.v, NULL);
		free(all.v);
	}
	if (ret == EXIT_OK)
		ret = report_to(&rep, tmp, out);
	unlink(tmp);
free:
	for (int i = 0; i < names.n; i++)
		free(names.v[i]);
	free(names.v);
	free(rec.v);
	free(rep.v);
	return ret;
}

const struct command cmd_profile = {
	.name = "profile",
	.run = run_profile,
	.usage = profile_usage,
	.summary = "record --profile and report --profile in one step",
};
