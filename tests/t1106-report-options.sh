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
$(report_shared_option_cases)
$F -R
$F -l -R
$F -T -F sched_switch:prev_pid==0 -F sched_wakeup -v -F sched_waking
$G -R
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
	events_of out | sed -n 1p | grep -q "^              sh-9414  \[001\] \.\.\.\.\.  6839\.498409172: sched_prepare_exec: "
'

test_expect_success '--align-ts starts the first event at 0' '
	"$TRACE_CMD" report --align-ts $F >out &&
	events_of out | sed -n 1p | grep -q "\[001\] \.\.\.\.\.     0\.000000: sched_prepare_exec:"
'

test_expect_success '--ts-offset moves every timestamp (upstream 3.1.6 ignores it)' '
	"$TRACE_CMD" report --ts-offset 1000000 $F >out &&
	events_of out | sed -n 1p | grep -q "\[001\] \.\.\.\.\.  6839\.499409: sched_prepare_exec:" &&
	"$TRACE_CMD" report --ts-offset -1000000 $F >out &&
	events_of out | sed -n 1p | grep -q "\[001\] \.\.\.\.\.  6839\.497409: sched_prepare_exec:"
'

test_expect_success '--raw-ts prints the raw counter' '
	"$TRACE_CMD" report --raw-ts $F >out &&
	events_of out | sed -n 1p | grep -q "\[001\] \.\.\.\.\.6839498409172: sched_prepare_exec:"
'

# --raw-ts wins over --ts2secs, as in upstream 3.1.6 and 3.4.
test_expect_success '--ts2secs turns counter ticks into seconds, but not with --raw-ts' '
	"$TRACE_CMD" report --raw-ts --ts2secs 1000000000 $F >a &&
	"$TRACE_CMD" report --raw-ts $F >b &&
	test_cmp b a &&
	"$TRACE_CMD" report --ts2secs 1000000000 $F >a &&
	"$TRACE_CMD" report $F >b &&
	test_cmp b a &&
	"$TRACE_CMD" report --ts2secs 2000000000 $F >c &&
	events_of c | sed -n 1p | grep -q "\[001\] \.\.\.\.\.  3419\.749205: sched_prepare_exec:"
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
	grep -q "^synth-instances-v6.dat: cpus=2$" out &&
	grep -q "^                   foo:             bash-1234  \[000\] \.\.\.\.\. 12345.678903: print: " out &&
	grep -v -e ": cpus=" out >ev &&
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
		grep -v -e ": cpus=" ours >a &&
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
	grep -q "invalid --verbose value .loud.: use none, crit, err, warn, info, debug, all or 0 to 6" err
'

test_expect_success 'listing options cannot be combined' '
	test_expect_code 2 "$TRACE_CMD" report --cpus --stat $F 2>err &&
	grep -q "^trace-cmd report: --stat cannot be combined with another listing option" err
'

test_expect_success 'a bad --ts-offset is a usage error' '
	test_expect_code 2 "$TRACE_CMD" report --ts-offset 1x $F 2>err &&
	grep -q "^trace-cmd report: invalid --ts-offset value .1x.: not a number" err
'

# same_as_34 ARGS: our report and upstream 3.4's give the same output.
same_as_34() {
	"$TRACE_CMD" report "$@" >ours.out 2>ours.err &&
	"$UPSTREAM34" report "$@" >up.out 2>up.err &&
	test_cmp up.out ours.out
}

S=$FIXTURES/synth-sched-v6.dat
K=$FIXTURES/synth-plugins-v6.dat
FN=$FIXTURES/synth-function-v6.dat
cp "$S" a.dat && cp "$S" c.dat && cp "$K" b.dat

test_expect_success 'setup: an extra kallsyms naming some addresses again, one anew' '
	printf "ffffffff81100800 T my_ksys_write\nffffffff81200000 t my_vfs_write\t[mymod]\nffffffff81100810 T zz_inside\n" >kallsyms.extra
'

while read args; do
	test_expect_success UPSTREAM34 "report $args equals upstream 3.4's" '
		same_as_34 '"$args"'
	'
done <<TABLE
-p -i $S
-p -i $FIXTURES/synth-sched-be32-v7-zstd.dat
--event wakeup -i $S
--event SCHED -i $S
--event Sched_ -i $S
--event sched:WAKEUP -i $S
--event k -i $K
--event kmem: -i $K
--event mem:lloc -i $K
--event ^kmem$ -i $K
--event kmem:kfree:zzz -i $K
--event :kmalloc -i $K
--event nomatch -i $K
-l -i a.dat -F sched_wakeup -i b.dat -F kfree
-l -i a.dat -v -F sched_wakeup -i c.dat -F sched_switch
-l -i a.dat -F sched_wakeup -i c.dat
-l -F print -i a.dat -i c.dat -F sched_wakeup
-l a.dat b.dat
-l -i a.dat -i c.dat --ts-offset 1000000
-l -i a.dat -i c.dat --ts-offset 1000 --ts-offset 2000 -i b.dat
-l -i a.dat -i c.dat --ts2secs 2000000000 -i b.dat
-l --ts2secs 2000000000 -i a.dat -i c.dat --ts2secs 1000000000
-l --kallsyms kallsyms.extra -i $FN
-f --kallsyms kallsyms.extra -i $FN
-l -O parent --kallsyms kallsyms.extra -i $FN
-l -i $FN --kallsyms kallsyms.extra -i $FN
TABLE

# 3.4 fails too (exit 255), having printed the first file's cpus= line.
test_expect_success '-F before the files naming an event one file lacks: one line naming that file, exit 1' '
	test_expect_code 1 "$TRACE_CMD" report -l -F sched_wakeup a.dat b.dat >out 2>err &&
	test ! -s out &&
	echo "trace-cmd report: filter '"'"'sched_wakeup'"'"': no event '"'"'sched_wakeup'"'"' in '"'"'b.dat'"'"'" >expect &&
	test_cmp expect err
'

test_expect_success '-F after an -i is that file'"'"'s: an event only the second file has' '
	"$TRACE_CMD" report --line-3.1 -i a.dat -F sched_wakeup -i b.dat -F kfree >out &&
	grep -q "^b.dat: .* kfree: " out &&
	test $(grep -c "^a.dat: .* sched_wakeup: " out) = 3 &&
	test $(grep -c -e "^a.dat: .*\] [0-9.]*: " -e "^b.dat: .*\] [0-9.]*: " out) = 4
'

# Upstream 3.4 chains a file's -F onto those given before the first -i, so
# the files after it get them too: its bug, not followed.
test_expect_success UPSTREAM34 'upstream 3.4 applies a file'"'"'s -F to the next file too (its bug)' '
	"$UPSTREAM34" report -F print -i a.dat -F sched_wakeup -i c.dat >up &&
	grep -q "^c.dat: .* sched_wakeup: " up &&
	"$TRACE_CMD" report -F print -i a.dat -F sched_wakeup -i c.dat >out &&
	grep -q "^a.dat: .* sched_wakeup: " out &&
	! grep -q "^c.dat: .* sched_wakeup: " out &&
	grep -q "^c.dat: .* print: " out
'

test_expect_success '--ts-offset and --ts2secs after an -i are that file'"'"'s' '
	"$TRACE_CMD" report --line-3.1 -i a.dat --ts-offset 1000000 -i c.dat >out &&
	grep -q "^a.dat: .*\[000\] 12345\.679901: sched_wakeup: *bash:" out &&
	grep -q "^c.dat: .*\[000\] 12345\.678901: sched_wakeup: *bash:" out &&
	"$TRACE_CMD" report --line-3.1 -i a.dat --ts2secs 2000000000 -i c.dat >out &&
	grep -q "^a.dat: .*\[000\]  6172\.839451: sched_wakeup: *bash:" out &&
	grep -q "^c.dat: .*\[000\] 12345\.678901: sched_wakeup: *bash:" out &&
	"$TRACE_CMD" report --line-3.1 --ts-offset 1000000 -i a.dat -i c.dat --ts-offset 0 >out &&
	grep -q "^a.dat: .*\[000\] 12345\.679901: sched_wakeup: *bash:" out &&
	grep -q "^c.dat: .*\[000\] 12345\.678901: sched_wakeup: *bash:" out
'

test_expect_success 'the example of report(1): host ahead of the guest, guest filtered' '
	cp a.dat host.dat && cp "$K" guest.dat &&
	"$TRACE_CMD" report --line-3.1 -i host.dat --ts-offset -1000 -i guest.dat -v -F kmem >out &&
	grep -q "^ host.dat: .*\[000\] 12345\.678900: sched_wakeup: " out &&
	grep -q "^guest.dat: .* rcu_utilization: " out &&
	! grep -q "^guest.dat: .* kmem_cache_alloc: " out
'

test_expect_success 'files given last are merged as -i files' '
	"$TRACE_CMD" report -i a.dat -i b.dat >expect &&
	"$TRACE_CMD" report a.dat b.dat >out &&
	test_cmp expect out
'

test_expect_success '--kallsyms names addresses the file does not, beside the file'"'"'s names' '
	"$TRACE_CMD" report -R $FN >out &&
	grep -q " parent_ip=ksys_write " out && ! grep -q zz_inside out &&
	"$TRACE_CMD" report -R --kallsyms kallsyms.extra $FN >out &&
	grep -q " parent_ip=zz_inside " out &&
	"$TRACE_CMD" report -f --kallsyms kallsyms.extra $FN >out &&
	grep -q "^ffffffff81100800 ksys_write$" out &&
	grep -q "^ffffffff81100800 my_ksys_write$" out
'

test_expect_success '-p prints the file'"'"'s and the host'"'"'s page size' '
	"$TRACE_CMD" report -p $S >out &&
	echo "file page size is 4096, and host page size is $(getconf PAGESIZE)" >expect &&
	test_cmp expect out
'

test_expect_success '--event of a v7 file prints its formats (upstream 3.4 prints none)' '
	"$TRACE_CMD" report --event sched:switch $Z >out &&
	grep -q "^name: sched_switch$" out &&
	test $(grep -c "^name: " out) = 1
'

test_expect_success 'several --event: every event one of them matches' '
	"$TRACE_CMD" report --event rcu --event kfree $K >out &&
	grep "^name: \|^system: " out >names &&
	printf "system: kmem\nname: kfree\nsystem: rcu\nname: rcu_utilization\n" >expect &&
	test_cmp expect names
'

test_expect_success '-V[LEVEL] is --verbose[=LEVEL]' '
	"$TRACE_CMD" report -V $S >out 2>&1 &&
	grep -q "^registering plugin: .*/plugin_sched_switch.so$" out &&
	"$TRACE_CMD" report -V9 $S >out 2>&1 &&
	grep -q "^registering plugin: " out &&
	"$TRACE_CMD" report -V3 $S >out 2>&1 &&
	! grep -q "registering plugin" out
'

test_expect_success 'an unreadable --kallsyms file fails the report' '
	test_expect_code 1 "$TRACE_CMD" report --kallsyms nosuchfile $S >out 2>err &&
	echo "trace-cmd report: cannot read --kallsyms file '"'"'nosuchfile'"'"': No such file or directory" >expect &&
	test_cmp expect err
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

# Upstream 3.4 crashes on the first two and prints nothing for the third.
test_expect_success 'an empty or invalid --event regex, a file after -i, a bad -V: usage errors' '
	check_report_usage "--event \"\"" "trace-cmd report: --event needs a system or event regex" &&
	check_report_usage "--event :" "trace-cmd report: --event needs a system or event regex" &&
	check_report_usage "--event sched:[" "trace-cmd report: invalid --event regex '"'"'['"'"': Invalid regular expression" &&
	check_report_usage "--kallsyms \"\"" "trace-cmd report: --kallsyms needs a file name" &&
	check_report_usage "--event x --events" "trace-cmd report: --events cannot be combined with another listing option" &&
	check_report_usage "-i $S" "trace-cmd report: unexpected argument '"'"'$F'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" report -Vx $F 2>err &&
	grep -q "^trace-cmd report: invalid -V value .x.: use none, crit, err, warn, info, debug, all or 0 to 6" err
'

test_done
