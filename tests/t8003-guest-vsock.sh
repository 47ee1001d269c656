#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='agent and record -A over vsock, guest-local (CID 1, vsock_loopback): ours and 3.4'"'"'s both ways'
# This host has no vsock transport; the guest's kernel has vsock_loopback
# (tests/guest/setup.sh loads it), where CID 1 is the guest itself.  One
# boot: in each case an agent listens on vsock and a record -A on the same
# guest drives it, the host recording sched_switch in an instance, the agent
# the top buffer (initcall, which never fires after boot) with the host's
# markers.  Then, here, the reports of each pair by ours equal 3.4's.
. ./test-lib.sh
. "$TEST_DIR/lib-guest.sh"

# pair AGENT RECORD PORT TARGET [AGENT OPTIONS]: AGENT's agent on vsock
# PORT, RECORD's record -A TARGET against it (tried again while the agent is
# not yet listening); the record's exit status in record.status.
guest_env 'pair() {
	agent_bin=$1 record_bin=$2 port=$3 target=$4; shift 4
	"$agent_bin" agent "$@" -p $port >agent.out 2>agent.err &
	record_against "-B vhost -e sched_switch -A $target"
}'
# ppair AGENT RECORD PORT [AGENT OPTIONS]: proxy mode, AGENT's agent -P 1
# on vsock PORT, RECORD's record --proxy 1:PORT against it: the record
# traces its instance, the agent the top buffer (the markers) for it.
guest_env 'ppair() {
	agent_bin=$1 record_bin=$2 port=$3; shift 3
	"$agent_bin" agent -p $port -P 1 "$@" >agent.out 2>agent.err &
	record_against "-B vguest -e sched_switch --proxy 1:$port"
}'
# record_against "OPTIONS": the agent just started in the background ($!)
# served $record_bin's record with OPTIONS -e initcall and the markers,
# retried while the agent is not yet listening; then the agent is stopped.
guest_env 'record_against() {
	agent=$!
	for try in 1 2 3 4 5 6 7 8 9 10; do
		sleep 1
		"$record_bin" record -o host.dat $1 -e initcall \
			sh -c "sleep 0.5; for i in 1 2 3 4 5; do echo marker-\$i >$T/trace_marker; done; sleep 0.3" \
			>record.out 2>record.err
		status=$?
		grep -qi "connection refused\|connection reset\|failed to connect" record.err || break
	done
	echo $status >record.status
	sleep 1
	kill $agent; wait $agent
	cat record.out record.err agent.out agent.err
	ls
	return $status
}'
guest_case ours-ours 'pair "$TRACE_CMD" "$TRACE_CMD" 4001 1:4001 -V'
# kvm time sync: a stand-in for the guest's qemu (a process whose command
# line gives the vsock device guest-cid=1, as qemu's does) and its KVM
# debugfs directory, PID-FD/vcpuN, on a tmpfs over debugfs: vCPU 0 with
# KVM's default (unscaled) ratio, vCPU 1 scaled by a half.  kpair is pair
# recording on the TSC, which kvm needs.
guest_env 'fake_vm() {
	sh -c "sleep 300; :" qemu -device vhost-vsock-pci,id=vsock0,guest-cid=1 &
	fake_qemu=$!
	mount -t tmpfs kvmfake /sys/kernel/debug || return 1
	d=/sys/kernel/debug/kvm/$fake_qemu-12
	mkdir -p $d/vcpu0 $d/vcpu1
	echo -1000000 >$d/vcpu0/tsc-offset
	echo 281474976710656 >$d/vcpu0/tsc-scaling-ratio
	echo 48 >$d/vcpu0/tsc-scaling-ratio-frac-bits
	echo 5000 >$d/vcpu1/tsc-offset
	echo 140737488355328 >$d/vcpu1/tsc-scaling-ratio
	echo 48 >$d/vcpu1/tsc-scaling-ratio-frac-bits
}
fake_vm_end() { kill $fake_qemu; umount /sys/kernel/debug; }
kpair() {
	agent_bin=$1 record_bin=$2 port=$3 target=$4; shift 4
	"$agent_bin" agent "$@" -p $port >agent.out 2>agent.err &
	record_against "$KCLOCK -B vhost -e sched_switch -A $target"
}'
guest_case kvm-ours 'fake_vm && KCLOCK="-C x86-tsc --verbose=info" kpair "$TRACE_CMD" "$TRACE_CMD" 4011 1:4011; s=$?; fake_vm_end; exit $s'
guest_case kvm-local 'fake_vm && KCLOCK= kpair "$TRACE_CMD" "$TRACE_CMD" 4012 1:4012; s=$?; fake_vm_end; exit $s'
# -C tsc2nsec with -A: both sides on the TSC (ptp samples it), both files
# with TSC2NSEC (where perf has the conversion; else refused, exit 1).
guest_case tsc-guest 'cat /proc/uptime >uptime.before
KCLOCK="-C tsc2nsec" kpair "$TRACE_CMD" "$TRACE_CMD" 4015 1:4015; s=$?
cat /proc/uptime >uptime.after; exit 0'
[ -n "$UPSTREAM34" ] && {
	guest_case ours-34agent 'pair "$UPSTREAM34" "$TRACE_CMD" 4002 g34@1:4002'
	guest_case 34-ours-agent 'pair "$TRACE_CMD" "$UPSTREAM34" 4003 1:4003'
	# With setup-guest's FIFOs for the guest "1" on the host (here: the
	# same machine, a tmpfs over the host's /var/lib, where setup-guest
	# makes trace-cmd/virt/1: /var/lib/trace-cmd need not exist on the
	# host), 3.4 offers them; our agent answers with sockets, which 3.4 takes.
	guest_case 34-ours-fifos 'mount -t tmpfs fifos /var/lib &&
	"$TRACE_CMD" setup-guest -c 2 1 >setup.out 2>&1 &&
	pair "$TRACE_CMD" "$UPSTREAM34" 4005 1:4005
	status=$?; ls -R /var/lib/trace-cmd; umount /var/lib; exit $status'
	# The reference: 3.4 against itself.
	guest_case 34-34 'pair "$UPSTREAM34" "$UPSTREAM34" 4004 1:4004'
	guest_case kvm-34agent 'fake_vm && KCLOCK="-C x86-tsc" kpair "$UPSTREAM34" "$TRACE_CMD" 4013 1:4013; s=$?; fake_vm_end; exit $s'
	guest_case kvm-34record 'fake_vm && KCLOCK="-C x86-tsc" kpair "$TRACE_CMD" "$UPSTREAM34" 4014 1:4014; s=$?; fake_vm_end; exit $s'
	# 3.4's record sends a guest's -C tsc2nsec as it is: each agent records
	# on the TSC, without a conversion of its own; 3.4's for reference.
	guest_case 34-ours-tsc 'pair "$TRACE_CMD" "$UPSTREAM34" 4009 "1:4009 -C tsc2nsec"'
	guest_case 34-34-tsc 'pair "$UPSTREAM34" "$UPSTREAM34" 4010 "1:4010 -C tsc2nsec"'
	# Neither agent -P sets a clock: the agent's file has the kernel's
	# default (global where the TSC is unstable, local here, with the TSC kept).
	guest_case 34-ours-proxy 'cat $T/trace_clock >clock.default
	ppair "$TRACE_CMD" "$UPSTREAM34" 4006'
	guest_case ours-34-proxy 'cat $T/trace_clock >clock.default
	ppair "$UPSTREAM34" "$TRACE_CMD" 4008'
	# agent -P 5: the record on CID 1 is refused (3.4 then gives up at once).
	guest_case proxy-refused '"$TRACE_CMD" agent -p 4007 -P 5 >agent.out 2>&1 & agent=$!
	sleep 2
	start=$(date +%s)
	timeout 60 "$UPSTREAM34" record -o host.dat -e sched_switch --proxy 1:4007 -e initcall sleep 1 \
		>record.out 2>&1
	echo $? >record.status
	echo $(($(date +%s) - start)) >seconds
	sleep 1
	kill $agent; wait $agent
	cat record.out agent.out; ls'
}
guest_case ours-ours-proxy 'cat $T/trace_clock >clock.default
ppair "$TRACE_CMD" "$TRACE_CMD" 4009'
# Nothing listens on the port: one line, at once, nothing left behind.
guest_case nobody 'start=$(date +%s)
"$TRACE_CMD" record -o host.dat -e sched_switch -A 1:4999 -e initcall sleep 1 >record.out 2>record.err
echo $? >record.status
echo $(($(date +%s) - start)) >seconds
cat record.err; ls'

# --tsc2nsec and -C tsc2nsec (not vsock, but this boot has the TSC as the
# guest's clocksource, below): perf's conversion read by the helper, then
# ours recording with each and 3.4 with -C tsc2nsec, the uptime around.
guest_env "PERF_CLOCK=$HELPERS/perf-clock"
guest_env 'tsc_record() {
	"$1" record $2 -e sched_switch -o $3.dat sh -c "echo marker-tsc >$T/trace_marker; sleep 0.1" \
		>$3.out 2>&1
	echo $? >$3.status
}'
guest_case tsc 'cat $T/trace_clock >clock.before
$PERF_CLOCK >perf-clock
cat /proc/uptime >uptime.before
tsc_record "$TRACE_CMD" --tsc2nsec ours
tsc_record "$TRACE_CMD" "-C tsc2nsec" ours-c
cat /proc/uptime >uptime.after
"$TRACE_CMD" stream -C tsc2nsec -e sched_switch sh -c "echo marker-stream >$T/trace_marker; sleep 0.1" \
	>stream.out 2>stream.err
echo $? >stream.status
cat /proc/uptime >uptime.stream
tsc_record "$TRACE_CMD" "-B tsc -C tsc2nsec" ours-b
[ -z "$UPSTREAM34" ] || { tsc_record "$UPSTREAM34" "-C tsc2nsec" up-c; tsc_record "$UPSTREAM34" "-B tsc -C tsc2nsec" up-b; }
cat $T/trace_clock >clock.after
cat perf-clock ours.out; ls'

GUEST_CASE_TIMEOUT=${GUEST_CASE_TIMEOUT:-240}
# perf has a TSC conversion only where the guest's sched_clock is a stable
# TSC: under TCG, an invariant TSC and no check of its synchronization.
GUEST_CPU=${GUEST_CPU:-max,+invtsc} GUEST_APPEND=${GUEST_APPEND:-tsc=reliable}
test_have_prereq GUEST && guest_boot 900

test_expect_success GUEST 'the guest boots and runs every case' 'guest_booted'

# check NAME GUESTFILE: the pair recorded both files, the markers in the
# guest's alone, time synchronized (ptp over vsock).
check() {
	out=$(guest_out $1) &&
	guest_ok $1 &&
	test "$(cat "$out/record.status")" = 0 &&
	test -s "$out/host.dat" && test -s "$out/$2" &&
	"$TRACE_CMD" report -i "$out/$2" >"$out/guest.report" &&
	test $(grep -c "tracing_mark_write: marker-" "$out/guest.report") = 5 &&
	"$TRACE_CMD" report -i "$out/host.dat" >"$out/host.report" &&
	grep -q "sched_switch:" "$out/host.report" &&
	! grep -q "marker-" "$out/host.report" &&
	"$TRACE_CMD" dump --options -i "$out/$2" >"$out/guest.options" &&
	grep -q "Option TimeShift" "$out/guest.options" ||
	{ cat "$out/.output"; false; }
}

# both_reports NAME GUESTFILE: 3.4's and our report of the pair's files, equal.
both_reports() {
	cd "$(guest_out $1)" &&
	"$UPSTREAM34" report -i host.dat -i "$2" >up.both &&
	"$TRACE_CMD" report -i host.dat -i "$2" >our.both &&
	test_cmp up.both our.both &&
	test $(grep -c "^$2:.*tracing_mark_write: marker-" our.both) = 5
}

test_expect_success GUEST 'our agent -V, our record -A 1:PORT: host.dat and host-1.dat, time synced' '
	check ours-ours host-1.dat
'

# Host and guest are one machine here: the samples' offsets (ns) come out
# near 0, two of each CPU at least (the start and the end).
test_expect_success GUEST 'ptp over vsock, our pair: every CPU sampled, offsets near 0' '
	out=$(guest_out ours-ours) &&
	sed -n "s/^	\(-\{0,1\}[0-9]*\) 1 0 [0-9]*\[offset .*/\1/p" "$out/guest.options" >offsets &&
	test $(wc -l <offsets) -ge 4 &&
	grep -q "^2 \[samples count for CPU 1\]$" "$out/guest.options" &&
	awk "{ o = \$1 < 0 ? -\$1 : \$1 } o > 1000000 { print \"offset \" \$1; bad = 1 } END { exit bad }" offsets
'

test_expect_success GUEST,UPSTREAM34 'our agent over vsock: report of both files by ours equals 3.4s' '
	both_reports ours-ours host-1.dat
'

test_expect_success GUEST,UPSTREAM34 'our record -A NAME@1:PORT, 3.4s agent: both files, time synced' '
	check ours-34agent host-g34.dat
'

test_expect_success GUEST,UPSTREAM34 '3.4s agent over vsock: report of both files by ours equals 3.4s' '
	both_reports ours-34agent host-g34.dat
'

test_expect_success GUEST,UPSTREAM34 '3.4s record -A 1:PORT, our agent (vsock by default): both files, ptp taken' '
	check 34-ours-agent host-1.dat &&
	grep -q "^Negotiated ptp time sync protocol with guest 1$" "$(guest_out 34-ours-agent)/record.out"
'

test_expect_success GUEST,UPSTREAM34 '3.4s record against our agent: report of both files by ours equals 3.4s' '
	both_reports 34-ours-agent host-1.dat
'

test_expect_success GUEST,UPSTREAM34 '3.4s record -A offering FIFOs: our agent answers with sockets, both files' '
	check 34-ours-fifos host-1.dat &&
	grep -q "^1:[0-9]*: offers FIFOs: the data goes over sockets$" "$(guest_out 34-ours-fifos)/agent.out" &&
	both_reports 34-ours-fifos host-1.dat
'

# 3.4 against itself, for reference: its host side puts the guest a
# fraction of a second off itself (0.14 to 0.27 s seen), as against our agent.
test_expect_success GUEST,UPSTREAM34 '3.4s pair over vsock: report of both files by ours equals 3.4s' '
	check 34-34 host-1.dat &&
	both_reports 34-34 host-1.dat
'

test_expect_success GUEST,UPSTREAM34 '3.4s record -A 1:PORT -C tsc2nsec, our agent: the guest file on x86-tsc, no TSC2NSEC, as 3.4s agent' '
	check 34-ours-tsc host-1.dat &&
	check 34-34-tsc host-1.dat &&
	for c in 34-ours-tsc 34-34-tsc; do
		o=$(guest_out $c)/guest.options &&
		grep -q " \[x86-tsc\]$" "$o" &&
		! grep -q "multiplier, shift" "$o" || { cat "$o"; exit 1; }
	done &&
	both_reports 34-ours-tsc host-1.dat &&
	both_reports 34-34-tsc host-1.dat
'

# kvm_shift NAME: the guest file's TIME_SHIFT is KVM's settings of each
# vCPU (the offset negated; vCPU 0's default ratio as 1, 0 bits), at the
# guest's times, two samples of each CPU at least, as 3.4 writes them.
kvm_shift() {
	o=$(guest_out $1)/guest.options &&
	sed -n "s/^	\(-\{0,1\}[0-9]* [0-9]* [0-9]*\) [0-9]*\[offset .*/\1/p" "$o" >shifts &&
	test "$(sort -u shifts)" = "$(printf "%s\n" "-5000 140737488355328 48" "1000000 1 0")" &&
	test $(grep -c "^1000000 1 0$" shifts) -ge 2 &&
	test $(grep -c "^-5000 " shifts) -ge 2 &&
	! grep -q "	-\{0,1\}[0-9]* [0-9]* [0-9]* 0\[offset" "$o" ||
	{ cat "$o"; false; }
}

test_expect_success GUEST 'kvm: our record -C x86-tsc -A 1:PORT of the VM, our agent: TIME_SHIFT from KVM.s settings' '
	check kvm-ours host-1.dat &&
	out=$(guest_out kvm-ours) &&
	grep -q "kvm time sync offered" "$out/record.err" &&
	grep -q "^1:[0-9]*: time sync with kvm on port [0-9]*$" "$out/agent.out" &&
	kvm_shift kvm-ours
'

test_expect_success GUEST 'kvm: not offered when the guest records on another clock than the TSC (ptp taken)' '
	check kvm-local host-1.dat &&
	grep -q "^1:[0-9]*: time sync with ptp on port [0-9]*$" "$(guest_out kvm-local)/agent.out"
'

test_expect_success GUEST,UPSTREAM34 'kvm: our record with 3.4.s agent: it takes kvm, TIME_SHIFT from KVM.s settings, reports equal' '
	check kvm-34agent host-1.dat &&
	kvm_shift kvm-34agent &&
	both_reports kvm-34agent host-1.dat
'

test_expect_success GUEST,UPSTREAM34 'kvm: our report of our kvm pair equals 3.4.s' '
	both_reports kvm-ours host-1.dat
'

# 3.4's record offers kvm for this VM too and our agent takes it; 3.4 then
# maps no vCPU to a thread (it watches kvm_entry events, which no real VM
# runs here to fire) and samples none: both files, no TIME_SHIFT, as 3.4
# against its own agent.
test_expect_success GUEST,UPSTREAM34 'kvm: 3.4.s record offers kvm to our agent, which takes it; both files' '
	out=$(guest_out kvm-34record) &&
	guest_ok kvm-34record &&
	test "$(cat "$out/record.status")" = 0 &&
	grep -q "^Negotiated kvm time sync protocol with guest 1$" "$out/record.out" &&
	grep -q "^1:[0-9]*: time sync with kvm on port [0-9]*$" "$out/agent.out" &&
	test -s "$out/host.dat" && test -s "$out/host-1.dat" &&
	"$TRACE_CMD" report -i "$out/host-1.dat" >"$out/guest.report" &&
	test $(grep -c "tracing_mark_write: marker-" "$out/guest.report") = 5
'

# check_proxy NAME: the record's host.dat (its instance, the TIME_SHIFT the
# agent made of its clock, GUEST naming the agent's file) and host-1.dat
# (the agent's: the markers, GUEST "::GUEST::" naming the record's file, the
# trace_clock line of the kernel's default clock, as the case saw it).
check_proxy() {
	out=$(guest_out $1) &&
	clock=$(cat "$out/clock.default") &&
	test -n "$clock" &&
	guest_ok $1 &&
	test "$(cat "$out/record.status")" = 0 &&
	"$TRACE_CMD" report -i "$out/host-1.dat" >"$out/agent.report" &&
	test $(grep -c "tracing_mark_write: marker-" "$out/agent.report") = 5 &&
	"$TRACE_CMD" report -i "$out/host.dat" >"$out/host.report" &&
	grep -q "sched_switch:" "$out/host.report" &&
	"$TRACE_CMD" dump --options -i "$out/host.dat" >"$out/host.options" &&
	"$TRACE_CMD" dump --options -i "$out/host-1.dat" >"$out/agent.options" &&
	agent_id=$(sed -n "/Option TRACEID/{n;p;}" "$out/agent.options") &&
	test -n "$agent_id" &&
	grep -q "^$agent_id \[peer.s trace id\]$" "$out/host.options" &&
	grep -q "^0x2 \[peer.s CPU count\]$" "$out/host.options" &&
	grep -A2 "Option GUEST" "$out/host.options" | grep -q "^$agent_id \[trace id\]$" &&
	grep -A1 "Option GUEST" "$out/agent.options" | grep -q "^::GUEST:: \[Guest name\]$" &&
	grep -qF "$clock" "$out/agent.options" ||
	{ cat "$out/.output"; false; }
}

test_expect_success GUEST,UPSTREAM34 '3.4s record --proxy, our agent -P: both files, the time shift from the agent' '
	check_proxy 34-ours-proxy
'

test_expect_success GUEST,UPSTREAM34 '3.4s record --proxy with our agent: report of both files by ours equals 3.4s' '
	both_reports 34-ours-proxy host-1.dat
'

test_expect_success GUEST,UPSTREAM34 'our record --proxy, 3.4s agent -P: both files, the time shift from the agent' '
	check_proxy ours-34-proxy
'

test_expect_success GUEST,UPSTREAM34 'our record --proxy with 3.4s agent: report of both files by ours equals 3.4s' '
	both_reports ours-34-proxy host-1.dat
'

test_expect_success GUEST 'our record --proxy, our agent -P: both files, the time shift from the agent' '
	check_proxy ours-ours-proxy
'

test_expect_success GUEST,UPSTREAM34 'our proxy pair: report of both files by ours equals 3.4s' '
	both_reports ours-ours-proxy host-1.dat
'

test_expect_success GUEST,UPSTREAM34 'agent -P 5 refuses a record --proxy from CID 1' '
	out=$(guest_out proxy-refused) &&
	guest_ok proxy-refused &&
	test "$(cat "$out/record.status")" != 0 &&
	test "$(cat "$out/seconds")" -le 10 &&
	grep -q "^refused 1:[0-9]*: only the guest CID 5 may connect (-P)$" "$out/agent.out" &&
	! test -e "$out/host-1.dat" ||
	{ cat "$out/.output"; false; }
'

test_expect_success GUEST 'record -A CID:PORT with nothing listening fails at once in one line' '
	out=$(guest_out nobody) &&
	test "$(cat "$out/record.status")" = 1 &&
	test $(wc -l <"$out/record.err") = 1 &&
	grep -q "^trace-cmd record: cannot connect to vsock CID 1 port 4999 for the agent: Connection reset by peer$" "$out/record.err" &&
	test "$(cat "$out/seconds")" -le 5 &&
	! test -e "$out/host.dat" && ! test -e "$out/host-1.dat" ||
	{ cat "$out/.output"; false; }
'

# The guest's perf page: its TSC conversion (TCG with the settings above),
# or none (then ours must refuse, saying why, and the rest is skipped).
tsc_out=$(guest_out tsc)
case $(cat "$tsc_out/perf-clock" 2>/dev/null) in
cap_user_time=1*) test_set_prereq GUEST_TSC ;;
*) test_have_prereq GUEST && say "the guest's perf has no TSC conversion: $(cat "$tsc_out/perf-clock" 2>&1)" ;;
esac

test_expect_success GUEST 'record --tsc2nsec in the guest: perf.s multiplier and shift in TSC2NSEC, or refused saying why' '
	guest_ok tsc &&
	if ! test_have_prereq GUEST_TSC; then
		test "$(cat "$tsc_out/ours.status")" = 1 &&
		grep -q "^trace-cmd record: --tsc2nsec: perf.s clock page has no user time conversion (cap_user_time 0)" "$tsc_out/ours.out"
		exit
	fi &&
	cd "$tsc_out" &&
	test "$(cat ours.status)" = 0 && test "$(cat ours-c.status)" = 0 &&
	set -- $(sed "s/[a-z_]*=//g" perf-clock) &&
	for f in ours ours-c; do
		"$TRACE_CMD" dump --options -i $f.dat >$f.options &&
		grep -q "^$2 $3 0 \[multiplier, shift, offset\]$" $f.options &&
		grep -q "^\"tsc2nsec\" \[clock\]$" $f.options || exit 1
	done &&
	# --tsc2nsec keeps the clock (local), -C tsc2nsec records on the TSC; both put back after.
	grep -q "^\[local\] global" ours.options &&
	grep -q " \[x86-tsc\]$" ours-c.options &&
	test_cmp clock.before clock.after
'

test_expect_success GUEST_TSC 'record -C tsc2nsec -A: host and guest files with TSC2NSEC, the markers in ns within the uptimes' '
	check tsc-guest host-1.dat &&
	cd "$(guest_out tsc-guest)" &&
	set -- $(sed "s/[a-z_]*=//g" "$tsc_out/perf-clock") &&
	"$TRACE_CMD" dump --options -i host.dat >host.options &&
	for o in host.options guest.options; do
		grep -q "^$2 $3 0 \[multiplier, shift, offset\]$" $o || { cat $o; exit 1; }
	done &&
	"$TRACE_CMD" report -i host.dat -i host-1.dat >both &&
	sed -n "s/^host-1.dat: .* \([0-9]*\.[0-9]*\): print: *tracing_mark_write: marker-[0-9]$/\1/p" both >ts &&
	test $(wc -l <ts) = 5 &&
	awk -v lo=$(cut -d" " -f1 uptime.before) -v hi=$(cut -d" " -f1 uptime.after) \
		"\$1 < lo - 0.5 || \$1 > hi + 0.5 { print \$1 \" not in \" lo \"..\" hi; bad = 1 } END { exit bad }" ts
'

test_expect_success GUEST_TSC,UPSTREAM34 'record -C tsc2nsec -A: 3.4.s report of both files equals ours' '
	both_reports tsc-guest host-1.dat
'

# The TSC is the guest's clocksource, so its ns count from about boot, as
# /proc/uptime does: the marker falls between the uptimes read around.
test_expect_success GUEST_TSC 'record -C tsc2nsec: report shows the TSC in ns, the marker within the uptimes around it' '
	cd "$tsc_out" &&
	"$TRACE_CMD" report -i ours-c.dat >ours-c.report &&
	ts=$(sed -n "s/.* \([0-9]*\.[0-9]*\): print: *tracing_mark_write: marker-tsc$/\1/p" ours-c.report) &&
	test -n "$ts" &&
	awk -v ts=$ts -v lo=$(cut -d" " -f1 uptime.before) -v hi=$(cut -d" " -f1 uptime.after) \
		"BEGIN { if (ts < lo - 0.5 || ts > hi + 0.5) { print ts \" not in \" lo \"..\" hi; exit 1 } }"
'

test_expect_success GUEST_TSC 'stream -C tsc2nsec: the marker in ns, within the uptimes around it' '
	cd "$tsc_out" &&
	test "$(cat stream.status)" = 0 &&
	ts=$(sed -n "s/.* \([0-9]*\.[0-9]*\): print: *tracing_mark_write: marker-stream$/\1/p" stream.out) &&
	test -n "$ts" &&
	awk -v ts=$ts -v lo=$(cut -d" " -f1 uptime.after) -v hi=$(cut -d" " -f1 uptime.stream) \
		"BEGIN { if (ts < lo - 0.5 || ts > hi + 0.5) { print ts \" not in \" lo \"..\" hi; exit 1 } }" ||
	{ cat stream.out stream.err; false; }
'

test_expect_success GUEST_TSC,UPSTREAM34 'our --tsc2nsec and -C tsc2nsec files: 3.4.s report equals ours' '
	cd "$tsc_out" &&
	for f in ours ours-c; do
		"$UPSTREAM34" report -i $f.dat >$f.up &&
		"$TRACE_CMD" report -i $f.dat >$f.our &&
		test_cmp $f.up $f.our || exit 1
	done
'

test_expect_success GUEST_TSC,UPSTREAM34 '3.4.s -C tsc2nsec file: the same TSC2NSEC and clocks as ours, our report equals 3.4.s' '
	cd "$tsc_out" &&
	test "$(cat up-c.status)" = 0 &&
	"$TRACE_CMD" dump --options -i up-c.dat >up-c.options &&
	for o in "^[0-9]* [0-9]* 0 \[multiplier" "^\"tsc2nsec\" \[clock\]$" " \[x86-tsc\]$"; do
		test "$(grep "$o" up-c.options)" = "$(grep "$o" ours-c.options)" || exit 1
	done &&
	"$UPSTREAM34" report -i up-c.dat >up-c.up &&
	"$TRACE_CMD" report -i up-c.dat >up-c.our &&
	test_cmp up-c.up up-c.our &&
	grep -q "tracing_mark_write: marker-tsc$" up-c.our
'

# -C tsc2nsec after -B: that instance on the TSC, the file converted, as 3.4.
test_expect_success GUEST_TSC,UPSTREAM34 '-B NAME -C tsc2nsec: the instance named tsc2nsec with TSC2NSEC, reports equal 3.4s both ways' '
	cd "$tsc_out" &&
	test "$(cat ours-b.status)" = 0 && test "$(cat up-b.status)" = 0 &&
	for f in ours-b up-b; do
		"$TRACE_CMD" dump --options -i $f.dat >$f.options &&
		grep -A1 "^\"tsc\" \[name\]$" $f.options | grep -q "^\"tsc2nsec\" \[clock\]$" &&
		grep -q "^[0-9]* [0-9]* 0 \[multiplier, shift, offset\]$" $f.options &&
		"$UPSTREAM34" report -i $f.dat >$f.up &&
		"$TRACE_CMD" report -i $f.dat >$f.our &&
		test_cmp $f.up $f.our &&
		grep -q "sched_switch:" $f.our || exit 1
	done
'

test_done
