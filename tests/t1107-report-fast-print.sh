#!/bin/bash
# report's compiled event printer (trace-print.c) against libtraceevent's own
# (TRACE_CMD_SLOW_PRINT=1): whole outputs, stderr and exit codes equal on
# every fixture, fuzz regression, fuzz corpus and ../shared/corpus file, and
# on a fresh -e all recording, which must also equal upstream's report.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"
. "$TEST_DIR/lib-tracefs.sh"

# same_both_ways FILE [ARGS]: fast and slow printers give the same bytes.
# (The timeouts are for a hang; a busy machine may take seconds on a file.)
same_both_ways() {
	file=$1; shift
	TRACE_CMD_SLOW_PRINT=1 timeout 60 "$TRACE_CMD" report "$@" "$file" >slow.out 2>slow.err
	echo "exit $?" >>slow.err
	timeout 60 "$TRACE_CMD" report "$@" "$file" >fast.out 2>fast.err
	echo "exit $?" >>fast.err
	cmp -s slow.out fast.out && cmp -s slow.err fast.err && return 0
	echo "differs: report $* $file" >&2
	diff slow.out fast.out | head -5 >&2
	diff slow.err fast.err | head -5 >&2
	return 1
}

# all_same_both_ways ARGS -- FILE...: every file, counting at least one.
all_same_both_ways() {
	args=()
	while [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift
	n=0 bad=0
	for f in "$@"; do
		[ -f "$f" ] || continue
		same_both_ways "$f" "${args[@]}"
		case $? in
		0) n=$((n + 1)) ;;
		1) bad=$((bad + 1)) ;;
		esac
	done
	[ $n -gt 0 ] && [ $bad = 0 ]
}

test_expect_success 'every fixture prints the same through both printers' '
	all_same_both_ways -- "$FIXTURES"/*.dat "$FIXTURES"/fuzz/*.dat
'

test_expect_success 'every fixture with -t, -l and --ts-diff too' '
	all_same_both_ways -t -l --ts-diff -- "$FIXTURES"/*.dat
'

test_expect_success 'every fuzz corpus file (damaged ones included)' '
	all_same_both_ways -- "$SRC_DIR"/fuzz/corpus/tracedat/*
'

test_expect_success CORPUS 'every ../shared/corpus file' '
	all_same_both_ways -- "$CORPUS"/*.dat &&
	all_same_both_ways -t -- "$CORPUS"/*.dat
'

# same_ahead FILE...: report with v7 chunks decompressed ahead in a second
# thread (the default) and on the reader's thread alone: same bytes, same errors.
same_ahead() {
	for f in "$@"; do
		TRACE_CMD_NO_AHEAD=1 timeout 5 "$TRACE_CMD" report "$f" >sync.out 2>sync.err
		echo "exit $?" >>sync.err
		timeout 5 "$TRACE_CMD" report "$f" >ahead.out 2>ahead.err
		echo "exit $?" >>ahead.err
		cmp -s sync.out ahead.out && cmp -s sync.err ahead.err ||
			{ echo "differs: $f"; diff sync.err ahead.err | head -5; return 1; }
	done
}

test_expect_success 'decompressing ahead changes nothing: fixtures, fuzz files, corpus' '
	same_ahead "$FIXTURES"/*v7*.dat "$FIXTURES"/fuzz/*.dat "$SRC_DIR"/fuzz/corpus/tracedat/* \
		$(ls "$CORPUS"/*v7*.dat 2>/dev/null)
'

test_expect_success 'a difference between the printers would be seen' '
	printf "#!/bin/sh\nif [ -n \"\$TRACE_CMD_SLOW_PRINT\" ]; then exec %s \"\$@\" -t; fi\nexec %s \"\$@\"\n" \
		"$TRACE_CMD" "$TRACE_CMD" >skewed && chmod +x skewed &&
	! TRACE_CMD=./skewed same_both_ways "$FIXTURES"/synth-instances-v6.dat 2>/dev/null
'

test_lock_tracefs

test_expect_success TRACEFS 'record every event under a small load (tracefs left as found)' '
	tracefs_state >before &&
	"$TRACE_CMD" record -q -e all -o all.dat \
		sh -c "ls -l /usr/bin >/dev/null; cat /etc/passwd >/dev/null" \
		>record.out 2>&1 &&
	tracefs_state >after &&
	test_cmp before after &&
	"$TRACE_CMD" convert --file-version 7 --compression zstd -i all.dat -o all7.dat
'

test_expect_success TRACEFS 'the -e all recording prints the same through both printers' '
	same_both_ways all.dat && same_both_ways all7.dat && same_both_ways all.dat -t &&
	test $(wc -l <fast.out) -gt 1000
'

test_expect_success TRACEFS,UPSTREAM 'and its event lines equal upstream'"'"'s, v6 and v7' '
	same_as_upstream all.dat && same_as_upstream all7.dat
'

test_done
