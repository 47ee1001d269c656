#!/bin/bash
# Our record -N against our listen and against upstream's (Debian's 3.1.6),
# in protocol v3 and v1 (forced with --v1, or fallen back to when our listen
# refuses v3 with --v1), over UDP and TCP data channels: the received file
# holds exactly the marker strings the command wrote, in order, reports the
# same in upstream's report and in ours, and the client writes no file.
# A listener that is not there, or goes away, fails the recording cleanly.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"
test_have_prereq TRACEFS && . "$TEST_DIR/lib-tracefs.sh" && test_lock_tracefs

# Our record of a command writing marker-1..5, run in client/ (which must stay
# empty), its output in record.out.  The event (initcall) never fires after
# boot, so the markers are all there is.
our_record() {
	mkdir -p client &&
	(cd client && "$TRACE_CMD" record -q -N localhost:$LPORT "$@" -e initcall \
		sh -c "for i in 1 2 3 4 5; do echo marker-\$i >$T/trace_marker; done") >record.out 2>&1
}

# Event lines: everything after the header, which ends with "cpus=N".
events() {
	sed '0,/^cpus=/d' "$1"
}

# Until the listener has served its clients: ours logs it; upstream's child
# for the client exits (about 2 s after CLOSE).
wait_served() {
	if [ "${LISTENER:-}" = "$UPSTREAM" ]; then
		for i in $(seq 100); do
			[ -z "$(pgrep -P $LPID)" ] && return 0
			sleep 0.1
		done
		echo "upstream's listener still serving"; return 1
	fi
	wait_log "^Finished with "
}

# The received file: the markers in order in our report, and the same event
# lines in upstream's report.
check_received() {
	f=$(ls trace.localhost:*.dat) &&
	"$TRACE_CMD" report --line-3.1 -i "$f" >our.report &&
	sed -n "s/.*tracing_mark_write: //p" our.report >markers &&
	printf "marker-%s\n" 1 2 3 4 5 >want &&
	test_cmp want markers &&
	"$UPSTREAM" report -i "$f" >up.report 2>up.err &&
	events up.report >up.events && events our.report >our.events &&
	test_cmp up.events our.events
}

# listener, protocol (v3, v1 forced by record --v1, or fallback: our listen --v1), transport
for mode in "ours v3 udp" "ours v3 tcp" "ours v1 udp" "ours v1 tcp" \
	    "ours fallback udp" "ours fallback tcp" \
	    "upstream v3 udp" "upstream v3 tcp" "upstream v1 udp" "upstream v1 tcp"; do
	set -- $mode
	largs=; [ $2 = fallback ] && largs=--v1
	rargs=; [ $2 = v1 ] && rargs=--v1
	[ $3 = tcp ] && rargs="$rargs -t"
	prereq=TRACEFS,UPSTREAM
	test_expect_success $prereq "record -N $rargs to $1 listen $largs ($2, $3): markers in order, same report, no client file" '
		fresh_dir &&
		if [ '$1' = upstream ]; then LISTENER=$UPSTREAM; fi &&
		start_listen $largs &&
		tracefs_state >before &&
		our_record $rargs &&
		tracefs_state >after &&
		test_cmp before after &&
		test -z "$(ls -A client)" &&
		wait_served &&
		if [ '$2' = fallback ]; then
			log_lines | grep -q "^Refused protocol v3 from " &&
			grep -q "refused protocol v3: using v1" record.out
		else
			! grep . record.out
		fi &&
		if [ '$3' = tcp ]; then log_lines | grep -q "Using TCP for live connection"; fi &&
		check_received
	'
done

test_expect_success TRACEFS 'record -N -s 200000: the recorders sleep on a timer, the markers arrive' '
	fresh_dir && start_listen && mkdir client &&
	(cd client && "$TRACE_CMD" record -q -N localhost:$LPORT -s 200000 -e initcall sh -c \
		"sh $HELPERS/recorder-waits.sh \$PPID >../waits; echo net-s >$T/trace_marker") &&
	wait_served &&
	for c in $T/per_cpu/cpu*; do echo timer; done >expect && test_cmp expect waits &&
	"$TRACE_CMD" report -i trace.localhost:*.dat | grep -q "tracing_mark_write: net-s$"
'

test_expect_success TRACEFS 'record -N -H: the hook is in the file the listener writes, as in a local one' '
	fresh_dir && start_listen && mkdir client &&
	(cd client && "$TRACE_CMD" record -q -N localhost:$LPORT \
		-H sched_switch,prev_pid/sched_switch,next_pid -e initcall true) &&
	wait_served &&
	"$TRACE_CMD" dump --options -i trace.localhost:*.dat >opts &&
	grep -A1 "Option HOOK" opts | grep -qx "sched_switch,prev_pid/sched_switch,next_pid"
'

# The same pairings without tracefs, from the fake tracing directory: each
# received file reports (in ours and in upstream's report) exactly like a
# local recording of the same directory.
FAKE=$FIXTURES/fake-tracing
fake_record() {
	(cd client && "$TRACE_CMD" record -q "$@" -e sched_switch -e "sched:sched_wak*" true)
}
for listener in ours upstream; do
	test_expect_success UPSTREAM "fake tracing to $listener listen: v3 and v1, UDP and TCP, each file reports like a local recording" '
		fresh_dir && mkdir client && cp -r "$FAKE" fake &&
		export TRACE_CMD_TRACING_DIR=$PWD/fake &&
		fake_record -o ../local.dat && rm -f client/* &&
		"$TRACE_CMD" report --line-3.1 -i local.dat | events /dev/stdin >want &&
		if [ '$listener' = upstream ]; then LISTENER=$UPSTREAM; fi &&
		start_listen &&
		fake_record -N localhost:$LPORT && fake_record -N localhost:$LPORT -t &&
		fake_record -N localhost:$LPORT --v1 && fake_record -N localhost:$LPORT --v1 -t &&
		test -z "$(ls -A client)" &&
		if [ '$listener' = ours ]; then wait_log "^Finished with " 4; else wait_served; fi &&
		[ $(ls trace.localhost:*.dat | wc -l) = 4 ] &&
		for f in trace.localhost:*.dat; do
			"$TRACE_CMD" report --line-3.1 -i "$f" | events /dev/stdin >got &&
			test_cmp want got &&
			"$UPSTREAM" report -i "$f" 2>/dev/null | events /dev/stdin >got.up &&
			test_cmp want got.up || { echo "in $f"; exit 1; }
		done &&
		cmp -s "$FAKE/per_cpu/cpu0/trace_pipe_raw" fake/per_cpu/cpu0/trace_pipe_raw
	'
done

test_expect_success TRACEFS 'no listener: one line naming it, exit 1, tracefs as it was, no file' '
	fresh_dir && mkdir client &&
	port=$(( next_port_ + 500 )) &&
	while port_listening $port; do port=$((port + 1)); done &&
	tracefs_state >before &&
	(cd client && test_expect_code 1 "$TRACE_CMD" record -N localhost:$port -e sched_switch true) 2>err &&
	tracefs_state >after &&
	test_cmp before after &&
	echo "trace-cmd record: cannot connect to '"'"'localhost:$port'"'"' for the control connection: Connection refused" >want &&
	test_cmp want err &&
	test -z "$(ls -A client)"
'

# Our record of a long command in the background, its pid in $rec.  A
# function, so that "&" puts only the record in the background: in a body's
# "a && b && cmd &" the whole list would go, cd and listener with it.
record_in_background() {
	(cd client && exec timeout 60 "$TRACE_CMD" record -q -N localhost:$LPORT "$@") 2>err 9>&- &
	rec=$!
}

# The listener is killed once the command runs (record starts it after the
# header is out; killed sooner, record fails sending the header).  A listener
# killed before reading all it was sent resets the connection: either line.
test_expect_success TRACEFS 'a listener that goes away mid-recording stops it: exit 1, one line, tracefs as it was' '
	fresh_dir && mkdir client && start_listen &&
	tracefs_state >before &&
	record_in_background -e sched_switch sh -c "touch ../started; exec sleep 20" &&
	test_when_finished "kill $rec 2>/dev/null || :" &&
	for i in $(seq 100); do test -e started && break; sleep 0.1; done &&
	{ test -e started || { echo "the command never started:"; cat err; exit 1; }; } &&
	sleep 0.3 &&
	kill -9 $(pgrep -P $LPID) $LPID && LPID= &&
	{ wait $rec; status=$?; } &&
	{ test $status = 1 || { echo "record exit $status:"; cat err; false; }; } &&
	tracefs_state >after &&
	test_cmp before after &&
	test $(wc -l <err) = 1 &&
	grep -E "^trace-cmd record: '"'"'localhost:$LPORT'"'"': (the listener closed the connection during the recording|connection lost during the recording: Connection reset by peer)$" err &&
	test -z "$(ls -A client)"
'

test_expect_success 'usage: -N needs HOST:PORT; -t and --v1 need -N; -o and --temp do not go with it' '
	test_expect_code 2 "$TRACE_CMD" record -N localhost -e sched 2>err &&
	test "$(head -n 1 err)" = "trace-cmd record: invalid -N value '"'"'localhost'"'"': expected HOST:PORT, PORT 1 to 65535" &&
	test_expect_code 2 "$TRACE_CMD" record -N localhost:0 -e sched 2>err &&
	grep -q "invalid -N value .localhost:0." err &&
	test_expect_code 2 "$TRACE_CMD" record -N :12 -e sched 2>err &&
	grep -q "invalid -N value .:12." err &&
	test_expect_code 2 "$TRACE_CMD" record -t -e sched 2>err &&
	test "$(head -n 1 err)" = "trace-cmd record: -t needs -N HOST:PORT (it chooses TCP data channels)" &&
	test_expect_code 2 "$TRACE_CMD" record --v1 -e sched 2>err &&
	test "$(head -n 1 err)" = "trace-cmd record: --v1 needs -N HOST:PORT (it chooses the protocol)" &&
	test_expect_code 2 "$TRACE_CMD" record -N localhost:1 -o x.dat -e sched 2>err &&
	test "$(head -n 1 err)" = "trace-cmd record: -o cannot be used with -N: the trace goes to the listener" &&
	test_expect_code 2 "$TRACE_CMD" record -N localhost:1 --temp /tmp -e sched 2>err &&
	grep -q "^trace-cmd record: --temp cannot be used with -N" err &&
	! test -e x.dat
'

test_done
