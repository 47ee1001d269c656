#!/bin/bash
# trace-cmd-convert(1)'s DuckDB example: its views over report --format jsonl
# answer the three example queries as the SQLite export does, on a fixture
# and on a real record -e sched.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-consumers.sh"

command -v sqlite3 >/dev/null && test_set_prereq SQLITE3
PAGE=$SRC_DIR/Documentation/trace-cmd-convert.1.txt

# The man page's DuckDB script (on sched.jsonl), and its SQLite queries (on trace.db).
page_duckdb() {
	sed -n "/^duckdb <<'EOF'\$/,/^EOF\$/p" "$PAGE" | sed '1d;$d'
}
page_sqlite() {
	sed -n 's/^\(sqlite3 trace\.db .*\)$/\1/p' "$PAGE"
}

# Beyond the examples' top five: the views hold the tables' rows.
WHOLE="SELECT count(*), sum(dur), count(DISTINCT pid) FROM sched_slice;
SELECT count(*), sum(latency), count(DISTINCT pid) FROM wakeup_latency;"

# duckdb_agrees FILE: DuckDB on FILE's jsonl gives the database's answers.
duckdb_agrees() {
	"$TRACE_CMD" convert --to sqlite -i "$1" -o trace.db &&
	"$TRACE_CMD" report --format jsonl "$1" >sched.jsonl &&
	page_sqlite >queries && test $(wc -l <queries) = 3 &&
	{ cat queries && echo "$WHOLE" | sed "s/^/sqlite3 trace.db '/; s/;\$/'/"; } |
	while read -r query; do
		eval "$query" && echo -- || return 1
	done >sqlite.out &&
	page_duckdb >duckdb.sql && test $(grep -c "^SELECT" duckdb.sql) = 3 &&
	echo "$WHOLE" >>duckdb.sql &&
	duckdb_run duckdb.sql &&
	test_cmp sqlite.out duckdb.out
}

test_expect_success 'the man page has the DuckDB form of each SQLite query' '
	page_duckdb >duckdb.sql &&
	grep "^SELECT" duckdb.sql | sed "s/ GROUP BY pid, task.comm / GROUP BY pid /; s/;\$//" >duckdb.q &&
	page_sqlite | sed "s/^sqlite3 trace\.db '"'"'//; s/'"'"'\$//" >sqlite.q &&
	test_cmp sqlite.q duckdb.q
'

test_expect_success DUCKDB 'a script that fails says why and exits 1' '
	echo "SELECT * FROM nosuch;" >bad.sql &&
	test_expect_code 1 duckdb_run bad.sql &&
	grep -q "^FAIL .*nosuch" duckdb.out
'

test_expect_success DUCKDB,SQLITE3 'DuckDB answers as the database (fixtures)' '
	duckdb_agrees "$FIXTURES/synth-sched-v6.dat" &&
	test $(grep -c . duckdb.out) = 12 &&
	duckdb_agrees "$FIXTURES/upstream-v7-zstd-sched.dat" &&
	test $(grep -c . duckdb.out) = 19 &&
	duckdb_agrees "$FIXTURES/synth-instances-v6.dat"
'

# The tracefs lock is held for the recording only (fd 9, test_lock_tracefs).
test_have_prereq TRACEFS && test_have_prereq DUCKDB && test_lock_tracefs

test_expect_success TRACEFS,DUCKDB,SQLITE3 'DuckDB answers as the database (a real record -e sched)' '
	"$TRACE_CMD" record -q -o real.dat -e sched sh -c \
		"for i in 1 2 3 4 5 6; do ls -R /usr/share >/dev/null; sleep 0.02; done" 9>&- &&
	exec 9>&- &&
	duckdb_agrees real.dat &&
	test $(sed -n "1,/^--\$/p" duckdb.out | grep -c .) -gt 2
'

test_done
