#!/bin/bash
# extract's options from 3.4: -p TRACER (a latency tracer's text), -O OPTION
# (set while extracting, then restored), --date and --verbose, on copies of
# the fake tracing directory.
. "$(dirname "$0")/test-lib.sh"

FAKE=$FIXTURES/fake-tracing

# A fake with tracers, one trace option, and an irqsoff report in 'trace'.
fresh_latency_fake() {
	rm -rf fake && cp -r "$FAKE" fake &&
	echo "irqsoff wakeup function nop" >fake/available_tracers &&
	mkdir fake/options && echo 1 >fake/options/print-parent &&
	printf "# tracer: irqsoff\n#\n# irqsoff latency trace v1.1.5 on 6.1.0\n#  => started at: _raw_spin_lock_irq\n" >fake/trace &&
	export TRACE_CMD_TRACING_DIR=$PWD/fake
}

test_expect_success 'bad -p, -O and --verbose values' '
	fresh_latency_fake &&
	check_usage 2 "trace-cmd extract: invalid -p value '"'"''"'"': not a tracer name" extract -p "" &&
	check_usage 2 "trace-cmd extract: invalid -O value '"'"'a/b'"'"': not a trace option name" extract -O a/b &&
	check_usage 2 "trace-cmd extract: only one -p TRACER" extract -p irqsoff -p wakeup &&
	check_usage 2 "trace-cmd extract: invalid --verbose value '"'"'loud'"'"': use none, crit, err, warn, info, debug, all or 0 to 6" extract --verbose=loud &&
	check_usage 1 "trace-cmd extract: tracer '"'"'nosuch'"'"' is not available (available: irqsoff wakeup function nop)" extract -p nosuch -o x.dat &&
	check_usage 1 "trace-cmd extract: no trace option '"'"'nosuch'"'"' (see the options directory)" extract -O nosuch -o x.dat &&
	! test -e x.dat
'

# A latency text of 4000 lines (200 KB: several chunks when compressed).
big_latency_text() {
	{
		printf "# tracer: irqsoff\n#\n# irqsoff latency trace v1.1.5 on 6.1.0\n"
		seq 4000 | sed "s/.*/  <idle>-0       0d.h2 &us : do_thing <-caller_&/"
	} >fake/trace
}

# The file's version (the byte after "\027\010\104tracing"), then the text
# report prints after its header line.
latency_text() {
	test "$(head -c 11 "$1" | tail -c 1)" = "$2" &&
	"$TRACE_CMD" report -i "$1" >report &&
	sed -n "1p" report >head &&
	echo "cpus=2" >want && test_cmp want head &&
	sed -n "2,\$p" report | head -n $(wc -l <fake/trace) >text &&
	test_cmp fake/trace text
}

test_expect_success '-p irqsoff: a latency file holding the text of trace, v7 and v6' '
	fresh_latency_fake &&
	"$TRACE_CMD" extract -p irqsoff -o lat.dat &&
	test "$(head -c 10 lat.dat | tail -c 7)" = tracing &&
	latency_text lat.dat 7 &&
	big_latency_text &&
	for opt in "" "--compression none" "--compression zlib" "--file-version 6"; do
		"$TRACE_CMD" extract -p irqsoff $opt -o "big$opt.dat" &&
		latency_text "big$opt.dat" $(test "$opt" = "--file-version 6" && echo 6 || echo 7) ||
		{ echo "with '"'"'$opt'"'"'"; exit 1; }
	done
'

test_expect_success UPSTREAM34 '-p irqsoff: 3.4 reads the latency files' '
	"$UPSTREAM34" report -i lat.dat >up 2>&1 &&
	grep -q "irqsoff latency trace v1.1.5 on 6.1.0" up &&
	for opt in "" "--compression none" "--compression zlib" "--file-version 6"; do
		"$UPSTREAM34" report -i "big$opt.dat" >up 2>&1 &&
		test $(grep -c "do_thing <-caller_" up) = 4000 &&
		grep -q "3999us : do_thing <-caller_3999$" up ||
		{ echo "with '"'"'$opt'"'"'"; cat up | head; exit 1; }
	done
'

test_expect_success '-p with a tracer that is not a latency tracer: a warning, the buffers extracted' '
	fresh_latency_fake &&
	"$TRACE_CMD" extract -o plain.dat &&
	fresh_latency_fake &&
	"$TRACE_CMD" extract -p function -o func.dat 2>err &&
	test "$(cat err)" = "trace-cmd extract: warning: -p function: not a latency tracer: the ring buffers are extracted as without -p" &&
	"$TRACE_CMD" report -i plain.dat >plain.txt &&
	"$TRACE_CMD" report -i func.dat >func.txt &&
	test_cmp plain.txt func.txt
'

test_expect_success '-O noOPTION is set while extracting and put back after' '
	fresh_latency_fake &&
	"$TRACE_CMD" extract --verbose=debug -p irqsoff -O noprint-parent -o lat.dat 2>err &&
	grep "options/print-parent" err >writes &&
	cat >want <<-EOF &&
	trace-cmd extract: debug: writing '"'"'0'"'"' to '"'"'$PWD/fake/options/print-parent'"'"'
	trace-cmd extract: debug: writing '"'"'1'"'"' to '"'"'$PWD/fake/options/print-parent'"'"'
	EOF
	test_cmp want writes &&
	test "$(cat fake/options/print-parent)" = 1
'

test_expect_success '--date: a DATE option, and report shows wall-clock times' '
	fresh_latency_fake &&
	"$TRACE_CMD" extract --date -o date.dat &&
	"$TRACE_CMD" dump --options -i date.dat >dump &&
	grep -q "Option DATE" dump &&
	"$TRACE_CMD" report -i date.dat >date.txt &&
	secs=$(awk "/sched_switch:/ { split(\$4, t, \".\"); print t[1]; exit }" date.txt) &&
	test "$(date -d @$secs +%Y)" = "$(date +%Y)"
'

test_expect_success '--verbose: the bytes each CPU gave' '
	fresh_latency_fake &&
	"$TRACE_CMD" extract --verbose -o v.dat 2>err &&
	grep -qx "trace-cmd extract: cpu 0: 8192 bytes from '"'"'per_cpu/cpu0/trace_pipe_raw'"'"'" err &&
	grep -qx "trace-cmd extract: cpu 1: 4096 bytes from '"'"'per_cpu/cpu1/trace_pipe_raw'"'"'" err
'

test_done
