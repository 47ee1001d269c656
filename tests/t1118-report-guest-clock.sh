#!/bin/bash
# A host's and its guest's files (mkdat.py's vm-host, vm-guest): the guest's
# TIME_SHIFT puts its records on the host's clock, TSC2NSEC turns the
# x86-tsc ticks of both into ns, and the two merge on one timeline, each file
# with its own --ts-offset, --ts2secs and -F after its -i, as upstream 3.4.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-report.sh"

cp "$FIXTURES/synth-vm-host-v7-zlib.dat" host.dat
cp "$FIXTURES/synth-vm-guest-v7-zlib.dat" guest.dat
STEP=$FIXTURES/synth-vm-guest-step-v6.dat

# Both sides of a comparison with 3.4 without the header lines only we print.
same34() {
	"$TRACE_CMD" report "$@" >ours.out &&
	"$UPSTREAM34" report "$@" >up.out 2>/dev/null &&
	grep -v -e ": version = [0-9]*$" -e "^version = [0-9]*$" ours.out >ours.cmp &&
	test_cmp up.out ours.cmp
}

# guest cpu0's first record, at guest tick TSC0 = 24691357802000, lies
# between samples (TSC0 - 1000, offset S) and (TSC0 + 5000, S + 1500), with
# S = 10^12: the offset is S + (1000 * 1500 + 3000) / 6000 = S + 250, so the
# host's tick TSC0 + S + 250, times 2^23 >> 24, is 12845678901125 ns.
test_expect_success 'a guest record is on the host clock, its offset interpolated between samples' '
	"$TRACE_CMD" report -t guest.dat >out &&
	grep -q "^ *bash-1234 *\[000\] \.\.\.\.\. 12845\.678901125: print: .*guest cpu0 first$" out
'

test_expect_success 'without the interpolate flag, the offset of the sample before' '
	"$TRACE_CMD" report -t "$STEP" >out &&
	grep -q "^ *bash-1234 *\[000\] \.\.\.\.\. 12845\.678901000: print: .*guest cpu0 first$" out
'

test_expect_success 'host and guest merge on one timeline, with a guest --ts-offset (3.4'"'"'s report, committed)' '
	"$TRACE_CMD" report -t -i host.dat -i guest.dat --ts-offset 1000 >out &&
	grep -v ": version = 7$" out >got &&
	test_cmp "$FIXTURES/synth-vm-pair.t34" got
'

test_expect_success '--raw-ts shows the guest'"'"'s own ticks, even with --ts2secs or --ts-offset' '
	"$TRACE_CMD" report --raw-ts guest.dat >out &&
	grep -q "^ *bash-1234 *\[000\] \.\.\.\.\.24691357802000: print: .*guest cpu0 first$" out &&
	"$TRACE_CMD" report --raw-ts -i guest.dat --ts2secs 1000 --ts-offset 5 >out2 &&
	test_cmp out out2
'

test_expect_success '--ts2secs replaces TSC2NSEC, after the time shift' '
	"$TRACE_CMD" report -t -i host.dat -i guest.dat --ts2secs 1000000000 >out &&
	grep -q "^guest.dat: *bash-1234 *\[000\] \.\.\.\.\. 25691\.357802250: print: .*guest cpu0 first$" out &&
	grep -q "^ host.dat: .*\[000\] \.\.\.\.\. 12845\.678900000: sched_switch: " out
'

test_expect_success '--format jsonl: ts is the host-clock ns the line shows' '
	"$TRACE_CMD" report --format jsonl guest.dat >out &&
	head -n 1 out | grep -q "^{\"ts\":12845678901125,\"ts_ns\":12845678901125,\"clock\":\"x86-tsc\",\"cpu\":0,"
'

test_expect_success PYTHON 'the OFFSET option is added in ns, after TSC2NSEC' '
	python3 "$HELPERS/mkdat.py" --dump-spec vm-host >spec.json &&
	sed "s/^{/{\"ts_offset\": 5000, /" spec.json >off.json &&
	python3 "$HELPERS/mkdat.py" off.json off.dat &&
	"$TRACE_CMD" report -t off.dat >out &&
	grep -q "\[000\] \.\.\.\.\. 12845\.678905000: sched_switch: " out
'

test_expect_success UPSTREAM34 'the OFFSET option: as 3.4' '
	same34 -i off.dat
'

while read args; do
	test_expect_success UPSTREAM34 "report $args equals 3.4's" '
		same34 '"$args"'
	'
done <<TABLE
-i guest.dat
-t -i guest.dat
-t -i $STEP
-i host.dat
-i host.dat -i guest.dat
-i guest.dat -i host.dat
-t -i host.dat -i $STEP
-i host.dat -i guest.dat --ts-offset -3000
-t -i host.dat -i guest.dat --ts2secs 1000000000
-t -i host.dat -i guest.dat --ts2secs 4000000000 --ts-offset 7
-l -i host.dat -i guest.dat -F print
-F print -i host.dat -i guest.dat -F sched_switch
--raw-ts -i guest.dat
--raw-ts -i host.dat -i guest.dat
--raw-ts -i guest.dat --ts2secs 1000000000
-t --first-event -i guest.dat
--last-event -i guest.dat
TABLE

test_expect_success 'dump --options shows TSC2NSEC, TIME_SHIFT and GUEST' '
	"$TRACE_CMD" dump --options -i guest.dat >out &&
	grep -qx "8388608 24 0 \[multiplier, shift, offset\]" out &&
	grep -qx "0x1122334455667788 \[peer.s trace id\]" out &&
	grep -qx "3 \[samples count for CPU 0\]" out &&
	grep -qx "	1000000001500 1 0 24691357807000\[offset \* scaling >> fraction @ time\]" out &&
	grep -q " 1025 10 24691357812000\[offset" out &&
	"$TRACE_CMD" dump --options -i host.dat >out &&
	grep -qx "guest1 \[Guest name\]" out &&
	grep -qx "  1 5002 \[guest cpu, host pid\]" out
'

for f in host.dat guest.dat "$STEP"; do
	test_expect_success UPSTREAM34 "dump --options of $(basename "$f") equals 3.4's" '
		"$TRACE_CMD" dump --options -i "'"$f"'" >ours &&
		"$UPSTREAM34" dump --options -i "'"$f"'" >up 2>/dev/null &&
		test_cmp up ours
	'
done

test_expect_success PYTHON 'dump: a GUEST option cut after its name is an error' '
	python3 "$HELPERS/mkdat.py" --dump-spec vm-host >spec.json &&
	python3 -c "import json
s = json.load(open(\"spec.json\"))
s[\"extra_options\"] = [[13, \"guest2\"]]
json.dump(s, open(\"cut.json\", \"w\"))" &&
	python3 "$HELPERS/mkdat.py" cut.json cut.dat &&
	test_expect_code 1 "$TRACE_CMD" dump --options -i cut.dat >out 2>err &&
	grep -qx "trace-cmd dump: .cut.dat.: truncated or damaged at offset 7 reading guest trace id" err &&
	grep -qx "  1 5002 \[guest cpu, host pid\]" out
'

# Damaged clock options, from mkdat.py specs: each a one-line error, exit 1.
damaged() {
	python3 "$HELPERS/mkdat.py" --dump-spec vm-guest >spec.json &&
	python3 -c "import json, sys
s = json.load(open(\"spec.json\")); exec(sys.argv[1])
json.dump(s, open(\"bad.json\", \"w\"))" "$1" &&
	python3 "$HELPERS/mkdat.py" bad.json bad.dat &&
	test_expect_code 1 "$TRACE_CMD" report bad.dat >out 2>err &&
	test $(wc -l <err) = 1 && grep -q "^trace-cmd report: .bad.dat.: $2" err
}

while IFS='|' read -r name edit msg; do
	test_expect_success PYTHON "a damaged option is an error: $name" '
		damaged "$edit" "$msg"
	'
done <<'TABLE'
TIME_SHIFT cut in its fraction bits|s["time_shift"]["cut"] = 8|truncated at offset [0-9]* reading time shift fraction bits (need 40 bytes)$
TIME_SHIFT cut in its samples|s["time_shift"]["cut"] = 76|truncated at offset [0-9]* reading time shift samples (need 48 bytes)$
TIME_SHIFT with 64 fraction bits|s["time_shift"]["fractions"][0][2] = 64|bad data at offset [0-9]*: CPU 0 sample 2: 64 fraction bits, over 63$
TSC2NSEC with a shift of 64|s["tsc2nsec"]["shift"] = 64|bad data at offset [0-9]*: tsc2nsec shift 64 is over 63$
TABLE

test_expect_success PYTHON 'a vCPU with no samples keeps its own clock, the others move' '
	python3 "$HELPERS/mkdat.py" --dump-spec vm-guest >spec.json &&
	python3 -c "import json
s = json.load(open(\"spec.json\"))
s[\"time_shift\"][\"cpus\"][1] = []
s[\"time_shift\"][\"fractions\"] = [[0, 0, 0]]
json.dump(s, open(\"one.json\", \"w\"))" &&
	python3 "$HELPERS/mkdat.py" one.json one.dat &&
	"$TRACE_CMD" report -t one.dat >out &&
	grep -q "\[000\] \.\.\.\.\. 12845\.678901125: print: .*guest cpu0 first$" out &&
	grep -q "\[001\] d\.\.1\. 12345\.678901750: sched_wakeup: " out
'

# cpu0 gets a 4th sample at guest tick 2^63 + 5, offset S + 99999.  Sorted
# as signed, as 3.4 sorts them, it comes first; TSC0 is at or before it
# (unsigned), so the pair is it and (TSC0 - 1000, S), 2^63 ticks apart: the
# interpolation moves the offset by less than a tick, S + 99999 stays, and
# (TSC0 + S + 99999) * 2^23 >> 24 is 12845678950999 ns (12845678901125 with
# the sample sorted last).
test_expect_success PYTHON 'TIME_SHIFT samples sort by signed time, as 3.4'"'"'s' '
	python3 "$HELPERS/mkdat.py" --dump-spec vm-guest >spec.json &&
	python3 -c "import json
s = json.load(open(\"spec.json\"))
s[\"time_shift\"][\"cpus\"][0].append([2**63 + 5, 10**12 + 99999, 1])
s[\"time_shift\"][\"fractions\"][0].append(0)
json.dump(s, open(\"high.json\", \"w\"))" &&
	python3 "$HELPERS/mkdat.py" high.json high.dat &&
	"$TRACE_CMD" report -t high.dat >out &&
	grep -q "\[000\] \.\.\.\.\. 12845\.678950999: print: .*guest cpu0 first$" out
'

test_expect_success PYTHON,UPSTREAM34 'those samples read the same in 3.4'"'"'s report' '
	same34 -t -i high.dat
'

# The guest's records in the top buffer and, the same again, in an instance
# "inst" (record -B in a guest, or the guest's side of record --proxy).  As
# 3.4's reader, the TIME_SHIFT moves the top buffer's alone; TSC2NSEC, OFFSET
# and --ts-offset convert every buffer.  The
# instance's cpu0 first record stays on the guest's clock: TSC0 * 2^23 >> 24
# is 12345678901000 ns.
test_expect_success PYTHON 'a guest'"'"'s instance keeps its own clock, the top buffer goes to the host'"'"'s' '
	python3 "$HELPERS/mkdat.py" --dump-spec vm-guest >spec.json &&
	python3 -c "import json
s = json.load(open(\"spec.json\"))
recs = s.pop(\"records\")
s[\"buffers\"] = [{\"name\": \"\", \"records\": recs}, {\"name\": \"inst\", \"records\": recs}]
json.dump(s, open(\"inst.json\", \"w\"))
s[\"ts_offset\"] = 5000
json.dump(s, open(\"inst-off.json\", \"w\"))" &&
	python3 "$HELPERS/mkdat.py" inst.json inst.dat &&
	python3 "$HELPERS/mkdat.py" inst-off.json inst-off.dat &&
	"$TRACE_CMD" report -t inst.dat >out &&
	grep -q "^inst: *bash-1234 *\[000\] \.\.\.\.\. 12345\.678901000: print: .*guest cpu0 first$" out &&
	grep -q "^ *bash-1234 *\[000\] \.\.\.\.\. 12845\.678901125: print: .*guest cpu0 first$" out &&
	"$TRACE_CMD" report -t inst-off.dat >out &&
	grep -q "^inst: *bash-1234 *\[000\] \.\.\.\.\. 12345\.678906000: print: .*guest cpu0 first$" out
'

test_expect_success PYTHON 'with its host, --ts-offset moves both buffers of the guest, the shift its top one' '
	"$TRACE_CMD" report -t -i host.dat -i inst.dat --ts-offset 7000 >out &&
	grep -q "^inst\.dat: *bash-1234 *\[000\] \.\.\.\.\. 12845\.678908125: print: .*guest cpu0 first$" out &&
	grep -q "^ *inst: *bash-1234 *\[000\] \.\.\.\.\. 12345\.678908000: print: .*guest cpu0 first$" out
'

# How the times show goes by the TRACECLOCK option's clock, as 3.4 shows
# them, not by the one the top buffer's BUFFER option names (3.4's record -A
# writes a guest's file with [x86-tsc] there and "local" in its BUFFER when
# the guest recorded with -C tsc2nsec); without TRACECLOCK, in seconds.
# Each line: name, TRACECLOCK's clock (- none), top buffer's, how it shows.
CLOCKS="tsc-local x86-tsc local raw
local-tsc local x86-tsc usecs
none-tsc - x86-tsc usecs
counter-local counter local raw
local-counter local counter usecs"
test_expect_success PYTHON 'times show by the TRACECLOCK option'"'"'s clock, not the top buffer'"'"'s' '
	python3 "$HELPERS/mkdat.py" --dump-spec sched >sched.json &&
	echo "$CLOCKS" | while read name traceclock top shows; do
		python3 -c "import json, sys
s = json.load(open(\"sched.json\"))
s[\"buffers\"] = [{\"name\": \"\", \"clock\": sys.argv[2], \"records\": s.pop(\"records\")}]
s[\"version\"] = 7
if sys.argv[1] == \"-\": s[\"traceclock\"] = False
else: s[\"clock\"] = sys.argv[1]
json.dump(s, open(\"clock.json\", \"w\"))" $traceclock $top &&
		python3 "$HELPERS/mkdat.py" clock.json clock-$name.dat &&
		"$TRACE_CMD" report -i clock-$name.dat >out &&
		case $shows in
		raw) grep -q "^ *<idle>-0 *\[000\] d\.\.1\.12345678901000: sched_wakeup:" out ;;
		usecs) grep -q "^ *<idle>-0 *\[000\] d\.\.1\. 12345\.678901: sched_wakeup:" out ;;
		esac || { echo "$name: not $shows"; head -3 out; exit 1; }
	done
'

test_expect_success PYTHON,UPSTREAM34 'those files read the same in 3.4'"'"'s report' '
	for f in clock-*.dat; do same34 -i $f || exit 1; done
'

while read args; do
	test_expect_success PYTHON,UPSTREAM34 "report $args equals 3.4's" '
		same34 '"$args"'
	'
done <<TABLE
-t -i inst.dat
-t -i inst-off.dat
-t -i host.dat -i inst.dat --ts-offset 7000
-t -i inst.dat --ts2secs 1000000000
--raw-ts -i inst.dat
TABLE

test_done
