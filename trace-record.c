// SPDX-License-Identifier: GPL-2.0
/*
 * trace-cmd record: parse the options into a plan, set tracefs up, fork one
 * recorder per CPU and the traced command, stop when it exits (or on SIGINT
 * or SIGTERM), write trace.dat from the recorders' files, print the kernel's
 * buffer statistics, and put tracefs back as it was on every path.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "trace-cmd.h"
#include "trace-buffer-plan.h"
#include "trace-compress.h"
#include "trace-early.h"
#include "trace-exec.h"
#include "trace-ftrace-setup.h"
#include "trace-outfile.h"
#include "trace-pidwatch.h"
#include "trace-output.h"
#include "trace-prefetch.h"
#include "trace-proc-map.h"
#include "trace-record.h"
#include "trace-record-agent.h"
#include "trace-record-instances.h"
#include "trace-record-net.h"
#include "trace-profile.h"
#include "trace-record-profile.h"
#include "trace-recorder.h"
#include "trace-ringbuf.h"
#include "trace-tracefs.h"
#include "trace-tsc.h"

extern const struct command cmd_record;

static const char record_usage[] =
	"usage: trace-cmd record -e EVENT [-e EVENT]... [-B NAME [-e EVENT]...]... [-o FILE]\n"
	"                        [-b KB] [--pin] [-r PRIO] [--file-version 6|7]\n"
	"                        [--compression none|zlib|zstd|any] [-N HOST:PORT [-t] [--v1]]\n"
	"                        [-A [NAME@]HOST:PORT|[NAME@]CID[:PORT] [--name NAME] [-e EVENT]...]...\n"
	"                        [--daemonize] [COMMAND [ARG]...]\n"
	"  -e EVENT            record EVENT: an event name, SYSTEM:EVENT, a SYSTEM, or all;\n"
	"                      globs as in 'sched:sched_s*' (repeatable)\n"
	"  -B NAME             record the instance NAME too (created if missing, removed\n"
	"                      after); -e -f -R -v -p -C -O -T after it apply to it\n"
	"  -a                  save the formats of all events, not only the recorded ones\n"
	"  -f FILTER           only the events of the -e before it that match FILTER\n"
	"  -R TRIGGER          set TRIGGER on the events of the -e before it\n"
	RECORD_TRACER_USAGE
	"  -C CLOCK            the trace clock (from trace_clock) while recording\n"
	"  -O OPTION           turn trace option OPTION on, or off as -O noOPTION\n"
	"  -M CPUMASK          trace only the CPUs of the hex CPUMASK (tracing_cpumask)\n"
	"  -T                  a stack trace with each event (options/stacktrace)\n"
	"  --cmdlines-size N   how many command names the kernel keeps (saved_cmdlines_size)\n"
	"  -q, --quiet         quiet: no buffer statistics at the end\n"
	"  --verbose[=LEVEL]   how much to say: none crit err warn (the default) info\n"
	"                      debug all, or 0 to 6; alone: info (each recorder and how it reads)\n"
	"  --debug             --verbose=debug, and -N waits on the listener without a timeout\n"
	"  --stderr            what record prints on stdout goes to stderr (COMMAND's stdout\n"
	"                      is left as it is)\n"
	"  --daemonize         once recording has started, go on in the background; the\n"
	"                      pid goes in /var/run/trace-cmd-record.pid until SIGINT or\n"
	"                      SIGTERM ends it and trace.dat is written\n"
	"  -d                  keep the function tracer off (options/function-trace)\n"
	"  -D                  -d and /proc/sys/kernel/ftrace_enabled off as well\n"
	"  --user USER         run COMMAND as USER\n"
	"  --temp DIR          the per-CPU temporary files go in DIR\n"
	"  -v                  the -e after it takes its events out (-e sched -v -e sched_switch)\n"
	"  -i                  an -e that matches no event is a warning, not an error\n"
	"  --no-filter         record trace-cmd's own processes' events too\n"
	"  --date              record the wall-clock offset: report shows dates\n"
	"  --ts-offset N       report adds N (in the clock's units) to every timestamp\n"
	"                      (an OFFSET option; not with --date)\n"
	"  --proc-map          save the address maps of COMMAND (at its exit) and of each -P PID\n"
	"  -k                  keep the tracefs settings after recording (no restore)\n"
	"  -K                  do not clear the buffers before recording: keep what they hold\n"
	"  -o FILE             write the trace to FILE (default trace.dat)\n"
	"  -N HOST:PORT        send the trace to 'trace-cmd listen' at HOST:PORT, not to a file\n"
	"  -t                  with -N, TCP data channels instead of UDP\n"
	"  --v1                with -N, speak protocol v1 only (file version 6)\n"
	"  --notimeout         with -N, wait on the listener's replies for ever (not 5 s)\n"
	"  -A [NAME@]HOST:PORT also record the machine whose 'trace-cmd agent' listens at\n"
	"                      HOST:PORT (TCP) or CID[:PORT] (vsock, port 823 by default)\n"
	"                      into trace-NAME.dat (NAME: HOST or CID unless given);\n"
	"                      -e -f -R -v -p -l -n -g -O -T -M -C -b -s -d -D -i after it\n"
	"                      (until a -B) are its own\n"
	"  --name NAME         after -A: the guest's name, in its file's name\n"
	"  --tsync-interval MS sync the guests' clocks with ptp every MS ms (0: at the start\n"
	"                      and end only, the default; negative: no time sync)\n"
	"  --tsc2nsec          store the kernel's TSC to nanoseconds conversion (perf's)\n"
	"  --proxy CID:PORT    in a guest: the host's agent -P traces the host for it into\n"
	"                      OUTPUT-CID.dat; the options after it are that agent's\n"
	"  -b KB               ring buffer size per CPU in KB while recording (restored after),\n"
	"                      for the top buffer and every -B instance\n"
	"  --subbuf-size KB    the ring buffers' sub-buffer (page) size in KB while recording\n"
	"  -s USECS            recorders wake every USECS to take what the buffers hold,\n"
	"                      instead of sleeping until the kernel wakes them (0: that)\n"
	"  --poll              recorders never wait on the kernel: no wake-up IPIs, but\n"
	"                      they busy-poll (a CPU each) unless -s spaces the checks\n"
	"  -m KB               keep only the newest KB/2 to KB of data per CPU\n"
	"  --nosplice          recorders copy pages with read(2) and write(2), not splice(2)\n"
	"  --profile           record what report --profile reads: scheduler, interrupt,\n"
	"                      syscall and page-fault events, stacks with each switch and\n"
	"                      wakeup, and function_graph at depth 1 (where the kernel has it)\n"
	"  -S                  with --profile: only the -e events given, not the profile's own\n"
	"  -H HOOK             keep HOOK in the file for report --profile (repeatable):\n"
	"                      [sys:]start,match[,pid]/[sys:]end,match[,flags]\n"
	"  -G, --by-comm       report --profile's and profile's: refused here, as record\n"
	"                      keeps no such setting in its file\n"
	"  --nofifos           accepted as 3.4's: its fifos are for guests on this machine's\n"
	"                      vsock; -A reads them over sockets here, so nothing changes\n"
	"  --pin               run each recorder on the CPU it records\n"
	"  -r PRIO             run the recorders at real-time priority PRIO (SCHED_FIFO 1-99)\n"
	"  --file-version N    the trace.dat version to write: 6 or 7 (default 7)\n"
	"  --compression C     version 7 compression: none, zlib, zstd or any, the best\n"
	"                      built in (default any, which is zstd)\n"
	"  -h                  show this help\n"
	"Records until COMMAND exits, or with no COMMAND until SIGINT (Ctrl-C) or SIGTERM.\n";

enum { OPT_FILE_VERSION = 256, OPT_PIN, OPT_COMPRESSION = 300 };
enum { OPT_TEMP = 0x2000, OPT_DATE, OPT_PROC_MAP, OPT_NET_V1, OPT_POLL, OPT_QUIET, OPT_VERBOSE,
       OPT_DEBUG, OPT_STDERR, OPT_DAEMONIZE, OPT_TS_OFFSET, OPT_NOTIMEOUT, OPT_NOSPLICE,
       OPT_NOFIFOS, OPT_NAME, OPT_TSYNC_INTERVAL, OPT_TSC2NSEC, OPT_PROFILE, OPT_BY_COMM,
       OPT_PROXY };	/* after the module options (trace-ftrace-setup.h) */

static const struct option record_options[] = {
	{ "file-version", required_argument, NULL, OPT_FILE_VERSION },
	{ "compression", required_argument, NULL, OPT_COMPRESSION },
	{ "module", required_argument, NULL, FTRACE_OPT_MODULE },
	{ "max-graph-depth", required_argument, NULL, FTRACE_OPT_MAX_GRAPH_DEPTH },
	{ "func-stack", no_argument, NULL, FTRACE_OPT_FUNC_STACK },
	{ "cmdlines-size", required_argument, NULL, FTRACE_OPT_CMDLINES_SIZE },
	{ "user", required_argument, NULL, FTRACE_OPT_USER },
	{ "temp", required_argument, NULL, OPT_TEMP },
	{ "date", no_argument, NULL, OPT_DATE },
	{ "proc-map", no_argument, NULL, OPT_PROC_MAP },
	{ "no-filter", no_argument, NULL, FTRACE_OPT_NO_FILTER },
	{ "pin", no_argument, NULL, OPT_PIN },
	{ "v1", no_argument, NULL, OPT_NET_V1 },
	{ "poll", no_argument, NULL, OPT_POLL },
	{ "subbuf-size", required_argument, NULL, BUFFER_OPT_SUBBUF_SIZE },
	{ "quiet", no_argument, NULL, OPT_QUIET },
	{ "verbose", optional_argument, NULL, OPT_VERBOSE },
	{ "debug", no_argument, NULL, OPT_DEBUG },
	{ "stderr", no_argument, NULL, OPT_STDERR },
	{ "daemonize", no_argument, NULL, OPT_DAEMONIZE },
	{ "ts-offset", required_argument, NULL, OPT_TS_OFFSET },
	{ "notimeout", no_argument, NULL, OPT_NOTIMEOUT },
	{ "nosplice", no_argument, NULL, OPT_NOSPLICE },
	{ "nofifos", no_argument, NULL, OPT_NOFIFOS },
	{ "name", required_argument, NULL, OPT_NAME },
	{ "tsync-interval", required_argument, NULL, OPT_TSYNC_INTERVAL },
	{ "tsc2nsec", no_argument, NULL, OPT_TSC2NSEC },
	{ "proxy", required_argument, NULL, OPT_PROXY },
	{ "profile", no_argument, NULL, OPT_PROFILE },
	{ "by-comm", no_argument, NULL, OPT_BY_COMM },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* What the options asked for. */
struct record_plan {
	const struct command *cmd;	/* record, or stream */
	const struct record_live *live;	/* stream: the reader that replaces the file */
	const char *output;
	int version;
	const char *compression;	/* --compression, NULL: the version's default */
	struct rec_instances *instances;	/* -B NAME and what follows each */
	int all_formats;	/* -a: every event's format in the file */
	struct buffer_plan top;	/* the top buffer: -e, -p, -b, function and event filters */
	int quiet;		/* -q */
	const char *temp_dir;	/* --temp: the recorders' files go there */
	int keep;		/* -k: leave tracefs set up after a complete recording */
	int date;		/* --date: a DATE option, so report shows wall-clock times */
	const char *ts_offset;	/* --ts-offset: an OFFSET option, checked to be a number */
	int daemonize;		/* --daemonize: on in the background once recording */
	int saved_stdout;	/* --stderr: the real stdout, for COMMAND; -1 without */
	int nofifos;		/* --nofifos: said at --verbose, nothing to change */
	int profile;		/* --profile: what report --profile reads */
	int profile_manual;	/* -S: only the -e given, with --profile */
	const char **hooks;	/* -H: HOOK options for report --profile */
	int nr_hooks;
	int proc_map;		/* --proc-map: a PROCMAPS option */
	int pin;		/* --pin: each recorder on its own CPU */
	int rt_prio;		/* -r: SCHED_FIFO priority, 0 for none */
	struct recorder_opts recorder;	/* -s, --poll, -m (max_bytes) */
	char **argv;		/* the command and its arguments, or NULL */
	struct record_net_opts net;	/* -N, -t, --v1 */
	struct record_guests *guests;	/* -A and the options after each */
	const char *tsc2nsec;	/* --tsc2nsec or -C tsc2nsec (which): a TSC2NSEC option */
	struct tsc_conv tsc;	/* its multiplier and shift, read from perf */
};

/* What the run holds, so one cleanup path can undo any of it. */
struct record_run {
	struct record_plan *plan;
	struct tfs_events *events;
	struct tfs_saved *saved;
	struct outfile out;	/* until written or abandoned; out_open says which */
	int out_open;
	int out_written;	/* trace.dat is complete: keep it whatever the status */
	int nr_cpus;
	size_t page_size;
	char **tmp_paths;
	int *tmp_fds;
	pid_t *recorders;
	int recorder_died;	/* a recorder was killed: the file has a gap, exit 1 */
	char *cmd_path;
	pid_t child;
	int child_status;
	int interrupted_early;	/* a signal came before the command started */
	char **stats;		/* per_cpu/cpuN/stats after the stop */
	struct proc_maps *maps;	/* --proc-map: what was read (the command is seized) */
	struct record_net *net;	/* -N: the listener instead of the output file */
	uint64_t host_id;	/* -A: the host file's trace id, told to each agent */
	int live_open;		/* stream: its reader is open */
	int live_status;	/* stream: -1 it failed, 1 its output is gone */
	struct early_compress *early;	/* v7: the top buffer's chunks compressed meanwhile */
	struct prefetch *prefetch;	/* the metadata, read meanwhile */
	int ready_fd;		/* --daemonize: tells the foreground process we record, or -1 */
	int pidfile_written;	/* --daemonize: RECORD_PIDFILE is ours to remove */
};

static volatile sig_atomic_t stop_signal;

/* --daemonize: where the background record's pid is while it records, as upstream's. */
#define RECORD_PIDFILE "/var/run/trace-cmd-record.pid"

static void on_signal(int sig)
{
	stop_signal = sig;
}

/* The options that only make sense with a file or recorders: stream has neither. */
static const char *file_option_name(int c)
{
	switch (c) {
	case 'o': return "-o";
	case 'r': return "-r";
	case OPT_PIN: return "--pin";
	case OPT_FILE_VERSION: return "--file-version";
	case OPT_COMPRESSION: return "--compression";
	case OPT_TEMP: return "--temp";
	case OPT_DATE: return "--date";
	case OPT_PROC_MAP: return "--proc-map";
	case OPT_TS_OFFSET: return "--ts-offset";
	case OPT_DAEMONIZE: return "--daemonize";
	case OPT_NOSPLICE: return "--nosplice";
	case 'm': return "-m";
	case 'a': return "-a";
	}
	return NULL;
}

/* The options stream does not take: they are about record's file, recorders or -N. */
static const char *record_only_name(int c)
{
	switch (c) {
	case OPT_DEBUG: return "--debug";
	case OPT_STDERR: return "--stderr";
	case OPT_NOTIMEOUT: return "--notimeout";
	case OPT_NOFIFOS: return "--nofifos";
	case OPT_PROFILE: return "--profile";
	case OPT_BY_COMM: return "--by-comm";
	case OPT_TSYNC_INTERVAL: return "--tsync-interval";
	}
	return NULL;
}

/*
 * --ts-offset: a signed number, decimal or 0x hex, which report reads with
 * base 0 (trace-cmd.dat.v7(5), OPTION IDS).  0, or -1 after printing why.
 */
static int check_ts_offset(const char *arg)
{
	char *end;

	errno = 0;
	strtoll(arg, &end, 0);
	if (!*arg || *end || isspace((unsigned char)*arg))
		return error("invalid --ts-offset value '%s': not a number", arg);
	if (errno == ERANGE)
		return error("invalid --ts-offset value '%s': out of range", arg);
	return 0;
}

/*
 * --stderr, as upstream's: record's own stdout becomes its stderr, and
 * COMMAND gets the real one back (start_command).
 */
static int stdout_to_stderr(struct record_plan *plan)
{
	if (plan->saved_stdout >= 0)
		return 0;
	fflush(stdout);
	plan->saved_stdout = fcntl(1, F_DUPFD_CLOEXEC, 3);
	if (plan->saved_stdout < 0 || dup2(2, 1) < 0)
		return error("--stderr: cannot redirect stdout: %s", strerror(errno));
	return 0;
}

/* -b, -s, -m, -r and --file-version: PARSE_RUN, or EXIT_USAGE (printed). */
static int number_option(struct record_plan *plan, int c, const char *arg)
{
	unsigned long val;

	switch (c) {
	case 'b':
		if (parse_ulong("-b", arg, 1, 1UL << 30, &plan->top.size_kb) < 0)
			return usage_follows(plan->cmd);
		break;
	case 's':
		if (parse_ulong("-s", arg, 0, 10000000, &plan->recorder.sleep_usecs) < 0)
			return usage_follows(plan->cmd);
		break;
	case 'm':
		if (parse_ulong("-m", arg, 1, 1UL << 30, &val) < 0)
			return usage_follows(plan->cmd);
		plan->recorder.max_bytes = val * 1024ULL;
		break;
	case 'r':
		if (parse_ulong("-r", arg, 1, 99, &val) < 0)
			return usage_follows(plan->cmd);
		plan->rt_prio = val;
		break;
	case OPT_FILE_VERSION:
		if (parse_ulong("--file-version", arg, 1, 1000, &val) < 0)
			return usage_follows(plan->cmd);
		if (val < TRACE_OUTPUT_MIN_VERSION || val > TRACE_OUTPUT_MAX_VERSION)
			return usage_error(plan->cmd,
				"file version %lu is not supported: record writes versions %d and %d",
				val, TRACE_OUTPUT_MIN_VERSION, TRACE_OUTPUT_MAX_VERSION);
		plan->version = val;
		break;
	}
	return PARSE_RUN;
}

/* One option of record's own (the buffer plan's are taken before): PARSE_RUN or the exit status. */
static int record_option(struct record_plan *plan, int c, char **argv)
{
	int ret;

	switch (c) {
	case 'h':
		return show_usage(plan->cmd);
	case 'q':
	case OPT_QUIET:
		plan->quiet = 1;
		break;
	case OPT_VERBOSE:
		if (set_log_level("--verbose", optarg) < 0)
			return usage_follows(plan->cmd);
		break;
	case OPT_DEBUG:
		/* As upstream's: messages, and no timeout on the listener. */
		set_log_level("--debug", "debug");
		plan->net.no_timeout = 1;
		break;
	case OPT_NOTIMEOUT:
		plan->net.no_timeout = plan->net.no_timeout_asked = 1;
		break;
	case OPT_STDERR:
		if (stdout_to_stderr(plan) < 0)
			return EXIT_FAILED;
		break;
	case OPT_DAEMONIZE:
		plan->daemonize = 1;
		break;
	case OPT_TS_OFFSET:
		if (check_ts_offset(optarg) < 0)
			return usage_follows(plan->cmd);
		plan->ts_offset = optarg;
		break;
	case OPT_NOSPLICE:
		plan->recorder.no_splice = 1;
		break;
	case OPT_NOFIFOS:
		plan->nofifos = 1;
		break;
	case OPT_TSYNC_INTERVAL:
	{
		long ms;

		if (parse_long("--tsync-interval", optarg, INT_MIN, INT_MAX, &ms) < 0)
			return usage_follows(plan->cmd);
		record_guests_tsync_interval(plan->guests, ms);
		break;
	}
	case OPT_TSC2NSEC:
		plan->tsc2nsec = "--tsc2nsec";
		break;
	case OPT_PROXY:
		if (record_guests_proxy(plan->guests, optarg) < 0)
			return usage_follows(plan->cmd);
		break;
	case OPT_PROFILE:
		plan->profile = 1;
		break;
	case 'S':
		plan->profile_manual = 1;
		break;
	case 'H':
		if (profile_check_hook(optarg) < 0)
			return usage_follows(plan->cmd);
		plan->hooks = xrealloc(plan->hooks, (plan->nr_hooks + 1) * sizeof(*plan->hooks));
		plan->hooks[plan->nr_hooks++] = optarg;
		break;
	case 'G':
	case OPT_BY_COMM:
		/* 3.4's record takes them for its profile command's report, not for the file. */
		return usage_error(plan->cmd, "%s: a setting of report --profile (and of profile), which record keeps nowhere in its file: give it to 'trace-cmd report --profile'",
				   c == 'G' ? "-G" : "--by-comm");
	case 'k':
		plan->keep = 1;
		break;
	case OPT_TEMP:
		plan->temp_dir = optarg;
		break;
	case OPT_DATE:
		plan->date = 1;
		break;
	case 'a':
		plan->all_formats = 1;
		break;
	case OPT_PROC_MAP:
		plan->proc_map = 1;
		break;
	case 'e':
		if (buffer_plan_event(&plan->top, optarg) < 0)
			return usage_follows(plan->cmd);
		break;
	case 'o':
		plan->output = optarg;
		break;
	case OPT_PIN:
		plan->pin = 1;
		break;
	case 'N':
		plan->net.target = optarg;
		break;
	case 't':
		plan->net.tcp = 1;
		break;
	case OPT_NET_V1:
		plan->net.v1 = 1;
		break;
	case OPT_POLL:
		plan->recorder.busy_poll = 1;
		break;
	case 'b': case 's': case 'm': case 'r': case OPT_FILE_VERSION:
		return number_option(plan, c, optarg);
	case OPT_COMPRESSION:
		if (strcmp(optarg, "none") && strcmp(optarg, "zlib") &&
		    strcmp(optarg, "zstd") && strcmp(optarg, "any"))
			return usage_error(plan->cmd,
				"unknown compression '%s': use none, zlib, zstd or any", optarg);
		plan->compression = optarg;
		break;
	case ':':
		return option_error(plan->cmd, argv, c);
	default:
		ret = buffer_plan_option(&plan->top, c, optarg);
		if (ret < 0)
			return usage_follows(plan->cmd);
		if (!ret)
			return option_error(plan->cmd, argv, c);
	}
	return PARSE_RUN;
}

/* -N, or an agent's recording: the trace goes over the network. */
static int net_used(const struct record_plan *plan)
{
	return plan->net.target || plan->net.agent;
}

/*
 * --tsc2nsec keeps the clock (upstream's man page: the conversion is assumed
 * to apply to it); -C tsc2nsec records on the TSC itself.  Either stores
 * perf's conversion (read once the options are checked): PARSE_RUN or EXIT_USAGE.
 */
static int check_tsc2nsec(struct record_plan *plan)
{
	int taken = tsc_clock_take(&plan->top.ftrace.clock);

	taken += rec_instances_take_tsc(plan->instances);
	/*
	 * An agent asked for -C tsc2nsec (3.4's record sends it for a guest)
	 * does as 3.4's agent: records on the TSC and stores no conversion;
	 * its host's file gets the ptp offsets, sampled on the TSC too.
	 */
	if (taken && !plan->tsc2nsec && plan->net.agent)
		return PARSE_RUN;
	if (taken && !plan->tsc2nsec)
		plan->tsc2nsec = "-C tsc2nsec";
	if (!plan->tsc2nsec)
		return PARSE_RUN;
	if (plan->net.agent)
		return usage_error(plan->cmd, "%s cannot be used in an agent: the host's file is synchronized by ptp, not by the TSC",
				   plan->tsc2nsec);
	if (net_used(plan))
		return usage_error(plan->cmd, "%s cannot be used with -N: the listener writes no TSC2NSEC option",
				   plan->tsc2nsec);
	return PARSE_RUN;
}

/* What the options say together, once all are read: PARSE_RUN or EXIT_USAGE. */
static int check_options(struct record_plan *plan)
{
	const struct command *cmd = plan->cmd;
	int ret;

	/* 3.4 reads a vsock guest through the fifos of setup-guest; -A here reads sockets only. */
	if (plan->nofifos)
		log_info("--nofifos: guests are read over sockets here, never through fifos");
	if (record_guests_count(plan->guests) && (plan->live || net_used(plan)))
		return usage_error(cmd, "-A does not apply %s", plan->live ? "to stream: it prints this machine's events" :
				   plan->net.agent ? "in an agent: it records for its host only" :
				   "with -N: guests' files are written here");
	if ((ret = check_tsc2nsec(plan)) != PARSE_RUN)
		return ret;
	if (plan->date && plan->ts_offset)
		return usage_error(cmd, "--date and --ts-offset cannot be used together: both set the timestamps' base");
	if (plan->nr_hooks && plan->live)
		return usage_error(cmd, "-H: stream writes no file to keep the hook in; give it to 'trace-cmd profile'");
	if (plan->profile_manual && !plan->profile)
		return usage_error(cmd, "-S goes with --profile: it keeps the profile's own events out");
	if (plan->profile && record_profile_plan(&plan->top, !plan->profile_manual) < 0)
		return EXIT_FAILED;
	if (!plan->top.nr_specs && !plan->top.ftrace.plugin && !rec_instances_count(plan->instances))
		return usage_error(cmd, "no events to record: give -e EVENT");
	if (ftrace_setup_check_usage(&plan->top.ftrace) < 0 ||
	    rec_instances_check_usage(plan->instances) < 0 ||
	    record_net_check_opts(&plan->net) < 0)
		return usage_follows(cmd);
	/* Upstream's agent refuses a command too: the host may only choose what is traced. */
	if (plan->net.agent && (plan->argv || plan->net.target)) {
		error(plan->argv ? "the host asked the agent to run '%s': an agent runs no commands" :
			"the host asked the agent for -N '%s': an agent records for its host only",
		      plan->argv ? plan->argv[0] : plan->net.target);
		return EXIT_USAGE;
	}
	if (plan->live && plan->net.target)
		return usage_error(cmd, "-N does not apply: %s prints the events here", cmd->name);
	/* The protocol carries one buffer: the listener writes the top one only. */
	if (net_used(plan) && rec_instances_count(plan->instances))
		return usage_error(cmd, "-B cannot be used with -N: the listener receives the top buffer only");
	if (net_used(plan) && plan->recorder.max_bytes)
		return usage_error(cmd, "-m cannot be used with -N: the listener writes the file, so it keeps all of it");
	if (plan->live && plan->recorder.busy_poll)
		return usage_error(cmd, "--poll does not apply: %s never waits on the kernel, it reads the buffers every -s interval",
				   cmd->name);
	if (net_used(plan) && (plan->output || plan->temp_dir))
		return usage_error(cmd, "%s cannot be used with -N: the trace goes to the listener",
				   plan->output ? "-o" : "--temp");
	if (!plan->output)
		plan->output = "trace.dat";
	if (!*plan->output)
		return usage_error(cmd, "-o needs a file name");
	if (plan->version == 6 && plan->compression && strcmp(plan->compression, "none"))
		return usage_error(cmd, "--compression %s needs --file-version 7", plan->compression);
	if (plan->top.ftrace.follow_command && !plan->argv)
		return usage_error(cmd, "-F needs a COMMAND to trace");
	if (plan->top.ftrace.user && !plan->argv)
		return usage_error(cmd, "--user needs a COMMAND to run");
	if (plan->proc_map && !plan->argv && !plan->top.ftrace.nr_pids)
		return usage_error(cmd, "--proc-map needs a COMMAND or -P PID");
	if (plan->tsc2nsec && tsc_conv_read(&plan->tsc, plan->tsc2nsec) < 0)
		return EXIT_FAILED;
	return PARSE_RUN;
}

/* Reads the options into @plan: PARSE_RUN, or the exit status (trace-cmd.h). */
static int parse_options(int argc, char **argv, struct record_plan *plan)
{
	int c, ret;

	plan->version = 7;
	/* sized by the options, and what --profile may add */
	buffer_plan_init(&plan->top, NULL, argc + RECORD_PROFILE_ENTRIES);
	plan->saved_stdout = -1;
	plan->instances = rec_instances_new(argc);
	plan->guests = record_guests_new();
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+:hqkKiave:o:p:l:n:g:f:R:C:M:O:TP:FcdDb:r:B:N:ts:m:A:SGH:", record_options, NULL)) != -1) {
		/* After -A, the guest's options go to its agent; after -B NAME, to that instance. */
		ret = record_guests_option(plan->guests, c, optarg, c == OPT_NAME);
		if (ret < 0)
			return usage_follows(plan->cmd);
		if (ret)
			continue;
		ret = rec_instances_option(plan->instances, c, optarg);
		if (ret < 0)
			return usage_follows(plan->cmd);
		if (ret)
			continue;
		if (plan->live && file_option_name(c))
			return usage_error(plan->cmd, "%s does not apply: %s writes no file",
					   file_option_name(c), plan->cmd->name);
		if (plan->live && record_only_name(c))
			return usage_error(plan->cmd, "unknown option '%s'", record_only_name(c));
		if ((ret = record_option(plan, c, argv)) != PARSE_RUN)
			return ret;
	}
	plan->argv = optind < argc ? argv + optind : NULL;
	return check_options(plan);
}

/* Opens the output before tracing starts: an old file survives a failed run. */
static int open_output(struct record_run *run)
{
	if (outfile_open(&run->out, run->plan->output, NULL) < 0)
		return -1;
	run->out_open = 1;
	return 0;
}

/* The recorders' files go beside the output (or in --temp DIR): FILE.cpuN. */
static char *temp_prefix(const struct record_plan *plan)
{
	const char *base = strrchr(plan->output, '/');
	char *prefix = xmalloc(strlen(plan->output) +
			       (plan->temp_dir ? strlen(plan->temp_dir) : 0) + 2);

	if (plan->temp_dir)
		sprintf(prefix, "%s/%s", plan->temp_dir, base ? base + 1 : plan->output);
	else
		strcpy(prefix, plan->output);
	return prefix;
}

static int open_temp_files(struct record_run *run)
{
	char *prefix = temp_prefix(run->plan);
	run->tmp_paths = xcalloc(run->nr_cpus, sizeof(*run->tmp_paths));
	run->tmp_fds = xcalloc(run->nr_cpus, sizeof(*run->tmp_fds));
	for (int cpu = 0; cpu < run->nr_cpus; cpu++)
		run->tmp_fds[cpu] = -1;
	for (int cpu = 0; cpu < run->nr_cpus; cpu++) {
		char *p = xmalloc(strlen(prefix) + 32);

		sprintf(p, "%s.cpu%d", prefix, cpu);
		run->tmp_fds[cpu] = open(p, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
		if (run->tmp_fds[cpu] < 0) {
			int e = errno;

			error("cannot create '%s': %s", p, strerror(e));
			free(p);
			free(prefix);
			return -1;
		}
		run->tmp_paths[cpu] = p;
	}
	free(prefix);
	return 0;
}

static void remove_temp_files(struct record_run *run)
{
	for (int cpu = 0; run->tmp_paths && cpu < run->nr_cpus; cpu++) {
		if (run->tmp_fds[cpu] >= 0)
			close(run->tmp_fds[cpu]);
		if (run->tmp_paths[cpu])
			unlink(run->tmp_paths[cpu]);
		free(run->tmp_paths[cpu]);
	}
	free(run->tmp_paths);
	free(run->tmp_fds);
	run->tmp_paths = NULL;
	run->tmp_fds = NULL;
}

/*
 * --pin and -r, applied from here to the running child: the recorder keeps
 * one job, and the settings are in place before tracing goes on.
 */
static int tune_recorder(struct record_run *run, int cpu, pid_t pid)
{
	if (run->plan->pin) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		if (sched_setaffinity(pid, sizeof(set), &set) < 0)
			return error("--pin: cannot pin the recorder to cpu %d: %s", cpu,
				     strerror(errno));
	}
	if (run->plan->rt_prio) {
		struct sched_param sp = { .sched_priority = run->plan->rt_prio };

		if (sched_setscheduler(pid, SCHED_FIFO, &sp) < 0)
			return error("-r: cannot give the recorder for cpu %d priority %d: %s",
				     cpu, run->plan->rt_prio, strerror(errno));
	}
	return 0;
}

/* The top buffer is recorded when it has events or a tracer, not for -B alone. */
static int top_used(const struct record_plan *plan)
{
	return plan->top.nr_specs || plan->top.ftrace.plugin;
}

static int tune_instance_recorder(void *run, int cpu, pid_t pid)
{
	return tune_recorder(run, cpu, pid);
}

static int start_recorders(struct record_run *run)
{
	run->recorders = xcalloc(run->nr_cpus, sizeof(*run->recorders));
	if (rec_instances_start(run->plan->instances, run->page_size, &run->plan->recorder,
				tune_instance_recorder, run) < 0)
		return -1;
	for (int cpu = 0; top_used(run->plan) && cpu < run->nr_cpus; cpu++) {
		const int *out = run->net ? record_net_data_fds(run->net) : run->tmp_fds;
		struct recorder_opts opts = run->plan->recorder;

		/* An offline CPU's buffer stays empty: its data is written with size 0. */
		if (!cpu_is_online(cpu))
			continue;
		opts.spare_fd = -1;
		if (opts.max_bytes && (opts.spare_fd = recorder_open_spare(run->tmp_paths[cpu])) < 0)
			return -1;
		run->recorders[cpu] = recorder_start_opts(cpu, out[cpu], run->page_size, &opts, out,
							  run->nr_cpus);
		if (opts.spare_fd >= 0)
			close(opts.spare_fd);
		if (run->recorders[cpu] < 0) {
			run->recorders[cpu] = 0;
			return -1;
		}
		if (tune_recorder(run, cpu, run->recorders[cpu]) < 0)
			return -1;
	}
	return 0;
}

/*
 * A recorder killed from outside (SIGKILL) lost only what it held in its
 * pipe: keep the whole pages it wrote, drain what the CPU's buffer still
 * holds into the same file, and say which CPU's data has a gap.
 */
static int recover_cpu(struct record_run *run, int cpu, int sig)
{
	int fd = run->tmp_fds[cpu];
	struct stat st;

	error("cpu %d: the recorder died of signal %d: what it had read but not written is missing",
	      cpu, sig);
	run->recorder_died = 1;
	if (fstat(fd, &st) < 0 || ftruncate(fd, st.st_size - st.st_size % run->page_size) < 0 ||
	    lseek(fd, 0, SEEK_END) < 0)
		return error("cannot write '%s': %s", run->tmp_paths[cpu], strerror(errno));
	return recorder_drain(cpu, fd, run->page_size);
}

static int stop_recorders(struct record_run *run)
{
	int ret = rec_instances_stop(run->plan->instances), peer_closed = 0;

	for (int cpu = 0; run->recorders && cpu < run->nr_cpus; cpu++) {
		int r = recorder_stop(run->recorders[cpu]);

		peer_closed |= r == RECORDER_PEER_CLOSED;
		/* -N has no local file to patch: a killed recorder is just named. */
		if (r > 0)
			r = run->net ? error("cpu %d: the recorder died of signal %d", cpu, r) :
				       recover_cpu(run, cpu, r);
		if (r < 0)
			ret = -1;
		run->recorders[cpu] = 0;
	}
	/* -N: the listener closed data channels; one line says so, not one per CPU. */
	if (peer_closed && run->net)
		record_net_lost(run->net);
	return ret;
}

/* Waits for the command to end; a seized one (--proc-map) is let on through its stops. */
static void reap_child(struct record_run *run, int *status)
{
	while (waitpid(run->child, status, 0) == run->child &&
	       run->maps && proc_maps_stopped(run->maps, run->child, *status))
		;
}

/*
 * --proc-map: the child waits on @sync until the parent has seized it, so
 * even a command that exits at once stops at its exit for its maps.
 */
static int seize_command(struct record_run *run, int sync)
{
	int ret = proc_maps_seize(run->child);

	close(sync);	/* the child goes on either way */
	return ret;
}

/*
 * The traced command: tracing goes on in the child right before exec, so the
 * trace starts with the command.  An exec failure comes back through a pipe.
 */
static int start_command(struct record_run *run)
{
	int errpipe[2], sync[2] = { -1, -1 };
	int err = 0, status;
	ssize_t n;

	if (pipe2(errpipe, O_CLOEXEC) < 0 || (run->maps && pipe2(sync, O_CLOEXEC) < 0))
		return error("cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	run->child = fork();
	if (run->child < 0) {
		err = errno;
		close(errpipe[0]);
		close(errpipe[1]);
		run->child = 0;
		return error("cannot fork: %s", strerror(err));
	}
	if (run->child == 0) {
		char go;

		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		close(errpipe[0]);
		/* --stderr: the command's output is not redirected with ours. */
		if (run->plan->saved_stdout >= 0)
			dup2(run->plan->saved_stdout, 1);
		if (sync[0] >= 0) {
			close(sync[1]);
			while (read(sync[0], &go, 1) < 0 && errno == EINTR)
				;
		}
		if (ftrace_setup_child(&run->plan->top.ftrace, NULL) == 0 &&
		    rec_instances_child(run->plan->instances) == 0 &&
		    tfs_write_file(NULL, "tracing_on", "1") == 0 &&
		    ftrace_setup_become_user(&run->plan->top.ftrace) == 0)
			execv(run->cmd_path, run->plan->argv);
		err = errno;
		write_all(errpipe[1], &err, sizeof(err));
		_exit(127);
	}
	close(errpipe[1]);
	if (sync[0] >= 0) {
		close(sync[0]);
		if (seize_command(run, sync[1]) < 0) {
			close(errpipe[0]);
			return -1;
		}
	}
	n = read_all(errpipe[0], &err, sizeof(err));
	close(errpipe[0]);
	if (n == sizeof(err)) {
		reap_child(run, &status);
		run->child = 0;
		return error("cannot run '%s': %s", run->plan->argv[0], strerror(err));
	}
	return 0;
}

/*
 * Sleeps until a signal comes.  For stream the reader runs at each interval
 * meanwhile; if it fails or its output is gone, the run stops as on SIGTERM.
 */
static void pause_run(struct record_run *run, const sigset_t *mask)
{
	const struct record_live *live = run->plan->live;
	struct timespec interval;
	int ret;

	if (!live) {
		sigsuspend(mask);
		return;
	}
	/* -s USECS: stream reads at that interval instead of its own. */
	if (run->plan->recorder.sleep_usecs) {
		interval.tv_sec = run->plan->recorder.sleep_usecs / 1000000;
		interval.tv_nsec = run->plan->recorder.sleep_usecs % 1000000 * 1000L;
	} else {
		interval.tv_sec = live->interval_ms / 1000;
		interval.tv_nsec = live->interval_ms % 1000 * 1000000L;
	}
	ppoll(NULL, 0, &interval, mask);
	if (run->live_status)
		return;
	ret = live->poll(live->ctx);
	if (ret) {
		run->live_status = ret;
		stop_signal = SIGTERM;
	}
}

static void on_child(int sig)
{
	(void)sig;	/* only wakes sigsuspend() */
}

/*
 * Waits for the command, passing SIGINT and SIGTERM on to it.  The signals
 * are blocked except inside sigsuspend(), so none slips past the check.
 */
static void wait_command(struct record_run *run)
{
	struct sigaction sa = { .sa_handler = on_child }, old_chld;
	sigset_t block, old;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, &old_chld);
	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigaddset(&block, SIGCHLD);
	sigprocmask(SIG_BLOCK, &block, &old);
	for (;;) {
		pid_t pid = waitpid(run->child, &run->child_status, WNOHANG);

		if (pid == run->child && run->maps &&
		    proc_maps_stopped(run->maps, pid, run->child_status))
			continue;
		if (pid == run->child || (pid < 0 && errno != EINTR))
			break;
		if (stop_signal) {
			kill(run->child, stop_signal);
			stop_signal = 0;
		}
		pause_run(run, &old);
	}
	sigprocmask(SIG_SETMASK, &old, NULL);
	sigaction(SIGCHLD, &old_chld, NULL);
	run->child = 0;
}

/*
 * --daemonize, in the foreground process: the background one was forked
 * before anything was set up and says on @ready_fd once it records; until
 * then its errors reach our stderr.  Returns record's exit status: 0 once
 * it records, else the background one's.
 */
static int wait_daemon(pid_t pid, int ready_fd)
{
	char ok;
	ssize_t n = read_all(ready_fd, &ok, 1);
	int status;

	close(ready_fd);
	if (n == 1) {
		printf("Send SIGINT/SIGTERM to pid %d to stop recording\n", (int)pid);
		return EXIT_OK;
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return error("cannot wait for the background record: %s", strerror(errno));
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_FAILED;
}

/* A pidfile naming a live process is another record in the background. */
static int check_pidfile(void)
{
	char *text = read_path_text(RECORD_PIDFILE, NULL);
	long pid = text ? atol(text) : 0;

	free(text);
	if (pid > 0 && kill(pid, 0) == 0)
		return error("--daemonize: '%s' names pid %ld, a record still running in the background",
			     RECORD_PIDFILE, pid);
	return 0;
}

/*
 * --daemonize: forks; the foreground process waits (wait_daemon) and its
 * status is returned in *@status with 1; the background one, in a session
 * of its own, gets 0 and @run->ready_fd.  -1 after printing why.
 */
static int daemonize(struct record_run *run, int *status)
{
	int fds[2];
	pid_t pid;

	if (check_pidfile() < 0)
		return -1;
	if (pipe2(fds, O_CLOEXEC) < 0)
		return error("cannot create a pipe: %s", strerror(errno));
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		close(fds[0]);
		close(fds[1]);
		return error("cannot fork: %s", strerror(errno));
	}
	if (pid > 0) {
		close(fds[1]);
		*status = wait_daemon(pid, fds[0]);
		return 1;
	}
	close(fds[0]);
	setsid();
	run->ready_fd = fds[1];
	return 0;
}

/*
 * --daemonize, once recording: the pidfile, stdin and stdout on /dev/null
 * (stderr stays, for errors, as 3.4's), and the word to the foreground
 * process, which leaves.
 */
static int daemon_ready(struct record_run *run)
{
	char buf[32];
	int fd, null;

	if (run->ready_fd < 0)
		return 0;
	fd = open(RECORD_PIDFILE, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		return error("cannot create '%s': %s", RECORD_PIDFILE, strerror(errno));
	snprintf(buf, sizeof(buf), "%d\n", (int)getpid());
	if (write_all(fd, buf, strlen(buf)) < 0 || close(fd) < 0)
		return error("cannot write '%s': %s", RECORD_PIDFILE, strerror(errno));
	run->pidfile_written = 1;
	null = open("/dev/null", O_RDWR | O_CLOEXEC);
	if (null < 0)
		return error("cannot open '/dev/null': %s", strerror(errno));
	fflush(NULL);
	dup2(null, 0);
	dup2(null, 1);
	close(null);
	/* The statistics would come to a terminal long after; 3.4 drops them too. */
	run->plan->quiet = 1;
	write_all(run->ready_fd, "1", 1);
	close(run->ready_fd);
	run->ready_fd = -1;
	return 0;
}

/* Our pidfile goes at the end, unless another record has written its own since. */
static void remove_pidfile(struct record_run *run)
{
	char *text;

	if (!run->pidfile_written)
		return;
	text = read_path_text(RECORD_PIDFILE, NULL);
	if (text && atol(text) == getpid())
		unlink(RECORD_PIDFILE);
	free(text);
}

/*
 * No command: record until a signal sets the flag or, with -P, until the
 * tasks followed have all ended (as upstream's record waits on them).
 */
static int wait_signal(struct record_run *run, struct rec_instances *instances)
{
	const struct ftrace_setup *ftrace = &run->plan->top.ftrace;
	struct pidwatch *tasks = NULL;
	sigset_t block, old;

	sigemptyset(&block);
	sigaddset(&block, SIGINT);
	sigaddset(&block, SIGTERM);
	sigprocmask(SIG_BLOCK, &block, &old);
	if (rec_instances_tracing(instances, "1") < 0 || tfs_write_file(NULL, "tracing_on", "1") < 0) {
		sigprocmask(SIG_SETMASK, &old, NULL);
		return -1;
	}
	if (run->ready_fd >= 0) {
		if (daemon_ready(run) < 0) {
			sigprocmask(SIG_SETMASK, &old, NULL);
			return -1;
		}
	} else {
		fprintf(stderr, "Hit Ctrl^C to stop recording\n");
	}
	if (ftrace->nr_pids)
		tasks = pidwatch_new(ftrace->pids, ftrace->nr_pids);
	while (!stop_signal && !(tasks && pidwatch_done(tasks))) {
		if (tasks && !run->plan->live)
			pidwatch_wait(tasks, NULL, &old);
		else
			pause_run(run, &old);
	}
	pidwatch_free(tasks);
	sigprocmask(SIG_SETMASK, &old, NULL);
	return 0;
}

static void install_signals(void)
{
	struct sigaction sa = { .sa_handler = on_signal };

	/* No SA_RESTART: waitpid() must return so the flag is seen. */
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
}

/* The kernel's "commit" field size in header_page is its long size. */
static int kernel_long_size(void)
{
	char *buf, *p;
	int size = sizeof(long);

	if (!tfs_exists(NULL, "events/header_page") ||
	    tfs_read_file(NULL, "events/header_page", &buf, NULL) < 0)
		return size;
	p = strstr(buf, " commit;");
	if (p && (p = strstr(p, "size:")))
		size = atoi(p + 5) == 4 ? 4 : 8;
	free(buf);
	return size;
}

static int read_stats(struct record_run *run)
{
	char rel[64];

	if (!top_used(run->plan))
		return 0;

	run->stats = xcalloc(run->nr_cpus, sizeof(*run->stats));
	for (int cpu = 0; cpu < run->nr_cpus; cpu++) {
		snprintf(rel, sizeof(rel), "per_cpu/cpu%d/stats", cpu);
		if (tfs_read_file(NULL, rel, &run->stats[cpu], NULL) < 0)
			return -1;
	}
	return 0;
}

/*
 * The events in CPU @cpu's file.  The kernel counts what its reader took
 * ("read events", zeroed when setup cleared the buffers), which is what the
 * recorder wrote, so the summary costs nothing however big the file.  A
 * kernel without that count, or -m, which drops older pages (and bounds the
 * file), makes us count the file's pages.
 */
static unsigned long long recorded_events(struct record_run *run, int cpu)
{
	unsigned long long events = 0, missed;

	/* -K: the count goes back to before this run, as the buffer was not cleared. */
	if (!run->plan->recorder.max_bytes && !run->plan->top.keep_contents &&
	    ringbuf_stat_find(run->stats[cpu], "read events", &events) == 0)
		return events;
	recorder_count_events(run->tmp_fds[cpu], run->page_size, kernel_long_size(), &events,
			      &missed);
	return events;
}

static void print_stats(struct record_run *run)
{
	int long_size = kernel_long_size();

	if (!top_used(run->plan)) {
		rec_instances_print_stats(run->plan->instances, run->page_size, long_size);
		return;
	}

	fprintf(stderr, "Kernel buffer statistics:\n"
		"  Note: \"entries\" are the entries left in the kernel ring buffer and are not\n"
		"        recorded in the trace data. They should all be zero.\n\n");
	for (int cpu = 0; cpu < run->nr_cpus; cpu++)
		fprintf(stderr, "CPU: %d\n%s\n", cpu, run->stats[cpu]);
	for (int cpu = 0; cpu < run->nr_cpus; cpu++) {
		const char *s = run->stats[cpu];
		unsigned long long events = recorded_events(run, cpu);
		unsigned long long lost = ringbuf_stats_lost(s);
		unsigned long long taken;
		struct stat st = { 0 };

		if (run->net) {
			fprintf(stderr, "CPU%d: sent to %s, %llu events lost\n", cpu,
				record_net_name(run->net), lost);
			continue;
		}
		fstat(run->tmp_fds[cpu], &st);

		fprintf(stderr, "CPU%d: %llu events recorded (%llu bytes), %llu events lost",
			cpu, events, (unsigned long long)st.st_size, lost);
		/* -m: what the recorder took but left out for newer pages. */
		if (run->plan->recorder.max_bytes &&
		    ringbuf_stat_find(s, "read events", &taken) == 0 && taken > events)
			fprintf(stderr, ", %llu older events dropped (-m)", taken - events);
		fputc('\n', stderr);
	}
	rec_instances_print_stats(run->plan->instances, run->page_size, long_size);
}

/* --date's DATE or --ts-offset's OFFSET (never both), or nothing. */
static int add_time_base_option(const struct record_plan *plan, struct trace_output *out)
{
	if (plan->date)
		return trace_output_add_date(out);
	if (plan->ts_offset)
		return trace_output_add_option(out, TRACE_OPT_OFFSET, plan->ts_offset,
					       strlen(plan->ts_offset) + 1);
	return 0;
}

/* --tsc2nsec, -C tsc2nsec: the TSC2NSEC option. */
static int add_tsc2nsec(const struct record_plan *plan, struct trace_output *out)
{
	return plan->tsc2nsec ? tsc_conv_add_option(&plan->tsc, out) : 0;
}

/* -H: each hook in a HOOK option, which report --profile applies. */
static int add_hooks(const struct record_plan *plan, struct trace_output *out)
{
	for (int i = 0; i < plan->nr_hooks; i++)
		if (trace_output_add_option(out, TRACE_OPT_HOOK, plan->hooks[i],
					    strlen(plan->hooks[i]) + 1) < 0)
			return -1;
	return 0;
}

/* --proc-map: the command's maps were read at its exit; -P's are read now. */
static int add_proc_maps(struct record_run *run, struct trace_output *out)
{
	const char *text;
	size_t size;

	if (!run->maps)
		return 0;
	for (int i = 0; i < run->plan->top.ftrace.nr_pids; i++)
		proc_maps_read(run->maps, atoi(run->plan->top.ftrace.pids[i]));
	text = proc_maps_text(run->maps, &size);
	if (!text) {
		warning("--proc-map: no address map could be read");
		return 0;
	}
	return trace_output_add_option(out, TRACE_OPT_PROCMAPS, text, size);
}

/* The TRACE_COMP_* of --compression, "any" when not given. */
static int plan_compression(const struct record_plan *plan)
{
	return trace_compress_lookup(plan->compression ? plan->compression : "any");
}

/*
 * The helper threads, made before the exclusion list is written so that
 * their ids go in it (trace-worker.h): a compressed v7 file's top buffer
 * chunks compressed while the command runs (trace-early.c), and the
 * metadata read meanwhile (trace-prefetch.c).  Either may be missing.
 */
static void make_workers(struct record_run *run)
{
	int comp = plan_compression(run->plan);
	struct tfs_events *formats;

	if (run->net || run->plan->live)
		return;
	/* -m empties and swaps the recorders' files: nothing in them is final. */
	if (run->plan->version == 7 && comp != TRACE_COMP_NONE && top_used(run->plan) &&
	    run->tmp_fds && !run->plan->recorder.max_bytes)
		run->early = early_start(comp, run->nr_cpus, run->tmp_fds, run->tmp_paths,
					 run->page_size * TRACE_PAGES_IN_CHUNK);
	/* The same list write_trace() gives the writer. */
	formats = rec_instances_formats(run->plan->instances, run->events);
	run->prefetch = prefetch_new(run->plan->all_formats ? NULL :
				     formats ? formats : run->events);
	tfs_events_free(formats);
}

/* @pids (of @nr) with the workers' thread ids after them. */
/* Every thread of this process: the workers' and the guests' time sync's too. */
static pid_t *add_own_tids(pid_t *pids, int *nr)
{
	DIR *dir = opendir("/proc/self/task");
	struct dirent *d;

	while (dir && (d = readdir(dir))) {
		pid_t tid = atoi(d->d_name);

		if (tid > 0 && tid != getpid()) {
			pids = xrealloc(pids, (*nr + 1) * sizeof(*pids));
			pids[(*nr)++] = tid;
		}
	}
	if (dir)
		closedir(dir);
	return pids;
}

/*
 * Every recorder, the instances' too, record's threads and the guests'
 * data readers are left out of every buffer (record itself always is).
 */
static int exclude_own(struct record_run *run)
{
	struct record_plan *plan = run->plan;
	int nr_pids, ret;
	pid_t *pids = rec_instances_all_pids(plan->instances, run->recorders,
					     run->recorders ? run->nr_cpus : 0, &nr_pids);

	pids = add_own_tids(pids, &nr_pids);
	pids = record_guests_add_readers(plan->guests, pids, &nr_pids);
	ret = ftrace_setup_exclude(&plan->top.ftrace, NULL, run->saved, pids, nr_pids);
	if (ret == 0)
		ret = rec_instances_exclude(plan->instances, run->saved, pids, nr_pids);
	free(pids);
	return ret;
}

/* Once the command is forked: a fork beside a running thread is best avoided. */
static void start_workers(struct record_run *run)
{
	early_go(run->early);
	prefetch_go(run->prefetch);
}

/* The top buffer's files, or none (-1) when only instances were recorded. */
static int *top_data(const struct record_run *run)
{
	int *fds = xcalloc(run->nr_cpus, sizeof(*fds));

	for (int cpu = 0; cpu < run->nr_cpus; cpu++)
		fds[cpu] = top_used(run->plan) ? run->tmp_fds[cpu] : -1;
	return fds;
}

static int write_trace(struct record_run *run)
{
	struct trace_output *out;
	struct tfs_events *formats;
	int *top_fds = top_data(run);
	char *clock;
	int ret;

	out = trace_output_fdopen(run->out.fd, run->plan->output, run->plan->version);
	if (!out)
		return -1;
	run->out.fd = -1;	/* the output owns it now */
	if (run->plan->compression &&
	    trace_output_set_compression(out, run->plan->compression) < 0) {
		trace_output_close(out);
		return -1;
	}
	prefetch_finish(run->prefetch);
	/* Every buffer's clock is named so, as 3.4's, when the file has TSC2NSEC. */
	clock = run->plan->tsc2nsec ? xstrdup("tsc2nsec") : tfs_current_clock(NULL);
	/* -a: every format; with instances, theirs as well as the top's. */
	formats = rec_instances_formats(run->plan->instances, run->events);
	ret = trace_output_write_metadata(out, run->page_size, run->plan->all_formats ? NULL :
					  formats ? formats : run->events, run->prefetch);
	tfs_events_free(formats);
	if (ret == 0)
		ret = add_time_base_option(run->plan, out);
	if (ret == 0)
		ret = add_hooks(run->plan, out);
	if (ret == 0)
		ret = trace_output_add_host_options_id(out, run->host_id);
	if (ret == 0)
		ret = record_guests_add_options(run->plan->guests, out);
	if (ret == 0 && top_used(run->plan))
		ret = trace_output_add_cpustats(out, NULL, run->nr_cpus);
	if (ret == 0)
		ret = add_tsc2nsec(run->plan, out);
	if (ret == 0)
		ret = rec_instances_add_options(run->plan->instances, out);
	if (ret == 0)
		ret = add_proc_maps(run, out);
	if (ret == 0 && run->early) {
		const struct cpu_chunks *early = early_stop(run->early);

		if (early)
			trace_output_set_chunks(out, plan_compression(run->plan), early, run->nr_cpus);
	}
	if (ret == 0)
		ret = trace_output_write_data(out, run->nr_cpus, top_fds, clock);
	if (ret == 0)
		ret = rec_instances_write(run->plan->instances, out,
					  run->plan->tsc2nsec ? "tsc2nsec" : NULL);
	free(clock);
	free(top_fds);
	if (trace_output_close(out) < 0)
		ret = -1;
	if (ret == 0) {
		run->out_open = 0;
		ret = outfile_commit(&run->out);
	}
	run->out_written = ret == 0;
	return ret;
}

/* -N: the header's options besides the CPU count, as write_trace adds them. */
static int add_net_options(struct trace_output *out, void *arg)
{
	struct record_run *run = arg;

	if (add_time_base_option(run->plan, out) < 0 || add_hooks(run->plan, out) < 0)
		return -1;
	return trace_output_add_host_options_id(out, record_net_trace_id(run->net));
}

static int send_net_header(struct record_run *run)
{
	struct record_net_header h = {
		.events = run->events, .page_size = run->page_size,
		.version = run->plan->version, .compression = run->plan->compression,
		.add_options = add_net_options, .arg = run,
	};

	return record_net_send_header(run->net, &h);
}

static int end_trace(struct record_run *run)
{
	if (!run->net) {
		/* The guests first: their agents stop, and their files are named in ours. */
		int guests = record_guests_finish(run->plan->guests);

		return write_trace(run) < 0 || guests < 0 ? -1 : 0;
	}
	run->out_written = record_net_finish(run->net) == 0;
	return run->out_written ? 0 : -1;
}

/* The one cleanup path: every exit, error or not, comes through here. */
static int finish(struct record_run *run, int status)
{
	if (run->child > 0) {
		int st;

		kill(run->child, SIGTERM);
		reap_child(run, &st);
	}
	if (run->saved && tfs_saved_count(run->saved) && tfs_exists(NULL, "tracing_on"))
		tfs_write_file(NULL, "tracing_on", "0");
	if (stop_recorders(run) < 0 && status == EXIT_OK)
		status = EXIT_FAILED;
	if (run->live_open)
		run->plan->live->close(run->plan->live->ctx, 0);
	/* -k: a complete recording leaves its settings for the next one. */
	if (run->plan->keep && run->out_written) {
		warning("tracefs settings kept (-k): 'trace-cmd reset' undoes them");
	} else {
		if (ftrace_setup_restore(&run->plan->top.ftrace) < 0 && status == EXIT_OK)
			status = EXIT_FAILED;
		if (tfs_restore(run->saved) < 0 && status == EXIT_OK)
			status = EXIT_FAILED;
	}
	/* After the restore: the instances record created go only now. */
	if (rec_instances_finish(run->plan->instances, run->plan->keep && run->out_written) < 0 &&
	    status == EXIT_OK)
		status = EXIT_FAILED;
	early_free(run->early);
	prefetch_free(run->prefetch);
	remove_temp_files(run);
	/* A file we created or already truncated is worthless unless complete. */
	/* Unless complete, the new file goes; what -o named before stays. */
	if (run->out_open)
		outfile_abort(&run->out);
	for (int cpu = 0; run->stats && cpu < run->nr_cpus; cpu++)
		free(run->stats[cpu]);
	free(run->stats);
	free(run->recorders);
	free(run->cmd_path);
	proc_maps_free(run->maps);
	tfs_saved_free(run->saved);
	tfs_events_free(run->events);
	record_net_free(run->net);
	remove_pidfile(run);
	if (run->ready_fd >= 0)
		close(run->ready_fd);
	return status;
}

/* The command's exit status becomes ours, as a shell would report it. */
static int command_status(struct record_run *run)
{
	int st = run->child_status;

	if (!run->plan->argv || run->live_status > 0)
		return EXIT_OK;
	/* Interrupted before it ran: the warning said so; the status is the signal's. */
	if (run->interrupted_early)
		return 128 + WTERMSIG(st);
	if (WIFSIGNALED(st)) {
		fprintf(stderr, "trace-cmd %s: '%s' was killed by signal %d\n",
			run->plan->cmd->name, run->plan->argv[0], WTERMSIG(st));
		return 128 + WTERMSIG(st);
	}
	if (WEXITSTATUS(st))
		fprintf(stderr, "trace-cmd %s: '%s' exited with status %d\n",
			run->plan->cmd->name, run->plan->argv[0], WEXITSTATUS(st));
	return WEXITSTATUS(st);
}

/* stream: its readers of the top buffer (if traced) and every -B instance. */
static int open_live(struct record_run *run)
{
	struct record_plan *plan = run->plan;
	struct record_live_buffers b = {
		.nr_cpus = run->nr_cpus,
		.page_size = run->page_size,
		.quiet = plan->quiet,
		.top = top_used(plan),
		.nr_instances = rec_instances_count(plan->instances),
		.tsc = plan->tsc2nsec ? &plan->tsc : NULL,
	};
	int ret;

	b.instances = xcalloc(b.nr_instances + 1, sizeof(*b.instances));
	for (int i = 0; i < b.nr_instances; i++)
		b.instances[i] = rec_instances_name(plan->instances, i);
	ret = plan->live->open(plan->live->ctx, &b);
	free(b.instances);
	return ret;
}

static int setup(struct record_run *run)
{
	struct record_plan *plan = run->plan;
	char *prefix;
	int ret;

	/* Nothing touches tracefs until every check that can fail has passed. */
	if (plan->argv && !(run->cmd_path = find_command_path(plan->argv[0])))
		return error("cannot run '%s': command not found", plan->argv[0]);
	if ((!net_used(plan) && !plan->live && open_output(run) < 0) || !tfs_dir())
		return -1;
	run->events = ftrace_select_events(&plan->top.ftrace, NULL, plan->top.specs, plan->top.nr_specs);
	if (!run->events)
		return -1;
	if (ftrace_setup_check(&plan->top.ftrace, NULL) < 0 || buffer_plan_check(&plan->top, NULL) < 0)
		return -1;
	run->nr_cpus = tfs_cpu_count();
	if (run->nr_cpus < 1)
		return error("no per_cpu buffers in '%s'", tfs_dir());
	run->page_size = ringbuf_page_size();
	if (plan->net.agent) {
		run->net = plan->net.agent;
		plan->net.agent = NULL;
	} else if (plan->net.target ? !(run->net = record_net_connect(&plan->net, run->nr_cpus,
								      run->page_size)) :
		   (!plan->live && open_temp_files(run) < 0)) {
		return -1;
	}
	run->saved = tfs_saved_new();
	/* Off while we set up; writing "trace" empties the buffers and stats. */
	if (tfs_set(run->saved, NULL, "tracing_on", "0") < 0 || buffer_plan_apply_size(&plan->top, run->saved, run->nr_cpus) < 0 ||
	    buffer_plan_clear(&plan->top) < 0)
		return -1;
	if (ftrace_setup_apply(&plan->top.ftrace, NULL, run->saved) < 0 ||
	    tfs_events_enable(run->events, NULL, run->saved) < 0)
		return -1;
	/* stream's instances have no recorders' files. */
	prefix = plan->live ? NULL : temp_prefix(plan);
	ret = rec_instances_setup(plan->instances, &plan->top, run->saved, run->nr_cpus, prefix);
	free(prefix);
	if (ret < 0 || (run->net && send_net_header(run) < 0))
		return -1;
	if (plan->live) {
		if (open_live(run) < 0)
			return -1;
		run->live_open = 1;
	} else if (start_recorders(run) < 0) {
		return -1;
	}
	make_workers(run);
	ret = exclude_own(run);
	/*
	 * The guests last: an agent on this same machine saves what it changes
	 * once our setup is done, so each puts back what it found.  Their data
	 * readers and time-sync threads are then left out too.
	 */
	if (ret == 0 && record_guests_count(plan->guests)) {
		run->host_id = trace_output_new_trace_id();
		ret = record_guests_start(plan->guests, plan->output, run->host_id,
					  plan->top.ftrace.clock ? plan->top.ftrace.clock : "local",
					  plan->tsc2nsec ? &plan->tsc : NULL);
		if (ret == 0)
			ret = exclude_own(run);
	}
	return ret;
}

/* stream: tracing is off; the reader prints what is left. */
static int live_end(struct record_run *run)
{
	const struct record_live *live = run->plan->live;
	int ret = run->live_status;

	run->live_open = 0;
	if (live->close(live->ctx, ret == 0) < 0 || ret < 0)
		return EXIT_FAILED;
	run->out_written = 1;	/* complete: -k keeps the settings */
	return command_status(run);
}

static int record(struct record_plan *plan)
{
	struct record_run run = { .plan = plan, .ready_fd = -1 };
	int status = EXIT_FAILED;

	if (plan->daemonize) {
		int ret = daemonize(&run, &status);

		if (ret < 0)
			return EXIT_FAILED;
		if (ret > 0)
			return status;
	}
	if (plan->proc_map)
		run.maps = proc_maps_new();
	stop_signal = 0;
	install_signals();
	if (setup(&run) < 0) {
		status = finish(&run, EXIT_FAILED);
		goto out;
	}
	/* A signal during setup ends the recording before it starts. */
	if (stop_signal && plan->argv) {
		/* As if the command had been killed by it, which is what the user meant. */
		run.child_status = stop_signal;
		run.interrupted_early = 1;
		warning("interrupted before '%s' started", plan->argv[0]);
	} else if (!stop_signal && plan->argv &&
		   (start_command(&run) < 0 || daemon_ready(&run) < 0)) {
		status = finish(&run, EXIT_FAILED);
		goto out;
	}
	start_workers(&run);
	if (!stop_signal && !plan->argv && wait_signal(&run, plan->instances) < 0) {
		status = finish(&run, EXIT_FAILED);
		goto out;
	}
	if (run.child)
		wait_command(&run);
	tfs_write_file(NULL, "tracing_on", "0");
	rec_instances_tracing(plan->instances, "0");
	if (plan->live) {
		status = finish(&run, live_end(&run));
		goto out;
	}
	if (stop_recorders(&run) < 0 || read_stats(&run) < 0 || end_trace(&run) < 0) {
		status = finish(&run, EXIT_FAILED);
		goto out;
	}
	if (!plan->quiet)
		print_stats(&run);
	status = command_status(&run);
	if (run.recorder_died && status == EXIT_OK)
		status = EXIT_FAILED;
	status = finish(&run, status);
out:
	/*
	 * Not the old handlers back: a Ctrl-C from here to exit (where the
	 * sanitizers' leak check takes a while) would turn the exit status of
	 * a complete recording into death by SIGINT.
	 */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	return status;
}

static void plan_free(struct record_plan *plan)
{
	if (plan->saved_stdout >= 0) {
		fflush(stdout);
		dup2(plan->saved_stdout, 1);
		close(plan->saved_stdout);
	}
	buffer_plan_free(&plan->top);
	free(plan->hooks);
	rec_instances_free(plan->instances);
	record_guests_free(plan->guests);
	record_net_free(plan->net.agent);
}

int record_main(const struct command *cmd, int argc, char **argv,
		const struct record_live *live)
{
	struct record_plan plan = { .cmd = cmd, .live = live };
	int ret;

	if ((ret = parse_options(argc, argv, &plan)) == PARSE_RUN)
		ret = record(&plan);
	plan_free(&plan);
	return ret;
}

int record_agent_main(int argc, char **argv, struct record_net *host)
{
	struct record_plan plan = { .cmd = &cmd_record, .net.agent = host };
	int ret = parse_options(argc, argv, &plan);

	if (ret == PARSE_RUN)
		ret = record(&plan);
	plan_free(&plan);
	return ret;
}

static int run_record(int argc, char **argv)
{
	return record_main(&cmd_record, argc, argv, NULL);
}

const struct command cmd_record = {
	.name = "record",
	.run = run_record,
	.usage = record_usage,
	.summary = "record a trace into a file",
};
