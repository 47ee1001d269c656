#!/bin/bash
# report --cpu, -F and -v: the same lines as upstream 3.1.6, and errors for
# filters that name an event or field the file does not have.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture upstream-v6-sched.dat
F=upstream-v6-sched.dat

test_expect_success '--cpu 1 shows only CPU 1' '
	"$TRACE_CMD" report --cpu 1 $F >out &&
	events_of out >ev && test -s ev &&
	! grep -v "^ *[^ ].*\[001\]" ev
'

test_expect_success '--cpu 0,1, --cpu 0-1 and --cpu 0 --cpu 1 show everything' '
	"$TRACE_CMD" report $F >all &&
	"$TRACE_CMD" report --cpu 0,1 $F >a && test_cmp all a &&
	"$TRACE_CMD" report --cpu 0-1 $F >b && test_cmp all b &&
	"$TRACE_CMD" report --cpu 0 --cpu 1 $F >c && test_cmp all c &&
	"$TRACE_CMD" report --cpu 0:1 $F >d && test_cmp all d
'

test_expect_success 'a bad --cpu list is a usage error naming it' '
	test_expect_code 2 "$TRACE_CMD" report --cpu 3-1 $F 2>err &&
	grep -q "^trace-cmd report: invalid --cpu value .3-1.: range must go from lower to higher" err &&
	test_expect_code 2 "$TRACE_CMD" report --cpu x $F 2>err &&
	grep -q "^trace-cmd report: invalid --cpu value .x.: not a CPU list" err
'

test_expect_success '-F sched_switch shows only sched_switch' '
	"$TRACE_CMD" report -F sched_switch $F >out &&
	events_of out >ev && test $(wc -l <ev) = 33 &&
	! grep -v " sched_switch: " ev
'

test_expect_success '-F with a condition keeps only the matching events' '
	"$TRACE_CMD" report -F "sched_switch: prev_pid == 0 || next_pid == 0" $F >out &&
	events_of out >ev && test $(wc -l <ev) = 26 &&
	! grep -v -e "swapper/[01]:0 \[120\] [A-Z+]* ==>" -e "==> swapper/[01]:0" ev
'

test_expect_success '-v hides what the -F filters after it match' '
	"$TRACE_CMD" report -v -F sched_switch $F >out &&
	events_of out >ev && test $(wc -l <ev) = 262 &&
	! grep " sched_switch: " ev
'

for args in "--cpu 1" "--cpu 0" "-F sched_switch" "-F sched_switch:prev_prio==120" \
	    "-F sched_switch,sched_wakeup" "-F sched_switch -F sched_wakeup" "-F sched" \
	    "-F sched/sched_switch" "-v -F sched_switch" "-F sched_switch -v" \
	    "-F sched -v -F sched_switch" "-F print" ; do
	test_expect_success UPSTREAM "report $args equals upstream's" '
		same_as_upstream $F '"$args"'
	'
done

test_expect_success UPSTREAM 'COMM in a filter matches the task name, as upstream' '
	same_as_upstream $F -F ".*:COMM != \"sh\""
'

test_expect_success UPSTREAM '--cpu combines with -F as upstream does' '
	same_as_upstream $F --cpu 0 -F "sched_switch: prev_prio < 121"
'

test_expect_success 'a filter on a missing event is an error naming it' '
	test_expect_code 1 "$TRACE_CMD" report -F nosuch $F >out 2>err &&
	test "$(cat err)" = "trace-cmd report: filter '"'"'nosuch'"'"': no event '"'"'nosuch'"'"' in '"'"'$F'"'"'" &&
	test ! -s out
'

test_expect_success 'a filter on a missing field is an error naming it' '
	test_expect_code 1 "$TRACE_CMD" report -F "sched_switch: bogus == 1" $F 2>err &&
	test "$(cat err)" = "trace-cmd report: filter '"'"'sched_switch: bogus == 1'"'"': no field '"'"'bogus'"'"' in sched_switch"
'

test_expect_success 'a field that none of the named events has is an error' '
	test_expect_code 1 "$TRACE_CMD" report -F "sched: prev_state == 0 || success == 1" $F 2>err &&
	grep -q "no field .success. in any of the events it names" err
'

test_expect_success 'a filter with a syntax error is an error' '
	test_expect_code 1 "$TRACE_CMD" report -F "sched_switch: prev_pid ==" $F 2>err &&
	grep -q "^trace-cmd report: filter .sched_switch: prev_pid ==.: " err
'

# libtraceevent writes a filter's error message, the condition and a caret
# line under it, into a 1 KiB buffer: conditions of 511 bytes and more can
# overflow it (heap overflow, seen with the ASan build).
repeat() { printf "%${2}s" "" | sed "s/ /$1/g"; }

test_expect_success 'a filter condition over 500 bytes is refused before libtraceevent' '
	long=" $(repeat "prev_pid == 1 || " 29)prev_pid = 1" &&
	test ${#long} -gt 500 &&
	test_expect_code 2 "$TRACE_CMD" report -F "sched_switch:$long" $F >out 2>err &&
	test "$(head -n 1 err)" = "trace-cmd report: filter '"'"'sched_switch: prev_pid == 1 || p...'"'"': condition too long: ${#long} bytes, at most 500 (more can overflow libtraceevent'"'"'s 1 KiB error buffer)" &&
	sed -n 2p err | grep -q "^usage: trace-cmd report" &&
	test ! -s out
'

test_expect_success 'the limit holds for -v -F, with --cpu and -T, and for 510 nested parentheses' '
	parens="$(repeat "(" 510)$(repeat ")" 510)" &&
	open="$(repeat "(" 511)" &&
	for args in "-F sched_switch:$parens" "-F sched_switch:$open" "-v -F sched:$open" \
		    "--cpu 0 -F sched_switch:$open" "-T -F sched_switch:$open"; do
		test_expect_code 2 "$TRACE_CMD" report $args $F >out 2>err &&
		head -n 1 err | grep -q "^trace-cmd report: filter .*: condition too long: [0-9]* bytes, at most 500 " &&
		sed -n 2p err | grep -q "^usage: trace-cmd report" || return 1
	done
'

test_expect_success 'a condition of 500 bytes still filters, and its errors are still told' '
	ok=" $(repeat "prev_pid == 99999 || " 22)prev_pid ==$(printf "%25s" "")0" &&
	test ${#ok} = 500 &&
	"$TRACE_CMD" report -F "sched_switch:$ok" $F >out &&
	"$TRACE_CMD" report -F "sched_switch: prev_pid == 0" $F >expect &&
	test_cmp expect out &&
	bad=" $(repeat "prev_pid == 99999 || " 22)prev_pid == 0$(printf "%21s" "")&&&" &&
	test ${#bad} = 500 &&
	test_expect_code 1 "$TRACE_CMD" report -F "sched_switch:$bad" $F >out 2>err &&
	test "$(cat err)" = "trace-cmd report: filter '"'"'sched_switch:$bad'"'"': syntax error (at column 500 of the condition)"
'

test_expect_success 'a parse error is one line: the reason and where' '
	test_expect_code 1 "$TRACE_CMD" report -F "sched_switch: prev_pid == 1 &&& 2" $F >out 2>err &&
	test "$(cat err)" = "trace-cmd report: filter '"'"'sched_switch: prev_pid == 1 &&& 2'"'"': syntax error (at column 18 of the condition)"
'

test_done
