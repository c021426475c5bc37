# tests/cocci/realtree.sh — sourced by tests/cocci/run.sh: both passes of the
# semantic patches (facts, conversion) over the Linux 2.6.24 release tree.
#
#   outcomes    every legacy site of the original tree, converted (with the
#               rule) or left (with the reason's rule), and every old lock
#               bug, equals tests/cocci/realtree.expected (reviewed by hand
#               against API-SEMANTICS.md: any change fails)
#   reasons     every site left is listed once, with a reason (no "unknown",
#               no duplicate, none lost: left + converted = all)
#   left-count  the legacy calls still in the converted tree are exactly the
#               sites listed as left
#   again       a second run over the converted files changes nothing
#   pristine    the unpacked tree is never modified (the work copy is
#               hard-linked; the convert script renames new files over)
# and prints "cocci realtree: N/125 converted".
#
# The tree is unpacked once into build/realtree/linux-2.6.24 (reused while
# its stamp is there) from $BLKMIG_CORPUS (default ../shared/corpus beside
# the checkout).  COCCI_REALTREE=0 leaves the case out (it is then reported
# as a failure, so it cannot be skipped silently in make check).

rt_corpus=${BLKMIG_CORPUS:-$top/../shared/corpus}
rt_tar=$rt_corpus/linux-2.6.24.tar.xz
rt_build=$top/build/realtree
rt_src=$rt_build/linux-2.6.24
rt_work=$top/build/cocci-realtree
rt_expected=$here/realtree.expected

realtree_unpack() {
	[ -f "$rt_src/.blkmig-unpacked" ] && return 0
	[ -r "$rt_tar" ] || return 1
	rm -rf "$rt_src"
	mkdir -p "$rt_build" || return 1
	nice -n 10 tar -xJf "$rt_tar" -C "$rt_build" || return 1
	: >"$rt_src/.blkmig-unpacked"
}

# The outcome table: one line per site, relative to the tree, no message
# text beyond the rule (messages are checked for truth by the golden cases).
realtree_table() {
	sed -e "s#^$rt_work/linux-2.6.24/##" \
	    -e 's#^\([^:]*:[0-9]*: [a-z_]*\): INFO blkmig/\([a-z-]*\):.*#\1: converted \2#' \
	    -e 's#^\([^:]*:[0-9]*: [a-z_]*\): WARNING blkmig/\([a-z-]*\):.*#\1: left \2#' \
	    -e 's#^\([^:]*:[0-9]*: [a-z_]*\): not parsed by spatch.*#\1: left not-parsed#' \
	    -e 's#^\([^:]*:[0-9]*\): WARNING blkmig/preexisting_lock_bug:.*#\1: preexisting_lock_bug#' |
		LC_ALL=C sort -t: -k1,1 -k2,2n -k3
}

realtree_case() {
	local out=$tmp/realtree.out sites=$tmp/realtree.sites table=$tmp/realtree.table
	local n total left listed
	if [ "${COCCI_REALTREE:-1}" = 0 ]; then
		fail realtree "left out (COCCI_REALTREE=0)"
		return
	fi
	if ! realtree_unpack; then
		fail realtree/unpack "cannot unpack $rt_tar (set BLKMIG_CORPUS to the directory holding it)"
		return
	fi
	find "$rt_src" -newer "$rt_src/.blkmig-unpacked" -type f -print -quit >"$tmp/rt.touched"
	rm -rf "$rt_work"
	mkdir -p "$rt_work"
	cp -al "$rt_src" "$rt_work/" || { fail realtree/copy "cp -al failed"; return; }
	rm -f "$rt_work/linux-2.6.24/.blkmig-unpacked"

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
	listed=$(grep -c '^/.*: WARNING blkmig/\|^/.*: not parsed by spatch' "$out")
	if [ "$total" -eq 125 ] && [ $((n + left)) -eq "$total" ] &&
		! grep -q 'blkmig/unknown\|blkmig/internal' "$sites" &&
		[ "$(cut -d: -f1,2 "$table" | grep -v preexisting | sort | uniq -d | wc -l)" = 0 ] &&
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

	if [ -s "$tmp/rt.touched" ] ||
		find "$rt_src" -newer "$rt_src/.blkmig-unpacked" -type f | grep -q .; then
		fail realtree/pristine "the unpacked tree was modified: $(head -1 "$tmp/rt.touched")"
	else
		pass realtree/pristine
	fi
}

realtree_case
