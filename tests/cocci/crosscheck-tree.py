#!/usr/bin/env python3
"""tests/cocci/crosscheck-tree.py SITES ORIG SPATCH MIGRATE — spatch against blkmig migrate.

SITES: the cocci site list of the original tree (FILE:LINE: NAME: ..., paths
relative to ORIG or absolute under a tree with the same layout).  ORIG is the
original tree, SPATCH the tree converted by both passes of cocci/, MIGRATE
the tree converted by `blkmig migrate`.  For every function of the original
that holds a legacy call, and that both tools converted (no legacy call left
in it in either output), the two texts are compared with white space removed,
parentheses around a lone identifier dropped and a final "if (x) return;"
taken as "x;" (the same rules as tests/migrate/crosscheck.sh), so layout and
redundant parentheses do not count; a different call, lock variant, error
value, byte count or statement does.  Prints
    AGREE FILE FUNCTION (N sites)
    DIFFER FILE FUNCTION FINGERPRINT (N sites)   followed by the diff
    ONLY-SPATCH FILE FUNCTION / ONLY-MIGRATE FILE FUNCTION / NEITHER ...
and a closing "crosscheck: A of B functions both convert agree (S sites)".
FINGERPRINT hashes both normalized texts: a reviewed difference stays
accepted only while neither output changes.  Exit 0 when all agree, 1 when
some differ, 2 on bad input.
"""
import difflib
import hashlib
import os
import re
import sys

LEGACY = re.compile(r"(^|[^A-Za-z0-9_])(end_that_request_(first|chunk|last)|end_request|"
                    r"end_queued_request|end_dequeued_request)\s*\(")
SITE = re.compile(r"^(?:.*?/linux-2\.6\.24/)?([^:]+):(\d+): ([a-z_]+): ")


def read(path):
    with open(path, errors="replace") as f:
        return f.read().split("\n")


def strip_comments(line):
    return re.sub(r"/\*.*?\*/|//.*$", "", line)


def enclosing_function(lines, lineno):
    """Name of the function whose body holds line LINENO (1-based), kernel
    style: the body opens with "{" and closes with "}" in column 0."""
    i = lineno - 1
    while i >= 0 and not lines[i].startswith("{"):
        if lines[i].startswith("}") and i != lineno - 1:
            return None     # outside any function (a macro, a declaration)
        i -= 1
    if i < 0:
        return None
    head = []
    j = i - 1
    while j >= 0 and lines[j].strip() and not lines[j].startswith(("}", "#")):
        head.insert(0, strip_comments(lines[j]))
        if re.match(r"[A-Za-z_]", lines[j]):
            break
        j -= 1
    m = re.search(r"([A-Za-z_]\w*)\s*\(", " ".join(head))
    return m.group(1) if m else None


def function_body(lines, name):
    """The definition of NAME (header through the closing "}" in column 0)."""
    for i, l in enumerate(lines):
        if not re.match(r"[A-Za-z_]", l) or not re.search(r"\b%s\s*\(" % re.escape(name), l):
            continue
        j = i
        while j < len(lines) and not lines[j].startswith("{"):
            if lines[j].rstrip().endswith(";") or (j > i and re.match(r"[A-Za-z_#]", lines[j])):
                break
            j += 1
        if j >= len(lines) or not lines[j].startswith("{"):
            continue
        k = j
        while k < len(lines) and not lines[k].startswith("}"):
            k += 1
        return lines[i:k + 1]
    return None


def normalize(body):
    t = re.sub(r"\s+", "", "\n".join(body))
    prev = None
    while prev != t:
        prev = t
        t = re.sub(r"\(([A-Za-z_]\w*)\)", r"\1", t)
    return re.sub(r"^(.*)if\((.*)\)return;}$", r"\1\2;}", t)


def main():
    if len(sys.argv) != 5:
        sys.exit("usage: crosscheck-tree.py SITES ORIG SPATCH MIGRATE")
    sites, orig, sp, mg = sys.argv[1:]
    funcs = {}
    for line in open(sites):
        m = SITE.match(line)
        if not m:
            continue
        rel, n = m.group(1), int(m.group(2))
        if not os.path.isfile(os.path.join(orig, rel)):
            print("crosscheck: no %s in the original tree" % rel, file=sys.stderr)
            return 2
        fn = enclosing_function(read(os.path.join(orig, rel)), n)
        if fn:
            funcs.setdefault((rel, fn), set()).add(n)
    if not funcs:
        print("crosscheck: no site inside a function in %s" % sites, file=sys.stderr)
        return 2
    both = agree = nsites = 0
    rc = 0
    for (rel, fn), lines in sorted(funcs.items()):
        bs = function_body(read(os.path.join(sp, rel)), fn)
        bm = function_body(read(os.path.join(mg, rel)), fn)
        if bs is None or bm is None:
            print("MISSING %s %s (spatch %s, migrate %s)" % (rel, fn, bs is not None, bm is not None))
            rc = 1
            continue
        ls = any(LEGACY.search(strip_comments(l)) for l in bs)
        lm = any(LEGACY.search(strip_comments(l)) for l in bm)
        if ls or lm:
            what = "NEITHER" if ls and lm else "ONLY-MIGRATE" if ls else "ONLY-SPATCH"
            print("%s %s %s (%d sites)" % (what, rel, fn, len(lines)))
            continue
        both += 1
        nsites += len(lines)
        ns, nm = normalize(bs), normalize(bm)
        if ns == nm:
            agree += 1
            print("AGREE %s %s (%d sites)" % (rel, fn, len(lines)))
            continue
        fp = hashlib.md5((ns + "\n" + nm + "\n").encode()).hexdigest()[:12]
        print("DIFFER %s %s %s (%d sites)" % (rel, fn, fp, len(lines)))
        for d in difflib.unified_diff(bs, bm, "spatch", "migrate", n=1, lineterm=""):
            print("    " + d)
        rc = 1
    print("crosscheck: %d of %d functions both convert agree (%d sites)" % (agree, both, nsites))
    return rc


if __name__ == "__main__":
    sys.exit(main())
