// SPDX-License-Identifier: GPL-2.0
/*
 * extract: turn what the kernel's ring buffers hold now (after start/stop,
 * or tracing set up by hand) into a trace.dat, the top buffer and any
 * instances, or with -s the snapshot buffers.  Reading consumes the data.
 * It is written as version 6, then converted when another version or a
 * compression is wanted (v7 zstd by default, as upstream's extract).
 */
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>


#include "trace-cmd.h"
#include "trace-buffers.h"
#include "trace-convert-dat.h"
#include "trace-ftrace-setup.h"
#include "trace-outfile.h"
#include "trace-output.h"
#include "trace-ringbuf.h"
#include "trace-tracefs.h"

extern const struct command cmd_extract;

static const char extract_usage[] =
	"usage: trace-cmd extract [-o FILE] [-B NAME]... [-a] [-t] [-s] [-p TRACER] [-O OPTION]...\n"
	"                         [--date] [--verbose[=LEVEL]]\n"
	"                         [--file-version 6|7] [--compression none|zlib|zstd|any]\n"
	"  -o FILE  write FILE instead of trace.dat\n"
	"  -B NAME  extract the instance NAME (repeatable); the top buffer only with -t\n"
	"  -a       extract every instance; the top buffer only with -t\n"
	"  -t       extract the top buffer too (the default without -B or -a)\n"
	"  -s       extract the snapshot buffers instead of the live ones\n"
	"  -p TRACER  a latency tracer (irqsoff, preemptoff, preemptirqsoff, wakeup,\n"
	"           wakeup_rt, wakeup_dl): save the text of the top buffer's trace file,\n"
	"           its latency report, as a latency file; another tracer is only\n"
	"           checked, with a warning that the buffers are extracted as without -p\n"
	"  -O OPTION  turn trace option OPTION on (noOPTION: off) in the top buffer while\n"
	"           extracting, then back (it shapes a latency tracer's text)\n"
	"  --date   record the wall-clock offset: report shows dates\n"
	"  --verbose[=LEVEL]  how much to say: none crit err warn (the default) info debug\n"
	"           all, or 0 to 6; alone: info (what each CPU gave)\n"
	"  --file-version N  the trace.dat version to write: 6 or 7 (default 7)\n"
	"  --compression C   version 7 compression: none, zlib, zstd or any, the best\n"
	"                    built in (the default: zstd)\n";

enum { OPT_FILE_VERSION = 256, OPT_COMPRESSION, OPT_DATE, OPT_VERBOSE };

static const struct option extract_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "date", no_argument, NULL, OPT_DATE },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ NULL, 0, NULL, 0 }
};

#define FLYRECORD_TAG "flyrecord"	/* written with its NUL: 10 bytes */
#define OPTIONS_TAG "options  "

struct extract {
	const char *output;
	int version;			/* --file-version, default 7 */
	const char *compression;	/* --compression, NULL: the version's default */
	bool snapshot;
	bool date;			/* --date: a DATE option */
	bool latency;			/* -p named a latency tracer: its text, not the buffers */
	struct ftrace_setup ftrace;	/* -p (checked, never set) and -O */
	int nr_cpus;
	size_t page_size;
	int **fds;	/* per buffer, per CPU: the data read (memfds) */
};

static int parse(int argc, char **argv, struct extract *x, struct buffers *b)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:ho:B:atsp:O:", extract_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_extract);
		case 'o':
			if (!*optarg)
				return usage_error(&cmd_extract, "-o needs a file name");
			x->output = optarg;
			break;
		case 'B':
		case 'a':
		case 't':
			if (buffers_option(b, c, optarg) < 0)
				return EXIT_FAILED;
			break;
		case 's':
			x->snapshot = true;
			break;
		case OPT_DATE:
			x->date = true;
			break;
		case OPT_VERBOSE:
			if (set_log_level("--verbose", optarg) < 0)
				return usage_follows(&cmd_extract);
			break;
		case 'p':
		case 'O':
			/* The second pass (with @b) keeps them; the first only checks. */
			if (c == 'p' && x->ftrace.plugin && b)
				return usage_error(&cmd_extract, "only one -p TRACER");
			if (!b && (!*optarg || strchr(optarg, '/')))
				return usage_error(&cmd_extract, "invalid -%c value '%s': not a %s name",
						   c, optarg, c == 'p' ? "tracer" : "trace option");
			if (b && ftrace_setup_option(&x->ftrace, c, optarg, NULL) < 0)
				return usage_follows(&cmd_extract);
			break;
		case OPT_FILE_VERSION:
		case OPT_COMPRESSION: {
			int ret = trace_dat_parse_format(&cmd_extract, c == OPT_FILE_VERSION ? 'V' : 'C',
							 optarg, &x->version, &x->compression);

			if (ret != PARSE_RUN)
				return ret;
			break;
		}
		default:
			return option_error(&cmd_extract, argv, c);
		}
	}
	if (optind < argc)
		return usage_error(&cmd_extract, "unexpected argument '%s'", argv[optind]);
	return trace_dat_check_format(&cmd_extract, x->version, x->compression);
}

/* The tracers whose result is a text report of their own, not ring buffer events. */
static bool is_latency_tracer(const char *name)
{
	static const char *const tracers[] = {
		"irqsoff", "preemptoff", "preemptirqsoff", "wakeup", "wakeup_rt", "wakeup_dl",
	};

	for (size_t i = 0; i < ARRAY_SIZE(tracers); i++)
		if (!strcmp(name, tracers[i]))
			return true;
	return false;
}

/*
 * -p: the tracer must exist; a latency tracer's text is what is saved, as
 * upstream's extract does.  Another tracer changes nothing, which is said.
 * 0, or -1 after printing why.
 */
static int check_tracer(struct extract *x)
{
	const char *tracer = x->ftrace.plugin;

	if (!tracer)
		return 0;
	if (ftrace_setup_check(&x->ftrace, NULL) < 0)
		return -1;
	if (!is_latency_tracer(tracer)) {
		warning("-p %s: not a latency tracer: the ring buffers are extracted as without -p",
			tracer);
		return 0;
	}
	x->latency = true;
	return 0;
}

/* Reads one CPU's raw pages until the kernel has none left, into a memfd. */
static int read_cpu(struct tfs_instance *inst, int cpu, const char *raw, size_t page_size)
{
	char rel[64], *path, *size, *page = xmalloc(page_size);
	int in, out = memfd_create("trace-cmd-extract", MFD_CLOEXEC);
	size_t total = 0, limit;
	ssize_t n;

	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/%s", cpu, raw);
	path = tfs_path(inst, rel);
	in = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	free(path);
	if (in < 0 || out < 0) {
		error("cannot open '%s': %s", rel, strerror(errno));
		goto fail;
	}
	/*
	 * With tracing still on, new events keep coming: stop after what the
	 * buffer can hold (plus the reader page), which is all it had.
	 */
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/buffer_size_kb", cpu);
	size = tfs_read_quiet(inst, rel);
	limit = size && atol(size) > 0 ? (size_t)atol(size) * 1024 + 2 * page_size : SIZE_MAX;
	free(size);
	snprintf(rel, sizeof(rel), "per_cpu/cpu%d/%s", cpu, raw);
	while (total < limit && (n = read(in, page, page_size)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EAGAIN)
			break;
		if (n < 0) {
			error("cannot read '%s': %s", rel, strerror(errno));
			goto fail;
		}
		if (write_all(out, page, n) < 0) {
			error("cannot keep the data of '%s': %s", rel, strerror(errno));
			goto fail;
		}
		total += n;
	}
	log_info("cpu %d: %zu bytes from '%s'", cpu, total, rel);
	close(in);
	free(page);
	return out;
fail:
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	free(page);
	return -1;
}

static char *buffer_clock(struct tfs_instance *inst)
{
	char *s = tfs_read_quiet(inst, "trace_clock"), *b, *e;

	if (!s)
		return xstrdup("local");
	b = strchr(s, '[');
	e = b ? strchr(b, ']') : NULL;
	if (b && e) {
		memmove(s, b + 1, e - b - 1);
		s[e - b - 1] = '\0';
	} else {
		s[strcspn(s, " \n")] = '\0';
	}
	return s;
}

/* An instance's CPUSTATs, after the "Buffer: NAME" entry upstream puts first. */
static int add_instance_stats(struct trace_output *out, struct tfs_instance *inst,
			      const char *name, int nr_cpus)
{
	char rel[64], head[512], *stats, *buf;

	snprintf(head, sizeof(head), "\nBuffer: %s\n\n", name);
	if (trace_output_add_option(out, TRACE_OPT_CPUSTAT, head, strlen(head) + 1) < 0)
		return -1;
	for (int cpu = 0; cpu < nr_cpus; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		stats = tfs_read_quiet(inst, rel);
		if (!stats)
			return error("cannot read '%s' of instance '%s': %s", rel, name,
				     strerror(errno));
		buf = xmalloc(strlen(stats) + 32);
		sprintf(buf, "CPU: %d\n%s", cpu, stats);
		trace_output_add_option(out, TRACE_OPT_CPUSTAT, buf, strlen(buf) + 1);
		free(buf);
		free(stats);
	}
	return 0;
}

/*
 * -p with a latency tracer: the usual headers and options, then the text of
 * the top buffer's trace file (trace-output.h, trace_output_write_latency),
 * written in the version asked for, not through version 6.
 */
static int write_latency_file(struct extract *x, struct outfile *f)
{
	struct trace_output *out = trace_output_fdopen(f->fd, f->path, x->version);
	char *text = NULL, *clock = NULL;
	size_t len;
	int ret = -1;

	if (!out)
		return -1;	/* f->fd stays ours: outfile_abort closes it */
	f->fd = -1;
	if (x->compression && trace_output_set_compression(out, x->compression) < 0)
		goto out;
	if (tfs_read_file(NULL, "trace", &text, &len) < 0)
		goto out;
	log_info("the latency text: %zu bytes of 'trace'", len);
	clock = tfs_current_clock(NULL);
	if (trace_output_write_metadata(out, x->page_size, NULL, NULL) == 0 &&
	    trace_output_add_host_options(out) == 0 &&
	    (!x->date || trace_output_add_date(out) == 0))
		ret = trace_output_write_latency(out, x->nr_cpus, text, len, clock ? clock : "local");
out:
	free(text);
	free(clock);
	if (trace_output_close(out) < 0)
		ret = -1;
	return ret;
}

/* What write_v6() writes: the extract and its buffers. */
struct extract_job {
	struct extract	*x;
	struct buffers	*b;
};

/* Writes version 6 to @fd, @name for messages (the output, or a file to convert). */
static int write_v6(void *ctx, int fd, const char *name)
{
	struct extract *x = ((struct extract_job *)ctx)->x;
	struct buffers *b = ((struct extract_job *)ctx)->b;
	struct trace_output *out = trace_output_fdopen(fd, name, 6);
	int *top = xcalloc(x->nr_cpus, sizeof(int));
	char *clock = NULL;
	bool have_top = false;
	int ret = -1;

	if (!out)
		close(fd);
	for (int cpu = 0; cpu < x->nr_cpus; cpu++)
		top[cpu] = -1;
	if (!out || trace_output_write_metadata(out, x->page_size, NULL, NULL) < 0 ||
	    trace_output_add_host_options(out) < 0 || (x->date && trace_output_add_date(out) < 0))
		goto out;
	for (int i = 0; i < buffers_count(b); i++) {
		const char *name = buffers_name(b, i);

		if (buffers_is_top(b, i)) {
			have_top = true;
			memcpy(top, x->fds[i], x->nr_cpus * sizeof(int));
			if (trace_output_add_cpustats(out, NULL, x->nr_cpus) < 0)
				goto out;
			continue;
		}
		if (add_instance_stats(out, buffers_instance(b, i), name, x->nr_cpus) < 0 ||
		    trace_output_add_buffer(out, name) < 0)
			goto out;
	}
	clock = have_top ? tfs_current_clock(NULL) : NULL;
	if (trace_output_write_data(out, x->nr_cpus, top, clock ? clock : "local") < 0)
		goto out;
	for (int i = 0; i < buffers_count(b); i++) {
		char *iclock;

		if (buffers_is_top(b, i))
			continue;
		iclock = buffer_clock(buffers_instance(b, i));
		ret = trace_output_write_buffer(out, buffers_name(b, i), x->nr_cpus, x->fds[i],
						iclock);
		free(iclock);
		if (ret < 0)
			goto out;
		ret = -1;
	}
	ret = trace_output_close(out);
	out = NULL;
out:
	if (out)
		trace_output_close(out);
	free(clock);
	free(top);
	return ret;
}

static int extract(struct extract *x, struct buffers *b)
{
	const char *raw = x->snapshot ? "snapshot_raw" : "trace_pipe_raw";
	struct extract_job job = { x, b };
	struct outfile f;
	char rel[64];
	int ret = -1;

	x->nr_cpus = tfs_cpu_count();
	x->page_size = ringbuf_page_size();
	if (x->nr_cpus <= 0)
		return error("no CPUs in the tracing directory");
	snprintf(rel, sizeof(rel), "per_cpu/cpu0/%s", raw);
	for (int i = 0; i < buffers_count(b); i++)
		if (x->snapshot && !tfs_exists(buffers_instance(b, i), rel))
			return error("this kernel has no snapshot buffer (no '%s')", rel);
	/* Reading consumes the buffers: find out first that the file can be written. */
	if (outfile_open(&f, x->output, NULL) < 0)
		return -1;
	if (x->latency) {
		ret = write_latency_file(x, &f);
		goto out;
	}
	x->fds = xcalloc(buffers_count(b), sizeof(*x->fds));
	for (int i = 0; i < buffers_count(b); i++) {
		x->fds[i] = xcalloc(x->nr_cpus, sizeof(int));
		for (int cpu = 0; cpu < x->nr_cpus; cpu++)
			x->fds[i][cpu] = -1;
	}
	for (int i = 0; i < buffers_count(b); i++)
		for (int cpu = 0; cpu < x->nr_cpus; cpu++)
			if ((x->fds[i][cpu] = read_cpu(buffers_instance(b, i), cpu, raw,
						       x->page_size)) < 0)
				goto out;
	ret = trace_dat_write_via_v6(&f, x->version, x->compression, write_v6, &job);
out:
	if (ret < 0)
		outfile_abort(&f);
	else
		ret = outfile_commit(&f);
	for (int i = 0; x->fds && i < buffers_count(b); i++) {
		for (int cpu = 0; cpu < x->nr_cpus; cpu++)
			if (x->fds[i][cpu] >= 0)
				close(x->fds[i][cpu]);
		free(x->fds[i]);
	}
	free(x->fds);
	return ret;
}

/* -O: the options set in the top buffer while extracting, restored after. */
static int extract_with_options(struct extract *x, struct buffers *b)
{
	struct tfs_saved *saved = tfs_saved_new();
	int ret = ftrace_setup_apply_options(&x->ftrace, NULL, saved);

	if (ret == 0)
		ret = extract(x, b);
	if (tfs_restore(saved) < 0)
		ret = -1;
	tfs_saved_free(saved);
	return ret;
}

static int run_extract(int argc, char **argv)
{
	struct extract x = { .output = "trace.dat", .version = 7 };
	struct buffers *b;
	int ret;

	if ((ret = parse(argc, argv, &x, NULL)) != PARSE_RUN)
		return ret;
	if (!tfs_dir())
		return EXIT_FAILED;
	b = buffers_new();
	ftrace_setup_init(&x.ftrace, argc);
	if ((ret = parse(argc, argv, &x, b)) == PARSE_RUN) {
		buffers_default_top(b);
		ret = check_tracer(&x) < 0 || extract_with_options(&x, b) < 0 ?
		      EXIT_FAILED : EXIT_OK;
	}
	ftrace_setup_free(&x.ftrace);
	buffers_free(b);
	return ret;
}

const struct command cmd_extract = {
	.name = "extract",
	.run = run_extract,
	.usage = extract_usage,
	.summary = "save what the kernel's ring buffers hold into a trace.dat",
};
