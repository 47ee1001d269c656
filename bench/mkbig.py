#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""bench/mkbig.py N OUT.dat: a v6 trace.dat of N scheduler and print events on
4 CPUs, written by tests/helper/mkdat.py (the independent synthetic writer),
for the report --format benchmark."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', 'tests', 'helper'))
import mkdat  # noqa: E402

TASKS = [(1234, 'bash'), (45, 'kworker/1:1'), (1300, 'cat'), (2001, 'make'), (2002, 'cc1')]


def records(n, cpus):
    ts = 12345678901000
    out = []
    for i in range(n):
        cpu = i % cpus
        pid, comm = TASKS[(i // cpus) % len(TASKS)]
        npid, ncomm = TASKS[(i // cpus + 1) % len(TASKS)]
        ts += 250
        k = i % 4
        if k == 0:
            out.append({'cpu': cpu, 'ts': ts, 'event': 'sched_switch', 'pid': pid,
                        'fields': {'prev_comm': comm, 'prev_pid': pid, 'prev_prio': 120,
                                   'prev_state': 1, 'next_comm': ncomm, 'next_pid': npid,
                                   'next_prio': 120}})
        elif k == 1:
            out.append({'cpu': cpu, 'ts': ts, 'event': 'sched_wakeup', 'pid': pid,
                        'flags': 1, 'fields': {'comm': ncomm, 'pid': npid, 'prio': 120,
                                               'target_cpu': cpu}})
        elif k == 2:
            out.append({'cpu': cpu, 'ts': ts, 'event': 'print', 'pid': pid,
                        'fields': {'ip': 'tracing_mark_write', 'buf': 'step %d\n' % i}})
        else:
            out.append({'cpu': cpu, 'ts': ts, 'event': 'sched_switch', 'pid': npid,
                        'fields': {'prev_comm': ncomm, 'prev_pid': npid, 'prev_prio': 120,
                                   'prev_state': 0, 'next_comm': comm, 'next_pid': pid,
                                   'next_prio': 120}})
    return out


def main(argv):
    if len(argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    import json
    import subprocess
    spec = json.loads(subprocess.check_output(
        [sys.executable, os.path.join(os.path.dirname(mkdat.__file__), 'mkdat.py'),
         '--dump-spec', 'sched']))
    spec['version'] = 6
    spec['cpus'] = 4
    spec['cmdlines'] = [list(t) for t in TASKS]
    spec['records'] = records(int(argv[1]), 4)
    data = mkdat.write_model(mkdat.build_model(spec))
    with open(argv[2], 'wb') as f:
        f.write(data)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
