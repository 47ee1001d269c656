# SPDX-License-Identifier: GPL-2.0
# Build trace-cmd, its tests, man pages and bash completion.
#   make                 build ./trace-cmd
#   make test            run the test suite (tests/run)
#   make doc             build the man pages from Documentation/*.txt
#   make install         install to $(DESTDIR)$(prefix)
#   make install_doc     install the man pages

prefix		?= /usr/local
bindir		?= $(prefix)/bin
mandir		?= $(prefix)/share/man
completiondir	?= $(prefix)/share/bash-completion/completions

CC		?= cc
PKG_CONFIG	?= pkg-config
PKGS		:= libtraceevent libtracefs zlib libzstd

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

trace-cmd: $(OBJS)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

%.o: %.c $(wildcard *.h)
	$(CC) $(CFLAGS) -c -o $@ $<

# Test helpers link the same modules as trace-cmd, without its main().
tests/helper/%: tests/helper/%.c $(LIB_OBJS) $(wildcard *.h)
	$(CC) $(CFLAGS) -I. $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

helpers: $(HELPERS)

# Bash completion comes from the command table and each command's usage text.
trace-cmd.bash: trace-cmd scripts/gen-completion.sh
	sh scripts/gen-completion.sh ./trace-cmd >$@

test: all helpers
	tests/run

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

.PHONY: all helpers test doc install install_doc clean

# ---- Hardening (issue 7): fuzz targets and the sanitizer build ------------
#   make fuzz                 build the libFuzzer targets fuzz/fuzz-* (clang)
#   make fuzz-run SECONDS=N   fuzz each target N seconds, two at a time
#   make fuzz-replay          replay every committed corpus, fixed seed and runs
#   make check-asan           build asan/trace-cmd (ASan+UBSan), run the suite with it
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
# The scripts make test also runs with the ASan build: the parsers' hardening
# tests.  The whole suite under ASan (make check-asan) doubles make test's time.
ASAN_QUICK	:= t7000-fuzz-replay.sh t7002-report-faults.sh t7003-listen-faults.sh
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
	$(FUZZ_CC) $(CFLAGS) $(SAN_FLAGS) -fsanitize=fuzzer-no-link $(LDFLAGS) -o $@ $^ $(LDLIBS)

.SECONDARY: $(ASAN_OBJS)

check-asan: asan/trace-cmd helpers
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=0:exitcode=99 \
	LSAN_OPTIONS=suppressions=$(CURDIR)/fuzz/lsan.supp:print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:exitcode=99 \
	TRACE_CMD_SANITIZED=1 TRACE_CMD=$(CURDIR)/asan/trace-cmd tests/run $(ASAN_TESTS)

clean-hardening:
	rm -rf fuzz/obj asan fuzz/mkseeds $(FUZZ_BINS)

clean: clean-hardening

.PHONY: fuzz fuzz-run fuzz-replay check-asan clean-hardening

# make test builds the fuzz targets too (tests/t7000 replays their corpora),
# when clang is there (scripts/install-deps.sh installs it).
test: $(if $(shell command -v $(FUZZ_CC) 2>/dev/null),fuzz)
test: test-asan

test-asan: asan/trace-cmd helpers $(if $(shell command -v $(FUZZ_CC) 2>/dev/null),fuzz)
	$(MAKE) --no-print-directory check-asan ASAN_TESTS="$(ASAN_QUICK)"

.PHONY: test-asan
