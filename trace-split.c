// SPDX-License-Identifier: GPL-2.0
/*
 * split: cut a trace.dat into pieces by time, event count or pages, per CPU
 * or not, between a start and an end time.  Records are taken from the
 * merged stream in report's order; their bytes are copied page by page
 * (a page cut in the middle gets a new header whose timestamp is that of
 * the record before the cut), so every event keeps its exact bytes.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <event-parse.h>

#include "trace-cmd.h"
#include "trace-convert-dat.h"
#include "trace-input.h"
#include "trace-outfile.h"
#include "trace-page.h"

extern const struct command cmd_split;

static const char split_usage[] =
	"usage: trace-cmd split [-i FILE] [-o OUT] [-s N | -m N | -u N | -e N | -p N] [-r] [-c]\n"
	"                       [-C CPU] [-B NAME [-t]]... [--top[=NEW] [-b NEW]] [START [END]]\n"
	"  -i FILE   read FILE instead of trace.dat\n"
	"  -o OUT    write OUT (with -r: OUT.0001, OUT.0002, ...); default: FILE.1\n"
	"  -s N      end a piece N seconds after its first event\n"
	"  -m N      end a piece N milliseconds after its first event\n"
	"  -u N      end a piece N microseconds after its first event\n"
	"  -e N      end a piece after N events (N of each CPU with -c)\n"
	"  -p N      end a piece after N pages of each CPU (implies -c)\n"
	"  -r        repeat: write pieces until END (or the end of the file)\n"
	"  -c        per CPU: each piece holds N events (or N units of time) of every CPU\n"
	"  -C CPU    keep only the events of CPU\n"
	"  -B NAME   keep the buffer (instance) NAME (repeatable); the top one only with --top\n"
	"  -t        (after -B NAME) make NAME the output's top buffer\n"
	"  --top     keep the top buffer too (the default without -B)\n"
	"  -b NEW    (after --top) keep the top buffer as the instance NEW; --top=NEW is the same\n"
	"  START     the first time kept, in seconds (ns exact), default: the start\n"
	"  END       the last time kept, default: the end\n"
	"  -h        show this help\n";

enum { OPT_TOP = 256 };

static const struct option split_options[] = {
	{ "top",  optional_argument, NULL, OPT_TOP },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

enum split_by { BY_NONE, BY_TIME, BY_EVENTS, BY_PAGES };

/* A buffer -B or --top keeps: its name in the input and in the output. */
struct kept_buffer {
	const char *name;	/* NULL: the input's top buffer (--top) */
	const char *out_name;	/* NULL: the output's top buffer (--top, or -B NAME -t) */
};

struct split_opts {
	const char *input, *output;
	enum split_by by;
	uint64_t limit;		/* ns, events or pages */
	bool repeat, per_cpu;
	long cpu;		/* -C, or -1 */
	uint64_t start, end;	/* ns */
	struct kept_buffer *buffers;	/* -B and --top in order; none: all, as they are */
	int nr_buffers;
};

/*
 * One CPU of one buffer: the pages built for it so far in a temporary file,
 * and where each piece's pages end there.
 */
struct lane {
	int fd;
	uint64_t size;			/* bytes written to fd */
	uint64_t *ends;			/* fd size at the end of piece i */
	size_t nr_ends;
	unsigned char *page;		/* the output page being filled */
	bool open;
	unsigned int fill;		/* bytes in it after the header */
	uint64_t flags, missed;		/* commit flags and stored missed count */
	unsigned int prev_end;		/* end of the last record seen in its page */
	uint64_t prev_ts;		/* and its raw timestamp */
	uint64_t count;			/* events or pages in the current piece */
	uint64_t first_ts;		/* (-c with a time) its first record's time */
	bool started, done;
};

struct split {
	struct split_opts *o;
	struct trace_input *in;
	int nr_buffers;
	bool *keep_buffer;
	const char **out_name;		/* [buffer]: its name in the output, NULL: the top */
	struct lane **lanes;		/* [buffer][cpu], NULL when not kept */
	unsigned int hdr, long_size, page_size;
	/* The current piece, when pieces are cut for all CPUs at once. */
	size_t piece;
	uint64_t piece_first, piece_count;
	bool piece_started;
};


static uint64_t get_long(const unsigned char *p, unsigned int size)
{
	uint32_t v32;
	uint64_t v64;

	if (size == 4) {
		memcpy(&v32, p, 4);
		return v32;
	}
	memcpy(&v64, p, 8);
	return v64;
}

static void put_long(unsigned char *p, unsigned int size, uint64_t v)
{
	uint32_t v32 = v;

	if (size == 4)
		memcpy(p, &v32, 4);
	else
		memcpy(p, &v, 8);
}

/* Seconds with up to nine decimals, as report prints times, into exact ns. */
static int parse_seconds(const char *what, const char *arg, uint64_t *ns)
{
	const char *p = arg;
	uint64_t sec = 0, frac = 0;
	int digits = 0;

	if (*p < '0' || *p > '9')
		goto bad;
	while (*p >= '0' && *p <= '9') {
		if (sec > 18000000000ULL)
			return usage_error(&cmd_split, "invalid %s '%s': out of range", what, arg);
		sec = sec * 10 + (*p++ - '0');
	}
	if (*p == '.') {
		for (p++; *p >= '0' && *p <= '9'; p++)
			if (digits < 9) {
				frac = frac * 10 + (*p - '0');
				digits++;
			}
	}
	if (*p)
		goto bad;
	for (; digits < 9; digits++)
		frac *= 10;
	*ns = sec * 1000000000ULL + frac;
	return 0;
bad:
	return usage_error(&cmd_split, "invalid %s '%s': not a time in seconds", what, arg);
}

static int set_limit(struct split_opts *o, int c, const char *arg)
{
	static const char opts[] = "smuep";
	static const uint64_t scale[] = { 1000000000ULL, 1000000ULL, 1000ULL, 1, 1 };
	unsigned long n;
	char name[3] = { '-', (char)c, 0 };
	int i = strchr(opts, c) - opts;

	if (o->by != BY_NONE)
		return usage_error(&cmd_split, "only one of -s, -m, -u, -e and -p may be given");
	if (parse_ulong(name, arg, 1, ULONG_MAX / scale[i], &n) < 0) {
		fputs(split_usage, stderr);
		return EXIT_USAGE;
	}
	o->limit = n * scale[i];
	o->by = c == 'e' ? BY_EVENTS : c == 'p' ? BY_PAGES : BY_TIME;
	if (c == 'p')
		o->per_cpu = true;
	return PARSE_RUN;
}

static struct kept_buffer *keep(struct split_opts *o, const char *name, const char *out_name)
{
	struct kept_buffer *k;

	o->buffers = xrealloc(o->buffers, (o->nr_buffers + 1) * sizeof(*o->buffers));
	k = &o->buffers[o->nr_buffers++];
	k->name = name;
	k->out_name = out_name;
	return k;
}

/*
 * -t after -B NAME makes it the output's top buffer; -b NEW after --top (or
 * --top=NEW) keeps the input's top buffer as the instance NEW.  @prev is the
 * option before, 'B' or OPT_TOP (without =NEW), else 0.
 */
static int rename_kept(struct split_opts *o, int c, int prev, const char *arg)
{
	struct kept_buffer *k = o->nr_buffers ? &o->buffers[o->nr_buffers - 1] : NULL;

	if (c == 't') {
		if (prev != 'B')
			return usage_error(&cmd_split, "-t must follow a -B NAME");
		k->out_name = NULL;
		return PARSE_RUN;
	}
	if (prev != OPT_TOP)
		return usage_error(&cmd_split, "-b must follow --top");
	if (check_named("-b", arg, "a buffer name") < 0)
		return usage_follows(&cmd_split);
	k->out_name = arg;
	return PARSE_RUN;
}

/* One top buffer at most in the output, and no name twice. */
static int check_kept(const struct split_opts *o)
{
	int tops = 0;

	for (int i = 0; i < o->nr_buffers; i++) {
		const struct kept_buffer *k = &o->buffers[i];

		tops += !k->out_name;
		if (tops > 1)
			return usage_error(&cmd_split, "only one buffer may be the output's top one "
					   "(--top, or -B NAME -t)");
		for (int j = 0; j < i && k->out_name; j++)
			if (o->buffers[j].out_name && !strcmp(o->buffers[j].out_name, k->out_name))
				return usage_error(&cmd_split, "the output would have two buffers "
						   "named '%s'", k->out_name);
	}
	return PARSE_RUN;
}

static int parse_options(struct split_opts *o, int argc, char **argv)
{
	unsigned long cpu;
	int c, ret, prev = 0;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hi:o:s:m:u:e:p:rcC:B:tb:", split_options, NULL)) != -1) {
		int this = 0;

		switch (c) {
		case 'h':
			return show_usage(&cmd_split);
		case 'i':
			o->input = optarg;
			break;
		case 'o':
			if (!*optarg)
				return usage_error(&cmd_split, "-o needs a file name");
			o->output = optarg;
			break;
		case 's': case 'm': case 'u': case 'e': case 'p':
			ret = set_limit(o, c, optarg);
			if (ret != PARSE_RUN)
				return ret;
			break;
		case 'r':
			o->repeat = true;
			break;
		case 'c':
			o->per_cpu = true;
			break;
		case 'C':
			if (parse_ulong("-C", optarg, 0, 1 << 20, &cpu) < 0)
				return usage_follows(&cmd_split);
			o->cpu = cpu;
			break;
		case 'B':
			if (check_named("-B", optarg, "a buffer name") < 0)
				return usage_follows(&cmd_split);
			keep(o, optarg, optarg);
			this = 'B';
			break;
		case OPT_TOP:
			if (optarg && check_named("--top", optarg, "a buffer name") < 0)
				return usage_follows(&cmd_split);
			keep(o, NULL, optarg);
			this = optarg ? 0 : OPT_TOP;
			break;
		case 't': case 'b':
			ret = rename_kept(o, c, prev, optarg);
			if (ret != PARSE_RUN)
				return ret;
			break;
		default:
			return option_error(&cmd_split, argv, c);
		}
		prev = this;
	}
	return check_kept(o);
}

/* Returns PARSE_RUN to go on, else the exit status. */
static int parse_args(struct split_opts *o, int argc, char **argv)
{
	int ret = parse_options(o, argc, argv);

	if (ret != PARSE_RUN)
		return ret;
	if (optind < argc && parse_seconds("start time", argv[optind++], &o->start) != 0)
		return EXIT_USAGE;
	if (optind < argc && parse_seconds("end time", argv[optind++], &o->end) != 0)
		return EXIT_USAGE;
	if (optind < argc)
		return usage_error(&cmd_split, "unexpected argument '%s'", argv[optind]);
	/* An END of 0 (or none) is no end: START alone is a start. */
	if (o->end && o->end < o->start)
		return usage_error(&cmd_split, "the end time %s is before the start time %s",
				   argv[optind - 1], argv[optind - 2]);
	return PARSE_RUN;
}

/* Which buffers and CPUs are kept; a lane with a temporary file for each. */
static int setup(struct split *sp)
{
	struct split_opts *o = sp->o;
	struct trace_input *in = sp->in;
	int one = 1;

	if (trace_input_is_latency(in))
		return error("'%s': latency trace files hold no events to split", o->input);
	if (trace_input_big_endian(in) != !*(char *)&one)
		return error("'%s': its byte order is not this machine's: not split", o->input);
	if (o->cpu >= trace_input_cpus(in))
		return error("'%s' has no CPU %ld (%d CPUs)", o->input, o->cpu, trace_input_cpus(in));
	sp->nr_buffers = trace_input_nr_buffers(in);
	sp->keep_buffer = xcalloc(sp->nr_buffers, sizeof(bool));
	sp->out_name = xcalloc(sp->nr_buffers, sizeof(*sp->out_name));
	for (int i = 0; i < o->nr_buffers; i++) {
		const struct kept_buffer *k = &o->buffers[i];
		int b = 0;

		if (k->name) {
			for (b = 1; b < sp->nr_buffers; b++)
				if (!strcmp(trace_input_buffer_name(in, b), k->name))
					break;
			if (b == sp->nr_buffers)
				return error("'%s' has no buffer '%s'", o->input, k->name);
		}
		sp->keep_buffer[b] = true;
		sp->out_name[b] = k->out_name;
	}
	for (int b = 0; !o->nr_buffers && b < sp->nr_buffers; b++) {
		sp->keep_buffer[b] = true;
		sp->out_name[b] = b ? trace_input_buffer_name(in, b) : NULL;
	}
	sp->long_size = trace_input_kernel_long_size(in);
	sp->hdr = 8 + sp->long_size;
	sp->lanes = xcalloc(sp->nr_buffers, sizeof(*sp->lanes));
	for (int b = 0; b < sp->nr_buffers; b++) {
		int cpus = trace_input_buffer_cpus(in, b);

		if (!sp->keep_buffer[b])
			continue;
		sp->lanes[b] = xcalloc(cpus ? cpus : 1, sizeof(struct lane));
		for (int cpu = 0; cpu < cpus; cpu++) {
			struct lane *l = &sp->lanes[b][cpu];
			char path[] = "/tmp/trace-cmd-split.XXXXXX";

			l->fd = -1;
			if (o->cpu >= 0 && cpu != o->cpu)
				continue;
			l->fd = mkstemp(path);
			if (l->fd < 0)
				return error("cannot create a temporary file: %s", strerror(errno));
			unlink(path);
		}
	}
	return 0;
}

/* Writes the lane's open page out, page-sized, with its header and missed count. */
static int flush_page(struct split *sp, struct lane *l)
{
	unsigned char *p = l->page;

	if (!l->open)
		return 0;
	l->open = false;
	put_long(p + 8, sp->long_size, l->fill | l->flags);
	if (l->flags & PAGE_MISSED_STORED)
		put_long(p + sp->hdr + l->fill, sp->long_size, l->missed);
	if (write_all(l->fd, p, sp->page_size) < 0)
		return error("cannot write a temporary file: %s", strerror(errno));
	l->size += sp->page_size;
	return 0;
}

static int end_lane_piece(struct split *sp, struct lane *l)
{
	if (flush_page(sp, l) < 0)
		return -1;
	l->ends = xrealloc(l->ends, (l->nr_ends + 1) * sizeof(*l->ends));
	l->ends[l->nr_ends++] = l->size;
	l->count = 0;
	l->started = false;
	return 0;
}

/* Ends the piece on every kept lane (pieces cut for all CPUs at once). */
static int end_piece(struct split *sp)
{
	for (int b = 0; b < sp->nr_buffers; b++)
		for (int cpu = 0; sp->lanes[b] && cpu < trace_input_buffer_cpus(sp->in, b); cpu++)
			if (sp->lanes[b][cpu].fd >= 0 && end_lane_piece(sp, &sp->lanes[b][cpu]) < 0)
				return -1;
	sp->piece++;
	sp->piece_count = 0;
	sp->piece_started = false;
	return 0;
}

/*
 * Starts an output page for @raw's record: at its page's start the header
 * is kept as stored; after a cut, it begins where the record before it
 * ended, at that record's time, so the deltas that follow still add up.
 */
static void open_page(struct split *sp, struct lane *l, const struct trace_input_raw *raw,
		      bool at_start)
{
	uint64_t commit = get_long(raw->page + 8, sp->long_size);
	uint64_t ts;

	if (!l->page || sp->page_size != raw->page_size) {
		sp->page_size = raw->page_size;
		l->page = xrealloc(l->page, sp->page_size);
	}
	memset(l->page, 0, sp->page_size);
	if (at_start) {
		memcpy(&ts, raw->page, 8);
		l->flags = commit & ~PAGE_COMMIT_MASK;
		l->missed = l->flags & PAGE_MISSED_STORED ?
			get_long(raw->page + sp->hdr + (commit & PAGE_COMMIT_MASK), sp->long_size) : 0;
		l->prev_end = sp->hdr;
	} else {
		ts = l->prev_ts;
		l->flags = 0;
		l->missed = 0;
	}
	memcpy(l->page, &ts, 8);
	l->fill = 0;
	l->open = true;
}

/* Copies @raw's record, and what lies between it and the one before, into the open page. */
static void append(struct split *sp, struct lane *l, const struct trace_input_raw *raw)
{
	unsigned int end = raw->offset + raw->size;

	memcpy(l->page + sp->hdr + l->fill, raw->page + l->prev_end, end - l->prev_end);
	l->fill += end - l->prev_end;
}

/* Whether the lane's piece is full before a record at @ts (-c, -p): ends it if so. */
static int lane_piece_full(struct split *sp, struct lane *l, uint64_t ts, bool new_page)
{
	struct split_opts *o = sp->o;
	bool full = (o->by == BY_EVENTS && l->count >= o->limit) ||
		    (o->by == BY_PAGES && new_page && l->count >= o->limit) ||
		    (o->by == BY_TIME && l->started && ts - l->first_ts >= o->limit);

	if (!full)
		return 0;
	if (end_lane_piece(sp, l) < 0)
		return -1;
	if (!o->repeat)
		l->done = true;
	return 1;
}

/* Whether the current piece is full before a record at @ts: ends it if so. */
static int piece_full(struct split *sp, uint64_t ts)
{
	struct split_opts *o = sp->o;
	bool full;

	if (!sp->piece_started) {
		sp->piece_started = true;
		sp->piece_first = ts;
		return 0;
	}
	full = (o->by == BY_TIME && ts - sp->piece_first >= o->limit) ||
	       (o->by == BY_EVENTS && sp->piece_count >= o->limit);
	if (!full)
		return 0;
	if (end_piece(sp) < 0)
		return -1;
	if (!o->repeat)
		return 2;	/* the one piece is complete */
	sp->piece_started = true;
	sp->piece_first = ts;
	return 1;
}

/* A record is in the range when its exact time lies from START to END, as upstream keeps. */
static bool before_start(const struct split_opts *o, uint64_t ts)
{
	return ts < o->start;
}

static bool after_end(const struct split_opts *o, uint64_t ts)
{
	return o->end && ts > o->end;
}

/* One record of the merged stream: 0 to go on, 1 when no more are wanted, -1 on error. */
static int take(struct split *sp, struct tep_record *rec, int buffer)
{
	struct split_opts *o = sp->o;
	bool per_cpu = o->per_cpu;
	bool at_start = trace_input_record_at_page_start(rec);
	struct trace_input_raw raw;
	struct lane *l;
	int ret;

	if (!sp->lanes[buffer] || sp->lanes[buffer][rec->cpu].fd < 0)
		return 0;
	l = &sp->lanes[buffer][rec->cpu];
	trace_input_record_raw(rec, &raw);
	if (at_start)
		l->prev_end = sp->hdr;
	if (before_start(o, rec->ts) || l->done)
		goto seen;
	if (after_end(o, rec->ts))
		return 1;
	if (!per_cpu) {
		ret = piece_full(sp, rec->ts);
		if (ret < 0)
			return -1;
		if (ret == 2)
			return 1;
		sp->piece_count++;
	} else {
		ret = lane_piece_full(sp, l, rec->ts, at_start || !l->open);
		if (ret < 0)
			return -1;
		if (l->done)
			goto seen;
	}
	if (at_start && flush_page(sp, l) < 0)
		return -1;
	if (!l->open) {
		open_page(sp, l, &raw, at_start);
		if (o->by == BY_PAGES)
			l->count++;
	}
	append(sp, l, &raw);
	if (o->by == BY_EVENTS)
		l->count++;
	if (!l->started)
		l->first_ts = rec->ts;
	l->started = true;
seen:
	l->prev_end = raw.offset + raw.size;
	l->prev_ts = raw.raw_ts;
	return 0;
}

/* A temporary file holding bytes [from, to) of the lane's file. */
static int piece_file(struct lane *l, uint64_t from, uint64_t to)
{
	char path[] = "/tmp/trace-cmd-split.XXXXXX", buf[65536];
	int fd = mkstemp(path);

	if (fd < 0)
		return error("cannot create a temporary file: %s", strerror(errno));
	unlink(path);
	while (from < to) {
		size_t n = to - from < sizeof(buf) ? to - from : sizeof(buf);
		ssize_t got = pread(l->fd, buf, n, from);

		if (got <= 0 || write_all(fd, buf, got) < 0) {
			close(fd);
			return error("cannot copy a temporary file: %s", strerror(errno));
		}
		from += got;
	}
	return fd;
}

static size_t nr_pieces(struct split *sp)
{
	size_t n = 1;

	for (int b = 0; b < sp->nr_buffers; b++)
		for (int cpu = 0; sp->lanes[b] && cpu < trace_input_buffer_cpus(sp->in, b); cpu++)
			if (sp->lanes[b][cpu].nr_ends > n)
				n = sp->lanes[b][cpu].nr_ends;
	return n;
}

/* One piece's file: never the input, and nothing left of it if it fails. */
static int write_piece_file(struct split *sp, const char *name, const char *comp,
			    int *const *fds)
{
	const char *inputs[] = { sp->o->input, NULL };
	struct dat_buffer_out *bufs = xcalloc(sp->nr_buffers, sizeof(*bufs));
	int nr = 0, ret;
	struct outfile f;

	for (int b = 0; b < sp->nr_buffers; b++)
		if (fds[b])
			bufs[nr++] = (struct dat_buffer_out){ b, sp->out_name[b], fds[b] };
	ret = outfile_open(&f, name, inputs);
	if (ret == 0 && trace_dat_write_buffers(sp->in, &f, trace_input_version(sp->in) >= 7 ? 7 : 6,
						comp, bufs, nr) < 0) {
		outfile_abort(&f);
		ret = -1;
	}
	free(bufs);
	return ret < 0 ? -1 : outfile_commit(&f);
}

static int write_piece(struct split *sp, size_t k, const char *name)
{
	int **fds = xcalloc(sp->nr_buffers, sizeof(*fds)), ret = 0;
	const char *comp = trace_input_version(sp->in) >= 7 ? trace_input_compression(sp->in) : NULL;

	for (int b = 0; b < sp->nr_buffers; b++) {
		int cpus = trace_input_buffer_cpus(sp->in, b);

		if (!sp->lanes[b])
			continue;
		fds[b] = xcalloc(cpus ? cpus : 1, sizeof(int));
		for (int cpu = 0; cpu < cpus; cpu++) {
			struct lane *l = &sp->lanes[b][cpu];
			uint64_t from = k && k <= l->nr_ends ? l->ends[k - 1] : 0;
			uint64_t to = k < l->nr_ends ? l->ends[k] : from;

			if (k >= l->nr_ends && l->nr_ends)
				from = to = l->ends[l->nr_ends - 1];
			fds[b][cpu] = -1;
			if (l->fd >= 0 && to > from && ret == 0 && (fds[b][cpu] = piece_file(l, from, to)) < 0)
				ret = -1;
		}
	}
	if (ret == 0)
		ret = write_piece_file(sp, name, comp, fds);
	for (int b = 0; b < sp->nr_buffers; b++) {
		for (int cpu = 0; fds[b] && cpu < trace_input_buffer_cpus(sp->in, b); cpu++)
			if (fds[b][cpu] >= 0)
				close(fds[b][cpu]);
		free(fds[b]);
	}
	free(fds);
	return ret;
}

/*
 * The pieces of -r are OUT.0001, OUT.0002, ...; the one piece without it
 * is OUT itself, or FILE.1 when OUT is the input's name or not given (as 3.4).
 */
static int write_pieces(struct split *sp)
{
	const char *out = sp->o->output ? sp->o->output : sp->o->input;
	size_t n = sp->o->repeat ? nr_pieces(sp) : 1;

	for (size_t k = 0; k < n; k++) {
		size_t len = strlen(out) + 32;
		char *name = xmalloc(len);
		int ret;

		if (sp->o->repeat)
			snprintf(name, len, "%s.%04zu", out, k + 1);
		else if (!strcmp(out, sp->o->input))
			snprintf(name, len, "%s.1", out);
		else
			snprintf(name, len, "%s", out);
		ret = write_piece(sp, k, name);
		free(name);
		if (ret < 0)
			return -1;
	}
	return 0;
}

/* The last piece of each lane ends where its data ends. */
static int end_lanes(struct split *sp)
{
	for (int b = 0; b < sp->nr_buffers; b++)
		for (int cpu = 0; sp->lanes[b] && cpu < trace_input_buffer_cpus(sp->in, b); cpu++) {
			struct lane *l = &sp->lanes[b][cpu];

			if (l->fd >= 0 && (l->open || l->started) && end_lane_piece(sp, l) < 0)
				return -1;
		}
	return 0;
}

static void free_split(struct split *sp)
{
	for (int b = 0; sp->lanes && b < sp->nr_buffers; b++) {
		for (int cpu = 0; sp->lanes[b] && cpu < trace_input_buffer_cpus(sp->in, b); cpu++) {
			struct lane *l = &sp->lanes[b][cpu];

			if (l->fd >= 0)
				close(l->fd);
			free(l->ends);
			free(l->page);
		}
		free(sp->lanes[b]);
	}
	free(sp->lanes);
	free(sp->keep_buffer);
	free(sp->out_name);
	trace_input_close(sp->in);
}

static int split(struct split_opts *o)
{
	struct split sp = { .o = o };
	struct tep_record *rec;
	int buffer, ret;

	sp.in = trace_input_open(o->input, TRACE_INPUT_NO_PLUGINS);
	if (!sp.in)
		return -1;
	ret = setup(&sp);
	while (ret == 0 && (ret = trace_input_next(sp.in, &rec, &buffer)) > 0)
		ret = take(&sp, rec, buffer);
	if (ret >= 0)
		ret = end_lanes(&sp);
	if (ret >= 0)
		ret = write_pieces(&sp);
	free_split(&sp);
	return ret < 0 ? -1 : 0;
}

static int run_split(int argc, char **argv)
{
	struct split_opts o = { .input = "trace.dat", .cpu = -1 };
	int ret;

	if ((ret = parse_args(&o, argc, argv)) == PARSE_RUN)
		ret = split(&o) < 0 ? EXIT_FAILED : EXIT_OK;
	free(o.buffers);
	return ret;
}

const struct command cmd_split = {
	.name = "split",
	.run = run_split,
	.usage = split_usage,
	.summary = "split a trace.dat into smaller files by time, events or pages",
};
