#!/usr/bin/env python3
# tests/outoftree/sitetable.py — the site tables of suite `outoftree` (README.md here).
#
#   sitetable.py sites ORIG
#       every legacy completion call of the corpus's .c files, found without either tool:
#       FILE:LINE <TAB> FUNCTION <TAB> CALL (comments and strings do not count)
#   sitetable.py table --tool migrate|spatch --orig ORIG --conv CONV --report R [--base B]
#       the site table of one tool's run: FILE:LINE, function, call, outcome, what stands now
#       (auto: the code that replaced the call's lines in CONV, white space collapsed, or
#       "(removed)"; manual: "REASON-CODE: message", for migrate with its lock state).  R is migrate's report.json, or the
#       FILE:LINE: NAME: LEVEL blkmig/CODE: MESSAGE list of cocci/blkmig-cocci-convert
#       (BLKMIG_SITES); their paths are relative to B (default: CONV's parent).
#   sitetable.py merge OLD NEW
#       NEW (5 columns) with the REVIEW column of OLD kept for each row whose outcome and
#       code are unchanged; any other row gets UNREVIEWED.
#   sitetable.py summary MIGRATE_TABLE SPATCH_TABLE
#       the per-driver table of README.md (counts of outcomes and reviews, .c sites only).
#   sitetable.py review TABLE
#       checks the REVIEW column: exit 1 on a converted row reviewed WRONG, a left row
#       reviewed FALSE, an UNREVIEWED or empty review, a manual row without a reason.
import difflib, os, re, sys

CALLS = ('end_that_request_first', 'end_that_request_chunk', 'end_that_request_last',
         'end_request', 'end_queued_request', 'end_dequeued_request')
CALL_RE = re.compile(r'\b(' + '|'.join(CALLS) + r')\s*\(')


def blank_comments(text):
    """text with comments, string and character literals blanked (newlines kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            out.append(' ' * (j - i))
            i = j
        elif c in '"\'':
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            j = min(j + 1, n)
            out.append(c + re.sub(r'[^\n]', ' ', text[i + 1:j - 1]) + (c if j - 1 > i else ''))
            i = j
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def first_branches(lines):
    """the lines with every preprocessor line blanked and, of each #if/#elif/#else
    chain, every branch but the first blanked too (so braces balance in version ladders)."""
    out, stack = [], []   # stack: True while in a branch that is skipped
    cont = False
    for ln in lines:
        s = ln.strip()
        if cont or s.startswith('#'):
            d = re.match(r'#\s*(\w+)', s)
            d = d.group(1) if d and not cont else ''
            if d in ('if', 'ifdef', 'ifndef'):
                stack.append([False, any(x[0] for x in stack)])
            elif d in ('elif', 'else') and stack:
                stack[-1][0] = True
            elif d == 'endif' and stack:
                stack.pop()
            cont = ln.rstrip().endswith('\\')
            out.append('')
            continue
        skip = any(x[0] or x[1] for x in stack)
        out.append('' if skip else ln)
    return out


def functions(code_lines):
    """[(name, first_line, last_line)] of the function bodies at file scope (1-based)."""
    res, depth, start, name, pending = [], 0, 0, None, ''
    for no, ln in enumerate(first_branches(code_lines), 1):
        for ch in ln:
            if ch == '{':
                if depth == 0:
                    m = re.search(r'(\w+)\s*\((?:[^()]|\([^()]*\))*\)\s*(?:\w+\s*)*$', pending)
                    name = m.group(1) if m and not re.search(r'=\s*$|\b(struct|union|enum)\s+\w*\s*$', pending) else None
                    start = no
                depth += 1
            elif ch == '}':
                depth = max(depth - 1, 0)
                if depth == 0:
                    if name:
                        res.append((name, start, no))
                    name, pending = None, ''
            elif depth == 0:
                pending = '' if ch == ';' else pending + ch
        if depth == 0:
            pending += ' '
    return res


def corpus_sites(orig):
    rows = []
    for d, _, files in os.walk(orig):
        for f in files:
            if not f.endswith('.c'):
                continue
            p = os.path.join(d, f)
            rel = os.path.relpath(p, orig)
            text = open(p, encoding='latin-1').read()
            code = blank_comments(text).split('\n')
            funcs = functions(code)
            for no, ln in enumerate(code, 1):
                if ln.lstrip().startswith('#'):
                    continue    # a macro definition's body is no call site
                for m in CALL_RE.finditer(ln):
                    fn = next((n for n, a, b in funcs if a <= no <= b), '(none)')
                    rows.append((rel, no, fn, m.group(1)))
    return sorted(rows)


def collapse(s):
    return re.sub(r'\s+', ' ', s).strip()


GUARD = '#if LINUX_VERSION_CODE >= KERNEL_VERSION(2,6,25)'


def guarded(conv_lines, j):
    """the new branch of the version guard a tool wrote around CONV's line j (0-based) when
    j stands in its #else (the old lines kept for older kernels), else None"""
    k = j
    while k > 0 and conv_lines[k - 1].strip() not in ('#else', '#endif') \
            and conv_lines[k - 1].rstrip('\n') != GUARD:
        k -= 1
    if k == 0 or conv_lines[k - 1].strip() != '#else':
        return None
    e = k - 1
    i = e
    while i > 0 and conv_lines[i - 1].rstrip('\n') != GUARD:
        if conv_lines[i - 1].strip() in ('#else', '#endif'):
            return None
        i -= 1
    return None if i == 0 else collapse(''.join(conv_lines[i:e]))


def new_code(orig_lines, conv_lines):
    """for each line number of ORIG: None if it is unchanged in CONV, else (first line of
    its change, the text that replaced the change); an unchanged line in the #else of a
    version guard the tool wrote gives ('guard', the guard's new lines)."""
    sm = difflib.SequenceMatcher(None, orig_lines, conv_lines, autojunk=False)
    res = {}
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        if tag in ('replace', 'delete'):
            txt = collapse(''.join(conv_lines[j1:j2]))
            for i in range(i1, i2):
                res[i + 1] = (i1 + 1, txt)
        elif tag == 'equal':
            for i in range(i1, i2):
                g = guarded(conv_lines, j1 + i - i1)
                if g is not None:
                    res[i + 1] = ('guard', g)
    return res


def table(tool, orig, conv, report, base):
    import json
    sites = []   # (file relative to ORIG, line, function, call, verdict, reason)
    conv_abs = os.path.abspath(conv) + '/'

    def rel(p):
        a = os.path.abspath(os.path.join(base, p))
        return a[len(conv_abs):] if a.startswith(conv_abs) else p
    if tool == 'migrate':
        rep = json.load(open(report))
        for s in rep['sites']:
            r = s.get('reason') or {}
            reason = '%s: %s' % (r.get('code', ''), r.get('text', '')) if r else ''
            if reason:
                reason += ' (lock: %s)' % ((s.get('lock') or {}).get('state') or '?')
            sites.append((rel(s['file']), s['line'], s.get('function') or '(none)', s['call'],
                          s['verdict'], collapse(reason)))
    else:
        names = {(f, l): fn for f, l, fn, c in corpus_sites(orig)}
        line_re = re.compile(r'^(.*?):(\d+): (\w+): (INFO|WARNING) blkmig/([\w-]+): (.*)$')
        for ln in open(report):
            m = line_re.match(ln.rstrip('\n'))
            if not m:
                continue
            f, l = rel(m.group(1)), int(m.group(2))
            auto = m.group(4) == 'INFO'
            sites.append((f, l, names.get((f, l), '(none)'), m.group(3),
                          'auto' if auto else 'manual',
                          '' if auto else collapse('%s: %s' % (m.group(5), m.group(6)))))
    changes, rows, seen = {}, [], {}
    for f, l, fn, call, verdict, reason in sorted(sites, key=lambda s: (s[0], s[1], s[3])):
        if f not in changes:
            a = open(os.path.join(orig, f), encoding='latin-1').read().splitlines(True)
            b = open(os.path.join(conv, f), encoding='latin-1').read().splitlines(True)
            changes[f] = new_code(a, b)
        ch = changes[f].get(l)
        if verdict == 'auto':
            if ch is not None and ch[0] == 'guard':
                now = 'GUARDED (#if >= 2.6.25): ' + ch[1]
            elif ch is None:
                now = 'UNCHANGED (the call is still there)'
            elif (f, ch[0]) in seen:
                now = '(folded into the change at line %d)' % seen[(f, ch[0])]
            else:
                now = ch[1] or '(removed)'
                seen[(f, ch[0])] = l
        else:
            now = ('CHANGED: ' + (ch[1] or '(removed)') + ' | ' if ch and ch[0] != 'guard'
                   else '') + (reason or 'NO REASON')
        rows.append('%s:%d\t%s\t%s\t%s\t%s' % (f, l, fn, call, verdict, now))
    return rows


def merge(old, new):
    keep = {}
    for ln in (open(old) if os.path.exists(old) else []):
        c = ln.rstrip('\n').split('\t')
        if len(c) >= 6:
            keep[(c[0], c[2])] = (c[3], c[4], c[5])
    out = []
    for ln in open(new):
        c = ln.rstrip('\n').split('\t')[:5]
        k = keep.get((c[0], c[2]))
        out.append('\t'.join(c + [k[2] if k and (k[0], k[1]) == (c[3], c[4]) else 'UNREVIEWED']))
    return out


def review(path):
    bad = []
    for ln in open(path):
        c = ln.rstrip('\n').split('\t')
        if len(c) != 6:
            bad.append('not 6 columns: ' + ln.strip())
            continue
        site, verdict, now, rv = c[0] + ' ' + c[2], c[3], c[4], c[5]
        if not rv or rv.startswith('UNREVIEWED'):
            bad.append('%s: not reviewed' % site)
        elif verdict == 'auto' and not rv.startswith('exact'):
            bad.append('%s: converted to %s -- %s' % (site, now[:80], rv[:140]))
        elif verdict != 'auto' and rv.startswith('FALSE'):
            bad.append('%s: left with a false reason -- %s' % (site, rv[:140]))
        if verdict != 'auto' and (not now.strip() or now.endswith('NO REASON') or now.endswith(': ')):
            bad.append('%s: left without a reason' % site)
    print('\n'.join(bad))
    return 1 if bad else 0


def summary(mt, st):
    def load(t):
        d = {}
        for ln in open(t):
            c = ln.rstrip('\n').split('\t')
            if c[0].split(':')[0].endswith('.c'):
                d.setdefault(c[0].split('/')[0], []).append(c)
        return d

    def counts(rows):
        a = [r for r in rows if r[3] == 'auto']
        l = [r for r in rows if r[3] != 'auto']
        return [len(a)] + [sum(r[5].startswith(w) for r in a) for w in ('exact', 'WRONG')] + \
            [len(l)] + [sum(r[5].startswith(w) for r in l) for w in ('true', 'weak', 'FALSE')]
    m, s = load(mt), load(st)
    fmt = '| %s | %d | %d / %d / %d | %d / %d / %d / %d | %d / %d / %d | %d / %d / %d / %d |'
    print('| driver | sites | migrate: converted / exact / WRONG | migrate: left / true / weak / FALSE '
          '| spatch: converted / exact / WRONG | spatch: left / true / weak / FALSE |')
    print('|---|---|---|---|---|---|')
    tot = [0] * 15
    for drv in sorted(m):
        v = [len(m[drv])] + counts(m[drv]) + counts(s.get(drv, []))
        tot = [x + y for x, y in zip(tot, v)]
        print(fmt % tuple([drv] + v))
    print(fmt % tuple(['**total**'] + tot))


def main(a):
    if a[:1] == ['sites'] and len(a) == 2:
        for f, l, fn, c in corpus_sites(a[1]):
            print('%s:%d\t%s\t%s' % (f, l, fn, c))
        return 0
    if a[:1] == ['table']:
        o = dict(zip(a[1::2], a[2::2]))
        conv = o['--conv']
        print('\n'.join(table(o['--tool'], o['--orig'], conv, o['--report'],
                              o.get('--base', os.path.dirname(os.path.abspath(conv))))))
        return 0
    if a[:1] == ['merge'] and len(a) == 3:
        print('\n'.join(merge(a[1], a[2])))
        return 0
    if a[:1] == ['summary'] and len(a) == 3:
        summary(a[1], a[2])
        return 0
    if a[:1] == ['review'] and len(a) == 2:
        return review(a[1])
    sys.stderr.write('usage: see the head of tests/outoftree/sitetable.py\n')
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
