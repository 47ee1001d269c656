#!/bin/sh
# Installs what building and testing trace-cmd needs on Debian 12, as root.
# Only what is missing is installed, so running it again is quick.
set -e
pkgs="build-essential pkg-config libtraceevent-dev libtracefs-dev zlib1g-dev libzstd-dev
      libtraceevent1-plugin asciidoc-base xmlto docbook-xsl python3 perl util-linux
      trace-cmd kmod procps zstd"
# The fuzz targets and the sanitizer build (make fuzz, make check-asan), valgrind tests.
# llvm puts llvm-symbolizer on PATH, where the sanitizers look for it: without
# it their frames have no names and fuzz/lsan.supp never matches (clang only
# recommends it).
pkgs="$pkgs clang libclang-rt-14-dev llvm valgrind"
# bench/record-loss: perf bench sched messaging is its workload.
pkgs="$pkgs linux-perf"
# t6005: the order of record's tracefs writes, seen with strace.
pkgs="$pkgs strace"
# t3115: KernelShark opens our files under a virtual X server.
pkgs="$pkgs kernelshark xvfb xauth"
# convert --to sqlite links libsqlite3; its tests query the database with sqlite3.
pkgs="$pkgs libsqlite3-dev sqlite3"
# The guest tests (tests/lib-guest.sh): qemu boots Debian's kernel with a busybox initramfs.
pkgs="$pkgs qemu-system-x86 busybox-static xz-utils"
# t9003: real viewers of convert --to chrome-json (tests/lib-consumers.sh): node runs
# DevTools' trace engine, and speedscope's page in Chromium; npm installs them.
pkgs="$pkgs nodejs chromium ca-certificates"
command -v npm >/dev/null || pkgs="$pkgs npm"
missing=
for p in $pkgs; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
export DEBIAN_FRONTEND=noninteractive
# Retries: a fresh machine (or CI's fresh root) fetches a few hundred packages.
apt-get -o Acquire::Retries=3 update -q
apt-get -o Acquire::Retries=3 install -y -q --no-install-recommends $missing
