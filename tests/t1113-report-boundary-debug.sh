#!/bin/bash
# report --boundary and --debug (each sub-buffer's start, where each event
# lies in its page), and the header lines upstream logs at the info level
# ("version = N", "CPU N is empty"): byte for byte as upstream 3.4 prints
# them, on the fixtures and the corpus.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

D=$FIXTURES/synth-dropped-v6.dat

test_expect_success '--boundary marks each sub-buffer'"'"'s first event, after a drop line' '
	"$TRACE_CMD" report --boundary -i "$D" >out &&
	cat >expect <<-\EOF &&
	cpus=2
	CPU:0 [SUBBUFFER START]
	            bash-1234  [000] ..... 12345.678901: print:                tracing_mark_write: first page
	            bash-1234  [000] ..... 12345.678902: print:                tracing_mark_write: still first page
	CPU:0 [17 EVENTS DROPPED]
	CPU:0 [SUBBUFFER START]
	            bash-1234  [000] ..... 12345.678951: print:                tracing_mark_write: after 17 lost
	CPU:1 [SUBBUFFER START]
	             cat-1300  [001] ..... 12345.678971: print:                tracing_mark_write: cpu1 before loss
	CPU:0 [EVENTS DROPPED]
	CPU:0 [SUBBUFFER START]
	            bash-1234  [000] ..... 12345.678991: print:                tracing_mark_write: after an unknown number lost
	CPU:1 [3 EVENTS DROPPED]
	CPU:1 [SUBBUFFER START]
	             cat-1300  [001] ..... 12345.678996: print:                tracing_mark_write: cpu1 after 3 lost
	EOF
	test_cmp expect out
'

test_expect_success '--debug: the page'"'"'s stamp and offset, each event'"'"'s delta, offset and size, the padding after' '
	"$TRACE_CMD" report --debug -i "$D" >out &&
	sed -n "1,7p" out >head &&
	cat >expect <<-\EOF &&
	version = 6
	cpus=2
	CPU:0 [SUBBUFFER START] [12345678901000:0x1000]
	            bash-1234  [000] ..... 12345.678901: print:                tracing_mark_write: first page [0:0x10:28]
	            bash-1234  [000] ..... 12345.678902: print:                tracing_mark_write: still first page [1000:0x30:36]
	 PADDING: delta:1 length:4004
	CPU:0 [17 EVENTS DROPPED]
	EOF
	test_cmp expect head
'

test_expect_success '--debug of compressed data numbers pages as upstream'"'"'s decompressed copy does' '
	"$TRACE_CMD" report --debug -i "$FIXTURES/synth-pages-v7-zstd.dat" >out &&
	grep "SUBBUFFER" out >got &&
	cat >expect <<-\EOF &&
	CPU:0 [SUBBUFFER START] [12345678901000:0x2000]
	CPU:1 [SUBBUFFER START] [12345678901500:0x6000]
	CPU:0 [SUBBUFFER START] [12345679341245:0x4000]
	EOF
	test_cmp expect got &&
	"$TRACE_CMD" report --debug -i "$FIXTURES/synth-instances-v7-zstd.dat" >out &&
	grep "SUBBUFFER" out >got &&
	cat >expect <<-\EOF &&
	     CPU:0 [SUBBUFFER START] [12345678901000:0x1000]
	foo: CPU:0 [SUBBUFFER START] [12345678903000:0x3000]
	foo: CPU:1 [SUBBUFFER START] [12345678907000:0x4000]
	     CPU:1 [SUBBUFFER START] [12345678908000:0x2000]
	EOF
	test_cmp expect got
'

test_expect_success '--format jsonl stays one record a line with --debug or -V' '
	"$TRACE_CMD" report --debug --format jsonl -i "$D" >out &&
	"$TRACE_CMD" report -N -V --format jsonl -i "$D" >>out &&
	"$TRACE_CMD" report --format jsonl -i "$D" >plain && cat plain plain >want &&
	test $(wc -l <out) = $(wc -l <want) && ! grep -v "^{" out
'

test_expect_success '--boundary and --debug are report options in -h and report(1)' '
	"$TRACE_CMD" report -h >usage &&
	grep -q "^  --boundary " usage && grep -q "^  --debug " usage &&
	grep -q "^\*--boundary\*::" "$TEST_DIR/../Documentation/trace-cmd-report.1.txt" &&
	grep -q "^\*--debug\*::" "$TEST_DIR/../Documentation/trace-cmd-report.1.txt"
'

# same34 OUT ARGS: our report and 3.4's print the same to stdout, less
# libtraceevent's own log lines (its plugins, loaded and unloaded).
same34() {
	"$TRACE_CMD" report "$@" >ours.out 2>/dev/null
	"$UPSTREAM34" report "$@" >up.out 2>/dev/null
	grep -av -e "^registering plugin: " -e "^overriding event " -e "^removing override handler " \
		ours.out >ours.cmp &&
	grep -av -e "^registering plugin: " -e "^overriding event " -e "^removing override handler " \
		up.out >up.cmp &&
	test_cmp up.cmp ours.cmp
}

# synth-failed and synth-latency-clock differ from 3.4 for reasons of their
# own (t1112); -F is tried on the files with sched_switch events.
for f in "$FIXTURES"/*.dat; do
	case $f in
	*synth-failed*|*latency-clock*) continue ;;
	esac
	for args in "--boundary" "--debug" "--debug -l" "--boundary -F sched_switch" "--verbose=info" \
		    "-V" "--verbose=warn"; do
		case $f:$args in
		*sched*:*-F*) ;;
		*:*-F*) continue ;;
		esac
		test_expect_success UPSTREAM34 "report $args of $(basename $f) equals 3.4's" '
			same34 '"$args"' -i "'"$f"'"
		'
	done
done

for f in arm32-v6-sched-load arm64-v6-rtapp-bprint i686-v6-ext4 x86_64-v6-2014-i915 \
	 x86_64-v7-zstd-stacktrace x86_64-v7-zlib-x86tsc-kvm x86_64-v7-zstd-empty; do
	for args in "--boundary" "--debug" "--verbose=info"; do
		test_expect_success CORPUS,UPSTREAM34 "report $args of $f equals 3.4's" '
			same34 '"$args"' -i "$CORPUS/'$f'.dat"
		'
	done
done

test_done
