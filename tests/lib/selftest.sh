#!/bin/bash
# Self-test of tests/lib: the verdict plumbing every other suite relies on.
set -u
here=$(cd "$(dirname "$0")" && pwd)
SUITE=harness
. "$here/testlib.sh"
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

# A suite with one failing test makes summarize exit non-zero and count it.
( SUITE=a RESULTS=$tmp; . "$here/testlib.sh"; pass one; fail two "broken"; finish ) >/dev/null
out=$("$here/summarize" "$tmp"); rc=$?
if [ $rc -ne 0 ] && grep -qx '1 passed, 1 failed' <<<"$out"; then
	pass summarize-counts-failure
else
	fail summarize-counts-failure "rc=$rc out=$(tail -1 <<<"$out")"
fi

# All passing: exit 0.
rm -f "$tmp"/*.log
( SUITE=b RESULTS=$tmp; . "$here/testlib.sh"; pass one; pass two; finish ) >/dev/null
if "$here/summarize" "$tmp" | grep -qx '2 passed, 0 failed'; then
	pass summarize-all-pass
else
	fail summarize-all-pass
fi

# The time make check's loop wrote for a suite is shown on its line, summed over reruns.
printf 'b 70\nb 55\n' > "$tmp/durations"
if "$here/summarize" "$tmp" | grep -qx 'b  *2 passed,  *0 failed, 2 min 5 s'; then
	pass summarize-shows-suite-time
else
	fail summarize-shows-suite-time "$("$here/summarize" "$tmp" | grep '^b ')"
fi
rm -f "$tmp/durations"

# No test at all is not a success.
rm -f "$tmp"/*.log
if "$here/summarize" "$tmp" >/dev/null; then
	fail summarize-empty "an empty run reported success"
else
	pass summarize-empty
fi

# check() passes a succeeding command and fails a failing one.
( SUITE=c RESULTS=$tmp; . "$here/testlib.sh"; check t true; check u false; finish ) >/dev/null
if grep -q '^PASS c/t' "$tmp/c.log" && grep -q '^FAIL c/u' "$tmp/c.log"; then
	pass check-helper
else
	fail check-helper
fi
finish
