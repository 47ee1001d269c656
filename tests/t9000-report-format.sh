#!/bin/bash
# report --format jsonl|csv: every record parses, its fields agree with
# report -R of the same events, the csv reads back through Python's csv
# module, lost events are records of their own, and the options that choose
# events (--cpu, -F, -v, several -i) choose the same records as for text.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

CHECK="python3 $HELPERS/check-format.py"

# formats FILE [ARGS]: jsonl, csv and -R of FILE, each checked.
formats_ok() {
	f=$1; shift
	"$TRACE_CMD" report --format jsonl "$@" "$f" >out.jsonl &&
	$CHECK jsonl out.jsonl &&
	"$TRACE_CMD" report -R "$@" "$f" >out.raw &&
	$CHECK raw out.jsonl out.raw &&
	"$TRACE_CMD" report --format csv "$@" "$f" >out.csv &&
	$CHECK csv out.csv out.jsonl
}

test_expect_success 'an unknown --format is a usage error' '
	test_expect_code 2 "$TRACE_CMD" report --format xml "$FIXTURES/synth-sched-v6.dat" 2>err &&
	test "$(head -n 1 err)" = "trace-cmd report: invalid --format value '"'"'xml'"'"': not text, jsonl or csv"
'

test_expect_success '--format with a listing option is a usage error' '
	test_expect_code 2 "$TRACE_CMD" report --format jsonl --stat "$FIXTURES/synth-sched-v6.dat" 2>err &&
	grep -q "^trace-cmd report: --format cannot be combined with a listing option$" err
'

test_expect_success '--format text prints what report prints' '
	"$TRACE_CMD" report "$FIXTURES/synth-sched-v6.dat" >plain &&
	"$TRACE_CMD" report --format text "$FIXTURES/synth-sched-v6.dat" >text &&
	test_cmp plain text
'

test_expect_success PYTHON 'jsonl of the sched fixture: exact first record' '
	"$TRACE_CMD" report --format jsonl "$FIXTURES/synth-sched-v6.dat" >out &&
	head -n 1 out >first &&
	cat >expect <<-\EOF &&
	{"ts":12345678901000,"ts_ns":12345678901000,"clock":"local","cpu":0,"pid":0,"comm":"<idle>","system":"sched","event":"sched_wakeup","flags":1,"fields":{"comm":"bash","pid":1234,"prio":120,"target_cpu":0},"text":"          <idle>-0     [000] d..1. 12345.678901: sched_wakeup:         bash:1234 [120] CPU:000"}
	EOF
	test_cmp expect first
'

test_expect_success PYTHON 'the text of each record is the line report prints' '
	"$TRACE_CMD" report "$FIXTURES/synth-sched-v7-zstd.dat" >plain &&
	events_of plain >expect &&
	"$TRACE_CMD" report --format jsonl "$FIXTURES/synth-sched-v7-zstd.dat" >out &&
	python3 -c "import json,sys
for l in open(\"out\"): print(json.loads(l)[\"text\"])" >got &&
	test_cmp expect got
'

while read scenario version comp; do
	case $scenario in latency*) continue ;; esac
	suffix=
	[ "$comp" = none ] || suffix=-$comp
	f=synth-$scenario-v$version$suffix.dat
	test_expect_success PYTHON "$f: jsonl parses, agrees with -R, csv round-trips" '
		formats_ok "$FIXTURES/'$f'"
	'
done <<EOF
$(grep -v '^#' "$FIXTURES/synth.list")
EOF

test_expect_success PYTHON 'big-endian and 32-bit files: signed and unsigned fields right' '
	for f in synth-sched-be32-v6.dat synth-sched-le32-v6.dat synth-sched-be64-v7.dat; do
		"$TRACE_CMD" report --format jsonl "$FIXTURES/$f" >$f.jsonl &&
		python3 -c "import json
a = [json.loads(l) for l in open(\"$f.jsonl\")]
sw = [r for r in a if r[\"event\"] == \"sched_switch\"]
assert sw and all(r[\"fields\"][\"prev_pid\"] >= 0 and r[\"fields\"][\"next_prio\"] == 120 for r in sw), sw
assert all(isinstance(r[\"fields\"][\"prev_comm\"], str) for r in sw)" || exit 1
	done &&
	"$TRACE_CMD" report --format jsonl "$FIXTURES/synth-sched-v6.dat" >le.jsonl &&
	cut -d, -f2- le.jsonl | sed "s/\"text\":.*//" >le.cut &&
	"$TRACE_CMD" report --format jsonl "$FIXTURES/synth-sched-be64-v6.dat" >be.jsonl &&
	cut -d, -f2- be.jsonl | sed "s/\"text\":.*//" >be.cut &&
	test_cmp le.cut be.cut
'

test_expect_success PYTHON 'lost events are records with the CPU and the count' '
	"$TRACE_CMD" report --format jsonl "$FIXTURES/synth-dropped-v6.dat" >out &&
	$CHECK lost out >lost &&
	"$TRACE_CMD" report "$FIXTURES/synth-dropped-v6.dat" |
		sed -n "s/^CPU:\([0-9]*\) \[\([0-9][0-9]*\) EVENTS DROPPED\]$/\1 \2/p;
			s/^CPU:\([0-9]*\) \[EVENTS DROPPED\]$/\1 unknown/p" >expect &&
	test -s expect &&
	test_cmp expect lost &&
	grep -q "\"event\":\"lost\",\"count\":null}" out &&
	"$TRACE_CMD" report --format csv "$FIXTURES/synth-dropped-v6.dat" >out.csv &&
	$CHECK csv out.csv out
'

test_expect_success PYTHON 'a function graph entry and its exit are two records' '
	"$TRACE_CMD" report --format jsonl "$FIXTURES/synth-funcgraph-v6.dat" >out &&
	test $(grep -c "\"event\":\"funcgraph_" out) = $("$TRACE_CMD" report -R "$FIXTURES/synth-funcgraph-v6.dat" | grep -c " funcgraph_")
'

test_expect_success PYTHON 'several buffers: each record names its buffer' '
	"$TRACE_CMD" report --format jsonl "$FIXTURES/synth-instances-v6.dat" >out &&
	$CHECK jsonl out &&
	python3 -c "import json
b = sorted(set(json.loads(l)[\"buffer\"] for l in open(\"out\")))
print(\" \".join(repr(x) for x in b))" >buffers &&
	test "$(cat buffers)" != "" && grep -q "^'"''"' " buffers &&
	"$TRACE_CMD" report --format csv "$FIXTURES/synth-instances-v6.dat" >out.csv &&
	head -n 1 out.csv | grep -q "^buffer,ts," &&
	$CHECK csv out.csv out
'

test_expect_success PYTHON '--cpu, -F and -v choose the same events as for text' '
	f=$FIXTURES/synth-sched-v6.dat &&
	for args in "--cpu 1" "-F sched_switch" "-v -F sched_switch" "-F sched_wakeup:pid==45"; do
		"$TRACE_CMD" report $args "$f" >text &&
		events_of text >lines &&
		"$TRACE_CMD" report --format jsonl $args "$f" >out &&
		python3 -c "import json
for l in open(\"out\"): print(json.loads(l)[\"text\"])" >got &&
		test_cmp lines got || exit 1
	done &&
	"$TRACE_CMD" report --format jsonl --cpu 1 "$f" >out &&
	test -s out && ! grep -v "\"cpu\":1," out
'

test_expect_success PYTHON 'several -i files: each record names its file, in one timeline' '
	"$TRACE_CMD" report --format jsonl -i "$FIXTURES/synth-sched-v6.dat" \
		-i "$FIXTURES/synth-funcgraph-v6.dat" >out &&
	$CHECK jsonl out &&
	python3 -c "import json
a = [json.loads(l) for l in open(\"out\")]
files = set(r[\"file\"] for r in a)
assert len(files) == 2, files
assert [r[\"ts\"] for r in a] == sorted(r[\"ts\"] for r in a)
print(len(a))" >n &&
	test "$(cat n)" = 28 &&
	"$TRACE_CMD" report --format csv -i "$FIXTURES/synth-sched-v6.dat" \
		-i "$FIXTURES/synth-funcgraph-v6.dat" >out.csv &&
	head -n 1 out.csv | grep -q "^file," &&
	$CHECK csv out.csv out
'

test_expect_success PYTHON 'csv quoting: commas, quotes and line breaks survive' '
	"$TRACE_CMD" report --format csv "$FIXTURES/synth-sched-v6.dat" >out.csv &&
	grep -q "\"{\"\"comm\"\":\"\"bash\"\"," out.csv &&
	python3 -c "import csv
rows = list(csv.reader(open(\"out.csv\", newline=\"\")))
assert rows[0][-2:] == [\"fields\", \"text\"], rows[0]
assert all(len(r) == len(rows[0]) for r in rows)"
'

test_expect_success PYTHON 'a latency tracer file has no records to write: exit 1' '
	test_expect_code 1 "$TRACE_CMD" report --format jsonl "$FIXTURES/synth-latency-v6.dat" >out 2>err &&
	test ! -s out && grep -q "latency tracer" err
'

test_expect_success PYTHON,UPSTREAM 'files upstream recorded: jsonl and csv check out' '
	for f in upstream-v6-sched.dat upstream-v7-none-sched.dat upstream-v7-zstd-sched.dat; do
		fixture $f && formats_ok $f || exit 1
	done
'

for f in "$CORPUS"/*.dat; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	case $n in *truncated*) continue ;; esac
	test_expect_success CORPUS,PYTHON "corpus $n: jsonl parses, agrees with -R, csv round-trips" '
		formats_ok "'"$f"'"
	'
done

test_expect_success CORPUS,PYTHON 'a damaged corpus file fails as in text (exit 1)' '
	test_expect_code 1 "$TRACE_CMD" report --format jsonl "$CORPUS/x86_64-v6-truncated-after-header.dat" >out 2>err &&
	test -s err
'

# kernel_stack declares caller[8] but a record holds only its size entries:
# those are written, the addresses the text shows (they were null).
test_expect_success CORPUS,PYTHON 'a stack trace carries its addresses in jsonl and csv' '
	f=$CORPUS/x86_64-v7-zstd-stacktrace.dat &&
	"$TRACE_CMD" report --format jsonl -i "$f" >out.jsonl &&
	"$TRACE_CMD" report --format csv -i "$f" >out.csv &&
	python3 - out.jsonl out.csv <<-\EOF
	import csv, json, re, sys
	n = 0
	rows = [json.loads(l) for l in open(sys.argv[1])]
	rows += [dict(r, fields=json.loads(r["fields"])) for r in csv.DictReader(open(sys.argv[2]))]
	for r in rows:
	    if r["event"] != "kernel_stack":
	        continue
	    want = [int(a, 16) for a in re.findall(r"=> .* \(([0-9a-f]+)\)", r["text"])]
	    got = r["fields"]["caller"]
	    assert got == want and len(got) == r["fields"]["size"], (got, want)
	    n += 1
	assert n > 100, n
	EOF
'

test_expect_success CORPUS,PYTHON 'a counter clock with TSC2NSEC or not: ts_ns only where it is known' '
	"$TRACE_CMD" report --format jsonl "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat" >out &&
	head -n 1 out | grep -q "\"clock\":\"x86-tsc\"" &&
	if grep -q "\"ts_ns\"" out; then
		python3 -c "import json
a = [json.loads(l) for l in open(\"out\")]
assert all(\"ts_ns\" in r for r in a)"
	fi
'

test_done
