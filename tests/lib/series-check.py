#!/usr/bin/env python3
"""tests/lib/series-check.py — does a `blkmig migrate --series` series say what the run did?

    series-check.py REPORT.json SERIES_DIR PREFIX

REPORT.json is the --report of the same run; PREFIX is what the analysis' file names
have before the names relative to --root ('tree/', or the absolute root with a '/').
Checks, printing one line per problem (exit 1 if any):
- names 0001-...patch numbered from 1 without a gap; the mbox From line, From:, Date:,
  Subject: [PATCH n/N] PREFIX: convert to blk_end_request(); '---', diffstat, diffs;
- every file the run converted is in exactly one patch, and no other file is;
- message lines at most 75 columns (but a single long word), no analysis path in it;
- the facts of every converted site of the patch's files: its function and old call
  named; its Locking item names the variant the new code calls (held: `because the queue
  lock is held there`, not held: `which takes the queue lock itself`); an old race the
  conversion fixes named as such; its uptodate and its byte count (as the report gives
  them) in its Errors and Byte counts items;
- every site left for a human in the patch's files listed as `CALL() in FN(), FILE:LINE
  (REASON)`;
- every value the diff reads from the request before the call (`typeof(X) N = X;`) told.
"""
import json
import os
import re
import sys


def norm(text):
    return re.sub(r'\s+', ' ', text).strip()


def nospace(text):
    return re.sub(r'\s+', '', text or '')


def parse(path):
    text = open(path, errors='replace').read()
    head, sep, rest = text.partition('\n---\n')
    if not sep:
        return None, 'no --- line'
    lines = head.split('\n')
    m = {}
    m['mbox'] = lines[0]
    hdr_end = lines.index('') if '' in lines else len(lines)
    for l in lines[1:hdr_end]:
        k, _, v = l.partition(': ')
        m[k] = v
    m['body'] = '\n'.join(lines[hdr_end + 1:])
    m['files'] = re.findall(r'^diff --git a/(\S+) b/(\S+)$', rest, re.M)
    m['stat'] = re.findall(r'^ (\S+) +\| +\d+ [+-]*$', rest, re.M)
    return m, None


def sections(body):
    """'title' -> its items (normalised text); a title is a line ending with ':'
    right before a '- ' item."""
    out = {}
    cur = None
    lines = body.split('\n')
    for k, l in enumerate(lines):
        if l.endswith(':') and not l.startswith(('- ', '  ')) and \
                k + 1 < len(lines) and lines[k + 1].startswith('- '):
            cur = l[:-1]
            out[cur] = []
        elif l.startswith('- ') and cur is not None:
            out[cur].append(l[2:])
        elif l.startswith('  ') and cur is not None and out[cur]:
            out[cur][-1] += ' ' + l.strip()
        else:
            cur = None
    return {k: [norm(i) for i in v] for k, v in out.items()}


def items_of(secs, title, fn):
    for t, items in secs.items():
        if t.startswith(title):
            for i in items:
                names = i.split(': ', 1)[0]
                if re.search(r'(^|, | and )' + re.escape(fn) + r'($|, | and )', names):
                    yield i


def main():
    report, sdir, prefix = sys.argv[1], sys.argv[2], sys.argv[3]
    r = json.load(open(report))
    bad = []
    rel = lambda p: p[len(prefix):] if p.startswith(prefix) else p
    converted = {rel(f['path']) for f in r['files']
                 if (f.get('outcome') or {}).get('status') == 'converted'}
    names = sorted(n for n in os.listdir(sdir) if n.endswith('.patch'))
    seen = {}
    for k, n in enumerate(names, 1):
        if not re.match(r'^%04d-[A-Za-z0-9._-]+\.patch$' % k, n):
            bad.append('%s: not patch number %d' % (n, k))
        m, err = parse(os.path.join(sdir, n))
        if err:
            bad.append('%s: %s' % (n, err))
            continue
        if m['mbox'] != 'From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001':
            bad.append('%s: first line %r' % (n, m['mbox']))
        if not re.match(r'^.+ <[^<>@ ]+@[^<> ]+>$', m.get('From', '')):
            bad.append('%s: From: %r' % (n, m.get('From')))
        if not re.match(r'^[A-Z][a-z]{2}, \d+ [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d [+-]\d{4}$',
                        m.get('Date', '')):
            bad.append('%s: Date: %r' % (n, m.get('Date')))
        tag = '[PATCH]' if len(names) == 1 else r'\[PATCH 0*%d/%d\]' % (k, len(names))
        if not re.match(r'^%s [A-Za-z0-9_.-]+(: [A-Za-z0-9_.-]+)?: convert to blk_end_request\(\)$'
                        % (re.escape(tag) if tag == '[PATCH]' else tag), m.get('Subject', '')):
            bad.append('%s: Subject: %r' % (n, m.get('Subject')))
        files = [a for a, b in m['files'] if a == b]
        if len(files) != len(m['files']) or not files:
            bad.append('%s: diff headers %r' % (n, m['files']))
        if sorted(m['stat']) != sorted(files):
            bad.append('%s: diffstat names %r, diffs %r' % (n, m['stat'], files))
        for f in files:
            if f in seen:
                bad.append('%s: %s is in %s too' % (n, f, seen[f]))
            seen[f] = n
        body = m['body']
        for l in body.split('\n'):
            if len(l) > 75 and ' ' in l.strip():
                bad.append('%s: message line of %d columns: %s' % (n, len(l), l))
        if prefix.startswith('/') and prefix in body:
            bad.append('%s: the analysis path %s in the message' % (n, prefix))
        flat = norm(body)
        secs = sections(body)
        # a value the conversion reads from the request before the call (spatch's hoist)
        diff = open(os.path.join(sdir, n), errors='replace').read().partition('\n---\n')[2]
        for expr, name in re.findall(r'^\+\s*typeof\((.*)\) (\w+) = \1;$', diff, re.M):
            if '%s is read into %s before the new call' % (norm(expr), name) not in flat:
                bad.append('%s: the saved value %s (%s) is not told' % (n, name, expr))
        mine = {rel(s['file']) for s in r['sites']} & set(files)
        # the files of the driver: those in the patch and those its message lists
        for s in r['sites']:
            f = rel(s['file'])
            fn = (s.get('function') or '') + '()' if s.get('function') else 'file scope'
            if f not in files:
                continue
            where = '%s: %s:%d %s' % (n, f, s['line'], s['call'])
            if s['verdict'] == 'manual':
                want = '%s() in %s, %s:%d (%s)' % (s['call'], fn, f, s['line'],
                                                   (s.get('reason') or {}).get('code', 'manual'))
                if want not in flat:
                    bad.append('%s: not listed for a human: %s' % (where, want))
                continue
            if fn not in flat or s['call'] + '()' not in flat:
                bad.append('%s: %s or %s() not named' % (where, fn, s['call']))
            after = s.get('after') or ''
            calls = re.findall(r'\b((?:__)?blk_end_request(?:_callback)?)\s*\(', after)
            if calls:
                # the item of this function that names the site's variant
                locks = [i for i in items_of(secs, 'Locking', fn)
                         if i.split(': ', 1)[1].startswith(calls[0] + '()')]
                if not locks:
                    bad.append('%s: no Locking item says %s() for %s' % (where, calls[0], fn))
                lk = s['lock']['state']
                for i in locks:
                    if lk == 'held' and calls[0] == '__blk_end_request' and \
                            'because the queue lock is held there' not in i:
                        bad.append('%s: held, but the item says: %s' % (where, i))
                    if lk == 'not_held' and calls[0] == 'blk_end_request' and \
                            'which takes the queue lock itself' not in i:
                        bad.append('%s: not held, but the item says: %s' % (where, i))
            if any(e.startswith('old_lock_bug_fixed:') for e in s['lock']['evidence']):
                if not re.search(r'Fixes an old race in [^:]*\b' + re.escape(fn), flat):
                    bad.append('%s: the old race it fixes is not named' % where)
            ut = (s.get('uptodate') or {}).get('expr')
            # a wrapper's parameter renamed: the item names the parameter and its new name
            said = ['uptodate = %s' % norm(ut)] if ut else []
            if ut and (s.get('uptodate') or {}).get('class') == 'wrapper_param':
                said.append('its parameter %s becomes' % norm(ut))
            if calls and ut and not any(w in i for w in said
                                        for i in items_of(secs, 'Errors', fn)):
                bad.append('%s: no Errors item with uptodate = %s' % (where, ut))
            by = (s.get('bytes') or {}).get('expr')
            if calls and by and nospace(by) in nospace(after) and \
                    not any(nospace(by) in nospace(i) for i in items_of(secs, 'Byte counts', fn)):
                bad.append('%s: no Byte counts item with %s' % (where, by))
    for f in sorted(converted - set(seen)):
        bad.append('%s: converted, but in no patch' % f)
    for f in sorted(set(seen) - converted):
        bad.append('%s: in %s, but the run did not convert it' % (f, seen[f]))
    if not names:
        bad.append('no patch in %s' % sdir)
    print('\n'.join(bad[:40]) if bad else 'series-check: %d patches, %d files' % (len(names), len(seen)))
    sys.exit(1 if bad else 0)


if __name__ == '__main__':
    main()
