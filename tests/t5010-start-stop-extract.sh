#!/bin/bash
# start, stop, restart, set and extract on the real tracefs: the cycle of trace-cmd-start(1),
# instances, and bad input that changes nothing.
. "$(dirname "$0")/test-lib.sh"

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
	I=t5010-$$
	SIZE=$(cat "$T/buffer_size_kb")
	tracefs_state >orig.state
	trap 'cleanup; cd /; rm -rf "$TRASH"' EXIT
fi

# After each test (test_when_finished cannot see into the test's subshell).
cleanup() {
	[ -n "$T" ] || return 0
	for i in "$T"/instances/$I*; do [ -d "$i" ] && "$TRACE_CMD" reset -B "${i##*/}" -d 2>/dev/null; done
	"$TRACE_CMD" reset -b "$SIZE" >/dev/null 2>&1
}

# The lines of the Events part of stat's output.
stat_events() {
	sed -n "/^Events:\$/,/^\$/p" "$1" | sed "1d; \$d; s/^ //"
}

test_expect_success TRACEFS,UPSTREAM 'start -e sched, markers, stop, extract: the file has the sched events and exactly the markers' '
	"$TRACE_CMD" start -e sched &&
	test "$(cat "$T/tracing_on")" = 1 &&
	grep -c "^sched:" "$T/set_event" >nr && test "$(cat nr)" = "$(ls -d "$T"/events/sched/*/ | wc -l)" &&
	"$TRACE_CMD" stat >stat.out && stat_events stat.out >ev && cat "$T/set_event" >want.ev && test_cmp want.ev ev &&
	grep -qx "Tracing is enabled" stat.out && test "$("$TRACE_CMD" show --tracing_on)" = 1 &&
	for m in "first marker" "second marker" "third marker"; do echo "$m" >"$T/trace_marker"; done &&
	sleep 0.1 &&
	"$TRACE_CMD" stop &&
	test "$(cat "$T/tracing_on")" = 0 &&
	"$TRACE_CMD" stat >stat.out && grep -qx "Tracing is disabled" stat.out &&
	test "$("$TRACE_CMD" show --tracing_on)" = 0 &&
	"$TRACE_CMD" show >shown && grep -q "tracing_mark_write: second marker" shown &&
	echo "not traced" >"$T/trace_marker" 2>/dev/null
	"$TRACE_CMD" extract -o cycle.dat &&
	"$UPSTREAM" report -i cycle.dat >up.txt 2>up.err &&
	sed -n "s/^.*tracing_mark_write: //p" up.txt >markers &&
	printf "first marker\nsecond marker\nthird marker\n" >want.markers &&
	test_cmp want.markers markers &&
	grep -q ": sched_switch: " up.txt && grep -q ": sched_wakeup" up.txt &&
	! grep -v -e "^cpus=" -e ": sched_[a-z_]*: " -e ": print: " up.txt
'
cleanup

test_expect_success TRACEFS,UPSTREAM 'our report of the extracted file shows the same events as upstream'"'"'s' '
	"$TRACE_CMD" report --line-3.1 -i cycle.dat >ours.txt &&
	"$UPSTREAM" report -i cycle.dat >up.txt 2>/dev/null &&
	grep -v -e "^cpus=" ours.txt >ours.ev &&
	grep -v -e "^cpus=" up.txt >up.ev &&
	test_cmp up.ev ours.ev
'

test_expect_success TRACEFS,UPSTREAM 'a second extract finds the buffer consumed; reset then leaves tracefs as found' '
	"$TRACE_CMD" extract -o again.dat &&
	"$UPSTREAM" report -i again.dat 2>/dev/null | grep -c tracing_mark_write >n; test "$(cat n)" = 0 &&
	"$TRACE_CMD" reset 2>/dev/null &&
	tracefs_state >now.state &&
	test_cmp orig.state now.state &&
	"$TRACE_CMD" stat >stat.out && stat_events stat.out >ev && echo "All disabled" >want && test_cmp want ev &&
	grep -qx "Trace clock: local" stat.out && grep -qx "Tracing is enabled" stat.out
'
cleanup

test_expect_success TRACEFS,UPSTREAM 'extract with every event still on ends, with no more than the buffers held' '
	"$TRACE_CMD" start -e all &&
	sleep 0.5 &&
	timeout 60 "$TRACE_CMD" extract -o busy.dat &&
	"$TRACE_CMD" reset 2>/dev/null &&
	"$TRACE_CMD" restore -c -o meta.dat &&
	kb=$(cat "$T/buffer_size_kb") && cpus=$(ls -d "$T"/per_cpu/cpu* | wc -l) &&
	max=$(( $(stat -c %s meta.dat) + cpus * (kb * 1024 + 4 * 4096) + 1024 * 1024 )) &&
	test $(stat -c %s busy.dat) -le $max &&
	"$UPSTREAM" report -i busy.dat >/dev/null 2>&1
'
cleanup

test_expect_success TRACEFS 'start -f filters the events of the -e before it' '
	"$TRACE_CMD" start -e sched_switch -f "prev_pid == 1" -e sched_wakeup &&
	test "$(cat "$T/events/sched/sched_switch/filter")" = "prev_pid == 1" &&
	test "$(cat "$T/events/sched/sched_wakeup/filter")" = none &&
	printf "sched:sched_wakeup\nsched:sched_switch\n" | sort >want &&
	sort "$T/set_event" >got && test_cmp want got
'
cleanup

test_expect_success TRACEFS 'start replaces the events; set adds to them and leaves tracing_on' '
	"$TRACE_CMD" start -e sched_switch &&
	"$TRACE_CMD" stop &&
	"$TRACE_CMD" set -e sched_wakeup -C global -O sym-addr &&
	printf "sched:sched_switch\nsched:sched_wakeup\n" >want && sort "$T/set_event" >got && test_cmp want got &&
	test "$(cat "$T/tracing_on")" = 0 &&
	grep -q "\[global\]" "$T/trace_clock" && test "$(cat "$T/options/sym-addr")" = 1 &&
	"$TRACE_CMD" start -e irq_handler_entry -O nosym-addr &&
	test "$(cat "$T/set_event")" = irq:irq_handler_entry &&
	test "$(cat "$T/tracing_on")" = 1 && test "$(cat "$T/options/sym-addr")" = 0
'
cleanup

test_expect_success TRACEFS 'start -B creates an instance and leaves the top buffer alone' '
	tracefs_state >top.before &&
	"$TRACE_CMD" start -B $I -e sched_switch -b 1000 &&
	test "$(cat "$T/instances/$I/set_event")" = sched:sched_switch &&
	test "$(cat "$T/instances/$I/buffer_size_kb")" = 1000 &&
	tracefs_state | grep -v "^instance: $I\$" >top.after &&
	test_cmp top.before top.after
'
cleanup

test_expect_success TRACEFS 'stop and restart -B act on the instance only, -a -t on all' '
	mkdir "$T/instances/$I" "$T/instances/$I-2" &&
	"$TRACE_CMD" stop -B $I && test "$(cat "$T/instances/$I/tracing_on" "$T/instances/$I-2/tracing_on" "$T/tracing_on" | tr -d "\n")" = 011 &&
	"$TRACE_CMD" restart -B $I && test "$(cat "$T/instances/$I/tracing_on")" = 1 &&
	"$TRACE_CMD" stop -a && test "$(cat "$T/instances/$I/tracing_on" "$T/instances/$I-2/tracing_on" "$T/tracing_on" | tr -d "\n")" = 001 &&
	"$TRACE_CMD" stop -a -t && test "$(cat "$T/tracing_on")" = 0 &&
	"$TRACE_CMD" restart -B $I-2 -t && test "$(cat "$T/instances/$I/tracing_on" "$T/instances/$I-2/tracing_on" "$T/tracing_on" | tr -d "\n")" = 011 &&
	"$TRACE_CMD" restart && test "$(cat "$T/tracing_on")" = 1
'
cleanup

test_expect_success TRACEFS,UPSTREAM 'extract -a -t writes the top buffer and each instance, upstream reads them' '
	"$TRACE_CMD" start -e sched_switch -B $I -e sched_wakeup &&
	echo "top string" >"$T/trace_marker" && echo "instance string" >"$T/instances/$I/trace_marker" &&
	"$TRACE_CMD" stop -a -t &&
	"$TRACE_CMD" extract -a -t -o inst.dat &&
	"$UPSTREAM" report -i inst.dat >up.txt 2>/dev/null &&
	grep "tracing_mark_write" up.txt | sed "s/^\([a-z0-9-]*:\)\{0,1\} .*tracing_mark_write: /\1/" >got &&
	printf "top string\n$I:instance string\n" >want && test_cmp want got &&
	grep "^$I: " up.txt | grep -v -e ": sched_wakeup: " -e ": print: " >other; test_cmp /dev/null other &&
	grep -v "^$I: " up.txt | grep -v -e "^cpus=" -e ": sched_switch: " -e ": print: " >other; test_cmp /dev/null other
'
cleanup

test_expect_success TRACEFS,UPSTREAM 'extract -B NAME alone writes the instance, with an empty top buffer' '
	"$TRACE_CMD" start -B $I -e sched_switch &&
	echo "only here" >"$T/instances/$I/trace_marker" &&
	"$TRACE_CMD" extract -B $I -o one.dat &&
	"$UPSTREAM" report -i one.dat 2>/dev/null | grep tracing_mark_write >got &&
	grep -q "^$I: .*tracing_mark_write: only here$" got && test $(wc -l <got) = 1
'
cleanup

# The version and (v7) compression a trace.dat names in its prefix.
prefix_of() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read(64)
v = d[10:d.index(b"\0", 10)].decode()
print(v, d[18:d.index(b"\0", 18)].decode() if v == "7" else "-")' "$1"
}

test_expect_success TRACEFS,UPSTREAM,PYTHON 'extract writes v7 zstd by default as upstream'"'"'s does; --file-version and --compression as record' '
	"$TRACE_CMD" start -e sched_switch &&
	for spec in ":7 zstd" "--file-version 6:6 -" "--compression none:7 none" \
		    "--file-version 7 --compression zlib:7 zlib"; do
		echo "marker $spec" >"$T/trace_marker" &&
		"$TRACE_CMD" extract ${spec%%:*} -o fmt.dat &&
		echo "${spec#*:}" >want && prefix_of fmt.dat >got && test_cmp want got &&
		"$TRACE_CMD" report -i fmt.dat | grep -c "tracing_mark_write: marker $spec\$" >n &&
		test "$(cat n)" = 1 || { echo "$spec"; return 1; }
		case $spec in *zlib*) continue ;; esac
		"$UPSTREAM" report -i fmt.dat 2>/dev/null | grep -c "tracing_mark_write: marker $spec\$" >n &&
		test "$(cat n)" = 1 || { echo "upstream: $spec"; return 1; }
	done
'
cleanup

# Each error: exit code, first line of stderr, and tracefs exactly as before.
check_error() {
	code=$1 msg=$2; shift 2
	test_expect_code $code "$TRACE_CMD" "$@" 2>err || return 1
	test "$(head -n 1 err)" = "$msg" || { echo "got: $(head -n 1 err)"; return 1; }
}

test_expect_success TRACEFS 'bad events, tracers, clocks, options and instances are errors that change nothing' '
	tracefs_state >before &&
	check_error 1 "trace-cmd start: no event matches '"'"'nosuch'"'"'" start -e sched -e nosuch &&
	check_error 1 "trace-cmd start: no tracer '"'"'bogus'"'"' (see trace-cmd list -t)" start -e sched -p bogus &&
	check_error 1 "trace-cmd start: no trace clock '"'"'bogus'"'"' (see trace-cmd list -C)" start -e sched -C bogus &&
	check_error 1 "trace-cmd start: no trace option '"'"'bogus'"'"' (see trace-cmd list -o)" start -e sched -O nobogus &&
	check_error 1 "trace-cmd start: invalid instance name '"'"'a/b'"'"'" start -B a/b -e sched &&
	check_error 1 "trace-cmd set: no event matches '"'"'sched:nosuch'"'"'" set -e sched:nosuch &&
	check_error 1 "trace-cmd stop: no instance '"'"'nosuch-$$'"'"'" stop -t -B nosuch-$$ &&
	check_error 1 "trace-cmd restart: no instance '"'"'nosuch-$$'"'"'" restart -B nosuch-$$ &&
	check_error 1 "trace-cmd extract: no instance '"'"'nosuch-$$'"'"'" extract -B nosuch-$$ -o x.dat &&
	check_error 1 "trace-cmd extract: cannot create '"'"'/nonexistent/x.dat'"'"': No such file or directory" extract -o /nonexistent/x.dat &&
	tracefs_state >after &&
	test_cmp before after
'

test_expect_success TRACEFS 'a filter the kernel refuses is explained, and everything is put back' '
	tracefs_state >before &&
	test_expect_code 1 "$TRACE_CMD" start -C global -O sym-addr -B $I -e sched_wakeup -e sched_switch -f "nosuchfield == 1" 2>err &&
	grep -q "^trace-cmd start: writing '"'"'nosuchfield == 1'"'"' to '"'"'instances/$I/events/sched/sched_switch/filter'"'"': Invalid argument" err &&
	tracefs_state >after &&
	test_cmp before after
'
cleanup

test_expect_success TRACEFS 'start -R adds a trigger to the -e before it; reset takes it away' '
	tracefs_state >before &&
	"$TRACE_CMD" start -e sched_switch -R stacktrace -e sched_wakeup &&
	grep -q "^stacktrace:unlimited" "$T/events/sched/sched_switch/trigger" &&
	! grep -v "^#" "$T/events/sched/sched_wakeup/trigger" | grep -q . &&
	grep -q "^1" "$T/events/sched/sched_switch/enable" &&
	"$TRACE_CMD" reset 2>/dev/null &&
	tracefs_state >after &&
	test_cmp before after
'
cleanup

test_expect_success TRACEFS 'a trigger the kernel refuses, or a later refusal: named, exit 1, the trigger gone again' '
	tracefs_state >before &&
	test_expect_code 1 "$TRACE_CMD" start -e sched_switch -R bogus_trigger 2>err &&
	grep -q "^trace-cmd start: writing '"'"'bogus_trigger'"'"' to '"'"'events/sched/sched_switch/trigger'"'"'" err &&
	tracefs_state >after && test_cmp before after &&
	test_expect_code 1 "$TRACE_CMD" set -e sched_switch -R stacktrace -e sched_wakeup -f "nosuchfield == 1" 2>err &&
	grep -q "sched_wakeup/filter" err &&
	tracefs_state >after && test_cmp before after
'
cleanup

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 "$TRACE_CMD" start -R x 2>err &&
	test "$(head -n 1 err)" = "trace-cmd start: -R must follow an -e" &&
	test_expect_code 2 "$TRACE_CMD" start 2>err &&
	test "$(head -n 1 err)" = "trace-cmd start: nothing to do: give -e, -p, -b, -C, -O or -B" &&
	test_expect_code 2 "$TRACE_CMD" start -f x 2>err &&
	test "$(head -n 1 err)" = "trace-cmd start: -f must follow an -e" &&
	test_expect_code 2 "$TRACE_CMD" set -e a -f x -f y 2>err &&
	test "$(head -n 1 err)" = "trace-cmd set: -f must follow an -e" &&
	test_expect_code 2 "$TRACE_CMD" start -b 1k 2>err &&
	test "$(head -n 1 err)" = "trace-cmd start: invalid -b value '"'"'1k'"'"': not a number" &&
	test_expect_code 2 "$TRACE_CMD" stop -z 2>err &&
	test "$(head -n 1 err)" = "trace-cmd stop: unknown option '"'"'-z'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" restart now 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restart: unexpected argument '"'"'now'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" extract -o 2>err &&
	test "$(head -n 1 err)" = "trace-cmd extract: option '"'"'-o'"'"' needs a value" &&
	test_expect_code 2 "$TRACE_CMD" extract --file-version 5 2>err &&
	test "$(head -n 1 err)" = "trace-cmd extract: file version 5 is not supported: use 6 or 7" &&
	test_expect_code 2 "$TRACE_CMD" extract --compression lz4 2>err &&
	test "$(head -n 1 err)" = "trace-cmd extract: unknown compression '"'"'lz4'"'"': use none, zlib, zstd or any" &&
	test_expect_code 2 "$TRACE_CMD" extract --file-version 6 --compression zstd 2>err &&
	test "$(head -n 1 err)" = "trace-cmd extract: --compression zstd needs --file-version 7"
'

test_done
