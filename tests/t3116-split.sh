#!/bin/bash
# split: the pieces are valid trace.dat files of the input's version and
# compression whose events are exactly the expected slice of the input's
# report, read alike by our report and upstream's; where upstream's split is
# right its pieces hold the same events as ours.
. "$(dirname "$0")/test-lib.sh"
. "$TEST_DIR/lib-pagesize.sh"

F=$FIXTURES
# The event lines of a report (no header, no empty-CPU notes).
# (ours with --line-3.1: uev is upstream 3.1.6, which has no latency column)
ev() { "$TRACE_CMD" report --line-3.1 -i "$1" | sed '0,/^cpus=/d' | grep -av "^CPU [0-9]* is empty"; }
uev() { "$UPSTREAM" report -i "$1" 2>/dev/null | sed '0,/^cpus=/d'; }
prefix_of() {
	python3 -c '
import sys
d = open(sys.argv[1], "rb").read(64)
v = d[10:d.index(b"\0", 10)].decode()
print(v, d[18:d.index(b"\0", 18)].decode() if v == "7" else "-")' "$1"
}
# A piece that starts after a task's sched_switch cannot know its name
# (report learns names from the events before): compare pids, not comms.
pids() { sed -E 's/^[^[]*-([0-9]+) +\[/\1 [/' "$@"; }
# The event lines of every piece BASE.*, one after the other.  Read by the
# plain build: a hundred pieces are a hundred reports, and the sanitized one
# (make check-asan) reads the inputs here and the pieces of the other tests.
pieces_ev() { for p in "$1".*; do TRACE_CMD=$SRC_DIR/trace-cmd ev "$p" || return 1; done; }
# The time (in seconds, as printed) of an event line.
ts_of() { awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) { print substr($i, 1, length($i) - 1); exit } }'; }
# The event lines of FILE (printed with report -t) from START to END, to the
# ns: seconds and nanoseconds compared apart, each exact in awk.
in_range() {
	awk -v s=$2 -v e=$3 '
	function cmp(a, b,   x, y) {
		split(a, x, "."); split(b, y, ".")
		if (x[1] + 0 != y[1] + 0) return x[1] + 0 < y[1] + 0 ? -1 : 1
		x[2] = substr(x[2] "000000000", 1, 9); y[2] = substr(y[2] "000000000", 1, 9)
		return x[2] + 0 < y[2] + 0 ? -1 : x[2] + 0 > y[2] + 0
	}
	{ for (i = 1; i <= NF; i++) if ($i ~ /^[0-9]+\.[0-9]+:$/) {
		t = substr($i, 1, length($i) - 1); if (cmp(t, s) >= 0 && cmp(t, e) <= 0) print; next } }' "$1"
}
evt() { "$TRACE_CMD" report --line-3.1 -t -i "$1" | sed '0,/^cpus=/d' | grep -av "^CPU [0-9]* is empty"; }

# split_all IN: -r -e 1 cuts between every two events; the pieces together
# are the input, each piece has one event, each keeps version and compression.
split_all() {
	rm -f p.* && "$TRACE_CMD" split -i "$1" -o p -r -e 1 || return 1
	ev "$1" >in.ev && pieces_ev p >all.ev && test_cmp in.ev all.ev || return 1
	test "$(ls p.* | wc -l)" = "$(grep -vc "EVENTS DROPPED" in.ev)" || { echo "piece count"; return 1; }
	prefix_of "$1" >want && prefix_of p.0001 >got && test_cmp want got
}

for f in synth-instances-v6.dat synth-instances-v7-zstd.dat synth-dropped-v7-zstd.dat \
	 synth-pages-v6.dat synth-pages-v7-zstd.dat synth-options-v6.dat synth-custom-v7.dat; do
	test_expect_success PYTHON "$f: one piece per event, together the input, same version" "split_all \$F/$f"
done

test_expect_success 'with no limit the one output OUT holds every event of every buffer' '
	rm -f p p.* && "$TRACE_CMD" split -i "$F/synth-instances-v7-zstd.dat" -o p &&
	test "$(ls p p.* 2>/dev/null)" = p &&
	"$TRACE_CMD" report -i "$F/synth-instances-v7-zstd.dat" >a && "$TRACE_CMD" report -i p >b &&
	test_cmp a b
'

test_expect_success 'the one output is FILE.1 without -o, or when -o names the input' '
	cp "$F/synth-instances-v6.dat" in.dat && rm -f in.dat.* &&
	"$TRACE_CMD" split -i in.dat && test "$(ls in.dat.*)" = in.dat.1 &&
	rm in.dat.1 && "$TRACE_CMD" split -i in.dat -o in.dat && test "$(ls in.dat.*)" = in.dat.1
'

test_expect_success UPSTREAM34 'output names are those of 3.4: OUT, or FILE.1' '
	cp "$F/synth-instances-v6.dat" in.dat &&
	for args in "-o p" "" "-o in.dat"; do
		rm -rf o.d t.d in.dat.* && mkdir o.d t.d &&
		(cd o.d && "$TRACE_CMD" split -i ../in.dat $args) &&
		mv in.dat.1 o.d/ 2>/dev/null; ls o.d >o.ls &&
		(cd t.d && "$UPSTREAM34" split -i ../in.dat $args >/dev/null 2>&1) &&
		mv in.dat.1 t.d/ 2>/dev/null; ls t.d >t.ls &&
		test_cmp t.ls o.ls || { echo "split $args"; return 1; }
	done
'

test_expect_success 'without -o the pieces are named after the input' '
	cp "$F/synth-instances-v6.dat" in.dat && rm -f in.dat.* &&
	"$TRACE_CMD" split -i in.dat -r -e 2 && ls in.dat.* >got &&
	printf "in.dat.0001\nin.dat.0002\nin.dat.0003\n" >want && test_cmp want got
'

test_expect_success 'START and END keep exactly the events from START to END, to the ns' '
	evt "$F/synth-pages-v6.dat" >in.ev &&
	start=$(sed -n 20p in.ev | ts_of) && end=$(sed -n 120p in.ev | ts_of) &&
	rm -f p && "$TRACE_CMD" split -i "$F/synth-pages-v6.dat" -o p $start $end &&
	in_range in.ev $start $end >want && sed -n 20,120p in.ev >want2 && test_cmp want2 want &&
	evt p >got && test_cmp want got
'

# An event at 12345.6789xx6xx ns prints as the next microsecond: a START
# copied from report (rounded up) is after it, so it is left out, as
# upstream compares the exact time (we once rounded the event to START).
test_expect_success 'a START rounded up from an event'"'"'s time leaves that event out' '
	evt "$F/synth-pages-v6.dat" >in.ev &&
	line=$(awk "/ [0-9]+\\.[0-9][0-9][0-9][0-9][0-9][0-9][5-9][0-9][0-9]: / { print NR; exit }" in.ev) &&
	test -n "$line" && ev "$F/synth-pages-v6.dat" >us.ev &&
	start=$(sed -n ${line}p us.ev | ts_of) && echo "$line at $start" &&
	rm -f p && "$TRACE_CMD" split -i "$F/synth-pages-v6.dat" -o p $start &&
	sed -n "$((line + 1)),\$p" in.ev >want && evt p >got && test_cmp want got
'

test_expect_success '-B NAME keeps that instance only, --top adds the top buffer' '
	ev "$F/synth-instances-v6.dat" >in.rep &&
	rm -f p && "$TRACE_CMD" split -i "$F/synth-instances-v6.dat" -o p -B foo &&
	grep "^foo: " in.rep >want && ev p >got && test_cmp want got &&
	rm -f p.* && "$TRACE_CMD" split -i "$F/synth-instances-v6.dat" -o p -B foo --top &&
	ev p >got && test_cmp in.rep got
'

# as_34 ARGS: our piece of the instances file and 3.4's hold the same events
# under the same buffer names (both read by our report).  v7: 3.4's v6 piece of
# -B NAME -t names a buffer whose data it left out (its report warns "could
# not retrieve handle foo", ours refuses the file).
as_34() {
	rm -f p u && "$TRACE_CMD" split -i "$F/synth-instances-v7.dat" -o p "$@" &&
	"$UPSTREAM34" split -i "$F/synth-instances-v7.dat" -o u "$@" >/dev/null 2>&1 &&
	ev p >ours && ev u >theirs && test_cmp theirs ours && test -s ours
}

test_expect_success UPSTREAM34 '-B NAME -t, --top -b NEW: buffers promoted and renamed as 3.4 does' '
	for args in "-B foo -t" "--top -b newtop -B foo" "--top -b x -B foo -t" "--top -b x"; do
		as_34 $args || { echo "split $args"; return 1; }
	done
'

test_expect_success '-B NAME -t: that buffer becomes the top one, the others are left out' '
	ev "$F/synth-instances-v6.dat" >in.rep &&
	rm -f p && "$TRACE_CMD" split -i "$F/synth-instances-v6.dat" -o p -B foo -t &&
	grep "^foo: " in.rep | sed "s/^foo: //" >want && ev p >got && test_cmp want got
'

# 3.4 takes --top=NEW but ignores NEW (its bug): ours names the buffer NEW.
test_expect_success '--top=NEW keeps the top buffer as the instance NEW, as --top -b NEW' '
	rm -f p q && "$TRACE_CMD" split -i "$F/synth-instances-v6.dat" -o p --top=bar -B foo &&
	"$TRACE_CMD" split -i "$F/synth-instances-v6.dat" -o q --top -b bar -B foo &&
	ev p >a && ev q >b && test_cmp a b && grep -q "^bar: " a && grep -q "^foo: " a
'

test_expect_success '-t, -b out of place, two top buffers or two names: exit 2, one line' '
	for args in "-t:-t must follow a -B NAME" "-b x:-b must follow --top" \
		    "-B foo -b x:-b must follow --top" "--top -B foo -b x:-b must follow --top" \
		    "--top=x -b y:-b must follow --top" "-B foo --top -t:-t must follow a -B NAME" \
		    "-B foo -t --top:only one buffer may be the output'"'"'s top one (--top, or -B NAME -t)" \
		    "--top -b foo -B foo:the output would have two buffers named '"'"'foo'"'"'" \
		    "--top=:--top needs a buffer name" "--top -b:option '"'"'-b'"'"' needs a value"; do
		eval "set -- ${args%%:*}" && rm -f p &&
		test_expect_code 2 "$TRACE_CMD" split -i "$F/synth-instances-v6.dat" -o p "$@" 2>err &&
		test "$(head -n 1 err)" = "trace-cmd split: ${args#*:}" && test ! -e p ||
			{ echo "$args"; cat err; return 1; }
	done
'

test_expect_success '-C CPU keeps that CPU only' '
	rm -f p.* && "$TRACE_CMD" split -i "$F/synth-pages-v7-zstd.dat" -o p -C 1 &&
	ev "$F/synth-pages-v7-zstd.dat" | grep "\[001\]" >want && ev p >got &&
	test_cmp want got && test -s got
'

test_expect_success '-c -e N: each piece holds N events of every CPU' '
	rm -f p.* && "$TRACE_CMD" split -i "$F/synth-pages-v6.dat" -o p -r -c -e 30 &&
	ev "$F/synth-pages-v6.dat" >in.ev &&
	for cpu in 000 001; do
		grep "\[$cpu\]" in.ev >cpu.ev &&
		for p in p.*; do ev $p | sed -n "/\[$cpu\]/p"; done >got &&
		test_cmp cpu.ev got || return 1
	done &&
	ev p.0001 | grep -c "\[000\]" >n0 && ev p.0001 | grep -c "\[001\]" >n1 &&
	test "$(cat n0 n1 | tr "\n" " ")" = "30 1 " && test "$(ls p.* | wc -l)" = 5
'

test_expect_success 'usage errors exit 2 with one line and the usage' '
	for args in "-e 0:invalid -e value '"'"'0'"'"': out of range (1 to 18446744073709551615)" \
		    "-e x:invalid -e value '"'"'x'"'"': not a number" \
		    "-e 5 -m 3:only one of -s, -m, -u, -e and -p may be given" \
		    "-z:unknown option '"'"'-z'"'"'" \
		    "-o:option '"'"'-o'"'"' needs a value" \
		    "abc:invalid start time '"'"'abc'"'"': not a time in seconds" \
		    "5.5 4:the end time 4 is before the start time 5.5" \
		    "1 2 3:unexpected argument '"'"'3'"'"'"; do
		eval "set -- ${args%%:*}" &&
		test_expect_code 2 "$TRACE_CMD" split -i "$F/synth-pages-v6.dat" "$@" 2>err &&
		test "$(head -n 1 err)" = "trace-cmd split: ${args#*:}" &&
		grep -q "^usage: trace-cmd split" err || { echo "$args"; cat err; return 1; }
	done
'

test_expect_success 'a missing input, CPU or buffer, or a damaged file: exit 1, no output' '
	rm -f p.* &&
	test_expect_code 1 "$TRACE_CMD" split -i nosuch.dat -o p 2>err &&
	test "$(cat err)" = "trace-cmd split: cannot open '"'"'nosuch.dat'"'"': No such file or directory" &&
	test_expect_code 1 "$TRACE_CMD" split -i "$F/synth-pages-v6.dat" -o p -C 7 2>err &&
	test "$(cat err)" = "trace-cmd split: '"'"'$F/synth-pages-v6.dat'"'"' has no CPU 7 (2 CPUs)" &&
	test_expect_code 1 "$TRACE_CMD" split -i "$F/synth-instances-v6.dat" -o p -B bar 2>err &&
	test "$(cat err)" = "trace-cmd split: '"'"'$F/synth-instances-v6.dat'"'"' has no buffer '"'"'bar'"'"'" &&
	size=$(stat -c %s "$F/synth-pages-v6.dat") &&
	head -c $((size - 3000)) "$F/synth-pages-v6.dat" >cut.dat &&
	test_expect_code 1 "$TRACE_CMD" split -i cut.dat -o p 2>err &&
	grep -q "^trace-cmd split: .*cut.dat" err &&
	test_expect_code 1 "$TRACE_CMD" split -i "$F/synth-latency-v6.dat" -o p 2>err &&
	test "$(cat err)" = "trace-cmd split: '"'"'$F/synth-latency-v6.dat'"'"': latency trace files hold no events to split" &&
	! ls p.* 2>/dev/null
'

test_expect_success 'split -h prints the usage to stdout and exits 0' '
	"$TRACE_CMD" split -h >out &&
	head -n 1 out | grep -q "^usage: trace-cmd split "
'

# Files of 32-bit machines: page headers of 4-byte words, kept as they are.
for f in synth-sched-le32-v6.dat synth-sched-le32-v7-zstd.dat synth-sched-u32k64-v6.dat; do
	test_expect_success PYTHON "$f (32-bit): one piece per event, together the input" "split_all \$F/$f"
done

# corpus_as_upstream FILE ARGS: our pieces of a file recorded elsewhere read
# alike in both reports, and hold the events of upstream's pieces.  Upstream
# 3.1.6 is wrong here: its pieces say this machine's long size (8), so its
# own report misreads their bprint arguments; ours keep the file's (4).
corpus_as_upstream() {
	in=$1; shift
	rm -f p p.* u u.* && "$TRACE_CMD" split -i "$in" -o p "$@" &&
	"$UPSTREAM" split -i "$in" -o u "$@" >/dev/null 2>&1 && from_316 &&
	pieces p | sed "s/^p//" >ours && pieces u | sed "s/^u//" >theirs && test_cmp theirs ours &&
	for p in $(pieces p); do
		uev $p >c && ev $p >a && test_cmp c a &&
		uev u${p#p} | grep -av " bprint: " >b && grep -av " bprint: " a >a2 && test_cmp b a2 &&
		test "$(long_size_of $p) $(long_size_of u${p#p})" = "4 8" ||
			{ echo "piece $p of split $* $in"; return 1; }
	done
}
long_size_of() { od -An -tu1 -j13 -N1 "$1" | tr -d " "; }
# 3.1.6 names its one piece u.1 where 3.4 (and ours) write u: renamed as 3.4 would.
from_316() { if test -e u.1; then mv u.1 u; fi; }
# The pieces of split -o BASE: BASE, or BASE.1, BASE.0001, ...
pieces() { ls "$1" "$1".[0-9]* 2>/dev/null; }

test_expect_success CORPUS,UPSTREAM 'corpus arm32 and i686 files (32-bit): pieces equal upstream'"'"'s split' '
	corpus_as_upstream "$CORPUS/arm32-v6-sched-load.dat" -e 100 &&
	corpus_as_upstream "$CORPUS/arm32-v6-sched-load.dat" -r -e 5000 &&
	corpus_as_upstream "$CORPUS/i686-v6-ext4.dat" -r -e 4 &&
	corpus_as_upstream "$CORPUS/arm32-v6-sched-load.dat" -C 1
'


# A fresh recording with many pages on both CPUs, the tracefs lock held only for it.
if test_have_prereq TRACEFS; then
	flock "$TRACEFS_LOCK" "$TRACE_CMD" record -e sched -e timer -o rec7.dat \
		sh -c 'for i in $(seq 150); do /bin/true; done' >/dev/null 2>&1 &&
	"$TRACE_CMD" convert -i rec7.dat -o rec6.dat --file-version 6 &&
	test_set_prereq RECORDED
fi

test_expect_success TRACEFS,PYTHON 'a fresh v7 zstd recording: -r -e 500 pieces are its report in order' '
	test_have_prereq RECORDED &&
	rm -f p.* && "$TRACE_CMD" split -i rec7.dat -o p -r -e 500 &&
	ev rec7.dat | pids >in.ev && pieces_ev p | pids >all.ev && test_cmp in.ev all.ev &&
	for p in p.*; do ev $p | wc -l; done | sort -n | tail -1 >max && test "$(cat max)" = 500 &&
	test "$(ls p.* | wc -l)" = $(( ($(wc -l <in.ev) + 499) / 500 )) &&
	prefix_of p.0001 >got && echo "7 zstd" >want && test_cmp want got
'

# Upstream's split of the same file, where it is right: the same events per piece.
same_as_upstream() {
	rm -f p p.* u u.* && "$TRACE_CMD" split -i rec6.dat -o p "$@" &&
	"$UPSTREAM" split -i rec6.dat -o u "$@" >/dev/null 2>&1 && from_316 &&
	pieces p | sed "s/^p//" >ours && pieces u | sed "s/^u//" >theirs && test_cmp theirs ours &&
	for p in $(pieces p); do
		ev $p >a && uev u${p#p} >b && test_cmp b a && uev $p >c && test_cmp b c ||
			{ echo "piece $p of split $*"; return 1; }
	done
}

test_expect_success TRACEFS,UPSTREAM 'pieces equal upstream'"'"'s split of the same v6 file' '
	test_have_prereq RECORDED &&
	for args in "-e 100" "-r -e 1000" "-c -e 100" "-r -c -e 1500" "-r -m 100" "-m 1" \
		    "-r -c -m 200" "-C 1 -r -e 1000"; do
		same_as_upstream $args || return 1
	done
'

# Upstream repacks events into pages of its own; ours keeps the input's pages.
test_expect_success TRACEFS 'a fresh recording: -r -p 3 pieces hold 3 pages of each CPU, together each CPU of the input' '
	test_have_prereq RECORDED &&
	rm -f p.* && "$TRACE_CMD" split -i rec6.dat -o p -r -p 3 &&
	for cpu in 000 001; do
		ev rec6.dat | pids | grep "\[$cpu\]" >in.ev &&
		for p in p.*; do ev $p | pids | sed -n "/\[$cpu\]/p"; done >all.ev &&
		test_cmp in.ev all.ev || return 1
	done &&
	"$TRACE_CMD" dump --flyrecord -i p.0001 | grep "size of cpu" >sizes &&
	test "$(awk "{ print \$2 }" sizes | sort -u)" = 12288
'

# Upstream (3.1.6 and 3.4) writes the first events of the range twice: compared once each.
test_expect_success TRACEFS,UPSTREAM 'a time range in ns: the events from START to END, as upstream'"'"'s' '
	test_have_prereq RECORDED &&
	evt rec6.dat >in.ev && n=$(wc -l <in.ev) &&
	start=$(sed -n "$((n / 3))p" in.ev | ts_of) && end=$(sed -n "$((2 * n / 3))p" in.ev | ts_of) &&
	rm -f p u u.* && "$TRACE_CMD" split -i rec6.dat -o p $start $end &&
	"$UPSTREAM" split -i rec6.dat -o u $start $end >/dev/null 2>&1 && from_316 &&
	in_range in.ev $start $end >want &&
	evt p >got && test_cmp want got &&
	"$UPSTREAM" report -t -i u 2>/dev/null | sed "0,/^cpus=/d" | uniq >theirs &&
	test_cmp want theirs
'

test_expect_success TRACEFS,UPSTREAM 'where upstream stops after one piece of -r with an END, ours goes on' '
	test_have_prereq RECORDED &&
	evt rec6.dat >in.ev && n=$(wc -l <in.ev) && end=$(sed -n "$((n / 2))p" in.ev | ts_of) &&
	rm -f p.* u.* && "$TRACE_CMD" split -i rec6.dat -o p -r -e 200 0 $end &&
	"$UPSTREAM" split -i rec6.dat -o u -r -e 200 0 $end >/dev/null 2>&1 &&
	test "$(ls u.* | wc -l)" = 1 &&
	for p in p.*; do evt $p; done | pids >all.ev && in_range in.ev 0 $end | pids >want &&
	test_cmp want all.ev &&
	test "$(ls p.* | wc -l)" = $(( ($(wc -l <want) + 199) / 200 ))
'

# Report reads the data by the BUFFER option's page size: the pieces must
# give that size, not the header's.
for sizes in "4096 2048" "4096 65536" "65536 4096"; do
	test_expect_success PYTHON "pages of ${sizes% *} bytes under a header saying ${sizes#* }: pieces report the same" '
		pages_file pages.dat '"$sizes"' &&
		rm -f p.* && "$TRACE_CMD" split -i pages.dat -o p &&
		ev pages.dat >a && ev p >b && test_cmp a b &&
		"$TRACE_CMD" split -i pages.dat -o p -r -e 1000 &&
		cat p.0001 >/dev/null && for f in p.0*; do ev $f; done >b && test_cmp a b
	'
done

test_expect_success PYTHON 'buffers of different page sizes: refused together, split apart' '
	instance_pages_file mixed.dat &&
	test_expect_code 1 "$TRACE_CMD" split -i mixed.dat -o m 2>err &&
	echo "trace-cmd split: '"'"'mixed.dat'"'"': buffer '"'"''"'"' has pages of 4096 bytes, buffer '"'"'foo'"'"' of 8192: not rewritten" >want &&
	test_cmp want err && test ! -e m &&
	"$TRACE_CMD" split -i mixed.dat -o m -B foo &&
	"$TRACE_CMD" report -i mixed.dat | grep -a "^ *foo:" >a &&
	"$TRACE_CMD" report -i m | grep -a "^ *foo:" >b && test -s a && test_cmp a b
'

test_done
