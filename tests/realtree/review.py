#!/usr/bin/env python3
# tests/realtree/review.py — the REVIEW column of sites.tsv (README.md here).
#
#   review.py merge OLD NEW
#       prints NEW (the 5 columns of sites-table.py) with a 6th column, REVIEW: the review
#       of OLD's row for the same site (file:line and call) if the row's other columns are
#       unchanged, else UNREVIEWED (a changed or new row must be reviewed again).
#   review.py strip TABLE
#       prints TABLE without its REVIEW column (what the run's table is compared with).
#   review.py check TABLE
#       checks the REVIEW column and prints the counts; exit 1 on an UNREVIEWED or empty
#       review, on a converted ("auto") row whose review does not start with "exact", on a
#       left ("manual") row whose review is not "left: true: ..." (FALSE or malformed).
#
# Reviews (against ../shared/API-SEMANTICS.md: byte count, error, lock variant, request
# lifetime):  auto rows "exact: why" or "WRONG: why and the exact correction";
# manual rows "left: true: what a human must decide" or "left: FALSE: why".
import collections, sys


def rows(path):
    for no, ln in enumerate(open(path), 1):
        ln = ln.rstrip('\n')
        if ln:
            yield no, ln.split('\t')


def merge(old, new):
    keep = {}
    for _, c in rows(old):
        if len(c) >= 6:
            keep[(c[0], c[2])] = (c[:5], c[5])
    for _, c in rows(new):
        c = c[:5]
        k = keep.get((c[0], c[2]))
        print('\t'.join(c + [k[1] if k and k[0] == c else 'UNREVIEWED']))
    return 0


def strip(path):
    for _, c in rows(path):
        print('\t'.join(c[:5]))
    return 0


def check(path):
    bad, n = [], collections.Counter()
    for no, c in rows(path):
        if len(c) != 6:
            bad.append('line %d: %d columns, not 6' % (no, len(c)))
            continue
        site, verdict, rv = '%s %s' % (c[0], c[2]), c[3], c[5].strip()
        if not rv or rv.startswith('UNREVIEWED'):
            n['unreviewed'] += 1
            bad.append('%s: not reviewed' % site)
        elif verdict == 'auto':
            if rv.startswith('exact'):
                n['exact'] += 1
            else:
                n['auto-not-exact'] += 1
                bad.append('%s: converted to %s -- %s' % (site, c[4][:80], rv[:200]))
        else:
            if rv.startswith('left: true'):
                n['left-true'] += 1
            elif rv.startswith('left: FALSE'):
                n['left-FALSE'] += 1
                bad.append('%s: left with a false reason -- %s' % (site, rv[:200]))
            else:
                n['left-malformed'] += 1
                bad.append('%s: review of a left row is neither "left: true" nor "left: FALSE" -- %s'
                           % (site, rv[:120]))
    keys = ('exact', 'auto-not-exact', 'left-true', 'left-FALSE', 'left-malformed', 'unreviewed')
    print('review: ' + ', '.join('%d %s' % (n[k], k) for k in keys))
    for b in bad:
        print(b)
    return 1 if bad else 0


def main(a):
    if len(a) == 3 and a[0] == 'merge':
        return merge(a[1], a[2])
    if len(a) == 2 and a[0] == 'strip':
        return strip(a[1])
    if len(a) == 2 and a[0] == 'check':
        return check(a[1])
    sys.stderr.write('usage: review.py merge OLD NEW | strip TABLE | check TABLE\n')
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
