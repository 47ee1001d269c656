#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Runs the fuzz targets: `run.sh run SECONDS` fuzzes each target for SECONDS,
# two at a time (niced), growing fuzz/corpus/TARGET and writing the final
# libFuzzer stats to fuzz/stats/TARGET.txt; `run.sh replay [RUNS [TARGET...]]` replays
# every committed corpus with a fixed seed and run count into a scratch
# corpus (deterministic, nothing committed changes), and on a crash prints
# "reproducer: PATH" and fails.  `run.sh merge` minimizes each corpus.
HERE=$(cd "$(dirname "$0")" && pwd) || exit 1
cd "$HERE" || exit 1
TARGETS="tracedat page net-v3 net-v1 listen-file"
OPTS="-close_fd_mask=3 -timeout=10 -rss_limit_mb=2048"
export ASAN_OPTIONS=${ASAN_OPTIONS:-abort_on_error=1:detect_leaks=1}
export LSAN_OPTIONS=${LSAN_OPTIONS:-suppressions=$HERE/lsan.supp:print_suppressions=0}
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}

fuzz_one() {
	t=$1 secs=$2
	mkdir -p corpus/$t stats artifacts
	nice -n 10 ./fuzz-$t $OPTS -max_total_time=$secs -print_final_stats=1 \
		-artifact_prefix=artifacts/$t- corpus/$t >stats/$t.log 2>&1
	status=$?
	{
		grep -E '^#[0-9]+.*(DONE|pulse|NEW|REDUCE)' stats/$t.log | tail -n 1
		grep -E '^(Done |stat::)' stats/$t.log
	} >stats/$t.txt
	rm -f stats/$t.log
	echo "fuzz-$t: exit $status: $(head -n 1 stats/$t.txt)"
	return $status
}

replay_one() {
	t=$1 runs=$2
	scratch=$(mktemp -d)
	mkdir -p artifacts
	./fuzz-$t $OPTS -seed=1 -runs=$runs -artifact_prefix=artifacts/$t- \
		"$scratch" corpus/$t >"$scratch.log" 2>&1
	status=$?
	if [ $status != 0 ]; then
		echo "fuzz-$t: replay failed (exit $status)"
		grep -E 'ERROR|SUMMARY|runtime error' "$scratch.log" | head -n 5
		sed -n 's/.*Test unit written to \(.*\)/reproducer: fuzz\/\1/p' "$scratch.log"
	else
		echo "fuzz-$t: $(grep -E '^Done ' "$scratch.log")"
	fi
	rm -rf "$scratch" "$scratch.log"
	return $status
}

case $1 in
run)
	[ -n "$2" ] || { echo "usage: run.sh run SECONDS" >&2; exit 2; }
	echo $TARGETS | tr ' ' '\n' | xargs -P 2 -I T sh "$HERE/run.sh" one T "$2"
	;;
one)
	fuzz_one "$2" "$3"
	;;
replay)
	runs=${2:-5000}
	[ $# -gt 2 ] && shift 2 && TARGETS=$*
	failed=0
	for t in $TARGETS; do
		replay_one $t "$runs" || failed=1
	done
	exit $failed
	;;
merge)
	for t in $TARGETS; do
		rm -rf corpus/$t.new && mkdir corpus/$t.new &&
		./fuzz-$t $OPTS -merge=1 corpus/$t.new corpus/$t >/dev/null 2>&1 &&
		rm -rf corpus/$t && mv corpus/$t.new corpus/$t
		echo "fuzz-$t: $(ls corpus/$t | wc -l) inputs, $(du -sk corpus/$t | cut -f1) KB"
	done
	;;
*)
	echo "usage: run.sh run SECONDS | replay [RUNS [TARGET...]] | merge" >&2
	exit 2
	;;
esac
