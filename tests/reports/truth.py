#!/usr/bin/env python3
"""Check that what a blkmig JSON report says is true of the ORIGINAL files.

  truth.py REPORT.json BASE [--map PREFIX=DIR]...

BASE is the directory the run was started in; report paths are relative to the report's
"root" (schema version 2), itself relative to BASE (version 1: paths relative to BASE).
With --map, a path (BASE-relative) starting with PREFIX is read from DIR instead (the
pristine original when the run converted in place).  Checked, per site:
  - the file exists and its line `line` holds the call at `column`;
  - every "NAME at line N" and "NAME at FILE:N" in the reason text and the lock evidence
    names a line that holds NAME (the call, the lock function, the registration) or
    lies in function NAME (a caller, cited at its call);
  - a site the report calls typed is in a file that parsed without errors in the
    function of the site, and an `unparsed` site is in a file not reported "ok";
per finding (verify, migrate): its line and column hold a completion call of the
original, in the function it names, and the lines its message cites hold what it says;
per file:
  - "ok" means 0 errors and no diagnostics; "partial"/"failed" carry >= 1 error and their
    diagnostics point at existing lines of existing files;
  - the per-file site count is the number of sites listed for it;
per run:
  - summary counts agree with the lists (sites, auto, manual, manual_by_reason,
    files_not_fully_parsed).
Prints one line per false statement (at most 30); exit 1 if any."""
import json
import os
import re
import sys

ATLINE = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*)\)? at line (\d+)")
ATFILE = re.compile(r"\b([A-Za-z_][A-Za-z0-9_]*) at ([^\s:()]+\.[ch]):(\d+)")
# a legacy completion or its 2.6.25 replacement (a finding's line in the original)
CALL = re.compile(r"(end_that_request_(first|chunk|last)|end_(queued_|dequeued_)?request|"
                  r"__?blk_end_request|blk_end_request)\b")
# words of the prose before "at": "used as a value at F:N", "the statement at line N"
PROSE = {"value", "statement", "assigned", "call", "step", "completion", "used", "it", "function"}
DIAG = re.compile(r"^(.+?):(\d+):(\d+): (?:error|warning|fatal error): ")


def main():
    report, base = sys.argv[1], sys.argv[2]
    maps = []
    args = sys.argv[3:]
    while args:
        if args[0] == "--map":
            p, d = args[1].split("=", 1)
            maps.append((p, d))
            args = args[2:]
        else:
            sys.exit("truth.py: unknown argument " + args[0])
    doc = json.load(open(report))
    root = doc.get("root", ".")
    cache = {}

    def lines_of(path):
        if not os.path.isabs(path) and root not in ("", "."):
            path = os.path.normpath(os.path.join(root, path))
        real = path
        for p, d in maps:
            if path == p or path.startswith(p.rstrip("/") + "/"):
                real = os.path.join(d, path[len(p):].lstrip("/"))
        if not os.path.isabs(real):
            real = os.path.join(base, real)
        if real not in cache:
            try:
                with open(real, encoding="latin-1") as fh:
                    cache[real] = fh.read().split("\n")
            except OSError:
                cache[real] = None
        return cache[real]

    bad = []

    def enclosing_function(ls, n):
        # kernel style: a definition starts in column 0 and its line does not end in ';'
        for i in range(n - 1, -1, -1):
            m = re.match(r"^([A-Za-z_][^(;=]*)\(", ls[i])
            if m and not ls[i].rstrip().endswith(";"):
                return re.findall(r"\w+", m.group(1))[-1]
        return None

    def line_has(path, n, name, what):
        # "NAME at FILE:N": line N holds NAME, or is in function NAME (a caller at its call)
        ls = lines_of(path)
        if ls is None:
            bad.append("%s: %s names %s, which does not exist" % (what, path, path))
        elif not (1 <= n <= len(ls)) or not (re.search(r"\b%s\b" % re.escape(name), ls[n - 1])
                                             or enclosing_function(ls, n) == name):
            bad.append("%s: %s:%d does not hold %s (%r)" % (what, path, n, name,
                                                             ls[n - 1].strip()[:80] if 1 <= n <= len(ls) else ""))

    for x in doc.get("findings", []):
        where = "finding %s:%d (%s)" % (x["file"], x["line"], x["kind"])
        ls = lines_of(x["file"])
        if ls is None or not (1 <= x["line"] <= len(ls)):
            bad.append(where + ": no such line")
            continue
        if not CALL.match(ls[x["line"] - 1][x["column"] - 1:]):
            bad.append(where + ": column %d holds no completion call: %r" % (x["column"], ls[x["line"] - 1].strip()[:80]))
        if x.get("function") and enclosing_function(ls, x["line"]) not in (x["function"], None):
            bad.append(where + ": not in %s()" % x["function"])
        for name, path, n in ATFILE.findall(x["message"]):
            if name not in PROSE:
                line_has(path, int(n), name, where)
    files = {f["path"]: f for f in doc.get("files", [])}
    per_file = {}
    for s in doc.get("sites", []):
        where = "site %s" % s["id"]
        per_file[s["file"]] = per_file.get(s["file"], 0) + 1
        ls = lines_of(s["file"])
        if ls is None:
            bad.append(where + ": file does not exist")
            continue
        if not (1 <= s["line"] <= len(ls)) or not ls[s["line"] - 1][s["column"] - 1:].startswith(s["call"]):
            bad.append(where + ": line %d column %d does not hold %s" % (s["line"], s["column"], s["call"]))
        texts = [s.get("reason", {}).get("text", "")] + s.get("lock", {}).get("evidence", [])
        for t in texts:
            for name, n in ATLINE.findall(t):
                if name not in PROSE:
                    line_has(s["file"], int(n), name, where + " reason")
            for name, path, n in ATFILE.findall(t):
                if name not in PROSE:
                    line_has(path, int(n), name, where + " evidence")
        f = files.get(s["file"])
        code = s.get("reason", {}).get("code")
        if f is None:
            bad.append(where + ": its file is not in the files list")
        elif code == "unparsed" and f["parse"]["status"] == "ok":
            bad.append(where + ": unparsed, but its file is reported parse ok")
    for path, f in files.items():
        p = f["parse"]
        if p["status"] == "ok" and (p["errors"] or p.get("diagnostics")):
            bad.append("file %s: parse ok with %d error(s)" % (path, p["errors"]))
        if p["status"] in ("partial", "failed") and p["errors"] < 1 and p["status"] != "failed":
            bad.append("file %s: %s without an error" % (path, p["status"]))
        for d in p.get("diagnostics", []):
            m = DIAG.match(d)
            if not m:
                bad.append("file %s: diagnostic not in FILE:LINE:COL form: %s" % (path, d[:80]))
                continue
            ls = lines_of(m.group(1))
            if ls is None or int(m.group(2)) > len(ls):
                bad.append("file %s: diagnostic names no existing line: %s" % (path, d[:80]))
        if f.get("sites", per_file.get(path, 0)) != per_file.get(path, 0):
            bad.append("file %s: %s sites, %d listed" % (path, f.get("sites"), per_file.get(path, 0)))
    s = doc.get("summary", {})
    sites = doc.get("sites", [])
    want = {
        "sites": len(sites),
        "auto": sum(1 for x in sites if x["verdict"] == "auto"),
        "manual": sum(1 for x in sites if x["verdict"] == "manual"),
        "files_not_fully_parsed": sum(1 for f in files.values() if f["parse"]["status"] in ("partial", "failed")),
    }
    for k, v in want.items():
        if k in s and s[k] != v:
            bad.append("summary.%s = %s, the lists say %d" % (k, s[k], v))
    by = {}
    for x in sites:
        if x["verdict"] == "manual":
            c = x.get("reason", {}).get("code", "")
            by[c] = by.get(c, 0) + 1
    if "manual_by_reason" in s and s["manual_by_reason"] != by:
        bad.append("summary.manual_by_reason %s, the sites say %s" % (s["manual_by_reason"], by))
    for b in bad[:30]:
        print(b)
    if len(bad) > 30:
        print("... %d more" % (len(bad) - 30))
    sys.exit(1 if bad else 0)


main()
