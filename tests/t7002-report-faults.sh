#!/bin/bash
# report when its input misbehaves: a pipe or FIFO instead of a file, a file
# still being written, a file cut mid-page, a file cut while report reads
# it, and several readers of one file at once.  Each ends in the right
# output or one clear error, never a signal, a hang or a silent exit 0.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture synth-pages-v6.dat
fixture synth-instances-v7-zstd.dat
fixture upstream-v6-sched.dat
for f in synth-pages-v6 synth-instances-v7-zstd upstream-v6-sched; do
	"$TRACE_CMD" report -i $f.dat >$f.ref 2>/dev/null
done

# one_error FILE WHAT: exit 1 (in $code), stderr one line naming FILE and matching WHAT.
one_error() {
	[ "$code" = 1 ] || { echo "exit $code, want 1"; cat err; return 1; }
	[ $(wc -l <err) = 1 ] && grep -q "^trace-cmd report: '$1': $2" err ||
		{ echo "stderr is not one line '$1': $2"; cat err; return 1; }
}

test_expect_success 'a pipe on stdin is refused at once: one line, exit 1, nothing printed' '
	cat synth-pages-v6.dat | timeout 10 "$TRACE_CMD" report -i /dev/stdin >out 2>err
	code=${PIPESTATUS[1]}
	one_error /dev/stdin "not a regular file$" && test_must_fail test -s out
'

test_expect_success 'a FIFO is refused, with or without a writer, and the writer is not left blocked' '
	mkfifo in.fifo || exit 1
	timeout 10 "$TRACE_CMD" report -i in.fifo >out 2>err
	code=$?
	one_error in.fifo "not a regular file$" || exit 1
	timeout 10 cat synth-pages-v6.dat >in.fifo 2>/dev/null &
	writer=$!
	timeout 10 "$TRACE_CMD" report -i in.fifo >out 2>err
	code=$?
	one_error in.fifo "not a regular file$" || exit 1
	wait $writer
	[ $? != 124 ] || { echo "the writer was left blocked"; exit 1; }
'

test_expect_success 'a file cut mid-page: one truncation error before any event line' '
	size=$(stat -c %s synth-pages-v6.dat) &&
	head -c $((size - 4096 + 100)) synth-pages-v6.dat >cut.dat &&
	timeout 10 "$TRACE_CMD" report -i cut.dat >out 2>err
	code=$?
	echo "trace-cmd report: '\''cut.dat'\'': truncated at offset 24576 reading CPU 1 data (need 8192 bytes)" >want.err &&
	[ $code = 1 ] && test_cmp want.err err && test_must_fail test -s out
'

# grow SRC DST CHUNK: writes SRC into DST CHUNK bytes at a time, 10 ms apart.
grow() {
	: >"$2"
	size=$(stat -c %s "$1")
	for ((off = 0; off < size; off += $3)); do
		dd if="$1" bs=$3 skip=$((off / $3)) count=1 2>/dev/null >>"$2"
		sleep 0.01
	done
}

for f in synth-pages-v6 synth-instances-v7-zstd upstream-v6-sched; do
	test_expect_success "a file still being written ($f): each report is whole or one error" '
		chunk=$(( $(stat -c %s '$f'.dat) / 40 / 512 * 512 + 512 )) &&
		{ grow '$f'.dat growing.dat $chunk & writer=$!; } &&
		runs=0 whole=0 &&
		while kill -0 $writer 2>/dev/null || [ $runs = 0 ]; do
			runs=$((runs + 1))
			timeout 20 "$TRACE_CMD" report -i growing.dat >out 2>err
			code=$?
			if [ $code = 0 ]; then
				test_cmp '$f'.ref out || exit 1
				whole=$((whole + 1))
			else
				one_error growing.dat "" || exit 1
				# What it printed before the error is the start of the whole report.
				cmp -s out <(head -c $(stat -c %s out) '$f'.ref) ||
					{ echo "run $runs printed what the file does not hold"; exit 1; }
			fi
		done &&
		wait $writer &&
		say "$runs reports while growing, $whole of them whole" &&
		"$TRACE_CMD" report -i growing.dat >out && test_cmp '$f'.ref out
	'
done

test_expect_success CORPUS 'a file cut while report reads it: one truncation error, a true prefix printed' '
	cp "$CORPUS/arm32-v6-sched-load.dat" big.dat &&
	"$TRACE_CMD" report -i big.dat >big.ref &&
	mkfifo out.fifo &&
	{ timeout 60 "$TRACE_CMD" report -i big.dat >out.fifo 2>err & reader=$!; } &&
	exec 3<out.fifo &&
	head -c 100 <&3 >out &&
	# report now waits on the full pipe, its 1 MiB of output buffered.
	sleep 0.5 &&
	truncate -s $(( $(stat -c %s big.dat) / 2 + 100 )) big.dat &&
	cat <&3 >>out &&
	exec 3<&- &&
	wait $reader
	code=$?
	one_error big.dat "truncated at offset [0-9]* reading CPU [0-9]* data (need [0-9]* bytes)$" &&
	test $(stat -c %s out) -gt 1000000 &&
	cmp -s out <(head -c $(stat -c %s out) big.ref)
'

test_expect_success 'four readers of one file at once all print the whole report' '
	for f in synth-pages-v6 synth-instances-v7-zstd upstream-v6-sched; do
		for i in 1 2 3 4; do
			timeout 30 "$TRACE_CMD" report -i $f.dat >$f.out$i 2>$f.err$i &
		done
		wait || exit 1
		for i in 1 2 3 4; do
			test_cmp $f.ref $f.out$i && test_must_fail test -s $f.err$i || exit 1
		done
	done
'

test_done
