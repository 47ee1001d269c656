#!/bin/bash
# The command table: help, usage, version and exit statuses.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'no arguments prints usage and exits 2' '
	test_expect_code 2 "$TRACE_CMD" 2>err &&
	grep -q "^usage: trace-cmd COMMAND" err
'

test_expect_success '--version names the version' '
	"$TRACE_CMD" --version >out &&
	grep -q "^trace-cmd version [0-9]" out
'

test_expect_success 'help lists every command' '
	"$TRACE_CMD" help >out &&
	for c in $("$TRACE_CMD" --list-commands); do
		grep -q "^  $c " out || { echo "missing $c"; exit 1; }
	done
'

test_expect_success 'an unknown command is a one-line error and exit 2' '
	test_expect_code 2 "$TRACE_CMD" frobnicate 2>err &&
	test "$(head -n 1 err)" = "trace-cmd: unknown command '"'"'frobnicate'"'"'"
'

test_expect_success 'help CMD and CMD -h print the same usage to stdout' '
	for c in $("$TRACE_CMD" --list-commands); do
		"$TRACE_CMD" help $c >a && "$TRACE_CMD" $c -h >b &&
		test_cmp a b && grep -q "^usage: trace-cmd $c" a ||
		{ echo "command $c"; exit 1; }
	done
'

test_expect_success 'help of an unknown command exits 2' '
	test_expect_code 2 "$TRACE_CMD" help nosuch 2>err &&
	grep -q "unknown command .nosuch." err
'

test_expect_success 'writing to a full device fails instead of exiting 0' '
	test_expect_code 1 "$TRACE_CMD" help >/dev/full 2>err &&
	grep -q "write error on standard output" err
'

test_expect_success '--version and --list-commands take no argument' '
	for opt in --version -v version --list-commands; do
		test_expect_code 2 "$TRACE_CMD" $opt x >out 2>err &&
		test "$(cat err)" = "trace-cmd: $opt takes no argument: '"'"'x'"'"' given" &&
		test ! -s out || return 1
	done
'

test_expect_success '-h COMMAND and --help COMMAND are help COMMAND' '
	"$TRACE_CMD" help stop >expect &&
	"$TRACE_CMD" -h stop >out && test_cmp expect out &&
	"$TRACE_CMD" --help stop >out && test_cmp expect out &&
	test_expect_code 2 "$TRACE_CMD" -h nosuch 2>err &&
	test "$(head -n 1 err)" = "trace-cmd help: unknown command '"'"'nosuch'"'"'"
'

test_done
