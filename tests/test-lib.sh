# SPDX-License-Identifier: GPL-2.0
# A small TAP test library in the spirit of git's t/test-lib.sh.
#
#   . ./test-lib.sh
#   test_expect_success [PREREQ[,PREREQ]] 'what a user sees' 'commands && ...'
#   test_done
#
# The binary under test is $TRACE_CMD (default: ../trace-cmd of this tree),
# never whatever trace-cmd is on PATH.  A test missing a prerequisite is
# skipped on a user's machine but fails under CI=true.

TEST_DIR=$(cd "$(dirname "$0")" && pwd)
SRC_DIR=$(cd "$TEST_DIR/.." && pwd)
TRACE_CMD=${TRACE_CMD:-$SRC_DIR/trace-cmd}
UPSTREAM=${UPSTREAM:-/usr/bin/trace-cmd}
# The workplace's shared/ sits beside the checkout (a user's clone has none:
# tests needing it skip, naming CORPUS or SHIM).
SHARED=${SHARED:-$SRC_DIR/../shared}
SHIM=${SHIM:-$SHARED/tools/upstream-shim}
# Upstream's newest release, 3.4, beside Debian's 3.1.6 (prerequisite UPSTREAM34).
UPSTREAM34=${UPSTREAM34:-$SHARED/upstream-3.4/trace-cmd}
CORPUS=${CORPUS:-$SHARED/corpus}
FIXTURES=$TEST_DIR/fixtures
HELPERS=$TEST_DIR/helper
TRACEFS_LOCK=/tmp/trace-cmd-tracefs.lock
export TRACE_CMD UPSTREAM UPSTREAM34 LC_ALL=C

test_count=0
test_failed=0
test_skipped=0
# Each script works in its own scratch directory, removed at the end.
TRASH=$(mktemp -d "${TMPDIR:-/tmp}/trace-cmd-test.XXXXXX")
cd "$TRASH" || exit 1
trap 'cd /; rm -rf "$TRASH"' EXIT

say() { printf '# %s\n' "$*"; }

# --- prerequisites ---------------------------------------------------------
test_set_prereq() { eval "prereq_$1=yes"; }

prereq_check() {
	case $1 in
	ROOT) [ "$(id -u)" = 0 ] ;;
	TRACEFS) [ "$(id -u)" = 0 ] && tracefs_dir >/dev/null ;;
	UPSTREAM) [ -x "$UPSTREAM" ] ;;
	UPSTREAM34) [ -x "$UPSTREAM34" ] ;;
	GUEST) command -v guest_ready >/dev/null && guest_ready ;;	# tests/lib-guest.sh
	CORPUS) [ -d "$CORPUS" ] ;;
	SHIM) [ "$(shim_needed)" = no ] || [ -x "$SHIM" ] ;;
	PYTHON) command -v python3 >/dev/null ;;
	*) eval "[ \"\${prereq_$1:-}\" = yes ]" ;;
	esac
}

test_have_prereq() {
	missing_prereq=
	for p in $(echo "$1" | tr , ' '); do
		prereq_check "$p" || missing_prereq="$missing_prereq $p"
	done
	[ -z "$missing_prereq" ]
}

# The tracing directory, mounting tracefs if nothing is mounted (as record does).
tracefs_dir() {
	d=$(awk '$3 == "tracefs" { print $2; exit }' /proc/mounts)
	if [ -z "$d" ] && [ "$(id -u)" = 0 ] && [ -d /sys/kernel/tracing ]; then
		mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null && d=/sys/kernel/tracing
	fi
	[ -n "$d" ] && [ -e "$d/trace_marker" ] && echo "$d"
}

# Upstream aborts where the kernel refuses (EPERM) the function tracer's
# files; ../shared's shim covers them with empty files around an upstream
# command.  A kernel that refuses them refuses to write ftrace_enabled back
# as it is (a no-op elsewhere).  Prints yes or no, once per script.
shim_needed() {
	if [ -z "${SHIM_NEEDED:-}" ]; then
		SHIM_NEEDED=no
		v=$(cat /proc/sys/kernel/ftrace_enabled 2>/dev/null) &&
			! (echo "$v" >/proc/sys/kernel/ftrace_enabled) 2>/dev/null && SHIM_NEEDED=yes
		export SHIM_NEEDED
	fi
	echo "$SHIM_NEEDED"
}

# upstream_shim on|off: around each upstream command that writes tracefs
# (prerequisite SHIM); nothing where the kernel lets upstream run as it is.
upstream_shim() {
	[ "$(shim_needed)" = no ] || "$SHIM" "$1" >/dev/null
}

# A test script that touches tracefs calls this first: no two run at once.
test_lock_tracefs() {
	exec 9>"$TRACEFS_LOCK"
	flock 9
	shim_needed >/dev/null
	expand_buffer
}

# On a machine that has not traced since boot, buffer_size_kb reads
# "7 (expanded: 1408)" and the first trace makes it "1408", for good: the
# tests compare sizes before and after, so they start from the expanded
# state the first trace would leave anyway.
expand_buffer() {
	kb_file="$(tracefs_dir)/buffer_size_kb"
	kb=$(sed -n 's/.*(expanded: \([0-9]*\)).*/\1/p' "$kb_file" 2>/dev/null)
	[ -z "$kb" ] || echo "$kb" >"$kb_file"
}

# --- assertions ------------------------------------------------------------
# The test body runs in a subshell, so cleanups go through a file it shares
# with test_run_, which runs them (newest first) after the body, pass or fail.
test_when_finished() {
	{ printf '%s\n' "$*"; cat "$TRASH/.cleanup" 2>/dev/null; } >"$TRASH/.cleanup.new"
	mv "$TRASH/.cleanup.new" "$TRASH/.cleanup"
}

test_cmp() { diff -u "$1" "$2"; }

# Fails when the command succeeds, and also when it dies of a signal:
# a crash never counts as the expected failure.
test_must_fail() {
	"$@"
	code=$?
	if [ $code = 0 ]; then
		echo "test_must_fail: command succeeded: $*"; return 1
	elif [ $code -gt 128 ]; then
		echo "test_must_fail: command died of signal $((code - 128)): $*"; return 1
	fi
	return 0
}

# test_expect_code N cmd...: the exact exit status.
test_expect_code() {
	want=$1; shift
	"$@"
	code=$?
	[ $code = "$want" ] && return 0
	echo "test_expect_code: want exit $want, got $code: $*"
	return 1
}

# Runs a command that writes to stderr and checks its first line.
test_stderr_is() {
	want=$1; shift
	"$@" 2>stderr.out
	first=$(head -n 1 stderr.out)
	[ "$first" = "$want" ] && return 0
	echo "stderr first line: '$first'"; echo "expected:          '$want'"
	return 1
}

# check_usage CODE MSG CMD ARGS...: trace-cmd CMD ARGS exits CODE with MSG as
# the first line on stderr; after a usage error (2), CMD's usage follows and
# nothing goes to stdout.  Scripts with tables of argument strings wrap it.
check_usage() {
	want=$1 msg=$2; shift 2
	"$TRACE_CMD" "$@" >out 2>err
	code=$?
	[ $code = "$want" ] || { echo "$*: exit $code, want $want"; cat err; return 1; }
	[ "$(head -n 1 err)" = "$msg" ] ||
		{ echo "$*: first line '$(head -n 1 err)'"; echo "want '$msg'"; return 1; }
	[ "$want" = 2 ] || return 0
	grep -q "^usage: trace-cmd $1" err || { echo "$*: no usage after the error"; return 1; }
	test ! -s out || { echo "$*: wrote to stdout:"; cat out; return 1; }
}

# fresh_fake [DIR]: a new copy, fake/, of a fake tracing directory (fake-orig,
# which the script made from $FIXTURES/fake-tracing, unless DIR is given),
# made the tracing directory of what follows.
fresh_fake() {
	rm -rf fake && cp -r "${1:-fake-orig}" fake && export TRACE_CMD_TRACING_DIR=$PWD/fake
}

# strace ARGS...: LeakSanitizer cannot work under ptrace, so a sanitized
# build runs without its leak check here (its other checks stay on).
test_strace() {
	ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 strace "$@"
}

# --- running tests ---------------------------------------------------------
test_run_() {
	rm -f "$TRASH/.cleanup"
	( eval "$1" ) >test.log 2>&1
	ok=$?
	if [ -f "$TRASH/.cleanup" ]; then
		( . "$TRASH/.cleanup" ) >>test.log 2>&1 || ok=1
		rm -f "$TRASH/.cleanup"
	fi
	return $ok
}

test_expect_success() {
	prereq=
	[ $# = 3 ] && { prereq=$1; shift; }
	test_count=$((test_count + 1))
	if [ -n "$prereq" ] && ! test_have_prereq "$prereq"; then
		if [ "${CI:-}" = true ]; then
			echo "not ok $test_count - $1 # missing prerequisite:$missing_prereq (CI=true)"
			test_failed=$((test_failed + 1))
		else
			echo "ok $test_count # skip $1 (missing$missing_prereq)"
			test_skipped=$((test_skipped + 1))
		fi
		return
	fi
	[ -z "${TEST_TIME_LOG:-}" ] || test_started_=$(test_now)
	if test_run_ "$2"; then
		echo "ok $test_count - $1"
	else
		echo "not ok $test_count - $1"
		# On stderr too: prove shows a script's stderr, not its comments.
		sed 's/^/#   /' test.log | tee /dev/stderr
		test_failed=$((test_failed + 1))
	fi
	# TEST_TIME_LOG: where each test's wallclock goes, to find the slow ones.
	[ -z "${TEST_TIME_LOG:-}" ] ||
		echo "$(basename "$0") $test_count $(awk "BEGIN { printf \"%.2f\", $(test_now) - $test_started_ }") $1" >>"$TEST_TIME_LOG"
}

# test_now: the time in seconds, with a fraction (dash has no $EPOCHREALTIME).
test_now() { date +%s.%N; }

test_done() {
	echo "1..$test_count"
	[ -n "${TEST_SKIP_LOG:-}" ] && [ $test_skipped -gt 0 ] &&
		echo "$(basename "$0") $test_skipped" >>"$TEST_SKIP_LOG"
	[ $test_failed = 0 ]
	exit $?
}
