#!/bin/bash
# record when things go wrong around it: a recorder killed with SIGKILL,
# SIGINT at start-up (events being set, recorders starting) and while the
# file is written, a traced command killed
# by a signal, a disk that fills up while recording or while writing, an
# output directory it cannot write, and tracefs unmounted where the mount is
# refused.  Each ends with a file both reports read, or no file and one clear
# error; never a half file, a temp file left behind, or tracefs changed.
# (t2001 covers SIGINT mid-record, a command not found, a full disk at the
# first write and the tracefs/debugfs mounts.)
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

test_have_prereq TRACEFS && test_lock_tracefs
command -v unshare >/dev/null && test_set_prereq UNSHARE
command -v strace >/dev/null && test_set_prereq STRACE
command -v taskset >/dev/null && [ "$(ls -d $T/per_cpu/cpu* 2>/dev/null | wc -l)" -ge 2 ] &&
	grep -qx '0-[1-9][0-9]*' /sys/devices/system/cpu/online && test_set_prereq TWO_CPUS

# The event lines of a report, without the header.
events_of() { sed '0,/^cpus=/d' "$1"; }

# No FILE.cpuN left anywhere under the current directory.
no_temp_files() { ! find . -name '*.cpu[0-9]*' | grep .; }

# Each test in its own directory; a record left in the background is ended.
# The shell starts background jobs with SIGINT ignored: record gets it back.
fresh() { mkdir "$1" && cd "$1"; }
bg_record() {
	env --default-signal=INT "$TRACE_CMD" record "$@" >out 2>err &
	pid=$!
	test_when_finished "kill -TERM $pid 2>/dev/null; wait $pid 2>/dev/null; :"
}

# A file that exists must read whole in our report (and in upstream's).
reads_whole() {
	"$TRACE_CMD" report --line-3.1 -i "$1" >"$1.report" 2>"$1.err" &&
	test ! -s "$1.err" && grep -q "^cpus=" "$1.report" || return 1
	test_have_prereq UPSTREAM || return 0
	"$UPSTREAM" report -i "$1" >"$1.up" 2>"$1.uperr" &&
	events_of "$1.report" >"$1.ours" && events_of "$1.up" >"$1.theirs" &&
	test_cmp "$1.theirs" "$1.ours"
}

# The recorder of CPU $2 among the children of record $1: it holds FILE.cpu$2.
recorder_of() {
	for p in $(pgrep -P "$1"); do
		ls -l /proc/$p/fd 2>/dev/null | grep -q "\.cpu$2\$" && { echo $p; return 0; }
	done
	return 1
}

# wait_for CMD...: up to 10 s until CMD succeeds.
wait_for() {
	for i in $(seq 200); do "$@" && return 0; sleep 0.05; done
	echo "timed out waiting for: $*"; return 1
}

test_expect_success TRACEFS,TWO_CPUS 'a recorder killed with SIGKILL: its CPU is named, the rest of its buffer and the other CPUs are written' '
	fresh kill && tracefs_state >before &&
	bg_record -e sched_switch -o kill.dat sh -c "
		while ! test -e go; do sleep 0.02; done
		taskset -c 0 sh -c \"echo on-cpu0 >$T/trace_marker\"
		taskset -c 1 sh -c \"echo on-cpu1 >$T/trace_marker\"" &&
	wait_for recorder_of $pid 1 >/dev/null && wait_for pgrep -P $pid -x sh >/dev/null &&
	kill -KILL $(recorder_of $pid 1) && touch go &&
	{ wait $pid; code=$?; } &&
	tracefs_state >after && test_cmp before after &&
	test $code = 1 &&
	grep -x "trace-cmd record: cpu 1: the recorder died of signal 9: what it had read but not written is missing" err &&
	reads_whole kill.dat &&
	grep -q "tracing_mark_write: on-cpu0" kill.dat.report &&
	grep -q "tracing_mark_write: on-cpu1" kill.dat.report &&
	no_temp_files
'

# The command ignores SIGINT, so only record sees them: from the moment the
# command is done until record exits, SIGINT after SIGINT, through the stop,
# the drain, the writing of the file and the restore.
test_expect_success TRACEFS 'SIGINT during the final write: the file is complete anyway' '
	fresh final && tracefs_state >before &&
	bg_record -e sched_switch -o fin.dat sh -c "trap \"\" INT
		for i in \$(seq 3000); do echo final-\$i; done >$T/trace_marker
		touch done" &&
	wait_for test -e done &&
	while kill -INT $pid 2>/dev/null; do sleep 0.001; done &&
	{ wait $pid; code=$?; } &&
	tracefs_state >after && test_cmp before after &&
	test $code = 0 &&
	reads_whole fin.dat &&
	test $(grep -c "tracing_mark_write: final-" fin.dat.report) = 3000 &&
	no_temp_files
'

# record of a marker write, with SIGINT delivered by strace when record makes
# the system call the strace options name (-e inject=SYSCALL:signal=INT):
# the same point in record every run, where sleep-then-kill would race.
sigint_at() {
	test_strace -qq -o /dev/null "$@" "$TRACE_CMD" record -e sched_switch -o int.dat \
		sh -c "echo ran >$T/trace_marker" >out 2>err
}

# Interrupted before tracing is on: the command never runs, the file is
# complete and empty, one warning says why, exit 130 as for Ctrl-C.
interrupted_early() {
	test_expect_code 130 sigint_at "$@" &&
	tracefs_state >after && test_cmp before after &&
	echo "trace-cmd record: warning: interrupted before 'sh' started" >want &&
	head -n 1 err >first && test_cmp want first &&
	! grep -q "killed by signal" err &&
	reads_whole int.dat && ! grep -q "tracing_mark_write: ran" int.dat.report &&
	no_temp_files
}

test_expect_success TRACEFS,STRACE 'SIGINT at start-up, while the events are set: an empty file, one warning, exit 130' '
	fresh int-setup && tracefs_state >before &&
	interrupted_early -P $T/events/sched/sched_switch/enable -e inject=openat:signal=INT:when=1
'

test_expect_success TRACEFS,STRACE 'SIGINT at start-up, as the first recorder starts: the same, no recorder left' '
	fresh int-recorder && tracefs_state >before &&
	interrupted_early -e trace=clone -e inject=clone:signal=INT:when=1 &&
	! pgrep -f "$TRACE_CMD record -e sched_switch -o int.dat"
'

test_expect_success TRACEFS,STRACE 'SIGINT at every write of the final file: it is complete, exit 0' '
	fresh int-concat && tracefs_state >before &&
	sigint_at -P int.dat -e inject=write:signal=INT:when=2+ &&
	tracefs_state >after && test_cmp before after &&
	reads_whole int.dat && grep -q "tracing_mark_write: ran" int.dat.report &&
	no_temp_files
'

test_expect_success TRACEFS 'a traced command killed by a signal: its status is passed on, the file kept' '
	fresh cmdsig && tracefs_state >before &&
	test_expect_code 137 "$TRACE_CMD" record -e sched_switch -o sig.dat \
		sh -c "echo before-kill >$T/trace_marker; kill -KILL \$\$" 2>err &&
	grep -x "trace-cmd record: '"'"'sh'"'"' was killed by signal 9" err &&
	reads_whole sig.dat && grep -q "tracing_mark_write: before-kill" sig.dat.report &&
	test_expect_code 139 "$TRACE_CMD" record -e sched_switch -o segv.dat \
		sh -c "kill -SEGV \$\$" 2>err &&
	grep -x "trace-cmd record: '"'"'sh'"'"' was killed by signal 11" err &&
	reads_whole segv.dat &&
	tracefs_state >after && test_cmp before after &&
	no_temp_files
'

# kill -9 of record and its recorders together (killall -9 trace-cmd): the
# kernel wakes a recorder only at half its buffer, so each takes the whole
# pages there every second on its own; restore rebuilds what they hold.
test_expect_success TRACEFS,TWO_CPUS 'record and its recorders killed with SIGKILL: restore rebuilds what was recorded a second before' '
	fresh killed && tracefs_state >before &&
	test_when_finished "\"\$TRACE_CMD\" reset >/dev/null 2>&1" &&
	bg_record -e sched_switch -o k.dat taskset -c 0 sh -c "
		for i in \$(seq 300); do
			echo marker-\$i-of-a-line-long-enough-to-fill-pages-soon >$T/trace_marker
		done; touch written; exec sleep 60" &&
	wait_for test -e written && sleep 2.5 &&
	kids=$(pgrep -P $pid) && kill -KILL $pid $kids &&
	{ wait $pid; "$TRACE_CMD" reset >/dev/null 2>&1; } &&
	test -s k.dat.cpu0 &&
	"$TRACE_CMD" restore -o r.dat k.dat.cpu* 2>err &&
	"$TRACE_CMD" report -i r.dat >r.txt &&
	grep -q "tracing_mark_write: marker-1-of" r.txt &&
	test $(grep -c "tracing_mark_write: marker-" r.txt) -ge 100 &&
	tracefs_state >after && test_cmp before after
'

# In a private mount namespace, a small tmpfs at ./small; runs record there.
record_on_small() {
	size=$1; shift
	unshare -m sh -c "mount -t tmpfs -o size=$size none small && \"\$@\" 2>err; c=\$?;
		ls -A small >left; exit \$c" sh "$TRACE_CMD" record "$@"
}

test_expect_success TRACEFS,UNSHARE 'the disk fills up while recording: exit 1, no file, tracefs restored' '
	fresh full1 && mkdir small && tracefs_state >before &&
	test_expect_code 1 record_on_small 64k -e sched_switch -o small/rec.dat --file-version 6 \
		sh -c "for i in \$(seq 4000); do echo filler-\$i; done >$T/trace_marker" &&
	tracefs_state >after && test_cmp before after &&
	grep -q "No space left on device" err && test ! -s left
'

test_expect_success TRACEFS,UNSHARE 'the disk fills up while the file is written: exit 1, no file, temp files gone' '
	fresh full2 && mkdir small tmp && tracefs_state >before &&
	test_expect_code 1 record_on_small 128k -e sched_switch -o small/out.dat --temp tmp \
		--file-version 6 sh -c "for i in \$(seq 4000); do echo filler-\$i; done >$T/trace_marker" &&
	tracefs_state >after && test_cmp before after &&
	grep -q "^trace-cmd record: .*small/out.dat.*No space left on device" err &&
	test ! -s left && no_temp_files
'

test_expect_success TRACEFS,UNSHARE 'an output directory it cannot write: one line, exit 1, an old file kept' '
	fresh rodir && mkdir ro tmp && echo precious >ro/keep.dat && tracefs_state >before &&
	test_expect_code 1 unshare -m sh -c "mount -o bind,ro ro ro &&
		\"\$@\" record -e sched_switch -o ro/new.dat true 2>err1;
		test \$? = 1 || exit 9
		\"\$@\" record -e sched_switch -o ro/keep.dat true 2>err2;
		test \$? = 1 || exit 9
		\"\$@\" record -e sched_switch -o tmp/t.dat --temp ro true 2>err3" sh "$TRACE_CMD" &&
	tracefs_state >after && test_cmp before after &&
	echo "trace-cmd record: cannot create '"'"'ro/new.dat'"'"': Read-only file system" >want &&
	test_cmp want err1 &&
	echo "trace-cmd record: cannot create '"'"'ro/keep.dat'"'"': Read-only file system" >want &&
	test_cmp want err2 &&
	echo "trace-cmd record: cannot create '"'"'ro/t.dat.cpu0'"'"': Read-only file system" >want &&
	test_cmp want err3 &&
	echo precious >want && test_cmp want ro/keep.dat &&
	test ! -e ro/new.dat && test ! -e tmp/t.dat && no_temp_files
'

test_expect_success TRACEFS,UNSHARE 'tracefs unmounted and the mount refused: one line, exit 1, no file' '
	fresh nomount && tracefs_state >before &&
	test_expect_code 1 unshare -U -r -m sh -c "mount -t tmpfs none /sys/kernel/tracing &&
		mount -t tmpfs none /sys/kernel/debug && exec \"\$@\" record -e sched_switch \
			-o nomount.dat true 2>err" sh "$TRACE_CMD" &&
	tracefs_state >after && test_cmp before after &&
	echo "trace-cmd record: cannot mount tracefs at '"'"'/sys/kernel/tracing'"'"': Operation not permitted" >want &&
	test_cmp want err && test ! -e nomount.dat && no_temp_files
'

test_done
