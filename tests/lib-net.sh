# SPDX-License-Identifier: GPL-2.0
# Helpers for the network tests (listen, record -N).  Source after test-lib.sh.
#
#   fresh_dir                          # a directory of its own for one test
#   start_listen [listen options...]   # sets LPORT and LPID; log in $PWD/listen.log
#                                      # (NOLOG=1: no -l, stdout in listen.out;
#                                      # LISTENER=$UPSTREAM: upstream's listen)
#   wait_log 'regex' [count]           # until listen.log has count matching lines
#   stop_listen                        # SIGTERM, and wait for it
#   replay [net-replay options...] FILE   # the test client, to localhost:$LPORT

REPLAY=$HELPERS/net-replay
trap 'stop_listen; cd /; rm -rf "$TRASH"' EXIT

# A port of our own: other engineers' tests listen at the same time.
next_port_=$((20000 + ($$ * 7) % 30000))

port_listening() {
	grep -qi "^ *[0-9]*: [0-9A-F]*:$(printf %04X "$1") [0-9A-F]*:0000 0A" /proc/net/tcp /proc/net/tcp6 2>/dev/null
}

fresh_dir() {
	cd "$(mktemp -d "$TRASH/test.XXXXXX")"
}

# start_on_port NAME PROGRAM COMMAND [ARGS...]: runs PROGRAM COMMAND -p PORT
# ARGS in the background (NAME.out, NAME.err in $PWD) on the first free
# port from next_port_ on, until it listens there: sets SPORT and SPID, and
# keeps the pid in $TRASH/NAME.pids for the cleanup.  With OWN_GROUP=1 it
# leads a process group of its own (setsid), so its children can be waited for.
start_on_port() {
	name=$1 prog=$2 command=$3
	shift 3
	for try in 1 2 3 4 5 6 7 8 9 10; do
		SPORT=$next_port_
		next_port_=$((next_port_ + 1))
		port_listening $SPORT && continue
		${OWN_GROUP:+setsid} "$prog" "$command" -p $SPORT "$@" >$name.out 2>$name.err 9>&- &
		SPID=$!
		echo $SPID >>"$TRASH/$name.pids"
		for i in $(seq 50); do
			port_listening $SPORT && return 0
			kill -0 $SPID 2>/dev/null || break
			sleep 0.1
		done
		kill $SPID 2>/dev/null
		wait $SPID 2>/dev/null
	done
	echo "cannot start the $name"; cat $name.err
	return 1
}

# Starts our listener (or $LISTENER) on a free port: LPORT, LPID.
start_listen() {
	[ -n "${NOLOG:-}" ] || set -- -l listen.log "$@"
	# Each test runs in a subshell: stop its listener when it ends; the
	# pid is kept for the script's own exit as well.
	trap stop_listen EXIT
	start_on_port listen "${LISTENER:-$TRACE_CMD}" listen "$@" || return 1
	LPORT=$SPORT LPID=$SPID
}

# Stops the listener of this test (or, as a cleanup, every one started).
stop_listen() {
	if [ -n "${LPID:-}" ]; then
		kill $LPID 2>/dev/null
		wait $LPID
		LSTATUS=$?
		LPID=
		return 0
	fi
	[ -f "$TRASH/listen.pids" ] || return 0
	for pid in $(cat "$TRASH/listen.pids"); do
		kill $pid 2>/dev/null
		while kill -0 $pid 2>/dev/null; do sleep 0.05; done
	done
	rm -f "$TRASH/listen.pids"
}

# The log without the [PID] prefixes.
log_lines() {
	sed 's/^\[[0-9]*\]//' listen.log
}

wait_log() {
	# 30 s: a loaded machine running the sanitized listener is slow to finish.
	for i in $(seq 300); do
		[ "$(log_lines | grep -cE -- "$1")" -ge "${2:-1}" ] && return 0
		sleep 0.1
	done
	echo "listen.log never showed '$1' ${2:-1} times:"; cat listen.log
	return 1
}

replay() {
	f=${*: -1}
	set -- "${@:1:$#-1}"
	"$REPLAY" "$@" localhost $LPORT "$f"
}

# upstream's and our report of two files must agree with each other.
same_reports() {
	"$UPSTREAM" report -i "$1" >want.up 2>&1 && "$UPSTREAM" report -i "$2" >got.up 2>&1 &&
	test_cmp want.up got.up &&
	"$TRACE_CMD" report -i "$1" >want.our && "$TRACE_CMD" report -i "$2" >got.our &&
	test_cmp want.our got.our
}
