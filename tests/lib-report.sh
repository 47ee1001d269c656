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

# reports_compared KIND UPSTREAM_BIN FILE [ARGS]: our report of FILE and
# UPSTREAM_BIN's (ARGS are given before -i, where upstream honours them).
# KIND "events": ours exits 0 and prints upstream's event lines; "output": the
# whole output.  Against 3.1.6
# ($UPSTREAM) ours prints --line-3.1, 3.1's line without the latency column;
# against 3.4 ($UPSTREAM34) our default line, as 3.3 and later print it.
reports_compared() {
	kind=$1 bin=$2 file=$3
	shift 3
	line=
	[ "$bin" = "$UPSTREAM" ] && line=--line-3.1
	if [ "$kind" = events ]; then
		"$TRACE_CMD" report $line "$@" -i "$file" >ours.out &&
		"$bin" report "$@" -i "$file" >upstream.out 2>/dev/null &&
		events_of ours.out >ours.events &&
		events_of upstream.out >upstream.events &&
		test_cmp upstream.events ours.events
	else
		"$TRACE_CMD" report $line "$@" -i "$file" >ours.out &&
		"$bin" report "$@" -i "$file" >upstream.out 2>/dev/null &&
		test_cmp upstream.out ours.out
	fi
}

same_as_upstream() { reports_compared events "$UPSTREAM" "$@"; }
same_output_as_upstream() { reports_compared output "$UPSTREAM" "$@"; }
same_as_upstream34() { reports_compared events "$UPSTREAM34" "$@"; }
same_output_as_upstream34() { reports_compared output "$UPSTREAM34" "$@"; }

# same_two_ways A "VAR=VALUE..." B "VAR=VALUE..." FILE [ARGS]: report ARGS
# FILE with the first environment (output in A.out, stderr and exit code in
# A.err) and with the second (B.*): the same bytes.  (The timeouts are for
# a hang; a busy machine may take seconds on a file.)
same_two_ways() {
	two_a=$1 two_a_env=$2 two_b=$3 two_b_env=$4 file=$5
	shift 5
	env $two_a_env timeout 60 "$TRACE_CMD" report "$@" "$file" >"$two_a.out" 2>"$two_a.err"
	echo "exit $?" >>"$two_a.err"
	env $two_b_env timeout 60 "$TRACE_CMD" report "$@" "$file" >"$two_b.out" 2>"$two_b.err"
	echo "exit $?" >>"$two_b.err"
	cmp -s "$two_a.out" "$two_b.out" && cmp -s "$two_a.err" "$two_b.err" && return 0
	echo "differs: report $* $file" >&2
	diff "$two_a.out" "$two_b.out" | head -5 >&2
	diff "$two_a.err" "$two_b.err" | head -5 >&2
	return 1
}

# same_both_ways FILE [ARGS]: fast and slow printers give the same bytes.
same_both_ways() { same_two_ways slow TRACE_CMD_SLOW_PRINT=1 fast "" "$@"; }

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

# The report options both upstreams print alike, "FILE ARGS" a line, for the
# tables that compare them with 3.1.6 (t1106) and 3.4 (t1112); $F $Z $G $I
# are the caller's files.
report_shared_option_cases() {
	cat <<CASES
$F -e
$F -f
$F -P
$F -E
$F --cpus
$F --first-event
$F --last-event
$F --stat
$F --uname
$F --version
$F -t
$F -N
$F -l
$F --ts-diff
$F -t --ts-diff
$F --ts2secs 2000000000 --ts-diff
$F -I
$F -S
$F --raw-ts
$F --nodate
$F --align-ts
$F --ts-check
$F -r sched_switch
$F -r sched.*
$F -n sched_switch
$F -q
$F --pid 9414
$F --pid 0
$F --comm sh
$F --comm ls
$F --comm sh --pid 0
$Z --pid 9420
$F -w
$F -L
$F -L -F sched_switch
$F -w -F sched_switch,sched_wakeup
$Z -w
$Z --stat
$Z --first-event
$Z -l
$Z --uname
$G -N
$G -l
$G --last-event
$G -O fgraph:depth=1
$G -O tailprint
$G -O tailprint=1 -O depth=1
$I --stat
$I --first-event
$FIXTURES/synth-sched-be32-v6.dat -e
$FIXTURES/synth-sched-be32-v7-zstd.dat -t
$FIXTURES/synth-sched-le32-v6.dat -f
$FIXTURES/synth-sched-be64-v6.dat -P
CASES
}
