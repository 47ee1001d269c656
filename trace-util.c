// SPDX-License-Identifier: GPL-2.0
/*
 * Messages in one voice ("trace-cmd CMD: what: why"), option value parsing
 * (numbers, names, regexes), and I/O helpers that survive EINTR and short transfers.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <traceevent/event-parse.h>

#include "trace-cmd.h"

const char *current_command;
static int level = LOG_WARN;

static void vmessage(const char *tag, const char *fmt, va_list ap)
{
	/* One fprintf per line so concurrent writers do not interleave. */
	char line[4096];
	int n = 0;

	if (current_command)
		n = snprintf(line, sizeof(line), "trace-cmd %s: %s", current_command, tag);
	else
		n = snprintf(line, sizeof(line), "trace-cmd: %s", tag);
	if (n < 0 || (size_t)n >= sizeof(line))
		n = 0;
	vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	fprintf(stderr, "%s\n", line);
}

int error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	return -1;
}

/* The body of a message function that says something from level @min on. */
#define LEVELED_MESSAGE(min, tag)		\
	do {					\
		va_list ap;			\
						\
		if (level < (min))		\
			return;			\
		va_start(ap, fmt);		\
		vmessage(tag, fmt, ap);		\
		va_end(ap);			\
	} while (0)

void warning(const char *fmt, ...)
{
	LEVELED_MESSAGE(LOG_WARN, "warning: ");
}

void log_info(const char *fmt, ...)
{
	LEVELED_MESSAGE(LOG_INFO, "");
}

void log_debug(const char *fmt, ...)
{
	LEVELED_MESSAGE(LOG_DEBUG, "debug: ");
}

int log_level(void)
{
	return level;
}

int set_log_level(const char *opt, const char *arg)
{
	static const char *const names[] = {
		[LOG_NONE] = "none", [LOG_CRIT] = "crit", [LOG_ERR] = "err", [LOG_WARN] = "warn",
		[LOG_INFO] = "info", [LOG_DEBUG] = "debug", [LOG_ALL] = "all",
	};
	unsigned long n = LOG_INFO;
	size_t i;

	for (i = 0; arg && i < ARRAY_SIZE(names); i++)
		if (!strncmp(arg, names[i], strlen(names[i])))
			break;
	if (arg && i < ARRAY_SIZE(names))
		n = i;
	else if (arg && (*arg < '0' || *arg > '9'))
		return error("invalid %s value '%s': use none, crit, err, warn, info, debug, all or 0 to 6",
			     opt, arg);
	else if (arg && parse_ulong(opt, arg, 0, ULONG_MAX, &n) < 0)
		return -1;
	level = n > LOG_ALL ? LOG_ALL : n;
	/* The event parser's messages follow the same level (enum tep_loglevel). */
	tep_set_loglevel(level);
	return 0;
}

int usage_follows(const struct command *cmd)
{
	fputs(cmd->usage, stderr);
	return EXIT_USAGE;
}

int usage_error(const struct command *cmd, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("", fmt, ap);
	va_end(ap);
	fputs(cmd->usage, stderr);
	return EXIT_USAGE;
}

/*
 * The argument that held an option getopt refused: for a bundle such as
 * "-Xfoo" getopt has not moved past it yet, so it is argv[optind], not
 * argv[optind - 1] (which may be the command's own name).
 */
static const char *refused_arg(char **argv, int c)
{
	const char *prev = argv[optind - 1];

	if (optind > 0 && prev[0] == '-' && (prev[1] == '-' || strchr(prev + 1, c)))
		return prev;
	if (argv[optind] && argv[optind][0] == '-')
		return argv[optind];
	return prev;
}

int option_error(const struct command *cmd, char **argv, int c)
{
	const char *arg;
	int len;

	if (optopt) {
		arg = refused_arg(argv, optopt);
		if (strncmp(arg, "--", 2) != 0) {
			const char *fmt = c == ':' ? "option '-%c'%s%s%s needs a value" :
						     "unknown option '-%c'%s%s%s";
			bool alone = arg[0] == '-' && arg[1] == optopt && !arg[2];

			return usage_error(cmd, fmt, optopt, alone ? "" : " in '",
					   alone ? "" : arg, alone ? "" : "'");
		}
	} else {
		arg = argv[optind - 1];
	}
	len = strcspn(arg, "=");
	if (c == ':')
		return usage_error(cmd, "option '%.*s' needs a value", len, arg);
	return usage_error(cmd, "unknown option '%.*s'", len, arg);
}

int show_usage(const struct command *cmd)
{
	fputs(cmd->usage, stdout);
	return EXIT_OK;
}

int parse_ulong(const char *opt, const char *arg, unsigned long min,
		unsigned long max, unsigned long *out)
{
	unsigned long val;
	char *end;

	errno = 0;
	if (!arg || !*arg || *arg == '-')
		goto nan;
	val = strtoul(arg, &end, 0);
	if (*end)
		goto nan;
	if (errno == ERANGE || val < min || val > max) {
		error("invalid %s value '%s': out of range (%lu to %lu)", opt, arg, min, max);
		return -1;
	}
	*out = val;
	return 0;
nan:
	error("invalid %s value '%s': not a number", opt, arg ? arg : "");
	return -1;
}

int parse_long(const char *opt, const char *arg, long min, long max, long *out)
{
	long val;
	char *end;

	errno = 0;
	if (!arg || !*arg)
		goto nan;
	val = strtol(arg, &end, 0);
	if (*end)
		goto nan;
	if (errno == ERANGE || val < min || val > max) {
		error("invalid %s value '%s': out of range (%ld to %ld)", opt, arg, min, max);
		return -1;
	}
	*out = val;
	return 0;
nan:
	error("invalid %s value '%s': not a number", opt, arg ? arg : "");
	return -1;
}

int check_named(const char *opt, const char *arg, const char *what)
{
	if (arg && arg[strspn(arg, " \t\n")])
		return 0;
	return error("%s needs %s", opt, what);
}

int compile_regex(const char *opt, const char *re, int flags, regex_t *rx)
{
	char msg[256];
	int err = regcomp(rx, re, flags);

	if (!err)
		return 0;
	regerror(err, rx, msg, sizeof(msg));
	return error("invalid %s regex '%s': %s", opt, re, msg);
}

const char *printable(char *buf, size_t size, const char *s, size_t max)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	for (size_t i = 0; i < max && s[i] && n + 5 <= size; i++) {
		unsigned char c = s[i];

		if (c == '\\' || c == '\n' || c == '\t') {
			buf[n++] = '\\';
			buf[n++] = c == '\n' ? 'n' : c == '\t' ? 't' : '\\';
		} else if (c < 0x20 || c >= 0x7f) {
			buf[n++] = '\\';
			buf[n++] = 'x';
			buf[n++] = hex[c >> 4];
			buf[n++] = hex[c & 15];
		} else {
			buf[n++] = c;
		}
	}
	if (size)
		buf[n < size ? n : size - 1] = 0;
	return buf;
}

ssize_t write_all(int fd, const void *buf, size_t len)
{
	const char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, p + done, len - done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0) {
			errno = ENOSPC;
			return -1;
		}
		done += n;
	}
	return done;
}

/* Reads @len bytes, at @off with pread, or where @fd stands when @off is -1. */
static ssize_t read_full(int fd, void *buf, size_t len, int64_t off)
{
	char *p = buf;
	size_t done = 0;

	while (done < len) {
		ssize_t n = off < 0 ? read(fd, p + done, len - done) :
				      pread(fd, p + done, len - done, off + done);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		if (n == 0)
			break;
		done += n;
	}
	return done;
}

ssize_t read_all(int fd, void *buf, size_t len)
{
	return read_full(fd, buf, len, -1);
}

ssize_t pread_all(int fd, void *buf, size_t len, uint64_t off)
{
	return read_full(fd, buf, len, (int64_t)off);
}

char *read_text(int fd, size_t *lenp)
{
	size_t len = 0, cap = 8192;
	char *buf = xmalloc(cap);

	for (;;) {
		ssize_t n;

		if (cap - len < 2)
			buf = xrealloc(buf, cap *= 2);
		n = read(fd, buf + len, cap - len - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return NULL;
		}
		if (n == 0)
			break;
		len += n;
	}
	buf[len] = '\0';
	if (lenp)
		*lenp = len;
	return buf;
}

uint64_t fd_size(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return 0;
	return st.st_size;
}

char *read_path_text(const char *path, size_t *lenp)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	int e;

	if (fd < 0)
		return NULL;
	buf = read_text(fd, lenp);
	e = errno;
	close(fd);
	errno = e;
	return buf;
}

static void *check_alloc(void *p)
{
	if (!p) {
		/* Nothing sensible is left to do; say so rather than crash later. */
		fputs("trace-cmd: out of memory\n", stderr);
		abort();
	}
	return p;
}

void *xmalloc(size_t size)
{
	return check_alloc(malloc(size ? size : 1));
}

void *xcalloc(size_t nmemb, size_t size)
{
	return check_alloc(calloc(nmemb ? nmemb : 1, size ? size : 1));
}

void *xrealloc(void *ptr, size_t size)
{
	return check_alloc(realloc(ptr, size ? size : 1));
}

char *xstrdup(const char *s)
{
	return check_alloc(strdup(s));
}

/*
 * Whether @cpu is in /sys/devices/system/cpu/online ("0-3,5,7-8").  per_cpu
 * lists every possible CPU; an offline one has nothing to record.  When the
 * file cannot be read, every CPU counts as online.
 */
int cpu_is_online(int cpu)
{
	char buf[4096], *p = buf;
	FILE *f = fopen("/sys/devices/system/cpu/online", "r");
	size_t n;

	if (!f)
		return 1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = 0;
	while (*p && *p != '\n') {
		char *end;
		long lo = strtol(p, &end, 10), hi = lo;

		if (end == p)
			return 1;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		if (cpu >= lo && cpu <= hi)
			return 1;
		p = *end == ',' ? end + 1 : end;
		if (*end != ',')
			break;
	}
	return 0;
}
