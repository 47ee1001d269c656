# SPDX-License-Identifier: GPL-2.0
# The built-in scenarios of mkdat.py: each returns a JSON-able spec (the same
# shape `mkdat.py SPEC.json OUT` reads).  Timestamps are nanoseconds; values
# of pointer fields may be symbol names looked up in the spec's kallsyms.

T0 = 12345678901000		# 12345.678901 s, a plausible uptime

CMDLINES = [[1234, "bash"], [45, "kworker/1:1"], [1300, "cat"]]


def kallsyms(long_size, extra=""):
	hi = "ffffffff8" if long_size == 8 else "c"
	syms = [("1000000", "T", "_stext"), ("1001000", "T", "schedule"),
		("1002000", "T", "do_IRQ"), ("1003000", "T", "tracing_mark_write"),
		("1004000", "T", "try_to_wake_up")]
	return "".join("%s%s %s %s\n" % (hi, a, t, n) for a, t, n in syms) + extra


def printk(long_size):
	addr = "0xffffffff82000000" if long_size == 8 else "0xc2000000"
	return '%s : "value=%%d count=%%d\\n"\n' % addr


def switch(cpu, ts, prev, ppid, state, nxt, npid, prio=120, **kw):
	r = {"cpu": cpu, "ts": ts, "event": "sched_switch", "pid": ppid,
	     "fields": {"prev_comm": prev, "prev_pid": ppid, "prev_prio": prio,
			"prev_state": state, "next_comm": nxt, "next_pid": npid,
			"next_prio": prio}}
	r.update(kw)
	return r


def wakeup(cpu, ts, pid, comm, target, waker=0, **kw):
	r = {"cpu": cpu, "ts": ts, "event": "sched_wakeup", "pid": waker,
	     "flags": 0x1, "preempt": 1,
	     "fields": {"comm": comm, "pid": pid, "prio": 120, "target_cpu": target}}
	r.update(kw)
	return r


def marker(cpu, ts, pid, text, **kw):
	r = {"cpu": cpu, "ts": ts, "event": "print", "pid": pid,
	     "fields": {"ip": "tracing_mark_write", "buf": text}}
	r.update(kw)
	return r


def sched_records():
	"""Two CPUs of scheduling: every record encoding the ring buffer has."""
	return [
		wakeup(0, T0, 1234, "bash", 0),
		switch(0, T0 + 5000, "swapper/0", 0, 0, "bash", 1234),
		marker(0, T0 + 20000, 1234, "hello world\n"),
		# a gap of 200 ms needs a time-extend record (delta > 27 bits)
		marker(0, T0 + 200020000, 1234, "after a long gap\n"),
		{"cpu": 0, "ts": T0 + 200030000, "event": "bprint", "pid": 1234,
		 "fields": {"ip": "tracing_mark_write",
			    "fmt": "value=%d count=%d\\n", "buf": [42, 7]}},
		# need-resched and irqs-off, preempt depth 2: report -l shows them
		switch(0, T0 + 200040000, "bash", 1234, 1, "swapper/0", 0,
		       flags=0x5, preempt=2),
		wakeup(1, T0 + 1000, 45, "kworker/1:1", 1),
		# the length in array[0] (type_len 0), as for records over 112 bytes
		switch(1, T0 + 3000, "swapper/1", 0, 0, "kworker/1:1", 45,
		       type_len0=True),
		# a discarded record (padding) between two records
		{"cpu": 1, "ts": T0 + 3500, "padding": 24},
		# an absolute timestamp record, then a forced time extend
		wakeup(1, T0 + 9000, 1300, "cat", 1, waker=45, absolute=True),
		switch(1, T0 + 10000, "kworker/1:1", 45, 0x80, "cat", 1300,
		       extend=True),
		marker(1, T0 + 12000, 1300, "from cat on cpu1\n", flags=0x10),
	]


def sched(endian, long_size, klong=None):
	"""klong: the kernel's long size when userspace's differs (the file
	header says long_size, header_page and the formats say klong)."""
	klong = klong or long_size
	return {"endian": endian, "long_size": long_size,
		"kernel_long_size": klong, "cpus": 2,
		"events": ["sched_switch", "sched_wakeup", "print", "bprint"],
		"kallsyms": kallsyms(klong), "printk": printk(klong),
		"cmdlines": CMDLINES, "records": sched_records()}


def dropped():
	"""Pages whose commit says the kernel lost events before them."""
	recs = [marker(0, T0, 1234, "first page\n"),
		marker(0, T0 + 1000, 1234, "still first page\n"),
		{"cpu": 0, "missed": 17},
		marker(0, T0 + 50000, 1234, "after 17 lost\n"),
		{"cpu": 0, "missed": -1},
		marker(0, T0 + 90000, 1234, "after an unknown number lost\n"),
		marker(1, T0 + 70000, 1300, "cpu1 before loss\n"),
		{"cpu": 1, "missed": 3},
		marker(1, T0 + 95000, 1300, "cpu1 after 3 lost\n")]
	return {"cpus": 2, "events": ["print"], "kallsyms": kallsyms(8),
		"cmdlines": CMDLINES, "records": recs}


def instances():
	"""The top buffer and an instance "foo", each with its own CPU data."""
	top = [wakeup(0, T0, 1234, "bash", 0),
	       switch(0, T0 + 5000, "swapper/0", 0, 0, "bash", 1234),
	       marker(1, T0 + 7000, 45, "top buffer\n")]
	foo = [marker(0, T0 + 2000, 1234, "in instance foo\n"),
	       switch(1, T0 + 6000, "swapper/1", 0, 0, "kworker/1:1", 45)]
	return {"cpus": 2, "events": ["sched_switch", "sched_wakeup", "print"],
		"kallsyms": kallsyms(8), "cmdlines": CMDLINES,
		"buffers": [{"name": "", "records": top},
			    {"name": "foo", "records": foo}]}


EXT4 = ("ffffffff81100000 T do_syscall_64\n"
	"ffffffff81100400 T __x64_sys_write\n"
	"ffffffff81100800 T ksys_write\n"
	"ffffffff81200000 T vfs_write\n"
	"ffffffff81200400 T rw_verify_area\n"
	"ffffffff81300000 T handle_irq_event\n"
	"ffffffff81300400 T __x64_sys_read\n"
	"ffffffffc0400000 t ext4_file_write_iter\t[ext4]\n"
	"ffffffffc0400800 t ext4_buffered_write_iter\t[ext4]\n"
	"ffffffffc0401000 t ext4_da_write_begin\t[ext4]\n")


def fn(ts, ip, parent, pid=1234, cpu=0):
	return {"cpu": cpu, "ts": ts, "event": "function", "pid": pid,
		"fields": {"ip": ip, "parent_ip": parent}}


def function():
	"""function tracer records; CPU 1 is empty."""
	recs = [fn(T0, "ksys_write", "__x64_sys_write+0x1c"),
		fn(T0 + 300, "vfs_write", "ksys_write+0x7d"),
		fn(T0 + 600, "rw_verify_area", "vfs_write+0x9a"),
		fn(T0 + 900, "ext4_file_write_iter", "vfs_write+0x1f0"),
		fn(T0 + 1200, "ext4_buffered_write_iter",
		   "ext4_file_write_iter+0x58"),
		fn(T0 + 1500, "ext4_da_write_begin",
		   "ext4_buffered_write_iter+0x110"),
		fn(T0 + 2000, "do_IRQ", 0xffffffff81999999)]	# no symbol
	return {"cpus": 2, "events": ["function"],
		"kallsyms": kallsyms(8, EXT4), "cmdlines": CMDLINES,
		"records": recs}


def entry(ts, func, depth, pid=1234, cpu=0):
	return {"cpu": cpu, "ts": ts, "event": "funcgraph_entry", "pid": pid,
		"fields": {"func": func, "depth": depth}}


def exit_(start, end, func, depth, pid=1234, cpu=0):
	return {"cpu": cpu, "ts": end, "event": "funcgraph_exit", "pid": pid,
		"fields": {"func": func, "depth": depth, "overrun": 0,
			   "calltime": start, "rettime": end}}


def funcgraph():
	"""function_graph records: leaves, nesting, every duration marker, an
	exit whose entry is before the trace, an irq inside a graph."""
	t = T0
	recs = [exit_(t - 5000, t, "__x64_sys_read", 0)]	# entry not recorded
	recs += [entry(t + 1000, "vfs_write", 0),
		 entry(t + 1200, "rw_verify_area", 1),
		 exit_(t + 1200, t + 1700, "rw_verify_area", 1),	# 0.5 us leaf
		 entry(t + 2000, "ext4_file_write_iter", 1),
		 entry(t + 2100, "ext4_buffered_write_iter", 2),
		 exit_(t + 2100, t + 17100, "ext4_buffered_write_iter", 2),  # + 15us
		 exit_(t + 2000, t + 152000, "ext4_file_write_iter", 1),    # ! 150us
		 entry(t + 160000, "do_IRQ", 1),
		 {"cpu": 0, "ts": t + 160500, "event": "irq_handler_entry",
		  "pid": 1234, "flags": 0x9,
		  "fields": {"irq": 1, "name": "i8042"}},
		 entry(t + 161000, "handle_irq_event", 2),
		 exit_(t + 161000, t + 1661000, "handle_irq_event", 2),    # # 1.5ms
		 {"cpu": 0, "ts": t + 1662000, "event": "irq_handler_exit",
		  "pid": 1234, "flags": 0x9, "fields": {"irq": 1, "ret": 1}},
		 exit_(t + 160000, t + 21000000, "do_IRQ", 1),           # * 20.8ms
		 exit_(t + 1000, t + 250000000, "vfs_write", 0),          # @ 250ms
		 entry(t + 300000000, "ksys_write", 0),
		 exit_(t + 300000000, t + 1800000000, "ksys_write", 0)]   # $ 1.5s
	return {"cpus": 1,
		"events": ["funcgraph_entry", "funcgraph_exit",
			   "irq_handler_entry", "irq_handler_exit"],
		"kallsyms": kallsyms(8, EXT4), "cmdlines": CMDLINES,
		"records": recs}


def funcgraph_2cpu():
	"""funcgraph plus cat on CPU 1 at the same time: a leaf, then calls still
	running at the end of the trace (entries without exits).  Upstream 3.1.6
	shows a leaf as "f() {" ... "}" when another CPU's record falls between
	its entry and exit."""
	spec = funcgraph()
	t = T0
	spec["cpus"] = 2
	spec["records"] += [
		entry(t + 1100, "vfs_write", 0, 1300, 1),
		entry(t + 1400, "rw_verify_area", 1, 1300, 1),
		exit_(t + 1400, t + 2300, "rw_verify_area", 1, 1300, 1),
		entry(t + 2600, "ext4_file_write_iter", 1, 1300, 1),
		entry(t + 2900, "ext4_da_write_begin", 2, 1300, 1)]
	return spec


LATENCY = """# tracer: irqsoff
#
# irqsoff latency trace v1.1.5 on 6.18.0
# --------------------------------------------------------------------
# latency: 12 us, #4/4, CPU#0 | (M:desktop VP:0, KP:0, SP:0 HP:0 #P:2)
#    -----------------
#    | task: bash-1234 (uid:0 nice:0 policy:0 rt_prio:0)
#    -----------------
#  => started at: _raw_spin_lock_irqsave
#  => ended at:   _raw_spin_unlock_irqrestore
#
#
#                    _------=> CPU#
#                   / _-----=> irqs-off/BH-disabled
#                  | / _----=> need-resched
#                  || / _---=> hardirq/softirq
#                  ||| / _--=> preempt-depth
#                  |||| / _-=> migrate-disable
#                  ||||| /     delay
#  cmd     pid     |||||| time  |   caller
#     \\   /        ||||||  \\    |    /
    bash-1234      0d....    0us : _raw_spin_lock_irqsave
    bash-1234      0d..1.    3us : do_raw_spin_lock <-_raw_spin_lock_irqsave
    bash-1234      0d..1.   11us : _raw_spin_unlock_irqrestore
    bash-1234      0d....   12us : trace_hardirqs_on <-_raw_spin_unlock_irqrestore
"""


def latency(traceclock=False):
	"""A latency tracer's file: the text of `trace` instead of pages."""
	return {"cpus": 2, "events": ["sched_switch"], "kallsyms": kallsyms(8),
		"cmdlines": CMDLINES, "latency": LATENCY,
		"traceclock": traceclock}


def pages():
	"""8 KB pages filled to overflow, a second page, records over 112 bytes
	(their length in array[0]); the commits end at the last record, with
	no tail padding."""
	recs = []
	t = T0
	for i in range(150):
		text = "line %03d %s\n" % (i, "x" * (20 if i % 10 else 120))
		recs.append(marker(0, t, 1234, text))
		t += 1000 + 37 * i
	recs.append(marker(1, T0 + 500, 1300, "the only one on cpu1\n"))
	return {"page_size": 8192, "cpus": 2, "events": ["print"], "tail_padding": False,
		"kallsyms": kallsyms(8), "cmdlines": CMDLINES, "records": recs}


def chunks():
	"""2,000 markers on each of two CPUs: 4 KB pages, so a compressed file
	has 3 chunks a CPU (mkdat.py's 10 pages each)."""
	recs = [marker(c, T0 + 1000 * i + c, 1234, "line %05d on cpu %d\n" % (i, c))
		for i in range(2000) for c in (0, 1)]
	return {"cpus": 2, "events": ["print"], "kallsyms": kallsyms(8), "cmdlines": CMDLINES,
		"records": recs}


def options():
	"""The sched records with the options that change or describe them:
	DATE shifts every timestamp, TRACEID, PROCMAPS, and an option id no
	reader knows (skipped by its size)."""
	spec = sched("little", 8)
	spec.update({"date": "0x5f5e100", "traceid": 0x1122334455667788,
		     "procmaps": "4d2 1 bash\n555555554000 5555555f2000 /usr/bin/bash\n",
		     "extra_options": [[99, "an option from the future"]],
		     "uname": "Linux synth-options 6.18.0-test x86_64"})
	return spec


# events/irq/softirq_entry/format of a 6.18 x86_64 kernel, given as text
SOFTIRQ_ENTRY = (
	'name: softirq_entry\n'
	'ID: 223\n'
	'format:\n'
	'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
	'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
	'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
	'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n'
	'\n'
	'\tfield:unsigned int vec;\toffset:8;\tsize:4;\tsigned:0;\n'
	'\n'
	'print fmt: "vec=%u [action=%s]", REC->vec, __print_symbolic(REC->vec, { 0, "HI" }, '
	'{ 1, "TIMER" }, { 2, "NET_TX" }, { 3, "NET_RX" }, '
	'{ 4, "BLOCK" }, { 5, "IRQ_POLL" }, { 6, "TASKLET" }, '
	'{ 7, "SCHED" }, { 8, "HRTIMER" }, { 9, "RCU" })\n'
)


def custom():
	"""An event format given as text (not from the catalogue), merged into
	the irq system next to a catalogue event."""
	recs = [{"cpu": 0, "ts": T0 + 1000 * i, "event": "softirq_entry",
		 "pid": 0, "flags": 0x10, "fields": {"vec": vec}}
		for i, vec in enumerate([7, 9, 1, 12])]
	recs.append({"cpu": 0, "ts": T0 + 9000, "event": "irq_handler_entry",
		     "pid": 0, "flags": 0x9, "fields": {"irq": 24, "name": "virtio0"}})
	return {"events": ["irq_handler_entry"],
		"formats": {"irq": [SOFTIRQ_ENTRY]}, "kallsyms": kallsyms(8),
		"records": recs}


def kmem_format(name, ident):
	return ('name: %s\n' % name +
		'ID: %d\n' % ident +
		'format:\n'
	'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
	'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
	'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
	'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n'
	'\n'
		'\tfield:unsigned long call_site;\toffset:8;\tsize:8;\tsigned:0;\n'
		'\tfield:const void * ptr;\toffset:16;\tsize:8;\tsigned:0;\n'
		'\n'
		'print fmt: "call_site=%pS ptr=%p", (void *)REC->call_site, REC->ptr\n')


RCU_UTILIZATION = (
	'name: rcu_utilization\n'
	'ID: 612\n'
	'format:\n'
	'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
	'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
	'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
	'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n'
	'\n'
	'\tfield:const char * s;\toffset:8;\tsize:8;\tsigned:0;\n'
	'\n'
	'print fmt: "%s", REC->s\n'
)


def plugins():
	"""Events libtraceevent's plugins print (kmem's call_site prefix) and a
	%s of a pointer to a printk string, known and unknown."""
	def rec(i, event, fields):
		return {"cpu": 0, "ts": T0 + 1000 * i, "event": event, "pid": 1234,
			"fields": fields}
	recs = [rec(0, "kmem_cache_alloc", {"call_site": "schedule+0x24", "ptr": 0xffff888100001000}),
		rec(1, "kmem_cache_alloc", {"call_site": 0x1234, "ptr": 0}),
		rec(2, "kfree", {"call_site": "do_IRQ+0x8", "ptr": 0xffff888100002000}),
		rec(3, "kmem_cache_free", {"call_site": "try_to_wake_up", "ptr": 0x10}),
		rec(4, "rcu_utilization", {"s": "Start context switch"}),
		rec(5, "rcu_utilization", {"s": 0xffffffff82001000}),
		rec(6, "rcu_utilization", {"s": "End context switch"})]
	return {"formats": {"kmem": [kmem_format("kmem_cache_alloc", 610), kmem_format("kfree", 611),
				     kmem_format("kmem_cache_free", 613)],
			    "rcu": [RCU_UTILIZATION]},
		"kallsyms": kallsyms(8), "cmdlines": CMDLINES,
		"printk": printk(8) + '0xffffffff82000100 : "Start context switch"\n'
			  '0xffffffff82000200 : "End context switch"\n', "records": recs}


COMMON_FIELDS = (
	'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
	'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
	'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
	'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n'
	'\n')

# A literal tab in the print fmt: libtraceevent 1.7 fails to parse it (as it
# does maple_tree's ma_read) and prints "[FAILED TO PARSE]" and every field.
FAILED_NUMBERS = (
	'name: fail_numbers\n'
	'ID: 2330\n'
	'format:\n' + COMMON_FIELDS +
	'\tfield:const char * fn;\toffset:8;\tsize:8;\tsigned:0;\n'
	'\tfield:void * node;\toffset:16;\tsize:8;\tsigned:0;\n'
	'\tfield:unsigned long min;\toffset:24;\tsize:8;\tsigned:0;\n'
	'\tfield:long sl;\toffset:32;\tsize:8;\tsigned:1;\n'
	'\tfield:unsigned long long ull;\toffset:40;\tsize:8;\tsigned:0;\n'
	'\tfield:s64 s64;\toffset:48;\tsize:8;\tsigned:1;\n'
	'\tfield:long sl4;\toffset:56;\tsize:4;\tsigned:1;\n'
	'\tfield:int si;\toffset:60;\tsize:4;\tsigned:1;\n'
	'\tfield:unsigned int ui;\toffset:64;\tsize:4;\tsigned:0;\n'
	'\tfield:short ss;\toffset:68;\tsize:2;\tsigned:1;\n'
	'\tfield:unsigned short us;\toffset:70;\tsize:2;\tsigned:0;\n'
	'\tfield:signed char sc;\toffset:72;\tsize:1;\tsigned:1;\n'
	'\tfield:unsigned char uc;\toffset:73;\tsize:1;\tsigned:0;\n'
	'\n'
	'print fmt: "%s\tNode: %p (%lu)", REC->fn, (void *) REC->node, (unsigned long) REC->min\n')

FAILED_ARRAY = (
	'name: fail_array\n'
	'ID: 2331\n'
	'format:\n' + COMMON_FIELDS +
	'\tfield:char comm[16];\toffset:8;\tsize:16;\tsigned:0;\n'
	'\tfield:int si;\toffset:24;\tsize:4;\tsigned:1;\n'
	'\n'
	'print fmt: "%s\tx=%d", REC->comm, REC->si\n')


def failed():
	"""Formats libtraceevent fails to parse: the field list it prints
	instead, numbers of every size, signedness and kind, and an array."""
	small = {"fn": 0xffffffff8251e900, "node": 0, "min": 0, "sl": 5, "ull": 7,
		 "s64": 1, "sl4": 9, "si": 3, "ui": 4, "ss": 2, "us": 6, "sc": 1, "uc": 8}
	neg = {"fn": 0, "node": 0xffff888100001000, "min": (1 << 64) - 1, "sl": -5,
	       "ull": (1 << 64) - 1, "s64": -1234567890123, "sl4": -9, "si": -300000,
	       "ui": 4000000000, "ss": -12345, "us": 65535, "sc": -100, "uc": 255}
	recs = [{"cpu": 0, "ts": T0 + 1000 * i, "event": "fail_numbers", "pid": 1234,
		 "fields": f} for i, f in enumerate([small, neg])]
	recs.append({"cpu": 0, "ts": T0 + 3000, "event": "fail_array", "pid": 1234,
		     "fields": {"comm": "bash", "si": -1}})
	return {"formats": {"maple_tree": [FAILED_NUMBERS, FAILED_ARRAY]},
		"kallsyms": kallsyms(8), "cmdlines": CMDLINES, "records": recs}


# A host and its guest, both on the x86-tsc clock of a 2 GHz TSC (TSC2NSEC:
# ns = ticks * 2^23 >> 24).  The guest's TIME_SHIFT holds, per vCPU, the
# host's offset samples (host ticks = guest ticks + offset), which move
# between samples; the host's GUEST option maps the vCPUs to its tasks.
HOST_ID, GUEST_ID = 0x1122334455667788, 0x99aabbccddeeff00
TSC0 = 2 * T0			# the guest's ticks at about T0 ns of uptime
SHIFT = 1000000000000		# the host is 500 s ahead of the guest


def vm_guest(flags=1):
	recs = [marker(0, TSC0 + 0, 1234, "guest cpu0 first\n"),
		wakeup(1, TSC0 + 1500, 1300, "cat", 1),
		marker(0, TSC0 + 3000, 1234, "guest cpu0 between\n"),
		switch(1, TSC0 + 7000, "swapper/1", 0, 0, "cat", 1300),
		marker(0, TSC0 + 9000, 1234, "guest cpu0 at a sample\n"),
		marker(0, TSC0 + 20000, 1234, "guest cpu0 after the samples\n"),
		marker(1, TSC0 + 21000, 1300, "guest cpu1 late\n")]
	# cpu0: three samples, the offset growing by 1000 ticks per 4000;
	# cpu1: two samples of a host clock 1025/1024 times as fast (scaling
	# 1025 with 10 fraction bits), the offset going down by 4000 ticks
	cpu0 = [[TSC0 - 1000, SHIFT, 1], [TSC0 + 5000, SHIFT + 1500, 1],
		[TSC0 + 9000, SHIFT + 2500, 1]]
	off1 = SHIFT - ((TSC0 * 1025 >> 10) - TSC0)
	cpu1 = [[TSC0, off1, 1025], [TSC0 + 10000, off1 - 4000, 1025]]
	return {"cpus": 2, "clock": "x86-tsc", "traceid": GUEST_ID,
		"events": ["sched_switch", "sched_wakeup", "print"],
		"kallsyms": kallsyms(8), "cmdlines": CMDLINES, "records": recs,
		"tsc2nsec": {"mult": 2**23, "shift": 24, "offset": 0},
		"time_shift": {"trace_id": HOST_ID, "flags": flags, "cpus": [cpu0, cpu1],
			       "fractions": [[0, 0, 0], [10, 10]]}}


def vm_host():
	h = TSC0 + SHIFT
	recs = [switch(0, h - 2000, "swapper/0", 0, 0, "qemu-system-x86", 5001),
		marker(1, h + 2500, 5002, "host cpu1 while the guest runs\n"),
		switch(0, h + 22000, "qemu-system-x86", 5001, 1, "swapper/0", 0)]
	return {"cpus": 2, "clock": "x86-tsc", "traceid": HOST_ID,
		"events": ["sched_switch", "sched_wakeup", "print"],
		"kallsyms": kallsyms(8), "records": recs,
		"cmdlines": [[5001, "qemu-system-x86"], [5002, "qemu-system-x86"]],
		"tsc2nsec": {"mult": 2**23, "shift": 24, "offset": 0},
		"guests": [{"name": "guest1", "trace_id": GUEST_ID,
			    "vcpus": [[0, 5001], [1, 5002]]}]}


# A host recorded with kvm events and its guest recorded alone, before
# `attach`: neither has GUEST or TIME_SHIFT.  The host's tasks 5001 and 5002
# run vCPUs 1 and 0 of this guest; 5003 runs vCPU 0 of another guest.
KVM_FIELDS = (
	'\tfield:unsigned short common_type;\toffset:0;\tsize:2;\tsigned:0;\n'
	'\tfield:unsigned char common_flags;\toffset:2;\tsize:1;\tsigned:0;\n'
	'\tfield:unsigned char common_preempt_count;\toffset:3;\tsize:1;\tsigned:0;\n'
	'\tfield:int common_pid;\toffset:4;\tsize:4;\tsigned:1;\n\n')

KVM_ENTRY = (
	'name: kvm_entry\nID: 1701\nformat:\n' + KVM_FIELDS +
	'\tfield:unsigned int vcpu_id;\toffset:8;\tsize:4;\tsigned:0;\n'
	'\tfield:unsigned long rip;\toffset:16;\tsize:8;\tsigned:0;\n'
	'\tfield:u32 intr_info;\toffset:24;\tsize:4;\tsigned:0;\n'
	'\tfield:u32 error_code;\toffset:28;\tsize:4;\tsigned:0;\n'
	'\n'
	'print fmt: "vcpu %u, rip 0x%lx intr_info 0x%08x error_code 0x%08x", '
	'REC->vcpu_id, REC->rip, REC->intr_info, REC->error_code\n')

KVM_EXIT = (
	'name: kvm_exit\nID: 1700\nformat:\n' + KVM_FIELDS +
	'\tfield:unsigned int exit_reason;\toffset:8;\tsize:4;\tsigned:0;\n'
	'\tfield:unsigned long guest_rip;\toffset:16;\tsize:8;\tsigned:0;\n'
	'\tfield:u32 isa;\toffset:24;\tsize:4;\tsigned:0;\n'
	'\tfield:unsigned int vcpu_id;\toffset:28;\tsize:4;\tsigned:0;\n'
	'\n'
	'print fmt: "vcpu %u reason %u rip 0x%lx isa %u", '
	'REC->vcpu_id, REC->exit_reason, REC->guest_rip, REC->isa\n')


KVM_WRITE_TSC_OFFSET = (
	'name: kvm_write_tsc_offset\nID: 1720\nformat:\n' + KVM_FIELDS +
	'\tfield:unsigned int vcpu_id;\toffset:8;\tsize:4;\tsigned:0;\n'
	'\tfield:__u64 previous_tsc_offset;\toffset:16;\tsize:8;\tsigned:0;\n'
	'\tfield:__u64 next_tsc_offset;\toffset:24;\tsize:8;\tsigned:0;\n'
	'\n'
	'print fmt: "vcpu=%u prev=%llu next=%llu", '
	'REC->vcpu_id, REC->previous_tsc_offset, REC->next_tsc_offset\n')


def kvm_write_tsc_offset(cpu, ts, pid, vcpu, prev, nxt):
	return {"cpu": cpu, "ts": ts, "event": "kvm_write_tsc_offset", "pid": pid,
		"fields": {"vcpu_id": vcpu, "previous_tsc_offset": prev,
			   "next_tsc_offset": nxt}}


def kvm_entry(cpu, ts, pid, vcpu, rip=0x7f3a12c01000):
	return {"cpu": cpu, "ts": ts, "event": "kvm_entry", "pid": pid,
		"fields": {"vcpu_id": vcpu, "rip": rip}}


def kvm_exit(cpu, ts, pid, vcpu, reason=1, rip=0x7f3a12c01004):
	return {"cpu": cpu, "ts": ts, "event": "kvm_exit", "pid": pid,
		"fields": {"exit_reason": reason, "vcpu_id": vcpu,
			   "guest_rip": rip, "isa": 1}}


def attach_host():
	h = TSC0 + SHIFT
	recs = [switch(0, h - 2000, "swapper/0", 0, 0, "qemu-system-x86", 5002),
		kvm_entry(0, h - 1500, 5002, 0),
		kvm_exit(1, h - 1000, 5003, 0, 30),
		kvm_exit(0, h + 1000, 5002, 0),
		kvm_entry(1, h + 2000, 5001, 1),
		marker(1, h + 2500, 5001, "host cpu1 while the guest runs\n"),
		kvm_exit(1, h + 3000, 5001, 1, 48),
		kvm_entry(0, h + 4000, 5002, 0),
		switch(0, h + 22000, "qemu-system-x86", 5002, 1, "swapper/0", 0)]
	return {"cpus": 2, "clock": "x86-tsc", "traceid": HOST_ID,
		"events": ["sched_switch", "print"],
		"formats": {"kvm": [KVM_EXIT, KVM_ENTRY]},
		"kallsyms": kallsyms(8), "records": recs,
		"cmdlines": [[5001, "qemu-system-x86"], [5002, "qemu-system-x86"],
			     [5003, "qemu-system-x86"]],
		"tsc2nsec": {"mult": 2**23, "shift": 24, "offset": 0}}


def attach_host_tsc():
	"""attach-host with KVM's writes of the guest's TSC offsets (guest ticks =
	host ticks + offset): both vCPUs SHIFT behind from the start (written by
	QEMU's main task 5000), vCPU 1 4000 ticks further from host tick
	TSC0 + SHIFT + 10000 (guest tick TSC0 + 6000); 5003's guest is another."""
	h = TSC0 + SHIFT
	spec = attach_host()
	spec["formats"]["kvm"].append(KVM_WRITE_TSC_OFFSET)
	spec["records"] += [
		kvm_write_tsc_offset(0, h - 9000, 5000, 0, 0, -SHIFT),
		kvm_write_tsc_offset(0, h - 8000, 5000, 1, 0, -SHIFT),
		kvm_write_tsc_offset(1, h - 7000, 5003, 1, 0, -7),
		kvm_write_tsc_offset(1, h + 10000, 5001, 1, -SHIFT, -SHIFT - 4000)]
	spec["records"].sort(key=lambda r: r["ts"])
	spec["cmdlines"].append([5000, "qemu-system-x86"])
	return spec


def attach_guest():
	g = vm_guest()
	del g["time_shift"], g["tsc2nsec"]
	return g


# vm-host's kvm events with rips in its guest's kernel (vm-guest, with a
# kallsyms of its own): report -i host -i guest names the guest's function
# at each rip of a vCPU task (5001, 5002), never the host's own; 5003 runs
# no vCPU of this guest.  Rips at a function, inside one, below the first
# symbol, past the last, and one the host's kallsyms names differently.
GUEST_KALLSYMS = ("ffffffff81000000 T _stext\n"
		  "ffffffff81003000 T tracing_mark_write\n"
		  "ffffffff81a00000 T default_idle\n"
		  "ffffffff81a00040 t native_safe_halt\n"
		  "ffffffff81b00000 T guest_last_fn\n")


def kvm_rip_guest():
	g = vm_guest()
	g["kallsyms"] = GUEST_KALLSYMS
	return g


def kvm_rip_host():
	h = TSC0 + SHIFT
	spec = vm_host()
	spec["formats"] = {"kvm": [KVM_EXIT, KVM_ENTRY]}
	spec["records"] += [
		kvm_entry(0, h - 1500, 5001, 0, 0xffffffff81a00040),
		kvm_exit(0, h + 1000, 5001, 0, 1, 0xffffffff81a00044),
		kvm_exit(1, h + 1200, 5002, 1, 48, 0xffffffff81001004),
		kvm_entry(1, h + 1400, 5002, 1, 0x7f3a12c01000),
		kvm_exit(1, h + 1600, 5003, 0, 30, 0xffffffff81a00044),
		kvm_exit(0, h + 3000, 5001, 0, 12, 0xffffffff81b00010),
		kvm_exit(0, h + 3500, 5001, 0, 12, 0xffffffff81a0003f),
		kvm_entry(0, h + 4000, 5001, 0, 0xffffffff81000000)]
	spec["records"].sort(key=lambda r: r["ts"])
	spec["cmdlines"].append([5003, "qemu-system-x86"])
	return spec


SCENARIOS = {
	"sched": lambda: sched("little", 8),
	"sched-be64": lambda: sched("big", 8),
	"sched-le32": lambda: sched("little", 4),
	"sched-be32": lambda: sched("big", 4),
	"sched-u32k64": lambda: sched("little", 4, 8),
	"custom": custom,
	"failed": failed,
	"plugins": plugins,
	"plugins-be64": lambda: dict(plugins(), endian="big"),
	"dropped": dropped,
	"options": options,
	"pages": pages,
	"chunks": chunks,
	"instances": instances,
	"function": function,
	"funcgraph": funcgraph,
	"funcgraph-2cpu": funcgraph_2cpu,
	"latency": latency,
	"latency-clock": lambda: latency(True),
	"vm-guest": vm_guest,
	"vm-guest-step": lambda: vm_guest(0),
	"vm-host": vm_host,
	"attach-host": attach_host,
	"attach-host-tsc": attach_host_tsc,
	"attach-guest": attach_guest,
	"kvm-rip-host": kvm_rip_host,
	"kvm-rip-guest": kvm_rip_guest,
}


def scenario(name, overrides):
	if name not in SCENARIOS:
		raise KeyError("unknown scenario '%s'" % name)
	spec = SCENARIOS[name]()
	spec.update(overrides)
	return spec
