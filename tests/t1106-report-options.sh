#!/bin/bash
# report's other options, each against upstream 3.1.6's output of the same
# file where it has the option, and by what a user checks where it differs.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture upstream-v6-sched.dat
fixture upstream-v7-zstd-sched.dat
F=upstream-v6-sched.dat
Z=upstream-v7-zstd-sched.dat
G=$FIXTURES/synth-funcgraph-v6.dat
I=$FIXTURES/synth-instances-v6.dat

while read file args; do
	test_expect_success UPSTREAM "report $args of $(basename $file) equals upstream's" '
		same_output_as_upstream '"$file $args"'
	'
done <<TABLE
$F -e
$F -f
$F -P
$F -E
$F --cpus
$F --first-event
$F --last-event
$F --stat
$F --uname
$F --version
$F -t
$F -R
$F -N
$F -l
$F -l -R
$F --ts-diff
$F -t --ts-diff
$F --ts2secs 2000000000 --ts-diff
$F -I
$F -S
$F --raw-ts
$F --nodate
$F --align-ts
$F --ts-check
$F -r sched_switch
$F -r sched.*
$F -n sched_switch
$F -q
$F --pid 9414
$F --pid 0
$F --comm sh
$F --comm ls
$F --comm sh --pid 0
$Z --pid 9420
$F -w
$F -L
$F -L -F sched_switch
$F -w -F sched_switch,sched_wakeup
$Z -w
$F -T -F sched_switch:prev_pid==0 -F sched_wakeup -v -F sched_waking
$Z --stat
$Z --first-event
$Z -l
$Z --uname
$G -N
$G -R
$G -l
$G --last-event
$G -O fgraph:depth=1
$G -O tailprint
$G -O tailprint=1 -O depth=1
$I --stat
$I --first-event
$FIXTURES/synth-sched-be32-v6.dat -e
$FIXTURES/synth-sched-be32-v7-zstd.dat -t
$FIXTURES/synth-sched-le32-v6.dat -f
$FIXTURES/synth-sched-be64-v6.dat -P
TABLE

test_expect_success '-e names the byte order of the file and of the host' '
	"$TRACE_CMD" report -e "$FIXTURES/synth-sched-be32-v6.dat" >out &&
	echo "file is big endian and host is little endian" >expect &&
	test_cmp expect out
'

test_expect_success '--cpus lists the CPUs that have data' '
	"$TRACE_CMD" report --cpus $F >out &&
	printf "List of CPUs in $F with data:\n  0\n  1\n" >expect &&
	test_cmp expect out
'

test_expect_success '-t prints nanoseconds' '
	"$TRACE_CMD" report -t $F >out &&
	sed -n 3p out | grep -q "^              sh-9414  \[001\] \.\.\.\.\.  6839\.498409172: sched_prepare_exec: "
'

test_expect_success '--align-ts starts the first event at 0' '
	"$TRACE_CMD" report --align-ts $F >out &&
	sed -n 3p out | grep -q "\[001\] \.\.\.\.\.     0\.000000: sched_prepare_exec:"
'

test_expect_success '--ts-offset moves every timestamp (upstream 3.1.6 ignores it)' '
	"$TRACE_CMD" report --ts-offset 1000000 $F >out &&
	sed -n 3p out | grep -q "\[001\] \.\.\.\.\.  6839\.499409: sched_prepare_exec:" &&
	"$TRACE_CMD" report --ts-offset -1000000 $F >out &&
	sed -n 3p out | grep -q "\[001\] \.\.\.\.\.  6839\.497409: sched_prepare_exec:"
'

test_expect_success '--raw-ts prints the raw counter' '
	"$TRACE_CMD" report --raw-ts $F >out &&
	sed -n 3p out | grep -q "\[001\] \.\.\.\.\.6839498409172: sched_prepare_exec:"
'

test_expect_success '--ts2secs turns counter ticks into seconds' '
	"$TRACE_CMD" report --raw-ts --ts2secs 1000000000 $F >a &&
	"$TRACE_CMD" report $F >b &&
	test_cmp b a &&
	"$TRACE_CMD" report --ts2secs 2000000000 $F >c &&
	sed -n 3p c | grep -q "\[001\] \.\.\.\.\.  3419\.749205: sched_prepare_exec:"
'

test_expect_success '--check-events passes for a file whose formats parse' '
	"$TRACE_CMD" report --check-events $F >out && test ! -s out
'

test_expect_success 'function graph: leaves on one line, nesting by depth' '
	"$TRACE_CMD" report "$G" >out &&
	grep -q "funcgraph_entry:        0\.500 us   |    rw_verify_area();$" out &&
	grep -q "funcgraph_entry:                   |  vfs_write() {$" out &&
	grep -q "funcgraph_exit:       ! 150\.000 us |    }$" out &&
	! grep -q "funcgraph_exit: .*rw_verify_area" out
'

test_expect_success 'several -i files merge into one timeline, each line labelled' '
	"$TRACE_CMD" report -i "$FIXTURES/synth-sched-v6.dat" -i "$I" >out &&
	grep -q "^    synth-sched-v6.dat: cpus=2$" out &&
	grep -q "^synth-instances-v6.dat: version = 6$" out &&
	grep -q "^                   foo:             bash-1234  \[000\] \.\.\.\.\. 12345.678903: print: " out &&
	grep -v -e ": cpus=" -e ": version = " -e " is empty$" out >ev &&
	test $(wc -l <ev) = 16 &&
	grep -o "12345\.[0-9]*:" ev >stamps &&
	sort -c stamps
'

test_expect_success UPSTREAM 'several -i files: event lines equal upstream 3.1.6'"'"'s (--line-3.1)' '
	for pair in "$F $FIXTURES/synth-sched-v6.dat" "$FIXTURES/synth-sched-v6.dat $I" \
		    "$FIXTURES/synth-sched-v6.dat $FIXTURES/synth-sched-be32-v7-zstd.dat"; do
		set -- $pair
		"$TRACE_CMD" report --line-3.1 -i $1 -i $2 >ours &&
		"$UPSTREAM" report -i $1 -i $2 >up 2>/dev/null &&
		grep -v -e ": cpus=" -e ": version = " -e " is empty$" ours >a &&
		grep -v -e ": cpus=" up >b &&
		test_cmp b a || exit 1
	done
'

# Upstream 3.4 warns too, then forgets the --comm and shows every task: a
# bug we keep fixed (the name matched nothing, so nothing is shown).
test_expect_success '--comm of a task the file does not know: a warning, no event, exit 0' '
	"$TRACE_CMD" report --comm nosuchtask $F >out 2>err &&
	test "$(cat err)" = "trace-cmd report: warning: --comm '"'"'nosuchtask'"'"': no task of that name in '"'"'$F'"'"'" &&
	! grep -q "^ *[^ ].*-[0-9]* *\[" out &&
	"$TRACE_CMD" report --comm nosuchtask --pid 9414 $F >both &&
	"$TRACE_CMD" report --pid 9414 $F >pid && test_cmp pid both
'

test_expect_success UPSTREAM34 'upstream 3.4 shows every task for a --comm it does not know (its bug)' '
	"$UPSTREAM34" report --comm nosuchtask -i $F >up 2>up.err &&
	grep -q "not in cmdline list" up.err &&
	"$UPSTREAM34" report -i $F >all && test_cmp all up
'

test_expect_success '--pid keeps the task'"'"'s events and the wakeups and switches to it' '
	"$TRACE_CMD" report --pid 9414 $F >out &&
	events_of out >ev && test $(wc -l <ev) = 48 &&
	grep -q "sched_wakeup:         sh:9414 " ev &&
	grep -q "==> sh:9414 \[120\]" ev
'

test_expect_success '-w adds each wakeup latency and a summary' '
	"$TRACE_CMD" report -w $F >out &&
	test $(grep -c " Latency: [0-9]*\.[0-9][0-9][0-9] usecs$" out) = 14 &&
	tail -n 4 out >summary &&
	printf "Average wakeup latency: 21.213 usecs\nMaximum Latency: 82.168 usecs at timestamp: 6839.500437\nMinimum Latency: 3.112 usecs at timestamp: 6839.554959\n\n" >expect &&
	test_cmp expect summary
'

test_expect_success '--verbose=debug shows the plugins being loaded, as upstream' '
	"$TRACE_CMD" report --verbose=debug $F >out 2>&1 &&
	grep -q "^registering plugin: .*/plugin_sched_switch.so$" out &&
	"$TRACE_CMD" report --verbose=none $F >out 2>&1 &&
	! grep -q "registering plugin" out &&
	test_expect_code 2 "$TRACE_CMD" report --verbose=loud $F 2>err &&
	grep -q "invalid --verbose value .loud.: not a number" err
'

test_expect_success 'listing options cannot be combined' '
	test_expect_code 2 "$TRACE_CMD" report --cpus --stat $F 2>err &&
	grep -q "^trace-cmd report: --stat cannot be combined with another listing option" err
'

test_expect_success 'a bad --ts-offset is a usage error' '
	test_expect_code 2 "$TRACE_CMD" report --ts-offset 1x $F 2>err &&
	grep -q "^trace-cmd report: invalid --ts-offset value .1x.: not a number" err
'

# check_report_usage "ARGS" "stderr's first line": exit 2, nothing on stdout.
check_report_usage() {
	msg=$2
	eval "set -- $1"
	check_usage 2 "$msg" report "$@" $F
}

test_expect_success 'a plugin option no loaded plugin has is a usage error' '
	check_report_usage "-O bogus" "trace-cmd report: no plugin option '"'"'bogus'"'"'" &&
	check_report_usage "-O bogus=1" "trace-cmd report: no plugin option '"'"'bogus'"'"'" &&
	check_report_usage "-O ftrace:bogus" "trace-cmd report: no plugin option '"'"'ftrace:bogus'"'"'" &&
	check_report_usage "-O fgraph:parent" "trace-cmd report: no plugin option '"'"'fgraph:parent'"'"'" &&
	check_report_usage "-N -O parent" "trace-cmd report: no plugin option '"'"'parent'"'"' (-N loads no plugins)" &&
	check_report_usage "-O \"\"" "trace-cmd report: -O needs a plugin option" &&
	check_report_usage "-O =1" "trace-cmd report: -O needs a plugin option before '"'"'='"'"'"
'

test_expect_success 'the plugins'"'"' own options are taken, with or without their plugin' '
	for o in parent ftrace:parent=1 ftrace:indent=0 tailprint fgraph:depth=1; do
		"$TRACE_CMD" report -O $o $F >out 2>err && test ! -s err || { echo "-O $o"; return 1; }
	done &&
	"$TRACE_CMD" report -N -O depth $F >out
'

test_expect_success 'a bad -r or -n regex, or an empty one, is a usage error' '
	check_report_usage "-r [" "trace-cmd report: invalid -r regex '"'"'['"'"': Invalid regular expression" &&
	check_report_usage "-n [" "trace-cmd report: invalid -n regex '"'"'['"'"': Invalid regular expression" &&
	check_report_usage "-r sched/[" "trace-cmd report: invalid -r regex '"'"'['"'"': Invalid regular expression" &&
	check_report_usage "-r '"'"'a\\{1'"'"'" "trace-cmd report: invalid -r regex '"'"'a\\{1'"'"': Unmatched \\{" &&
	check_report_usage "-r \"\"" "trace-cmd report: -r needs an event regex" &&
	check_report_usage "-n \" \"" "trace-cmd report: -n needs an event regex" &&
	check_report_usage "--comm \"\"" "trace-cmd report: --comm needs a task name"
'

test_done
