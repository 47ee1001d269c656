#!/bin/bash
# snapshot, show -s and extract -s: a clear error on a kernel without a snapshot buffer,
# and the snapshot paths against a fake tracing directory that has one.
. "$(dirname "$0")/test-lib.sh"

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
	trap '"$TRACE_CMD" reset >/dev/null 2>&1; cd /; rm -rf "$TRASH"' EXIT
fi
test -n "$T" && test -e "$T/snapshot" || test_set_prereq NOSNAPSHOT

test_expect_success TRACEFS,NOSNAPSHOT 'without a snapshot buffer every snapshot path says so and changes nothing' '
	tracefs_state >before &&
	msg="this kernel has no snapshot buffer (no '"'"'snapshot'"'"' file)" &&
	for args in "" "-s" "-r" "-f" "-c 0"; do
		test_expect_code 1 "$TRACE_CMD" snapshot $args 2>err &&
		echo "trace-cmd snapshot: $msg" >want && test_cmp want err || exit 1
	done &&
	test_expect_code 1 "$TRACE_CMD" show -s 2>err &&
	echo "trace-cmd show: $msg" >want && test_cmp want err &&
	test_expect_code 1 "$TRACE_CMD" extract -s -o snap.dat 2>err &&
	echo "trace-cmd extract: this kernel has no snapshot buffer (no '"'"'per_cpu/cpu0/snapshot_raw'"'"')" >want &&
	test_cmp want err && ! test -e snap.dat &&
	tracefs_state >after && test_cmp before after
'

# A tracing directory with a snapshot buffer, for the top buffer, CPU 0 and instance foo.
make_fake() {
	rm -rf fake && mkdir -p fake/per_cpu/cpu0 fake/per_cpu/cpu1 fake/instances/foo/per_cpu/cpu0 fake/events &&
	: >fake/tracing_on &&
	echo "snapshot text" >fake/snapshot &&
	echo "cpu0 snapshot text" >fake/per_cpu/cpu0/snapshot &&
	echo "foo snapshot text" >fake/instances/foo/snapshot
}

test_expect_success 'snapshot -s, -r and -f write 1, 2 and 0; without them it prints the snapshot' '
	make_fake && export TRACE_CMD_TRACING_DIR=$PWD/fake &&
	"$TRACE_CMD" snapshot >got && echo "snapshot text" >want && test_cmp want got &&
	"$TRACE_CMD" snapshot -c 0 >got && echo "cpu0 snapshot text" >want && test_cmp want got &&
	"$TRACE_CMD" snapshot -B foo >got && echo "foo snapshot text" >want && test_cmp want got &&
	"$TRACE_CMD" show -s >got && echo "snapshot text" >want && test_cmp want got &&
	"$TRACE_CMD" snapshot -s && test "$(cat fake/snapshot)" = 1 &&
	"$TRACE_CMD" snapshot -r && test "$(cat fake/snapshot)" = 2 &&
	"$TRACE_CMD" snapshot -f && test "$(cat fake/snapshot)" = 0 &&
	"$TRACE_CMD" snapshot -s -c 0 && test "$(cat fake/per_cpu/cpu0/snapshot)" = 1 &&
	"$TRACE_CMD" snapshot -s -B foo && test "$(cat fake/instances/foo/snapshot)" = 1 &&
	test "$(cat fake/snapshot)" = 0
'

test_expect_success 'snapshot errors: a missing CPU, a missing instance, two actions' '
	make_fake && export TRACE_CMD_TRACING_DIR=$PWD/fake &&
	test_expect_code 1 "$TRACE_CMD" snapshot -c 1 2>err &&
	echo "trace-cmd snapshot: no snapshot for CPU 1 ('"'"'per_cpu/cpu1/snapshot'"'"' does not exist)" >want && test_cmp want err &&
	test_expect_code 1 "$TRACE_CMD" snapshot -B bar 2>err &&
	echo "trace-cmd snapshot: no instance '"'"'bar'"'"'" >want && test_cmp want err &&
	test_expect_code 2 "$TRACE_CMD" snapshot -s -f 2>err &&
	test "$(head -n 1 err)" = "trace-cmd snapshot: -s, -r and -f exclude each other" &&
	test_expect_code 2 "$TRACE_CMD" snapshot -c x 2>err &&
	test "$(head -n 1 err)" = "trace-cmd snapshot: invalid -c value '"'"'x'"'"': not a number" &&
	test "$(cat fake/snapshot)" = "snapshot text"
'

# A fake directory whose snapshot_raw holds real ring-buffer pages, with the real formats.
test_expect_success TRACEFS,UPSTREAM 'extract -s turns snapshot_raw pages into a file upstream reads' '
	rm -rf fake && mkdir -p fake/events fake/instances &&
	for f in tracing_on trace_clock printk_formats saved_cmdlines; do cat "$T/$f" >fake/$f; done &&
	cat "$T/events/header_page" >fake/events/header_page &&
	cat "$T/events/header_event" >fake/events/header_event &&
	for d in "$T"/events/ftrace/*/ "$T"/events/sched/*/; do
		e=${d#$T/}; mkdir -p fake/$e &&
		cat "$d/format" >fake/$e/format && cat "$d/enable" >fake/$e/enable 2>/dev/null || :
	done &&
	"$TRACE_CMD" start -e sched_switch &&
	echo "frozen in the snapshot" >"$T/trace_marker" &&
	"$TRACE_CMD" stop &&
	for c in $(ls "$T/per_cpu"); do
		mkdir -p fake/per_cpu/$c && cat "$T/per_cpu/$c/stats" >fake/per_cpu/$c/stats &&
		dd if="$T/per_cpu/$c/trace_pipe_raw" of=fake/per_cpu/$c/snapshot_raw bs=4096 iflag=nonblock 2>/dev/null
		test -f fake/per_cpu/$c/snapshot_raw || exit 1
	done &&
	"$TRACE_CMD" reset 2>/dev/null &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" extract -s -o snap.dat &&
	"$UPSTREAM" report -i snap.dat >up.txt 2>/dev/null &&
	sed -n "s/^.*tracing_mark_write: //p" up.txt >got &&
	echo "frozen in the snapshot" >want && test_cmp want got &&
	grep -q ": sched_switch: " up.txt &&
	"$TRACE_CMD" report --line-3.1 -i snap.dat | grep -v -e "^cpus=" >ours &&
	grep -v "^cpus=" up.txt >theirs && test_cmp theirs ours
'

test_done
