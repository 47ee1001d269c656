#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sched-figures.py: the figures of trace-cmd-convert(1)'s example queries,
computed from the text `trace-cmd report -t` prints (not from the database),
printed as sqlite3 prints the queries' answers (columns joined by '|').

  sched-figures.py busiest REPORT   the five pids that ran longest: pid|comm|ns
  sched-figures.py wakeup REPORT    the five worst wakeup latencies: pid|comm|waking_ts|ns
  sched-figures.py idle REPORT      each CPU's idle time: cpu|ns
  sched-figures.py irq REPORT       per irq and name, handlers run and their time: irq|name|n|ns

A slice runs from a sched_switch to the next on its CPU; a wakeup counts
from the task's last sched_waking (sched_wakeup in a trace with no
sched_waking yet, sched_wakeup_new) to its switch in, and is forgotten when
the task is switched out still runnable (R).  An irq handler runs from its
irq_handler_entry to the exit of the same irq on its CPU.  Lost events end
what was open on their CPU.
"""
import re
import sys

LINE = re.compile(r'^\s*(?P<comm>.*)-(?P<pid>\d+)\s+\[(?P<cpu>\d+)\]\s+(?:[^\s:]+\s+)?'
                  r'(?P<sec>\d+)\.(?P<ns>\d{9}):\s+(?P<event>\w+):\s+(?P<rest>.*)$')
SWITCH = re.compile(r'^(?P<pc>.*):(?P<pp>\d+) \[-?\d+\] (?P<st>\S+) ==> '
                    r'(?P<nc>.*):(?P<np>\d+) \[-?\d+\]$')
WAKE_FIELDS = re.compile(r'^comm=(?P<c>.*) pid=(?P<p>\d+) prio=')
WAKE_PLUGIN = re.compile(r'^(?P<c>.*):(?P<p>\d+) \[-?\d+\]')
IRQ_ENTRY = re.compile(r'^irq=(?P<irq>\d+) name=(?P<name>.*)$')
IRQ_EXIT = re.compile(r'^irq=(?P<irq>\d+) ret=')
LOST = re.compile(r'^CPU:(\d+) \[.*(LOST|DROPPED)')


def figures(lines):
    running = {}        # cpu -> (pid, comm, start)
    comm = {}           # pid -> last comm
    woken = {}          # pid -> wake ts
    use_waking = False
    run = {}            # pid -> ns
    idle = {}           # cpu -> ns
    latencies = []
    irq_open = {}       # cpu -> [(irq, name, ts)]
    irqs = {}           # (irq, name) -> [n, ns]
    for line in lines:
        m = LOST.match(line)
        if m:
            running.pop(int(m.group(1)), None)
            irq_open.pop(int(m.group(1)), None)
            continue
        m = LINE.match(line.rstrip('\n'))
        if not m:
            continue
        cpu, ev, rest = int(m['cpu']), m['event'], m['rest']
        ts = int(m['sec'] + m['ns'])
        if ev == 'sched_switch':
            s = SWITCH.match(rest)
            pp, np_ = int(s['pp']), int(s['np'])
            comm[pp] = s['pc']
            if s['st'] == 'R':
                woken.pop(pp, None)
            if cpu in running:
                pid, _, start = running[cpu]
                if pid == 0:
                    idle[cpu] = idle.get(cpu, 0) + ts - start
                else:
                    run[pid] = run.get(pid, 0) + ts - start
            running[cpu] = (np_, s['nc'], ts)
            comm[np_] = s['nc']
            if np_ in woken:
                latencies.append((np_, s["nc"], woken.pop(np_), ts))
            continue
        if ev == 'irq_handler_entry':
            e = IRQ_ENTRY.match(rest)
            irq_open.setdefault(cpu, []).append((int(e['irq']), e['name'], ts))
            continue
        if ev == 'irq_handler_exit':
            irq, stack = int(IRQ_EXIT.match(rest)['irq']), irq_open.get(cpu, [])
            for i in range(len(stack) - 1, -1, -1):
                if stack[i][0] == irq:
                    fig = irqs.setdefault((irq, stack[i][1]), [0, 0])
                    fig[0] += 1
                    fig[1] += ts - stack[i][2]
                    del stack[i:]
                    break
            continue
        if ev == 'sched_waking':
            use_waking = True
        if ev in ('sched_wakeup_new', 'sched_waking' if use_waking else 'sched_wakeup'):
            w = WAKE_FIELDS.match(rest) or WAKE_PLUGIN.match(rest)
            pid = int(w['p'])
            if w['c']:
                comm[pid] = w['c']
            woken[pid] = ts
    return run, idle, latencies, comm, irqs


def main():
    what, path = sys.argv[1], sys.argv[2]
    with open(path, errors='replace') as f:
        run, idle, latencies, comm, irqs = figures(f)
    if what == 'busiest':
        for pid, ns in sorted(run.items(), key=lambda kv: (-kv[1], kv[0]))[:5]:
            print('%d|%s|%d' % (pid, comm[pid], ns))
    elif what == 'wakeup':
        rows = [(pid, c, w, ts - w) for pid, c, w, ts in latencies]
        for pid, c, w, lat in sorted(rows, key=lambda r: (-r[3], r[2], r[0]))[:5]:
            print('%d|%s|%d|%d' % (pid, c, w, lat))
    elif what == 'idle':
        for cpu in sorted(idle):
            print('%d|%d' % (cpu, idle[cpu]))
    elif what == 'irq':
        for (irq, name), (n, ns) in sorted(irqs.items()):
            print('%d|%s|%d|%d' % (irq, name, n, ns))
    else:
        sys.exit('sched-figures.py: unknown figure %r' % what)


main()
