#!/bin/bash
# report on the synthetic files of tests/fixtures/synth.list (made by
# mkdat.py, an independent writer): big-endian, 32-bit, a 32-bit userspace on
# a 64-bit kernel, many pages, dropped events, instances, function events,
# latency text, in v6 and v7 with each compression.  Each must print
# upstream's event lines (fixtures/synth-SCENARIO.expected, checked against
# upstream's report when it is installed).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

grep -v '^#' "$FIXTURES/synth.list" >list
while read scenario version comp; do
	case $scenario in latency-clock) continue ;; esac
	suffix=
	[ "$comp" = none ] || suffix=-$comp
	f=synth-$scenario-v$version$suffix.dat
	test_expect_success "$f: event lines equal upstream's (committed)" '
		"$TRACE_CMD" report --line-3.1 "$FIXTURES/'$f'" >out &&
		events_of out >ours &&
		events_of "$FIXTURES/synth-'$scenario'.expected" >expect &&
		test_cmp expect ours
	'
	case $comp in zlib) continue ;; esac	# Debian's upstream cannot read zlib
	case $scenario$version in latency7) continue ;; esac	# upstream prints no v7 latency text
	test_expect_success UPSTREAM "$f: event lines equal upstream's (run now)" '
		same_as_upstream "$FIXTURES/'$f'"
	'
done <list

test_expect_success 'big-endian and 32-bit layouts are taken from the file' '
	"$HELPERS/dump-header" "$FIXTURES/synth-sched-be32-v6.dat" >h &&
	grep -qx "endian big" h && grep -qx "long size 4" h &&
	"$HELPERS/dump-header" "$FIXTURES/synth-sched-u32k64-v6.dat" >h &&
	grep -qx "long size 4" h && grep -qx "kernel long size 8" h
'

test_expect_success 'dropped events are shown as upstream shows them' '
	"$TRACE_CMD" report "$FIXTURES/synth-dropped-v6.dat" >out &&
	grep -q "^CPU:0 \[EVENTS DROPPED\]$" out &&
	grep -q "^CPU:[0-9]* \[[0-9]* EVENTS DROPPED\]$" out
'

test_expect_success 'instances: each line carries its buffer name as upstream shows it' '
	"$TRACE_CMD" report "$FIXTURES/synth-instances-v7-zstd.dat" >out &&
	grep -q "^foo: " out && grep -q "^     [ <]" out
'

# Task 300 is in no saved cmdline: upstream's sched_switch plugin registers
# the names it prints (the first one wins), and its later lines carry it.
cat >unnamed.json <<EOF
{"cpus": 1, "events": ["sched_switch"], "cmdlines": [[200, "b"]], "records": [
 {"cpu": 0, "ts": 1000000, "event": "sched_switch", "pid": 300, "fields": {"prev_comm": "a",
  "prev_pid": 300, "prev_prio": 120, "prev_state": 0, "next_comm": "b", "next_pid": 200,
  "next_prio": 120}},
 {"cpu": 0, "ts": 2000000, "event": "sched_switch", "pid": 200, "fields": {"prev_comm": "b",
  "prev_pid": 200, "prev_prio": 120, "prev_state": 1, "next_comm": "worker", "next_pid": 300,
  "next_prio": 120}},
 {"cpu": 0, "ts": 3000000, "event": "sched_switch", "pid": 300, "fields": {"prev_comm": "worker",
  "prev_pid": 300, "prev_prio": 120, "prev_state": 1, "next_comm": "b", "next_pid": 200,
  "next_prio": 120}}]}
EOF

test_expect_success PYTHON 'a task first named by a sched_switch line carries that name from then on' '
	python3 "$HELPERS/mkdat.py" unnamed.json unnamed.dat &&
	"$TRACE_CMD" report unnamed.dat >out &&
	events_of out | sed "s/^ *\([^ ]*\) .*/\1/" >got &&
	printf "%s\n" "<...>-300" b-200 a-300 >want && test_cmp want got &&
	if test_have_prereq UPSTREAM; then same_as_upstream unnamed.dat; fi
'

test_done
