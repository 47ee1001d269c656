#!/bin/bash
# How record's recorders wait and what they keep: -s wakes them on a timer,
# --poll never lets them wait on the kernel, -m keeps the newest KB/2 to KB of
# each CPU's data.  The waits are seen from inside the traced command (whose
# siblings the recorders are) through /proc/PID/syscall.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

NOWHERE=$TRASH/no-tracing-dir
FAKE=$FIXTURES/fake-tracing

# record_usage "ARGS" "first line of stderr": exit 2, usage, no tracing directory.
record_usage() {
	msg=$2
	eval "set -- $1"
	TRACE_CMD_TRACING_DIR=$NOWHERE check_usage 2 "$msg" record "$@"
}

test_expect_success 'bad -s and -m values are usage errors' '
	record_usage "-s x -e sched true" "trace-cmd record: invalid -s value '"'"'x'"'"': not a number" &&
	record_usage "-s 10000001 -e sched true" "trace-cmd record: invalid -s value '"'"'10000001'"'"': out of range (0 to 10000000)" &&
	record_usage "-e sched -s" "trace-cmd record: option '"'"'-s'"'"' needs a value" &&
	record_usage "-m 0 -e sched true" "trace-cmd record: invalid -m value '"'"'0'"'"': out of range (1 to 1073741824)" &&
	record_usage "-m 1k -e sched true" "trace-cmd record: invalid -m value '"'"'1k'"'"': not a number" &&
	record_usage "--poll=1 -e sched true" "trace-cmd record: unknown option '"'"'--poll'"'"'" &&
	record_usage "-N localhost:1 -m 100 -e sched true" \
		"trace-cmd record: -m cannot be used with -N: the listener writes the file, so it keeps all of it"
'

# A fake whose CPU 0 hands out six pages A B C C B A (A, B: its own two, C:
# CPU 1's), and claims 1000 events read.
cat "$FAKE/per_cpu/cpu0/trace_pipe_raw" >ab
cat "$FAKE/per_cpu/cpu1/trace_pipe_raw" >c
head -c 4096 ab >a && tail -c 4096 ab >b
cat a b c c b a >six
fake_six() {
	rm -rf fake && cp -r "$FAKE" fake && cp six fake/per_cpu/cpu0/trace_pipe_raw &&
	sed -i "s/^read events: .*/read events: 1000/" fake/per_cpu/cpu0/stats
}

# record_m KB: records the six-page fake with -m KB into m.dat, CPU 0's data in cpu0.data.
record_m() {
	fake_six &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record --file-version 6 -m $1 \
		-e sched_switch -o m.dat true 2>err &&
	"$HELPERS/dump-header" m.dat >layout &&
	set -- $(sed -n "s/^  cpu 0 offset \([0-9]*\) size \([0-9]*\)$/\1 \2/p" layout) &&
	tail -c +$(($1 + 1)) m.dat | head -c $2 >cpu0.data
}

test_expect_success '-m 8 keeps the newest one or two pages: B A' '
	record_m 8 && cat b a >expect && cmp expect cpu0.data &&
	"$TRACE_CMD" report -i m.dat >report
'

test_expect_success '-m 16 keeps the newest two to four pages: C C B A' '
	record_m 16 && cat c c b a >expect && cmp expect cpu0.data &&
	"$TRACE_CMD" report -i m.dat >report
'

test_expect_success '-m counts what it kept and what it dropped for newer pages' '
	record_m 8 &&
	"$TRACE_CMD" report -i m.dat --cpu 0 | sed "0,/^cpus=/d" | grep -c . >kept.report &&
	line=$(grep "^CPU0: " err) &&
	kept=$(echo "$line" | sed -n "s/^CPU0: \([0-9]*\) events recorded (8192 bytes), 0 events lost, \([0-9]*\) older events dropped (-m)$/\1/p") &&
	dropped=$(echo "$line" | sed -n "s/.*, \([0-9]*\) older events dropped (-m)$/\1/p") &&
	test -n "$kept" && test $((kept + dropped)) = 1000 &&
	echo $kept >expect && test_cmp expect kept.report &&
	grep -qx "CPU1: 14 events recorded (4096 bytes), 0 events lost" err
'

test_expect_success '-m larger than the data keeps all of it' '
	record_m 1024 && cat six >expect && cmp expect cpu0.data
'

# The fake with an instance "old" whose CPU 0 hands out the same six pages.
fake_six_instance() {
	fake_six && mkdir -p fake/instances/old &&
	(cd fake && cp -r events per_cpu trace tracing_on trace_clock current_tracer instances/old/)
}

test_expect_success '-B instances keep what -m says too: B A of six pages, as the top buffer' '
	fake_six_instance &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" record -m 8 -e sched_switch \
		-B old -e sched_switch -o mi.dat true 2>err &&
	"$TRACE_CMD" report -i mi.dat --cpu 0 >report &&
	grep "^old: " report | sed "s/^old: *//" >inst &&
	sed "0,/^cpus=/d" report | grep -v "^old: " | sed "s/^ *//" >top &&
	test -s top && test_cmp top inst &&
	record_m 8 && "$TRACE_CMD" report -i m.dat --cpu 0 | sed "0,/^cpus=/d; s/^ *//" >top.m &&
	test_cmp top.m top
'

test_lock_tracefs

WAITS="sh $HELPERS/recorder-waits.sh"

ncpus() { ls -d $T/per_cpu/cpu* | wc -l; }

test_expect_success TRACEFS 'by default the recorders sleep until the kernel wakes them' '
	record_checked -e sched_switch -o d.dat sh -c "$WAITS \$PPID >waits" &&
	for c in $(seq $(ncpus)); do echo kernel; done >expect && test_cmp expect waits
'

test_expect_success TRACEFS '-s 200000: the recorders sleep on a timer and the trace is whole' '
	record_checked -s 200000 -e sched_switch -o s.dat sh -c "$WAITS \$PPID >waits; echo tc-s >$T/trace_marker" &&
	for c in $(seq $(ncpus)); do echo timer; done >expect && test_cmp expect waits &&
	"$TRACE_CMD" report -i s.dat >report &&
	grep -q "tracing_mark_write: tc-s" report &&
	total=$(sed -n "s/^CPU[0-9]*: \([0-9]*\) events recorded.*, 0 events lost$/\1/p" stderr |
		awk "{ n += \$1 } END { print n }") &&
	test "$total" = "$(sed "0,/^cpus=/d" report | grep -c .)"
'

test_expect_success TRACEFS '-s 0 is the default: the kernel wakes the recorders' '
	record_checked -s 0 -e sched_switch -o s0.dat sh -c "$WAITS \$PPID >waits" &&
	for c in $(seq $(ncpus)); do echo kernel; done >expect && test_cmp expect waits
'

test_expect_success TRACEFS '-B NAME -s 200000: the instance'"'"'s recorders sleep on a timer too' '
	I=tc-rec-s-$$ &&
	record_checked -s 200000 -B $I -e sched_switch -o bs.dat sh -c "$WAITS \$PPID >waits; echo tc-bs >$T/instances/$I/trace_marker" &&
	for c in $(seq $(ncpus)); do echo timer; done >expect && test_cmp expect waits &&
	"$TRACE_CMD" report -i bs.dat | grep -q "^$I: .*tracing_mark_write: tc-bs"
'

test_expect_success TRACEFS '--poll -s 50000: a timer, never the kernel' '
	record_checked --poll -s 50000 -e sched_switch -o p.dat sh -c "$WAITS \$PPID >waits" &&
	for c in $(seq $(ncpus)); do echo timer; done >expect && test_cmp expect waits
'

# Per recorder, the CPU ticks (utime + stime) it took during a 0.3 s sleep.
cat >ticks.sh <<'EOF'
kids=$(cat /proc/$1/task/$1/children)
ticks() { for p in $kids; do [ "$(cat /proc/$p/comm)" = trace-cmd ] && cut -d")" -f2 /proc/$p/stat | awk '{ print $12 + $13 }'; done; }
ticks >t0; sleep 0.3; ticks >t1
paste t0 t1 | awk '{ print $2 - $1 }' >ticks
EOF

test_expect_success TRACEFS '--poll alone: the recorders busy-poll, and record what the command wrote' '
	record_checked --poll -e sched_switch -o b.dat sh -c "sh ticks.sh \$PPID; echo tc-poll >$T/trace_marker" &&
	test $(wc -l <ticks) = $(ncpus) &&
	awk "\$1 < 5 { print \"idle recorder: \" \$1 \" ticks\"; bad = 1 } END { exit bad }" ticks &&
	"$TRACE_CMD" report -i b.dat | grep -q "tracing_mark_write: tc-poll"
'

test_expect_success TRACEFS '-m 16: at most 16 KB per CPU, the newest markers kept, the file readable' '
	pad=$(printf "%0100d" 0) &&
	record_checked -m 16 -e sched_switch -o m16.dat sh -c "
		for i in \$(seq 400); do echo tc-m-\$i-$pad >$T/trace_marker; done" &&
	"$TRACE_CMD" report -i m16.dat >report &&
	grep -q "tracing_mark_write: tc-m-400-" report &&
	! grep -q "tracing_mark_write: tc-m-1-" report &&
	grep -q "older events dropped (-m)$" stderr &&
	for n in $(sed -n "s/^CPU[0-9]*: [0-9]* events recorded (\([0-9]*\) bytes).*/\1/p" stderr); do
		test $n -le 16384 || { echo "$n bytes kept"; exit 1; }
	done
'

test_expect_success TRACEFS,UPSTREAM "upstream reads the -m file as we do" '
	"$UPSTREAM" report -i m16.dat >theirs 2>theirs.err &&
	sed "0,/^cpus=/d" theirs >theirs.events &&
	"$TRACE_CMD" report --line-3.1 -i m16.dat | sed "0,/^cpus=/d" >ours.events &&
	test_cmp ours.events theirs.events
'

test_done
