#!/usr/bin/env python3
"""Validate blkmig reports.

  validate.py json SCHEMA REPORT.json...      every report matches analyzer/report.schema.json,
      its summary counts agree with its lists, no replacement keeps the statement's ';',
      every converted site's call is covered by edits
  validate.py sarif SCHEMA REPORT.sarif...    every log matches the official SARIF 2.1.0
      schema and what GitHub code scanning needs to place a result: a relative uri with
      uriBaseId SRCROOT declared in originalUriBaseIds, a region with startLine, rules
      with help text and markdown and a helpUri, partialFingerprints, and a fix on every
      result of rule `convert` (except the folded second call of a pair)
Prints one line per problem (at most 20 per file); exit 1 if any."""
import json
import re
import sys

import jsonschema


def problems_json(schema, doc):
    v = jsonschema.Draft202012Validator(schema)
    for e in v.iter_errors(doc):
        yield "/".join(str(p) for p in e.absolute_path) + ": " + e.message[:200]
    # counts that must agree with the lists
    s = doc.get("summary", {})
    sites = doc.get("sites", [])
    if s.get("sites") != len(sites):
        yield "summary.sites %s != %d sites" % (s.get("sites"), len(sites))
    if s.get("manual") != sum(1 for x in sites if x["verdict"] == "manual"):
        yield "summary.manual disagrees with the sites"
    left = [f for f in doc.get("files", []) if f.get("outcome", {}).get("status") == "left_untouched"]
    if s.get("files_left_untouched") != len(left):
        yield "summary.files_left_untouched disagrees with the files"
    by = {}
    for f in left:
        by[f["outcome"]["code"]] = by.get(f["outcome"]["code"], 0) + 1
    if "files_left_by_reason" in s and s["files_left_by_reason"] != by:
        yield "summary.files_left_by_reason %s, the files say %s" % (s["files_left_by_reason"], by)
    for x in sites:
        # REPORT.md: the new call without the statement's ';' (a comment after it neither)
        r = re.sub(r"\s*/\*.*?\*/\s*$", "", x.get("replacement", "")).rstrip()
        if r.endswith(";"):
            yield "site %s: replacement ends in ';': %s" % (x["id"], x["replacement"][-60:])
        # a converted site's call is rewritten by its own edits or lies inside the edits
        # of the site that converts it (the folded final step, a leftover completion)
        if x["verdict"] == "auto" and not x.get("edits") and not any(
                e["file"] == x["file"] and e["start"] <= x["offset"] < e["end"]
                for y in sites if y is not x for e in y.get("edits", [])):
            yield "site %s: converted, and no edit covers its call" % x["id"]


def problems_sarif(schema, doc):
    v = jsonschema.Draft202012Validator(schema)
    for e in v.iter_errors(doc):
        yield "schema: " + "/".join(str(p) for p in e.absolute_path) + ": " + e.message[:200]
    for run in doc.get("runs", []):
        bases = run.get("originalUriBaseIds", {})
        if "SRCROOT" not in bases or not bases["SRCROOT"].get("uri", "").endswith("/"):
            yield "originalUriBaseIds.SRCROOT missing or not a directory uri"
        rules = run["tool"]["driver"].get("rules", [])
        for r in rules:
            h = r.get("help", {})
            if not h.get("text") or not h.get("markdown") or not r.get("helpUri"):
                yield "rule %s without help text/markdown/helpUri" % r.get("id")
            if not r.get("shortDescription", {}).get("text") or not r.get("fullDescription", {}).get("text"):
                yield "rule %s without descriptions" % r.get("id")
        ids = [r["id"] for r in rules]
        if len(ids) != len(set(ids)):
            yield "duplicate rule ids"
        for i, res in enumerate(run.get("results", [])):
            where = "result %d (%s)" % (i, res.get("ruleId"))
            if res.get("ruleId") not in ids or ids.index(res["ruleId"]) != res.get("ruleIndex"):
                yield where + ": ruleId/ruleIndex do not name a rule"
            locs = res.get("locations", [])
            if not locs:
                yield where + ": no location"
            for loc in locs:
                pl = loc.get("physicalLocation", {})
                al = pl.get("artifactLocation", {})
                uri = al.get("uri", "")
                if al.get("uriBaseId") != "SRCROOT" or uri.startswith("/") or ":" in uri.split("/")[0]:
                    yield where + ": uri %r is not relative to SRCROOT" % uri
                if "/tmp/" in uri or "blkmig-migrate" in uri:
                    yield where + ": uri into a private copy: " + uri
                if not pl.get("region", {}).get("startLine"):
                    yield where + ": no region"
            if not res.get("partialFingerprints"):
                yield where + ": no partialFingerprints"
            msg = res.get("message", {}).get("text", "")
            if "blkmig-migrate." in msg:
                yield where + ": message names a private copy: " + msg[:120]
            if res.get("ruleId") == "convert" and "(folded into" not in msg and not res.get("fixes"):
                yield where + ": converted site without a fix"


def main():
    kind, schema = sys.argv[1], json.load(open(sys.argv[2]))
    bad = 0
    for path in sys.argv[3:]:
        doc = json.load(open(path))
        probs = list((problems_json if kind == "json" else problems_sarif)(schema, doc))
        for p in probs[:20]:
            print("%s: %s" % (path, p))
        bad += len(probs)
    sys.exit(1 if bad else 0)


main()
