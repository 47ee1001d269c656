#!/bin/bash
# dump --validate, --strings, --sections and --modules, the options upstream
# 3.4's dump has beside 3.1.6's: the same output as 3.4's on v6 and v7 files,
# and a v7 file with a saved /proc/modules section (written by mkdat.py).
. "$(dirname "$0")/test-lib.sh"

F=$FIXTURES
MODULES='ext4 1069056 1 - Live 0x0000000000000000
mbcache 16384 1 ext4, Live 0x0000000000000000
'

# modules_file OUT COMPRESSION: the sched scenario in v7 with a modules section.
modules_file() {
	python3 "$HELPERS/mkdat.py" --dump-spec sched >spec.json &&
	MODULES="$MODULES" python3 -c '
import json, os, sys
s = json.load(open("spec.json"))
s.update(version=7, compression=sys.argv[1], modules=os.environ["MODULES"])
json.dump(s, open("m.json", "w"))' "$2" &&
	python3 "$HELPERS/mkdat.py" m.json "$1"
}

test_expect_success PYTHON 'setup: v7 files with a modules section, uncompressed and zstd' '
	modules_file m.dat none && modules_file mz.dat zstd
'

test_expect_success PYTHON '--modules prints the saved /proc/modules and its size' '
	"$TRACE_CMD" dump --modules -i mz.dat >out &&
	{
		printf "\t[Section 25 @ 1452: \"modules\", flags 0x1, 78 bytes]\n\t[Saved modules]\n" &&
		printf "%s\n[87 bytes]\n" "$MODULES"
	} >expect &&
	test_cmp expect out &&
	"$TRACE_CMD" dump --modules -i m.dat >out &&
	sed -n "3,4p" out >text && printf "%s" "$MODULES" >want && test_cmp want text &&
	test "$(tail -n 1 out)" = "[87 bytes]"
'

test_expect_success PYTHON '--sections lists every section with its count; --strings the table' '
	"$TRACE_CMD" dump --sections -i m.dat >out &&
	grep -q "^	\[Section 25 @ 3790            	\"modules\", flags 0x0, 87 bytes\]$" out &&
	test "$(grep -c "^	\[Section " out)" = 11 &&
	test "$(tail -n 1 out)" = "	[11 sections]" &&
	"$TRACE_CMD" dump --strings -i m.dat >out &&
	test "$(head -n 1 out)" = "	[String @ offset]" &&
	grep -q "^		\"modules\" @ [0-9]*$" out &&
	test "$(wc -l <out)" = 12
'

test_expect_success 'a version 6 file has no strings, sections or modules: nothing printed' '
	for o in --strings --sections --modules; do
		"$TRACE_CMD" dump $o -i "$F/synth-sched-v6.dat" >out && test ! -s out || return 1
	done
'

test_expect_success '--validate is -v' '
	"$TRACE_CMD" dump --validate -i "$F/synth-sched-v7.dat" >out &&
	echo "File $F/synth-sched-v7.dat is a valid trace-cmd file" >expect &&
	test_cmp expect out &&
	head -c 100 "$F/synth-sched-v7.dat" >cut.dat &&
	test_expect_code 1 "$TRACE_CMD" dump --validate -i cut.dat 2>err &&
	grep -q "^trace-cmd dump: .cut.dat.: truncated" err
'

# same34 FILE FLAGS: our dump and 3.4's print the same.
same34() {
	dumped=$1; shift
	"$UPSTREAM34" dump "$@" -i "$dumped" >u 2>/dev/null
	"$TRACE_CMD" dump "$@" -i "$dumped" >o 2>err || { echo "dump $* failed"; cat err; return 1; }
	test_cmp u o || { echo "dump $* -i $dumped"; return 1; }
}

FLAGS34="--validate --strings --sections --modules"
for f in synth-sched-v6.dat synth-sched-v7.dat synth-sched-be32-v7-zstd.dat synth-instances-v7-zstd.dat \
	 synth-latency-v7-zstd.dat synth-funcgraph-v7-zlib.dat; do
	test_expect_success UPSTREAM34 "$f: $FLAGS34 as 3.4's dump" '
		for o in $FLAGS34 "--strings --sections" "--summary --sections" "--all"; do
			same34 "$F/'$f'" $o || return 1
		done
	'
done

test_expect_success UPSTREAM34,PYTHON 'a compressed modules section: every flag as 3.4' '
	for o in $FLAGS34 "" "--all" "--options" "--modules --cmd-lines"; do
		same34 mz.dat $o || return 1
	done
'

# 3.4 prints blanks before the text of an uncompressed modules section and
# a size of 12288 after it: its bug, not followed.
test_expect_success UPSTREAM34,PYTHON 'an uncompressed modules section: 3.4 pads the text with blanks (its bug)' '
	"$UPSTREAM34" dump --modules -i m.dat >u 2>/dev/null &&
	"$TRACE_CMD" dump --modules -i m.dat >o &&
	sed "s/^ *//" u | sed "\$d" >u.text && sed "\$d" o >o.text && test_cmp u.text o.text &&
	test "$(tail -n 1 u)" = "[12288 bytes]"
'

test_expect_success UPSTREAM34,CORPUS 'corpus files: the four flags as 3.4' '
	for f in x86_64-v7-zstd-stacktrace.dat x86_64-v7-zstd-empty.dat x86_64-v7-zlib-x86tsc-kvm.dat \
		 i686-v6-ext4.dat arm32-v6-sched-load.dat; do
		for o in $FLAGS34; do
			same34 "$CORPUS/$f" $o || return 1
		done
	done
'

test_done
