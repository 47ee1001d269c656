# SPDX-License-Identifier: GPL-2.0
# Tests run in a qemu guest booting Debian 12's own kernel, whose Ftrace has
# what the host's may lack (function, function_graph, hist triggers,
# snapshot, the stack tracer).  Boots are the cost, so a script queues its
# cases, boots once, then asserts on what each case left:
#
#   . ./test-lib.sh
#   . "$TEST_DIR"/lib-guest.sh
#   guest_case fn 'tracefs_state >before && "$TRACE_CMD" record -p function ls'
#   guest_boot
#   test_expect_success GUEST 'function tracer recorded' '
#           guest_ok fn && test -s "$(guest_out fn)/trace.dat"'
#
# In the guest each case is a snippet for the host's /bin/sh, run in a chroot
# of the host's / (read-only) with the guest's /proc, /sys, /dev, a tmpfs
# /tmp, and its own empty working directory, whose files come back to
# $(guest_out NAME) with .output (stdout and stderr) and .status.  There
# $TRACE_CMD is this tree's binary, $UPSTREAM34 upstream 3.4 (empty when
# absent), $T the guest's tracefs; guest_env adds shell code every case sees.
# Prerequisite GUEST: qemu and the kernel are there or could be installed
# (tests/guest/setup.sh, as root); where not, the tests skip naming it.

GUEST_CACHE=${GUEST_CACHE:-/var/cache/trace-cmd-guest}
GUEST_SHARE=$TRASH/guest-share
mkdir -p "$GUEST_SHARE/cases" "$GUEST_SHARE/bin"
: >"$GUEST_SHARE/cases/list"
: >"$GUEST_SHARE/cases/env.extra"

# guest_ready: whether a guest can boot here; sets it up on first call
# (tests/guest/setup.sh; what it said is in guest-setup.log).
guest_ready() {
	if [ -z "${guest_state_:-}" ]; then
		guest_state_=unavailable
		command -v dpkg-query >/dev/null && [ -x /bin/bash ] &&
			bash "$TEST_DIR/guest/setup.sh" "$GUEST_CACHE" >"$TRASH/guest-setup.log" 2>&1 &&
			guest_state_=ready
		[ "$guest_state_" = ready ] ||
			say "no guest: $(tail -n 1 "$TRASH/guest-setup.log" 2>/dev/null)"
	fi
	[ "$guest_state_" = ready ]
}

# guest_case NAME [SNIPPET]: queues a case (the snippet from stdin if not given).
guest_case() {
	if [ $# -gt 1 ]; then printf '%s\n' "$2"; else cat; fi >"$GUEST_SHARE/cases/$1"
	echo "$1" >>"$GUEST_SHARE/cases/list"
}

# guest_env SNIPPET: shell code (functions, variables) sourced before each case.
guest_env() {
	printf '%s\n' "$1" >>"$GUEST_SHARE/cases/env.extra"
}

guest_out() { echo "$GUEST_SHARE/out/$1"; }

# guest_ok NAME: the case ran and exited 0; else says how it ended.
guest_ok() {
	out=$(guest_out "$1")
	[ -f "$out/.status" ] || { echo "case $1 did not run (see guest_boot's test)"; return 1; }
	[ "$(cat "$out/.status")" = 0 ] && return 0
	echo "case $1 exited $(cat "$out/.status"):"; cat "$out/.output"
	return 1
}

# What every case starts with: a standard environment, the binaries, helpers.
guest_write_env_() {
	cp "$TRACE_CMD" "$GUEST_SHARE/bin/trace-cmd" || return 1
	up=
	[ -x "$UPSTREAM34" ] && up=$(cd "$(dirname "$UPSTREAM34")" && pwd)/$(basename "$UPSTREAM34")
	{
		echo 'export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin HOME=/tmp LC_ALL=C'
		echo "TRACE_CMD=/tmp/share/bin/trace-cmd UPSTREAM34='$up' T=/sys/kernel/tracing"
		# A sanitized build keeps its options in the guest.
		for v in TRACE_CMD_SANITIZED ASAN_OPTIONS LSAN_OPTIONS UBSAN_OPTIONS; do
			eval "[ -z \"\${$v:-}\" ] || echo \"export $v='\$$v'\""
		done
		cat "$GUEST_SHARE/cases/env.extra"
	} >"$GUEST_SHARE/cases/env"
}

# guest_net PORT COUNT [PORT COUNT]...: the next boot has qemu's user
# network; host ports 127.0.0.1:PORT to PORT+COUNT-1 reach the same ports of
# the guest, which reaches the host at 10.0.2.2.  A case serving on them may
# set the guest's ephemeral ports into a range, so what it opens is reachable.
guest_net() {
	guest_net_args_="-netdev user,id=n0"
	while [ $# -ge 2 ]; do
		for p in $(seq "$1" $(($1 + $2 - 1))); do
			guest_net_args_="$guest_net_args_,hostfwd=tcp:127.0.0.1:$p-:$p"
		done
		shift 2
	done
	guest_net_args_="$guest_net_args_ -device virtio-net-pci,netdev=n0,romfile="
}

# KVM only where /dev/kvm runs a stock kernel: a PVM host (kvm_pvm) runs
# only PVM-built guests, where a Debian kernel hangs in early boot.
guest_accel_() {
	if [ -n "${GUEST_ACCEL:-}" ]; then echo "$GUEST_ACCEL"
	elif [ -r /dev/kvm ] && [ -w /dev/kvm ] && [ ! -d /sys/module/kvm_pvm ]; then echo kvm
	else echo tcg; fi
}

# guest_qemu_ ACCEL TIMEOUT: one boot, bounded, its console in guest-serial.log.
guest_qemu_() {
	case $1 in
	kvm) qemu_accel="-accel kvm -cpu host" ;;
	# Multi-threaded TCG with two vCPUs hung now and then patching every
	# function (RCU stalls); single-threaded never did.  GUEST_CPU and
	# GUEST_APPEND: e.g. max,+invtsc and tsc=reliable keep the TSC the
	# guest's clocksource, which perf's TSC conversion needs (t8003).
	*) qemu_accel="-accel tcg,thread=${GUEST_TCG_THREAD:-single} -cpu ${GUEST_CPU:-max}" ;;
	esac
	rm -rf "$GUEST_SHARE/out" "$GUEST_SHARE/guest.log"
	# shellcheck disable=SC2086 # $qemu_accel and the network are lists of options
	timeout -k 5 "$2" qemu-system-x86_64 $qemu_accel -m 512 -smp "${GUEST_SMP:-2}" -nographic -no-reboot \
		${guest_net_args_:--nic none} -kernel "$GUEST_CACHE/vmlinux" -initrd "$GUEST_CACHE/initrd.gz" \
		-virtfs local,path="$GUEST_SHARE",mount_tag=share,security_model=none \
		-virtfs local,path=/,mount_tag=host,security_model=none,readonly=on,multidevs=remap \
		-append "console=ttyS0 quiet panic=-1 case_timeout=${GUEST_CASE_TIMEOUT:-60}${GUEST_APPEND:+ $GUEST_APPEND}" \
		</dev/null >"$TRASH/guest-serial.log" 2>&1
}

# guest_boot [TIMEOUT]: boots once and runs the queued cases (default 150 s
# for the whole boot, 60 per case, GUEST_CASE_TIMEOUT).  Says the accel, the
# boot time (guest's uptime when its init started the cases) and the wall time.
guest_boot() {
	guest_ready || return 0
	guest_write_env_ || { say "cannot write the guest's environment"; return 0; }
	accel=$(guest_accel_)
	started=$(test_now)
	guest_qemu_ "$accel" "${1:-150}"
	guest_boot_status_=$?
	if [ "$accel" = kvm ] && ! grep -q booted "$GUEST_SHARE/guest.log" 2>/dev/null; then
		say "kvm did not boot the guest, TCG instead"
		accel=tcg; started=$(test_now)
		guest_qemu_ tcg "${1:-150}"
		guest_boot_status_=$?
	fi
	booted=$(sed -n 's/^\[\([0-9.]*\)\] booted.*/\1/p' "$GUEST_SHARE/guest.log" 2>/dev/null)
	say "guest: $accel, init at ${booted:-?} s, $(wc -l <"$GUEST_SHARE/cases/list") cases," \
		"$(awk "BEGIN { printf \"%.1f\", $(test_now) - $started }") s from start to power-off"
}

# guest_booted: the boot ran every case and powered off in time.
guest_booted() {
	grep -q '\] done$' "$GUEST_SHARE/guest.log" 2>/dev/null && [ "$guest_boot_status_" = 0 ] &&
		return 0
	echo "the guest did not finish (qemu exit ${guest_boot_status_:-none}):"
	cat "$GUEST_SHARE/guest.log" 2>/dev/null
	tail -n 30 "$TRASH/guest-serial.log"
	return 1
}
