#!/bin/bash
# stream: record's options, the events printed live in report's format, and
# every way it ends (command exit, SIGINT, SIGTERM, stdout closed) leaves
# tracefs as it was.
. "$(dirname "$0")/test-lib.sh"

NOWHERE=$TRASH/no-tracing-dir

# stream_usage CODE "ARGS" "first line of stderr": checked before tracefs is looked at.
stream_usage() {
	want=$1 msg=$3
	eval "set -- $2"
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage "$want" "$msg" stream "$@"
}

test_expect_success 'stream -h prints its usage to stdout and exits 0' '
	"$TRACE_CMD" stream -h >out 2>err &&
	grep -q "^usage: trace-cmd stream -e EVENT" out && test ! -s err &&
	"$TRACE_CMD" help stream >help && test_cmp out help
'

test_expect_success 'usage errors exit 2 with one line and stream'"'"'s usage' '
	stream_usage 2 "" "trace-cmd stream: no events to record: give -e EVENT" &&
	stream_usage 2 "-x -e sched" "trace-cmd stream: unknown option '"'"'-x'"'"'" &&
	stream_usage 2 "-e" "trace-cmd stream: option '"'"'-e'"'"' needs a value" &&
	stream_usage 2 "-e sched -b abc" "trace-cmd stream: invalid -b value '"'"'abc'"'"': not a number" &&
	stream_usage 2 "-f x" "trace-cmd stream: -f must follow an -e" &&
	stream_usage 2 "-e sched -F" "trace-cmd stream: -F needs a COMMAND to trace"
'

test_expect_success 'record'"'"'s file and recorder options are refused by name' '
	stream_usage 2 "-e sched -o x.dat" "trace-cmd stream: -o does not apply: stream writes no file" &&
	stream_usage 2 "-e sched --file-version 6" \
		"trace-cmd stream: --file-version does not apply: stream writes no file" &&
	stream_usage 2 "-e sched --compression zstd" \
		"trace-cmd stream: --compression does not apply: stream writes no file" &&
	stream_usage 2 "-e sched --temp /tmp" "trace-cmd stream: --temp does not apply: stream writes no file" &&
	stream_usage 2 "-e sched --date" "trace-cmd stream: --date does not apply: stream writes no file" &&
	stream_usage 2 "-e sched --pin" "trace-cmd stream: --pin does not apply: stream writes no file" &&
	stream_usage 2 "-e sched -r 10" "trace-cmd stream: -r does not apply: stream writes no file" &&
	stream_usage 2 "-e sched --proc-map true" \
		"trace-cmd stream: --proc-map does not apply: stream writes no file" &&
	stream_usage 2 "-e sched -B foo" "trace-cmd stream: -B foo has nothing to record: give -e EVENT after it" &&
	stream_usage 2 "-e sched -m 100" "trace-cmd stream: -m does not apply: stream writes no file" &&
	stream_usage 2 "-e sched --poll" \
		"trace-cmd stream: --poll does not apply: stream never waits on the kernel, it reads the buffers every -s interval" &&
	stream_usage 2 "-e sched -s 10000001" \
		"trace-cmd stream: invalid -s value '"'"'10000001'"'"': out of range (0 to 10000000)" &&
	test ! -e x.dat
'

# A fake tracing directory with function_graph: the events of mkdat's
# funcgraph-2cpu scenario, CPU 0's cut in two pages between the entry and the
# exit of a leaf (handle_irq_event), so a live reader sees the exit later.
FAKE=$FIXTURES/fake-tracing
python3 - "$HELPERS" <<\EOF || exit 1
import json, subprocess, sys
sys.path.insert(0, sys.argv[1])
import mkdat
spec = json.loads(subprocess.check_output(
    [sys.executable, sys.argv[1] + "/mkdat.py", "--dump-spec", "funcgraph-2cpu"]))
leaf = [i for i, r in enumerate(spec["records"])
        if r.get("fields", {}).get("func") == "handle_irq_event"][1]
spec["records"].insert(leaf, {"cpu": 0, "new_page": True})
json.dump(spec, open("graph.json", "w"))
for n in ("funcgraph_entry", "funcgraph_exit"):
    open(n + ".format", "w").write(mkdat.format_text(n, 8))
EOF
python3 "$HELPERS/mkdat.py" graph.json graph.dat || exit 1
fg_fake() {
	rm -rf $1 && cp -r "$FAKE" $1 && echo "function_graph nop" >$1/available_tracers &&
	printf "1234 bash\n1300 cat\n45 kworker/1:1\n" >$1/saved_cmdlines &&
	for n in funcgraph_entry funcgraph_exit; do
		mkdir -p $1/events/ftrace/$n && cp $n.format $1/events/ftrace/$n/format || return 1
	done &&
	set -- $1 $("$HELPERS/dump-header" graph.dat | sed -n "s/^  cpu [01] offset \([0-9]*\) size \([0-9]*\)$/\1 \2/p") &&
	tail -c +$(($2 + 1)) graph.dat | head -c $3 >cpu0.data && test $3 = 8192 &&
	tail -c +$(($4 + 1)) graph.dat | head -c $5 >$1/per_cpu/cpu1/trace_pipe_raw &&
	cp cpu0.data $1/per_cpu/cpu0/trace_pipe_raw
}

test_expect_success 'stream -p function_graph draws entries and exits as report does (fake directory)' '
	fg_fake fake-rec &&
	TRACE_CMD_TRACING_DIR=$PWD/fake-rec "$TRACE_CMD" record -q -p function_graph -e irq \
		-o graph-rec.dat true 2>err &&
	"$TRACE_CMD" report -i graph-rec.dat | sed "0,/^cpus=/d" >expect &&
	grep -q "funcgraph_entry: .*();$" expect && grep -q "funcgraph_exit: .*|    }$" expect &&
	fg_fake fake-stream &&
	TRACE_CMD_TRACING_DIR=$PWD/fake-stream "$TRACE_CMD" stream -q -p function_graph -e irq \
		true >actual 2>err &&
	test_cmp expect actual
'

# leaf_a_round_later [EMPTY_PAGES]: stream reads cpu0's first page (after
# EMPTY_PAGES pages without events), prints up to the funcgraph_entry whose
# exit is on the second page, and must still draw the two as one leaf line.
leaf_a_round_later() {
	fg_fake fake-fifo && rm fake-fifo/per_cpu/cpu0/trace_pipe_raw &&
	mkfifo fake-fifo/per_cpu/cpu0/trace_pipe_raw &&
	: >page1 && for i in $(seq ${1:-0}); do head -c 4096 /dev/zero >>page1 || return 1; done &&
	head -c 4096 cpu0.data >>page1 && tail -c +4097 cpu0.data >page2 && rm -f writer.done ||
		return 1
	# The second page only once stream has printed the first (up to the irq).
	# (Not in one and-list with the "&", which would put all of it in the background.)
	timeout 20 sh -c "exec 3>fake-fifo/per_cpu/cpu0/trace_pipe_raw; cat page1 >&3
		for i in \$(seq 100); do grep -q irq_handler_entry: actual && break; sleep 0.05; done
		cat page2 >&3; touch writer.done" 9>&- &
	writer=$!
	# Reads every 0.2 s: the entry waits 2 s at most, the writer 0.05 s.
	TRACE_CMD_TRACING_DIR=$PWD/fake-fifo timeout 30 "$TRACE_CMD" stream -q -s 200000 \
		-p function_graph -e irq sh -c "for i in \$(seq 200); do test -e writer.done && exit; sleep 0.05; done" \
		>actual 2>err 9>&-
	code=$?
	kill $writer 2>/dev/null
	test $code = 0 && test -e writer.done &&
	grep -q "# 1500.000 us |      [^ ]*();$" expect && test_cmp expect actual
}

test_expect_success 'a leaf whose exit is read a round later is still one line' '
	leaf_a_round_later
'

# The round's unprinted record then lies in the window's second page, which
# moves to the front for the next round's pages: either walker follows it.
test_expect_success 'the same after an empty page, with either page walker' '
	leaf_a_round_later 1 &&
	(export TRACE_CMD_KBUFFER=1 && leaf_a_round_later 1)
'

test_lock_tracefs
. "$TEST_DIR/lib-tracefs.sh"

# An event that fires for nothing here, so the output holds only the markers.
QUIET_EVENT='-e sched_process_exec -f "pid < 0"'

# Streams with tracefs compared before and after; leaves stdout and stderr.
stream_checked() {
	tracefs_state >state.before &&
	timeout 60 "$TRACE_CMD" stream "$@" >stdout 2>stderr 9>&-
	code=$?
	tracefs_state >state.after &&
	test_cmp state.before state.after || { echo "tracefs changed"; return 1; }
	return $code
}

# The lines' pid, latency flags (they differ from run to run) and timestamp
# replaced, widths kept by the rest.
normalize() {
	sed -E 's/-[0-9]+ *\[[0-9]{3}\] [^ ]+ +[0-9]+\.[0-9]{6}:/-PID [CPU] LAT TIME:/; s/pid=[0-9]+/pid=N/g' "$@"
}

test_expect_success TRACEFS 'the markers a command writes are printed, exactly and in order' '
	eval "stream_checked -q $QUIET_EVENT sh -c \"
		for i in 1 2 3 4 5; do echo tc-stream-\\\$i >$T/trace_marker; done\"" &&
	sed "s/.*tracing_mark_write: //" stdout >markers &&
	printf "tc-stream-%s\n" 1 2 3 4 5 >expect &&
	test_cmp expect markers &&
	grep -Ec "^ +sh-[0-9]+ +\[[0-9]{3}\] [^ ]+ +[0-9]+\.[0-9]{6}: print: {16}tracing_mark_write: tc-stream-[1-5]$" stdout >n &&
	echo 5 >five && test_cmp five n &&
	test ! -s stderr
'

test_expect_success TRACEFS 'its lines are those record + report print for the same events' '
	cmd="for i in 1 2 3; do echo same-\$i >$T/trace_marker; done; /bin/true; :" &&
	stream_checked -q -e sched_process_exec -F -c sh -c "$cmd" &&
	"$TRACE_CMD" record -q -o r.dat -e sched_process_exec -F -c sh -c "$cmd" >/dev/null 2>&1 9>&- &&
	"$TRACE_CMD" report -i r.dat >report &&
	sed "0,/^cpus=/d" report | normalize >expect &&
	normalize stdout >actual &&
	grep -q "tracing_mark_write: same-3" actual &&
	grep -q "sched_process_exec: *filename=/bin/true" actual &&
	test_cmp expect actual
'

test_expect_success TRACEFS 'the CPUs'"'"' events are merged in timestamp order' '
	eval "stream_checked -q $QUIET_EVENT sh -c \"
		for i in 1 2 3 4 5 6 7 8; do taskset -c \\\$((i % 2)) sh -c \\\"echo cpu-\\\$i >$T/trace_marker\\\"; done\"" &&
	sed "s/.*tracing_mark_write: //" stdout >markers &&
	printf "cpu-%s\n" 1 2 3 4 5 6 7 8 >expect &&
	test_cmp expect markers &&
	grep -c "\[000\]" stdout >n0 && grep -c "\[001\]" stdout >n1 &&
	echo 4 >four && test_cmp four n0 && test_cmp four n1
'

test_expect_success TRACEFS 'the per-CPU counts go to stderr, none with -q' '
	eval "stream_checked $QUIET_EVENT sh -c \"echo counted >$T/trace_marker\"" &&
	grep -c "tracing_mark_write: counted" stdout >n && echo 1 >one && test_cmp one n &&
	grep -Eq "^CPU0: [0-9]+ events streamed, [0-9]+ events lost$" stderr &&
	sed -E "s/^CPU[0-9]+: ([0-9]+) events streamed.*/\1/" stderr | awk "{ n += \$1 } END { print n }" >total &&
	test_cmp one total
'

test_expect_success TRACEFS 'the settings are in place while the command runs: -b, -C' '
	eval "stream_checked -q -b 2048 -C global $QUIET_EVENT sh -c \"
		cat $T/per_cpu/cpu0/buffer_size_kb >$T/trace_marker; cat $T/trace_clock >$T/trace_marker\"" &&
	grep -Eq "tracing_mark_write: 20[4-9][0-9]$" stdout &&
	grep -q "tracing_mark_write: .*\[global\]" stdout
'

test_expect_success TRACEFS 'the command'"'"'s exit status is stream'"'"'s' '
	eval "test_expect_code 3 stream_checked -q $QUIET_EVENT sh -c \"exit 3\"" &&
	grep -q "'"'"'sh'"'"' exited with status 3" stderr
'

test_expect_success TRACEFS 'a missing event or command fails before anything is changed' '
	test_expect_code 1 stream_checked -e no_such_event_xyz true &&
	grep -q "no event matches '"'"'no_such_event_xyz'"'"'" stderr &&
	test_expect_code 1 stream_checked -e sched_switch no-such-command-xyz &&
	grep -q "cannot run '"'"'no-such-command-xyz'"'"': command not found" stderr
'

I=tc-stream-$$
test_when_finished "rmdir $T/instances/$I 2>/dev/null; :"

test_expect_success TRACEFS '-B NAME: the markers written into the instance are printed in order, named' '
	eval "stream_checked -B $I $QUIET_EVENT sh -c \"
		for i in 1 2 3 4 5; do echo tc-inst-\\\$i >$T/instances/$I/trace_marker; done\"" &&
	sed "s/.*tracing_mark_write: //" stdout >markers &&
	printf "tc-inst-%s\n" 1 2 3 4 5 >expect &&
	test_cmp expect markers &&
	grep -c "^$I: \+sh-[0-9]\+ \+\[[0-9]\{3\}\] [^ ]\+ \+[0-9.]\+: print: \+tracing_mark_write: tc-inst-[1-5]$" stdout >n &&
	echo 5 >five && test_cmp five n &&
	test ! -d $T/instances/$I &&
	grep -qx "Buffer: $I" stderr && grep -Eq "^CPU0: [0-9]+ events streamed, [0-9]+ events lost$" stderr
'

test_expect_success TRACEFS '-B NAME with the top buffer: lines as record + report print the same' '
	cmd="echo top-1 >$T/trace_marker; echo inst-1 >$T/instances/$I/trace_marker; /bin/true" &&
	stream_checked -q -e sched_process_exec -F -c -B $I -e sched_process_exec sh -c "$cmd" &&
	"$TRACE_CMD" record -q -o rb.dat -e sched_process_exec -F -c -B $I -e sched_process_exec \
		sh -c "$cmd" >/dev/null 2>&1 9>&- &&
	"$TRACE_CMD" report -i rb.dat >report &&
	sed "0,/^cpus=/d" report | normalize >expect &&
	normalize stdout >actual &&
	grep -q "^$I: .*tracing_mark_write: inst-1" actual &&
	grep -q "^ \{${#I}\}  .*tracing_mark_write: top-1" actual &&
	test_cmp expect actual
'

# Starts stream in the background with no command; waits until it is tracing.
start_stream() {
	# Not in one and-list with the "&" below, which would put it all in the
	# background and leave the last run's live.pid to be read.
	tracefs_state >state.before
	rm -f live.out live.err live.pid live.code
	# Through sh, so that $pid is stream itself, and its exit code lands in live.code.
	sh -c '"$@" & echo $! >live.pid; wait $!; echo $? >live.code' sh \
		"$TRACE_CMD" stream -q "$@" >live.out 2>live.err 9>&- &
	for i in $(seq 100); do test -s live.pid && break; sleep 0.05; done
	pid=$(cat live.pid) &&
	test_when_finished "kill $pid 2>/dev/null; for i in \$(seq 100); do test -s live.code && break; sleep 0.05; done"
	for i in $(seq 100); do grep -qs "Hit Ctrl" live.err && return 0; sleep 0.05; done
	echo "stream did not start"; cat live.err; return 1
}

# Writes a marker and waits until stream has printed it: lines appear live.
marker_shown() {
	echo "$1" >$T/trace_marker &&
	for i in $(seq 100); do grep -q "tracing_mark_write: $1\$" live.out && return 0; sleep 0.05; done
	echo "'$1' not printed while streaming"; return 1
}

# Sends signal $1 and waits (10 s at most) for stream to end: exit 0, tracefs as before.
stopped_by() {
	kill -$1 $pid &&
	for i in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.05; done
	kill -0 $pid 2>/dev/null && { kill -KILL $pid; echo "SIG$1 did not end stream"; return 1; }
	for i in $(seq 100); do test -s live.code && break; sleep 0.05; done
	code=$(cat live.code)
	tracefs_state >state.after &&
	test_cmp state.before state.after &&
	test $code = 0 || { echo "exit $code"; cat live.err; return 1; }
}

test_expect_success TRACEFS 'without a command: lines appear live, SIGINT ends it with 0' '
	eval "start_stream $QUIET_EVENT" &&
	marker_shown live-one && marker_shown live-two &&
	stopped_by INT &&
	sed "s/.*tracing_mark_write: //" live.out >markers &&
	printf "live-one\nlive-two\n" >expect && test_cmp expect markers
'

# The timeout of the ppoll stream $pid sleeps in, as "SECONDS NANOSECONDS".
# The kernel writes the time left (0 0 once it ran out) back into the
# timespec when ppoll returns: a sample counts only if stream was in the same
# ppoll before and after it was read, and one whose value is 0 0 is taken
# again (a stream that really passed 0 0, or reused the time left, never
# gives another).
stream_sleep() {
	for i in $(seq 100); do
		before=$(cat /proc/$pid/syscall)
		set -- $before
		if [ "$1" = 271 ] && [ "$2" = 0x0 ]; then
			value=$(dd if=/proc/$pid/mem bs=16 count=1 iflag=skip_bytes skip=$(($4)) 2>/dev/null |
				od -An -t d8 | tr -s " " | sed "s/^ //")
			[ "$(cat /proc/$pid/syscall)" = "$before" ] && [ "$value" != "0 0" ] && break
		fi
		sleep 0.01
	done
	[ "$1" = 271 ] || { echo "stream not in ppoll: $*"; return 1; }
	echo "$value"
}

test_expect_success TRACEFS 'stream reads every 50 ms, and every -s USECS with -s' '
	eval "start_stream $QUIET_EVENT" &&
	stream_sleep >sleep.default && marker_shown s-default && stopped_by INT &&
	echo "0 50000000" >expect && test_cmp expect sleep.default &&
	eval "start_stream -s 1500 $QUIET_EVENT" &&
	stream_sleep >sleep.s && marker_shown s-1500 && stopped_by INT &&
	echo "0 1500000" >expect && test_cmp expect sleep.s
'

test_expect_success TRACEFS 'stdout closed early (| head) ends it cleanly, exit 0' '
	tracefs_state >state.before &&
	{ timeout 30 "$TRACE_CMD" stream -q -e sched_switch 9>&- 2>err; echo $? >code; } | head -n 2 >two &&
	tracefs_state >state.after &&
	test_cmp state.before state.after &&
	echo 0 >zero && test_cmp zero code &&
	test $(wc -l <two) = 2 && grep -q "sched_switch:" two && ! grep -v "^Hit Ctrl" err
'

test_expect_success TRACEFS 'a command still running when stdout closes is stopped' '
	tracefs_state >state.before &&
	{ timeout 30 "$TRACE_CMD" stream -q -e sched_switch sleep 20 9>&- 2>err; echo $? >code; } | head -n 1 >one &&
	tracefs_state >state.after &&
	test_cmp state.before state.after &&
	echo 0 >zero && test_cmp zero code && test ! -s err
'

test_done
