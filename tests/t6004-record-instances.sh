#!/bin/bash
# record -B NAME: each instance's events go to its own buffer in trace.dat,
# reported with its name as upstream shows it; an instance record creates is
# gone afterwards, one that existed gets its files back; -b sizes them all.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

# Usage errors first: they touch no tracefs (a directory that does not exist).
# record_usage CODE "ARGS" "first line of stderr", with no tracing directory.
record_usage() {
	want=$1 msg=$3
	eval "set -- $2"
	TRACE_CMD_TRACING_DIR=$TRASH/nowhere check_usage "$want" "$msg" record "$@"
}

test_expect_success '-B usage errors name the instance and the reason' '
	record_usage 2 "-e sched -B foo true" \
		"trace-cmd record: -B foo has nothing to record: give -e EVENT after it" &&
	record_usage 2 "-B foo -e sched -B foo -e irq true" "trace-cmd record: -B foo given twice" &&
	record_usage 2 "-B a/b -e sched true" "trace-cmd record: invalid instance name '"'"'a/b'"'"'" &&
	record_usage 2 "-p function -B foo -e sched -l schedule true" \
		"trace-cmd record: function filters apply to the top buffer, not -B foo" &&
	record_usage 2 "-B foo -f \"pid > 0\" -e sched true" "trace-cmd record: -f must follow an -e" &&
	record_usage 2 "-B foo -e sched -v true" "trace-cmd record: -v must come before an -e" &&
	record_usage 2 "-B" "trace-cmd record: option '"'"'-B'"'"' needs a value"
'

# A fake tracing directory with an instance "old" that exists already.
rm -rf fake-orig && cp -r "$FIXTURES/fake-tracing" fake-orig &&
mkdir -p fake-orig/instances/old &&
(cd fake-orig && cp -r events per_cpu trace tracing_on trace_clock current_tracer instances/old/) &&
for d in fake-orig fake-orig/instances/old; do
	for c in 0 1; do echo 1410 >$d/per_cpu/cpu$c/buffer_size_kb; done
done || exit 1

test_expect_success 'an existing instance is recorded with its own events and -b, then restored' '
	fresh_fake &&
	"$TRACE_CMD" record -o f.dat -b 2000 -e sched_switch -B old -e sched_wakeup -f "pid > 1" \
		sh -c "cd fake && awk 1 per_cpu/cpu0/buffer_size_kb \
			instances/old/per_cpu/cpu1/buffer_size_kb tracing_on instances/old/tracing_on \
			events/sched/sched_wakeup/enable instances/old/events/sched/sched_wakeup/enable \
			instances/old/events/sched/sched_switch/enable \
			instances/old/events/sched/sched_wakeup/filter | paste -sd\" \"" >during 2>err &&
	echo "2000 2000 1 1 0 1 0 pid > 1" >expect && test_cmp expect during &&
	# A filter is cleared by writing 0 (the kernel then reads "none" again).
	test "$(cat fake/instances/old/events/sched/sched_wakeup/filter)" = 0 &&
	cp fake-orig/instances/old/events/sched/sched_wakeup/filter \
		fake/instances/old/events/sched/sched_wakeup/ &&
	diff -r fake-orig fake &&
	# The fake buffers hold the same canned pages: each is in the file once.
	"$TRACE_CMD" report -i f.dat >report &&
	grep "^old: " report | sed "s/^old: //" | tr -s " " >inst &&
	grep -v "^old: " report | sed "0,/^cpus=/d" | tr -s " " >top &&
	test -s top && test_cmp top inst && grep -q "^Buffer: old" err
'

test_expect_success 'a missing instance on a fake directory is created and removed' '
	fresh_fake &&
	test_must_fail "$TRACE_CMD" record -o g.dat -B new -e sched true 2>err &&
	grep -q "cannot open '"'"'instances/new/tracing_on'"'"'" err && diff -r fake-orig fake && test ! -e g.dat
'

# The fake cannot populate a new instance: one created before the check would
# fail on its missing files, not on the event.
test_expect_success 'a missing event in any -B is found before an instance is created' '
	fresh_fake &&
	test_expect_code 1 "$TRACE_CMD" record -o g.dat -B new1 -e sched -B old -e sched \
		-B new2 -e no_such_event_xyz true 2>err &&
	echo "trace-cmd record: no event matches '"'"'no_such_event_xyz'"'"'" >expect &&
	test_cmp expect err && diff -r fake-orig fake && test ! -e g.dat
'

test_lock_tracefs

T=$(tracefs_dir)
I=tc-rec-$$
remove_instances() {
	for i in "$T"/instances/$I*; do [ -d "$i" ] && rmdir "$i"; done
	return 0
}
test_when_finished remove_instances 2>/dev/null

events_of() { sed '0,/^cpus=/d' "$1"; }

for v in 6 7; do
	test_expect_success TRACEFS,UPSTREAM "-B: v$v, upstream reports our file as we do" '
		record_checked --file-version '$v' -o i$v.dat -e sched_wakeup -B $I -e sched_switch \
			-B $I-2 -e sched_waking -b 600 sh -c "sleep 0.01; ls / >/dev/null" &&
		test ! -d $T/instances/$I && test ! -d $T/instances/$I-2 &&
		"$TRACE_CMD" report --line-3.1 -i i$v.dat >ours &&
		"$UPSTREAM" report -i i$v.dat >theirs 2>theirs.err &&
		events_of ours >ours.ev && events_of theirs >theirs.ev && test_cmp theirs.ev ours.ev &&
		# Names are right-aligned to the longest: "  NAME: ", "NAME-2: ".
		grep -q "^ *$I: .*sched_switch:" ours.ev && grep -q "^$I-2: .*sched_waking:" ours.ev &&
		grep -v "^ *$I\(-2\)\?: " ours.ev >top.ev &&
		grep -q "sched_wakeup:" top.ev && ! grep -q "sched_switch:\|sched_waking:" top.ev &&
		! grep -q "^ *$I: .*sched_wak" ours.ev &&
		! grep -i "error\|warning\|bug" theirs.err &&
		! ls | grep -q "\.cpu[0-9]*$"
	'
done

test_expect_success TRACEFS,UPSTREAM '-B alone: the top buffer is empty, and upstream shows the same' '
	record_checked -o only.dat -B $I -e sched_switch sh -c "sleep 0.01" &&
	"$TRACE_CMD" report --line-3.1 -i only.dat >ours &&
	"$UPSTREAM" report -i only.dat >theirs 2>/dev/null &&
	events_of ours >ours.ev && events_of theirs >theirs.ev && test_cmp theirs.ev ours.ev &&
	test -s ours.ev && ! grep -v "^ *$I: " ours.ev
'

test_expect_success TRACEFS '-b sizes the instance too, while recording' '
	record_checked -o b.dat -b 700 -B $I -e sched_switch \
		cat $T/buffer_size_kb $T/instances/$I/buffer_size_kb &&
	# The kernel rounds up to whole pages: the same size in both, near 700.
	test "$(sed -n 1p stdout)" = "$(sed -n 2p stdout)" &&
	test "$(sed -n 1p stdout)" -ge 700 && test "$(sed -n 1p stdout)" -lt 720
'

test_expect_success TRACEFS 'an instance that existed stays, with its settings back' '
	mkdir $T/instances/$I &&
	test_when_finished "rmdir $T/instances/$I" &&
	tracefs_state $T/instances/$I >inst.before &&
	record_checked -o e.dat -B $I -e sched_switch -O nooverwrite true &&
	test -d $T/instances/$I &&
	tracefs_state $T/instances/$I >inst.after && test_cmp inst.before inst.after &&
	"$TRACE_CMD" report -i e.dat >/dev/null
'

test_expect_success TRACEFS 'a filter the kernel refuses in an instance: error, tracefs restored' '
	test_must_fail record_checked -o x.dat -B $I -e sched_switch -f "nosuchfield == 1" true &&
	grep -q "sched_switch/filter" stderr && test ! -e x.dat && test ! -d $T/instances/$I
'

test_expect_success TRACEFS 'refused in the last -B: the instances created are removed, one that existed stays as it was' '
	mkdir $T/instances/$I-old &&
	test_when_finished "rmdir $T/instances/$I-old" &&
	echo 1 >$T/instances/$I-old/events/sched/sched_wakeup/enable &&
	tracefs_state $T/instances/$I-old >old.before &&
	test_expect_code 1 record_checked -o x.dat -B $I -e sched_switch -B $I-old -e sched_switch \
		-B $I-2 -e sched_waking -f "nosuchfield == 1" true &&
	grep -q "sched_waking/filter" stderr && test ! -e x.dat &&
	test ! -d $T/instances/$I && test ! -d $T/instances/$I-2 &&
	tracefs_state $T/instances/$I-old >old.after && test_cmp old.before old.after &&
	grep -qx "enabled: events/sched/sched_wakeup/enable" old.after &&
	echo 0 >$T/instances/$I-old/events/sched/sched_wakeup/enable
'

test_expect_success TRACEFS 'a missing event: no instance is created, none is left' '
	test_expect_code 1 record_checked -o x.dat -B $I -e sched_switch -B $I-2 -e no_such_event_xyz true &&
	echo "trace-cmd record: no event matches '"'"'no_such_event_xyz'"'"'" >expect &&
	test_cmp expect stderr && test ! -d $T/instances/$I
'

test_done
