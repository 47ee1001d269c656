#!/bin/bash
# check-events: every format of the tracing directory parses (silent, 0, as
# upstream on this system); a format that does not parse is named, exit 1.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

test_expect_success TRACEFS 'the real tracefs: nothing printed, exit 0, with and without plugins' '
	"$TRACE_CMD" check-events >out 2>err && test ! -s out && test ! -s err &&
	"$TRACE_CMD" check-events -N >out 2>err && test ! -s out && test ! -s err
'

test_expect_success TRACEFS,UPSTREAM 'upstream agrees on this system' '
	"$UPSTREAM" check-events >up 2>&1 && test ! -s up
'

cp -r "$FIXTURES/fake-tracing" fake
test_expect_success 'a fake tracing directory whose formats are good: exit 0' '
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" check-events >out 2>err &&
	test ! -s out && test ! -s err
'

test_expect_success 'a format that does not parse is named, the others still checked: exit 1' '
	mkdir fake/events/sched/broken fake/events/irq/garbled &&
	echo "this is not a format" >fake/events/sched/broken/format &&
	printf "name: garbled\n" >fake/events/irq/garbled/format &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" check-events 2>err &&
	grep "^trace-cmd check-events:" err >ours &&
	printf "%s\n" "trace-cmd check-events: cannot parse the format of '"'"'irq:garbled'"'"'" \
		"trace-cmd check-events: cannot parse the format of '"'"'sched:broken'"'"'" >expect &&
	test_cmp expect ours
'

test_expect_success 'no tracing directory: exit 1 saying why' '
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/nowhere "$TRACE_CMD" check-events 2>err &&
	grep -q "^trace-cmd check-events: .*nowhere" err
'

test_expect_success 'usage: -h to stdout; unknown option or argument exit 2' '
	"$TRACE_CMD" check-events -h >out && head -1 out | grep -qx "usage: trace-cmd check-events \[-N\] \[--verbose\[=LEVEL\]\]" &&
	test_expect_code 2 "$TRACE_CMD" check-events -x 2>err &&
	test "$(head -1 err)" = "trace-cmd check-events: unknown option '"'"'-x'"'"'" &&
	grep -q "^usage: trace-cmd check-events" err &&
	test_expect_code 2 "$TRACE_CMD" check-events extra 2>err &&
	test "$(head -1 err)" = "trace-cmd check-events: unexpected argument '"'"'extra'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" check-events --verbose=loud 2>err &&
	test "$(head -1 err)" = "trace-cmd check-events: invalid --verbose value '"'"'loud'"'"': use none, crit, err, warn, info, debug, all or 0 to 6"
'

test_done
