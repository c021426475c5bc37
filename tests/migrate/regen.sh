#!/bin/bash
# tests/migrate/regen.sh CASE... — developer aid: write the expected files of the
# golden migrate cases (tests/migrate/golden/CASE/) from the current build:
#   expected.patch   blkmig migrate --patch, names relative to the tree root
#   out/             the tree after blkmig migrate --in-place
#   expected.manual  the sites left for manual review: "FILE:LINE CALL REASON"
#                    (from the lines blkmig prints on stderr)
#   expected-fix.patch  blkmig fix --patch (the analyzer alone)
# Review every diff before committing: the expected files are the specification.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
B=$(realpath "${BLKMIG:-$top/build/blkmig}")
for c in "$@"; do
	d=$here/golden/$c
	w=$(mktemp -d)
	cp -r "$d/in" "$w/tree"
	(cd "$w" && "$B" migrate -q --patch "$d/expected.patch" --root tree tree 2> "$w/log") || true
	(cd "$w" && "$B" fix -q --patch "$d/expected-fix.patch" --root tree tree 2> /dev/null) || true
	sed -n 's|^tree/\([^:]*\):\([0-9]*\):[0-9]*: warning: \([a-z_]*\) in .* left for manual review: .*\[\([a-z_]*\)\]$|\1:\2 \3 \4|p' \
		"$w/log" | sort > "$d/expected.manual"
	rm -rf "$d/out"
	cp -r "$d/in" "$d/out"
	"$B" migrate -q --in-place "$d/out" 2> /dev/null || true
	rm -rf "$w"
done
