#!/bin/bash
# record's tracer and filter options against a fake tracing directory that
# offers the tracers this kernel lacks: what each writes, seen by the command
# while it runs, and that every file is put back afterwards.
. "$(dirname "$0")/test-lib.sh"

# The fixture plus the tracer files: function tracers' filter files empty as
# the kernel shows them when unset (the kernel's "#### all functions
# enabled ####" is tested below), a trigger file as the kernel lists one.
make_fake() {
	rm -rf fake-orig && cp -r "$FIXTURES/fake-tracing" fake-orig &&
	echo "blk function_graph wakeup_rt wakeup function hwlat nop" >fake-orig/available_tracers &&
	printf "%s\n" schedule do_IRQ vfs_read vfs_write "ext4_readdir [ext4]" \
		"ext4_file_open [ext4]" >fake-orig/available_filter_functions &&
	: >fake-orig/set_ftrace_filter && : >fake-orig/set_ftrace_notrace &&
	: >fake-orig/set_graph_function && echo 0 >fake-orig/max_graph_depth &&
	mkdir -p fake-orig/options && echo 0 >fake-orig/options/func_stack_trace &&
	printf "# Available triggers:\n# traceon traceoff\n" \
		>fake-orig/events/sched/sched_switch/trigger
}
make_fake


# Runs record with "$@" and a command that prints the files named in $SHOW
# as they are while recording (NAME: content, one line each).
show_during() {
	fresh_fake &&
	"$TRACE_CMD" record "$@" -o t.dat sh -c 'cd fake && for f in $SHOW; do
		echo "$f: $(paste -sd" " $f)"; done' >during 2>err
}

test_expect_success '-p writes the tracer, and the old one comes back' '
	SHOW="current_tracer" show_during -p wakeup_rt &&
	echo "current_tracer: wakeup_rt" >expect && test_cmp expect during &&
	diff -r fake-orig fake && test -s t.dat
'

test_expect_success '-p without -e records, with -e both' '
	SHOW="current_tracer events/sched/sched_switch/enable" show_during -p hwlat -e sched_switch &&
	printf "%s\n" "current_tracer: hwlat" "events/sched/sched_switch/enable: 1" >expect &&
	test_cmp expect during && diff -r fake-orig fake
'

test_expect_success 'a tracer the kernel lacks: exit 1, the list, nothing touched' '
	fresh_fake &&
	test_expect_code 1 "$TRACE_CMD" record -p irqsoff -e sched -o x.dat true 2>err &&
	echo "trace-cmd record: tracer '"'"'irqsoff'"'"' is not available (available: blk function_graph wakeup_rt wakeup function hwlat nop)" >expect &&
	test_cmp expect err && diff -r fake-orig fake && test ! -e x.dat
'

test_expect_success 'two different -p are a usage error' '
	fresh_fake &&
	test_expect_code 2 "$TRACE_CMD" record -p function -p wakeup -o x.dat true 2>err &&
	head -1 err >first &&
	echo "trace-cmd record: only one -p: '"'"'function'"'"' and '"'"'wakeup'"'"' given" >expect &&
	test_cmp expect first && grep -q "^usage: trace-cmd record" err
'

test_expect_success '-l, -n and --max-graph-depth, -g with function_graph' '
	SHOW="current_tracer set_ftrace_filter set_ftrace_notrace set_graph_function max_graph_depth" \
		show_during -p function_graph -l "vfs_*" -l do_IRQ -n vfs_write -g schedule \
		--max-graph-depth 3 &&
	cat >expect <<-\EOF &&
	current_tracer: function_graph
	set_ftrace_filter: vfs_* do_IRQ
	set_ftrace_notrace: vfs_write
	set_graph_function: schedule
	max_graph_depth: 3
	EOF
	test_cmp expect during && diff -r fake-orig fake
'

test_expect_success '--func-stack turns func_stack_trace on with -p function' '
	SHOW="current_tracer options/func_stack_trace set_ftrace_filter" \
		show_during -p function -l schedule --func-stack &&
	printf "%s\n" "current_tracer: function" "options/func_stack_trace: 1" \
		"set_ftrace_filter: schedule" >expect &&
	test_cmp expect during && diff -r fake-orig fake
'

test_expect_success '--module limits -l to the module, alone it takes all of it' '
	SHOW=set_ftrace_filter show_during -p function -l "ext4_*" --module ext4 &&
	echo "set_ftrace_filter: ext4_*:mod:ext4" >expect && test_cmp expect during &&
	SHOW=set_ftrace_filter show_during -p function --module ext4 &&
	echo "set_ftrace_filter: :mod:ext4" >expect && test_cmp expect during &&
	diff -r fake-orig fake
'

test_expect_success '-l GLOB:mod:MODULE (the kernel'"'"'s own form) is checked against the module and written as given' '
	SHOW=set_ftrace_filter show_during -p function -l "ext4_*:mod:ext4" &&
	echo "set_ftrace_filter: ext4_*:mod:ext4" >expect && test_cmp expect during &&
	SHOW=set_ftrace_filter show_during -p function -l ":mod:ext4" &&
	echo "set_ftrace_filter: :mod:ext4" >expect && test_cmp expect during &&
	test_expect_code 1 "$TRACE_CMD" record -p function -l "vfs_*:mod:ext4" -o x.dat true 2>err &&
	echo "trace-cmd record: no function matches '"'"'vfs_*:mod:ext4'"'"' (see available_filter_functions)" >expect &&
	test_cmp expect err && diff -r fake-orig fake && test ! -e x.dat
'

test_expect_success 'a filter set before record is written back, the kernel form cleared' '
	fresh_fake && printf "do_IRQ\nschedule\n" >fake/set_ftrace_filter &&
	echo "#### all functions enabled ####" >fake/set_graph_function &&
	"$TRACE_CMD" record -p function_graph -l vfs_read -g vfs_write -o t.dat \
		cat fake/set_ftrace_filter >during 2>/dev/null &&
	echo vfs_read >expect && test_cmp expect during &&
	printf "do_IRQ\nschedule\n" >expect && test_cmp expect fake/set_ftrace_filter &&
	test ! -s fake/set_graph_function
'

test_expect_success '-k keeps the function filters too' '
	fresh_fake &&
	"$TRACE_CMD" record -q -k -p function -l schedule -o t.dat true 2>/dev/null &&
	echo schedule >expect && test_cmp expect fake/set_ftrace_filter &&
	test "$(cat fake/current_tracer)" = function
'

test_expect_success 'an unknown function is named, nothing touched' '
	fresh_fake &&
	test_expect_code 1 "$TRACE_CMD" record -p function -l schedule -l "nosuch*" -o x.dat true 2>err &&
	echo "trace-cmd record: no function matches '"'"'nosuch*'"'"' (see available_filter_functions)" >expect &&
	test_cmp expect err &&
	test_expect_code 1 "$TRACE_CMD" record -p function -l "vfs_*" --module ext4 -o x.dat true 2>err &&
	echo "trace-cmd record: no function of module '"'"'ext4'"'"' matches '"'"'vfs_*'"'"'" >expect &&
	test_cmp expect err &&
	test_expect_code 1 "$TRACE_CMD" record -p function_graph -g nosuch -o x.dat true 2>err &&
	echo "trace-cmd record: no function matches '"'"'nosuch'"'"' (see available_filter_functions)" >expect &&
	test_cmp expect err && diff -r fake-orig fake && test ! -e x.dat
'

# The function options make no sense with other tracers: usage errors.
fake_usage() {
	msg=$1; shift
	fresh_fake && check_usage 2 "trace-cmd record: $msg" record "$@" -o x.dat true &&
	diff -r fake-orig fake
}

test_expect_success 'function options without their tracer are usage errors' '
	fake_usage "-l needs -p function or -p function_graph" -e sched -l schedule &&
	fake_usage "-l needs -p function or -p function_graph" -p wakeup -l schedule &&
	fake_usage "-n needs -p function or -p function_graph" -p nop -n schedule &&
	fake_usage "--module needs -p function or -p function_graph" -e sched --module ext4 &&
	fake_usage "-g needs -p function_graph" -p function -g schedule &&
	fake_usage "--max-graph-depth needs -p function_graph" -p function --max-graph-depth 2 &&
	fake_usage "--func-stack needs -p function" -p function_graph --func-stack &&
	fake_usage "invalid --max-graph-depth value '"'"'x'"'"': not a number" \
		-p function_graph --max-graph-depth x &&
	fake_usage "-f must follow an -e" -f "pid == 1" -e sched &&
	fake_usage "-R must follow an -e" -R traceoff -e sched
'

test_expect_success '-f filters the events of the -e before it' '
	SHOW="events/sched/sched_switch/filter events/sched/sched_wakeup/filter events/irq/irq_handler_entry/filter" \
		show_during -e irq -e "sched:sched_switch" -f "prev_pid != 0" -e sched_wakeup &&
	cat >expect <<-\EOF &&
	events/sched/sched_switch/filter: prev_pid != 0
	events/sched/sched_wakeup/filter: none
	events/irq/irq_handler_entry/filter: none
	EOF
	test_cmp expect during &&
	echo 0 >expect && test_cmp expect fake/events/sched/sched_switch/filter
'

test_expect_success '-f after a system spec filters each of its events' '
	SHOW="events/irq/irq_handler_entry/filter events/irq/irq_handler_exit/filter" \
		show_during -e irq -f "irq == 5" &&
	printf "%s\n" "events/irq/irq_handler_entry/filter: irq == 5" \
		"events/irq/irq_handler_exit/filter: irq == 5" >expect &&
	test_cmp expect during
'

test_expect_success '-R sets the trigger, removed afterwards with !TRIGGER' '
	SHOW="events/sched/sched_switch/trigger" \
		show_during -e sched_switch -R "hist:keys=next_pid" &&
	echo "events/sched/sched_switch/trigger: hist:keys=next_pid" >expect &&
	test_cmp expect during &&
	echo "!hist:keys=next_pid" >expect &&
	test_cmp expect fake/events/sched/sched_switch/trigger
'

test_done
