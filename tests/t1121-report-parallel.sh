#!/bin/bash
# report's lines formatted in worker threads (trace-parallel.c) against the
# single-threaded path (TRACE_CMD_THREADS=1): whole outputs, stderr and exit
# codes equal on every fixture, fuzz regression, fuzz corpus and
# ../shared/corpus file, as text, jsonl, csv, with -F and --cpu.
# TRACE_CMD_THREADS_TEST starts the threads at the first line with batches
# of 7 lines, so that small files cross many batches.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

# same_threaded FILE [ARGS]: one thread and three give the same bytes.
same_threaded() {
	same_two_ways one TRACE_CMD_THREADS=1 par "TRACE_CMD_THREADS=3 TRACE_CMD_THREADS_TEST=1" "$@"
}

all_same_threaded() { all_files same_threaded "$@"; }

test_expect_success 'every fixture prints the same in one thread and in several' '
	all_same_threaded -- "$FIXTURES"/*.dat "$FIXTURES"/fuzz/*.dat
'

test_expect_success 'every fixture with -t, -l, --ts-diff, -R and --line-3.1 too' '
	all_same_threaded -t -l --ts-diff -- "$FIXTURES"/*.dat &&
	all_same_threaded -R -- "$FIXTURES"/*.dat &&
	all_same_threaded --line-3.1 -- "$FIXTURES"/*.dat
'

test_expect_success 'every fixture as jsonl and csv, with -F and with --cpu' '
	all_same_threaded --format jsonl -- "$FIXTURES"/*.dat &&
	all_same_threaded --format csv -- "$FIXTURES"/*.dat &&
	all_same_threaded -F sched_switch -- "$FIXTURES"/*.dat &&
	all_same_threaded -F "sched_switch: prev_prio < 120" -- "$FIXTURES"/*.dat &&
	all_same_threaded --cpu 0 -- "$FIXTURES"/*.dat &&
	all_same_threaded --cpu 1 -t -- "$FIXTURES"/*.dat
'

test_expect_success 'every fuzz corpus file (damaged ones included)' '
	all_same_threaded -- "$SRC_DIR"/fuzz/corpus/tracedat/*
'

test_expect_success CORPUS 'every ../shared/corpus file, text, jsonl, csv, -F, --cpu' '
	all_same_threaded -- "$CORPUS"/*.dat &&
	all_same_threaded -t -l -- "$CORPUS"/*.dat &&
	all_same_threaded --format jsonl -- "$CORPUS"/*.dat &&
	all_same_threaded --format csv -- "$CORPUS"/*.dat &&
	all_same_threaded -F sched_switch -- "$CORPUS"/*.dat &&
	all_same_threaded --cpu 0 -- "$CORPUS"/*.dat
'

# threads_made OUT ARGS...: how many threads report ARGS started (strace;
# the sanitizers' leak check clones a process of its own, not a thread).
threads_made() {
	out=$1; shift
	strace -f -qq -e trace=clone,clone3 -o strace.log "$TRACE_CMD" report "$@" >"$out" 2>/dev/null
	grep -c "CLONE_THREAD" strace.log
}

# mkbig FILE N: bench/mkbig.py's N records, their print events' ip in a
# different function of the file's kallsyms each time (lookups in threads).
mkbig() {
	python3 - "$SRC_DIR/bench" "$1" "$2" <<-\EOF
	import sys
	sys.path.insert(0, sys.argv[1])
	import mkbig
	plain = mkbig.records
	def records(n, cpus):
	    out = plain(n, cpus)
	    for i, r in enumerate(out):
	        if r["event"] == "print":
	            r["fields"]["ip"] = 0xffffffff81000000 + (i * 0x731) % 0x4000
	    return out
	mkbig.records = records
	sys.exit(mkbig.main([sys.argv[0], sys.argv[3], sys.argv[2]]))
	EOF
}

test_expect_success 'a 100,000-line file: the threads start past the first lines, same bytes' '
	mkbig big.dat 100000 &&
	TRACE_CMD_THREADS=1 "$TRACE_CMD" report -i big.dat >one.out &&
	TRACE_CMD_THREADS=2 "$TRACE_CMD" report -i big.dat >two.out &&
	TRACE_CMD_THREADS=4 "$TRACE_CMD" report -i big.dat >four.out &&
	test "$(grep -vc "^cpus=" one.out)" = 100000 &&
	grep -q "do_IRQ: step" one.out &&
	test_cmp one.out two.out &&
	test_cmp one.out four.out &&
	for f in jsonl csv; do
		TRACE_CMD_THREADS=1 "$TRACE_CMD" report --format $f -i big.dat >one.$f &&
		TRACE_CMD_THREADS=2 "$TRACE_CMD" report --format $f -i big.dat >two.$f &&
		test_cmp one.$f two.$f || return 1
	done
'

test_expect_success 'threads are made for a long report only, never with TRACE_CMD_THREADS=1' '
	test "$(TRACE_CMD_THREADS=2 threads_made par.out -i big.dat)" = 1 &&
	test "$(TRACE_CMD_THREADS=3 threads_made par.out -i big.dat)" = 2 &&
	test "$(TRACE_CMD_THREADS=1 threads_made one.out -i big.dat)" = 0 &&
	test_cmp one.out par.out
'

test_expect_success 'a 10,000-line report (under the first 16,384 lines) starts no thread' '
	mkbig small.dat 10000 &&
	test "$(TRACE_CMD_THREADS=2 threads_made par.out -i small.dat)" = 0 &&
	TRACE_CMD_THREADS=1 "$TRACE_CMD" report -i small.dat >one.out &&
	test_cmp one.out par.out
'

# A file size limit (SIGXFSZ ignored: the write fails with EFBIG) past the
# lines printed before the threads start: only their writes fail.
test_expect_success 'a write failing under the threads fails the report as in one thread' '
	for t in 1 2; do
		(trap "" XFSZ && ulimit -f 4000 &&
		 TRACE_CMD_THREADS=$t exec "$TRACE_CMD" report -i big.dat >limited.$t 2>err.$t)
		echo "exit $?" >>err.$t || return 1
	done &&
	test_cmp err.1 err.2 &&
	grep "trace-cmd report: write error on standard output" err.2 &&
	grep "exit 1" err.2 &&
	test_expect_code 1 env TRACE_CMD_THREADS=2 TRACE_CMD_THREADS_TEST=1 \
		"$TRACE_CMD" report -i small.dat >/dev/full 2>err &&
	grep "trace-cmd report: write error on standard output" err
'

test_expect_success 'a difference between the paths would be seen' '
	printf "#!/bin/sh\nif [ -n \"\$TRACE_CMD_THREADS_TEST\" ]; then exec %s \"\$@\" -t; fi\nexec %s \"\$@\"\n" \
		"$TRACE_CMD" "$TRACE_CMD" >skewed && chmod +x skewed &&
	! TRACE_CMD=./skewed same_threaded "$FIXTURES"/synth-instances-v6.dat 2>/dev/null
'

test_done
