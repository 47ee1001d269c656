#!/bin/bash
# show and stat print what is in tracefs, for the top buffer and instances; clear empties
# buffers and nothing else.
. "$(dirname "$0")/test-lib.sh"

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
	I=t5020-$$
	SIZE=$(cat "$T/buffer_size_kb")
	trap 'cleanup; cd /; rm -rf "$TRASH"' EXIT
fi

cleanup() {
	[ -n "$T" ] || return 0
	for i in "$T"/instances/$I*; do [ -d "$i" ] && "$TRACE_CMD" reset -B "${i##*/}" -d 2>/dev/null; done
	"$TRACE_CMD" reset -b "$SIZE" >/dev/null 2>&1
}

# What stat must print for buffer directory $1: built from the files themselves.
stat_of() {
	d=$1
	if [ "$d" = "$T" ] && [ -n "$(ls "$T/instances")" ]; then
		printf "\nInstances:\n"; ls "$T/instances" | sed "s/^/ /"
	fi
	printf "\nTracer: %s\n" "$(cat "$d/current_tracer")"
	printf "\nEvents:\n"
	if [ -n "$(cat "$d/set_event")" ]; then sed "s/^/ /" "$d/set_event"; else echo " All disabled"; fi
	printf "\nBuffer size in kilobytes (per cpu):\n   %s\n" "$(cat "$d/buffer_size_kb")"
	printf "\nBuffer total size in kilobytes:\n   %s\n" "$(cat "$d/buffer_total_size_kb")"
	printf "\nTrace clock: %s\n" "$(grep -o "\[[a-z0-9-]*\]" "$d/trace_clock" | tr -d "[]")"
	printf "\nTrace CPU mask: %s\n" "$(cat "$d/tracing_cpumask")"
	if [ "$(cat "$d/tracing_on")" = 1 ]; then printf "\nTracing is enabled\n\n"; else printf "\nTracing is disabled\n\n"; fi
}

test_expect_success TRACEFS 'stat of an idle top buffer matches tracefs' '
	stat_of "$T" >want && "$TRACE_CMD" stat >got && test_cmp want got
'

test_expect_success TRACEFS 'stat after start shows the events, filters, triggers, PIDs and clock' '
	"$TRACE_CMD" start -e sched_switch -f "prev_pid == 1" -e sched_wakeup -C global &&
	echo traceoff >"$T/events/sched/sched_waking/trigger" &&
	echo $$ >"$T/set_event_pid" &&
	"$TRACE_CMD" stop &&
	"$TRACE_CMD" stat >got &&
	grep -A4 "^Events:" got >events && printf "Events:\n sched:sched_switch\n sched:sched_wakeup\n sched:sched_waking\n\n" >want.events &&
	sort_ev() { head -1 "$1"; sed -n "2,4p" "$1" | sort; tail -1 "$1"; } &&
	sort_ev events >a && sort_ev want.events >b && test_cmp b a &&
	grep -A1 "^Event filters:" got >f && printf "Event filters:\n sched:sched_switch  prev_pid == 1\n" >want && test_cmp want f &&
	grep -A1 "^Event triggers:" got >t && printf "Event triggers:\n sched:sched_waking  traceoff:unlimited\n" >want && test_cmp want t &&
	grep -A1 "^Event PIDs:" got >p && printf "Event PIDs:\n $$\n" >want && test_cmp want p &&
	grep -qx "Trace clock: global" got && grep -qx "Tracing is disabled" got
'
cleanup

test_expect_success TRACEFS 'stat -B and -t show the instance and the top buffer, -o the options' '
	"$TRACE_CMD" start -B $I -e sched_switch -b 1000 &&
	{ stat_of "$T"; echo "Instance: $I"; stat_of "$T/instances/$I"; } >want &&
	"$TRACE_CMD" stat -B $I -t >got && test_cmp want got &&
	"$TRACE_CMD" stat -B $I -o >got.o &&
	sed -n "/^Options:/,/^\$/p" got.o | sed "1d;\$d; s/^   //" >opts &&
	tr " " "\n" <"$T/instances/$I/trace_options" | grep . >want.opts && test_cmp want.opts opts
'
cleanup

test_expect_success TRACEFS 'show prints the trace, -c one CPU, -f the path, file options their files' '
	"$TRACE_CMD" start -e sched_switch &&
	echo "show me" >"$T/trace_marker" && "$TRACE_CMD" stop &&
	"$TRACE_CMD" show >got && cat "$T/trace" >want && test_cmp want got &&
	grep -q "tracing_mark_write: show me" got &&
	"$TRACE_CMD" show -c 1 >got && cat "$T/per_cpu/cpu1/trace" >want && test_cmp want got &&
	"$TRACE_CMD" show -f --tracing_on --current_tracer --set_event --buffer_size --buffer_total_size --cpumask >got &&
	for f in tracing_on current_tracer set_event buffer_size_kb buffer_total_size_kb tracing_cpumask; do
		echo "$T/$f"; cat "$T/$f"
	done >want && test_cmp want got &&
	"$TRACE_CMD" show -c 0 --buffer_size >got && cat "$T/per_cpu/cpu0/buffer_size_kb" >want && test_cmp want got
'
cleanup

test_expect_success TRACEFS 'show -B reads the instance, -p consumes it (and ends when tracing is stopped)' '
	"$TRACE_CMD" start -B $I -e sched_switch &&
	echo "in the instance" >"$T/instances/$I/trace_marker" &&
	"$TRACE_CMD" stop -B $I &&
	"$TRACE_CMD" show -B $I >got && grep -q "tracing_mark_write: in the instance" got &&
	! grep -q "in the instance" "$T/trace" &&
	# Stopped, trace_pipe ends once drained instead of waiting.
	timeout 10 "$TRACE_CMD" show -B $I -p >piped &&
	grep -q "tracing_mark_write: in the instance" piped &&
	! grep -q "in the instance" "$T/instances/$I/trace"
'
cleanup

test_expect_success TRACEFS 'show errors: no snapshot, no such CPU, a refused file, no instance' '
	test_expect_code 1 "$TRACE_CMD" show -s 2>err &&
	echo "trace-cmd show: this kernel has no snapshot buffer (no '"'"'snapshot'"'"' file)" >want && test_cmp want err &&
	test_expect_code 1 "$TRACE_CMD" show -c 4000 2>err &&
	echo "trace-cmd show: no CPU 4000 ('"'"'per_cpu/cpu4000'"'"' does not exist)" >want && test_cmp want err &&
	test_expect_code 1 "$TRACE_CMD" show -B nosuch-$$ 2>err &&
	echo "trace-cmd show: no instance '"'"'nosuch-$$'"'"'" >want && test_cmp want err &&
	test_expect_code 2 "$TRACE_CMD" show -p -s 2>err &&
	test "$(head -n 1 err)" = "trace-cmd show: -p and -s cannot be used together" &&
	test_expect_code 2 "$TRACE_CMD" stat -x 2>err &&
	test "$(head -n 1 err)" = "trace-cmd stat: unknown option '"'"'-x'"'"'"
'

test_expect_success TRACEFS 'the kernel refusing set_ftrace_filter is named by show' '
	if cat "$T/set_ftrace_filter" >/dev/null 2>&1; then
		"$TRACE_CMD" show --ftrace_filter >got && cat "$T/set_ftrace_filter" >want && test_cmp want got
	else
		test_expect_code 1 "$TRACE_CMD" show --ftrace_filter 2>err &&
		echo "trace-cmd show: cannot open '"'"'set_ftrace_filter'"'"': Operation not permitted" >want && test_cmp want err
	fi
'

test_expect_success TRACEFS 'clear empties the buffer and changes no setting; -B and -a pick buffers' '
	"$TRACE_CMD" start -e sched_switch -B $I -e sched_switch &&
	echo kept >"$T/instances/$I/trace_marker" && echo gone >"$T/trace_marker" &&
	"$TRACE_CMD" stop -a -t &&
	tracefs_state >before &&
	"$TRACE_CMD" clear &&
	! grep -q "tracing_mark_write: gone" "$T/trace" &&
	grep -q "tracing_mark_write: kept" "$T/instances/$I/trace" &&
	tracefs_state >after && test_cmp before after &&
	"$TRACE_CMD" clear -B $I && ! grep -q "kept" "$T/instances/$I/trace" &&
	echo again >"$T/trace_marker" 2>/dev/null; "$TRACE_CMD" restart -a -t &&
	echo again >"$T/trace_marker" && echo again >"$T/instances/$I/trace_marker" &&
	"$TRACE_CMD" clear -a &&
	! grep -q again "$T/trace" && ! grep -q again "$T/instances/$I/trace" &&
	test_expect_code 1 "$TRACE_CMD" clear -B nosuch-$$ 2>err &&
	echo "trace-cmd clear: no instance '"'"'nosuch-$$'"'"'" >want && test_cmp want err
'
cleanup

# 3.4's show only reads tracefs: it runs without the shim.
test_expect_success TRACEFS,UPSTREAM34 'show --trigger, --buffer_percent, --buffer_subbuf_size print what 3.4 prints' '
	for args in "--trigger sched:sched_switch" "--trigger sched_wakeup" "--buffer_percent"; do
		"$TRACE_CMD" show $args >ours && "$UPSTREAM34" show $args >theirs &&
		test_cmp theirs ours && test -s ours || { echo "show $args"; return 1; }
	done &&
	if test -e "$T/buffer_subbuf_size_kb"; then
		"$TRACE_CMD" show --buffer_subbuf_size >ours && test_cmp "$T/buffer_subbuf_size_kb" ours
	fi
'

test_expect_success TRACEFS 'show --hist, --max_latency where the kernel lacks the file: say what is missing' '
	for f in events/sched/sched_switch/hist tracing_max_latency; do
		test -e "$T/$f" && continue
		case $f in
		*hist) args="--hist sched_switch" why="this kernel has no hist triggers" ;;
		*) args=--max_latency why="this kernel has no latency tracers" ;;
		esac
		test_expect_code 1 "$TRACE_CMD" show $args 2>err &&
		echo "trace-cmd show: $why ('"'"'$f'"'"' does not exist)" >want && test_cmp want err || return 1
	done
'

test_expect_success 'show --hist, --trigger, --max_latency, --buffer_subbuf_size, --buffer_percent (fake tracing directory)' '
	rm -rf fk && cp -r "$FIXTURES/fake-tracing" fk &&
	printf "# event histogram\n{ pid: 1 } hitcount: 3\n" >fk/events/sched/sched_switch/hist &&
	echo "hist:keys=pid" >fk/events/sched/sched_switch/trigger &&
	echo 1234 >fk/tracing_max_latency && echo 8 >fk/buffer_subbuf_size_kb && echo 25 >fk/buffer_percent &&
	export TRACE_CMD_TRACING_DIR=$PWD/fk &&
	"$TRACE_CMD" show --hist sched_switch >got &&
	{ cat fk/events/sched/sched_switch/hist; echo; } >want && test_cmp want got &&
	"$TRACE_CMD" show --trigger sched:sched_switch >got &&
	{ cat fk/events/sched/sched_switch/trigger; echo; } >want && test_cmp want got &&
	"$TRACE_CMD" show --max_latency --buffer_subbuf_size --buffer_percent >got &&
	printf "1234\n8\n25\n" >want && test_cmp want got &&
	"$TRACE_CMD" show -f --hist sched:sched_switch >got &&
	{ echo "$PWD/fk/events/sched/sched_switch/hist"; cat fk/events/sched/sched_switch/hist; echo; } >want &&
	test_cmp want got &&
	test_expect_code 1 "$TRACE_CMD" show --hist nosuch 2>err &&
	echo "trace-cmd show: no event '"'"'nosuch'"'"' in any system" >want && test_cmp want err &&
	test_expect_code 1 "$TRACE_CMD" show --trigger sched:nosuch 2>err &&
	echo "trace-cmd show: no event '"'"'sched:nosuch'"'"' ('"'"'events/sched/nosuch'"'"' does not exist)" >want &&
	test_cmp want err &&
	test_expect_code 2 "$TRACE_CMD" show --hist 2>err &&
	test "$(head -n 1 err)" = "trace-cmd show: option '"'"'--hist'"'"' needs a value" &&
	unset TRACE_CMD_TRACING_DIR
'

test_done
