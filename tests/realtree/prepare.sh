#!/bin/bash
# tests/realtree/prepare.sh BUILD_DIR — the real Linux 2.6.24 tree, unpacked and configured once.
#
# Unpacks ../shared/corpus/linux-2.6.24.tar.xz (found beside the checkout) into
#   BUILD_DIR/realtree/linux-2.6.24   pristine: tests copy it, never modify it
# and makes a kbuild-configured x86_64 copy of it
#   BUILD_DIR/realtree/kbuild         make ARCH=x86_64 allmodconfig && make prepare scripts
# with the fixes today's make and gcc 12 need (shared/corpus/README.md): the top Makefile's
# mixed implicit/normal rules split, `-fno-pie -std=gnu89` added to KBUILD_CFLAGS.
# Idempotent: stamp files record each finished step; a half-finished step is redone.
# Prints the two paths, one a line (pristine first). Env: CORPUS (the .tar.xz), JOBS.
set -euo pipefail

[ $# -eq 1 ] || { echo "usage: $0 BUILD_DIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
# The corpus sits beside the checkout; in a git worktree, beside the main checkout.
corpus=${CORPUS:-$top/../shared/corpus/linux-2.6.24.tar.xz}
if [ -z "${CORPUS:-}" ] && [ ! -r "$corpus" ]; then
	common=$(git -C "$top" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	[ -n "$common" ] && corpus=$(dirname "$common")/../shared/corpus/linux-2.6.24.tar.xz
fi
[ -r "$corpus" ] || { echo "prepare: corpus not found: $corpus" >&2; exit 2; }
mkdir -p "$1"
out=$(cd "$1" && pwd)/realtree
jobs=${JOBS:-2}
mkdir -p "$out"

pristine=$out/linux-2.6.24
kbuild=$out/kbuild

# Serialise concurrent callers (bench and check may run at once).
exec 9>"$out/.lock"
flock 9

if [ ! -f "$out/.unpacked" ]; then
	echo "prepare: unpacking $(basename "$corpus") into $out" >&2
	rm -rf "$pristine" "$out/.tmp-unpack"
	mkdir -p "$out/.tmp-unpack"
	tar -xJf "$corpus" -C "$out/.tmp-unpack"
	mv "$out/.tmp-unpack/linux-2.6.24" "$pristine"
	rmdir "$out/.tmp-unpack"
	chmod -R a-w "$pristine"   # a test that writes into it fails loudly
	touch "$out/.unpacked"
	rm -f "$out/.configured"
fi

if [ ! -f "$out/.configured" ]; then
	echo "prepare: configuring an x86_64 kbuild copy in $kbuild" >&2
	rm -rf "$kbuild"
	cp -a "$pristine" "$kbuild"
	chmod -R u+w "$kbuild"
	# make >= 3.82: split `config %config:` and `/ %/:` into two rules each.
	perl -0pi -e '
		s/^config %config: (.*)\n((?:\t.*\n)+)/config: $1\n$2%config: $1\n$2/m;
		s/^\/ %\/: (.*)\n((?:\t.*\n)+)/\/: $1\n$2%\/: $1\n$2/m;
	' "$kbuild/Makefile"
	grep -q '^config %config:' "$kbuild/Makefile" && { echo "prepare: Makefile fix failed" >&2; exit 1; }
	# gcc 12: no PIE (breaks -mcmodel=kernel), gnu89 (extern inline semantics).
	perl -pi -e '$_ .= "KBUILD_CFLAGS += -fno-pie -std=gnu89\n" if /^KBUILD_CFLAGS \+= \$\(call cc-option,-Wno-pointer-sign,\)/' \
		"$kbuild/Makefile"
	grep -q -- '-fno-pie -std=gnu89' "$kbuild/Makefile" || { echo "prepare: CFLAGS fix failed" >&2; exit 1; }
	(cd "$kbuild" && make -s ARCH=x86_64 allmodconfig &&
		make -s -j"$jobs" ARCH=x86_64 prepare scripts) >"$out/configure.log" 2>&1 ||
		{ tail -n 20 "$out/configure.log" >&2
		  echo "prepare: kbuild configuration failed (log: $out/configure.log)" >&2; exit 1; }
	touch "$out/.configured"
fi

echo "$pristine"
echo "$kbuild"
