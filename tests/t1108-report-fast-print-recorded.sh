#!/bin/bash
# report's compiled event printer against libtraceevent's own
# (TRACE_CMD_SLOW_PRINT=1) on a fresh -e all recording, v6 and v7: the same
# bytes, and the event lines upstream's report prints.  (t1107: every fixture
# and corpus file.)
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"
. "$TEST_DIR/lib-tracefs.sh"

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
