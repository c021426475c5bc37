#!/usr/bin/env python3
"""lockcheck.py — judges the shim's lock-assertion lines of a real driver's boot.

usage: lockcheck.py SERIAL_LOG MODULE.ko REPORT.json DRIVER.c [--original ORIGINAL.c]

The shim prints, once per call site, for a completion call that needs the queue lock
and was made without it:
    blkcompat: lock: CALL without the queue lock, called from SYM+0xOFF/0xLEN [MOD]
and `blkcompat: note: ...` for other calls (old driver bugs blkmig does not convert:
recorded, never a failure).  Each `lock:` line is mapped to a source line of DRIVER.c
(the file MODULE.ko was built from): SYM's section and value from the module's symbol
table, OFF - 1 (the return address points after the call) through `addr2line -i`, the
innermost frame in DRIVER.c.  With --original (the converted build) that line is
mapped back to ORIGINAL.c through a diff of the two files.  The line is allowed only
when blkmig's migrate report (REPORT.json, lines of the original file) has a site
there whose reason is lock_mixed or whose lock evidence says old_lock_bug_fixed:
blkmig saw that old bug and named it.  Every other `lock:` line is a failure.

Prints one line per assertion line; exit 0 when all are allowed, 1 otherwise, 2 when
something needed is missing.
"""
import difflib
import json
import os
import re
import subprocess
import sys

LINE = re.compile(r'blkcompat: (lock|note): (\S+) without the queue lock, called from '
                  r'([A-Za-z0-9_.$]+)\+0x([0-9a-f]+)/0x([0-9a-f]+)(?: \[(\S+)\])?')


def dmesg_lines(log):
    """The assertion lines of the boot: the dmesg dump, or the whole log without one."""
    with open(log, errors='replace') as f:
        text = [l.rstrip('\r\n') for l in f]
    inside, dump = False, []
    for l in text:
        if l == 'BLKMIG-DMESG-BEGIN':
            inside = True
        elif l == 'BLKMIG-DMESG-END':
            inside = False
        elif inside:
            dump.append(l)
    seen, out, odd = set(), [], []
    for l in dump or text:
        m = LINE.search(l)
        if m and m.group(0) not in seen:
            seen.add(m.group(0))
            out.append(m)
        elif not m and 'blkcompat: lock:' in l:
            odd.append(l.strip())
    return out, odd


def symbols(ko):
    """name -> (section name, value) of the module's functions."""
    secs = {}
    out = subprocess.run(['readelf', '-SW', ko], capture_output=True, text=True, check=True)
    for m in re.finditer(r'^\s*\[\s*(\d+)\]\s+(\S+)', out.stdout, re.M):
        secs[m.group(1)] = m.group(2)
    syms = {}
    out = subprocess.run(['readelf', '-sW', ko], capture_output=True, text=True, check=True)
    for l in out.stdout.splitlines():
        f = l.split()
        if len(f) == 8 and f[3] == 'FUNC' and f[6].isdigit():
            syms.setdefault(f[7], (secs.get(f[6], ''), int(f[1], 16)))
    return syms


def source_line(ko, syms, sym, off, driver):
    """(line in driver, addr2line's frames) of the call returning to sym+off."""
    if sym not in syms:
        return None, 'no symbol %s in %s' % (sym, os.path.basename(ko))
    sec, value = syms[sym]
    addr = value + off - 1
    out = subprocess.run(['addr2line', '-i', '-f', '-e', ko, '-j', sec, hex(addr)],
                         capture_output=True, text=True)
    lines = out.stdout.split('\n')
    frames = []
    for fn, loc in zip(lines[0::2], lines[1::2]):
        frames.append((fn, loc))
    base = os.path.basename(driver)
    for fn, loc in frames:
        m = re.match(r'(.*):(\d+)', loc)
        if m and os.path.basename(m.group(1)) == base:
            return int(m.group(2)), frames
    return None, frames


def line_map(converted, original):
    """converted line -> (original line, exact?) through a diff of the two files."""
    with open(converted, errors='replace') as f:
        c = f.read().splitlines()
    with open(original, errors='replace') as f:
        o = f.read().splitlines()
    m = {}
    sm = difflib.SequenceMatcher(None, o, c, autojunk=False)
    for tag, i1, i2, j1, j2 in sm.get_opcodes():
        for k in range(j2 - j1):
            if tag == 'equal' or (tag == 'replace' and i2 - i1 == j2 - j1):
                m[j1 + k + 1] = (i1 + k + 1, tag == 'equal')
            elif tag in ('replace', 'insert'):
                # Lines blkmig added or reshaped: the old block they stand for.
                m[j1 + k + 1] = (i1 + 1, False)
    return m


def allowed_sites(report, driver_base):
    """line -> [(site id, why)] of the report's sites that name an old lock bug."""
    with open(report) as f:
        rep = json.load(f)
    ok = {}
    for s in rep.get('sites', []):
        if os.path.basename(s.get('file', '')) != driver_base:
            continue
        why = None
        if (s.get('reason') or {}).get('code') == 'lock_mixed':
            why = 'lock_mixed'
        elif any('old_lock_bug_fixed' in e for e in (s.get('lock') or {}).get('evidence', [])):
            why = 'old_lock_bug_fixed'
        for ln in range(s['line'], s.get('end_line', s['line']) + 1):
            ok.setdefault(ln, []).append((s.get('id', '?'), why, s.get('function', '?')))
    return ok


def main(argv):
    if len(argv) not in (5, 7) or (len(argv) == 7 and argv[5] != '--original'):
        print(__doc__, file=sys.stderr)
        return 2
    log, ko, report, driver = argv[1:5]
    original = argv[6] if len(argv) == 7 else None
    for p in (log, ko, report, driver) + ((original,) if original else ()):
        if not os.path.isfile(p):
            print('lockcheck: missing %s' % p)
            return 2
    base = os.path.basename(original or driver)
    found, odd = dmesg_lines(log)
    try:
        syms = symbols(ko)
    except (OSError, subprocess.CalledProcessError) as e:
        print('lockcheck: cannot read the symbols of %s: %s' % (ko, e))
        return 2
    lmap = line_map(driver, original) if original else None
    sites = allowed_sites(report, base)
    bad = 0
    for m in found:
        kind, call, sym, off = m.group(1), m.group(2), m.group(3), int(m.group(4), 16)
        line, frames = source_line(ko, syms, sym, off, driver)
        where = '%s+%#x' % (sym, off)
        if line is None:
            what = 'no line of %s (%s)' % (os.path.basename(driver), frames)
            orig = None
        elif lmap is not None:
            orig, exact = lmap.get(line, (None, False))
            what = 'converted line %d = original %s:%s%s' % (
                line, base, orig, '' if exact else ' (rewritten line)')
        else:
            orig = line
            what = '%s:%d' % (base, line)
        if kind == 'note':
            print('note: %s from %s at %s (not judged)' % (call, where, what))
            continue
        named = [x for x in sites.get(orig, []) if x[1]] if orig else []
        if named:
            print('lock: %s from %s at %s: allowed, report site %s says %s' % (
                call, where, what, named[0][0], named[0][1]))
        else:
            bad += 1
            others = sites.get(orig, []) if orig else []
            print('lock: %s from %s at %s: NOT named by the report (%s)' % (
                call, where, what,
                'site %s has no lock_mixed/old_lock_bug_fixed' % others[0][0] if others
                else 'no report site at that line'))
    for l in odd:
        bad += 1
        print('lock: a line lockcheck cannot read (NOT named by the report): %s' % l)
    print('lockcheck: %d lock line(s), %d not named by the report, %d note(s)' % (
        sum(m.group(1) == 'lock' for m in found) + len(odd), bad,
        sum(m.group(1) == 'note' for m in found)))
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
