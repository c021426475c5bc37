#!/bin/bash
# tests/migrate/series/run.sh — suite `migrate-series`: `blkmig migrate --series DIR`
# (analyzer/cli/series.c) on a small tree of our own test drivers: tree/ here (a
# two-file module with its header and Makefile, a block-core file, an ide-core file, a
# driver whose statement between data completion and final step reads the request, an
# hd-style driver with an old race and a site left for a human) plus three inputs of
# ../golden/tree (simple.c, wrap.c, and manual.c, which stays as it is: no patch).
#
# - the patches and the files in each (expected.series);
# - tests/lib/series-check.py: the mails' form and the facts of every site;
# - the sentences a reviewer must find (expected.facts: PATCH<TAB>text, whitespace-free
#   match against the message);
# - `git am` of each patch in order on a git copy of the tree, which then equals the
#   tree `--patch` gives;
# - checkpatch.pl --no-tree (tests/lib/checkpatch.sh): no error or warning on an added line
#   but those listed in checkpatch.known (the rewrite text's own, each with its cause);
# - the conversion's saved value (hoist.c) told in the message;
# - the checkers themselves fail on a broken input (a message without a fact, an added
#   line indented with spaces), and --series with --patch is a usage error.
set -u
SUITE=migrate-series
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
source "$TOP/tests/lib/testlib.sh"
HERE=$TOP/tests/migrate/series
LIB=$TOP/tests/lib
export BLKMIG_COCCI_DIR=${BLKMIG_COCCI_DIR:-$TOP/cocci}
export SOURCE_DATE_EPOCH=1203292800 GIT_AUTHOR_NAME="blkmig test" GIT_AUTHOR_EMAIL=test@blkmig.invalid
mkdir -p "$BUILD/migrate"
S=$(mktemp -d "$BUILD/migrate/series.XXXXXX")
trap 'rm -rf "$S"' EXIT
export XDG_CACHE_HOME=$S/xdg-cache

cp -r "$HERE/tree" "$S/tree"
for f in simple.c wrap.c manual.c; do
	cp "$TOP/tests/migrate/golden/tree/in/drivers/block/$f" "$S/tree/drivers/block/$f"
done

(cd "$S" && "$BLKMIG" migrate -q --series ser --report rep --root tree tree >out 2>err)
rc=$?
(cd "$S" && "$BLKMIG" migrate -q --patch all.diff --root tree tree >/dev/null 2>&1)
if [ $rc -eq 1 ] && [ -s "$S/rep/report.json" ] && ls "$S"/ser/*.patch >/dev/null 2>&1; then
	pass series/written
else
	fail series/written "exit $rc (want 1: sites left for a human): $(tail -n 5 "$S/err")"
	finish
	exit 1
fi

# ---- the patches and their files ---------------------------------------------------------
listing() {
	local p
	for p in "$S"/ser/*.patch; do
		printf '%s' "$(basename "$p")"
		sed -n 's|^diff --git a/\([^ ]*\) b/.*| \1|p' "$p" | tr -d '\n'
		echo
	done
}
check series/one-patch-per-driver diff -u "$HERE/expected.series" <(listing)

# a second run (the result cache's entry of the first) writes the same series
again() {
	(cd "$S" && "$BLKMIG" migrate --series ser2 --root tree tree >/dev/null 2>"$S/again.err")
	grep -q 'the result of an identical run' "$S/again.err" || { echo "not from the cache"; return 1; }
	diff -r "$S/ser" "$S/ser2"
}
check series/cached-run-writes-the-same-series again

check series/messages-name-the-facts python3 "$LIB/series-check.py" "$S/rep/report.json" "$S/ser" tree/

facts() {
	local p text bad=0
	while IFS=$'\t' read -r p text; do
		case $p in '' | '#'*) continue ;; esac
		[ -f "$S/ser/$p" ] || { echo "no patch $p"; bad=1; continue; }
		if ! sed '/^---$/q' "$S/ser/$p" | tr -d ' \t\n' | grep -qF -- "$(tr -d ' \t' <<<"$text")"; then
			echo "$p does not say: $text"
			bad=1
		fi
	done <"$HERE/expected.facts"
	return $bad
}
check series/reviewer-sentences facts

# ---- git am in order; the result is --patch's ----------------------------------------------
am_all() {
	local g=$S/git p
	cp -r "$HERE/tree" "$g" || return 1
	for f in simple.c wrap.c manual.c; do
		cp "$TOP/tests/migrate/golden/tree/in/drivers/block/$f" "$g/drivers/block/$f"
	done
	(cd "$g" && git init -q && git add -A && git -c user.name=t -c user.email=t@t commit -q -m base &&
		git tag base) || return 1
	for p in "$S"/ser/*.patch; do
		(cd "$g" && git -c user.name=t -c user.email=t@t am -q "$p") ||
			{ echo "git am failed on $(basename "$p")"; return 1; }
	done
	[ "$(cd "$g" && git rev-list --count base..HEAD)" -eq "$(ls "$S"/ser/*.patch | wc -l)" ] ||
		{ echo "not one commit per patch"; return 1; }
	# the subjects git took: PREFIX: convert to blk_end_request(), without [PATCH n/N]
	(cd "$g" && git log --reverse --format=%s base..HEAD) >"$S/subjects"
	grep -v '^[a-z0-9_-]*: convert to blk_end_request()$' "$S/subjects" && return 1
	(cd "$g" && git apply -R --check "$S/all.diff" && git apply -R "$S/all.diff" &&
		git diff --quiet base --) || { echo "the series and --patch give different trees"; return 1; }
}
check series/git-am-in-order-equals-patch am_all

# ---- checkpatch on the added lines: only the findings listed in checkpatch.known ---------
# (the conversions' own text today, each with its cause; a new finding fails, and so does
# a listed one that is gone: update the list)
cp_known() {
	local out r
	out=$("$LIB/checkpatch.sh" "$BUILD" "$S"/ser/*.patch)
	r=$?
	[ $r -le 1 ] || { echo "checkpatch.sh exit $r"; return 1; }
	awk -F'\t' '$1 == "ADDED" { n = $2; sub(/.*\/[0-9]+-/, "", n); sub(/-convert-to-blk_end_request\.patch$/, "", n);
		split($3, t, ":"); print n "\t" t[2] "\t" $6 }' <<<"$out" | sort >"$S/checkpatch.found"
	diff <(grep -v '^#' "$HERE/checkpatch.known" | sed '/^$/d' | sort) "$S/checkpatch.found"
}
check series/checkpatch-added-lines-as-known cp_known

# ---- the checkers can fail ------------------------------------------------------------------
cp_can_fail() {
	local p=$S/bad.patch
	# an added line indented with spaces (checkpatch: CODE_INDENT, LEADING_SPACE)
	sed 's/^+\t\tblk_end_request(rq, 0, rq->hard_cur_sectors << 9);$/+        blk_end_request(rq, 0, rq->hard_cur_sectors << 9);/' \
		"$(ls "$S"/ser/*-hdx-*.patch)" >"$p"
	cmp -s "$p" "$(ls "$S"/ser/*-hdx-*.patch)" && { echo "the mutation did not apply"; return 1; }
	"$LIB/checkpatch.sh" "$BUILD" "$p" | grep -q $'^ADDED\t.*ERROR:CODE_INDENT\tdrivers/ide/legacy/hdx.c:41' ||
		{ echo "checkpatch.sh did not report the added line"; return 1; }
}
check series/checkpatch-filter-reports-a-bad-added-line cp_can_fail
check_can_fail() {
	local d=$S/bad-ser
	cp -r "$S/ser" "$d"
	# the message no longer says that the race is fixed
	sed -i 's/^Fixes an old race in/Changes/' "$d"/*-hdx-*.patch
	! python3 "$LIB/series-check.py" "$S/rep/report.json" "$d" tree/ >/dev/null
}
check series/series-check-fails-without-a-fact check_can_fail
usage_error() {
	(cd "$S" && "$BLKMIG" migrate -q --series x --patch y tree >/dev/null 2>"$S/usage.err")
	[ $? -eq 2 ] && grep -q -- '--series DIR' "$S/usage.err"
}
check series/series-and-patch-is-a-usage-error usage_error
finish
