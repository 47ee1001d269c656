# SPDX-License-Identifier: GPL-2.0
# Helpers for the agent tests (trace-cmd agent served by upstream 3.4's
# record -A on this same machine).  Source after test-lib.sh and lib-net.sh.
#
#   start_agent CLIENT       # our agent (AGENT=... another) for CLIENT: APORT, APID,
#                            # agent.out/err in $PWD
#   stop_agent               # every agent started, stopped and waited for
#   wait_agent_log 'regex'   # until agent.out/err say it (30 s)
#   both_reports GUESTFILE   # 3.4's and our report of host.dat with GUESTFILE
#                            # equal (up.both, our.both); our guest markers in markers
#   upstream_record_agent    # 3.4's record -A to 127.0.0.1:$APORT (RECORD_A_OPTS
#                            # before -A): host.dat and host-127.0.0.1.dat
#   agent_serves_34 DIR      # in a new $TRASH/DIR, the agent (ours or $AGENT) for
#                            # 127.0.0.1 served 3.4's record -A, tracefs as found
#   remove_clock_synch LIST  # 3.4's leftover clock_synch-N instances (not in LIST)
#   time_shift_of FILE [TC]  # its TimeShift by TC's dump (3.4's): timeshift.head/.samples
#   samples_near_zero        # every sample's offset under MAX_OFFSET
#   every_cpu_sampled N      # at least N samples of each of the CPUS

# Starts the agent (ours, or $AGENT) for the client $1 on a free port: APORT,
# APID, agent.out/err.  It leads a process group: stop_agent waits for the
# children serving a host as well.
start_agent() {
	# Another agent (3.4's): tracing_on as found, for stop_agent.
	[ -z "${AGENT:-}" ] || [ -z "${T:-}" ] || cat $T/tracing_on >"$TRASH/agent.tracing_on"
	OWN_GROUP=1 start_on_port agent "${AGENT:-$TRACE_CMD}" agent -N "$1" || return 1
	APORT=$SPORT APID=$SPID
}

# Stops every agent started and waits (10 s at most) for its children too.
# 3.4's agent child ends its recording with tracing off (tracing_on 0), and
# may do so after its parent is gone: put back as found, as 3.4 should have.
stop_agent() {
	[ -f "$TRASH/agent.pids" ] || return 0
	for pid in $(cat "$TRASH/agent.pids"); do
		kill $pid 2>/dev/null
		for i in $(seq 200); do
			kill -0 -- -$pid 2>/dev/null || break
			sleep 0.05
		done
		kill -KILL -- -$pid 2>/dev/null
	done
	rm -f "$TRASH/agent.pids"
	if [ -f "$TRASH/agent.tracing_on" ]; then
		cat "$TRASH/agent.tracing_on" >$T/tracing_on
		rm -f "$TRASH/agent.tracing_on"
	fi
}

# The start shared by the agent tests: a new directory, the agent, 3.4's
# record -A against it, and tracefs as it was before (3.4's agent is stopped
# first: its child turns tracing_on off after the recording).
agent_serves_34() {
	mkdir "$TRASH/$1" && cd "$TRASH/$1" && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	upstream_record_agent &&
	{ [ -z "${AGENT:-}" ] || stop_agent; } &&
	tracefs_state >after &&
	test_cmp before after
}

wait_agent_log() {
	for i in $(seq 300); do
		grep -qE -- "$1" agent.out agent.err && return 0
		sleep 0.1
	done
	echo "the agent never said '$1':"; cat agent.out agent.err
	return 1
}

# 3.4's record -A: the host records sched_switch in the instance a32host,
# the guest (the agent) initcall, which never fires after boot, so the
# guest's markers are all there is in its file.  The kernel here refuses an
# instance's function-filter and -pid files, which 3.4 writes (the shim covers
# the top ones only; its command's child dies before exec on them): the
# instance is made beforehand with empty files bound over them, and 3.4,
# taking it as its own, removes it at the end.  With time sync 3.4 also
# leaves its own clock_synch-N instance behind (its rmdir fails with EBUSY,
# whichever agent it talks to): removed here, as 3.4 should have.
HOSTBUF=a32host
INSTANCE_FTRACE_FILES="set_ftrace_filter set_ftrace_notrace set_ftrace_pid set_ftrace_notrace_pid"
upstream_record_agent() {
	size=$(cat $T/buffer_size_kb) &&
	ls $T/instances >"$TRASH/instances.before" &&
	mkdir $T/instances/$HOSTBUF &&
	for f in $INSTANCE_FTRACE_FILES; do
		[ -e $T/instances/$HOSTBUF/$f ] || continue
		: >"$TRASH/empty.$f" && mount --bind "$TRASH/empty.$f" $T/instances/$HOSTBUF/$f || return 1
	done &&
	upstream_shim on &&
	timeout 60 "$UPSTREAM34" record -o host.dat -B $HOSTBUF -e sched_switch \
		${RECORD_A_OPTS:-} -A 127.0.0.1:$APORT -b 8 -e initcall \
		sh -c "sleep 0.5; for i in 1 2 3 4 5; do echo marker-\$i >$T/trace_marker; done; sleep 0.3" \
		>record.out 2>&1
	status=$?
	upstream_shim off
	for f in $INSTANCE_FTRACE_FILES; do
		umount $T/instances/$HOSTBUF/$f 2>/dev/null
	done
	rmdir $T/instances/$HOSTBUF 2>/dev/null
	remove_clock_synch "$TRASH/instances.before"
	echo $size >$T/buffer_size_kb
	return $status
}

# With time sync 3.4 leaves its own clock_synch-N instance behind (its rmdir
# fails with EBUSY, as host and as agent): those not listed in $1 removed,
# as 3.4 should have.
remove_clock_synch() {
	for d in $T/instances/clock_synch-*; do
		[ -d "$d" ] && ! grep -qx "${d##*/}" "$1" && rmdir "$d"
	done
	return 0
}

CPUS=$(getconf _NPROCESSORS_ONLN)
MAX_OFFSET=1000000	# ns: generous for a loaded machine, where the truth is 0

# The TimeShift option of dump --options FILE ($1) by $2 (3.4's by default):
# its header lines with the trace id dropped, to timeshift.head; its samples
# "offset scaling fraction time" to timeshift.samples.
time_shift_of() {
	"${2:-$UPSTREAM34}" dump --options -i "$1" >options &&
	sed -n '/Option TimeShift/,/Option DONE/p' options >ts &&
	sed -n '3,$p' ts | grep -v '^	' | grep -v 'Option DONE' >timeshift.head &&
	grep "^	[-0-9]" ts | sed 's/\[.*//; s/^	//' >timeshift.samples &&
	test -s timeshift.samples
}

# Every sample's offset within MAX_OFFSET, scaling 1, fraction 0, time set.
samples_near_zero() {
	awk -v max=$MAX_OFFSET '
		{ o = $1 < 0 ? -$1 : $1 }
		o > max || $2 != 1 || $3 != 0 || $4 <= 0 { print "bad sample: " $0; bad = 1 }
		END { exit bad || NR == 0 }' timeshift.samples
}

# timeshift.head counts at least $1 samples of every CPU.
every_cpu_sampled() {
	for cpu in $(seq 0 $((CPUS - 1))); do
		n=$(sed -n "s/^\([0-9]*\) \[samples count for CPU $cpu\]$/\1/p" timeshift.head) &&
		test "$n" -ge $1 || { echo "CPU $cpu: ${n:-no} samples"; return 1; }
	done &&
	test $(wc -l <timeshift.samples) -ge $(($1 * CPUS))
}

# 3.4's report and ours of host.dat with the guest's file $1, on one
# timeline: equal (up.both, our.both); the markers of our guest part in markers.
both_reports() {
	"$UPSTREAM34" report -i host.dat -i "$1" >up.both &&
	"$TRACE_CMD" report -i host.dat -i "$1" >our.both &&
	test_cmp up.both our.both &&
	sed -n "s/^$1:.*tracing_mark_write: //p" our.both >markers
}
