#!/bin/bash
# listen keeps serving: a peer that sends garbage, truncated messages, absurd
# sizes or nothing at all, or dies mid-trace, ends only its own connection
# with one log line, leaves no misleading file, and the next client is served.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"

SCHED=$FIXTURES/synth-sched-v6.dat
V3='-1V3\x00''766679\0\0'
TINIT='\0\0\0\x18\0\0\0\x01\0\0\0\x0c\0\0\0\x02\0\0\x10\0\0\0\0\0'

# Sends printf FORMAT to the listener after its greeting, waits SECS seconds,
# then reads what it answers until it hangs up (at most 3 s) and closes.
send_raw() {
	exec 3<>/dev/tcp/127.0.0.1/$LPORT || return 1
	head -c 8 <&3 >/dev/null
	printf -- "$1" >&3
	sleep ${2:-0}
	timeout 3 cat <&3 >/dev/null
	exec 3>&-
}

# The peer's connection ends with exactly this error, no file is left, and
# the listener still serves a good client.
expect_error() {
	wait_log "^trace-cmd listen: " &&
	log_lines | grep "^trace-cmd listen: " |
		sed "s/^trace-cmd listen: .localhost:[0-9]*.: //" >got &&
	echo "$1" >want &&
	test_cmp want got &&
	pid=$(grep -m1 "Connected with" listen.log | sed "s/^\[\([0-9]*\)\].*/\1/") &&
	for i in $(seq 50); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done &&
	grep "^\[$pid\]" listen.log | sed "s/^\[$pid\]//" | grep -v -e "^Connected with" \
		-e "^cpus=" -e "^pagesize=" >lines &&
	test $(wc -l <lines) = 1 &&
	! ls trace.* 2>/dev/null &&
	replay "$SCHED" &&
	wait_log "^Finished with " &&
	test_cmp "$SCHED" trace.localhost:*.dat
}

while IFS='|' read -r what bytes msg; do
	[ -n "$what" ] || continue
	test_expect_success "a client sending $what is closed with one log line" '
		fresh_dir && start_listen --timeout 1 &&
		send_raw "$bytes" &&
		expect_error "$msg"
	'
done <<'EOF'
a word as its cpu count|garbage\0more|invalid cpu count 'garbage'
a string that never ends|xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx|the protocol version longer than 63 bytes
a bad v3 magic|-1V3\0abcdefgh|bad v3 magic
an absurd message size|-1V3\x00766679\0\0\x7f\xff\xff\xff\0\0\0\x01\0\0\0\x0c|invalid message: size 2147483647 is not in 12..8192
a message smaller than its header|-1V3\x00766679\0\0\0\0\0\x04\0\0\0\x01\0\0\0\0|invalid message: size 4 is not in 12..8192
a command part larger than the message|-1V3\x00766679\0\0\0\0\0\x0c\0\0\0\x01\0\0\0\x64|invalid TINIT message: command size 100 exceeds its size 12
a truncated message and waiting|-1V3\x00766679\0\0\0\0\0\x18\0\0\0\x01\0\0\0\x0c\0\0\0\x02|the handshake took longer than 1 s (still waiting for a message body)
a TINIT too short for its fields|-1V3\x00766679\0\0\0\0\0\x10\0\0\0\x01\0\0\0\x04\0\0\0\x02|truncated at offset 16 reading TINIT page size (need 4 bytes)
an absurd cpu count|-1V3\x00766679\0\0\0\0\0\x18\0\0\0\x01\0\0\0\x0c\0\x10\0\0\0\0\x10\0\0\0\0\0|invalid cpu count 1048576 (1 to 256)
a page size that is no power of 2|-1V3\x00766679\0\0\0\0\0\x18\0\0\0\x01\0\0\0\x0c\0\0\0\x02\0\0\x10\x01\0\0\0\0|invalid page size 4097 (a power of 2, 1024 to 1048576)
an absurd option count|-1V3\x00766679\0\0\0\0\0\x18\0\0\0\x01\0\0\0\x0c\0\0\0\x02\0\0\x10\0\xff\xff\xff\xff|invalid TINIT: 4294967295 options in 0 bytes
an option it does not know|-1V3\x00766679\0\0\0\0\0\x1e\0\0\0\x01\0\0\0\x0c\0\0\0\x02\0\0\x10\0\0\0\0\x01vsock\0|TINIT option 'vsock' is not supported
an option without its end|-1V3\x00766679\0\0\0\0\0\x1b\0\0\0\x01\0\0\0\x0c\0\0\0\x02\0\0\x10\0\0\0\0\x01tcp|truncated at offset 24 reading TINIT option (need 4 bytes)
a v1 page size out of range|2\0001000\0000\0|invalid page size 1000 (a power of 2, 1024 to 1048576)
a v1 option it does not know|2\0004096\0001\0004\0UDP\0|v1 option 'UDP' is not supported
an absurd v1 option count|2\0004096\0004294967295\0|invalid option count '4294967295'
a v1 option larger than 4096 bytes|2\0004096\0001\00099999\0|invalid option size '99999'
EOF

test_expect_success 'a client that sends nothing times out' '
	fresh_dir && start_listen --timeout 1 &&
	send_raw "" 2 &&
	expect_error "the handshake took longer than 1 s (still waiting for the protocol version)"
'

test_expect_success 'a client that stops in the middle of a message times out' '
	fresh_dir && start_listen --timeout 1 &&
	send_raw "$V3\\0\\0\\0\\x18\\0\\0\\0\\x01" 2 &&
	expect_error "the handshake took longer than 1 s (still waiting for a message header)"
'

test_expect_success 'a client hanging up in the middle of a message is closed' '
	fresh_dir && start_listen --timeout 1 &&
	exec 3<>/dev/tcp/127.0.0.1/$LPORT &&
	printf -- "$V3\\0\\0\\0\\x18\\0\\0\\0\\x01\\0\\0\\0\\x0c\\0\\0\\0\\x02" >&3 &&
	head -c 13 <&3 >/dev/null &&
	exec 3>&- &&
	expect_error "connection closed reading a message body (got 4 of 12 bytes)"
'

test_expect_success 'an unexpected command is answered NOT_SUPP and closed' '
	fresh_dir && start_listen --timeout 1 &&
	exec 3<>/dev/tcp/127.0.0.1/$LPORT &&
	printf -- "$V3\\0\\0\\0\\x0c\\0\\0\\0\\x06\\0\\0\\0\\0" >&3 &&
	head -c 25 <&3 >reply &&
	exec 3>&- &&
	printf "tracecmdV3\\0OK\\0\\0\\0\\x0c\\0\\0\\0\\x05\\0\\0\\0\\0" >want &&
	test_cmp want reply &&
	expect_error "expected TINIT, got TRACE_REQ (6)"
'

test_expect_success 'a file header that is not a trace.dat leaves no file' '
	fresh_dir && start_listen --timeout 1 &&
	send_raw "$V3$TINIT\\0\\0\\0\\x13\\0\\0\\0\\x03\\0\\0\\0\\0garbage\\0\\0\\0\\x0c\\0\\0\\0\\x04\\0\\0\\0\\0\\0\\0\\0\\x0c\\0\\0\\0\\0\\0\\0\\0\\0" 1 &&
	wait_log "^trace-cmd listen: .trace\\.localhost:[0-9]*\\.dat.: truncated at offset 0 reading file magic \\(need 10 bytes\\)$" &&
	sleep 0.2 && ! ls trace.* 2>/dev/null &&
	replay "$SCHED" && wait_log "^Finished with "
'

test_expect_success 'a client killed mid-trace leaves a file marked incomplete' '
	fresh_dir && start_listen &&
	test_expect_code 137 replay -t --kill-after 1 "$SCHED" 2>/dev/null &&
	wait_log "^Incomplete trace from localhost:[0-9]*: the client hung up before the end, kept what arrived in trace\\.localhost:[0-9]*\\.dat\\.incomplete$" &&
	! ls trace.localhost:*.dat 2>/dev/null &&
	f=$(ls trace.localhost:*.dat.incomplete) &&
	"$TRACE_CMD" report -i "$f" >report &&
	grep -q "^cpus=2$" report &&
	replay "$SCHED" && wait_log "^Finished with "
'

test_expect_success 'many silent connections all time out and a good client is served' '
	fresh_dir && start_listen --timeout 1 || exit 1
	pids=
	for i in $(seq 20); do send_raw "" 2 & pids="$pids $!"; done
	wait_log "^Connected with " 20 &&
	replay -t "$SCHED" &&
	wait_log "^Finished with " &&
	wait $pids &&
	wait_log "the handshake took longer than 1 s \\(still waiting for the protocol version\\)$" 20 &&
	kill -0 $LPID
'

test_done
