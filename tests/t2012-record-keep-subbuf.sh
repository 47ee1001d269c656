#!/bin/bash
# record (and stream) -K leave the buffers uncleared, and --subbuf-size sets
# the sub-buffer size while recording and puts it back: on a fake tracing
# directory (this kernel refuses the write), then the clear refusal on the
# real tracefs with nothing changed.
. "$(dirname "$0")/test-lib.sh"

rm -rf fake-orig && cp -r "$FIXTURES/fake-tracing" fake-orig || exit 1

test_expect_success 'record clears the buffer first; -K keeps what it holds' '
	fresh_fake && echo held >fake/trace &&
	"$TRACE_CMD" record -q -K -e sched_switch -o k.dat true &&
	test "$(cat fake/trace)" = held &&
	"$TRACE_CMD" record -q -e sched_switch -o f.dat true &&
	test_must_fail test -s fake/trace
'

test_expect_success '-K: the same events recorded, the count taken from the files' '
	"$TRACE_CMD" report -i k.dat >k.report && "$TRACE_CMD" report -i f.dat >f.report &&
	test_cmp f.report k.report &&
	fresh_fake &&
	"$TRACE_CMD" record -K -e sched_switch -o k.dat true 2>k.err &&
	"$TRACE_CMD" record -e sched_switch -o f.dat true 2>f.err &&
	grep "^CPU[0-9]*: .* events recorded" f.err >f.counts &&
	grep "^CPU[0-9]*: .* events recorded" k.err >k.counts &&
	test_cmp f.counts k.counts
'

test_expect_success '--subbuf-size holds while recording, and is put back' '
	fresh_fake && echo 4 >fake/buffer_subbuf_size_kb &&
	"$TRACE_CMD" record -q --subbuf-size 16 -e sched_switch -o f.dat \
		sh -c "cat fake/buffer_subbuf_size_kb >during" &&
	test "$(cat during)" = 16 &&
	test "$(cat fake/buffer_subbuf_size_kb)" = 4
'

test_expect_success 'without buffer_subbuf_size_kb, record says so and writes nothing' '
	fresh_fake && echo 0 >fake/tracing_on &&
	check_usage 1 "trace-cmd record: --subbuf-size: this kernel cannot change the sub-buffer size (no '"'"'buffer_subbuf_size_kb'"'"' in '"'"'$PWD/fake'"'"')" \
		record --subbuf-size 8 -e sched_switch -o f2.dat true &&
	test_must_fail test -e f2.dat &&
	diff -r fake-orig fake
'

test_expect_success 'stream -K and --subbuf-size, as record' '
	fresh_fake && echo 4 >fake/buffer_subbuf_size_kb && echo held >fake/trace &&
	"$TRACE_CMD" stream -q -K --subbuf-size 16 -e sched_switch \
		sh -c "cat fake/buffer_subbuf_size_kb >during" >out &&
	test "$(cat during)" = 16 && test "$(cat fake/buffer_subbuf_size_kb)" = 4 &&
	test "$(cat fake/trace)" = held && grep -q sched_switch out
'

test_expect_success 'bad --subbuf-size values are usage errors' '
	check_usage 2 "trace-cmd record: invalid --subbuf-size value '"'"'0'"'"': out of range (1 to 1048576)" \
		record --subbuf-size 0 -e sched_switch &&
	check_usage 2 "trace-cmd record: invalid --subbuf-size value '"'"'x'"'"': not a number" \
		record --subbuf-size x -e sched_switch
'

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
fi

# This machine's kernel shows buffer_subbuf_size_kb but refuses writes to it;
# one before 6.8 has no such file; elsewhere the size is set and put back.
test_expect_success TRACEFS 'the real tracefs: --subbuf-size refused clearly, or set and put back' '
	unset TRACE_CMD_TRACING_DIR &&
	if [ ! -e "$T/buffer_subbuf_size_kb" ]; then
		record_checked -q --subbuf-size 8 -e sched_switch -o r.dat true
		test $? = 1 &&
		test "$(head -n 1 stderr)" = "trace-cmd record: --subbuf-size: this kernel cannot change the sub-buffer size (no '"'"'buffer_subbuf_size_kb'"'"' in '"'"'$T'"'"')"
	elif old=$(cat "$T/buffer_subbuf_size_kb") && ! echo "$old" 2>/dev/null >"$T/buffer_subbuf_size_kb"; then
		record_checked -q --subbuf-size 8 -e sched_switch -o r.dat true
		test $? = 1 &&
		test "$(head -n 1 stderr)" = "trace-cmd record: --subbuf-size: the kernel refuses to change the sub-buffer size (writing '"'"'$old'"'"' back to '"'"'buffer_subbuf_size_kb'"'"': Operation not permitted)"
	else
		record_checked -q --subbuf-size 8 -e sched_switch -o r.dat \
			sh -c "cat $T/buffer_subbuf_size_kb >during" &&
		test "$(cat during)" = 8 && test "$(cat "$T/buffer_subbuf_size_kb")" = "$old"
	fi
'

test_done
