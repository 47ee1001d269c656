#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
test_description='sqlhist prints or makes a synthetic event or histogram described in SQL, as 3.4 does'
. ./test-lib.sh

WL='select end.next_comm as comm, (end.TIMESTAMP_USECS - start.TIMESTAMP_USECS) as lat from sched_waking as start join sched_switch as end on start.pid = end.next_pid'

# A fake tracing directory with the files sqlhist writes (regular files here,
# so each write can be read back).
cp -r "$FIXTURES/fake-tracing" fake-orig
: >fake-orig/synthetic_events
: >fake-orig/dynamic_events
for e in sched_waking sched_switch; do : >fake-orig/events/sched/$e/trigger; done
# libtracefs knows an event system by its enable file.
for d in fake-orig/events/*/; do : >"$d/enable"; done

test_expect_success 'usage: -h on stdout; bad options and no SQL are one-line errors with exit 2' '
	"$TRACE_CMD" sqlhist -h >out && grep -q "^usage: trace-cmd sqlhist" out &&
	check_usage 2 "trace-cmd sqlhist: no SQL given (an argument, or -f FILE)" sqlhist &&
	check_usage 2 "trace-cmd sqlhist: -s, -S and -T need -m or -c" sqlhist -s "$WL" &&
	check_usage 2 "trace-cmd sqlhist: -m and -c cannot be used together" sqlhist -m lat -c lat "$WL" &&
	check_usage 2 "trace-cmd sqlhist: SQL given both with -f and as arguments" sqlhist -f x "$WL" &&
	check_usage 2 "trace-cmd sqlhist: unknown option '"'"'-q'"'"'" sqlhist -q "$WL" &&
	check_usage 2 "trace-cmd sqlhist: option '"'"'-n'"'"' needs a value" sqlhist -n
'

test_expect_success 'the commands of a synthetic event, paths in the tracing directory' '
	fresh_fake &&
	"$TRACE_CMD" sqlhist -n wl "$WL" >out &&
	sed -E "s/_[0-9]+_/_N_/g" out >got &&
	cat >expect <<-EOF &&
	echo '"'"'s:wl char comm[16]; u64 lat;'"'"' >> $PWD/fake/dynamic_events
	echo '"'"'hist:keys=pid:__arg_N_2=common_timestamp.usecs'"'"' >> $PWD/fake/events/sched/sched_waking/trigger
	echo '"'"'hist:keys=next_pid:__comm_N_1=next_comm,__lat_N_3=common_timestamp.usecs-\$__arg_N_2:onmatch(sched.sched_waking).wl(\$__comm_N_1,\$__lat_N_3)'"'"' >> $PWD/fake/events/sched/sched_switch/trigger
	EOF
	test_cmp expect got && diff -r fake-orig fake
'

test_expect_success '-m/-c with -s, -S, -T: the handlers on the end event, in 3.4'"'"'s order' '
	fresh_fake &&
	"$TRACE_CMD" sqlhist -n wl -m lat -T -S next_prio "$WL" | tail -n 1 | sed -E "s/_[0-9]+_/_N_/g" >got &&
	grep -q ":onmax(\$__lat_N_3).save(next_prio):onmax(\$__lat_N_3).wl(\$__comm_N_1,\$__lat_N_3):onmax(\$__lat_N_3).snapshot()'"'"' >> " got &&
	! grep -q onmatch got &&
	"$TRACE_CMD" sqlhist -n wl -c lat -s "$WL" | tail -n 1 >got &&
	grep -q ":onchange(\$__lat_[0-9]*_3).snapshot()'"'"' >> " got &&
	check_usage 1 "trace-cmd sqlhist: '"'"'nosuch'"'"' is not a field of the synthetic event" sqlhist -m nosuch "$WL"
'

test_expect_success 'a histogram; the SQL from -f FILE or standard input' '
	fresh_fake &&
	echo "echo '"'"'hist:keys=pid'"'"' > $PWD/fake/events/sched/sched_waking/trigger" >expect &&
	"$TRACE_CMD" sqlhist "select pid from sched_waking" >got && test_cmp expect got &&
	echo "select pid" >sql && echo "from sched_waking" >>sql &&
	"$TRACE_CMD" sqlhist -f sql >got && test_cmp expect got &&
	"$TRACE_CMD" sqlhist -f - <sql >got && test_cmp expect got &&
	check_usage 1 "trace-cmd sqlhist: cannot read '"'"'nosuch.sql'"'"': No such file or directory" sqlhist -f nosuch.sql
'

test_expect_success 'bad SQL and unknown fields are one-line errors, exit 1' '
	fresh_fake &&
	check_usage 1 "trace-cmd sqlhist: invalid SQL: syntax error at '"'"''"'"'" sqlhist "select pid from" &&
	test $(wc -l <err) = 1 &&
	check_usage 1 "trace-cmd sqlhist: invalid SQL (see tracefs_sql(3))" sqlhist "select bogus from sched_waking" &&
	test $(wc -l <err) = 1
'

test_expect_success '-e makes it: each value written to its file, in order' '
	fresh_fake &&
	"$TRACE_CMD" sqlhist -e -n wl "$WL" >out && test ! -s out &&
	echo "s:wl char comm[16]; u64 lat;" >expect && test_cmp expect fake/dynamic_events &&
	grep -qx "hist:keys=pid:__arg_[0-9]*_2=common_timestamp.usecs" fake/events/sched/sched_waking/trigger &&
	grep -q "^hist:keys=next_pid:.*:onmatch(sched.sched_waking).wl(" fake/events/sched/sched_switch/trigger
'

test_expect_success '-e: a write refused undoes the ones made, and the error names it' '
	fresh_fake && rm fake/events/sched/sched_switch/trigger && mkdir fake/events/sched/sched_switch/trigger &&
	test_expect_code 1 "$TRACE_CMD" sqlhist -e -n wl "$WL" 2>err &&
	test $(wc -l <err) = 1 &&
	grep -q "^trace-cmd sqlhist: cannot open '"'"'$PWD/fake/events/sched/sched_switch/trigger'"'"': Is a directory" err &&
	printf "s:wl char comm[16]; u64 lat;\n-:wl\n" >expect && test_cmp expect fake/dynamic_events &&
	test $(wc -l <fake/events/sched/sched_waking/trigger) = 2 &&
	sed -n 2p fake/events/sched/sched_waking/trigger | grep -qx "!hist:keys=pid:__arg_[0-9]*_2=common_timestamp.usecs"
'

test_expect_success UPSTREAM34 'the printed commands equal 3.4'"'"'s for every handler option (variable numbers aside)' '
	for opts in "" "-m lat" "-c lat -s" "-m lat -s -S next_prio" "-m lat -T -S next_prio"; do
		"$TRACE_CMD" sqlhist -n wl $opts "$WL" | sed -E "s/_[0-9]+_/_N_/g" >ours &&
		"$UPSTREAM34" sqlhist -n wl $opts "$WL" | sed -E "s/_[0-9]+_/_N_/g" >theirs &&
		test -s theirs && test_cmp theirs ours || { echo "options: $opts"; return 1; }
	done &&
	"$TRACE_CMD" sqlhist "select pid, prio from sched_waking where prio < 100" >ours &&
	"$UPSTREAM34" sqlhist "select pid, prio from sched_waking where prio < 100" >theirs &&
	test_cmp theirs ours
'

test_done
