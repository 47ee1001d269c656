#!/bin/bash
# listen stays reachable when slow peers take every slot: the handshake as a
# whole and each message once started have a deadline, a client still in its
# handshake or file header gives way to a new one when all slots are taken,
# a client past its file header is never cut however quiet it is, and bytes
# from a peer cannot forge a log line.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"

SCHED=$FIXTURES/synth-sched-v6.dat
TRICKLE=$HELPERS/net-trickle.py

# trickle [net-trickle options...] MODE: slow peers in the background (pid in $tpid).
trickle() {
	python3 "$TRICKLE" "$@" $LPORT >trickle.out 2>trickle.err 9>&- &
	tpid=$!
}

# Seconds, with milliseconds, since the epoch.
now() {
	date +%s.%3N
}

# Lines of the log without prefixes, with "localhost:PORT" as "H".
log_shapes() {
	log_lines | sed "s/localhost:[0-9]*/H/g"
}

test_expect_success PYTHON 'a good client is served within seconds while 64 clients trickle (default limits)' '
	fresh_dir && start_listen || exit 1
	trickle --seconds 15 v3 &&
	test_when_finished "kill $tpid 2>/dev/null || :" &&
	wait_log "^Connected with " 64 &&
	# All 64 slots taken, each peer a second into its slow message.
	sleep 1.5 &&
	t0=$(now) &&
	replay "$SCHED" &&
	wait_log "^Finished with " &&
	t1=$(now) &&
	secs=$(awk "BEGIN { print $t1 - $t0 }") &&
	say "good client served in $secs s while 64 clients trickled" &&
	awk "BEGIN { exit !($secs < 5) }" &&
	test_cmp "$SCHED" $(log_lines | sed -n "s/^Finished with .*: wrote //p") &&
	wait $tpid &&
	cat trickle.out &&
	kill -0 $LPID
'

for mode in "handshake|the handshake took longer than 2 s \\(still waiting for the protocol version\\)" \
	    "v3|a message took longer than 2 s \\(still waiting for a message header\\)"; do
	what=${mode%%|*} msg=${mode#*|}
	test_expect_success PYTHON "peers trickling in $what are cut after 2 s and leave no file" '
		fresh_dir && start_listen --timeout 2 --max-clients 8 || exit 1
		trickle --clients 8 --seconds 5 '$what' &&
		test_when_finished "kill $tpid 2>/dev/null || :" &&
		wait_log "'"$msg"'$" 8 &&
		wait $tpid &&
		! ls trace.* 2>/dev/null &&
		replay "$SCHED" && wait_log "^Finished with " &&
		test_cmp "$SCHED" trace.localhost:*.dat
	'
done

test_expect_success PYTHON 'v1 peers trickling their file header give way to a new client' '
	fresh_dir && start_listen --timeout 2 --max-clients 4 || exit 1
	trickle --clients 4 --seconds 6 --gap 0.5 v1 &&
	test_when_finished "kill $tpid 2>/dev/null || :" &&
	wait_log "^pagesize=" 4 && sleep 1.2 &&
	replay -1 "$SCHED" &&
	wait_log "^Finished with " &&
	log_shapes | grep -x "trace-cmd listen: .H.: dropped to make room for a new client: every --max-clients slot was taken, and this client had been the longest in its handshake or file header" &&
	wait $tpid &&
	test_cmp "$SCHED" $(log_lines | sed -n "s/^Finished with .*: wrote //p")
'

test_expect_success PYTHON 'a client past its file header is not cut, neither for being quiet nor to make room' '
	fresh_dir && start_listen --timeout 1 --max-clients 2 || exit 1
	# Quiet for 4 s after its header, four times the timeout.
	"$REPLAY" --hold 4000 localhost $LPORT "$SCHED" 9>&- &
	held=$!
	wait_log "^pagesize=" &&
	trickle --clients 1 --seconds 5 --gap 0.3 v1 &&
	test_when_finished "kill $tpid $held 2>/dev/null || :" &&
	wait_log "^pagesize=" 2 && sleep 1.2 &&
	replay -t "$SCHED" &&
	wait $held &&
	wait_log "^Finished with " 2 &&
	[ $(log_lines | grep -c "dropped to make room") -ge 1 ] &&
	wait $tpid &&
	files=$(log_lines | sed -n "s/^Finished with .*: wrote //p") &&
	[ $(echo $files | wc -w) = 2 ] &&
	for f in $files; do test_cmp "$SCHED" $f || exit 1; done
'

# Sends printf FORMAT after the greeting and reads until the listener hangs up.
send_raw() {
	exec 3<>/dev/tcp/127.0.0.1/$LPORT || return 1
	head -c 8 <&3 >/dev/null
	printf -- "$1" >&3
	timeout 3 cat <&3 >/dev/null
	exec 3>&-
}

while IFS='|' read -r what bytes msg; do
	[ -n "$what" ] || continue
	test_expect_success "$what from a peer is escaped in the log, not a line of its own" '
		fresh_dir && start_listen --timeout 1 &&
		send_raw "$bytes" &&
		wait_log "^trace-cmd listen: " &&
		sleep 0.2 &&
		log_shapes >got &&
		printf "%s\n" "Connected with H" "trace-cmd listen: '"'H'"': $msg" >want &&
		test_cmp want got
	'
done <<'EOF'
a newline in the cpu count|1\n[1]Finished\0|invalid cpu count '1\n[1]Finished'
a tab, an escape and a backslash in a v1 option|2\0004096\0001\0005\0\t\e\\x\0|v1 option '\t\x1b\\x' is not supported
a newline in the protocol version|-1V\n\0-1V\n\0|no common protocol version (client insists on 'V\n')
EOF

test_done
