#!/bin/bash
# tests/realtree/run.sh — runner of suite `realtree` (tests/realtree/README.md).
set -u
SUITE=realtree
TOP=${TOP:?}
BUILD=${BUILD:?}
BLKMIG=${BLKMIG:-$BUILD/blkmig}
source "$TOP/tests/lib/testlib.sh"
HERE=$TOP/tests/realtree

# ---- the tree, unpacked and configured once (cached in $BUILD/realtree) -------------
if ! paths=$(nice -n 10 "$HERE/prepare.sh" "$BUILD" 2>"$RESULTS/realtree-prepare.err"); then
	fail prepare "$(tail -n 5 "$RESULTS/realtree-prepare.err")"
	finish
	exit 1
fi
PRISTINE=$(sed -n 1p <<<"$paths")
KBUILD=$(sed -n 2p <<<"$paths")
pass prepare

# ---- the compile check can fail: the unconverted files fail it ----------------------
# Files that compile for x86_64 in 2.6.24 and call the legacy API: each must FAIL.
unconverted_fails() {
	local out
	out=$("$HERE/compile-check.sh" --tree "$KBUILD" --src "$PRISTINE" \
		drivers/block/nbd.c drivers/block/floppy.c drivers/block/sx8.c drivers/block/ps3disk.c)
	[ $? -eq 1 ] || { echo "compile-check did not exit 1 on unconverted files"; return 1; }
	for f in drivers/block/nbd.c drivers/block/floppy.c drivers/block/sx8.c; do
		grep -q "^FAIL $f: .*is unavailable" <<<"$out" || { echo "$f did not fail: $out"; return 1; }
	done
	grep -q '^SKIP drivers/block/ps3disk.c' <<<"$out" || { echo "ps3disk.c not skipped: $out"; return 1; }
}
check compile-check/unconverted-file-fails unconverted_fails

# A file without legacy calls compiles OK with the 2.6.25 header.
check compile-check/clean-file-ok "$HERE/compile-check.sh" --tree "$KBUILD" --src "$PRISTINE" block/bsg.c

# end_io_error() left in a file fails it (2.6.25 removed the macro; the 2.6.24 tree's
# header still defines it, so the compiler alone would accept it).
eie_fails() {
	local d
	d=$(mktemp -d) && mkdir -p "$d/block" &&
		sed '$a static int blkmig_eie(int u) { return end_io_error(u); }' \
			"$PRISTINE/block/bsg.c" >"$d/block/bsg.c" || return 1
	out=$("$HERE/compile-check.sh" --tree "$KBUILD" --src "$d" block/bsg.c)
	rm -rf "$d"
	grep -q '^FAIL block/bsg.c: end_io_error() left' <<<"$out" || { echo "$out"; return 1; }
}
check compile-check/end_io_error-left-fails eie_fails


# ---- blkmig migrate --in-place on a copy of the whole tree --------------------------
W=$BUILD/realtree/work
rm -rf "$W"; mkdir -p "$W"
cp -a "$PRISTINE" "$W/tree" && chmod -R u+w "$W/tree"
sums() { (cd "$1" && find . -type f -print0 | sort -z | xargs -0 sha256sum); }
[ -s "$BUILD/realtree/pristine.sha256" ] && [ "$BUILD/realtree/pristine.sha256" -nt "$BUILD/realtree/.unpacked" ] ||
	sums "$PRISTINE" >"$BUILD/realtree/pristine.sha256"
start=$(date +%s)
(cd "$W" && nice -n 10 "$BLKMIG" migrate --in-place -q -j 2 --report rep --kernel-tree tree tree \
	>migrate.out 2>migrate.err)
mrc=$?
echo "realtree: migrate took $(( $(date +%s) - start ))s (exit $mrc)"
if [ $mrc -le 1 ] && [ -s "$W/rep/report.json" ]; then
	pass migrate/runs
else
	fail migrate/runs "exit $mrc: $(tail -n 5 "$W/migrate.err")"
	finish; exit 1
fi
python3 "$HERE/sites-table.py" "$W/rep/report.json" "$W/tree" >"$W/sites.tsv"

# ---- every site as reviewed by hand (sites.tsv; regen.sh rewrites it from a run) -----
# The run's table is compared with sites.tsv on every column but the 6th, REVIEW.
python3 "$HERE/review.py" strip "$HERE/sites.tsv" >"$W/sites.committed.tsv"
if diff -u "$W/sites.committed.tsv" "$W/sites.tsv" >"$W/sites.diff"; then
	pass table/every-site-as-reviewed
else
	fail table/every-site-as-reviewed "$(wc -l <"$W/sites.diff") diff lines (regen with tests/realtree/regen.sh, review the UNREVIEWED rows): $(head -n 30 "$W/sites.diff")"
fi
# Each row's REVIEW: converted rows "exact: ...", left rows "left: true: ..." (review.py).
python3 "$HERE/review.py" check "$HERE/sites.tsv" >"$W/review.txt"
rrc=$?
head -n 1 "$W/review.txt" | sed 's/^/realtree: /'
if [ $rrc -eq 0 ]; then
	pass table/every-row-reviewed-exact-or-true
else
	fail table/every-row-reviewed-exact-or-true "$(tail -n +2 "$W/review.txt" | head -n 30)"
fi

# ---- 0 unparsed: no site and no file with legacy calls the analysis could not read ---
unparsed() {
	python3 - "$W/rep/report.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
bad = [s['id'] for s in r['sites'] if (s.get('reason') or {}).get('code') == 'unparsed']
bad += [f['path'] + ' (parse failed)' for f in r['files'] if f['sites'] and f['parse']['status'] == 'failed']
print('\n'.join(bad)); sys.exit(1 if bad else 0)
PY
}
check unparsed/none unparsed

# ---- only files with legacy calls changed, and each of them compiles -----------------
sums "$W/tree" >"$W/after.sha256"
diff <(sort -k2 "$BUILD/realtree/pristine.sha256") <(sort -k2 "$W/after.sha256") |
	sed -n 's/^> [0-9a-f]*  \.\///p' | sort >"$W/changed.txt"
python3 - "$W/rep/report.json" "$W/tree" >"$W/with-sites.txt" <<'PY'
import json, os, sys
r = json.load(open(sys.argv[1])); root = os.path.abspath(sys.argv[2]) + '/'
for f in r['files']:
    if f['sites']:
        print(os.path.abspath(os.path.join(os.path.dirname(root[:-1]), f['path']))[len(root):])
PY
sort -o "$W/with-sites.txt" "$W/with-sites.txt"
extra=$(comm -23 "$W/changed.txt" "$W/with-sites.txt")
if [ -z "$extra" ] && [ -s "$W/changed.txt" ]; then
	pass checksums/only-files-with-legacy-calls-changed
else
	fail checksums/only-files-with-legacy-calls-changed "changed without legacy calls (or nothing changed): ${extra:-none changed}"
fi
changed_c=$(grep '\.c$' "$W/changed.txt")
if [ -n "$changed_c" ]; then
	# the legacy calls left on purpose: one per site reported for manual review
	python3 - "$W/rep/report.json" "$W" >"$W/left.txt" <<'PY'
import collections, json, os, sys
r = json.load(open(sys.argv[1])); root = os.path.abspath(os.path.join(sys.argv[2], 'tree')) + '/'
n = collections.Counter(os.path.abspath(os.path.join(sys.argv[2], s['file']))[len(root):]
                        for s in r['sites'] if s['verdict'] == 'manual')
for f, k in sorted(n.items()):
    print(f, k)
PY
	"$HERE/compile-check.sh" --tree "$KBUILD" --src "$W/tree" --left "$W/left.txt" $changed_c \
		>"$W/compile.txt" 2>&1
	crc=$?
	echo "realtree: compile-check: $(grep -c '^OK ' "$W/compile.txt") OK, $(grep -c '^SKIP ' "$W/compile.txt") SKIP, $(grep -c '^FAIL ' "$W/compile.txt") FAIL"
	if [ $crc -eq 0 ]; then pass compile/converted-files-compile-for-2.6.25
	else fail compile/converted-files-compile-for-2.6.25 "$(grep -v '^OK \|^SKIP ' "$W/compile.txt" | head -n 20)"; fi
fi

# ---- scan -p with a compile_commands.json made for the tree --------------------------
# For every file with legacy calls that compiles on x86_64 (compile-check's OK lines), a
# compilation database from kbuild's own flags; `blkmig scan -p` on the pristine tree must
# parse each file without an error and find the sites the whole-tree run found there.
compile_db() {
	local ok
	ok=$(sed -n 's/^OK \([^ ]*\).*/\1/p' "$W/compile.txt")
	[ -n "$ok" ] || { echo "no file compiled OK: nothing to try"; return 1; }
	mkdir -p "$W/cdb"
	# shellcheck disable=SC2086
	"$HERE/compile-db.py" "$KBUILD" $ok >"$W/cdb/compile_commands.json" || return 1
	# shellcheck disable=SC2086
	(cd "$KBUILD" && "$BLKMIG" scan -p "$W/cdb" -o "$W/cdb/scan.json" --format json $ok \
		>/dev/null 2>"$W/cdb/scan.err")
	local rc=$?
	[ $rc -le 1 ] || { echo "scan -p exit $rc: $(tail -n 5 "$W/cdb/scan.err")"; return 1; }
	python3 - "$W/cdb/scan.json" "$W/rep/report.json" $ok <<'PY'
import json, sys
scan, whole, files = json.load(open(sys.argv[1])), json.load(open(sys.argv[2])), set(sys.argv[3:])
bad = ['%s: parse %s%s' % (f['path'], f['parse']['status'],
                           ' (model headers, not the database)' if f['parse']['used_model'] else '')
       for f in scan['files'] if f['path'] in files
       and (f['parse']['status'] != 'ok' or f['parse']['used_model'])]
key = lambda s, strip: (s['file'][len(strip):], s['line'], s['column'], s['call'])
got = {key(s, '') for s in scan['sites']}
want = {key(s, 'tree/') for s in whole['sites'] if s['file'][len('tree/'):] in files}
bad += ['only in the whole-tree run: %s:%d:%d %s' % k for k in sorted(want - got)]
bad += ['only in scan -p: %s:%d:%d %s' % k for k in sorted(got - want)]
print('\n'.join(bad[:20]) if bad else 'scan -p: %d files, %d sites' % (len(files), len(got)))
sys.exit(1 if bad or not got else 0)
PY
}
if [ -n "${changed_c:-}" ] && [ -s "$W/compile.txt" ]; then
	check scan-p/compile-db-parses-and-finds-every-site compile_db
fi

# ---- blkmig verify on the converted files: nothing introduced ------------------------
# Each converted file is verified against its original (verify --original): a lock
# problem the original already had is a preexisting_lock_bug warning; any other finding
# (a race or a deadlock the conversion made, a legacy call left) fails.
introduced() {
	[ -n "$changed_c" ] || return 0
	rm -rf "$W/verify"; mkdir -p "$W/verify"
	# shellcheck disable=SC2016
	printf '%s\n' $changed_c | nl -nln | xargs -P 2 -L 1 bash -c \
		'cd "$0/tree" && "$1" verify -q --format json -o "$0/verify/$3.json" --kernel-tree . \
			--original "$2/$4" "$4" >/dev/null 2>>"$0/verify/$3.err"' "$W" "$BLKMIG" "$PRISTINE"
	python3 - "$W/verify" "$W/rep/report.json" $changed_c <<'PY'
import collections, glob, json, sys
files = sorted(glob.glob(sys.argv[1] + '/*.json'))
if len(files) != len(sys.argv) - 3:
    print('verify wrote %d reports for %d files' % (len(files), len(sys.argv) - 3)); sys.exit(1)
# a converted file keeps only the calls 2.6.25 still has that were left for their
# lock context alone (lock_mixed): as many legacy calls as such sites, no more
kept = collections.Counter(s['id'].split(':')[0].split('tree/', 1)[-1]
                           for s in json.load(open(sys.argv[2]))['sites']
                           if (s.get('reason') or {}).get('code') == 'lock_mixed')
bad = []
for p in files:
    left = collections.Counter()
    for f in json.load(open(p))['findings']:
        if f['kind'] == 'legacy_call' and left[f['file']] < kept[f['file']]:
            left[f['file']] += 1
        elif f['kind'] != 'preexisting_lock_bug':
            bad.append(f)
for f in bad:
    print('%s:%d: %s: %s' % (f['file'], f['line'], f['kind'], f['message']))
sys.exit(1 if bad else 0)
PY
}
check verify/nothing-introduced introduced

# ---- running again changes nothing ----------------------------------------------------
(cd "$W" && nice -n 10 "$BLKMIG" migrate --in-place -q -j 2 --kernel-tree tree tree \
	>migrate2.out 2>migrate2.err)
sums "$W/tree" >"$W/again.sha256"
if cmp -s "$W/after.sha256" "$W/again.sha256"; then
	pass idempotent/second-run-changes-nothing
else
	fail idempotent/second-run-changes-nothing "$(diff "$W/after.sha256" "$W/again.sha256" | head)"
fi

# ---- the coverage line ------------------------------------------------------------------
total=$(wc -l <"$W/sites.tsv")
conv=$(awk -F'\t' '$4 == "auto"' "$W/sites.tsv" | wc -l)
echo "realtree: $conv/$total converted, $((total - conv)) manual"
head -n 1 "$W/review.txt" | sed 's/^/realtree: /'
finish
