#!/bin/bash
# record on the real tracefs: what it records, that it passes the command
# through, stops cleanly on signals, leaves no temp files and puts tracefs back.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

test_lock_tracefs

# The event lines of a report, without the header (cpus=).
events_of() { sed '0,/^cpus=/d' "$1"; }

# Only the files a test expects, no FILE.cpuN left behind.
no_temp_files() { ! ls | grep -q '\.cpu[0-9]*$'; }

test_expect_success TRACEFS 'markers written during the recording are reported, in order' '
	record_checked -e sched_switch -o m.dat sh -c "
		for i in 1 2 3 4 5; do echo tc-marker-\$i >$T/trace_marker; done" &&
	"$TRACE_CMD" report -i m.dat >report &&
	sed -n "s/.*tracing_mark_write: //p" report >markers &&
	printf "tc-marker-%s\n" 1 2 3 4 5 >expect &&
	test_cmp expect markers &&
	no_temp_files
'

test_expect_success TRACEFS,UPSTREAM "upstream's report of our file equals ours after the header" '
	record_checked -e sched -o u.dat sh -c "echo interop >$T/trace_marker; ls / >/dev/null" &&
	"$UPSTREAM" report -i u.dat >theirs 2>theirs.err &&
	"$TRACE_CMD" report --line-3.1 -i u.dat >ours &&
	events_of theirs >theirs.events && events_of ours >ours.events &&
	grep -q "tracing_mark_write: interop" ours.events &&
	grep -q "sched_switch:" ours.events &&
	test_cmp theirs.events ours.events &&
	! grep -i "error\|warning\|bug" theirs.err
'

test_expect_success TRACEFS 'the examples of trace-cmd-record(1) work' '
	record_checked -e sched ls &&
	"$TRACE_CMD" report >report && grep -q "sched_switch:" report &&
	record_checked -e sched_switch -e "irq:irq_handler_*" -o marks.dat \
		sh -c "echo start >/sys/kernel/tracing/trace_marker; ls /" &&
	"$TRACE_CMD" report -i marks.dat >report &&
	grep -q "tracing_mark_write: start" report &&
	test_expect_code 0 record_checked -e all true
'

test_expect_success TRACEFS 'the file names version 6 and every CPU' '
	record_checked -e sched_switch -o v.dat --file-version 6 true &&
	"$TRACE_CMD" report -V -i v.dat >report &&
	test "$(head -n 1 report)" = "version = 6" &&
	grep -qx "cpus=$(ls -d $T/per_cpu/cpu* | wc -l)" report &&
	test "$(head -c 3 v.dat | od -An -tx1 | tr -d " ")" = 170844
'

# Which events each -e form enables, seen from inside the recording.
enabled_during() {
	record_checked "$@" -o e.dat cat "$T/set_event" &&
	sort stdout >enabled
}

# The events with an enable file whose system:event matches the shell patterns.
events_matching() {
	for p in "$@"; do
		for d in $T/events/$p/; do
			[ -f "$d/enable" ] || continue
			d=${d%/}; ev=${d##*/}; d=${d%/*}; echo "${d##*/}:$ev"
		done
	done | sort -u
}

test_expect_success TRACEFS '-e EVENT enables that event' '
	enabled_during -e sched_switch &&
	echo sched:sched_switch >expect && test_cmp expect enabled
'

test_expect_success TRACEFS '-e SYSTEM:EVENT enables that event' '
	enabled_during -e irq:irq_handler_entry &&
	echo irq:irq_handler_entry >expect && test_cmp expect enabled
'

test_expect_success TRACEFS '-e SYSTEM enables the whole system' '
	enabled_during -e sched &&
	events_matching "sched/*" >expect && test_cmp expect enabled
'

test_expect_success TRACEFS '-e with globs: SYSTEM:GLOB, *:EVENT, GLOB' '
	enabled_during -e "sched:sched_s*" -e "*:irq_handler_exit" -e "sched_wak*" &&
	events_matching "sched/sched_s*" "*/irq_handler_exit" "*/sched_wak*" >expect &&
	test_cmp expect enabled
'

test_expect_success TRACEFS 'repeated -e forms add up without duplicates' '
	enabled_during -e sched_switch -e sched:sched_switch -e signal &&
	events_matching sched/sched_switch "signal/*" >expect && test_cmp expect enabled
'

test_expect_success TRACEFS '-e all enables every event that can be enabled' '
	enabled_during -e all &&
	events_matching "*/*" >expect && test_cmp expect enabled
'

test_expect_success TRACEFS 'an event that does not exist: exit 1, tracefs untouched, no file' '
	test_expect_code 1 record_checked -e sched_switch -e nosuchevent -o none.dat true &&
	test "$(cat stderr)" = "trace-cmd record: no event matches '"'"'nosuchevent'"'"'" &&
	test ! -e none.dat && no_temp_files
'

test_expect_success TRACEFS "the command's output and exit status pass through" '
	test_expect_code 7 record_checked -e sched_switch -o s.dat \
		sh -c "echo to-stdout; echo to-stderr >&2; exit 7" &&
	echo to-stdout >expect && test_cmp expect stdout &&
	grep -qx to-stderr stderr &&
	grep -qx "trace-cmd record: '"'"'sh'"'"' exited with status 7" stderr &&
	"$TRACE_CMD" report -i s.dat >/dev/null
'

test_expect_success TRACEFS 'arguments reach the command unchanged, found through PATH' '
	mkdir bin && printf "#!/bin/sh\nprintf \"[%%s]\\\\n\" \"\$@\"\n" >bin/args &&
	chmod +x bin/args &&
	PATH=$PWD/bin:$PATH record_checked -e sched_switch -o a.dat args "a b" -e "" &&
	printf "[a b]\n[-e]\n[]\n" >expect && test_cmp expect stdout
'

test_expect_success TRACEFS 'a command that is not found: exit 1, nothing recorded' '
	test_expect_code 1 record_checked -e sched_switch -o nf.dat no-such-command-xyz &&
	test "$(cat stderr)" = "trace-cmd record: cannot run '"'"'no-such-command-xyz'"'"': command not found" &&
	test ! -e nf.dat && no_temp_files
'

test_expect_success TRACEFS 'a command that cannot be executed: exit 1, nothing recorded' '
	printf "not a program\n" >notexec && chmod +x notexec &&
	test_expect_code 1 record_checked -e sched_switch -o ne.dat ./notexec &&
	grep -q "cannot run '"'"'./notexec'"'"': Exec format error" stderr &&
	test ! -e ne.dat && no_temp_files
'

test_expect_success TRACEFS 'the closing summary shows the kernel stats and each CPU' '
	record_checked -e sched_switch -o st.dat true &&
	grep -qx "Kernel buffer statistics:" stderr &&
	grep -q "\"entries\" are the entries left in the kernel ring buffer" stderr &&
	for f in entries overrun "commit overrun" bytes "oldest event ts" "now ts" \
		 "dropped events" "read events"; do
		test $(grep -c "^$f:" stderr) = $(ls -d $T/per_cpu/cpu* | wc -l) ||
			{ echo "missing $f"; exit 1; }
	done &&
	grep -E "^CPU0: [0-9]+ events recorded \([0-9]+ bytes\), [0-9]+ events lost$" stderr
'

test_expect_success TRACEFS 'the summary counts what the file holds' '
	record_checked -e sched_switch -o c.dat sh -c "echo x >$T/trace_marker" &&
	"$TRACE_CMD" report -i c.dat >report &&
	total=$(sed -n "s/^CPU[0-9]*: \([0-9]*\) events recorded.*/\1/p" stderr |
		awk "{ n += \$1 } END { print n }") &&
	test "$total" = "$(events_of report | grep -vc "EVENTS DROPPED")"
'

# Starts a recording in the background and waits until its command is running.
start_bg() {
	tracefs_state >state.before
	"$TRACE_CMD" record "$@" >stdout 2>stderr &
	pid=$!
	for i in $(seq 100); do
		grep -q "Hit Ctrl" stderr 2>/dev/null && break
		[ "$(cat $T/tracing_on)" = 1 ] && break
		sleep 0.05
	done
	sleep 0.2
}

finish_bg() {
	wait $pid
	code=$?
	tracefs_state >state.after
	test_cmp state.before state.after || { echo "tracefs changed"; return 1; }
	return $code
}

test_expect_success TRACEFS 'SIGINT mid-record stops it and leaves a valid file' '
	start_bg -e sched_switch -o int.dat sleep 20 &&
	kill -INT $pid &&
	test_expect_code 130 finish_bg &&
	grep -q "was killed by signal 2" stderr &&
	"$TRACE_CMD" report -i int.dat >report && grep -qx "cpus=[0-9]*" report &&
	no_temp_files
'

test_expect_success TRACEFS 'SIGTERM without a command ends the recording with exit 0' '
	start_bg -e sched_switch -o term.dat &&
	echo during-term >$T/trace_marker &&
	kill -TERM $pid &&
	finish_bg &&
	"$TRACE_CMD" report -i term.dat >report &&
	grep -q "tracing_mark_write: during-term" report &&
	no_temp_files
'

# Upstream waits on the tasks -P names; ours recorded until a signal came.
test_expect_success TRACEFS 'record -P with no command ends when the tasks have all ended' '
	tracefs_state >before &&
	{ sleep 1 9>&- & } && a=$! &&
	{ sh -c "sleep 2; echo pid-ended >$T/trace_marker" 9>&- & } && b=$! &&
	start=$(date +%s) &&
	timeout 30 "$TRACE_CMD" record -P $a -P $b -e sched_switch -o pids.dat >out 2>err &&
	end=$(date +%s) &&
	test $((end - start)) -lt 10 &&
	! kill -0 $a 2>/dev/null && ! kill -0 $b 2>/dev/null &&
	"$TRACE_CMD" report -i pids.dat >report && grep -q "^cpus=" report &&
	tracefs_state >after && test_cmp before after && no_temp_files
'

test_expect_success TRACEFS,UPSTREAM 'a file cut short by SIGINT still reads in upstream' '
	start_bg -e sched_switch -o int2.dat &&
	kill -INT $pid && finish_bg &&
	"$UPSTREAM" report -i int2.dat >theirs 2>/dev/null &&
	grep -q "^cpus=" theirs
'

test_expect_success TRACEFS 'an existing output survives a failed record' '
	echo precious >keep.dat &&
	test_expect_code 1 record_checked -e nosuchevent -o keep.dat true &&
	echo precious >expect && test_cmp expect keep.dat
'

test_expect_success TRACEFS 'EPERM on the function tracer files does not stop record -e' '
	echo nop >expect && test_cmp expect $T/current_tracer &&
	! echo function 2>/dev/null >$T/current_tracer &&
	record_checked -e sched_switch -o ep.dat true &&
	! grep -i "ftrace\|function\|Operation not permitted" stderr &&
	"$TRACE_CMD" report -i ep.dat >/dev/null
'

test_expect_success TRACEFS 'a refused write names the file, the value and the reason' '
	tracefs_state >state.before &&
	test_expect_code 1 "$HELPERS/tracefs-set" current_tracer function 2>err &&
	tracefs_state >state.after && test_cmp state.before state.after &&
	test "$(cat err)" = "trace-cmd tracefs-set: writing '"'"'function'"'"' to '"'"'current_tracer'"'"': Operation not permitted"
'

test_expect_success TRACEFS "a refusal shows the kernel's error_log entry, and the old value returns" '
	tracefs_state >state.before &&
	test_expect_code 1 "$HELPERS/tracefs-set" events/sched/sched_switch/filter \
		"nosuchfield == 1" 2>err &&
	"$HELPERS/tracefs-set" events/sched/sched_switch/filter "prev_pid == 1" >set &&
	tracefs_state >state.after && test_cmp state.before state.after &&
	test "$(cat err)" = "trace-cmd tracefs-set: writing '"'"'nosuchfield == 1'"'"' to '"'"'events/sched/sched_switch/filter'"'"': Invalid argument (kernel: event filter parse error: error: Field not found)"
'

test_expect_success TRACEFS 'a disk that fills up: exit 1, no partial file, tracefs restored' '
	mkdir small &&
	tracefs_state >state.before &&
	test_expect_code 1 unshare -m sh -c "mount -t tmpfs -o size=256k none small &&
		\"\$TRACE_CMD\" record -e sched_switch -o small/full.dat true 2>err; c=\$?;
		ls small >left; exit \$c" &&
	tracefs_state >state.after && test_cmp state.before state.after &&
	grep -q "No space left on device" err &&
	test ! -s left
'

# Inside a private mount namespace, empty tmpfs hides the machine's mounts.
test_expect_success TRACEFS 'with no tracefs mounted, record mounts it' '
	tracefs_state >state.before &&
	unshare -m sh -c "mount -t tmpfs none /sys/kernel/tracing &&
		mount -t tmpfs none /sys/kernel/debug &&
		\"\$TRACE_CMD\" record -e sched_switch -o nm.dat \
			sh -c \"echo unmounted >/sys/kernel/tracing/trace_marker\" 2>err &&
		stat -f -c %T /sys/kernel/tracing >fstype" &&
	tracefs_state >state.after && test_cmp state.before state.after &&
	echo tracefs >expect && test_cmp expect fstype &&
	"$TRACE_CMD" report -i nm.dat | grep -q "tracing_mark_write: unmounted"
'

test_expect_success TRACEFS 'where tracefs cannot be mounted, record mounts debugfs' '
	tracefs_state >state.before &&
	unshare -m sh -c "mount -t tmpfs none /sys/kernel && mkdir /sys/kernel/debug &&
		\"\$TRACE_CMD\" record -e sched_switch -o dbg.dat \
			sh -c \"echo via-debugfs >/sys/kernel/debug/tracing/trace_marker\" 2>err &&
		stat -f -c %T /sys/kernel/debug >fstype" &&
	tracefs_state >state.after && test_cmp state.before state.after &&
	echo debugfs >expect && test_cmp expect fstype &&
	"$TRACE_CMD" report -i dbg.dat | grep -q "tracing_mark_write: via-debugfs"
'

test_done
