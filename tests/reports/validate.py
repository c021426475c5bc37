#!/usr/bin/env python3
"""Validate blkmig reports.

  validate.py json SCHEMA REPORT.json...      every report matches analyzer/report.schema.json,
      its summary counts agree with its lists, no replacement keeps the statement's ';',
      every converted site's call is covered by edits
  validate.py sarif SCHEMA REPORT.sarif...    every log matches the official SARIF 2.1.0
      schema and what GitHub code scanning needs to place a result: a relative uri with
      uriBaseId SRCROOT declared in originalUriBaseIds (its uri, if any, an absolute
      directory uri the user gave), a region with startLine, rules with help text and
      markdown (a helpUri, if any, https: never a local file), partialFingerprints, a fix
      on every result of rule `convert` (except the folded second call of a pair); every
      FILE:LINE the lock evidence cites is a relatedLocation at that line, relative to
      SRCROOT like the evidence; run.automationDetails.id names the command
Prints one line per problem (at most 20 per file); exit 1 if any."""
import json
import re
import sys

import jsonschema

# a run's private folder: blkmig.<pid>.XXXXXX (older: blkmig.XXXXXX, blkmig-migrate.XXXXXX)
PRIVATE = re.compile(r"blkmig(-migrate|\.[0-9]+)?\.[A-Za-z0-9]{6}/")


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
    files = doc.get("files", [])
    listed_skipped = sum(1 for f in files if f["parse"]["status"] == "skipped")
    if s.get("files_scanned") != len(files) - listed_skipped + s.get("files_skipped", 0):
        yield "summary.files_scanned %s != %d listed + %s skipped" % (
            s.get("files_scanned"), len(files) - listed_skipped, s.get("files_skipped"))
    if listed_skipped not in (0, s.get("files_skipped")):
        yield "%d skipped files listed, summary.files_skipped %s" % (listed_skipped, s.get("files_skipped"))
    left = [f for f in files if f.get("outcome", {}).get("status") == "left_untouched"]
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
        if "SRCROOT" not in bases:
            yield "originalUriBaseIds.SRCROOT missing"
        elif "uri" in bases["SRCROOT"] and not re.match(r"^[a-z][a-z0-9+.-]*://.*/$", bases["SRCROOT"]["uri"]):
            yield "originalUriBaseIds.SRCROOT.uri not an absolute directory uri"
        if not re.match(r"^blkmig/[a-z]+/[^/]+/$", run.get("automationDetails", {}).get("id", "")):
            yield "run.automationDetails.id is not blkmig/COMMAND/ROOT/"
        driver = run["tool"]["driver"]
        if "informationUri" in driver and not driver["informationUri"].startswith("https://"):
            yield "informationUri %r is not https" % driver["informationUri"]
        rules = driver.get("rules", [])
        for r in rules:
            h = r.get("help", {})
            if not h.get("text") or not h.get("markdown"):
                yield "rule %s without help text/markdown" % r.get("id")
            if "helpUri" in r and not r["helpUri"].startswith("https://"):
                yield "rule %s: helpUri %r is not https" % (r.get("id"), r["helpUri"])
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
                if "/tmp/" in uri or PRIVATE.search(uri):
                    yield where + ": uri into a private copy: " + uri
                if not pl.get("region", {}).get("startLine"):
                    yield where + ": no region"
            # every FILE:LINE of the lock evidence is a related location, named alike
            rel = {}
            for r in res.get("relatedLocations", []):
                pl = r.get("physicalLocation", {})
                al = pl.get("artifactLocation", {})
                if al.get("uriBaseId") == "SRCROOT":
                    rel[(al.get("uri"), pl.get("region", {}).get("startLine"))] = r
                if "id" not in r or not r.get("message", {}).get("text"):
                    yield where + ": related location without id or message"
            for e in res.get("properties", {}).get("lockEvidence", []):
                for f, n in re.findall(r"(?:^|[ (])([\w.+~-][\w./+~-]*\.[ch]):(\d+)", e):
                    if (f, int(n)) not in rel:
                        yield where + ": evidence %s:%s is no related location" % (f, n)
            if not res.get("partialFingerprints"):
                yield where + ": no partialFingerprints"
            msg = res.get("message", {}).get("text", "")
            if PRIVATE.search(msg):
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
