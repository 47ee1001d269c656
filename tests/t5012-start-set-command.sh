#!/bin/bash
# start and set take upstream 3.4's run options: a COMMAND run with tracing
# set up (-F, --fork, --user), -K keeping the buffer, --subbuf-size, and -k,
# -q, --verbose accepted; on a fake tracing directory (this kernel has no
# buffer_subbuf_size_kb), then the clear refusal on the real tracefs.
. "$(dirname "$0")/test-lib.sh"

rm -rf fake-orig && cp -r "$FIXTURES/fake-tracing" fake-orig &&
echo "function function_graph nop" >fake-orig/available_tracers &&
: >fake-orig/set_event && : >fake-orig/set_event_pid && echo 0 >fake-orig/tracing_on &&
mkdir -p fake-orig/options && echo 0 >fake-orig/options/event-fork || exit 1

# holds FILE VALUE: FILE (the fake's files have no newline once written) reads VALUE.
holds() {
	test "$(cat "$1")" = "$2" || { echo "$1 reads '"'"'$(cat "$1")'"'"', not '"'"'$2'"'"'"; return 1; }
}

# Upstream 3.4 exits 0 whatever COMMAND's status (an upstream bug kept fixed):
# ours is the command's, as record's is.
test_expect_success 'start COMMAND: tracing goes on before it runs; its exit status is ours, not 0 as upstream' '
	fresh_fake &&
	test_expect_code 3 "$TRACE_CMD" start -e sched_switch sh -c "cat fake/tracing_on; exit 3" >out &&
	holds out 1 &&
	holds fake/tracing_on 1 &&
	holds fake/events/sched/sched_switch/enable 1
'

test_expect_success 'set COMMAND runs it with tracing_on left as it was' '
	fresh_fake &&
	"$TRACE_CMD" set -e sched_switch sh -c "cat fake/tracing_on" >out &&
	holds out 0 && holds fake/tracing_on 0 &&
	holds fake/events/sched/sched_switch/enable 1
'

test_expect_success 'a COMMAND killed by a signal: 128 plus its number' '
	fresh_fake &&
	test_expect_code 143 "$TRACE_CMD" start -e sched_switch sh -c "kill -TERM \$\$"
'

test_expect_success 'start -F: the command pid in set_event_pid, written before it executes' '
	fresh_fake &&
	"$TRACE_CMD" start -e sched_switch -F sh -c "cat fake/set_event_pid; echo; echo \$\$" >out &&
	test "$(sed -n 1p out)" = "$(sed -n 2p out)" &&
	test "$(cat fake/set_event_pid)" = "$(sed -n 2p out)"
'

test_expect_success 'start -F -c: options/event-fork on, for the children' '
	fresh_fake &&
	"$TRACE_CMD" start -e sched_switch -F -c true &&
	holds fake/options/event-fork 1
'

test_expect_success 'start -F -c -B NAME: the pid and event-fork in the instance; the unused top buffer untouched' '
	fresh_fake && mkdir -p fake/instances/foo &&
	cp -r fake/events fake/set_event fake/set_event_pid fake/options fake/tracing_on fake/trace \
		fake/current_tracer fake/instances/foo/ &&
	"$TRACE_CMD" start -F -c -B foo -e sched_switch sh -c "echo \$\$" >out &&
	holds fake/instances/foo/set_event_pid "$(cat out)" &&
	holds fake/instances/foo/options/event-fork 1 && holds fake/instances/foo/tracing_on 1 &&
	holds fake/options/event-fork 0 && holds fake/tracing_on 0 && holds fake/set_event_pid ""
'

test_expect_success '--fork returns once the command runs, without waiting' '
	fresh_fake &&
	"$TRACE_CMD" start -e sched_switch --fork sh -c "echo \$\$ >pid.tmp; mv pid.tmp pid; exec sleep 10" &&
	for i in 1 2 3 4 5 6 7 8 9 10; do test -s pid && break; sleep 0.2; done &&
	kill -0 "$(cat pid)" && kill "$(cat pid)"
'

test_expect_success '--user runs the command as that user' '
	fresh_fake &&
	"$TRACE_CMD" set -e sched_switch --user nobody id -un >out &&
	echo nobody >expect && test_cmp expect out
'

test_expect_success 'start -K keeps what the buffer holds; start alone clears it' '
	fresh_fake &&
	echo held >fake/trace &&
	"$TRACE_CMD" start -K -e sched_switch &&
	holds fake/trace held &&
	"$TRACE_CMD" start -e sched_switch &&
	test_must_fail test -s fake/trace
'

test_expect_success '--subbuf-size writes buffer_subbuf_size_kb, per buffer like -b' '
	fresh_fake && echo 4 >fake/buffer_subbuf_size_kb &&
	"$TRACE_CMD" set -e sched_switch --subbuf-size 16 &&
	holds fake/buffer_subbuf_size_kb 16
'

test_expect_success 'without buffer_subbuf_size_kb, --subbuf-size says so and changes nothing' '
	fresh_fake &&
	check_usage 1 "trace-cmd start: --subbuf-size: this kernel cannot change the sub-buffer size (no '"'"'buffer_subbuf_size_kb'"'"' in '"'"'$PWD/fake'"'"')" \
		start -e sched_switch --subbuf-size 8 &&
	holds fake/events/sched/sched_switch/enable 0
'

test_expect_success '-k, -q, --quiet and --verbose[=LEVEL] are accepted; at debug each tracefs write is logged' '
	fresh_fake &&
	"$TRACE_CMD" set -e sched_switch -k -q --quiet --verbose --verbose=7 --verbose=debug --verbose=warning 2>err &&
	test_must_fail test -s err &&
	"$TRACE_CMD" set -e sched_switch --verbose=debug 2>err &&
	grep -q "^trace-cmd set: debug: writing .* to '"'"'$PWD/fake/" err
'

test_expect_success 'usage errors: what needs a COMMAND, bad values' '
	fresh_fake &&
	check_usage 2 "trace-cmd set: -m is about record'"'"'s recorders: set records nothing" set -m 100 -e sched_switch &&
	check_usage 2 "trace-cmd start: -s is about record'"'"'s recorders: start records nothing" start -s 10 -e sched_switch &&
	check_usage 2 "trace-cmd start: -F needs a COMMAND" start -e sched_switch -F &&
	check_usage 2 "trace-cmd set: --fork needs a COMMAND" set -e sched_switch --fork &&
	check_usage 2 "trace-cmd start: --user needs a COMMAND" start -e sched_switch --user nobody &&
	check_usage 2 "trace-cmd set: no user '"'"'nosuchuser'"'"'" set -e sched_switch --user nosuchuser true &&
	check_usage 2 "trace-cmd set: invalid --verbose value '"'"'loud'"'"': use none, crit, err, warn, info, debug, all or 0 to 6" \
		set -e sched_switch --verbose=loud &&
	check_usage 2 "trace-cmd start: invalid --subbuf-size value '"'"'0'"'"': out of range (1 to 1048576)" \
		start -e sched_switch --subbuf-size 0 &&
	check_usage 2 "trace-cmd start: invalid --subbuf-size value '"'"'8k'"'"': not a number" \
		start -e sched_switch --subbuf-size 8k
'

test_expect_success 'a COMMAND not found fails before anything is written' '
	fresh_fake &&
	check_usage 1 "trace-cmd start: cannot run '"'"'no-such-command-x'"'"': command not found" \
		start -e sched_switch no-such-command-x &&
	holds fake/events/sched/sched_switch/enable 0 && holds fake/tracing_on 0
'

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
fi

# This machine's kernel shows buffer_subbuf_size_kb but refuses writes to it;
# one before 6.8 has no such file; elsewhere the size is set.
test_expect_success TRACEFS 'the real tracefs: --subbuf-size set, or refused clearly with tracefs unchanged' '
	unset TRACE_CMD_TRACING_DIR &&
	tracefs_state >before &&
	if [ ! -e "$T/buffer_subbuf_size_kb" ]; then
		check_usage 1 "trace-cmd set: --subbuf-size: this kernel cannot change the sub-buffer size (no '"'"'buffer_subbuf_size_kb'"'"' in '"'"'$T'"'"')" \
			set -e sched_switch --subbuf-size 8
	elif old=$(cat "$T/buffer_subbuf_size_kb") && ! echo "$old" 2>/dev/null >"$T/buffer_subbuf_size_kb"; then
		check_usage 1 "trace-cmd set: --subbuf-size: the kernel refuses to change the sub-buffer size (writing '"'"'$old'"'"' back to '"'"'buffer_subbuf_size_kb'"'"': Operation not permitted)" \
			set -e sched_switch --subbuf-size 8
	else
		test_when_finished "echo $old >$T/buffer_subbuf_size_kb" &&
		"$TRACE_CMD" set --subbuf-size 8 &&
		test "$(cat "$T/buffer_subbuf_size_kb")" = 8 && echo "$old" >"$T/buffer_subbuf_size_kb"
	fi &&
	tracefs_state >after && test_cmp before after
'

test_done
