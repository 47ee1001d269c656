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
		    "--proto:--proto must be used with -f" "-e --proto:--proto must be used with -f"; do
		eval "set -- ${args%%:*}" &&
		test_expect_code 2 "$TRACE_CMD" list "$@" 2>err &&
		test "$(head -n 1 err)" = "trace-cmd list: ${args#*:}" || { echo "$args"; cat err; return 1; }
	done
'

# --proto reads the running kernel's BTF; its functions come from a fake
# available_filter_functions (the kernel here refuses the real one).
if [ -r /sys/kernel/btf/vmlinux ]; then
	test_set_prereq BTF
fi

test_expect_success BTF 'list -f --proto prints each function with its prototype from BTF' '
	rm -rf fk && cp -r "$FIXTURES/fake-tracing" fk &&
	printf "vfs_read\nschedule\nnot_a_function_anywhere\nvfs_write [mod]\n" >fk/available_filter_functions &&
	TRACE_CMD_TRACING_DIR=$PWD/fk "$TRACE_CMD" list -f --proto >got &&
	sed -n "1p;2p;3p" got >head &&
	printf "%s\n" "vfs_read(struct file *file, unsigned char *buf, size_t count, loff_t *pos)" \
		"schedule()" "not_a_function_anywhere" >want &&
	test_cmp want head &&
	grep -q "^vfs_write(struct file \*file, const unsigned char \*buf, size_t count, loff_t \*pos)$" got &&
	TRACE_CMD_TRACING_DIR=$PWD/fk "$TRACE_CMD" list -f "^sched" --proto >got &&
	echo "schedule()" >want && test_cmp want got
'

# 3.4 reads the fake file through a bind mount in a mount namespace of its
# own (tracefs itself is left alone): every function BTF names, compared.
test_expect_success BTF,ROOT,UPSTREAM34,PYTHON 'list -f --proto of every BTF function equals 3.4'"'"'s' '
	rm -rf fk && cp -r "$FIXTURES/fake-tracing" fk &&
	python3 -c "
import struct
d = open(\"/sys/kernel/btf/vmlinux\", \"rb\").read()
_, _, _, hl, to, tl, so, sl = struct.unpack(\"<HBBIIIII\", d[:24])
s = d[hl + so:hl + so + sl]
pos, end = hl + to, hl + to + tl
while pos < end:
	name, info, _ = struct.unpack(\"<III\", d[pos:pos + 12])
	kind, vlen = (info >> 24) & 31, info & 0xffff
	more = {1: 4, 3: 12, 14: 4, 17: 4}.get(kind, 0)
	more = 12 * vlen if kind in (4, 5, 15, 19) else 8 * vlen if kind in (6, 13) else more
	if kind == 12:
		print(s[name:s.index(b\"\\0\", name)].decode())
	pos += 12 + more
" >fk/available_filter_functions &&
	test $(wc -l <fk/available_filter_functions) -gt 1000 &&
	unshare -m sh -c "mount --bind $PWD/fk /sys/kernel/tracing && \"\$0\" list -f --proto" \
		"$UPSTREAM34" >theirs 2>/dev/null &&
	TRACE_CMD_TRACING_DIR=$PWD/fk "$TRACE_CMD" list -f --proto >ours &&
	test_cmp theirs ours
'

test_done
