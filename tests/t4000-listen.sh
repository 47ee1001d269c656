#!/bin/bash
# listen: options, file naming, log lines, and traces replayed over both
# protocol versions and both data transports that report like their sources.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-net.sh"

SCHED=$FIXTURES/synth-sched-v6.dat
BE32=$FIXTURES/synth-sched-be32-v6.dat

test_expect_success '-p is required' '
	test_expect_code 2 "$TRACE_CMD" listen 2>err &&
	test "$(head -n 1 err)" = "trace-cmd listen: -p PORT is required" &&
	grep -q "^usage: trace-cmd listen" err
'

test_expect_success 'usage errors exit 2 with one line and the usage' '
	test_expect_code 2 "$TRACE_CMD" listen -p 1 --bogus 2>err &&
	test "$(head -n 1 err)" = "trace-cmd listen: unknown option '"'"'--bogus'"'"'" &&
	test_expect_code 2 "$TRACE_CMD" listen -p abc 2>err &&
	test "$(head -n 1 err)" = "trace-cmd listen: invalid -p value '"'"'abc'"'"': not a number" &&
	test_expect_code 2 "$TRACE_CMD" listen -p 70000 2>err &&
	grep -q "invalid -p value .70000.: out of range" err &&
	test_expect_code 2 "$TRACE_CMD" listen -p 1 --max-clients 0 2>err &&
	grep -q "invalid --max-clients value .0.: out of range" err &&
	test_expect_code 2 "$TRACE_CMD" listen -p 1 -o a/b 2>err &&
	grep -q "invalid -o value .a/b.: a file name prefix, without ./." err &&
	test_expect_code 2 "$TRACE_CMD" listen -p 1 extra 2>err &&
	grep -q "unexpected argument .extra." err
'

test_expect_success 'a directory that cannot be written fails before listening' '
	test_expect_code 1 "$TRACE_CMD" listen -p 1 -d /nonexistent 2>err &&
	test "$(cat err)" = "trace-cmd listen: cannot open directory '"'"'/nonexistent'"'"': No such file or directory"
'

test_expect_success 'a port already taken is a failure, exit 1' '
	fresh_dir &&
	start_listen &&
	test_expect_code 1 "$TRACE_CMD" listen -p $LPORT 2>err &&
	grep -q "^trace-cmd listen: cannot listen on port $LPORT: Address already in use" err
'

# One replay per protocol version and transport; each file must report
# exactly like the file replayed, in upstream's report and in ours.
for mode in "" "-t" "-1" "-1 -t"; do
	test_expect_success UPSTREAM "replay ${mode:-(v3, UDP)} makes a file that reports like its source" '
		fresh_dir &&
		start_listen &&
		replay $mode "$SCHED" &&
		wait_log "^Finished with " &&
		f=$(ls trace.localhost:*.dat) &&
		same_reports "$SCHED" "$f" &&
		test_cmp "$SCHED" "$f"
	'
done

test_expect_success 'log lines: Connected, cpus, pagesize, TCP, Finished, each with [PID]' '
	fresh_dir &&
	start_listen &&
	replay -t "$SCHED" &&
	wait_log "^Finished with " &&
	f=$(ls trace.localhost:*.dat) &&
	name=${f#trace.} && name=${name%.dat} &&
	pid=$(head -n 1 listen.log | sed "s/^\[\([0-9]*\)\].*/\1/") &&
	cat >expect <<-EOF &&
	[$pid]Connected with $name
	[$pid]cpus=2
	[$pid]pagesize=4096
	[$pid]Using TCP for live connection
	[$pid]Finished with $name: wrote $f
	EOF
	test_cmp expect listen.log
'

test_expect_success 'without -l the log lines go to stdout, unprefixed' '
	fresh_dir &&
	NOLOG=1 start_listen &&
	replay "$SCHED" &&
	for i in $(seq 50); do grep -q "^Finished" listen.out && break; sleep 0.1; done &&
	test "$(sed -n 2,3p listen.out)" = "cpus=2
pagesize=4096" &&
	grep -q "^Connected with localhost:[0-9]*$" listen.out &&
	test ! -s listen.err
'

test_expect_success '-o NAME and -d DIR name and place the file' '
	fresh_dir &&
	mkdir dir &&
	start_listen -o mine -d dir &&
	replay "$SCHED" &&
	wait_log "^Finished with " &&
	ls dir >files &&
	grep -qx "mine\.localhost:[0-9]*\.dat" files &&
	test $(wc -l <files) = 1 &&
	! ls trace.* 2>/dev/null
'

# Any user can run it: as nobody, from a copy of the binary in a directory
# nobody can reach (the build tree may be under root's home).
command -v setpriv >/dev/null && [ "$(id -u)" = 0 ] && test_set_prereq NOBODY
test_expect_success NOBODY 'not privileged: as nobody it serves a client into a directory of its own' '
	fresh_dir &&
	dir=$(mktemp -d /tmp/trace-cmd-nobody.XXXXXX) &&
	test_when_finished "rm -rf $dir" &&
	chmod 755 "$dir" && mkdir "$dir/bin" && cp "$TRACE_CMD" "$dir/bin/trace-cmd" &&
	mkdir "$dir/out" && chown nobody "$dir/out" &&
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -x "$dir/bin/trace-cmd" &&
	printf "#!/bin/sh\nexec setpriv --reuid=nobody --regid=nogroup --clear-groups \"%s\" \"\$@\"\n" \
		"$dir/bin/trace-cmd" >as-nobody &&
	chmod +x as-nobody &&
	LISTENER=$PWD/as-nobody NOLOG=1 start_listen -d "$dir/out" -l "$dir/out/listen.log" &&
	test "$(ps -o user= -p $LPID)" = nobody &&
	replay "$SCHED" &&
	for i in $(seq 50); do grep -q "Finished with" "$dir/out/listen.log" && break; sleep 0.1; done &&
	f=$(ls "$dir"/out/trace.localhost:*.dat) &&
	test "$(stat -c %U "$f")" = nobody &&
	test_cmp "$SCHED" "$f"
'

test_expect_success UPSTREAM 'a big-endian 32-bit client: the file keeps its byte order and reads the same' '
	fresh_dir &&
	start_listen &&
	replay "$BE32" &&
	wait_log "^Finished with " &&
	f=$(ls trace.localhost:*.dat) &&
	test "$(od -An -tx1 -j12 -N2 "$f")" = " 01 04" &&
	same_reports "$BE32" "$f"
'

test_expect_success UPSTREAM,CORPUS 'the 32-bit i686 corpus file replayed reports identically to its source' '
	fresh_dir &&
	start_listen &&
	replay -t "$CORPUS/i686-v6-ext4.dat" &&
	replay -1 -t "$CORPUS/i686-v6-ext4.dat" &&
	wait_log "^Finished with " 2 &&
	for f in trace.localhost:*.dat; do
		same_reports "$CORPUS/i686-v6-ext4.dat" "$f" || exit 1
	done
'

test_expect_success '--v1 refuses v3: the client reconnects and speaks v1' '
	fresh_dir &&
	start_listen --v1 &&
	replay "$SCHED" 2>err &&
	grep -q "listener refused v3, using v1" err &&
	wait_log "^Finished with " &&
	log_lines | grep -q "^Refused protocol v3 from localhost:[0-9]* (v1 only): it may reconnect with v1$" &&
	test_cmp "$SCHED" trace.localhost:*.dat
'

test_expect_success '--bind 127.0.0.1 listens on that address only' '
	fresh_dir &&
	start_listen --bind 127.0.0.1 &&
	grep -qi "^ *[0-9]*: 0100007F:$(printf %04X $LPORT) 00000000:0000 0A" /proc/net/tcp &&
	test_must_fail "$REPLAY" 127.0.0.2 $LPORT "$SCHED" 2>err &&
	grep -q "refused" err &&
	replay "$SCHED" &&
	wait_log "^Finished with " &&
	test "$(log_lines | grep -c "^Connected with ")" = 1
'

test_expect_success '--max-clients: a client beyond the limit is refused with a log line' '
	fresh_dir && start_listen --max-clients 1 || exit 1
	replay --hold 1500 "$SCHED" &
	first=$!

	wait_log "^cpus=2" &&
	test_must_fail replay "$SCHED" 2>err &&
	wait_log "^Refused localhost:[0-9]*: already serving 1 clients \(--max-clients\)$" &&
	wait $first &&
	wait_log "^Finished with " &&
	test $(ls trace.localhost:*.dat | wc -l) = 1
'

test_expect_success 'SIGTERM stops the listener with exit 0' '
	fresh_dir &&
	start_listen &&
	replay "$SCHED" &&
	wait_log "^Finished with " &&
	stop_listen &&
	test "$LSTATUS" = 0
'

test_done
