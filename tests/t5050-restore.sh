#!/bin/bash
# restore: per-CPU files of raw pages (as a killed record leaves them) become a trace.dat,
# with this machine's metadata or a partial file's; bad input is an error, no file left.
. "$(dirname "$0")/test-lib.sh"

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
	trap '"$TRACE_CMD" reset >/dev/null 2>&1; cd /; rm -rf "$TRASH"' EXIT
fi

events() { "$UPSTREAM" report -i "$1" 2>/dev/null | grep -v "^cpus="; }

test_expect_success TRACEFS 'CPU files of raw pages' '
	"$TRACE_CMD" start -e sched_switch &&
	echo "left behind" >"$T/trace_marker" &&
	"$TRACE_CMD" stop &&
	n=0 && for c in $(ls "$T/per_cpu"); do
		dd if="$T/per_cpu/$c/trace_pipe_raw" of=rec.dat.cpu$n bs=4096 iflag=nonblock 2>/dev/null
		n=$((n + 1))
	done &&
	"$TRACE_CMD" reset 2>/dev/null &&
	ls rec.dat.cpu* >/dev/null && echo rec.dat.cpu* >cpus
'

test_expect_success TRACEFS,UPSTREAM 'restore writes trace.dat from them, readable by upstream' '
	"$TRACE_CMD" restore $(cat cpus) &&
	events trace.dat >up.txt &&
	sed -n "s/^.*tracing_mark_write: //p" up.txt >got &&
	echo "left behind" >want && test_cmp want got &&
	grep -q ": sched_switch: " up.txt &&
	"$TRACE_CMD" report --line-3.1 -i trace.dat | grep -v "^cpus=" >ours &&
	test_cmp up.txt ours
'

prefix_of() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read(64)
v = d[10:d.index(b"\0", 10)].decode()
print(v, d[18:d.index(b"\0", 18)].decode() if v == "7" else "-")' "$1"
}

test_expect_success TRACEFS,UPSTREAM,PYTHON 'restore writes v7 uncompressed as upstream'"'"'s does; --file-version and --compression change it' '
	prefix_of trace.dat >got && echo "7 none" >want && test_cmp want got &&
	for spec in "--file-version 6:6 -" "--compression zstd:7 zstd" "--compression zlib:7 zlib"; do
		rm -f fmt.dat &&
		"$TRACE_CMD" restore ${spec%%:*} -o fmt.dat $(cat cpus) &&
		echo "${spec#*:}" >want && prefix_of fmt.dat >got && test_cmp want got &&
		"$TRACE_CMD" report --line-3.1 -i fmt.dat | grep -v "^cpus=" >r &&
		test_cmp ours r || { echo "$spec"; return 1; }
		case $spec in *zlib*) continue ;; esac
		events fmt.dat >u && test_cmp up.txt u || { echo "upstream: $spec"; return 1; }
	done
'

test_expect_success TRACEFS,UPSTREAM 'restore -c writes a partial file that -i turns into the same trace' '
	"$TRACE_CMD" restore -c &&
	test -s trace-partial.dat &&
	"$TRACE_CMD" restore -i trace-partial.dat -o again.dat $(cat cpus) &&
	events again.dat >again.txt && test_cmp up.txt again.txt &&
	"$TRACE_CMD" restore -c -o box.dat && cmp -n 18 box.dat trace-partial.dat
'

# Upstream 3.x's restore -c writes a version 7 partial file.
test_expect_success TRACEFS,UPSTREAM,SHIM 'restore -i takes upstream'"'"'s v7 partial file as upstream'"'"'s restore -i does' '
	test_when_finished "upstream_shim off" &&
	upstream_shim on &&
	"$UPSTREAM" restore -c -o up-partial.dat >/dev/null 2>&1 &&
	"$UPSTREAM" restore -i up-partial.dat -o up-restored.dat $(cat cpus) >/dev/null 2>&1 &&
	upstream_shim off &&
	test "$(od -An -c -j10 -N1 up-partial.dat | tr -d " ")" = 7 &&
	"$TRACE_CMD" restore -i up-partial.dat -o from-v7.dat $(cat cpus) &&
	events from-v7.dat >ours7.txt && test_cmp up.txt ours7.txt &&
	events up-restored.dat >theirs7.txt && test_cmp theirs7.txt ours7.txt &&
	"$TRACE_CMD" restore -i up-partial.dat --file-version 6 -o from-v7-6.dat $(cat cpus) &&
	events from-v7-6.dat >ours6.txt && test_cmp up.txt ours6.txt
'

test_expect_success TRACEFS,UPSTREAM 'restore -t and -k read another tracing directory and kallsyms' '
	# Without tracing_mark_write among the symbols, report prints its address instead.
	grep -v " tracing_mark_write" /proc/kallsyms | head -n 1000 >ksyms &&
	"$TRACE_CMD" restore -t "$T" -k ksyms -o other.dat $(cat cpus) &&
	events other.dat >other.txt &&
	grep -q ": print: *0x[0-9a-f]*: left behind$" other.txt
'

test_expect_success 'a missing CPU file or a bad partial file fails and leaves no output' '
	test_expect_code 1 "$TRACE_CMD" restore -o out.dat nosuch.cpu0 2>err &&
	echo "trace-cmd restore: cannot open '"'"'nosuch.cpu0'"'"': No such file or directory" >want &&
	test_cmp want err && ! test -e out.dat &&
	echo "not a trace file at all" >bad.dat && : >cpu0 &&
	test_expect_code 1 "$TRACE_CMD" restore -i bad.dat -o out.dat cpu0 2>err &&
	echo "trace-cmd restore: '"'"'bad.dat'"'"': not a trace.dat partial file (bad magic)" >want &&
	test_cmp want err && ! test -e out.dat
'

test_expect_success 'usage errors exit 2' '
	test_expect_code 2 "$TRACE_CMD" restore 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restore: no CPU files given" &&
	test_expect_code 2 "$TRACE_CMD" restore -c cpu0 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restore: -c takes no CPU files" &&
	test_expect_code 2 "$TRACE_CMD" restore -c -i x 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restore: -c and -i exclude each other" &&
	test_expect_code 2 "$TRACE_CMD" restore -i x -k y cpu0 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restore: -i takes the metadata from its file: no -t or -k" &&
	test_expect_code 2 "$TRACE_CMD" restore --file-version 8 cpu0 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restore: file version 8 is not supported: use 6 or 7" &&
	test_expect_code 2 "$TRACE_CMD" restore --file-version 6 --compression zlib cpu0 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restore: --compression zlib needs --file-version 7" &&
	test_expect_code 2 "$TRACE_CMD" restore -c --compression zstd 2>err &&
	test "$(head -n 1 err)" = "trace-cmd restore: -c writes a version 6 partial file: no --file-version or --compression"
'

test_done
