#!/usr/bin/env python3
# tests/realtree/sites-table.py REPORT_JSON ROOT — the site table of a migrate run.
#
# One row per legacy call site of the run's report.json, tab-separated and sorted:
#   file:line  function  call  verdict  replacement-or-reason
# file is relative to ROOT (the tree migrate ran on); for an auto site the last column is
# the code that now stands where the call stood (white space collapsed), for a manual site
# the reason code.  The suite compares this with the hand-reviewed sites.tsv.
import json, os, re, sys

rep = json.load(open(sys.argv[1]))
root = os.path.abspath(sys.argv[2]) + '/'
rows = []
for s in rep['sites']:
    f = os.path.abspath(s['file'])
    f = f[len(root):] if f.startswith(root) else s['file']
    if s['verdict'] == 'auto':
        last = re.sub(r'\s+', ' ', s.get('after') or '').strip() or '(removed)'
    else:
        last = 'manual:' + (s.get('reason') or {}).get('code', '?')
    rows.append((f, s['line'], s.get('function') or '', s['call'], s['verdict'], last))
rows.sort(key=lambda r: (r[0], r[1], r[3]))
for r in rows:
    print('%s:%d\t%s\t%s\t%s\t%s' % r)
