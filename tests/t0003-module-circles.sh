#!/bin/bash
# The modules call and include one way: no circle of calls between the
# trace-*.o of the build (nm), none of #include among our headers.  The
# reader's parts call down to trace-input.c (trace-reader.c opens and
# closes them), listen's client is handed what it needs.
. "$(dirname "$0")/test-lib.sh"

# The build's objects: the plain build's, else the sanitized one's.
OBJ_DIR=$SRC_DIR
ls "$OBJ_DIR"/trace-*.o >/dev/null 2>&1 || OBJ_DIR=$SRC_DIR/fuzz/obj
ls "$OBJ_DIR"/trace-*.o >/dev/null 2>&1 && command -v nm >/dev/null && test_set_prereq OBJECTS

test_expect_success OBJECTS 'no circle of calls or includes between modules' '
	python3 "$TEST_DIR/helper/module-circles.py" "$OBJ_DIR" "$SRC_DIR" >circles &&
	test_cmp /dev/null circles
'

test_expect_success OBJECTS 'a circle would be seen' '
	mkdir -p fake &&
	printf "int b(void);\nint a(void) { return b(); }\n" >fake/trace-a.c &&
	printf "int a(void);\nint b(void) { return a(); }\n" >fake/trace-b.c &&
	cc -c -o fake/trace-a.o fake/trace-a.c && cc -c -o fake/trace-b.o fake/trace-b.c &&
	python3 "$TEST_DIR/helper/module-circles.py" fake fake >circles &&
	grep -q "^circle: trace-a -> trace-b (b); trace-b -> trace-a (a)$" circles
'

# trace-cmd.c and .h hold the command table (git.c style), each command its cmd_X.
test_expect_success 'no module reads another module'"'"'s variable through extern' '
	grep -n "^extern " "$SRC_DIR"/trace-*.c "$SRC_DIR"/trace-*.h |
		grep -v -e "/trace-cmd\.[ch]:" -e ":extern const struct command cmd_[a-z_, ]*;$" >externs || :
	test_cmp /dev/null externs
'

test_done
