#!/usr/bin/env python3
"""Check that what a migrate report says became of each file is what happened.

  outcome.py REPORT.json BASE ORIGINAL_PREFIX=ORIGINAL_DIR [CONVERTED_PREFIX=CONVERTED_DIR]

The report names files relative to its "root" (schema version 2; version 1: the user's
paths), which is relative to BASE; PREFIXes are BASE-relative.  ORIGINAL_DIR holds the
files as they were before the run, CONVERTED_DIR (default: the report's own paths, for
--in-place) as they are after it (in place, or the original with the run's --patch
applied).  Checked, per file of the report:
  - "converted" iff the file changed; "unchanged"/"left_untouched" iff byte-for-byte equal;
  - the legacy calls left in the converted file are exactly as many as its manual sites
    (each auto site is gone, each manual one is still there);
  - every auto site is in a file that changed;
per run: summary.files_converted, summary.auto and summary.manual agree with the files.
Prints one line per false statement; exit 1 if any."""
import json
import os
import re
import sys

# a call of the API, not of a member that shares its name (drv->end_request(...))
LEGACY = re.compile(r"(?<!->)(?<!\.)\b(end_that_request_(?:first|chunk|last)|end_request|"
                    r"end_queued_request|end_dequeued_request)\s*\(")


def legacy_calls(text):
    """Legacy calls in C text: comments and strings dropped, the API's own definitions and
    prototypes (a parameter list naming struct request) not counted."""
    text = re.sub(r"/\*.*?\*/", lambda m: "\n" * m.group(0).count("\n"), text, flags=re.S)
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'"(?:\\.|[^"\\\n])*"', '""', text)
    n = 0
    for m in LEGACY.finditer(text):
        args = text[m.end():m.end() + 120].split(")")[0]
        if "struct request" in args:
            continue
        n += 1
    return n


def main():
    report, base = sys.argv[1], sys.argv[2]
    op, od = sys.argv[3].split("=", 1)
    cp, cd = sys.argv[4].split("=", 1) if len(sys.argv) > 4 else (None, None)
    doc = json.load(open(report))
    root = doc.get("root", ".")

    def full(path):
        if os.path.isabs(path) or root in ("", "."):
            return path
        return os.path.normpath(os.path.join(root, path))

    def under(path, prefix, d):
        rest = path[len(prefix):].lstrip("/") if path == prefix or path.startswith(prefix.rstrip("/") + "/") else None
        if rest is None:
            return None
        p = os.path.join(d, rest) if rest else d
        return p if os.path.isabs(p) else os.path.join(base, p)

    def read(p):
        try:
            with open(p, "rb") as fh:
                return fh.read()
        except OSError:
            return None

    bad = []
    changed_files = 0
    for f in doc["files"]:
        path = full(f["path"])
        if "outcome" not in f:  # scanned, no legacy call: not the run's to change
            continue
        orig = read(under(path, op, od) or "")
        now = read((under(path, cp, cd) if cp else None) or
                   (path if os.path.isabs(path) else os.path.join(base, path)))
        if orig is None or now is None:
            bad.append("%s: cannot read the original or the converted file" % path)
            continue
        changed = orig != now
        changed_files += changed
        st = f.get("outcome", {}).get("status")
        if changed != (st == "converted"):
            bad.append("%s: reported %s, but the file %s" % (path, st, "changed" if changed else "did not change"))
        sites = [s for s in doc["sites"] if s["file"] == f["path"]]
        manual = sum(1 for s in sites if s["verdict"] == "manual")
        left = legacy_calls(now.decode("latin-1"))
        if changed and left != manual:
            bad.append("%s: %d legacy call(s) left in the converted file, %d manual site(s) reported"
                       % (path, left, manual))
        if not changed and any(s["verdict"] == "auto" for s in sites):
            bad.append("%s: unchanged, but %d site(s) reported converted"
                       % (path, sum(1 for s in sites if s["verdict"] == "auto")))
    s = doc["summary"]
    if s.get("files_converted") != changed_files:
        bad.append("summary.files_converted = %s, %d file(s) changed" % (s.get("files_converted"), changed_files))
    for b in bad[:30]:
        print(b)
    sys.exit(1 if bad else 0)


main()
