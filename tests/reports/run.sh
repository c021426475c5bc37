#!/bin/bash
# tests/reports/run.sh — runner of suite `reports`: every statement a report makes (parse
# status, verdict, reason, path, line, count, file outcome) is checked against the user's
# original files; every format is checked against its schema (analyzer/report.schema.json,
# the official SARIF 2.1.0 schema) and SARIF against GitHub's ingestion rules (SARIF
# Multitool); the review page is rendered and clicked in headless Chromium.
# With ../shared/corpus present, the same checks run on the Linux 2.6.24 tree.
set -u
SUITE=reports
TOP=${TOP:?}
BUILD=${BUILD:?}
source "$TOP/tests/lib/testlib.sh"
B=${BLKMIG:-$BUILD/blkmig}
export BLKMIG_COCCI_DIR=${BLKMIG_COCCI_DIR:-$TOP/cocci}
HERE=$TOP/tests/reports
CASES=$HERE/cases
SCHEMA=$TOP/analyzer/report.schema.json
SARIF_SCHEMA=${SARIF_SCHEMA:-$BUILD/sarif-tools/sarif-schema-2.1.0.json}
SARIF_MULTITOOL=${SARIF_MULTITOOL:-$BUILD/sarif-tools/node_modules/@microsoft/sarif-multitool-linux/Sarif.Multitool}
ART=$BUILD/reports-artifacts
mkdir -p "$BUILD/reports" "$ART"
W=$(mktemp -d "$BUILD/reports/run.XXXXXX")
trap 'rm -rf "$W"' EXIT
JSON_REPORTS=()
SARIF_REPORTS=()

# py CODE ARGS...: a small python check; prints what is wrong, exits 1 if anything
py() { python3 -c "$@"; }

# ---- 1. parse status is true: `int x = ;` inside the function with the call -----------
"$B" scan -q --format json "$CASES/syntax_in_function.c" > "$W/sif.json"
JSON_REPORTS+=("$W/sif.json")
check parse-status/syntax-error-in-function py '
import json, sys
d = json.load(open(sys.argv[1])); f = d["files"][0]; s = d["sites"][0]
bad = []
if f["parse"]["status"] != "partial" or f["parse"]["errors"] < 1: bad.append("parse %r" % f["parse"])
if not any(":9:" in x for x in f["parse"]["diagnostics"]): bad.append("no diagnostic at line 9")
if s["typed"]: bad.append("site typed although its function has a parse error")
print("\n".join(bad)); sys.exit(bool(bad))' "$W/sif.json"
"$B" scan -q "$CASES/syntax_in_function.c" > "$W/sif.txt"
check parse-status/text-says-so grep -qE '^[^ ]*syntax_in_function.c:[0-9]+:1: warning: parsed with 1 error' "$W/sif.txt"
check parse-status/text-cites-the-error grep -qE 'syntax_in_function.c:9:[0-9]+: note: parse error: ' "$W/sif.txt"

# ---- 1b. the reason of a site is true of the code: which final step follows, which data
# completion is above it, on which request expression (cases/reasons/pairing.c) ----------
PAIR=$CASES/reasons/pairing.c
(cd "$CASES/reasons" && "$B" scan -q --format json -o "$W/pair.json" pairing.c
	"$B" scan -q -o "$W/pair.txt" pairing.c
	"$B" scan -q --format sarif -o "$W/pair.sarif" pairing.c) 2>/dev/null
JSON_REPORTS+=("$W/pair.json")
SARIF_REPORTS+=("$W/pair.sarif")
# pair_reason FUNCTION CALL-TEXT CODE MUST-MATCH: the site whose original line holds
# CALL-TEXT has reason CODE and a message matching MUST-MATCH (with @L@ the line of the
# call the message must name) in JSON, text and SARIF alike
pair_reason() {
	local line other
	line=$(grep -nF "$2" "$PAIR" | head -1 | cut -d: -f1)
	other=$(grep -nF "$5" "$PAIR" | head -1 | cut -d: -f1)
	py '
import json, re, sys
jpath, tpath, spath, func, line, code, pat, other = sys.argv[1:9]
pat = pat.replace("@L@", other)
bad = []
s = [x for x in json.load(open(jpath))["sites"] if x["line"] == int(line) and x["function"] == func]
if len(s) != 1 or s[0]["reason"]["code"] != code or not re.search(pat, s[0]["reason"]["text"]):
    bad.append("json: %s" % [(x["reason"]) for x in s])
txt = [l for l in open(tpath) if re.match(r"pairing\.c:%s:\d+: warning: " % line, l)]
tpat = r"left for manual review: " + pat.lstrip("^")
if len(txt) != 1 or not txt[0].rstrip().endswith("[%s]" % code) or not re.search(tpat, txt[0]):
    bad.append("text: %s" % txt)
res = [r for r in json.load(open(spath))["runs"][0]["results"]
       if r["locations"][0]["physicalLocation"]["region"]["startLine"] == int(line)]
if len(res) != 1 or res[0]["ruleId"] != code or not re.search(pat.lstrip("^"), res[0]["message"]["text"]):
    bad.append("sarif: %s" % [(r["ruleId"], r["message"]["text"][:100]) for r in res])
print("\n".join(bad)); sys.exit(bool(bad))' "$W/pair.json" "$W/pair.txt" "$W/pair.sarif" "$1" "$line" "$3" "$4" "$other"
}
# a second data completion before a final step that follows: not "no final step follows"
check reason/further-completion-names-the-last-that-follows pair_reason pr_complete \
	'if (!end_that_request_first(rq, ok, rq->hard_nr_sectors - hdr))' shape \
	'^a further data completion .* before the final step \(end_that_request_last at line @L@\)' \
	'end_that_request_last(rq, ok);'
# a data completion on another spelling of the request: the final step that follows is named
check reason/chunk-names-the-last-that-follows pair_reason pr_done \
	'end_that_request_chunk(dev->cur, 1, bytes)' shape \
	"the end_that_request_last that follows in pr_done\(\) \(line @L@\) ends 'req', not 'dev->cur'" \
	'end_that_request_last(req, 1);'
# its final step, four lines below: not last_may_have_data, the chunk above is named
check reason/last-names-the-chunk-above pair_reason pr_done \
	'end_that_request_last(req, 1);' shape \
	"^end_that_request_chunk at line @L@ in pr_done\(\) ends 'dev->cur'" \
	'end_that_request_chunk(dev->cur, 1, bytes)'
# nor is its pattern last_only ("no data completion before it")
check reason/last-pattern-not-last-only py '
import json, sys
s = [x for x in json.load(open(sys.argv[1]))["sites"] if x["function"] == "pr_done" and x["call"] == "end_that_request_last"]
print(s and s[0]["pattern"]); sys.exit(len(s) != 1 or s[0]["pattern"] == "last_only")' "$W/pair.json"
# where no final step follows in the function, saying so stays true
check reason/no-last-follows-where-none-does pair_reason pr_partial \
	'return end_that_request_chunk(rq, 1, bytes);' shape \
	"^no end_that_request_last for 'rq' follows in pr_partial\(\)" \
	'return end_that_request_chunk(rq, 1, bytes);'
# no site of this file is told last_may_have_data or "finished elsewhere"
check reason/no-false-codes bash -c "! grep -E 'last_may_have_data|finished elsewhere' '$W/pair.txt' '$W/pair.json' '$W/pair.sarif'"
check reason/statements-true python3 "$HERE/truth.py" "$W/pair.json" "$CASES/reasons"

# ---- 2. compiler-form text for scan and verify, one line per site ---------------------
# every line that is not indented detail, blank or the summary is FILE:LINE:COL: LEVEL: MSG [code]
# (a parse error is told as a note under its file's warning, like gcc's notes; a converted
# site is a remark: no note stands without a warning before it, issue 23)
compiler_form() { # FILE EXPECTED_SITE_LINES
	local bad
	# (and each located piece of a manual site's evidence is a note right after its warning)
	bad=$(grep -vE '^(    |$|summary: )' "$1" |
		awk '/^[^ :]+:[0-9]+:[0-9]+: warning: / { w = 1; print; next }
			w && /^[^ :]+:[0-9]+:[0-9]+: note: / { next } { w = 0; print }' |
		grep -vE '^[^ :]+:[0-9]+:[0-9]+: (remark|warning|error): .* \[[a-z_]+\]$' |
		grep -vE '^[^ :]+:[0-9]+:[0-9]+: note: parse error: ')
	[ -z "$bad" ] || { echo "not in compiler form: $bad" | head -5; return 1; }
	n=$(grep -cE '^[^ :]+:[0-9]+:[0-9]+: (remark|warning|error): end_(that_request_(first|chunk|last)|request|queued_request|dequeued_request) in ' "$1")
	[ "$n" = "$2" ] || { echo "$n site lines, $2 sites"; return 1; }
}
(cd "$TOP/tests/analyzer/cases" && "$B" scan -q . > "$W/cases.txt" 2>/dev/null;
	"$B" scan -q --format json -o - . > "$W/cases.json" 2>/dev/null)
JSON_REPORTS+=("$W/cases.json")
nsites=$(py 'import json,sys; print(len(json.load(open(sys.argv[1]))["sites"]))' "$W/cases.json")
check text/scan-compiler-form compiler_form "$W/cases.txt" "$nsites"
(cd "$TOP/tests/analyzer/cases" && "$B" verify -q . > "$W/verify.txt" 2>/dev/null;
	"$B" verify -q --format json -o - . > "$W/verify.json" 2>/dev/null)
JSON_REPORTS+=("$W/verify.json")
check text/verify-compiler-form compiler_form "$W/verify.txt" 0
nfind=$(py 'import json,sys; print(len(json.load(open(sys.argv[1]))["findings"]))' "$W/verify.json")
nerr=$(grep -cE '^[^ :]+:[0-9]+:[0-9]+: (warning|error): .*\[(legacy_call|locked_variant_without_lock|unlocked_variant_with_lock_held|preexisting_lock_bug|preexisting_unended_request)\]$' "$W/verify.txt")
[ "$nfind" = "$nerr" ] && [ "$nfind" -gt 0 ] && pass text/verify-one-line-per-finding ||
	fail text/verify-one-line-per-finding "$nerr lines, $nfind findings"
# -o - is standard output, in every format
for fmt in text json sarif brief; do
	(cd "$W" && "$B" scan -q --format $fmt -o - "$CASES/syntax_in_function.c") > "$W/o.$fmt" 2>/dev/null
	(cd "$W" && "$B" scan -q --format $fmt "$CASES/syntax_in_function.c") > "$W/s.$fmt" 2>/dev/null
	[ -s "$W/o.$fmt" ] && cmp -s "$W/o.$fmt" "$W/s.$fmt" && [ ! -e "$W/-" ] &&
		pass "cli/dash-o-stdout-$fmt" || fail "cli/dash-o-stdout-$fmt"
done

# ---- 3. migrate: file outcomes, original paths and lines, in every format -------------
mkdir -p "$W/t"
cp "$CASES"/*.c "$W/t/"
cp -r "$W/t" "$W/t.orig"
(cd "$W" && "$B" migrate -q --patch out.patch --report rep --root t t) > "$W/mig.log" 2>&1
JSON_REPORTS+=("$W/rep/report.json")
SARIF_REPORTS+=("$W/rep/report.sarif")
cp "$W/rep/report.html" "$ART/cases-report.html"
# half-converted: the file with an unparsable call is left whole, and every format says so
check half/patch-leaves-file-alone bash -c "! grep -q 'half_broken.c' '$W/out.patch'"
check half/json-outcome py '
import json, sys
d = json.load(open(sys.argv[1]))
f = [x for x in d["files"] if x["path"].endswith("half_broken.c")][0]
o = f.get("outcome", {})
ok = o.get("status") == "left_untouched" and o.get("code") == "unparsed" and "mix" in o.get("text", "")
ok = ok and all(s["verdict"] == "manual" and not s["edits"] for s in d["sites"] if s["file"] == f["path"])
ok = ok and d["summary"]["files_left_by_reason"].get("unparsed") == 1
sys.exit(not ok)' "$W/rep/report.json"
check half/text-outcome grep -qE '^t/half_broken.c:[0-9]+:1: warning: file left untouched: .* \[unparsed\]$' "$W/rep/report.txt"
check half/text-summary grep -qE '[0-9]+ file\(s\) left untouched \((.*, )?unparsed 1[,)]' "$W/rep/report.txt"
check half/sarif-outcome py '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
sys.exit(not any(x["ruleId"] == "unparsed" and x["message"]["text"].startswith("file left untouched") and
    x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "half_broken.c" for x in r))' "$W/rep/report.sarif"
check half/html-outcome grep -qE '<table id="left">.*' "$W/rep/report.html"
# (the page names files relative to --root, as the report does)
check half/html-lists-file bash -c "sed -n '/<table id=\"left\">/,/<\/table>/p' '$W/rep/report.html' | grep -q '<td>half_broken.c</td>'"
check parse-status/html-lists-partial-file bash -c "sed -n '/<table id=\"files\">/,/<\/table>/p' '$W/rep/report.html' | grep -q '<td>syntax_in_function.c</td>'"
# no report names migrate's private copy; every line it cites is the original's
check origin/no-private-paths bash -c "! grep -lE 'blkmig(-migrate|\\.[0-9]+)?\\.[A-Za-z0-9]{6}/' '$W'/rep/report.* '$W/mig.log'"
origin_lines() {
	local first hook
	first=$(grep -n 'if (!end_that_request_first(rq, 1, rq->nr_sectors))$' "$W/t/shifted.c" | tail -1 | cut -d: -f1)
	hook=$(grep -n '= sh_done;' "$W/t/shifted.c" | cut -d: -f1)
	py '
import json, sys
d = json.load(open(sys.argv[1])); first, hook = sys.argv[2], sys.argv[3]
s = [s for s in d["sites"] if s["file"].endswith("shifted.c") and s["function"] == "sh_done"
     and s["call"] == "end_that_request_first"][0]
bad = []
if str(s["line"]) != first: bad.append("site line %s, original %s" % (s["line"], first))
if not any("shifted.c:%s" % hook in e for e in s["lock"]["evidence"]):
    bad.append("evidence line: %s" % s["lock"]["evidence"])
print("\n".join(bad)); sys.exit(bool(bad))' "$W/rep/report.json" "$first" "$hook"
}
check origin/reason-lines-are-original origin_lines
# the old race the conversion fixes (blk_end_request: issue 20) is told at the
# original's lines, and leaves no verify finding behind
verify_lines() {
	local timer
	timer=$(grep -n 'setup_timer(' "$W/t/verify_race.c" | cut -d: -f1)
	py '
import json, sys
d = json.load(open(sys.argv[1])); timer = sys.argv[2]
f = [x for x in d["findings"] if x["file"].endswith("verify_race.c")]
s = [x for x in d["sites"] if x["file"].endswith("verify_race.c") and x["function"] == "vr_times_out"][0]
ev = [e for e in s["lock"]["evidence"] if e.startswith("old_lock_bug_fixed:")]
ok = not f and s["verdict"] == "auto" and s["after"].lstrip().startswith("blk_end_request(") \
    and ev and "verify_race.c:%s)" % timer in ev[0]
print(f, s["lock"]["evidence"], s["after"]); sys.exit(not ok)' "$W/rep/report.json" "$timer"
}
check origin/verify-lines-are-original verify_lines
# a call only spatch could read (a branch the parse does not compile): the analysis
# cannot prove spatch's rewrite exact, so it is not taken (issue 20: a conversion only
# where the analysis proves it); the site says why and the file stays as it was
check spatch-only/left-with-the-reason py '
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["sites"] if x["file"].endswith("spatch_only.c") and x["line"] == 15][0]
f = [x for x in d["files"] if x["path"].endswith("spatch_only.c")][0]
ok = s["verdict"] == "manual" and s["reason"]["code"] == "unparsed" and not s["edits"] \
    and (f.get("outcome") or {}).get("status") == "left_untouched"
sys.exit(not ok)' "$W/rep/report.json"
check spatch-only/not-in-the-patch bash -c "! grep -q '^+++ .*spatch_only.c' '$W/out.patch'"
check spatch-only/sarif-no-fix py '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]["results"]
x = [x for x in r if x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "spatch_only.c"
     and x["locations"][0]["physicalLocation"]["region"]["startLine"] == 15][0]
sys.exit(not (x["ruleId"] != "convert" and not x.get("fixes")))' "$W/rep/report.sarif"
check migrate/input-untouched diff -r "$W/t.orig" "$W/t"
# report.json names files relative to --root as SARIF does (issue 23): "root" says which,
# every path and every FILE:LINE of evidence and messages is relative to it
check json/paths-relative-to-root py '
import json, os, re, sys
d = json.load(open(sys.argv[1])); base = sys.argv[2]
bad = []
if d.get("root") != "t": bad.append("root %r" % d.get("root"))
paths = [f["path"] for f in d["files"]] + [s["file"] for s in d["sites"]] + [s["id"] for s in d["sites"]] \
    + [e["file"] for s in d["sites"] for e in s["edits"]] + [x["file"] for x in d["findings"]]
bad += ["path %s" % p for p in paths if p.startswith(("t/", "/"))]
bad += ["%s: no such file under the root" % s["file"] for s in d["sites"] if not os.path.isfile(os.path.join(base, d.get("root", ""), s["file"]))]
texts = [e for s in d["sites"] for e in s["lock"]["evidence"]] + [s["reason"]["text"] for s in d["sites"] if "reason" in s] \
    + [g for f in d["files"] for g in f["parse"]["diagnostics"]] + [f.get("outcome", {}).get("text", "") for f in d["files"]]
bad += ["text names t/: " + t[:100] for t in texts if re.search(r"(^|[ (])t/\w", t)]
if not any(re.search(r"at half_broken\.c:\d+", t) for t in texts): bad.append("no evidence at half_broken.c:N")
print("\n".join(bad[:10])); sys.exit(bool(bad))' "$W/rep/report.json" "$W"
# the files without a legacy call are a count (summary.files_skipped), listed only with
# --list-skipped; the review page counts them as before
mkdir -p "$W/sk/d"
cp "$CASES/shifted.c" "$W/sk/d/"
printf '/* end_request(rq, 1) only in a comment */\nint sk_clean(void) { return 0; }\n' > "$W/sk/d/clean.c"
(cd "$W/sk" && "$B" migrate -q --patch out.patch --report rep d &&
	"$B" scan -q --format json -o all.json --list-skipped d) > /dev/null 2>&1
JSON_REPORTS+=("$W/sk/rep/report.json" "$W/sk/all.json")
check json/skipped-counted py '
import json, sys
d, a = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
st = lambda doc: sorted((f["path"], f["parse"]["status"]) for f in doc["files"])
ok = st(d) == [("d/shifted.c", "ok")] and d["summary"]["files_skipped"] == 1 and d["summary"]["files_scanned"] == 2
ok = ok and st(a) == [("d/clean.c", "skipped"), ("d/shifted.c", "ok")] and a["summary"]["files_skipped"] == 1
print(st(d), st(a), d["summary"].get("files_skipped")); sys.exit(not ok)' "$W/sk/rep/report.json" "$W/sk/all.json"
check html/skipped-counted bash -c "grep -q '<td data-key=\"files\">2</td>' '$W/sk/rep/report.html' &&
	grep -q '<p id=\"skipped\">1 files without a legacy token' '$W/sk/rep/report.html'"
# --format and -o - for migrate too: the same report on standard output
(cd "$W" && "$B" migrate -q --check --format json -o - --root t t) > "$W/mig-stdout.json" 2>/dev/null
check migrate/format-to-stdout cmp "$W/mig-stdout.json" "$W/rep/report.json"
# the uptodate classes JSON may carry are the ones REPORT.md documents
check json/uptodate-classes-documented py '
import json, re, sys
sch = json.load(open(sys.argv[1]))
classes = sch["$defs"]["site"]["properties"]["uptodate"]["properties"]["class"]["enum"]
doc = open(sys.argv[2]).read()
missing = [c for c in classes if not re.search(r"`%s`" % c, doc)]
print(missing); sys.exit(bool(missing))' "$SCHEMA" "$TOP/analyzer/REPORT.md"

# ---- 3b. migrate --in-place --headers, a driver with a helper header: what every
# report says was converted, left and counted is what happened to the files ------------
mkdir -p "$W/hh"
cp -r "$CASES/helper_header" "$W/hh/drv"
cp -r "$CASES/helper_header" "$W/hh/drv.orig"
(cd "$W/hh" && "$B" migrate -q --in-place --headers --report rep drv) > "$W/hh.log" 2>&1
JSON_REPORTS+=("$W/hh/rep/report.json")
SARIF_REPORTS+=("$W/hh/rep/report.sarif")
check headers/outcomes-are-what-happened python3 "$HERE/outcome.py" "$W/hh/rep/report.json" "$W/hh" drv=drv.orig
check headers/statements-true python3 "$HERE/truth.py" "$W/hh/rep/report.json" "$W/hh" --map drv=drv.orig
# request.c was rewritten: every format counts its four sites converted
headers_counts() {
	local conv
	conv=$(cd "$W/hh" && diff drv.orig/request.c drv/request.c | grep -c '^< .*end_\(that_\)\?request')
	py '
import json, re, sys
d = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read(); log = open(sys.argv[3]).read()
sar = json.load(open(sys.argv[4]))["runs"][0]["results"]; html = open(sys.argv[5]).read()
conv = int(sys.argv[6])
rq = [s for s in d["sites"] if s["file"] == "drv/request.c"]
auto = sum(1 for s in rq if s["verdict"] == "auto")
bad = []
if auto != len(rq) or auto != conv: bad.append("json: %d of %d request.c sites auto, %d calls rewritten" % (auto, len(rq), conv))
if d["summary"]["auto"] != auto: bad.append("json summary auto %s" % d["summary"]["auto"])
m = re.search(r"(\d+) site\(s\): (\d+) auto, (\d+) manual", txt)
if not m or int(m.group(2)) != d["summary"]["auto"] or int(m.group(3)) != d["summary"]["manual"]: bad.append("text summary")
m = re.search(r"(\d+) sites: (\d+) converted in (\d+) file", log)
if not m or int(m.group(2)) != d["summary"]["auto"] or int(m.group(3)) != 1: bad.append("stderr summary: %s" % (m and m.group(0)))
if sum(1 for r in sar if r["ruleId"] == "convert" and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "drv/request.c") != len(rq):
    bad.append("sarif: request.c results not all convert")
if html.count("<section class=\"site auto") != d["summary"]["auto"]: bad.append("html auto sections")
print("\n".join(bad)); sys.exit(bool(bad))' "$W/hh/rep/report.json" "$W/hh/rep/report.txt" "$W/hh.log" \
		"$W/hh/rep/report.sarif" "$W/hh/rep/report.html" "$conv"
}
check headers/counts-in-every-format headers_counts

# ---- 3c. verify --original maps every PATH to its original, a file PATH as well as a
# directory's files; what it cannot map is an error, not a silent failure ---------------
mkdir -p "$W/vo/orig" "$W/vo/conv" "$W/vo/extra"
cp "$CASES/verify_race.c" "$W/vo/orig/"
cp "$CASES/verify_race.c" "$W/vo/conv/"
(cd "$W/vo" && "$B" migrate -q --in-place conv) > /dev/null 2>&1
# blkmig fixes the timer's old race with blk_end_request; a conversion made elsewhere
# (by hand, an older blkmig) that kept __blk_end_request there kept the old bug
sed -i 's/^\tblk_end_request(vr_cur, /\t__blk_end_request(vr_cur, /' "$W/vo/conv/verify_race.c"
check verify-original/kept-race-made grep -q '^	__blk_end_request(vr_cur, ' "$W/vo/conv/verify_race.c"
cp "$W/vo/conv/verify_race.c" "$W/vo/extra/renamed.c"
# vo_run NAME WANT-RC WANT-GREP ARGS...: verify in $W/vo with ARGS; exit WANT-RC and its
# stdout+stderr match WANT-GREP
vo_run() {
	local name=$1 want=$2 pat=$3 rc
	shift 3
	(cd "$W/vo" && "$B" verify -q "$@") > "$W/vo/$name.out" 2>&1
	rc=$?
	if [ "$rc" = "$want" ] && grep -qE "$pat" "$W/vo/$name.out"; then
		pass "verify-original/$name"
	else
		fail "verify-original/$name" "exit $rc (want $want): $(head -3 "$W/vo/$name.out")"
	fi
}
old_bug='verify_race.c:[0-9]+:[0-9]+: warning: .*\[preexisting_lock_bug\]$'
vo_run dir-dir 0 "$old_bug" --original orig conv
# the summary's counts add up to its findings (the old bug is counted as such)
check verify-original/summary-counts-the-old-bug grep -qE '^summary: 1 file\(s\), 1 finding\(s\): 0 legacy call\(s\), 0 race\(s\) .*, 1 old lock bug\(s\) kept' "$W/vo/dir-dir.out"
vo_run dir-slash-dir 0 "$old_bug" --original orig/ conv/
vo_run dir-file 0 "$old_bug" --original orig conv/verify_race.c
vo_run file-file 0 "$old_bug" --original orig/verify_race.c conv/verify_race.c
vo_run no-original-is-an-error 2 '^blkmig verify: no original of extra/renamed.c in --original orig' \
	--original orig extra/renamed.c
vo_run file-for-a-directory-is-an-error 2 '^blkmig verify: --original FILE needs exactly one PATH, a file' \
	--original orig/verify_race.c conv
vo_run without-original-fails 1 'verify_race.c:[0-9]+:[0-9]+: error: .*\[locked_variant_without_lock\]$' conv

# ---- 4. SARIF: relative to --root, stable fingerprints ---------------------------------
(cd "$W" && "$B" scan -q --format sarif --root t -o scan1.sarif t) 2>/dev/null
SARIF_REPORTS+=("$W/scan1.sarif")
# the same tree with a line inserted on top of every file: fingerprints do not move
mkdir -p "$W/t2"
for f in "$W"/t/*.c; do { echo "/* moved */"; cat "$f"; } > "$W/t2/$(basename "$f")"; done
(cd "$W" && "$B" scan -q --format sarif --root t2 -o scan2.sarif t2) 2>/dev/null
check sarif/fingerprints-stable py '
import json, sys
def fp(p):
    return sorted(x["partialFingerprints"]["blkmigSite/v1"] for x in json.load(open(p))["runs"][0]["results"])
a, b = fp(sys.argv[1]), fp(sys.argv[2])
sys.exit(not (a == b and len(set(a)) == len(a)))' "$W/scan1.sarif" "$W/scan2.sarif"
check sarif/root-relative py '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
u = {x["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for x in r["results"]}
sys.exit(not (u and all("/" not in x for x in u) and "uri" not in r["originalUriBaseIds"]["SRCROOT"]))' "$W/scan1.sarif"

# ---- 4b. SARIF for a CI artifact (issue 23): SRCROOT's uri only when the user gives it;
# the evidence's files relative to it and each a related location; automationDetails ----
(cd "$W" && "$B" scan -q --format sarif --root t --sarif-base-uri https://example.invalid/drv/blob/HEAD/t \
	-o base.sarif t) 2>/dev/null
SARIF_REPORTS+=("$W/base.sarif")
check sarif/base-uri-given py '
import json, sys
r = json.load(open(sys.argv[1]))["runs"][0]
print(r["originalUriBaseIds"]); sys.exit(r["originalUriBaseIds"]["SRCROOT"].get("uri") != "https://example.invalid/drv/blob/HEAD/t/")' "$W/base.sarif"
check sarif/automation-details py '
import json, sys
ids = [json.load(open(p))["runs"][0].get("automationDetails", {}).get("id") for p in sys.argv[1:]]
print(ids); sys.exit(ids != ["blkmig/scan/t/", "blkmig/migrate/t/"])' "$W/scan1.sarif" "$W/rep/report.sarif"
# half_broken.c: its lock evidence (blk_init_queue) and the unparsable call the reason
# names are related locations at their lines; evidence and message name the file as the
# result does (relative to SRCROOT), sh_done's caller evidence too
sarif_related() {
	local reg call value
	reg=$(grep -n 'blk_init_queue(' "$W/t/half_broken.c" | head -1 | cut -d: -f1)
	call=$(grep -n 'end_request(' "$W/t/half_broken.c" | sed -n 3p | cut -d: -f1)
	value=$(grep -n '= sh_done;' "$W/t/shifted.c" | cut -d: -f1)
	py '
import json, sys
reg, call, value = (int(x) for x in sys.argv[2:5])
res = json.load(open(sys.argv[1]))["runs"][0]["results"]
def where(r):
    l = r["locations"][0]["physicalLocation"]
    return l["artifactLocation"]["uri"], l["region"]["startLine"], r["ruleId"]
def rel(r):
    return {(x["physicalLocation"]["artifactLocation"].get("uri"), x["physicalLocation"]["artifactLocation"].get("uriBaseId"),
             x["physicalLocation"]["region"]["startLine"]) for x in r.get("relatedLocations", [])}
bad = []
hb = [r for r in res if where(r)[0] == "half_broken.c" and where(r)[2] == "unparsed" and r.get("properties", {}).get("lockEvidence")]
if not hb: bad.append("no half_broken.c result with lock evidence")
for r in hb:
    if ("half_broken.c", "SRCROOT", reg) not in rel(r) or ("half_broken.c", "SRCROOT", call) not in rel(r):
        bad.append("half_broken.c:%d related %s" % (where(r)[1], sorted(rel(r))))
    if r["properties"]["lockEvidence"] != ["request_fn registered with blk_init_queue at half_broken.c:%d" % reg]:
        bad.append("evidence %s" % r["properties"]["lockEvidence"])
sh = [r for r in res if where(r)[0] == "shifted.c" and any("used as a value" in e for e in r.get("properties", {}).get("lockEvidence", []))]
if not sh or any(("shifted.c", "SRCROOT", value) not in rel(r) for r in sh): bad.append("sh_done caller: %s" % [sorted(rel(r)) for r in sh])
if any("t/" in x for r in res for x in [r["message"]["text"]] + r.get("properties", {}).get("lockEvidence", [])):
    bad.append("a message or evidence names t/")
print("\n".join(bad)); sys.exit(bool(bad))' "$W/rep/report.sarif" "$reg" "$call" "$value"
}
check sarif/related-locations sarif_related

# diff_hunks PAGE PATCH ORIG_DIR: every converted site's diff on the review page is the
# patch's own hunk: its '-' and '+' lines are the patch's at the same old/new line numbers,
# its context lines the original's, its header counts its lines, one line per line
diff_hunks() {
	py '
import html, re, sys
page, patch, orig_dir = open(sys.argv[1]).read(), open(sys.argv[2]).read().split("\n"), sys.argv[3]
# every line of the patch: (file, "-"/"+", old or new line number) -> text
minus, plus, f, o, n = {}, {}, None, 0, 0
for l in patch:
    if l.startswith("+++ b/"): f = l[6:]; continue
    if l.startswith("--- "): continue
    m = re.match(r"@@ -(\d+),\d+ \+(\d+),\d+ @@", l)
    if m: o, n = int(m.group(1)), int(m.group(2)); continue
    if l.startswith("-"): minus[(f, o)] = l[1:]; o += 1
    elif l.startswith("+"): plus[(f, n)] = l[1:]; n += 1
    elif l.startswith(" "): o += 1; n += 1
bad, seen = [], 0
for sec in re.findall(r"<section class=\"site auto\".*?</section>", page, re.S):
    m = re.search(r"<div class=\"code diff\">.*?<pre>(.*?)</pre>", sec, re.S)
    if not m: continue
    seen += 1
    f = re.search(r"data-file=\"([^\"]*)\"", sec).group(1)
    src = open("%s/%s" % (orig_dir, f), encoding="latin-1").read().split("\n")
    lines = [html.unescape(re.sub(r"<[^>]*>", "", x)) for x in m.group(1).rstrip("\n").split("\n")]
    h = re.match(r"@@ -(\d+),(\d+) \+(\d+),(\d+) @@", lines[0])
    if not h: bad.append("%s: no hunk header: %r" % (f, lines[0])); continue
    o, n = int(h.group(1)), int(h.group(3))
    if int(h.group(2)) != sum(1 for x in lines[1:] if x[:1] in " -") or int(h.group(4)) != sum(1 for x in lines[1:] if x[:1] in " +"):
        bad.append("%s: hunk counts %r" % (f, lines[0]))
    for x in lines[1:]:
        if x[:1] == " ":
            if src[o - 1] != x[1:]: bad.append("%s:%d: context %r is not the original line" % (f, o, x))
            o += 1; n += 1
        elif x[:1] == "-":
            if minus.get((f, o)) != x[1:]: bad.append("%s: -%d %r is not the patch line" % (f, o, x))
            o += 1
        elif x[:1] == "+":
            # numbered as the patch numbers it, what spatch inserted above the hunk
            # outside any site (a hoisted declaration) counted
            if plus.get((f, n)) != x[1:]:
                shift = next((d for d in range(-50, 50) if plus.get((f, n + d)) == x[1:]), None)
                bad.append("%s: +%d %r is not the patch line %r (it is %s lines off)" % (f, n, x, plus.get((f, n)), shift))
            n += 1
        else:
            bad.append("%s: line %r is not context, - or + (double-spaced?)" % (f, x))
    if not any(x[:1] == " " for x in lines[1:]): bad.append("%s: no context" % f)
print(seen, "diffs;", "\n".join(bad[:10])); sys.exit(not seen or bool(bad))' "$@"
}

# ---- 5. the review page in headless Chromium ------------------------------------------
CHROMIUM=$(command -v chromium || command -v chromium-browser || true)
chromium_run() { # one bounded headless run, own profile, no network
	local prof
	prof=$(mktemp -d "$W/chromium.XXXXXX")
	timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-first-run \
		--disable-background-networking --disable-component-update --disable-sync \
		--allow-file-access-from-files --virtual-time-budget=5000 \
		--user-data-dir="$prof" "$@" 2> "$prof.log"
}
# click_page PAGE CLICKS OUT: the sites the page shows after those clicks
click_page() {
	local q
	q=$(py 'import sys, urllib.parse; print(urllib.parse.urlencode({"page": "file://" + sys.argv[1], "clicks": sys.argv[2]}))' "$1" "$2")
	chromium_run --dump-dom "file://$HERE/click.html?$q" |
		sed -n '/<pre id="result">/,/<\/pre>/p' | sed 's/<[^>]*>//g' > "$3"
	# a headless run that printed no page at all (it died or hung on a loaded machine:
	# seen once in CI) is run once more; any page it did print is judged as it is
	if ! grep -q . "$3"; then
		chromium_run --dump-dom "file://$HERE/click.html?$q" |
			sed -n '/<pre id="result">/,/<\/pre>/p' | sed 's/<[^>]*>//g' > "$3"
	fi
}
if [ -z "$CHROMIUM" ]; then
	fail html/chromium-present "chromium not installed (make deps)"
else
	click_page "$W/rep/report.html" "by-reason:unparsed" "$W/click1"
	check html/click-reason py '
import sys
l = open(sys.argv[1]).read().split("\n")
sites = [x.split() for x in l if x.startswith("site ")]
shown = [x for x in l if x.startswith("shown ")]
ok = sites and all(s[1] == "unparsed" for s in sites) and shown == ["shown %d" % len(sites)]
ok = ok and any(x == "hash #reason=unparsed" for x in l)
print("\n".join(l[:8])); sys.exit(not ok)' "$W/click1"
	click_page "$W/rep/report.html" "by-reason:unparsed,by-reason:unparsed" "$W/click2"
	n=$(grep -c '^site ' "$W/click2")
	[ "$n" = "$(py 'import json,sys; print(len(json.load(open(sys.argv[1]))["sites"]))' "$W/rep/report.json")" ] &&
		pass html/click-again-clears || fail html/click-again-clears "$n sites shown"
	chromium_run --dump-dom "file://$W/rep/report.html#manual" > "$W/manual.dom"
	nm=$(grep '<section class="site' "$W/manual.dom" | grep -vc 'hidden=')
	[ "$nm" = "$(grep -c '<section class="site manual' "$W/manual.dom")" ] && [ "$nm" -gt 0 ] &&
		pass html/fragment-manual || fail html/fragment-manual "$nm shown"
	check html/anchors-stable grep -q 'id="site-shifted.c-sh_done-end_that_request_last-1"' "$W/rep/report.html"
	check html/context-numbered grep -qE '<span class="ln mark" data-line="23">' "$W/rep/report.html"
	check html/diff-for-converted py '
import re, sys
h = open(sys.argv[1]).read()
secs = re.findall(r"<section class=\"site auto\".*?</section>", h, re.S)
bad = [s[:120] for s in secs if "(folded into" not in s and "class=\"code diff\"" not in s]
print(bad[:3]); sys.exit(not secs or bool(bad))' "$W/rep/report.html"
	check html/source-links grep -q '<a class="src" href="file://[^"]*/t/shifted.c">shifted.c:' "$W/rep/report.html"
	# ---- the review page of issue 23: each converted site's diff is the patch's own hunk
	# (an unchanged line is context, one line per line), the lines numbered as the patch
	# numbers them; reviewed marks kept in the browser, exported; converted sites folded;
	# j/k; --source-url; <noscript>; reason codes explained and searchable
	check html/diff-is-the-patch-hunk diff_hunks "$W/rep/report.html" "$W/out.patch" "$W/t.orig"
	ids=$(grep -o '<section class="site [a-z]*" id="[^"]*"' "$W/rep/report.html" | sed 's/.*id="//; s/"$//')
	first_id=$(sed -n 1p <<<"$ids")
	second_id=$(sed -n 2p <<<"$ids")
	click_page "$W/rep/report.html" "review:1,reload" "$W/click-rev"
	check html/reviewed-kept-and-exported py '
import sys
l = open(sys.argv[1]).read().split("\n"); sid = sys.argv[2]
ok = "reloaded" in l and [x for x in l if x.startswith("reviewed ")] == ["reviewed " + sid] \
    and "review-count 1" in l and [x.split("\t")[0] for x in l if x.startswith("export ")] == ["export " + sid]
print("\n".join(x for x in l if not x.startswith("site "))[:600]); sys.exit(not ok)' "$W/click-rev" "$first_id"
	click_page "$W/rep/report.html" "" "$W/click-fold"
	check html/auto-sites-folded py '
import json, re, sys
l = open(sys.argv[1]).read().split("\n"); page = open(sys.argv[2]).read()
manual = set(re.findall(r"<section class=\"site manual\" id=\"([^\"]*)\"", page))
auto = set(re.findall(r"<section class=\"site auto\" id=\"([^\"]*)\"", page))
opened = {x.split()[1] for x in l if x.startswith("open ")}
print(len(manual), "manual", len(auto), "auto", len(opened), "open"); sys.exit(not auto or opened != manual)' "$W/click-fold" "$W/rep/report.html"
	# the first converted site, unfolded with one click
	nauto=$(grep -o '<section class="site [a-z]*"' "$W/rep/report.html" | grep -n auto | head -1 | cut -d: -f1)
	auto_id=$(sed -n "${nauto}p" <<<"$ids")
	click_page "$W/rep/report.html" "toggle:$nauto" "$W/click-open"
	check html/auto-site-opens grep -qx "open $auto_id" "$W/click-open"
	click_page "$W/rep/report.html" "key:j,key:j,key:j,key:k" "$W/click-keys"
	check html/keys-next-previous grep -qx "current $second_id" "$W/click-keys"
	click_page "$W/rep/report.html" "key:j,key:r,key:o" "$W/click-keys2"
	check html/keys-review-and-fold py '
import sys
l = open(sys.argv[1]).read().split("\n"); sid = sys.argv[2]
ok = "reviewed " + sid in l and "current " + sid in l and (("open " + sid in l) != (sys.argv[3] == "manual"))
print([x for x in l if not x.startswith("site ")][:12]); sys.exit(not ok)' "$W/click-keys2" "$first_id" \
		"$(grep -o '<section class="site [a-z]*"' "$W/rep/report.html" | head -1 | sed 's/.*site //; s/"//')"
	check html/noscript grep -q '<noscript><p class="noscript">' "$W/rep/report.html"
	# every reason code on the page is explained in a table whose rows filter, and the
	# search box finds sites by the code's meaning
	click_page "$W/rep/report.html" "reason-codes:unparsed" "$W/click-rc"
	check html/reason-codes-filter py '
import sys
l = open(sys.argv[1]).read().split("\n")
s = [x.split() for x in l if x.startswith("site ")]
sys.exit(not s or any(x[1] != "unparsed" for x in s))' "$W/click-rc"
	meaning=$(sed -n 's/.*<tr id="rc-unparsed"[^>]*><td><code>unparsed<\/code><\/td><td>\([^<]*\)<\/td>.*/\1/p' "$W/rep/report.html")
	chromium_run --dump-dom "file://$W/rep/report.html#q=$(py 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$meaning")" > "$W/search.dom"
	check html/reason-meaning-searchable py '
import json, re, sys
dom = open(sys.argv[1]).read(); want = sum(1 for s in json.load(open(sys.argv[2]))["sites"] if s.get("reason", {}).get("code") == "unparsed")
shown = [m for m in re.findall(r"<section class=\"site[^\"]*\"[^>]*>", dom) if "hidden" not in m]
print(len(sys.argv[3]), "chars of meaning;", len(shown), "shown,", want, "unparsed")
sys.exit(not sys.argv[3] or len(shown) != want or any("data-reason=\"unparsed\"" not in m for m in shown))' "$W/search.dom" "$W/rep/report.json" "$meaning"
	(cd "$W" && "$B" migrate -q --patch su.patch --report rep-su --root t \
		--source-url 'https://example.invalid/drv/tree/{path}#L{line}' t) > /dev/null 2>&1
	check html/source-url-template py '
import re, sys
h = open(sys.argv[1]).read()
links = re.findall(r"<a class=\"src\" href=\"([^\"]*)\">([^<]*):(\d+)</a>", h)
bad = [x for x in links if x[0] != "https://example.invalid/drv/tree/%s#L%s" % (x[1], x[2])]
ln = re.findall(r"<span class=\"ln mark\" data-line=\"(\d+)\"><a href=\"https://example.invalid/drv/tree/[^\"#]*#L(\d+)\">", h)
print(len(links), "links", bad[:3], len(ln), "numbered lines linked")
sys.exit(not links or bool(bad) or not ln or any(a != b for a, b in ln))' "$W/rep-su/report.html"
	check html/no-network bash -c "! grep -Eo '(src|href)=\"https?:' '$W/rep/report.html'"
	rm -f "$ART/cases-report.png"
	(cd "$W" && chromium_run --hide-scrollbars --window-size=1200,1600 \
		--screenshot="$ART/cases-report.png" "file://$W/rep/report.html") > /dev/null
	[ "$(head -c 4 "$ART/cases-report.png" 2>/dev/null | od -An -c | tr -d ' ')" = '211PNG' ] &&
		pass html/screenshot || fail html/screenshot "no PNG"
fi

# ---- 6. the Linux 2.6.24 tree (when ../shared/corpus is beside the checkout) -----------
CORPUS=${REPORTS_CORPUS:-$TOP/../shared/corpus/linux-2.6.24.tar.xz}
LINUX=$BUILD/linux-2.6.24
if [ -f "$CORPUS" ]; then
	[ -d "$LINUX/drivers" ] || tar -xJf "$CORPUS" -C "$BUILD"
	(cd "$BUILD" && nice "$B" migrate -q -j 2 --patch "$W/linux.patch" --report "$W/linux" \
		--root linux-2.6.24 linux-2.6.24) > "$W/linux.log" 2>&1
	JSON_REPORTS+=("$W/linux/report.json")
	SARIF_REPORTS+=("$W/linux/report.sarif")
	cp "$W/linux/report.html" "$ART/linux-report.html"
	cp "$W/linux/report.sarif" "$ART/linux-report.sarif"
	cp "$W/linux/report.json" "$ART/linux-report.json"
	check linux/no-private-paths bash -c "! grep -lE 'blkmig(-migrate|\\.[0-9]+)?\\.[A-Za-z0-9]{6}/' '$W'/linux/report.* '$W/linux.log'"
	# every site's line, column, reason and evidence lines, every parse status and
	# diagnostic, every count: true of the original tree
	check linux/statements-true python3 "$HERE/truth.py" "$W/linux/report.json" "$BUILD"
	# what each file's outcome says is what the patch does to it (its paths are relative
	# to --root); the legacy calls left in each converted file are its manual sites
	linux_outcomes() {
		rm -rf "$W/lx" && mkdir -p "$W/lx" &&
			py '
import json, os, sys
d = json.load(open(sys.argv[1]))
for f in d["files"]:
    if "outcome" in f: print(os.path.join(d["root"], f["path"]))' "$W/linux/report.json" |
			(cd "$BUILD" && xargs cp --parents -t "$W/lx") &&
			patch -s -p1 -d "$W/lx/linux-2.6.24" < "$W/linux.patch" &&
			python3 "$HERE/outcome.py" "$W/linux/report.json" "$BUILD" \
				linux-2.6.24=linux-2.6.24 "linux-2.6.24=$W/lx/linux-2.6.24"
	}
	check linux/outcomes-are-what-the-patch-does linux_outcomes
	# every statement of a left-untouched file's outcome is in every format
	check linux/outcomes-in-every-format py '
import json, sys
d = json.load(open(sys.argv[1])); txt = open(sys.argv[2]).read()
sar = json.load(open(sys.argv[3]))["runs"][0]["results"]; html = open(sys.argv[4]).read()
left = [f for f in d["files"] if f.get("outcome", {}).get("status") == "left_untouched"]
bad = []
for f in left:
    rel = f["path"]  # relative to the root, as in SARIF (the text names the run paths)
    if "%s/%s:" % (d["root"], rel) not in txt or "[%s]" % f["outcome"]["code"] not in txt: bad.append("txt " + rel)
    if not any(r["ruleId"] == f["outcome"]["code"] and r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == rel
               and r["message"]["text"].startswith("file left untouched") for r in sar): bad.append("sarif " + rel)
    if f["path"] not in html.split("<table id=\"left\">")[1].split("</table>")[0]: bad.append("html " + rel)
print(len(left), "left untouched;", bad[:5]); sys.exit(bool(bad))' \
		"$W/linux/report.json" "$W/linux/report.txt" "$W/linux/report.sarif" "$W/linux/report.html"
	# what spatch rewrote is reported converted (ps2esdi.c: the analyzer cannot parse it)
	check linux/html-diff-is-the-patch-hunk diff_hunks "$W/linux/report.html" "$W/linux.patch" "$LINUX"
	# the thousands of files without a legacy call are a count, not entries; paths relative
	# to --root like SARIF's
	check linux/json-skipped-a-count py '
import json, os, sys
d = json.load(open(sys.argv[1])); s = d["summary"]
listed = sum(1 for f in d["files"] if f["parse"]["status"] == "skipped")
print("%d files, %d listed, %d skipped counted, report.json %d bytes" % (s["files_scanned"], len(d["files"]), s["files_skipped"], os.path.getsize(sys.argv[1])))
sys.exit(listed or s["files_skipped"] < 1000 or d["root"] != "linux-2.6.24" or any(f["path"].startswith(("linux-2.6.24/", "/")) for f in d["files"]))' "$W/linux/report.json"
	check linux/spatch-rewrites-reported py '
import json, sys
d = json.load(open(sys.argv[1]))
s = [x for x in d["sites"] if x["file"].endswith("drivers/block/ps2esdi.c")]
bad = [x["id"] for x in s if x["verdict"] != "auto" or not x["after"] or not x["edits"]]
print(len(s), bad); sys.exit(not s or bool(bad))' "$W/linux/report.json"
	if [ -n "$CHROMIUM" ]; then
		# a reviewer lists the sites of one reason under one directory with two clicks:
		# the pair (reason, drivers/X) with the most manual sites on this run
		read -r two_reason two_dir < <(py '
import collections, json, sys
d = json.load(open(sys.argv[1]))
c = collections.Counter((s["reason"]["code"], "/".join(s["file"].split("/")[:-1][:2]))
                        for s in d["sites"] if s["verdict"] == "manual")
print(*sorted(c.items(), key=lambda x: (-x[1], x[0]))[0][0])' "$W/linux/report.json")
		click_page "$W/linux/report.html" "by-reason:$two_reason,by-directory:$two_dir" "$W/click-dir"
		check linux/html-two-clicks py '
import json, sys
l = open(sys.argv[1]).read().split("\n")
reason, dr = sys.argv[3], sys.argv[4]
sites = [x.split() for x in l if x.startswith("site ")]
d = json.load(open(sys.argv[2]))
want = sorted(s["file"] for s in d["sites"]
              if s.get("reason", {}).get("code") == reason and s["file"].startswith(dr + "/"))
got = [s for s in sites if s[1] == reason and (s[2] == dr or s[2].startswith(dr + "/"))]
print(reason, dr, len(want), "wanted,", len(sites), "shown"); sys.exit(not want or len(got) != len(sites) or len(sites) != len(want))' \
			"$W/click-dir" "$W/linux/report.json" "$two_reason" "$two_dir"
		rm -f "$ART/linux-report.png"
		(cd "$W" && chromium_run --hide-scrollbars --window-size=1200,1600 \
			--screenshot="$ART/linux-report.png" \
			"file://$W/linux/report.html#reason=$two_reason&dir=${two_dir//\//%2F}") > /dev/null
		[ -s "$ART/linux-report.png" ] && pass linux/html-screenshot || fail linux/html-screenshot
	fi
fi

# ---- 7. every report above against its schema; SARIF against GitHub's rules -----------
check json/schema-valid python3 "$HERE/validate.py" json "$SCHEMA" "${JSON_REPORTS[@]}"
if [ -f "$SARIF_SCHEMA" ] && [ -x "$SARIF_MULTITOOL" ]; then
	check sarif/schema-and-placement python3 "$HERE/validate.py" sarif "$SARIF_SCHEMA" "${SARIF_REPORTS[@]}"
	# a CI artifact names no path of the machine that wrote it: no file: URI (no
	# --sarif-base-uri file://... was given), no directory of this run or checkout
	no_machine_paths() {
		local hits
		hits=$(grep -nF -e 'file://' -e "$W" -e "$(realpath "$W")" -e "$TOP/" -e "$(realpath "$TOP")/" \
			-e "$BUILD/" -e "$(realpath "$BUILD")/" "$@" | cut -c1-200 | head -5)
		[ -z "$hits" ] || { echo "$hits"; return 1; }
	}
	check sarif/no-machine-paths no_machine_paths "${SARIF_REPORTS[@]}"
	i=0
	for s in "${SARIF_REPORTS[@]}"; do
		i=$((i + 1))
		rm -f "$W/val$i.sarif"
		"$SARIF_MULTITOOL" validate --rule-kind "Sarif;Gh" -o "$W/val$i.sarif" "$s" > "$W/val$i.log" 2>&1
		name=${s#"$W"/}
		name=${name%.sarif}
		name=${name//\//-}
		if [ -f "$W/val$i.sarif" ] && python3 "$HERE/sarif_verdict.py" "$W/val$i.sarif" > "$W/verdict$i" 2>&1; then
			pass "sarif/multitool-github-rules-$name"
		else
			fail "sarif/multitool-github-rules-$name" \
				"$(tail -5 "$W/verdict$i" "$W/val$i.log" 2>/dev/null)"
		fi
		cat "$W/verdict$i" 2>/dev/null
	done
else
	fail sarif/validator-present "SARIF Multitool or schema missing (make deps)"
fi
finish
