#!/bin/bash
# tests/realtree/regen.sh [--last] — rewrite sites.tsv, the suite's site table, from a run.
#
# Runs blkmig migrate --in-place on a fresh copy of the 2.6.24 tree exactly as the suite
# does (or, with --last, takes the table of the suite's last run in build/realtree/work) and
# writes tests/realtree/sites.tsv.  Then REVIEW `git diff tests/realtree/sites.tsv` row by
# row against ../shared/API-SEMANTICS.md (lock variant, error value, byte count) before
# committing it: the suite fails on any difference from this file.
# Env: BUILD (default: the checkout's build/), BLKMIG (default: $BUILD/blkmig).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
W=$BUILD/realtree/work
if [ "${1:-}" != --last ]; then
	[ -x "$BLKMIG" ] || { echo "regen: build blkmig first (make)" >&2; exit 2; }
	paths=$(nice -n 10 "$here/prepare.sh" "$BUILD")
	pristine=$(sed -n 1p <<<"$paths")
	rm -rf "$W"; mkdir -p "$W"
	cp -a "$pristine" "$W/tree" && chmod -R u+w "$W/tree"
	(cd "$W" && nice -n 10 "$BLKMIG" migrate --in-place -q -j 2 --report rep --kernel-tree tree tree \
		>migrate.out 2>migrate.err) || [ $? -eq 1 ] ||
		{ tail "$W/migrate.err" >&2; exit 1; }
fi
[ -s "$W/rep/report.json" ] || { echo "regen: no run in $W (run without --last)" >&2; exit 1; }
python3 "$here/sites-table.py" "$W/rep/report.json" "$W/tree" >"$here/sites.tsv"
total=$(wc -l <"$here/sites.tsv")
conv=$(awk -F'\t' '$4 == "auto"' "$here/sites.tsv" | wc -l)
echo "regen: wrote tests/realtree/sites.tsv: $conv/$total converted; review: git diff tests/realtree/sites.tsv"
