#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# Makes ready what the guest tests boot: qemu, Debian 12's own kernel and a
# busybox initramfs whose /init is tests/guest/init.  As root it installs what
# is missing; the kernel package is only unpacked into the cache, never
# installed on the host.  Run again, it only rebuilds the initramfs when init
# changed.
#
#   tests/guest/setup.sh [CACHE]     (default $GUEST_CACHE, /var/cache/trace-cmd-guest)
#
# Leaves in CACHE: vmlinux (the uncompressed kernel: qemu boots it straight,
# PVH, without the bzImage's decompression, seconds under TCG) and initrd.gz.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
cache=${1:-${GUEST_CACHE:-/var/cache/trace-cmd-guest}}
fail() { echo "guest setup: $*" >&2; exit 1; }

install_missing() {
	missing=
	for p in qemu-system-x86 busybox-static xz-utils kmod; do
		dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'ok installed' ||
			missing="$missing $p"
	done
	[ -z "$missing" ] && return 0
	[ "$(id -u)" = 0 ] || fail "missing packages:$missing (run as root to install them)"
	export DEBIAN_FRONTEND=noninteractive
	apt-get -o Acquire::Retries=3 update -q >&2
	# shellcheck disable=SC2086 # a list of package names
	apt-get -o Acquire::Retries=3 install -y -q --no-install-recommends $missing >&2
}

# Debian 12's kernel, the version linux-image-amd64 points at, unpacked.
fetch_kernel() {
	[ -d "$cache/kernel/boot" ] && return 0
	apt-cache depends linux-image-amd64 >/dev/null 2>&1 || apt-get -o Acquire::Retries=3 update -q >&2
	pkg=$(apt-cache depends linux-image-amd64 |
		awk '/Depends: linux-image-[0-9]/ { print $2; exit }')
	[ -n "$pkg" ] || fail "no kernel package behind linux-image-amd64 in the apt sources"
	rm -rf "$cache/debs" "$cache/kernel.new"
	mkdir -p "$cache/debs" "$cache/kernel.new"
	(cd "$cache/debs" && apt-get -o APT::Sandbox::User=root download "$pkg" >&2) || fail "cannot download $pkg"
	dpkg-deb -x "$cache/debs/${pkg}"_*.deb "$cache/kernel.new"
	rm -rf "$cache/debs"
	mv "$cache/kernel.new" "$cache/kernel"
}

# The bzImage's payload is one xz stream: its start is the xz magic.
extract_vmlinux() {
	[ -s "$cache/vmlinux" ] && return 0
	bz=$(ls "$cache"/kernel/boot/vmlinuz-*)
	off=$(LC_ALL=C grep -obUaP '\xfd7zXZ' "$bz" | head -n 1 | cut -d: -f1)
	[ -n "$off" ] || fail "$bz: no xz payload"
	tail -c +$((off + 1)) "$bz" | xz -dcq --single-stream >"$cache/vmlinux.new" ||
		fail "$bz: cannot decompress"
	mv "$cache/vmlinux.new" "$cache/vmlinux"
}

# The modules virtio 9p, virtio-net (guest_net) and the guest-local vsock
# (CID 1, vsock_loopback: t8003) need, each after those it depends on (the
# package has no modules.dep: modinfo gives each one's dependencies).
pick_modules() {
	[ -s "$cache/modules/order" ] && grep -qx vsock_loopback "$cache/modules/order" && return 0
	dir=$(ls -d "$cache"/kernel/lib/modules/*)
	rm -rf "$cache/modules"; mkdir -p "$cache/modules"
	find "$dir" -name '*.ko' >"$cache/modules/all"
	: >"$cache/modules/order.new"
	for m in virtio_pci 9pnet_virtio 9p virtio_net vsock_loopback; do add_module "$m"; done
	mv "$cache/modules/order.new" "$cache/modules/order"
}

add_module() {
	local name=${1//-/_} ko dep
	grep -qx "$name" "$cache/modules/order.new" && return 0
	ko=$(awk -v n="$name" '{ b = $0; sub(".*/", "", b); sub("\\.ko$", "", b); gsub("-", "_", b)
		if (b == n) { print; exit } }' "$cache/modules/all")
	[ -n "$ko" ] || return 0	# built into the kernel
	for dep in $(modinfo -F depends "$ko" | tr , ' '); do add_module "$dep"; done
	cp "$ko" "$cache/modules/$name.ko"
	echo "$name" >>"$cache/modules/order.new"
}

build_initrd() {
	sum=$(cat "$here/init" "$cache/modules/order" | md5sum | cut -d' ' -f1)
	[ -s "$cache/initrd.gz" ] && [ "$(cat "$cache/initrd.sum" 2>/dev/null)" = "$sum" ] && return 0
	root=$cache/root
	rm -rf "$root"; mkdir -p "$root/bin" "$root/modules"
	cp /bin/busybox "$root/bin/busybox"
	cp "$here/init" "$root/init"; chmod 755 "$root/init"
	while read -r m; do cp "$cache/modules/$m.ko" "$root/modules/"; done <"$cache/modules/order"
	cp "$cache/modules/order" "$root/modules/order"
	(cd "$root" && find . | /bin/busybox cpio -o -H newc 2>/dev/null) | gzip -1 >"$cache/initrd.gz.new"
	rm -rf "$root"
	mv "$cache/initrd.gz.new" "$cache/initrd.gz"
	echo "$sum" >"$cache/initrd.sum"
}

install_missing
mkdir -p "$cache"
# Two scripts setting up at once would unpack over each other.
exec 8>"$cache/lock"
flock 8
fetch_kernel
extract_vmlinux
pick_modules
build_initrd
