// SPDX-License-Identifier: GPL-2.0
/*
 * attach: joins a guest's trace.dat to its host's after both were recorded,
 * as the agent would have: the host's kvm_entry/kvm_exit events tell which of
 * the given host tasks runs which vCPU (a GUEST option added to the host
 * file), and -s, or else their kvm_write_tsc_offset events, the guest's TSC
 * offsets (a TIME_SHIFT option, with the host's TSC2NSEC, added to the guest
 * file), so report -i HOST -i GUEST
 * merges them.  Options are added in a new v7 options section
 * (trace-cmd.dat.v7(5), OPTIONS SECTIONS), each file rewritten beside itself.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <traceevent/event-parse.h>

#include "trace-cmd.h"
#include "trace-append.h"
#include "trace-dat.h"
#include "trace-dat-out.h"
#include "trace-input.h"
#include "trace-outfile.h"
#include "trace-output.h"

extern const struct command cmd_attach;

#define MAX_GUEST_CPUS	4096
#define MAX_FRACTION	63	/* what the reader takes: a shift of a u64 */
#define TSC2NSEC_SIZE	16	/* u32 multiplier, u32 shift, u64 offset */

static const char attach_usage[] =
	"usage: trace-cmd attach [-c CPUS] [-s OFFSET[,SCALE[,FRAC[,TIMESTAMP]]]]... HOST_FILE GUEST_FILE VCPU_PID[,VCPU_PID...]...\n"
	"  -c CPUS    the guest's number of CPUs (default: the guest file's)\n"
	"  -s OFFSET[,SCALE[,FRAC[,TIMESTAMP]]]\n"
	"             a guest CPU's TSC offset to the host (host ticks = guest ticks + OFFSET),\n"
	"             scaling ratio (default 1), its fraction bits (default 0) and the guest\n"
	"             time it applies from (default 0); one per CPU, the last for the CPUs after\n"
	"  -h         show this help\n"
	"HOST_FILE was recorded with the kvm_entry or kvm_exit events and the tsc2nsec clock;\n"
	"VCPU_PID are host tasks, among them those that run the guest's vCPUs (and, for the\n"
	"offsets without -s, the one that wrote their TSC offsets: kvm_write_tsc_offset).\n";

static const struct option attach_longopts[] = {
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 }
};

/* A host task given on the command line, and the vCPU it was seen running. */
struct vcpu_task {
	int pid;
	int vcpu;	/* -1: no kvm event of this task yet */
};

/* One -s: host ticks = (guest ticks * scaling >> fraction) + offset, from timestamp. */
struct tsc_sample {
	int64_t offset;
	uint64_t scaling;
	uint64_t fraction;
	uint64_t timestamp;
};

/*
 * A kvm_write_tsc_offset of one of the tasks given: KVM set a vCPU's TSC
 * offset (guest ticks = host ticks + offset) at host tick @ts.
 */
struct tsc_write {
	int vcpu;
	uint64_t ts;
	uint64_t prev, next;
};

struct attach {
	const char *host_file, *guest_file;
	struct vcpu_task *tasks;
	int nr_tasks;
	struct tsc_sample *samples;
	int nr_samples;
	unsigned long guest_cpus;	/* -c; 0: the guest file's CPU count */
	struct tsc_write *writes;	/* without -s, in time order */
	int nr_writes;
};

/* The host's kvm event fields the walk reads; NULL where the file has no such event. */
struct kvm_fields {
	struct tep_format_field *entry, *exit;		/* vcpu_id */
	struct tep_format_field *tsc_vcpu, *tsc_prev, *tsc_next;
	int tsc_id;
};

/* One field of -s; an empty or missing one leaves *@out, its default. */
static int parse_sample_field(const char *name, const char *arg, uint64_t max, uint64_t *out)
{
	unsigned long v;

	if (!arg || !*arg)
		return 0;
	if (parse_ulong(name, arg, 0, max, &v) < 0)
		return -1;
	*out = v;
	return 0;
}

static int parse_sample(struct attach *at, const char *arg)
{
	struct tsc_sample s = { .scaling = 1 };
	char *copy = xstrdup(arg), *field[5] = { 0 }, *p = copy;
	int n = 0, ret = -1;
	long offset;

	while (n < 5 && p) {
		field[n++] = p;
		p = strchr(p, ',');
		if (p)
			*p++ = '\0';
	}
	if (n > 4)
		error("invalid -s value '%s': more than offset, scale, fraction and timestamp", arg);
	else if (parse_long("-s offset", field[0], LONG_MIN, LONG_MAX, &offset) == 0 &&
		 parse_sample_field("-s scale", field[1], ULONG_MAX, &s.scaling) == 0 &&
		 parse_sample_field("-s fraction", field[2], MAX_FRACTION, &s.fraction) == 0 &&
		 parse_sample_field("-s timestamp", field[3], ULONG_MAX, &s.timestamp) == 0) {
		s.offset = offset;
		at->samples = xrealloc(at->samples, sizeof(*at->samples) * (at->nr_samples + 1));
		at->samples[at->nr_samples++] = s;
		ret = 0;
	}
	free(copy);
	return ret;
}

/* Each argument is one pid or a comma-separated list of them (3.4's usage shows both). */
static int parse_pids(struct attach *at, const char *arg)
{
	char *copy = xstrdup(arg), *save = NULL;
	int ret = 0;

	if (!*arg || arg[strlen(arg) - 1] == ',' || strstr(arg, ",,") || *arg == ',')
		ret = error("invalid vCPU pid list '%s': an empty pid", arg);
	for (char *p = strtok_r(copy, ",", &save); p && !ret; p = strtok_r(NULL, ",", &save)) {
		unsigned long pid;

		if (parse_ulong("vCPU pid", p, 1, INT_MAX, &pid) < 0) {
			ret = -1;
			break;
		}
		at->tasks = xrealloc(at->tasks, sizeof(*at->tasks) * (at->nr_tasks + 1));
		at->tasks[at->nr_tasks++] = (struct vcpu_task){ .pid = pid, .vcpu = -1 };
	}
	free(copy);
	return ret;
}

static int parse(struct attach *at, int argc, char **argv)
{
	int c;

	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":hc:s:", attach_longopts, NULL)) != -1) {
		switch (c) {
		case 'h':
			return show_usage(&cmd_attach);
		case 'c':
			if (parse_ulong("-c", optarg, 1, MAX_GUEST_CPUS, &at->guest_cpus) < 0)
				return usage_follows(&cmd_attach);
			break;
		case 's':
			if (parse_sample(at, optarg) < 0)
				return usage_follows(&cmd_attach);
			break;
		default:
			return option_error(&cmd_attach, argv, c);
		}
	}
	if (argc - optind < 3)
		return usage_error(&cmd_attach, "needs HOST_FILE, GUEST_FILE and at least one VCPU_PID");
	if (at->guest_cpus && !at->nr_samples)
		return usage_error(&cmd_attach, "-c needs -s: the offsets of the guest's CPUs");
	if (at->guest_cpus && (unsigned long)at->nr_samples > at->guest_cpus)
		return usage_error(&cmd_attach, "%d -s given for %lu guest CPUs", at->nr_samples,
				   at->guest_cpus);
	at->host_file = argv[optind++];
	at->guest_file = argv[optind++];
	for (; optind < argc; optind++)
		if (parse_pids(at, argv[optind]) < 0)
			return usage_follows(&cmd_attach);
	return PARSE_RUN;
}

/* The @nth option @id of @in as a u64 (TRACEID), 0 when missing. */
static uint64_t option_u64(struct trace_input *in, int id)
{
	size_t len;
	const void *p = trace_input_option(in, id, 0, &len);
	uint64_t v = 0;

	if (p && len >= sizeof(v))
		memcpy(&v, p, sizeof(v));
	return v;
}

static struct vcpu_task *find_task(struct attach *at, int pid)
{
	for (int i = 0; i < at->nr_tasks; i++)
		if (at->tasks[i].pid == pid)
			return &at->tasks[i];
	return NULL;
}

/* Field @field of kvm event @name; its event id goes in @ids. */
static struct tep_format_field *kvm_field(struct trace_input *in, const char *name,
					  const char *field, unsigned char *ids)
{
	struct tep_event *ev = trace_input_event_by_name(in, "kvm", name);
	struct tep_format_field *f = ev ? tep_find_field(ev, field) : NULL;

	if (f)
		ids[ev->id & 0xffff] = 1;
	return f;
}

/*
 * The fields to read; kvm_write_tsc_offset only without -s, the offsets
 * then coming from the host file.
 */
static void find_kvm_fields(struct attach *at, struct trace_input *in, struct kvm_fields *k,
			    unsigned char *ids)
{
	memset(k, 0, sizeof(*k));
	k->tsc_id = -1;
	k->entry = kvm_field(in, "kvm_entry", "vcpu_id", ids);
	k->exit = kvm_field(in, "kvm_exit", "vcpu_id", ids);
	if (at->nr_samples)
		return;
	k->tsc_vcpu = kvm_field(in, "kvm_write_tsc_offset", "vcpu_id", ids);
	k->tsc_prev = kvm_field(in, "kvm_write_tsc_offset", "previous_tsc_offset", ids);
	k->tsc_next = kvm_field(in, "kvm_write_tsc_offset", "next_tsc_offset", ids);
	if (k->tsc_vcpu && k->tsc_prev && k->tsc_next)
		k->tsc_id = k->tsc_vcpu->event->id;
}

static void note_tsc_write(struct attach *at, const struct kvm_fields *k, struct tep_record *rec)
{
	unsigned long long vcpu, prev, next;

	if (tep_read_number_field(k->tsc_vcpu, rec->data, &vcpu) < 0 || vcpu > INT_MAX ||
	    tep_read_number_field(k->tsc_prev, rec->data, &prev) < 0 ||
	    tep_read_number_field(k->tsc_next, rec->data, &next) < 0)
		return;
	at->writes = xrealloc(at->writes, sizeof(*at->writes) * (at->nr_writes + 1));
	at->writes[at->nr_writes++] = (struct tsc_write){ vcpu, rec->ts, prev, next };
}

/*
 * Each task's vCPU is the vcpu_id of its first kvm_entry or kvm_exit, in
 * time order; the walk stops once every task has one, unless it also
 * collects the tasks' kvm_write_tsc_offset events (@in gives raw ticks).
 */
static int scan_host(struct attach *at, struct trace_input *in)
{
	unsigned char *ids = xcalloc(65536, 1);
	struct kvm_fields k;
	int left = at->nr_tasks, ret = 0, buffer;
	struct tep_record *rec;

	find_kvm_fields(at, in, &k, ids);
	if (!k.entry && !k.exit) {
		free(ids);
		return error("'%s' has no kvm_entry or kvm_exit events with a vcpu_id: record the host with -e kvm",
			     at->host_file);
	}
	trace_input_only_ids(in, ids);
	while ((left || k.tsc_id >= 0) && (ret = trace_input_next(in, &rec, &buffer)) > 0) {
		struct vcpu_task *t = find_task(at, trace_input_record_pid(in, rec));
		int id = trace_input_record_type(in, rec);
		struct tep_format_field *f = k.entry;
		unsigned long long vcpu;

		if (buffer || !t)
			continue;
		if (id == k.tsc_id) {
			note_tsc_write(at, &k, rec);
			continue;
		}
		if (t->vcpu >= 0)
			continue;
		if (!k.entry || (k.exit && id == k.exit->event->id))
			f = k.exit;
		if (tep_read_number_field(f, rec->data, &vcpu) < 0 || vcpu > INT_MAX)
			continue;
		t->vcpu = vcpu;
		left--;
	}
	free(ids);
	return ret < 0 ? -1 : 0;
}

/* At least one task runs a vCPU, and no vCPU is run by two tasks (of two guests?). */
static int check_vcpus(const struct attach *at)
{
	int found = 0;

	for (int i = 0; i < at->nr_tasks; i++) {
		const struct vcpu_task *t = &at->tasks[i];

		if (t->vcpu < 0)
			continue;
		found++;
		for (int j = 0; j < i; j++)
			if (at->tasks[j].vcpu == t->vcpu && at->tasks[j].pid != t->pid)
				return error("'%s': tasks %d and %d both run vCPU %d (tasks of two guests?)",
					     at->host_file, at->tasks[j].pid, t->pid, t->vcpu);
	}
	if (!found)
		return error("'%s': none of the tasks given has a kvm_entry or kvm_exit event: not the guest's vCPU pids?",
			     at->host_file);
	return 0;
}

static int cmp_vcpu(const void *a, const void *b)
{
	const struct vcpu_task *x = a, *y = b;

	return (x->vcpu > y->vcpu) - (x->vcpu < y->vcpu);
}

/* Whether the host's GUEST options already map @guest_id (name, then its u64 id). */
static int host_maps_guest(struct trace_input *host, uint64_t guest_id)
{
	const char *p;
	size_t len;

	for (int n = 0; (p = trace_input_option(host, TRACE_OPT_GUEST, n, &len)); n++) {
		const char *nul = memchr(p, '\0', len);
		uint64_t id;

		if (!nul || (size_t)(nul + 1 - p) + sizeof(id) > len)
			continue;
		memcpy(&id, nul + 1, sizeof(id));
		if (id == guest_id)
			return 1;
	}
	return 0;
}

/* GUEST: an empty name (as 3.4), the guest's trace id, then (vCPU, host pid) by vCPU. */
static void guest_option(struct attach *at, uint64_t guest_id, struct membuf *m)
{
	uint32_t n = 0;

	qsort(at->tasks, at->nr_tasks, sizeof(*at->tasks), cmp_vcpu);
	for (int i = 0; i < at->nr_tasks; i++)
		n += at->tasks[i].vcpu >= 0;
	mb_add(m, "", 1);
	mb_u64(m, guest_id);
	mb_u32(m, n);
	for (int i = 0; i < at->nr_tasks; i++) {
		if (at->tasks[i].vcpu < 0)
			continue;
		mb_u32(m, at->tasks[i].vcpu);
		mb_u32(m, at->tasks[i].pid);
	}
}

/* CPU @cpu's -s: its own, or the last one given for the CPUs after. */
static const struct tsc_sample *sample_of(const struct attach *at, uint32_t cpu)
{
	return &at->samples[cpu < (uint32_t)at->nr_samples ? (int)cpu : at->nr_samples - 1];
}

/* TIME_SHIFT starts with the host's trace id, flags 0 (steps), the CPU count. */
static void time_shift_header(struct membuf *m, uint64_t host_id, uint32_t cpus)
{
	mb_u64(m, host_id);
	mb_u32(m, 0);
	mb_u32(m, cpus);
}

/* TIME_SHIFT from -s: one sample per CPU, then each CPU's fraction bits. */
static void time_shift_option(const struct attach *at, uint64_t host_id, uint32_t cpus,
			      struct membuf *m)
{
	time_shift_header(m, host_id, cpus);
	for (uint32_t cpu = 0; cpu < cpus; cpu++) {
		mb_u32(m, 1);
		mb_u64(m, sample_of(at, cpu)->timestamp);
		mb_u64(m, sample_of(at, cpu)->offset);
		mb_u64(m, sample_of(at, cpu)->scaling);
	}
	for (uint32_t cpu = 0; cpu < cpus; cpu++)
		mb_u64(m, sample_of(at, cpu)->fraction);
}

/* How many of the kvm_write_tsc_offset events are of vCPU @vcpu. */
static uint32_t writes_of(const struct attach *at, uint32_t vcpu)
{
	uint32_t n = 0;

	for (int i = 0; i < at->nr_writes; i++)
		n += at->writes[i].vcpu == (int)vcpu;
	return n;
}

/*
 * One column of vCPU @cpu's samples from its writes (0: guest ticks, 1:
 * offsets, 2: scalings): the offset before its first write from guest tick
 * 0, each write's from the guest tick it was made at, and the last one's
 * again at the largest time (signed: 3.4 sorts the times so), as readers
 * (3.4's too) take a step from a sample only when another follows it.
 */
static void write_column(const struct attach *at, uint32_t cpu, int col, struct membuf *m)
{
	const struct tsc_write *last = NULL;

	for (int i = 0; i < at->nr_writes; i++) {
		const struct tsc_write *w = &at->writes[i];

		if (w->vcpu != (int)cpu)
			continue;
		if (!last)
			mb_u64(m, col == 0 ? 0 : col == 1 ? -w->prev : 1);
		mb_u64(m, col == 0 ? w->ts + w->next : col == 1 ? -w->next : 1);
		last = w;
	}
	mb_u64(m, col == 0 ? INT64_MAX : col == 1 ? -last->next : 1);
}

/*
 * TIME_SHIFT from the host's kvm_write_tsc_offset events, as steps (flags
 * 0), scaling 1 as the events do not say; a vCPU with no write has no
 * sample and keeps its own clock.
 */
static void time_shift_from_writes(const struct attach *at, uint64_t host_id, uint32_t cpus,
				   struct membuf *m)
{
	time_shift_header(m, host_id, cpus);
	for (uint32_t cpu = 0; cpu < cpus; cpu++) {
		uint32_t n = writes_of(at, cpu);

		if (!n)
			warning("'%s': vCPU %u has no kvm_write_tsc_offset event of the tasks given: its clock is left as it is",
				at->host_file, cpu);
		mb_u32(m, n ? n + 2 : 0);
		for (int col = 0; col < 3 && n; col++)
			write_column(at, cpu, col, m);
	}
	for (uint32_t cpu = 0; cpu < cpus; cpu++)
		for (uint32_t i = 0, n = writes_of(at, cpu); n && i < n + 2; i++)
			mb_u64(m, 0);
}

static int host_rewrite(struct attach *at, struct trace_input *host, uint64_t guest_id,
			struct append *rw)
{
	struct membuf m = { 0 };

	if (append_begin(rw, at->host_file, host) < 0)
		return -1;
	guest_option(at, guest_id, &m);
	trace_output_add_option(rw->writer, TRACE_OPT_GUEST, m.data, m.len);
	free(m.data);
	return append_finish(rw);
}

static int guest_rewrite(struct attach *at, struct trace_input *host, struct trace_input *guest,
			 struct append *rw)
{
	struct membuf m = { 0 };
	size_t len;
	const void *tsc2nsec = trace_input_option(host, TRACE_OPT_TSC2NSEC, 0, &len);
	uint32_t cpus = !at->nr_samples && !at->nr_writes ? 0 :
			at->guest_cpus ? at->guest_cpus : (uint32_t)trace_input_cpus(guest);
	uint64_t host_id = option_u64(host, TRACE_OPT_TRACEID);

	if (at->nr_samples > (int)cpus)
		return error("'%s': %d -s given for its %u CPUs", at->guest_file, at->nr_samples,
			     cpus);
	if (append_begin(rw, at->guest_file, guest) < 0)
		return -1;
	if (at->nr_samples)
		time_shift_option(at, host_id, cpus, &m);
	else
		time_shift_from_writes(at, host_id, cpus, &m);
	trace_output_add_option(rw->writer, TRACE_OPT_TIME_SHIFT, m.data, m.len);
	trace_output_add_option(rw->writer, TRACE_OPT_TSC2NSEC, tsc2nsec, len);
	free(m.data);
	return append_finish(rw);
}

/* What makes the pair unfit, before anything is written. */
static int check_pair(struct attach *at, struct trace_input *host, struct trace_input *guest)
{
	struct stat hs, gs;
	size_t len;

	if (stat(at->host_file, &hs) == 0 && stat(at->guest_file, &gs) == 0 &&
	    hs.st_dev == gs.st_dev && hs.st_ino == gs.st_ino)
		return error("'%s' and '%s' are the same file", at->host_file, at->guest_file);
	if (!option_u64(guest, TRACE_OPT_TRACEID))
		return error("'%s' has no trace id (TRACEID option) for its host to name it by",
			     at->guest_file);
	if (trace_input_option(guest, TRACE_OPT_TIME_SHIFT, 0, &len))
		return error("'%s' is already attached to a host (it has a TIME_SHIFT option)",
			     at->guest_file);
	if (!trace_input_option(host, TRACE_OPT_TSC2NSEC, 0, &len) || len != TSC2NSEC_SIZE)
		return error("'%s' has no TSC2NSEC option: record the host with -C tsc2nsec",
			     at->host_file);
	return 0;
}

/*
 * Both files are complete beside their originals before either is renamed;
 * the host goes first, so a failure between the two renames leaves a guest
 * that a second attach still takes (the host, already mapping it, is kept).
 */
static int attach_files(struct attach *at, struct trace_input *host, struct trace_input *guest)
{
	uint64_t guest_id = option_u64(guest, TRACE_OPT_TRACEID);
	struct append hw = { 0 }, gw = { 0 };
	int mapped;

	if (check_pair(at, host, guest) < 0 || scan_host(at, host) < 0 || check_vcpus(at) < 0)
		return -1;
	mapped = host_maps_guest(host, guest_id);
	if (mapped)
		warning("'%s' already maps the guest %#llx: left as it is", at->host_file,
			(unsigned long long)guest_id);
	if (!mapped && host_rewrite(at, host, guest_id, &hw) < 0)
		return -1;
	if (guest_rewrite(at, host, guest, &gw) < 0) {
		if (!mapped)
			outfile_abort(&hw.out);
		return -1;
	}
	if (!mapped && outfile_commit(&hw.out) < 0) {
		outfile_abort(&gw.out);
		return -1;
	}
	return outfile_commit(&gw.out);
}

static int run_attach(int argc, char **argv)
{
	struct attach at = { 0 };
	struct trace_input *host = NULL, *guest = NULL;
	int ret = parse(&at, argc, argv);

	if (ret == PARSE_RUN) {
		ret = EXIT_FAILED;
		host = append_open(at.host_file);
		guest = host ? append_open(at.guest_file) : NULL;
		if (guest && attach_files(&at, host, guest) == 0)
			ret = EXIT_OK;
	}
	trace_input_close(guest);
	trace_input_close(host);
	free(at.tasks);
	free(at.samples);
	free(at.writes);
	return ret;
}

const struct command cmd_attach = {
	"attach", run_attach, attach_usage,
	"add a guest's file to its host's, mapping its vCPUs and clock"
};
