#!/bin/bash
# list prints what the kernel offers, as its files say; -f against a fake tracing
# directory (the real one refuses available_filter_functions here); -c without tracefs.
. "$(dirname "$0")/test-lib.sh"

if test_have_prereq TRACEFS; then
	. "$TEST_DIR/lib-tracefs.sh"
	test_lock_tracefs
fi

test_expect_success TRACEFS 'list -e prints available_events; a REGEX picks from them' '
	"$TRACE_CMD" list -e >got && cat "$T/available_events" >want && test_cmp want got &&
	"$TRACE_CMD" list -e "^sched:sched_sw" >got && grep "^sched:sched_sw" "$T/available_events" >want &&
	test_cmp want got && grep -qx sched:sched_switch got
'

test_expect_success TRACEFS 'list -e EVENT -F prints its format without print fmt, --full with it' '
	"$TRACE_CMD" list -e "^sched:sched_switch$" -F >got &&
	{ echo "system: sched"; sed "/^print fmt:/,\$d" "$T/events/sched/sched_switch/format"; } >want &&
	test_cmp want got &&
	"$TRACE_CMD" list -e "^sched:sched_switch$" -F --full >got &&
	{ echo "system: sched"; cat "$T/events/sched/sched_switch/format"; } >want &&
	test_cmp want got
'

test_expect_success TRACEFS 'list -t, -o, -C, -s, -B print tracers, options, clocks, systems (but ftrace), instances' '
	"$TRACE_CMD" list -t >got && cat "$T/available_tracers" >want && test_cmp want got &&
	"$TRACE_CMD" list -o >got && for f in $(ls -U "$T/options"); do
		if test "$(cat "$T/options/$f")" = 0; then echo "no$f"; else echo "$f"; fi; done >want &&
	test_cmp want got && tr " " "\n" <"$T/trace_options" | grep . | sort >cur &&
	sort got | comm -13 - cur >missing && test_cmp /dev/null missing &&
	"$TRACE_CMD" list -C >got && cat "$T/trace_clock" >want && test_cmp want got &&
	"$TRACE_CMD" list -s >got && sort got >a &&
	for d in "$T"/events/*/; do b=${d%/}; echo "${b##*/}"; done | grep -vx ftrace | sort >b && test_cmp b a &&
	"$TRACE_CMD" list -B >got && ls "$T/instances" >want && test_cmp want got
'

test_expect_success TRACEFS 'list with no option prints each list after its title' '
	"$TRACE_CMD" list >got &&
	grep -x -e "event systems:" -e "events:" -e "tracers:" -e "options:" -e "Supported compression algorithms:" got >titles &&
	printf "event systems:\nevents:\ntracers:\noptions:\nSupported compression algorithms:\n" >want &&
	test_cmp want titles &&
	grep -qx sched:sched_switch got && grep -qx "$(cat "$T/available_tracers")" got
'

test_expect_success 'list -c names zstd and zlib with their library versions, without tracefs' '
	"$TRACE_CMD" list -c >got &&
	zstd=$(pkg-config --modversion libzstd) && zlib=$(pkg-config --modversion zlib) &&
	printf "Supported compression algorithms:\n\tzstd, %s\n\tzlib, %s\n" "$zstd" "$zlib" >want &&
	test_cmp want got &&
	TRACE_CMD_TRACING_DIR=/nonexistent "$TRACE_CMD" list -c >got2 && test_cmp want got2
'

test_expect_success 'list -f [REGEX] reads available_filter_functions (fake tracing directory)' '
	mkdir -p fake/events fake/instances && : >fake/tracing_on &&
	printf "vfs_read\nvfs_write\nksys_read\nsnd_pcm_open [snd_pcm]\n" >fake/available_filter_functions &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" list -f >got &&
	test_cmp fake/available_filter_functions got &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" list -f "^vfs_" >got &&
	printf "vfs_read\nvfs_write\n" >want && test_cmp want got &&
	TRACE_CMD_TRACING_DIR=$PWD/fake "$TRACE_CMD" list -f "snd_pcm\]" >got &&
	echo "snd_pcm_open [snd_pcm]" >want && test_cmp want got
'

test_expect_success TRACEFS 'list -f where the kernel refuses the file is an error that says so' '
	if cat "$T/available_filter_functions" >/dev/null 2>&1; then
		"$TRACE_CMD" list -f >got && test_cmp "$T/available_filter_functions" got
	else
		test_expect_code 1 "$TRACE_CMD" list -f 2>err &&
		echo "trace-cmd list: cannot read '"'"'available_filter_functions'"'"': Operation not permitted" >want &&
		test_cmp want err
	fi
'

test_expect_success TRACEFS 'a regex that matches no event is an error; bad regex and -F alone are usage errors' '
	test_expect_code 1 "$TRACE_CMD" list -e "^nosuch:" 2>err &&
	echo "trace-cmd list: no event matches '"'"'^nosuch:'"'"'" >want && test_cmp want err &&
	test_expect_code 2 "$TRACE_CMD" list -e "(" 2>err &&
	test "$(head -n 1 err)" = "trace-cmd list: invalid -e regex '"'"'('"'"': Unmatched ( or \\(" &&
	test_expect_code 2 "$TRACE_CMD" list -F 2>err &&
	test "$(head -n 1 err)" = "trace-cmd list: -F must be used with -e" &&
	test_expect_code 2 "$TRACE_CMD" list -e sched -F --full=x 2>err &&
	test_expect_code 2 "$TRACE_CMD" list -e sched --full 2>err &&
	test "$(head -n 1 err)" = "trace-cmd list: --full must be used with -F"
'

# 3.4's list only reads tracefs: it runs without the shim.
test_expect_success TRACEFS,UPSTREAM34 'list -p, -o [REGEX], -e REGEX -R / -l print what 3.4 prints' '
	for args in "-p" "-t" "-o" "-o irq" "-o func" "-e sched_wak -l" "-e sched_switch -R" \
		    "-e ^sched:sched_switch$ -l"; do
		"$TRACE_CMD" list $args >ours && "$UPSTREAM34" list $args >theirs &&
		test_cmp theirs ours && test -s ours || { echo "list $args"; return 1; }
	done
'

test_expect_success TRACEFS 'list -e EVENT -l -R prints its filter, then its triggers, then an empty line' '
	"$TRACE_CMD" list -e "^sched:sched_switch$" -l -R >got &&
	{ echo sched:sched_switch; cat "$T/events/sched/sched_switch/filter" \
		"$T/events/sched/sched_switch/trigger"; echo; } >want && test_cmp want got
'

test_expect_success 'list -R / -l read the fake tracing directory: a set filter, a missing trigger file' '
	rm -rf fk && cp -r "$FIXTURES/fake-tracing" fk && echo sched:sched_switch >fk/available_events &&
	echo "prev_pid == 1" >fk/events/sched/sched_switch/filter &&
	TRACE_CMD_TRACING_DIR=$PWD/fk "$TRACE_CMD" list -e sched_switch -l >got &&
	printf "sched:sched_switch\nprev_pid == 1\n\n" >want && test_cmp want got &&
	test_expect_code 1 env TRACE_CMD_TRACING_DIR=$PWD/fk "$TRACE_CMD" list -e sched_switch -R 2>err &&
	echo "trace-cmd list: cannot read '"'"'events/sched/sched_switch/trigger'"'"': No such file or directory" >want &&
	test_cmp want err
'

test_expect_success UPSTREAM34 'list -P prints the plugin files as 3.4 does' '
	"$TRACE_CMD" list -P >ours && "$UPSTREAM34" list -P >theirs && test_cmp theirs ours
'

# 3.4 lists its fgraph retval-* options last; report takes none of them.
test_expect_success UPSTREAM34 'list -O prints the plugin options as 3.4 does, less fgraph retval-*' '
	"$TRACE_CMD" list -O >ours && "$UPSTREAM34" list -O >theirs &&
	head -n $(wc -l <ours) theirs >want && test_cmp want ours &&
	grep -q "option:	tailprint" ours && ! grep -q retval ours &&
	sed -n "$(($(wc -l <ours) + 1)),\$p" theirs | grep "option:" >rest &&
	printf "  option:\tretval-skip\n  option:\tretval-dec\n  option:\tretval-hex\n" >want &&
	test_cmp want rest
'

test_expect_success 'list -R/-l without -e or with -F, and --proto: usage errors that say why' '
	for args in "-R:-R must be used with -e" "-l:-l must be used with -e" \
		    "-e sched -F -R:-R prints after each event line: not with -F" \
		    "--proto vfs_read:--proto '"'"'vfs_read'"'"': a function'"'"'s prototype comes from the kernel'"'"'s BTF, which this trace-cmd does not read"; do
		eval "set -- ${args%%:*}" &&
		test_expect_code 2 "$TRACE_CMD" list "$@" 2>err &&
		test "$(head -n 1 err)" = "trace-cmd list: ${args#*:}" || { echo "$args"; cat err; return 1; }
	done
'

test_done
