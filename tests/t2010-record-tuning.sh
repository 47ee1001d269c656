#!/bin/bash
# record's tuning options: -b sizes every CPU's buffer while recording and puts
# each back after; --pin and -r place the recorders (checked from inside the
# traced command, whose siblings the recorders are).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

NOWHERE=$TRASH/no-tracing-dir

# record_usage "ARGS" "first line of stderr": exit 2, usage, no tracing directory.
record_usage() {
	msg=$2
	eval "set -- $1"
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage 2 "$msg" record "$@"
}

test_expect_success 'bad -b and -r values are usage errors' '
	record_usage "-b abc -e sched true" "trace-cmd record: invalid -b value '"'"'abc'"'"': not a number" &&
	record_usage "-b 0 -e sched true" "trace-cmd record: invalid -b value '"'"'0'"'"': out of range (1 to 1073741824)" &&
	record_usage "-e sched -b" "trace-cmd record: option '"'"'-b'"'"' needs a value" &&
	record_usage "-r 0 -e sched true" "trace-cmd record: invalid -r value '"'"'0'"'"': out of range (1 to 99)" &&
	record_usage "-r 100 -e sched true" "trace-cmd record: invalid -r value '"'"'100'"'"': out of range (1 to 99)" &&
	record_usage "-r x -e sched true" "trace-cmd record: invalid -r value '"'"'x'"'"': not a number" &&
	record_usage "--pin=1 -e sched true" "trace-cmd record: unknown option '"'"'--pin'"'"'"
'

# A fake tracing directory whose sched system has its own enable file.
fake_with_system_enable() {
	rm -rf fake && cp -r "$FIXTURES/fake-tracing" fake && echo 0 >fake/events/sched/enable
}

test_expect_success 'a whole system that is off is enabled by one write to its enable file' '
	fake_with_system_enable &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record -e sched -o f.dat \
		sh -c "cd fake/events && echo \$(cat sched/enable); grep -l ^1 */*/enable || :" >during 2>err &&
	echo 1 >expect && test_cmp expect during &&
	echo 0 >expect && test_cmp expect fake/events/sched/enable
'

test_expect_success 'part of a system, or a system partly on, is enabled event by event' '
	fake_with_system_enable &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record -e "sched:sched_wak*" -o f.dat \
		sh -c "cd fake/events && echo \$(cat sched/enable); grep -l ^1 */*/enable" >during 2>err &&
	printf "0\nsched/sched_wakeup/enable\nsched/sched_waking/enable\n" >expect &&
	test_cmp expect during &&
	fake_with_system_enable && echo X >fake/events/sched/enable &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record -e sched -e irq_handler_exit -o f.dat \
		sh -c "cd fake/events && echo \$(cat sched/enable); grep -l ^1 */*/enable" >during 2>err &&
	printf "X\n%s/enable\n" irq/irq_handler_exit sched/sched_switch sched/sched_wakeup \
		sched/sched_waking >expect &&
	test_cmp expect during &&
	(cd fake/events && grep -l ^1 */*/enable) >after; test ! -s after
'

test_lock_tracefs

test_expect_success TRACEFS '-b sizes every CPU during the recording and restores each size' '
	# 1020 KB is 256 sub-buffers of 4080 bytes: the kernel reads it back unrounded.
	tracefs_state >before &&
	old0=$(cat $T/per_cpu/cpu0/buffer_size_kb) &&
	"$TRACE_CMD" record -b 1020 -e sched_switch -o b.dat \
		sh -c "cat $T/per_cpu/cpu*/buffer_size_kb >during" 2>err &&
	tracefs_state >after && test_cmp before after &&
	test "$(cat $T/per_cpu/cpu0/buffer_size_kb)" = "$old0" &&
	for f in $T/per_cpu/cpu*; do echo 1020; done >expect &&
	test_cmp expect during &&
	grep -q "^CPU0: [0-9]* events recorded" err
'

test_expect_success TRACEFS '-b puts back CPUs whose sizes differed' '
	old0=$(cut -d" " -f1 $T/per_cpu/cpu0/buffer_size_kb) &&
	test_when_finished "echo $old0 >$T/per_cpu/cpu0/buffer_size_kb" &&
	echo 200 >$T/per_cpu/cpu0/buffer_size_kb &&
	tracefs_state >before &&
	"$TRACE_CMD" record -b 64 -e sched_switch -o b2.dat true 2>err &&
	tracefs_state >after && test_cmp before after
'

# The recorders as the traced command sees them: "CPUS policy=P rt=PRIO nice=N" per recorder.
cat >probe.sh <<'EOF'
for p in $(cat /proc/$PPID/task/$PPID/children); do
	[ $p = $$ ] && continue
	cpus=$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/$p/status)
	set -- $(cut -d")" -f2 /proc/$p/stat)
	echo "$cpus policy=${39} rt=${38} nice=${17}"
done | sort >recorders
EOF

test_expect_success TRACEFS '--pin -r 7: each recorder on its CPU at SCHED_FIFO 7' '
	"$TRACE_CMD" record --pin -r 7 -e sched_switch -o p.dat sh probe.sh 2>err &&
	n=$(ls -d $T/per_cpu/cpu* | wc -l) &&
	for c in $(seq 0 $((n - 1))); do echo "$c policy=1 rt=7 nice=-20"; done >expect &&
	test_cmp expect recorders
'

test_expect_success TRACEFS 'without --pin and -r the recorders run anywhere, at nice -20' '
	"$TRACE_CMD" record -e sched_switch -o q.dat sh probe.sh 2>err &&
	all=$(sed -n "s/^Cpus_allowed_list:[[:space:]]*//p" /proc/self/status) &&
	n=$(ls -d $T/per_cpu/cpu* | wc -l) &&
	for c in $(seq 1 $n); do echo "$all policy=0 rt=0 nice=-20"; done >expect &&
	test_cmp expect recorders
'

test_done
