#!/bin/bash
# dump: each flag's output equals upstream's dump on v6 and v7 files (zstd,
# none, instances, latency, big-endian 32-bit, the corpus); zlib files
# (upstream has no zlib) against python's decompressed copy; errors.
. "$(dirname "$0")/test-lib.sh"

FLAGS="--summary --head-page --head-event --ftrace-events --systems --events --kallsyms
	--printk --cmd-lines --flyrecord --clock -v --options --all --verbose --verbose=3"
F=$FIXTURES

# same_as_upstream FILE: every flag, and no flag, prints what upstream prints.
same_as_upstream() {
	for fl in $FLAGS "" "--systems --head-page --cmd-lines" "--options --clock" \
		  "--options --flyrecord"; do
		"$UPSTREAM" dump $fl -i "$1" >u 2>/dev/null
		"$TRACE_CMD" dump $fl -i "$1" >o 2>err || { echo "dump $fl failed"; cat err; return 1; }
		test_cmp u o || { echo "dump $fl -i $1"; return 1; }
	done
}

for f in synth-instances-v6.dat synth-instances-v7-zstd.dat synth-latency-v6.dat \
	 synth-latency-v7.dat synth-latency-v7-zstd.dat synth-function-v6.dat \
	 synth-sched-be32-v6.dat synth-funcgraph-v7.dat synth-options-v6.dat synth-options-v7-zstd.dat; do
	test_expect_success UPSTREAM "$f: every flag as upstream's dump" "same_as_upstream \$F/$f"
done

test_expect_success UPSTREAM,CORPUS 'corpus files: every flag as upstream' '
	for f in x86_64-v7-zstd-stacktrace.dat x86_64-v7-zstd-empty.dat i686-v6-ext4.dat \
		 arm64-v6-rtapp-bprint.dat arm32-v6-sched-load.dat; do
		same_as_upstream "$CORPUS/$f" || return 1
	done
'

test_expect_success 'an unknown --verbose level is a usage error' '
	test_expect_code 2 "$TRACE_CMD" dump --verbose=loud -i "$F/synth-instances-v6.dat" 2>err &&
	grep -q "^trace-cmd dump: invalid --verbose value '"'"'loud'"'"': use none, crit" err
'

test_expect_success 'the summary of a v7 zstd file with an instance' '
	"$TRACE_CMD" dump -i "$F/synth-instances-v7-zstd.dat" >out &&
	{
		printf "\n Tracing meta data in file %s:\n" "$F/synth-instances-v7-zstd.dat"
		printf "\t%s\n" "[Initial format]"
		printf "\t\t%s\t%s\n" 7 "[Version]" 0 "[Little endian]" 8 "[Bytes in a long]" \
			4096 "[Page size, bytes]" zstd "[Compression algorithm]" \
			1.5.4 "[Compression version]"
		printf "\t%s\n" "[buffer \"\", \"local\" clock, 4096 page size, 2 cpus, 196 bytes flyrecord data]" \
			"[buffer \"foo\", \"local\" clock, 4096 page size, 2 cpus, 189 bytes flyrecord data]" \
			"[20 options]" "[Saved command lines, 34 bytes]" "[Trace printk, 0 bytes]" \
			"[Kallsyms, 152 bytes]" "[Events format, 1 systems]" "[Ftrace format, 1 events]" \
			"[Header page, 205 bytes]" "[Header event, 205 bytes]" "[12 sections]"
	} >expect &&
	test_cmp expect out
'

test_expect_success PYTHON 'a zlib file dumps like its decompressed copy' '
	python3 "$HELPERS/mkdat.py" --decompress "$F/synth-funcgraph-v7-zlib.dat" plain.dat >/dev/null &&
	for fl in --head-page --head-event --ftrace-events --events --systems --kallsyms \
		  --printk --cmd-lines --clock; do
		"$TRACE_CMD" dump $fl -i "$F/synth-funcgraph-v7-zlib.dat" | grep -v "^	\[Section" >z &&
		"$TRACE_CMD" dump $fl -i plain.dat | grep -v "^	\[Section" >p &&
		test_cmp p z || return 1
	done &&
	"$TRACE_CMD" dump --head-page -i "$F/synth-funcgraph-v7-zlib.dat" | head -1 >sect &&
	grep -q "^	\[Section 16 @ [0-9]*: \"headers\", flags 0x1, [0-9]* bytes\]$" sect
'

test_expect_success CORPUS 'a file whose data lies past its end: exit 1 naming the offset' '
	test_expect_code 1 "$TRACE_CMD" dump -v -i "$CORPUS/x86_64-v6-truncated-after-header.dat" >out 2>err &&
	test "$(cat err)" = "trace-cmd dump: '"'"'$CORPUS/x86_64-v6-truncated-after-header.dat'"'"': CPU 0 data at offset 3178496 (0 bytes) is past the end of the file (3178302 bytes)" &&
	! grep -q valid out
'

test_expect_success 'a file cut in its metadata, a non-trace file, a missing file: exit 1' '
	head -c 300 "$F/synth-instances-v6.dat" >cut.dat &&
	test_expect_code 1 "$TRACE_CMD" dump -i cut.dat >/dev/null 2>err &&
	grep -q "^trace-cmd dump: '"'"'cut.dat'"'"': truncated or damaged at offset [0-9]* reading " err &&
	echo hello >text.dat &&
	test_expect_code 1 "$TRACE_CMD" dump -i text.dat 2>err &&
	test "$(cat err)" = "trace-cmd dump: '"'"'text.dat'"'"': truncated or damaged at offset 0 reading the file header" &&
	echo "not a trace file at all, longer than its header" >long.dat &&
	test_expect_code 1 "$TRACE_CMD" dump -i long.dat 2>err &&
	test "$(cat err)" = "trace-cmd dump: '"'"'long.dat'"'"' is not a trace.dat file of version 1 to 7" &&
	test_expect_code 1 "$TRACE_CMD" dump -i nope.dat 2>err &&
	test "$(cat err)" = "trace-cmd dump: cannot open '"'"'nope.dat'"'"': No such file or directory"
'

test_expect_success 'usage: -h to stdout, errors exit 2 with the usage' '
	"$TRACE_CMD" dump -h >out && head -1 out | grep -q "^usage: trace-cmd dump" &&
	test_expect_code 2 "$TRACE_CMD" dump --bogus 2>err &&
	test "$(head -1 err)" = "trace-cmd dump: unknown option '"'"'--bogus'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" dump -i 2>err &&
	test "$(head -1 err)" = "trace-cmd dump: option '"'"'-i'"'"' needs a value" &&
	test_expect_code 2 "$TRACE_CMD" dump extra 2>err &&
	test "$(head -1 err)" = "trace-cmd dump: unexpected argument '"'"'extra'"'"'"
'

test_done
