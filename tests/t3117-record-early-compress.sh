#!/bin/bash
# record of a compressed v7 file compresses the chunks the recorders finish
# while the command still runs (so less is left once it exits): the file
# then holds every event once, in order, and upstream's report of it is
# ours.  The early chunks go to a deleted file per CPU named after the
# recorder's, which /proc shows while the recording runs.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"
. "$TEST_DIR/lib-report.sh"

test_lock_tracefs

NR_CPUS=$(ls -d "$T"/per_cpu/cpu* | wc -l)

# 3,000 markers in six bursts 0.15 s apart: about 60 pages.  With -b 200
# the recorders wake at half of 200 KB (buffer_percent 50) and write while
# the command runs, so whole chunks are ready before it ends; at the
# default 1410 KB they would write only at the end.
cat >work.sh <<EOF
for b in 1 2 3 4 5 6; do
	for i in \$(seq 500); do echo "early-\$b-\$i-padding-to-make-the-event-longer" >$T/trace_marker; done
	sleep 0.15
done
EOF

# early_files PID: how many early-chunk files record PID holds open.
early_files() { ls -l /proc/$1/fd 2>/dev/null | grep -c '\.cpu[0-9]*\.early (deleted)$'; }
# early_bytes PID: what they hold together.
early_bytes() {
	ls -l /proc/$1/fd 2>/dev/null | sed -n 's/.* \([0-9]*\) -> .*\.early (deleted)$/\1/p' |
		while read fd; do stat -L -c %s /proc/$1/fd/$fd 2>/dev/null; done |
		awk '{ n += $1 } END { print n + 0 }'
}

# record_watched FILE ARGS: records work.sh into FILE, noting the most early
# files seen open at once in FILE.seen (0 if none ever were) and the most
# bytes they held in FILE.bytes.
record_watched() {
	out=$1; shift
	tracefs_state >before &&
	{ "$TRACE_CMD" record -e sched_switch -b 200 "$@" -o "$out" sh work.sh >rec.out 2>rec.err & } &&
	pid=$! && max=0 bytes=0 &&
	while kill -0 $pid 2>/dev/null; do
		n=$(early_files $pid); [ "$n" -gt "$max" ] && max=$n
		n=$(early_bytes $pid); [ "$n" -gt "$bytes" ] && bytes=$n
		sleep 0.05
	done
	wait $pid || { cat rec.err; return 1; }
	echo $max >"$out.seen" && echo $bytes >"$out.bytes" &&
	tracefs_state >after && test_cmp before after
}

# markers_ok FILE: each of the 3,000 markers once, in the order written.
markers_ok() {
	"$TRACE_CMD" report --line-3.1 -i "$1" >"$1.ours" &&
	grep -o 'early-[0-9]*-[0-9]*-' "$1.ours" >got &&
	for b in 1 2 3 4 5 6; do seq 500 | sed "s/^/early-$b-/; s/\$/-/"; done >want &&
	test_cmp want got
}

# upstream_same FILE: upstream's event lines of FILE are ours (FILE.ours).
upstream_same() {
	upstream_events "$1" >theirs && events_of "$1.ours" >ours && test_cmp theirs ours
}

# early_recorded FILE ARGS: record_watched until the early files held some
# bytes, three tries at most.  The thread runs at nice 19, below the suite's
# other scripts, so on a loaded machine a try may leave it all to the end.
early_recorded() {
	for try in 1 2 3; do
		record_watched "$@" || return 1
		echo "try $try: early files seen: $(cat $1.seen), bytes: $(cat $1.bytes)"
		test "$(cat $1.seen)" = $NR_CPUS || return 1
		test $(cat $1.bytes) -gt 0 && return 0
	done
	return 1
}

for comp in zstd zlib; do
	test_expect_success TRACEFS,UPSTREAM,PYTHON "--compression $comp: chunks compressed early, every marker once, upstream agrees" "
		early_recorded $comp.dat --compression $comp &&
		markers_ok $comp.dat && upstream_same $comp.dat
	"
done

test_expect_success TRACEFS 'v6 and v7 without compression compress nothing early' '
	record_watched v6.dat --file-version 6 && test "$(cat v6.dat.seen)" = 0 &&
	markers_ok v6.dat &&
	record_watched none.dat --compression none && test "$(cat none.dat.seen)" = 0 &&
	markers_ok none.dat
'

# -m keeps each CPU's last KB only: the recorders empty and swap their
# files, so nothing in them is final before the end and nothing may be
# compressed early.  6,000 markers (about 420 KB) on CPU 0 against -m 200
# (halves of 100 KB): what comes out is a run of the last ones, in order,
# with no gap.
cat >work-m.sh <<EOF
for b in 1 2 3 4 5 6 7 8 9 10; do
	for i in \$(seq 600); do echo "minus-m-\$b-\$i-padding-to-make-the-event-longer" >$T/trace_marker; done
	sleep 0.15
done
EOF
# minus_m_recorded: m.dat and its report m.ours, again (three tries at
# most) while the kernel dropped events: on a loaded machine the recorder
# can sleep past the 400 KB ring buffer, and the report marks the gap.
minus_m_recorded() {
	for try in 1 2 3; do
		tracefs_state >before &&
		"$TRACE_CMD" record -q -e sched_switch -b 400 -m 200 -o m.dat taskset -c 0 sh work-m.sh &&
		tracefs_state >after && test_cmp before after &&
		"$TRACE_CMD" report -i m.dat >m.ours || return 1
		grep -q "EVENTS DROPPED" m.ours || return 0
		echo "try $try: the kernel dropped events: $(grep -c "EVENTS DROPPED" m.ours) marks"
	done
	return 1
}
test_expect_success TRACEFS '-m: the file holds the last markers in order, none from before' '
	minus_m_recorded &&
	grep -o "minus-m-[0-9]*-[0-9]*-" m.ours >got &&
	for b in 1 2 3 4 5 6 7 8 9 10; do seq 600 | sed "s/^/minus-m-$b-/; s/\$/-/"; done >all &&
	n=$(wc -l <got) && test $n -gt 500 && test $n -lt 6000 &&
	tail -n $n all >want && test_cmp want got
'

# Without a command, record runs until Ctrl-C: the early chunks and the rest
# make one file of everything written before it.
test_expect_success TRACEFS,UPSTREAM 'record stopped by SIGINT: the early chunks and the rest, every marker once' '
	tracefs_state >before &&
	{ "$TRACE_CMD" record -e sched_switch -b 200 -o int.dat >rec.out 2>rec.err & } &&
	pid=$! &&
	for i in $(seq 100); do grep -q "Hit Ctrl" rec.err 2>/dev/null && break; sleep 0.05; done &&
	sh work.sh && n=$(early_files $pid) &&
	kill -INT $pid && wait $pid &&
	test "$n" = $NR_CPUS &&
	tracefs_state >after && test_cmp before after &&
	markers_ok int.dat && upstream_same int.dat
'

test_expect_success TRACEFS 'the early files are gone with the recording' '
	! ls -a | grep -q "\.early$" && ! ls /tmp | grep -q "\.cpu[0-9]*\.early$"
'

test_done
