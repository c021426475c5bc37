#!/bin/bash
# tests/realtree/series.sh — suite `realtree-series`: `blkmig migrate --series` on the
# whole Linux 2.6.24 tree (issue 22).
#
# 1. migrate --series (and --report) on the pristine tree; --patch too (the result cache
#    gives the same run): the series must hold exactly the files the patch changes.
# 2. tests/lib/series-check.py: the mails' form and the facts each message must name.
# 3. A git copy of the tree: `git am` of every patch in order; after each step, the
#    compile check (compile-check.sh, x86_64 kbuild flags + the 2.6.25 header) of the
#    .c files that patch touches; at the end the tree equals the tree --patch gives.
# 4. checkpatch.pl --no-tree (tests/lib/checkpatch.sh: Debian's linux-source-6.1) on each
#    patch: the findings on added lines, counted by type, must be those listed in
#    checkpatch.known (the conversions' own text today: each reported, none hidden); a
#    new one fails, and so does a listed one that is gone (update the list).
set -u
SUITE=realtree-series
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
source "$TOP/tests/lib/testlib.sh"
HERE=$TOP/tests/realtree
LIB=$TOP/tests/lib
export BLKMIG_COCCI_DIR=${BLKMIG_COCCI_DIR:-$TOP/cocci}

if ! paths=$(nice -n 10 "$HERE/prepare.sh" "$BUILD" 2>"$RESULTS/realtree-series-prepare.err"); then
	fail prepare "$(tail -n 5 "$RESULTS/realtree-series-prepare.err")"
	finish
	exit 1
fi
PRISTINE=$(sed -n 1p <<<"$paths")
KBUILD=$(sed -n 2p <<<"$paths")
W=$BUILD/realtree/series
rm -rf "$W"
mkdir -p "$W"
start=$(date +%s)

# ---- 1. the series ----------------------------------------------------------------------
export SOURCE_DATE_EPOCH=1203292800 GIT_AUTHOR_NAME="blkmig test" GIT_AUTHOR_EMAIL=test@blkmig.invalid
(cd "$W" && nice -n 10 "$BLKMIG" migrate -q -j 2 --series ser --report rep --root "$PRISTINE" \
	--kernel-tree "$PRISTINE" "$PRISTINE" >migrate.out 2>migrate.err)
mrc=$?
(cd "$W" && nice -n 10 "$BLKMIG" migrate -q -j 2 --patch all.diff --root "$PRISTINE" \
	--kernel-tree "$PRISTINE" "$PRISTINE" >/dev/null 2>migrate-patch.err)
prc=$?
npatch=$(find "$W/ser" -name '*.patch' 2>/dev/null | wc -l)
echo "realtree-series: migrate --series: $npatch patches (exit $mrc, $(( $(date +%s) - start ))s)"
if [ $mrc -le 1 ] && [ $prc -le 1 ] && [ "$npatch" -gt 0 ] && [ -s "$W/rep/report.json" ]; then
	pass series/written
else
	fail series/written "exit $mrc/$prc, $npatch patches: $(tail -n 5 "$W/migrate.err")"
	finish
	exit 1
fi
same_files() {
	diff <(sed -n 's|^+++ b/||p' "$W/all.diff" | sort) \
		<(cat "$W"/ser/*.patch | sed -n 's|^diff --git a/\([^ ]*\) b/.*|\1|p' | sort)
}
check series/the-files-the-patch-changes same_files

# ---- 2. form and facts ------------------------------------------------------------------
check series/messages-name-the-facts python3 "$LIB/series-check.py" "$W/rep/report.json" "$W/ser" "$PRISTINE/"

# ---- 3. git am in order, the compile check after each step -------------------------------
G=$W/git
cp -a "$PRISTINE" "$G" && chmod -R u+w "$G"
(cd "$G" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -q -m base && git tag base) ||
	{ fail git-copy "could not make a git copy of the tree"; finish; exit 1; }
# the legacy calls left on purpose, per file (compile-check --left)
python3 - "$W/rep/report.json" "$PRISTINE/" >"$W/left.txt" <<'PY'
import collections, json, sys
r = json.load(open(sys.argv[1]))
n = collections.Counter(s['file'][len(sys.argv[2]):] for s in r['sites'] if s['verdict'] == 'manual')
for f, k in sorted(n.items()):
    print(f, k)
PY
applied=0 compiled=0 skipped=0
am_bad='' cc_bad=''
for p in "$W"/ser/*.patch; do
	name=$(basename "$p")
	if ! (cd "$G" && git -c user.name=t -c user.email=t@t am -q "$p") >"$W/am.log" 2>&1; then
		am_bad="$am_bad$name: $(head -n 3 "$W/am.log")"$'\n'
		(cd "$G" && git am --abort) >/dev/null 2>&1
		continue
	fi
	applied=$((applied + 1))
	# shellcheck disable=SC2046
	files=$(cd "$G" && git show --name-only --format= HEAD | grep '\.c$')
	[ -n "$files" ] || continue
	# shellcheck disable=SC2086
	out=$("$HERE/compile-check.sh" --tree "$KBUILD" --src "$G" --left "$W/left.txt" $files 2>&1)
	crc=$?
	echo "$out" | sed "s|^|$name: |" >>"$W/compile.txt"
	if [ $crc -eq 0 ]; then
		compiled=$((compiled + 1))
		grep -q '^SKIP ' <<<"$out" && skipped=$((skipped + 1))
	else
		cc_bad="$cc_bad$name: $(grep -v '^OK \|^SKIP ' <<<"$out" | head -n 3)"$'\n'
	fi
done
echo "realtree-series: git am: $applied/$npatch applied; compile check after each: $compiled/$applied passed ($skipped with a file kbuild does not build on x86_64: SKIP)"
if [ "$applied" -eq "$npatch" ]; then pass series/git-am-each-patch-in-order
else fail series/git-am-each-patch-in-order "$(head -n 20 <<<"$am_bad")"; fi
if [ "$compiled" -eq "$applied" ] && [ "$applied" -gt 0 ]; then pass series/compiles-after-each-step
else fail series/compiles-after-each-step "$(head -n 20 <<<"$cc_bad")"; fi
same_tree() {
	cd "$G" || return 1
	git apply -R --check "$W/all.diff" 2>/dev/null || { echo "--patch's diff does not reverse on the series' tree"; return 1; }
	git apply -R "$W/all.diff" 2>/dev/null && git diff --quiet base -- || {
		echo "the series and --patch give different trees"
		return 1
	}
	git checkout -q -- .
}
check series/same-tree-as-patch same_tree

# ---- 4. checkpatch on each patch's added lines ------------------------------------------
"$LIB/checkpatch.sh" "$BUILD" "$W"/ser/*.patch >"$W/checkpatch.txt" 2>"$W/checkpatch.err"
cprc=$?
if [ $cprc -gt 1 ]; then
	fail series/checkpatch-added-lines "checkpatch did not run: $(head -n 5 "$W/checkpatch.err")"
else
	# one line per finding on an added line: PATCH-SUBJECT-PREFIX TYPE the added line
	awk -F'\t' '$1 == "ADDED" { n = $2; sub(/.*\/[0-9]+-/, "", n); sub(/-convert-to-blk_end_request\.patch$/, "", n);
		split($3, t, ":"); print n "\t" t[2] "\t" $6 }' "$W/checkpatch.txt" | sort >"$W/checkpatch.found"
	echo "realtree-series: checkpatch on added lines: $(wc -l <"$W/checkpatch.found") findings; by type: $(cut -f2 "$W/checkpatch.found" | sort | uniq -c | awk '{printf "%s%s %d", s, $2, $1; s=", "}')"
	echo "realtree-series: checkpatch elsewhere (messages, context): $(awk -F'\t' '$1 == "OTHER" {print $3}' "$W/checkpatch.txt" | sort | uniq -c | awk '{printf "%s%s %d", s, $2, $1; s=", "}')"
	grep -v '^#' "$HERE/checkpatch.known" | sed '/^$/d' | sort >"$W/checkpatch.known"
	if diff "$W/checkpatch.known" "$W/checkpatch.found" >"$W/checkpatch.diff"; then
		pass series/checkpatch-added-lines-as-known
	else
		fail series/checkpatch-added-lines-as-known "(< listed in checkpatch.known, > found) $(head -n 20 "$W/checkpatch.diff")"
	fi
fi
echo "realtree-series: $(( $(date +%s) - start ))s"
finish
