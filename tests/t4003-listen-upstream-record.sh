#!/bin/bash
# Upstream's record -N (Debian's 3.1.6) against our listen, in protocol v3
# and (our listen refusing v3) v1, over UDP and TCP data channels: the
# received file holds exactly the marker strings written while recording,
# in order, and reports the same in upstream's report and in ours.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"
test_have_prereq TRACEFS,UPSTREAM && . "$TEST_DIR/lib-tracefs.sh" && test_lock_tracefs

# Upstream's record of a command writing marker-1..5, sent to our listener.
# Its recorders only see full pages of a big buffer (buffer_percent), so it
# records into a small one; the buffer size it leaves behind is restored.
# The event recorded (initcall) never fires after boot, so the markers are
# all there is: upstream's report learns task names from sched_switch events,
# which a v1 client's file (sent without saved cmdlines) would depend on.
# The command waits 0.2 s before its markers: upstream's recorders stopped
# within a few ms of their start send nothing at all (its local record of
# the bare loop lost every marker in 6 of 12 runs; captured on loopback, its
# data connections open and close empty), whichever listener it talks to.
upstream_record() {
	size=$(cat $T/buffer_size_kb) &&
	upstream_shim on &&
	# Under timeout: an upstream client stuck on our listener must fail, not hang the suite.
	timeout 60 "$UPSTREAM" record -N localhost:$LPORT "$@" -b 8 -e initcall \
		sh -c "sleep 0.2; for i in 1 2 3 4 5; do echo marker-\$i >$T/trace_marker; done" >record.out 2>&1
	status=$?
	upstream_shim off
	echo $size >$T/buffer_size_kb
	return $status
}

# Event lines: everything after the header, which ends with "cpus=N".
events() {
	sed '0,/^cpus=/d' "$1"
}

for mode in "v3 udp" "v3 tcp" "v1 udp" "v1 tcp"; do
	set -- $mode
	largs=; [ $1 = v1 ] && largs=--v1
	rargs=; [ $2 = tcp ] && rargs=-t
	test_expect_success TRACEFS,UPSTREAM,SHIM "upstream record -N $rargs, our listen $largs ($1, $2): markers in order, same report" '
		fresh_dir && start_listen $largs &&
		tracefs_state >before &&
		upstream_record $rargs &&
		tracefs_state >after &&
		test_cmp before after &&
		wait_log "^Finished with " &&
		f=$(ls trace.localhost:*.dat) &&
		if [ '$1' = v1 ]; then
			log_lines | grep -q "^Refused protocol v3 from " &&
			grep -q "^Use the v1 protocol" record.out
		fi &&
		if [ '$2' = tcp ]; then log_lines | grep -qx "Using TCP for live connection"; fi &&
		"$UPSTREAM" report -i "$f" >up.report &&
		sed -n "s/.*tracing_mark_write: //p" up.report >markers &&
		printf "marker-%s\n" 1 2 3 4 5 >want &&
		test_cmp want markers &&
		"$TRACE_CMD" report --line-3.1 -i "$f" >our.report &&
		events up.report >up.events && events our.report >our.events &&
		test_cmp up.events our.events
	'
done

test_done
