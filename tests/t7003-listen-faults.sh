#!/bin/bash
# listen survives its peers: ones that hang up at every step, stall, send
# garbage, or open many connections and send nothing.  After each, the
# server is up, has no child left for that peer, answers the next good
# client with a correct file, and its memory and descriptors stay bounded
# (measured from /proc).
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"

SCHED=$FIXTURES/synth-sched-v6.dat
# \x00, not \0: printf would read "\0766" as one octal escape.
V3='-1V3\x00766679\x00\x00'
TINIT='\x00\x00\x00\x18\x00\x00\x00\x01\x00\x00\x00\x0c\x00\x00\x00\x02\x00\x00\x10\x00\x00\x00\x00\x00'
FIN_DATA='\x00\x00\x00\x0c\x00\x00\x00\x04\x00\x00\x00\x00'
TINIT_TCP='\x00\x00\x00\x1c\x00\x00\x00\x01\x00\x00\x00\x0c\x00\x00\x00\x02\x00\x00\x10\x00\x00\x00\x00\x01tcp\x00'

rss_kb() { awk '/^VmRSS:/ { print $2 }' /proc/$1/status; }
nr_fds() { ls /proc/$1/fd | wc -l; }
children() { pgrep -P $LPID | wc -l; }

# Until the listener has no child left (at most 10 s).
no_children() {
	for i in $(seq 100); do
		[ $(children) = 0 ] && return 0
		sleep 0.1
	done
	echo "children still running:"; ps -o pid,etime,args --ppid $LPID
	return 1
}

# A peer: reads the greeting, sends printf FORMAT, reads for SECS seconds, hangs up.
peer() {
	exec 3<>/dev/tcp/127.0.0.1/$LPORT || return 1
	timeout 3 head -c 8 <&3 >/dev/null
	printf -- "$1" >&3 2>/dev/null
	# It may answer, hang up or reset: all the same here.
	timeout ${2:-0.2} cat <&3 >/dev/null 2>&1
	exec 3>&-
	return 0
}

# The server is up, childless, and the next good client gets a correct file.
still_serving() {
	no_children &&
	kill -0 $LPID &&
	rm -f trace.* &&
	finished=$(log_lines | grep -c "^Finished with " || :) &&
	replay "$@" "$SCHED" &&
	wait_log "^Finished with " $((finished + 1)) &&
	test_cmp "$SCHED" trace.localhost:*.dat &&
	rm -f trace.*
}

test_expect_success 'peers hanging up at every step of the handshake leave no child and no file' '
	fresh_dir && start_listen --timeout 1 || exit 1
	for bytes in "" "-1V3\x00" "$V3" "$V3$TINIT" "$V3$TINIT_TCP" "2\x00" "2\x004096\x00" \
		     "2\x004096\x000\x00" "2\x004096\x001\x004\x00TCP\x00"; do
		peer "$bytes" || exit 1
		no_children || { echo "after \"$bytes\""; exit 1; }
		if ls trace.* 2>/dev/null; then echo "a file was left after \"$bytes\""; exit 1; fi
	done
	[ $(log_lines | grep -c "^Connected with ") = 9 ] &&
	still_serving && still_serving -1
'

test_expect_success 'a peer stalled inside a message or its file header times out; after the header it waits alone' '
	fresh_dir && start_listen --timeout 1 || exit 1
	peer "$V3\x00\x00\x00\x18\x00\x00" 3 &&
	wait_log "the handshake took longer than 1 s \\(still waiting for a message header\\)" &&
	no_children && ! ls trace.* 2>/dev/null &&
	# Between TINIT and FIN_DATA the messages come one after another, as
	# upstream sends them: a pause there is a dead peer.
	peer "$V3$TINIT" 3 &&
	wait_log "timed out after 1 s waiting for the next message of the file header" &&
	no_children && ! ls trace.* 2>/dev/null &&
	# After the header (v3) and in the data phase (v1) a trace may run for
	# hours with nothing said: each stalled peer keeps its own child, only it.
	exec 4<>/dev/tcp/127.0.0.1/$LPORT 5<>/dev/tcp/127.0.0.1/$LPORT &&
	head -c 8 <&4 >/dev/null && head -c 8 <&5 >/dev/null &&
	printf -- "$V3$TINIT$FIN_DATA" >&4 &&
	printf "2\x004096\x000\x00" >&5 &&
	wait_log "^pagesize=4096" 2 &&
	[ $(children) = 2 ] &&
	finished=$(log_lines | grep -c "^Finished with " || :) &&
	replay "$SCHED" && replay -1 -t "$SCHED" &&
	wait_log "^Finished with " $((finished + 2)) &&
	[ $(children) = 2 ] &&
	# Read what they were answered, so that hanging up is orderly.
	{ timeout 0.3 cat <&4 >/dev/null; timeout 0.3 cat <&5 >/dev/null; :; } &&
	exec 4>&- 5>&- &&
	no_children &&
	[ $(log_lines | grep -c "the client sent no file header$") = 2 ] &&
	[ $(ls trace.* | wc -l) = 2 ] &&
	kill -0 $LPID
'

test_expect_success 'garbage from 60 peers: each ends alone, the server serves on' '
	fresh_dir && start_listen --timeout 1 || exit 1
	src=$FIXTURES/synth-instances-v7.dat
	for i in $(seq 60); do
		# Deterministic garbage: pieces of a trace.dat, with and without a v3 start.
		case $((i % 3)) in
		0) bytes=$(tail -c +$((i * 397)) "$src" | head -c 200 | od -An -v -tx1 | tr -d " \n" | sed "s/../\\\\x&/g") ;;
		1) bytes="$V3"$(tail -c +$((i * 211)) "$src" | head -c 100 | od -An -v -tx1 | tr -d " \n" | sed "s/../\\\\x&/g") ;;
		2) bytes="$V3$TINIT"$(tail -c +$((i * 101)) "$src" | head -c 300 | od -An -v -tx1 | tr -d " \n" | sed "s/../\\\\x&/g") ;;
		esac
		peer "$bytes" 0.05 &
		pids="$pids $!"
		[ $((i % 8)) = 0 ] && wait $pids && pids=
	done
	wait $pids
	[ $(log_lines | grep -c "^Connected with ") = 60 ] &&
	still_serving && still_serving -t
'

test_expect_success 'many silent connections: children capped by --max-clients, memory measured, all end' '
	fresh_dir && start_listen --timeout 2 --max-clients 16 || exit 1
	base_rss=$(rss_kb $LPID) &&
	fds=() &&
	for i in $(seq 40); do
		exec {fd}<>/dev/tcp/127.0.0.1/$LPORT || exit 1
		fds+=($fd)
	done
	wait_log "^Connected with " 16 &&
	wait_log "^Refused .*--max-clients" 24 &&
	kids=$(children) && [ $kids -le 16 ] &&
	total=$(rss_kb $LPID) && max=0 &&
	for k in $(pgrep -P $LPID); do
		r=$(rss_kb $k) && total=$((total + r)) && [ $r -le $max ] || max=$r
	done &&
	say "16 silent clients: $kids children, largest child RSS ${max} KB, all ${total} KB" &&
	[ $max -lt 16384 ] && [ $total -lt $((17 * 16384)) ] &&
	for fd in "${fds[@]}"; do exec {fd}>&-; done &&
	no_children &&
	[ $(rss_kb $LPID) -lt $((base_rss + 1024)) ] &&
	still_serving
'

# bad_peers N: N peers of four bad kinds, 16 at a time.
bad_peers() {
	pids=
	for i in $(seq $1); do
		case $((i % 4)) in
		0) peer "" 0.01 ;;
		1) peer "$V3" 0.01 ;;
		2) peer "garbage\x00" 0.01 ;;
		3) peer "$V3$TINIT" 0.01 ;;
		esac &
		pids="$pids $!"
		[ $((i % 16)) = 0 ] && wait $pids && pids=
	done
	wait $pids
}

# Measured once warm.  The listener's RSS moves by up to about 0.7 MB from
# run to run with the peers' timing (300, 900 peers: no growth with their
# number), so the bound is 2 MB: a leak of 7 KB a peer still fails it.
test_expect_success 'after 300 bad peers the server has the memory and descriptors it started with' '
	fresh_dir && start_listen --timeout 1 || exit 1
	still_serving || exit 1
	bad_peers 100 && no_children || exit 1
	rss0=$(rss_kb $LPID) fds0=$(nr_fds $LPID)
	bad_peers 300 && no_children || exit 1
	rss1=$(rss_kb $LPID) fds1=$(nr_fds $LPID)
	say "listener RSS ${rss0} KB before, ${rss1} KB after; descriptors $fds0, $fds1"
	# Each peer was served (a child, which may linger in its UDP drain) or,
	# past --max-clients, refused with a log line: none is lost.
	served=$(log_lines | grep -c "^Connected with ") &&
	refused=$(log_lines | grep -c "^Refused .*(--max-clients)" || :) &&
	say "$served served, $refused refused" &&
	[ $fds1 = $fds0 ] && [ $rss1 -lt $((rss0 + 2048)) ] &&
	[ $((served + refused)) = 401 ] &&
	still_serving
'

test_done
