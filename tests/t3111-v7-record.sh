#!/bin/bash
# record in each version and compression on the real tracefs: upstream's
# report of our files and ours of upstream's files print the same lines.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-tracefs.sh"
. "$TEST_DIR/lib-report.sh"

test_lock_tracefs

WORK="echo v7-interop >$T/trace_marker; ls / >/dev/null"

# Ours records with "$@"; tracefs must be as it was.
ours_record() {
	tracefs_state >before &&
	"$TRACE_CMD" record -e sched -o "$@" sh -c "$WORK" >/dev/null 2>rec.err &&
	tracefs_state >after && test_cmp before after
}

# Upstream records with "$@" under the shim.  It grows the ring buffer to
# the kernel's default and leaves it so: the old size is put back.  Its
# command sleeps a little after the work: on a loaded machine (the suite
# runs three scripts at once) upstream once kept no event of a command that
# ended at once.
upstream_record() {
	kb=$(cat $T/buffer_size_kb) &&
	test_when_finished "echo $kb >$T/buffer_size_kb; upstream_shim off" &&
	upstream_shim on &&
	"$UPSTREAM" record -e sched_switch -e sched_wakeup -o "$@" \
		sh -c "$WORK; sleep 0.2" >/dev/null 2>up.err
	code=$?
	upstream_shim off
	echo $kb >$T/buffer_size_kb
	return $code
}

# What the file's prefix says: version and compression.
prefix_of() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read(64)
v = d[10:d.index(b"\0", 10)].decode()
print(v, d[18:d.index(b"\0", 18)].decode() if v == "7" else "-")' "$1"
}

for spec in "v6:--file-version 6:6 -" "none:--compression none:7 none" \
	    "zlib:--compression zlib:7 zlib" "zstd:--compression zstd:7 zstd" \
	    "dflt::7 zstd" "any:--file-version 7 --compression any:7 zstd"; do
	name=${spec%%:*} rest=${spec#*:} args=${rest%%:*} want=${rest#*:}
	test_expect_success TRACEFS,UPSTREAM,PYTHON "ours ${args:-with no options} ($want): upstream reports the same events" "
		ours_record $name.dat $args &&
		echo '$want' >expect && prefix_of $name.dat >got && test_cmp expect got &&
		\"\$TRACE_CMD\" report --line-3.1 -i $name.dat >$name.ours &&
		events_of $name.ours >$name.events &&
		grep -q 'tracing_mark_write: v7-interop' $name.events &&
		upstream_events $name.dat >$name.up &&
		test_cmp $name.up $name.events
	"
done

for spec in "up6:--file-version 6:6 -" "up7none:--file-version 7 --compression none:7 none" \
	    "up7zstd:--compression zstd:7 zstd"; do
	name=${spec%%:*} rest=${spec#*:} args=${rest%%:*} want=${rest#*:}
	test_expect_success TRACEFS,UPSTREAM,SHIM,PYTHON "upstream's $args file ($want): ours reports it identically" "
		upstream_record $name.dat $args &&
		echo '$want' >expect && prefix_of $name.dat >got && test_cmp expect got &&
		\"\$TRACE_CMD\" report --line-3.1 -i $name.dat >$name.ours &&
		\"\$UPSTREAM\" report -i $name.dat >$name.theirs 2>/dev/null &&
		{ grep -q 'sched_switch:' $name.ours || { echo 'no sched_switch in ours:'; head -5 $name.ours; false; }; } &&
		events_of $name.theirs >a && events_of $name.ours >b && test_cmp a b &&
		grep -qx 'cpus=[0-9]*' $name.ours
	"
done

test_expect_success TRACEFS 'tracefs is as it was: the shim off, no instance' '
	! grep -E " ($T/set_ftrace_|/proc/sys/kernel/ftrace_enabled )" /proc/self/mounts &&
	test -z "$(ls $T/instances)"
'

test_done
