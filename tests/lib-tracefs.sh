# SPDX-License-Identifier: GPL-2.0
# Helpers for tests that touch the real tracefs.  Source after test-lib.sh.
#
#   test_lock_tracefs                 # hold the lock for the whole script
#   tracefs_state >before             # everything a command may change
#   ... run trace-cmd ...
#   tracefs_state >after && test_cmp before after

T=$(tracefs_dir)

# Prints every piece of tracefs state a trace-cmd command could change, in a
# stable order, so two snapshots can be compared with test_cmp.
tracefs_state() {
	d=${1:-$T}
	for f in tracing_on current_tracer trace_clock buffer_size_kb buffer_percent \
		 set_event set_event_pid set_event_notrace_pid tracing_cpumask \
		 saved_cmdlines_size tracing_thresh; do
		[ -r "$d/$f" ] && printf '%s: %s\n' "$f" "$(cat "$d/$f" 2>/dev/null | tr '\n' ' ')"
	done
	printf 'trace_options: %s\n' "$(cat "$d/trace_options" 2>/dev/null | tr '\n' ' ')"
	for f in "$d"/per_cpu/cpu*/buffer_size_kb; do
		printf '%s: %s\n' "${f#$d/}" "$(cat "$f")"
	done
	# Enabled events, non-default filters and triggers anywhere in the tree.
	grep -l '^[1X]' "$d"/events/*/*/enable 2>/dev/null | sed "s|^$d/|enabled: |"
	grep -L '^none$' "$d"/events/*/*/filter 2>/dev/null | sed "s|^$d/|filtered: |"
	grep -lv '^#' "$d"/events/*/*/trigger 2>/dev/null | sed "s|^$d/|trigger: |"
	ls "$d/instances" 2>/dev/null | sed 's/^/instance: /'
}

# Runs our record with tracefs compared before and after: its exit code, or
# 1 if tracefs changed; leaves stdout and stderr.
record_checked() {
	tracefs_state >state.before &&
	"$TRACE_CMD" record "$@" >stdout 2>stderr
	code=$?
	tracefs_state >state.after &&
	test_cmp state.before state.after || { echo "tracefs changed"; return 1; }
	return $code
}
