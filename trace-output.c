// SPDX-License-Identifier: GPL-2.0
/*
 * The trace.dat writer's API (trace-output.h): the prefix, the metadata
 * sections read from the tracing directory, and the options, written through
 * the common layer (trace-dat-out.c); what follows the metadata is the
 * layout's, v6 (trace-output-v6.c) or v7 (trace-output-v7.c).
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
#include "trace-dat-out.h"
#include "trace-kallsyms.h"
#include "trace-output.h"
#include "trace-output-v6.h"
#include "trace-output-v7.h"
#include "trace-prefetch.h"
#include "trace-tracefs.h"

#define TRACE_MAGIC		"\027\010\104tracing"

struct trace_output {
	struct dat_out *d;
	int version;
	int long_size;		/* the prefix's; 0: this machine's */
	struct v6_writer *v6;	/* one of the two layouts */
	struct v7_writer *v7;
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
	out->d = dat_out_new(fd, name);
	out->version = version;
	if (version == 7)
		out->v7 = v7_new(TRACE_COMP_ZSTD);
	else
		out->v6 = v6_new();
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

struct trace_output *trace_output_append(int fd, const char *name, int src_fd, uint64_t size,
					const char *comp, uint64_t link_at, uint64_t strings_size)
{
	struct trace_output *out = output_new(fd, name, 7);

	if (trace_output_set_compression(out, comp) < 0 ||
	    dat_copy_fd(out->d, src_fd, size) < 0) {
		trace_output_close(out);
		return NULL;
	}
	v7_continue(out->v7, link_at, strings_size);
	return out;
}

uint64_t trace_output_offset(const struct trace_output *out)
{
	return out->d->pos;
}

int trace_output_write_raw(struct trace_output *out, const void *buf, size_t len)
{
	return dat_write(out->d, buf, len);
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

	if (out->v7 && v7_check_output(out->d) < 0)
		return -1;
	out->d->page_size = page_size;
	snprintf(version, sizeof(version), "%d", out->version);
	endian_long[0] = *(char *)&one ? 0 : 1;
	endian_long[1] = out->long_size ? out->long_size : (int)sizeof(long);
	if (trace_output_write_raw(out, TRACE_MAGIC, 10) < 0 ||
	    dat_str(out->d, version) < 0 ||
	    trace_output_write_raw(out, endian_long, 2) < 0)
		return -1;
	if (dat_u32(out->d, page_size) < 0)
		return -1;
	return out->v7 ? v7_write_prefix_tail(out->v7, out->d) : 0;
}

/* A tracing-directory file as @ahead read it, or as it is now. */
static int read_tfs_file(struct prefetch *ahead, const char *rel, char **buf, size_t *len)
{
	char *path = tfs_path(NULL, rel);
	int taken = prefetch_take(ahead, path, buf, len);

	free(path);
	return taken ? 0 : tfs_read_file(NULL, rel, buf, len);
}

/* A tracing-directory file as u32/u64 size + text; a missing file is size 0. */
static int put_tfs_file(struct trace_output *out, struct prefetch *ahead, const char *rel,
			int size64, int optional)
{
	char *buf = NULL;
	size_t len = 0;
	int ret;

	if (!(optional && !tfs_exists(NULL, rel)) && read_tfs_file(ahead, rel, &buf, &len) < 0)
		return -1;
	ret = size64 ? dat_u64(out->d, len) : dat_u32(out->d, len);
	if (ret == 0 && len)
		ret = trace_output_write_raw(out, buf, len);
	free(buf);
	return ret;
}

int trace_output_write_header_info(struct trace_output *out, struct prefetch *ahead)
{
	int have = tfs_exists(NULL, "events/header_page");

	if (out->v7 && v7_begin(out->v7, out->d, TRACE_OPT_HEADER_INFO) < 0)
		return -1;
	if (dat_str(out->d, "header_page") < 0)
		return -1;
	if (!have ? dat_u64(out->d, 0) : put_tfs_file(out, ahead, "events/header_page", 1, 0))
		return -1;
	if (dat_str(out->d, "header_event") < 0)
		return -1;
	return !have ? dat_u64(out->d, 0) : put_tfs_file(out, ahead, "events/header_event", 1, 1);
}

static int has_format(const struct dirent *d)
{
	return d->d_name[0] != '.' && (d->d_type == DT_DIR || d->d_type == DT_UNKNOWN);
}

int trace_output_write_ftrace_formats(struct trace_output *out, struct prefetch *ahead)
{
	struct dirent **list = NULL;
	char *dir = tfs_path(NULL, "events/ftrace");
	char rel[512];
	int n = scandir(dir, &list, has_format, alphasort);
	int count = 0, ret = 0;

	if (out->v7 && v7_begin(out->v7, out->d, TRACE_OPT_FTRACE_EVENTS) < 0)
		return -1;
	free(dir);
	if (n < 0)
		n = 0;	/* no ftrace system: an empty list, as upstream writes */
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "events/ftrace/%s/format", list[i]->d_name);
		count += tfs_exists(NULL, rel);
	}
	ret = dat_u32(out->d, count);
	for (int i = 0; i < n; i++) {
		snprintf(rel, sizeof(rel), "events/ftrace/%s/format", list[i]->d_name);
		if (ret == 0 && tfs_exists(NULL, rel))
			ret = put_tfs_file(out, ahead, rel, 1, 0);
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

static int write_system(struct trace_output *out, struct prefetch *ahead,
			const struct tfs_events *ev, size_t first, size_t end)
{
	char rel[1024];

	if (dat_str(out->d, tfs_events_system(ev, first)) < 0 || dat_u32(out->d, end - first) < 0)
		return -1;
	for (size_t i = first; i < end; i++) {
		snprintf(rel, sizeof(rel), "events/%s/%s/format", tfs_events_system(ev, i),
			 tfs_events_name(ev, i));
		if (put_tfs_file(out, ahead, rel, 1, 0) < 0)
			return -1;
	}
	return 0;
}

int trace_output_write_event_formats(struct trace_output *out, const struct tfs_events *events,
				     struct prefetch *ahead)
{
	struct tfs_events *own = events ? NULL : all_events();
	const struct tfs_events *ev = events ? events : own;
	size_t n, nr_systems = 0, i, j;
	int ret = 0;

	if (out->v7 && v7_begin(out->v7, out->d, TRACE_OPT_EVENT_FORMATS) < 0)
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
	ret = dat_u32(out->d, nr_systems);
	for (i = 0; ret == 0 && i < n; i = j) {
		for (j = i; j < n && !strcmp(tfs_events_system(ev, i), tfs_events_system(ev, j)); j++)
			;
		if (strcmp(tfs_events_system(ev, i), "ftrace"))
			ret = write_system(out, ahead, ev, i, j);
	}
	tfs_events_free(own);
	return ret;
}

int trace_output_write_kallsyms(struct trace_output *out, const char *path,
				struct prefetch *ahead)
{
	size_t len = 0;
	char *buf = NULL;
	int ret;

	if (path)
		buf = read_path_text(path, &len);
	else if (!prefetch_take(ahead, KALLSYMS_PROC, &buf, &len))
		buf = kallsyms_read_proc(&len);

	if (out->v7 && v7_begin(out->v7, out->d, TRACE_OPT_KALLSYMS) < 0)
		return -1;
	/* Symbols only make reports nicer: without them the file is still good. */
	if (!buf) {
		warning("cannot read '%s': %s", path ? path : KALLSYMS_PROC, strerror(errno));
		len = 0;
	}
	ret = dat_u32(out->d, len);
	if (ret == 0 && len)
		ret = trace_output_write_raw(out, buf, len);
	free(buf);
	return ret;
}

int trace_output_write_printk(struct trace_output *out, struct prefetch *ahead)
{
	if (out->v7 && v7_begin(out->v7, out->d, TRACE_OPT_PRINTK) < 0)
		return -1;
	return put_tfs_file(out, ahead, "printk_formats", 0, 1);
}

int trace_output_write_cmdlines(struct trace_output *out)
{
	if (out->v7 && v7_begin(out->v7, out->d, TRACE_OPT_CMDLINES) < 0)
		return -1;
	return put_tfs_file(out, NULL, "saved_cmdlines", 1, 1);
}

int trace_output_write_metadata(struct trace_output *out, uint32_t page_size,
				const struct tfs_events *events, struct prefetch *ahead)
{
	if (trace_output_write_prefix(out, page_size) < 0 ||
	    trace_output_write_header_info(out, ahead) < 0 ||
	    trace_output_write_ftrace_formats(out, ahead) < 0 ||
	    trace_output_write_event_formats(out, events, ahead) < 0 ||
	    trace_output_write_kallsyms(out, NULL, ahead) < 0 ||
	    trace_output_write_printk(out, ahead) < 0)
		return -1;
	return trace_output_write_cmdlines(out);
}

int trace_output_add_option(struct trace_output *out, uint16_t id, const void *data,
			    uint32_t size)
{
	dat_add_option(out->d, id, data, size);
	return 0;
}

static int add_string_option(struct trace_output *out, uint16_t id, const char *s)
{
	return trace_output_add_option(out, id, s, strlen(s) + 1);
}

int trace_output_add_date(struct trace_output *out)
{
	struct timespec rt, mono;
	long long us;
	char buf[32];

	clock_gettime(CLOCK_MONOTONIC, &mono);
	clock_gettime(CLOCK_REALTIME, &rt);
	us = ((long long)rt.tv_sec - mono.tv_sec) * 1000000LL +
	     (rt.tv_nsec - mono.tv_nsec) / 1000;
	snprintf(buf, sizeof(buf), "0x%llx", us);
	return trace_output_add_option(out, TRACE_OPT_DATE, buf, strlen(buf) + 1);
}

/* A trace id tells files of one session apart; any unlikely number will do. */
uint64_t trace_output_new_trace_id(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)getpid() << 32) ^ ((uint64_t)ts.tv_sec * 1000000000ULL + ts.tv_nsec);
}

int trace_output_add_host_options_id(struct trace_output *out, uint64_t id)
{
	struct utsname u;
	char buf[1024];
	char *clock = NULL;

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
	if (!id)
		id = trace_output_new_trace_id();
	return trace_output_add_option(out, TRACE_OPT_TRACEID, &id, sizeof(id));
}

int trace_output_add_host_options(struct trace_output *out)
{
	return trace_output_add_host_options_id(out, 0);
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
	/* v7 writes the BUFFER option with the buffer's section. */
	if (out->v6)
		v6_add_buffer(out->d, name);
	return 0;
}

int trace_output_set_chunks(struct trace_output *out, int comp, const struct cpu_chunks *chunks,
			    int nr_cpus)
{
	return out->v7 ? v7_set_chunks(out->v7, comp, chunks, nr_cpus) : -1;
}

int trace_output_write_data(struct trace_output *out, int nr_cpus, const int *cpu_fds,
			    const char *clock)
{
	if (out->v7)
		return v7_write_data(out->v7, out->d, nr_cpus, cpu_fds, clock);
	return v6_write_data(out->v6, out->d, nr_cpus, cpu_fds, clock);
}

int trace_output_write_latency(struct trace_output *out, int nr_cpus, const char *text,
			       size_t len, const char *clock)
{
	static const char tag[10] = "latency  ";

	if (out->v7)
		return v7_write_latency(out->v7, out->d, nr_cpus, text, len, clock);
	if (v6_end_metadata(out->v6, out->d, nr_cpus) < 0 || dat_write(out->d, tag, sizeof(tag)) < 0)
		return -1;
	return dat_write(out->d, text, len);
}

int trace_output_end_metadata(struct trace_output *out, int nr_cpus)
{
	if (out->v7)
		return v7_end_metadata(out->v7, out->d, nr_cpus);
	return v6_end_metadata(out->v6, out->d, nr_cpus);
}

int trace_output_link_options_here(struct trace_output *out)
{
	if (!out->v7)
		return error("'%s': a proxy's file is version 7", out->d->name);
	return v7_link_options_here(out->v7, out->d);
}

int trace_output_close(struct trace_output *out)
{
	int ret = 0;

	if (!out)
		return 0;
	if (out->v7 && out->d->fd >= 0 && !out->d->failed && v7_finish(out->v7, out->d) < 0)
		ret = -1;
	v7_free(out->v7);
	v6_free(out->v6);
	if (dat_out_close(out->d) < 0)
		ret = -1;
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

int trace_output_write_buffer(struct trace_output *out, const char *name, int nr_cpus,
			      const int *cpu_fds, const char *clock)
{
	if (out->v7)
		return v7_write_buffer(out->v7, out->d, name, nr_cpus, cpu_fds, clock);
	return v6_write_buffer(out->v6, out->d, name, nr_cpus, cpu_fds, clock);
}

int trace_output_begin_section(struct trace_output *out, uint16_t id)
{
	return out->v7 ? v7_begin(out->v7, out->d, id) : 0;
}
