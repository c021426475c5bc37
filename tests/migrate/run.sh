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
# blkmig migrate keeps results in $XDG_CACHE_HOME/blkmig: the suite's own, not the user's
export XDG_CACHE_HOME=$SCRATCH/xdg-cache

# ---- unit tests: edit applier, atomic writer, rewrite plan and its output -----------
for unit in unit_edits unit_plan unit_combine; do
	mkdir -p "$SCRATCH/$unit"
	while read -r verdict name rest; do
		case $verdict in
		PASS) pass "$unit/$name" ;;
		FAIL) fail "$unit/$name" "$rest" ;;
		EXIT) [ "$name" = 0 ] || grep -q "^FAIL $SUITE/$unit/" "$TL_LOG" ||
			fail "$unit/exit" "exited $name without naming a failed test" ;;
		esac
	done < <("$T/$unit" "$SCRATCH/$unit" 2>&1; echo "EXIT $?")
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
# not in the sanitizer rerun (tests/sanitize): chromium renders the page the report test already writes
[ -n "${SANITIZE_RUN:-}" ] || html_test

# ---- blkmig migrate / fix on golden trees ----------------------------------------------
BLKMIG=${BLKMIG:-$BUILD/blkmig}
export BLKMIG_COCCI_DIR=${BLKMIG_COCCI_DIR:-$TOP/cocci}
# tree_same A B: the two trees hold the same files with the same bytes
tree_same() { diff -r "$1" "$2"; }
# manual_sites PREFIX < STDERR: the manual sites blkmig listed, "FILE:LINE CALL REASON"
# (from "FILE:LINE:COL: warning: CALL in FUNCTION() left for manual review: TEXT [REASON]")
manual_sites() {
	sed -n "s|^$1\([^:]*\):\([0-9]*\):[0-9]*: warning: \([a-z_]*\) in .* left for manual review: .*\[\([a-z_]*\)\]\$|\1:\2 \3 \4|p" | sort
}
golden_case() {
	local case=$1 d=$TOP/tests/migrate/golden/$1 w=$SCRATCH/golden-$1 rc
	mkdir -p "$w"
	# --patch: the expected diff, names relative to --root
	cp -r "$d/in" "$w/tree"
	(cd "$w" && "$BLKMIG" migrate -q --patch out.patch --root tree tree) \
		> "$w/patch.log" 2>&1
	rc=$?
	if [ $rc -le 1 ] && cmp -s "$w/out.patch" "$d/expected.patch"; then
		pass "golden/$case/patch"
	else
		fail "golden/$case/patch" "exit $rc; $(diff "$d/expected.patch" "$w/out.patch" | head -20; tail -5 "$w/patch.log")"
	fi
	check "golden/$case/check-leaves-input-alone" tree_same "$d/in" "$w/tree"
	# the patch applies with both tools and gives the in-place result
	cp -r "$d/in" "$w/git" && cp -r "$d/in" "$w/gnu"
	if (cd "$w/git" && git apply -p1 ../out.patch) && (cd "$w/gnu" && patch -s -p1 < ../out.patch) &&
		tree_same "$w/git" "$d/out" > /dev/null && tree_same "$w/gnu" "$d/out" > /dev/null; then
		pass "golden/$case/patch-applies-git-and-patch"
	else
		fail "golden/$case/patch-applies-git-and-patch" "patched tree differs from out/"
	fi
	# the manual sites reported
	manual_sites tree/ < "$w/patch.log" > "$w/manual"
	if cmp -s "$w/manual" "$d/expected.manual"; then
		pass "golden/$case/manual-sites-reported"
	else
		fail "golden/$case/manual-sites-reported" "$(diff "$d/expected.manual" "$w/manual")"
	fi
	# --in-place gives out/
	cp -r "$d/in" "$w/inplace"
	"$BLKMIG" migrate -q --in-place "$w/inplace" > "$w/inplace.log" 2>&1
	check "golden/$case/in-place" tree_same "$d/out" "$w/inplace"
	# --check: 1 on the input, 0 on the output; a second run changes nothing
	"$BLKMIG" migrate -q --check "$w/tree" > /dev/null 2>&1
	rc=$?
	[ $rc = 1 ] && pass "golden/$case/check-exit-1-on-input" ||
		fail "golden/$case/check-exit-1-on-input" "exit $rc"
	# --check names the files it would change, one per line on stdout, as the patch names
	# them (relative to --root), before its summary; the exit status as without the list
	(cd "$w" && "$BLKMIG" migrate -q --check --root tree tree) > "$w/check.out" 2> "$w/check.err"
	rc=$?
	sed -n 's|^+++ b/||p' "$w/out.patch" | sort > "$w/patched"
	(cd "$w" && "$BLKMIG" migrate -q --check --root tree tree) > "$w/check.both" 2>&1
	if [ $rc = 1 ] && [ -s "$w/patched" ] && sort "$w/check.out" | cmp -s - "$w/patched" &&
		head -n "$(wc -l < "$w/patched")" "$w/check.both" | sort | cmp -s - "$w/patched" &&
		grep -q 'would be converted' "$w/check.err"; then
		pass "golden/$case/check-names-the-files"
	else
		fail "golden/$case/check-names-the-files" "exit $rc; $(diff "$w/patched" "$w/check.out" | head -5)"
	fi
	"$BLKMIG" migrate -q --check "$w/inplace" > "$w/check2.log" 2>&1
	rc=$?
	[ $rc = 0 ] && pass "golden/$case/check-exit-0-on-output" ||
		fail "golden/$case/check-exit-0-on-output" "exit $rc: $(tail -3 "$w/check2.log")"
	"$BLKMIG" migrate -q --in-place "$w/inplace" > /dev/null 2>&1
	check "golden/$case/idempotent" tree_same "$d/out" "$w/inplace"
	# fix (the analyzer alone) gives its expected patch
	(cd "$w" && "$BLKMIG" fix -q --patch fix.patch --root tree tree) > /dev/null 2>&1
	if cmp -s "$w/fix.patch" "$d/expected-fix.patch"; then
		pass "golden/$case/fix-patch"
	else
		fail "golden/$case/fix-patch" "$(diff "$d/expected-fix.patch" "$w/fix.patch" | head -20)"
	fi
}
for g in "$TOP"/tests/migrate/golden/*/; do
	golden_case "$(basename "$g")"
done

# ---- a generated drivers/ tree (gen/gentree.c): every pattern, end to end ----------------
generated_test() {
	local w=$SCRATCH/gen rc
	"$T/gentree" "$w/tree" 1200 7 > /dev/null || { fail generated/gentree "generator failed"; return; }
	cp -r "$w/tree" "$w/orig"
	"$BLKMIG" migrate -q --in-place "$w/tree" > "$w/log" 2>&1
	rc=$?
	[ $rc -le 1 ] && pass generated/in-place-runs || fail generated/in-place-runs "exit $rc: $(tail -3 "$w/log")"
	# exactly the legacy drivers changed, every ordinary file is byte-for-byte the same
	diff -rq "$w/orig" "$w/tree" | sed -n "s|^Files $w/orig/\([^ ]*\) and .*|\1|p" | sort > "$w/changed"
	sort "$w/orig/LEGACY-FILES" > "$w/legacy"
	check generated/only-legacy-files-changed diff "$w/legacy" "$w/changed"
	"$BLKMIG" migrate -q --check "$w/tree" > /dev/null 2>&1
	rc=$?
	[ $rc = 0 ] && pass generated/check-clean-after || fail generated/check-clean-after "exit $rc"
	check generated/verify-clean-after "$BLKMIG" verify -q "$w/tree"
	# the generator is deterministic
	"$T/gentree" "$w/again" 1200 7 > /dev/null
	check generated/deterministic diff -r "$w/orig" "$w/again"
}
generated_test

# ---- a site spatch skips is converted by the analyzer or reported, never lost --------
missed_test() {
	local w=$SCRATCH/missed line
	mkdir -p "$w"
	cp "$TOP/tests/migrate/cases/missed/missed.c" "$w/"
	"$BLKMIG" migrate -q --in-place "$w" > /dev/null 2> "$w/log"
	line=$(grep -n 'end_request(rq, ok);' "$TOP/tests/migrate/cases/missed/missed.c" | cut -d: -f1)
	if ! awk '/^static void missed_request/,/^}/' "$w/missed.c" | grep -qE '(^|[^_a-z])end_request\('; then
		pass missed/converted-or-reported	# converted
	elif grep -q "missed.c:$line:[0-9]*: warning: end_request" "$w/log"; then
		pass missed/converted-or-reported	# still there, and reported
	else
		fail missed/converted-or-reported "the call in missed_request is left and not reported"
	fi
	if grep -q '__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));' "$w/missed.c"; then
		pass missed/other-site-converted
	else
		fail missed/other-site-converted "plain_request not converted"
	fi
}
missed_test

# ---- a non-static wrapper shared by a driver's files (tests/analyzer/cases/xwrap): `fix`
# renames its parameter with its callers in the other files and its header; migrate, which
# analyses and writes only the files with sites, keeps the exact E(u) inside it, with and
# without spatch, and its report says just that (no renamed `error`, no other file)
xwrap_test() {
	local w=$SCRATCH/xwrap mode bad
	for mode in spatch no-spatch; do
		rm -rf "$w" && mkdir -p "$w" && cp -r "$TOP/tests/analyzer/cases/xwrap" "$w/"
		# shellcheck disable=SC2046 # no option or one
		(cd "$w" && "$BLKMIG" migrate -q --no-cache $([ $mode = no-spatch ] && echo --no-spatch) \
			--patch x.patch --report rep xwrap) > /dev/null 2> "$w/log"
		bad=
		[ "$(grep -c '^+++ ' "$w/x.patch")" = 1 ] && grep -q '^+++ b/xwrap/xw_core.c' "$w/x.patch" ||
			bad="patch changes other files: $(grep '^+++ ' "$w/x.patch" | tr '\n' ' ')"
		grep -q 'uptodate > 0 ? 0 : (uptodate ? uptodate : -EIO)' "$w/x.patch" ||
			bad="$bad; no exact E(u) in the patch"
		python3 -c 'import json, sys
s = json.load(open(sys.argv[1]))["sites"]
sys.exit(not (len(s) == 1 and s[0]["uptodate"]["class"] == "errno_capable" and
              "origin" not in s[0]["uptodate"] and s[0]["verdict"] == "auto"))' "$w/rep/report.json" ||
			bad="$bad; report.json: $(head -c 300 "$w/rep/report.json")"
		[ -z "$bad" ] && pass "xwrap/migrate-$mode-keeps-exact-mapping" ||
			fail "xwrap/migrate-$mode-keeps-exact-mapping" "$bad"
	done
}
xwrap_test

# ---- spatch on the private copy finds what plain spatch finds beside the user's file:
# the header folders (-I, --kernel-tree, the file's own tree) for #define constants --------
hconst_test() {
	local w=$SCRATCH/hconst case=$TOP/tests/migrate/cases/hconst
	mkdir -p "$w/d"
	cp "$case/hconst.c" "$w/d/"
	(cd "$w" && "$BLKMIG" migrate -q --no-cache --patch hconst.patch -I "$case/inc" d) \
		>/dev/null 2>"$w/log"
	if grep -qx '+			__blk_end_request(rq, -EIO, blk_rq_cur_bytes(rq));' "$w/hconst.patch" &&
		grep -qx '+		__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));' "$w/hconst.patch" &&
		! grep -q '^+.*HCONST_' "$w/hconst.patch"; then
		pass hconst/header-constants-through-I
	else
		fail hconst/header-constants-through-I "$(grep '^[-+]' "$w/hconst.patch" 2>/dev/null | head -6 | tr '\n' '|') $(tail -2 "$w/log")"
	fi
}
hconst_test

# cachedrun DIR WHAT NAME [ARGS]: in DIR, migrate --patch and --report of d (with -I inc0
# -I inc) into DIR/NAME.*, and from BLKMIG_STAGE_TIMES' "WHAT N of M file(s) cached" the
# "N of M" into DIR/NAME.cached; samerun DIR A B: runs A and B gave the same patch and report
cachedrun() {
	local w=$1 what=$2 name=$3
	shift 3
	(cd "$w" && XDG_CACHE_HOME=$w/xdg BLKMIG_STAGE_TIMES=1 "$BLKMIG" migrate -q "$@" \
		--patch "$name.patch" --report "$name.rep" -I inc0 -I inc d) \
		> /dev/null 2> "$w/$name.err"
	sed -n "s/^blkmig migrate: $what \(.*\) file(s) cached$/\1/p" \
		"$w/$name.err" > "$w/$name.cached"
}
samerun() {
	cmp -s "$1/$2.patch" "$1/$3.patch" && cmp -s "$1/$2.rep/report.json" "$1/$3.rep/report.json"
}

# ---- spatch's result per file kept between runs (cli/spatch_cache.c): after one file is
# edited only that file goes through spatch and the result is that of a --no-cache run; a
# header the patches' Python reads for a constant (-I), or one appearing in an -I folder
# searched before it, is an input of the file's entry ----------------------------------
spatch_cache_test() {
	local w=$SCRATCH/spcache case=$TOP/tests/migrate/cases/hconst
	mkdir -p "$w/d"
	cp "$case/hconst.c" "$TOP/tests/migrate/cache/drivers/block/cdrv.c" \
		"$TOP/tests/migrate/cache/drivers/block/cdrv.h" "$w/d/"
	cp -r "$case/inc" "$w/inc"
	mkdir -p "$w/inc0"
	find "$w" -exec touch -d '1 minute ago' {} +
	sprun() { cachedrun "$w" "spatch's result of" "$@"; }
	spsame() { samerun "$w" "$@"; }
	sprun cold
	# an edit of one file: a miss of the whole run, spatch on that file only
	printf '/* edited */\n' >> "$w/d/cdrv.c"
	touch -d '1 minute ago' "$w/d/cdrv.c"
	sprun edited
	sprun edited-nocache --no-cache
	if [ "$(cat "$w/cold.cached")" = "0 of 2" ] && [ "$(cat "$w/edited.cached")" = "1 of 2" ] &&
		spsame edited edited-nocache; then
		pass spatch-cache/one-file-edited-others-from-cache-same-result
	else
		fail spatch-cache/one-file-edited-others-from-cache-same-result "cached: $(cat "$w/cold.cached") then $(cat "$w/edited.cached"); $(diff "$w/edited.patch" "$w/edited-nocache.patch" | head -4 | tr '\n' '|')"
	fi
	# the constants' header changes (0 and 1 swapped): hconst.c is spatched again
	sed -i 's/HCONST_FAIL 0/HCONST_FAIL 2/' "$w/inc/hconst/status.h"
	touch -d '1 minute ago' "$w/inc/hconst/status.h"
	sprun header
	sprun header-nocache --no-cache
	if [ "$(cat "$w/header.cached")" = "1 of 2" ] && ! spsame header edited &&
		spsame header header-nocache; then
		pass spatch-cache/header-the-patches-read-is-an-input
	else
		fail spatch-cache/header-the-patches-read-is-an-input "cached: $(cat "$w/header.cached"); $(diff "$w/header.patch" "$w/header-nocache.patch" | head -4 | tr '\n' '|')"
	fi
	# the same header appears in an -I folder searched before: that one is read now
	mkdir -p "$w/inc0/hconst"
	sed 's/HCONST_FAIL 2/HCONST_FAIL 0/' "$w/inc/hconst/status.h" > "$w/inc0/hconst/status.h"
	find "$w/inc0" -exec touch -d '1 minute ago' {} +
	sprun appeared
	sprun appeared-nocache --no-cache
	if [ "$(cat "$w/appeared.cached")" = "1 of 2" ] && ! spsame appeared header &&
		spsame appeared appeared-nocache; then
		pass spatch-cache/header-appearing-earlier-is-an-input
	else
		fail spatch-cache/header-appearing-earlier-is-an-input "cached: $(cat "$w/appeared.cached"); $(diff "$w/appeared.patch" "$w/appeared-nocache.patch" | head -4 | tr '\n' '|')"
	fi
	# a run that stores removes entries unused for 30 days; one used keeps its place
	local x=$w/xdg/blkmig used
	# hconst.c's spatch result stored last (no "cands": not a whole run's entry)
	used=$(ls -t $(grep -l 'HCONST_OK' "$x"/*.entry | xargs grep -L '"cands"') | head -1)
	echo stale > "$x/unused.entry"
	touch -d '31 days ago' "$x/unused.entry" "$used"
	echo recent > "$x/recent.entry"
	touch -d '29 days ago' "$x/recent.entry"
	printf '/* edited again */\n' >> "$w/d/cdrv.c"
	touch -d '1 minute ago' "$w/d/cdrv.c"
	sprun pruned
	if [ ! -e "$x/unused.entry" ] && [ -e "$x/recent.entry" ] && [ -e "$used" ] &&
		[ "$(cat "$w/pruned.cached")" = "1 of 2" ]; then
		pass spatch-cache/unused-entries-pruned-used-kept
	else
		fail spatch-cache/unused-entries-pruned-used-kept "$(ls "$x" | head) cached: $(cat "$w/pruned.cached")"
	fi
	# --in-place (no whole-run entry) twice on the same files: the second runs no spatch
	# at all (a wrapper counts its starts) and writes what the first wrote
	local sp=$w/spatch-counting
	printf '#!/bin/sh\necho run >> "%s"\nexec %s "$@"\n' "$w/spatch-starts" \
		"$(command -v spatch)" > "$sp"
	chmod +x "$sp"
	rm -rf "$w/ip" && cp -r "$w/d" "$w/ip0"
	for k in 1 2; do
		rm -rf "$w/ip" && cp -a "$w/ip0" "$w/ip"
		: > "$w/spatch-starts"
		(cd "$w" && XDG_CACHE_HOME=$w/xdg BLKMIG_STAGE_TIMES=1 "$BLKMIG" migrate -q \
			--in-place --spatch "$sp" -I inc0 -I inc ip) > /dev/null 2> "$w/ip$k.err"
		cp -r "$w/ip" "$w/ip$k.out"
		wc -l < "$w/spatch-starts" > "$w/ip$k.starts"
	done
	if [ "$(cat "$w/ip1.starts")" -gt 0 ] && [ "$(cat "$w/ip2.starts")" = 0 ] &&
		grep -q "spatch's result of 2 of 2 file(s) cached" "$w/ip2.err" &&
		diff -r "$w/ip1.out" "$w/ip2.out" > /dev/null && ! diff -r "$w/ip0" "$w/ip1.out" > /dev/null; then
		pass spatch-cache/in-place-all-cached-runs-no-spatch
	else
		fail spatch-cache/in-place-all-cached-runs-no-spatch "spatch started $(cat "$w/ip1.starts") then $(cat "$w/ip2.starts") time(s); $(grep cached "$w/ip2.err")"
	fi
	# the facts pass ("// Output: facts only") runs only when it has a file to write
	# ($BLKMIG_FACTS): then it writes it, and no spatch result is kept or taken (a file's
	# result depends on every file's facts)
	local k
	for k in 1 2; do
		: > "$w/spatch-starts"
		(cd "$w" && XDG_CACHE_HOME=$w/xdg BLKMIG_FACTS=$w/facts.$k BLKMIG_STAGE_TIMES=1 \
			"$BLKMIG" migrate -q --spatch "$sp" --patch "$w/facts$k.patch" -I inc0 -I inc d) \
			> /dev/null 2> "$w/facts$k.err"
		wc -l < "$w/spatch-starts" > "$w/facts$k.starts"
	done
	: > "$w/spatch-starts"
	(cd "$w" && "$BLKMIG" migrate -q --no-cache --spatch "$sp" --check -I inc0 -I inc d) \
		> /dev/null 2>&1
	if [ "$(cat "$w/facts1.starts")" = 2 ] && [ "$(cat "$w/facts2.starts")" = 2 ] &&
		[ -s "$w/facts.1" ] && ! grep -q "cached" "$w/facts1.err" "$w/facts2.err" &&
		[ "$(wc -l < "$w/spatch-starts")" = 1 ]; then
		pass spatch-cache/facts-pass-only-with-a-facts-file
	else
		fail spatch-cache/facts-pass-only-with-a-facts-file "starts: $(cat "$w/facts1.starts") $(cat "$w/facts2.starts") and without facts $(wc -l < "$w/spatch-starts"); $(grep cached "$w/facts2.err")"
	fi
}
spatch_cache_test

# ---- a parse child's result kept between runs (cli/parse_cache.c): after one file is
# edited, each file parsed for the whole-tree facts alone comes from its entry (its parse
# made in another run's private folder, whose model headers are this run's), and so does
# each copy of an unchanged file parsed after spatch, and the result is a --no-cache run's; a header such a file includes is an input of its entry
# alone, and so is a header appearing in an -I folder searched before the model (then the
# whole run's entry is void too), and --kernel-tree's configuration ---------------------
parse_cache_test() {
	local w=$SCRATCH/pcache c
	mkdir -p "$w/d" "$w/inc0"
	for c in xwrap callers multi; do
		cp -r "$TOP/tests/analyzer/cases/$c" "$w/d/"
	done
	find "$w/d" -name '*.fixed.c' -delete
	find "$w" -exec touch -d '1 minute ago' {} +
	pcrun() { # pcrun NAME [ARGS]: migrate d, with the parse trace in NAME.err
		local name=$1
		shift
		(cd "$w" && XDG_CACHE_HOME=$w/xdg BLKMIG_UNIT_TRACE=1 "$BLKMIG" migrate -q "$@" \
			--patch "$name.patch" --report "$name.rep" -I inc0 d) > /dev/null 2> "$w/$name.err"
	}
	pcedit() { # pcedit FILE: a change of FILE that keeps its name (and its folder's entries)
		printf '/* edited */\n' >> "$w/$1"
		touch -d '1 minute ago' "$w/$1"
	}
	# kept NAME [PATH]: how many parses of files under d/ (or PATH) came from the cache
	kept() { grep -c "^blkmig: parse kept: ${2-d/}" "$w/$1.err"; }
	notkept() { grep -c "^blkmig: parse not kept: ${2-d/}" "$w/$1.err"; }
	# ... of migrate's copies of FILE (its private tree: /tmp/blkmig.<pid>.XXXXXX/<n>/FILE)
	copykept() { grep -c "^blkmig: parse kept: /.*/blkmig\.[0-9]*\.[^/]*/[0-9]*/$2\( (with its AST)\)\?\$" "$w/$1.err"; }
	copynotkept() { grep -c "^blkmig: parse not kept: /.*/blkmig\.[0-9]*\.[^/]*/[0-9]*/$2\$" "$w/$1.err"; }
	pcrun cold
	pcedit d/xwrap/xw_core.c
	pcrun edited
	pcrun edited-nocache --no-cache
	if [ "$(kept cold)" = 0 ] && [ "$(notkept cold)" -ge 3 ] &&
		[ "$(kept edited)" = "$(($(notkept cold) - 1))" ] && [ "$(notkept edited)" = 1 ] &&
		[ "$(notkept edited d/xwrap/xw_core.c)" = 1 ] &&
		[ "$(kept edited-nocache)$(notkept edited-nocache)" = 00 ] &&
		samerun "$w" edited edited-nocache &&
		cmp -s "$w/edited.rep/report.txt" "$w/edited-nocache.rep/report.txt"; then
		pass parse-cache/one-file-edited-facts-files-from-cache-same-result
	else
		fail parse-cache/one-file-edited-facts-files-from-cache-same-result "kept: cold $(kept cold)/$(notkept cold), edited $(kept edited)/$(notkept edited); $(diff "$w/edited.patch" "$w/edited-nocache.patch" | head -4 | tr '\n' '|')"
	fi
	# the files the analysis asks libclang about (those with legacy calls) take their AST
	# from the cache too: none is parsed again, though the private folder its AST was
	# saved in is gone (the files it read are inside the AST)
	if [ "$(grep -c '^blkmig: parse kept: d/.* (with its AST)$' "$w/edited.err")" -ge 2 ] &&
		! grep -q '^blkmig: unit load: d/.*(parsed again)' "$w/edited.err" &&
		[ "$(grep -c '^blkmig: unit load: d/' "$w/edited.err")" -ge 1 ] &&
		samerun "$w" edited edited-nocache; then
		pass parse-cache/files-asked-of-libclang-take-their-ast-from-cache
	else
		fail parse-cache/files-asked-of-libclang-take-their-ast-from-cache "$(grep '(with its AST)\|unit load: d/' "$w/edited.err" | tr '\n' '|')"
	fi
	# the analysis of spatch's output parses migrate's copies: the edited file's is
	# parsed, the others' come from the cache, with their AST
	if [ "$(copykept cold cal_done.c)" = 0 ] && [ "$(copynotkept cold cal_done.c)" -ge 1 ] &&
		[ "$(copykept edited cal_done.c)" -ge 1 ] && [ "$(copynotkept edited cal_done.c)" = 0 ] &&
		grep -q "^blkmig: parse kept: /.*/cal_done.c (with its AST)\$" "$w/edited.err" &&
		[ "$(copynotkept edited xw_core.c)" -ge 1 ] && [ "$(copykept edited xw_core.c)" = 0 ]; then
		pass parse-cache/copies-of-unchanged-files-from-cache
	else
		fail parse-cache/copies-of-unchanged-files-from-cache "$(grep 'parse.*kept: /' "$w/edited.err" | tr '\n' '|')"
	fi
	# xw.h: xw_irq.c and xw_core.c include it, xw_proc.c does not
	pcedit d/xwrap/xw.h
	pcrun header
	pcrun header-nocache --no-cache
	if [ "$(notkept header d/xwrap/xw_irq.c)" = 1 ] && [ "$(kept header d/xwrap/xw_proc.c)" = 1 ] &&
		[ "$(notkept header)" = "$(grep -l 'xw\.h' "$w"/d/*/*.c | wc -l)" ] &&
		samerun "$w" header header-nocache; then
		pass parse-cache/header-a-file-includes-is-an-input
	else
		fail parse-cache/header-a-file-includes-is-an-input "$(grep 'parse.*kept' "$w/header.err" | tr '\n' '|')"
	fi
	# <linux/interrupt.h> appears in inc0, searched before the model: the files that
	# include it are parsed again, the others are not
	mkdir -p "$w/inc0/linux"
	printf '/* a local interrupt.h */\n#include <blkmig_model.h>\n' > "$w/inc0/linux/interrupt.h"
	find "$w/inc0" -exec touch -d '1 minute ago' {} +
	pcrun appeared
	pcrun appeared-nocache --no-cache
	if [ "$(notkept appeared d/callers/cal_irq.c)" = 1 ] &&
		[ "$(kept appeared d/xwrap/xw_proc.c)" = 1 ] && samerun "$w" appeared appeared-nocache; then
		pass parse-cache/header-appearing-earlier-is-an-input
	else
		fail parse-cache/header-appearing-earlier-is-an-input "$(grep 'parse.*kept' "$w/appeared.err" | tr '\n' '|')"
	fi
	# verify takes over the analysis of spatch's output's units of the copies it did
	# not change (convert/reuse.c): one taken from the cache without an AST (here none is
	# kept: BLKMIG_DEFER_EVERY_AST) has its functions read again from its kept result
	# rather than the file parsed again.  A copy a question then needs is parsed again,
	# and its AST kept: the next run takes it from the cache
	local r=$w/all
	mkdir -p "$r/d"
	cp -r "$TOP/tests/analyzer/cases" "$TOP/samples" "$r/d/"
	find "$r/d" -name '*.fixed.c' -delete
	local defer=1
	allrun() { # allrun NAME [ARGS]: migrate --patch of the whole tree
		local name=$1
		shift
		(cd "$r" && XDG_CACHE_HOME=$w/xdg BLKMIG_UNIT_TRACE=1 \
			env ${defer:+BLKMIG_DEFER_EVERY_AST=1} "$BLKMIG" migrate -q -j 2 "$@" \
			--patch "$name.patch" --report "$name.rep" d) > /dev/null 2> "$r/$name.err"
	}
	allrun cold
	printf '/* edited */\n' >> "$r/d/cases/xwrap/xw_core.c"
	allrun edited
	allrun nocache --no-cache
	# copies: /tmp/.../blkmig.<pid>.XXXXXX/<n>/FILE
	copyload() { grep -c "^blkmig: unit load: /.*($2)\$" "$r/$1.err"; }
	if [ "$(copyload cold 'parsed again')" -gt 0 ] &&
		[ "$(copyload cold 'its AST from the cache')" = 0 ] &&
		[ "$(copyload edited 'its AST from the cache')" -gt 0 ] &&
		[ "$(copyload edited 'parsed again')" -lt "$(copyload cold 'parsed again')" ]; then
		pass parse-cache/ast-of-a-unit-parsed-again-kept
	else
		fail parse-cache/ast-of-a-unit-parsed-again-kept "copies parsed again: cold $(copyload cold 'parsed again'), edited $(copyload edited 'parsed again'); their AST from the cache: cold $(copyload cold 'its AST from the cache'), edited $(copyload edited 'its AST from the cache')"
	fi
	if [ "$(grep -c '^blkmig: functions read again: ' "$r/edited.err")" -gt 0 ] &&
		[ "$(grep -c '^blkmig: functions read again: ' "$r/cold.err")" = 0 ] &&
		samerun "$r" edited nocache; then
		pass parse-cache/copies-taken-over-read-their-functions-again
	else
		fail parse-cache/copies-taken-over-read-their-functions-again "read again: $(grep -c '^blkmig: functions read again: ' "$r/edited.err"); $(diff "$r/edited.patch" "$r/nocache.patch" | head -4 | tr '\n' '|')"
	fi
	# ... and so does one taken from the cache with its AST (the default): its functions
	# are read from its kept result, not from a walk of the AST
	defer=
	# (an edit first: the whole run's entry of "edited" would answer the same tree)
	printf '/* before the runs with the ASTs kept */\n' >> "$r/d/cases/xwrap/xw_core.c"
	allrun ast-cold
	printf '/* edited with the ASTs kept */\n' >> "$r/d/cases/xwrap/xw_core.c"
	allrun ast-edited
	allrun ast-nocache --no-cache
	if [ "$(grep -c '^blkmig: functions read again: ' "$r/ast-edited.err")" -gt 0 ] &&
		[ "$(grep -c '^blkmig: parse kept: .* (with its AST)$' "$r/ast-edited.err")" -gt 0 ] &&
		samerun "$r" ast-edited ast-nocache; then
		pass parse-cache/copies-taken-over-with-their-ast-read-their-functions-again
	else
		fail parse-cache/copies-taken-over-with-their-ast-read-their-functions-again "read again: $(grep -c '^blkmig: functions read again: ' "$r/ast-edited.err"); $(diff "$r/ast-edited.patch" "$r/ast-nocache.patch" | head -4 | tr '\n' '|')"
	fi
	# --kernel-tree: the configuration header each run generates in its private folder
	# from the tree's defconfig is an input by its content
	local k=$w/kt
	mkdir -p "$k/include/linux" "$k/arch/x86/configs" "$k/drivers/block"
	printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 24\n' > "$k/Makefile"
	: > "$k/include/linux/kernel.h"
	printf 'CONFIG_X86_64=y\nCONFIG_XW=y\n' > "$k/arch/x86/configs/x86_64_defconfig"
	cp -r "$w/d/xwrap" "$k/drivers/block/"
	# xw_proc.c reads a header through the run's asm overlay (a link into the tree)
	mkdir -p "$k/include/asm-x86"
	printf '#define XWA_DEPTH 4\n' > "$k/include/asm-x86/xwa.h"
	printf '#include <asm/xwa.h>\n' >> "$k/drivers/block/xwrap/xw_proc.c"
	find "$k" -exec touch -d '1 minute ago' {} +
	ktrun() { # ktrun NAME: migrate --check of the tree's xwrap
		(cd "$w" && XDG_CACHE_HOME=$w/xdg BLKMIG_UNIT_TRACE=1 "$BLKMIG" migrate -q --check \
			--kernel-tree kt kt/drivers/block/xwrap) > /dev/null 2> "$w/$1.err"
	}
	ktrun kt-cold
	pcedit kt/drivers/block/xwrap/xw_core.c
	ktrun kt-edited
	# the header behind the overlay changes: the whole run's entry (stored by a run that
	# took xw_proc.c's parse from its entry) and xw_proc.c's are void, xw_irq.c's is not
	printf '#define XWA_DEPTH 8\n' > "$k/include/asm-x86/xwa.h"
	touch -d '1 minute ago' "$k/include/asm-x86/xwa.h"
	ktrun kt-asm
	printf 'CONFIG_X86_64=y\n# CONFIG_XW is not set\n' > "$k/arch/x86/configs/x86_64_defconfig"
	touch -d '1 minute ago' "$k/arch/x86/configs/x86_64_defconfig"
	ktrun kt-config
	if [ "$(notkept kt-cold kt/)" = 3 ] && [ "$(kept kt-edited kt/)" = 2 ] &&
		[ "$(notkept kt-config kt/)" = 3 ] && [ "$(kept kt-config kt/)" = 0 ]; then
		pass parse-cache/kernel-tree-configuration-is-an-input
	else
		fail parse-cache/kernel-tree-configuration-is-an-input "kept/not: cold $(kept kt-cold kt/)/$(notkept kt-cold kt/), edited $(kept kt-edited kt/)/$(notkept kt-edited kt/), config $(kept kt-config kt/)/$(notkept kt-config kt/)"
	fi
	if [ "$(notkept kt-asm kt/drivers/block/xwrap/xw_proc.c)" = 1 ] &&
		[ "$(kept kt-asm kt/drivers/block/xwrap/xw_irq.c)" = 1 ]; then
		pass parse-cache/header-behind-the-asm-overlay-is-an-input
	else
		fail parse-cache/header-behind-the-asm-overlay-is-an-input "$(grep 'parse.*kept' "$w/kt-asm.err" | tr '\n' '|')"
	fi
}
parse_cache_test

# ---- the tree-wide pass's answer for each file without legacy calls kept between runs
# by the file's content (analyzer/facts/tree_memo.c): after one such file is edited only
# that one is scanned again, and the result is a --no-cache run's (multi_main.c, whose
# answer comes from the memo, gives multi_core.c's request function its queue) --------
tree_memo_test() {
	local w=$SCRATCH/tmemo c
	mkdir -p "$w/d" "$w/inc0" "$w/inc"
	for c in xwrap callers multi; do
		cp -r "$TOP/tests/analyzer/cases/$c" "$w/d/"
	done
	find "$w/d" -name '*.fixed.c' -delete
	find "$w" -exec touch -d '1 minute ago' {} +
	# scanned NAME: "N of M" files whose answer the inventory took from the memo
	scanned() {
		sed -n 's/^blkmig: the tree scan of \(.*\) file(s) kept from an earlier run$/\1/p' \
			"$w/$1.err" | head -1
	}
	cachedrun "$w" none cold
	printf '/* edited */\n' >> "$w/d/xwrap/xw_proc.c"
	touch -d '1 minute ago' "$w/d/xwrap/xw_proc.c"
	cachedrun "$w" none edited
	cachedrun "$w" none edited-nocache --no-cache
	local all
	all=$(scanned cold | sed 's/^0 of //')
	if [ -n "$all" ] && [ "$all" -ge 3 ] && [ "$(scanned cold)" = "0 of $all" ] &&
		[ "$(scanned edited)" = "$((all - 1)) of $all" ] && [ -z "$(scanned edited-nocache)" ] &&
		grep -q 'blk_end_request' "$w/edited.patch" && samerun "$w" edited edited-nocache; then
		pass tree-memo/one-file-edited-scanned-again-same-result
	else
		fail tree-memo/one-file-edited-scanned-again-same-result "scanned from the memo: cold $(scanned cold), edited $(scanned edited); $(diff "$w/edited.patch" "$w/edited-nocache.patch" | head -4 | tr '\n' '|')"
	fi
}
tree_memo_test

# ---- the output check's parse verdict per file kept between runs (cli/guard_cache.c):
# gc1.c and gc2.c parse with an error, so the check parses each original; an edit of one
# parses that one again, and the result is a --no-cache run's; a header only gc1.c
# includes is an input of its entry alone, one both include of both, and so is that header
# appearing in an -I folder searched before -------------------------------------------
guard_cache_test() {
	local w=$SCRATCH/gcache case=$TOP/tests/migrate/cases/gcache
	mkdir -p "$w/d" "$w/inc0"
	cp "$case/gc1.c" "$case/gc2.c" "$w/d/"
	cp -r "$case/inc" "$w/inc"
	find "$w" -exec touch -d '1 minute ago' {} +
	gcrun() { cachedrun "$w" "the parse check of" "$@"; }
	gcsame() { samerun "$w" "$@"; }
	gcedit() { # gcedit FILE: a change of FILE that keeps its name (and its folder's entries)
		printf '/* edited */\n' >> "$w/$1"
		touch -d '1 minute ago' "$w/$1"
	}
	gcrun cold
	gcedit d/gc1.c
	gcrun edited
	gcrun edited-nocache --no-cache
	if [ "$(cat "$w/cold.cached")" = "0 of 2" ] && [ "$(cat "$w/edited.cached")" = "1 of 2" ] &&
		grep -q '^+.*blk_end_request' "$w/edited.patch" && gcsame edited edited-nocache; then
		pass guard-cache/one-file-edited-parsed-again-same-result
	else
		fail guard-cache/one-file-edited-parsed-again-same-result "cached: $(cat "$w/cold.cached") then $(cat "$w/edited.cached"); $(diff "$w/edited.patch" "$w/edited-nocache.patch" | head -4 | tr '\n' '|')"
	fi
	gcedit inc/gcache/one.h
	gcrun one
	gcedit inc/gcache/board.h
	gcrun board
	mkdir -p "$w/inc0/gcache"
	cp "$w/inc/gcache/board.h" "$w/inc0/gcache/"
	find "$w/inc0" -exec touch -d '1 minute ago' {} +
	gcrun appeared
	gcrun appeared-nocache --no-cache
	if [ "$(cat "$w/one.cached")" = "1 of 2" ] && [ "$(cat "$w/board.cached")" = "0 of 2" ] &&
		[ "$(cat "$w/appeared.cached")" = "0 of 2" ] && gcsame appeared appeared-nocache; then
		pass guard-cache/headers-each-parse-read-are-its-inputs
	else
		fail guard-cache/headers-each-parse-read-are-its-inputs "cached: one.h changed $(cat "$w/one.cached"), board.h $(cat "$w/board.cached"), appeared before $(cat "$w/appeared.cached")"
	fi
}
guard_cache_test

# ---- layout (issue 22, analyzer/convert/indent_fix.c): spatch converts a call in a line
# indented with spaces before tabs (continuation aligned by that indentation), the analyzer
# one in a line indented with a tab and a space that grows past 80 columns: the patch has
# tabs and spatch's width; blkmig fix (the analyzer alone) writes the same lines ----------
layout_test() {
	local w=$SCRATCH/layout case=$TOP/tests/migrate/cases/layout
	mkdir -p "$w/d"
	cp "$case/layout.c" "$w/d/"
	(cd "$w" && "$BLKMIG" migrate --no-cache --patch migrate.patch --root d d) >/dev/null 2>"$w/log"
	(cd "$w" && "$BLKMIG" fix -q --patch fix.patch --root d d) >/dev/null 2>>"$w/log"
	if grep -q ': 1 by spatch, 1 by the analyzer' "$w/log" &&
		cmp -s "$case/expected.patch" "$w/migrate.patch"; then
		pass layout/tabs-and-width-after-spatch
	else
		fail layout/tabs-and-width-after-spatch "$(diff "$case/expected.patch" "$w/migrate.patch" | head -8 | tr '\n' '|') $(tail -2 "$w/log")"
	fi
	if cmp -s "$case/expected.patch" "$w/fix.patch"; then
		pass layout/fix-writes-the-same
	else
		fail layout/fix-writes-the-same "$(diff "$case/expected.patch" "$w/fix.patch" | head -8 | tr '\n' '|')"
	fi
}
layout_test

# ---- combine by proof: spatch's output is accepted only where the analysis proves it.
# A deliberately wrong semantic patch (the unlocked variant, an error that loses a
# negative uptodate) must be refuted site by site: both sites end as the analyzer's exact
# rewrite, and the report says why spatch's was not taken ---------------------------------
combine_test() {
	local w=$SCRATCH/combine src=$TOP/tests/migrate/cases/combine/combine.c
	mkdir -p "$w"
	cp "$src" "$w/"
	"$BLKMIG" migrate -q --cocci-dir "$TOP/tests/migrate/cases/combine/wrong-cocci" \
		--in-place --report "$w/rep" "$w/combine.c" > /dev/null 2> "$w/log"
	if grep -A1 '^	__blk_end_request(rq, ok > 0 ? 0 : (ok ? ok : -EIO),$' "$w/combine.c" |
		grep -q '^			  blk_rq_cur_bytes(rq));$' &&
		grep -q '^		__blk_end_request(rq, 0, blk_rq_cur_bytes(rq));' "$w/combine.c" &&
		! grep -q 'blk_end_request(rq, ok ?' "$w/combine.c"; then
		pass combine/wrong-spatch-refuted
	else
		fail combine/wrong-spatch-refuted "$(grep -n 'end_request' "$w/combine.c")"
	fi
	if [ "$(grep -c 'spatch chose blk_end_request here; the analysis proves __blk_end_request' \
		"$w/rep/report.txt")" = 2 ]; then
		pass combine/refutation-reported
	else
		fail combine/refutation-reported "report.txt does not say why spatch's rewrite was refused"
	fi
}
combine_test

# ---- verify takes the parses of the analysis of spatch's output where a file is byte for
# byte what that analysis parsed (convert/reuse.c): the same exit status, patch and reports
# as when every run parses every file (BLKMIG_NO_PARSE_REUSE=1), from fewer parses. The
# tree has sites only the analyzer converts, so files change between the two runs too ----
reuse_test() {
	local w=$SCRATCH/reuse rc_reuse rc_fresh rc_one rc_again n_reuse n_fresh f
	mkdir -p "$w/tree"
	cp -r "$TOP/tests/analyzer/cases" "$TOP/samples" "$w/tree/"
	find "$w/tree" -name '*.fixed.c' -delete
	(cd "$w/tree" && BLKMIG_KTREE_TRACE=1 "$BLKMIG" migrate --no-cache -j 2 \
		--patch "$w/reuse.patch" --report "$w/reuse" .) >/dev/null 2>"$w/reuse.log"
	rc_reuse=$?
	# the reference keeps every unit in memory, as before parse/units.c
	(cd "$w/tree" && BLKMIG_KTREE_TRACE=1 BLKMIG_NO_PARSE_REUSE=1 BLKMIG_RESIDENT_UNITS=0 \
		"$BLKMIG" migrate --no-cache -j 2 --patch "$w/fresh.patch" --report "$w/fresh" .) \
		>/dev/null 2>"$w/fresh.log"
	rc_fresh=$?
	# ... and one unit at a time: the runs hand units over that are on disk only
	(cd "$w/tree" && BLKMIG_RESIDENT_UNITS=1 BLKMIG_UNIT_TRACE=1 "$BLKMIG" migrate --no-cache \
		-j 2 --patch "$w/one.patch" --report "$w/one" .) >/dev/null 2>"$w/one.log"
	rc_one=$?
	# ... and no AST kept: each unit a question needs is parsed again (parse/units.c), more
	# of them than where the files with legacy calls keep theirs
	(cd "$w/tree" && BLKMIG_DEFER_EVERY_AST=1 BLKMIG_RESIDENT_UNITS=1 BLKMIG_UNIT_TRACE=1 \
		"$BLKMIG" migrate --no-cache -j 2 --patch "$w/again.patch" --report "$w/again" .) \
		>/dev/null 2>"$w/again.log"
	rc_again=$?
	if [ "$rc_again" = "$rc_fresh" ] && cmp -s "$w/again.patch" "$w/fresh.patch" &&
		cmp -s "$w/again/report.json" "$w/fresh/report.json" &&
		[ "$(grep -c '^blkmig: unit load: .* (parsed again)$' "$w/again.log")" -gt \
			"$(grep -c '^blkmig: unit load: .* (parsed again)$' "$w/one.log")" ]; then
		pass reuse/no-ast-kept-parsed-again-same-patch-and-report
	else
		fail reuse/no-ast-kept-parsed-again-same-patch-and-report \
			"exit $rc_again vs $rc_fresh; $(diff "$w/fresh.patch" "$w/again.patch" | head -5)"
	fi
	if [ "$rc_one" = "$rc_fresh" ] && cmp -s "$w/one.patch" "$w/fresh.patch" &&
		cmp -s "$w/one/report.json" "$w/fresh/report.json"; then
		pass reuse/one-unit-in-memory-same-patch-and-report
	else
		fail reuse/one-unit-in-memory-same-patch-and-report \
			"exit $rc_one vs $rc_fresh; $(diff "$w/fresh.patch" "$w/one.patch" | head -5)"
	fi
	if [ "$rc_reuse" = "$rc_fresh" ] && [ -s "$w/fresh.patch" ] &&
		cmp -s "$w/reuse.patch" "$w/fresh.patch"; then
		pass reuse/same-patch
	else
		fail reuse/same-patch "exit $rc_reuse vs $rc_fresh; $(diff "$w/fresh.patch" "$w/reuse.patch" | head -5)"
	fi
	for f in report.txt report.json report.sarif; do
		if cmp -s "$w/reuse/$f" "$w/fresh/$f"; then
			pass "reuse/same-$f"
		else
			fail "reuse/same-$f" "$(diff "$w/fresh/$f" "$w/reuse/$f" | head -5)"
		fi
	done
	grep -q 'by the analyzer' "$w/fresh.log" && ! grep -q ' 0 by the analyzer' "$w/fresh.log" &&
		pass reuse/tree-has-analyzer-conversions ||
		fail reuse/tree-has-analyzer-conversions "$(grep 'by spatch' "$w/fresh.log")"
	n_reuse=$(grep -c '^blkmig: parse ' "$w/reuse.log")
	n_fresh=$(grep -c '^blkmig: parse ' "$w/fresh.log")
	if [ "$n_reuse" -gt 0 ] && [ "$n_reuse" -lt "$n_fresh" ]; then
		pass reuse/fewer-parses
	else
		fail reuse/fewer-parses "$n_reuse parses with reuse, $n_fresh without"
	fi
}
reuse_test

# ---- a file is converted whole or not at all: one site a human must decide keeps the
# file as it was, and the site that would convert says why (partial_file) ---------------
partial_test() {
	local w=$SCRATCH/partial src=$TOP/tests/migrate/cases/partial/partial.c rc
	mkdir -p "$w"
	cp "$src" "$w/"
	"$BLKMIG" migrate -q --in-place --report "$w/rep" "$w/partial.c" > /dev/null 2> "$w/log"
	rc=$?
	if [ $rc = 1 ] && cmp -s "$src" "$w/partial.c"; then
		pass partial/file-left-whole
	else
		fail partial/file-left-whole "exit $rc; $(diff "$src" "$w/partial.c" | head -5)"
	fi
	if grep -q 'partial.c:[0-9]*:[0-9]*: warning: end_request in vnd_request() left for manual review: 1 legacy call(s) of this file need a human: end_that_request_last at line 23 (last_may_have_data).* \[partial_file\]$' \
		"$w/log" &&
		python3 - "$w/rep/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
codes = sorted((s["line"], s["verdict"], s["reason"]["code"]) for s in r["sites"])
assert codes == [(23, "manual", "last_may_have_data"), (32, "manual", "partial_file")], codes
f = [f for f in r["files"] if f["path"].endswith("partial.c")][0]
assert f["outcome"]["status"] == "left_untouched" and f["outcome"]["code"] == "partial_file", f
PY
	then
		pass partial/reported
	else
		fail partial/reported "$(cat "$w/log")"
	fi
}
partial_test

# ---- diagnostics in gcc's form (issue 23): migrate and fix say "warning:" for a site left
# for a human, as report.txt does, by one printer; each located piece of evidence (the
# lock's, the paired call, ...) is its own "FILE:LINE:COL: note:" line right after its
# warning, at a line of that file; never a note without a warning before it ----------------
diag_test() {
	local w=$SCRATCH/diag f n bad
	mkdir -p "$w"
	cp -r "$TOP/tests/migrate/golden/tree/in" "$w/tree"
	(cd "$w" && "$BLKMIG" migrate -q --check --report rep tree) > /dev/null 2> "$w/migrate.err"
	(cd "$w" && "$BLKMIG" fix -q --patch fix.patch tree) > /dev/null 2> "$w/fix.err"
	# the manual warnings and the notes right after each: FILE's blocks
	blocks() {
		awk '/^[^ ]+:[0-9]+:[0-9]+: warning: .* left for manual review: / { on = 1; print; next }
			on && /^[^ ]+:[0-9]+:[0-9]+: note: / { print; next } { on = 0 }' "$1"
	}
	for f in migrate fix; do
		bad=
		grep -qE '^[^ ]+:[0-9]+:[0-9]+: manual:' "$w/$f.err" && bad="a 'manual:' line"
		n=$(grep -cE '^[^ ]+:[0-9]+:[0-9]+: warning: ' "$w/$f.err")
		[ "$n" -gt 0 ] || bad="$bad; no warning line"
		# a note follows a warning or another note, nothing else
		awk '/^[^ ]+:[0-9]+:[0-9]+: warning: / { ok = 1; next }
			/^[^ ]+:[0-9]+:[0-9]+: note: / { if (!ok) bad = 1; next } { ok = 0 }
			END { exit bad }' "$w/$f.err" || bad="$bad; a note without a warning before it"
		[ -z "$bad" ] && pass "diag/$f-warning-form" ||
			fail "diag/$f-warning-form" "$bad: $(head -c 400 "$w/$f.err")"
	done
	# the evidence as notes: at least the two of tree/drivers/block/manual.c (a caller
	# blkmig cannot see, the bios the driver ends itself), each at a real line and column
	n=$(grep -cE '^tree/drivers/block/manual.c:[0-9]+:[0-9]+: note: ' "$w/migrate.err")
	bad=
	while IFS=: read -r file line col rest; do
		[ -f "$w/$file" ] && [ "$line" -le "$(wc -l < "$w/$file")" ] &&
			[ "$col" -le "$(sed -n "${line}p" "$w/$file" | wc -c)" ] ||
			bad="$bad $file:$line:$col"
	done < <(grep -E '^[^ ]+:[0-9]+:[0-9]+: note: ' "$w/migrate.err")
	[ "$n" -ge 2 ] && [ -z "$bad" ] && pass diag/evidence-notes-at-real-lines ||
		fail diag/evidence-notes-at-real-lines "$n notes in manual.c; not a line of the file:$bad"
	# one printer: stderr says what report.txt says, warning and notes alike
	blocks "$w/migrate.err" > "$w/stderr.blocks"
	blocks "$w/rep/report.txt" > "$w/report.blocks"
	[ -s "$w/stderr.blocks" ] && cmp -s "$w/stderr.blocks" "$w/report.blocks" &&
		pass diag/stderr-same-as-report.txt ||
		fail diag/stderr-same-as-report.txt "$(diff "$w/report.blocks" "$w/stderr.blocks" | head -10)"
}
diag_test

# ---- --report DIR: text, JSON, SARIF and HTML of the migrate run ---------------------
report_test() {
	local w=$SCRATCH/report n
	mkdir -p "$w"
	cp -r "$TOP/tests/migrate/golden/tree/in" "$w/tree"
	(cd "$w" && "$BLKMIG" migrate -q --patch out.patch --root tree --report rep tree) > /dev/null 2>&1
	for f in report.txt report.json report.sarif report.html; do
		[ -s "$w/rep/$f" ] || { fail "report/$f-written" "missing or empty"; return; }
	done
	pass report/all-four-written
	# every inventory site is in the JSON with its final verdict: the counts match the
	# golden expectation (manual sites = expected.manual, the rest auto)
	local want_manual want_total
	want_manual=$(grep -c . "$TOP/tests/migrate/golden/tree/expected.manual")
	want_total=$(cd "$w" && "$BLKMIG" scan --format json tree 2> /dev/null |
		python3 -c 'import json,sys; print(len(json.load(sys.stdin)["sites"]))')
	if python3 - "$w/rep/report.json" "$want_manual" "$want_total" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
manual = [s for s in r["sites"] if s["verdict"] == "manual"]
auto = [s for s in r["sites"] if s["verdict"] == "auto"]
assert r["command"] == "migrate", r["command"]
assert len(manual) == int(sys.argv[2]), (len(manual), sys.argv[2])
assert len(r["sites"]) == int(sys.argv[3]), (len(r["sites"]), sys.argv[3])
# a converted site shows its code after the run, and no legacy call is left in it
for s in auto:
    for name in ("end_request(", "end_that_request_first(", "end_that_request_chunk("):
        assert "\t" + name not in s["after"] and " " + name not in s["after"], s
PY
	then
		pass report/json-sites-and-verdicts
	else
		fail report/json-sites-and-verdicts "report.json does not match the run"
	fi
	grep -q '"version": "2.1.0"' "$w/rep/report.sarif" && pass report/sarif-2.1.0 ||
		fail report/sarif-2.1.0 "no SARIF version 2.1.0"
	if [ -n "$CHROMIUM" ]; then
		chromium_run --dump-dom "file://$w/rep/report.html#manual" > "$w/dom.html"
		n=$(grep -c '<section class="site' "$w/dom.html")
		if [ "$n" = "$want_total" ] &&
			grep -qF "<td data-key=\"manual\">$want_manual</td>" "$w/dom.html" &&
			grep -qF "<span id=\"shown-count\">$want_manual</span>" "$w/dom.html"; then
			pass report/html-in-chromium
		else
			fail report/html-in-chromium "$n site sections, manual count not $want_manual"
		fi
		(cd "$SCRATCH" && chromium_run --hide-scrollbars --window-size=1200,2000 \
			--screenshot="$ARTIFACTS/migrate-report.png" "file://$w/rep/report.html") > /dev/null
		cp "$w/rep/report.html" "$ARTIFACTS/migrate-report.html"
	fi
}
report_test

# ---- issue-4 cross-check: spatch (cocci/) and blkmig fix over every tests/cocci input --
crosscheck() {
	local x=$SCRATCH/crosscheck verdict case fn fp acc
	shopt -s nullglob
	local inputs=("$TOP"/tests/cocci/cases/*.c)
	shopt -u nullglob
	if [ ${#inputs[@]} = 0 ]; then
		fail crosscheck/inputs "no tests/cocci/cases/*.c (cocci branch not merged?)"
		return
	fi
	TOP=$TOP BLKMIG=$BLKMIG bash "$TOP/tests/migrate/crosscheck.sh" "$x" "${inputs[@]}" > "$x.out" 2>&1
	while read -r verdict case fn fp; do
		case $verdict in
		OK) pass "crosscheck/$case" ;;
		DIFFER)
			acc=$(grep -E "^$case $fn $fp " "$TOP/tests/migrate/crosscheck.accepted" | cut -d' ' -f4-)
			if [ -n "$acc" ]; then
				pass "crosscheck/$case/$fn (a reviewed, exact difference)"
			else
				fail "crosscheck/$case/$fn" "spatch and blkmig fix convert it differently: $(
					sed -n "/^DIFFER $case $fn /,/^[A-Z]/p" "$x.out" | sed '1d;$d' | head -12)"
			fi ;;
		esac
	done < <(grep -E '^(OK|DIFFER) ' "$x.out")
	# a reviewed entry that no longer occurs is stale: review the list again
	local stale
	stale=$(grep -v '^#' "$TOP/tests/migrate/crosscheck.accepted" | while read -r case fn fp _; do
		[ -n "$case" ] && ! grep -q "^DIFFER $case $fn $fp" "$x.out" && echo "$case $fn"
	done)
	if [ -z "$stale" ]; then
		pass crosscheck/accepted-current
	else
		fail crosscheck/accepted-current "entries that no longer occur: $stale"
	fi
}
# not in the sanitizer rerun (tests/sanitize): the analyzer unit run cross-checks the same inputs in process
[ -n "${SANITIZE_RUN:-}" ] || crosscheck

# ---- the result cache (cli/cache.c): a hit gives the cold run's bytes; any input
# changed (a header the file includes, a new file, a damaged entry) is a miss ----------
cache_test() {
	local C=$SCRATCH/cache-t
	export XDG_CACHE_HOME=$C/xdg
	mkdir -p "$C"
	cp -r "$TOP/tests/migrate/cache" "$C/tree"
	# inputs older than the run: a file changed while a run goes on is never cached
	find "$C/tree" -exec touch -d '1 minute ago' {} +
	# run NAME [ARGS...]: migrate --patch and --report into $C/NAME.*; the exit status
	# in NAME.rc, stderr without the elapsed time and the cache's own line in NAME.err
	run() {
		local name=$1
		shift
		(cd "$C" && "$BLKMIG" migrate "$@" --patch "$name.patch" --report "$name.rep" \
			--root tree tree) > "$C/$name.out" 2> "$C/$name.raw"
		echo $? > "$C/$name.rc"
		grep -v -e '^blkmig: ' -e 'the result of an identical run' "$C/$name.raw" |
			sed 's/; [0-9.]*s$//' > "$C/$name.err"
	}
	hit() { grep -q 'the result of an identical run' "$C/$1.raw"; }
	# cold_then_hit NAME SAID LINES: a run, then the same run a hit that gives the same
	# bytes; the first said a line matching SAID, and the hit says the lines matching
	# LINES that it said
	cold_then_hit() {
		run "$1"
		run "$1-warm"
		hit "$1-warm" && same "$1" "$1-warm" && grep -q "$2" "$C/$1.raw" &&
			[ "$(grep "$3" "$C/$1.raw")" = "$(grep "$3" "$C/$1-warm.raw")" ]
	}
	same() { # same A B: the two runs gave the same bytes everywhere
		local f
		for f in rc err patch rep/report.json rep/report.txt rep/report.sarif rep/report.html; do
			cmp "$C/$1.$f" "$C/$2.$f" || return 1
		done
	}
	run cold
	if ! hit cold && ls "$XDG_CACHE_HOME"/blkmig/*.entry > /dev/null 2>&1; then
		pass cache/cold-run-stores-an-entry
	else
		fail cache/cold-run-stores-an-entry "$(cat "$C/cold.raw")"
	fi
	run warm
	hit warm && pass cache/unchanged-tree-hits || fail cache/unchanged-tree-hits "$(cat "$C/warm.raw")"
	check cache/hit-output-equals-cold-output same cold warm
	# a header the cached file includes changes: the result changes, as without the cache
	printf '#define CDRV_STATUS 1\n#define CDRV_SKIP(rq) ((rq)->sector++)\n' > "$C/tree/drivers/block/cdrv.h"
	touch -d '1 minute ago' "$C/tree/drivers/block/cdrv.h"
	run header
	run header-nocache --no-cache
	if ! hit header && ! cmp -s "$C/cold.patch" "$C/header.patch" && same header header-nocache; then
		pass cache/edited-header-changes-the-result
	else
		fail cache/edited-header-changes-the-result "hit: $(hit header && echo yes); $(diff "$C/cold.patch" "$C/header.patch" | head -5)"
	fi
	run header-warm
	hit header-warm && same header header-warm && pass cache/edited-header-hits-again ||
		fail cache/edited-header-hits-again "$(cat "$C/header-warm.raw")"
	# a new file in the tree (a directory's entries changed)
	cp "$C/tree/drivers/block/cdrv.c" "$C/tree/drivers/block/cdrv2.c"
	find "$C/tree" -exec touch -d '1 minute ago' {} +
	run added
	if ! hit added && grep -q 'cdrv2.c' "$C/added.patch" "$C/added.err"; then
		pass cache/new-file-is-a-miss
	else
		fail cache/new-file-is-a-miss "$(cat "$C/added.raw")"
	fi
	# a file rewritten by renaming a new copy over it (as editors do), its bytes the same:
	# its folder lists the same entries, so the run is a hit
	run added-warm
	cp "$C/tree/drivers/block/cdrv2.c" "$C/tree/drivers/block/.cdrv2.c.swp"
	mv "$C/tree/drivers/block/.cdrv2.c.swp" "$C/tree/drivers/block/cdrv2.c"
	run renamed-over
	if hit renamed-over && same added-warm renamed-over; then
		pass cache/file-renamed-over-same-bytes-hits
	else
		fail cache/file-renamed-over-same-bytes-hits "$(cat "$C/renamed-over.raw")"
	fi
	# a symbolic link pointed elsewhere under the same name: the run names its target, so
	# it is a miss and says where the link points now
	ln -s cdrv.c "$C/tree/drivers/block/alias.c"
	touch -h -d '1 minute ago' "$C/tree/drivers/block/alias.c" "$C/tree/drivers/block"
	run link
	run link-warm
	ln -sfn cdrv2.c "$C/tree/drivers/block/alias.c"
	touch -h -d '1 minute ago' "$C/tree/drivers/block/alias.c" "$C/tree/drivers/block"
	run relinked
	if hit link-warm && ! hit relinked && grep -q 'alias.c: a symbolic link to .*/cdrv2.c' "$C/relinked.raw" &&
		grep -q 'alias.c: a symbolic link to .*/cdrv.c' "$C/link-warm.raw"; then
		pass cache/link-pointed-elsewhere-is-a-miss
	else
		fail cache/link-pointed-elsewhere-is-a-miss "hit: $(hit relinked && echo yes); $(grep alias "$C/relinked.raw" | head -2)"
	fi
	rm "$C/tree/drivers/block/alias.c"
	# a file read as binary data (a NUL byte): that is the file's doing, not the
	# machine's, so its run is kept, and a hit says of the file what the cold run said
	printf 'int cdrv_blob;\0 end_request(rq, 1);\n' > "$C/tree/drivers/block/blob.c"
	touch -d '1 minute ago' "$C/tree/drivers/block/blob.c" "$C/tree/drivers/block"
	if cold_then_hit binary '^blkmig: .*blob.c: binary data' '^blkmig: .*blob.c'; then
		pass cache/binary-file-kept-hit-says-what-cold-said
	else
		fail cache/binary-file-kept-hit-says-what-cold-said "hit: $(hit binary-warm && echo yes); $(grep blob "$C/binary-warm.raw" | head -2)"
	fi
	rm "$C/tree/drivers/block/blob.c"
	# a file with no legacy call that registers a queue: the whole-tree facts parse it,
	# and say so; a hit says every line of the analysis the cold run said
	cat > "$C/tree/drivers/block/qreg.c" <<-'EOF'
	#include <linux/blkdev.h>
	static DEFINE_SPINLOCK(qreg_lock);
	static void qreg_request(struct request_queue *q)
	{
	}
	struct request_queue *qreg_queue(void)
	{
		return blk_init_queue(qreg_request, &qreg_lock);
	}
	EOF
	touch -d '1 minute ago' "$C/tree/drivers/block/qreg.c" "$C/tree/drivers/block"
	if cold_then_hit facts '^blkmig: whole-tree facts: 1 file(s) register a queue$' '^blkmig: '; then
		pass cache/hit-says-what-the-whole-tree-facts-said
	else
		fail cache/hit-says-what-the-whole-tree-facts-said "hit: $(hit facts-warm && echo yes); $(grep '^blkmig: ' "$C/facts-warm.raw" | head -3)"
	fi
	rm "$C/tree/drivers/block/qreg.c"
	touch -d '1 minute ago' "$C/tree/drivers/block"
	# a damaged entry is ignored, never trusted: truncated, then one byte changed
	for e in "$XDG_CACHE_HOME"/blkmig/*.entry; do
		head -c $(($(stat -c %s "$e") / 2)) "$e" > "$e.t" && mv "$e.t" "$e"
	done
	run truncated
	if ! hit truncated && same added truncated; then
		pass cache/truncated-entry-ignored
	else
		fail cache/truncated-entry-ignored "$(cat "$C/truncated.raw")"
	fi
	for e in "$XDG_CACHE_HOME"/blkmig/*.entry; do
		# the body's first "converted" count 1 higher: still JSON, wrong checksum
		perl -0pi -e 's/"converted":(\d+)/"converted":@{[$1+1]}/' "$e"
	done
	run corrupted
	if ! hit corrupted && same added corrupted; then
		pass cache/corrupted-entry-ignored
	else
		fail cache/corrupted-entry-ignored "$(cat "$C/corrupted.raw")"
	fi
	export XDG_CACHE_HOME=$SCRATCH/xdg-cache
}
cache_test

# ---- clear errors, bad input, files left untouched -------------------------------------
E=$SCRATCH/errors
mkdir -p "$E"
cp -r "$TOP/tests/migrate/golden/tree/in" "$E/tree"
# expect_run NAME WANT_RC PATTERN CMD...: exit code WANT_RC and PATTERN on stderr
expect_run() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	"$@" > "$E/$name.out" 2> "$E/$name.err"
	rc=$?
	if [ "$rc" = "$want" ] && grep -qE "$pat" "$E/$name.err"; then
		pass "errors/$name"
	else
		fail "errors/$name" "exit $rc (want $want); stderr: $(head -3 "$E/$name.err")"
	fi
}
expect_run no-spatch-given 2 "spatch '/nonexistent/spatch' is not an executable" \
	"$BLKMIG" migrate --check --spatch /nonexistent/spatch "$E/tree"
expect_run no-spatch-in-path 2 "spatch \\(Coccinelle\\) not found in PATH.*coccinelle" \
	env PATH=/nonexistent "$BLKMIG" migrate --check "$E/tree"
expect_run no-cocci-files 2 "holds no \\*\\.cocci file" \
	"$BLKMIG" migrate --check --cocci-dir "$E" "$E/tree"
# --no-spatch needs no semantic patches: a lone copy of the binary, with none beside it,
# fails without it and migrates with it, as the binary beside its cocci/ does
mkdir -p "$E/lone" && cp "$BLKMIG" "$E/lone/blkmig"
expect_run lone-binary-needs-cocci 2 "no semantic patches found" \
	env -u BLKMIG_COCCI_DIR "$E/lone/blkmig" migrate --check --no-cache "$E/tree"
expect_run lone-binary-no-spatch 1 "would be converted" \
	env -u BLKMIG_COCCI_DIR "$E/lone/blkmig" migrate --check --no-cache --no-spatch "$E/tree"
"$BLKMIG" migrate --check --no-cache --no-spatch "$E/tree" >"$E/beside-cocci.out" 2>/dev/null
cmp -s "$E/lone-binary-no-spatch.out" "$E/beside-cocci.out" && [ -s "$E/beside-cocci.out" ] &&
	pass errors/lone-binary-no-spatch-same-patch || fail errors/lone-binary-no-spatch-same-patch
expect_run no-spatch-bad-cocci-dir 2 "holds no \\*\\.cocci file" \
	"$BLKMIG" migrate --check --no-spatch --cocci-dir "$E" "$E/tree"
expect_run missing-path 2 "does-not-exist: No such file or directory" \
	"$BLKMIG" migrate --check "$E/does-not-exist"
expect_run fix-missing-path 2 "does-not-exist: No such file or directory" \
	"$BLKMIG" fix --patch - "$E/does-not-exist"
expect_run two-modes 2 "at most one of" "$BLKMIG" migrate --check --in-place "$E/tree"
expect_run fix-needs-mode 2 "exactly one of --in-place or --patch" "$BLKMIG" fix "$E/tree"
mkdir -p "$E/plain"
cp "$TOP/tests/migrate/golden/tree/in/drivers/char/plain.c" "$E/plain/"
expect_run nothing-to-do 0 "nothing to do: no legacy completion call in 1 file" \
	"$BLKMIG" migrate --in-place "$E/plain"
check errors/nothing-to-do-untouched cmp "$E/plain/plain.c" "$TOP/tests/migrate/golden/tree/in/drivers/char/plain.c"
mkdir -p "$E/empty"
expect_run empty-dir 2 "no C files" "$BLKMIG" migrate --check "$E/empty"

# a read-only file with sites: left byte-for-byte alone and reported (exit 2: a file that
# cannot be written is an I/O failure, never a finding); the rest converted
cp -r "$TOP/tests/migrate/golden/tree/in" "$E/ro"
chmod 0444 "$E/ro/drivers/block/wrap.c"
expect_run read-only-reported 2 "wrap.c:[0-9]+:1: warning: file left untouched: .*wrap.c: file is read-only.* \\[file_not_writable\\]$" \
	"$BLKMIG" migrate --in-place "$E/ro"
check errors/read-only-untouched cmp "$E/ro/drivers/block/wrap.c" \
	"$TOP/tests/migrate/golden/tree/in/drivers/block/wrap.c"
check errors/read-only-others-converted cmp "$E/ro/drivers/block/skipped.c" \
	"$TOP/tests/migrate/golden/tree/out/drivers/block/skipped.c"
chmod 0644 "$E/ro/drivers/block/wrap.c"
cp -r "$TOP/tests/migrate/golden/tree/in" "$E/rofix"
chmod 0444 "$E/rofix/drivers/block/wrap.c"
expect_run fix-read-only-reported 2 "wrap.c:[0-9]+:1: warning: file left untouched: .*wrap.c: file is read-only.* \\[file_not_writable\\]$" \
	"$BLKMIG" fix --in-place "$E/rofix"
check errors/fix-read-only-untouched cmp "$E/rofix/drivers/block/wrap.c" \
	"$TOP/tests/migrate/golden/tree/in/drivers/block/wrap.c"
chmod 0644 "$E/rofix/drivers/block/wrap.c"

# an unparsable file (not C, with a legacy token) and a binary one: untouched, reported
mkdir -p "$E/bad"
printf 'this is not C at all {{{ end_request(rq, 1) ;;; ))) \n int x = ;\n' > "$E/bad/garbage.c"
printf 'end_request(\0\1\2\377 binary\n' > "$E/bad/binary.c"
cp "$TOP/tests/migrate/golden/tree/in/drivers/block/simple.c" "$E/bad/"
cp "$E/bad/garbage.c" "$E/garbage.orig"
cp "$E/bad/binary.c" "$E/binary.orig"
expect_run unparsable-reported 1 "garbage.c" "$BLKMIG" migrate --in-place "$E/bad"
check errors/unparsable-untouched cmp "$E/bad/garbage.c" "$E/garbage.orig"
check errors/binary-untouched cmp "$E/bad/binary.c" "$E/binary.orig"
if grep -q "__blk_end_request(rq, -EIO" "$E/bad/simple.c"; then
	pass errors/unparsable-does-not-stop-others
else
	fail errors/unparsable-does-not-stop-others "simple.c was not converted"
fi

# ---- make install: blkmig, man page, cocci files, shim sources; lookup by prefix ------
install_test() {
	local p=$SCRATCH/prefix w=$SCRATCH/inst rc
	# the binary under test (BUILD=): not a second build in $TOP/build
	if ! make -s -C "$TOP" install PREFIX="$p" BUILD="$BUILD" NO_DEPS=1 > "$SCRATCH/install.log" 2>&1; then
		fail install/make-install "$(tail -5 "$SCRATCH/install.log")"
		return
	fi
	pass install/make-install
	[ -x "$p/bin/blkmig" ] && "$p/bin/blkmig" --version | grep -q '^blkmig ' &&
		pass install/binary || fail install/binary "no working $p/bin/blkmig"
	if [ -f "$p/share/man/man1/blkmig.1" ] &&
		[ -z "$(man --warnings -l "$p/share/man/man1/blkmig.1" 2>&1 > /dev/null)" ] &&
		MANWIDTH=80 man -l "$p/share/man/man1/blkmig.1" 2> /dev/null | grep -q 'blkmig migrate'; then
		pass install/man-page
	else
		fail install/man-page "blkmig.1 missing or renders with warnings"
	fi
	# the shim's sources go where DKMS looks: PREFIX/src/blkcompat-VERSION off /usr
	ls "$p"/src/blkcompat-*/dkms.conf "$p"/src/blkcompat-*/*.c > /dev/null 2>&1 &&
		pass install/shim-sources || fail install/shim-sources "no shim sources under src/blkcompat-*"
	# the installed binary finds the installed cocci files by its own prefix
	mkdir -p "$w"
	cp -r "$TOP/tests/migrate/golden/tree/in" "$w/tree"
	(unset BLKMIG_COCCI_DIR; cd "$w" && "$p/bin/blkmig" migrate -q --patch out.patch --root tree tree) \
		> "$w/log" 2>&1
	rc=$?
	if [ $rc = 1 ] && cmp -s "$w/out.patch" "$TOP/tests/migrate/golden/tree/expected.patch"; then
		pass install/finds-cocci-by-prefix
	else
		fail install/finds-cocci-by-prefix "exit $rc: $(tail -3 "$w/log")"
	fi
}
# not in the sanitizer rerun (tests/sanitize): installs the same binary again
[ -n "${SANITIZE_RUN:-}" ] || install_test

# ---- progress: on a terminal only ----------------------------------------------------
cp -r "$TOP/tests/migrate/golden/tree/in" "$E/prog"
"$BLKMIG" migrate --check "$E/prog" > /dev/null 2> "$E/prog.err"
if grep -q $'\r' "$E/prog.err" || grep -q 'elapsed' "$E/prog.err"; then
	fail progress/none-off-terminal "progress written to a non-terminal"
else
	pass progress/none-off-terminal
fi
if command -v script > /dev/null; then
	# --no-cache: a full run (the run above left a cached result: no progress to show)
	script -qec "$BLKMIG migrate --check --no-cache $E/prog" /dev/null > "$E/prog.tty" 2>&1
	if grep -q 'files, .*elapsed' "$E/prog.tty"; then
		pass progress/shown-on-terminal
	else
		fail progress/shown-on-terminal "$(tail -c 300 "$E/prog.tty")"
	fi
	# the inventory (the longest stage) counts its files and estimates the time left; a
	# message written while the line is shown (a binary file's, read after 4,000 others)
	# clears the line first ("\r\033[K"), never continues it
	"$T/gentree" "$E/progbig" 4000 7 > /dev/null
	printf 'int a;\0 end_request(rq, 1);\n' > "$E/progbig/zzz.c"
	script -qec "$BLKMIG migrate --check --no-cache --no-spatch -j 1 $E/progbig" /dev/null \
		> "$E/progbig.tty" 2>&1
	python3 - "$E/progbig.tty" > "$E/progbig.why" <<'PY'
import re, sys
raw = open(sys.argv[1], "rb").read()
est = re.search(rb"inventory \(analyzer\): [0-9]+/[0-9]+ files, [0-9.]+s elapsed, about [0-9]+s left", raw)
bad = [m.start() for m in re.finditer(rb"blkmig: ", raw)
       if m.start() and not raw[:m.start()].endswith((b"\n", b"\r\x1b[K"))]
print("estimate" if est else "no-estimate", "clean" if not bad else "overwritten:%r" % raw[max(0, bad[0] - 60):bad[0] + 20])
PY
	grep -q '^estimate' "$E/progbig.why" && pass progress/inventory-file-count-and-estimate ||
		fail progress/inventory-file-count-and-estimate "$(tr '\r' '\n' < "$E/progbig.tty" | grep -a inventory | head -5)"
	grep -q ' clean$' "$E/progbig.why" && pass progress/message-clears-the-line ||
		fail progress/message-clears-the-line "$(cat "$E/progbig.why")"
fi

finish
