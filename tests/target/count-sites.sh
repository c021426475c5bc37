#!/bin/bash
# tests/target/count-sites.sh — counts completion-API call sites in a C file.
#
# usage: count-sites.sh legacy|new FILE
# legacy: calls of end_that_request_first/chunk/last, end_request, end_queued_request,
#         end_dequeued_request (2.6.24);
# new:    calls of blk_end_request, __blk_end_request, blk_end_request_callback and the
#         later _all/_cur spellings (2.6.25 on).
# Comments and string literals do not count (gcc strips comments without expanding
# anything; a sed pass blanks strings), and neither do longer names that merely end
# the same way (lrd_defer_end_request).  Prints the number.
set -u
kind=${1:?usage: count-sites.sh legacy|new FILE}
file=${2:?usage: count-sites.sh legacy|new FILE}
[ -r "$file" ] || { echo "count-sites: cannot read $file" >&2; exit 2; }
case $kind in
legacy) names='end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request' ;;
new) names='__blk_end_request(_all|_cur)?|blk_end_request(_all|_callback)?' ;;
*) echo "count-sites: kind must be legacy or new" >&2; exit 2 ;;
esac
gcc -fpreprocessed -dD -E -P -x c "$file" 2>/dev/null |
	sed -E 's/"([^"\\]|\\.)*"/""/g' |
	grep -oE "(^|[^A-Za-z0-9_])($names)[[:space:]]*\(" | wc -l
