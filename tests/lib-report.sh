# SPDX-License-Identifier: GPL-2.0
# Helpers for the report tests: fixtures, and the event lines of a report
# without the header lines that differ from upstream on purpose.

# fixture NAME: copies tests/fixtures/NAME (or NAME.gz, decompressed) here.
fixture() {
	if [ -f "$FIXTURES/$1.gz" ]; then
		gzip -dc "$FIXTURES/$1.gz" >"$1"
	else
		cp "$FIXTURES/$1" "$1"
	fi
}

# events_of FILE: a report's event lines (everything after the header).
# Ours, as upstream (3.1.6 and 3.4), prints only "cpus=N" before them (and
# "version = N" with the "CPU N is empty" lines at -V, --verbose=info, --debug).
events_of() {
	sed -e '0,/^cpus=[0-9]*$/d' "$1"
}

# upstream_events FILE: upstream's event lines of FILE, read with no error
# or warning.  Debian's 3.1.6 has no zlib: a zlib file goes through python's
# decompression (mkdat.py), not our C code, so a shared bug cannot hide.
# Leaves upstream's whole report in FILE.theirs.
upstream_events() {
	f=$1
	if [ "$(head -c 22 "$1" | tail -c 4)" = zlib ]; then
		python3 "$HELPERS/mkdat.py" --decompress "$1" "$1.plain" >/dev/null || return 1
		f=$1.plain
	fi
	"$UPSTREAM" report -i "$f" >"$1.theirs" 2>"$1.err" &&
	! grep -i "error\|warning\|bug" "$1.err" && events_of "$1.theirs"
}

# Our report of FILE must exit 0 and print upstream 3.1.6's event lines (ARGS
# are given before -i, where upstream honours them); ours with --line-3.1,
# 3.1's line without the latency column.
same_as_upstream() {
	file=$1; shift
	"$TRACE_CMD" report --line-3.1 "$@" -i "$file" >ours.out &&
	"$UPSTREAM" report "$@" -i "$file" >upstream.out 2>/dev/null &&
	events_of ours.out >ours.events &&
	events_of upstream.out >upstream.events &&
	test_cmp upstream.events ours.events
}

# Like same_as_upstream, for the listing options: the whole output.
same_output_as_upstream() {
	file=$1; shift
	"$TRACE_CMD" report --line-3.1 "$@" -i "$file" >ours.out &&
	"$UPSTREAM" report "$@" -i "$file" >upstream.out 2>/dev/null &&
	test_cmp upstream.out ours.out
}

# The same two checks against upstream 3.4 ($UPSTREAM34), our default line:
# the latency column after the CPU, as 3.3 and later print it.
same_as_upstream34() {
	file=$1; shift
	"$TRACE_CMD" report "$@" -i "$file" >ours.out &&
	"$UPSTREAM34" report "$@" -i "$file" >upstream.out 2>/dev/null &&
	events_of ours.out >ours.events &&
	events_of upstream.out >upstream.events &&
	test_cmp upstream.events ours.events
}

same_output_as_upstream34() {
	file=$1; shift
	"$TRACE_CMD" report "$@" -i "$file" >ours.out &&
	"$UPSTREAM34" report "$@" -i "$file" >upstream.out 2>/dev/null &&
	test_cmp upstream.out ours.out
}

# same_both_ways FILE [ARGS]: fast and slow printers give the same bytes.
# (The timeouts are for a hang; a busy machine may take seconds on a file.)
same_both_ways() {
	file=$1; shift
	TRACE_CMD_SLOW_PRINT=1 timeout 60 "$TRACE_CMD" report "$@" "$file" >slow.out 2>slow.err
	echo "exit $?" >>slow.err
	timeout 60 "$TRACE_CMD" report "$@" "$file" >fast.out 2>fast.err
	echo "exit $?" >>fast.err
	cmp -s slow.out fast.out && cmp -s slow.err fast.err && return 0
	echo "differs: report $* $file" >&2
	diff slow.out fast.out | head -5 >&2
	diff slow.err fast.err | head -5 >&2
	return 1
}

# all_files CHECK ARGS -- FILE...: CHECK FILE ARGS for every FILE there is
# (0 same, 1 differs, 2 not comparable); true if at least one was the same
# and none differed.
all_files() {
	check=$1
	shift
	args=()
	while [ "$1" != "--" ]; do args+=("$1"); shift; done
	shift
	n=0 bad=0
	for f in "$@"; do
		[ -f "$f" ] || continue
		"$check" "$f" "${args[@]}"
		case $? in
		0) n=$((n + 1)) ;;
		1) bad=$((bad + 1)) ;;
		esac
	done
	[ $n -gt 0 ] && [ $bad = 0 ]
}
