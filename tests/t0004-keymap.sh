#!/bin/bash
# The exports' per-task table (trace-keymap.c), as a unit: keys that differ
# only in their high bits, growth from empty to 100,000 keys, values kept.
. "$(dirname "$0")/test-lib.sh"

test_expect_success 'keymap keeps every key and its value through growth' '
	"$TEST_DIR/helper/keymap-check" 100000 >out &&
	echo "ok 100000" >expect &&
	test_cmp expect out
'

test_expect_success 'keymap with one key' '
	"$TEST_DIR/helper/keymap-check" 1 >out &&
	echo "ok 1" >expect &&
	test_cmp expect out
'

test_done
