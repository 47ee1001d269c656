#!/bin/bash
# convert --to chrome-json: the Trace Event Format's rules (keys each phase
# needs, B/E balanced per thread, slices of one CPU that never overlap,
# microsecond timestamps or a raw-counter note) on the fixtures, the
# function-graph files and every corpus file; and the command's usage.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

CHECK="python3 $HELPERS/check-format.py"

test_expect_success 'convert -h prints the usage to stdout and exits 0' '
	"$TRACE_CMD" convert -h >out &&
	head -n 1 out | grep -q "^usage: trace-cmd convert --to chrome-json \[-i FILE\] -o OUTPUT$"
'

test_expect_success 'usage errors exit 2 with one line and the usage' '
	test_expect_code 2 "$TRACE_CMD" convert --to perfetto -i x.dat -o x.json 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: invalid --to value '"'"'perfetto'"'"': use chrome-json or sqlite" &&
	grep -q "^usage: trace-cmd convert" err &&
	test_expect_code 2 "$TRACE_CMD" convert --to chrome-json -i x.dat 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: no -o given: say where to write" &&
	test_expect_code 2 "$TRACE_CMD" convert --frob 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: unknown option '"'"'--frob'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" convert --to chrome-json -o x.json extra 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: unexpected argument '"'"'extra'"'"'"
'

test_expect_success 'a missing input or an unwritable output fails with exit 1' '
	test_expect_code 1 "$TRACE_CMD" convert --to chrome-json -i nosuch.dat -o x.json 2>err &&
	test "$(cat err)" = "trace-cmd convert: cannot open '"'"'nosuch.dat'"'"': No such file or directory" &&
	test ! -e x.json &&
	test_expect_code 1 "$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-sched-v6.dat" \
		-o nodir/x.json 2>err &&
	test "$(cat err)" = "trace-cmd convert: cannot create '"'"'nodir/x.json'"'"': No such file or directory"
'

test_expect_success 'without -i it reads trace.dat' '
	cp "$FIXTURES/synth-sched-v6.dat" trace.dat &&
	"$TRACE_CMD" convert --to chrome-json -o a.json &&
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-sched-v6.dat" -o - >b.json &&
	grep -v "\"source\"" a.json >a.cmp && grep -v "\"source\"" b.json >b.cmp &&
	test_cmp a.cmp b.cmp && rm trace.dat
'

test_expect_success PYTHON 'a latency tracer file has no events to convert: exit 1' '
	test_expect_code 1 "$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-latency-v6.dat" \
		-o lat.json 2>err &&
	grep -q "latency tracer" err && test ! -e lat.json
'

for f in $(cd "$FIXTURES" && ls synth-*.dat | grep -v latency); do
	test_expect_success PYTHON "$f follows the Trace Event Format's rules" '
		"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/'$f'" -o out.json &&
		$CHECK chrome out.json
	'
done

test_expect_success PYTHON 'sched_switch: per-CPU slices of the task switched in, named by comm' '
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-sched-v6.dat" -o out.json &&
	python3 -c "import json
d = json.load(open(\"out.json\"))
ev = d[\"traceEvents\"]
x = [e for e in ev if e[\"ph\"] == \"B\" and e[\"cat\"] == \"sched\"]
print(\" \".join(\"%s@%d:%s\" % (e[\"name\"], e[\"tid\"] - 1000000000, e[\"args\"][\"pid\"]) for e in x))
names = {(e[\"pid\"], e[\"tid\"]): e[\"args\"][\"name\"] for e in ev if e[\"name\"] == \"thread_name\"}
print(names[(1000000000, 1000000001)], names[(1234, 1234)])
assert not [e for e in ev if e[\"name\"] == \"sched_switch\"]
assert [e for e in ev if e[\"ph\"] == \"I\" and e[\"name\"] == \"sched_wakeup\" and e[\"args\"][\"comm\"] == \"bash\"]
" >got &&
	"$TRACE_CMD" report -R -F sched_switch "$FIXTURES/synth-sched-v6.dat" >raw &&
	test "$(sed -n 2p got)" = "CPU 1 bash" &&
	test $(head -n 1 got | wc -w) -ge $(grep -c sched_switch raw)
'

# Viewers add up an X's ts + dur in binary floating point and may find it a
# hair past the next slice's ts (speedscope then nests them): touching slices
# are B/E pairs whose E is written with the very ts text of the next B.
cat >touch.py <<\EOF
import json, sys
tracks = {}
for line in open(sys.argv[1]):
    line = line.strip().rstrip(",")
    if not line.startswith("{\"name\"") or "\"cat\":\"sched\"" not in line:
        continue
    e = json.loads(line)
    if e["ph"] not in ("B", "E"):
        continue
    ts = line.split("\"ts\":", 1)[1].split(",", 1)[0]
    tracks.setdefault(e["tid"], []).append((e["ph"], ts))
for tid, evs in sorted(tracks.items()):
    phs = "".join(ph for ph, ts in evs)
    assert phs == "BE" * (len(evs) // 2), (tid, phs[:40])
    for (ph, end), (_, start) in zip(evs[1::2], evs[2::2]):
        assert end == start, (tid, end, start)
    print(tid - 1000000000, len(evs) // 2)
EOF

test_expect_success PYTHON 'CPU slices that touch end at the ts text the next begins' '
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-sched-v6.dat" -o out.json &&
	python3 touch.py out.json >got &&
	printf "0 3\n1 3\n" >expect &&
	test_cmp expect got
'

test_expect_success CORPUS,PYTHON 'a busy 8-CPU corpus file: every CPU track is end to end' '
	"$TRACE_CMD" convert --to chrome-json -i "$CORPUS/arm32-v6-sched-load.dat" -o out.json &&
	python3 touch.py out.json >got &&
	test $(wc -l <got) = 8
'

test_expect_success PYTHON 'instant events carry the fields report --format jsonl decodes' '
	for f in synth-sched-be32-v6.dat synth-dropped-v7-zstd.dat; do
		"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/$f" -o out.json &&
		"$TRACE_CMD" report --format jsonl "$FIXTURES/$f" >out.jsonl &&
		python3 -c "import json
ev = json.load(open(\"out.json\"))[\"traceEvents\"]
got = [(e[\"name\"], e[\"cat\"], e[\"tid\"], e[\"args\"]) for e in ev if e[\"ph\"] == \"I\" and e[\"cat\"] != \"lost\"]
want = [(r[\"event\"], r[\"system\"], r[\"pid\"] or 1000000000 + r[\"cpu\"], r[\"fields\"])
        for r in map(json.loads, open(\"out.jsonl\"))
        if r[\"event\"] not in (\"lost\", \"sched_switch\")]
assert got == want, (got, want)
assert got" || exit 1
	done
'

# DevTools' engine keeps only phase "I" instant events (Chrome writes "I", the
# spec lists "i"; Perfetto takes both), and Perfetto drops a thread's instant
# event whose tid is 0: the idle task's events are on its CPU's track.
test_expect_success 'instant events are phase I, the idle task'"'"'s on its CPU track' '
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-sched-v6.dat" -o out.json &&
	! grep -q "\"ph\":\"i\"" out.json &&
	grep "\"ph\":\"I\"" out.json >instants &&
	! grep -q "\"tid\":0," instants &&
	grep -q "{\"name\":\"print\",\"ph\":\"I\",\"pid\":1234,\"tid\":1234," instants &&
	grep -q "\"ph\":\"I\",\"pid\":1000000000,\"tid\":100000000[01],\"cat\":\"" instants
'

test_expect_success PYTHON 'function graph: nested B/E named by function, on the task thread' '
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-funcgraph-v6.dat" -o out.json &&
	python3 -c "import json
ev = json.load(open(\"out.json\"))[\"traceEvents\"]
depth, out = 0, []
for e in ev:
    if e[\"ph\"] == \"B\":
        out.append(\"  \" * depth + e[\"name\"]); depth += 1
    elif e[\"ph\"] == \"E\":
        depth -= 1
print(\"\\n\".join(out))" >tree &&
	cat >expect <<-\EOF &&
	vfs_write
	  rw_verify_area
	  ext4_file_write_iter
	    ext4_buffered_write_iter
	  do_IRQ
	    handle_irq_event
	ksys_write
	EOF
	test_cmp expect tree
'

test_expect_success PYTHON 'function graph on two CPUs and a file cut mid-call stay balanced' '
	for f in synth-funcgraph-2cpu-v6.dat synth-funcgraph-2cpu-v7-zstd.dat synth-funcgraph-v7-zlib.dat; do
		"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/$f" -o out.json &&
		$CHECK chrome out.json >sum && grep -q "B=" sum || exit 1
	done
'

test_expect_success PYTHON 'an instance has CPU tracks of its own, so its slices overlap no others' '
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-instances-v6.dat" -o out.json &&
	$CHECK chrome out.json &&
	grep -q "{\"name\":\"thread_name\",\"ph\":\"M\",\"pid\":1000000000,\"tid\":1000004096,\"args\":{\"name\":\"foo CPU 0\"}}" out.json &&
	grep -q "\"args\":{\"name\":\"CPU 0\"}}" out.json
'

test_expect_success PYTHON 'ns clocks give microseconds; the metadata says so' '
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-sched-v6.dat" -o out.json &&
	grep -q "\"ts\":12345678901.000" out.json &&
	grep -q "\"ts_unit\":\"us\"" out.json && grep -q "\"clock\":\"local\"" out.json
'

test_expect_success PYTHON 'lost events are instant events on the CPU track' '
	"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/synth-dropped-v6.dat" -o out.json &&
	grep -q "{\"name\":\"lost events\",\"ph\":\"I\",\"pid\":1000000000,\"tid\":1000000000,.*\"args\":{\"count\":17}}" out.json
'

test_expect_success PYTHON,UPSTREAM 'files upstream recorded follow the rules' '
	for f in upstream-v6-sched.dat upstream-v7-none-sched.dat upstream-v7-zstd-sched.dat; do
		fixture $f &&
		"$TRACE_CMD" convert --to chrome-json -i $f -o out.json &&
		$CHECK chrome out.json >sum && grep -q "B=" sum || exit 1
	done
'

for f in "$CORPUS"/*.dat; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	case $n in *truncated*) continue ;; esac
	test_expect_success CORPUS,PYTHON "corpus $n follows the Trace Event Format's rules" '
		"$TRACE_CMD" convert --to chrome-json -i "'"$f"'" -o out.json &&
		$CHECK chrome out.json
	'
done

test_expect_success CORPUS,PYTHON 'a raw counter clock keeps counter values and says so' '
	"$TRACE_CMD" convert --to chrome-json -i "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat" -o out.json &&
	python3 -c "import json
d = json.load(open(\"out.json\"))
o = d[\"otherData\"]
assert o[\"clock\"] == \"x86-tsc\" and o[\"ts_unit\"] == \"raw counter\", o
assert \"not microseconds\" in o[\"note\"]
assert all(isinstance(e[\"ts\"], int) for e in d[\"traceEvents\"] if \"ts\" in e)"
'

test_expect_success CORPUS 'a damaged file fails with exit 1 and leaves no output' '
	test_expect_code 1 "$TRACE_CMD" convert --to chrome-json \
		-i "$CORPUS/x86_64-v6-truncated-after-header.dat" -o cut.json 2>err &&
	test -s err && test ! -e cut.json
'

# upstream-v6-sched.dat with CPU 1's second page damaged: the export stops
# there, its tasks named (LeakSanitizer checks they are freed under --asan).
test_expect_success 'convert --to chrome-json of a file damaged mid-way: exit 1, nothing left' '
	fixture upstream-v6-sched.dat && cp upstream-v6-sched.dat bad.dat &&
	"$HELPERS/dump-header" bad.dat >h &&
	off=$(sed -n "s/^  cpu 1 offset \([0-9]*\) .*/\1/p" h) &&
	printf "\377\377\000\000" | dd of=bad.dat bs=1 seek=$((off + 4096 + 8)) conv=notrunc 2>/dev/null &&
	test_expect_code 1 "$TRACE_CMD" convert --to chrome-json -i bad.dat -o bad.json 2>err &&
	echo "trace-cmd convert: '"'"'bad.dat'"'"': bad data at offset $((off + 4096)): CPU 1: page data size 65535 is larger than the page" >want &&
	test_cmp want err &&
	test ! -e bad.json
'

test_done
