#!/bin/bash
# record -A HOST:PORT: our record drives an agent over TCP on this same
# machine, ours and upstream 3.4's: the agent traces the top buffer, the host
# an instance of its own, at the same time.  The guest file is named as 3.4
# names it, holds the markers written meanwhile, and is named with its trace
# id in the host file's GUEST option; both reports read the pair the same.
# Time sync: ptp offered, taken by both agents, its samples (near 0 here, one
# machine) in the guest file's TIME_SHIFT option; --tsync-interval -1 none.
# A bad agent (refusing, silent, dying) fails the recording within seconds,
# naming it, with tracefs put back and no guest file or temporary left.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-agent.sh"
test_have_prereq TRACEFS && . "$TEST_DIR/lib-tracefs.sh" && test_lock_tracefs

trap 'stop_agent; cd /; rm -rf "$TRASH"' EXIT

HOSTBUF=a32rec
printf "marker-%s\n" 1 2 3 4 5 >"$TRASH/want"
# A fake agent on a free port (FPORT, FPID): "silent" takes the connection
# and never says a word; "dying" answers, sends a file header, takes the
# data channel of its one CPU, then dies while the host records; "ptp" is
# "dying" choosing ptp for time sync (on a port where nothing listens).
cat >"$TRASH/fake-agent.py" <<-\PY
	import socket, struct, sys, time
	l = socket.socket()
	l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
	l.bind(("127.0.0.1", int(sys.argv[2])))
	l.listen(1)
	print("ready", flush=True)
	s, _ = l.accept()
	if sys.argv[1] == "silent":
	    time.sleep(12)
	    sys.exit(0)
	size = struct.unpack(">I", s.recv(4, socket.MSG_WAITALL))[0]
	s.recv(size - 4, socket.MSG_WAITALL)
	d = socket.socket()
	d.bind(("127.0.0.1", 0))
	d.listen(1)
	ports = b"%d\0" % d.getsockname()[1]
	proto = b"ptp" if sys.argv[1] == "ptp" else b""
	fixed = struct.pack(">IIIQ16sI", 0, 1, 4096, 7, proto, 1)
	s.sendall(struct.pack(">III", 12 + len(fixed) + len(ports), 7, len(fixed)) + fixed + ports)
	s.sendall(struct.pack(">III", 16, 3, 0) + b"junk" + struct.pack(">III", 12, 4, 0))
	c, _ = d.accept()
	time.sleep(0.3)
	PY
start_fake() {
	FPORT=$next_port_ && next_port_=$((next_port_ + 1)) &&
	{ timeout 30 python3 "$TRASH/fake-agent.py" $1 $FPORT >fake.out 2>&1 & } &&
	FPID=$! &&
	for i in $(seq 50); do grep -q ready fake.out && return 0; sleep 0.1; done
	return 1
}

# Our record -A: the host records sched_switch in its instance while the
# command writes five markers into the top buffer, the agent's.
record_agent() {
	timeout 60 "$TRACE_CMD" record -o host.dat -B $HOSTBUF -e sched_switch "$@" \
		sh -c "sleep 0.3; for i in 1 2 3 4 5; do echo marker-\$i >$T/trace_marker; done; sleep 0.2" \
		>record.out 2>record.err
}

# The markers a report of the guest file $1 shows, by the report $2.
guest_markers() {
	"$2" report -i "$1" | sed -n "s/.*tracing_mark_write: //p"
}

# Nothing of the recording left in tracefs or in the directory but the files.
nothing_left() {
	tracefs_state >after &&
	test_cmp before after &&
	! test -d $T/instances/$HOSTBUF &&
	! ls | grep -E "cpu[0-9]|\.tmp|XXXX|\.trace-cmd"
}

test_expect_success TRACEFS "our record -A, our agent: host.dat and host-127.0.0.1.dat, the markers in the guest's" '
	mkdir "$TRASH/ours" && cd "$TRASH/ours" && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	record_agent -A 127.0.0.1:$APORT -e initcall &&
	nothing_left &&
	wait_agent_log "recording done" &&
	test -s host.dat && test -s host-127.0.0.1.dat &&
	guest_markers host-127.0.0.1.dat "$TRACE_CMD" >markers &&
	test_cmp "$TRASH/want" markers ||
	{ cat record.out record.err agent.out agent.err; false; }
'

test_expect_success TRACEFS "... time synced: TimeShift in the guest file, 2 samples of every CPU or more, near 0" '
	cd "$TRASH/ours" &&
	time_shift_of host-127.0.0.1.dat "$TRACE_CMD" &&
	samples_near_zero &&
	every_cpu_sampled 2 ||
	{ cat ts; false; }
'

test_expect_success TRACEFS,UPSTREAM34 "the host file names the guest file by its trace id; 3.4 reads both" '
	cd "$TRASH/ours" &&
	"$UPSTREAM34" dump --options -i host.dat >host.options &&
	"$UPSTREAM34" dump --options -i host-127.0.0.1.dat >guest.options &&
	id=$(grep -A1 "Option TRACEID" guest.options | tail -1) &&
	grep -A4 "Option GUEST" host.options >guest.opt &&
	grep -qx "127.0.0.1 \[Guest name\]" guest.opt &&
	grep -qx "$id \[trace id\]" guest.opt &&
	guest_markers host-127.0.0.1.dat "$UPSTREAM34" >markers &&
	test_cmp "$TRASH/want" markers &&
	host_id=$(grep -A1 "Option TRACEID" host.options | tail -1) &&
	time_shift_of host-127.0.0.1.dat &&
	grep -qx "$host_id \[peer.s trace id\]" ts &&
	samples_near_zero &&
	every_cpu_sampled 2
'

test_expect_success TRACEFS,UPSTREAM34 "report -i host.dat -i guest: ours equals 3.4s, the markers in the guest part" '
	cd "$TRASH/ours" &&
	both_reports host-127.0.0.1.dat &&
	test_cmp "$TRASH/want" markers &&
	grep -q "^ *$HOSTBUF: .*sched_switch:" our.both
'

test_expect_success TRACEFS "NAME@HOST:PORT names the guest; --name overrides it" '
	fresh_dir && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	record_agent -A g1@127.0.0.1:$APORT -e initcall &&
	wait_agent_log "recording done" &&
	guest_markers host-g1.dat "$TRACE_CMD" >markers &&
	test_cmp "$TRASH/want" markers &&
	rm host.dat host-g1.dat &&
	record_agent -A g1@127.0.0.1:$APORT --name g2 -e initcall &&
	nothing_left &&
	guest_markers host-g2.dat "$TRACE_CMD" >markers &&
	test_cmp "$TRASH/want" markers &&
	! test -e host-g1.dat &&
	"$TRACE_CMD" dump --options -i host.dat >opts &&
	grep -q "g2" opts ||
	{ cat record.out record.err agent.out agent.err; false; }
'

# The agent (on this machine) records every syscall, so its data flows
# while the host records: the host's process reading it, a trace-cmd of its
# own, makes reads and writes the host's buffer must not hold.
test_expect_success TRACEFS "record -A keeps the process reading the guest's data out of the host's trace" '
	fresh_dir && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	timeout 60 "$TRACE_CMD" record --verbose -o host.dat -B $HOSTBUF \
		-e syscalls:sys_enter_read -e syscalls:sys_enter_write \
		-A 127.0.0.1:$APORT -e raw_syscalls -b 64 \
		sh -c "for i in \$(seq 20); do echo marker-\$i >$T/trace_marker; sleep 0.05; done" \
		>record.out 2>record.err &&
	reader=$(sed -n "s/.*its data channels read by process \([0-9]*\)$/\1/p" record.err) &&
	test -n "$reader" &&
	"$TRACE_CMD" report -i host.dat >host.report &&
	grep -q "sys_enter_write" host.report &&
	! grep -E -- "-$reader +\[" host.report &&
	wait_agent_log "recording done" &&
	nothing_left ||
	{ cat record.err; grep -E -- "-$reader +\[" host.report | head -5; false; }
'

test_expect_success TRACEFS,UPSTREAM34,SHIM "our record -A, 3.4s agent: both files, time synced, both reports the same" '
	fresh_dir &&
	tracefs_state >before &&
	ls $T/instances >instances.before &&
	upstream_shim on &&
	AGENT=$UPSTREAM34 start_agent 127.0.0.1 &&
	record_agent --verbose -A 127.0.0.1:$APORT -e initcall
	status=$?
	stop_agent
	upstream_shim off &&
	remove_clock_synch instances.before &&
	test $status = 0 &&
	nothing_left &&
	grep -q "127.0.0.1:$APORT.: time synchronization with ptp, every 0 ms" record.err &&
	guest_markers host-127.0.0.1.dat "$TRACE_CMD" >markers &&
	test_cmp "$TRASH/want" markers &&
	time_shift_of host-127.0.0.1.dat &&
	samples_near_zero &&
	every_cpu_sampled 2 &&
	both_reports host-127.0.0.1.dat ||
	{ cat record.out record.err agent.out agent.err ts; false; }
'

test_expect_success TRACEFS "--tsync-interval 100: a sample every 100 ms; -1: no time sync, no TimeShift" '
	fresh_dir && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	record_agent --tsync-interval 100 -A 127.0.0.1:$APORT -e initcall &&
	nothing_left &&
	time_shift_of host-127.0.0.1.dat "$TRACE_CMD" &&
	samples_near_zero &&
	every_cpu_sampled 3 &&
	rm host.dat host-127.0.0.1.dat &&
	record_agent --verbose --tsync-interval -1 -A 127.0.0.1:$APORT -e initcall &&
	nothing_left &&
	guest_markers host-127.0.0.1.dat "$TRACE_CMD" >markers &&
	test_cmp "$TRASH/want" markers &&
	grep -q "127.0.0.1:$APORT.: no time synchronization: the guest.s timestamps" record.err &&
	"$TRACE_CMD" dump --options -i host-127.0.0.1.dat >options &&
	grep -q "Option TRACEID" options &&
	! grep -q "TimeShift" options ||
	{ cat record.out record.err agent.out agent.err; false; }
'

test_expect_success TRACEFS "an agent that refuses this host: exit 1 naming it, nothing written, tracefs put back" '
	fresh_dir && start_agent 127.0.0.2 &&
	tracefs_state >before &&
	test_expect_code 1 record_agent -A 127.0.0.1:$APORT -e initcall &&
	nothing_left &&
	grep -q "^trace-cmd record: .127.0.0.1:$APORT.: the agent hung up without answering TRACE_REQ" record.err &&
	test $(wc -l <record.err) = 1 &&
	! test -e host.dat && ! test -e host-127.0.0.1.dat
'

test_expect_success TRACEFS "nothing listening at HOST:PORT: exit 1 naming it, tracefs put back" '
	fresh_dir && start_agent 127.0.0.1 && port=$APORT && stop_agent &&
	tracefs_state >before &&
	test_expect_code 1 record_agent -A 127.0.0.1:$port -e initcall &&
	nothing_left &&
	grep -q "^trace-cmd record: cannot connect to .127.0.0.1:$port. for the agent: Connection refused" record.err &&
	! test -e host.dat
'

# This host has no vsock transport (no vsock_loopback, no hypervisor):
# the kernel bounds the connect (2 s) and record says why in one line.
# t8003 drives agents over vsock in a guest.
test_expect_success TRACEFS "record -A CID:PORT with no agent reachable (no vsock transport here): one line, exit 1, tracefs put back" '
	fresh_dir &&
	tracefs_state >before &&
	start=$(date +%s) &&
	test_expect_code 1 record_agent -A 1:4999 -e initcall &&
	end=$(date +%s) &&
	test $((end - start)) -le 9 &&
	nothing_left &&
	test $(wc -l <record.err) = 1 &&
	grep -q "^trace-cmd record: cannot connect to vsock CID 1 port 4999 for the agent: " record.err &&
	! test -e host.dat && ! test -e host-1.dat ||
	{ cat record.err; false; }
'

test_expect_success TRACEFS "an agent that never answers: 5 s, exit 1 naming it, tracefs put back" '
	fresh_dir && start_fake silent &&
	tracefs_state >before &&
	start=$(date +%s) &&
	test_expect_code 1 record_agent -A 127.0.0.1:$FPORT -e initcall &&
	end=$(date +%s) &&
	kill $FPID; wait $FPID
	test $((end - start)) -le 9 &&
	nothing_left &&
	grep -q "^trace-cmd record: .127.0.0.1:$FPORT.: the agent did not answer TRACE_REQ within 5 s" record.err
'

test_expect_success TRACEFS "an agent that dies while tracing: exit 1 naming it, no guest file, tracefs put back" '
	fresh_dir && start_fake dying &&
	tracefs_state >before &&
	test_expect_code 1 record_agent -A 127.0.0.1:$FPORT -e initcall &&
	wait $FPID &&
	nothing_left &&
	grep -q "^trace-cmd record: .127.0.0.1:$FPORT.: " record.err &&
	test -s host.dat && ! test -e host-127.0.0.1.dat ||
	{ cat record.out record.err fake.out; false; }
'

test_expect_success TRACEFS "an agent choosing ptp when not offered (--tsync-interval -1): exit 1 naming it, tracefs put back" '
	fresh_dir && start_fake ptp &&
	tracefs_state >before &&
	test_expect_code 1 record_agent --tsync-interval -1 -A 127.0.0.1:$FPORT -e initcall &&
	kill $FPID; wait $FPID
	nothing_left &&
	grep -q "^trace-cmd record: .127.0.0.1:$FPORT.: the agent chose time-sync protocol .ptp., which was not offered" record.err &&
	! test -e host.dat && ! test -e host-127.0.0.1.dat ||
	{ cat record.out record.err fake.out; false; }
'

test_expect_success "usage: a bad vsock port, a missing port, --name alone, -N, two guests of one name, --tsc2nsec, --proxy, --tsync-interval" '
	usage_is() { msg=$1; shift; test_expect_code 2 "$TRACE_CMD" "$@" 2>err && grep -q -- "$msg" err || { cat err; false; }; } &&
	usage_is "^trace-cmd record: -A .3:abc.: invalid vsock port .abc. (0 to 4294967294)" record -A 3:abc -e sched &&
	usage_is "^trace-cmd record: -A .g@3:4294967295.: invalid vsock port .4294967295." record -A g@3:4294967295 -e sched &&
	usage_is "^trace-cmd record: -A .99999999999:823.: invalid CID .99999999999. (0 to 4294967294)" record -A 99999999999:823 -e sched &&
	usage_is "^trace-cmd record: -A .3:823.: a guest named .3. is already traced" record -A 3 -A 3:823 -e sched &&
	usage_is "^trace-cmd record: -A .localhost.: give the agent.s HOST:PORT (TCP) or CID\[:PORT\] (vsock)" record -A localhost -e sched &&
	usage_is "^trace-cmd record: -A .h:0.: invalid port .0." record -A h:0 -e sched &&
	usage_is "^trace-cmd record: --name must follow an -A" record --name x -e sched &&
	usage_is "^trace-cmd record: invalid guest name .a/b." record -A a/b@h:1 -e sched &&
	usage_is "^trace-cmd record: -A .h:2.: a guest named .h. is already traced" record -A h:1 -A h:2 -e sched &&
	usage_is "^trace-cmd record: -A does not apply with -N" record -N h:1 -A g:2 -e sched &&
	usage_is "^trace-cmd stream: -A does not apply to stream" stream -A g:2 -e sched &&
	usage_is "^trace-cmd record: -A g:2: -C tsc2nsec: the guest.s file would get no TSC conversion .3.4.s agent writes none.: record it on the TSC with -C x86-tsc$" record -e sched -A g:2 -C tsc2nsec -e sched &&
	usage_is "^trace-cmd record: -C tsc2nsec cannot be used with -N: the listener writes no TSC2NSEC option$" record -C tsc2nsec -N h:1 -e sched &&
	usage_is "^trace-cmd record: --proxy .host:80.: a vsock CID:PORT (the host.s agent -P)$" record --proxy host:80 -e sched &&
	usage_is "^trace-cmd record: --proxy .2:abc.: invalid vsock port .abc. (0 to 4294967294)$" record --proxy 2:abc -e sched &&
	usage_is "^trace-cmd record: --proxy .2:823.: a guest named .2. is already traced" record -A 2:1 --proxy 2:823 -e sched &&
	usage_is "^trace-cmd record: invalid --tsync-interval value .1s.: not a number" record --tsync-interval 1s -A g:2 -e sched &&
	usage_is "^trace-cmd stream: unknown option .--tsync-interval." stream --tsync-interval 10 -e sched
'

test_done
