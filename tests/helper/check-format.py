#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-format.py: checks of report --format and convert --to chrome-json
output, by rules written from the formats' descriptions (not from our C code).

  check-format.py jsonl OUT.jsonl            every line is a JSON object with the common keys
  check-format.py raw OUT.jsonl REPORT-R     fields agree with `report -R` of the same events
  check-format.py csv OUT.csv OUT.jsonl      the csv (read by Python's csv module) holds the same
  check-format.py lost OUT.jsonl             prints "CPU COUNT" per lost-events record
  check-format.py chrome OUT.json            the Trace Event Format's rules
Prints what is wrong and exits 1, or prints a one-line summary and exits 0.
"""
import csv
import json
import re
import sys

COMMON = ('ts', 'clock', 'cpu', 'event')
EVENT_KEYS = ('pid', 'comm', 'system', 'flags', 'fields', 'text')
errors = []


def bad(msg):
    errors.append(msg)
    if len(errors) > 20:
        finish()


def finish(summary=''):
    if errors:
        for e in errors[:20]:
            print(e)
        sys.exit(1)
    print(summary)
    sys.exit(0)


def read_jsonl(path):
    recs = []
    with open(path, encoding='utf-8', newline='') as f:
        for n, line in enumerate(f, 1):
            if not line.endswith('\n'):
                bad('line %d: no newline at its end' % n)
            try:
                r = json.loads(line)
            except ValueError as e:
                bad('line %d: not JSON: %s' % (n, e))
                continue
            if not isinstance(r, dict):
                bad('line %d: not an object' % n)
                continue
            recs.append(r)
    return recs


def check_jsonl(path):
    recs = read_jsonl(path)
    for n, r in enumerate(recs, 1):
        for k in COMMON:
            if k not in r:
                bad('line %d: no "%s"' % (n, k))
        if not isinstance(r.get('ts'), int) or not isinstance(r.get('cpu'), int):
            bad('line %d: ts and cpu must be integers' % n)
        if 'ts_ns' in r and not isinstance(r['ts_ns'], int):
            bad('line %d: ts_ns must be an integer' % n)
        if r.get('event') == 'lost':
            if 'count' not in r:
                bad('line %d: a lost record without its count' % n)
            continue
        for k in EVENT_KEYS:
            if k not in r:
                bad('line %d: no "%s"' % (n, k))
        if not isinstance(r.get('fields'), dict):
            bad('line %d: fields is not an object' % n)
        if not isinstance(r.get('pid'), int) or not isinstance(r.get('flags'), int):
            bad('line %d: pid and flags must be integers' % n)
    finish('%d records' % len(recs))


# "comm-pid [cpu] ts: event: raw fields"
RAW_LINE = re.compile(r'^\s*(.*)-(-?\d+)\s+\[(\d+)\](?:-0x[0-9a-f]+)?\s*([\d.]+): (\S+):\s+(.*)$')
SYMBOL = re.compile(r'^[A-Za-z_.][\w.]*(\+0x[0-9a-f]+(/0x[0-9a-f]+)?)?$')


def raw_values(raw, names):
    """Splits 'a=1 b=x y c=2' by the field names, which come in format order."""
    vals, pos = {}, 0
    spots = []
    for k in names:
        m = re.compile(r'(^| )' + re.escape(k) + '=').search(raw, pos)
        if not m:
            return None
        spots.append((k, m.start(), m.end()))
        pos = m.end()
    for i, (k, start, end) in enumerate(spots):
        stop = spots[i + 1][1] if i + 1 < len(spots) else len(raw)
        vals[k] = raw[end:stop]
    return vals


def same_number(v, text):
    t = text.strip()
    # a negative value shown in hex is its two's complement in the field's
    # width: -R prints a signed 4-byte long as 0x%x, one of 8 bytes as 0x%llx
    for base in (10, 16):
        try:
            n = int(t, base)
            if n == v or (v < 0 and n in (v + (1 << 64), v + (1 << 32))):
                return True
        except ValueError:
            pass
    return False


def check_raw(jpath, rpath):
    recs = [r for r in read_jsonl(jpath) if r.get('event') != 'lost']
    lines = [l.rstrip('\n') for l in open(rpath, encoding='utf-8', errors='replace')]
    lines = [l for l in lines if RAW_LINE.match(l)]
    if len(lines) != len(recs):
        bad('%d event lines in report -R, %d records' % (len(lines), len(recs)))
        finish()
    checked = 0
    for n, (r, line) in enumerate(zip(recs, lines), 1):
        m = RAW_LINE.match(line)
        comm, pid, cpu, event, raw = m.group(1).strip(), m.group(2), m.group(3), m.group(5), \
            m.group(6)
        if (int(pid), int(cpu), event) != (r['pid'], r['cpu'], r['event']):
            bad('record %d: %s-%s [%s] %s in -R, %r' % (n, comm, pid, cpu, event,
                                                         (r['pid'], r['cpu'], r['event'])))
            continue
        # without plugins (-R) sched_switch registers no comms: "<...>" there
        if comm != '<...>' and not r['comm'].endswith(comm) and \
                not comm.endswith(r['comm'][-16:]):
            bad('record %d: comm %r in -R, %r' % (n, comm, r['comm']))
        names = list(r['fields'])
        vals = raw_values(raw, names)
        if vals is None:
            bad('record %d: fields %s not all in -R line %r' % (n, names, raw))
            continue
        for k in names:
            v, t = r['fields'][k], vals[k]
            if v is None:
                continue
            if isinstance(v, str):
                ok = t == v or t == v.rstrip('\n') or t.rstrip() == v.rstrip('\n').rstrip()
            elif isinstance(v, int):
                # -R shows an address as its symbol, and libtraceevent 1.7
                # prints a u64 that the print fmt casts to (u8) cast (kvm's "e")
                ok = same_number(v, t) or (SYMBOL.match(t.strip()) is not None and
                                           abs(v) > 0xffff) or \
                    (t.isdigit() and int(t) < 256 and int(t) == v & 0xff) or \
                    (t.strip() == '(nil)' and v == 0) or \
                    (v > 0xffffffff and t.strip() != '' and not t.strip().isdigit())
                # (the last two: pointers, which -R shows as (nil), or a
                # const char * as its printk string or its hex digits)
            elif isinstance(v, list):
                ok = t.startswith('ARRAY[') or t.strip() == '0' or t.strip().startswith('0x')
                if ok and t.startswith('ARRAY[') and all(isinstance(x, int) and 0 <= x < 256
                                                         for x in v):
                    got = [int(x, 16) for x in t[6:].rstrip().rstrip(']').split(',') if x.strip()]
                    ok = got == v[:len(got)]
            else:
                ok = False
            if not ok:
                bad('record %d (%s): field %s is %r, -R says %r' % (n, event, k, v, t))
            checked += 1
    finish('%d records, %d field values agree with report -R' % (len(recs), checked))


def check_csv(cpath, jpath):
    recs = read_jsonl(jpath)
    with open(cpath, encoding='utf-8', newline='') as f:
        rows = list(csv.reader(f))
    if not rows:
        bad('no header row')
        finish()
    head = rows[0]
    want = ['ts', 'ts_ns', 'clock', 'cpu', 'pid', 'comm', 'system', 'event', 'flags', 'fields',
            'text']
    if head[-len(want):] != want:
        bad('header row %r' % head)
        finish()
    if len(rows) - 1 != len(recs):
        bad('%d csv rows, %d jsonl records' % (len(rows) - 1, len(recs)))
        finish()
    for n, (row, r) in enumerate(zip(rows[1:], recs), 1):
        if len(row) != len(head):
            bad('row %d: %d cells, header has %d' % (n, len(row), len(head)))
            continue
        c = dict(zip(head, row))
        if int(c['ts']) != r['ts'] or int(c['cpu']) != r['cpu'] or c['event'] != r['event']:
            bad('row %d: %r against %r' % (n, row, r))
            continue
        if c['ts_ns'] != str(r.get('ts_ns', '')) or c['clock'] != r['clock']:
            bad('row %d: ts_ns/clock %r %r' % (n, c['ts_ns'], c['clock']))
        for k in ('file', 'buffer'):
            if (k in c) != (k in r) or c.get(k) != r.get(k):
                bad('row %d: %s %r, jsonl %r' % (n, k, c.get(k), r.get(k)))
        fields = json.loads(c['fields'])
        if r['event'] == 'lost':
            if fields != {'count': r['count']}:
                bad('row %d: lost fields %r' % (n, fields))
            continue
        if (int(c['pid']), c['comm'], c['system'], int(c['flags'])) != \
                (r['pid'], r['comm'], r['system'], r['flags']):
            bad('row %d: common columns %r against %r' % (n, row, r))
        if fields != r['fields'] or c['text'] != r['text']:
            bad('row %d: fields or text differ: %r / %r' % (n, c['fields'], c['text']))
    finish('%d rows agree with the jsonl records' % len(recs))


def lost(jpath):
    for r in read_jsonl(jpath):
        if r.get('event') == 'lost':
            print(r['cpu'], 'unknown' if r['count'] is None else r['count'])


# Trace Event Format: keys each phase must have.
PHASE_KEYS = {
    'X': ('name', 'ts', 'dur', 'pid', 'tid'),
    'B': ('name', 'ts', 'pid', 'tid'),
    'E': ('ts', 'pid', 'tid'),
    'i': ('name', 'ts', 'pid', 'tid'),
    'I': ('name', 'ts', 'pid', 'tid'),
    'M': ('name', 'pid', 'args'),
}


def check_chrome(path):
    with open(path, encoding='utf-8') as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get('traceEvents'), list):
        bad('not an object with a traceEvents array')
        finish()
    other = doc.get('otherData', {})
    usecs = other.get('ts_unit') == 'us'
    if not usecs and 'raw counter' not in other.get('ts_unit', ''):
        bad('otherData.ts_unit says neither us nor raw counter: %r' % other)
    evs = doc['traceEvents']
    stacks, slices, named, phases = {}, {}, set(), {}
    for n, e in enumerate(evs):
        ph = e.get('ph')
        if ph not in PHASE_KEYS:
            bad('event %d: phase %r' % (n, ph))
            continue
        phases[ph] = phases.get(ph, 0) + 1
        for k in PHASE_KEYS[ph]:
            if k not in e:
                bad('event %d (%s): no "%s"' % (n, ph, k))
        if not all(isinstance(e.get(k, 0), int) for k in ('pid', 'tid')):
            bad('event %d: pid/tid must be integers' % n)
        if ph == 'M':
            if e['name'] in ('process_name', 'thread_name'):
                if not isinstance(e['args'].get('name'), str):
                    bad('event %d: %s without args.name' % (n, e['name']))
                named.add((e['name'], e['pid'], e.get('tid')))
            continue
        ts = e['ts']
        if not isinstance(ts, (int, float)) or ts < 0:
            bad('event %d: ts %r' % (n, ts))
            continue
        if usecs and isinstance(ts, float) and abs(ts * 1000 - round(ts * 1000)) > 0.01 * max(
                1, ts / 1e9):
            bad('event %d: ts %r is not whole ns in us' % (n, ts))
        if not usecs and not isinstance(ts, int):
            bad('event %d: raw-counter ts %r is not an integer' % (n, ts))
        if ph in ('i', 'I') and e.get('s', 't') not in ('g', 'p', 't'):
            bad('event %d: instant scope %r' % (n, e.get('s')))
        if 'args' in e and not isinstance(e['args'], dict):
            bad('event %d: args is not an object' % n)
        key = (e['pid'], e['tid'])
        if ph == 'B':
            if e.get('cat') == 'sched' and stacks.get(key):
                bad('event %d: sched slice %r opens inside %r on %r' % (n, e['name'],
                                                                       stacks[key][-1][0], key))
            stacks.setdefault(key, []).append((e['name'], ts))
        elif ph == 'E':
            st = stacks.get(key)
            if not st:
                bad('event %d: E with no open B on %r' % (n, key))
                continue
            name, start = st.pop()
            if e.get('name', name) != name or ts < start:
                bad('event %d: E %r at %r closes B %r at %r' % (n, e.get('name'), ts, name,
                                                               start))
        elif ph == 'X':
            if e['dur'] < 0:
                bad('event %d: negative dur' % n)
            slices.setdefault(key, []).append((ts, ts + e['dur'], n))
    for key, st in stacks.items():
        if st:
            bad('thread %r: %d B without E' % (key, len(st)))
    for key, sl in slices.items():
        sl.sort()
        for a, b in zip(sl, sl[1:]):
            if b[0] < a[1] - 1e-6 * max(1, a[1]) * 1e-9:
                bad('track %r: slice %d [%r,%r] overlaps slice %d from %r' % (
                    key, a[2], a[0], a[1], b[2], b[0]))
    for e in evs:
        if e.get('ph') in ('X', 'B', 'i', 'I') and ('thread_name', e['pid'], e['tid']) not in named:
            bad('thread %r has no thread_name metadata' % ((e['pid'], e['tid']),))
            break
    finish('%d events %s' % (len(evs), ' '.join('%s=%d' % kv for kv in sorted(phases.items()))))


def main(argv):
    cmds = {'jsonl': (check_jsonl, 1), 'raw': (check_raw, 2), 'csv': (check_csv, 2),
            'lost': (lost, 1), 'chrome': (check_chrome, 1)}
    if len(argv) < 2 or argv[1] not in cmds or len(argv) != 2 + cmds[argv[1]][1]:
        sys.stderr.write(__doc__)
        return 2
    cmds[argv[1]][0](*argv[2:])
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
