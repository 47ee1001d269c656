#!/bin/bash
# Nothing destroyed, nothing hung: every command that writes a file refuses
# to write over one of its inputs (by any name), leaves a device node, FIFO
# or older file as it was when the write fails, says at once that a FIFO has
# no reader, and every reader refuses a FIFO instead of hanging on it.
# Record and extract run against a copy of the fake tracing directory.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture synth-sched-v6.dat
fixture upstream-v6-sched.dat
cp synth-sched-v6.dat in.dat &&
cp -r "$FIXTURES/fake-tracing" fake &&
TRACE_CMD_TRACING_DIR=$PWD/fake && export TRACE_CMD_TRACING_DIR &&
cp fake/per_cpu/cpu0/trace_pipe_raw cpu0 &&
cp fake/per_cpu/cpu1/trace_pipe_raw cpu1 || exit 1

# fails_with MESSAGE CMD...: exit 1 within 10 s and one line of stderr, MESSAGE.
fails_with() {
	want=$1; shift
	timeout 10 "$@" >out 2>err
	code=$?
	[ $code = 1 ] || { echo "exit $code, want 1: $*"; cat err; return 1; }
	[ "$(cat err)" = "$want" ] || { echo "stderr:"; cat err; echo "want: $want"; return 1; }
}

# same_input: in.dat is still the fixture, byte for byte.
same_input() {
	cmp in.dat synth-sched-v6.dat || { echo "the input was changed"; return 1; }
}

mkdir dir && ln -s in.dat link.dat && ln in.dat hard.dat || exit 1

for out in in.dat link.dat hard.dat dir/../in.dat; do
	if [ $out = in.dat ]; then
		msg="'in.dat' is the input file: write to another file"
	else
		msg="'$out' is the same file as the input 'in.dat': write to another file"
	fi
	test_expect_success "convert --to chrome-json -o $out (the input) is refused, the input kept" '
		fails_with "trace-cmd convert: '"$msg"'" \
			"$TRACE_CMD" convert --to chrome-json -i in.dat -o '$out' && same_input
	'
	test_expect_success "convert -o $out (the input) is refused, the input kept" '
		fails_with "trace-cmd convert: '"$msg"'" \
			"$TRACE_CMD" convert -i in.dat -o '$out' && same_input
	'
done

test_expect_success 'split refuses a piece that is its input (OUT a link to it)' '
	ln in.dat piece &&
	fails_with "trace-cmd split: '"'piece' is the same file as the input 'in.dat'"': write to another file" \
		"$TRACE_CMD" split -i in.dat -o piece &&
	same_input
'

test_expect_success 'restore refuses to write over a CPU file, its -i or its -k file' '
	cp cpu0 keep0 &&
	fails_with "trace-cmd restore: '"'cpu0' is the input file: write to another file"'" \
		"$TRACE_CMD" restore -t fake -o cpu0 cpu0 cpu1 &&
	cmp cpu0 keep0 &&
	"$TRACE_CMD" restore -c -t fake -o partial.dat 2>/dev/null &&
	cp partial.dat keep.dat &&
	ln -s partial.dat p.link &&
	fails_with "trace-cmd restore: '"'p.link' is the same file as the input 'partial.dat'"': write to another file" \
		"$TRACE_CMD" restore -i partial.dat -o p.link cpu0 cpu1 &&
	cmp partial.dat keep.dat &&
	echo "ffffffff81000000 T _stext" >ksyms && cp ksyms keep.ksyms &&
	fails_with "trace-cmd restore: '"'ksyms' is the input file: write to another file"'" \
		"$TRACE_CMD" restore -t fake -k ksyms -o ksyms cpu0 &&
	cmp ksyms keep.ksyms
'

# A device node of our own (the null device's numbers would do as well;
# /dev/full's make every write fail with ENOSPC), never a real /dev entry.
test_expect_success ROOT 'make a full device in the scratch directory' '
	mknod full c 1 7 && test -c full
'

# still_full: the node is there and still a character device.
still_full() {
	test -c full || { echo "the device node is gone or replaced"; ls -l full; return 1; }
}

enospc="cannot write 'full': No space left on device"
test_expect_success ROOT 'convert to a full device fails and leaves the node (v7, v6, chrome-json)' '
	fails_with "trace-cmd convert: $enospc" "$TRACE_CMD" convert -i in.dat -o full &&
	still_full &&
	fails_with "trace-cmd convert: $enospc" "$TRACE_CMD" convert --file-version 6 -i in.dat -o full &&
	still_full &&
	fails_with "trace-cmd convert: $enospc" "$TRACE_CMD" convert --to chrome-json -i in.dat -o full &&
	still_full
'

test_expect_success ROOT 'split, restore, extract and record to a full device leave the node' '
	ln -s full piece.0001 &&
	fails_with "trace-cmd split: cannot write '"'piece.0001'"': No space left on device" \
		"$TRACE_CMD" split -i in.dat -o piece -r -e 100000 &&
	still_full &&
	fails_with "trace-cmd restore: $enospc" "$TRACE_CMD" restore -t fake -o full cpu0 cpu1 &&
	still_full &&
	fails_with "trace-cmd extract: $enospc" "$TRACE_CMD" extract -o full &&
	still_full &&
	fails_with "trace-cmd record: $enospc" "$TRACE_CMD" record -q -e sched -o full true &&
	still_full
'

test_expect_success 'a FIFO with no reader is an error at once, and the FIFO stays' '
	mkfifo fifo &&
	for cmd in "convert --to chrome-json -i in.dat -o fifo" "convert -i in.dat -o fifo" \
		   "convert --file-version 6 -i in.dat -o fifo" "restore -t fake -o fifo cpu0" \
		   "extract -o fifo" "record -q -e sched -o fifo true"; do
		fails_with "trace-cmd ${cmd%% *}: cannot write '"'fifo'"': a FIFO with no reader" \
			"$TRACE_CMD" $cmd && test -p fifo || { echo "$cmd"; return 1; }
	done
'

test_expect_success 'version 7 to a FIFO with a reader is refused, and the FIFO stays' '
	{ timeout 10 cat fifo >read.out & } &&
	sleep 0.2 &&
	fails_with "trace-cmd convert: cannot write '"'fifo'"': version 7 is written to a regular file, not a pipe" \
		"$TRACE_CMD" convert -i in.dat -o fifo &&
	wait && test -p fifo
'

test_expect_success 'readers refuse a FIFO at once: dump, report, split, convert, restore' '
	for cmd in "dump -i fifo" "report -i fifo" "split -i fifo -o p" "convert -i fifo -o c.dat" \
		   "convert --to chrome-json -i fifo -o c.json" "restore -t fake -o r.dat fifo" \
		   "restore -i fifo -o r.dat cpu0"; do
		fails_with "trace-cmd ${cmd%% *}: '"'fifo'"': not a regular file" "$TRACE_CMD" $cmd ||
			{ echo "$cmd"; return 1; }
	done &&
	test ! -e c.dat && test ! -e c.json && test ! -e r.dat && test ! -e p.1
'

# A file bigger than the limit cannot be written (EFBIG, the signal ignored):
# a write that fails half way, without filling a disk.
small_files() { (trap "" XFSZ; ulimit -f 16; "$@"); }

test_expect_success 'a write that fails half way keeps the file that was there' '
	for cmd in "convert -i upstream-v6-sched.dat -o old" \
		   "convert --file-version 6 -i upstream-v6-sched.dat -o old" \
		   "convert --to chrome-json -i upstream-v6-sched.dat -o old" \
		   "restore --file-version 6 -t fake -o old cpu0 cpu1" "extract --file-version 6 -o old" \
		   "record -q -e sched -o old true"; do
		echo "what was there" >old &&
		small_files fails_with "trace-cmd ${cmd%% *}: cannot write '"'old'"': File too large" \
			"$TRACE_CMD" $cmd &&
		echo "what was there" >want && test_cmp want old &&
		test "$(ls | grep -c "^old")" = 1 || { echo "$cmd"; ls; return 1; }
	done
'

test_expect_success 'a split piece that fails half way keeps the file that was there' '
	echo "what was there" >piece &&
	small_files fails_with "trace-cmd split: cannot write '"'piece'"': File too large" \
		"$TRACE_CMD" split -i upstream-v6-sched.dat -o piece &&
	echo "what was there" >want && test_cmp want piece
'

test_done
