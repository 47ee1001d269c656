#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""report --profile output, with what upstream 3.4 prints in hash order sorted.

3.4 lists a task's events that tie (the same event, the same total time) in
the order of a hash table keyed by pointers, which changes from run to run:
each run of tied event blocks (an "Event:" line and its stack tree) is
sorted.  With --groups, the "group:" (and "task:") blocks of --by-comm, in
3.4's hash order, are sorted by name too.  Reads standard input, writes standard output.
"""
import re
import sys


def tie_key(block):
    m = re.match(r'  Event: (func: |[^:]*:)', block[0])
    if not m:
        return None
    t = re.search(r' Total: (\d+) ', block[0])
    return (m.group(1), t.group(1) if t else None)


def sort_ties(blocks, out):
    i = 0
    while i < len(blocks):
        j = i
        k = tie_key(blocks[i])
        while k and j + 1 < len(blocks) and tie_key(blocks[j + 1]) == k:
            j += 1
        for b in sorted(blocks[i:j + 1]):
            out.extend(b)
        i = j + 1


def canon(lines):
    out, blocks = [], []
    for line in lines:
        if line.startswith('  Event: '):
            blocks.append([line])
        elif blocks and line.startswith('   '):
            blocks[-1].append(line)
        else:
            sort_ties(blocks, out)
            blocks = []
            out.append(line)
    sort_ties(blocks, out)
    return out


def sort_groups(text):
    head, *parts = re.split(r'\n(?=(?:group|task): )', text)
    return head + ''.join('\n' + p for p in sorted(p.rstrip('\n') + '\n' for p in parts))


text = '\n'.join(canon(sys.stdin.read().split('\n')))
if '--groups' in sys.argv[1:]:
    text = sort_groups(text)
sys.stdout.write(text)
