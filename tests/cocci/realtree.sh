# tests/cocci/realtree.sh — sourced by tests/cocci/run.sh: both passes of the
# semantic patches (facts, conversion) over the Linux 2.6.24 release tree.
#
#   outcomes    every legacy site of the original tree, converted (with the
#               rule; "literal-bytes" where the fields fact kept the old
#               count instead of blk_rq_bytes/blk_rq_cur_bytes) or left (with
#               the reason's rule), and every old lock bug, equals
#               tests/cocci/realtree.expected (reviewed by hand against
#               API-SEMANTICS.md: any change fails)
#   reasons     every site left is listed once, with a reason (no "unknown",
#               no duplicate, none lost: left + converted = all)
#   left-count  the legacy calls still in the converted tree are exactly the
#               sites listed as left
#   again       a second run over the converted files changes nothing
#   pristine    the unpacked tree is never modified (the work copy is
#               hard-linked; the convert script renames new files over)
# and prints "cocci realtree: N/125 converted".
#
#   compiles    each converted file compiles for 2.6.25 (realtree suite's
#               compile-check.sh), each file with a site left fails it; the
#               verdicts equal tests/cocci/realtree.compile
#
#   crosscheck  spatch (both passes) and the analyzer (`blkmig migrate
#               --no-spatch --patch` over the same tree) agree on every
#               function both convert (tests/cocci/crosscheck-tree.py: same
#               text modulo white space and redundant parentheses); each
#               difference is listed, and passes only when reviewed in
#               tests/cocci/realtree.crosscheck.accepted (fingerprint of
#               both texts); the check fails on a planted difference.
#               (plain `blkmig migrate` runs cocci/ first itself: it would
#               compare spatch with spatch.)  Costs one analyzer pass over
#               the tree, about 2-3 minutes on 2 cores.
#
# The tree comes from tests/realtree/prepare.sh (unpacked and configured
# once into build/realtree; corpus from $CORPUS or $BLKMIG_CORPUS, default
# ../shared/corpus beside the checkout).  COCCI_REALTREE=0 leaves the case
# out (reported as a failure, so it cannot be skipped silently).

# COCCI_BUILD: the build directory (suite.mk passes make's BUILD), so that
# runs with their own BUILD= do not share the work tree
rt_build=${COCCI_BUILD:-$top/build}
rt_work=$rt_build/cocci-realtree
rt_expected=$here/realtree.expected
rt_prepare=$top/tests/realtree/prepare.sh

# The pristine tree and a kbuild-configured copy, shared with the realtree
# suite (tests/realtree/prepare.sh: unpacked once into build/realtree).
realtree_unpack() {
	local paths
	[ -x "$rt_prepare" ] || { echo "no $rt_prepare" >"$tmp/rt.prep"; return 1; }
	if [ -n "${BLKMIG_CORPUS:-}" ] && [ -z "${CORPUS:-}" ]; then
		export CORPUS=$BLKMIG_CORPUS/linux-2.6.24.tar.xz
	fi
	paths=$(nice -n 10 "$rt_prepare" "$rt_build" 2>"$tmp/rt.prep") || return 1
	rt_src=$(sed -n 1p <<<"$paths")
	rt_kbuild=$(sed -n 2p <<<"$paths")
	[ -d "$rt_src" ] && [ -d "$rt_kbuild" ]
}

# The outcome table: one line per site, relative to the tree, no message
# text beyond the rule (messages are checked for truth by the golden cases).
# (A new call in a block of its own, its request read once: `-> { struct
# request *rq = CURRENT; blk_end_request(...); }`, counts as the call.)
realtree_table() {
	sed -e "s#^$rt_work/linux-2.6.24/##" \
	    -e 's#^\(.*: INFO blkmig/[a-z_-]*: [a-z_]* -> \({ struct request \*[a-z_0-9]* = [^;]*; \)\{0,1\}blk_end_request(.*\)$#\1 @ber#' \
	    -e 's#^\([^:]*:[0-9]*: [a-z_]*\): INFO blkmig/\([a-z_-]*\):.*not blk_rq_[^@]*\( @ber\)\{0,1\}$#\1: converted \2 literal-bytes\3#' \
	    -e 's#^\([^:]*:[0-9]*: [a-z_]*\): INFO blkmig/\([a-z_-]*\):[^@]*\( @ber\)\{0,1\}$#\1: converted \2\3#' \
	    -e 's# @ber$# blk_end_request#' \
	    -e 's#^\([^:]*:[0-9]*: [a-z_]*\): WARNING blkmig/\([a-z_-]*\):.*#\1: left \2#' \
	    -e 's#^\([^:]*:[0-9]*: [a-z_]*\): not parsed by spatch.*#\1: left not-parsed#' \
	    -e 's#^\([^:]*:[0-9]*\): WARNING blkmig/preexisting_lock_bug:.*#\1: preexisting_lock_bug#' |
		LC_ALL=C sort -t: -k1,1 -k2,2n -k3
}

realtree_case() {
	cd "$tmp" || return	# spatch --jobs writes its scratch dirs into the cwd
	local out=$tmp/realtree.out sites=$tmp/realtree.sites table=$tmp/realtree.table
	local n total left listed
	if [ "${COCCI_REALTREE:-1}" = 0 ]; then
		fail realtree "left out (COCCI_REALTREE=0)"
		return
	fi
	if ! realtree_unpack; then
		fail realtree/prepare "$(tail -3 "$tmp/rt.prep")"
		return
	fi
	: >"$tmp/rt.stamp"
	rm -rf "$rt_work"
	mkdir -p "$rt_work"
	cp -al "$rt_src" "$rt_work/" || { fail realtree/copy "cp -al failed"; return; }

	# what `make cocci-convert TREE=...` runs (make itself would turn the
	# script's exit status 1, "sites left", into 2)
	BLKMIG_SITES="$sites" BLKMIG_FACTS="$rt_work/facts" \
		COCCI_JOBS=${COCCI_TEST_JOBS:-2} nice -n 10 \
		"$top/cocci/blkmig-cocci-convert" "$rt_work/linux-2.6.24" >"$out" 2>&1
	if [ $? -gt 1 ] || [ ! -s "$sites" ]; then
		fail realtree/convert "$(tail -5 "$out")"
		return
	fi
	realtree_table <"$sites" >"$table"
	total=$(grep -vc ': preexisting_lock_bug$' "$table")
	n=$(grep -c ': converted ' "$table")
	echo "cocci realtree: $n/$total converted"

	if diff -u "$rt_expected" "$table" >"$tmp/rt.diff"; then
		pass realtree/outcomes
	else
		fail realtree/outcomes "differs from tests/cocci/realtree.expected: $(head -30 "$tmp/rt.diff")"
	fi

	left=$(grep -c ': left ' "$table")
	listed=$(grep -v 'preexisting_lock_bug' "$out" | grep -c '^/.*: WARNING blkmig/\|^/.*: not parsed by spatch')
	if [ "$total" -eq 125 ] && [ $((n + left)) -eq "$total" ] &&
		! grep -q 'blkmig/unknown\|blkmig/internal' "$sites" &&
		[ "$(grep -v ': preexisting_lock_bug$' "$table" | cut -d: -f1,2 | sort | uniq -d | wc -l)" = 0 ] &&
		[ "$listed" -ge "$left" ]; then
		pass realtree/reasons
	else
		fail realtree/reasons "total=$total converted=$n left=$left listed=$listed"
	fi

	python3 "$top/cocci/blkmig-leftovers" "$rt_work/linux-2.6.24" >"$tmp/rt.after"
	if [ "$(grep -vc '^blkmig: ' "$tmp/rt.after")" = "$left" ] &&
		grep -q "^blkmig: converted $n of 125 " "$out"; then
		pass realtree/left-count
	else
		fail realtree/left-count "$(tail -2 "$tmp/rt.after") / table says $left left"
	fi

	# A second patch run over the converted files (with the same facts)
	# changes nothing.
	local again=$tmp/rt-again f rel
	mkdir -p "$again"
	cut -d: -f1 "$table" | sort -u | while IFS= read -r rel; do
		mkdir -p "$again/$(dirname "$rel")"
		cp "$rt_work/linux-2.6.24/$rel" "$again/$rel"
	done
	nice -n 10 "$SPATCH" --sp-file "$SP" -D patch -D facts="$rt_work/facts" \
		--in-place "${OPTS[@]}" --jobs "${COCCI_TEST_JOBS:-2}" --dir "$again" \
		>/dev/null 2>&1
	if (cd "$again" && find . -type f -exec cmp -s {} "$rt_work/linux-2.6.24/{}" \; -o -type f -print) |
		grep -q .; then
		fail realtree/again "a second run changed converted files"
	else
		pass realtree/again
	fi

	if find "$rt_src" -newer "$tmp/rt.stamp" -type f | grep -q .; then
		fail realtree/pristine "the unpacked tree was modified: $(find "$rt_src" -newer "$tmp/rt.stamp" -type f | head -1)"
	else
		pass realtree/pristine
	fi

	# Every file whose sites all converted compiles for the 2.6.25 API
	# (tests/realtree/compile-check.sh: kernel flags, legacy names made to
	# fail; SKIP where the original does not build on x86_64); a file with a
	# site left must fail it.  The verdicts are part of the table.
	# (end_request, end_queued_request and end_dequeued_request still exist
	# in 2.6.25: a file whose only sites left are those must still build.)
	local full partial
	full=$(grep -v ': preexisting_lock_bug$' "$table" | awk -F: '
		{ f[$1] = 1
		  if ($0 ~ / left / && $0 !~ /: end_(request|queued_request|dequeued_request): /) l[$1] = 1 }
		END { for (x in f) if (!(x in l)) print x }' | sort)
	partial=$(grep ': left ' "$table" | grep -v ': end_\(request\|queued_request\|dequeued_request\): ' |
		cut -d: -f1 | sort -u)
	nice -n 10 "$top/tests/realtree/compile-check.sh" --tree "$rt_kbuild" \
		--src "$rt_work/linux-2.6.24" -j "${COCCI_TEST_JOBS:-2}" $full \
		>"$tmp/rt.compile" 2>&1
	# block/ll_rw_blk.c defines the legacy functions themselves (2.6.25
	# removed them): only an error at such a definition is allowed there.
	local bad
	bad=$(grep '^FAIL ' "$tmp/rt.compile" | while read -r _ rel rest; do
		rel=${rel%:}
		line=$(sed -n 's/^[^:]*:\([0-9]*\):.*/\1/p' <<<"$rest")
		sed -n "${line:-0}p" "$rt_work/linux-2.6.24/$rel" |
			grep -Eq '^((int|void) |EXPORT_SYMBOL\()(end_that_request_(first|chunk|last)|end_(queued|dequeued)_request|end_request)\b' ||
			echo "$rel"
	done)
	if [ -z "$bad" ] &&
		[ "$(grep -c '^\(OK\|SKIP\|FAIL\) ' "$tmp/rt.compile")" = "$(wc -w <<<"$full")" ]; then
		pass realtree/compiles
	else
		fail realtree/compiles "$(grep -v '^OK ' "$tmp/rt.compile" | head -10)"
	fi
	nice -n 10 "$top/tests/realtree/compile-check.sh" --tree "$rt_kbuild" \
		--src "$rt_work/linux-2.6.24" -j "${COCCI_TEST_JOBS:-2}" $partial \
		>"$tmp/rt.compile2" 2>&1
	if [ "$(grep -c '^\(FAIL\|SKIP\) ' "$tmp/rt.compile2")" = "$(wc -w <<<"$partial")" ]; then
		pass realtree/left-sites-fail-compile
	else
		fail realtree/left-sites-fail-compile "$(grep '^OK ' "$tmp/rt.compile2" | head -5)"
	fi
	sed -n 's/^\(OK\|SKIP\|FAIL\) \([^ :]*\).*/\2: compile \1/p' \
		"$tmp/rt.compile" "$tmp/rt.compile2" | LC_ALL=C sort >"$tmp/rt.verdicts"
	if diff -u "$here/realtree.compile" "$tmp/rt.verdicts" >"$tmp/rt.cdiff"; then
		pass realtree/compile-verdicts
	else
		fail realtree/compile-verdicts "differs from tests/cocci/realtree.compile: $(head -20 "$tmp/rt.cdiff")"
	fi
}

realtree_crosscheck() {
	local sites=$tmp/realtree.sites mg=$tmp/rt-migrate out=$tmp/rt.cross
	# a blkmig built under another BUILD= does not find the checkout's
	# cocci/ beside itself
	export BLKMIG_COCCI_DIR=${BLKMIG_COCCI_DIR:-$top/cocci}
	local blkmig=${BLKMIG:-$top/build/blkmig} line verdict rel fn fp acc
	[ -s "$sites" ] || { fail realtree/crosscheck "no site list (the conversion failed)"; return; }
	[ -x "$blkmig" ] || { fail realtree/crosscheck "no $blkmig (make all)"; return; }
	# the analyzer alone, as a patch against the pristine tree
	(cd "$(dirname "$rt_src")" && nice -n 10 "$blkmig" migrate --no-spatch -q \
		-j "${COCCI_TEST_JOBS:-2}" --patch "$tmp/rt-migrate.patch" \
		--root "$(basename "$rt_src")" --kernel-tree "$(basename "$rt_src")" \
		"$(basename "$rt_src")") >"$tmp/rt-migrate.log" 2>&1
	if [ $? -gt 1 ] || [ ! -s "$tmp/rt-migrate.patch" ]; then
		fail realtree/crosscheck "blkmig migrate failed: $(tail -3 "$tmp/rt-migrate.log")"
		return
	fi
	rm -rf "$mg"; mkdir -p "$mg"
	cut -d: -f1 "$sites" | sed "s#^$rt_work/linux-2.6.24/##" | sort -u |
		while IFS= read -r rel; do
			mkdir -p "$mg/$(dirname "$rel")"
			cp "$rt_src/$rel" "$mg/$rel"
		done
	chmod -R u+w "$mg"
	if ! (cd "$mg" && patch -s -p1 <"$tmp/rt-migrate.patch") >"$tmp/rt-migrate.apply" 2>&1; then
		fail realtree/crosscheck "the migrate patch does not apply: $(head -3 "$tmp/rt-migrate.apply")"
		return
	fi
	python3 "$here/crosscheck-tree.py" "$sites" "$rt_src" "$rt_work/linux-2.6.24" "$mg" >"$out" 2>&1
	if [ $? -gt 1 ]; then
		fail realtree/crosscheck "$(tail -3 "$out")"
		return
	fi
	tail -1 "$out"
	grep -q '^AGREE ' "$out" || { fail realtree/crosscheck "no function converted alike: $(tail -1 "$out")"; return; }
	local bad=0 accepted=0
	while read -r verdict rel fn fp _; do
		if [ "$verdict" = DIFFER ] &&
			grep -qE "^$rel $fn $fp " "$here/realtree.crosscheck.accepted"; then
			accepted=$((accepted + 1))
		else
			bad=$((bad + 1))
			fail "realtree/crosscheck/$rel/$fn" "spatch and blkmig migrate convert it differently (not in tests/cocci/realtree.crosscheck.accepted): $(
				awk -v h="$verdict $rel $fn " 'index($0, h) == 1 { p = 1; print; next }
					p && /^    / { print; next } { p = 0 }' "$out" | head -30)"
		fi
	done < <(grep '^DIFFER \|^MISSING ' "$out")
	echo "cocci realtree crosscheck: $accepted reviewed differences (realtree.crosscheck.accepted)"
	if [ $bad = 0 ]; then
		pass realtree/crosscheck
	else
		fail realtree/crosscheck "$bad function(s) converted differently, unreviewed"
	fi
	# a reviewed entry that no longer occurs is stale: review the list again
	local stale
	stale=$(grep -v '^#' "$here/realtree.crosscheck.accepted" | while read -r rel fn fp _; do
		grep -q "^DIFFER $rel $fn $fp " "$out" || echo "$rel $fn"
	done)
	if [ -z "$stale" ]; then
		pass realtree/crosscheck-accepted-current
	else
		fail realtree/crosscheck-accepted-current "entries that no longer occur: $stale"
	fi

	# The check can fail: a different error value planted in the
	# analyzer's output of one agreeing function is a difference.
	line=$(grep -m1 '^AGREE ' "$out")
	rel=$(cut -d' ' -f2 <<<"$line")
	fn=$(cut -d' ' -f3 <<<"$line")
	cp -r "$mg" "$tmp/rt-planted"
	python3 - "$tmp/rt-planted/$rel" "$fn" <<'PY'
import re, sys
path, fn = sys.argv[1:]
text = open(path).read()
start = re.search(r"(?m)^[A-Za-z_].*\b%s\s*\([^;]*$" % re.escape(fn), text).start()
new = re.sub(r"(blk_end_request(?:_callback)?\(\s*[^,]+,\s*)[^,]+", r"\1-ENOMEM",
             text[start:], count=1)
open(path, "w").write(text[:start] + new)
PY
	grep "^$rt_work/linux-2.6.24/$rel:\|^$rel:" "$sites" >"$tmp/rt.planted.sites"
	if python3 "$here/crosscheck-tree.py" "$tmp/rt.planted.sites" "$rt_src" \
		"$rt_work/linux-2.6.24" "$tmp/rt-planted" >"$tmp/rt.planted" 2>&1; then
		fail realtree/crosscheck-can-fail "a planted difference in $rel passed: $(tail -2 "$tmp/rt.planted")"
	elif grep -q "^DIFFER $rel " "$tmp/rt.planted"; then
		pass realtree/crosscheck-can-fail
	else
		fail realtree/crosscheck-can-fail "$(tail -3 "$tmp/rt.planted")"
	fi
	rm -rf "$tmp/rt-planted"
}

# What the conversion of the tree depends on besides the tree: spatch, the semantic
# patches, the macro file and the scripts that run them; and the tree's own identity.
realtree_key() {
	{
		"$SPATCH" --version 2>&1 | head -1
		cat "$top"/cocci/*.cocci "$top"/cocci/blkmig.h "$top"/cocci/blkmig-cocci-convert \
			"$top"/cocci/blkmig-leftovers "$rt_src/Makefile"
		find "$rt_src" -type f -name '*.[ch]' | wc -l
	} | sha256sum | cut -d' ' -f1
}

# The sanitize suite's rerun (SANITIZE_RUN) is there for its cross-check, which runs
# blkmig: the conversion by spatch alone, checked by the plain cocci run of the same
# `make check` (COCCI_REUSE_FROM: its work folder), is taken from there when its key is
# the same, instead of being made and checked again.
realtree_reuse() {
	local from=${COCCI_REUSE_FROM:-}
	[ -n "${SANITIZE_RUN:-}" ] && [ -n "$from" ] && [ -s "$from/realtree.sites" ] &&
		[ -s "$from/reuse.key" ] || return 1
	realtree_unpack || return 1
	[ "$(cat "$from/reuse.key")" = "$(realtree_key)" ] || return 1
	rt_work=$from
	cp "$from/realtree.sites" "$tmp/realtree.sites"
	pass realtree/conversion-taken-from-the-plain-run
}

if ! realtree_reuse; then
	realtree_case
	# kept for the sanitize rerun, with what it was made from, once every check ran
	if [ -s "$tmp/realtree.sites" ] && [ -d "$rt_work/linux-2.6.24" ]; then
		cp "$tmp/realtree.sites" "$rt_work/realtree.sites"
		realtree_key >"$rt_work/reuse.key"
	fi
fi
realtree_crosscheck
