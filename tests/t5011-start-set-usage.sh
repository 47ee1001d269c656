#!/bin/bash
# start and set refuse empty names and a CPU mask that selects no CPU as
# usage errors, on the real tracefs, and leave it exactly as it was (set -e ''
# once enabled every event).
. "$(dirname "$0")/test-lib.sh"

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
fi

# check_refused CMD "ARGS" "stderr's first line": exit 2, the usage after
# the error, and tracefs unchanged.
check_refused() {
	cmd=$1 msg=$3
	eval "set -- $2"
	tracefs_state >before
	check_usage 2 "$msg" $cmd "$@" || return 1
	tracefs_state >after
	test_cmp before after || { echo "$cmd $* changed tracefs"; return 1; }
}

for cmd in set start; do
	test_expect_success TRACEFS "$cmd: an empty name is a usage error that changes nothing" '
		check_refused $cmd "-e \"\"" "trace-cmd $cmd: -e needs an event name" &&
		check_refused $cmd "-e \" \"" "trace-cmd $cmd: -e needs an event name" &&
		check_refused $cmd "-e sched_switch -e \"\"" "trace-cmd $cmd: -e needs an event name" &&
		check_refused $cmd "-B inst -e \"\"" "trace-cmd $cmd: -e needs an event name" &&
		check_refused $cmd "-e sched_switch -f \"\"" "trace-cmd $cmd: -f needs a filter" &&
		check_refused $cmd "-e sched_switch -R \"\"" "trace-cmd $cmd: -R needs a trigger" &&
		check_refused $cmd "-p \"\"" "trace-cmd $cmd: -p needs a tracer name" &&
		check_refused $cmd "-C \"\"" "trace-cmd $cmd: -C needs a clock name" &&
		check_refused $cmd "-O \"\"" "trace-cmd $cmd: -O needs a trace option" &&
		check_refused $cmd "-B \"\"" "trace-cmd $cmd: -B needs an instance name" &&
		check_refused $cmd "-p function -l \"\"" "trace-cmd $cmd: -l needs a function name" &&
		check_refused $cmd "--module \"\"" "trace-cmd $cmd: --module needs a module name"
	'

	test_expect_success TRACEFS "$cmd: a CPU mask that selects no CPU is a usage error" '
		check_refused $cmd "-M 0" "trace-cmd $cmd: invalid -M value '"'"'0'"'"': the mask selects no CPU" &&
		check_refused $cmd "-M 0,00000000" "trace-cmd $cmd: invalid -M value '"'"'0,00000000'"'"': the mask selects no CPU" &&
		check_refused $cmd "-M \"\"" "trace-cmd $cmd: invalid -M value '"'"''"'"': not a hex CPU mask"
	'
done

test_expect_success TRACEFS 'set -e with a name still enables just that event' '
	tracefs_state >before &&
	"$TRACE_CMD" set -e sched_switch &&
	cat "$T/set_event" >set_event
	echo >"$T/set_event" &&
	echo sched:sched_switch >expect &&
	test_cmp expect set_event &&
	tracefs_state >after &&
	test_cmp before after
'

test_done
