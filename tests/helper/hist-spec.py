#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""hist-spec.py [mix|empty|top] [VERSION COMPRESSION]: prints a mkdat.py spec (JSON) whose records
walk every path of hist: events with and without their kernel stack (one
ending at the record's end, one at the -1 mark), a stack of another task
than its event's, function records nesting, returning and switching tasks,
a function stack (--func-stack), function_graph calls and returns at a
depth the stack does not hold, lost events, a task named by sched_wakeup,
two symbols of one name, and two instances (the top buffer, which hist
leaves out when instances exist, holds one record).

  mix    the instances "one" and "two"
  empty  the same and a third instance with no record (hist fails on it)
  top    the records of both instances in the top buffer, no instance
  broken a function record whose format has no parent_ip
VERSION 6 (the default) or 7, COMPRESSION none (the default), zlib or zstd.
"""
import json
import sys

KALLSYMS = """ffffffff81000000 T _stext
ffffffff81001000 T schedule
ffffffff81002000 T do_IRQ
ffffffff81003000 T tracing_mark_write
ffffffff81004000 T try_to_wake_up
ffffffff81100000 T do_syscall_64
ffffffff81100400 T __x64_sys_write
ffffffff81100800 T ksys_write
ffffffff81200000 T vfs_write
ffffffff81200400 T rw_verify_area
ffffffff81300000 T handle_irq_event
ffffffff81300400 T __x64_sys_read
ffffffff81400000 t helper
ffffffff81400400 t helper
ffffffffc0400000 t ext4_file_write_iter\t[ext4]
"""

# The common fields of every format.
COMMON_FIELDS = """\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;
\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;
\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;
\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;
"""

# The kernel's kernel_stack, its callers a flexible array after the fixed
# fields (mkdat.py writes arrays only there), at the kernel's offset 16.
KERNEL_STACK = """name: kernel_stack
ID: 4
format:
""" + COMMON_FIELDS + """
\tfield:int size;\toffset:8;\tsize:4;\tsigned:1;
\tfield:int pad;\toffset:12;\tsize:4;\tsigned:1;
\tfield:unsigned long caller[0];\toffset:16;\tsize:0;\tsigned:0;

print fmt: "\\t=> %ps\\n", (void *)REC->caller[0]
"""

# The function format as a damaged file could hold it.
FUNCTION_WITHOUT_PARENT = """name: function
ID: 1
format:
""" + COMMON_FIELDS + """
\tfield:unsigned long ip;\toffset:8;\tsize:8;\tsigned:0;

print fmt: " %ps", (void *)REC->ip
"""
STACK_END = 0xffffffffffffffff
now = [1000000]


def rec(cpu, event, common_pid, **fields):
	now[0] += 1000
	return {"cpu": cpu, "ts": now[0], "event": event, "pid": common_pid, "fields": fields}


def func(cpu, pid, ip, parent):
	return rec(cpu, "function", pid, ip=ip, parent_ip=parent)


def stack(cpu, pid, *callers, end=True):
	return rec(cpu, "kernel_stack", pid, size=len(callers),
		   caller=list(callers) + ([STACK_END] if end else []))


def switch(cpu, prev, prev_pid, nxt, next_pid):
	return rec(cpu, "sched_switch", prev_pid, prev_comm=prev, prev_pid=prev_pid, prev_prio=120,
		   prev_state=0, next_comm=nxt, next_pid=next_pid, next_prio=120)


def mark(cpu, pid):
	return rec(cpu, "print", pid, ip="tracing_mark_write", buf="x\n")


def entry(cpu, pid, f, depth):
	return rec(cpu, "funcgraph_entry", pid, func=f, depth=depth)


def ret(cpu, pid, f, depth):
	return rec(cpu, "funcgraph_exit", pid, func=f, depth=depth, overrun=0, calltime=1, rettime=2)


def wakeup(cpu, comm, pid):
	return rec(cpu, "sched_wakeup", 0, comm=comm, pid=pid, prio=120, target_cpu=0)


def instance_one():
	return [
		switch(0, "swapper/0", 0, "bash", 1234), stack(0, 0, "schedule+0x10", "do_syscall_64+0x20"),
		func(0, 1234, "ksys_write", "__x64_sys_write+0x1c"), func(0, 1234, "vfs_write", "ksys_write+0x7d"),
		stack(0, 1234, "vfs_write+0x4", "ksys_write+0x7d", "do_syscall_64+0x40"),
		func(0, 1234, "rw_verify_area", "vfs_write+0x9a"),
		func(0, 1300, "do_IRQ", "handle_irq_event+0x10"),
		mark(0, 1300), mark(0, 1300), stack(0, 45, "schedule"),
		func(0, 1234, "rw_verify_area", "vfs_write+0x9a"),
		func(0, 1234, "ext4_file_write_iter", "vfs_write+0x1f0"),
		func(0, 1234, "helper", "ksys_write+0x10"),
		{"cpu": 0, "missed": 3},
		func(0, 1234, "vfs_write", "ksys_write+0x7d"),
		mark(0, 1234), stack(0, 1234, "tracing_mark_write+0x8", "vfs_write+0x10", end=False),
		mark(0, 1234), stack(0, 1234, "tracing_mark_write+0x8", "vfs_write+0x10", "ksys_write+0x7d"),
		entry(1, 45, "schedule", 0), entry(1, 45, "try_to_wake_up", 1),
		ret(1, 45, "try_to_wake_up", 1), entry(1, 45, "do_IRQ", 1), ret(1, 45, "do_IRQ", 1),
		ret(1, 45, "schedule", 0),
		wakeup(1, "newtask", 77), mark(1, 77), stack(1, 77, "helper+0x400", "do_syscall_64"),
		entry(1, 45, "schedule", 2), entry(1, 77, "vfs_write", 0), entry(1, 77, "rw_verify_area", 1),
		ret(1, 77, "rw_verify_area", 1), entry(1, 45, "do_IRQ", 3), entry(1, 77, "ksys_write", 1),
	]


def instance_two():
	return [
		mark(1, 1234), stack(1, 1234, "tracing_mark_write+0x8", "vfs_write+0x10", "ksys_write+0x7d"),
		func(1, 1300, "do_IRQ", "handle_irq_event+0x10"), stack(1, 1300, "do_IRQ+0x8", "handle_irq_event"),
		switch(0, "bash", 1234, "swapper/0", 0), mark(0, 45),
	]


def main(mode="mix", version=6, compression="none"):
	one, two = instance_one(), instance_two()
	buffers = [{"name": "", "records": [mark(0, 1234)]}, {"name": "one", "records": one},
		   {"name": "two", "records": two}]
	if mode == "empty":
		buffers.append({"name": "three", "records": []})
	elif mode == "top":
		buffers = [{"name": "", "records": one + two}]
	elif mode == "broken":
		json.dump({"kallsyms": KALLSYMS, "formats": {"ftrace": [FUNCTION_WITHOUT_PARENT]},
			   "records": [rec(0, "function", 1234, ip="vfs_write")]}, sys.stdout, indent=1)
		return
	elif mode != "mix":
		sys.exit(__doc__)
	json.dump({"version": int(version), "compression": compression, "cpus": 2, "kallsyms": KALLSYMS, "formats": {"ftrace": [KERNEL_STACK]},
		   "events": ["sched_switch", "sched_wakeup", "print", "function",
			      "funcgraph_entry", "funcgraph_exit"],
		   "cmdlines": [[1234, "bash"], [45, "kworker/1:1"], [1300, "cat"]],
		   "buffers": buffers}, sys.stdout, indent=1)


main(*sys.argv[1:])
