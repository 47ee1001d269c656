#!/bin/sh
# recorder-waits.sh PID: prints, for each recorder child of PID (trace-cmd
# record), how it sleeps: "kernel" (ppoll on its trace_pipe_raw, woken by the
# kernel or by the once-a-second flush) or "timer" (ppoll on no fd, with a
# timeout); retried while it is caught running.  Run from the traced command,
# a sibling of the recorders.
for p in $(cat /proc/$1/task/$1/children); do
	[ "$(cat /proc/$p/comm)" = trace-cmd ] || continue
	for i in $(seq 50); do
		set -- $(cat /proc/$p/syscall)
		[ "$1" != running ] && break
		sleep 0.01
	done
	if [ "$3" = 0x1 ]; then echo kernel
	elif [ "$3" = 0x0 ] && [ "$4" != 0x0 ]; then echo timer
	else echo "other: $*"
	fi
done
