#!/bin/bash
# Every command of trace-cmd-start(1) and its siblings works when tracefs is not mounted:
# each runs in its own mount namespace with empty tmpfs over /sys/kernel/tracing and
# /sys/kernel/debug, mounts tracefs itself, and sees the same tracefs as outside.
. "$(dirname "$0")/test-lib.sh"

command -v unshare >/dev/null && test_set_prereq UNSHARE
if test_have_prereq TRACEFS,UNSHARE; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
	trap '"$TRACE_CMD" reset >/dev/null 2>&1; cd /; rm -rf "$TRASH"' EXIT
	tracefs_state >orig.state
fi

# unmounted CMD ARGS...: trace-cmd CMD in a namespace where nothing is mounted at first.
unmounted() {
	unshare -m sh -c 'mount -t tmpfs none /sys/kernel/tracing && mount -t tmpfs none /sys/kernel/debug &&
		! grep -q . /sys/kernel/tracing/* 2>/dev/null && exec "$@"' sh "$TRACE_CMD" "$@"
}

test_expect_success TRACEFS,UNSHARE 'stat, show, list and snapshot mount tracefs and print what is outside' '
	unmounted stat >got && "$TRACE_CMD" stat >want && test_cmp want got &&
	unmounted show --tracing_on --current_tracer >got && cat "$T/tracing_on" "$T/current_tracer" >want &&
	test_cmp want got &&
	unmounted list -t >got && test_cmp "$T/available_tracers" got &&
	unmounted list -e "^sched:sched_switch$" >got && echo sched:sched_switch >want && test_cmp want got &&
	if [ -e "$T/snapshot" ]; then unmounted snapshot >/dev/null; else
		test_expect_code 1 unmounted snapshot 2>err &&
		grep -q "this kernel has no snapshot buffer" err
	fi
'

test_expect_success TRACEFS,UNSHARE,UPSTREAM 'start, stop, extract, clear and reset each mount tracefs and act on it' '
	unmounted start -e sched_switch &&
	test "$(cat "$T/set_event")" = sched:sched_switch && test "$(cat "$T/tracing_on")" = 1 &&
	echo "marked outside" >"$T/trace_marker" &&
	unmounted stop && test "$(cat "$T/tracing_on")" = 0 &&
	unmounted restart && test "$(cat "$T/tracing_on")" = 1 &&
	unmounted stop &&
	unmounted extract -o un.dat &&
	"$UPSTREAM" report -i un.dat 2>/dev/null | sed -n "s/^.*tracing_mark_write: //p" >got &&
	echo "marked outside" >want && test_cmp want got &&
	unmounted set -e sched_wakeup && grep -qx sched:sched_wakeup "$T/set_event" &&
	echo "to clear" >"$T/trace_marker" 2>/dev/null; unmounted clear && ! grep -q "to clear" "$T/trace" &&
	unmounted reset 2>/dev/null &&
	tracefs_state >now.state && test_cmp orig.state now.state
'

test_expect_success TRACEFS,UNSHARE 'restore -c mounts tracefs to read the formats' '
	unmounted restore -c -o part.dat && test -s part.dat
'

test_expect_success TRACEFS,UNSHARE 'when nothing can be mounted, the error says so' '
	# An empty read-only /sys/kernel: no mount point for tracefs or debugfs.
	test_expect_code 1 unshare -m sh -c "mount -t tmpfs -o ro none /sys/kernel && exec \"\$@\"" \
		sh "$TRACE_CMD" stat 2>err &&
	echo "trace-cmd stat: cannot mount tracefs at '"'"'/sys/kernel/tracing'"'"': No such file or directory" >want &&
	test_cmp want err
'

test_done
