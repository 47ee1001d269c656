#!/bin/bash
# hist: the call-chain trees of a trace.dat's events, functions and kernel
# stacks, byte for byte as upstream 3.4's hist prints them, per task and
# with -P; on every fixture and corpus file, and on a file made to walk
# every path (tests/helper/hist-spec.py: stacks, function and
# function_graph records, lost events, two instances).  Bad input fails
# with one line.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture upstream-v6-sched.dat
fixture upstream-v7-none-sched.dat

# same34 FILE: where 3.4's hist prints chains, ours prints the same, with and
# without -P; where it fails, ours fails too (exit 1, one line, no chains).
same34() {
	for p in "" -P; do
		"$UPSTREAM34" hist $p -i "$1" >up.out 2>/dev/null
		up=$?
		"$TRACE_CMD" hist $p -i "$1" >ours.out 2>ours.err
		ours=$?
		if [ $up = 0 ] && [ -s up.out ]; then
			[ $ours = 0 ] && test_cmp up.out ours.out ||
				{ echo "$1 $p: exit $ours"; cat ours.err; return 1; }
		else
			[ $ours = 1 ] && test ! -s ours.out && test "$(wc -l <ours.err)" = 1 ||
				{ echo "$1 $p: 3.4 exit $up, ours $ours"; cat ours.err; return 1; }
		fi
	done
}

test_expect_success UPSTREAM34 'every fixture: the chains 3.4 prints, per task and with -P' '
	for f in "$FIXTURES"/*.dat upstream-v6-sched.dat upstream-v7-none-sched.dat; do
		same34 "$f" || exit 1
	done
'

test_expect_success UPSTREAM34,CORPUS 'every corpus file: the chains 3.4 prints (stack traces, 2 to 8 CPUs)' '
	for f in "$CORPUS"/*.dat; do
		same34 "$f" || exit 1
	done &&
	"$TRACE_CMD" hist -i "$CORPUS/x86_64-v7-zstd-stacktrace.dat" >out &&
	test "$(wc -l <out)" = 1137
'

test_expect_success PYTHON 'setup: files whose records walk every path of hist, v6 and v7 zstd' '
	for m in mix empty top; do
		python3 "$HELPERS/hist-spec.py" $m >$m.json &&
		python3 "$HELPERS/mkdat.py" $m.json $m.dat || exit 1
	done &&
	python3 "$HELPERS/hist-spec.py" mix 7 zstd >mix7.json &&
	python3 "$HELPERS/mkdat.py" mix7.json mix7.dat
'

# The expected files are 3.4's hist of those files.
test_expect_success PYTHON 'two instances: each prints every chain so far (3.4'"'"'s output)' '
	"$TRACE_CMD" hist -i mix.dat >out && test_cmp "$FIXTURES/hist-mix.expected" out &&
	"$TRACE_CMD" hist mix7.dat >out && test_cmp "$FIXTURES/hist-mix.expected" out &&
	"$TRACE_CMD" hist -P mix.dat >out && test_cmp "$FIXTURES/hist-mix.expected-P" out
'

test_expect_success PYTHON 'the same records in the top buffer alone: 3.4'"'"'s output' '
	"$TRACE_CMD" hist top.dat >out && test_cmp "$FIXTURES/hist-top.expected" out
'

test_expect_success PYTHON,UPSTREAM34 'those files: what 3.4 prints now' '
	for f in mix.dat mix7.dat top.dat; do same34 $f || exit 1; done
'

test_expect_success PYTHON 'an instance with no record: the instances before it print, then it is named, exit 1' '
	test_expect_code 1 "$TRACE_CMD" hist empty.dat >out 2>err &&
	test_cmp "$FIXTURES/hist-mix.expected" out &&
	echo "trace-cmd hist: '"'"'empty.dat'"'"': instance '"'"'three'"'"' holds no records" >want &&
	test_cmp want err
'

test_expect_success 'the file may be -i FILE, the argument, or trace.dat' '
	"$TRACE_CMD" hist -i upstream-v6-sched.dat >want &&
	"$TRACE_CMD" hist upstream-v6-sched.dat >out && test_cmp want out &&
	cp upstream-v6-sched.dat trace.dat && "$TRACE_CMD" hist >out && test_cmp want out &&
	rm trace.dat &&
	grep -q "^  %[0-9.]*  ([0-9]*) .* sched_switch #[0-9]*$" want
'

test_expect_success 'a latency tracer'"'"'s file and a file without records fail with one line' '
	check_usage 1 "trace-cmd hist: '"'"'$FIXTURES/synth-latency-v6.dat'"'"': a latency tracer'"'"'s text has no records to count" \
		hist -i "$FIXTURES/synth-latency-v6.dat" &&
	python3 "$HELPERS/mkdat.py" --dump-spec sched >none.json &&
	python3 -c "import json; s = json.load(open(\"none.json\")); s[\"records\"] = []; json.dump(s, open(\"none.json\", \"w\"))" &&
	python3 "$HELPERS/mkdat.py" none.json none.dat &&
	check_usage 1 "trace-cmd hist: '"'"'none.dat'"'"': no records found" hist none.dat
'

test_expect_success 'a missing, cut or damaged file: one line naming it, exit 1' '
	check_usage 1 "trace-cmd hist: cannot open '"'"'nosuch.dat'"'"': No such file or directory" \
		hist -i nosuch.dat &&
	test "$(wc -l <err)" = 1 &&
	head -c 100 upstream-v6-sched.dat >cut.dat &&
	test_expect_code 1 "$TRACE_CMD" hist cut.dat >out 2>err &&
	test ! -s out && test "$(wc -l <err)" = 1 && grep -q "^trace-cmd hist: '"'"'cut.dat'"'"': truncated at offset" err &&
	cp "$FIXTURES/synth-sched-v6.dat" bad.dat &&
	off=$("$TRACE_CMD" dump --flyrecord -i bad.dat | awk "/\\[offset, size of cpu 0\\]/ { print \$1 }") &&
	printf "\377\377\000\000" | dd of=bad.dat bs=1 seek=$((off + 8)) conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$TRACE_CMD" hist bad.dat >out 2>err &&
	test ! -s out && test "$(wc -l <err)" = 1 &&
	grep -q "^trace-cmd hist: '"'"'bad.dat'"'"': bad data at offset $off: " err
'

test_expect_success PYTHON 'a function record whose format lacks parent_ip: the field named, exit 1' '
	python3 "$HELPERS/hist-spec.py" broken >broken.json &&
	python3 "$HELPERS/mkdat.py" broken.json broken.dat &&
	check_usage 1 "trace-cmd hist: '"'"'broken.dat'"'"': the format of a record of CPU 0 has no field '"'"'parent_ip'"'"'" \
		hist broken.dat &&
	test ! -s out
'

test_expect_success 'usage errors: exit 2, one line, then the usage' '
	check_usage 2 "trace-cmd hist: unknown option '"'"'-x'"'"'" hist -x &&
	check_usage 2 "trace-cmd hist: option '"'"'-i'"'"' needs a value" hist -i &&
	check_usage 2 "trace-cmd hist: only one input file: '"'"'a.dat'"'"' and '"'"'b.dat'"'"'" hist -i a.dat b.dat &&
	check_usage 2 "trace-cmd hist: only one input file: '"'"'a.dat'"'"' and '"'"'b.dat'"'"'" hist -i a.dat -i b.dat &&
	check_usage 2 "trace-cmd hist: unexpected argument '"'"'b.dat'"'"'" hist a.dat b.dat
'

test_expect_success '-h shows the usage on stdout, exit 0' '
	"$TRACE_CMD" hist -h >out &&
	head -n 1 out >first && echo "usage: trace-cmd hist [-i FILE] [-P] [FILE]" >want &&
	test_cmp want first && grep -q "^  -P " out
'

test_done
