#!/usr/bin/env python3
"""Summarise a SARIF Multitool `validate` log: exit 1 if the validated file has any
error-level result, or any result of a GitHub ingestion rule (GH*), printing them."""
import json
import sys

log = json.load(open(sys.argv[1]))
bad = 0
counts = {}
for run in log.get("runs", []):
    for r in run.get("results", []):
        rid, lvl = r.get("ruleId", "?"), r.get("level", "warning")
        counts[(rid, lvl)] = counts.get((rid, lvl), 0) + 1
        if lvl == "error" or rid.startswith("GH"):
            bad += 1
            if bad <= 20:
                print("%s %s: %s" % (rid, lvl, r.get("message", {}).get("text", "")[:300]))
    for n in run.get("invocations", [{}])[0].get("toolExecutionNotifications", []):
        if n.get("level") == "error":
            bad += 1
            print("validator:", n.get("message", {}).get("text", "")[:300])
print("validator results: %s" % (", ".join("%s/%s %d" % (k[0], k[1], v) for k, v in sorted(counts.items())) or "none"))
sys.exit(1 if bad else 0)
