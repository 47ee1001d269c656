#!/bin/bash
# report on the foreign files of ../shared/corpus: 32-bit ARM and x86, arm64
# printk formats, the 2014 writer, v7 zstd and zlib, an empty buffer, and a
# file cut after its header (upstream prints cpus=1 and exits 0; we fail).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

for f in arm32-v6-sched-load arm64-v6-rtapp-bprint i686-v6-ext4 x86_64-v6-2014-i915 \
	 x86_64-v7-zstd-stacktrace x86_64-v7-zstd-empty; do
	test_expect_success CORPUS,UPSTREAM "$f: event lines equal upstream's" '
		same_as_upstream "$CORPUS/'$f'.dat"
	'
done

test_expect_success CORPUS 'the zlib file equals upstream'"'"'s report of its uncompressed copy' '
	"$TRACE_CMD" report --line-3.1 "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat" >out &&
	events_of out >ours &&
	events_of "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat.expected" >expect &&
	test_cmp expect ours
'

test_expect_success CORPUS 'x86-tsc timestamps are printed raw, as upstream does' '
	"$TRACE_CMD" report --line-3.1 "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat" >out &&
	grep -v "^cpus=" out | head -n 1 | grep -q "^ qemu-system-x86-533825 \[005\]303280081900681: kvm_halt_poll_ns: "
'

test_expect_success CORPUS 'a buffer with no CPU data prints only the header' '
	"$TRACE_CMD" report "$CORPUS/x86_64-v7-zstd-empty.dat" >out &&
	echo "cpus=4" >expect &&
	test_cmp expect out
'

test_expect_success CORPUS 'the file cut after its header fails naming the offset' '
	test_expect_code 1 "$TRACE_CMD" report "$CORPUS/x86_64-v6-truncated-after-header.dat" >out 2>err &&
	test "$(cat err)" = "trace-cmd report: '"'"'$CORPUS/x86_64-v6-truncated-after-header.dat'"'"': truncated at offset 3178302 reading CPU 0 data (need 4096 bytes)" &&
	test ! -s out
'

test_expect_success CORPUS,UPSTREAM 'upstream wrongly accepts the cut file (cpus=1, exit 0)' '
	"$UPSTREAM" report -i "$CORPUS/x86_64-v6-truncated-after-header.dat" >out 2>/dev/null &&
	test "$(cat out)" = "cpus=1"
'

# The file's sunrpc formats have print formats libtraceevent cannot parse;
# their fields parse (an event of theirs would print as FAILED TO PARSE).
# 3.1.6 said nothing either; ours failed them.
test_expect_success CORPUS,UPSTREAM34 '--check-events passes where only print formats fail, as 3.4 does' '
	f=$CORPUS/arm64-v6-rtapp-bprint.dat &&
	"$TRACE_CMD" report --check-events -i "$f" >out 2>err &&
	"$UPSTREAM34" report --check-events -i "$f" >up.out 2>up.err &&
	test_cmp up.out out && test ! -s err && test ! -s out
'

# A stack trace goes with the event it was taken at: 3.4 shows a kernel_stack
# record after a shown event on its CPU, whatever -F or --pid say of the
# stack (3.1.6 showed every stack with -F, ours none).  Compared by each
# line's time and event, and the stack lines, whatever the line prefix.
events_and_stacks() {
	grep -oE "^=> .*|[0-9]+\.[0-9]+: [a-z_]+:" "$1"
}
test_expect_success CORPUS,UPSTREAM34 'stack traces shown with the events -F, --pid and --comm keep, as 3.4' '
	f=$CORPUS/x86_64-v7-zstd-stacktrace.dat &&
	for a in "-F sched_switch" "-F sched_wakeup" "--pid 11614" "--comm example_user_st" \
		 "--cpu 1 -F sched_switch" "-v -F sched_switch"; do
		"$TRACE_CMD" report $a -i "$f" >ours &&
		"$UPSTREAM34" report $a -i "$f" >up &&
		events_and_stacks ours >ours.ev && events_and_stacks up >up.ev &&
		test_cmp up.ev ours.ev || { echo "report $a"; return 1; }
	done &&
	"$TRACE_CMD" report -F sched_switch -i "$f" >ours &&
	test $(grep -c "kernel_stack:" ours) = 17
'

test_expect_success CORPUS '32-bit and 8-CPU layouts come from the file itself' '
	"$HELPERS/dump-header" "$CORPUS/arm32-v6-sched-load.dat" >h &&
	grep -qx "long size 4" h && grep -qx "kernel long size 4" h &&
	grep -qx "cpus 8" h && grep -qx "endian little" h &&
	"$HELPERS/dump-header" "$CORPUS/x86_64-v7-zstd-stacktrace.dat" >h &&
	grep -qx "compression zstd" h && grep -qx "version 7" h && grep -qx "cpus 8" h
'

test_done
