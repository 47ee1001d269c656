// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat writer, version 6 as trace-cmd.dat.v6(5) describes it:
 * strictly sequential, so it writes to a file, a pipe or a socket alike.
 * Metadata comes from the tracing directory; CPU data from the recorders'
 * files, each placed at a page-aligned offset.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-output.h"
#include "trace-output-v7.h"
#include "trace-prefetch.h"
#include "trace-tracefs.h"

#define TRACE_MAGIC		"\027\010\104tracing"
#define FLYRECORD_TAG		"flyrecord"	/* 10 bytes with the NUL */
#define OPTIONS_TAG		"options  "
#define KPTR_RESTRICT		"/proc/sys/kernel/kptr_restrict"

struct option_rec {
	uint16_t id;
	uint32_t size;
	char *data;
};

struct trace_output {
	int fd;
	char *name;
	int version;
	uint64_t pos;
	int failed;		/* a write failed, said why: nothing more is written */
	uint32_t page_size;
	int long_size;		/* the prefix's; 0: this machine's */
	struct option_rec *opts;
	size_t nr_opts;
	struct v7_writer *v7;	/* version 7: sections (trace-output-v7.c) */
	/* Version 6 instances: where each BUFFER option's offset was written. */
	char **buffer_names;
	uint64_t *buffer_offset_at;
	size_t nr_buffers;
};

static struct trace_output *output_new(int fd, const char *name, int version)
{
	struct trace_output *out;

	if (version < TRACE_OUTPUT_MIN_VERSION || version > TRACE_OUTPUT_MAX_VERSION) {
		error("file version %d is not supported (this writer writes versions 6 and %d)",
		      version, TRACE_OUTPUT_MAX_VERSION);
		return NULL;
	}
	out = xcalloc(1, sizeof(*out));
	out->fd = fd;
	out->name = xstrdup(name);
	out->version = version;
	out->page_size = getpagesize();
	if (version == 7)
		out->v7 = v7_new(TRACE_COMP_ZSTD);
	return out;
}

struct trace_output *trace_output_create(const char *path, int version)
{
	struct trace_output *out;
	int fd;

	if (version < TRACE_OUTPUT_MIN_VERSION || version > TRACE_OUTPUT_MAX_VERSION)
		return output_new(-1, path, version);
	fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0) {
		error("cannot create '%s': %s", path, strerror(errno));
		return NULL;
	}
	out = output_new(fd, path, version);
	if (!out)
		close(fd);
	return out;
}

struct trace_output *trace_output_fdopen(int fd, const char *name, int version)
{
	return output_new(fd, name, version);
}

uint64_t trace_output_offset(const struct trace_output *out)
{
	return out->pos;
}

int trace_output_write_raw(struct trace_output *out, const void *buf, size_t len)
{
	if (out->v7 && v7_capture(out->v7, buf, len))
		return 0;
	if (write_all(out->fd, buf, len) < 0) {
		out->failed = 1;
		return error("cannot write '%s': %s", out->name, strerror(errno));
	}
	out->pos += len;
	return 0;
}

/* Integers in host byte order: the file's endian byte says which. */
static int put_u16(struct trace_output *out, uint16_t v)
{
	return trace_output_write_raw(out, &v, sizeof(v));
}

static int put_u32(struct trace_output *out, uint32_t v)
{
	return trace_output_write_raw(out, &v, sizeof(v));
}

static int put_u64(struct trace_output *out, uint64_t v)
{
	return trace_output_write_raw(out, &v, sizeof(v));
}

static int put_str(struct trace_output *out, const char *s)
{
	return trace_output_write_raw(out, s, strlen(s) + 1);
}

void trace_output_set_long_size(struct trace_output *out, int long_size)
{
	out->long_size = long_size;
}

int trace_output_write_prefix(struct trace_output *out, uint32_t page_size)
{
	char version[8];
	unsigned char endian_long[2];
	int one = 1;

	if (out->v7 && v7_check_output(out) < 0)
		return -1;
	out->page_size = page_size;
	snprintf(version, sizeof(version), "%d", out->version);
	endian_long[0] = *(char *)&one ? 0 : 1;
	endian_long[1] = out->long_size ? out->long_size : (int)sizeof(long);
	if (trace_output_write_raw(out, TRACE_MAGIC, 10) < 0 ||
	    put_str(out, version) < 0 ||
	    trace_output_write_raw(out, endian_long, 2) < 0)
		return -1;
	if (put_u32(out, page_size) < 0)
		return -1;
	return out->v7 ? v7_write_prefix_tail(out, out->v7) : 0;
}

/* A tracing-directory file as u32/u64 size + text; a missing file is size 0. */
static int put_tfs_file(struct trace_output *out, const char *rel, int size64, int optional)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (!(optional && !tfs_exists(NULL, rel)) && tfs_read_file(NULL, rel, &buf, &len) < 0)
		return -1;
	ret = size64 ? put_u64(out, len) : put_u32(out, len);
	if (ret == 0 && len)
		ret = trace_output_write_raw(out, buf, len);
	free(buf);
	return ret;
}

int trace_output_write_header_info(struct trace_output *out)
{
	int have = tfs_exists(NULL, "events/header_page");

	if (out->v7 && v7_begin(out, out->v7, TRACE_SECT_HEADER_INFO) < 0)
		return -1;
	if (put_str(out, "header_page") < 0)
		return -1;
	if (!have ? put_u64(out, 0) : put_tfs_file(out, "events/header_page", 1, 0))
		return -1;
	if (put_str(out, "header_event") < 0)
		return -1;
	return !have ? put_u64(out, 0) : put_tfs_file(out, "events/header_event", 1, 1);
}

static int has_format(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

int trace_output_write_ftrace_formats(struct trace_output *out)
{
	struct dirent **list = NULL;
	char *dir = tfs_path(NULL, "events/ftrace");
	char rel[512];
	int n = scandir(dir, &list, has_format, alphasort);
	int count = 0, ret = 0;

	if (out->v7 && v7_begin(out, out->v7, TRACE_SECT_FTRACE_EVENTS) < 0)
		return -1;
	free(dir);
	if (n < 0)
		n = 0;	/* no ftrace system: an empty list, as upstream writes */
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "events/ftrace/%s/format", list[i]->d_name);
		count += tfs_exists(NULL, rel);
	}
	ret = put_u32(out, count);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "events/ftrace/%s/format", list[i]->d_name);
		if (ret == 0 && tfs_exists(NULL, rel))
			ret = put_tfs_file(out, rel, 1, 0);
		free(list[i]);
	}
	free(list);
	return ret;
}

/* Every system's events, for a writer given no event list. */
static struct tfs_events *all_events(void)
{
	struct tfs_events *ev = tfs_events_new();

	if (tfs_events_add(ev, NULL, "all") < 0) {
		tfs_events_free(ev);
		return NULL;
	}
	return ev;
}

static int write_system(struct trace_output *out, const struct tfs_events *ev,
			size_t first, size_t end)
{
	char rel[1024];

	if (put_str(out, tfs_events_system(ev, first)) < 0 || put_u32(out, end - first) < 0)
		return -1;
	for (size_t i = first; i < end; i++) {
		snprintf(rel, sizeof(rel), "events/%s/%s/format", tfs_events_system(ev, i),
			 tfs_events_name(ev, i));
		if (put_tfs_file(out, rel, 1, 0) < 0)
			return -1;
	}
	return 0;
}

int trace_output_write_event_formats(struct trace_output *out, const struct tfs_events *events)
{
	struct tfs_events *own = events ? NULL : all_events();
	const struct tfs_events *ev = events ? events : own;
	size_t n, nr_systems = 0, i, j;
	int ret = 0;

	if (out->v7 && v7_begin(out, out->v7, TRACE_SECT_EVENT_FORMATS) < 0)
		return -1;
	if (!ev)
		return -1;
	n = tfs_events_count(ev);
	/* The list is sorted by system; ftrace's formats went in their own section. */
	for (i = 0; i < n; i = j) {
		for (j = i; j < n && !strcmp(tfs_events_system(ev, i), tfs_events_system(ev, j)); j++)
			;
		nr_systems += strcmp(tfs_events_system(ev, i), "ftrace") != 0;
	}
	ret = put_u32(out, nr_systems);
	for (i = 0; ret == 0 && i < n; i = j) {
		for (j = i; j < n && !strcmp(tfs_events_system(ev, i), tfs_events_system(ev, j)); j++)
			;
		if (strcmp(tfs_events_system(ev, i), "ftrace"))
			ret = write_system(out, ev, i, j);
	}
	tfs_events_free(own);
	return ret;
}

static char *read_whole(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	char *buf;
	int e;

	if (fd < 0)
		return NULL;
	buf = read_text(fd, len);
	e = errno;
	close(fd);
	errno = e;
	return buf;
}

/* Addresses show as zeros unless kptr_restrict is 0: lift it while we read. */
char *trace_output_read_kallsyms(size_t *len)
{
	char old[16] = "";
	char *buf;
	int fd = open(KPTR_RESTRICT, O_RDWR | O_CLOEXEC);
	int changed = 0;

	if (fd >= 0) {
		ssize_t n = read(fd, old, sizeof(old) - 1);

		if (n > 0 && old[0] != '0') {
			old[n] = '\0';
			changed = pwrite(fd, "0", 1, 0) == 1;
			if (!changed)
				warning("cannot lift kptr_restrict: kallsyms may show no addresses");
		}
	}
	buf = read_whole("/proc/kallsyms", len);
	if (changed && pwrite(fd, old, strlen(old), 0) < 0)
		warning("cannot restore kptr_restrict to %s: %s", old, strerror(errno));
	if (fd >= 0)
		close(fd);
	return buf;
}

int trace_output_write_kallsyms(struct trace_output *out, const char *path)
{
	size_t len = 0;
	char *buf = NULL;
	int ret;

	if (path)
		buf = read_whole(path, &len);
	else if (!prefetch_take("/proc/kallsyms", &buf, &len))
		buf = trace_output_read_kallsyms(&len);

	if (out->v7 && v7_begin(out, out->v7, TRACE_SECT_KALLSYMS) < 0)
		return -1;
	/* Symbols only make reports nicer: without them the file is still good. */
	if (!buf) {
		warning("cannot read '%s': %s", path ? path : "/proc/kallsyms", strerror(errno));
		len = 0;
	}
	ret = put_u32(out, len);
	if (ret == 0 && len)
		ret = trace_output_write_raw(out, buf, len);
	free(buf);
	return ret;
}

int trace_output_write_printk(struct trace_output *out)
{
	if (out->v7 && v7_begin(out, out->v7, TRACE_SECT_PRINTK) < 0)
		return -1;
	return put_tfs_file(out, "printk_formats", 0, 1);
}

int trace_output_write_cmdlines(struct trace_output *out)
{
	if (out->v7 && v7_begin(out, out->v7, TRACE_SECT_CMDLINES) < 0)
		return -1;
	return put_tfs_file(out, "saved_cmdlines", 1, 1);
}

int trace_output_write_metadata(struct trace_output *out, uint32_t page_size,
				const struct tfs_events *events)
{
	if (trace_output_write_prefix(out, page_size) < 0 ||
	    trace_output_write_header_info(out) < 0 ||
	    trace_output_write_ftrace_formats(out) < 0 ||
	    trace_output_write_event_formats(out, events) < 0 ||
	    trace_output_write_kallsyms(out, NULL) < 0 ||
	    trace_output_write_printk(out) < 0)
		return -1;
	return trace_output_write_cmdlines(out);
}

int trace_output_add_option(struct trace_output *out, uint16_t id, const void *data,
			    uint32_t size)
{
	struct option_rec *o;

	out->opts = xrealloc(out->opts, (out->nr_opts + 1) * sizeof(*out->opts));
	o = &out->opts[out->nr_opts++];
	o->id = id;
	o->size = size;
	o->data = xmalloc(size ? size : 1);
	memcpy(o->data, data, size);
	return 0;
}

static int add_string_option(struct trace_output *out, uint16_t id, const char *s)
{
	return trace_output_add_option(out, id, s, strlen(s) + 1);
}

int trace_output_add_host_options(struct trace_output *out)
{
	struct utsname u;
	char buf[1024];
	char *clock = NULL;
	struct timespec ts;
	uint64_t id;

	/* The whole trace_clock line, as upstream saves it (size 0 if unreadable). */
	if (tfs_exists(NULL, "trace_clock") && tfs_read_file(NULL, "trace_clock", &clock, NULL) == 0)
		add_string_option(out, TRACE_OPT_TRACECLOCK, clock);
	else
		trace_output_add_option(out, TRACE_OPT_TRACECLOCK, "", 0);
	free(clock);
	if (uname(&u) == 0) {
		snprintf(buf, sizeof(buf), "%s %s %s %s", u.sysname, u.nodename, u.release,
			 u.machine);
		add_string_option(out, TRACE_OPT_UNAME, buf);
	}
	add_string_option(out, TRACE_OPT_VERSION, TRACE_CMD_VERSION " trace-cmd-clone");
	/* A trace id tells files of one session apart; any unlikely number will do. */
	clock_gettime(CLOCK_REALTIME, &ts);
	id = ((uint64_t)getpid() << 32) ^ ((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
	return trace_output_add_option(out, TRACE_OPT_TRACEID, &id, sizeof(id));
}

int trace_output_add_cpustats(struct trace_output *out, struct tfs_instance *buffer, int nr_cpus)
{
	char rel[64];

	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		char *stats, *buf;
		size_t len;

		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		if (tfs_read_file(buffer, rel, &stats, &len) < 0)
			return -1;
		buf = xmalloc(len + 32);
		snprintf(buf, len + 32, "CPU: %d\n%s", cpu, stats);
		add_string_option(out, TRACE_OPT_CPUSTAT, buf);
		free(buf);
		free(stats);
	}
	return 0;
}

int trace_output_add_buffer_cpustats(struct trace_output *out, struct tfs_instance *buffer,
				     int nr_cpus)
{
	const char *name = tfs_instance_name(buffer);
	char *head = xmalloc(strlen(name) + 16);
	int ret;

	/* Upstream's entry before an instance's CPUSTATs. */
	sprintf(head, "\nBuffer: %s\n\n", name);
	ret = add_string_option(out, TRACE_OPT_CPUSTAT, head);
	free(head);
	return ret < 0 ? -1 : trace_output_add_cpustats(out, buffer, nr_cpus);
}

int trace_output_add_buffer(struct trace_output *out, const char *name)
{
	size_t len = strlen(name) + 1;
	char *payload;

	if (out->v7)
		return 0;	/* v7 writes the BUFFER option with the buffer's section */
	/* Offset 0 for now: trace_output_write_buffer() puts the real one in. */
	payload = xcalloc(1, 8 + len);
	memcpy(payload + 8, name, len);
	trace_output_add_option(out, TRACE_OPT_BUFFER, payload, 8 + len);
	free(payload);
	return 0;
}

/* A v6 BUFFER option is being written at out->pos: remember where, by name. */
static void note_buffer_option(struct trace_output *out, const struct option_rec *o)
{
	if (o->id != TRACE_OPT_BUFFER || o->size < 9 || o->data[o->size - 1] || out->v7)
		return;
	out->buffer_names = xrealloc(out->buffer_names,
				     (out->nr_buffers + 1) * sizeof(*out->buffer_names));
	out->buffer_offset_at = xrealloc(out->buffer_offset_at,
					 (out->nr_buffers + 1) * sizeof(*out->buffer_offset_at));
	/* The payload ends with the name's NUL (trace_output_add_buffer). */
	out->buffer_names[out->nr_buffers] = xstrdup(o->data + 8);
	out->buffer_offset_at[out->nr_buffers++] = out->pos;
}

static int write_options(struct trace_output *out)
{
	if (!out->nr_opts)
		return 0;
	if (put_str(out, OPTIONS_TAG) < 0)
		return -1;
	for (size_t i = 0; i < out->nr_opts; i++) {
		struct option_rec *o = &out->opts[i];

		if (put_u16(out, o->id) < 0 || put_u32(out, o->size) < 0)
			return -1;
		note_buffer_option(out, o);
		if (trace_output_write_raw(out, o->data, o->size) < 0)
			return -1;
	}
	/* v6 ends the run with a bare id 0, no size after it. */
	return put_u16(out, TRACE_OPT_DONE);
}

static uint64_t fd_size(int fd)
{
	struct stat st;

	if (fd < 0 || fstat(fd, &st) < 0)
		return 0;
	return st.st_size;
}

static int pad_to(struct trace_output *out, uint64_t offset)
{
	static const char zeros[4096];

	while (out->pos < offset) {
		uint64_t n = offset - out->pos;

		if (trace_output_write_raw(out, zeros, n < sizeof(zeros) ? n : sizeof(zeros)) < 0)
			return -1;
	}
	return 0;
}

/* Copies @len bytes of @fd from offset 0, in the kernel where it can. */
static int copy_data(struct trace_output *out, int fd, uint64_t len)
{
	char buf[65536];
	loff_t in_off = 0;

	while (len) {
		ssize_t n = copy_file_range(fd, &in_off, out->fd, NULL, len, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		out->pos += n;
		len -= n;
	}
	/* Pipes, sockets and older kernels: plain reads and writes. */
	while (len) {
		ssize_t n = pread(fd, buf, len < sizeof(buf) ? len : sizeof(buf), in_off);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return error("cannot read CPU data for '%s': %s", out->name,
				     n < 0 ? strerror(errno) : "file shrank");
		if (trace_output_write_raw(out, buf, n) < 0)
			return -1;
		in_off += n;
		len -= n;
	}
	return 0;
}

static int write_flyrecord(struct trace_output *out, int nr_cpus, const int *cpu_fds,
			   const char *clock);

int trace_output_set_chunks(struct trace_output *out, int comp, const struct cpu_chunks *chunks,
			    int nr_cpus)
{
	return out->v7 ? v7_set_chunks(out->v7, comp, chunks, nr_cpus) : -1;
}

int trace_output_write_data(struct trace_output *out, int nr_cpus, const int *cpu_fds,
			    const char *clock)
{
	if (out->v7)
		return v7_write_data(out, out->v7, nr_cpus, cpu_fds, clock);
	if (put_u32(out, nr_cpus) < 0 || write_options(out) < 0)
		return -1;
	return write_flyrecord(out, nr_cpus, cpu_fds, clock);
}

/*
 * "flyrecord", the per-CPU offsets and sizes, the clock trailer, then each
 * CPU's data page-aligned: the top buffer's part, and each v6 instance's.
 */
static int write_flyrecord(struct trace_output *out, int nr_cpus, const int *cpu_fds,
			   const char *clock)
{
	uint64_t *sizes = xcalloc(nr_cpus, sizeof(*sizes));
	uint64_t *offsets = xcalloc(nr_cpus, sizeof(*offsets));
	char trailer[128];
	uint64_t off;
	int ret = -1;

	snprintf(trailer, sizeof(trailer), "[%s]", clock ? clock : "local");
	if (put_str(out, FLYRECORD_TAG) < 0)
		goto out;
	/* Offsets first: after the table and the trailer, each CPU on a page. */
	off = out->pos + nr_cpus * 16 + 8 + strlen(trailer);
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		off = (off + out->page_size - 1) / out->page_size * out->page_size;
		sizes[cpu] = fd_size(cpu_fds[cpu]);
		offsets[cpu] = off;
		off += sizes[cpu];
	}
	for (int cpu = 0; cpu < nr_cpus; cpu++)
		if (put_u64(out, offsets[cpu]) < 0 || put_u64(out, sizes[cpu]) < 0)
			goto out;
	if (put_u64(out, strlen(trailer)) < 0 ||
	    trace_output_write_raw(out, trailer, strlen(trailer)) < 0)
		goto out;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		if (pad_to(out, offsets[cpu]) < 0)
			goto out;
		if (sizes[cpu] && copy_data(out, cpu_fds[cpu], sizes[cpu]) < 0)
			goto out;
	}
	ret = 0;
out:
	free(sizes);
	free(offsets);
	return ret;
}

int trace_output_end_metadata(struct trace_output *out, int nr_cpus)
{
	if (out->v7)
		return v7_end_metadata(out, out->v7, nr_cpus);
	return put_u32(out, nr_cpus) < 0 ? -1 : write_options(out);
}

int trace_output_close(struct trace_output *out)
{
	int ret = 0;

	if (!out)
		return 0;
	if (out->v7 && out->fd >= 0 && !out->failed && v7_finish(out, out->v7) < 0)
		ret = -1;
	v7_free(out->v7);
	if (out->fd >= 0 && close(out->fd) < 0)
		ret = error("cannot write '%s': %s", out->name, strerror(errno));
	for (size_t i = 0; i < out->nr_opts; i++)
		free(out->opts[i].data);
	free(out->opts);
	for (size_t i = 0; i < out->nr_buffers; i++)
		free(out->buffer_names[i]);
	free(out->buffer_names);
	free(out->buffer_offset_at);
	free(out->name);
	free(out);
	return ret;
}

int trace_output_set_compression(struct trace_output *out, const char *name)
{
	int comp = trace_compress_lookup(name);

	if (comp < 0)
		return error("compression '%s' is not supported (none, zlib, zstd, any)", name);
	if (out->v7) {
		v7_free(out->v7);
		out->v7 = v7_new(comp);
	} else if (comp != TRACE_COMP_NONE) {
		return error("compression needs file version 7");
	}
	return 0;
}

/* v6: the instance's flyrecord part here, its BUFFER option pointed at it. */
static int write_v6_buffer(struct trace_output *out, const char *name, int nr_cpus,
			   const int *cpu_fds, const char *clock)
{
	uint64_t here = out->pos;
	size_t i;

	for (i = 0; i < out->nr_buffers; i++)
		if (!strcmp(out->buffer_names[i], name))
			break;
	if (i == out->nr_buffers)
		return error("'%s': no BUFFER option for instance '%s'", out->name, name);
	/* The one write that is not sequential: the file must be seekable. */
	if (pwrite(out->fd, &here, sizeof(here), out->buffer_offset_at[i]) != sizeof(here))
		return error("cannot write '%s': %s", out->name,
			     errno == ESPIPE ? "instances need a seekable output" :
			     strerror(errno));
	return write_flyrecord(out, nr_cpus, cpu_fds, clock);
}

int trace_output_write_buffer(struct trace_output *out, const char *name, int nr_cpus,
			      const int *cpu_fds, const char *clock)
{
	if (!out->v7)
		return write_v6_buffer(out, name, nr_cpus, cpu_fds, clock);
	return v7_write_buffer(out, out->v7, name, nr_cpus, cpu_fds, clock);
}

/* Lent to trace-output-v7.c. */
int trace_output_fd(const struct trace_output *out)
{
	return out->fd;
}

const char *trace_output_name(const struct trace_output *out)
{
	return out->name;
}

uint32_t trace_output_page_size(const struct trace_output *out)
{
	return out->page_size;
}

size_t trace_output_nr_options(const struct trace_output *out)
{
	return out->nr_opts;
}

void trace_output_get_option(const struct trace_output *out, size_t i, uint16_t *id,
			     const void **data, uint32_t *size)
{
	*id = out->opts[i].id;
	*data = out->opts[i].data;
	*size = out->opts[i].size;
}

void trace_output_clear_options(struct trace_output *out)
{
	for (size_t i = 0; i < out->nr_opts; i++)
		free(out->opts[i].data);
	out->nr_opts = 0;
}

int trace_output_begin_section(struct trace_output *out, uint16_t id)
{
	return out->v7 ? v7_begin(out, out->v7, id) : 0;
}
