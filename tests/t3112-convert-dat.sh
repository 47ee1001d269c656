#!/bin/bash
# convert --file-version/--compression: the same trace in another version or
# compression, checked with our report, upstream's report, and upstream's
# own convert run on our output.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"
. "$TEST_DIR/lib-pagesize.sh"

prefix_of() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read(64)
v = d[10:d.index(b"\0", 10)].decode()
print(v, d[18:d.index(b"\0", 18)].decode() if v == "7" else "-")' "$1"
}

# convert_check IN TARGET-ARGS WANT-PREFIX
convert_check() {
	in=$1 args=$2 want=$3
	rm -f c.dat && eval "\"\$TRACE_CMD\" convert -i \"\$in\" -o c.dat $args" &&
	echo "$want" >expect && prefix_of c.dat >got && test_cmp expect got &&
	"$TRACE_CMD" report --line-3.1 -i "$in" >a && "$TRACE_CMD" report --line-3.1 -i c.dat >b &&
	test_cmp a b || return 1
	if test_have_prereq UPSTREAM; then
		upstream_events c.dat >u && events_of b >be && test_cmp be u
	fi
}

TARGETS='"--file-version 6:6 -" "--file-version 7 --compression none:7 none" "--compression zlib:7 zlib" "--compression zstd:7 zstd" "--compression any:7 zstd"'

for f in synth-instances-v6.dat synth-instances-v7-zstd.dat synth-funcgraph-v7-zlib.dat \
	 synth-dropped-v7-zstd.dat; do
	test_expect_success PYTHON "$f in every version and compression reports the same" '
		eval "set -- $TARGETS" &&
		for t; do
			convert_check "$FIXTURES/'$f'" "${t%%:*}" "${t#*:}" || { echo "target $t"; return 1; }
		done
	'
done

test_expect_success CORPUS,PYTHON 'corpus files from other machines convert too' '
	for cf in x86_64-v7-zstd-stacktrace.dat x86_64-v7-zlib-x86tsc-kvm.dat; do
		convert_check "$CORPUS/$cf" "--file-version 6" "6 -" &&
		convert_check "$CORPUS/$cf" "--compression zstd" "7 zstd" || { echo "$cf"; return 1; }
	done
'

test_expect_success 'v6 -> v7 zstd -> v6 gives back the CPU data byte for byte' '
	"$TRACE_CMD" convert -i "$FIXTURES/synth-instances-v6.dat" -o z.dat --compression zstd &&
	"$TRACE_CMD" convert -i z.dat -o back.dat --file-version 6 &&
	"$HELPERS/dump-header" "$FIXTURES/synth-instances-v6.dat" | grep "^  cpu" >orig &&
	"$HELPERS/dump-header" back.dat | grep "^  cpu" >again &&
	sed "s/offset [0-9]* //" orig >o && sed "s/offset [0-9]* //" again >g && test_cmp o g
'

test_expect_success UPSTREAM,PYTHON "upstream's convert reads our zstd output and ours reads its result" '
	"$TRACE_CMD" convert -i "$FIXTURES/synth-instances-v6.dat" -o ours7.dat --compression zstd &&
	"$UPSTREAM" convert -i ours7.dat -o up6.dat --file-version 6 >/dev/null 2>&1 &&
	"$UPSTREAM" convert -i ours7.dat -o up7.dat --file-version 7 --compression none >/dev/null 2>&1 &&
	"$TRACE_CMD" report -i "$FIXTURES/synth-instances-v6.dat" >orig &&
	for f in up6.dat up7.dat; do
		"$TRACE_CMD" report -i $f >r && test_cmp orig r || return 1
	done
'

test_expect_success UPSTREAM 'with no version named, convert writes v7 zstd as upstream'"'"'s convert does' '
	"$UPSTREAM" convert -i "$FIXTURES/synth-instances-v6.dat" -o up.dat 2>/dev/null &&
	"$TRACE_CMD" convert -i "$FIXTURES/synth-instances-v6.dat" -o ours.dat &&
	prefix_of up.dat >expect && echo "7 zstd" >want && test_cmp want expect &&
	prefix_of ours.dat >got && test_cmp expect got &&
	"$TRACE_CMD" report -i "$FIXTURES/synth-instances-v6.dat" >orig &&
	"$TRACE_CMD" report -i ours.dat >new && test_cmp orig new
'

test_expect_success 'the output may be named last instead of with -o, as upstream allows' '
	rm -f last.dat &&
	"$TRACE_CMD" convert -i "$FIXTURES/synth-instances-v6.dat" --file-version 6 last.dat &&
	prefix_of last.dat >got && echo "6 -" >want && test_cmp want got &&
	test_expect_code 2 "$TRACE_CMD" convert -i "$FIXTURES/synth-instances-v6.dat" 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: no -o given: say where to write" &&
	test_expect_code 2 "$TRACE_CMD" convert -i "$FIXTURES/synth-instances-v6.dat" a.dat b.dat 2>err &&
	test "$(head -n 1 err)" = "trace-cmd convert: unexpected argument '"'"'b.dat'"'"'" &&
	test ! -e a.dat
'

test_expect_success 'usage errors exit 2 with one line, and nothing is written' '
	for args in "--file-version 5 -o x.dat:file version 5 is not supported: use 6 or 7" \
		    "--compression lz4 -o x.dat:unknown compression '"'"'lz4'"'"': use none, zlib, zstd or any" \
		    "--file-version 6 --compression zstd -o x.dat:--compression zstd needs --file-version 7" \
		    "--to chrome-json --file-version 7 -o x.dat:--to cannot be combined with --file-version or --compression" \
		    "--file-version 7:no -o given: say where to write" \
		    "--file-version 7 -o -:a trace.dat is written to a file, not '"'"'-'"'"'"; do
		eval "set -- ${args%%:*}" &&
		test_expect_code 2 "$TRACE_CMD" convert -i "$FIXTURES/synth-instances-v6.dat" "$@" 2>err &&
		test "$(head -n 1 err)" = "trace-cmd convert: ${args#*:}" &&
		grep -q "^usage: trace-cmd convert" err && test ! -e x.dat || { echo "$args"; return 1; }
	done
'

test_expect_success 'converting onto the input is refused and the input kept' '
	cp "$FIXTURES/synth-instances-v6.dat" self.dat &&
	test_expect_code 1 "$TRACE_CMD" convert -i self.dat -o self.dat --file-version 7 2>err &&
	test "$(cat err)" = "trace-cmd convert: '"'"'self.dat'"'"' is the input file: write to another file" &&
	cmp self.dat "$FIXTURES/synth-instances-v6.dat"
'

test_expect_success 'a damaged input fails with the reader'"'"'s message and leaves no output' '
	head -c 3000 "$FIXTURES/synth-instances-v6.dat" >cut.dat &&
	test_expect_code 1 "$TRACE_CMD" convert -i cut.dat -o out.dat --file-version 7 2>err &&
	grep -q "^trace-cmd convert: .*cut.dat" err && test ! -e out.dat
'

# Report reads the data by the BUFFER option's page size: the copy must
# give that size (and chunks of 10 of those pages), not the header's.
for sizes in "4096 2048" "4096 65536" "65536 4096"; do
	test_expect_success PYTHON "pages of ${sizes% *} bytes under a header saying ${sizes#* }: v7 and v6 report the same" '
		pages_file pages.dat '"$sizes"' &&
		"$TRACE_CMD" report -i pages.dat >a &&
		for v in 7 6; do
			"$TRACE_CMD" convert --file-version $v -i pages.dat -o c$v.dat &&
			"$TRACE_CMD" report -i c$v.dat >b &&
			test_cmp a b || { echo "version $v"; return 1; }
		done
	'
done

test_expect_success PYTHON 'buffers of different page sizes are refused, nothing written' '
	instance_pages_file mixed.dat &&
	"$TRACE_CMD" report -i mixed.dat >/dev/null &&
	test_expect_code 1 "$TRACE_CMD" convert -i mixed.dat -o mixed-c.dat 2>err &&
	echo "trace-cmd convert: '"'"'mixed.dat'"'"': buffer '"'"''"'"' has pages of 4096 bytes, buffer '"'"'foo'"'"' of 8192: not rewritten" >want &&
	test_cmp want err && test ! -e mixed-c.dat
'

test_done
