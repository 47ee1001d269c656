#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""mutate-campaign.py [--seed S] [--count N] [--seconds T] [--trace-cmd BIN]
                     [--keep DIR] [--verbose] FILE...

A mutation campaign over trace.dat files: each FILE is damaged many ways,
`trace-cmd report` is run on each damaged copy, and every outcome is
counted:
  crash    a signal, a sanitizer report, or an exit other than 0 and 1
  hang     no exit within 20 seconds
  error    exit 1 with an error naming the file
  warned   exit 0 with a warning on stderr
  same     exit 0, nothing said, the same lines as the undamaged file
  changed  exit 0, nothing said, as many event lines, some different
  silent   exit 0, nothing said, fewer event lines: a silent drop
The damage is the named metadata inconsistencies of dat-mutate.py (each
applied where the file has the piece), then random damage until N
mutations or T seconds: a flipped bit, a size field set to all ones or
off by one, a few random bytes, a cut.  Each is labelled with the piece of
the file it hit (dat-mutate.py's walk of the layout).

A silent drop where no metadata check can help (inside the bytes of a
page's events, its header's commit, or a compressed chunk, whose damage
can remove events and still read as events) is counted as "silent
(explained)"; any other one,
and any crash or hang, fails the campaign (exit 1), and --keep DIR keeps
those files.  The seed makes a run repeatable.
"""
import argparse
import importlib.util
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location('dat_mutate', os.path.join(HERE, 'dat-mutate.py'))
dm = importlib.util.module_from_spec(spec)
spec.loader.exec_module(dm)

SECTION_NAMES = {0: 'options', 3: 'buffer', 15: 'strings', 16: 'headers',
		 17: 'ftrace events', 18: 'event formats', 19: 'kallsyms', 20: 'printk',
		 21: 'cmdlines', 22: 'latency'}

# Where damage can drop events that still read as sound: no check at open
# can see it.  A page's event lengths; a page header's commit lowered to an
# event boundary (a shorter page that ends where its events do); compressed
# bytes that inflate to other bytes (zstd frames here carry no checksum).
UNDETECTABLE = ('event data', 'page header', 'compressed CPU data')


def regions(dat):
	"""[(start, end, label)] of the file's pieces, most specific last."""
	d, out = dat.d, [(0, 18, 'prefix')]
	if dat.version >= 7:
		for at, sid, flags, body, size in dat.sections():
			name = SECTION_NAMES.get(sid, 'section %d' % sid)
			out.append((at, body, name + ' section header'))
			out.append((body, body + size, name + ' section'))
		try:
			entries = dat.buffer_option()[2]
		except SystemExit:
			entries = []
		chunked = any(s[1] == 3 and s[2] & 1 for s in dat.sections())
		for e in entries:
			cpu, off, size = dat.num(e, 4), dat.num(e + 4, 8), dat.num(e + 12, 8)
			out.append((e, e + 20, 'BUFFER option CPU entry'))
			if chunked:
				out.append((off, off + 4, 'CPU %d chunk count' % cpu))
				pos, left = off + 4, dat.num(off, 4)
				while left and pos + 8 <= off + size + 4:
					out.append((pos, pos + 8, 'CPU %d chunk header' % cpu))
					out.append((pos + 8, pos + 8 + dat.num(pos, 4), 'compressed CPU data'))
					pos += 8 + dat.num(pos, 4)
					left -= 1
			else:
				out += pages(dat, off, size, dat.num(14, 4))
	else:
		try:
			entries = dat.flyrecord_entries()
		except (ValueError, struct_error):
			entries = []
		out.append((18, entries[0] if entries else len(d), 'v6 metadata'))
		for e in entries:
			off, size = dat.num(e, 8), dat.num(e + 8, 8)
			out.append((e, e + 16, 'flyrecord CPU entry'))
			out += pages(dat, off, size, dat.num(14, 4))
	return out


struct_error = __import__('struct').error


def pages(dat, off, size, page):
	hdr = 8 + dat.d[13]
	out = []
	for p in range(off, off + size, page):
		out.append((p, p + hdr, 'page header'))
		out.append((p + hdr, min(p + page, off + size), 'event data'))
	return out


def label(regs, off):
	found = 'past the pieces'
	for start, end, name in regs:
		if start <= off < end:
			found = name
	return found


def named_mutations(dat):
	"""The dat-mutate.py names that apply to this file."""
	names = ['page-size=8192', 'page-size=65536', 'page-size=2048', 'overlap',
		 'append=1', 'append=16', 'append=100', 'cpu-size=0:0', 'cpu-size=1:0']
	if dat.version >= 7:
		names += ['done-size-0', 'dup-cpu', 'outside', 'cpu-id=1:5']
		try:
			entries = dat.buffer_option()[2]
		except SystemExit:
			entries = []
		names.append('buffer-count=%d' % max(len(entries) - 1, 0))
		if any(s[1] == 19 and s[2] & 1 for s in dat.sections()):
			names.append('kallsyms-flip')
		if any(s[1] == 3 and s[2] & 1 for s in dat.sections()):
			for e in entries:
				cpu, n = dat.num(e, 4), dat.num(dat.num(e + 4, 8), 4)
				names += ['chunk-count=%d:%d' % (cpu, c) for c in sorted({0, n - 1, n + 1}) if c >= 0]
	return names


def random_mutation(dat, regs, rnd, sizes):
	"""Damages dat.d in place; returns (description, offset)."""
	d = dat.d
	kind = rnd.choice(['bit', 'bit', 'size', 'bytes', 'cut', 'meta-bit'])
	if kind == 'size' and sizes:
		off, w = rnd.choice(sizes)
		v = dat.num(off, w)
		new = rnd.choice([(1 << (8 * w)) - 1, v + 1, max(v - 1, 0), 0, rnd.getrandbits(8 * w)])
		dat.put(off, w, new & ((1 << (8 * w)) - 1))
		return 'size field %d bytes %d -> %d' % (w, v, new), off
	if kind == 'cut':
		off = rnd.randrange(18, len(d))
		del d[off:]
		return 'cut', off
	if kind == 'meta-bit':
		meta = [r for r in regs if r[2] not in UNDETECTABLE and r[1] > r[0]]
		start, end, _ = rnd.choice(meta)
		off = rnd.randrange(start, min(end, len(d)))
	else:
		off = rnd.randrange(0, len(d))
	if kind == 'bytes':
		n = rnd.randint(1, 8)
		d[off:off + n] = bytes(rnd.getrandbits(8) for _ in range(n))[:len(d) - off]
		return '%d random bytes' % n, off
	d[off] ^= 1 << rnd.randrange(8)
	return 'bit flip', off


def size_fields(path):
	out = subprocess.run([sys.executable, os.path.join(HERE, 'dat-fields.py'), path],
			     capture_output=True, text=True).stdout
	return [tuple(int(x) for x in l.split()[1:]) for l in out.splitlines() if l.startswith('size ')]


def run(tc, path):
	try:
		p = subprocess.run([tc, 'report', path], capture_output=True, timeout=20)
	except subprocess.TimeoutExpired:
		return None, b'', b''
	return p.returncode, p.stdout, p.stderr


def events(out):
	"""The event lines: everything after "cpus=N"."""
	lines = out.split(b'\n')
	for i, l in enumerate(lines):
		if l.startswith(b'cpus='):
			return lines[i + 1:]
	return lines


def classify(base_out, code, out, err, path):
	if code is None:
		return 'hang'
	if code not in (0, 1) or b'Sanitizer' in err or b'runtime error' in err:
		return 'crash'
	if code == 1:
		return 'error' if b"'%s'" % path.encode() in err else 'error (unnamed)'
	if err.strip():
		return 'warned'
	if out == base_out:
		return 'same'
	if len(events(out)) < len(events(base_out)):
		return 'silent'
	return 'changed'


def main():
	ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
	ap.add_argument('--seed', type=int, default=1)
	ap.add_argument('--count', type=int, default=200, help='random mutations per file')
	ap.add_argument('--seconds', type=float, default=300, help='time bound for the whole run')
	ap.add_argument('--trace-cmd', default=os.environ.get('TRACE_CMD', './trace-cmd'))
	ap.add_argument('--keep', help='keep crashing, hanging and unexplained silent files here')
	ap.add_argument('--verbose', action='store_true', help='one line per mutation')
	ap.add_argument('files', nargs='+')
	a = ap.parse_args()
	rnd = random.Random(a.seed)
	deadline = time.time() + a.seconds
	counts, bad, explained = {}, [], {}
	tmp = tempfile.mkdtemp(prefix='mutate-')
	path = os.path.join(tmp, 'm.dat')
	try:
		for f in a.files:
			base = open(f, 'rb').read()
			code, base_out, err = run(a.trace_cmd, f)
			if code != 0 or err:
				sys.exit('%s: the undamaged file does not read cleanly' % f)
			dat = dm.Dat(base)
			regs = regions(dat)
			sizes = size_fields(f)
			jobs = [('named', n) for n in named_mutations(dat)]
			jobs += [('random', i) for i in range(a.count)]
			for kind, what in jobs:
				if time.time() > deadline:
					break
				m = dm.Dat(base)
				if kind == 'named':
					name, _, arg = what.partition('=')
					try:
						dm.mutate(m, name, arg)
					except (SystemExit, IndexError, ValueError, struct_error):
						continue
					desc, where = what, 'metadata'
				else:
					desc, off = random_mutation(m, regs, rnd, sizes)
					where = label(regs, off)
					desc = '%s at %d' % (desc, off)
				if bytes(m.d) == base:
					continue
				open(path, 'wb').write(m.d)
				code, out, err = run(a.trace_cmd, path)
				verdict = classify(base_out, code, out, err, path)
				if verdict == 'silent' and kind == 'random' and where in UNDETECTABLE:
					verdict = 'silent (explained)'
					explained[where] = explained.get(where, 0) + 1
				counts[verdict] = counts.get(verdict, 0) + 1
				line = '%s: %s (%s): %s' % (os.path.basename(f), desc, where, verdict)
				if a.verbose:
					print(line)
				if verdict in ('crash', 'hang', 'silent', 'error (unnamed)'):
					bad.append(line)
					if a.keep:
						os.makedirs(a.keep, exist_ok=True)
						shutil.copy(path, os.path.join(a.keep, '%s-%d.dat' % (verdict.split()[0], len(bad))))
	finally:
		shutil.rmtree(tmp)
	order = ['crash', 'hang', 'error', 'error (unnamed)', 'warned', 'same', 'changed',
		 'silent (explained)', 'silent']
	print('seed %d: %s' % (a.seed, ', '.join('%s %d' % (k, counts.get(k, 0)) for k in order)))
	for where, n in sorted(explained.items()):
		print('  silent (explained) in %s: %d' % (where, n))
	for line in bad:
		print('BAD ' + line)
	return 1 if bad else 0


if __name__ == '__main__':
	sys.exit(main())
