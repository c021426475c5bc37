#!/bin/bash
# tests/cocci/regen.sh NAME... — developer aid: write NAME.res and NAME.report
# from the current patch for the named cases.  Review every diff before
# committing: the expected files are the specification, not a snapshot.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SP="$top/cocci/blk_end_request.cocci"
OPTS=(--macro-file "$top/cocci/blkmig.h" --no-includes --include-headers --very-quiet)
cd "$here/cases"
for n in "$@"; do
	n=${n%.c}
	rm -f "$n.res.tmp"
	spatch --sp-file "$SP" -D patch "${OPTS[@]}" "$n.c" -o "$n.res.tmp" >/dev/null 2>&1 || true
	if [ -f "$n.res.tmp" ] && ! cmp -s "$n.c" "$n.res.tmp"; then
		mv "$n.res.tmp" "$n.res"
	else
		rm -f "$n.res.tmp" "$n.res"
	fi
	spatch --sp-file "$SP" -D report "${OPTS[@]}" "$n.c" 2>&1 | LC_ALL=C sort > "$n.report"
done
