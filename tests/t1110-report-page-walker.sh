#!/bin/bash
# report's own ring-buffer page walker (trace-page.c) against libtraceevent's
# kbuffer (TRACE_CMD_KBUFFER=1): whole outputs, stderr and exit codes equal
# on every fixture, fuzz regression, fuzz corpus and ../shared/corpus file,
# with the -F id filter and --cpu too, and the pages split writes.
# plain-build: it compares outputs, a thousand reports; the sanitizers see the walker in t1102, t1103 and t7000
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

# same_walk FILE [ARGS]: 0 same, 1 different, 2 kbuffer hung (see below).
same_walk() {
	file=$1; shift
	TRACE_CMD_KBUFFER=1 timeout 60 "$TRACE_CMD" report "$@" "$file" >kb.out 2>kb.err
	rc=$?
	echo "exit $rc" >>kb.err
	timeout 60 "$TRACE_CMD" report "$@" "$file" >walk.out 2>walk.err
	echo "exit $?" >>walk.err
	cmp -s kb.out walk.out && cmp -s kb.err walk.err && return 0
	# kbuffer spins for ever on paddings in a loop; the walker says so.
	[ $rc = 124 ] && grep -q "loops back" walk.err && return 2
	echo "differs: report $* $file" >&2
	diff kb.out walk.out | head -5 >&2
	diff kb.err walk.err | head -5 >&2
	return 1
}

all_same_walk() { all_files same_walk "$@"; }

test_expect_success 'every fixture walks the same with kbuffer' '
	all_same_walk -- "$FIXTURES"/*.dat "$FIXTURES"/fuzz/*.dat
'

test_expect_success 'every fixture with -F on one event and with --cpu 0' '
	all_same_walk -F sched_switch -- "$FIXTURES"/*.dat &&
	all_same_walk -F "sched_switch,irq_handler_entry" -- "$FIXTURES"/*.dat &&
	all_same_walk --cpu 0 -- "$FIXTURES"/*.dat
'

test_expect_success 'every fuzz corpus file (damaged ones included), plain and filtered' '
	all_same_walk -- "$SRC_DIR"/fuzz/corpus/tracedat/* &&
	all_same_walk -F sched_switch -- "$SRC_DIR"/fuzz/corpus/tracedat/*
'

test_expect_success CORPUS 'every ../shared/corpus file: big-endian, 32-bit, v6 and v7' '
	all_same_walk -- "$CORPUS"/*.dat &&
	all_same_walk -t -F sched_switch -- "$CORPUS"/*.dat &&
	all_same_walk --cpu 1 -- "$CORPUS"/*.dat
'

test_expect_success 'split copies the same pages and offsets with either walker' '
	for f in "$FIXTURES"/synth-pages-v6.dat "$FIXTURES"/synth-instances-v7-zstd.dat; do
		rm -f kb.* walk.* &&
		TRACE_CMD_KBUFFER=1 "$TRACE_CMD" split -i "$f" -o kb -r -e 1 &&
		"$TRACE_CMD" split -i "$f" -o walk -r -e 1 &&
		for p in kb.*; do cmp "$p" "walk.${p#kb.}" || return 1; done || return 1
	done
'

test_expect_success 'a difference between the walkers would be seen' '
	printf "#!/bin/sh\nif [ -n \"\$TRACE_CMD_KBUFFER\" ]; then exec %s \"\$@\" -t; fi\nexec %s \"\$@\"\n" \
		"$TRACE_CMD" "$TRACE_CMD" >skewed && chmod +x skewed &&
	! TRACE_CMD=./skewed same_walk "$FIXTURES"/synth-instances-v6.dat 2>/dev/null
'

test_done
