#!/bin/bash
# Every command has a man page whose options match its -h text, and the pages build.
. "$(dirname "$0")/test-lib.sh"

# Option names (-x, --long) in a command's usage text.
usage_opts() {
	"$TRACE_CMD" "$1" -h | grep -oE '(^|[][ ,|])--?[A-Za-z0-9][A-Za-z0-9-]*' |
		sed 's/^[][ ,|]//' | sort -u
}

# Option names in the OPTIONS section of a man page (the *-x* / *--long* item labels).
page_opts() {
	sed -n '/^OPTIONS$/,/^[A-Z][A-Z ]*$/p' "$1" | grep -E '^\*-' |
		grep -oE '\*--?[A-Za-z0-9][A-Za-z0-9-]*' | tr -d '*' | sort -u
}

test_expect_success 'every command but help has a man page' '
	for c in $("$TRACE_CMD" --list-commands); do
		[ $c = help ] && continue
		test -f "$SRC_DIR/Documentation/trace-cmd-$c.1.txt" || { echo "no page for $c"; exit 1; }
	done
'

test_expect_success 'each man page lists exactly the options of CMD -h' '
	for c in $("$TRACE_CMD" --list-commands); do
		page=$SRC_DIR/Documentation/trace-cmd-$c.1.txt
		[ -f "$page" ] || continue
		usage_opts $c | grep -vx -- "-h" >usage.opts
		page_opts "$page" | grep -vx -- "-h" >page.opts
		test_cmp usage.opts page.opts || { echo "command $c: usage (-) vs man page (+)"; exit 1; }
	done
'

test_expect_success 'trace-cmd(1) lists every command' '
	for c in $("$TRACE_CMD" --list-commands); do
		sed -n "/^COMMANDS$/,/^OPTIONS$/p" "$SRC_DIR/Documentation/trace-cmd.1.txt" |
			grep -q "^\*$c\*\|, \*$c\*::" || { echo "$c not in trace-cmd(1)"; exit 1; }
	done
'

test_expect_success 'each man page SYNOPSIS names its command' '
	for c in $("$TRACE_CMD" --list-commands); do
		page=$SRC_DIR/Documentation/trace-cmd-$c.1.txt
		[ -f "$page" ] || continue
		sed -n "/^SYNOPSIS$/,/^DESCRIPTION$/p" "$page" | grep -q "trace-cmd $c" ||
			{ echo "SYNOPSIS of $c"; exit 1; }
	done
'

# The one test that builds the pages in the tree: two scripts running make
# doc at once (the suite runs three at a time) clobber each other's XML.
test_expect_success 'make doc and make install_doc install every page, titles whole' '
	command -v a2x >/dev/null || { echo "a2x missing (asciidoc-base)"; exit 1; }
	make -s -C "$SRC_DIR" doc DESTDIR="$TRASH/root" prefix=/usr install_doc >make.log 2>&1 ||
		{ cat make.log; exit 1; }
	for t in "$SRC_DIR"/Documentation/*.[15].txt; do
		n=$(basename "$t" .txt)
		test -s "$TRASH/root/usr/share/man/man${n##*.}/$n" || { echo "missing $n"; exit 1; }
	done &&
	for m in "$TRASH"/root/usr/share/man/man[15]/*; do
		n=$(basename "$m"); want=$(echo "${n%.[0-9]}" | tr a-z A-Z)
		got=$(sed -n "s/^\.TH \"\([^\"]*\)\".*/\1/p" "$m" | sed "s/\\\\&//g; s/\\\\-/-/g")
		[ "$got" = "$want" ] || { echo "$n: title \"$got\", not \"$want\""; exit 1; }
	done
'

test_expect_success 'make install honours DESTDIR and prefix, with bash completion' '
	make -s -C "$SRC_DIR" DESTDIR="$TRASH/inst" prefix=/opt/tc install >make.log 2>&1 ||
		{ cat make.log; exit 1; }
	test -x "$TRASH/inst/opt/tc/bin/trace-cmd" &&
	"$TRASH/inst/opt/tc/bin/trace-cmd" --version | grep -q "^trace-cmd version" &&
	grep -q "complete -F _trace_cmd trace-cmd" "$TRASH/inst/opt/tc/share/bash-completion/completions/trace-cmd"
'

test_expect_success 'bash completion offers every command and record options' '
	bash -c ". \"$SRC_DIR/trace-cmd.bash\"
		COMP_WORDS=(trace-cmd re); COMP_CWORD=1; _trace_cmd; echo \${COMPREPLY[*]}" >cmds &&
	grep -qw record cmds && grep -qw report cmds &&
	bash -c ". \"$SRC_DIR/trace-cmd.bash\"
		COMP_WORDS=(trace-cmd report --c); COMP_CWORD=2; _trace_cmd; echo \${COMPREPLY[*]}" >opts &&
	grep -q -- "--cpu" opts
'

test_done
