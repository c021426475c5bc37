#!/bin/bash
# tests/outoftree/convert.sh WORKDIR — both tools on fresh copies of the out-of-tree corpus.
#
# The corpus is ../shared/corpus/outoftree beside the checkout (in a git worktree: beside
# the main checkout; or OUTOFTREE=DIR).  Makes WORKDIR/orig (a read-only copy: the
# reference), runs `blkmig migrate --in-place --report rep` on WORKDIR/migrate and
# cocci/blkmig-cocci-convert (plain spatch, what `make cocci-convert` runs) on
# WORKDIR/spatch, and writes the two run tables (5 columns, tests/outoftree/sitetable.py)
# WORKDIR/sites.tsv and WORKDIR/sites-spatch.tsv.  Prints the corpus path.
# Exit 2 with a message when the corpus is missing or a tool fails (exit > 1).
# Env: TOP (default: this checkout), BLKMIG (default: $TOP/build/blkmig), OUTOFTREE.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 WORKDIR" >&2; exit 2; }
here=$(cd "$(dirname "$0")" && pwd)
TOP=${TOP:-$(cd "$here/../.." && pwd)}
BLKMIG=${BLKMIG:-$TOP/build/blkmig}
corpus=${OUTOFTREE:-$TOP/../shared/corpus/outoftree}
if [ -z "${OUTOFTREE:-}" ] && [ ! -d "$corpus" ]; then
	common=$(git -C "$TOP" rev-parse --path-format=absolute --git-common-dir 2>/dev/null || true)
	[ -n "$common" ] && corpus=$(dirname "$common")/../shared/corpus/outoftree
fi
if [ ! -r "$corpus/README.md" ] || [ ! -d "$corpus" ]; then
	echo "outoftree: corpus not found: $corpus (expected ../shared/corpus/outoftree beside the checkout, or OUTOFTREE=DIR)" >&2
	exit 2
fi
corpus=$(cd "$corpus" && pwd)
[ -x "$BLKMIG" ] || { echo "outoftree: $BLKMIG missing: build it first (make)" >&2; exit 2; }
W=$1
rm -rf "$W"; mkdir -p "$W"
W=$(cd "$W" && pwd)
for d in orig migrate spatch; do
	cp -a "$corpus" "$W/$d" && chmod -R u+w "$W/$d"
done
chmod -R a-w "$W/orig"

# migrate, as realtree runs it: from the work directory, the tree as a relative path
# (no --kernel-tree: these drivers come without kernel headers)
rc=0
(cd "$W" && nice -n 10 "$BLKMIG" migrate --in-place -q -j 2 --report rep \
	--cocci-dir "$TOP/cocci" migrate >migrate.out 2>migrate.err) || rc=$?
if [ $rc -gt 1 ] || [ ! -s "$W/rep/report.json" ]; then
	echo "outoftree: blkmig migrate failed (exit $rc): $(tail -n 5 "$W/migrate.err")" >&2
	exit 2
fi
# plain spatch: the two passes of cocci/blkmig-cocci-convert; BLKMIG_SITES lists every
# site of the original files, converted (INFO) or left (WARNING, with its reason)
rc=0
(cd "$W" && BLKMIG_SITES="$W/spatch-sites.txt" COCCI_JOBS=1 nice -n 10 \
	"$TOP/cocci/blkmig-cocci-convert" spatch >spatch.out 2>spatch.err) || rc=$?
if [ $rc -gt 1 ] || [ ! -s "$W/spatch-sites.txt" ]; then
	echo "outoftree: cocci/blkmig-cocci-convert failed (exit $rc): $(tail -n 5 "$W/spatch.err")" >&2
	exit 2
fi
python3 "$here/sitetable.py" table --tool migrate --orig "$W/orig" --conv "$W/migrate" \
	--report "$W/rep/report.json" >"$W/sites.tsv"
python3 "$here/sitetable.py" table --tool spatch --orig "$W/orig" --conv "$W/spatch" \
	--report "$W/spatch-sites.txt" >"$W/sites-spatch.tsv"
echo "$corpus"
