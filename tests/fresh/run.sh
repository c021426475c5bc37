#!/bin/bash
# tests/fresh/run.sh — suite `fresh` (make check-fresh): the README's first commands on a
# truly fresh Debian 12 root.
#
# A minimal bookworm root (mmdebstrap --variant=minbase: not even make) is unpacked anew
# each run; a clean clone of the repository's HEAD (git clone: committed files only, no
# build/, no ../shared corpus) goes to /root/blkmig in it; then, chrooted, as root with
# /proc, /sys and /dev mounted: `apt-get install make` (the README's first line),
# `make demo` (it installs the packages with apt, builds, converts the samples, boots the
# newest kernel under QEMU TCG), then `make check-analyzer`.  The verdicts:
#   fresh/bootstrap        the root is unpacked, the clone is in it
#   fresh/readme-make      apt-get install make in the root
#   fresh/demo-deps        make demo installed the packages itself (the root was fresh)
#   fresh/demo             make demo exited 0 the first time
#   fresh/demo-modules     the modules are in build/kernels/V/ for the root's newest kernel
#                          V, and nothing went to build/kernels/none/
#   fresh/demo-guest       the demo's guest verdicts: N passed, 0 failed, N > 0
#   fresh/demo-realdrv     without the corpus the demo says the real drivers were not built
#   fresh/check-analyzer   the analyzer suite passes in the root
#
# environment: TOP, BUILD, RESULTS; FRESH_DIR (default BUILD/fresh); FRESH_MIRROR (default
# http://deb.debian.org); FRESH_PATCH=FILE applies a patch to the clone first (e.g. one that
# brings a bug back, to see this suite fail); FRESH_KEEP=1 leaves the root in place;
# FRESH_REBOOTSTRAP=1 builds the cached bootstrap tarball again (done anyway once a week).
# Cached between runs under FRESH_DIR/cache: the bootstrap tarball and apt's archives
# (bind-mounted on the root's /var/cache/apt/archives).  The root itself never is.
set -euo pipefail
: "${TOP:?}" "${BUILD:?}" "${RESULTS:?}"
SUITE=fresh
. "$TOP/tests/lib/testlib.sh"

[ "$(id -u)" -eq 0 ] || { fail setup "check-fresh needs root (mmdebstrap, chroot, mounts)"; finish; exit 1; }
fresh=${FRESH_DIR:-$BUILD/fresh}
mirror=${FRESH_MIRROR:-http://deb.debian.org}
cache=$fresh/cache
root=$fresh/root
logs=$fresh/logs
tarball=$cache/bookworm-minbase.tar
mkdir -p "$cache/apt/partial" "$logs"
rm -f "$logs"/*
t0=$(date +%s)
stamp() { echo "fresh: $(( $(date +%s) - t0 ))s: $*" | tee -a "$logs/times.txt"; }

# Everything mounted under the root, deepest first; the root is removed only with
# --one-file-system, so a mount left behind can never take the host's files with it.
umount_all() {
	local m
	for m in $(findmnt -rn -o TARGET | grep -F "$root/" | sort -r); do
		umount -l "$m" 2>/dev/null || true
	done
}
remove_root() {
	umount_all
	if findmnt -rn -o TARGET | grep -qF "$root/"; then
		echo "fresh: mounts left under $root; not removing it" >&2
		return 1
	fi
	rm -rf --one-file-system "$root"
}
cleanup() {
	if [ "${FRESH_KEEP:-}" = 1 ]; then
		umount_all
		echo "fresh: root kept in $root (FRESH_KEEP=1)"
	else
		remove_root || true
	fi
}
trap cleanup EXIT

# ---- the bootstrap tarball (cached) and a fresh root from it ----
suites="bookworm bookworm-updates"
# A tarball older than a week is made again: the root stays close to what a fresh
# install gets from the archive today.
if [ ! -s "$tarball" ] || [ "${FRESH_REBOOTSTRAP:-}" = 1 ] ||
   [ -n "$(find "$tarball" -mtime +7)" ]; then
	stamp "bootstrapping a minimal bookworm root (mmdebstrap, $mirror)"
	rm -f "$tarball.tmp"
	if ! nice -n 10 mmdebstrap --mode=root --variant=minbase --format=tar bookworm "$tarball.tmp" \
		"deb $mirror/debian bookworm main" "deb $mirror/debian bookworm-updates main" \
		"deb $mirror/debian-security bookworm-security main" > "$logs/mmdebstrap.log" 2>&1; then
		fail bootstrap "mmdebstrap failed: $(tail -n 5 "$logs/mmdebstrap.log")"
		finish; exit 1
	fi
	mv "$tarball.tmp" "$tarball"
fi
remove_root
mkdir -p "$root"
tar -xf "$tarball" -C "$root"
[ -x "$root/usr/bin/make" ] && { fail bootstrap "the bootstrap root already has make: not fresh"; finish; exit 1; }
git clone -q --no-hardlinks "$TOP" "$root/root/blkmig"
if [ -n "${FRESH_PATCH:-}" ]; then
	git -C "$root/root/blkmig" apply "$FRESH_PATCH"
	echo "fresh: applied $FRESH_PATCH to the clone"
fi
[ -e "$root/root/blkmig/build" ] && { fail bootstrap "the clone has a build/"; finish; exit 1; }
head=$(git -C "$root/root/blkmig" rev-parse --short HEAD)
pass bootstrap
stamp "root unpacked, clone of $head in /root/blkmig"

# The network's settings, not the project's: the host's resolver, and its local CA
# certificates if any (a TLS proxy's: the fresh machine's admin would add them too;
# ca-certificates, installed by make deps, takes them in).
cp -L /etc/resolv.conf "$root/etc/resolv.conf"
if compgen -G "/usr/local/share/ca-certificates/*.crt" > /dev/null; then
	mkdir -p "$root/usr/local/share/ca-certificates"
	cp /usr/local/share/ca-certificates/*.crt "$root/usr/local/share/ca-certificates/"
fi
mount -t proc proc "$root/proc"
mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys"
mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev"
mount --bind "$cache/apt" "$root/var/cache/apt/archives"

# in_root LOG CMD: CMD in the root, as root in a login-like clean environment
in_root() {
	local log=$1
	shift
	chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
		PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
		/bin/bash -c "cd /root/blkmig && $*" > "$log" 2>&1
}

# ---- the README's commands ----
stamp "apt-get install make"
if in_root "$logs/make.log" "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q make"; then
	pass readme-make
else
	fail readme-make "$(tail -n 5 "$logs/make.log")"
	finish; exit 1
fi

stamp "make demo"
demo_rc=0
in_root "$logs/demo.log" "nice -n 10 make demo" || demo_rc=$?
stamp "make demo exited $demo_rc"
out=$root/root/blkmig/build
cp "$out/target/demo-check.txt" "$logs/" 2>/dev/null || true

if grep -q '^deps: installing missing Debian packages: ' "$logs/demo.log"; then
	pass demo-deps
else
	fail demo-deps "make demo installed no package: was the root fresh? ($logs/demo.log)"
fi
if [ "$demo_rc" -eq 0 ]; then
	pass demo
else
	fail demo "make demo exited $demo_rc: $(tail -n 12 "$logs/demo.log")"
fi

kver=$(BOOTDIR=$root/boot HDRDIR=$root/usr/src MODDIR=$root/lib/modules \
	"$TOP/tests/target/kernel-version.sh" 2>/dev/null || true)
if [ -z "$kver" ]; then
	fail demo-modules "no target kernel installed in the root"
elif [ -e "$out/kernels/none" ]; then
	fail demo-modules "modules were built into build/kernels/none/ (the kernel version was read before deps)"
elif [ ! -f "$out/kernels/$kver/modules/blkcompat.ko" ]; then
	fail demo-modules "no build/kernels/$kver/modules/blkcompat.ko"
else
	pass demo-modules
fi

last=$(tail -n 1 "$logs/demo-check.txt" 2>/dev/null || true)
if [[ $last =~ ^target:\ ([0-9]+)\ passed,\ ([0-9]+)\ failed$ ]] &&
   [ "${BASH_REMATCH[1]}" -gt 0 ] && [ "${BASH_REMATCH[2]}" -eq 0 ]; then
	pass demo-guest
else
	fail demo-guest "the demo's guest: '${last:-no demo-check.txt}'"
fi

# The clone has no ../shared: the demo must say so, not fail on it.
if grep -q 'real drivers of the 2.6.24 tree .* were NOT built nor booted' "$logs/demo.log"; then
	pass demo-realdrv
else
	fail demo-realdrv "the demo did not say that the real drivers were not built (no corpus)"
fi

# ---- one fast suite ----
stamp "make check-analyzer"
if in_root "$logs/check-analyzer.log" "nice -n 10 make check-analyzer" &&
   grep -q '^PASS ' "$out/test-results/analyzer.log" &&
   ! grep -q '^FAIL ' "$out/test-results/analyzer.log"; then
	pass check-analyzer
else
	fail check-analyzer "$(grep -h '^FAIL ' "$out/test-results/analyzer.log" 2>/dev/null | head -n 5;
		tail -n 5 "$logs/check-analyzer.log")"
fi
cp "$out/test-results/analyzer.log" "$logs/" 2>/dev/null || true
# The archives cache keeps only what the archive still has.
in_root "$logs/autoclean.log" "apt-get autoclean -q" || true
stamp "done (logs in $logs)"
finish
