#!/bin/bash
# report's compiled event printer (trace-print.c) against libtraceevent's own
# (TRACE_CMD_SLOW_PRINT=1): whole outputs, stderr and exit codes equal on
# every fixture, fuzz regression, fuzz corpus and ../shared/corpus file.
# (t1108: the same on a fresh -e all recording; this part needs no tracefs,
# so it runs beside the tracefs scripts, not in their lane.)
# plain-build: it compares outputs, a thousand reports; the sanitizers see the compiled printer in t1108 (a fresh -e all recording) and in t7000 (the fuzz target runs report over this fuzz corpus)
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

all_same_both_ways() { all_files same_both_ways "$@"; }

test_expect_success 'every fixture prints the same through both printers' '
	all_same_both_ways -- "$FIXTURES"/*.dat "$FIXTURES"/fuzz/*.dat
'

test_expect_success 'every fixture with -t, -l and --ts-diff too' '
	all_same_both_ways -t -l --ts-diff -- "$FIXTURES"/*.dat
'

test_expect_success 'every fuzz corpus file (damaged ones included)' '
	all_same_both_ways -- "$SRC_DIR"/fuzz/corpus/tracedat/*
'

test_expect_success CORPUS 'every ../shared/corpus file' '
	all_same_both_ways -- "$CORPUS"/*.dat &&
	all_same_both_ways -t -- "$CORPUS"/*.dat
'

# left.dat: numbers printed left-justified ("%-6d|"), as libtraceevent's
# printf pads them: after the digits, to the width.
test_expect_success PYTHON 'left-justified numbers are padded to their width, as printf pads them' '
	python3 - "$HELPERS" <<-\EOF &&
	import json, sys
	sys.path.insert(0, sys.argv[1])
	import mkdat_scenarios as m
	fmt = m.SOFTIRQ_ENTRY.split("print fmt:")[0] + \
		"print fmt: \"vec=%-6d|%-4u|%-8x|%-3d|\", REC->vec, REC->vec, REC->vec, REC->vec\n"
	spec = m.custom()
	spec["records"] = [{"cpu": 0, "ts": m.T0 + 1000 * i, "event": "softirq_entry", "pid": 0,
			    "fields": {"vec": v}} for i, v in enumerate([7, 42, 123456, 4294967295])]
	spec["formats"] = {"irq": [fmt]}
	json.dump(spec, open("left.json", "w"))
	EOF
	python3 "$HELPERS/mkdat.py" left.json left.dat &&
	"$TRACE_CMD" report left.dat >out &&
	grep -q "vec=7     |7   |7       |7  |$" out &&
	grep -q "vec=-1    |4294967295|ffffffff|-1 |$" out &&
	same_both_ways left.dat
'

# same_ahead FILE...: report with v7 chunks decompressed ahead in a second
# thread (the default) and on the reader's thread alone: same bytes, same errors.
same_ahead() {
	for f in "$@"; do
		TRACE_CMD_NO_AHEAD=1 timeout 60 "$TRACE_CMD" report "$f" >sync.out 2>sync.err
		echo "exit $?" >>sync.err
		timeout 60 "$TRACE_CMD" report "$f" >ahead.out 2>ahead.err
		echo "exit $?" >>ahead.err
		cmp -s sync.out ahead.out && cmp -s sync.err ahead.err ||
			{ echo "differs: $f"; diff sync.err ahead.err | head -5; return 1; }
	done
}

# The files of version 7 (byte 10 of the header): only they have chunks.
v7_only() { for f in "$@"; do [ "$(head -c 11 "$f" | tail -c 1)" = 7 ] && echo "$f"; done; }

test_expect_success 'decompressing ahead changes nothing: fixtures, fuzz files, corpus' '
	same_ahead $(v7_only "$FIXTURES"/*.dat "$FIXTURES"/fuzz/*.dat "$SRC_DIR"/fuzz/corpus/tracedat/* \
		$(ls "$CORPUS"/*.dat 2>/dev/null)) &&
	test "$(v7_only "$SRC_DIR"/fuzz/corpus/tracedat/* | wc -l)" -gt 100
'

test_expect_success 'a difference between the printers would be seen' '
	printf "#!/bin/sh\nif [ -n \"\$TRACE_CMD_SLOW_PRINT\" ]; then exec %s \"\$@\" -t; fi\nexec %s \"\$@\"\n" \
		"$TRACE_CMD" "$TRACE_CMD" >skewed && chmod +x skewed &&
	! TRACE_CMD=./skewed same_both_ways "$FIXTURES"/synth-instances-v6.dat 2>/dev/null
'

test_done
