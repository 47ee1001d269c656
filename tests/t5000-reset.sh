#!/bin/bash
# reset: every item of trace-cmd-reset(1) reaches its value, on the top buffer and on
# instances; a refused function filter is named but not a failure; bad input changes nothing.
. "$(dirname "$0")/test-lib.sh"

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
	I=t5000-reset-$$
	SIZE=$(cat "$T/buffer_size_kb")
	tracefs_state >orig.state
	# Whatever happens, no test instance is left behind and the top buffer is reset.
	trap 'cleanup; cd /; rm -rf "$TRASH"' EXIT
fi

# Run after each test that changes tracefs (test_when_finished runs in the test's
# subshell, too late to see what it registered): the top buffer reset and sized as
# found, test instances removed.
cleanup() {
	[ -n "$T" ] || return 0
	rm_instance $I; rm_instance $I-2
	"$TRACE_CMD" reset -b "$SIZE" >/dev/null 2>&1
}

# Puts one buffer ($1: its directory) in a state where every reset item is off its value.
dirty() {
	d=$1
	echo hello >"$d/trace_marker" &&
	echo 1 >"$d/events/sched/sched_switch/enable" &&
	echo 'prev_pid == 1' >"$d/events/sched/sched_switch/filter" &&
	echo traceoff >"$d/events/sched/sched_wakeup/trigger" &&
	echo 'enable_event:sched:sched_switch:3' >"$d/events/irq/irq_handler_entry/trigger" &&
	echo 'stacktrace if irq == 3' >"$d/events/irq/irq_handler_exit/trigger" &&
	echo $$ >"$d/set_event_pid" &&
	echo $$ >"$d/set_event_notrace_pid" &&
	echo global >"$d/trace_clock" &&
	echo 1 >"$d/options/sym-addr" &&
	echo 0 >"$d/options/markers" &&
	echo 1 >"$d/options/raw" &&
	# A tracer other than nop, where the kernel has one that needs no function tracer.
	if [ "$d" = "$T" ] && grep -qw blk "$T/available_tracers"; then echo blk >"$d/current_tracer"; fi &&
	echo 0 >"$d/tracing_on"
}

# Removes a test instance even when triggers keep it busy.
rm_instance() {
	d=$T/instances/$1
	[ -d "$d" ] || return 0
	for f in $(grep -lv "^#" "$d"/events/*/*/trigger); do
		grep -v "^#" "$f" | sed "s/ .*//; s/:unlimited\$//; s/:count=[0-9]*\$//; s/^/!/" | while read -r t; do echo "$t" >"$f"; done
	done 2>/dev/null
	rmdir "$d"
}

# Prints each reset item of buffer $1 as "item: value", one a line.
items() {
	d=$1
	echo "tracing_on: $(cat "$d/tracing_on")"
	echo "current_tracer: $(cat "$d/current_tracer")"
	echo "set_event: $(cat "$d/set_event")"
	echo "filters not none: $(grep -L '^none$' "$d"/events/*/*/filter | wc -l)"
	echo "triggers set: $(cat "$d"/events/*/*/trigger | grep -vc '^#')"
	echo "set_event_pid: $(cat "$d/set_event_pid")"
	echo "set_event_notrace_pid: $(cat "$d/set_event_notrace_pid")"
	echo "trace_clock: $(grep -o '\[[a-z0-9-]*\]' "$d/trace_clock")"
	echo "sym-addr markers raw: $(cat "$d/options/sym-addr" "$d/options/markers" "$d/options/raw" | tr '\n' ' ')"
	echo "entries: $(grep -c hello "$d/trace")"
}

cat >want.items <<'EOF_'
tracing_on: 1
current_tracer: nop
set_event: 
filters not none: 0
triggers set: 0
set_event_pid: 
set_event_notrace_pid: 
trace_clock: [local]
sym-addr markers raw: 0 1 0 
entries: 0
EOF_

# Where the kernel refuses the function filters to everyone, reset names them and goes on.
: >want.warnings
if [ -n "$T" ] && ! cat "$T/set_ftrace_filter" >/dev/null 2>&1; then
	cat >want.warnings <<'EOF_'
trace-cmd reset: warning: cannot reset 'set_ftrace_filter': Operation not permitted
trace-cmd reset: warning: cannot reset 'set_ftrace_notrace': Operation not permitted
EOF_
fi

test_expect_success TRACEFS 'reset brings every item of the top buffer back, each checked' '
	size=$(cat "$T/buffer_size_kb") &&
	dirty "$T" &&
	items "$T" >dirty.items &&
	# Every item is off its value before, so each check below can fail.
	diff want.items dirty.items | grep -c "^>" >nr.off && test "$(cat nr.off)" -ge 8 &&
	"$TRACE_CMD" reset 2>err &&
	items "$T" >got.items &&
	test_cmp want.items got.items &&
	test "$(cat "$T/buffer_size_kb")" = "$size" &&
	test_cmp want.warnings err
'
cleanup

test_expect_success TRACEFS 'after reset, tracefs is as it was found' '
	tracefs_state >now.state &&
	test_cmp orig.state now.state
'
cleanup

# What record -k and start leave behind, reset takes back: tracing_on, the
# pid lists (upstream 3.1.6's reset leaves set_event_notrace_pid as it is).
test_expect_success TRACEFS 'reset after record -k: tracing_on 1, set_event_pid and the events cleared' '
	"$TRACE_CMD" record -q -k -o k.dat -e sched_switch -P $$ true >/dev/null 2>&1 &&
	items "$T" >kept.items &&
	grep -qx "tracing_on: 0" kept.items && grep -qx "set_event_pid: $$" kept.items &&
	grep -qx "set_event: sched:sched_switch" kept.items &&
	echo $$ >"$T/set_event_notrace_pid" &&
	"$TRACE_CMD" reset 2>err &&
	tracefs_state >now.state && test_cmp orig.state now.state
'
cleanup

test_expect_success TRACEFS 'reset after start and stop: the same' '
	"$TRACE_CMD" start -e sched_switch -C global >/dev/null 2>&1 &&
	"$TRACE_CMD" stop &&
	grep -qx "sched:sched_switch" "$T/set_event" && test "$(cat "$T/tracing_on")" = 0 &&
	"$TRACE_CMD" reset 2>err &&
	tracefs_state >now.state && test_cmp orig.state now.state
'
cleanup

test_expect_success TRACEFS 'reset -b sets the top buffer size' '
	size=$(cat "$T/buffer_size_kb") &&
	"$TRACE_CMD" reset -b 1000 2>/dev/null &&
	test "$(cat "$T/buffer_size_kb")" = 1000 &&
	test "$(cat "$T/per_cpu/cpu0/buffer_size_kb")" = 1000
'
cleanup

test_expect_success TRACEFS 'reset -B resets the instance only, -b after it sizes the instance' '
	mkdir "$T/instances/$I" &&
	dirty "$T/instances/$I" &&
	tracefs_state >top.before &&
	size=$(cat "$T/buffer_size_kb") &&
	"$TRACE_CMD" reset -B $I -b 1000 2>err &&
	items "$T/instances/$I" >got.items &&
	test_cmp want.items got.items &&
	test "$(cat "$T/instances/$I/buffer_size_kb")" = 1000 &&
	test "$(cat "$T/buffer_size_kb")" = "$size" &&
	tracefs_state >top.after &&
	test_cmp top.before top.after &&
	sed "s/'"'"'\(set_ftrace_[a-z]*\)'"'"'/'"'"'\1'"'"' of instance '"'"'$I'"'"'/" want.warnings >want.iwarn &&
	test_cmp want.iwarn err
'
cleanup

test_expect_success TRACEFS 'an instance gets the defaults of a new instance, not the top buffer'"'"'s' '
	mkdir "$T/instances/$I" &&
	cat "$T/instances/$I/trace_options" >fresh.options &&
	echo 1 >"$T/instances/$I/options/trace_printk_dest" &&
	echo 1 >"$T/instances/$I/options/copy_trace_marker" &&
	echo 0 >"$T/instances/$I/options/overwrite" &&
	"$TRACE_CMD" reset -B $I 2>/dev/null &&
	cat "$T/instances/$I/trace_options" >reset.options &&
	test_cmp fresh.options reset.options
'
cleanup

test_expect_success TRACEFS 'reset -t -B resets both; -B NAME -d deletes the instance' '
	mkdir "$T/instances/$I" "$T/instances/$I-2" &&
	dirty "$T" && dirty "$T/instances/$I" &&
	"$TRACE_CMD" reset -t -B $I -B $I-2 -d 2>/dev/null &&
	items "$T" >top.items && test_cmp want.items top.items &&
	items "$T/instances/$I" >inst.items && test_cmp want.items inst.items &&
	test -d "$T/instances/$I" && ! test -d "$T/instances/$I-2"
'
cleanup

test_expect_success TRACEFS 'reset -a -d deletes every instance and leaves the top buffer' '
	test -z "$(ls "$T/instances")" || { echo "instances of someone else exist"; exit 1; }
	mkdir "$T/instances/$I" "$T/instances/$I-2" &&
	echo 0 >"$T/tracing_on" &&
	"$TRACE_CMD" reset -a -d &&
	test -z "$(ls "$T/instances")" &&
	test "$(cat "$T/tracing_on")" = 0
'
cleanup

test_expect_success TRACEFS 'a missing instance is an error and changes nothing' '
	mkdir "$T/instances/$I" &&
	dirty "$T" &&
	tracefs_state >before &&
	test_expect_code 1 "$TRACE_CMD" reset -t -B $I -d -B nosuch-$$ 2>err &&
	echo "trace-cmd reset: no instance '"'"'nosuch-$$'"'"'" >want &&
	test_cmp want err &&
	tracefs_state >after &&
	test_cmp before after
'
cleanup

reset_usage() {
	msg=$1; shift
	check_usage 2 "$msg" reset "$@"
}

test_expect_success 'usage errors exit 2 with one line and the usage, changing nothing' '
	# Stopped first, so that a reset done by mistake would show in the comparison.
	{ [ -z "$T" ] || { echo 0 >"$T/tracing_on" && tracefs_state >before; }; } &&
	reset_usage "trace-cmd reset: -d must follow -B or -a: the top buffer cannot be deleted" -d &&
	reset_usage "trace-cmd reset: -d must follow -B or -a: the top buffer cannot be deleted" -a -t -d &&
	reset_usage "trace-cmd reset: invalid -b value '"'"'abc'"'"': not a number" -b abc &&
	reset_usage "trace-cmd reset: invalid -b value '"'"'0'"'"': out of range (1 to 1073741824)" -b 0 &&
	reset_usage "trace-cmd reset: unknown option '"'"'-x'"'"'" -x &&
	reset_usage "trace-cmd reset: option '"'"'-B'"'"' needs a value" -B &&
	reset_usage "trace-cmd reset: unexpected argument '"'"'foo'"'"'" foo &&
	reset_usage "trace-cmd reset: invalid -k type '"'"'kprobes'"'"': use kprobe, kretprobe, uprobe, uretprobe, eprobe, synth or all" -k kprobe -k kprobes &&
	reset_usage "trace-cmd reset: option '"'"'-k'"'"' needs a value" -k &&
	{ [ -z "$T" ] || { tracefs_state >after && test_cmp before after; }; }
'
cleanup

# A fake tracing directory: an item that cannot be written makes reset exit 1.
fake_dir() {
	mkdir -p fake/events/sched/sched_switch fake/options fake/instances &&
	for f in tracing_on current_tracer set_event set_event_pid trace; do : >fake/$f; done &&
	echo none >fake/events/sched/sched_switch/filter &&
	echo "# Available triggers:" >fake/events/sched/sched_switch/trigger &&
	echo 0 >fake/events/sched/sched_switch/enable &&
	echo 1 >fake/options/raw
}

test_expect_success 'an item that does not reach its value is named and exits 1' '
	fake_dir && mkdir fake/trace_clock &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" reset 2>err &&
	echo "trace-cmd reset: cannot reset '"'"'trace_clock'"'"': Is a directory" >want &&
	test_cmp want err &&
	test "$(cat fake/tracing_on)" = 1 && test "$(cat fake/current_tracer)" = nop &&
	test "$(cat fake/options/raw)" = 0
'

test_expect_success 'a function filter that is still set after reset is a failure' '
	rm -rf fake && fake_dir && echo "[local]" >fake/trace_clock && mkdir fake/set_ftrace_filter &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" reset 2>err &&
	echo "trace-cmd reset: cannot reset '"'"'set_ftrace_filter'"'"': Is a directory" >want &&
	test_cmp want err
'

# dynamic_events as the kernel lists them; uprobe_events tells uprobes from kprobes.
fake_dynevents() {
	rm -rf fake && fake_dir && echo "[local]" >fake/trace_clock &&
	printf "%s\n" "p:kprobes/kp vfs_read" "r10:kprobes/krp vfs_read" \
		"p:uprobes/up /bin/sh:0x0000000000000100" "r:uprobes/urp /bin/sh:0x0000000000000100" \
		"e:eprobes/ep sched.sched_switch" "s:synthetic/lat	u64 lat" >fake/dynamic_events &&
	grep uprobes fake/dynamic_events >fake/uprobe_events && cp fake/dynamic_events dynevents.orig
}

# What reset appended to dynamic_events: the kernel reads each line as a removal.
removals() { tail -n +7 fake/dynamic_events; }

test_expect_success 'reset removes each dynamic event by name, event probes first, never truncating' '
	fake_dynevents &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" reset &&
	head -n 6 fake/dynamic_events >kept && test_cmp dynevents.orig kept &&
	printf "%s\n" -:eprobes/ep -:kprobes/kp -:kprobes/krp -:uprobes/up -:uprobes/urp -:synthetic/lat >want &&
	removals >got && test_cmp want got
'

test_expect_success 'reset -k keeps the dynamic events of each type given, -k all keeps them all' '
	fake_dynevents &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" reset -k kprobe -k uretprobe -k synth &&
	printf "%s\n" -:eprobes/ep -:kprobes/krp -:uprobes/up >want && removals >got && test_cmp want got &&
	fake_dynevents &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" reset -k kretprobe -k uprobe -k eprobe &&
	printf "%s\n" -:kprobes/kp -:uprobes/urp -:synthetic/lat >want && removals >got && test_cmp want got &&
	fake_dynevents &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" reset -k all &&
	test_cmp dynevents.orig fake/dynamic_events
'

test_expect_success 'a dynamic_events that cannot be read is named and exits 1' '
	fake_dynevents && rm fake/dynamic_events && mkdir fake/dynamic_events &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" reset 2>err &&
	echo "trace-cmd reset: cannot read '"'"'dynamic_events'"'"': Is a directory" >want &&
	test_cmp want err
'

test_done
