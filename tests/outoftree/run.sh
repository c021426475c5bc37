#!/bin/bash
# tests/outoftree/run.sh — runner of suite `outoftree` (tests/outoftree/README.md).
set -u
SUITE=outoftree
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
source "$TOP/tests/lib/testlib.sh"
HERE=$TOP/tests/outoftree
W=$BUILD/outoftree
TABLE=$HERE/sitetable.py

# ---- both tools on fresh copies (convert.sh): a missing corpus FAILS, never skips -----
if corpus=$(TOP=$TOP BLKMIG=$BLKMIG "$HERE/convert.sh" "$W" 2>"$RESULTS/outoftree-convert.err"); then
	pass tools-run
else
	fail tools-run "$(tail -n 5 "$RESULTS/outoftree-convert.err")"
	finish
	exit 1
fi

# ---- every site of the corpus is in both tables ---------------------------------------
# The sites, found without either tool (sitetable.py sites: a comment-aware grep of the
# .c files), must be as many as the corpus's README says, and each must be a row of each
# run's table with the same function name.
python3 "$TABLE" sites "$W/orig" >"$W/corpus-sites.tsv"
all_sites() {
	local want n
	want=$(sed -n 's/^| \*\*total\*\* |.*| \*\*\([0-9]*\)\*\* |.*/\1/p' "$corpus/README.md")
	n=$(wc -l <"$W/corpus-sites.tsv")
	[ -n "$want" ] || { echo "no total in $corpus/README.md"; return 1; }
	[ "$n" -eq "$want" ] || { echo "found $n sites in the corpus, its README says $want"; return 1; }
	local t missing
	for t in sites.tsv sites-spatch.tsv; do
		missing=$(cut -f1,3 "$W/corpus-sites.tsv" | sort | comm -23 - <(cut -f1,3 "$W/$t" | sort))
		[ -z "$missing" ] || { echo "$t misses: $missing"; return 1; }
	done
}
check sites/all-present all_sites
# spatch's table names no function: it takes the corpus scan's; migrate names its own
funcs() {
	local bad
	bad=$(join -t $'\t' <(cut -f1,2 "$W/corpus-sites.tsv" | sort) <(cut -f1,2 "$W/sites.tsv" | sort) |
		awk -F'\t' '$2 != $3 { print $1 ": in " $2 "(), migrate says " $3 }')
	[ -z "$bad" ] || { echo "$bad"; return 1; }
}
check migrate/site-functions funcs

# ---- each table as reviewed (sites.tsv, sites-spatch.tsv; regen.sh rewrites them) -----
# Columns 1-5 (site, function, call, outcome, new code or reason) must equal the run's.
for t in sites.tsv sites-spatch.tsv; do
	if diff -u <(cut -f1-5 "$HERE/$t") "$W/$t" >"$W/$t.diff"; then
		pass "table/$t-as-reviewed"
	else
		fail "table/$t-as-reviewed" "$(grep -c '^[-+][^-+]' "$W/$t.diff") rows differ (tests/outoftree/regen.sh, then review): $(head -n 20 "$W/$t.diff")"
	fi
done

# ---- the REVIEW column: no WRONG conversion, no FALSE reason, nothing unreviewed -------
check review/migrate python3 "$TABLE" review "$HERE/sites.tsv"
check review/spatch python3 "$TABLE" review "$HERE/sites-spatch.tsv"

# ---- files with no converted site are byte-for-byte as they were -----------------------
untouched() {
	local tool=$1 dir=$2 table=$3 f bad=
	while IFS= read -r f; do
		f=${f#./}
		if ! awk -F'\t' -v f="$f" 'index($1, f ":") == 1 && $4 == "auto" { found = 1 } END { exit !found }' "$W/$table" &&
			! cmp -s "$W/orig/$f" "$W/$dir/$f"; then
			bad="$bad $f"
		fi
	done < <(cd "$W/orig" && find . -type f | sort)
	[ -z "$bad" ] || { echo "$tool changed files without a converted site:$bad"; return 1; }
	# and no file was added (spatch's *.cocci_res, migrate's temporaries)
	local extra
	extra=$(diff <(cd "$W/orig" && find . | sort) <(cd "$W/$dir" && find . | sort) | sed -n 's/^> //p')
	[ -z "$extra" ] || { echo "$tool left files behind: $extra"; return 1; }
}
check migrate/unconverted-files-unchanged untouched migrate migrate sites.tsv
check spatch/unconverted-files-unchanged untouched spatch spatch sites-spatch.tsv

# ---- blkmig verify on migrate's output: nothing but the legacy calls it left -----------
# verify --original: an old bug kept or fixed is a preexisting_* warning (lock bug,
# request the original never ended); a race, a deadlock, or more legacy calls in a file
# than the manual sites reported there, fail.
verify_migrate() {
	(cd "$W" && "$BLKMIG" verify -q --format json -o verify.json --original orig migrate \
		>/dev/null 2>verify.err)
	local rc=$?
	[ $rc -le 1 ] || { echo "verify exit $rc: $(tail -n 5 "$W/verify.err")"; return 1; }
	python3 - "$W/verify.json" "$W/sites.tsv" <<'PY'
import collections, json, sys
findings = json.load(open(sys.argv[1]))['findings']
# (a compat_branch call keeps the old API for older kernels on purpose: verify skips it)
left = collections.Counter(r.split('\t')[0].rsplit(':', 1)[0]
                           for r in open(sys.argv[2]) if r.split('\t')[3] != 'auto'
                           and not r.split('\t')[4].startswith('compat_branch'))
legacy = collections.Counter(f['file'].split('/', 1)[1] for f in findings if f['kind'] == 'legacy_call')
bad = ['%s:%d: %s: %s' % (f['file'], f['line'], f['kind'], f['message']) for f in findings
       if f['kind'] not in ('legacy_call', 'preexisting_lock_bug', 'preexisting_unended_request')]
bad += ['%s: %d legacy call(s) left, %d site(s) reported manual' % (f, legacy[f], left[f])
        for f in sorted(set(left) | set(legacy)) if legacy[f] != left[f]]
print('\n'.join(bad)); sys.exit(1 if bad else 0)
PY
}
check verify/migrate-output verify_migrate

# ---- every site migrate left has a reason; every site it converted is in the output ---
reasons() {
	awk -F'\t' '$4 != "auto" && ($5 == "" || $5 ~ /NO REASON$/ || $5 ~ /^[a-z_-]*: \(lock/) { print $1 ": no reason" }
		$4 == "auto" && $5 ~ /^UNCHANGED/ { print $1 ": reported converted, the call is still there" }
		$4 != "auto" && $5 ~ /^CHANGED: / { print $1 ": reported left, but its line changed" }' \
		"$W/sites.tsv" "$W/sites-spatch.tsv" | grep . && return 1
	return 0
}
check reasons/every-left-site-has-one-and-outcomes-are-true reasons

# ---- running migrate again changes nothing -----------------------------------------------
idem() {
	rm -rf "$W/again"; cp -a "$W/migrate" "$W/again"
	(cd "$W" && nice -n 10 "$BLKMIG" migrate --in-place -q -j 2 --cocci-dir "$TOP/cocci" again \
		>again.out 2>again.err)
	[ $? -le 1 ] || { echo "second run: $(tail -n 3 "$W/again.err")"; return 1; }
	diff -r "$W/migrate" "$W/again" | head -n 20
	diff -rq "$W/migrate" "$W/again" >/dev/null
}
check migrate/idempotent idem

# ---- the coverage lines ---------------------------------------------------------------------
cov() {
	awk -F'\t' -v tool="$1" '$1 ~ /\.c:[0-9]+$/ { n++; if ($4 == "auto") c++; else m++ }
		END { if (tool == "migrate") printf "outoftree: %d/%d converted, %d manual\n", c, n, m
		      else printf "outoftree-spatch: %d/%d converted\n", c, n }' "$2"
}
cov migrate "$W/sites.tsv"
cov spatch "$W/sites-spatch.tsv"
finish
