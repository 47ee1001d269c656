#!/bin/bash
# stack without a stack tracer: usage errors, and a kernel that lacks it says so
# (t8001 drives the real stack tracer in a guest, beside 3.4).
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'stack usage errors exit 2 with one line and the usage' '
	check_usage 2 "trace-cmd stack: --start and --stop exclude each other" stack --start --stop &&
	check_usage 2 "trace-cmd stack: invalid --verbose value '"'"'loud'"'"': use none, crit, err, warn, info, debug, all or 0 to 6" stack --verbose=loud &&
	check_usage 2 "trace-cmd stack: unexpected argument '"'"'now'"'"'" stack now &&
	check_usage 2 "trace-cmd stack: unknown option '"'"'--begin'"'"'" stack --begin
'

[ -e /proc/sys/kernel/stack_tracer_enabled ] || test_set_prereq NOSTACKTRACER
test_expect_success NOSTACKTRACER 'a kernel without the stack tracer: every use says so and exits 1' '
	for args in "" --start --stop --reset "--verbose=debug"; do
		test_expect_code 1 "$TRACE_CMD" stack $args >out 2>err &&
		echo "trace-cmd stack: this kernel has no stack tracer ('"'"'/proc/sys/kernel/stack_tracer_enabled'"'"' does not exist)" >want &&
		test_cmp want err && test ! -s out || exit 1
	done
'

test_done
