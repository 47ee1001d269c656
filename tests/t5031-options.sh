#!/bin/bash
# options: the plugin options report -O takes, listed as upstream lists them.
. "$(dirname "$0")/test-lib.sh"

test_expect_success UPSTREAM 'the list equals upstream 3.1.6'"'"'s' '
	"$TRACE_CMD" options >out 2>err && test ! -s err &&
	"$UPSTREAM" options >up && test_cmp up out
'

# 3.4 adds fgraph's retval-* options, for return values our report does not print.
test_expect_success UPSTREAM34 'the list equals 3.4'"'"'s but for its retval options' '
	"$TRACE_CMD" options >out &&
	"$UPSTREAM34" options >up34 &&
	awk "/^------------\$/ || /^============\$/ { if (block !~ /option:\tretval-/) printf \"%s\", block; block = \$0 \"\\n\"; next }
	     { block = block \$0 \"\\n\" } END { if (block !~ /option:\tretval-/) printf \"%s\", block }" up34 >up34.kept &&
	test_cmp up34.kept out
'

test_expect_success 'every option listed is one report -O takes' '
	"$TRACE_CMD" options | sed -n "s/^  option:\t//p" >names &&
	test -s names &&
	for o in $(cat names); do
		"$TRACE_CMD" report -O "$o" -i "$FIXTURES/synth-funcgraph-v6.dat" >/dev/null ||
			{ echo "-O $o"; return 1; }
	done
'

test_expect_success 'usage errors exit 2 with the usage' '
	check_usage 2 "trace-cmd options: unknown option '"'"'-x'"'"'" options -x &&
	check_usage 2 "trace-cmd options: unexpected argument '"'"'foo'"'"'" options foo &&
	"$TRACE_CMD" options -h >out && head -1 out | grep -qx "usage: trace-cmd options"
'

test_done
