#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Shrinks a v7 trace.dat's kallsyms to the symbols named in a list.

usage: dat-keep-syms.py IN.dat NAMES OUT.dat

A recorded file carries the whole /proc/kallsyms (megabytes); a fixture cut
from it needs only the functions its report prints.  NAMES holds one symbol
name a line; every kallsyms line of those names is kept (with the symbol
above each, which ends its range), the rest dropped,
and the file is written again (zstd, through mkdat.py's v7 reader and
writer), its records and other metadata as they were.  Check that the
report is unchanged before keeping the output.
"""
import os
import struct
import sys

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import mkdat  # noqa: E402


def keep_syms(body, names, endian):
	fmt = "<I" if endian == "little" else ">I"
	size = struct.unpack(fmt, body[:4])[0]
	lines = [l for l in body[4:4 + size].decode().splitlines() if len(l.split()) >= 3]
	by_addr = sorted(range(len(lines)), key=lambda i: int(lines[i].split()[0], 16))
	keep = set()
	for n, i in enumerate(by_addr):
		if lines[i].split()[2] in names:
			# the next symbol up too: it ends this one's range
			keep.update(by_addr[n:n + 2])
	kept = "".join(lines[i] + "\n" for i in sorted(keep)).encode()
	return struct.pack(fmt, len(kept)) + kept


def main(argv):
	if len(argv) != 4:
		sys.stderr.write(__doc__[__doc__.index("usage:"):])
		return 2
	with open(argv[1], "rb") as f:
		m = mkdat.read_v7(f.read())
	with open(argv[2]) as f:
		names = {l.strip() for l in f if l.strip()}
	m.raw[mkdat.SEC_KALLSYMS] = keep_syms(m.raw[mkdat.SEC_KALLSYMS], names, m.endian)
	m.compression = "zstd"
	with open(argv[3], "wb") as f:
		f.write(mkdat.write_v7(m))
	return 0


if __name__ == "__main__":
	sys.exit(main(sys.argv))
