# tests/lib/testlib.sh — the result convention every test runner uses.
#
# Source it, set SUITE (and optionally RESULTS, the directory of result logs), then call
# pass NAME / fail NAME REASON for each test and finish with `finish`, which prints
# "N passed, N failed" and returns non-zero when anything failed.  Each verdict is also
# appended to $RESULTS/$SUITE.log, which `make check` sums up (tests/lib/summarize).

: "${SUITE:?set SUITE before sourcing testlib.sh}"
RESULTS=${RESULTS:-$(pwd)/build/test-results}
mkdir -p "$RESULTS"
TL_LOG="$RESULTS/$SUITE.log"
: > "$TL_LOG"
# blkmig migrate keeps results under $XDG_CACHE_HOME/blkmig: tests use one of the
# build folder's, never the user's (a suite that tests the cache sets its own)
export XDG_CACHE_HOME="${RESULTS%/*}/test-cache"
TL_PASSED=0
TL_FAILED=0

pass() {
	TL_PASSED=$((TL_PASSED + 1))
	echo "PASS $SUITE/$1" | tee -a "$TL_LOG"
}

fail() {
	local name=$1
	shift
	TL_FAILED=$((TL_FAILED + 1))
	echo "FAIL $SUITE/$name${*:+: $*}" | tee -a "$TL_LOG"
}

# record_verdicts FILE: pass or fail each line of FILE, "VERDICT<TAB>NAME<TAB>DETAIL"
# (what tests/target/results.sh writes), VERDICT being PASS or anything else.
record_verdicts() {
	local verdict name detail
	while IFS=$'\t' read -r verdict name detail; do
		if [ "$verdict" = PASS ]; then
			pass "$name"
		else
			fail "$name" "$detail"
		fi
	done < "$1"
}

# check NAME CMD...: run CMD, pass if it exits 0, otherwise fail with its last output lines.
check() {
	local name=$1 out
	shift
	if out=$("$@" 2>&1); then
		pass "$name"
	else
		fail "$name" "$(printf '%s\n' "$out" | tail -n 15)"
	fi
}

finish() {
	echo "$SUITE: $TL_PASSED passed, $TL_FAILED failed"
	[ "$TL_FAILED" -eq 0 ]
}
