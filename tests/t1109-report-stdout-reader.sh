#!/bin/bash
# run_for_stdout(): work that output waits for (kallsyms before a line that
# names a function) ends with the reader of stdout, as the next write would,
# so "report | head -1" is done when head is; in every other case the work
# runs to its end.  And report | head of a file that needs symbols early.
. "$(dirname "$0")/test-lib.sh"

W=$HELPERS/stdout-wait

test_expect_success 'the reader of a pipe gone: SIGPIPE ends work that would never end' '
	timeout 20 "$W" block | true
	test "${PIPESTATUS[0]}" = 141
'

test_expect_success 'a reader that stays: the work runs to its end, then the output' '
	"$W" sleep 2>err | cat >out &&
	echo "work done" >expect && test_cmp expect err &&
	echo after >expect && test_cmp expect out
'

test_expect_success 'SIGPIPE ignored: the work is not cut short, the write fails instead' '
	(trap "" PIPE; "$W" sleep 2>err | true) &&
	echo "work done" >expect && test_cmp expect err
'

test_expect_success 'stdout a file: the work runs where it is called' '
	"$W" sleep >out 2>err &&
	echo "work done" >expect && test_cmp expect err &&
	echo after >expect && test_cmp expect out
'

# x86_64-v7-zstd-stacktrace.dat: stack traces name functions from the start.
test_expect_success CORPUS 'report | head of a v7 file that needs kallsyms: the lines of a full report' '
	f=$CORPUS/x86_64-v7-zstd-stacktrace.dat &&
	"$TRACE_CMD" report "$f" >full &&
	for n in 1 3 10 40; do
		"$TRACE_CMD" report "$f" | head -n $n >part &&
		head -n $n full >expect && test_cmp expect part || return 1
	done
'

test_done
