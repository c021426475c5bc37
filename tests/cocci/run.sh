#!/bin/bash
# tests/cocci/run.sh — the cocci suite: golden tests of cocci/blk_end_request.cocci.
#
# For every tests/cocci/cases/NAME.c:
#   patch     spatch -D patch output equals NAME.res (NAME.c itself when there
#             is no NAME.res: the file must stay byte-for-byte)
#   report    spatch -D report output equals NAME.report
#   again     patching the patched output changes nothing (idempotency)
#   compiles  the output compiles against include/linux/blkdev.h; without the
#             2.6.24 declarations when NAME.report lists no leftover (WARNING)
# plus: SmPL lint, the assembled patch and its generated rules current
# (cocci/assemble.py, cocci/gen_callback_rules.py), the kernel header lines
# of every .cocci, a run from another directory, the convert script on a
# tree (unparsable function caught, second run changes nothing, files
# without legacy calls untouched), the sample drivers, make install, the
# command lines of the kernel's coccicheck in every mode, and the Linux
# 2.6.24 tree (realtree.sh: outcomes, compile check, and the cross-check
# against the analyzer).
set -u
here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
SUITE=cocci
. "$top/tests/lib/testlib.sh"

SPATCH=${SPATCH:-spatch}
CC=${CC:-gcc}
SP="$top/cocci/blk_end_request.cocci"
MACROS="$top/cocci/blkmig.h"
OPTS=(--macro-file "$MACROS" --no-includes --include-headers --very-quiet)
CFLAGS=(-fsyntax-only -std=gnu99 -Wall -Werror -Wno-unused-variable
	-Wno-unused-but-set-variable -Wno-unused-function -I"$here/include")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# Under the sanitize suite (SANITIZE_RUN=1, BLKMIG the ASan+UBSan build) only the part
# that runs blkmig is rerun: the real tree's cross-check, `blkmig migrate` on the whole
# tree (tests/sanitize/README.md); the golden cases run spatch alone.
if [ -n "${SANITIZE_RUN:-}" ]; then
	# build/asan/blkmig does not find the checkout's cocci/ beside itself
	export BLKMIG_COCCI_DIR=${BLKMIG_COCCI_DIR:-$top/cocci}
	. "$here/realtree.sh"
	finish
	exit
fi

# --- SmPL lint: the patch parses, and the lint does fail on an SmPL error.
check lint-parse-cocci "$SPATCH" --parse-cocci "$SP"
sed 's/^@has_legacy@$/@has_legacy/' "$SP" > "$tmp/broken.cocci"
if "$SPATCH" --parse-cocci "$tmp/broken.cocci" >/dev/null 2>&1; then
	fail lint-detects-error "spatch --parse-cocci accepted a broken rule header"
else
	pass lint-detects-error
fi

# patch_to IN OUT: OUT is IN after spatch -D patch (a copy when unchanged:
# spatch -o refuses to write an unmodified file and exits non-zero).
patch_to() {
	local log
	rm -f "$2"
	log=$("$SPATCH" --sp-file "$SP" -D patch "${OPTS[@]}" "$1" -o "$2" 2>&1)
	if [ ! -f "$2" ]; then
		grep -q "no modified files" <<<"$log" || { echo "$log"; return 1; }
		cp "$1" "$2"
	fi
}

# The patch is assembled from its parts (cocci/src/, cocci/assemble.py) and
# its generated callback rules come from their generator: both committed
# files are current.
python3 "$top/cocci/gen_callback_rules.py" "$tmp/callbacks_gen.cocci"
if cmp -s "$top/cocci/src/callbacks_gen.cocci" "$tmp/callbacks_gen.cocci"; then
	pass generated-rules-current
else
	fail generated-rules-current "run python3 cocci/gen_callback_rules.py, then cocci/assemble.py"
fi
python3 "$top/cocci/assemble.py" "$tmp/assembled.cocci"
if cmp -s "$SP" "$tmp/assembled.cocci"; then
	pass assembled-current
else
	fail assembled-current "cocci/blk_end_request.cocci is not its parts: run python3 cocci/assemble.py"
fi
# Every file of cocci/ and cocci/src/ carries the kernel's header lines.
for f in "$top"/cocci/*.cocci "$top"/cocci/src/*.cocci; do
	if [ "$(sed -n 1p "$f")" = "// SPDX-License-Identifier: GPL-2.0-only" ] &&
		grep -q '^// Comments: ' "$f" && grep -q '^// Confidence: ' "$f" &&
		grep -q '^// Options: ' "$f"; then
		pass "header/${f#$top/}"
	else
		fail "header/${f#$top/}" "no SPDX line first, or no Comments/Confidence/Options line"
	fi
done
# The patch works from any directory (spatch 1.1.1 would resolve an
# #include against the working directory): parse it from an empty one.
mkdir -p "$tmp/elsewhere"
if (cd "$tmp/elsewhere" && "$SPATCH" --parse-cocci "$SP" >/dev/null 2>&1) &&
	! grep -q '^#include' "$SP"; then
	pass runs-from-any-directory
else
	fail runs-from-any-directory "spatch --parse-cocci $SP fails outside cocci/, or it includes a file"
fi

# --- golden cases --------------------------------------------------------------
# One spatch run per step over all cases (spatch's start-up dominates a
# per-file run); each file is still judged on its own.
JOBS=(--jobs "${COCCI_TEST_JOBS:-2}")
cd "$here/cases" || exit 1
cases=$(ls *.c | sed 's/\.c$//')
golden="$tmp/golden"
again="$tmp/again"
mkdir -p "$golden" "$again"
cp *.c "$golden/"
"$SPATCH" --sp-file "$SP" -D patch --in-place "${OPTS[@]}" "${JOBS[@]}" \
	--dir "$golden" >"$tmp/golden.log" 2>&1 ||
	fail golden/spatch "spatch failed: $(tail -5 "$tmp/golden.log")"
"$SPATCH" --sp-file "$SP" -D report "${OPTS[@]}" "${JOBS[@]}" --dir . 2>&1 |
	sed 's#^\./##' | LC_ALL=C sort >"$tmp/all.report"
cp "$golden"/*.c "$again/"
"$SPATCH" --sp-file "$SP" -D patch --in-place "${OPTS[@]}" "${JOBS[@]}" \
	--dir "$again" >/dev/null 2>&1

for n in $cases; do
	out="$golden/$n.c"
	exp=$n.res
	[ -f "$exp" ] || exp=$n.c
	if diff -u "$exp" "$out" >"$tmp/$n.diff"; then
		pass "$n/patch"
	else
		fail "$n/patch" "$(head -40 "$tmp/$n.diff")"
	fi

	grep "^$n\.c:" "$tmp/all.report" >"$tmp/$n.rep"
	if [ ! -f "$n.report" ]; then
		fail "$n/report" "no expected $n.report"
	elif diff -u "$n.report" "$tmp/$n.rep" >"$tmp/$n.rdiff"; then
		pass "$n/report"
	else
		fail "$n/report" "$(head -20 "$tmp/$n.rdiff")"
	fi

	if cmp -s "$out" "$again/$n.c"; then
		pass "$n/again"
	else
		fail "$n/again" "second run changed: $(diff -u "$out" "$again/$n.c" | head -20)"
	fi

	# Outputs with a listed leftover need the old declarations to compile.
	legacy=
	python3 "$top/cocci/blkmig-leftovers" "$out" >/dev/null ||
		legacy=-DBLKMIG_LEGACY_API
	check "$n/compiles" "$CC" "${CFLAGS[@]}" $legacy "$out"
done

# org mode lists the same leftovers as report mode; context mode stars them.
for c in item07_last_only.c item03_alias.c; do
	"$SPATCH" --sp-file "$SP" -D org "${OPTS[@]}" "$c" 2>&1
done >"$tmp/org.out"
if [ "$(grep -c '^\* TODO .*WARNING blkmig/' "$tmp/org.out")" = \
	"$(cat item07_last_only.report item03_alias.report | grep -c WARNING)" ]; then
	pass org-mode
else
	fail org-mode "$(head -5 "$tmp/org.out")"
fi
"$SPATCH" --sp-file "$SP" -D context "${OPTS[@]}" item07_last_only.c \
	>"$tmp/ctx.out" 2>&1
if grep -q '^-	end_that_request_last(rq, ok);' "$tmp/ctx.out"; then
	pass context-mode
else
	fail context-mode "$(head -5 "$tmp/ctx.out")"
fi

# Several files on one command line are processed together by spatch: the
# patch then converts nothing and says why, instead of mixing them up.
cp item01_held_request_fn.c item07_last_only.c "$tmp/"
(cd "$tmp" && "$SPATCH" --sp-file "$SP" -D patch --in-place "${OPTS[@]}" \
	item01_held_request_fn.c item07_last_only.c >/dev/null 2>&1)
(cd "$tmp" && "$SPATCH" --sp-file "$SP" -D report "${OPTS[@]}" \
	item01_held_request_fn.c item07_last_only.c >"$tmp/group.rep" 2>&1)
if cmp -s item01_held_request_fn.c "$tmp/item01_held_request_fn.c" &&
	grep -q "blkmig/group" "$tmp/group.rep"; then
	pass several-files-one-run
else
	fail several-files-one-run "$(head -3 "$tmp/group.rep")"
fi

# The per-file command line of the issue (spatch X.cocci X.c -o out.c) gives
# the same result as the tree run above.
patch_to item01_held_request_fn.c "$tmp/single.c" >/dev/null 2>&1
if cmp -s item01_held_request_fn.res "$tmp/single.c"; then
	pass single-file-o
else
	fail single-file-o "spatch X.c -o out.c differs from the expected output"
fi

# --- the convert script on a tree ---------------------------------------------
tree="$tmp/tree"
mkdir -p "$tree/drivers/block"
cp item0*.c neg_*.c fields0*.c "$tree/drivers/block/"
cp neg_no_legacy.c "$tree/untouched.c"
touch -d '2001-01-01' "$tree/untouched.c"
(cd "$top" && make --no-print-directory cocci-convert TREE="$tree") \
	>"$tmp/convert.out" 2>&1
rc=$?
if [ $rc -ne 0 ] && grep -q "neg_unparsable.c:33: end_request: not parsed by spatch" "$tmp/convert.out"; then
	pass convert/unparsed-site-listed
else
	fail convert/unparsed-site-listed "rc=$rc $(tail -15 "$tmp/convert.out")"
fi
if grep -q "item03_alias.c:14: end_that_request_first: WARNING blkmig/pair" "$tmp/convert.out"; then
	pass convert/reported-site-listed
else
	fail convert/reported-site-listed "$(tail -15 "$tmp/convert.out")"
fi
# a site left by the fields rule says why, in the FILE:LINE: NAME: REASON list
if grep -q "fields03_pc_ioctl.c:18: end_that_request_first: WARNING blkmig/pair: .*the driver makes packet requests (scsi_cmd_ioctl, fields03_pc_ioctl.c:11)" "$tmp/convert.out"; then
	pass convert/fields-reason-listed
else
	fail convert/fields-reason-listed "$(grep fields03 "$tmp/convert.out" | head -3)"
fi
ok=1
for f in "$tree"/drivers/block/*.c; do
	b=$(basename "$f" .c)
	e=$b.res
	[ -f "$e" ] || e=$b.c
	cmp -s "$e" "$f" || { ok=0; fail convert/matches-golden "$b differs"; }
done
[ $ok = 1 ] && pass convert/matches-golden
if [ "$(stat -c %Y "$tree/untouched.c")" = "$(date -d 2001-01-01 +%s)" ] &&
	cmp -s neg_no_legacy.c "$tree/untouched.c"; then
	pass convert/untouched-file
else
	fail convert/untouched-file "a file without legacy calls was rewritten"
fi
sums() { find "$tree" -type f -exec md5sum {} + | sort; }
before=$(sums)
(cd "$top" && make --no-print-directory cocci-convert TREE="$tree") >/dev/null 2>&1
if [ "$before" = "$(sums)" ]; then
	pass convert/second-run-no-change
else
	fail convert/second-run-no-change
fi
if "$top/cocci/blkmig-cocci-convert" "$tmp/nonexistent" >/dev/null 2>&1; then
	fail convert/bad-path "accepted a missing directory"
else
	pass convert/bad-path
fi

# --- tree-wide facts: a lock given to blk_init_queue in another file ------------
# xq_done.c alone cannot know that xq_lock is the queue lock (reported); with
# the facts pass over both files the pair becomes blk_end_request.
ftree="$tmp/facts-tree"
mkdir -p "$ftree/drivers/xq"
cp "$here/facts/xq_main.c" "$here/facts/xq_done.c" "$ftree/drivers/xq/"
"$SPATCH" --sp-file "$SP" -D report "${OPTS[@]}" "$ftree/drivers/xq/xq_done.c" \
	>"$tmp/facts-alone.rep" 2>&1
(cd "$top" && make --no-print-directory cocci-convert TREE="$ftree") \
	>"$tmp/facts.out" 2>&1
if grep -q "xq_done.c:13:.*WARNING blkmig/pair" "$tmp/facts-alone.rep" &&
	grep -q "^	blk_end_request(rq, ok > 0 ? 0 : (ok ? ok : -EIO)," "$ftree/drivers/xq/xq_done.c" &&
	! grep -q "flags\|xq_lock)" "$ftree/drivers/xq/xq_done.c" &&
	grep -q "^blkmig: converted 2 of 2 " "$tmp/facts.out" &&
	cmp -s "$here/facts/xq_main.c" "$ftree/drivers/xq/xq_main.c"; then
	pass facts/lock-from-another-file
else
	fail facts/lock-from-another-file "$(cat "$tmp/facts-alone.rep" "$tmp/facts.out" | tail -8)"
fi

# --- the sample drivers convert with nothing left -------------------------------
samples=$(ls "$top"/samples/lrd_*.c 2>/dev/null)
if [ -n "$samples" ]; then
	for s in $samples; do
		b=$(basename "$s" .c)
		d="$tmp/samples/$b"
		mkdir -p "$d"
		cp "$s" "$d/"
		# the samples write no request field and make no packet
		# requests: the helpers, never a literal count of fields that
		# Linux 6.x's struct request no longer has
		if (cd "$top" && make --no-print-directory cocci-convert TREE="$d") \
			>"$tmp/$b.conv" 2>&1 &&
			grep -q "^blkmig: 0 legacy completion call(s) left" "$tmp/$b.conv" &&
			! grep -q "_sectors << 9" "$d/$b.c"; then
			pass "sample/$b"
		else
			fail "sample/$b" "$(tail -8 "$tmp/$b.conv")"
		fi
	done
fi

# --- the leftover scan ignores comments, strings, prototypes, look-alikes ------
lo=$(python3 "$top/cocci/blkmig-leftovers" "$here/leftovers/mixed.c")
rc=$?
if [ $rc -eq 1 ] && [ "$(grep -c ': end_request: ' <<<"$lo")" = 1 ] &&
	grep -q "mixed.c:13: end_request: " <<<"$lo" &&
	grep -q "^blkmig: 1 legacy completion call(s) left" <<<"$lo"; then
	pass leftovers/only-real-calls
else
	fail leftovers/only-real-calls "rc=$rc $lo"
fi
if python3 "$top/cocci/blkmig-leftovers" "$here/cases/neg_no_legacy.c" >/dev/null; then
	pass leftovers/clean-file
else
	fail leftovers/clean-file
fi

# --- install --------------------------------------------------------------------
(cd "$top" && make --no-print-directory install-cocci DESTDIR="$tmp/dest" PREFIX=/usr) \
	>/dev/null 2>&1
if [ -f "$tmp/dest/usr/share/blkmig/cocci/blk_end_request.cocci" ] &&
	[ -x "$tmp/dest/usr/share/blkmig/cocci/blkmig-cocci-convert" ]; then
	pass install
else
	fail install "files missing under DESTDIR"
fi

# --- the kernel's coccicheck conventions ------------------------------------------
# coccicheck runs spatch at the top of the tree with -D MODE, --very-quiet
# (report/org: --no-show-diff), --cocci-file COCCI, the text after "Options:"
# in COCCI, SPFLAGS and --dir (of the tree, or of M=).  The same command
# lines, from the top of a tree with the cross-file driver above (the
# installed, absolute patch paths; no cocci/ nearby): the facts pass, then
# each mode of the conversion.
cc_run() {	# cc_run MODE COCCI [SPFLAGS...]
	local mode=$1 cocci=$2 opt
	shift 2
	opt=$(grep "Options:" "$cocci" | cut -d: -f2)
	case $mode in report|org) set -- --no-show-diff "$@" ;; esac
	(cd "$tmp/cc-tree" && "$SPATCH" -D "$mode" --very-quiet --cocci-file "$cocci" \
		$opt "$@" --dir .)
}
cc_dir=$tmp/dest/usr/share/blkmig/cocci
rm -rf "$tmp/cc-tree"; mkdir -p "$tmp/cc-tree/drivers/xq"
cp "$here/facts/xq_main.c" "$here/facts/xq_done.c" "$tmp/cc-tree/drivers/xq/"
chmod -R a-w "$tmp/cc-tree"
cc_run report "$cc_dir/blkmig_facts.cocci" -D facts="$tmp/cc.facts" >"$tmp/cc.facts.out" 2>&1
cc_run report "$cc_dir/blk_end_request.cocci" -D facts="$tmp/cc.facts" >"$tmp/cc.report" 2>&1
cc_run patch "$cc_dir/blk_end_request.cocci" -D facts="$tmp/cc.facts" >"$tmp/cc.patch" 2>&1
cc_run context "$cc_dir/blk_end_request.cocci" -D facts="$tmp/cc.facts" >"$tmp/cc.context" 2>&1
cc_run org "$cc_dir/blk_end_request.cocci" -D facts="$tmp/cc.facts" >"$tmp/cc.org" 2>&1
if [ "$(grep -c 'xq_done.c:1[0-9]:.*INFO blkmig/pair-around' "$tmp/cc.report")" = 2 ] &&
	[ ! -s "$tmp/cc.facts.out" ] &&
	grep -q '^+	blk_end_request(rq, ok > 0 ? 0 : (ok ? ok : -EIO),' "$tmp/cc.patch" &&
	grep -q '^-.*end_that_request_last' "$tmp/cc.patch" &&
	grep -q '^-.*end_that_request_first' "$tmp/cc.context" &&
	[ "$(grep -c '^\* TODO .*INFO blkmig/pair-around' "$tmp/cc.org")" = 2 ]; then
	pass coccicheck-conventions
else
	fail coccicheck-conventions "$(tail -3 "$tmp/cc.facts.out" "$tmp/cc.report" "$tmp/cc.patch" "$tmp/cc.org")"
fi
chmod -R u+w "$tmp/cc-tree"

# --- the Linux 2.6.24 release tree, both passes ----------------------------------
. "$here/realtree.sh"
finish
