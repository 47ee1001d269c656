#!/bin/bash
# convert --to sqlite: the database holds every event as report --format jsonl
# decodes it (read back with Python's sqlite3), typed columns and indexes;
# trace-cmd-convert(1)'s example queries give the figures computed from
# report -t's text, on a fixture and on a real record -e sched; the output
# is replaced only when complete; usage and failures.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

command -v sqlite3 >/dev/null && test_set_prereq SQLITE3
FIG="python3 $HELPERS/sched-figures.py"
CHECK="python3 $HELPERS/check-sqlite.py"
PAGE=$SRC_DIR/Documentation/trace-cmd-convert.1.txt

# The man page's example queries, as written (on trace.db, here).
page_queries() {
	sed -n 's/^\(sqlite3 trace\.db .*\)$/\1/p' "$PAGE"
}

# answers_agree FILE: each example query's answer is the figure report -t gives.
answers_agree() {
	"$TRACE_CMD" convert --to sqlite -i "$1" -o trace.db &&
	"$TRACE_CMD" report -t "$1" >report.txt &&
	page_queries >queries && test $(wc -l <queries) = 3 &&
	n=0 &&
	for fig in busiest wakeup idle; do
		n=$((n + 1))
		sed -n ${n}p queries | sh >db.$fig &&
		$FIG $fig report.txt >report.$fig &&
		test_cmp report.$fig db.$fig || return 1
	done &&
	sqlite3 trace.db "SELECT irq, name, count(*), sum(dur) FROM irq_slice
		GROUP BY irq, name ORDER BY irq, name" >db.irq &&
	$FIG irq report.txt >report.irq && test_cmp report.irq db.irq
}

test_expect_success 'usage errors exit 2 with one line and the usage' '
	test_expect_code 2 "$TRACE_CMD" convert --to sqlite -i x.dat -o - 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: a SQLite database is written to a file, not '"'"'-'"'"'" &&
	grep -q "^usage: trace-cmd convert" err &&
	test_expect_code 2 "$TRACE_CMD" convert --to sqlite3 -i x.dat -o x.db 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: invalid --to value '"'"'sqlite3'"'"': use chrome-json or sqlite" &&
	test_expect_code 2 "$TRACE_CMD" convert --to sqlite -i x.dat 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: no -o given: say where to write" &&
	"$TRACE_CMD" convert -h | grep -q "^       trace-cmd convert --to sqlite \[-i FILE\] -o OUTPUT$"
'

test_expect_success 'a missing input, a latency file or a device as output fails with exit 1' '
	test_expect_code 1 "$TRACE_CMD" convert --to sqlite -i nosuch.dat -o x.db 2>err &&
	test "$(cat err)" = "trace-cmd convert: cannot open '"'"'nosuch.dat'"'"': No such file or directory" &&
	test ! -e x.db &&
	test_expect_code 1 "$TRACE_CMD" convert --to sqlite -i "$FIXTURES/synth-latency-v6.dat" \
		-o x.db 2>err &&
	grep -q "latency tracer" err && test ! -e x.db &&
	test_expect_code 1 "$TRACE_CMD" convert --to sqlite -i "$FIXTURES/synth-sched-v6.dat" \
		-o /dev/null 2>err &&
	test "$(cat err)" = "trace-cmd convert: cannot write '"'"'/dev/null'"'"': a SQLite database must be a regular file" &&
	test -c /dev/null &&
	cp "$FIXTURES/synth-sched-v6.dat" in.dat &&
	test_expect_code 1 "$TRACE_CMD" convert --to sqlite -i in.dat -o ./in.dat 2>err &&
	cmp in.dat "$FIXTURES/synth-sched-v6.dat" && ! ls | grep -q tmp
'

test_expect_success SQLITE3 'a damaged input leaves the old output; a complete one replaces it' '
	head -c 6000 "$FIXTURES/synth-pages-v6.dat" >cut.dat &&
	echo "not a database" >out.db && cp out.db old.db &&
	test_expect_code 1 "$TRACE_CMD" convert --to sqlite -i cut.dat -o out.db 2>err &&
	grep -q "cut.dat" err && cmp out.db old.db &&
	test "$(ls | grep -c tmp)" = 0 &&
	"$TRACE_CMD" convert --to sqlite -i "$FIXTURES/synth-pages-v6.dat" -o out.db &&
	test "$(sqlite3 out.db "SELECT value FROM meta WHERE key = '"'"'ts_unit'"'"'")" = ns
'

test_expect_success SQLITE3 'without -i it reads trace.dat' '
	cp "$FIXTURES/synth-sched-v6.dat" trace.dat &&
	"$TRACE_CMD" convert --to sqlite -o a.db &&
	test "$(sqlite3 a.db "SELECT count(*) FROM sched_switch")" = 4 && rm trace.dat
'

test_expect_success SQLITE3 'event tables: common columns, then the fields typed; ev_ where names clash; indexed' '
	"$TRACE_CMD" convert --to sqlite -i "$FIXTURES/synth-sched-v6.dat" -o t.db &&
	sqlite3 t.db "SELECT name, type FROM pragma_table_info('"'"'sched_wakeup'"'"')" >actual &&
	cat >expect <<-\EOF &&
	ts|INTEGER
	cpu|INTEGER
	pid|INTEGER
	comm|TEXT
	buffer|TEXT
	ev_comm|TEXT
	ev_pid|INTEGER
	prio|INTEGER
	target_cpu|INTEGER
	EOF
	test_cmp expect actual &&
	sqlite3 t.db "SELECT name FROM sqlite_master WHERE type = '"'"'index'"'"' AND
		tbl_name = '"'"'sched_wakeup'"'"' ORDER BY name" >actual &&
	printf "sched_wakeup_pid\nsched_wakeup_ts\n" >expect && test_cmp expect actual &&
	sqlite3 t.db "SELECT pid, comm, ev_pid, ev_comm FROM sched_wakeup ORDER BY ts" >actual &&
	printf "0|<idle>|1234|bash\n0|<idle>|45|kworker/1:1\n45|kworker/1:1|1300|cat\n" >expect &&
	test_cmp expect actual
'

# report -t of synth-sched: kworker/1:1 switched in on CPU 1 at .678904, out
# (W) at .678911; bash in on CPU 0 at .678906, out (S) at .878941.
test_expect_success SQLITE3 'sched_slice: who ran where, for how long, and how it ended' '
	"$TRACE_CMD" convert --to sqlite -i "$FIXTURES/synth-sched-v6.dat" -o t.db &&
	sqlite3 t.db "SELECT * FROM sched_slice ORDER BY ts" >actual &&
	printf "1|12345678904000|7000|45|kworker/1:1|W|\n0|12345678906000|200035000|1234|bash|S|\n" >expect &&
	test_cmp expect actual &&
	sqlite3 t.db "SELECT pid, comm FROM task ORDER BY pid" >actual &&
	printf "0|swapper/0\n45|kworker/1:1\n1234|bash\n1300|cat\n" >expect &&
	test_cmp expect actual
'

for f in $(cd "$FIXTURES" && ls synth-*.dat upstream-v7-zstd-sched.dat | grep -v latency); do
	test_expect_success PYTHON "$f: every event and lost-events mark as report --format jsonl has it" '
		"$TRACE_CMD" convert --to sqlite -i "$FIXTURES/'$f'" -o out.db &&
		"$TRACE_CMD" report --format jsonl "$FIXTURES/'$f'" >out.jsonl &&
		$CHECK out.db out.jsonl
	'
done

test_expect_success PYTHON,SQLITE3 'the man page examples answer as report -t computes (fixture)' '
	answers_agree "$FIXTURES/synth-sched-v6.dat" &&
	test -s db.busiest && test -s db.wakeup
'

test_expect_success PYTHON,CORPUS 'the corpus: every event as report --format jsonl has it' '
	for f in "$CORPUS"/*.dat; do
		rm -f out.db
		if "$TRACE_CMD" report --format jsonl "$f" >out.jsonl 2>/dev/null; then
			"$TRACE_CMD" convert --to sqlite -i "$f" -o out.db &&
			$CHECK out.db out.jsonl || { echo "$f"; exit 1; }
		else
			test_must_fail "$TRACE_CMD" convert --to sqlite -i "$f" -o out.db 2>/dev/null &&
			test ! -e out.db || { echo "$f converted where report fails"; exit 1; }
		fi
	done
'

test_have_prereq TRACEFS && test_lock_tracefs

# (The CPUs may not go idle while other work keeps them busy: no idle row is needed.)
test_expect_success TRACEFS,PYTHON,SQLITE3 'a real record -e sched -e irq: every event, and the examples answer as report -t' '
	"$TRACE_CMD" record -q -o real.dat -e sched -e irq sh -c \
		"for i in 1 2 3 4 5 6; do ls -R /usr/share >/dev/null; sleep 0.02; done" 9>&- &&
	"$TRACE_CMD" convert --to sqlite -i real.dat -o real.db &&
	"$TRACE_CMD" report --format jsonl real.dat >real.jsonl &&
	$CHECK real.db real.jsonl &&
	answers_agree real.dat &&
	test -s db.busiest && test -s db.wakeup
'

test_done
