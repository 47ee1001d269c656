#!/bin/bash
# report --events: every event format stored in the file, as upstream prints
# them for v6.  Upstream 3.1.6 prints nothing for v7 files; we print them all.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture upstream-v6-sched.dat
fixture upstream-v7-zstd-sched.dat

test_expect_success '--events of a v6 file equals upstream'"'"'s (committed)' '
	"$TRACE_CMD" report --events upstream-v6-sched.dat >out &&
	test_cmp "$FIXTURES/upstream-v6-sched.events" out
'

test_expect_success UPSTREAM '--events of a v6 file equals upstream'"'"'s (run now)' '
	"$TRACE_CMD" report --events upstream-v6-sched.dat >out &&
	"$UPSTREAM" report --events -i upstream-v6-sched.dat >expect &&
	test_cmp expect out
'

test_expect_success '--events of a v7 zstd file prints every system and format' '
	"$TRACE_CMD" report --events upstream-v7-zstd-sched.dat >out &&
	grep "^system: " out >systems &&
	printf "system: sched\nsystem: irq\n" >expect &&
	test_cmp expect systems &&
	test $(grep -c "^name: " out) = 33 &&
	grep -q "^name: sched_switch$" out &&
	grep -q "^print fmt: \"irq=%d name=%s\", REC->irq, __get_str(name)$" out
'

test_expect_success '--events prints the same formats for v6 and v7 of the same kernel' '
	"$TRACE_CMD" report --events upstream-v6-sched.dat >v6 &&
	"$TRACE_CMD" report --events upstream-v7-zstd-sched.dat >v7 &&
	test_cmp v6 v7
'

test_expect_success UPSTREAM 'upstream 3.1.6 prints nothing for --events of a v7 file (its bug)' '
	"$UPSTREAM" report --events -i upstream-v7-zstd-sched.dat >out 2>/dev/null &&
	test ! -s out
'

test_done
