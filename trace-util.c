// SPDX-License-Identifier: GPL-2.0
/*
 * Messages in one voice ("trace-cmd CMD: what: why"), option value parsing
 * (numbers, names, regexes), and I/O helpers that survive EINTR and short transfers.
 */
#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "trace-cmd.h"

const char *current_command;

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

void warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vmessage("warning: ", fmt, ap);
	va_end(ap);
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

int check_log_level(const char *arg)
{
	static const char *const names[] = { "none", "crit", "err", "warn", "info", "debug", "all" };

	if (arg[0] >= '0' && arg[0] <= '6' && !arg[1])
		return 0;
	for (size_t i = 0; i < ARRAY_SIZE(names); i++)
		if (!strcmp(arg, names[i]))
			return 0;
	return -1;
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
