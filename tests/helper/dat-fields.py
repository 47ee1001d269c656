#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""dat-fields.py FILE: where a trace.dat's pieces start and end, for the
damaged-file tests.  An independent walk of the layout (trace-cmd.dat.v6(5),
trace-cmd.dat.v7(5)), sharing no code with the C reader.  Prints one fact a line:
  boundary OFFSET            a piece starts or ends here (cut the file here)
  size OFFSET WIDTH          a size or count field of WIDTH bytes
"""
import struct
import sys


def main(path):
	d = open(path, 'rb').read()
	out = []
	e = '>' if d[12] == 1 else '<'
	fmt = {2: 'H', 4: 'I', 8: 'Q'}

	def num(off, w):
		return struct.unpack(e + fmt[w], d[off:off + w])[0]

	def bnd(off):
		out.append('boundary %d' % off)

	def size(off, w):
		out.append('size %d %d' % (off, w))

	for b in (0, 3, 10, 12, 13, 14, 18):
		bnd(b)
	pos = 18
	if d[10:12] == b'7\0':
		v7(d, num, bnd, size)
	else:
		v6(d, pos, num, bnd, size)
	print('\n'.join(out))


def v6(d, pos, num, bnd, size):
	def sized(pos, w):
		size(pos, w)
		n = num(pos, w)
		bnd(pos + w)
		bnd(pos + w + n)
		return pos + w + n

	pos += 12
	bnd(pos)
	pos = sized(pos, 8)
	pos += 13
	bnd(pos)
	pos = sized(pos, 8)
	size(pos, 4)
	count = num(pos, 4)
	pos += 4
	for _ in range(count):
		pos = sized(pos, 8)
	size(pos, 4)
	systems = num(pos, 4)
	pos += 4
	for _ in range(systems):
		pos = d.index(b'\0', pos) + 1
		bnd(pos)
		size(pos, 4)
		count = num(pos, 4)
		pos += 4
		for _ in range(count):
			pos = sized(pos, 8)
	pos = sized(pos, 4)		# kallsyms
	pos = sized(pos, 4)		# printk
	pos = sized(pos, 8)		# cmdlines
	size(pos, 4)
	cpus = num(pos, 4)
	pos += 4
	bnd(pos)
	tag = d[pos:pos + 10]
	pos += 10
	bnd(pos)
	clock = False
	if tag == b'options  \0':
		while True:
			oid = num(pos, 2)
			pos += 2
			if oid == 0:
				break
			size(pos, 4)
			if oid == 4:
				clock = True
			pos += 4 + num(pos, 4)
			bnd(pos)
		bnd(pos)
		tag = d[pos:pos + 10]
		pos += 10
		bnd(pos)
	if tag != b'flyrecord\0':
		return
	for cpu in range(cpus):
		size(pos + 8, 8)
		off, n = num(pos, 8), num(pos + 8, 8)
		pos += 16
		bnd(pos)
		if n:
			bnd(off)
			bnd(off + n // 2)
			bnd(off + n)
	if clock:
		size(pos, 8)
		bnd(pos + 8)
		bnd(pos + 8 + num(pos, 8))


def v7(d, num, bnd, size):
	pos = d.index(b'\0', 18) + 1
	bnd(pos)
	pos = d.index(b'\0', pos) + 1
	bnd(pos)
	pos += 8
	bnd(pos)
	while pos + 16 <= len(d):
		sid, flags, n = num(pos, 2), num(pos + 2, 2), num(pos + 8, 8)
		size(pos + 8, 8)
		bnd(pos + 16)
		if flags & 1 and sid != 3:
			size(pos + 16, 4)
			size(pos + 20, 4)
		if sid == 0 and not flags & 1:
			o = pos + 16
			while o < pos + 16 + n:
				oid = num(o, 2)
				size(o + 2, 4)
				o += 6 + num(o + 2, 4)
				bnd(o)
				if oid == 0:
					break
		pos += 16 + n
		bnd(pos)


if __name__ == '__main__':
	main(sys.argv[1])
