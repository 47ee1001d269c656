#!/bin/bash
# Which events make report load kallsyms (trace_print_needs_functions()):
# only those whose print may look a function up.  sched_switch's "R" is a
# string its %s prints, and its plugin's handler names no function, so
# report -F sched_switch never loads the file's symbols (5 MB of text).
. "$(dirname "$0")/test-lib.sh"

# fmt NAME 'PRINT FMT': a format file NAME with fields ip (8 bytes), state
# (8) and comm (16 chars) after the common ones.
fmt() {
	cat >"$1" <<-END
	name: $1
	ID: $((${#1} + 100))
	format:
		field:unsigned short common_type;	offset:0;	size:2;	signed:0;
		field:unsigned char common_flags;	offset:2;	size:1;	signed:0;
		field:unsigned char common_preempt_count;	offset:3;	size:1;	signed:0;
		field:int common_pid;	offset:4;	size:4;	signed:1;

		field:unsigned long ip;	offset:8;	size:8;	signed:0;
		field:long state;	offset:16;	size:8;	signed:1;
		field:char comm[16];	offset:24;	size:16;	signed:0;

	print fmt: $2
	END
}

test_expect_success 'setup: formats with symbols as numbers, as strings and none' '
	fmt sched_switch "\"prev_comm=%s prev_state=%s%s\", REC->comm, (REC->state & 0xff) ? __print_flags(REC->state & 0xff, \"|\", { 0x01, \"S\" }, { 0x02, \"D\" }) : \"R\", REC->state & 0x100 ? \"+\" : \"\"" &&
	fmt str_cond "\"state=%s\", REC->state ? \"yes\" : \"no\"" &&
	fmt star_str "\"%*s|%s\", REC->state, \"pad\", \"word\"" &&
	fmt num_atom "\"ip=%lx\", REC->ip - _stext" &&
	fmt num_cond "\"v=%d\", REC->state ? 1 : some_symbol" &&
	fmt star_atom "\"%*d\", some_width, REC->state" &&
	fmt sym_ptr "\"ip=%pS\", REC->ip" &&
	fmt plain "\"ip=%lx state=%ld comm=%s\", REC->ip, REC->state, REC->comm" &&
	cat >expect <<-\END
	sched_switch 0
	str_cond 0
	star_str 0
	num_atom 1
	num_cond 1
	star_atom 1
	sym_ptr 1
	plain 0
	END
'

test_expect_success 'kallsyms is loaded only for a symbol taken for a number or a %pS' '
	"$HELPERS/needs-functions" sched sched_switch >out &&
	"$HELPERS/needs-functions" demo str_cond star_str num_atom num_cond star_atom sym_ptr plain >>out &&
	test_cmp expect out
'

test_expect_success 'a plugin handler that looks functions up still loads them' '
	fmt kmalloc "\"call_site=%lx\", REC->ip" &&
	"$HELPERS/needs-functions" kmem kmalloc >out &&
	echo "kmalloc 1" >expect &&
	test_cmp expect out
'

test_done
