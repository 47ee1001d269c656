#!/bin/bash
# attach: a host recorded with kvm events and its guest recorded alone
# (mkdat.py's attach-host, attach-guest: tasks 5002 and 5001 run vCPUs 0
# and 1, 5003 vCPU 0 of another guest) become a pair report merges, as
# upstream 3.4's attach makes it; bad input fails in one line and leaves
# both files as they were.
. "$(dirname "$0")/test-lib.sh"

mkdat() { python3 "$HELPERS/mkdat.py" "$@"; }
# The files of the current directory but the test's own outputs.
listing() { ls | grep -vx -e out -e err -e list.before -e list.after; }

if test_have_prereq PYTHON; then
	mkdat --scenario attach-host --file-version 7 host7.dat &&
	mkdat --scenario attach-host --file-version 7 --compression zlib host7z.dat &&
	mkdat --scenario attach-host --file-version 6 host6.dat &&
	mkdat --scenario attach-guest --file-version 7 guest7.dat &&
	mkdat --scenario attach-guest --file-version 7 --compression zstd guest7s.dat &&
	mkdat --scenario attach-host-tsc --file-version 7 hosttsc.dat &&
	mkdat --scenario vm-host --file-version 7 nokvm.dat &&
	mkdat --dump-spec attach-guest | sed "s/\"traceid\": [0-9]*,//; s/^{/{\"version\": 7,/" >noid.json &&
	mkdat noid.json noid.dat &&
	cp host7.dat h.dat && cp guest7.dat attached.dat &&
	"$TRACE_CMD" attach h.dat attached.dat 5001 5002 ||
		echo "making the files failed" >&2
fi

# HOST GUEST: fresh copies of the pair, h.dat and g.dat, in directory ours/
# and (for 3.4) up/.
pair() {
	rm -rf ours up && mkdir ours up &&
	for d in ours up; do cp "$1" $d/h.dat && cp "$2" $d/g.dat || return 1; done
}

# Both sides of a comparison: 3.4's attach in up/ with ARGS34, ours in ours/
# with ARGS, then the files, their dump --options and the merged report compared.
same34() {
	args34=$1 args=$2
	(cd up && "$UPSTREAM34" attach $args34 >/dev/null 2>&1) &&
	(cd ours && "$TRACE_CMD" attach $args) &&
	for f in h.dat g.dat; do
		"$UPSTREAM34" dump --options -i up/$f >up/$f.opts 2>/dev/null &&
		"$TRACE_CMD" dump --options -i ours/$f >ours/$f.opts &&
		test_cmp up/$f.opts ours/$f.opts || return 1
	done &&
	(cd up && "$UPSTREAM34" report -i h.dat -i g.dat >report 2>/dev/null) &&
	(cd ours && "$TRACE_CMD" report -i h.dat -i g.dat >report) &&
	test_cmp up/report ours/report
}

# Ours and 3.4's pairs: the same option payloads and the same merged report.
while IFS='|' read -r name host guest args34 args; do
	test_expect_success PYTHON,UPSTREAM34 "as 3.4: $name" '
		pair '"$host $guest"' && same34 "'"$args34"'" "'"$args"'"
	'
done <<'TABLE'
both vCPUs, no -s|host7.dat|guest7.dat|h.dat g.dat 5001 5002|h.dat g.dat 5001 5002
a host task that runs no vCPU is left out|host7.dat|guest7.dat|h.dat g.dat 5001 77 5002|h.dat g.dat 5001 77 5002
one -s for every CPU|host7.dat|guest7.dat|-c 2 -s 1000000000000 h.dat g.dat 5002 5001|-c 2 -s 1000000000000 h.dat g.dat 5002 5001
scaling, fraction bits and a timestamp|host7.dat|guest7.dat|-c 2 -s 0xe8d4a4f3f0,1025,10,5 h.dat g.dat 5001 5002|-c 2 -s 0xe8d4a4f3f0,1025,10,5 h.dat g.dat 5001 5002
a negative offset, empty fields taking the defaults|host7.dat|guest7.dat|-c 2 -s -5000,,,7 h.dat g.dat 5001 5002|-c 2 -s -5000,,,7 h.dat g.dat 5001 5002
options after the files, as getopt permutes|host7.dat|guest7.dat|h.dat -c 2 g.dat -s 1000000000000 5001 5002|h.dat -c 2 g.dat -s 1000000000000 5001 5002
-s, not the host's kvm_write_tsc_offset events|hosttsc.dat|guest7.dat|-c 2 -s 1000000000000 h.dat g.dat 5000 5001 5002|-c 2 -s 1000000000000 h.dat g.dat 5000 5001 5002
zlib host, zstd guest|host7z.dat|guest7s.dat|-c 2 -s 1000000000000 h.dat g.dat 5001 5002|-c 2 -s 1000000000000 h.dat g.dat 5001 5002
without -c, -s covers the guest file's CPUs (3.4 needs -c)|host7.dat|guest7.dat|-c 2 -s 1000000000000 h.dat g.dat 5001 5002|-s 1000000000000 h.dat g.dat 5001 5002
pids in one comma-separated argument (3.4: one each)|host7.dat|guest7.dat|h.dat g.dat 5001 5002|h.dat g.dat 5001,5002
TABLE

test_expect_success PYTHON,UPSTREAM34 'uncompressed, the files are byte for byte 3.4'"'"'s' '
	pair host7.dat guest7.dat &&
	same34 "-c 2 -s 1000000000000,1,0 h.dat g.dat 5001 5002" \
		"-c 2 -s 1000000000000,1,0 h.dat g.dat 5001 5002" &&
	cmp up/h.dat ours/h.dat && cmp up/g.dat ours/g.dat
'

test_expect_success PYTHON 'the guest is on the host clock, vCPUs mapped to their tasks' '
	pair host7.dat guest7.dat && cd ours &&
	"$TRACE_CMD" attach -s 1000000000000 h.dat g.dat 5001,5002 &&
	"$TRACE_CMD" report -i h.dat -i g.dat >out &&
	grep -q "^g.dat: *bash-1234 *\[000\] \.\.\.\.\. 12845\.678901: print: .*guest cpu0 first$" out &&
	"$TRACE_CMD" dump --options -i h.dat >opts &&
	grep -qx "  0 5002 \[guest cpu, host pid\]" opts &&
	grep -qx "  1 5001 \[guest cpu, host pid\]" opts &&
	"$TRACE_CMD" dump --options -i g.dat >opts &&
	grep -qx "0x1122334455667788 \[peer.s trace id\]" opts &&
	grep -qx "8388608 24 0 \[multiplier, shift, offset\]" opts
'

test_expect_success PYTHON 'the man page example runs' '
	pair host7.dat guest7.dat && cd ours &&
	cp h.dat host.dat && cp g.dat guest.dat &&
	"$TRACE_CMD" attach -s 1000000000000 host.dat guest.dat 5001,5002 &&
	"$TRACE_CMD" report -i host.dat -i guest.dat >out &&
	grep -q "^guest.dat: .* 12845\.678901: print: .*guest cpu0 first$" out
'

test_expect_success PYTHON 'each -s is one CPU'"'"'s, the last for the CPUs after (3.4 uses the first for all)' '
	pair host7.dat guest7.dat && cd ours &&
	"$TRACE_CMD" attach -c 3 -s 1000,1,0,0 -s -7,1025,10,5 h.dat g.dat 5001 &&
	"$TRACE_CMD" dump --options -i g.dat >opts &&
	grep -qx "0x3 \[peer.s CPU count\]" opts &&
	grep -A3 "^1 \[samples count for CPU 2\]" opts >samples &&
	printf "%s\n" "1 [samples count for CPU 2]" \
		"	1000 1 0 0[offset * scaling >> fraction @ time]" \
		"	-7 1025 10 5[offset * scaling >> fraction @ time]" \
		"	-7 1025 10 5[offset * scaling >> fraction @ time]" >expect &&
	test_cmp expect samples
'

# attach-host-tsc: vCPUs 0 and 1 SHIFT = 10^12 ticks behind from their
# creation by task 5000, vCPU 1 4000 more from guest tick TSC0 + 6000 (by
# 5001); 5003 wrote another guest's.  Host ns = (guest ticks + offset) / 2.
test_expect_success PYTHON 'without -s, the offsets come from the tasks'"'"' kvm_write_tsc_offset events' '
	pair hosttsc.dat guest7.dat && cd ours &&
	"$TRACE_CMD" attach h.dat g.dat 5000,5001,5002 2>err &&
	test ! -s err &&
	"$TRACE_CMD" report -t -i h.dat -i g.dat >out &&
	grep "^g.dat: " out | sed "s/^g.dat: *//" | cut -c1-60 >got &&
	printf "%s\n" "cpus=2" \
		"bash-1234  [000] ..... 12845.678901000: print:" \
		"<idle>-0     [001] d..1. 12845.678901750: sched_wakeup:" \
		"bash-1234  [000] ..... 12845.678902500: print:" \
		"bash-1234  [000] ..... 12845.678905500: print:" \
		"<idle>-0     [001] ..... 12845.678906500: sched_switch:" \
		"bash-1234  [000] ..... 12845.678911000: print:" \
		"cat-1300  [001] ..... 12845.678913500: print:" >expect &&
	sed "s/ *$//" got >got.trim && test_cmp expect got.trim
'

test_expect_success PYTHON,UPSTREAM34 'those offsets read the same in 3.4'"'"'s report' '
	pair hosttsc.dat guest7.dat && cd ours &&
	"$TRACE_CMD" attach h.dat g.dat 5000,5001,5002 &&
	"$TRACE_CMD" report -t -i h.dat -i g.dat >ours.out &&
	"$UPSTREAM34" report -t -i h.dat -i g.dat >up.out 2>/dev/null &&
	test_cmp up.out ours.out
'

test_expect_success PYTHON 'a vCPU whose offset no task given wrote keeps its clock, with a warning' '
	pair hosttsc.dat guest7.dat && cd ours &&
	"$TRACE_CMD" attach h.dat g.dat 5001,5002 2>err &&
	echo "trace-cmd attach: warning: '"'"'h.dat'"'"': vCPU 0 has no kvm_write_tsc_offset event of the tasks given: its clock is left as it is" >expect &&
	test_cmp expect err &&
	"$TRACE_CMD" report -t -i h.dat -i g.dat >out &&
	grep -q "^g.dat: *bash-1234 *\[000\] \.\.\.\.\. 12345\.678901000: print: .*guest cpu0 first$" out &&
	grep -q "^g.dat: *cat-1300 *\[001\] \.\.\.\.\. 12845\.678913500: print: .*guest cpu1 late$" out
'

test_expect_success PYTHON 'a vCPU found alone keeps its own number (3.4 writes 0)' '
	pair host7.dat guest7.dat && cd ours &&
	"$TRACE_CMD" attach h.dat g.dat 5001 &&
	"$TRACE_CMD" dump --options -i h.dat >opts &&
	grep -qx "1 \[Guest CPUs\]" opts &&
	grep -qx "  1 5001 \[guest cpu, host pid\]" opts
'

test_expect_success PYTHON,UPSTREAM34 'a host already mapping the guest is kept, with a warning; the guest is written' '
	pair host7.dat guest7.dat &&
	"$TRACE_CMD" attach ours/h.dat ours/g.dat 5001 5002 &&
	cp guest7.dat ours/g2.dat && cp ours/h.dat before &&
	"$TRACE_CMD" attach ours/h.dat ours/g2.dat 5001 5002 2>err &&
	grep -qx "trace-cmd attach: warning: .ours/h.dat. already maps the guest 0x99aabbccddeeff00: left as it is" err &&
	cmp before ours/h.dat &&
	cmp ours/g.dat ours/g2.dat &&
	cp ours/h.dat up/h.dat && cp guest7.dat up/g2.dat &&
	"$UPSTREAM34" attach up/h.dat up/g2.dat 5001 5002 >out 2>/dev/null &&
	grep -q "Guest is already mapped" out &&
	cmp before up/h.dat && cmp up/g2.dat ours/g2.dat
'

# Each bad case: the exit code, the one line of stderr, nothing written.
# Files are copies in bad/; every case sees them as they were made.
while IFS='|' read -r code args msg; do
	test_expect_success PYTHON "attach $args: exit $code, '$msg'" '
		rm -rf bad && mkdir bad && cd bad &&
		cp ../host7.dat h.dat && cp ../guest7.dat g.dat && cp ../host6.dat h6.dat &&
		cp ../nokvm.dat nokvm.dat && cp ../attached.dat done.dat && cp ../noid.dat noid.dat && listing >list.before &&
		check_usage '"$code"' "'"$msg"'" attach '"$args"' &&
		{ [ '"$code"' = 2 ] || test $(wc -l <err) = 1; } &&
		listing >list.after && test_cmp list.before list.after &&
		cmp h.dat ../host7.dat && cmp g.dat ../guest7.dat && cmp done.dat ../attached.dat
	'
done <<'TABLE'
1|h.dat g.dat 9999|trace-cmd attach: 'h.dat': none of the tasks given has a kvm_entry or kvm_exit event: not the guest's vCPU pids?
1|nokvm.dat g.dat 5001|trace-cmd attach: 'nokvm.dat' has no kvm_entry or kvm_exit events with a vcpu_id: record the host with -e kvm
1|missing.dat g.dat 5001|trace-cmd attach: cannot open 'missing.dat': No such file or directory
1|h.dat missing.dat 5001|trace-cmd attach: cannot open 'missing.dat': No such file or directory
1|h.dat done.dat 5001 5002|trace-cmd attach: 'done.dat' is already attached to a host (it has a TIME_SHIFT option)
1|h6.dat g.dat 5001|trace-cmd attach: 'h6.dat': a version 6 file cannot take new options: make it version 7 first (trace-cmd convert --file-version 7)
1|h.dat h.dat 5001|trace-cmd attach: 'h.dat' and 'h.dat' are the same file
1|h.dat noid.dat 5001|trace-cmd attach: 'noid.dat' has no trace id (TRACEID option) for its host to name it by
1|h.dat g.dat 5002 5003|trace-cmd attach: 'h.dat': tasks 5002 and 5003 both run vCPU 0 (tasks of two guests?)
1|-s 1 -s 2 -s 3 h.dat g.dat 5001|trace-cmd attach: 'g.dat': 3 -s given for its 2 CPUs
2|h.dat g.dat|trace-cmd attach: needs HOST_FILE, GUEST_FILE and at least one VCPU_PID
2|h.dat g.dat abc|trace-cmd attach: invalid vCPU pid value 'abc': not a number
2|h.dat g.dat 5001,,5002|trace-cmd attach: invalid vCPU pid list '5001,,5002': an empty pid
2|-s abc h.dat g.dat 5001|trace-cmd attach: invalid -s offset value 'abc': not a number
2|-s 1,2,3,4,5 h.dat g.dat 5001|trace-cmd attach: invalid -s value '1,2,3,4,5': more than offset, scale, fraction and timestamp
2|-s 1,1,64 h.dat g.dat 5001|trace-cmd attach: invalid -s fraction value '64': out of range (0 to 63)
2|-c 0 -s 1 h.dat g.dat 5001|trace-cmd attach: invalid -c value '0': out of range (1 to 4096)
2|-c 2 h.dat g.dat 5001|trace-cmd attach: -c needs -s: the offsets of the guest's CPUs
2|-c 1 -s 1 -s 2 h.dat g.dat 5001|trace-cmd attach: 2 -s given for 1 guest CPUs
2|-x h.dat g.dat 5001|trace-cmd attach: unknown option '-x'
TABLE

test_expect_success PYTHON 'a host without TSC2NSEC is refused, nothing written' '
	mkdat --dump-spec attach-host >spec.json &&
	python3 -c "import json
s = json.load(open(\"spec.json\")); del s[\"tsc2nsec\"]; s[\"version\"] = 7
json.dump(s, open(\"notsc.json\", \"w\"))" &&
	mkdat notsc.json notsc.dat && cp notsc.dat notsc.orig && cp guest7.dat g.dat &&
	check_usage 1 "trace-cmd attach: '"'"'notsc.dat'"'"' has no TSC2NSEC option: record the host with -C tsc2nsec" \
		attach notsc.dat g.dat 5001 &&
	cmp notsc.dat notsc.orig && cmp g.dat guest7.dat
'

# ulimit -f 10: the host's copy (8.6 KB, zlib) fits, the guest's (12.5 KB) does not.
test_expect_success PYTHON 'a guest that cannot be written leaves the host as it was, and no temporary file' '
	rm -rf full && mkdir full && cp host7z.dat full/h.dat && cp guest7.dat full/g.dat &&
	ls full >before &&
	(trap "" XFSZ && ulimit -f 10 &&
	 test_expect_code 1 "$TRACE_CMD" attach full/h.dat full/g.dat 5001 2>err) &&
	grep -q "^trace-cmd attach: cannot write .full/g.dat.: File too large$" err &&
	test $(wc -l <err) = 1 &&
	ls full >after && test_cmp before after &&
	cmp full/h.dat host7z.dat && cmp full/g.dat guest7.dat
'

test_done
