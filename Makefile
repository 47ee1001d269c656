# SPDX-License-Identifier: GPL-2.0
# Build trace-cmd, its tests, man pages and bash completion.
#   make                 build ./trace-cmd
#   make test            build everything, then the whole test suite with the
#                        ASan+UBSan build (make check-asan)
#   make test-plain      the whole test suite with the plain ./trace-cmd
#   make check-fresh     the README's test command in a fresh Debian 12 root
#                        (FRESH=--no-shared: without ../shared; FRESH=--main:
#                        the README's first command), as .ci/run does
#   make doc             build the man pages from Documentation/*.txt
#   make install         install to $(DESTDIR)$(prefix)
#   make install_doc     install the man pages

prefix		?= /usr/local
bindir		?= $(prefix)/bin
mandir		?= $(prefix)/share/man
completiondir	?= $(prefix)/share/bash-completion/completions

CC		?= cc
PKG_CONFIG	?= pkg-config
PKGS		:= libtraceevent libtracefs zlib libzstd sqlite3

CFLAGS		?= -O2 -g
CFLAGS		+= -Wall -Wextra -std=gnu11 -D_GNU_SOURCE
CFLAGS		+= $(shell $(PKG_CONFIG) --cflags $(PKGS))
LDLIBS		+= $(shell $(PKG_CONFIG) --libs $(PKGS)) -ldl -lpthread

SRCS		:= $(sort $(wildcard trace-*.c)) trace-cmd.c
SRCS		:= $(sort $(SRCS))
OBJS		:= $(SRCS:.c=.o)
LIB_OBJS	:= $(filter-out trace-cmd.o,$(OBJS))
HELPER_SRCS	:= $(wildcard tests/helper/*.c)
HELPERS		:= $(HELPER_SRCS:.c=)

DOCS		:= $(wildcard Documentation/*.txt)
MAN1		:= $(patsubst %.txt,%,$(filter Documentation/trace-cmd%.1.txt,$(DOCS)))
MAN5		:= $(patsubst %.txt,%,$(filter Documentation/%.5.txt,$(DOCS)))

all: trace-cmd trace-cmd.bash

# libtraceevent's kvm plugin calls the application's tep_plugin_kvm_get_func()
# when the executable exports it (trace-kvm-guest.c).
EXPORTS		:= -Wl,--export-dynamic-symbol=tep_plugin_kvm_get_func

trace-cmd: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) $(EXPORTS) -o $@ $^ $(LDLIBS)

%.o: %.c $(wildcard *.h)
	$(CC) $(CFLAGS) -c -o $@ $<

# Test helpers link the same modules as trace-cmd, without its main().
tests/helper/%: tests/helper/%.c $(LIB_OBJS) $(wildcard *.h)
	$(CC) $(CFLAGS) -I. $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

helpers: $(HELPERS)

# Bash completion comes from the command table and each command's usage text.
trace-cmd.bash: trace-cmd scripts/gen-completion.sh
	sh scripts/gen-completion.sh ./trace-cmd >$@

# Scripts at a time: the tracefs scripts take one lane (see tests/run), the
# others share the rest; two cores are busy with three jobs.
TEST_JOBS	?= 3

test-plain: all helpers
	tests/run -j $(TEST_JOBS)

FRESH		?=

check-fresh:
	sh scripts/fresh-root.sh $(FRESH)

doc: $(MAN1) $(MAN5)

Documentation/%: Documentation/%.txt
	PATH=/usr/bin:$$PATH a2x --no-xmllint -d manpage -f manpage -D Documentation $<

install: all
	install -d $(DESTDIR)$(bindir) $(DESTDIR)$(completiondir)
	install -m 755 trace-cmd $(DESTDIR)$(bindir)/trace-cmd
	install -m 644 trace-cmd.bash $(DESTDIR)$(completiondir)/trace-cmd

install_doc: doc
	install -d $(DESTDIR)$(mandir)/man1 $(DESTDIR)$(mandir)/man5
	$(if $(MAN1),install -m 644 $(MAN1) $(DESTDIR)$(mandir)/man1)
	$(if $(MAN5),install -m 644 $(MAN5) $(DESTDIR)$(mandir)/man5)

clean:
	rm -f trace-cmd trace-cmd.bash *.o $(HELPERS) $(MAN1) $(MAN5) Documentation/*.xml

.PHONY: all helpers test test-plain check-fresh doc install install_doc clean

# ---- Hardening (issue 7): fuzz targets and the sanitizer build ------------
#   make fuzz                 build the libFuzzer targets fuzz/fuzz-* (clang)
#   make fuzz-run SECONDS=N   fuzz each target N seconds, two at a time
#   make fuzz-replay          replay every committed corpus, fixed seed and runs
#   make check-asan           build asan/trace-cmd (ASan+UBSan), run the whole suite
#                             with it (a script marked "# plain-build: WHY", t7001's
#                             valgrind, with ./trace-cmd), JOBS at a time
FUZZ_CC		?= clang
SAN_FLAGS	:= -g -O1 -fno-omit-frame-pointer -fsanitize=address,undefined \
		   -fno-sanitize-recover=undefined
FUZZ_TARGETS	:= tracedat page net-v3 net-v1 listen-file
FUZZ_BINS	:= $(patsubst %,fuzz/fuzz-%,$(FUZZ_TARGETS))
FUZZ_OBJS	:= $(patsubst %.o,fuzz/obj/%.o,$(LIB_OBJS))
# asan/trace-cmd links the fuzz targets' objects (ASan+UBSan, coverage
# counters that cost little): one sanitizer build of each file, not two.
ASAN_OBJS	:= $(patsubst %.o,fuzz/obj/%.o,$(OBJS))
SECONDS		?= 60
ASAN_TESTS	?=
FUZZ_RUNS	?= 5000

fuzz: $(FUZZ_BINS)

fuzz/obj/%.o: %.c $(wildcard *.h)
	@mkdir -p fuzz/obj
	$(FUZZ_CC) $(CFLAGS) $(SAN_FLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

fuzz/fuzz-%: fuzz/fuzz-%.c fuzz/fuzz.h $(FUZZ_OBJS)
	$(FUZZ_CC) $(CFLAGS) $(SAN_FLAGS) -fsanitize=fuzzer -I. -DFUZZ_SRC_DIR='"$(CURDIR)"' \
		$(LDFLAGS) -o $@ $< $(FUZZ_OBJS) $(LDLIBS)

fuzz-run: fuzz
	sh fuzz/run.sh run $(SECONDS)

fuzz-replay: fuzz
	sh fuzz/run.sh replay $(FUZZ_RUNS)

fuzz/mkseeds: fuzz/mkseeds.c $(LIB_OBJS)
	$(CC) $(CFLAGS) -I. $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

asan/trace-cmd: $(ASAN_OBJS)
	@mkdir -p asan
	$(FUZZ_CC) $(CFLAGS) $(SAN_FLAGS) -fsanitize=fuzzer-no-link $(LDFLAGS) $(EXPORTS) -o $@ $^ $(LDLIBS)

.SECONDARY: $(ASAN_OBJS)

# The sanitizers' options are in tests/run-one; ASAN_TESTS=... runs some scripts.
check-asan: all asan/trace-cmd helpers
	tests/run -j $(TEST_JOBS) --asan $(CURDIR)/asan/trace-cmd $(ASAN_TESTS)

clean-hardening:
	rm -rf fuzz/obj asan fuzz/mkseeds $(FUZZ_BINS)

clean: clean-hardening

.PHONY: fuzz fuzz-run fuzz-replay check-asan clean-hardening

# make test (the README's test command, .ci/run's): every build, then the
# whole suite under ASan+UBSan, t7001 under valgrind with the plain build,
# t7000 replaying the fuzz corpora.  The fuzz targets need clang
# (scripts/install-deps.sh installs it); without it t7000 says what is missing.
test: all helpers $(if $(shell command -v $(FUZZ_CC) 2>/dev/null),fuzz)
	$(MAKE) --no-print-directory check-asan
