#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Synthetic trace.dat generator: the independent check on our C reader/writer.

Writes v6 and v7 files (none/zlib/zstd), either byte order, long size 4 or 8,
any page size, from a JSON spec or a built-in scenario, following
trace-cmd.dat.v6(5) and trace-cmd.dat.v7(5) (Documentation/).  It shares
no code with the C tree on purpose: a bug our reader and writer share cannot
hide from it.  Standard library only; zstd goes through the zstd(1) CLI.

usage: mkdat.py SPEC.json OUT.dat
       mkdat.py --scenario NAME [--file-version 6|7] [--compression C] OUT.dat
       mkdat.py --dump-spec NAME          (print a scenario as a JSON spec)
       mkdat.py --list-scenarios
       mkdat.py --decompress IN.dat OUT.dat [IN OUT]...  (v7 zlib/zstd -> v7 none)
       mkdat.py --make-fixtures LIST DIR  (every "scenario version compression"
                                           line of LIST as DIR/synth-*.dat)

A spec (see --dump-spec sched) is a JSON object; every key is optional:
  version 6|7, compression none|zlib|zstd, endian little|big, long_size 4|8,
  kernel_long_size (header_page and formats; defaults to long_size),
  page_size, cpus, clock, uname, traceclock (false: no TRACECLOCK option),
  tail_padding (of the top buffer's pages, see buffers),
  date ("0xHEX" microseconds), ts_offset (ns), traceid, procmaps (text),
  extra_options: [[id, "text"], ...] written as given (NUL added),
  tsc2nsec: {"mult", "shift", "offset"} (a TSC2NSEC option),
  time_shift: {"trace_id", "flags", "cpus": [[[time, offset, scaling], ...]
    per CPU], "fractions": [[bits, ...] per CPU] (optional), "cut": bytes
    left off its end} (TIME_SHIFT),
  guests: [{"name", "trace_id", "vcpus": [[cpu, host pid], ...]}] (GUEST),
  events: catalogue names (sched_switch, sched_wakeup, print, bprint,
    function, funcgraph_entry, funcgraph_exit, irq_handler_entry/exit),
  formats: {"system": ["format text", ...]} for any other event,
  header_page, header_event: texts (default: the kernel's for that layout),
  kallsyms, printk: texts; cmdlines: text or [[pid, "comm"], ...],
  latency: the text of a latency tracer's `trace` (a latency file),
  records: [...] for the top buffer, or buffers: [{"name", "records",
    "tail_padding" (false: a page's commit ends at its last record)}].
A record: {"cpu", "ts" (ns), "event", "pid", "flags", "preempt",
  "fields": {name: value}} where pointer fields may name a symbol or
  "symbol+0xOFF" and bprint's fmt a printk format; flags for the ring
  buffer: "extend" (time-extend record), "absolute" (time-stamp record),
  "type_len0" (length in array[0]).  Markers: {"cpu", "ts", "padding": N}
  (a discarded record), {"cpu", "missed": N} (next page says N events were
  lost, -1 = unknown), {"cpu", "new_page": true [, "page_ts"]}.
"""

import json
import re
import struct
import subprocess
import sys
import zlib

TS_BITS = 27
TS_MASK = (1 << TS_BITS) - 1
TYPE_PADDING, TYPE_EXTEND, TYPE_STAMP = 29, 30, 31
MAX_SMALL_DATA = 28 * 4		# type_len 1..28 covers data up to 112 bytes
MISSED_EVENTS, MISSED_STORED = 1 << 31, 1 << 30
PAGES_IN_CHUNK = 10

# v7 section/option ids (trace-cmd.dat.v7(5))
OPT_DONE, OPT_CPUSTAT, OPT_BUFFER, OPT_TRACECLOCK = 0, 2, 3, 4
OPT_DATE, OPT_UNAME, OPT_OFFSET, OPT_CPUCOUNT, OPT_VERSION = 1, 5, 7, 8, 9
OPT_PROCMAPS, OPT_TRACEID, OPT_TIME_SHIFT, OPT_GUEST, OPT_TSC2NSEC = 10, 11, 12, 13, 14
SEC_OPTIONS, SEC_STRINGS = 0, 15
SEC_HEADER, SEC_FTRACE, SEC_EVENTS, SEC_KALLSYMS = 16, 17, 18, 19
SEC_PRINTK, SEC_CMDLINES, SEC_BUFFER_TEXT = 20, 21, 22
SEC_MODULES = 25
META_SECTIONS = [(SEC_HEADER, "headers"), (SEC_FTRACE, "ftrace events"),
		 (SEC_EVENTS, "events format"), (SEC_KALLSYMS, "kallsyms"),
		 (SEC_PRINTK, "printk"), (SEC_CMDLINES, "command lines")]


class Fail(Exception):
	pass


# ---------------------------------------------------------------------------
# Event format text.  The catalogue holds the fields of the events we need
# (taken from a 6.18 x86_64 kernel's events/*/*/format); offsets and sizes are
# laid out per ABI the way the compiler lays out the kernel's entry struct:
# longs and pointers are long_size bytes, every type aligned to its size.

COMMON = [("unsigned short", "common_type", None, 0),
	  ("unsigned char", "common_flags", None, 0),
	  ("unsigned char", "common_preempt_count", None, 0),
	  ("int", "common_pid", None, 1)]

SCHED_STATES = ("(0x00000000 | 0x00000001 | 0x00000002 | 0x00000004 | "
		"0x00000008 | 0x00000010 | 0x00000020 | 0x00000040)")
SWITCH_FMT = (
	'"prev_comm=%s prev_pid=%d prev_prio=%d prev_state=%s%s ==> next_comm=%s '
	'next_pid=%d next_prio=%d", REC->prev_comm, REC->prev_pid, REC->prev_prio, '
	'(REC->prev_state & ((((S) + 1) << 1) - 1)) ? __print_flags(REC->prev_state '
	'& ((((S) + 1) << 1) - 1), "|", { 0x00000001, "S" }, { 0x00000002, "D" }, '
	'{ 0x00000004, "T" }, { 0x00000008, "t" }, { 0x00000010, "X" }, '
	'{ 0x00000020, "Z" }, { 0x00000040, "P" }, { 0x00000080, "I" }) : "R", '
	'REC->prev_state & (((S) + 1) << 1) ? "+" : "", REC->next_comm, '
	'REC->next_pid, REC->next_prio').replace("(S)", SCHED_STATES)

# name -> (system, id, fields [(type, name, array, signed)], print fmt)
# array: None = scalar, N = fixed array, 0 = flexible array, "loc" = __data_loc
CATALOGUE = {
	"sched_switch": ("sched", 372, [
		("char", "prev_comm", 16, 0), ("pid_t", "prev_pid", None, 1),
		("int", "prev_prio", None, 1), ("long", "prev_state", None, 1),
		("char", "next_comm", 16, 0), ("pid_t", "next_pid", None, 1),
		("int", "next_prio", None, 1)], SWITCH_FMT),
	"sched_wakeup": ("sched", 374, [
		("char", "comm", 16, 0), ("pid_t", "pid", None, 1),
		("int", "prio", None, 1), ("int", "target_cpu", None, 1)],
		'"comm=%s pid=%d prio=%d target_cpu=%03d", REC->comm, REC->pid, '
		'REC->prio, REC->target_cpu'),
	"irq_handler_entry": ("irq", 225, [
		("int", "irq", None, 1), ("char", "name", "loc", 0)],
		'"irq=%d name=%s", REC->irq, __get_str(name)'),
	"irq_handler_exit": ("irq", 224, [
		("int", "irq", None, 1), ("int", "ret", None, 1)],
		'"irq=%d ret=%s", REC->irq, REC->ret ? "handled" : "unhandled"'),
	"function": ("ftrace", 1, [
		("unsigned long", "ip", None, 0),
		("unsigned long", "parent_ip", None, 0),
		("unsigned long", "args", 0, 0)],
		'" %ps <-- %ps", (void *)REC->ip, (void *)REC->parent_ip'),
	"print": ("ftrace", 5, [
		("unsigned long", "ip", None, 0), ("char", "buf", 0, 0)],
		'"%ps: %s", (void *)REC->ip, REC->buf'),
	"bprint": ("ftrace", 6, [
		("unsigned long", "ip", None, 0), ("const char *", "fmt", None, 0),
		("u32", "buf", 0, 0)],
		'"%ps: %s", (void *)REC->ip, REC->fmt'),
	"funcgraph_exit": ("ftrace", 10, [
		("unsigned long", "func", None, 0),
		("unsigned int", "depth", None, 0),
		("unsigned int", "overrun", None, 0),
		("unsigned long long", "calltime", None, 0),
		("unsigned long long", "rettime", None, 0)],
		'"<-- %ps (%u) (start: %llx  end: %llx) over: %u", (void *)REC->func, '
		'REC->depth, REC->calltime, REC->rettime, REC->depth'),
	"funcgraph_entry": ("ftrace", 11, [
		("unsigned long", "func", None, 0),
		("unsigned int", "depth", None, 0),
		("unsigned long", "args", 0, 0)],
		'"--> %ps (%u)", (void *)REC->func, REC->depth'),
}


def type_size(ctype, long_size):
	sizes = {"char": 1, "unsigned char": 1, "unsigned short": 2, "int": 4,
		 "unsigned int": 4, "pid_t": 4, "u32": 4, "unsigned long long": 8,
		 "long": long_size, "unsigned long": long_size,
		 "const char *": long_size}
	return sizes[ctype]


def format_text(name, long_size):
	"""The events/SYSTEM/NAME/format text a kernel of this long size shows."""
	system, evid, fields, fmt = CATALOGUE[name]
	lines = ["name: %s" % name, "ID: %d" % evid, "format:"]
	off = 0
	for i, (ctype, fname, array, signed) in enumerate(COMMON + fields):
		if i == len(COMMON):
			lines.append("")
		if array == "loc":
			decl, size, align = "__data_loc %s[] %s" % (ctype, fname), 4, 4
		else:
			esize = type_size(ctype, long_size)
			align = esize
			if array is None:
				decl, size = "%s %s" % (ctype, fname), esize
			else:
				decl = "%s %s[%s]" % (ctype, fname, array or "")
				size = esize * array
		off = (off + align - 1) // align * align
		lines.append("\tfield:%s;\toffset:%d;\tsize:%d;\tsigned:%d;" %
			     (decl, off, size, signed))
		off += size
	lines += ["", "print fmt: %s" % fmt]
	return "\n".join(lines) + "\n"


def header_page_text(long_size, page_size):
	hdr = 8 + long_size
	return ("\tfield: u64 timestamp;\toffset:0;\tsize:8;\tsigned:0;\n"
		"\tfield: local_t commit;\toffset:8;\tsize:%d;\tsigned:1;\n"
		"\tfield: int overwrite;\toffset:8;\tsize:1;\tsigned:1;\n"
		"\tfield: char data;\toffset:%d;\tsize:%d;\tsigned:0;\n" %
		(long_size, hdr, page_size - hdr))


HEADER_EVENT = ("# compressed entry header\n"
		"\ttype_len    :    5 bits\n"
		"\ttime_delta  :   27 bits\n"
		"\tarray       :   32 bits\n"
		"\n"
		"\tpadding     : type == 29\n"
		"\ttime_extend : type == 30\n"
		"\ttime_stamp : type == 31\n"
		"\tdata max type_len  == 28\n")

FIELD_RE = re.compile(r"\tfield:(.*);\toffset:(\d+);\tsize:(\d+);\tsigned:(\d);")


class Format:
	"""An event format parsed back from its text: encoding works from the
	text, so a spec may bring its own formats."""

	def __init__(self, text):
		self.text = text
		self.name = re.search(r"^name: (\S+)", text, re.M).group(1)
		self.id = int(re.search(r"^ID: (\d+)", text, re.M).group(1))
		self.fields = []
		for m in FIELD_RE.finditer(text):
			decl = m.group(1)
			fname = re.search(r"(\w+)(\[\d*\])?$", decl).group(1)
			self.fields.append((decl, fname, int(m.group(2)),
					    int(m.group(3))))
		self.fixed = max(off + size for _, _, off, size in self.fields)


# ---------------------------------------------------------------------------
# Byte order helpers

class Order:
	def __init__(self, endian):
		self.p = "<" if endian == "little" else ">"

	def u(self, size, v):
		return struct.pack(self.p + {1: "B", 2: "H", 4: "I", 8: "Q"}[size],
				   v & ((1 << (8 * size)) - 1))

	def u16(self, v):
		return self.u(2, v)

	def u32(self, v):
		return self.u(4, v)

	def u64(self, v):
		return self.u(8, v)

	def get(self, size, data, off):
		return struct.unpack_from(
			self.p + {2: "H", 4: "I", 8: "Q"}[size], data, off)[0]


def cstr(s):
	return s.encode() + b"\0"


# ---------------------------------------------------------------------------
# Event records and ring-buffer pages

class Symbols:
	"""Name -> address from the spec's kallsyms and printk formats text."""

	def __init__(self, kallsyms, printk):
		self.addr = {}
		for line in kallsyms.splitlines():
			parts = line.split()
			if len(parts) >= 3:
				self.addr.setdefault(parts[2], int(parts[0], 16))
		for line in printk.splitlines():
			m = re.match(r'(0x[0-9a-fA-F]+) : "(.*)"$', line)
			if m:
				self.addr.setdefault(m.group(2), int(m.group(1), 16))

	def value(self, v):
		"""An integer, a symbol, "symbol+0xOFF" or a printk format."""
		if not isinstance(v, str):
			return v
		name, off = v, 0
		m = re.match(r"^(\w+)\+(0x[0-9a-fA-F]+)$", v)
		if m and m.group(1) in self.addr:
			name, off = m.group(1), int(m.group(2), 16)
		if name not in self.addr:
			raise Fail("unknown symbol or printk format '%s'" % v)
		return self.addr[name] + off


def encode_event(fmt, rec, order, long_size, syms):
	"""The data part of one record: fixed fields then dynamic data."""
	vals = dict(rec.get("fields", {}))
	vals.setdefault("common_type", fmt.id)
	vals.setdefault("common_flags", rec.get("flags", 0))
	vals.setdefault("common_preempt_count", rec.get("preempt", 0))
	vals.setdefault("common_pid", rec.get("pid", 0))
	known = {f[1] for f in fmt.fields}
	for k in vals:
		if k not in known:
			raise Fail("event '%s' has no field '%s'" % (fmt.name, k))
	data = bytearray(fmt.fixed)
	dyn = bytearray()
	for decl, fname, off, size in fmt.fields:
		if fname not in vals:
			continue
		v = vals[fname]
		if decl.startswith("__data_loc"):
			s = v.encode() + b"\0"
			where = fmt.fixed + len(dyn)
			dyn += s
			data[off:off + 4] = order.u32(len(s) << 16 | where)
		elif decl.startswith("char ") and size == 0:
			dyn += v.encode() + b"\0"
		elif decl.startswith("char "):
			s = v.encode()[:size]
			data[off:off + size] = s + bytes(size - len(s))
		elif size == 0:
			esize = 4 if decl.startswith("u32") else long_size
			for x in v:
				dyn += order.u(esize, syms.value(x))
		else:
			data[off:off + size] = order.u(size, syms.value(v))
	out = bytes(data + dyn)
	return out + bytes(-len(out) % 4)


class PageWriter:
	"""Packs one CPU's records into ring-buffer pages (kernel layout)."""

	def __init__(self, order, long_size, page_size, tail_padding=True):
		self.o, self.ls, self.ps = order, long_size, page_size
		self.tail_padding = tail_padding
		self.hdr = 8 + long_size
		self.pages = []
		self.body = None
		self.next_missed = 0

	def ev_header(self, type_len, delta):
		if self.o.p == "<":
			return self.o.u32(type_len | (delta & TS_MASK) << 5)
		return self.o.u32(type_len << 27 | (delta & TS_MASK))

	def room(self):
		return self.ps - self.hdr - len(self.body) - self.reserve

	def open_page(self, ts):
		"""Starts a page; a pending missed-events marker goes on it."""
		self.close_page()
		self.body = bytearray()
		self.page_ts = self.last = ts
		self.missed, self.next_missed = self.next_missed, 0
		# a stored missed count sits after the data: keep room for it
		self.reserve = self.ls if self.missed > 0 else 0

	def close_page(self):
		if self.body is None:
			return
		body = self.body
		left = self.ps - self.hdr - len(body) - self.reserve
		if self.tail_padding and left >= 8 and not self.reserve:
			# the kernel's tail padding: a discarded event to the page end;
			# without it the commit ends at the last record, as in pages
			# the kernel hands to a reader before they are full
			body += self.ev_header(TYPE_PADDING, 1) + self.o.u32(left - 4)
			body += bytes(left - 8)
		commit = len(body)
		flags = 0
		if self.missed:
			flags = MISSED_EVENTS
			if self.missed > 0:
				flags |= MISSED_STORED
				body += self.o.u(self.ls, self.missed)
		page = self.o.u64(self.page_ts) + self.o.u(self.ls, commit | flags)
		page += body
		self.pages.append(page + bytes(self.ps - len(page)))
		self.body = None

	def add(self, item, data):
		"""Append one record (or padding); returns False if the page is full."""
		ts = item["ts"]
		delta = ts - self.last
		if delta < 0:
			raise Fail("cpu %d: timestamp %d goes backwards" % (item["cpu"], ts))
		pre = b""
		if item.get("absolute"):
			pre = self.ev_header(TYPE_STAMP, ts) + self.o.u32(ts >> TS_BITS)
			delta = 0
		elif delta > TS_MASK or item.get("extend"):
			pre = self.ev_header(TYPE_EXTEND, delta) + self.o.u32(delta >> TS_BITS)
			delta = 0
		if "padding" in item:
			n = item["padding"]
			rec = self.ev_header(TYPE_PADDING, delta) + self.o.u32(n + 4) + bytes(n)
		elif len(data) > MAX_SMALL_DATA or item.get("type_len0"):
			rec = self.ev_header(0, delta) + self.o.u32(len(data) + 4) + data
		else:
			rec = self.ev_header(len(data) // 4, delta) + data
		if len(pre) + len(rec) > self.room():
			return False
		self.body += pre + rec
		self.last = ts
		return True


def cpu_pages(items, fmts, order, long_size, page_size, syms, tail_padding):
	"""Raw page data for one CPU's ordered list of spec records."""
	pw = PageWriter(order, long_size, page_size, tail_padding)
	for n, item in enumerate(items):
		try:
			cpu_item(pw, item, fmts, order, long_size, syms)
		except KeyError as e:
			raise Fail("cpu %d record %d: no %s" % (item["cpu"], n, e))
	pw.close_page()
	return b"".join(pw.pages)


def cpu_item(pw, item, fmts, order, long_size, syms):
	"""Adds one spec record or marker to a CPU's pages."""
	if "missed" in item or item.get("new_page"):
		pw.close_page()
		pw.next_missed = item.get("missed", 0)
		if "page_ts" in item:
			pw.open_page(item["page_ts"])
		return
	data = b""
	if "padding" not in item:
		if item["event"] not in fmts:
			raise Fail("no format for event '%s'" % item["event"])
		data = encode_event(fmts[item["event"]], item, order, long_size, syms)
	if pw.body is None:
		pw.open_page(item.get("page_ts", item["ts"]))
	if not pw.add(item, data):
		pw.open_page(item["ts"])
		if not pw.add(item, data):
			raise Fail("record at %d does not fit a page" % item["ts"])


# ---------------------------------------------------------------------------
# The model both writers take: metadata bodies, options, buffers.

class Model:
	def __init__(self):
		self.endian, self.long_size, self.page_size = "little", 8, 4096
		self.version, self.compression = 6, "none"
		self.header_page = self.header_event = ""
		self.ftrace = []		# format texts
		self.systems = []		# (system, [format texts])
		self.kallsyms = self.printk = self.cmdlines = ""
		self.options = []		# (id, payload) besides BUFFER/DONE/pointers
		self.cpus = 1
		self.cpucount = True		# write a CPUCOUNT option (v7)
		self.clock = "local"
		self.buffers = []		# {"name", "clock", "cpus": [bytes per cpu]}
		self.latency = None		# text of a latency file
		self.raw = None			# decompress: verbatim bodies by section id
		self.modules = None		# v7: /proc/modules text of a MODULES_FILE section

	def header_body(self, o):
		hp, he = self.header_page.encode(), self.header_event.encode()
		return (b"header_page\0" + o.u64(len(hp)) + hp +
			b"header_event\0" + o.u64(len(he)) + he)

	def ftrace_body(self, o):
		out = o.u32(len(self.ftrace))
		for t in self.ftrace:
			out += o.u64(len(t.encode())) + t.encode()
		return out

	def events_body(self, o):
		out = o.u32(len(self.systems))
		for system, texts in self.systems:
			out += cstr(system) + o.u32(len(texts))
			for t in texts:
				out += o.u64(len(t.encode())) + t.encode()
		return out

	def meta_bodies(self, o):
		if self.raw:
			return dict(self.raw)
		k, p, c = (s.encode() for s in (self.kallsyms, self.printk, self.cmdlines))
		return {SEC_HEADER: self.header_body(o), SEC_FTRACE: self.ftrace_body(o),
			SEC_EVENTS: self.events_body(o),
			SEC_KALLSYMS: o.u32(len(k)) + k, SEC_PRINTK: o.u32(len(p)) + p,
			SEC_CMDLINES: o.u64(len(c)) + c}


def prefix(m, o):
	return (b"\x17\x08\x44tracing" + cstr(str(m.version)) +
		bytes([0 if m.endian == "little" else 1, m.long_size]) +
		o.u32(m.page_size))


def align(n, a):
	return (n + a - 1) // a * a


def write_v6(m):
	o = Order(m.endian)
	meta = m.meta_bodies(o)
	out = bytearray(prefix(m, o))
	for sid in (SEC_HEADER, SEC_FTRACE, SEC_EVENTS, SEC_KALLSYMS, SEC_PRINTK,
		    SEC_CMDLINES):
		out += meta[sid]
	out += o.u32(m.cpus) + b"options  \0"
	for oid, payload in m.options:
		out += o.u16(oid) + o.u32(len(payload)) + payload
	patches = []
	for buf in m.buffers[1:]:
		out += o.u16(OPT_BUFFER) + o.u32(8 + len(cstr(buf["name"])))
		patches.append(len(out))
		out += o.u64(0) + cstr(buf["name"])
	out += o.u16(0)
	if m.latency is not None:
		return bytes(out + b"latency  \0" + m.latency.encode())
	for i, buf in enumerate(m.buffers):
		if i:
			out[patches[i - 1]:patches[i - 1] + 8] = o.u64(len(out))
		out += b"flyrecord\0"
		table = len(out)
		out += bytes(16 * m.cpus)
		clock = ("[%s]" % buf["clock"]).encode()
		out += o.u64(len(clock)) + clock
		for cpu in range(m.cpus):
			data = buf["cpus"][cpu] if cpu < len(buf["cpus"]) else b""
			off = 0
			if data:
				out += bytes(align(len(out), m.page_size) - len(out))
				off = len(out)
				out += data
			out[table + 16 * cpu:table + 16 * cpu + 16] = \
				o.u64(off) + o.u64(len(data))
	return bytes(out)


# ---------------------------------------------------------------------------
# Compression (v7)

def zstd_version():
	out = subprocess.run(["zstd", "--version"], capture_output=True,
			     text=True, check=True).stdout
	return re.search(r"v(\d+\.\d+\.\d+)", out).group(1)


def compress(name, data):
	if name == "zlib":
		return zlib.compress(data, 9)
	return subprocess.run(["zstd", "-q", "-c", "--no-content-size"],
			      input=data, capture_output=True, check=True).stdout


def decompress(name, data, size):
	if name == "zlib":
		out = zlib.decompress(data)
	elif name == "zstd":
		out = subprocess.run(["zstd", "-q", "-d", "-c"], input=data,
				     capture_output=True, check=True).stdout
	else:
		raise Fail("unknown compression '%s'" % name)
	if len(out) != size:
		raise Fail("%s block: %d bytes, header says %d" % (name, len(out), size))
	return out


def compress_block(m, o, data):
	"""A compressed metadata section body: csize, usize, one block."""
	c = compress(m.compression, data)
	return o.u32(len(c)) + o.u32(len(data)) + c


def compress_chunks(m, o, data, chunk):
	out = bytearray(o.u32(0))
	n = 0
	for i in range(0, len(data), chunk):
		c = compress(m.compression, data[i:i + chunk])
		out += o.u32(len(c)) + o.u32(len(data[i:i + chunk])) + c
		n += 1
	out[0:4] = o.u32(n)
	return bytes(out)


# ---------------------------------------------------------------------------
# v7 writer

class V7:
	def __init__(self, m):
		self.m, self.o = m, Order(m.endian)
		self.comp = m.compression != "none"
		self.out = bytearray()
		self.strings = bytearray()

	def string_id(self, s):
		sid = len(self.strings)
		self.strings += cstr(s)
		return sid

	def section(self, sid, desc, body, compressed):
		"""Appends a section; returns its header offset."""
		at = len(self.out)
		flags = 1 if compressed else 0
		if compressed:
			body = compress_block(self.m, self.o, body)
		self.out += (self.o.u16(sid) + self.o.u16(flags) +
			     self.o.u32(self.string_id(desc)) + self.o.u64(len(body)))
		self.out += body
		return at

	def options(self, opts):
		"""An OPTIONS section ending in DONE; returns (offset, DONE patch)."""
		body = b"".join(self.o.u16(i) + self.o.u32(len(p)) + p for i, p in opts)
		body += self.o.u16(OPT_DONE) + self.o.u32(8) + self.o.u64(0)
		at = self.section(SEC_OPTIONS, "options", body, False)
		return at, len(self.out) - 8

	def link(self, done_at, target):
		self.out[done_at:done_at + 8] = self.o.u64(target)

	def buffer_section(self, buf):
		"""BUFFER section: padding, then each CPU's data page-aligned."""
		m, o = self.m, self.o
		start = len(self.out)
		desc = "buffer flyrecord %s" % buf["name"]
		self.out += o.u16(OPT_BUFFER) + o.u16(1 if self.comp else 0)
		self.out += o.u32(self.string_id(desc)) + o.u64(0)
		cpus = []
		for cpu, data in enumerate(buf["cpus"]):
			if not data:
				continue
			if self.comp:
				data = compress_chunks(m, o, data, PAGES_IN_CHUNK * m.page_size)
			self.out += bytes(align(len(self.out), m.page_size) - len(self.out))
			cpus.append((cpu, len(self.out), len(data)))
			self.out += data
		self.out[start + 8:start + 16] = o.u64(len(self.out) - start - 16)
		opt = o.u64(start) + cstr(buf["name"]) + cstr(buf["clock"])
		opt += o.u32(m.page_size) + o.u32(len(cpus))
		for cpu, off, size in cpus:
			opt += o.u32(cpu) + o.u64(off) + o.u64(size)
		return opt

	def latency_section(self):
		m, o = self.m, self.o
		start = len(self.out)
		text = m.latency.encode()
		if self.comp:
			text = compress_chunks(m, o, text, PAGES_IN_CHUNK * m.page_size)
		self.out += o.u16(SEC_BUFFER_TEXT) + o.u16(1 if self.comp else 0)
		self.out += o.u32(self.string_id("buffer latency")) + o.u64(len(text))
		self.out += text
		return o.u64(start) + cstr("") + cstr(m.clock)

	def write(self):
		m, o = self.m, self.o
		cname = m.compression
		cver = {"none": "", "zlib": zlib.ZLIB_VERSION}.get(cname) \
			if cname != "zstd" else zstd_version()
		self.out += prefix(m, o) + cstr(cname) + cstr(cver)
		first_opts = len(self.out)
		self.out += o.u64(0)
		meta = m.meta_bodies(o)
		pointers = []
		for sid, desc in META_SECTIONS:
			if sid == SEC_CMDLINES and m.modules is not None:
				# 3.4 writes a saved /proc/modules just before the command lines
				at = self.section(SEC_MODULES, "modules", m.modules.encode(), self.comp)
				pointers.append((SEC_MODULES, o.u64(at)))
			if sid in meta:
				at = self.section(sid, desc, meta[sid], self.comp)
				pointers.append((sid, o.u64(at)))
		cmd = [p for p in pointers if p[0] == SEC_CMDLINES]
		opts = [p for p in pointers if p[0] != SEC_CMDLINES]
		opts += m.options + cmd
		if m.cpucount:
			opts.append((OPT_CPUCOUNT, o.u32(m.cpus)))
		at, done = self.options(opts)
		self.out[first_opts:first_opts + 8] = o.u64(at)
		bufopts = []
		if m.latency is not None:
			bufopts = [(SEC_BUFFER_TEXT, self.latency_section())]
		for buf in m.buffers:
			bufopts.append((OPT_BUFFER, self.buffer_section(buf)))
		for oid, payload in bufopts:
			at, next_done = self.options([(oid, payload)])
			self.link(done, at)
			done = next_done
		# STRINGS goes last and holds its own description too
		desc = self.string_id("strings")
		body = bytes(self.strings)
		if self.comp:
			body = compress_block(m, o, body)
		self.out += (o.u16(SEC_STRINGS) + o.u16(1 if self.comp else 0) +
			     o.u32(desc) + o.u64(len(body)) + body)
		return bytes(self.out)


def write_v7(m):
	return V7(m).write()


# ---------------------------------------------------------------------------
# Specs: JSON describing a whole file

def kallsyms_default(long_size):
	if long_size == 4:
		return ("c1000000 T _stext\nc1001000 T schedule\n"
			"c1002000 T do_IRQ\nc1003000 T tracing_mark_write\n")
	return ("ffffffff81000000 T _stext\nffffffff81001000 T schedule\n"
		"ffffffff81002000 T do_IRQ\nffffffff81003000 T tracing_mark_write\n")


def build_model(spec):
	m = Model()
	m.version = spec.get("version", 6)
	m.compression = spec.get("compression", "none")
	m.endian = spec.get("endian", "little")
	m.long_size = spec.get("long_size", 8)
	m.page_size = spec.get("page_size", 4096)
	if m.version == 6 and m.compression != "none":
		raise Fail("v6 files are never compressed")
	if m.compression not in ("none", "zlib", "zstd"):
		raise Fail("unknown compression '%s'" % m.compression)
	klong = spec.get("kernel_long_size", m.long_size)
	o = Order(m.endian)
	m.header_page = spec.get("header_page", header_page_text(klong, m.page_size))
	m.header_event = spec.get("header_event", HEADER_EVENT)
	texts = {}
	for name in spec.get("events", []):
		if name not in CATALOGUE:
			raise Fail("no catalogue format for '%s'" % name)
		texts.setdefault(CATALOGUE[name][0], []).append(format_text(name, klong))
	for system, tl in spec.get("formats", {}).items():
		texts.setdefault(system, []).extend(tl)
	m.ftrace = texts.pop("ftrace", [])
	m.systems = sorted(texts.items())
	fmts = {}
	for t in m.ftrace + [t for _, tl in m.systems for t in tl]:
		f = Format(t)
		fmts[f.name] = f
	m.kallsyms = spec.get("kallsyms", kallsyms_default(klong))
	m.printk = spec.get("printk", "")
	cl = spec.get("cmdlines", [])
	m.cmdlines = cl if isinstance(cl, str) else \
		"".join("%d %s\n" % (pid, comm) for pid, comm in cl)
	m.cpus = spec.get("cpus", 1)
	m.clock = spec.get("clock", "local")
	syms = Symbols(m.kallsyms, m.printk)
	bufs = spec.get("buffers", [{"name": "", "records": spec.get("records", []),
				     "tail_padding": spec.get("tail_padding", True)}])
	for b in bufs:
		per_cpu = [[] for _ in range(m.cpus)]
		for r in b.get("records", []):
			if not 0 <= r["cpu"] < m.cpus:
				raise Fail("record on cpu %d of %d" % (r["cpu"], m.cpus))
			per_cpu[r["cpu"]].append(r)
		m.buffers.append({"name": b.get("name", ""),
				  "clock": b.get("clock", m.clock),
				  "cpus": [cpu_pages(items, fmts, o, klong, m.page_size, syms,
						     b.get("tail_padding", True))
					   for items in per_cpu]})
	m.latency = spec.get("latency")
	m.modules = spec.get("modules")	# v7 only: a MODULES_FILE section
	if m.latency is not None:
		m.buffers = []		# a latency file holds text, not pages
	m.options = default_options(m, o, spec)
	return m


def default_options(m, o, spec):
	clocks = "local global counter uptime perf mono mono_raw boot tai x86-tsc"
	clocks = clocks.replace(m.clock, "[%s]" % m.clock, 1) + "\n"
	# upstream 3.1.6 reads a v6 clock trailer after `latency  ` when it saw
	# TRACECLOCK, eating 8 bytes of the text: specs can leave it out
	opts = []
	if "date" in spec:
		opts.append((OPT_DATE, cstr(spec["date"])))
	if "ts_offset" in spec:
		opts.append((OPT_OFFSET, cstr(str(spec["ts_offset"]))))
	if spec.get("traceclock", True):
		opts.append((OPT_TRACECLOCK, cstr(clocks)))
	opts += [(OPT_UNAME, cstr(spec.get("uname", "Linux synth 6.18.0 x86_64"))),
		(OPT_VERSION, cstr("3.1.6 mkdat-synthetic"))]
	if "traceid" in spec:
		opts.append((OPT_TRACEID, o.u64(spec["traceid"])))
	for bi, buf in enumerate(m.buffers):
		if bi:
			opts.append((OPT_CPUSTAT, cstr("\nBuffer: %s\n\n" % buf["name"])))
		for cpu in range(m.cpus):
			n = len(buf["cpus"][cpu]) // m.page_size
			opts.append((OPT_CPUSTAT, cstr(
				"CPU: %d\nentries: 0\noverrun: 0\ncommit overrun: 0\n"
				"bytes: 0\noldest event ts: 0.000000\nnow ts: 0.000000\n"
				"dropped events: 0\nread events: %d\n" % (cpu, n))))
	if "procmaps" in spec:
		opts.append((OPT_PROCMAPS, cstr(spec["procmaps"])))
	opts += vm_options(o, spec)
	# any other option, e.g. an id the reader does not know: [id, "text"]
	for oid, text in spec.get("extra_options", []):
		opts.append((oid, cstr(text)))
	return opts


def vm_options(o, spec):
	"""GUEST, TSC2NSEC and TIME_SHIFT, laid out as trace-cmd.dat.v7(5) says."""
	opts = []
	for g in spec.get("guests", []):
		body = cstr(g["name"]) + o.u64(g["trace_id"]) + o.u32(len(g["vcpus"]))
		for cpu, pid in g["vcpus"]:
			body += o.u32(cpu) + o.u32(pid)
		opts.append((OPT_GUEST, body))
	if "tsc2nsec" in spec:
		t = spec["tsc2nsec"]
		opts.append((OPT_TSC2NSEC, o.u32(t["mult"]) + o.u32(t["shift"]) +
			     o.u64(t.get("offset", 0))))
	if "time_shift" in spec:
		t = spec["time_shift"]
		body = o.u64(t["trace_id"]) + o.u32(t.get("flags", 0)) + o.u32(len(t["cpus"]))
		for samples in t["cpus"]:
			body += o.u32(len(samples))
			for col in range(3):
				body += b"".join(o.u64(s[col] & (2**64 - 1)) for s in samples)
		for bits in t.get("fractions", []):
			body += b"".join(o.u64(b) for b in bits)
		opts.append((OPT_TIME_SHIFT, body[:len(body) - t.get("cut", 0)]))
	return opts


def write_model(m):
	return write_v6(m) if m.version == 6 else write_v7(m)


# ---------------------------------------------------------------------------
# --decompress: read a v7 file back into a Model, every byte from the file

def read_v7(data):
	if data[:10] != b"\x17\x08\x44tracing":
		raise Fail("not a trace.dat file (bad magic)")
	p = 10
	ver = data[p:data.index(b"\0", p)]
	if ver != b"7":
		raise Fail("version %s, only v7 can be decompressed" % ver.decode())
	m = Model()
	m.version = 7
	m.endian = "little" if data[12] == 0 else "big"
	m.long_size = data[13]
	o = Order(m.endian)
	m.page_size = o.get(4, data, 14)
	p = 18
	cname = data[p:data.index(b"\0", p)].decode()
	p += len(cname) + 1
	p = data.index(b"\0", p) + 1
	opts_at = o.get(8, data, p)

	def section(at):
		sid, flags = o.get(2, data, at), o.get(2, data, at + 2)
		size = o.get(8, data, at + 8)
		body = data[at + 16:at + 16 + size]
		if len(body) != size:
			raise Fail("section at %d: truncated" % at)
		if flags & 1:
			csize, usize = o.get(4, body, 0), o.get(4, body, 4)
			body = decompress(cname, body[8:8 + csize], usize)
		return sid, body

	def cpu_data(off, size):
		raw = data[off:off + size]
		if cname == "none":
			return raw
		n, q, out = o.get(4, raw, 0), 4, b""
		for _ in range(n):
			csize, usize = o.get(4, raw, q), o.get(4, raw, q + 4)
			out += decompress(cname, raw[q + 8:q + 8 + csize], usize)
			q += 8 + csize
		return out

	m.raw = {}
	m.cpucount = False
	while opts_at:
		sid, body = section(opts_at)
		if sid != SEC_OPTIONS:
			raise Fail("offset %d: section %d is not options" % (opts_at, sid))
		q, opts_at = 0, 0
		while q + 6 <= len(body):
			oid, size = o.get(2, body, q), o.get(4, body, q + 2)
			payload = body[q + 6:q + 6 + size]
			q += 6 + size
			if oid == OPT_DONE:
				opts_at = o.get(8, payload, 0)
				break
			if oid in dict(META_SECTIONS):
				m.raw[oid] = section(o.get(8, payload, 0))[1]
			elif oid == OPT_BUFFER:
				m.buffers.append(read_buffer_opt(o, payload, cpu_data))
			elif oid == OPT_CPUCOUNT:
				m.cpus, m.cpucount = o.get(4, payload, 0), True
			elif oid == SEC_BUFFER_TEXT:
				at = o.get(8, payload, 0)
				size = o.get(8, data, at + 8)
				m.latency = cpu_data(at + 16, size).decode()
			else:
				m.options.append((oid, payload))
	return m


def read_buffer_opt(o, payload, cpu_data):
	q = 8
	name = payload[q:payload.index(b"\0", q)].decode()
	q += len(name) + 1
	clock = payload[q:payload.index(b"\0", q)].decode()
	q += len(clock) + 1
	count = o.get(4, payload, q + 4)
	q += 8
	cpus = []
	for _ in range(count):
		cpu, off, size = (o.get(4, payload, q), o.get(8, payload, q + 4),
				  o.get(8, payload, q + 12))
		q += 20
		cpus += [b""] * (cpu + 1 - len(cpus))
		cpus[cpu] = cpu_data(off, size)
	return {"name": name, "clock": clock, "cpus": cpus}


def decompress_file(src, dst):
	with open(src, "rb") as f:
		m = read_v7(f.read())
	m.compression = "none"
	with open(dst, "wb") as f:
		f.write(write_v7(m))


# ---------------------------------------------------------------------------
# CLI

def usage(stream=sys.stderr):
	stream.write(__doc__[__doc__.index("usage:"):])


def fixture_name(name, version, compression):
	if compression == "none":
		return "synth-%s-v%s.dat" % (name, version)
	return "synth-%s-v%s-%s.dat" % (name, version, compression)


def make_fixtures(sc, listfile, outdir):
	"""Writes every fixture a list names, in one process (fast for tests)."""
	with open(listfile) as f:
		lines = [l.split() for l in f if l.strip() and not l.startswith("#")]
	for name, ver, comp in lines:
		spec = sc.scenario(name, {"version": int(ver), "compression": comp})
		data = write_model(build_model(spec))
		with open("%s/%s" % (outdir, fixture_name(name, ver, comp)), "wb") as f:
			f.write(data)


def main(argv):
	sys.dont_write_bytecode = True	# keep the source tree clean
	import mkdat_scenarios as sc
	args = argv[1:]
	if not args or args[0] in ("-h", "--help"):
		usage(sys.stdout if args else sys.stderr)
		return 0 if args else 2
	try:
		if args[0] == "--list-scenarios":
			print("\n".join(sorted(sc.SCENARIOS)))
			return 0
		if args[0] == "--decompress" and len(args) >= 3 and len(args) % 2:
			for i in range(1, len(args), 2):
				decompress_file(args[i], args[i + 1])
			return 0
		if args[0] == "--make-fixtures" and len(args) == 3:
			make_fixtures(sc, args[1], args[2])
			return 0
		if args[0] == "--dump-spec" and len(args) == 2:
			print(json.dumps(sc.scenario(args[1], {}), indent=1))
			return 0
		if args[0] == "--scenario":
			over, rest = {}, args[2:]
			while len(rest) > 1:
				if rest[0] == "--file-version":
					over["version"] = int(rest[1])
				elif rest[0] == "--compression":
					over["compression"] = rest[1]
				else:
					break
				rest = rest[2:]
			if len(rest) != 1:
				usage()
				return 2
			spec, out = sc.scenario(args[1], over), rest[0]
		elif len(args) == 2 and not args[0].startswith("-"):
			with open(args[0]) as f:
				spec = json.load(f)
			out = args[1]
		else:
			usage()
			return 2
		data = write_model(build_model(spec))
		with open(out, "wb") as f:
			f.write(data)
	except (Fail, KeyError, OSError, ValueError,
		subprocess.CalledProcessError) as e:
		sys.stderr.write("mkdat: %s\n" % (e,))
		return 1
	return 0


if __name__ == "__main__":
	sys.path.insert(0, __import__("os").path.dirname(__file__))
	sys.exit(main(sys.argv))
