#!/bin/bash
# convert --to chrome-json as real viewers show it: speedscope's own page in
# headless Chromium lays each CPU's slices flat and closed (none nested in
# the one before, none left open), and DevTools' trace engine puts every
# instant event and slice on its thread's track; for a recording, the
# fixtures and every corpus file.  The viewers: tests/consumers/.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"
. "$TEST_DIR/lib-consumers.sh"

# Only the recording holds tracefs: the viewers take a while.
test_lock_tracefs
test_expect_success TRACEFS 'record the scheduler for a second (tracefs left as found)' '
	tracefs_state >before &&
	"$TRACE_CMD" record -e sched -o rec.dat sleep 1 >record.out 2>&1 &&
	tracefs_state >after &&
	test_cmp before after
'
exec 9>&-

test_expect_success TRACEFS 'convert the recording' '
	"$TRACE_CMD" convert --to chrome-json -i rec.dat -o rec.json
'

test_expect_success TRACEFS,SPEEDSCOPE 'speedscope: the recording'"'"'s CPU slices are flat and closed' '
	consumer_check speedscope rec.json &&
	grep -q "^OK [1-9][0-9]* CPU tracks flat and closed$" consumer.out
'

test_expect_success TRACEFS,TRACE_ENGINE 'DevTools'"'"' engine: the recording'"'"'s events are all on their tracks' '
	consumer_check trace-engine rec.json &&
	grep -q "^OK .* [1-9][0-9]* instant events shown$" consumer.out
'

test_expect_success SPEEDSCOPE 'speedscope: the fixtures'"'"' CPU slices, instances'"'"' too, are flat and closed' '
	for f in synth-sched-v6.dat synth-instances-v7-zstd.dat synth-funcgraph-2cpu-v6.dat; do
		"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/$f" -o out.json &&
		consumer_check speedscope out.json || return 1
	done
'

test_expect_success TRACE_ENGINE 'DevTools'"'"' engine: the fixtures'"'"' instant events are shown' '
	for f in synth-sched-v6.dat synth-dropped-v7-zstd.dat synth-custom-v6.dat; do
		"$TRACE_CMD" convert --to chrome-json -i "$FIXTURES/$f" -o out.json &&
		consumer_check trace-engine out.json &&
		grep -q "^OK .* [1-9][0-9]* instant events shown$" consumer.out || return 1
	done
'

for f in "$CORPUS"/*.dat; do
	[ -f "$f" ] || continue
	n=$(basename "$f")
	case $n in *truncated*) continue ;; esac
	test_expect_success CORPUS,SPEEDSCOPE "speedscope: corpus $n" '
		"$TRACE_CMD" convert --to chrome-json -i "'"$f"'" -o out.json &&
		consumer_check speedscope out.json
	'
	test_expect_success CORPUS,TRACE_ENGINE "DevTools' engine: corpus $n" '
		"$TRACE_CMD" convert --to chrome-json -i "'"$f"'" -o out.json &&
		consumer_check trace-engine out.json
	'
done

# The files with no sched_switch were an empty timeline in DevTools.
test_expect_success CORPUS,TRACE_ENGINE 'DevTools'"'"' engine shows the i915, ext4 and kvm files'"'"' events' '
	for n in x86_64-v6-2014-i915 i686-v6-ext4 x86_64-v7-zlib-x86tsc-kvm; do
		"$TRACE_CMD" convert --to chrome-json -i "$CORPUS/$n.dat" -o out.json &&
		consumer_check trace-engine out.json &&
		grep -q "^OK .* [1-9][0-9]* instant events shown$" consumer.out || return 1
	done
'

test_done
