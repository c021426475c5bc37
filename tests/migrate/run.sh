#!/bin/bash
# tests/migrate/run.sh — runner of suite `migrate` (see tests/migrate/README.md).
#
# Each block below is one group of tests; every test can fail (each compares real output
# with an expectation kept beside the inputs, or checks a property that breaks when the
# code under test breaks).
set -u
SUITE=migrate
TOP=${TOP:?}
BUILD=${BUILD:?}
T=${MIGRATE_TBUILD:-$BUILD/migrate}
source "$TOP/tests/lib/testlib.sh"

SCRATCH=$(mktemp -d "$T/scratch.XXXXXX")
trap 'chmod -R u+w "$SCRATCH" 2>/dev/null; rm -rf "$SCRATCH"' EXIT

# ---- unit tests: edit applier, atomic writer, rewrite plan and its output -----------
for unit in unit_edits unit_plan; do
	mkdir -p "$SCRATCH/$unit"
	while read -r verdict name rest; do
		case $verdict in
		PASS) pass "$unit/$name" ;;
		FAIL) fail "$unit/$name" "$rest" ;;
		esac
	done < <("$T/$unit" "$SCRATCH/$unit" 2>&1)
done

# ---- the unified diff round-trips through patch -p1 and git apply -p1 ----------------
udiff_roundtrip() {
	local d=$SCRATCH/rt i bad=0
	mkdir -p "$d"
	for i in $(seq 1 150); do
		rm -rf "$d/p" "$d/g"
		mkdir -p "$d/p/sub" "$d/g/sub"
		"$T/udiff_driver" gen "$i" "$d/old" "$d/new" || return 1
		cp "$d/old" "$d/p/sub/f.c"
		cp "$d/old" "$d/g/sub/f.c"
		"$T/udiff_driver" diff sub/f.c "$d/old" "$d/new" > "$d/x.diff" || return 1
		(cd "$d/p" && patch -s -p1 < "$d/x.diff") > /dev/null 2>&1
		(cd "$d/g" && git apply -p1 "$d/x.diff") > /dev/null 2>&1
		if ! cmp -s "$d/p/sub/f.c" "$d/new" || ! cmp -s "$d/g/sub/f.c" "$d/new"; then
			echo "seed $i: patched file differs from the expected new version"
			bad=1
		fi
	done
	return $bad
}
check udiff/roundtrip-patch-and-git-apply udiff_roundtrip

# ---- the HTML review page, rendered by real headless Chromium ------------------------
ARTIFACTS=$T/artifacts
mkdir -p "$ARTIFACTS"
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
chromium_run() { # chromium_run ARGS... : one bounded headless run, own profile
	local prof
	prof=$(mktemp -d "$SCRATCH/chromium.XXXXXX")
	timeout 90 "$CHROMIUM" --headless --no-sandbox --disable-gpu --disable-quic \
		--no-first-run --disable-background-networking --disable-component-update \
		--disable-sync --user-data-dir="$prof" "$@" 2> "$prof.log"
}
# dom_expect DOM EXPECTED: every total, site and filtered count of EXPECTED is in DOM
dom_expect() {
	local dom=$1 exp=$2 key val bad=0 n
	while IFS='=' read -r key val; do
		case $key in
		''|'#'*) ;;
		site)
			grep -qF "<span class=\"loc\">$val</span>" "$dom" ||
				{ echo "site $val not rendered"; bad=1; } ;;
		manual_shown) ;;
		*)
			grep -qF "<td data-key=\"$key\">$val</td>" "$dom" ||
				{ echo "total $key is not $val"; bad=1; } ;;
		esac
	done < "$exp"
	n=$(grep -c '<section class="site' "$dom")
	[ "$n" = "$(grep -c '^site=' "$exp")" ] || { echo "$n site sections rendered"; bad=1; }
	return $bad
}
html_test() {
	local dir=$TOP/tests/migrate/html page=$SCRATCH/report.html n shown
	if [ -z "$CHROMIUM" ]; then
		fail html/chromium-present "chromium not installed (make deps)"
		return
	fi
	if ! "$T/html_driver" "$dir/report.json" "$page"; then
		fail html/render "html_driver failed"
		return
	fi
	chromium_run --dump-dom "file://$page" > "$SCRATCH/dom.html"
	check html/dom-sites-and-totals dom_expect "$SCRATCH/dom.html" "$dir/expected.txt"
	n=$(grep -c '<section class="site[^>]*hidden' "$SCRATCH/dom.html")
	[ "$n" = 0 ] && pass html/unfiltered-shows-all || fail html/unfiltered-shows-all "$n hidden"
	# report text is escaped: the site whose code holds "<script>" adds no element
	n=$(grep -o '<script' "$SCRATCH/dom.html" | wc -l)
	if [ "$n" = 1 ] && grep -qF '&lt;script&gt;alert(1)' "$SCRATCH/dom.html"; then
		pass html/code-is-escaped
	else
		fail html/code-is-escaped "$n script elements in the DOM"
	fi
	chromium_run --dump-dom "file://$page#manual" > "$SCRATCH/dom-manual.html"
	shown=$(grep -c '<section class="site[^>]*data-verdict="manual"' "$SCRATCH/dom-manual.html")
	n=$(grep '<section class="site' "$SCRATCH/dom-manual.html" | grep -vc 'hidden=')
	if [ "$n" = "$(sed -n 's/^manual_shown=//p' "$dir/expected.txt")" ] && [ "$n" = "$shown" ] &&
		grep -qF "<span id=\"shown-count\">$n</span>" "$SCRATCH/dom-manual.html"; then
		pass html/filter-manual-only
	else
		fail html/filter-manual-only "$n sections visible with #manual"
	fi
	rm -f "$ARTIFACTS/report.png"
	(cd "$SCRATCH" && chromium_run --hide-scrollbars --window-size=1200,1600 \
		--screenshot="$ARTIFACTS/report.png" "file://$page") > /dev/null
	cp "$page" "$ARTIFACTS/report.html"
	if [ -s "$ARTIFACTS/report.png" ] && [ "$(head -c 4 "$ARTIFACTS/report.png" | od -An -c | tr -d ' ')" = '211PNG' ]; then
		pass html/screenshot
	else
		fail html/screenshot "no PNG screenshot"
	fi
}
html_test

finish
