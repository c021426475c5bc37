#!/bin/bash
# tests/lib/checkpatch.sh — today's checkpatch.pl on patches, findings on added lines only.
#
#   checkpatch.sh BUILD_DIR PATCH...
#
# The 2.6.24 tree's own scripts/checkpatch.pl no longer runs on today's perl; Debian's
# linux-source-6.1 (in the top Makefile's DEBIAN_PACKAGES) ships a current one inside
# /usr/src/linux-source-6.1.tar.xz.  Only what checkpatch reads is extracted, once, into
# BUILD_DIR/checkpatch/ (checkpatch.pl, spelling.txt, const_structs.checkpatch: it finds
# them beside itself); LINUX_SOURCE_TAR names another tarball.
#
# Each PATCH is checked with `checkpatch.pl --no-tree --show-types`.  A finding whose
# patch line (checkpatch's `#N:`) is one the patch adds (`+`, not `+++`) is printed as
#   ADDED<TAB>PATCH<TAB>LEVEL:TYPE<TAB>FILE:LINE<TAB>message<TAB>the added line
# and any other finding (the commit message, a missing Signed-off-by, context lines) as
#   OTHER<TAB>PATCH<TAB>LEVEL:TYPE<TAB>-<TAB>message<TAB>-
# Only ERROR and WARNING count (CHECK is --strict's, not asked for).
# Exit 0 when no finding is on an added line, 1 when one is, 2 when checkpatch cannot run.
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 BUILD_DIR PATCH..." >&2; exit 2; }
build=$1
shift
tarball=${LINUX_SOURCE_TAR:-/usr/src/linux-source-6.1.tar.xz}
dir=$build/checkpatch
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

exec 8>"$dir/.lock"
flock 8
stale=no
if [ ! -f "$dir/.extracted" ]; then
	stale=yes
elif [ -r "$tarball" ] && [ "$tarball" -nt "$dir/.extracted" ]; then
	stale=yes
fi
if [ $stale = yes ]; then
	if [ ! -r "$tarball" ]; then
		echo "checkpatch: no $tarball (apt-get install linux-source-6.1, or make deps)" >&2
		exit 2
	fi
	top=$(tar -tJf "$tarball" 2>/dev/null | head -n 1 | cut -d/ -f1) || true
	[ -n "$top" ] || { echo "checkpatch: cannot read $tarball" >&2; exit 2; }
	rm -rf "$dir/x"
	mkdir -p "$dir/x"
	tar -xJf "$tarball" -C "$dir/x" "$top/scripts/checkpatch.pl" "$top/scripts/spelling.txt" \
		"$top/scripts/const_structs.checkpatch"
	for f in checkpatch.pl spelling.txt const_structs.checkpatch; do
		mv "$dir/x/$top/scripts/$f" "$dir/$f"
	done
	rm -rf "$dir/x"
	touch "$dir/.extracted"
fi
exec 8>&-

# checkpatch's report: "LEVEL:TYPE: message", then "#N: FILE: path:line:" (N is the
# patch's line) and the quoted line; patch-wide findings have "#N:" alone or nothing.
# shellcheck disable=SC2016
parse='
import re, sys
patch = sys.argv[1]
lines = open(patch, errors="replace").read().split("\n")
bad = 0
cur = None
def flush(c):
    global bad
    if not c or c["level"] not in ("ERROR", "WARNING"):
        return
    n = c.get("n")
    added = n is not None and 0 < n <= len(lines) and lines[n - 1].startswith("+") \
        and not lines[n - 1].startswith("+++")
    if added:
        bad += 1
        print("ADDED\t%s\t%s:%s\t%s\t%s\t%s" % (patch, c["level"], c["type"], c.get("at", "-"),
                                              c["msg"], lines[n - 1][1:].strip()))
    else:
        print("OTHER\t%s\t%s:%s\t-\t%s\t-" % (patch, c["level"], c["type"], c["msg"]))
for l in sys.stdin.read().split("\n"):
    m = re.match(r"^(ERROR|WARNING|CHECK):([A-Z0-9_]+): (.*)", l)
    if m:
        flush(cur)
        cur = {"level": m.group(1), "type": m.group(2), "msg": m.group(3)}
        continue
    m = re.match(r"^#(\d+): (?:FILE: (\S+?):?$)?", l)
    if m and cur and "n" not in cur:
        cur["n"] = int(m.group(1))
        if m.group(2):
            cur["at"] = m.group(2)
flush(cur)
sys.exit(1 if bad else 0)
'

rc=0
for p in "$@"; do
	[ -r "$p" ] || { echo "checkpatch: no such patch: $p" >&2; exit 2; }
	set +e
	out=$(perl "$dir/checkpatch.pl" --no-tree --show-types --no-summary --no-color "$p" 2>&1)
	crc=$?
	set -e
	# checkpatch exits 1 when it found something; anything else, or perl's own
	# complaint, is a failure to run
	if [ $crc -gt 1 ] || grep -q '^Can.t locate\|^syntax error\|^Global symbol' <<<"$out"; then
		echo "checkpatch: checkpatch.pl failed on $p (exit $crc): $(head -n 5 <<<"$out")" >&2
		exit 2
	fi
	python3 -c "$parse" "$p" <<<"$out" || rc=1
done
exit $rc
