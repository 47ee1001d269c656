#!/bin/bash
# The fuzz targets over their committed corpora, with a fixed seed and run
# count (deterministic: a crash here is a crash every time, and the line
# "reproducer: fuzz/artifacts/..." names the input), and every input the
# fuzzers once crashed on, kept in tests/fixtures/fuzz as a regression case.
. "$(dirname "$0")/test-lib.sh"

FUZZ=$SRC_DIR/fuzz
REGRESS=$FIXTURES/fuzz
[ -x "$FUZZ/fuzz-tracedat" ] && [ -x "$FUZZ/fuzz-listen-file" ] && test_set_prereq FUZZ

for t in tracedat page net-v3 net-v1 listen-file; do
	test_expect_success FUZZ "fuzz-$t: its corpus and ${FUZZ_RUNS:-5000} seeded mutations run clean" '
		sh "$FUZZ/run.sh" replay ${FUZZ_RUNS:-5000} '$t' >replay.out 2>&1
		status=$?
		cat replay.out
		[ $status = 0 ] && grep -q "^fuzz-'$t': Done [0-9]* runs" replay.out
	'
done

test_expect_success FUZZ 'every crash the fuzzers found runs clean in its target now' '
	for input in "$REGRESS"/*.input; do
		case ${input##*/} in
		page-*) target=page ;; listen-file-*) target=listen-file ;; tracedat-*) target=tracedat ;;
		esac
		LSAN_OPTIONS=suppressions=$FUZZ/lsan.supp:print_suppressions=0 \
		"$FUZZ/fuzz-$target" -close_fd_mask=3 "$input" >out 2>&1 ||
			{ echo "fuzz-$target crashes on $input"; cat out; exit 1; }
	done
'

# Each found crash, as the file report is given: one line, the right exit.
# report_is FILE EXIT 'STDERR': exit status and the whole of stderr.
report_is() {
	cp "$REGRESS/$1" "$1" &&
	timeout 20 "$TRACE_CMD" report -i "$1" >out 2>err
	code=$?
	echo "$3" >want.err
	[ $code = "$2" ] || { echo "exit $code, want $2"; cat err; return 1; }
	test_cmp want.err err
}

test_expect_success 'a print record shorter than its buf[] offset is an error, not SIGBUS' '
	report_is page-print-short.dat 1 \
	"trace-cmd report: warning: '\''page-print-short.dat'\'': 8192 bytes of pages at offset 16384 are in no CPU'\''s data: ignored
trace-cmd report: '\''page-print-short.dat'\'': bad data at offset 4112: CPU 0: print record ends before its last field (at 16)"
'

test_expect_success 'an event length that wraps back in its page is an error, not an endless loop' '
	report_is page-event-loops-back.dat 1 \
	"trace-cmd report: '\''page-event-loops-back.dat'\'': bad data at offset 4264: CPU 0: the next event at page offset 116 lies before it"
'

test_expect_success 'a printk format line too short for libtraceevent is dropped with a warning' '
	report_is listen-file-printk-short.dat 0 \
	"trace-cmd report: warning: '\''listen-file-printk-short.dat'\'': ignoring 1 malformed printk format line
trace-cmd report: warning: '\''listen-file-printk-short.dat'\'': buffer '\''foo'\'' CPU 0: 94 bytes after its 0 chunks are not a chunk: ignored" &&
	grep -q "tracing_mark_write: top buffer" out
'

test_expect_success 'an event format printing an undefined field is ignored with a warning' '
	report_is tracedat-undefined-print-field.dat 0 \
	"trace-cmd report: warning: '\''tracedat-undefined-print-field.dat'\'': event format 0 of system '\''sched'\'' prints field '\''prev_state'\'' it does not define: ignored"
'

test_expect_success 'a last printk line without its newline is read inside its buffer' '
	cp "$REGRESS/tracedat-printk-no-newline.dat" . &&
	timeout 20 "$TRACE_CMD" report -i tracedat-printk-no-newline.dat >out 2>err
	code=$?
	q=\'\'' &&
	# (Format 1 is ignored with a warning when a record needs it; none reaches it.)
	cat >want.err <<-EOT &&
	trace-cmd report: ${q}tracedat-printk-no-newline.dat${q}: bad data at offset 12288: CPU 1: page data size 85065993 is larger than the page
	EOT
	[ $code = 1 ] && test_cmp want.err err
'

test_expect_success 'a field line without its ; hides the fields after it: the format is ignored' '
	cp "$REGRESS/tracedat-broken-field-line.dat" . &&
	# report parses a format when a record needs it; --check-events parses them all.
	timeout 20 "$TRACE_CMD" report --check-events -i tracedat-broken-field-line.dat >out 2>err
	code=$?
	q=\'\'' &&
	cat >want.err <<-EOT &&
	trace-cmd report: warning: ${q}tracedat-broken-field-line.dat${q}: event format 1 of system ${q}sched${q} prints field ${q}prev_pid${q} it does not define: ignored
	trace-cmd report: ${q}tracedat-broken-field-line.dat${q}: bad event format 2 of system ${q}sched${q}: failed to allocate memory
	EOT
	[ $code = 1 ] && test_cmp want.err err
'

test_expect_success 'a function graph depth of a billion is drawn at the deepest real indent, not 2 GB of blanks' '
	report_is tracedat-graph-depth-huge.dat 1 \
	"trace-cmd report: '\''tracedat-graph-depth-huge.dat'\'': bad data at offset 4184: CPU 0: event (18446744073709551612 bytes) runs past its page" &&
	grep -q "|  }$" out &&
	line=$(grep "vfs_write() {$" out) &&
	# 512 levels of two columns after the timestamp and the duration column.
	[ ${#line} -lt 1200 ] &&
	timeout 20 "$TRACE_CMD" report -O fgraph:depth -i tracedat-graph-depth-huge.dat 2>/dev/null |
		grep -q "vfs_write() { (1110573056)$"
'

test_expect_success 'event formats with bytes that are not text are ignored with a warning' '
	cp "$REGRESS/tracedat-non-text-field.dat" . &&
	timeout 20 "$TRACE_CMD" report -i tracedat-non-text-field.dat >out 2>err
	code=$?
	q=\'\'' &&
	cat >want.err <<-EOT &&
	trace-cmd report: warning: ${q}tracedat-non-text-field.dat${q}: event format 0 of system ${q}ftrace${q} has the byte 0x88 in its fields: ignored
	trace-cmd report: warning: ${q}tracedat-non-text-field.dat${q}: event format 1 of system ${q}sched${q} has the byte 0xcb in its fields: ignored
	EOT
	[ $code = 0 ] && test_cmp want.err err
'

test_done
