#!/bin/bash
# The record options 3.4 has beside the common ones: --quiet, --verbose,
# --debug, --stderr, --ts-offset, --notimeout, --nosplice, --nofifos,
# --daemonize, and --profile's -S and -H (-G and --by-comm are refused).  Most run on a copy of the fake tracing directory; --daemonize
# and --debug's tracefs lines run on the real one, left as found.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

NOWHERE=$TRASH/no-tracing-dir
FAKE=$FIXTURES/fake-tracing
PIDFILE=/var/run/trace-cmd-record.pid

record_usage() {
	msg=$2
	eval "set -- $1"
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage 2 "$msg" record "$@"
}

# fake_record ARGS...: record on a fresh copy of the fake, stdout in out, stderr in err.
fake_record() {
	rm -rf fake && cp -r "$FAKE" fake &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record "$@" >out 2>err
}

test_expect_success 'bad values and combinations are usage errors' '
	record_usage "--ts-offset abc -e sched true" \
		"trace-cmd record: invalid --ts-offset value '"'"'abc'"'"': not a number" &&
	record_usage "--ts-offset 99999999999999999999 -e sched true" \
		"trace-cmd record: invalid --ts-offset value '"'"'99999999999999999999'"'"': out of range" &&
	record_usage "--date --ts-offset 5 -e sched true" \
		"trace-cmd record: --date and --ts-offset cannot be used together: both set the timestamps'"'"' base" &&
	record_usage "--notimeout -e sched true" \
		"trace-cmd record: --notimeout needs -N HOST:PORT (it is about the listener'"'"'s replies)" &&
	record_usage "--verbose=loud -e sched true" \
		"trace-cmd record: invalid --verbose value '"'"'loud'"'"': use none, crit, err, warn, info, debug, all or 0 to 6" &&
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage 2 \
		"trace-cmd stream: --daemonize does not apply: stream writes no file" stream --daemonize -e sched &&
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage 2 \
		"trace-cmd stream: unknown option '"'"'--stderr'"'"'" stream --stderr -e sched
'

test_expect_success '--quiet is -q: no buffer statistics' '
	fake_record -e sched_switch -o a.dat true && grep -q "^Kernel buffer statistics" err &&
	fake_record --quiet -e sched_switch -o a.dat true && test ! -s err
'

test_expect_success 'stream takes --quiet as -q too: no per-CPU counts' '
	rm -rf fake && cp -r "$FAKE" fake &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" stream -e sched_switch true >out 2>err &&
	grep -q "^CPU0: [0-9]* events streamed" err &&
	rm -rf fake && cp -r "$FAKE" fake &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" stream --quiet -e sched_switch true >out 2>err &&
	test ! -s err && grep -q "sched_switch:" out
'

test_expect_success 'stream --verbose=debug logs each tracefs write on stderr, apart from the events' '
	rm -rf fake && cp -r "$FAKE" fake &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" stream -q --verbose=debug -e sched_switch true >out 2>err &&
	grep -q "^trace-cmd stream: debug: writing .* to .*fake/" err &&
	! grep -q "debug: writing" out && grep -q "sched_switch:" out
'

test_expect_success '--verbose says how each recorder moves pages; levels by name or number' '
	fake_record --verbose -e sched_switch -o a.dat true &&
	grep -q "^trace-cmd record: cpu 0: recorder [0-9]* moves pages by splice(2)$" err &&
	fake_record --verbose=4 -q -e sched_switch -o a.dat true &&
	grep -q "moves pages by splice" err &&
	fake_record --verbose=warning -q -e sched_switch -o a.dat true && test ! -s err
'

test_expect_success '--verbose below warn hides warnings, not errors' '
	fake_record -i -e sched_switch -e no_such_event -q -o a.dat true &&
	grep -q "warning: " err &&
	fake_record --verbose=err -i -e sched_switch -e no_such_event -q -o a.dat true &&
	test ! -s err &&
	rm -rf fake && cp -r "$FAKE" fake &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record --verbose=none \
		-e sched_switch -o a.dat /no/such/command 2>err &&
	test "$(cat err)" = "trace-cmd record: cannot run '"'"'/no/such/command'"'"': command not found"
'

test_expect_success '--nosplice: the recorders never splice, the trace is the same' '
	fake_record -q -e sched_switch -o splice.dat true &&
	rm -rf fake && cp -r "$FAKE" fake &&
	TRACE_CMD_TRACING_DIR=$PWD/fake test_strace -f -qq -e trace=splice -o st.splice \
		"$TRACE_CMD" record -q -e sched_switch -o splice.dat true &&
	grep -q "splice(" st.splice &&
	rm -rf fake && cp -r "$FAKE" fake &&
	TRACE_CMD_TRACING_DIR=$PWD/fake test_strace -f -qq -e trace=splice,read -o st.read \
		"$TRACE_CMD" record --nosplice -q -e sched_switch -o read.dat true &&
	! grep "splice(" st.read &&
	grep -q "read([0-9]*, .*4096) = 4096" st.read &&
	"$TRACE_CMD" report -i splice.dat >splice.txt &&
	"$TRACE_CMD" report -i read.dat >read.txt &&
	test_cmp splice.txt read.txt &&
	fake_record --nosplice --verbose -q -e sched_switch -o read.dat true &&
	grep -q "cpu 1: recorder [0-9]* moves pages by read(2) and write(2)$" err
'

test_expect_success '--ts-offset: report adds it to every timestamp, as 3.4 reads it' '
	fake_record -q -e sched_switch -o plain.dat true &&
	fake_record -q --ts-offset 5000000000 -e sched_switch -o off.dat true &&
	"$TRACE_CMD" report -i plain.dat >plain.txt &&
	"$TRACE_CMD" report -i off.dat >off.txt &&
	grep -q " 9840.426748: sched_switch:" plain.txt &&
	sed "s/ 9840\.426748: / 9845.426748: /" plain.txt >want &&
	grep -q " 9845.426748: sched_switch:" off.txt &&
	"$TRACE_CMD" dump --options -i off.dat >dump &&
	grep -q "Option OFFSET, 11 bytes" dump &&
	fake_record -q --ts-offset -0x3b9aca00 -e sched_switch -o neg.dat true &&
	"$TRACE_CMD" report -i neg.dat >neg.txt &&
	sed "s/ 9840\.426748: / 9839.426748: /" plain.txt >want &&
	grep -q " 9839.426748: sched_switch:" neg.txt
'

test_expect_success UPSTREAM34 '--ts-offset: 3.4 reports the file the same' '
	"$UPSTREAM34" report -i off.dat 2>/dev/null | grep -v "^version = " >up.txt &&
	grep -v "^version = " off.txt >our.txt &&
	test_cmp up.txt our.txt
'

test_expect_success '--nofifos records as without it (3.4 uses fifos for vsock guests only)' '
	fake_record -q --nofifos -e sched_switch -o nf.dat true &&
	"$TRACE_CMD" report -i nf.dat >nf.txt &&
	test_cmp plain.txt nf.txt &&
	fake_record -q --nofifos --verbose -e sched_switch -o nf.dat true &&
	grep -q "^trace-cmd record: --nofifos: guests are read over sockets here, never through fifos$" err
'

# A listener that takes the connection and never answers.  The port file of
# the one before is removed first: under load the loop below read that port,
# no longer listened on, before the new listener wrote its own.
mute_listener() {
	rm -f port
	python3 -c "
import socket, sys, time
s = socket.socket(); s.bind((\"127.0.0.1\", 0)); s.listen(4)
print(s.getsockname()[1]); sys.stdout.flush()
c = s.accept()
time.sleep(60)
" >port &
	MUTE=$!
	for i in $(seq 200); do [ -s port ] && break; sleep 0.1; done
	test -s port
}

# record -N to the mute listener in the background: alive after 6 s (5 s
# is the timeout), then stopped; its stderr in err.
waits_past_timeout() {
	mute_listener || return 1
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record "$@" -N 127.0.0.1:$(cat port) \
		-e sched_switch 2>err &
	rec=$!
	sleep 6.5
	kill -0 $rec
	alive=$?
	kill -KILL $rec 2>/dev/null; wait $rec; kill $MUTE; wait $MUTE
	test $alive = 0 && ! grep -q "timed out" err
}

test_expect_success PYTHON 'without --notimeout, record -N gives up on a mute listener' '
	rm -rf fake && cp -r "$FAKE" fake &&
	mute_listener &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record \
		-N 127.0.0.1:$(cat port) -e sched_switch 2>err;
	ret=$?; kill $MUTE; wait $MUTE; test $ret = 0 &&
	grep -q "timed out after 5 s" err
'

test_expect_success PYTHON '--notimeout and --debug wait on the listener past 5 s' '
	rm -rf fake && cp -r "$FAKE" fake &&
	waits_past_timeout --notimeout &&
	waits_past_timeout --debug
'

test_expect_success ROOT,TRACEFS '--debug names each tracefs write, and tracefs is left as found' '
	test_lock_tracefs &&
	record_checked --debug -q -e sched_switch -o dbg.dat true &&
	grep -q "^trace-cmd record: debug: writing '"'"'1'"'"' to '"'"'$T/events/sched/sched_switch/enable'"'"'$" stderr &&
	grep -q "^trace-cmd record: debug: writing '"'"'0'"'"' to '"'"'$T/tracing_on'"'"'$" stderr
'

# The pid in the pidfile, once the foreground record is gone.
daemon_pid() {
	test -s $PIDFILE && cat $PIDFILE
}

wait_gone() {
	for i in $(seq 300); do kill -0 $1 2>/dev/null || return 0; sleep 0.1; done
	echo "pid $1 still runs"; return 1
}

test_expect_success ROOT,TRACEFS '--daemonize: the foreground leaves, SIGINT to the pidfile pid writes trace.dat' '
	test_lock_tracefs &&
	! test -e $PIDFILE &&
	tracefs_state >state.before &&
	test_when_finished "test -s $PIDFILE && kill -INT \$(cat $PIDFILE) 2>/dev/null; rm -f $PIDFILE" &&
	"$TRACE_CMD" record --daemonize -e sched_switch -o d.dat >out 2>err &&
	pid=$(daemon_pid) &&
	test "$(cat out)" = "Send SIGINT/SIGTERM to pid $pid to stop recording" &&
	test ! -s err &&
	test "$(ps -o sid= -p $pid | tr -d " ")" = $pid &&
	test "$(cat $T/tracing_on)" = 1 &&
	test "$(cat $T/events/sched/sched_switch/enable)" = 1 &&
	sleep 0.3 &&
	kill -INT $pid && wait_gone $pid &&
	! test -e $PIDFILE &&
	tracefs_state >state.after && test_cmp state.before state.after &&
	"$TRACE_CMD" report -i d.dat >d.txt &&
	grep -q "sched_switch:" d.txt
'

test_expect_success ROOT,TRACEFS '--daemonize --stderr: the notice goes to stderr; SIGTERM stops it too' '
	test_lock_tracefs &&
	test_when_finished "test -s $PIDFILE && kill -INT \$(cat $PIDFILE) 2>/dev/null; rm -f $PIDFILE" &&
	"$TRACE_CMD" record --daemonize --stderr -e sched_switch -o s.dat >out 2>err &&
	pid=$(daemon_pid) &&
	test ! -s out &&
	test "$(cat err)" = "Send SIGINT/SIGTERM to pid $pid to stop recording" &&
	kill -TERM $pid && wait_gone $pid &&
	"$TRACE_CMD" report -i s.dat >s.txt
'

test_expect_success ROOT,TRACEFS '--daemonize: a setup error reaches the foreground, which exits 1' '
	test_lock_tracefs &&
	test_expect_code 1 "$TRACE_CMD" record --daemonize -e sched_switch -C no_such_clock \
		-o bad.dat >out 2>err &&
	grep -q "clock .no_such_clock. is not available" err &&
	! test -e $PIDFILE && ! test -e bad.dat
'

test_expect_success ROOT '--daemonize refuses while the pidfile names a live process' '
	test_when_finished "rm -f $PIDFILE" &&
	echo $$ >$PIDFILE &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$NOWHERE "$TRACE_CMD" record --daemonize \
		-e sched_switch -o x.dat 2>err &&
	test "$(cat err)" = "trace-cmd record: --daemonize: '"'"'$PIDFILE'"'"' names pid $$, a record still running in the background"
'

test_expect_success ROOT,TRACEFS '--stderr: record'"'"'s output leaves stdout to COMMAND' '
	test_lock_tracefs &&
	record_checked --stderr -e sched_switch -o e.dat sh -c "echo to-stdout" &&
	test "$(cat stdout)" = to-stdout &&
	grep -q "^Kernel buffer statistics" stderr
'

HOOK=sched_switch,prev_pid/sched_switch,next_pid

test_expect_success 'profile options: -S needs --profile; -G, --by-comm and a bad -H are usage errors' '
	record_usage "-S -e sched true" \
		"trace-cmd record: -S goes with --profile: it keeps the profile'"'"'s own events out" &&
	record_usage "--profile -G -e sched true" \
		"trace-cmd record: -G: a setting of report --profile (and of profile), which record keeps nowhere in its file: give it to '"'"'trace-cmd report --profile'"'"'" &&
	record_usage "--by-comm -e sched true" \
		"trace-cmd record: --by-comm: a setting of report --profile (and of profile), which record keeps nowhere in its file: give it to '"'"'trace-cmd report --profile'"'"'" &&
	test_expect_code 2 env TRACE_CMD_TRACING_DIR=$NOWHERE "$TRACE_CMD" record -H nonsense \
		-e sched true 2>err && grep -q "nonsense" err &&
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage 2 \
		"trace-cmd stream: -H: stream writes no file to keep the hook in; give it to '"'"'trace-cmd profile'"'"'" \
		stream -H $HOOK -e sched
'

test_expect_success ROOT,TRACEFS '-H: the hook kept in a HOOK option, which report --profile applies' '
	test_lock_tracefs &&
	record_checked -H $HOOK -e sched_switch -o hook.dat ls / &&
	"$TRACE_CMD" dump --options -i hook.dat >opts &&
	grep -A1 "Option HOOK" opts | grep -qx "$HOOK" &&
	"$TRACE_CMD" report --profile -i hook.dat >hook.profile &&
	head -n 1 hook.profile >first &&
	echo "start (null):sched_switch:prev_pid ((null)) end (null):sched_switch:next_pid ((null))" >want &&
	test_cmp want first &&
	"$TRACE_CMD" report --profile -i hook.dat -H sched_switch,next_pid/sched_switch,prev_pid >both &&
	sed -n 2p both | grep -q "^start (null):sched_switch:prev_pid"
'

test_expect_success ROOT,TRACEFS,UPSTREAM34 '-H: 3.4'"'"'s report --profile of the file applies the hook as ours does' '
	"$UPSTREAM34" report --profile -i hook.dat | python3 "$HELPERS/profile-canon.py" >up &&
	python3 "$HELPERS/profile-canon.py" <hook.profile >ours &&
	test_cmp up ours
'

test_expect_success ROOT,TRACEFS '--profile -S: only the -e events, not the profile'"'"'s own' '
	test_lock_tracefs &&
	record_checked --profile -S -e sched_switch -o s.dat ls / &&
	"$TRACE_CMD" report -i s.dat | sed -n "s/^.* [0-9.]*: \([a-z_0-9]*\): .*/\1/p" | sort -u >events &&
	grep -qx sched_switch events &&
	! grep -qvx "sched_switch\|funcgraph_entry\|funcgraph_exit\|kernel_stack" events
'

test_done
