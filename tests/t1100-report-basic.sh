#!/bin/bash
# report: input file selection, header lines, and event lines identical to
# upstream 3.1.6's report of files upstream recorded (v6, v7 none, v7 zstd).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

for f in upstream-v6-sched.dat upstream-v7-none-sched.dat upstream-v7-zstd-sched.dat; do
	fixture $f
done

test_expect_success 'report -h prints the usage to stdout and exits 0' '
	"$TRACE_CMD" report -h >out &&
	head -n 1 out | grep -q "^usage: trace-cmd report \[OPTIONS\] \[FILE\.\.\.\]$"
'

test_expect_success 'an unknown option is one line and the usage, exit 2' '
	test_expect_code 2 "$TRACE_CMD" report --frob 2>err &&
	test "$(head -n 1 err)" = "trace-cmd report: unknown option '"'"'--frob'"'"'" &&
	grep -q "^usage: trace-cmd report" err
'

test_expect_success 'an unknown letter in a bundle names the letter and the bundle (not the command)' '
	test_expect_code 2 "$TRACE_CMD" report -Xfoo 2>err &&
	test "$(head -n 1 err)" = "trace-cmd report: unknown option '"'"'-X'"'"' in '"'"'-Xfoo'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" report -i x.dat -qX 2>err &&
	test "$(head -n 1 err)" = "trace-cmd report: unknown option '"'"'-X'"'"' in '"'"'-qX'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" report --cpu 2>err &&
	test "$(head -n 1 err)" = "trace-cmd report: option '"'"'--cpu'"'"' needs a value"
'

test_expect_success 'a file argument after an -i is a usage error' '
	test_expect_code 2 "$TRACE_CMD" report -i a.dat b.dat 2>err &&
	grep -q "unexpected argument .b.dat." err
'

test_expect_success 'a missing file fails with exit 1 and says why' '
	test_expect_code 1 "$TRACE_CMD" report -i nosuch.dat 2>err &&
	test "$(cat err)" = "trace-cmd report: cannot open '"'"'nosuch.dat'"'"': No such file or directory"
'

test_expect_success 'header: only cpus=N by default, as upstream (3.1.6 and 3.4)' '
	"$TRACE_CMD" report upstream-v6-sched.dat >out &&
	echo "cpus=2" >expect &&
	head -n 1 out >head &&
	test_cmp expect head &&
	! grep -q "^version = " out
'

test_expect_success 'header: -V and --verbose=info name the version first (v6 and v7)' '
	"$TRACE_CMD" report -V upstream-v6-sched.dat >out &&
	test "$(head -n 1 out)" = "version = 6" &&
	"$TRACE_CMD" report --verbose=info upstream-v7-zstd-sched.dat >out &&
	test "$(head -n 1 out)" = "version = 7" &&
	"$TRACE_CMD" report --verbose=warn upstream-v7-zstd-sched.dat >out &&
	! grep -q "^version = " out
'

test_expect_success 'header: at -V, a v6 CPU without data is logged as empty; never by default' '
	cp upstream-v6-sched.dat empty0.dat &&
	tag=$(grep -boa flyrecord empty0.dat | tail -n 1 | cut -d: -f1) &&
	# CPU 0 size is the u64 after its u64 offset, after the 10-byte tag.
	printf "\0\0\0\0\0\0\0\0" | dd of=empty0.dat bs=1 seek=$((tag + 18)) conv=notrunc 2>/dev/null &&
	"$TRACE_CMD" report -V empty0.dat >out &&
	grep -e "^version = " -e "^CPU [0-9]* is empty$" -e "^cpus=" out >head &&
	printf "version = 6\nCPU 0 is empty\ncpus=2\n" >expect &&
	test_cmp expect head &&
	"$TRACE_CMD" report empty0.dat >out &&
	! grep -q "is empty$" out &&
	! events_of out | grep -q "\[000\]" &&
	events_of out | grep -q "\[001\]"
'

test_expect_success 'trace.dat by default, -i FILE and a last FILE argument agree' '
	cp upstream-v6-sched.dat trace.dat &&
	"$TRACE_CMD" report >a &&
	"$TRACE_CMD" report -i upstream-v6-sched.dat >b &&
	"$TRACE_CMD" report upstream-v6-sched.dat >c &&
	test_cmp a b && test_cmp a c && test $(wc -l <a) -gt 100
'

test_expect_success 'options in any order: -F after -i is honoured' '
	"$TRACE_CMD" report -i upstream-v6-sched.dat -F sched_switch >a &&
	"$TRACE_CMD" report -F sched_switch upstream-v6-sched.dat >b &&
	test_cmp a b &&
	events_of a >ev && test -s ev &&
	! grep -v " sched_switch: " ev
'

# Upstream 3.4's lines (3.3 on): the latency flags after the CPU; t1112
# compares every line with 3.4 when it is there.
test_expect_success 'the default line has the latency flags after the CPU, as upstream 3.4' '
	"$TRACE_CMD" report upstream-v6-sched.dat >out &&
	events_of out | sed -n "2,3p" >got &&
	cat >want <<-\EOF &&
	       trace-cmd-9413  [000] d..2.  6839.498490: sched_stat_runtime:   comm=trace-cmd pid=9413 runtime=461747 [ns]
	       trace-cmd-9413  [000] d..2.  6839.498500: sched_switch:         trace-cmd:9413 [120] S ==> swapper/0:0 [120]
	EOF
	test_cmp want got
'

test_expect_success '--line-3.1 drops the latency column, -R shows the flags as a number' '
	"$TRACE_CMD" report --line-3.1 upstream-v6-sched.dat >out &&
	events_of out | sed -n 2p >got &&
	echo "       trace-cmd-9413  [000]  6839.498490: sched_stat_runtime:   comm=trace-cmd pid=9413 runtime=461747 [ns]" >want &&
	test_cmp want got &&
	"$TRACE_CMD" report -R upstream-v6-sched.dat >out &&
	events_of out | sed -n 2p | grep -q "^       trace-cmd-9413  \[000\]-0x1  6839\.498490: sched_stat_runtime: "
'

for f in upstream-v6-sched upstream-v7-none-sched upstream-v7-zstd-sched; do
	test_expect_success "--line-3.1: event lines of $f equal upstream 3.1.6's (committed)" '
		"$TRACE_CMD" report --line-3.1 '$f'.dat >out &&
		events_of out >ours &&
		events_of "$FIXTURES/'$f'.report" >expect &&
		test_cmp expect ours
	'
	test_expect_success UPSTREAM "event lines of $f equal upstream's (run now)" '
		same_as_upstream '$f'.dat
	'
done

test_expect_success 'trace_marker strings recorded by upstream show as print events, in order' '
	"$TRACE_CMD" report upstream-v6-sched.dat >out &&
	grep -o "tracing_mark_write: .*" out >marks &&
	printf "tracing_mark_write: hello-marker\ntracing_mark_write: second-marker\n" >expect &&
	test_cmp expect marks
'

test_expect_success 'output to a full device fails with exit 1' '
	test_expect_code 1 "$TRACE_CMD" report upstream-v6-sched.dat >/dev/full 2>err &&
	grep -q "write error on standard output" err
'

test_done
