#!/bin/bash
# The trace.dat v6 writer through its API alone (tests/helper/write-dat):
# layout, empty CPUs, sequential output to a pipe, a full disk, versions.
. "$(dirname "$0")/test-lib.sh"

cp -r "$FIXTURES/fake-tracing" fake && mkdir fake/per_cpu/cpu2 &&
cp fake/per_cpu/cpu1/stats fake/per_cpu/cpu2/stats
export TRACE_CMD_TRACING_DIR=$PWD/fake
# The symbols the fixture's marker events need, plus one in a module.
{ cat "$FIXTURES/fake-tracing.kallsyms"; echo "ffffffffc0000000 t helper	[mod]"; } >kallsyms
CPU0=fake/per_cpu/cpu0/trace_pipe_raw CPU1=fake/per_cpu/cpu1/trace_pipe_raw
# CPU 1's pages are written as CPU 2's below: the report's CPU column says so.
sed "s/\[001\]/[002]/" "$FIXTURES/fake-tracing.report" >expect

test_expect_success 'a CPU without data gets size 0 and the others stay page-aligned' '
	"$HELPERS/write-dat" -k kallsyms w.dat $CPU0 - $CPU1 &&
	"$HELPERS/dump-header" w.dat >layout &&
	grep -qx "cpus 3" layout &&
	grep -qx "kallsyms [0-9]* printk 0 cmdlines $(wc -c <fake/saved_cmdlines)" layout &&
	# The kallsyms section: its u32 size, then the text.
	size=$(printf "%08x" $(wc -c <kallsyms) | sed "s/\(..\)\(..\)\(..\)\(..\)/\\\\x\4\\\\x\3\\\\x\2\\\\x\1/") &&
	{ printf "$size"; cat kallsyms; } >kallsyms.section &&
	grep -c -F -f kallsyms w.dat >/dev/null &&
	python3 -c "import sys; d=open(\"w.dat\",\"rb\").read(); s=open(\"kallsyms.section\",\"rb\").read(); sys.exit(s not in d)" &&
	grep -qx "  cpu 1 offset [0-9]* size 0" layout &&
	for off in $(sed -n "s/^  cpu [0-9]* offset \([0-9]*\) .*/\1/p" layout); do
		test $((off % 4096)) = 0 || { echo "offset $off"; exit 1; }
	done &&
	off2=$(sed -n "s/^  cpu 2 offset \([0-9]*\) .*/\1/p" layout) &&
	test $(wc -c <w.dat) = $((off2 + 4096)) &&
	cmp $CPU1 <(tail -c 4096 w.dat)
'

test_expect_success 'all systems are written when no event list is given' '
	grep -qx "formats 7" layout
'

test_expect_success 'our report and upstream agree on a file with an empty CPU' '
	"$TRACE_CMD" report --line-3.1 -i w.dat >ours &&
	grep -qx "cpus=3" ours && ! grep -q "is empty$" ours &&
	"$TRACE_CMD" report -V --cpus -i w.dat >verbose &&
	grep -qx "CPU 1 is empty" verbose &&
	sed "0,/^cpus=/d" ours >ours.events &&
	test_cmp expect ours.events
'

test_expect_success UPSTREAM 'upstream reads the file with an empty CPU' '
	"$UPSTREAM" report -i w.dat >theirs 2>/dev/null &&
	sed "0,/^cpus=/d" theirs >theirs.events &&
	test_cmp expect theirs.events
'

test_expect_success 'only sequential writes: a pipe gets the same bytes as a file' '
	"$HELPERS/write-dat" -k kallsyms a.dat $CPU0 - $CPU1 &&
	"$HELPERS/write-dat" -k kallsyms /dev/stdout $CPU0 - $CPU1 | cat >piped.dat &&
	test $(wc -c <a.dat) = $(wc -c <piped.dat) &&
	# Only the 8 bytes of the TRACEID option may differ between two files.
	test $(cmp -l a.dat piped.dat | wc -l) -le 8
'

test_expect_success 'a full disk is an error naming the file' '
	test_expect_code 1 "$HELPERS/write-dat" -k kallsyms /dev/full $CPU0 2>err &&
	test "$(cat err)" = "trace-cmd write-dat: cannot write '"'"'/dev/full'"'"': No space left on device"
'

test_expect_success 'versions other than 6 and 7 are refused' '
	test_expect_code 1 "$HELPERS/write-dat" -v 8 v8.dat $CPU0 2>err &&
	test "$(cat err)" = "trace-cmd write-dat: file version 8 is not supported (this writer writes versions 6 and 7)" &&
	test ! -e v8.dat
'

test_done
