#!/bin/bash
# KernelShark (Debian's 2.2.1, built on upstream's libtracecmd) opens a v6
# and a v7 zstd file that our writer made, as a non-root user under Xvfb:
# it must still be running, showing the file, when we stop it.
. "$(dirname "$0")/test-lib.sh"

command -v kernelshark >/dev/null && command -v xvfb-run >/dev/null &&
	command -v runuser >/dev/null && [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1 &&
	test_set_prereq KSHARK
[ -n "${prereq_KSHARK:-}" ] || say "kernelshark, xvfb-run or root missing (scripts/install-deps.sh)"

cp -r "$FIXTURES/fake-tracing" fake
export TRACE_CMD_TRACING_DIR=$PWD/fake
chmod a+rx "$TRASH"

# kshark FILE: runs KernelShark on FILE for a few seconds as nobody; exit 124
# (stopped by timeout) means it was still up.
kshark() {
	mkdir -p home && chmod 777 home &&
	timeout 6 runuser -u nobody -- env HOME=$PWD/home XDG_RUNTIME_DIR=$PWD/home \
		xvfb-run -a kernelshark "$PWD/$1" >"$1.log" 2>&1
}

test_expect_success KSHARK 'our v7 zstd and v6 files are written' '
	"$HELPERS/write-v7" -c zstd -k "$FIXTURES/fake-tracing.kallsyms" v7.dat \
		fake/per_cpu/cpu0/trace_pipe_raw fake/per_cpu/cpu1/trace_pipe_raw &&
	"$TRACE_CMD" convert -i v7.dat -o v6.dat --file-version 6 &&
	chmod a+r v6.dat v7.dat
'

# loads_ok FILE: still up after the timeout, showed FILE, printed no error.
loads_ok() {
	kshark "$1"
	code=$?
	[ $code = 124 ] || { echo "kernelshark exited $code"; cat "$1.log"; return 1; }
	grep -qx "Loading  \"$PWD/$1\"" "$1.log" &&
	! grep -i "error\|cannot\|unable\|segmentation\|abort" "$1.log"
}

for f in v6.dat v7.dat; do
	test_expect_success KSHARK "KernelShark loads $f without an error" "loads_ok $f"
done

test_expect_success KSHARK 'the check can fail: a file cut in its data is reported' '
	head -c 30000 v6.dat >cut.dat && chmod a+r cut.dat &&
	! loads_ok cut.dat >/dev/null &&
	grep -q "^ERROR: File .*cut.dat contains no data" cut.dat.log
'

test_done
