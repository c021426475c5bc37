#!/bin/bash
# tests/outoftree/regen.sh [--last] — rewrite the suite's site tables from a run.
#
# Runs both tools on fresh copies of the corpus exactly as the suite does (convert.sh; with
# --last, takes the suite's last run in $BUILD/outoftree) and rewrites
# tests/outoftree/sites.tsv (blkmig migrate) and sites-spatch.tsv (plain spatch).  The
# REVIEW column (6th) of a row is kept when the row's outcome and new code/reason did not
# change; every other row gets UNREVIEWED, which fails the suite until a human has checked
# it against ../shared/API-SEMANTICS.md (lock variant, error value, byte count, request
# lifetime, version guards) and written "exact: why" or "WRONG: why" (converted rows),
# "true: what a human must decide", "weak: ..." or "FALSE: why" (rows left).
# Env: BUILD (default: the checkout's build/), BLKMIG (default: $BUILD/blkmig).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
BUILD=${BUILD:-$top/build}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
W=$BUILD/outoftree
if [ "${1:-}" != --last ]; then
	TOP=$top BLKMIG=$BLKMIG "$here/convert.sh" "$W" >/dev/null
fi
[ -s "$W/sites.tsv" ] && [ -s "$W/sites-spatch.tsv" ] ||
	{ echo "regen: no run in $W (run without --last)" >&2; exit 1; }
for t in sites.tsv sites-spatch.tsv; do
	python3 "$here/sitetable.py" merge "$here/$t" "$W/$t" >"$W/$t.merged"
	mv "$W/$t.merged" "$here/$t"
	echo "regen: tests/outoftree/$t: $(awk -F'\t' '$4 == "auto"' "$here/$t" | wc -l) converted," \
		"$(grep -c $'\tUNREVIEWED$' "$here/$t" || true) rows to review"
done
echo "regen: review: git diff tests/outoftree/sites.tsv tests/outoftree/sites-spatch.tsv"
