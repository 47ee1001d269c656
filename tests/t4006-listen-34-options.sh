#!/bin/bash
# listen's options from 3.4: --port (-p), --verbose[=LEVEL] and --debug, which
# serves each client in the listener's own process.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"

SCHED=$FIXTURES/synth-sched-v6.dat

# start_listen with --port instead of -p: the same helper, its -p swapped.
start_listen_port() {
	LISTEN_WRAP=$PWD/listen-port
	cat >"$LISTEN_WRAP" <<-WRAP
	#!/bin/sh
	[ "\$1" = listen ] && [ "\$2" = -p ] && { shift 2; set -- listen --port "\$@"; }
	exec "$TRACE_CMD" "\$@"
	WRAP
	chmod +x "$LISTEN_WRAP" &&
	LISTENER=$LISTEN_WRAP start_listen "$@"
}

test_expect_success 'bad --verbose and --port values are usage errors' '
	check_usage 2 "trace-cmd listen: invalid --verbose value '"'"'loud'"'"': use none, crit, err, warn, info, debug, all or 0 to 6" \
		listen -p 1 --verbose=loud &&
	check_usage 2 "trace-cmd listen: invalid -p value '"'"'abc'"'"': not a number" listen --port abc
'

test_expect_success '--port PORT is -p PORT' '
	fresh_dir &&
	start_listen_port &&
	replay "$SCHED" &&
	wait_log "^Finished with " &&
	f=$(ls trace.localhost:*.dat) &&
	test_cmp "$SCHED" "$f"
'

test_expect_success 'each client is served by a child of its own, without --debug' '
	fresh_dir &&
	start_listen &&
	replay -t "$SCHED" &&
	wait_log "^Finished with " &&
	! grep -v "^\[[0-9]*\]" listen.log &&
	! grep "^\[$LPID\]" listen.log
'

test_expect_success '--debug: the client is served in the listener process itself, with debug lines' '
	fresh_dir &&
	start_listen --debug &&
	replay -t "$SCHED" &&
	wait_log "^Finished with " &&
	f=$(ls trace.localhost:*.dat) &&
	test_cmp "$SCHED" "$f" &&
	! grep -v "^\[$LPID\]" listen.log &&
	grep -q "^\[$LPID\]trace-cmd listen: debug: '"'"'localhost:[0-9]*'"'"': FIN_DATA message (4), 0 bytes$" listen.log &&
	replay "$SCHED" &&
	wait_log "^Finished with " 2 &&
	test $(ls trace.localhost:*.dat | wc -l) = 2
'

test_expect_success '--verbose: the file header complete, as info; no debug lines' '
	fresh_dir &&
	start_listen --verbose &&
	replay -t "$SCHED" &&
	wait_log "^Finished with " &&
	log_lines >log &&
	grep -q "^trace-cmd listen: '"'"'localhost:[0-9]*'"'"': file header complete, [0-9]* bytes$" log &&
	! grep -q "debug:" log
'

test_expect_success '--verbose=debug: each control message of the client' '
	fresh_dir &&
	start_listen --verbose=debug &&
	replay -t "$SCHED" &&
	wait_log "^Finished with " &&
	log_lines >log &&
	grep -q "^trace-cmd listen: debug: '"'"'localhost:[0-9]*'"'"': CLOSE message (0), 0 bytes$" log
'

test_done
