#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='record -A from this host to an agent in a guest over qemu'"'"'s user network: ours, then 3.4'"'"'s'
# plain-build: the agents run under TCG in the guest, where the sanitized build takes minutes; t4011 runs record -A sanitized on the host
# One boot, two cases one after the other: the guest starts an agent (ours,
# then 3.4's) and writes markers until the host says it is done; meanwhile
# the host records its own sched_switch with our record -A, the guest
# recording its function tracer (full Ftrace there) and its markers.  Then
# report -i host.dat -i guest.dat by ours equals 3.4's.
. ./test-lib.sh
. "$TEST_DIR/lib-net.sh"
. "$TEST_DIR/lib-guest.sh"
test_have_prereq TRACEFS && . "$TEST_DIR/lib-tracefs.sh" && test_lock_tracefs

# Eight free ports on the host: the agent's and our agent's data ports.
APORT=$next_port_
while :; do
	busy=
	for p in $(seq $APORT $((APORT + 7))); do port_listening $p && busy=1; done
	[ -z "$busy" ] && break
	APORT=$((APORT + 8))
done
# 3.4's agent opens its data ports from 1500 up, as its listen does, then
# its time-sync port (1502 for the guest's 2 CPUs): qemu cannot start while
# another test's upstream listen holds them here.
for i in $(seq 60); do
	port_listening 1500 || port_listening 1501 || port_listening 1502 || break
	sleep 0.5
done
guest_net $APORT 8 1500 3
guest_env "AGENT_PORT=$APORT"
# serve NAME AGENT: AGENT's agent for the host (10.0.2.2) on AGENT_PORT, its
# data ports forwarded too; markers every 0.2 s until the host is done.
guest_env 'serve() {
	echo "$((AGENT_PORT + 1)) $((AGENT_PORT + 7))" >/proc/sys/net/ipv4/ip_local_port_range
	"$2" agent --verbose=6 -N 10.0.2.2 -p $AGENT_PORT >agent.out 2>agent.err &
	agent=$!
	hexport=$(printf %04X $AGENT_PORT)
	i=0
	while ! grep -q "^ *[0-9]*: [0-9A-F]*:$hexport [0-9A-F]*:0000 0A" /proc/net/tcp /proc/net/tcp6 &&
		[ $i -lt 300 ]; do
		i=$((i + 1)); sleep 0.2
	done
	: >/tmp/share/agent-up-$1
	i=0
	while [ ! -e /tmp/share/host-done-$1 ] && [ $i -lt 400 ]; do
		i=$((i + 1))
		echo guest-marker-$i >$T/trace_marker
		sleep 0.2
	done
	sleep 1
	kill $agent; wait $agent
	cat agent.out agent.err
	test -e /tmp/share/host-done-$1
}'
guest_case ours 'serve ours "$TRACE_CMD"'
[ -n "$UPSTREAM34" ] && guest_case up34 'serve up34 "$UPSTREAM34"'

# host_side NAME: once the guest's agent is up, our record -A records this
# machine's sched_switch and the guest's function tracer for 3 s.
host_side() {
	mkdir -p "$TRASH/$1" && cd "$TRASH/$1" || return
	until [ -e "$GUEST_SHARE/agent-up-$1" ]; do
		[ -e "$TRASH/guest-gone" ] && return
		sleep 0.5
	done
	for try in 1 2 3 4 5; do
		timeout 120 "$TRACE_CMD" record -o host.dat -e sched_switch \
			-A guest@127.0.0.1:$APORT -p function -l vfs_write -e sched_switch \
			sleep 3 >record.out 2>record.err
		echo $? >record.status
		grep -q "hung up without answering\|connection closed" record.err || break
		sleep 2
	done
	: >"$GUEST_SHARE/host-done-$1"
}

GUEST_CASE_TIMEOUT=${GUEST_CASE_TIMEOUT:-240}
if test_have_prereq TRACEFS && test_have_prereq GUEST; then
	( host_side ours; [ -n "$UPSTREAM34" ] && host_side up34 ) >/dev/null 2>&1 9>&- &
	host=$!
	guest_boot 600
	: >"$TRASH/guest-gone"
	wait $host
fi

test_expect_success GUEST,TRACEFS 'the guest boots and runs both cases' 'guest_booted'

# check NAME: the host's recording succeeded, the guest's file has its markers
# and functions and the time sync's samples (ptp), and the host file names
# it with its trace id.
check() {
	cd "$TRASH/$1" &&
	guest_ok $1 &&
	{ test "$(cat record.status)" = 0 || { cat record.out record.err; false; }; } &&
	test -s host.dat && test -s host-guest.dat &&
	"$TRACE_CMD" report -i host-guest.dat >guest.report &&
	grep -q "tracing_mark_write: guest-marker-" guest.report &&
	grep -q "function: .*vfs_write" guest.report &&
	"$TRACE_CMD" dump --options -i host-guest.dat >guest.options &&
	grep -q "Option TimeShift" guest.options &&
	grep -q "^2 \[samples count for CPU 1\]$" guest.options &&
	"$TRACE_CMD" report -i host.dat >host.report &&
	grep -q "sched_switch:" host.report &&
	! grep -q "guest-marker" host.report ||
	{ cat "$(guest_out $1)/.output" record.err; false; }
}

test_expect_success GUEST,TRACEFS 'our record -A, our agent in the guest: both files' 'check ours'

test_expect_success GUEST,TRACEFS,UPSTREAM34 'our agent: report -i host.dat -i guest by ours equals 3.4s' '
	cd "$TRASH/ours" &&
	{ "$UPSTREAM34" report -i host.dat -i host-guest.dat >up.both 2>up.err || { cat up.err; false; }; } &&
	"$TRACE_CMD" report -i host.dat -i host-guest.dat >our.both &&
	{ test_cmp up.both our.both || { diff up.both our.both | head -20; false; }; } &&
	grep -q "^host-guest.dat:.*guest-marker" our.both &&
	grep -v "^host-guest.dat:" our.both | grep -q "sched_switch:"
'

test_expect_success GUEST,TRACEFS,UPSTREAM34 'our record -A, 3.4s agent in the guest: both files' 'check up34'

test_expect_success GUEST,TRACEFS,UPSTREAM34 '3.4s agent: report -i host.dat -i guest by ours equals 3.4s' '
	cd "$TRASH/up34" &&
	"$UPSTREAM34" report -i host.dat -i host-guest.dat >up.both &&
	"$TRACE_CMD" report -i host.dat -i host-guest.dat >our.both &&
	test_cmp up.both our.both
'

test_done
