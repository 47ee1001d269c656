#!/bin/bash
# report -i HOST -i GUEST (mkdat.py's kvm-rip-host, kvm-rip-guest): the
# host's kvm_entry and kvm_exit events of a vCPU task (GUEST option: vCPU 0
# on 5001, vCPU 1 on 5002) name the guest's function at their rip, from the
# guest file's kallsyms, as upstream 3.4 prints them through libtraceevent's
# kvm plugin; the host alone, or read after its guest, names none.
. "$(dirname "$0")/test-lib.sh"

mkdat() { python3 "$HELPERS/mkdat.py" "$@"; }

if test_have_prereq PYTHON; then
	mkdat --scenario kvm-rip-host --file-version 7 h7.dat &&
	mkdat --scenario kvm-rip-host --file-version 6 h6.dat &&
	mkdat --scenario kvm-rip-host --file-version 7 --compression zlib h7z.dat &&
	mkdat --scenario kvm-rip-guest --file-version 7 g7.dat &&
	mkdat --scenario kvm-rip-guest --file-version 6 g6.dat &&
	mkdat --scenario kvm-rip-guest --file-version 7 --compression zstd g7s.dat &&
	# the pair as recorded, before attach: no GUEST, no TIME_SHIFT
	mkdat --dump-spec kvm-rip-host >host.json &&
	mkdat --dump-spec kvm-rip-guest >guest.json &&
	python3 -c "import json
h = json.load(open(\"host.json\")); del h[\"guests\"]; h[\"version\"] = 7
g = json.load(open(\"guest.json\")); del g[\"time_shift\"], g[\"tsc2nsec\"]; g[\"version\"] = 7
json.dump(h, open(\"host.json\", \"w\")); json.dump(g, open(\"guest.json\", \"w\"))" &&
	mkdat host.json before-h.dat && mkdat guest.json before-g.dat ||
		echo "making the files failed" >&2
fi

# The kvm event lines of the report of ARGS, less the file label, task and time.
kvm_lines() {
	"$TRACE_CMD" report "$@" >out &&
	grep -E " kvm_(entry|exit): " out | sed "s/^.*: kvm_/kvm_/; s/  */ /g"
}

# The guest's kallsyms holds _stext, tracing_mark_write, default_idle,
# native_safe_halt (at ...a00040) and guest_last_fn; the host's names
# ...81001004 schedule+0x4, the guest's _stext+0x1004.  5003 runs no vCPU of
# this guest; 0x7f3a12c01000 is below every symbol, ...81b00010 past the
# last (libtraceevent names no function there).
test_expect_success PYTHON 'the host'"'"'s kvm events name the guest'"'"'s function at their rip' '
	kvm_lines -i h7.dat -i g7.dat >got &&
	cat >expect <<-\EOF &&
	kvm_entry: vcpu 0 rip 0xffffffff81a00040 native_safe_halt
	kvm_exit: reason EXTERNAL_INTERRUPT rip 0xffffffff81a00044 native_safe_halt+0x4
	kvm_exit: reason EPT_VIOLATION rip 0xffffffff81001004 _stext+0x1004
	kvm_entry: vcpu 1 rip 0x7f3a12c01000
	kvm_exit: reason IO_INSTRUCTION rip 0xffffffff81a00044
	kvm_exit: reason HLT rip 0xffffffff81b00010
	kvm_exit: reason HLT rip 0xffffffff81a0003f default_idle+0x3f
	kvm_entry: vcpu 0 rip 0xffffffff81000000 _stext
	EOF
	test_cmp expect got
'

test_expect_success PYTHON 'the host alone names no function at a rip' '
	kvm_lines -i h7.dat >got &&
	! grep -E "rip 0x[0-9a-f]+ " got &&
	test $(wc -l <got) = 8
'

test_expect_success PYTHON 'nor with its guest read first (3.4 takes the first file as the host)' '
	kvm_lines -i g7.dat -i h7.dat >got &&
	! grep -E "rip 0x[0-9a-f]+ " got
'

test_expect_success PYTHON 'nor without plugins (-N)' '
	kvm_lines -N -i h7.dat -i g7.dat >got &&
	! grep -E "native_safe_halt|_stext" got
'

# Each pair, and each file alone: ours and 3.4's report, byte for byte.
while IFS='|' read -r name args; do
	test_expect_success PYTHON,UPSTREAM34 "as 3.4: $name" '
		"$TRACE_CMD" report '"$args"' >ours.out &&
		"$UPSTREAM34" report '"$args"' >up.out 2>/dev/null &&
		test_cmp up.out ours.out
	'
done <<'TABLE'
version 7 host and guest|-i h7.dat -i g7.dat
version 6 host and guest|-i h6.dat -i g6.dat
zlib host, zstd guest|-i h7z.dat -i g7s.dat
version 6 host, zstd guest|-i h6.dat -i g7s.dat
the guest first|-i g7.dat -i h7.dat
the host alone|-i h7.dat
the version 6 host alone|-i h6.dat
TABLE

test_expect_success PYTHON 'a pair joined by attach names the guest'"'"'s functions too' '
	cp before-h.dat ah.dat && cp before-g.dat ag.dat &&
	"$TRACE_CMD" report -i ah.dat -i ag.dat >out &&
	! grep -q native_safe_halt out &&
	"$TRACE_CMD" attach ah.dat ag.dat 5001,5002 &&
	"$TRACE_CMD" report -i ah.dat -i ag.dat >out &&
	grep -q "kvm_exit: *reason EXTERNAL_INTERRUPT rip 0xffffffff81a00044 native_safe_halt+0x4$" out &&
	grep -q "kvm_exit: *reason EPT_VIOLATION rip 0xffffffff81001004 _stext+0x1004$" out
'

# attach 5002 alone writes "1 vCPU: vCPU 1 on 5002"; 3.4's reader drops a
# GUEST option with a vCPU past its count (and names nothing), ours keeps it.
test_expect_success PYTHON 'a GUEST option of one vCPU numbered 1 names its functions (3.4: none)' '
	cp before-h.dat h1.dat && cp before-g.dat g1.dat &&
	"$TRACE_CMD" attach h1.dat g1.dat 5002 &&
	"$TRACE_CMD" report -i h1.dat -i g1.dat >out &&
	grep -q "kvm_exit: *reason EPT_VIOLATION rip 0xffffffff81001004 _stext+0x1004$" out &&
	! grep -q "native_safe_halt" out
'

# The GUEST option of h6.dat: "guest1", NUL, the trace id, the vCPU count.
test_expect_success PYTHON 'a GUEST option cut short is warned of, its rips left unnamed' '
	python3 -c "import sys
d = bytearray(open(\"h6.dat\", \"rb\").read())
i = d.index(b\"guest1\\0\") + 15
d[i:i + 4] = (65536).to_bytes(4, \"little\")
open(\"bad.dat\", \"wb\").write(d)" &&
	"$TRACE_CMD" report -i bad.dat -i g6.dat >out 2>err &&
	echo "trace-cmd report: warning: '"'"'bad.dat'"'"': truncated at offset 19 of the GUEST option reading guest CPUs (need 524288 bytes): ignored; the guest'"'"'s functions are not named at its kvm events'"'"' rips" >expect &&
	test_cmp expect err &&
	grep -q "kvm_exit: *reason EXTERNAL_INTERRUPT rip 0xffffffff81a00044$" out
'

test_done
