#!/bin/bash
# report under valgrind: every file of the shared corpus, the compressed
# fixtures of ours and every input the fuzzers once crashed on is read with no invalid
# access and no leak (definite, indirect or possible), and the same exit
# status as without valgrind.  Leaks inside libtraceevent itself are in
# tests/valgrind.supp.
# plain-build: valgrind cannot run an ASan binary (both own the address space)
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

if [ -n "${TRACE_CMD_SANITIZED:-}" ]; then
	# valgrind cannot run an ASan binary: tests/run --asan runs this with the plain one.
	echo "1..0 # SKIP valgrind runs with the plain build, not under ASan"
	exit 0
fi
command -v valgrind >/dev/null && test_set_prereq VALGRIND

# under_valgrind FILE: report's exit status must be what it is natively.
under_valgrind() {
	timeout 30 "$TRACE_CMD" report -i "$1" >/dev/null 2>&1
	want=$?
	timeout 300 valgrind -q --num-callers=40 --error-exitcode=99 \
		--suppressions="$TEST_DIR/valgrind.supp" --leak-check=full \
		--show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible \
		"$TRACE_CMD" report -i "$1" >/dev/null 2>vg.err
	code=$?
	if [ $code != $want ] || grep -q '^==[0-9]*==' vg.err; then
		echo "$1: exit $code under valgrind, $want without"; cat vg.err; return 1
	fi
}

# Two at a time: the machine has two cores and the corpus files are big.
all_under_valgrind() {
	failed=0
	for f in "$@"; do
		(mkdir -p "vg.$$.${f##*/}" && cd "vg.$$.${f##*/}" && under_valgrind "$f") &
		[ $(jobs -r | wc -l) -lt 2 ] || wait -n || failed=1
	done
	while [ $(jobs -r | wc -l) -gt 0 ]; do wait -n || failed=1; done
	wait || failed=1
	return $failed
}

# libtraceevent 1.7 reads freed memory after this parse error (valgrind sees
# it in a plain run; glibc sometimes aborts): report parses a filter in a
# child first, and one that fails is never parsed in report itself.
test_expect_success VALGRIND 'a filter libtraceevent mishandles is parsed only in a child' '
	timeout 60 valgrind -q --child-silent-after-fork=yes \
		"$TRACE_CMD" report -F "sched_switch: prev_pid == 9 || prev_pid == 0 (" \
		"$FIXTURES/synth-sched-v6.dat" >out 2>err
	test $? = 1 && ! grep "^==[0-9]*==" err &&
	test "$(cat err)" = "trace-cmd report: filter '"'"'sched_switch: prev_pid == 9 || prev_pid == 0 ('"'"': open paren can not come after expression (at column 33 of the condition)"
'

test_expect_success VALGRIND,CORPUS 'every corpus file: no invalid access, no leak' '
	all_under_valgrind "$CORPUS"/*.dat
'

# Of the fixtures, the compressed ones and upstream's: the plain layouts are
# the corpus files' above, and make check-asan reads every fixture with
# ASan's leak check; a valgrind start costs a second or two.
test_expect_success VALGRIND 'every compressed fixture, upstream file and fuzz regression: no invalid access, no leak' '
	for gz in "$FIXTURES"/*.dat.gz; do
		gzip -dc "$gz" >"$TRASH/$(basename "$gz" .gz)" || exit 1
	done &&
	all_under_valgrind "$FIXTURES"/synth-*-v7-z*.dat "$FIXTURES"/upstream-*.dat "$FIXTURES"/fuzz/*.dat \
		"$TRASH"/*.dat
'

test_expect_success VALGRIND 'a leak would be seen: the check fails on a program that leaks' '
	printf "int main(void){ void *p = (void *)__builtin_malloc(64); p = 0; return p != 0; }\n" >leak.c &&
	cc -O0 -o leak leak.c &&
	! valgrind -q --error-exitcode=99 --leak-check=full --errors-for-leak-kinds=definite ./leak 2>/dev/null
'

test_done
