#!/bin/bash
# listen serves many clients at once, stops cleanly on SIGTERM and SIGINT (a
# client still tracing leaves a file marked incomplete), and runs as a daemon
# with -D.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"

SCHED=$FIXTURES/synth-sched-v6.dat

test_expect_success '32 clients at once, all 32 files correct' '
	fresh_dir && start_listen || exit 1
	files="synth-sched-v6 synth-sched-be32-v6 synth-sched-le32-v6 synth-sched-be64-v6"
	pids=
	for i in $(seq 32); do
		f=$(echo $files | cut -d" " -f$((i % 4 + 1)))
		case $((i % 4)) in 0) m=;; 1) m=-t;; 2) m=-1;; 3) m="-1 -t";; esac
		replay $m --hold 1000 "$FIXTURES/$f.dat" 2>/dev/null &
		pids="$pids $!"
		echo "$f" >>sources
	done
	wait_log "^cpus=2" 32 &&
	test "$(log_lines | grep -c "^Finished with ")" -lt 32 &&
	for p in $pids; do wait $p || exit 1; done &&
	wait_log "^Finished with " 32 &&
	test $(ls trace.localhost:*.dat | wc -l) = 32 &&
	for f in trace.localhost:*.dat; do
		for s in $files; do cmp -s "$f" "$FIXTURES/$s.dat" && echo $s; done
	done | sort >got &&
	sort sources >want &&
	test_cmp want got &&
	! log_lines | grep -q "^trace-cmd listen"
'

# A replay held 5 s mid-trace to port $1 (default: $LPORT), in the background
# (pid in $slow).  A function, so that "&" takes only the replay, not the
# body's whole "a && b" list.
slow_replay() {
	"$REPLAY" --hold 5000 localhost ${1:-$LPORT} "$SCHED" 2>/dev/null 9>&- &
	slow=$!
}

# Until process $1 has exited (a zombie counts: it may be our child).
gone_within_5s() {
	for i in $(seq 50); do
		case $(ps -o stat= -p $1) in ""|Z*) return 0;; esac
		sleep 0.1
	done
	echo "process $1 still runs 5 s after the signal"; return 1
}

for sig in TERM INT; do
	test_expect_success UPSTREAM "SIG$sig mid-trace: finished files stay, the one still tracing is marked incomplete" '
		fresh_dir && start_listen || exit 1
		replay "$SCHED" &&
		wait_log "^Finished with " &&
		slow_replay &&
		test_when_finished "kill $slow 2>/dev/null || :" &&
		wait_log "^cpus=2" 2 &&
		sleep 0.5 &&
		kill -'$sig' $LPID && gone_within_5s $LPID && { wait $LPID; LSTATUS=$?; LPID=; } &&
		test "$LSTATUS" = 0 &&
		wait_log "^Incomplete trace from localhost:[0-9]*: the listener was stopped before the end, kept what arrived in trace\.localhost:[0-9]*\.dat\.incomplete$" &&
		test_cmp "$SCHED" $(log_lines | sed -n "s/^Finished with .*: wrote //p") &&
		f=$(ls trace.localhost:*.dat.incomplete) &&
		"$UPSTREAM" report -i "$f" >up.out 2>&1 &&
		"$UPSTREAM" report -i "$SCHED" >want.out 2>&1 &&
		test_cmp want.out up.out &&
		! ls trace.*.cpu* 2>/dev/null
	'
done

for sig in TERM INT; do
	test_expect_success "-D runs as a daemon that logs to LOGFILE; SIG$sig stops it, a client cut off marked incomplete" '
		fresh_dir &&
		for p in $(seq $next_port_ $((next_port_ + 20))); do port_listening $p || break; done &&
		"$TRACE_CMD" listen -D -p $p -l "$PWD/daemon.log" >out 2>err &&
		test ! -s out && test ! -s err &&
		for i in $(seq 50); do port_listening $p && break; sleep 0.1; done &&
		pid=$(pgrep -f "^$TRACE_CMD listen -D -p $p ") &&
		test -n "$pid" &&
		test_when_finished "kill $pid 2>/dev/null || :" &&
		test "$(ps -o sid= -p $pid | tr -d " ")" = "$pid" &&
		"$REPLAY" localhost $p "$SCHED" &&
		for i in $(seq 50); do grep -q "Finished with" daemon.log && break; sleep 0.1; done &&
		grep -q "^\[[0-9]*\]Finished with localhost:[0-9]*: wrote trace\.localhost:[0-9]*\.dat$" daemon.log &&
		test_cmp "$SCHED" trace.localhost:*.dat &&
		slow_replay $p &&
		test_when_finished "kill $slow 2>/dev/null || :" &&
		for i in $(seq 50); do [ $(grep -c "cpus=2" daemon.log) = 2 ] && break; sleep 0.1; done &&
		sleep 0.3 &&
		kill -'$sig' $pid &&
		gone_within_5s $pid &&
		grep -q "^\[[0-9]*\]Incomplete trace from localhost:[0-9]*: the listener was stopped before the end, kept what arrived in trace\.localhost:[0-9]*\.dat\.incomplete$" daemon.log &&
		test_cmp "$SCHED" trace.localhost:*.dat &&
		ls trace.localhost:*.dat.incomplete &&
		! ls trace.*.cpu* 2>/dev/null
	'
done

test_done
