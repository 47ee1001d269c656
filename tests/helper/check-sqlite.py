#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""check-sqlite.py DB JSONL: the database convert --to sqlite wrote holds the
same events as report --format jsonl of the same file, read with Python's
own sqlite3 and json modules.

Each jsonl event is matched with the next row (by rowid) of its event's
table: ts (ts_ns where the jsonl has it), cpu, pid, comm, buffer, then the
fields in their order: integers equal (an unsigned value above 2^63-1 as its
64 bits), strings equal, arrays equal to the JSON array in the cell, null as
NULL.  Lost-events records match the lost_events table.  No row is left over.
Prints what is wrong and exits 1, or one summary line and exits 0.
"""
import codecs
import json
import sqlite3
import sys


def latin1_bytes(err):
    """Bytes that are not UTF-8 read as the character of the same number, as jsonl writes them."""
    return ''.join(chr(b) for b in err.object[err.start:err.end]), err.end


codecs.register_error('latin1bytes', latin1_bytes)


def text(v):
    return v.decode('utf-8', 'latin1bytes') if isinstance(v, bytes) else v


def same(cell, value):
    if value is None:
        return cell is None
    if isinstance(value, bool):
        return False
    if isinstance(value, int):
        return isinstance(cell, int) and cell & (2**64 - 1) == value & (2**64 - 1)
    if isinstance(value, str):
        return text(cell) == value
    if isinstance(value, list):
        return cell is not None and json.loads(text(cell)) == value
    return False


def main():
    db = sqlite3.connect(sys.argv[1])
    db.text_factory = bytes
    tables = {text(n) for (n,) in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
    cursors, lost, errors, n = {}, [], [], 0
    for lineno, line in enumerate(open(sys.argv[2], encoding='utf-8'), 1):
        rec = json.loads(line)
        ts = rec.get('ts_ns', rec['ts'])
        if rec['event'] == 'lost':
            lost.append((ts, rec['cpu'], rec.get('buffer', ''), rec['count']))
            continue
        name = rec['event'] if rec['event'] in tables else rec['system'] + '_' + rec['event']
        if name not in cursors:
            cursors[name] = db.execute('SELECT * FROM "%s" ORDER BY rowid' % name)
        row = cursors[name].fetchone()
        want = [ts, rec['cpu'], rec['pid'], rec['comm'], rec.get('buffer', '')]
        want += list(rec['fields'].values())
        if row is None or len(row) != len(want) or \
                not all(same(c, v) for c, v in zip(row, want)):
            errors.append('line %d (%s): jsonl %r, row %r' % (lineno, name, want, row))
        n += 1
    for name, cur in cursors.items():
        if cur.fetchone() is not None:
            errors.append('table %s has rows report does not' % name)
    rows = [tuple(text(c) for c in r) for r in db.execute('SELECT * FROM lost_events ORDER BY rowid')]
    if rows != lost:
        errors.append('lost_events %r, jsonl %r' % (rows, lost))
    for e in errors[:10]:
        print(e)
    if errors:
        sys.exit(1)
    print('%d events in %d tables, %d lost-events marks agree' % (n, len(cursors), len(lost)))


main()
