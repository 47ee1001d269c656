#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='record drives a real kernel'"'"'s function, function_graph and event tracing in a guest, as 3.4 does'
# plain-build: the guest runs under TCG, where the sanitized build records too slowly to keep the suite in bounds
. ./test-lib.sh
. "$TEST_DIR/lib-guest.sh"
. "$TEST_DIR/lib-report.sh"

# The tracefs files record changes for these tracers, as the guest has them.
# (One grep: each process started costs the TCG guest a fraction of a second.)
guest_env 'tracefs_state() {
	( cd $T && grep -H "" current_tracer set_ftrace_filter set_ftrace_notrace set_graph_function \
		 max_graph_depth set_event tracing_on trace_options || : )
}'

# Each recording, by ours and by 3.4 on the same guest: a function filter
# keeps it fast under TCG (every function patched takes seconds to switch on).
# The command reads and writes a file, so vfs_read and vfs_write run.  Ours
# starts from a filter already set for the function tracer cases, which it
# must put back: also what keeps its exit fast (the filter restored while the
# tracer is on, an empty one would patch every function).
# The graph case follows the command alone (-F): what it records fits in one
# compressed chunk a CPU, where our leaf test can look ahead (a leaf whose
# exit lies in the next chunk is drawn as a call with braces: upstream looks
# across chunks, ours not yet).
# NAME, record's options, and the command (cp when none): -P follows a
# subshell that copies once tracing is on, and its child by -c (event-fork).
recordings='
fn	-p function -l vfs_*
graph	-p function_graph -g vfs_read --max-graph-depth 3 -F
notrace	-p function -l vfs_* -n vfs_write
sched	-e sched_switch
mod	-p function -l p9_client_*:mod:9pnet
stack	-p function -l vfs_read --func-stack
evstack	-e sched_switch -T
proc	-p function_graph -g vfs_write --max-graph-depth 2 -O funcgraph-proc -F
pid	-p function -l vfs_* -c -P $child	wait'
seed='echo schedule >$T/set_ftrace_filter'
unseed='echo nop >$T/current_tracer && echo >$T/set_ftrace_filter'
echo "$recordings" | while IFS='	' read -r name args cmd; do
	[ -n "$name" ] || continue
	case $name in fn|notrace|mod|stack|pid) pre=$seed ;; *) pre=: ;; esac
	case $name in
	# The child copies once record has set the tracer (however slow TCG is).
	pid) pre="$pre && { (until grep -q function \$T/current_tracer; do sleep 0.2; done
		sleep 1; cp /etc/os-release copy) & child=\$!; }" ;;
	esac
	cmd=${cmd:-cp /etc/os-release copy}
	[ "$cmd" = wait ] && cmd=
	rec="\"\$TRACE_CMD\" record -o trace.dat $args $cmd"
	# The Debian 6.1 guest refuses every :mod: filter (echo sees EIO, we EINVAL).
	[ $name = mod ] && rec="{ $rec 2>err; echo \$? >rc; }"
	guest_case "$name-ours" "$pre && tracefs_state >before && $rec &&
		tracefs_state >after && $unseed"
	# 3.4 goes on when the kernel refuses :mod: (tracing every function,
	# too slow here), and its -P -c records no function of the children.
	case $name in mod|pid) continue ;; esac
	guest_case "$name-3.4" "[ -n \"\$UPSTREAM34\" ] || exit 0
		$pre && \"\$UPSTREAM34\" record -o trace.dat $args $cmd && $unseed"
done

# The Debian kernel builds no latency tracer: both refuse one, saying so.
for who in ours 3.4; do
	case $who in ours) bin='$TRACE_CMD' ;; *) bin='$UPSTREAM34' ;; esac
	guest_case "wakeup-$who" "cat \$T/available_tracers >tracers &&
		tracefs_state >before &&
		{ \"$bin\" record -o trace.dat -p wakeup true >out 2>err; echo \$? >rc; } &&
		tracefs_state >after"
done
# sqlhist -e makes a synthetic event the guest's kernel fills: the wakeup
# latency of each task, recorded, then removed by our reset.
guest_env 'WL="select end.next_comm as comm, (end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) as lat from sched_waking as start join sched_switch as end on start.pid = end.next_pid"'
for who in ours 3.4; do
	case $who in ours) bin='$TRACE_CMD' ;; *) bin='$UPSTREAM34' ;; esac
	guest_case "sqlhist-$who" "[ -n \"$bin\" ] || exit 0
		\"$bin\" sqlhist -e -n wl \"\$WL\" &&
		cat \$T/dynamic_events >dynamic_events &&
		cat \$T/events/sched/sched_switch/trigger >switch_trigger &&
		\"$bin\" record -o trace.dat -e wl sleep 0.3 &&
		\"\$TRACE_CMD\" reset && cat \$T/dynamic_events >after_reset"
done
guest_boot 600

test_expect_success GUEST 'the guest boots and runs every case' 'guest_booted'

# same_report WHO NAME: our report -l of WHO's recording NAME prints 3.4's
# event lines.  -l on both: 3.4's default line has a latency column ours has not.
same_report() {
	f=$(guest_out "$1-$2")/trace.dat
	"$TRACE_CMD" report -l -i "$f" >ours.out &&
	"$UPSTREAM34" report -l -i "$f" >up.out 2>up.err &&
	events_of ours.out >ours.events && events_of up.out >up.events &&
	test -s up.events && test_cmp up.events ours.events
}

for name in fn graph notrace sched mod stack evstack proc pid; do
	test_expect_success GUEST "record $name: ours leaves the guest's tracefs as found" "
		guest_ok $name-ours && test_cmp \"\$(guest_out $name-ours)/before\" \"\$(guest_out $name-ours)/after\"
	"
	[ $name = mod ] && continue
	test_expect_success GUEST,UPSTREAM34 "record $name: 3.4 reports our file as we do" "
		guest_ok $name-ours && same_report $name ours
	"
	[ $name = pid ] && continue
	test_expect_success GUEST,UPSTREAM34 "record $name: we report 3.4's file as 3.4 does" "
		guest_ok $name-3.4 && same_report $name 3.4
	"
done

# What each recording holds, seen in our report of it.
holds() {
	"$TRACE_CMD" report -i "$(guest_out "$1")/trace.dat" >report.out || return 1
	shift
	for want; do
		grep -q -- "$want" report.out || { echo "no '$want' in:"; head -20 report.out; return 1; }
	done
}

test_expect_success GUEST 'record -p function -l traces the filtered functions only' '
	holds fn-ours "function: *vfs_read" "function: *vfs_write" &&
	! grep "function: " report.out | grep -v "function: *vfs_"
'

test_expect_success GUEST 'record -n leaves the notrace function out' '
	holds notrace-ours "function: *vfs_read" &&
	! grep "function: *vfs_write " report.out
'

test_expect_success GUEST 'record -g --max-graph-depth 3 graphs vfs_read three calls deep' '
	holds graph-ours "vfs_read() {" "funcgraph_entry" &&
	! grep "funcgraph_.*|       [^ ]" report.out
'

test_expect_success GUEST 'record -e sched_switch records the switches' '
	holds sched-ours "sched_switch: .* ==> "
'

# Where the kernel takes the filter, only the module's functions are traced;
# where it refuses it, ours says so and stops (3.4 traces every function).
test_expect_success GUEST 'record -l GLOB:mod:MODULE traces that module'"'"'s functions, or says the kernel refused it' '
	out=$(guest_out mod-ours) &&
	if [ "$(cat "$out/rc")" = 0 ]; then
		holds mod-ours "function: *p9_client_" &&
		! grep "function: " report.out | grep -v "function: *p9_client_"
	else
		test "$(cat "$out/rc")" = 1 && test $(wc -l <"$out/err") = 1 &&
		grep "^trace-cmd record: writing '"'"'p9_client_\*:mod:9pnet'"'"' to '"'"'set_ftrace_filter'"'"': " "$out/err"
	fi
'

test_expect_success GUEST 'record --func-stack follows each traced call with its kernel stack' '
	holds stack-ours "function: *vfs_read" "kernel_stack:" "=> ksys_read"
'

test_expect_success GUEST 'record -T follows each event with its kernel stack' '
	holds evstack-ours "sched_switch: " "kernel_stack:" "=> schedule"
'

# funcgraph-proc shapes the kernel's own text (trace), not the recorded
# events: the option exists only once function_graph is set, and record sets
# it (and puts it back) without a word.
test_expect_success GUEST 'record -O funcgraph-proc: an option of the tracer alone is set without a word' '
	holds proc-ours "vfs_write() {" &&
	! grep -qi "option\|warning\|error" "$(guest_out proc-ours)/.output"
'

test_expect_success GUEST 'record -P PID -c: follows the pid and its children, and ends when they exit' '
	holds pid-ours "cp-[0-9]* .*function: *vfs_read" "cp-[0-9]* .*function: *vfs_write"
'

test_expect_success GUEST 'record -p wakeup where the kernel lacks it: a clear error, exit 1, tracefs as found, as 3.4 refuses it' '
	out=$(guest_out wakeup-ours) &&
	guest_ok wakeup-ours && ! grep -qw wakeup "$out/tracers" &&
	test "$(cat "$out/rc")" = 1 &&
	test $(wc -l <"$out/err") = 1 &&
	grep -q "^trace-cmd record: tracer '"'"'wakeup'"'"' is not available (available: .*function_graph" "$out/err" &&
	test_cmp "$out/before" "$out/after" &&
	{ ! test_have_prereq UPSTREAM34 || test "$(cat "$(guest_out wakeup-3.4)/rc")" != 0; }
'

# Trigger variables carry a number of each run's own.
test_expect_success GUEST 'sqlhist -e makes the synthetic event 3.4 makes, the kernel fills it, reset removes it' '
	out=$(guest_out sqlhist-ours) && guest_ok sqlhist-ours &&
	{ grep -q "wl[[:space:]]*char.*comm; u64 lat" "$out/dynamic_events" || { cat "$out/dynamic_events"; false; }; } &&
	{ grep -q "onmatch(sched\.sched_waking)\.\(wl(\|trace(wl,\)" "$out/switch_trigger" ||
		{ cat "$out/switch_trigger"; false; }; } &&
	holds sqlhist-ours "wl: *comm=.* lat=[0-9]" &&
	{ test ! -s "$out/after_reset" || { echo "left after reset:"; cat "$out/after_reset"; false; }; } &&
	if test_have_prereq UPSTREAM34; then
		guest_ok sqlhist-3.4 &&
		test_cmp "$(guest_out sqlhist-3.4)/dynamic_events" "$out/dynamic_events" &&
		sed -E "s/_[0-9]+_/_N_/g" "$(guest_out sqlhist-3.4)/switch_trigger" >theirs &&
		sed -E "s/_[0-9]+_/_N_/g" "$out/switch_trigger" >ours &&
		test_cmp theirs ours && same_report sqlhist 3.4
	fi
'

test_done
