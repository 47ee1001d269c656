#!/bin/bash
# Synthetic trace.dat files from tests/helper/mkdat.py, an independent Python
# writer: upstream's report must read each as intended (its committed expected
# text), and so must ours.  Covers both byte orders, long size 4 and 8, v6 and
# v7 (none/zlib/zstd), dropped events, instances, function/graph, latency.
. "$(dirname "$0")/test-lib.sh"

MKDAT=$HELPERS/mkdat.py
# mkdat.py compresses and decompresses zstd through the zstd(1) CLI
command -v zstd >/dev/null && test_set_prereq ZSTD
LIST=$FIXTURES/synth.list

fixture_name() {
	case $3 in
	none) echo "synth-$1-v$2.dat" ;;
	*) echo "synth-$1-v$2-$3.dat" ;;
	esac
}

# every fixture as "scenario version compression file"
fixtures() {
	grep -v '^#' "$LIST" | while read -r name ver comp; do
		echo "$name $ver $comp $(fixture_name "$name" "$ver" "$comp")"
	done
}

# the expected text of a scenario (latency-clock reads like latency)
expected_of() {
	echo "$FIXTURES/synth-${1%-clock}.expected"
}

# the event lines of a report: everything after its "cpus=N" header line
body() {
	awk 'seen { print } /^cpus=[0-9]+$/ { seen = 1 }' "$1"
}

# the compression name and version a v7 file names after its 18-byte prefix
compression_of() {
	tail -c +19 "$1" | head -c 40 | tr "\0" "\n" | sed -n 1,2p
}

test_expect_success PYTHON 'every listed fixture is committed, with its expected text' '
	fixtures | while read -r name ver comp file; do
		test -s "$FIXTURES/$file" || { echo "missing $file"; exit 1; }
		test -s "$(expected_of "$name")" || { echo "no expected for $name"; exit 1; }
	done
'

test_expect_success PYTHON 'the uncompressed fixtures are what mkdat.py writes today' '
	fixtures | while read -r name ver comp file; do
		test "$comp" = none || continue
		python3 "$MKDAT" --scenario "$name" --file-version "$ver" \
			--compression none out.dat &&
		cmp out.dat "$FIXTURES/$file" || { echo "stale $file"; exit 1; }
	done
'

test_expect_success PYTHON,ZSTD 'each compressed fixture decompresses to the v7 none file mkdat.py writes' '
	fixtures | while read -r name ver comp file; do
		test "$comp" = none && continue
		python3 "$MKDAT" --scenario "$name" --file-version 7 plain.dat &&
		python3 "$MKDAT" --decompress "$FIXTURES/$file" got.dat &&
		cmp plain.dat got.dat || { echo "$file"; exit 1; }
	done
'

test_expect_success PYTHON 'the fixtures are small' '
	fixtures | while read -r name ver comp file; do
		size=$(stat -c %s "$FIXTURES/$file")
		test "$size" -le 32768 || { echo "$file: $size bytes"; exit 1; }
	done
'

test_expect_success PYTHON,ZSTD 'compressing now names the algorithm and version, and decompresses back' '
	python3 "$MKDAT" --scenario sched --file-version 7 --compression zstd z.dat &&
	compression_of z.dat >head &&
	printf "zstd\n%s\n" "$(zstd --version | sed "s/.* v\([0-9.]*\),.*/\1/")" >want &&
	test_cmp want head &&
	python3 "$MKDAT" --scenario sched --file-version 7 --compression zlib l.dat &&
	compression_of l.dat >head &&
	printf "zlib\n%s\n" "$(python3 -c "import zlib; print(zlib.ZLIB_VERSION)")" >want &&
	test_cmp want head &&
	python3 "$MKDAT" --decompress z.dat z-plain.dat &&
	python3 "$MKDAT" --decompress l.dat l-plain.dat &&
	cmp z-plain.dat "$FIXTURES/synth-sched-v7.dat" &&
	cmp l-plain.dat "$FIXTURES/synth-sched-v7.dat"
'

test_expect_success PYTHON 'mkdat.py refuses bad specs with a message and exit 1' '
	echo "{\"version\": 6, \"compression\": \"zstd\"}" >bad.json &&
	test_expect_code 1 python3 "$MKDAT" bad.json out.dat 2>err &&
	grep -q "^mkdat: v6 files are never compressed" err &&
	echo "{\"events\": [\"print\"], \"records\": [{\"cpu\": 0, \"ts\": 5, \"event\": \"print\", \"fields\": {\"nope\": 1}}]}" >bad.json &&
	test_expect_code 1 python3 "$MKDAT" bad.json out.dat 2>err &&
	grep -q "^mkdat: event .print. has no field .nope." err &&
	test_expect_code 1 python3 "$MKDAT" --decompress "$FIXTURES/synth-sched-v6.dat" out.dat 2>err &&
	grep -q "^mkdat: version 6, only v7 can be decompressed" err &&
	test_expect_code 2 python3 "$MKDAT" 2>err &&
	grep -q "^usage: mkdat.py" err
'

test_expect_success PYTHON 'a JSON spec gives the same file as its built-in scenario' '
	python3 "$MKDAT" --dump-spec funcgraph >spec.json &&
	python3 "$MKDAT" spec.json out.dat &&
	cmp out.dat "$FIXTURES/synth-funcgraph-v6.dat"
'

# --- upstream reads every fixture as intended ------------------------------

test_expect_success UPSTREAM 'upstream reports each fixture exactly as expected' '
	fixtures | while read -r name ver comp file; do
		test "$comp" = zlib && continue	# Debian 3.1.6 lacks zlib
		test "$name" = latency-clock && continue
		"$UPSTREAM" report -i "$FIXTURES/$file" >out 2>err &&
		test_cmp "$(expected_of "$name")" out ||
		{ echo "upstream differs on $file"; exit 1; }
	done
'

test_expect_success UPSTREAM,PYTHON 'upstream reads the zlib fixtures once mkdat.py decompresses them' '
	fixtures | while read -r name ver comp file; do
		test "$comp" = zlib || continue
		python3 "$MKDAT" --decompress "$FIXTURES/$file" plain.dat &&
		compression_of plain.dat >head &&
		printf "none\n\n" >want && test_cmp want head &&
		"$UPSTREAM" report -i plain.dat >out &&
		test_cmp "$(expected_of "$name")" out || { echo "$file"; exit 1; }
	done
'

test_expect_success UPSTREAM,PYTHON,ZSTD 'a decompressed zstd fixture reports like the compressed one' '
	python3 "$MKDAT" --decompress "$FIXTURES/synth-instances-v7-zstd.dat" plain.dat &&
	"$UPSTREAM" report -i plain.dat >out &&
	test_cmp "$FIXTURES/synth-instances.expected" out
'

test_expect_success UPSTREAM,PYTHON,CORPUS 'the corpus zlib file, decompressed by mkdat.py, gives its expected report' '
	python3 "$MKDAT" --decompress "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat" plain.dat &&
	"$UPSTREAM" report -i plain.dat >out &&
	cmp out "$CORPUS/x86_64-v7-zlib-x86tsc-kvm.dat.expected"
'

test_expect_success UPSTREAM,PYTHON,CORPUS,ZSTD 'the corpus zstd files report the same once mkdat.py decompresses them' '
	for f in x86_64-v7-zstd-stacktrace x86_64-v7-zstd-empty; do
		python3 "$MKDAT" --decompress "$CORPUS/$f.dat" plain.dat &&
		compression_of plain.dat | head -n 1 >head && echo none >want &&
		test_cmp want head &&
		"$UPSTREAM" report -i "$CORPUS/$f.dat" >want &&
		"$UPSTREAM" report -i plain.dat >out &&
		test_cmp want out || { echo "$f"; exit 1; }
	done
'

test_expect_success UPSTREAM 'upstream 3.1.6 eats 8 bytes of v6 latency text after a TRACECLOCK option (its bug)' '
	"$UPSTREAM" report -i "$FIXTURES/synth-latency-clock-v6.dat" >out &&
	sed "2s/^# tracer//" "$FIXTURES/synth-latency.expected" >want &&
	test_cmp want out
'

test_expect_success UPSTREAM 'upstream shows the funcgraph markers it knows: + ! # $' '
	grep -c "funcgraph_e.*  [+!#$] " "$FIXTURES/synth-funcgraph.expected" >n &&
	echo 6 >want && test_cmp want n &&
	for m in "+ 15.000 us" "! 150.000 us" "# 1500.000 us" "\$ 1500000 us"; do
		grep -qF "$m" "$FIXTURES/synth-funcgraph.expected" || { echo "$m"; exit 1; }
	done
'

# report_each OPTIONS -- SCENARIO SUFFIX: the report with OPTIONS of every
# fixture of SCENARIO (zlib ones left out) equals synth-SCENARIO.SUFFIX
report_each() {
	tool=$1 opts=$2 name=$3 suffix=$4
	fixtures | while read -r n ver comp file; do
		test "$n" = "$name" || continue
		test "$tool" = "$UPSTREAM" && test "$comp" = zlib && continue
		$tool report $opts -i "$FIXTURES/$file" >out 2>err &&
		test_cmp "$FIXTURES/synth-$name.$suffix" out ||
		{ echo "$file: $(head -n 1 err)"; exit 1; }
	done
}

test_expect_success UPSTREAM 'upstream lists the kallsyms functions, module names included (-f)' '
	grep -q "^ffffffffc0400000 ext4_file_write_iter \[ext4\]$" "$FIXTURES/synth-function.funcs" &&
	report_each "$UPSTREAM" -f function funcs
'

test_expect_success UPSTREAM 'upstream shows function parents with -O parent=1' '
	grep -q "ext4_buffered_write_iter <-- ext4_file_write_iter$" \
		"$FIXTURES/synth-function.parent" &&
	report_each "$UPSTREAM" "-O parent=1" function parent
'

test_expect_success UPSTREAM 'upstream lists the printk formats at the long size of the file (-P)' '
	for s in sched sched-be64 sched-le32 sched-be32 sched-u32k64; do
		report_each "$UPSTREAM" -P $s printk || exit 1
	done
'

# --- ours vs upstream: our report of each fixture equals upstream's --------

# ours_vs_expected SCENARIO...: our report of every fixture of those
# scenarios equals upstream's expected text after the header
ours_vs_expected() {
	fail=0
	while read -r name ver comp file; do
		case " $* " in *" $name "*) ;; *) continue ;; esac
		if ! "$TRACE_CMD" report -i "$FIXTURES/$file" >out 2>err; then
			echo "$file: exit $? $(head -n 1 err)"; fail=1; continue
		fi
		test "$(head -n 1 out)" = "version = $ver" ||
		{ echo "$file: first line $(head -n 1 out)"; fail=1; }
		body out >got && body "$(expected_of "$name")" >want &&
		diff -u want got >diff || { echo "$file:"; cat diff; fail=1; }
	done <<-EOF
	$(fixtures)
	EOF
	test $fail = 0
}

test_expect_success 'ours vs upstream: sched, wakeup and print in both byte orders and long sizes' '
	# ours vs upstream
	ours_vs_expected sched sched-be64 sched-le32 sched-be32 sched-u32k64
'

test_expect_success 'ours vs upstream: dropped events and full 8 KB pages' '
	# ours vs upstream
	ours_vs_expected dropped pages
'

test_expect_success 'ours vs upstream: the top buffer and instance foo' '
	# ours vs upstream
	ours_vs_expected instances
'

test_expect_success 'ours vs upstream: function events with kallsyms and module symbols' '
	# ours vs upstream
	ours_vs_expected function
'

test_expect_success 'ours vs upstream: the function_graph display' '
	# ours vs upstream
	ours_vs_expected funcgraph
'

test_expect_success 'ours vs upstream: latency files (and ours keeps all of the text)' '
	# ours vs upstream
	ours_vs_expected latency latency-clock
'

test_expect_success 'ours vs upstream: the cpus= line and empty CPUs' '
	# ours vs upstream
	for f in synth-function-v6.dat synth-function-v7-zstd.dat; do
		"$TRACE_CMD" report -i "$FIXTURES/$f" >out &&
		sed -n "2,3p" out >got &&
		printf "CPU 1 is empty\ncpus=2\n" >want &&
		test_cmp want got || { echo "$f"; exit 1; }
	done
'

test_expect_success 'ours vs upstream: the function list (-f)' '
	# ours vs upstream
	report_each "$TRACE_CMD" -f function funcs
'

test_expect_success 'ours vs upstream: function parents (-O parent=1)' '
	# ours vs upstream
	fixtures | while read -r n ver comp file; do
		test "$n" = function || continue
		"$TRACE_CMD" report -O parent=1 -i "$FIXTURES/$file" >out &&
		body out >got && body "$FIXTURES/synth-function.parent" >want &&
		test_cmp want got || { echo "$file"; exit 1; }
	done
'

test_expect_success 'ours vs upstream: the printk formats (-P)' '
	# ours vs upstream
	for s in sched sched-be64 sched-le32 sched-be32 sched-u32k64; do
		report_each "$TRACE_CMD" -P $s printk || exit 1
	done
'

test_done
