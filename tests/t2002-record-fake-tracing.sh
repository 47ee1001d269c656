#!/bin/bash
# record against a fake tracing directory ($TRACE_CMD_TRACING_DIR): the
# writer's file is checked byte for byte where it is deterministic, through
# upstream's report, and the directory is left exactly as it was.
. "$(dirname "$0")/test-lib.sh"

FAKE=$FIXTURES/fake-tracing

# A fresh copy of the fake tracing directory in ./fake.
rm -rf fake-orig && cp -r "$FAKE" fake-orig || exit 1

# The event lines of a report, without the header.  Markers (print) are left
# out: their address resolves through the machine's own /proc/kallsyms.
events_of() { sed '0,/^cpus=/d; / print: /d' "$1"; }

test_expect_success 'record reads the per-CPU pages and writes them page-aligned' '
	fresh_fake &&
	"$TRACE_CMD" record --file-version 6 -e sched_switch -e "sched:sched_wak*" -o f.dat true 2>err &&
	"$HELPERS/dump-header" f.dat >layout &&
	grep -qx "version 6" layout && grep -qx "cpus 2" layout &&
	grep -qx "clock local" layout && grep -qx "formats 5" layout && # 2 ftrace + 3
	grep -qx "  cpu 0 offset [0-9]* size 8192" layout &&
	grep -qx "  cpu 1 offset [0-9]* size 4096" layout &&
	for off in $(sed -n "s/^  cpu [0-9]* offset \([0-9]*\) .*/\1/p" layout); do
		test $((off % 4096)) = 0 || { echo "offset $off not page-aligned"; exit 1; }
	done &&
	off0=$(sed -n "s/^  cpu 0 offset \([0-9]*\) .*/\1/p" layout) &&
	cmp -n 8192 fake/per_cpu/cpu0/trace_pipe_raw <(tail -c +$((off0 + 1)) f.dat)
'

test_expect_success 'the options hold the CPU stats, clock, uname and version' '
	grep -c "^option 2 " layout >n && echo 2 >expect && test_cmp expect n &&
	grep -q "^option 4 size $(($(wc -c <fake/trace_clock) + 1))$" layout &&
	grep -qx "option 5 size [0-9]* '"'"'$(uname -s) $(uname -n) $(uname -r) $(uname -m)'"'"'" layout &&
	grep -q "^option 9 .*3\.1\.6" layout
'

test_expect_success 'our report of the file shows the recorded events' '
	"$TRACE_CMD" report --line-3.1 -i f.dat >ours &&
	events_of ours >ours.events &&
	sed "/ print: /d" "$FIXTURES/fake-tracing.report" >expect &&
	test_cmp expect ours.events
'

test_expect_success UPSTREAM "upstream's report of the file equals the expected events" '
	"$UPSTREAM" report -i f.dat >theirs 2>theirs.err &&
	events_of theirs >theirs.events &&
	sed "/ print: /d" "$FIXTURES/fake-tracing.report" >expect &&
	test_cmp expect theirs.events
'

test_expect_success 'the summary counts the events of each CPU' '
	grep -qx "CPU0: 139 events recorded (8192 bytes), 0 events lost" err &&
	grep -qx "CPU1: 14 events recorded (4096 bytes), 0 events lost" err
'

test_expect_success 'the tracing directory is left exactly as it was' '
	diff -r "$FAKE" fake
'

test_expect_success 'a kernel without "read events" in its stats: the pages are counted' '
	fresh_fake && sed -i "/^read events:/d" fake/per_cpu/cpu*/stats &&
	"$TRACE_CMD" record -e sched_switch -o n.dat true 2>err2 &&
	grep -qx "CPU0: 139 events recorded (8192 bytes), 0 events lost" err2 &&
	grep -qx "CPU1: 14 events recorded (4096 bytes), 0 events lost" err2
'

# What each -e form enables, seen by the command while recording.
enabled_by() {
	fresh_fake &&
	"$TRACE_CMD" record "$@" -o e.dat sh -c "cd fake/events && grep -l ^1 */*/enable" \
		>enabled 2>/dev/null &&
	diff -r "$FAKE" fake
}

test_expect_success 'each -e form enables exactly its events' '
	enabled_by -e sched_switch && echo sched/sched_switch/enable >expect &&
	test_cmp expect enabled &&
	enabled_by -e irq && printf "irq/%s/enable\n" irq_handler_entry irq_handler_exit >expect &&
	test_cmp expect enabled &&
	enabled_by -e "irq:*_exit" -e "sched:sched_wak*" &&
	printf "%s/enable\n" irq/irq_handler_exit sched/sched_wakeup sched/sched_waking >expect &&
	test_cmp expect enabled &&
	enabled_by -e "*:sched_switch" && echo sched/sched_switch/enable >expect &&
	test_cmp expect enabled &&
	enabled_by -e all && (cd fake/events && ls */*/enable) >expect &&
	test_cmp expect enabled
'

test_expect_success 'only the recorded systems have their formats in the file' '
	fresh_fake &&
	"$TRACE_CMD" record -e irq_handler_entry -o one.dat true 2>/dev/null &&
	"$HELPERS/dump-header" one.dat | grep -qx "formats 3" &&
	"$TRACE_CMD" report -i one.dat --events >events &&
	grep -q "irq_handler_entry" events && ! grep -q "sched_switch" events
'

test_expect_success 'an event already enabled stays enabled afterwards' '
	fresh_fake && echo 1 >fake/events/sched/sched_switch/enable &&
	"$TRACE_CMD" record -e sched -o k.dat true 2>/dev/null &&
	echo 1 >expect && test_cmp expect fake/events/sched/sched_switch/enable &&
	echo 0 >expect && test_cmp expect fake/events/sched/sched_wakeup/enable
'

test_expect_success 'an unmatched spec among good ones changes nothing' '
	fresh_fake &&
	test_expect_code 1 "$TRACE_CMD" record -e sched -e "irq:nosuch*" -o x.dat true 2>err &&
	test "$(cat err)" = "trace-cmd record: no event matches '"'"'irq:nosuch*'"'"'" &&
	diff -r "$FAKE" fake && test ! -e x.dat
'

test_expect_success 'a tracing directory that does not exist is named' '
	TRACE_CMD_TRACING_DIR=$PWD/nowhere test_expect_code 1 \
		"$TRACE_CMD" record -e sched -o x.dat true 2>err &&
	grep -q "tracing directory '"'"'$PWD/nowhere'"'"' (from TRACE_CMD_TRACING_DIR)" err &&
	test ! -e x.dat
'

test_done
