# SPDX-License-Identifier: GPL-2.0
# Inputs whose pages are not the size the file header gives (needs PYTHON):
# report reads a v7 buffer's pages by its BUFFER option's size, so convert
# and split must write the data with that size, or refuse.

# pages_file OUT DATA-PAGE HEADER-PAGE: a v7 zstd file of 3,000 print events
# on CPU 0 in DATA-PAGE pages (chunks of 10 of them, as mkdat.py writes),
# whose header then says HEADER-PAGE.
pages_file() {
	python3 - "$HELPERS" "$@" <<-\PY
	import json, struct, sys
	helpers, out, data_page, header_page = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
	sys.path.insert(0, helpers)
	sys.dont_write_bytecode = True
	import mkdat
	spec = {"page_size": data_page, "cpus": 1, "events": ["print"], "version": 7,
		"compression": "zstd",
		"records": [{"cpu": 0, "ts": 1000000000 + i * 1000, "event": "print", "pid": 1,
			     "fields": {"ip": 0, "buf": "line %05d %s\n" % (i, "x" * 100)}}
			    for i in range(3000)]}
	json.dump(spec, open(out + ".json", "w"))
	if mkdat.main(["mkdat.py", out + ".json", out]):
	    sys.exit(1)
	d = bytearray(open(out, "rb").read())
	d[14:18] = struct.pack("<I", header_page)
	open(out, "wb").write(d)
	PY
}

# instance_pages_file OUT: synth-instances-v7.dat with instance foo's BUFFER
# option saying 8192-byte pages, the top buffer's staying 4096.
instance_pages_file() {
	python3 - "$FIXTURES/synth-instances-v7.dat" "$1" <<-\PY
	import struct, sys
	d = bytearray(open(sys.argv[1], "rb").read())
	at = d.index(b"\0foo\0local\0") + len(b"\0foo\0local\0")
	assert struct.unpack("<I", d[at:at + 4])[0] == 4096
	d[at:at + 4] = struct.pack("<I", 8192)
	open(sys.argv[2], "wb").write(d)
	PY
}
