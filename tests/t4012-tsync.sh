#!/bin/bash
# Time sync between record -A and the agent (ptp, as upstream 3.4 speaks it),
# both ends on this machine, so every offset found is near 0.  3.4's record
# -A against our agent: the guest file carries TIME_SHIFT with samples of
# each CPU, as 3.4's own agent makes it, and both reports read host and guest
# on one timeline.  Our host side (tests/helper/tsync-host) against 3.4's
# agent and ours.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-agent.sh"
test_have_prereq TRACEFS && . "$TEST_DIR/lib-tracefs.sh" && test_lock_tracefs

trap 'stop_agent; cd /; rm -rf "$TRASH"' EXIT
TSYNC_HOST=$HELPERS/tsync-host

expected_head() {
	echo "0x1 [peer's protocol flags]"
	printf "0x%x [peer's CPU count]\n" $CPUS
}

test_expect_success TRACEFS,UPSTREAM34,SHIM "3.4's record -A, our agent: ptp negotiated, TIME_SHIFT in the guest file" '
	agent_serves_34 ours &&
	wait_agent_log "recording done" &&
	grep -q "^Negotiated ptp time sync protocol with guest 127.0.0.1" record.out &&
	time_shift_of host-127.0.0.1.dat &&
	expected_head >want &&
	sed -n 1,2p timeshift.head >head &&
	test_cmp want head &&
	samples_near_zero ||
	{ cat record.out agent.out agent.err ts; false; }
'

test_expect_success TRACEFS,UPSTREAM34,SHIM "... at least two samples of every CPU: at the start and at the end" '
	cd "$TRASH/ours" &&
	every_cpu_sampled 2
'

test_expect_success TRACEFS,UPSTREAM34 "... our report and 3.4's read host and guest on one timeline, alike" '
	cd "$TRASH/ours" &&
	both_reports host-127.0.0.1.dat &&
	printf "marker-%s\n" 1 2 3 4 5 >want &&
	test_cmp want markers &&
	grep -q "^ *a32host: .*sched_switch: " our.both
'

test_expect_success TRACEFS,UPSTREAM34,SHIM "reference: 3.4's record -A and 3.4's agent make the same TIME_SHIFT" '
	AGENT=$UPSTREAM34 agent_serves_34 up &&
	time_shift_of host-127.0.0.1.dat &&
	samples_near_zero &&
	sed "s/^[0-9]* \[samples count/N [samples count/" timeshift.head >up.head &&
	sed "s/^[0-9]* \[samples count/N [samples count/" ../ours/timeshift.head >our.head &&
	test_cmp up.head our.head
'

# Our host side: samples of every CPU of the agent, at once, every 200 ms
# and at the end of 1 s; the TIME_SHIFT option it makes holds them.
host_side() {
	timeout 60 "$TSYNC_HOST" --interval 200 --run 1000 --option timeshift.opt \
		127.0.0.1 $APORT >samples 2>host.err &&
	for cpu in $(seq 0 $((CPUS - 1))); do
		test $(grep -c "^cpu $cpu time [1-9][0-9]* offset -\{0,1\}[0-9]*$" samples) -ge 2 ||
		return 1
	done &&
	awk -v max=$MAX_OFFSET "{ o = \$6 < 0 ? -\$6 : \$6 } o > max { exit 1 }" samples &&
	python3 - timeshift.opt $CPUS >decoded <<-\PY &&
	import struct, sys
	b = open(sys.argv[1], "rb").read()
	peer, flags, cpus = struct.unpack_from("<QII", b, 0)
	assert (peer, flags, cpus) == (1, 1, int(sys.argv[2])), (peer, flags, cpus)
	at, counts, out = 16, [], []
	for cpu in range(cpus):
	    n, = struct.unpack_from("<I", b, at); at += 4
	    t = struct.unpack_from("<%dQ" % n, b, at); at += 8 * n
	    o = struct.unpack_from("<%dq" % n, b, at); at += 8 * n
	    s = struct.unpack_from("<%dQ" % n, b, at); at += 8 * n
	    assert set(s) == {1}
	    out += ["cpu %d time %d offset %d" % (cpu, t[i], o[i]) for i in range(n)]
	    counts.append(n)
	for n in counts:
	    assert struct.unpack_from("<%dQ" % n, b, at) == (0,) * n; at += 8 * n
	assert at == len(b), (at, len(b))
	print("\n".join(out))
	PY
	test_cmp samples decoded
}

test_expect_success TRACEFS,UPSTREAM34,SHIM "our host side against 3.4's agent: samples of every CPU near 0" '
	mkdir "$TRASH/host-up" && cd "$TRASH/host-up" && AGENT=$UPSTREAM34 start_agent 127.0.0.1 &&
	tracefs_state >before &&
	upstream_shim on &&
	host_side
	status=$?
	upstream_shim off &&
	stop_agent &&
	tracefs_state >after &&
	test_cmp before after &&
	test $status = 0 ||
	{ cat samples host.err agent.out; false; }
'

test_expect_success TRACEFS "our host side against our agent: samples of every CPU near 0" '
	mkdir "$TRASH/host-ours" && cd "$TRASH/host-ours" && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	host_side &&
	wait_agent_log "recording done" &&
	tracefs_state >after &&
	test_cmp before after ||
	{ cat samples host.err agent.out agent.err; false; }
'

# A host that offers ptp, reads TRACE_RESP and hangs up: prints the
# protocol and port the agent answered.
offer_ptp_and_leave() {
	python3 - "$APORT" <<-\PY
	import socket, struct, sys
	args = [b"-e", b"initcall"]
	params = struct.pack(">I", len(args)) + b"".join(a + b"\0" for a in args)
	payload = struct.pack(">II", 0, len(params)) + params + struct.pack(">II", 1, 5) + b"ptp\0\0"
	fixed = struct.pack(">IIQ", 0, len(args), 1)
	s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=20)
	s.sendall(struct.pack(">III", 12 + len(fixed) + len(payload), 6, len(fixed)) + fixed + payload)
	hdr = s.recv(12, socket.MSG_WAITALL)
	size, cmd, cs = struct.unpack(">III", hdr)
	body = s.recv(size - 12, socket.MSG_WAITALL)
	print(cmd, body[20:36].rstrip(b"\0").decode(), struct.unpack(">I", body[36:40])[0])
	PY
}

test_expect_success TRACEFS "a host that offers ptp and leaves: TRACE_RESP names ptp and its port, nothing left behind" '
	mkdir "$TRASH/leave" && cd "$TRASH/leave" && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	offer_ptp_and_leave >resp &&
	wait_agent_log "recording failed" &&
	port=$(sed -n "s/^[^ ]*: time sync with ptp on port \([0-9]*\)$/\1/p" agent.out) &&
	echo "7 ptp $port" >want &&
	test_cmp want resp &&
	sleep 0.5 &&
	tracefs_state >after &&
	test_cmp before after &&
	! port_listening $port &&
	test $(ps -o pid= --ppid $APID | wc -l) = 0 ||
	{ cat resp agent.out agent.err; false; }
'

test_expect_success "the ptp arithmetic: the fastest round trip wins, its middle against the host's time" '
	printf "%s\n" "1 1000 1100 5000" "2 2000 2040 7000" "3 3000 3040 9999" "4 100 4000 0" |
	"$HELPERS/tsync-offset" >out &&
	echo "time 2020 offset 4980 scaling 1 frac 0" >want &&
	test_cmp want out &&
	printf "%s\n" "7 5000 5010 4000" "9 6000 6100 1" | "$HELPERS/tsync-offset" >out &&
	echo "time 5005 offset -1005 scaling 1 frac 0" >want &&
	test_cmp want out &&
	printf "%s\n" "1 1000 0 5000" "2 0 10 5000" "3 10 20 0" >times &&
	test_expect_code 1 "$HELPERS/tsync-offset" <times
'

test_done
