#!/bin/bash
# start and set take record's function filter options for the top buffer:
# what they write in a fake tracing directory, kept afterwards (that is
# what they are for), and the errors that change nothing.
. "$(dirname "$0")/test-lib.sh"

rm -rf fake-orig && cp -r "$FIXTURES/fake-tracing" fake-orig &&
echo "function function_graph nop" >fake-orig/available_tracers &&
printf "%s\n" schedule vfs_read vfs_write "ext4_readdir [ext4]" >fake-orig/available_filter_functions &&
: >fake-orig/set_ftrace_filter && : >fake-orig/set_ftrace_notrace &&
: >fake-orig/set_graph_function && echo 0 >fake-orig/max_graph_depth &&
: >fake-orig/set_event &&
mkdir -p fake-orig/options && echo 0 >fake-orig/options/func_stack_trace || exit 1

show() { for f in "$@"; do echo "$f: $(paste -sd" " fake/$f)"; done; }

test_expect_success 'set -p function_graph -l -n -g --max-graph-depth writes each file' '
	fresh_fake &&
	"$TRACE_CMD" set -p function_graph -l "vfs_*" -n vfs_write -g schedule --max-graph-depth 4 &&
	show current_tracer set_ftrace_filter set_ftrace_notrace set_graph_function \
		max_graph_depth >got &&
	cat >expect <<-\EOF &&
	current_tracer: function_graph
	set_ftrace_filter: vfs_*
	set_ftrace_notrace: vfs_write
	set_graph_function: schedule
	max_graph_depth: 4
	EOF
	test_cmp expect got
'

test_expect_success 'start -p function --module --func-stack, tracing on' '
	fresh_fake &&
	"$TRACE_CMD" start -p function --module ext4 --func-stack &&
	show current_tracer set_ftrace_filter options/func_stack_trace tracing_on >got &&
	printf "%s\n" "current_tracer: function" "set_ftrace_filter: :mod:ext4" \
		"options/func_stack_trace: 1" "tracing_on: 1" >expect &&
	test_cmp expect got
'

test_expect_success 'start -P -c -M -T -d --cmdlines-size writes each file and keeps it' '
	fresh_fake && : >fake/set_event_pid && : >fake/set_ftrace_pid &&
	echo ff >fake/tracing_cpumask && echo 128 >fake/saved_cmdlines_size &&
	for o in stacktrace event-fork function-fork; do echo 0 >fake/options/$o; done &&
	echo 1 >fake/options/function-trace &&
	"$TRACE_CMD" start -e sched_switch -P 12 -P 345 -c -M 3 -T -d --cmdlines-size 1024 &&
	show set_event_pid tracing_cpumask options/stacktrace options/event-fork \
		options/function-trace saved_cmdlines_size tracing_on >got &&
	cat >expect <<-\EOF &&
	set_event_pid: 12 345
	tracing_cpumask: 3
	options/stacktrace: 1
	options/event-fork: 1
	options/function-trace: 0
	saved_cmdlines_size: 1024
	tracing_on: 1
	EOF
	test_cmp expect got
'

test_expect_success 'start -i: an -e matching nothing is a warning, the others enabled' '
	fresh_fake &&
	"$TRACE_CMD" start -i -e sched_switch -e no_such_event_xyz -f "pid > 1" 2>err &&
	echo "trace-cmd start: warning: no event matches '"'"'no_such_event_xyz'"'"': ignored (-i)" >expect &&
	test_cmp expect err &&
	test "$(cat fake/events/sched/sched_switch/enable)" = 1 &&
	test "$(cat fake/events/sched/sched_wakeup/enable)" = 0 &&
	test_expect_code 1 "$TRACE_CMD" start -e sched_switch -e no_such_event_xyz 2>err &&
	grep -q "no event matches '"'"'no_such_event_xyz'"'"'" err
'

test_expect_success 'start -e sched -v -e sched_switch: the system without that event' '
	fresh_fake &&
	"$TRACE_CMD" start -e sched -v -e sched_switch &&
	for e in sched_switch sched_wakeup sched_waking; do
		echo "$e $(cat fake/events/sched/$e/enable)"; done >got &&
	printf "%s\n" "sched_switch 0" "sched_wakeup 1" "sched_waking 1" >expect && test_cmp expect got
'

fake_usage() {
	msg=$1; shift
	fresh_fake && check_usage 2 "$msg" "$@" && diff -r fake-orig fake
}

test_expect_success 'start -P, -M, -T, --cmdlines-size after -B, -c without -P: usage errors' '
	fake_usage "trace-cmd start: -P applies to the top buffer, not -B foo" start -B foo -e sched -P 1 &&
	fake_usage "trace-cmd start: -T applies to the top buffer, not -B foo" start -B foo -e sched -T &&
	fake_usage "trace-cmd start: --cmdlines-size applies to the whole kernel, not -B foo" \
		start -B foo -e sched --cmdlines-size 10 &&
	fake_usage "trace-cmd start: invalid -M value '"'"'xyz'"'"': not a hex CPU mask" start -M xyz &&
	fake_usage "trace-cmd start: -c needs -F or -P" start -e sched -c &&
	fake_usage "trace-cmd start: -v must come before an -e" start -e sched -v &&
	fake_usage "trace-cmd start: -f cannot follow a -v -e: its events are not enabled" \
		start -e sched -v -e sched_switch -f "prev_pid > 1"
'

test_expect_success 'function filters without their tracer, or after -B: usage errors' '
	fake_usage "trace-cmd set: -l needs -p function or -p function_graph" set -l schedule &&
	fake_usage "trace-cmd start: -g needs -p function_graph" start -p function -g schedule &&
	fake_usage "trace-cmd set: function filters apply to the top buffer, not -B foo" \
		set -B foo -p function -l schedule
'

test_expect_success 'an unknown function: named, exit 1, nothing changed' '
	fresh_fake &&
	test_expect_code 1 "$TRACE_CMD" start -p function -l nosuch 2>err &&
	echo "trace-cmd start: no function matches '"'"'nosuch'"'"' (see available_filter_functions)" >expect &&
	test_cmp expect err && diff -r fake-orig fake
'

test_done
