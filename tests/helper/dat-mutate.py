#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dat-mutate.py IN OUT NAME[=ARG]...: IN with named damage to its metadata,
written to OUT, for the damaged-file tests and the mutation campaign
(mutate-campaign.py).  Its own walk of the layout (trace-cmd.dat.v7(5)),
sharing no code with the C reader.  The names:
  page-size=N          the prefix's page size (v6 and v7)
  done-size-0          v7: the first options section's DONE option says size 0
  buffer-count=N       v7: the top buffer's BUFFER option says N CPUs
  chunk-count=CPU:N    v7 compressed: that CPU's data says N chunks
  dup-cpu              v7: the BUFFER option's second CPU entry names the first's CPU
  overlap              the second CPU's data offset is the first's (v6 and v7)
  outside              v7: the second CPU's data offset is the first section's body
  cpu-size=I:N         the top buffer's I-th CPU entry says N bytes of data (v6 and v7)
  cpu-id=I:N           v7: the BUFFER option's I-th CPU entry names CPU N
  append=N             N bytes of 0x55 after the end
  kallsyms-flip        v7 compressed: one bit flipped in the kallsyms section's frame header
"""
import struct
import sys


class Dat:
	def __init__(self, data):
		self.d = bytearray(data)
		self.e = '>' if self.d[12] == 1 else '<'
		self.version = int(self.d[10:self.d.index(b'\0', 10)])

	def num(self, off, w):
		return struct.unpack(self.e + {2: 'H', 4: 'I', 8: 'Q'}[w], self.d[off:off + w])[0]

	def put(self, off, w, v):
		self.d[off:off + w] = struct.pack(self.e + {2: 'H', 4: 'I', 8: 'Q'}[w], v)

	def cstr(self, off):
		end = self.d.index(b'\0', off)
		return self.d[off:end].decode('latin-1'), end + 1

	# ---- v7 ----
	def sections(self):
		"""[(offset, id, flags, body offset, body size)] in file order."""
		pos = self.cstr(self.cstr(18)[1])[1] + 8
		out = []
		while pos + 16 <= len(self.d):
			sid, flags, size = self.num(pos, 2), self.num(pos + 2, 2), self.num(pos + 8, 8)
			out.append((pos, sid, flags, pos + 16, size))
			pos += 16 + size
		return out

	def options(self):
		"""[(section offset, option id, offset of its size field, data offset, size)]."""
		out = []
		for at, sid, flags, body, size in self.sections():
			if sid != 0:
				continue
			if flags & 1:
				raise SystemExit('dat-mutate: compressed options are not handled')
			o = body
			while o < body + size:
				oid, n = self.num(o, 2), self.num(o + 2, 4)
				out.append((at, oid, o + 2, o + 6, n))
				o += 6 + n
				if oid == 0:
					break
		return out

	def buffer_option(self):
		"""The first BUFFER option: (its data offset, offset of its CPU count, entries)."""
		for _, oid, _, data, _ in self.options():
			if oid == 3:
				pos = self.cstr(self.cstr(data + 8)[1])[1] + 4
				count = self.num(pos, 4)
				entries = [pos + 4 + 20 * i for i in range(count)]
				return data, pos, entries
		raise SystemExit('dat-mutate: no BUFFER option')

	# ---- v6 ----
	def flyrecord_entries(self):
		"""Offsets of each CPU's (offset, size) pair in a v6 flyrecord (top buffer)."""
		fly = self.d.index(b'flyrecord\0')
		opts = self.d.find(b'options  \0', 0, fly)
		cpus = self.num((opts if opts >= 0 else fly) - 4, 4)
		return [fly + 10 + 16 * i for i in range(cpus)]


def cpu_entries(dat):
	"""[(offset field, size field)] of the top buffer's CPUs, 8 bytes each."""
	if dat.version >= 7:
		return [(e + 4, e + 12) for e in dat.buffer_option()[2]]
	return [(e, e + 8) for e in dat.flyrecord_entries()]


def mutate(dat, name, arg):
	if name == 'page-size':
		dat.put(14, 4, int(arg, 0))
	elif name == 'done-size-0':
		done = [o for o in dat.options() if o[1] == 0][0]
		dat.put(done[2], 4, 0)
	elif name == 'buffer-count':
		dat.put(dat.buffer_option()[1], 4, int(arg, 0))
	elif name == 'chunk-count':
		cpu, n = (int(x, 0) for x in arg.split(':'))
		for e in dat.buffer_option()[2]:
			if dat.num(e, 4) == cpu:
				dat.put(dat.num(e + 4, 8), 4, n)
				return
		raise SystemExit('dat-mutate: no CPU %d' % cpu)
	elif name == 'dup-cpu':
		entries = dat.buffer_option()[2]
		dat.put(entries[1], 4, dat.num(entries[0], 4))
	elif name == 'overlap':
		first, second = cpu_entries(dat)[:2]
		dat.put(second[0], 8, dat.num(first[0], 8))
	elif name == 'outside':
		second = dat.buffer_option()[2][1]
		dat.put(second + 4, 8, dat.sections()[0][3])
	elif name == 'cpu-size':
		i, n = (int(x, 0) for x in arg.split(':'))
		dat.put(cpu_entries(dat)[i][1], 8, n)
	elif name == 'cpu-id':
		i, n = (int(x, 0) for x in arg.split(':'))
		dat.put(dat.buffer_option()[2][i], 4, n)
	elif name == 'append':
		dat.d += b'\x55' * int(arg, 0)
	elif name == 'kallsyms-flip':
		for at, sid, flags, body, size in dat.sections():
			if sid == 19 and flags & 1:
				dat.d[body + 8] ^= 0x10	# the frame's first byte: it cannot decompress
				return
		raise SystemExit('dat-mutate: no compressed kallsyms section')
	else:
		raise SystemExit('dat-mutate: unknown mutation %s' % name)


def main(argv):
	if len(argv) < 4:
		sys.stderr.write(__doc__)
		return 2
	dat = Dat(open(argv[1], 'rb').read())
	for m in argv[3:]:
		name, _, arg = m.partition('=')
		mutate(dat, name, arg)
	open(argv[2], 'wb').write(dat.d)
	return 0


if __name__ == '__main__':
	sys.exit(main(sys.argv))
