// SPDX-License-Identifier: GPL-2.0
/*
 * main(): the table of subcommands and the dispatch.  Each command defines
 * itself in its own file; this file only lists them, prints help, and makes
 * sure stdout really reached its destination before reporting success.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "trace-cmd.h"

extern const struct command cmd_record, cmd_report, cmd_stream, cmd_help;
extern const struct command cmd_stop, cmd_restart, cmd_reset;
extern const struct command cmd_clear, cmd_show, cmd_stat, cmd_list;
extern const struct command cmd_start, cmd_set, cmd_extract;
extern const struct command cmd_snapshot, cmd_restore, cmd_stack, cmd_profile;
extern const struct command cmd_listen, cmd_agent;
extern const struct command cmd_convert, cmd_attach;
extern const struct command cmd_dump, cmd_check_events, cmd_split, cmd_options, cmd_sqlhist,
	cmd_setup_guest, cmd_hist;

const struct command *const commands[] = {
	&cmd_record,
	&cmd_report,
	&cmd_profile,
	&cmd_stream,
	&cmd_start,
	&cmd_set,
	&cmd_stop,
	&cmd_restart,
	&cmd_reset,
	&cmd_extract,
	&cmd_snapshot,
	&cmd_restore,
	&cmd_stack,
	&cmd_clear,
	&cmd_show,
	&cmd_stat,
	&cmd_list,
	&cmd_listen,
	&cmd_agent,
	&cmd_convert,
	&cmd_split,
	&cmd_hist,
	&cmd_dump,
	&cmd_check_events,
	&cmd_options,
	&cmd_sqlhist,
	&cmd_setup_guest,
	&cmd_attach,
	&cmd_help,
	NULL,
};

const struct command *find_command(const char *name)
{
	for (int i = 0; commands[i]; i++)
		if (!strcmp(commands[i]->name, name))
			return commands[i];
	return NULL;
}

static const char main_usage[] =
	"usage: trace-cmd COMMAND [OPTIONS]\n"
	"       trace-cmd help [COMMAND]\n"
	"       trace-cmd --version\n";

static void list_commands(FILE *out)
{
	fputs(main_usage, out);
	fputs("\ncommands:\n", out);
	for (int i = 0; commands[i]; i++)
		fprintf(out, "  %-12s %s\n", commands[i]->name, commands[i]->summary);
	fputs("\n'trace-cmd help COMMAND' or 'trace-cmd COMMAND -h' shows a command's options.\n",
	      out);
}

static int run_help(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		list_commands(stdout);
		return EXIT_OK;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"))
		return show_usage(&cmd_help);
	if (argc > 2)
		return usage_error(&cmd_help, "too many arguments");
	cmd = find_command(argv[1]);
	if (!cmd)
		return usage_error(&cmd_help, "unknown command '%s'", argv[1]);
	return show_usage(cmd);
}

const struct command cmd_help = {
	.name = "help",
	.run = run_help,
	.usage = "usage: trace-cmd help [COMMAND]\n",
	.summary = "show the commands, or one command's usage",
};

/* Like git: a full disk or a closed pipe must not exit 0 with output lost. */
static int finish_stdout(int status)
{
	int failed, saved;

	/*
	 * errno is only meaningful if this flush or close fails: an error
	 * flag set by an earlier write leaves whatever errno came since.
	 */
	errno = 0;
	failed = fflush(stdout) != 0 || ferror(stdout);
	saved = errno;
	if (fclose(stdout) != 0 && !failed) {
		failed = 1;
		saved = errno;
	}
	if (!failed || saved == EPIPE)
		return status;
	if (saved)
		error("write error on standard output: %s", strerror(saved));
	else
		error("write error on standard output");
	return status ? status : EXIT_FAILED;
}

/* --version x: the top-level options take nothing after them. */
static int extra_argument(char **argv)
{
	fprintf(stderr, "trace-cmd: %s takes no argument: '%s' given\n", argv[1], argv[2]);
	return EXIT_USAGE;
}

int main(int argc, char **argv)
{
	const struct command *cmd;

	if (argc < 2) {
		list_commands(stderr);
		return EXIT_USAGE;
	}
	if (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v") ||
	    !strcmp(argv[1], "version")) {
		if (argc > 2)
			return extra_argument(argv);
		printf("trace-cmd version %s\n", TRACE_CMD_VERSION);
		return finish_stdout(EXIT_OK);
	}
	/* -h COMMAND is help COMMAND, as git's --help COMMAND. */
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
		current_command = cmd_help.name;
		return finish_stdout(run_help(argc - 1, argv + 1));
	}
	/* Used by the build to generate bash completion from this same table. */
	if (!strcmp(argv[1], "--list-commands")) {
		if (argc > 2)
			return extra_argument(argv);
		for (int i = 0; commands[i]; i++)
			puts(commands[i]->name);
		return finish_stdout(EXIT_OK);
	}
	cmd = find_command(argv[1]);
	if (!cmd) {
		fprintf(stderr, "trace-cmd: unknown command '%s'\n", argv[1]);
		list_commands(stderr);
		return EXIT_USAGE;
	}
	current_command = cmd->name;
	return finish_stdout(cmd->run(argc - 1, argv + 1));
}
