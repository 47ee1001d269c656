#!/bin/bash
# The file-format pages build and install, and every page and section the
# sources cite is in Documentation/ (a clone has no ../shared notes to cite).
. "$(dirname "$0")/test-lib.sh"

# The sources a user's clone holds, without build output.
sources() {
	find "$SRC_DIR" \( -path "$SRC_DIR/asan" -o -path "$SRC_DIR/fuzz/build" -o \
		-path "$SRC_DIR/.git" \) -prune -o -type f \( "$@" \) -print
}

# "PAGE(N)" names cited in C sources, one a line.
cited_pages() {
	sources -name '*.c' -o -name '*.h' | xargs grep -ohE 'trace-cmd[-.a-z0-9]*[a-z0-9]\([158]\)' |
		sort -u
}

# "PAGE(N)<TAB>SECTION" for every "PAGE(N), SECTION" (or "PAGE(N) SECTION") cited.
cited_sections() {
	sources -name '*.c' -o -name '*.h' |
		xargs grep -ohE 'trace-cmd[-.a-z0-9]*[a-z0-9]\([158]\),? [A-Z][A-Z0-9_ ]*[A-Z0-9_]' |
		sed -E 's/\),? /)\t/' | sort -u
}

# The headings of an asciidoc page: a line underlined with - or ~.
page_sections() {
	awk 'prev != "" && /^(-+|~+)$/ && length($0) == length(prev) { print prev } { prev = $0 }' "$1"
}

test_expect_success 'the file-format pages exist' '
	test -s "$SRC_DIR/Documentation/trace-cmd.dat.v6.5.txt" &&
	test -s "$SRC_DIR/Documentation/trace-cmd.dat.v7.5.txt"
'

test_expect_success 'trace-cmd(1) refers to both file-format pages' '
	sed -n "/^SEE ALSO$/,/^AUTHOR$/p" "$SRC_DIR/Documentation/trace-cmd.1.txt" >see-also &&
	grep -q "trace-cmd.dat.v6\*(5)" see-also && grep -q "trace-cmd.dat.v7\*(5)" see-also
'

test_expect_success 'no source cites the FORMATS.md notes a clone does not have' '
	sources -name "*.c" -o -name "*.h" -o -name "*.py" -o -name "*.sh" |
		grep -v "/t0002-docs-cited.sh$" | xargs grep -n "FORMATS\.md" >found || true
	test_cmp /dev/null found
'

test_expect_success 'every page a C source cites is in Documentation/' '
	cited_pages >pages &&
	test -s pages &&
	while read -r p; do
		name=${p%(*}; sec=${p#*(}; sec=${sec%)}
		test -f "$SRC_DIR/Documentation/$name.$sec.txt" || echo "$p: no Documentation/$name.$sec.txt"
	done <pages >missing &&
	test_cmp /dev/null missing
'

test_expect_success 'every page section a C source cites is a heading of that page' '
	cited_sections >sections &&
	grep -q "trace-cmd.dat.v7(5)	COMPRESSION" sections &&
	while IFS="	" read -r p s; do
		name=${p%(*}; sec=${p#*(}; sec=${sec%)}
		page=$SRC_DIR/Documentation/$name.$sec.txt
		[ -f "$page" ] || { echo "$p: no page"; continue; }
		page_sections "$page" | grep -qxF "$s" || echo "$p cites \"$s\", not a heading there"
	done <sections >missing &&
	test_cmp /dev/null missing
'

# The command lines of a page's EXAMPLES listings.
page_examples() {
	sed -n "/^EXAMPLES$/,/^NOTES$/p" "$1" | awk '/^----$/ { inside = !inside; next } inside'
}

test_expect_success 'the examples of the file-format pages work' '
	for v in 6 7; do
		cp "$SRC_DIR/tests/fixtures/synth-sched-v$v.dat" trace.dat &&
		page_examples "$SRC_DIR/Documentation/trace-cmd.dat.v$v.5.txt" >examples &&
		test -s examples &&
		while read -r cmd args; do
			[ "$cmd" = trace-cmd ] && cmd=$TRACE_CMD
			$cmd $args >out 2>&1 && test -s out || { echo "failed: $cmd $args"; cat out; exit 1; }
		done <examples || exit 1
	done
'

test_done
