#!/bin/bash
# tests/realtree/compile-check.sh — does a converted file compile for the 2.6.25 API?
#
#   compile-check.sh --tree KBUILD_TREE --src CONVERTED_ROOT [-j N] [--left LIST] REL_PATH...
#
# KBUILD_TREE is the configured 2.6.24 tree of prepare.sh.  Each CONVERTED_ROOT/REL_PATH is
# compiled (-fsyntax-only) with the exact gcc flags kbuild uses for REL_PATH on x86_64
# (taken once from `make -n V=1 ARCH=x86_64 REL.o` and cached in KBUILD_TREE/.blkmig-flags/)
# plus the force-included blk-2.6.25.h: the 2.6.25 declarations, and every legacy completion
# function an error.  The original KBUILD_TREE/REL_PATH is compiled too, with the same flags
# and without the header: if it does not compile on x86_64 (ps3, s390, sparc, um, ...), the
# file is SKIPped.  One line per file: `OK REL`, `FAIL REL: first error`, `SKIP REL: why`.
# --left LIST names the legacy calls a partial conversion left on purpose (sites reported for
# manual review): lines `REL COUNT`. A file with COUNT > 0 is OK when its only errors are
# exactly COUNT uses of legacy functions (`OK REL (COUNT legacy calls left, reported)`).
# Exit 0 when nothing FAILed, 1 when something did, 2 on usage errors.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
header=$here/blk-2.6.25.h
usage() { echo "usage: $0 --tree KBUILD_TREE --src CONVERTED_ROOT [-j N] [--left LIST] REL_PATH..." >&2; exit 2; }

tree='' src='' jobs=2 left=/dev/null
while [ $# -gt 0 ]; do
	case $1 in
	--tree) tree=${2:-}; shift 2 ;;
	--src) src=${2:-}; shift 2 ;;
	-j) jobs=${2:-}; shift 2 ;;
	--left) left=${2:-}; shift 2 ;;
	--) shift; break ;;
	-*) usage ;;
	*) break ;;
	esac
done
[ -n "$tree" ] && [ -n "$src" ] && [ $# -gt 0 ] || usage
[ -f "$tree/include/linux/autoconf.h" ] ||
	{ echo "compile-check: $tree is not a configured kbuild tree (run prepare.sh)" >&2; exit 2; }
[ -d "$src" ] || { echo "compile-check: no such directory: $src" >&2; exit 2; }
tree=$(cd "$tree" && pwd)
src=$(cd "$src" && pwd)
cache=$tree/.blkmig-flags

for rel in "$@"; do
	case $rel in /* | *..*) echo "compile-check: REL_PATH must be relative: $rel" >&2; exit 2 ;; esac
	[ -f "$src/$rel" ] || { echo "compile-check: no such file: $src/$rel" >&2; exit 2; }
done

# 1. kbuild's flags for every file not yet cached, from one `make -n` run.
missing=()
for rel in "$@"; do
	[ -f "$cache/$rel.flags" ] || missing+=("${rel%.c}.o")
done
if [ ${#missing[@]} -gt 0 ]; then
	exec 9>"$tree/.blkmig-flags.lock"
	flock 9
	log=$(mktemp)
	trap 'rm -f "$log"' EXIT
	(cd "$tree" && make -k -n V=1 ARCH=x86_64 "${missing[@]}" >"$log" 2>&1) || true
	# The kbuild line is: gcc -Wp,-MD,DIR/.NAME.o.d FLAGS -c -o DIR/.tmp_NAME.o DIR/NAME.c
	python3 - "$log" "$cache" "${missing[@]}" <<'EOF'
import os, re, sys
log, cache, objs = sys.argv[1], sys.argv[2], sys.argv[3:]
text = open(log, errors='replace').read()
unknown = []
for obj in objs:
    rel = obj[:-2] + '.c'
    pat = re.compile(r"echo '\s*gcc -Wp,-MD,\S+ (.*?) -c -o \S+ " + re.escape(rel) + r"'")
    m = pat.search(text)
    norule = "No rule to make target '%s'" % obj in text
    if not m and not norule:
        # neither flags nor make's own word that it has no rule: make -n failed
        # (or kbuild changed); record nothing, so no file is skipped on a guess
        unknown.append(rel)
        continue
    os.makedirs(os.path.dirname(os.path.join(cache, rel)), exist_ok=True)
    with open(os.path.join(cache, rel + '.flags'), 'w') as f:
        # An empty file records that kbuild has no rule for it on x86_64.
        f.write(m.group(1).replace("'\\''", "'") + '\n' if m else '')
if unknown:
    sys.stderr.write("compile-check: make -n gave no compile line for %s; its output ends:\n%s\n"
                     % (" ".join(unknown), "\n".join(text.splitlines()[-15:])))
    sys.exit(2)
EOF
	[ $? -eq 0 ] || exit 2
fi

# 2. One file: the original must compile without the header, the converted one with it.
check_one() {
	local rel=$1 flags err want n
	flags=$(cat "$cache/$rel.flags")
	if [ -z "$flags" ]; then
		echo "SKIP $rel: kbuild has no x86_64 rule for it"
		return 0
	fi
	if [ ! -f "$cache/$rel.orig" ]; then
		if (cd "$tree" && eval "gcc $flags -fsyntax-only $rel") >/dev/null 2>&1; then
			echo ok >"$cache/$rel.orig"
		else
			echo fail >"$cache/$rel.orig"
		fi
	fi
	if [ "$(cat "$cache/$rel.orig")" != ok ]; then
		echo "SKIP $rel: does not compile for x86_64 in the original tree either"
		return 0
	fi
	# end_io_error() was a macro of 2.6.24's blkdev.h, gone in 2.6.25: the tree's own
	# header still defines it, so a use left compiles here; find it in the text
	local eie
	eie=$(grep -nE '^[[:space:]]*[^#[:space:]].*\bend_io_error[[:space:]]*\(' "$src/$rel" |
		grep -vE '^[0-9]+:[[:space:]]*(/?\*|//)' | head -n1)
	if [ -n "$eie" ]; then
		echo "FAIL $rel: end_io_error() left at line ${eie%%:*} (removed in 2.6.25)"
		return 0
	fi
	if err=$(cd "$tree" && eval "gcc $flags -Werror=implicit-function-declaration \
			-include \"\$header\" -fsyntax-only \"\$src/\$rel\"" 2>&1); then
		echo "OK $rel"
		return 0
	fi
	want=$(awk -v f="$rel" '$1 == f { print $2 }' "$left")
	n=$(grep -c "error: .* is unavailable: legacy " <<<"$err")
	# block/ll_rw_blk.c defines and exports the legacy functions themselves: an error on
	# such a line (or inside EXPORT_SYMBOL's expansion in module.h) is the old API's own
	# definition, not a use of it
	defs=$(grep -c "^include/linux/module.h:[0-9]*:[0-9]*: error: .* is unavailable: legacy " <<<"$err")
	for line in $(grep "error: .* is unavailable: legacy " <<<"$err" |
		sed -n 's|^.*\.c:\([0-9][0-9]*\):[0-9]*: error: .*|\1|p'); do
		sed -n "${line}p" "$src/$rel" | grep -Eq \
			'^((int|void) |EXPORT_SYMBOL\()(end_that_request_(first|chunk|last)|end_(queued|dequeued)_request|end_request)\b' &&
			defs=$((defs + 1))
	done
	uses=$((n - defs))
	if [ "$(grep -c 'error:' <<<"$err")" -eq "$n" ] && [ "$uses" -eq "${want:-0}" ]; then
		if [ "$uses" -gt 0 ]; then
			echo "OK $rel ($uses legacy calls left, reported)"
		else
			echo "OK $rel (only the legacy API's own definitions)"
		fi
	else
		echo "FAIL $rel: $(printf '%s\n' "$err" | grep -m1 'error:' || printf '%s\n' "$err" | tail -n1) ($uses legacy uses, ${want:-0} reported)"
	fi
}
export -f check_one
export tree src cache header left

printf '%s\n' "$@" | xargs -P "$jobs" -I{} bash -c 'check_one "$1"' _ {} | sort -k2 >"${TMPDIR:-/tmp}/cc.$$"
cat "${TMPDIR:-/tmp}/cc.$$"
rc=0
grep -q '^FAIL ' "${TMPDIR:-/tmp}/cc.$$" && rc=1
rm -f "${TMPDIR:-/tmp}/cc.$$"
exit $rc
