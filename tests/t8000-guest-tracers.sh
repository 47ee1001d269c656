#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='record drives a real kernel'"'"'s function, function_graph and event tracing in a guest, as 3.4 does'
# plain-build: the guest runs under TCG, where the sanitized build records too slowly to keep the suite in bounds
. ./test-lib.sh
. "$TEST_DIR/lib-guest.sh"
. "$TEST_DIR/lib-report.sh"

# The tracefs files record changes for these tracers, as the guest has them.
guest_env 'tracefs_state() {
	for f in current_tracer set_ftrace_filter set_ftrace_notrace set_graph_function \
		 max_graph_depth set_event tracing_on trace_options; do
		printf "%s: %s\n" $f "$(tr "\n" " " <$T/$f)"
	done
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
recordings='
fn	-p function -l vfs_*
graph	-p function_graph -g vfs_read --max-graph-depth 3 -F
notrace	-p function -l vfs_* -n vfs_write
sched	-e sched_switch'
seed='echo schedule >$T/set_ftrace_filter'
unseed='echo nop >$T/current_tracer && echo >$T/set_ftrace_filter'
echo "$recordings" | while IFS='	' read -r name args; do
	[ -n "$name" ] || continue
	case $name in fn|notrace) pre=$seed ;; *) pre=: ;; esac
	guest_case "$name-ours" "$pre && tracefs_state >before &&
		\"\$TRACE_CMD\" record -o trace.dat $args cp /etc/os-release copy &&
		tracefs_state >after && $unseed"
	guest_case "$name-3.4" "[ -n \"\$UPSTREAM34\" ] || exit 0
		$pre && \"\$UPSTREAM34\" record -o trace.dat $args cp /etc/os-release copy && $unseed"
done
guest_boot

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

for name in fn graph notrace sched; do
	test_expect_success GUEST "record $name: ours leaves the guest's tracefs as found" "
		guest_ok $name-ours && test_cmp \"\$(guest_out $name-ours)/before\" \"\$(guest_out $name-ours)/after\"
	"
	test_expect_success GUEST,UPSTREAM34 "record $name: 3.4 reports our file as we do" "
		guest_ok $name-ours && same_report $name ours
	"
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

test_done
