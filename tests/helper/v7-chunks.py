#!/usr/bin/env python3
# v7-chunks.py FILE: walks a little-endian v7 trace.dat's sections
# (trace-cmd.dat.v7(5), SECTIONS) and prints, for each CPU the first BUFFER
# option lists, its id and the page count of each data chunk ("raw" when
# uncompressed), independently of the C reader.
import struct, sys

d = open(sys.argv[1], "rb").read()
p = d.index(b"\0", 18) + 1
comp = d[18:p - 1].decode()
p = d.index(b"\0", p) + 1 + 8
while True:
    sid, flags, desc, size = struct.unpack_from("<HHIQ", d, p)
    if sid == 3:
        break
    p += 16 + size
sect = p
p += 16 + size
sid, flags, desc, size = struct.unpack_from("<HHIQ", d, p)
assert sid == 0, "no OPTIONS section after the buffer"
q = p + 16
oid, osize = struct.unpack_from("<HI", d, q)
assert oid == 3, "first option is %d, not BUFFER" % oid
q += 6
off, = struct.unpack_from("<Q", d, q)
assert off == sect, "BUFFER option points at %d, the section is at %d" % (off, sect)
q = d.index(b"\0", q + 8) + 1
q = d.index(b"\0", q) + 1
page, count = struct.unpack_from("<II", d, q)
q += 8
for n in range(count):
    cpu, coff, csize = struct.unpack_from("<IQQ", d, q)
    q += 20
    assert coff % page == 0, "CPU %d data at %d is not page-aligned" % (cpu, coff)
    if comp == "none":
        print(cpu, "raw")
        continue
    chunks, = struct.unpack_from("<I", d, coff)
    r = coff + 4
    pages = []
    for c in range(chunks):
        cs, us = struct.unpack_from("<II", d, r)
        r += 8 + cs
        pages.append(str(us // page))
    assert r == coff + csize, "CPU %d: chunks end at %d, size says %d" % (cpu, r, coff + csize)
    print(cpu, " ".join(pages))
