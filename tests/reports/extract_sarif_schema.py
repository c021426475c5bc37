#!/usr/bin/env python3
"""Write the official SARIF 2.1.0 JSON schema that the SARIF Multitool (npm package
@microsoft/sarif-multitool) carries as an embedded resource to OUT.
Usage: extract_sarif_schema.py MULTITOOL_BINARY OUT"""
import json
import sys

data = open(sys.argv[1], "rb").read()
title = b'"title": "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema"'
at = data.find(title)
if at < 0:
    sys.exit("no SARIF 2.1.0 schema in %s" % sys.argv[1])
start = data.rfind(b"{", 0, at)
schema, _ = json.JSONDecoder().raw_decode(data[start:start + 400000].decode("utf-8", "replace"))
if schema.get("properties", {}).get("version", {}).get("enum") != ["2.1.0"]:
    sys.exit("the embedded schema is not SARIF 2.1.0")
json.dump(schema, open(sys.argv[2], "w"), indent=1)
