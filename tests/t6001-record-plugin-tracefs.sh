#!/bin/bash
# record's tracer and filter options on the real tracefs: the refusals of a
# kernel that forbids the function tracer are named with the file, exit 1,
# and tracefs is left as it was; what the kernel allows works.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

test_lock_tracefs

# tracefs_state without the per-event walk (2,000 events make it slow) but
# with the events these tests touch.
state() {
	d=$T
	for f in tracing_on current_tracer trace_clock buffer_size_kb set_event set_event_pid \
		 set_event_notrace_pid \
		 tracing_cpumask saved_cmdlines_size options/stacktrace options/event-fork options/function-trace \
		 options/func_stack_trace events/sched/sched_switch/enable \
		 events/sched/sched_switch/filter events/sched/sched_switch/trigger; do
		[ -r "$d/$f" ] && printf '%s: %s\n' "$f" "$(paste -sd' ' "$d/$f")"
	done
	printf 'trace_options: %s\n' "$(paste -sd' ' "$d/trace_options")"
}

# Whether this kernel refuses the function tracer (as the machines here do).
if [ -w "$T/current_tracer" ] && grep -qw function "$T/available_tracers" 2>/dev/null &&
   ! cat "$T/set_ftrace_filter" >/dev/null 2>&1; then
	test_set_prereq REFUSES_FUNCTION
fi

test_expect_success TRACEFS,REFUSES_FUNCTION 'a refused tracer: the file and the refusal, exit 1, restored' '
	state >before &&
	test_expect_code 1 "$TRACE_CMD" record -p function -e sched_switch -o f.dat true 2>err &&
	echo "trace-cmd record: writing '"'"'function'"'"' to '"'"'current_tracer'"'"': Operation not permitted" >expect &&
	test_cmp expect err && state >after && test_cmp before after && test ! -e f.dat
'

test_expect_success TRACEFS,REFUSES_FUNCTION 'a function filter where the kernel refuses them: named, restored' '
	state >before &&
	test_expect_code 1 "$TRACE_CMD" record -p function -l schedule -o f.dat true 2>err &&
	echo "trace-cmd record: cannot open '"'"'available_filter_functions'"'"': Operation not permitted" >expect &&
	test_cmp expect err && state >after && test_cmp before after && test ! -e f.dat
'

test_expect_success TRACEFS 'a tracer the kernel lacks: the list it has, exit 1' '
	state >before &&
	test_expect_code 1 "$TRACE_CMD" record -p nosuchtracer -o f.dat true 2>err &&
	echo "trace-cmd record: tracer '"'"'nosuchtracer'"'"' is not available (available: $(cat $T/available_tracers | sed "s/ *$//"))" >expect &&
	test_cmp expect err && state >after && test_cmp before after
'

test_expect_success TRACEFS 'a filter the kernel rejects: its reason, nothing enabled, exit 1' '
	state >before &&
	test_expect_code 1 "$TRACE_CMD" record -e sched_switch -f "nosuchfield == 1" -o f.dat \
		sh -c "echo ran >ran" 2>err &&
	echo "trace-cmd record: writing '"'"'nosuchfield == 1'"'"' to '"'"'events/sched/sched_switch/filter'"'"': Invalid argument (kernel: event filter parse error: error: Field not found)" >expect &&
	test_cmp expect err && test ! -e ran && state >after && test_cmp before after
'

test_expect_success TRACEFS '-f and -R on the kernel: in place while recording, gone after' '
	state >before &&
	"$TRACE_CMD" record -e sched_switch -f "prev_pid != 0" -R stacktrace -o f.dat \
		sh -c "cat $T/events/sched/sched_switch/filter $T/events/sched/sched_switch/trigger" \
		>during 2>err &&
	printf "%s\n" "prev_pid != 0" "stacktrace:unlimited" >expect && test_cmp expect during &&
	state >after && test_cmp before after &&
	"$TRACE_CMD" report -i f.dat >report && ! grep "prev_pid=0 " report
'

test_expect_success TRACEFS '-p blk is set while recording and nop comes back' '
	grep -qw blk $T/available_tracers || { echo "no blk tracer"; exit 0; }
	state >before &&
	"$TRACE_CMD" record -p blk -o b.dat cat $T/current_tracer >during 2>err &&
	echo blk >expect && test_cmp expect during &&
	state >after && test_cmp before after && test -s b.dat
'

test_expect_success TRACEFS '-C, -M, -T, -O, --cmdlines-size on the kernel: set, then put back' '
	state >before &&
	"$TRACE_CMD" record -q -e sched_switch -C global -M 1 -T -O noevent-fork \
		--cmdlines-size 512 -o c.dat sh -c "cd $T && cat trace_clock tracing_cpumask \
		options/stacktrace options/event-fork saved_cmdlines_size" >during 2>err &&
	grep -o "\[global\]" during >clk && echo "[global]" >expect && test_cmp expect clk &&
	sed 1d during | sed "s/^0*\([0-9a-f]\)/\1/" >rest && sed -n 1,3p rest >flags &&
	printf "%s\n" 1 1 0 >expect && test_cmp expect flags &&
	# The kernel rounds the command-name table up to whole pages.
	test "$(sed -n 4p rest)" -ge 512 && test ! -s err &&
	state >after && test_cmp before after &&
	"$HELPERS/dump-header" c.dat | grep -qx "clock global"
'

test_expect_success TRACEFS '-F: only the command pid in set_event_pid while it runs' '
	state >before &&
	"$TRACE_CMD" record -q -F -e sched_switch -o p.dat sh -c "echo \$\$; cat $T/set_event_pid" \
		>during 2>err &&
	test "$(sed -n 1p during)" = "$(sed -n 2p during)" &&
	state >after && test_cmp before after
'

test_expect_success TRACEFS '-P PID -c: the pids in set_event_pid, event-fork on' '
	state >before &&
	"$TRACE_CMD" record -q -P 1 -P $$ -c -e sched_switch -o p.dat \
		sh -c "cat $T/set_event_pid $T/options/event-fork" >during 2>err &&
	printf "%s\n" 1 $$ 1 | sort -n >want && sort -n during >got &&
	test_cmp want got &&
	state >after && test_cmp before after
'

test_expect_success TRACEFS '-D where ftrace_enabled is refused: named, exit 1, restored' '
	echo 0 >/proc/sys/kernel/ftrace_enabled 2>/dev/null && {
		echo 1 >/proc/sys/kernel/ftrace_enabled; echo "ftrace_enabled writable here"; exit 0; }
	state >before && fe=$(cat /proc/sys/kernel/ftrace_enabled) &&
	test_expect_code 1 "$TRACE_CMD" record -D -e sched_switch -o d.dat true 2>err &&
	echo "trace-cmd record: writing '"'"'0'"'"' to '"'"'/proc/sys/kernel/ftrace_enabled'"'"': Operation not permitted" >expect &&
	test_cmp expect err && state >after && test_cmp before after &&
	test "$(cat /proc/sys/kernel/ftrace_enabled)" = "$fe" && test ! -e d.dat
'

test_expect_success TRACEFS '-d turns function-trace off while recording' '
	state >before &&
	"$TRACE_CMD" record -q -d -e sched_switch -o d.dat cat $T/options/function-trace >during &&
	echo 0 >expect && test_cmp expect during && state >after && test_cmp before after
'

# Left out: record itself, one recorder per CPU, and record's two threads
# (compressing early, reading the metadata ahead); v6 has no compressing one.
OWN=$(( $(ls -d $T/per_cpu/cpu* | wc -l) + 3 ))
test_expect_success TRACEFS 'record leaves its own processes and threads out, --no-filter keeps them' '
	state >before &&
	"$TRACE_CMD" record -q -e sched_switch -o n.dat sh -c "cat $T/set_event_notrace_pid" \
		>during 2>err &&
	test $(wc -l <during) = $OWN &&
	"$TRACE_CMD" record -q --file-version 6 -e sched_switch -o n.dat \
		sh -c "cat $T/set_event_notrace_pid" >during 2>err &&
	test $(wc -l <during) = $(( OWN - 1 )) &&
	"$TRACE_CMD" record -q --no-filter -e sched_switch -o n.dat \
		sh -c "cat $T/set_event_notrace_pid" >during 2>err &&
	test ! -s during && state >after && test_cmp before after
'

# 2,000 markers make enough data for whole chunks to compress while it
# runs.  The command lists record's threads ($PPID is record) at its end.
test_expect_success TRACEFS 'no syscall of record'"'"'s threads is in its trace' '
	state >before &&
	"$TRACE_CMD" record -q -e syscalls -o s.dat sh -c "i=0; while [ \$i -lt 2000 ]; do echo m\$i >$T/trace_marker; i=\$((i + 1)); done; ls /proc/\$PPID/task" \
		>tids 2>err &&
	test $(wc -l <tids) -ge 3 &&
	"$TRACE_CMD" report s.dat >out &&
	grep -q "sys_enter_openat" out &&
	for tid in $(cat tids); do
		! grep -E -m 3 "^ *trace-cmd-$tid " out || return 1
	done &&
	state >after && test_cmp before after
'

test_expect_success TRACEFS 'with options/event-fork on, the command is traced though record leaves itself out' '
	old=$(cat $T/options/event-fork) &&
	test_when_finished "echo $old >$T/options/event-fork" &&
	echo 1 >$T/options/event-fork &&
	state >before &&
	"$TRACE_CMD" record -q -e sched_process_exec -o f.dat \
		sh -c "/bin/true; /bin/true; grep -c . $T/set_event_notrace_pid" >during 2>err &&
	"$TRACE_CMD" report f.dat >out &&
	test $(grep -c "sched_process_exec:.*filename=/bin/true" out) = 2 &&
	test "$(cat during)" = $OWN &&
	state >after && test_cmp before after
'

test_done
