#!/bin/bash
# record -O with a tracer (set after it, since a tracer's own options appear
# with it), -a (every event format), and --proc-map (the PROCMAPS option).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

command -v strace >/dev/null && test_set_prereq STRACE

rm -rf fake-orig && cp -r "$FIXTURES/fake-tracing" fake-orig &&
echo "function nop" >fake-orig/available_tracers &&
mkdir -p fake-orig/options && echo 0 >fake-orig/options/sym-addr && : >fake-orig/set_event || exit 1

test_expect_success STRACE '-O with -p is written after the tracer, and put back' '
	fresh_fake && echo 0 >fake/options/func_stack_trace && cp -r fake fake-before &&
	test_strace -f -qq -e trace=openat -o st.log "$TRACE_CMD" record -o o.dat -p function \
		-O func_stack_trace -e sched_switch sh -c "awk 1 fake/options/func_stack_trace" \
		>during 2>err &&
	echo 1 >expect && test_cmp expect during &&
	grep "O_WRONLY" st.log | grep -o "current_tracer\|options/func_stack_trace" >order &&
	printf "%s\n" current_tracer options/func_stack_trace options/func_stack_trace \
		current_tracer >expect && test_cmp expect order &&
	diff -r fake-before fake
'

test_expect_success '-O an option the tracer does not bring either: error naming both, all put back' '
	fresh_fake && rm -f o.dat &&
	test_expect_code 1 "$TRACE_CMD" record -o o.dat -p function -O func_stack_trace \
		-e sched_switch true 2>err &&
	echo "trace-cmd record: no trace option '"'"'func_stack_trace'"'"' with tracer '"'"'function'"'"' (see the options directory)" >expect &&
	test_cmp expect err && diff -r fake-orig fake && test ! -e o.dat
'

test_expect_success '-O without -p: a missing option is an error before anything is written' '
	fresh_fake &&
	test_expect_code 1 "$TRACE_CMD" record -o o.dat -O func_stack_trace -e sched_switch true 2>err &&
	echo "trace-cmd record: no trace option '"'"'func_stack_trace'"'"' (see the options directory)" >expect &&
	test_cmp expect err && diff -r fake-orig fake
'

test_expect_success STRACE 'start -p -O: the option after the tracer too' '
	fresh_fake && echo 0 >fake/options/func_stack_trace &&
	test_strace -f -qq -e trace=openat -o st.log "$TRACE_CMD" start -p function -O func_stack_trace &&
	grep "O_WRONLY" st.log | grep -o "current_tracer\|options/func_stack_trace" | head -n 2 >order &&
	printf "%s\n" current_tracer options/func_stack_trace >expect && test_cmp expect order &&
	test "$(cat fake/options/func_stack_trace)" = 1 &&
	fresh_fake &&
	test_expect_code 1 "$TRACE_CMD" start -p function -O func_stack_trace 2>err &&
	grep -q "no trace option '"'"'func_stack_trace'"'"' with tracer '"'"'function'"'"'" err &&
	test "$(cat fake/current_tracer)" = nop
'

test_expect_success '-a saves every event format, not only the recorded ones' '
	fresh_fake &&
	"$TRACE_CMD" record -o one.dat -e sched_switch true 2>/dev/null &&
	"$TRACE_CMD" record -o all.dat -a -e sched_switch true 2>/dev/null &&
	"$TRACE_CMD" report -i one.dat --events | grep "^name:" >one &&
	"$TRACE_CMD" report -i all.dat --events | grep "^name:" >all &&
	grep -qx "name: sched_switch" one && ! grep -q "name: irq_handler_entry" one &&
	grep -q "name: irq_handler_entry" all && grep -q "name: sched_waking" all
'

test_expect_success '--proc-map needs something to map' '
	test_expect_code 2 "$TRACE_CMD" record --proc-map -e sched 2>err &&
	test "$(head -n 1 err)" = "trace-cmd record: --proc-map needs a COMMAND or -P PID"
'

# The PROCMAPS text of a file, as upstream's dump prints it.
procmaps_of() {
	"$UPSTREAM" dump --options -i "$1" 2>/dev/null |
		sed -n "/Option PROCMAPS/,/Option /p" | sed "1d;\$d"
}

# Block N (1, 2, ...) of a PROCMAPS text: "PID COUNT EXE", then COUNT lines.
block() {
	awk -v want="$1" '
		left == 0 && NF >= 3 { nr++; left = ("0x" $2) + 0; hex = $2; cmd = "printf %d 0x" hex
			cmd | getline left; close(cmd); if (nr == want) print; next }
		left > 0 { left--; if (nr == want) print }' "$2"
}

# A block holds PID (hex, "" for any), EXE, COUNT map lines of hex START END
# and a path, among them EXE itself and the stack.
check_block() {
	set -- "$1" "$2" "$(head -n 1 "$3")" "$3"
	header=$3
	[ -z "$1" ] || [ "${header%% *}" = "$(printf %x "$1")" ] || { echo "pid: $header"; return 1; }
	[ "${header#* * }" = "$2" ] || { echo "exe: $header"; return 1; }
	count=$(echo "$header" | cut -d" " -f2)
	[ "$(($(sed 1d "$4" | wc -l)))" = "$((0x$count))" ] || { echo "count: $header"; return 1; }
	! sed 1d "$4" | grep -vqE "^[0-9a-f]+ [0-9a-f]+ [^ ]" || { echo "bad line"; return 1; }
	sed 1d "$4" | grep -q " $2\$" && sed 1d "$4" | grep -q " \[stack\]\$"
}

test_expect_success PYTHON '--proc-map on a fake directory: the command maps at its exit, libraries included' '
	fresh_fake &&
	"$TRACE_CMD" record -o pm.dat --proc-map -e sched_switch /bin/sh -c "exit 3" 2>err
	test $? = 3 &&
	python3 - pm.dat >pm.text <<-\EOF &&
	import re, sys
	d = open(sys.argv[1], "rb").read()
	m = re.search(rb"([0-9a-f]+ [0-9a-f]+ /[^\n]*\n(?:[0-9a-f]+ [0-9a-f]+ [^\n]*\n)+)\0", d)
	sys.stdout.write(m.group(1).decode() if m else "")
	EOF
	block 1 pm.text >first && check_block "" "$(readlink -f /bin/sh)" first &&
	grep -q "libc\.so" first
'

test_lock_tracefs

test_expect_success TRACEFS,UPSTREAM '--proc-map: upstream dump shows the command and each -P process' '
	sleep 30 9>&- &
	sleeper=$! &&
	test_when_finished "kill $sleeper" &&
	record_checked -o pm.dat --proc-map -P $sleeper -e sched_switch /bin/sh -c "exit 0" &&
	procmaps_of pm.dat >all.text &&
	block 1 all.text >first && check_block "" "$(readlink -f /bin/sh)" first &&
	block 2 all.text >second &&
	check_block $sleeper "$(readlink -f "$(command -v sleep)")" second
'

test_done
