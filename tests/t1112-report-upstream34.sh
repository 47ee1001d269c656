#!/bin/bash
# report's default lines against upstream 3.4's report (which loads the
# system's libtraceevent plugins, as ours does): every fixture and corpus
# file, and the options both have.  3.3 added the latency column after the
# CPU; --line-3.1 (compared with 3.1.6 in t1100-t1106) drops it again.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

fixture upstream-v6-sched.dat
fixture upstream-v7-none-sched.dat
fixture upstream-v7-zstd-sched.dat
F=upstream-v6-sched.dat
Z=upstream-v7-zstd-sched.dat
G=$FIXTURES/synth-funcgraph-v6.dat
I=$FIXTURES/synth-instances-v6.dat

# 3.4 carries libtraceevent 1.9, whose parser takes the print formats the
# synth-failed fixtures make 1.7 (the system's, ours and 3.1.6's) fail on;
# -R's raw function fields gain their address, " (0xffffffff81003000)".
# Neither is trace-cmd's doing: those lines are compared without them.
no_lib19() {
	sed -e 's/ (0x[0-9a-f]*)//g' -e '/FAILED TO PARSE/d' "$@"
}

# same34 FILE [ARGS]: our report equals 3.4's, but for libtraceevent's part.
same34() {
	file=$1; shift
	"$TRACE_CMD" report "$@" -i "$file" >ours.out 2>ours.err &&
	"$UPSTREAM34" report "$@" -i "$file" >up.out 2>/dev/null &&
	events_of ours.out | no_lib19 >ours.events &&
	events_of up.out | no_lib19 >up.events &&
	test -s up.events &&
	test_cmp up.events ours.events
}

for f in "$FIXTURES"/*.dat upstream-v6-sched.dat upstream-v7-none-sched.dat; do
	case $f in
	*synth-failed*|*latency-clock*) continue ;;
	esac
	test_expect_success UPSTREAM34 "$(basename "$f"): event lines equal 3.4's" '
		same_as_upstream34 "'"$f"'"
	'
done

# Each line up to its event's name (the rest is libtraceevent's text).
test_expect_success UPSTREAM34 'synth-failed: 3.4 parses the formats (libtraceevent 1.9), the prefixes are equal' '
	for f in "$FIXTURES"/synth-failed-*.dat; do
		"$TRACE_CMD" report -i "$f" >ours.out &&
		"$UPSTREAM34" report -i "$f" >up.out 2>/dev/null &&
		events_of ours.out | sed "s/\(: [a-z_]*: *\).*/\1/" >ours.events &&
		events_of up.out | sed "s/\(: [a-z_]*: *\).*/\1/" >up.events &&
		test_cmp up.events ours.events &&
		grep -q "FAILED TO PARSE" ours.out || exit 1
	done
'

# Like 3.1.6, 3.4 eats 8 bytes of v6 latency text after a TRACECLOCK
# option (t3100): the events after it are compared.
test_expect_success UPSTREAM34 'synth-latency-clock: 3.4 eats the start of the latency text (its bug)' '
	f=$FIXTURES/synth-latency-clock-v6.dat &&
	"$TRACE_CMD" report -i "$f" >ours.out &&
	"$UPSTREAM34" report -i "$f" >up.out 2>/dev/null &&
	events_of ours.out >ours.events && events_of up.out >up.events &&
	sed "1s/^# tracer//" ours.events >want &&
	test_cmp want up.events
'

for f in arm32-v6-sched-load arm64-v6-rtapp-bprint i686-v6-ext4 x86_64-v6-2014-i915 \
	 x86_64-v7-zstd-stacktrace x86_64-v7-zlib-x86tsc-kvm; do
	test_expect_success CORPUS,UPSTREAM34 "$f: event lines equal 3.4's" '
		same_as_upstream34 "$CORPUS/'$f'.dat"
	'
done

test_expect_success CORPUS,UPSTREAM34 'a raw counter clock: no space between the flags and the count' '
	"$TRACE_CMD" report "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat" >out &&
	events_of out | head -n 1 | grep -q "^ qemu-system-x86-533825 \[005\] \.\.\.\.\.303280081900681: kvm_halt_poll_ns: "
'

# The options t1106 compares with 3.1.6, here with 3.4 (whose default line
# they all print; -l and -R replace its latency column as 3.4 does).
while read file args; do
	test_expect_success UPSTREAM34 "report $args of $(basename $file) equals 3.4's" '
		same_output_as_upstream34 '"$file $args"'
	'
done <<TABLE
$(report_shared_option_cases)
$I -t
$I -l
$FIXTURES/synth-dropped-v6.dat --ts-diff
$FIXTURES/synth-latency-v6.dat -t
TABLE

for args in "-R" "-l -R" "-R -t"; do
	for file in $F $Z "$G" "$I"; do
		test_expect_success UPSTREAM34 "report $args of $(basename $file): the flags' value after the CPU, as 3.4" '
			same34 '"$file $args"'
		'
	done
done

test_expect_success UPSTREAM34 'several -i files: event lines equal 3.4'"'"'s' '
	for pair in "$F $FIXTURES/synth-sched-v6.dat" "$FIXTURES/synth-sched-v6.dat $I" \
		    "$FIXTURES/synth-sched-v6.dat $FIXTURES/synth-sched-be32-v7-zstd.dat" \
		    "$FIXTURES/synth-sched-v6.dat $FIXTURES/synth-dropped-v6.dat"; do
		set -- $pair
		"$TRACE_CMD" report -i $1 -i $2 >ours &&
		"$UPSTREAM34" report -i $1 -i $2 >up 2>/dev/null &&
		grep -v -e ": cpus=" ours >a &&
		grep -v -e ": cpus=" up >b &&
		test_cmp b a || exit 1
	done
'

# 3.4's -T prints the filters, then again, then every event: its usage says
# "print out the filter strings created and exit".  We print them once and
# exit, as 3.1.6 did.
test_expect_success UPSTREAM34 '-T prints the filters once and exits (3.4 goes on: its bug)' '
	"$TRACE_CMD" report -T -F sched_switch:prev_pid==0 -F sched_wakeup $F >out &&
	printf " %s\n" "'"'"'sched_switch: prev_pid == 0'"'"'" "'"'"'sched_wakeup: TRUE'"'"'" >expect &&
	test_cmp expect out &&
	"$UPSTREAM34" report -T -F sched_switch:prev_pid==0 -F sched_wakeup -i $F >up 2>/dev/null &&
	test $(grep -c "sched_wakeup: TRUE" up) = 2 &&
	grep -q "^cpus=" up
'

test_expect_success '--format text lines are the default lines' '
	"$TRACE_CMD" report --format jsonl $F >j &&
	"$TRACE_CMD" report $F >t &&
	events_of t | head -n 3 >want &&
	head -n 3 j | sed "s/.*\"text\":\"\(.*\)\"}$/\1/" >got &&
	test_cmp want got
'

test_done
