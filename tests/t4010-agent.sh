#!/bin/bash
# trace-cmd agent over TCP, driven by upstream 3.4's record -A on this same
# machine: both ends trace this kernel, the agent its top buffer, the host an
# instance of its own.  The guest file holds the markers written meanwhile and
# reads the same in 3.4's report and ours; -N keeps out any other client, and
# a client that says nothing is dropped after the protocol's 5 s.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-agent.sh"
test_have_prereq TRACEFS && . "$TEST_DIR/lib-tracefs.sh" && test_lock_tracefs

trap 'stop_agent; stop_listen; cd /; rm -rf "$TRASH"' EXIT

test_expect_success TRACEFS,UPSTREAM34,SHIM "3.4's record -A, our agent: a host file and a guest file with the markers" '
	agent_serves_34 run1 &&
	! grep instances /proc/self/mounts &&
	wait_agent_log "recording done" &&
	test -s host.dat && test -s host-127.0.0.1.dat &&
	"$UPSTREAM34" report -i host-127.0.0.1.dat >up.report &&
	sed -n "s/.*tracing_mark_write: //p" up.report >markers &&
	printf "marker-%s\n" 1 2 3 4 5 >want &&
	test_cmp want markers &&
	"$TRACE_CMD" report -i host-127.0.0.1.dat >our.report &&
	sed -n "s/.*tracing_mark_write: //p" our.report >our.markers &&
	test_cmp want our.markers
'

test_expect_success TRACEFS,UPSTREAM34 "the host file names the guest file by its trace id" '
	cd "$TRASH/run1" &&
	"$UPSTREAM34" dump --options -i host.dat >host.options &&
	"$UPSTREAM34" dump --options -i host-127.0.0.1.dat >guest.options &&
	id=$(grep -A1 "Option TRACEID" guest.options | tail -1) &&
	grep -A2 "Option GUEST" host.options >guest.opt &&
	grep -qx "$id \[trace id\]" guest.opt
'

test_expect_success TRACEFS,UPSTREAM34 "3.4 and our report read host and guest together, the markers in the guest part" '
	cd "$TRASH/run1" &&
	"$UPSTREAM34" report -i host.dat -i host-127.0.0.1.dat >up.both &&
	sed -n "s/^host-127.0.0.1.dat:.*tracing_mark_write: //p" up.both >up.markers &&
	test_cmp want up.markers &&
	"$TRACE_CMD" report -i host.dat -i host-127.0.0.1.dat >our.both &&
	sed -n "s/^host-127.0.0.1.dat:.*tracing_mark_write: //p" our.both >our.markers &&
	test_cmp want our.markers
'

test_expect_success TRACEFS,UPSTREAM34,SHIM "-N: another client is refused, with a message on both sides, nothing traced" '
	fresh_dir && start_agent 127.0.0.2 &&
	tracefs_state >before &&
	upstream_shim on &&
	timeout 60 "$UPSTREAM34" record -o host.dat -A 127.0.0.1:$APORT -e initcall sleep 0.1 \
		>record.out 2>&1
	status=$?
	upstream_shim off &&
	tracefs_state >after &&
	test_cmp before after &&
	test $status != 0 && test $status != 124 &&
	grep -q "Failed to receive trace response" record.out &&
	grep -E "^refused [^ ]+:[0-9]+: only 127\.0\.0\.2 may connect \(-N\)$" agent.out &&
	! grep "connected with" agent.out &&
	! test -e host-127.0.0.1.dat ||
	{ cat record.out agent.out agent.err; false; }
'

test_expect_success TRACEFS "a client that sends nothing is dropped after 5 s; the next is served" '
	fresh_dir && start_agent 127.0.0.1 &&
	exec 7<>/dev/tcp/127.0.0.1/$APORT &&
	wait_agent_log "connected with" &&
	start=$(date +%s) &&
	wait_agent_log "recording failed" &&
	end=$(date +%s) &&
	test $((end - start)) -le 8 &&
	grep -E "^trace-cmd agent: .*(timed out|no message|waiting)" agent.err &&
	exec 7>&- &&
	exec 7<>/dev/tcp/127.0.0.1/$APORT &&
	sleep 0.3 && exec 7>&- &&
	grep -c "connected with" agent.out >count &&
	echo 2 >want && test_cmp want count
'

# A host of our own making, as upstream's record -A behaves: sends TRACE_REQ
# with the arguments given; if TRACE_RESP comes, reads the header up to
# FIN_DATA, connects every CPU's data port, waits a second, sends CLOSE and
# reads until the agent hangs up.  Prints the commands it received.
# FAKE_MODE=no-data: it never connects the data channels; vanish: it hangs
# up instead of sending CLOSE.
fake_host() {
	python3 - "$APORT" "$@" <<-\PY
	import socket, struct, sys, time
	import os
	MODE = os.environ.get("FAKE_MODE", "")
	port, args = int(sys.argv[1]), [a.encode() for a in sys.argv[2:]]
	params = struct.pack(">I", len(args)) + b"".join(a + b"\0" for a in args)
	payload = struct.pack(">II", 0, len(params)) + params
	fixed = struct.pack(">IIQ", 0, len(args), 1)
	s = socket.create_connection(("127.0.0.1", port), timeout=20)
	s.sendall(struct.pack(">III", 12 + len(fixed) + len(payload), 6, len(fixed)) + fixed + payload)
	def recv_all(n):
	    buf = b""
	    while len(buf) < n:
	        got = s.recv(n - len(buf))
	        if not got:
	            break
	        buf += got
	    return buf
	def recv_msg():
	    hdr = recv_all(12)
	    if len(hdr) < 12:
	        return None, b"", b""
	    size, cmd, cs = struct.unpack(">III", hdr)
	    body = recv_all(size - 12)
	    print(cmd)
	    return cmd, body[:cs], body[cs:]
	cmd, fx, pl = recv_msg()
	if cmd != 7:
	    sys.exit(0)
	ports = [int(p) for p in pl.split(b"\0")[:struct.unpack(">I", fx[4:8])[0]]]
	while cmd not in (4, None):
	    cmd, fx, pl = recv_msg()
	if MODE == "no-data":
	    time.sleep(8)
	    sys.exit(0)
	try:
	    data = [socket.create_connection(("127.0.0.1", p)) for p in ports]
	except OSError as e:
	    print("data channel:", e.strerror)
	    sys.exit(0)
	time.sleep(1)
	if MODE == "vanish":
	    sys.exit(0)
	s.sendall(struct.pack(">III", 12, 0, 0))
	while recv_msg()[0] is not None:
	    pass
	PY
}

test_expect_success TRACEFS "a host asking the agent to run a command is refused, nothing run or left set" '
	fresh_dir && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	fake_host -e initcall touch "$PWD/ran" >reply &&
	wait_agent_log "recording failed" &&
	tracefs_state >after &&
	test_cmp before after &&
	! test -e ran &&
	grep -q "^trace-cmd agent: the host asked the agent to run .touch.: an agent runs no commands" agent.err
'

test_expect_success TRACEFS "a host that never connects the data channels: 5 s, tracefs restored; another meanwhile is refused" '
	fresh_dir && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	start=$(date +%s) &&
	{ FAKE_MODE=no-data fake_host -e initcall >reply & } &&
	fake=$! &&
	wait_agent_log "connected with" &&
	fake_host -e initcall >reply2 &&
	grep -E "^refused [^ ]+:[0-9]+: already tracing for [^ ]+:[0-9]+$" agent.out &&
	! test -s reply2 &&
	wait_agent_log "recording failed" &&
	end=$(date +%s) &&
	test $((end - start)) -le 10 &&
	tracefs_state >after &&
	test_cmp before after &&
	grep -q "^trace-cmd agent: .*: the host did not connect the data channel of cpu 0 within 5 s" agent.err &&
	wait $fake
'

test_expect_success TRACEFS "a host that hangs up while tracing: the agent says so, restores tracefs, serves the next" '
	fresh_dir && start_agent 127.0.0.1 &&
	tracefs_state >before &&
	FAKE_MODE=vanish fake_host -e initcall >reply &&
	wait_agent_log "recording failed" &&
	tracefs_state >after &&
	test_cmp before after &&
	grep -q "^trace-cmd agent: .*: connection closed\|^trace-cmd agent: .*closed the connection\|^trace-cmd agent: .*: unexpected end" agent.err &&
	fake_host -e initcall >reply2 &&
	wait_agent_log "recording done" &&
	grep -qx 8 reply2 ||
	{ cat agent.out agent.err reply reply2; false; }
'

test_expect_success "agent usage: -N with -V, a vsock port not a number, bad options" '
	test_expect_code 2 "$TRACE_CMD" agent -N 127.0.0.1 -V 2>err &&
	grep -q "^trace-cmd agent: -N and -V: one transport, TCP (-N) or vsock (-V)$" err &&
	test_expect_code 2 "$TRACE_CMD" agent -p vsock 2>err &&
	grep -q "^trace-cmd agent: invalid -p value .vsock.: not a number$" err &&
	test_expect_code 2 "$TRACE_CMD" agent -V -p 4294967295 2>err &&
	grep -q "^trace-cmd agent: invalid -p value .4294967295.: out of range" err &&
	test_expect_code 2 "$TRACE_CMD" agent -N 127.0.0.1 -P 3 2>err &&
	grep -q "^trace-cmd agent: -P and -N: a proxy serves its guest over vsock only$" err &&
	test_expect_code 2 "$TRACE_CMD" agent -P 3 -N 127.0.0.1 2>err &&
	grep -q "^trace-cmd agent: -P and -N: a proxy serves its guest over vsock only$" err &&
	test_expect_code 2 "$TRACE_CMD" agent -P x 2>err &&
	grep -q "^trace-cmd agent: invalid -P value .x.: not a number$" err &&
	test_expect_code 2 "$TRACE_CMD" agent -P 0 -p 4000 2>err &&
	grep -q "^trace-cmd agent: invalid -P value .0.: out of range" err &&
	test_expect_code 2 "$TRACE_CMD" agent -N 127.0.0.1 --verbose=loud 2>err &&
	grep -q "^trace-cmd agent: invalid --verbose value .loud." err &&
	test_expect_code 2 "$TRACE_CMD" agent -N 127.0.0.1 extra 2>err &&
	grep -q "unexpected argument" err &&
	test_expect_code 1 "$TRACE_CMD" agent -N no-such-host.invalid -p 1 2>err &&
	grep -q "^trace-cmd agent: cannot resolve -N" err
'

test_done
