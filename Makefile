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
