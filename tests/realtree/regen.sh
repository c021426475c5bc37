#!/bin/bash
# tests/realtree/regen.sh [--last] — rewrite sites.tsv, the suite's site table, from a run.
#
# Runs blkmig migrate --in-place on a fresh copy of the 2.6.24 tree exactly as the suite
# does (or, with --last, takes the table of the suite's last run in build/realtree/work) and
# writes tests/realtree/sites.tsv, keeping the REVIEW column (6th) of each row whose other
# columns did not change and writing UNREVIEWED for a changed or new row.  Then review each
# UNREVIEWED row against ../shared/API-SEMANTICS.md (byte count, error, lock variant, request
# lifetime) and write "exact: why" / "WRONG: why" (converted) or "left: true: what a human
# must decide" / "left: FALSE: why" (left) before committing it: the suite fails on any
# difference from this file and on UNREVIEWED, non-exact or FALSE rows (review.py).
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
python3 "$here/sites-table.py" "$W/rep/report.json" "$W/tree" >"$W/sites.tsv"
# keep the REVIEW column of every row whose other columns did not change; UNREVIEWED else
python3 "$here/review.py" merge "$here/sites.tsv" "$W/sites.tsv" >"$W/sites.merged.tsv"
mv "$W/sites.merged.tsv" "$here/sites.tsv"
total=$(wc -l <"$here/sites.tsv")
conv=$(awk -F'\t' '$4 == "auto"' "$here/sites.tsv" | wc -l)
todo=$(grep -c $'\tUNREVIEWED$' "$here/sites.tsv" || true)
echo "regen: wrote tests/realtree/sites.tsv: $conv/$total converted, $todo rows UNREVIEWED;" \
	"review them: git diff tests/realtree/sites.tsv"
