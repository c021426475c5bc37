#!/bin/bash
# tests/realtree/run.sh — runner of suite `realtree` (tests/realtree/README.md).
set -u
SUITE=realtree
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
source "$TOP/tests/lib/testlib.sh"
HERE=$TOP/tests/realtree

# ---- the tree, unpacked and configured once (cached in $BUILD/realtree) -------------
if ! paths=$(nice -n 10 "$HERE/prepare.sh" "$BUILD" 2>"$RESULTS/realtree-prepare.err"); then
	fail prepare "$(tail -n 5 "$RESULTS/realtree-prepare.err")"
	finish
	exit 1
fi
PRISTINE=$(sed -n 1p <<<"$paths")
KBUILD=$(sed -n 2p <<<"$paths")
pass prepare

# ---- the compile check can fail: the unconverted files fail it ----------------------
# Files that compile for x86_64 in 2.6.24 and call the legacy API: each must FAIL.
unconverted_fails() {
	local out
	out=$("$HERE/compile-check.sh" --tree "$KBUILD" --src "$PRISTINE" \
		drivers/block/nbd.c drivers/block/floppy.c block/elevator.c drivers/block/ps3disk.c)
	[ $? -eq 1 ] || { echo "compile-check did not exit 1 on unconverted files"; return 1; }
	for f in drivers/block/nbd.c drivers/block/floppy.c block/elevator.c; do
		grep -q "^FAIL $f: .*is unavailable" <<<"$out" || { echo "$f did not fail: $out"; return 1; }
	done
	grep -q '^SKIP drivers/block/ps3disk.c' <<<"$out" || { echo "ps3disk.c not skipped: $out"; return 1; }
}
check compile-check/unconverted-file-fails unconverted_fails

# A file without legacy calls compiles OK with the 2.6.25 header.
check compile-check/clean-file-ok "$HERE/compile-check.sh" --tree "$KBUILD" --src "$PRISTINE" block/bsg.c

finish
