#!/bin/bash
# report --format jsonl|csv escape text sixteen bytes at a time
# (trace-format.c's plain_run): a quote, backslash, comma, line break,
# control byte or UTF-8 character at every offset of a string, across the
# 16-byte steps and in the short tail, comes out as the string it was, in a
# task's name, an event's field and the text column; the threads' output
# is the one-thread output, byte for byte.
. "$(dirname "$0")/test-lib.sh"

# specials.dat: print events whose text holds one special character at
# offsets 0 to 40 of a 41-byte string, and a UTF-8 character some bytes
# before a comma; a task with specials in its name.
test_expect_success PYTHON 'a file of strings with special characters at every offset' '
	python3 - "$HELPERS" >spec.json <<-\EOF &&
	import json, sys
	sys.path.insert(0, sys.argv[1])
	import mkdat_scenarios as m
	spec = m.sched("little", 8)
	specials = ["\"", "\\", ",", "\n", "\r", "\t", "\x01", "\x1f", "\x7f", "\u00e9", "\u20ac", "\U0001f600"]
	texts = []
	for c in specials:
	    for at in range(41):
	        texts.append("x" * at + c + "y" * (40 - at))
	# a UTF-8 character before the comma that makes a csv cell quoted
	for at in range(41):
	    texts.append("x" * at + "\u00e9" + "y" * 9 + "," + "z" * (40 - at))
	spec["cmdlines"] = m.CMDLINES + [[77, "a,b\"c\\d\u00e9e"]]
	# bash (1234) shows the texts alone; the odd name gets two of them
	spec["records"] = [m.marker(0, m.T0 + 1000 * i, 77 if i < 2 else 1234, t)
			   for i, t in enumerate(texts)]
	json.dump(spec, open("spec.json", "w"))
	json.dump(texts, open("texts.json", "w"))
	EOF
	python3 "$HELPERS/mkdat.py" spec.json specials.dat
'

test_expect_success PYTHON 'jsonl: each text and the task name decode to what was written' '
	"$TRACE_CMD" report --format jsonl specials.dat >out.jsonl &&
	python3 - <<-\EOF
	import json
	texts = json.load(open("texts.json"))
	recs = [json.loads(l) for l in open("out.jsonl", encoding="utf-8")]
	assert [r["fields"]["buf"] for r in recs] == texts, "buf differs"
	comms = ["a,b\"c\\d\u00e9e"] * 2 + ["bash"] * (len(texts) - 2)
	assert [r["comm"] for r in recs] == comms, recs[0]["comm"]
	EOF
'

test_expect_success PYTHON 'csv: the same names, fields and text columns as jsonl' '
	"$TRACE_CMD" report --format csv specials.dat >out.csv &&
	python3 - <<-\EOF
	import csv, json
	recs = [json.loads(l) for l in open("out.jsonl", encoding="utf-8")]
	rows = list(csv.reader(open("out.csv", newline="", encoding="utf-8")))
	head = rows[0]
	rows = [dict(zip(head, r)) for r in rows[1:]]
	assert len(rows) == len(recs), (len(rows), len(recs))
	for r, j in zip(rows, recs):
	    assert r["comm"] == j["comm"], (r["comm"], j["comm"])
	    assert json.loads(r["fields"]) == j["fields"], (r["fields"], j["fields"])
	    assert r["text"] == j["text"], (r["text"], j["text"])
	EOF
'

# Batches of 7 lines (TRACE_CMD_THREADS_TEST) from the first line on.
test_expect_success PYTHON 'the threads write the one-thread bytes, jsonl and csv' '
	for f in jsonl csv; do
		TRACE_CMD_THREADS=1 "$TRACE_CMD" report --format $f specials.dat >one.$f &&
		TRACE_CMD_THREADS=2 TRACE_CMD_THREADS_TEST=1 "$TRACE_CMD" report --format $f \
			specials.dat >par.$f &&
		test_cmp one.$f par.$f || return 1
	done &&
	test_cmp one.jsonl out.jsonl
'

# symbols.dat: an event printed from numbers and names its format knows
# (jsonl takes such a text as needing no escaping, unseen), some of them
# with a quote or backslash, and from a task whose name needs escaping.
test_expect_success PYTHON 'a file of known names with and without special characters' '
	python3 - "$HELPERS" <<-\EOF &&
	import json, sys
	sys.path.insert(0, sys.argv[1])
	import mkdat_scenarios as m
	fmt = m.SOFTIRQ_ENTRY.split("print fmt:")[0] + \
		"print fmt: \"vec=%u [%s] %s\", REC->vec, __print_symbolic(REC->vec, " \
		"{ 0, \"HI\" }, { 1, \"T\\\\\"M\" }, { 2, \"N\\\\\\\\X\" }, { 3, \"plain\" }), " \
		"REC->vec > 4 ? \"big\" : \"small\"\n"
	spec = m.custom()
	spec["events"] = []
	spec["formats"] = {"irq": [fmt]}
	spec["cmdlines"] = m.CMDLINES + [[77, "a,b\"c\\d\u00e9e"]]
	spec["records"] = [{"cpu": 0, "ts": m.T0 + 1000 * i, "event": "softirq_entry",
			    "pid": 77 if i % 3 == 0 else 1234, "fields": {"vec": i % 6}}
			   for i in range(60)]
	json.dump(spec, open("spec.json", "w"))
	EOF
	python3 "$HELPERS/mkdat.py" spec.json symbols.dat
'

test_expect_success PYTHON 'known names: jsonl texts are the lines report prints, in threads too' '
	"$TRACE_CMD" report symbols.dat >text.out &&
	grep -q "a,b\"c\\\\d" text.out && grep -q "\\\\" text.out && grep -q "\"" text.out &&
	TRACE_CMD_THREADS=1 "$TRACE_CMD" report --format jsonl symbols.dat >one.jsonl &&
	TRACE_CMD_THREADS=2 TRACE_CMD_THREADS_TEST=1 "$TRACE_CMD" report --format jsonl \
		symbols.dat >par.jsonl &&
	test_cmp one.jsonl par.jsonl &&
	python3 - <<-\EOF
	import json
	lines = open("text.out", encoding="utf-8").read().split("\n")[1:-1]
	recs = [json.loads(l) for l in open("par.jsonl", encoding="utf-8")]
	assert [r["text"] for r in recs] == lines, (recs[0]["text"], lines[0])
	EOF
'

test_done
