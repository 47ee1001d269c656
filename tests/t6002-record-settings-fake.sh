#!/bin/bash
# record's tracefs settings (-C, -O, -M, -T, --cmdlines-size, -P, -F, -c, -q)
# against a fake tracing directory: each file as the command sees it while
# recording, then as the kernel form of the old value written back.
. "$(dirname "$0")/test-lib.sh"

rm -rf fake-orig && cp -r "$FIXTURES/fake-tracing" fake-orig &&
echo "function nop" >fake-orig/available_tracers &&
echo "schedule" >fake-orig/available_filter_functions &&
mkdir -p fake-orig/options &&
echo 1 >fake-orig/options/function-trace &&
for o in stacktrace event-fork function-fork sym-addr; do echo 0 >fake-orig/options/$o; done &&
echo 1 >fake-orig/options/overwrite &&
echo "[local] global counter" >fake-orig/trace_clock &&
echo ff >fake-orig/tracing_cpumask && echo 128 >fake-orig/saved_cmdlines_size &&
: >fake-orig/set_event_pid && : >fake-orig/set_ftrace_pid || exit 1


# record "$@", the command printing the files in $SHOW (NAME: content).
show_during() {
	fresh_fake &&
	"$TRACE_CMD" record "$@" -o t.dat sh -c 'cd fake && for f in $SHOW; do
		echo "$f: $(paste -sd" " $f)"; done' >during 2>err
}

# The files record changed hold the old values again, in the kernel's form.
restored() {
	if [ "$1" = clock ]; then
		echo local >expect && test_cmp expect fake/trace_clock &&
		cp fake-orig/trace_clock fake/
	fi &&
	for f in set_event_pid set_ftrace_pid; do
		test "$(cat fake/$f)" = "" || { echo "$f not cleared"; exit 1; }
		cp fake-orig/$f fake/$f
	done &&
	diff -r fake-orig fake
}

test_expect_success '-C, -M, -T, --cmdlines-size and -O write their files' '
	SHOW="trace_clock tracing_cpumask options/stacktrace saved_cmdlines_size options/sym-addr options/overwrite" \
		show_during -e sched -C global -M 3 -T --cmdlines-size 1024 -O sym-addr -O nooverwrite &&
	cat >expect <<-\EOF &&
	trace_clock: global
	tracing_cpumask: 3
	options/stacktrace: 1
	saved_cmdlines_size: 1024
	options/sym-addr: 1
	options/overwrite: 0
	EOF
	test_cmp expect during && restored clock
'

# A buffer never used since boot reads "7 (expanded: 1408)"; after -b it must
# be at 1408, the size it really has, not 7 KB: record expands it first
# (top file written, as any trace expands it for good), and a per-CPU file
# in that form is put back as its expanded size.
test_expect_success '-b on a never-used buffer: each CPU sized, then back at its expanded size' '
	fresh_fake &&
	for f in buffer_size_kb per_cpu/cpu0/buffer_size_kb per_cpu/cpu1/buffer_size_kb; do
		echo "7 (expanded: 1408)" >fake/$f; done &&
	"$TRACE_CMD" record -b 500 -e sched -o t.dat \
		sh -c "awk 1 fake/per_cpu/cpu*/buffer_size_kb" >during 2>err &&
	printf "%s\n" 500 500 >expect && test_cmp expect during &&
	printf "%s\n" 1408 1408 1408 >expect &&
	awk 1 fake/buffer_size_kb fake/per_cpu/cpu*/buffer_size_kb >after && test_cmp expect after
'

test_expect_success '-P writes every pid to set_event_pid, and set_ftrace_pid for -p function' '
	SHOW="set_event_pid set_ftrace_pid" show_during -e sched -P 12 -P 345 &&
	printf "%s\n" "set_event_pid: 12 345" "set_ftrace_pid: " >expect && test_cmp expect during &&
	restored &&
	SHOW="set_event_pid set_ftrace_pid options/event-fork options/function-fork" \
		show_during -p function -P 7 -c &&
	printf "%s\n" "set_event_pid: 7" "set_ftrace_pid: 7" "options/event-fork: 1" \
		"options/function-fork: 1" >expect && test_cmp expect during && restored
'

test_expect_success '-F: the command itself writes its pid before it runs' '
	fresh_fake &&
	"$TRACE_CMD" record -F -e sched -o t.dat sh -c "echo \$\$; cat fake/set_event_pid; echo" \
		>during 2>/dev/null &&
	pid=$(head -1 during) && test "$(sed -n 2p during)" = "$pid" && restored
'

test_expect_success '-q leaves the statistics out' '
	fresh_fake &&
	"$TRACE_CMD" record -q -e sched -o t.dat true 2>err &&
	test ! -s err && test -s t.dat
'

test_expect_success '-d turns function-trace off while recording, then back on' '
	SHOW=options/function-trace show_during -d -e sched &&
	echo "options/function-trace: 0" >expect && test_cmp expect during &&
	diff -r fake-orig fake
'

test_expect_success '--user runs the command as that user, tracing set up as root' '
	fresh_fake &&
	"$TRACE_CMD" record -q --user nobody -e sched -o t.dat \
		id -u >during 2>err &&
	id -u nobody >expect && test_cmp expect during &&
	diff -r fake-orig fake && test -s t.dat
'

# The output is written under a new name beside it, renamed when complete.
test_expect_success '--temp puts the per-CPU files in DIR, removed afterwards' '
	fresh_fake && mkdir -p tmpdir out &&
	"$TRACE_CMD" record -q --temp tmpdir -e sched -o out/t.dat ls tmpdir out >during 2>err &&
	printf "%s\n" "out:" "t.dat.tmp-PID-0" "" "tmpdir:" "t.dat.cpu0" "t.dat.cpu1" >expect &&
	sed "s/^t\.dat\.tmp-[0-9]*-0$/t.dat.tmp-PID-0/" during >during.cmp &&
	test_cmp expect during.cmp && test "$(ls out)" = t.dat && test -z "$(ls tmpdir)" && test -s out/t.dat &&
	test_expect_code 1 "$TRACE_CMD" record -q --temp nodir -e sched -o x.dat true 2>err &&
	echo "trace-cmd record: cannot create '"'"'nodir/x.dat.cpu0'"'"': No such file or directory" >expect &&
	test_cmp expect err && diff -r fake-orig fake && test ! -e x.dat
'

test_expect_success '-i: an -e matching nothing is a warning, its -f skipped, the rest recorded' '
	fresh_fake &&
	"$TRACE_CMD" record -q -i -e "nosuch*" -f "x == 1" -e sched_switch -o t.dat \
		cat fake/events/sched/sched_switch/enable >during 2>err &&
	test "$(cat during)" = 1 &&
	echo "trace-cmd record: warning: no event matches '"'"'nosuch*'"'"': ignored (-i)" >expect &&
	test_cmp expect err && diff -r fake-orig fake && test -s t.dat
'

test_expect_success '-k leaves the settings after a complete recording' '
	fresh_fake &&
	"$TRACE_CMD" record -q -k -e sched_switch -O sym-addr -o t.dat true 2>err &&
	echo "trace-cmd record: warning: tracefs settings kept (-k): '"'"'trace-cmd reset'"'"' undoes them" >expect &&
	test_cmp expect err &&
	test "$(cat fake/events/sched/sched_switch/enable)" = 1 &&
	test "$(cat fake/options/sym-addr)" = 1 &&
	test "$(cat fake/tracing_on)" = 0
'

test_expect_success '-k with a failed recording still puts everything back' '
	fresh_fake && rm fake/options/sym-addr && mkdir fake/options/sym-addr &&
	test_expect_code 1 "$TRACE_CMD" record -q -k -e sched_switch -O nooverwrite -O sym-addr \
		-o k.dat true 2>err &&
	grep -q "sym-addr" err && rmdir fake/options/sym-addr &&
	cp fake-orig/options/sym-addr fake/options/ && diff -r fake-orig fake && test ! -e k.dat
'

test_expect_success '-v takes the events of the -e after it out' '
	fresh_fake &&
	"$TRACE_CMD" record -q -e sched -v -e sched_switch -e irq -v -e "*_exit" -o t.dat \
		sh -c "cd fake/events && grep -l ^1 */*/enable" >during 2>err &&
	printf "%s/enable\n" irq/irq_handler_entry sched/sched_wakeup sched/sched_waking >expect &&
	test_cmp expect during && diff -r fake-orig fake &&
	"$TRACE_CMD" report -i t.dat --events >events && ! grep -q sched_switch events
'

# The first event's timestamp, in whole seconds, of a report.
first_secs() {
	sed '0,/^cpus=/d' "$1" | awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		split($i, t, "."); print t[1]; exit } }'
}

test_expect_success '--date: the DATE option moves the timestamps to the wall clock' '
	fresh_fake &&
	"$TRACE_CMD" record -q --date -e sched -o date.dat true &&
	"$TRACE_CMD" record -q -e sched -o nodate.dat true &&
	"$HELPERS/dump-header" date.dat | grep -q "^option 1 size" &&
	! "$HELPERS/dump-header" nodate.dat | grep -q "^option 1 size" &&
	"$TRACE_CMD" report -i date.dat >date.txt && "$TRACE_CMD" report -i nodate.dat >nodate.txt &&
	boot=$(( $(date +%s) - $(cut -d. -f1 /proc/uptime) )) &&
	shift=$(( $(first_secs date.txt) - $(first_secs nodate.txt) )) &&
	test $((shift - boot)) -le 2 && test $((boot - shift)) -le 2
'

test_expect_success UPSTREAM "--date: upstream's report shows the same dates" '
	"$UPSTREAM" report -i date.dat >theirs 2>/dev/null &&
	test "$(first_secs theirs)" = "$(first_secs date.txt)"
'

check_fail() {
	code=$1 msg=$2; shift 2
	fresh_fake &&
	test_expect_code $code "$TRACE_CMD" record "$@" 2>err &&
	head -1 err >first && echo "trace-cmd record: $msg" >expect && test_cmp expect first &&
	diff -r fake-orig fake
}

test_expect_success 'bad values are named before tracefs is touched' '
	check_fail 1 "clock '"'"'boot'"'"' is not available (available: [local] global counter)" \
		-e sched -C boot -o x.dat true &&
	check_fail 1 "no trace option '"'"'nosuch'"'"' (see the options directory)" \
		-e sched -O nosuch -o x.dat true &&
	check_fail 1 "no trace option '"'"'nonosuch'"'"' (see the options directory)" \
		-e sched -O nonosuch -o x.dat true &&
	check_fail 2 "invalid -M value '"'"'xyz'"'"': not a hex CPU mask" -e sched -M xyz true &&
	check_fail 2 "invalid -P value '"'"'abc'"'"': not a number" -e sched -P abc true &&
	check_fail 2 "invalid --cmdlines-size value '"'"'0'"'"': out of range (1 to 1048576)" \
		-e sched --cmdlines-size 0 true &&
	check_fail 2 "-c needs -F or -P" -e sched -c true &&
	check_fail 2 "-F needs a COMMAND to trace" -e sched -F &&
	check_fail 2 "no user '"'"'nosuchuser'"'"'" -e sched --user nosuchuser true &&
	check_fail 2 "--user needs a COMMAND to run" -e sched --user nobody &&
	check_fail 2 "-v must come before an -e" -e sched -v true &&
	test ! -e x.dat
'

test_done
