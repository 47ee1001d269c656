# SPDX-License-Identifier: GPL-2.0
# Helpers for the agent tests (agent, record -A).  Source after lib-net.sh.
#
#   start_agent CLIENT    # our agent (AGENT=$UPSTREAM34: 3.4's) for CLIENT on a
#                         # free port: APORT, APID, agent.out and agent.err
#   wait_agent_log 'regex'
#   stop_agent            # every agent started, SIGTERM and wait

start_agent() {
	for try in 1 2 3 4 5 6 7 8 9 10; do
		APORT=$next_port_
		next_port_=$((next_port_ + 1))
		port_listening $APORT && continue
		"${AGENT:-$TRACE_CMD}" agent -N "$1" -p $APORT >agent.out 2>agent.err 9>&- &
		APID=$!
		echo $APID >>"$TRASH/agent.pids"
		for i in $(seq 50); do
			port_listening $APORT && return 0
			kill -0 $APID 2>/dev/null || break
			sleep 0.1
		done
		kill $APID 2>/dev/null
		wait $APID 2>/dev/null
	done
	echo "cannot start the agent"; cat agent.err
	return 1
}

stop_agent() {
	[ -f "$TRASH/agent.pids" ] || return 0
	for pid in $(cat "$TRASH/agent.pids"); do
		kill $pid 2>/dev/null
		while kill -0 $pid 2>/dev/null; do sleep 0.05; done
	done
	rm -f "$TRASH/agent.pids"
}

wait_agent_log() {
	for i in $(seq 300); do
		grep -qE -- "$1" agent.out agent.err && return 0
		sleep 0.1
	done
	echo "the agent never said '$1':"; cat agent.out agent.err
	return 1
}
