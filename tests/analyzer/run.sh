#!/bin/bash
# tests/analyzer/run.sh — the analyzer suite: command line, golden scan/verify results
# carried in each case file, golden rewrites (NAME.fixed.c), golden text/JSON/SARIF
# reports, compile + verify of every rewrite, malformed input, per-file isolation,
# the grep cross-check, compilation database and kernel-tree modes, unit tests.
set -u
here=$(cd "$(dirname "$0")" && pwd)
TOP=${TOP:-$(cd "$here/../.." && pwd)}
BUILD=${BUILD:-$TOP/build}
SUITE=analyzer
. "$TOP/tests/lib/testlib.sh"
B=$BUILD/blkmig
EDITS=$BUILD/analyzer-tests/edits_tool
UNIT=$BUILD/analyzer-tests/unit
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cases=$here/cases

# expect NAME RC CMD...: run CMD, pass when it exits RC
expect() {
	local name=$1 want=$2 rc
	shift 2
	"$@" >"$tmp/out" 2>"$tmp/err"; rc=$?
	if [ "$rc" -eq "$want" ]; then pass "$name"; else
		fail "$name" "exit $rc, wanted $want: $(head -c 300 "$tmp/err")"; fi
}

# ---- command line ---------------------------------------------------------------
expect cli-help 0 "$B" --help
grep -q 'EXIT STATUS' "$tmp/out" && pass cli-help-text || fail cli-help-text
expect cli-version 0 "$B" --version
grep -qx 'blkmig [0-9.]*' "$tmp/out" && pass cli-version-text || fail cli-version-text
expect cli-scan-help 0 "$B" scan --help
grep -q -- '--kernel-tree' "$tmp/out" && pass cli-scan-help-options || fail cli-scan-help-options
expect cli-verify-help 0 "$B" verify --help
expect cli-no-args 2 "$B"
expect cli-unknown-command 2 "$B" frobnicate
grep -q "unknown command" "$tmp/err" && pass cli-unknown-command-msg || fail cli-unknown-command-msg
expect cli-no-path 2 "$B" scan
grep -q "no PATH" "$tmp/err" && pass cli-no-path-msg || fail cli-no-path-msg
expect cli-unknown-option 2 "$B" scan --bogus "$cases/simple.c"
expect cli-bad-jobs 2 "$B" scan -j zero "$cases/simple.c"
expect cli-bad-format 2 "$B" scan --format xml "$cases/simple.c"
expect cli-output-file 0 "$B" scan -q -o "$tmp/report.txt" "$cases/pairs.c"
grep -q '^summary:' "$tmp/report.txt" && pass cli-output-file-written || fail cli-output-file-written
expect cli-output-unwritable 2 "$B" scan -q -o /nonexistent-dir/x "$cases/simple.c"
# getopt_long forms for every command (issue 23): attached and clustered short options,
# --opt=value, -- ending the options, errors as "blkmig CMD: unknown option '--x'", exit 2
expect cli-getopt-o-attached 0 "$B" scan -q "-o$tmp/att.txt" "$cases/pairs.c"
grep -q '^summary:' "$tmp/att.txt" && pass cli-getopt-o-attached-written || fail cli-getopt-o-attached-written
expect cli-getopt-o-dash 0 "$B" scan -q -o- "$cases/pairs.c"
grep -q '^summary:' "$tmp/out" && pass cli-getopt-o-dash-stdout || fail cli-getopt-o-dash-stdout
expect cli-getopt-cluster 0 "$B" scan -qj2 --format=brief "$cases/pairs.c"
[ -s "$tmp/out" ] && [ ! -s "$tmp/err" ] && pass cli-getopt-cluster-quiet ||
	fail cli-getopt-cluster-quiet "$(head -c 300 "$tmp/err")"
expect cli-getopt-long-equals 0 "$B" scan --quiet --jobs=1 --output="$tmp/eq.txt" "$cases/pairs.c"
expect cli-getopt-option-after-path 0 "$B" scan "$cases/pairs.c" -q --format brief
# POSIXLY_CORRECT would make getopt stop at the first PATH: options after it still count
POSIXLY_CORRECT=1 expect cli-getopt-posixly-correct 0 "$B" scan "$cases/pairs.c" -q --format brief
grep -q '^[^ ]*pairs.c:' "$tmp/out" && ! grep -q '^summary:' "$tmp/out" &&
	pass cli-getopt-posixly-correct-brief || fail cli-getopt-posixly-correct-brief "$(head -c 300 "$tmp/out")"
mkdir -p "$tmp/dd" && cp "$cases/pairs.c" "$tmp/dd/-q.c"
(cd "$tmp/dd" && "$B" scan --format brief -- -q.c) > "$tmp/out" 2>&1
grep -q '^-q.c:' "$tmp/out" && pass cli-getopt-double-dash-ends-options ||
	fail cli-getopt-double-dash-ends-options "$(head -c 300 "$tmp/out")"
for cmd in scan verify fix migrate; do
	expect "cli-getopt-$cmd-unknown-long" 2 "$B" "$cmd" --x "$cases/simple.c"
	grep -qx "blkmig $cmd: unknown option '--x' (try blkmig $cmd --help)" "$tmp/err" &&
		pass "cli-getopt-$cmd-unknown-long-msg" ||
		fail "cli-getopt-$cmd-unknown-long-msg" "$(head -c 300 "$tmp/err")"
	expect "cli-getopt-$cmd-unknown-short" 2 "$B" "$cmd" -qZ "$cases/simple.c"
	grep -q "^blkmig $cmd: unknown option '-Z'" "$tmp/err" &&
		pass "cli-getopt-$cmd-unknown-short-msg" ||
		fail "cli-getopt-$cmd-unknown-short-msg" "$(head -c 300 "$tmp/err")"
	expect "cli-getopt-$cmd-missing-value" 2 "$B" "$cmd" "$cases/simple.c" -j
	grep -qx "blkmig $cmd: option '-j' needs an argument" "$tmp/err" &&
		pass "cli-getopt-$cmd-missing-value-msg" ||
		fail "cli-getopt-$cmd-missing-value-msg" "$(head -c 300 "$tmp/err")"
	expect "cli-getopt-$cmd-help-in-cluster" 0 "$B" "$cmd" -qh
	grep -q "blkmig $cmd - " "$tmp/out" && pass "cli-getopt-$cmd-help-text" ||
		fail "cli-getopt-$cmd-help-text" "$(head -c 300 "$tmp/out")"
done
# every option is listed once in each command's --help
for cmd in scan verify fix migrate; do
	# an entry: "    -x ..." (or "    --xx ...") followed by its 8-space-indented text
	"$B" "$cmd" --help | awk '/^        [^ ]/ && p ~ /^    -/ { split(p, w, /[ ,]+/); print w[2] } { p = $0 }' |
		sort | uniq -d > "$tmp/dup"
	[ ! -s "$tmp/dup" ] && pass "cli-help-$cmd-each-option-once" ||
		fail "cli-help-$cmd-each-option-once" "listed twice: $(tr '\n' ' ' < "$tmp/dup")"
done

# ---- golden results carried in the case files ------------------------------------
# A case NAME.c ends with a comment holding check-command (scan|verify), check-exit,
# optionally check-options (extra options, e.g. --headers), and the expected
# `--format brief` lines between check-brief-start/-end.
block() { # FILE START END: the lines between the markers, " * " stripped
	sed -n "/$2/,/$3/p" "$1" | sed '1d;$d' | sed -e 's/^ \* \{0,1\}//'
}
for c in "$cases"/*.c "$cases"/*/; do
	c=${c%/}
	case $c in *.fixed.c) continue ;; esac
	name=$(basename "$c" .c)
	spec=$c; [ -d "$c" ] && spec=$c/CHECK
	cmd=$(sed -n 's/^ \* check-command: *//p' "$spec"); cmd=${cmd:-scan}
	want=$(sed -n 's/^ \* check-exit: *//p' "$spec")
	opts=$(sed -n 's/^ \* check-options: *//p' "$spec")
	block "$spec" check-brief-start check-brief-end >"$tmp/want"
	# shellcheck disable=SC2086 # opts holds separate options
	(cd "$(dirname "$c")" && "$B" "$cmd" -q $opts --format brief "$(basename "$c")") >"$tmp/got" 2>"$tmp/err"
	rc=$?
	if [ "$rc" = "$want" ]; then pass "golden-exit-$name"; else
		fail "golden-exit-$name" "exit $rc, wanted $want"; fi
	if diff -u "$tmp/want" "$tmp/got" >"$tmp/diff"; then pass "golden-$cmd-$name"; else
		fail "golden-$cmd-$name" "$(head -20 "$tmp/diff")"; fi
	# the text report's statements: each line between check-text-start/-end is in
	# it, none between check-text-absent-start/-end is (reasons, evidence, names)
	block "$spec" check-text-start check-text-end >"$tmp/text-want"
	block "$spec" check-text-absent-start check-text-absent-end >"$tmp/text-absent"
	if [ -s "$tmp/text-want" ] || [ -s "$tmp/text-absent" ]; then
		# shellcheck disable=SC2086 # opts holds separate options
		(cd "$(dirname "$c")" && "$B" "$cmd" -q $opts --format text "$(basename "$c")") >"$tmp/text" 2>&1
		bad=
		while IFS= read -r l; do
			grep -qF -- "$l" "$tmp/text" || bad="$bad
missing: $l"
		done <"$tmp/text-want"
		while IFS= read -r l; do
			grep -qF -- "$l" "$tmp/text" && bad="$bad
present: $l"
		done <"$tmp/text-absent"
		if [ -z "$bad" ]; then pass "golden-text-$name"; else
			fail "golden-text-$name" "$bad"; fi
	fi
done

# ---- golden rewrites, and every rewrite compiles and verifies --------------------
model=$tmp/model; mkdir -p "$model"
cp "$TOP/analyzer/parse/model/blkmig_model.h" "$model/"
for h in $(cat "$TOP/analyzer/parse/model/headers.list"); do
	mkdir -p "$model/$(dirname "$h")"
	echo '#include <blkmig_model.h>' >"$model/$h"
done
for c in "$cases"/*.fixed.c; do
	[ -e "$c" ] || continue
	name=$(basename "$c" .fixed.c)
	src=$cases/$name.c
	(cd "$cases" && "$EDITS" "$name.c") >"$tmp/$name.c" 2>"$tmp/err"
	if diff -u "$c" "$tmp/$name.c" >"$tmp/diff"; then pass "rewrite-$name"; else
		fail "rewrite-$name" "$(head -30 "$tmp/diff")"; fi
	# the converted file parses against the model (which has the 2.6.25 calls)
	if clang -fsyntax-only -std=gnu89 -nostdinc -I"$model" -Werror=implicit-function-declaration \
		-Wno-unused -Wno-unused-variable "$tmp/$name.c" 2>"$tmp/err"; then
		pass "rewrite-compiles-$name"
	else
		fail "rewrite-compiles-$name" "$(head -5 "$tmp/err")"
	fi
	# and verify finds no lock-variant race or deadlock in it
	# (against the original: an old lock bug the conversion kept is a warning)
	"$B" verify -q --format brief --original "$src" "$tmp/$name.c" >"$tmp/v" 2>&1
	if grep -Eq 'locked_variant_without_lock|unlocked_variant_with_lock_held' "$tmp/v"; then
		fail "rewrite-verifies-$name" "$(head -5 "$tmp/v")"
	else
		pass "rewrite-verifies-$name"
	fi
	# only manual sites' legacy calls remain
	# (a compat_branch call keeps the old API for old kernels on purpose: verify skips it)
	manual=$(cd "$cases" && "$B" scan -q --format brief "$name.c" | grep ' manual ' | grep -vc 'reason=compat_branch')
	left=$(grep -c 'legacy_call' "$tmp/v")
	[ "$manual" = "$left" ] && pass "rewrite-leaves-only-manual-$name" ||
		fail "rewrite-leaves-only-manual-$name" "manual $manual, legacy calls left $left"
done

# ---- issue 22: a non-static wrapper renamed `error` with its callers across files -----
# (cases/xwrap: fix's patch renames the parameter in the definition and both prototypes and
# converts the callers of the other files; the result applies and parses against the model)
mkdir -p "$tmp/xw" && cp -r "$cases/xwrap" "$tmp/xw/"
(cd "$tmp/xw" && "$B" fix -q --patch "$tmp/xw.patch" xwrap) >"$tmp/out" 2>&1
if diff -u "$cases/xwrap/expected.patch" "$tmp/xw.patch" >"$tmp/diff"; then
	pass xwrap-fix-patch-across-files
else
	fail xwrap-fix-patch-across-files "$(head -30 "$tmp/diff")"
fi
bad=
(cd "$tmp/xw" && patch -s -p1 <"$tmp/xw.patch") >"$tmp/err" 2>&1 || bad="patch: $(head -3 "$tmp/err")"
for f in xw_core xw_irq xw_proc; do
	clang -fsyntax-only -std=gnu89 -nostdinc -I"$model" -Werror=implicit-function-declaration \
		-Wno-unused "$tmp/xw/xwrap/$f.c" 2>"$tmp/err" || bad="$bad $f.c: $(head -3 "$tmp/err")"
done
[ -z "$bad" ] && pass xwrap-result-compiles || fail xwrap-result-compiles "$bad"
# given alone, the wrapper's directory is not walked as a whole: the exact E(u) stays
(cd "$cases" && "$B" scan -q --format brief xwrap/xw_core.c) >"$tmp/out" 2>&1
(cd "$cases" && "$B" scan -q xwrap/xw_core.c) >"$tmp/text" 2>&1
grep -q ' uptodate=errno_capable new=__blk_end_request(rq, uptodate > 0 ? 0 : (uptodate ? uptodate : -EIO), ' "$tmp/out" &&
	grep -q 'its directory xwrap was not walked as a whole' "$tmp/text" &&
	pass xwrap-single-file-keeps-uptodate || fail xwrap-single-file-keeps-uptodate "$(cat "$tmp/out" "$tmp/text")"
# in a kernel tree every file of the tree counts: one elsewhere in it that names the
# wrapper (not walked, not parsed) keeps the parameter; without it the group converts
xk=$tmp/xktree; mkdir -p "$xk/include/linux" "$xk/include/asm-x86" "$xk/drivers/block" "$xk/drivers/misc"
cp -r "$cases/xwrap" "$xk/drivers/block/"
"$B" scan -q --kernel-tree "$xk" "$xk/drivers/block/xwrap" >"$tmp/out" 2>&1
grep -q 'uptodate (wrapper_param: xw_end_request() is not static, but its callers are all known: .* every file of the kernel tree that names it was analysed' "$tmp/out" &&
	pass xwrap-kernel-tree-converts || fail xwrap-kernel-tree-converts "$(head -c 600 "$tmp/out")"
printf 'struct request;\nvoid xw_end_request(struct request *rq, int uptodate);\nvoid xw_misc(struct request *rq)\n{\n\txw_end_request(rq, 1);\n}\n' \
	>"$xk/drivers/misc/xw_other.c"
"$B" scan -q --kernel-tree "$xk" "$xk/drivers/block/xwrap" >"$tmp/out" 2>&1
grep -q 'uptodate (errno_capable: .*drivers/misc/xw_other.c names it and was not analysed' "$tmp/out" &&
	pass xwrap-kernel-tree-file-elsewhere-keeps-uptodate ||
	fail xwrap-kernel-tree-file-elsewhere-keeps-uptodate "$(head -c 600 "$tmp/out")"

# ---- verify --original: an old lock bug a conversion kept is a warning ------------
# (blkmig itself fixes it with blk_end_request; a hand conversion may keep the contract)
(cd "$cases" && "$EDITS" simple.c) >"$tmp/fixed.c" 2>/dev/null
grep -q '^	blk_end_request(rq,' "$tmp/fixed.c" && pass verify-fix-fixes-old-race ||
	fail verify-fix-fixes-old-race "simple_timeout not converted to blk_end_request"
sed '/simple_timeout/,/^}/s/^\tblk_end_request(/\t__blk_end_request(/' "$tmp/fixed.c" >"$tmp/old_bug.c"
expect verify-old-bug-without-original 1 "$B" verify -q --format brief "$tmp/old_bug.c"
grep -q ' simple_timeout locked_variant_without_lock$' "$tmp/out" &&
	pass verify-old-bug-fails-without-original || fail verify-old-bug-fails-without-original "$(cat "$tmp/out")"
expect verify-old-bug-with-original 0 "$B" verify -q --format brief --original "$cases/simple.c" "$tmp/old_bug.c"
grep -q ' simple_timeout preexisting_lock_bug$' "$tmp/out" && ! grep -q 'locked_variant_without_lock' "$tmp/out" &&
	pass verify-old-bug-is-a-warning || fail verify-old-bug-is-a-warning "$(cat "$tmp/out")"
# one more unlocked call in the same function than the original had: that one fails
sed '/simple_timeout/,/^}/s/^\t\(__blk_end_request(rq,.*\)$/\t__blk_end_request(rq, -EIO, 512);\n\t\1/' "$tmp/old_bug.c" >"$tmp/new_bug.c"
expect verify-new-bug-still-fails 1 "$B" verify -q --format brief --original "$cases/simple.c" "$tmp/new_bug.c"
[ "$(grep -c ' simple_timeout locked_variant_without_lock$' "$tmp/out")" = 1 ] &&
	[ "$(grep -c ' simple_timeout preexisting_lock_bug$' "$tmp/out")" = 1 ] &&
	pass verify-new-bug-named || fail verify-new-bug-named "$(cat "$tmp/out")"
expect verify-original-missing 2 "$B" verify -q --original "$tmp/nope.c" "$tmp/old_bug.c"

# ---- golden reports in every format ---------------------------------------------
for fmt in text json sarif; do
	ext=$fmt; [ $fmt = text ] && ext=txt
	# SARIF names the checkout (SRCROOT, helpUri) by absolute file: URIs: kept as @TOP@
	(cd "$cases" && "$B" scan -q --format $fmt pairs.c simple.c manual.c) 2>/dev/null |
		sed "s|file://$TOP/|file://@TOP@/|g" >"$tmp/r.$ext"
	if diff -u "$here/golden/report.$ext" "$tmp/r.$ext" >"$tmp/diff"; then pass "report-golden-$fmt"
	else fail "report-golden-$fmt" "$(head -20 "$tmp/diff")"; fi
done

# ---- a parse error blocks only what it touches, and each site says where it is ----------
(cd "$cases" && "$B" scan -q partial_parse.c) >"$tmp/pp.txt" 2>/dev/null
grep -A4 'end_request in p_request()' "$tmp/pp.txt" |
	grep -q 'parse errors: 2 error(s): 2 in broken() (line 27); none in p_request() or in the functions that call it$' &&
	grep -q 'end_request in p_request() -> .*confidence high' "$tmp/pp.txt" &&
	pass parse-errors-named-where-they-are || fail parse-errors-named-where-they-are "$(cat "$tmp/pp.txt")"
grep -q 'end_request in p_helper() -> .*confidence medium' "$tmp/pp.txt" &&
	grep -q "p_helper() parsed whole, but its caller broken() did not" "$tmp/pp.txt" &&
	pass parse-errors-in-a-caller-lower-confidence ||
	fail parse-errors-in-a-caller-lower-confidence "$(cat "$tmp/pp.txt")"
(cd "$cases" && "$B" scan -q --format json partial_parse.c simple.c) 2>/dev/null |
	python3 -c 'import json,sys; s=json.load(sys.stdin)["sites"]
sys.exit(not (all("parse_errors" in x for x in s if "partial_parse" in x["file"]) and
              not any("parse_errors" in x for x in s if "simple" in x["file"])))' &&
	pass parse-errors-json-only-where-there-are-some || fail parse-errors-json-only-where-there-are-some

# ---- malformed input --------------------------------------------------------------
printf '\x7fELF\x00\x01\x02binary\x00end_request(rq, 1);' >"$tmp/binary.c"
expect bad-binary 1 "$B" scan "$tmp/binary.c"
grep -q 'binary data' "$tmp/err" && pass bad-binary-msg || fail bad-binary-msg
# cut inside the body of the first function with completions
head -c 600 "$cases/pairs.c" >"$tmp/truncated.c"
expect bad-truncated 1 "$B" scan -q --format brief "$tmp/truncated.c"
grep -q 'end_that_request_first manual' "$tmp/out" && pass bad-truncated-site-reported ||
	fail bad-truncated-site-reported "$(cat "$tmp/out")"
expect bad-missing-path 2 "$B" scan "$tmp/does-not-exist.c"
grep -q 'cannot read' "$tmp/err" && pass bad-missing-path-msg || fail bad-missing-path-msg
expect bad-missing-among-good 2 "$B" scan -q "$cases/simple.c" "$tmp/nope"
mkdir -p "$tmp/empty"
expect bad-empty-dir 2 "$B" scan "$tmp/empty"
grep -q 'no C files' "$tmp/err" && pass bad-empty-dir-msg || fail bad-empty-dir-msg
printf 'int x = ;\n}}}\n' >"$tmp/garbage.c"
expect bad-garbage-no-legacy 0 "$B" scan -q "$tmp/garbage.c"
printf '#include <linux/nonexistent/deep.h>\n#include "local_missing.h"\nvoid f(struct request *rq) { end_request(rq, 1); }\n' >"$tmp/missing_inc.c"
expect bad-missing-includes 0 "$B" scan -q --format json "$tmp/missing_inc.c"
grep -q '"verdict": "auto"' "$tmp/out" && pass bad-missing-includes-still-analysed ||
	fail bad-missing-includes-still-analysed

# ---- prefilter --------------------------------------------------------------------
printf '/* end_request(rq, 1) only in a comment */\nint g(void) { return 0; }\n' >"$tmp/clean.c"
expect prefilter-clean 0 "$B" scan -q --format json --list-skipped "$tmp/clean.c"
grep -q '"status": "skipped"' "$tmp/out" && pass prefilter-skips-unparsed ||
	fail prefilter-skips-unparsed
# any legacy name outside comments makes a file parsed; the AST, not the word before the
# name, says the prototype is no call
printf '#define PF_ATTR
struct request;
void PF_ATTR end_request(struct request *, int);
' >"$tmp/proto.c"
expect prefilter-token-parses 0 "$B" scan -q --format json "$tmp/proto.c"
grep -q '"status": "ok"' "$tmp/out" && grep -q '"sites": \[\]' "$tmp/out" &&
	pass prefilter-token-parses-no-site || fail prefilter-token-parses-no-site "$(head -c 600 "$tmp/out")"

# ---- per-file isolation ---------------------------------------------------------------
mkdir -p "$tmp/iso"; cp "$cases/simple.c" "$tmp/iso/a_ok.c"; cp "$cases/simple.c" "$tmp/iso/b_boom.c"
BLKMIG_FAULT_INJECT=crash:b_boom expect isolation-crash 1 "$B" scan --format brief "$tmp/iso"
grep -q 'crashed' "$tmp/err" && grep -q 'a_ok.c' "$tmp/out" && pass isolation-crash-reported-run-continues ||
	fail isolation-crash-reported-run-continues "$(cat "$tmp/err")"
BLKMIG_FAULT_INJECT=hang:b_boom expect isolation-hang 1 "$B" scan --timeout 2 --format brief "$tmp/iso"
grep -q 'did not finish' "$tmp/err" && grep -q 'a_ok.c' "$tmp/out" && pass isolation-hang-reported-run-continues ||
	fail isolation-hang-reported-run-continues "$(cat "$tmp/err")"

# ---- missing headers: the run's parse children share one stub folder -----------------
# every file that needed a stub says so, not only the first to make it; and a parse
# whose stub another child made meanwhile is done again (stubrace: made right after the
# parse), never left with "file not found"
mkdir -p "$tmp/stubs"
for n in a b; do
	printf '#include <linux/blkdev.h>\n#include <vendor/hba_regs.h>\n\nstatic void %s_done(struct request *rq)\n{\n\tend_request(rq, 1);\n}\n' \
		"$n" >"$tmp/stubs/$n.c"
done
printf '#include <linux/blkdev.h>\n\nstatic void c_done(struct request *rq)\n{\n\tend_request(rq, 1);\n}\n' >"$tmp/stubs/c.c"
stub_reasons() { # SCAN-JSON: path=errors:reason of each file
	python3 -c 'import json, sys
for f in json.load(open(sys.argv[1]))["files"]:
    print("%s=%d:%s" % (f["path"].rsplit("/", 1)[1], f["parse"]["errors"], f["parse"].get("reason", "")))' "$1"
}
"$B" scan -q -j 1 --format json -o "$tmp/stubs.json" "$tmp/stubs"
stub_reasons "$tmp/stubs.json" >"$tmp/stubs.txt"
if grep -qx 'a.c=0:missing headers replaced by empty stubs' "$tmp/stubs.txt" &&
	grep -qx 'b.c=0:missing headers replaced by empty stubs' "$tmp/stubs.txt" &&
	grep -qx 'c.c=0:' "$tmp/stubs.txt"; then
	pass stubs-every-file-that-needed-one-says-so
else
	fail stubs-every-file-that-needed-one-says-so "$(tr '\n' ' ' <"$tmp/stubs.txt")"
fi
grep '^a.c=' "$tmp/stubs.txt" >"$tmp/stubs-a.txt"
BLKMIG_FAULT_INJECT=stubrace:a.c "$B" scan -q --format json -o "$tmp/stubrace.json" "$tmp/stubs/a.c"
stub_reasons "$tmp/stubrace.json" >"$tmp/stubrace.txt"
cmp -s "$tmp/stubs-a.txt" "$tmp/stubrace.txt" && pass stubs-made-by-another-parse-reparsed ||
	fail stubs-made-by-another-parse-reparsed "$(tr '\n' ' ' <"$tmp/stubrace.txt")"

# ---- function index: the functions the parse child lists are those a visit of the ---
# whole file finds (parse/func_index.c), macro-made ones included (macro_made.c)
"$B" scan -q --format json "$cases" "$TOP/samples" >"$tmp/fi-index.json" 2>&1
BLKMIG_WHOLE_FILE_VISIT=1 "$B" scan -q --format json "$cases" "$TOP/samples" \
	>"$tmp/fi-whole.json" 2>&1
if [ -s "$tmp/fi-index.json" ] && cmp -s "$tmp/fi-index.json" "$tmp/fi-whole.json"; then
	pass func-index-same-as-whole-file-visit
else
	fail func-index-same-as-whole-file-visit "$(diff "$tmp/fi-whole.json" "$tmp/fi-index.json" | head -5)"
fi

# how many units a run loaded again, from its BLKMIG_UNIT_STATS line on stderr (FILE)
loads_again() {
	sed -n 's/^blkmig: units loaded again: \([0-9]*\),.*/\1/p' "$1"
}

# ---- units let go and loaded again (parse/units.c): with one unit in memory past each
# checkpoint, every case and sample gives the report it gives with all of them kept ----
BLKMIG_RESIDENT_UNITS=0 "$B" scan -q --format json "$cases" "$TOP/samples" \
	>"$tmp/units-all.json" 2>&1
BLKMIG_RESIDENT_UNITS=1 BLKMIG_UNIT_STATS=1 BLKMIG_UNIT_TRACE=1 "$B" scan -q --format json \
	"$cases" "$TOP/samples" >"$tmp/units-one.json" 2>"$tmp/units-one.err"
loaded=$(loads_again "$tmp/units-one.err")
if [ -s "$tmp/units-all.json" ] && cmp -s "$tmp/units-all.json" "$tmp/units-one.json" &&
	[ "${loaded:-0}" -gt 0 ]; then
	pass units-let-go-and-loaded-again-same-report
else
	fail units-let-go-and-loaded-again-same-report \
		"loaded again: ${loaded:-none}; $(diff "$tmp/units-all.json" "$tmp/units-one.json" | head -5)"
fi

# ---- the parse child builds each file's functions (parse/func_model.c): the same
# reports as the parent building them from the saved AST, with fewer units loaded -------
BLKMIG_PARENT_BUILD=1 BLKMIG_RESIDENT_UNITS=1 BLKMIG_UNIT_STATS=1 "$B" scan -q --format json \
	"$cases" "$TOP/samples" >"$tmp/model-parent.json" 2>"$tmp/model-parent.err"
parent=$(loads_again "$tmp/model-parent.err")
if [ -s "$tmp/units-one.json" ] && cmp -s "$tmp/units-one.json" "$tmp/model-parent.json" &&
	[ "${loaded:-0}" -lt "${parent:-0}" ]; then
	pass functions-built-in-parse-child-same-report
else
	fail functions-built-in-parse-child-same-report \
		"loaded again: ${loaded:-none} child-built, ${parent:-none} parent-built; $(diff "$tmp/model-parent.json" "$tmp/units-one.json" | head -5)"
fi

# ---- fnptr.c reads the variables, parameters and operator types it follows from the node
# tree (struct decl_info, node tkind): the same reports as asking each unit, which loads
# units the node tree spares ---------------------------------------------------------
BLKMIG_FNPTR_CURSORS=1 BLKMIG_RESIDENT_UNITS=1 BLKMIG_UNIT_STATS=1 "$B" scan -q --format json \
	"$cases" "$TOP/samples" >"$tmp/fnptr-cursors.json" 2>"$tmp/fnptr-cursors.err"
cursors=$(loads_again "$tmp/fnptr-cursors.err")
if [ -s "$tmp/units-one.json" ] && cmp -s "$tmp/units-one.json" "$tmp/fnptr-cursors.json" &&
	[ "${loaded:-0}" -lt "${cursors:-0}" ]; then
	pass fnptr-reads-node-tree-same-report
else
	fail fnptr-reads-node-tree-same-report \
		"loaded again: ${loaded:-none} node tree, ${cursors:-none} cursors; $(diff "$tmp/fnptr-cursors.json" "$tmp/units-one.json" | head -5)"
fi

# ---- what fnptr.c found in a unit is kept between facts rounds (tunit.fnptr): the same
# reports as a run that asks the unit every round, with fewer units loaded again when
# fnptr.c asks the units (BLKMIG_FNPTR_CURSORS; from the node tree it loads none) --------
BLKMIG_NO_FNPTR_MEMO=1 BLKMIG_FNPTR_CURSORS=1 BLKMIG_RESIDENT_UNITS=1 BLKMIG_UNIT_STATS=1 \
	"$B" scan -q --format json "$cases" "$TOP/samples" >"$tmp/fnptr-asked.json" \
	2>"$tmp/fnptr-asked.err"
asked=$(loads_again "$tmp/fnptr-asked.err")
if [ -s "$tmp/units-one.json" ] && cmp -s "$tmp/units-one.json" "$tmp/fnptr-asked.json" &&
	[ "${cursors:-0}" -lt "${asked:-0}" ]; then
	pass fnptr-kept-between-rounds-same-report
else
	fail fnptr-kept-between-rounds-same-report \
		"loaded again: ${cursors:-none} kept, ${asked:-none} asked; $(diff "$tmp/fnptr-asked.json" "$tmp/units-one.json" | head -5)"
fi

# ---- a file parsed for the whole-tree facts alone keeps no AST (parse.c); one a question
# needs after all is parsed again (units.c). Every file so (BLKMIG_DEFER_EVERY_AST), and
# every file's AST kept: the same reports, and the first parses more again than a run
# that keeps the ASTs of the files with legacy calls ----------------------------------
BLKMIG_DEFER_EVERY_AST=1 BLKMIG_RESIDENT_UNITS=1 BLKMIG_UNIT_TRACE=1 "$B" scan -q --format json \
	"$cases" "$TOP/samples" >"$tmp/defer-all.json" 2>"$tmp/defer-all.err"
BLKMIG_SAVE_EVERY_AST=1 "$B" scan -q --format json "$cases" "$TOP/samples" \
	>"$tmp/save-all.json" 2>&1
again=$(grep -c '^blkmig: unit load: .* (parsed again)$' "$tmp/defer-all.err")
again_kept=$(grep -c '^blkmig: unit load: .* (parsed again)$' "$tmp/units-one.err")
if [ -s "$tmp/units-one.json" ] && cmp -s "$tmp/units-one.json" "$tmp/defer-all.json" &&
	cmp -s "$tmp/units-one.json" "$tmp/save-all.json" && [ "$again" -gt "$again_kept" ]; then
	pass ast-not-kept-parsed-again-same-report
else
	fail ast-not-kept-parsed-again-same-report \
		"parsed again: $again, $again_kept keeping some; $(diff "$tmp/defer-all.json" "$tmp/units-one.json" | head -3); $(diff "$tmp/save-all.json" "$tmp/units-one.json" | head -3)"
fi

# ---- a saved AST removed while the run goes on (a cleaner of $TMPDIR): the run says so
# and stops, exit 2, the file untouched and nothing of the run left in $TMPDIR ----------
mkdir -p "$tmp/astgone/tmpdir"
cp "$cases/simple.c" "$tmp/astgone/"
TMPDIR=$tmp/astgone/tmpdir BLKMIG_FAULT_INJECT=astgone:simple.c "$B" fix -q --in-place \
	"$tmp/astgone/simple.c" >"$tmp/astgone/out" 2>&1
rc=$?
if [ $rc = 2 ] && cmp -s "$cases/simple.c" "$tmp/astgone/simple.c" &&
	grep -q "simple.c: its saved parse .* is gone or cannot be read" "$tmp/astgone/out" &&
	[ -z "$(ls -A "$tmp/astgone/tmpdir")" ]; then
	pass saved-ast-gone-stops-the-run-cleanly
else
	fail saved-ast-gone-stops-the-run-cleanly \
		"exit $rc; $(head -c 300 "$tmp/astgone/out"); left: $(ls -A "$tmp/astgone/tmpdir")"
fi

# ---- each file's parse status is what happened to it: the caller file the tree pass
# parsed says it was parsed for the whole-tree facts only, the file it did not want (it
# names the helper in a comment and a string only, or blk_init_queue in a comment) says
# the prefilter skipped it (cases/callers) ------------------------------------------------------------------------
"$B" scan -q --format json --list-skipped "$cases/callers" >"$tmp/callers.json" 2>&1
if python3 - "$tmp/callers.json" >"$tmp/callers.err" 2>&1 <<'EOP'
import json, sys
files = {f["path"].rsplit("/", 1)[-1]: f["parse"] for f in json.load(open(sys.argv[1]))["files"]}
want = {
    "cal_done.c": ("ok", None),
    "cal_irq.c": ("ok", "no completion call; parsed for the whole-tree facts only"),
    "cal_unrelated.c": ("skipped", "no legacy completion call (prefilter)"),
    "cal_notes.c": ("skipped", "no legacy completion call (prefilter)"),
}
got = {k: (v["status"], v.get("reason")) for k, v in files.items()}
if got != want:
    sys.exit("got %r" % got)
EOP
then
	pass file-status-facts-only-and-skipped
else
	fail file-status-facts-only-and-skipped "$(cat "$tmp/callers.err")"
fi

# ---- grep cross-check: scan finds exactly what grep finds outside comments/strings --
legacy='\b(end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request)[[:space:]]*\('
for c in "$cases"/*.c $(find "$cases" -mindepth 2 -name "*.c"); do
	case $c in *.fixed.c|*verify_*) continue ;; esac
	# strip comments (the preprocessor in -fpreprocessed mode keeps everything else) and strings
	# (definitions and prototypes start at column 0; calls never do in these files)
	g=$(gcc -fpreprocessed -dD -E -P "$c" 2>/dev/null | sed -e 's/"\([^"\\]\|\\.\)*"/""/g' |
		grep -v '^[A-Za-z_]' | grep -oE "$legacy" | wc -l)
	s=$("$B" scan -q --format brief "$c" | grep -vcE ' preexisting_(lock_bug|unended_request)$')
	[ "$g" = "$s" ] && pass "grep-crosscheck-$(basename "$c" .c)" ||
		fail "grep-crosscheck-$(basename "$c" .c)" "grep $g, scan $s"
done

# ---- compilation database and kernel-tree modes ---------------------------------
mkdir -p "$tmp/db"
cat >"$tmp/db/dbcase.c" <<'EOT'
#include <linux/blkdev.h>
void db_done(struct request *rq)
{
#ifdef DB_FEATURE
	end_request(rq, 1);
#endif
}
EOT
cat >"$tmp/db/compile_commands.json" <<EOT
[ { "directory": "$tmp/db", "file": "$tmp/db/dbcase.c",
    "command": "gcc -DDB_FEATURE -I$model -fconserve-stack -c dbcase.c -o dbcase.o" } ]
EOT
"$B" scan -q --format brief "$tmp/db/dbcase.c" >"$tmp/o1"
"$B" scan -q --format brief -p "$tmp/db" "$tmp/db/dbcase.c" >"$tmp/o2"
grep -q 'reason=unparsed' "$tmp/o1" && grep -q ' auto ' "$tmp/o2" && pass compdb-flags-used ||
	fail compdb-flags-used "without: $(cat "$tmp/o1") with: $(cat "$tmp/o2")"
expect compdb-missing 2 "$B" scan -p "$tmp/empty" "$tmp/db/dbcase.c"
# used_model says whether blkmig's model headers stood in for a header: with every header
# found on the user's own paths it is false (it was always true outside model mode once)
mkdir -p "$tmp/own/linux"
printf 'struct request { int errors; };\nvoid end_request(struct request *rq, int u);\n' \
	>"$tmp/own/linux/blkdev.h"
printf '#include <linux/blkdev.h>\nvoid own_done(struct request *rq) { end_request(rq, 1); }\n' \
	>"$tmp/own/owncase.c"
"$B" scan -q --format json -I "$tmp/own" "$tmp/own/owncase.c" >"$tmp/o3"
printf '#include <linux/genhd.h>\n' | cat - "$tmp/own/owncase.c" >"$tmp/own/owncase2.c"
"$B" scan -q --format json -I "$tmp/own" "$tmp/own/owncase2.c" >"$tmp/o4"
grep -q '"used_model": false' "$tmp/o3" && grep -q '"used_model": true' "$tmp/o4" &&
	pass used-model-only-when-included ||
	fail used-model-only-when-included "own headers: $(grep -o '"used_model": [a-z]*' "$tmp/o3"), missing one: $(grep -o '"used_model": [a-z]*' "$tmp/o4")"
# an unconfigured old tree: include/linux without blkdev.h, include/asm-x86 but no include/asm
kt=$tmp/tree; mkdir -p "$kt/include/linux" "$kt/include/asm-x86" "$kt/drivers/block"
printf '#ifndef KT_TYPES\n#define KT_TYPES\ntypedef unsigned int kt_u32;\n#endif\n' >"$kt/include/linux/kt_types.h"
printf '#include <linux/kt_types.h>\nstatic inline kt_u32 kt_inl(void) { return 0; }\n' >"$kt/include/asm-x86/kt_io.h"
cat >"$kt/drivers/block/ktdrv.c" <<'EOT'
#include <linux/autoconf.h>
#include <linux/blkdev.h>
#include <asm/kt_io.h>
static DEFINE_SPINLOCK(kt_lock);
static void kt_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);
	kt_u32 v = kt_inl();
	end_request(rq, v == 0);
}
static int kt_init(void) { blk_init_queue(kt_request, &kt_lock); return 0; }
EOT
expect kernel-tree-unconfigured 0 "$B" scan -q --format json --kernel-tree "$kt" "$kt/drivers"
grep -q '"used_model": true' "$tmp/out" && grep -q '"errors": 0' "$tmp/out" &&
	grep -q '"state": "held"' "$tmp/out" && pass kernel-tree-model-and-asm ||
	fail kernel-tree-model-and-asm "$(grep -E 'status|errors|state' "$tmp/out" | head)"

# a kernel tree found by itself, its files parsed for their own architecture with a
# generated configuration: arch zz is chosen from the Kconfig dependency of the
# driver's Makefile symbol; its defconfig turns on the code path that parses
zt=$tmp/ztree; mkdir -p "$zt/include/linux" "$zt/include/asm-x86" "$zt/include/asm-zz" \
	"$zt/arch/zz/configs" "$zt/arch/x86/configs" "$zt/drivers/block"
printf 'VERSION = 2\nPATCHLEVEL = 6\nSUBLEVEL = 24\n' >"$zt/Makefile"
printf '/* kernel.h */\n' >"$zt/include/linux/kernel.h"
printf 'config ZZ_BUS\n\tdef_bool y\n' >"$zt/arch/zz/Kconfig"
printf 'config X86_64\n\tdef_bool y\n' >"$zt/arch/x86/Kconfig"
printf 'CONFIG_X86_64=y\n' >"$zt/arch/x86/configs/x86_64_defconfig"
printf 'CONFIG_ZZ_BUS=y\nCONFIG_ZZ_BLK=m\nCONFIG_ZZ_FIFO_DEPTH=4\n' >"$zt/arch/zz/defconfig"
printf 'config ZZ_BLK\n\ttristate "zz disk"\n\tdepends on ZZ_BUS && BLOCK\n' \
	>"$zt/drivers/block/Kconfig"
printf 'obj-$(CONFIG_ZZ_BLK) += zzdrv.o\n' >"$zt/drivers/block/Makefile"
printf 'typedef unsigned short zz_reg_t;\nstatic inline zz_reg_t zz_in(void) { return 0; }\n' \
	>"$zt/include/asm-zz/zz_io.h"
cat >"$zt/drivers/block/zzdrv.c" <<'EOT'
#include <linux/blkdev.h>
#include <asm/zz_io.h>
static DEFINE_SPINLOCK(zz_lock);
static void zz_request(struct request_queue *q)
{
	struct request *rq = elv_next_request(q);
#if defined(CONFIG_ZZ_FIFO_DEPTH) && defined(CONFIG_ZZ_BLK_MODULE)
	zz_reg_t v = zz_in();
#else
	zz_reg_t v = not_configured;
#endif
	end_request(rq, v == 0);
}
static int zz_init(void) { blk_init_queue(zz_request, &zz_lock); return 0; }
EOT
expect kernel-tree-detected 0 "$B" scan --format json "$zt/drivers/block"
grep -q 'is a kernel tree' "$tmp/err" && grep -q '"errors": 0' "$tmp/out" &&
	grep -q '"typed": true' "$tmp/out" && grep -q '"state": "held"' "$tmp/out" &&
	pass kernel-tree-arch-and-config ||
	fail kernel-tree-arch-and-config "$(cat "$tmp/err"; grep -E 'errors|typed|state' "$tmp/out")"
expect kernel-tree-not-a-dir 2 "$B" scan --kernel-tree "$zt/Makefile" "$zt/drivers"

# ---- -j: the same result with one and two workers -------------------------------------
"$B" scan -q -j 1 --format json "$cases" >"$tmp/j1" 2>/dev/null
"$B" scan -q -j 2 --format json "$cases" >"$tmp/j2" 2>/dev/null
cmp -s "$tmp/j1" "$tmp/j2" && pass jobs-deterministic || fail jobs-deterministic

# ---- style: the analyzer part's own files are cppcheck-clean and clang-formatted -------
# (not in the sanitizer rerun, tests/sanitize: no binary runs here)
if [ -z "${SANITIZE_RUN:-}" ]; then
# every analyzer source, in analyzer/ and its stage folders (cli parse facts convert report)
files=$(ls "$TOP"/analyzer/*.[ch] "$TOP"/analyzer/*/*.[ch])
incs=$(for d in "$TOP"/analyzer "$TOP"/analyzer/*/; do echo "-I$d"; done)
if command -v cppcheck >/dev/null; then
	check lint-cppcheck cppcheck --quiet --enable=warning,portability --std=c11 -D_GNU_SOURCE \
		--include="$TOP/tests/analyzer/cppcheck-defs.h" \
		--error-exitcode=1 $incs $(grep '\.c$' <<<"$files")
fi
# the stages use only the stages below them (issue 24; layers.sh prints each upward edge)
check lint-layers bash "$here/layers.sh" "$TOP" "$BUILD"
if command -v clang-format >/dev/null; then
	check lint-clang-format clang-format --style=file:"$TOP/analyzer/.clang-format" --dry-run \
		--Werror $files
fi
fi

# ---- unit tests (C) -------------------------------------------------------------------
# with the Coccinelle part's cases present (tests/cocci/cases, after the merge into main),
# the unit run also cross-checks every site both tools convert
cocci_cases=; [ -d "$TOP/tests/cocci/cases" ] && cocci_cases=$TOP/tests/cocci/cases
(cd "$tmp" && "$UNIT" "$cases" $cocci_cases) >"$tmp/unit.out" 2>&1
while read -r verdict tname rest; do
	case $verdict in
	ok) pass "unit-$tname" ;;
	FAIL) fail "unit-$tname" "$rest" ;;
	esac
done <"$tmp/unit.out"
grep -qE '^[0-9]+ passed, 0 failed$' "$tmp/unit.out" && pass unit-harness ||
	fail unit-harness "$(tail -3 "$tmp/unit.out")"

finish
