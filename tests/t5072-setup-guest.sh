#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='setup-guest makes the FIFOs of a guest'"'"'s vCPUs as 3.4 makes them, and attaches them with virsh'
. ./test-lib.sh

# Each run in a mount namespace of its own, over an empty /var/lib (the
# machine's own is never touched): prints the tree it made, mode and group.
# A fake virsh first on PATH logs its arguments and the XML it is given.
mkdir -p fakebin
cat >fakebin/virsh <<'EOS'
#!/bin/sh
echo "virsh $*" >>"$VIRSH_LOG"
for a; do case $a in /tmp/*) cat "$a" >>"$VIRSH_LOG"; echo >>"$VIRSH_LOG" ;; esac; done
case "$1 $VIRSH_FAIL" in vcpucount*) echo 3 ;; "attach-device yes") exit 1 ;; esac
EOS
chmod +x fakebin/virsh

in_ns() {
	bin=$1; shift
	VIRSH_LOG=$PWD/virsh.log PATH=$PWD/fakebin:$PATH unshare -m sh -c '
		mount -t tmpfs none /var/lib || exit 9
		"$0" setup-guest "$@"; rc=$?
		find /var/lib/trace-cmd -exec stat -c "%n %A %G" {} \; | sort
		exit $rc' "$bin" "$@"
}

test_expect_success 'usage: -h on stdout; a missing or bad GUEST and bad values are one-line errors, exit 2' '
	"$TRACE_CMD" setup-guest -h >out && grep -q "^usage: trace-cmd setup-guest" out &&
	check_usage 2 "trace-cmd setup-guest: no GUEST given" setup-guest &&
	check_usage 2 "trace-cmd setup-guest: invalid guest name '"'"'a/b'"'"'" setup-guest a/b &&
	check_usage 2 "trace-cmd setup-guest: invalid -c value '"'"'0'"'"': out of range (1 to 4096)" setup-guest -c 0 vm &&
	check_usage 2 "trace-cmd setup-guest: invalid -p value '"'"'9'"'"': not an octal mode" setup-guest -p 9 vm &&
	check_usage 2 "trace-cmd setup-guest: -g: no group '"'"'nosuchgroup'"'"'" setup-guest -g nosuchgroup vm &&
	check_usage 2 "trace-cmd setup-guest: unexpected argument '"'"'x'"'"'" setup-guest vm x
'

test_expect_success ROOT '-c -p -g: a FIFO pair per vCPU, their mode and group, the directories 0750' '
	in_ns "$TRACE_CMD" -c 2 -p 0640 -g daemon vm1 >tree &&
	cat >expect <<-EOF &&
	/var/lib/trace-cmd drwxr-x--- root
	/var/lib/trace-cmd/virt drwxr-x--- daemon
	/var/lib/trace-cmd/virt/vm1 drwxr-x--- daemon
	/var/lib/trace-cmd/virt/vm1/trace-pipe-cpu0.in prw-r----- daemon
	/var/lib/trace-cmd/virt/vm1/trace-pipe-cpu0.out prw-r----- daemon
	/var/lib/trace-cmd/virt/vm1/trace-pipe-cpu1.in prw-r----- daemon
	/var/lib/trace-cmd/virt/vm1/trace-pipe-cpu1.out prw-r----- daemon
	EOF
	test_cmp expect tree
'

test_expect_success ROOT 'without -c the count is virsh'"'"'s; -a attaches each pair as a virtio channel' '
	rm -f virsh.log && in_ns "$TRACE_CMD" -a vm2 >tree &&
	test $(grep -c "trace-pipe-cpu[0-2]\.\(in\|out\) prw-rw---- root$" tree) = 6 &&
	grep -qx "virsh vcpucount --maximum vm2" virsh.log &&
	test $(grep -c "^virsh attach-device --config vm2 /tmp/" virsh.log) = 3 &&
	grep -qx "  <source path='"'"'/var/lib/trace-cmd/virt/vm2/trace-pipe-cpu2'"'"'/>" virsh.log &&
	grep -qx "  <target type='"'"'virtio'"'"' name='"'"'trace-pipe-cpu2'"'"'/>" virsh.log &&
	! ls /tmp/trace-cmd-pipexml.* 2>/dev/null
'

test_expect_success ROOT 'virsh missing or refusing: a clear error, exit 1' '
	VIRSH_LOG=/dev/null PATH=/usr/bin:/bin unshare -m sh -c "mount -t tmpfs none /var/lib && \"$TRACE_CMD\" setup-guest vm3" >out 2>err;
	test $? = 1 &&
	echo "trace-cmd setup-guest: cannot tell guest '"'"'vm3'"'"''"'"'s vCPU count (virsh vcpucount: virsh is not installed): give -c" >expect &&
	test_cmp expect err &&
	VIRSH_FAIL=yes in_ns "$TRACE_CMD" -c 1 -a vm4 >tree 2>err;
	test $? = 1 &&
	echo "trace-cmd setup-guest: cannot attach vCPU 0'"'"'s FIFOs to guest '"'"'vm4'"'"' (virsh attach-device: exit 1)" >expect &&
	test_cmp expect err
'

test_expect_success ROOT 'a file in the way of a FIFO is named, not replaced' '
	unshare -m sh -c "mount -t tmpfs none /var/lib && mkdir -p /var/lib/trace-cmd/virt/vm5 &&
		echo keep >/var/lib/trace-cmd/virt/vm5/trace-pipe-cpu0.in &&
		\"$TRACE_CMD\" setup-guest -c 1 vm5; echo rc=\$?; cat /var/lib/trace-cmd/virt/vm5/trace-pipe-cpu0.in" >out 2>err &&
	grep -qx "rc=1" out && grep -qx keep out &&
	grep -q "^trace-cmd setup-guest: ./var/lib/trace-cmd/virt/vm5/trace-pipe-cpu0.in. exists and is not a FIFO" err
'

test_expect_success ROOT,UPSTREAM34 'the same tree and the same virsh calls as 3.4'"'"'s' '
	rm -f virsh.log && in_ns "$TRACE_CMD" -c 2 -p 0640 -g daemon -a vm6 >ours &&
	sed "s,/tmp/[^ ]*,TMP," virsh.log >ours.virsh &&
	rm -f virsh.log && in_ns "$UPSTREAM34" -c 2 -p 0640 -g daemon -a vm6 >theirs &&
	sed "s,/tmp/[^ ]*,TMP," virsh.log >theirs.virsh &&
	grep -v "^/var/lib/trace-cmd " ours >ours.tree && grep -v "^/var/lib/trace-cmd " theirs >theirs.tree &&
	test_cmp theirs.tree ours.tree && test_cmp theirs.virsh ours.virsh
'

test_done
