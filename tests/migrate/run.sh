#!/bin/bash
# tests/migrate/run.sh — runner of suite `migrate` (see tests/migrate/README.md).
#
# Each block below is one group of tests; every test can fail (each compares real output
# with an expectation kept beside the inputs, or checks a property that breaks when the
# code under test breaks).
set -u
SUITE=migrate
TOP=${TOP:?}
BUILD=${BUILD:?}
T=${MIGRATE_TBUILD:-$BUILD/migrate}
source "$TOP/tests/lib/testlib.sh"

SCRATCH=$(mktemp -d "$T/scratch.XXXXXX")
trap 'chmod -R u+w "$SCRATCH" 2>/dev/null; rm -rf "$SCRATCH"' EXIT

# ---- unit tests of the edit applier and the atomic writer ----------------------------
mkdir -p "$SCRATCH/unit"
while read -r verdict name rest; do
	case $verdict in
	PASS) pass "unit/$name" ;;
	FAIL) fail "unit/$name" "$rest" ;;
	esac
done < <("$T/unit_edits" "$SCRATCH/unit" 2>&1)

# ---- the unified diff round-trips through patch -p1 and git apply -p1 ----------------
udiff_roundtrip() {
	local d=$SCRATCH/rt i bad=0
	mkdir -p "$d"
	for i in $(seq 1 150); do
		rm -rf "$d/p" "$d/g"
		mkdir -p "$d/p/sub" "$d/g/sub"
		"$T/udiff_driver" gen "$i" "$d/old" "$d/new" || return 1
		cp "$d/old" "$d/p/sub/f.c"
		cp "$d/old" "$d/g/sub/f.c"
		"$T/udiff_driver" diff sub/f.c "$d/old" "$d/new" > "$d/x.diff" || return 1
		(cd "$d/p" && patch -s -p1 < "$d/x.diff") > /dev/null 2>&1
		(cd "$d/g" && git apply -p1 "$d/x.diff") > /dev/null 2>&1
		if ! cmp -s "$d/p/sub/f.c" "$d/new" || ! cmp -s "$d/g/sub/f.c" "$d/new"; then
			echo "seed $i: patched file differs from the expected new version"
			bad=1
		fi
	done
	return $bad
}
check udiff/roundtrip-patch-and-git-apply udiff_roundtrip

finish
