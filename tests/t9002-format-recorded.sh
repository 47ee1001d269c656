#!/bin/bash
# report --format and convert --to chrome-json on files recorded here and
# now: scheduler and system-call events of a small workload on every CPU.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"

test_lock_tracefs
CHECK="python3 $HELPERS/check-format.py"

test_expect_success TRACEFS 'record a small trace (tracefs left as found)' '
	tracefs_state >before &&
	"$TRACE_CMD" record -e sched -e syscalls:sys_enter_write -o rec.dat \
		sh -c "for i in 1 2 3 4 5; do echo \$i >/dev/null; sleep 0.01; done" \
		>record.out 2>&1 &&
	tracefs_state >after &&
	test_cmp before after &&
	"$TRACE_CMD" report rec.dat >text && grep -q "sched_switch:" text
'

test_expect_success TRACEFS,PYTHON 'jsonl: every record parses and agrees with report -R' '
	"$TRACE_CMD" report --format jsonl rec.dat >out.jsonl &&
	$CHECK jsonl out.jsonl &&
	"$TRACE_CMD" report -R rec.dat >out.raw &&
	$CHECK raw out.jsonl out.raw &&
	grep -q "\"event\":\"sched_switch\"" out.jsonl
'

test_expect_success TRACEFS,PYTHON 'csv round-trips through the csv module' '
	"$TRACE_CMD" report --format csv rec.dat >out.csv &&
	$CHECK csv out.csv out.jsonl
'

test_expect_success TRACEFS,PYTHON '--cpu and -F choose the same records as text' '
	"$TRACE_CMD" report -F sched_switch rec.dat | grep -c "sched_switch:" >n.text &&
	"$TRACE_CMD" report --format jsonl -F sched_switch rec.dat | grep -c . >n.jsonl &&
	test_cmp n.text n.jsonl &&
	"$TRACE_CMD" report --format jsonl --cpu 0 rec.dat >cpu0 &&
	! grep -v "\"cpu\":0," cpu0
'

test_expect_success TRACEFS,PYTHON 'chrome-json follows the rules, with a slice per switch' '
	"$TRACE_CMD" convert --to chrome-json -i rec.dat -o out.json &&
	$CHECK chrome out.json >sum &&
	grep -q "B=" sum &&
	python3 -c "import json
ev = json.load(open(\"out.json\"))[\"traceEvents\"]
x = [e for e in ev if e[\"ph\"] == \"B\" and e[\"cat\"] == \"sched\"]
sw = sum(1 for l in open(\"out.jsonl\") if \"\\\"event\\\":\\\"sched_switch\\\"\" in l)
assert sw <= len(x) <= sw + 64, (sw, len(x))
wr = sum(1 for l in open(\"out.jsonl\") if \"\\\"event\\\":\\\"sys_enter_write\\\"\" in l)
assert wr == sum(1 for e in ev if e[\"ph\"] == \"I\" and e[\"name\"] == \"sys_enter_write\"), wr"
'

test_expect_success TRACEFS,PYTHON 'the examples of trace-cmd-convert(1) work as shown' '
	tracefs_state >before &&
	"$TRACE_CMD" record -e sched -o sched.dat sleep 1 >record.out 2>&1 &&
	tracefs_state >after && test_cmp before after &&
	"$TRACE_CMD" convert --to chrome-json -i sched.dat -o sched.json &&
	$CHECK chrome sched.json &&
	"$TRACE_CMD" convert --to chrome-json -i sched.dat -o - | python3 -m json.tool >/dev/null
'

test_done
