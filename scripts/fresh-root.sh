#!/bin/sh
# Runs one of the README's two commands in a fresh Debian 12 root, as a new
# user would on a new machine: debootstrap (minbase, bookworm, this machine's
# own apt sources), this tree's HEAD cloned into it, nothing else installed.
# A missing install step then fails here instead of hiding behind what the
# build machine happens to have.
#
# usage: scripts/fresh-root.sh [--main | --cmd COMMAND] [--no-shared] [--keep]
#   --main       the README's first command (record and report), not its
#                second (the whole test suite)
#   --cmd CMD    CMD instead (a developer's check, e.g. one test script after
#                scripts/install-deps.sh and make)
#   --no-shared  leave ../shared out, as a user who clones the project has
#                it: the command runs as a user's would, tests needing
#                ../shared skip and say so.  With ../shared it runs under
#                CI=true: a missing prerequisite fails.
#   --keep       keep the root afterwards (its path is printed)
# Runs as root.  The pristine root (before any package of ours) is cached in
# $FRESH_CACHE for a week; installed packages never are.  Everything is
# mounted in a mount namespace of its own, so nothing is left mounted.
set -eu
src=$(cd "$(dirname "$0")/.." && pwd)
cache=${FRESH_CACHE:-/var/cache/trace-cmd-fresh}
which=test
shared=$src/../shared
keep=
cmd=
while [ $# -gt 0 ]; do
	case $1 in
	--main) which=main ;;
	--cmd) [ $# -gt 1 ] || { echo "$0: --cmd needs a command" >&2; exit 2; }
	       which=cmd cmd=$2; shift ;;
	--no-shared) shared= ;;
	--keep) keep=1 ;;
	*) echo "usage: $0 [--main | --cmd COMMAND] [--no-shared] [--keep]" >&2; exit 2 ;;
	esac
	shift
done
fail() { echo "fresh-root: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "needs root (debootstrap, chroot, mounts)"
if [ -n "$shared" ] && [ ! -d "$shared" ]; then
	[ "${CI:-}" != true ] || fail "'$shared' is missing (CI=true needs ../shared beside the checkout)"
	echo "fresh-root: no '$shared': running without it"
	shared=
fi
ci=; [ -z "$shared" ] || ci=true

# The README's first (main) or second (test) command: the first line of its
# first or second ```sh block, so what runs here is what a user reads.
readme_command() {
	awk -v want="$1" '/^```sh$/ { n++; inblock = 1; next }
		/^```/ { inblock = 0; next }
		inblock && n == want && !done { print; done = 1 }' "$src/README.md"
}
case $which in
main) cmd=$(readme_command 1) ;;
test) cmd=$(readme_command 2) ;;
esac
[ -n "$cmd" ] || fail "README.md has no sh command block for '$which'"

command -v debootstrap >/dev/null || {
	DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends debootstrap >/dev/null ||
		{ apt-get update -q >/dev/null && DEBIAN_FRONTEND=noninteractive \
			apt-get install -y -q --no-install-recommends debootstrap >/dev/null; }
} || fail "cannot install debootstrap"

# This machine's Debian mirror, from its apt sources (deb822 or one-line).
mirror() {
	{ sed -n 's/^URIs: *\([^ ]*debian\)\/*$/\1/p' /etc/apt/sources.list.d/*.sources 2>/dev/null
	  sed -n 's/^deb  *\(http[^ ]*debian\)\/*  *bookworm .*/\1/p' /etc/apt/sources.list \
		/etc/apt/sources.list.d/*.list 2>/dev/null; } | head -n 1
}

# The pristine root, made once a week and kept as a tarball.
pristine=$cache/bookworm-minbase.tar
mkdir -p "$cache"
if [ -z "$(find "$pristine" -mtime -7 2>/dev/null)" ]; then
	m=$(mirror); m=${m:-http://deb.debian.org/debian}
	tmp=$(mktemp -d /var/tmp/trace-cmd-debootstrap.XXXXXX)
	echo "fresh-root: debootstrap --variant=minbase bookworm ($m)"
	# Once more on failure: a mirror's hiccup is not a failed build.
	debootstrap --variant=minbase bookworm "$tmp" "$m" >"$cache/debootstrap.log" 2>&1 ||
		{ rm -rf "$tmp" && mkdir -p "$tmp" &&
		  debootstrap --variant=minbase bookworm "$tmp" "$m" >"$cache/debootstrap.log" 2>&1; } ||
		{ rm -rf "$tmp"; fail "debootstrap failed, see $cache/debootstrap.log"; }
	chmod 755 "$tmp"	# mktemp's 0700 would shut every other user out of /
	tar -C "$tmp" -cf "$pristine.new" . && mv "$pristine.new" "$pristine"
	rm -rf "$tmp"
fi

root=$(mktemp -d /var/tmp/trace-cmd-fresh.XXXXXX)
# Whatever the command left running in the root (its mount namespace,
# noted in .mntns) is ended with it.
end_root_processes() {
	ns=$(cat "$root/.mntns" 2>/dev/null) || return 0
	for p in /proc/[0-9]*; do
		[ "$(readlink "$p/ns/mnt" 2>/dev/null)" = "$ns" ] && kill -9 "${p#/proc/}" 2>/dev/null
	done
	return 0
}
cleanup() {
	end_root_processes
	if [ -n "$keep" ]; then echo "fresh-root: kept $root"; else rm -rf "$root"; fi
}
trap cleanup EXIT
tar -C "$root" -xf "$pristine"
chmod 755 "$root"
# This machine's own apt sources, DNS, and a localhost.
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
	[ -f "$f" ] && cp "$f" "$root$f"
done
cp /etc/resolv.conf "$root/etc/resolv.conf"
# This network's own certificate authorities (an HTTPS proxy's): a machine on
# it has them, and npm's registry is reached through it.  ca-certificates,
# once install-deps puts it in, takes them up.
if ls /usr/local/share/ca-certificates/*.crt >/dev/null 2>&1; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi
printf '127.0.0.1\tlocalhost\n::1\tlocalhost ip6-localhost ip6-loopback\n' >"$root/etc/hosts"
git clone -q --no-local "$src" "$root/root/trace-cmd"
[ -z "$shared" ] || cp -a "$shared" "$root/root/shared"
# The tracefs lock is shared with the machine's own test runs (tracefs is one
# global state), so the root's /tmp gets the machine's lock file.
touch /tmp/trace-cmd-tracefs.lock

echo "fresh-root: in $root: $cmd"
start=$(date +%s)
status=0
unshare -m --propagation private sh -eu -c '
	r=$1; cmd=$2; ci=$3
	readlink /proc/self/ns/mnt >"$r/.mntns"
	mount --bind "$r" "$r"
	mount --rbind /proc "$r/proc"
	mount --rbind /sys "$r/sys"
	mount --rbind /dev "$r/dev"
	touch "$r/tmp/trace-cmd-tracefs.lock"
	mount --bind /tmp/trace-cmd-tracefs.lock "$r/tmp/trace-cmd-tracefs.lock"
	# pivot_root, not chroot: the kernel refuses a chrooted process a user
	# namespace (unshare -U, as t7004 uses), and the root must be the
	# namespace'"'"'s own / for it.
	mkdir -p "$r/.old-root"
	cd "$r"
	pivot_root . .old-root
	umount -l /.old-root
	rmdir /.old-root
	exec /usr/sbin/chroot / /usr/bin/env -i HOME=/root TERM=dumb LANG=C.UTF-8 \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		${ci:+CI=$ci} /bin/sh -c "cd /root/trace-cmd && $cmd"
' fresh-root "$root" "$cmd" "$ci" || status=$?
echo "fresh-root: '$which' command exited $status after $(( $(date +%s) - start )) s"
exit $status
