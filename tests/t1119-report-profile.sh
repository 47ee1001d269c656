#!/bin/bash
# report --profile (with -G, -H, --by-comm) against upstream 3.4's on every
# fixture and corpus file it prints a profile of, and the bad input ours
# refuses.  3.4 lists events that tie (same event, same total time) in the
# order of a hash of pointers, which changes from run to run:
# tests/helper/profile-canon.py sorts those runs in both outputs, and with
# --by-comm the groups (3.4's hash order too).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

CANON=$HELPERS/profile-canon.py
Z=$FIXTURES/upstream-v7-zstd-sched.dat
S=$CORPUS/x86_64-v7-zstd-stacktrace.dat

# same_profile34 FILE [ARGS]: ours and 3.4's report --profile ARGS -i FILE
# equal, but for the order of ties (and of groups, with --by-comm).
same_profile34() {
	file=$1; shift
	groups=
	case " $* " in *" --by-comm "*) groups=--groups ;; esac
	"$TRACE_CMD" report --profile "$@" -i "$file" >ours.raw &&
	"$UPSTREAM34" report --profile "$@" -i "$file" >up.raw 2>up.err &&
	python3 "$CANON" $groups <ours.raw >ours.out &&
	python3 "$CANON" $groups <up.raw >up.out &&
	test_cmp up.out ours.out
}

# The files 3.4 profiles: not the instances fixtures (3.4 prints "Handle not
# found?" and no profile), nor synth-latency-clock (3.4 eats its latency text,
# t1112), nor the truncated corpus file (ours fails on it, t1102).
profiled_files() {
	for f in "$FIXTURES"/*.dat; do
		case $f in
		*synth-instances*|*latency-clock*) continue ;;
		esac
		echo "$f"
	done
	test_have_prereq CORPUS || return 0
	for f in "$CORPUS"/*.dat; do
		case $f in
		*truncated*) continue ;;
		esac
		echo "$f"
	done
}

for opts in "" "-G" "--by-comm" "-G --by-comm"; do
	test_expect_success UPSTREAM34 "report --profile $opts equals 3.4's on every file it profiles" '
		n=0 &&
		for f in $(profiled_files); do
			same_profile34 "$f" '"$opts"' || { echo "differs: $f"; exit 1; }
			n=$((n + 1))
		done &&
		test $n -gt 40
	'
done

# -H: a pair replaces the built-in roles of its events; g counts it once, gp
# per CPU; a stack after either event goes with the pair.  The stacktrace
# corpus file has no irq events: those hooks are compared on the fixture.
for hook in "sched_waking,pid/sched_wakeup,pid" \
	    "sched:sched_waking,pid,pid/sched:sched_wakeup,pid,ps" \
	    "sched_waking,pid/sched_wakeup,pid,g" \
	    "sched_waking,pid/sched_wakeup,pid,gp" \
	    "sched_switch,prev_pid/sched_switch,next_pid,pg" \
	    "sched_waking,pid,pid/sched_switch,next_pid,p" \
	    "irq:softirq_raise,vec/irq:softirq_exit,vec" \
	    "irq:softirq_raise,vec/irq:softirq_exit,vec,g" \
	    "softirq_raise,vec/softirq_entry,vec,p"; do
	test_expect_success UPSTREAM34 "-H $hook equals 3.4's (upstream-v7-zstd-sched)" '
		same_profile34 "$Z" -H "'"$hook"'" &&
		same_profile34 "$Z" -G -H "'"$hook"'"
	'
	case $hook in *softirq*) continue ;; esac
	test_expect_success UPSTREAM34,CORPUS "-H $hook equals 3.4's (stacks: x86_64-v7-zstd-stacktrace)" '
		same_profile34 "$S" -H "'"$hook"'"
	'
done

test_expect_success UPSTREAM34 'two -H hooks, each echoed as 3.4 echoes them' '
	same_profile34 "$Z" -H sched_waking,pid/sched_wakeup,pid,s \
		-H irq:softirq_raise,vec/irq:softirq_exit,vec &&
	head -2 ours.raw >echo.out &&
	cat >echo.expected <<-\EOF &&
	start (null):sched_waking:pid ((null)) end (null):sched_wakeup:pid (s)
	start irq:softirq_raise:vec ((null)) end irq:softirq_exit:vec ((null))
	EOF
	test_cmp echo.expected echo.out
'

# Without 3.4: its output of three files, kept (ties sorted).
test_expect_success 'report --profile: switches, wakeups, softirqs, generic events as 3.4' '
	"$TRACE_CMD" report --profile -i "$Z" | python3 "$CANON" >out &&
	test_cmp "$FIXTURES/upstream-v7-zstd-sched.profile" out
'

test_expect_success 'report --profile -G -H: per-CPU interrupts, a global pair, as 3.4' '
	"$TRACE_CMD" report --profile -G -H sched_waking,pid/sched_wakeup,pid,g -i "$Z" |
		python3 "$CANON" >out &&
	test_cmp "$FIXTURES/upstream-v7-zstd-sched.profile-G-H" out
'

test_expect_success 'report --profile: function_graph entries timed to their exits, as 3.4' '
	"$TRACE_CMD" report --profile -i "$FIXTURES/synth-funcgraph-2cpu-v6.dat" |
		python3 "$CANON" >out &&
	test_cmp "$FIXTURES/synth-funcgraph-2cpu.profile" out
'

# Cut from guest files of 3.4's record --profile (function_graph on; kallsyms
# shrunk by helper/dat-keep-syms.py), each .profile 3.4's output (ties
# sorted); with UPSTREAM34 the loops above compare them with 3.4 live.
# wakeup: a stack goes with the wait its task's last wakeup began, though the
# task (pid 0, on another CPU) had events since; held: a stack nothing
# took goes with the task's function_graph entry right after it; zero: a
# stack's interval of 0 ns is its min.
for case in wakeup held zero; do
	test_expect_success "report --profile of a guest file as 3.4 ($case)" '
		"$TRACE_CMD" report --profile -i "$FIXTURES/guest34-profile-'$case'.dat" |
			python3 "$CANON" >out &&
		test_cmp "$FIXTURES/guest34-profile-'$case'.profile" out
	'
done

test_expect_success CORPUS 'report --profile: kernel stacks printed as a call tree' '
	"$TRACE_CMD" report --profile -i "$S" >out &&
	grep -x "          + trace_event_raw_event_sched_switch (0xffffffffa19061d5)" out &&
	grep -x "                |   64% (2) time:63960 max:53903(ts:6610.684563) min:10057(ts:6610.684486) avg:31980" out
'

test_expect_success 'report --profile --by-comm sums the tasks of one name' '
	"$TRACE_CMD" report --profile --by-comm -i "$Z" >out &&
	sed -n "/^group: trace-cmd$/,/^$/p" out >group &&
	grep -x "  Event: sched_stat_runtime:0xa0018 (3)" group &&
	! grep "^task: trace-cmd" out
'

test_expect_success 'report --profile of a latency tracer file prints its text, as 3.4' '
	"$TRACE_CMD" report -i "$FIXTURES/synth-latency-v6.dat" >plain.out &&
	"$TRACE_CMD" report --profile -i "$FIXTURES/synth-latency-v6.dat" >out &&
	test_cmp plain.out out
'

test_expect_success 'report --profile -F profiles only the events it shows' '
	"$TRACE_CMD" report --profile -F print -i "$Z" >out &&
	grep "Event: print:" out &&
	! grep "sched_switch" out
'

# Bad input: one line, the usage after it for a usage error.
check_profile_usage() {
	code=$1 msg=$2; shift 2
	test_expect_code $code "$TRACE_CMD" report "$@" >out 2>err &&
	head -1 err >first &&
	echo "trace-cmd report: $msg" >expected &&
	test_cmp expected first
}

test_expect_success 'bad -H, and -G/-H/--by-comm without --profile, are usage errors' '
	check_profile_usage 2 "-H '\''sched_waking,pid'\'': no '\''/'\'' between the start and the end event" \
		--profile -H sched_waking,pid -i "$Z" &&
	check_profile_usage 2 "-H '\''a/b,c'\'': expected [sys:]start,match[,pid]/[sys:]end,match[,flags]" \
		--profile -H a/b,c -i "$Z" &&
	check_profile_usage 2 "-H '\''a,b/c,d,x'\'': unknown flag '\''x'\'' (p, s or g)" \
		--profile -H a,b/c,d,x -i "$Z" &&
	check_profile_usage 2 "-G needs --profile" -G -i "$Z" &&
	check_profile_usage 2 "-H needs --profile" -H a,b/c,d -i "$Z" &&
	check_profile_usage 2 "--by-comm needs --profile" --by-comm -i "$Z" &&
	check_profile_usage 2 "--profile cannot be combined with --format" \
		--profile --format csv -i "$Z" &&
	check_profile_usage 2 "--profile cannot be combined with a listing option" \
		--profile --stat -i "$Z" &&
	check_profile_usage 2 "--profile reads one file, not 2" --profile "$Z" "$Z"
'

test_expect_success 'a -H event or field the file does not have fails naming it' '
	check_profile_usage 1 "-H '\''nosuch,pid/sched_wakeup,pid'\'': event '\''nosuch'\'' is not in the file" \
		--profile -H nosuch,pid/sched_wakeup,pid -i "$Z" &&
	check_profile_usage 1 "-H '\''sched_waking,nofield/sched_wakeup,pid'\'': event '\''sched_waking'\'' has no field '\''nofield'\''" \
		--profile -H sched_waking,nofield/sched_wakeup,pid -i "$Z" &&
	! grep "task:" out
'

test_expect_success 'report --profile of a damaged file fails naming the offset' '
	head -c 3000 "$Z" >cut.dat &&
	test_expect_code 1 "$TRACE_CMD" report --profile -i cut.dat >out 2>err &&
	grep "^trace-cmd report: .cut.dat.: " err
'

test_done
