/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The private header shared by every command: the command table entry,
 * messages in one voice, number parsing and safe I/O.  Modules with an API
 * of their own (input, output, tracefs, cursor, ...) have their own header.
 */
#ifndef TRACE_CMD_H
#define TRACE_CMD_H

#include <regex.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#define TRACE_CMD_VERSION "3.1.6"

/* Exit statuses: a documented contract, see trace-cmd(1) EXIT STATUS. */
enum {
	EXIT_OK		= 0,
	EXIT_FAILED	= 1,
	EXIT_USAGE	= 2,
};

/*
 * What a command's option parser returns: PARSE_RUN to go on with the
 * command, or the exit status to end with at once: EXIT_OK once -h printed
 * the usage (show_usage), EXIT_USAGE once a usage error was printed with the
 * usage after it (usage_error, usage_follows).  PARSE_RUN is no exit status,
 * so "go on" and "-h was given" never meet:
 *	if ((ret = parse(...)) != PARSE_RUN)
 *		return ret;
 */
enum { PARSE_RUN = -1 };

/*
 * One subcommand.  Each command file ends with its definition; trace-cmd.c
 * holds the list.  @run returns an exit status and never calls exit().
 */
struct command {
	const char *name;
	int (*run)(int argc, char **argv);
	const char *usage;	/* the SYNOPSIS and options, as in the man page */
	const char *summary;	/* one line for `trace-cmd help` */
};

extern const struct command *const commands[];
const struct command *find_command(const char *name);

/* The command being run, for the "trace-cmd CMD: " message prefix. */
extern const char *current_command;

/* Prints "trace-cmd CMD: message" to stderr and returns -1. */
int error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* Prints "trace-cmd CMD: warning: message" to stderr. */
void warning(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* After an error already printed: the command's usage, and EXIT_USAGE. */
int usage_follows(const struct command *cmd);

/* Prints the error, then the command's usage, and returns EXIT_USAGE. */
int usage_error(const struct command *cmd, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Prints the command's usage to stdout and returns EXIT_OK (for -h). */
int show_usage(const struct command *cmd);

/*
 * Number parsing for options: on failure prints
 * "invalid -b value 'abc': not a number" (or "out of range") and returns -1.
 */
int parse_ulong(const char *opt, const char *arg, unsigned long min,
		unsigned long max, unsigned long *out);
int parse_long(const char *opt, const char *arg, long min, long max, long *out);

/*
 * An option that names something may not be empty (nor only blanks): prints
 * "-e needs an event name" (@what: "an event name") and returns -1.
 */
int check_named(const char *opt, const char *arg, const char *what);

/*
 * Upstream's --verbose levels (0 to 6, or none, crit, err, warn, info, debug,
 * all), for commands that accept the option but log nothing: 0 or -1.
 */
int check_log_level(const char *arg);

/* regcomp() whose failure prints "invalid -r regex '(': <why>" and returns -1. */
int compile_regex(const char *opt, const char *re, int flags, regex_t *rx);

/* Full writes and reads that retry on EINTR and short transfers. */
ssize_t write_all(int fd, const void *buf, size_t len);
ssize_t read_all(int fd, void *buf, size_t len);	/* < len only at EOF */
ssize_t pread_all(int fd, void *buf, size_t len, uint64_t off);	/* < len only at EOF */
/* All that is left to read of @fd, NUL-terminated (*len without the NUL); NULL (errno). */
char *read_text(int fd, size_t *len);
/* The size of the file open at @fd; 0 if it is -1 or cannot be stat'ed. */
uint64_t fd_size(int fd);
/* The whole file at @path, as read_text(); NULL (errno) if it cannot be opened or read. */
char *read_path_text(const char *path, size_t *len);

/*
 * Text from outside (a peer, a file) made safe to quote in one log line:
 * at most @max bytes of @s (up to its NUL), with newlines, other control
 * bytes, backslashes and bytes past ASCII escaped as \n, \t, \\ and \xNN, so
 * none can start a forged line.  Returns @buf.
 */
const char *printable(char *buf, size_t size, const char *s, size_t max);
#define PRINTABLE_SIZE(max)	((max) * 4 + 1)

/* Allocation that reports failure by message instead of returning NULL silently. */
void *xmalloc(size_t size);
void *xcalloc(size_t nmemb, size_t size);
void *xrealloc(void *ptr, size_t size);
char *xstrdup(const char *s);

/* Whether a CPU is online now (per_cpu lists the possible ones). */
int cpu_is_online(int cpu);

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

#endif
