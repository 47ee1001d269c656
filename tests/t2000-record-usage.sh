#!/bin/bash
# record's usage errors and the checks made before tracefs is touched.  A
# tracing directory that does not exist proves that nothing looked at it.
. "$(dirname "$0")/test-lib.sh"

NOWHERE=$TRASH/no-tracing-dir

# record_usage CODE "ARGS" "first line of stderr", with no tracing directory.
record_usage() {
	want=$1 msg=$3
	eval "set -- $2"
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage "$want" "$msg" record "$@" &&
	{ test ! -e trace.dat || { echo "record $* left trace.dat"; return 1; }; }
}

test_expect_success 'record -h prints the usage to stdout and exits 0' '
	"$TRACE_CMD" record -h >out 2>err &&
	grep -q "^usage: trace-cmd record -e EVENT" out && test ! -s err
'

test_expect_success 'usage errors exit 2 with one line and the usage' '
	record_usage 2 "" "trace-cmd record: no events to record: give -e EVENT" &&
	record_usage 2 "true" "trace-cmd record: no events to record: give -e EVENT" &&
	record_usage 2 "-x -e sched" "trace-cmd record: unknown option '"'"'-x'"'"'" &&
	record_usage 2 "--bogus -e sched" "trace-cmd record: unknown option '"'"'--bogus'"'"'" &&
	record_usage 2 "-e" "trace-cmd record: option '"'"'-e'"'"' needs a value" &&
	record_usage 2 "-e sched -o" "trace-cmd record: option '"'"'-o'"'"' needs a value" &&
	record_usage 2 "-e sched -o \"\"" "trace-cmd record: -o needs a file name" &&
	record_usage 2 "-e sched --file-version abc" \
		"trace-cmd record: invalid --file-version value '"'"'abc'"'"': not a number"
'

test_expect_success '--file-version 6 and 7 are accepted, others refused' '
	record_usage 2 "-e sched --file-version 8" \
		"trace-cmd record: file version 8 is not supported: record writes versions 6 and 7" &&
	record_usage 2 "-e sched --file-version 5" \
		"trace-cmd record: file version 5 is not supported: record writes versions 6 and 7" &&
	for v in 6 7; do
		record_usage 1 "-e sched --file-version $v true" \
			"trace-cmd record: tracing directory '"'"'$NOWHERE'"'"' (from TRACE_CMD_TRACING_DIR): No such file or directory" ||
		return 1
	done
'

test_expect_success '--compression: upstream names only, and none with version 6' '
	record_usage 2 "-e sched --compression lz4" \
		"trace-cmd record: unknown compression '"'"'lz4'"'"': use none, zlib, zstd or any" &&
	record_usage 2 "-e sched --compression" \
		"trace-cmd record: option '"'"'--compression'"'"' needs a value" &&
	record_usage 2 "-e sched --file-version 6 --compression zstd" \
		"trace-cmd record: --compression zstd needs --file-version 7" &&
	for c in none zlib zstd any; do
		record_usage 1 "-e sched --compression $c true" \
			"trace-cmd record: tracing directory '"'"'$NOWHERE'"'"' (from TRACE_CMD_TRACING_DIR): No such file or directory" ||
		return 1
	done &&
	record_usage 1 "-e sched --file-version 6 --compression none true" \
		"trace-cmd record: tracing directory '"'"'$NOWHERE'"'"' (from TRACE_CMD_TRACING_DIR): No such file or directory"
'

test_expect_success 'options after the command belong to the command' '
	record_usage 2 "true -e sched" "trace-cmd record: no events to record: give -e EVENT"
'

test_expect_success 'an output that cannot be created fails before tracefs is looked at' '
	record_usage 1 "-e sched -o $TRASH/no/such/dir/t.dat true" \
		"trace-cmd record: cannot create '"'"'$TRASH/no/such/dir/t.dat'"'"': No such file or directory" &&
	mkdir adir &&
	record_usage 1 "-e sched -o adir true" \
		"trace-cmd record: cannot create '"'"'adir'"'"': Is a directory"
'

test_expect_success 'a command not in PATH fails before tracefs is looked at' '
	record_usage 1 "-e sched no-such-command-xyz" \
		"trace-cmd record: cannot run '"'"'no-such-command-xyz'"'"': command not found" &&
	record_usage 1 "-e sched ./missing" \
		"trace-cmd record: cannot run '"'"'./missing'"'"': command not found"
'

test_expect_success 'an empty name or a mask selecting no CPU is a usage error' '
	record_usage 2 "-e \"\" true" "trace-cmd record: -e needs an event name" &&
	record_usage 2 "-e \" \" true" "trace-cmd record: -e needs an event name" &&
	record_usage 2 "-e sched -B inst -e \"\" true" "trace-cmd record: -e needs an event name" &&
	record_usage 2 "-e sched -M 0 true" "trace-cmd record: invalid -M value '"'"'0'"'"': the mask selects no CPU" &&
	record_usage 2 "-e sched -M 00,0 true" "trace-cmd record: invalid -M value '"'"'00,0'"'"': the mask selects no CPU" &&
	record_usage 2 "-e sched -M xyz true" "trace-cmd record: invalid -M value '"'"'xyz'"'"': not a hex CPU mask" &&
	record_usage 2 "-e sched -f \"\" true" "trace-cmd record: -f needs a filter" &&
	record_usage 2 "-e sched -R \"\" true" "trace-cmd record: -R needs a trigger" &&
	record_usage 2 "-e sched -p \"\" true" "trace-cmd record: -p needs a tracer name" &&
	record_usage 2 "-e sched -p function -l \"\" true" "trace-cmd record: -l needs a function name" &&
	record_usage 2 "-e sched -p function -n \"\" true" "trace-cmd record: -n needs a function name" &&
	record_usage 2 "-e sched -p function_graph -g \"\" true" "trace-cmd record: -g needs a function name" &&
	record_usage 2 "-e sched -p function --module \"\" true" "trace-cmd record: --module needs a module name" &&
	record_usage 2 "-e sched -C \"\" true" "trace-cmd record: -C needs a clock name" &&
	record_usage 2 "-e sched -O \"\" true" "trace-cmd record: -O needs a trace option" &&
	record_usage 2 "-e sched -B inst -O \"\" true" "trace-cmd record: -O needs a trace option"
'

test_expect_success 'stream takes the same checks' '
	TRACE_CMD_TRACING_DIR=$NOWHERE test_expect_code 2 "$TRACE_CMD" stream -e "" 2>err &&
	test "$(head -n 1 err)" = "trace-cmd stream: -e needs an event name" &&
	TRACE_CMD_TRACING_DIR=$NOWHERE test_expect_code 2 "$TRACE_CMD" stream -e sched -M 0 2>err &&
	test "$(head -n 1 err)" = "trace-cmd stream: invalid -M value '"'"'0'"'"': the mask selects no CPU"
'

# Where perf's clock page has no TSC conversion (this host, a PVM guest whose
# sched_clock is not the TSC), --tsc2nsec and -C tsc2nsec fail at once, before
# tracefs, saying why; the guest tests (t8003) record with it where it is.
perf_clock=$("$HELPERS/perf-clock" 2>&1)
case $perf_clock in
cap_user_time=0*) test_set_prereq NO_TSC_CONV ;;
*) say "perf's clock page here: '$perf_clock': the refusal is not checked" ;;
esac
test_expect_success NO_TSC_CONV '--tsc2nsec, -C tsc2nsec: no conversion in perf, one line naming why' '
	why="perf'"'"'s clock page has no user time conversion (cap_user_time 0): the kernel'"'"'s sched_clock is not a stable TSC here" &&
	record_usage 1 "--tsc2nsec -e sched true" "trace-cmd record: --tsc2nsec: $why" &&
	record_usage 1 "-C tsc2nsec -e sched true" "trace-cmd record: -C tsc2nsec: $why" &&
	test $(wc -l <err) = 1 &&
	record_usage 2 "-C tsc2nsec -N h:1 -e sched" \
		"trace-cmd record: -C tsc2nsec cannot be used with -N: the listener writes no TSC2NSEC option" &&
	for o in --tsc2nsec "-C tsc2nsec"; do
		TRACE_CMD_TRACING_DIR=$NOWHERE test_expect_code 1 "$TRACE_CMD" stream $o -e sched 2>err &&
		test "$(cat err)" = "trace-cmd stream: $o: $why" || exit 1
	done
'

test_done
