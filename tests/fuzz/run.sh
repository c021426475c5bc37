#!/bin/bash
# tests/fuzz/run.sh — suite `fuzz`: replays every kept crash input (crashes/) and every
# seed through both fuzz targets, then fuzzes each for FUZZ_CHECK_S seconds (half each)
# in a scratch corpus.  Any crash, sanitizer report, leak or timeout fails.
set -u
here=$(cd "$(dirname "$0")" && pwd)
TOP=${TOP:-$(cd "$here/../.." && pwd)}
SUITE=fuzz
. "$TOP/tests/lib/testlib.sh"
FB=$(dirname "${FUZZER:-$TOP/build/fuzz/fuzz_pipeline}")
S=${FUZZ_CHECK_S:-60}
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
seeds=("$TOP/samples" "$TOP/tests/analyzer/cases" "$TOP/tests/cocci/cases")
opts=(-dict="$here/blkmig.dict" -max_len=65536 -timeout=60 -rss_limit_mb=4096)

for t in fuzz_text fuzz_pipeline; do
	[ -x "$FB/$t" ] || { fail "$t/built" "no $FB/$t"; continue; }
	# kept crash inputs: each run once, by name
	crashes=("$here"/crashes/*)
	if [ -e "${crashes[0]}" ]; then
		if (cd "$tmp" && "$FB/$t" "${opts[@]}" "${crashes[@]}") >"$tmp/$t.replay" 2>&1; then
			pass "$t/crash-inputs"
		else
			fail "$t/crash-inputs" "$(grep -m3 -E 'ERROR|runtime error|blkmig-fuzz' "$tmp/$t.replay")"
		fi
	fi
	# every seed once
	if (cd "$tmp" && "$FB/$t" "${opts[@]}" -runs=0 "${seeds[@]}") >"$tmp/$t.seeds" 2>&1; then
		pass "$t/seeds"
	else
		fail "$t/seeds" "$(grep -m3 -E 'ERROR|runtime error|blkmig-fuzz' "$tmp/$t.seeds")"
	fi
	# a short fuzzing run
	mkdir -p "$tmp/corpus-$t"
	if (cd "$tmp" && nice -n 10 "$FB/$t" "${opts[@]}" -max_total_time=$((S / 2)) \
		-print_final_stats=1 "$tmp/corpus-$t" "${seeds[@]}") >"$tmp/$t.fuzz" 2>&1; then
		echo "$t: $(grep -o 'number_of_executed_units: *[0-9]*' "$tmp/$t.fuzz" | grep -o '[0-9]*$') runs in $((S / 2)) s"
		pass "$t/fuzz"
	else
		cp "$tmp"/crash-* "$tmp"/leak-* "$tmp"/timeout-* "$RESULTS/" 2>/dev/null
		fail "$t/fuzz" "$(grep -m3 -E 'ERROR|runtime error|blkmig-fuzz' "$tmp/$t.fuzz") (input kept in $RESULTS)"
	fi
done

# a run libFuzzer interrupts leaves with _Exit(), past atexit: its private folder stays,
# and the next run removes it (and only it: a live run's folder stays) --------------------
if [ -x "$FB/fuzz_pipeline" ]; then
	td=$tmp/tmpdir; mkdir -p "$td"
	(sleep 60 & echo $! >"$td/live.pid"; wait) 2>/dev/null &
	sleep 0.2
	(exit 0) & dead=$!; wait $dead
	# the owner in the name (blkmig.<pid>.XXXXXX), and an older blkmig's mark inside
	mkdir -p "$td/blkmig.$dead.Ab12Cd" "$td/blkmig.stale1" "$td/blkmig.alive1"
	echo "$dead" >"$td/blkmig.stale1/.blkmig-owner"
	cat "$td/live.pid" >"$td/blkmig.alive1/.blkmig-owner"
	(cd "$tmp" && TMPDIR=$td "$FB/fuzz_pipeline" "${opts[@]}" -runs=0 "$TOP/samples") \
		>"$tmp/stale.log" 2>&1
	left=$(cd "$td" && ls -d blkmig.* 2>/dev/null | tr '\n' ' ')
	if [ ! -e "$td/blkmig.stale1" ] && [ ! -e "$td/blkmig.$dead.Ab12Cd" ] && [ -e "$td/blkmig.alive1" ] && [ "$left" = "blkmig.alive1 " ]; then
		pass fuzz_pipeline/stale-private-folder-removed
	else
		fail fuzz_pipeline/stale-private-folder-removed "left in TMPDIR: $left"
	fi
	kill "$(cat "$td/live.pid")" 2>/dev/null
fi
finish
