# tests/harden/round2.sh — sourced by run.sh (same $w, $B, $TMPDIR, $root, pass/fail):
# the second hostile review (issue 25): bounded parses, orphans, bad compile databases,
# failed output writes, leftovers, names with spaces, the sanitizer build's cocci/.

# ---- a parse reads regular files only; its memory is capped (resource_limit) ----------------
# A header that is a FIFO waited for the --timeout; one that links to /dev/zero (or an
# `-include /dev/zero` in compile_commands.json) was read for ever, the parse child past
# 8.5 GB in 5 s.  Now each is an error at its #include ("No such device"), at once.  The
# memory cap itself: a regular header of 300 MB of NUL bytes makes libclang store a
# warning per byte; with --parse-memory 1024 the child stops and the file is reported
# resource_limit (not a crash, not unparsed), left byte for byte by migrate.
rm -rf "$w/lim"; mkdir -p "$w/lim/fifo" "$w/lim/zero" "$w/lim/db/b" "$w/lim/big"
for d in fifo zero db big; do cp "$TOP/samples/lrd_simple.c" "$TOP/samples/lrd_disk.h" "$w/lim/$d/"; done
mkfifo "$w/lim/fifo/fifo.h"
sed -i '1i #include "fifo.h"' "$w/lim/fifo/lrd_simple.c"
ln -s /dev/zero "$w/lim/zero/zero.h"
sed -i '1i #include "zero.h"' "$w/lim/zero/lrd_simple.c"
cat >"$w/lim/db/b/compile_commands.json" <<EOT
[{"directory": "$w/lim/db", "command": "cc -include /dev/zero -c lrd_simple.c", "file": "$w/lim/db/lrd_simple.c"}]
EOT
truncate -s 300M "$w/lim/big/big.h"
sed -i '1i #include "big.h"' "$w/lim/big/lrd_simple.c"
# (ulimit: a parse that reads /dev/zero stops at 3 GB here instead of taking the machine)
lim_scan() { (ulimit -v 3000000; timeout 120 "$B" scan --timeout 30 "$@") >"$w/lim.out" 2>&1; }
for d in fifo zero; do
	t0=$(date +%s); lim_scan "$w/lim/$d/lrd_simple.c"; rc=$?; t=$(($(date +%s) - t0))
	if [ "$rc" = 0 ] && [ "$t" -lt 15 ] && grep -q "cannot open file '.*/$d.h': No such device" "$w/lim.out" &&
		[ "$(grep -c 'lrd_simple.c:[0-9]*:[0-9]*: remark: end_request' "$w/lim.out")" = 3 ]; then
		pass "limit-$d-header-not-read"
	else
		fail "limit-$d-header-not-read" "exit $rc after $t s: $(grep -m2 'error\|not parsed\|No such' "$w/lim.out" | tr '\n' '|')"
	fi
done
t0=$(date +%s); lim_scan -p "$w/lim/db/b" "$w/lim/db/lrd_simple.c"; rc=$?; t=$(($(date +%s) - t0))
if [ "$rc" = 0 ] && [ "$t" -lt 15 ] && grep -q "cannot open file '/dev/zero': No such device" "$w/lim.out"; then
	pass limit-include-dev-zero-in-compile-db-not-read
else
	fail limit-include-dev-zero-in-compile-db-not-read "exit $rc after $t s: $(grep -m2 'error\|not parsed' "$w/lim.out" | tr '\n' '|')"
fi
timeout 120 "$B" scan --parse-memory 1024 --format json -o "$w/lim.json" "$w/lim/big/lrd_simple.c" >"$w/lim.out" 2>&1; rc=$?
if [ "$rc" = 1 ] && grep -q "lrd_simple.c: the parse needed more than --parse-memory 1024 MB" "$w/lim.out" &&
	python3 - "$w/lim.json" <<'EOT'
import json, sys
r = json.load(open(sys.argv[1]))
f = r["files"][0]
ok = (f["parse"]["status"] == "failed" and len(r["sites"]) == 3
      and all(s["verdict"] == "manual" and s["reason"]["code"] == "resource_limit" for s in r["sites"])
      and r["summary"]["manual_by_reason"] == {"resource_limit": 3})
sys.exit(0 if ok else 1)
EOT
then
	pass limit-memory-scan-resource-limit
else
	fail limit-memory-scan-resource-limit "exit $rc: $(head -3 "$w/lim.out" | tr '\n' '|')"
fi
cp "$w/lim/big/lrd_simple.c" "$w/lim/big.orig"
timeout 300 "$B" migrate --in-place -j 1 --parse-memory 1024 --report "$w/lim.rep" "$w/lim/big" >"$w/lim.out" 2>&1; rc=$?
if [ "$rc" = 1 ] && cmp -s "$w/lim/big/lrd_simple.c" "$w/lim/big.orig" &&
	grep -q "lrd_simple.c:[0-9]*:[0-9]*: .*end_request in lrd_simple_request().*resource_limit" "$w/lim.out" &&
	python3 - "$w/lim.rep/report.json" <<'EOT'
import json, sys
r = json.load(open(sys.argv[1]))
o = r["files"][0]["outcome"]
sys.exit(0 if o["status"] == "left_untouched" and o["code"] == "resource_limit"
         and r["summary"]["files_left_by_reason"] == {"resource_limit": 1} else 1)
EOT
then
	pass limit-memory-migrate-left-untouched
else
	fail limit-memory-migrate-left-untouched "exit $rc: $(grep -m3 'lrd_simple\|summary\|sites' "$w/lim.out" | tr '\n' '|')"
fi
rm -rf "$w/lim" "$w/lim.rep" "$w/lim.json"

# ---- spatch's output is not trusted (issue 25, item 1) ------------------------------------
# A --spatch that ran the real spatch and then truncated every .c under its --dir, wrote
# garbage in place of a call outside every site, changed a function without sites, or
# wrote garbage in place of its own new call (inside a site's function), and exited 0,
# got "34 sites: 34 converted", exit 0, and that output written.  Now each such file is
# left byte for byte, reported spatch_output_rejected with the first line changed
# outside what the conversion may touch, or with the parse errors of the result against
# the original's (both parsed alike), exit 1 (output_guard.c).  And the
# legitimate reach of a conversion still passes: a wrapper's parameter renamed with
# every caller's argument converted in other functions (the golden wrap.c, the cocci
# case wr01: a parameter passed on to the wrapper), converted as without the check.
real_spatch=$(command -v "${SPATCH:-spatch}")
lying_spatch() { # NAME ACTION: the real spatch, then ACTION on $dir, exit 0
	cat >"$w/sp-$1" <<EOT
#!/bin/sh
prev=; dir=
for a in "\$@"; do [ "\$prev" = --dir ] && dir=\$a; prev=\$a; done
"$real_spatch" "\$@" || exit \$?
[ -n "\$dir" ] && $2
exit 0
EOT
	chmod +x "$w/sp-$1"
}
lying_spatch truncates "find \"\$dir\" -name '*.c' -exec truncate -s 0 {} +"
lying_spatch garbage-outside "find \"\$dir\" -name '*.c' -exec sed -i 's/^module_init(\\(.*\\));/garbage ) ( \\1;/' {} +"
lying_spatch unrelated-function "find \"\$dir\" -name '*.c' -exec sed -i '/_init(void)\$/,/^}/s/return 0;/return 1;/' {} +"
lying_spatch garbage-inside "find \"\$dir\" -name '*.c' -exec sed -i 's/^\\(\t*\\)__blk_end_request(\\(.*\\));/\\1garbage ) ( \\2;/' {} +"
lying_spatch honest ":"
for kind in truncates:"is empty where the file has [0-9]* lines" \
	garbage-outside:"changes the file at line [0-9]* (\`module_init(.*);\`), outside the sites" \
	unrelated-function:"changes the file at line [0-9]* (\`return 0;\`), outside the sites" \
	garbage-inside:"result parses with [0-9]* error(s) where the original has 0 (both parsed alike)"; do
	why=${kind#*:} kind=${kind%%:*}
	pre="spatch's output"; [ "$kind" = garbage-inside ] && pre="spatch's"
	rm -rf "$w/t"; cp -a "$w/orig" "$w/t"
	"$B" migrate --in-place -j 1 --spatch "$w/sp-$kind" --report "$w/t.rep" "$w/t" >"$w/f.out" 2>&1; rc=$?
	if [ "$rc" = 1 ] && [ "$(sums "$w/t")" = "$(sums "$w/orig")" ] &&
		grep -q "$pre $why.*not trusted.*\[spatch_output_rejected\]" "$w/f.out" &&
		python3 - "$w/t.rep/report.json" <<'EOT'
import json, sys
r = json.load(open(sys.argv[1]))
with_sites = {s["file"] for s in r["sites"]}
left = [f for f in r["files"] if f["path"] in with_sites]
ok = (len(left) == len(with_sites) > 0
      and all(f["outcome"]["status"] == "left_untouched"
              and f["outcome"]["code"] == "spatch_output_rejected"
              and f["outcome"]["text"].startswith("spatch's ") for f in left)
      and r["summary"]["files_left_by_reason"] == {"spatch_output_rejected": len(left)}
      and all(s["verdict"] == "manual" for s in r["sites"]))
sys.exit(0 if ok else 1)
EOT
	then
		pass "spatch-output-not-trusted-$kind"
	else
		fail "spatch-output-not-trusted-$kind" "exit $rc: $(grep -m2 'untouched\|sites:' "$w/f.out" | tr '\n' '|')"
	fi
	rm -rf "$w/t.rep"
done
# the honest spatch through the same wrapper: the reference conversion, exit 0
rm -rf "$w/t"; cp -a "$w/orig" "$w/t"
"$B" migrate -q --in-place -j 1 --spatch "$w/sp-honest" "$w/t" >"$w/f.out" 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(sums "$w/t")" = "$(sums "$w/conv")" ] && ! grep -q spatch_output_rejected "$w/f.out"; then
	pass spatch-output-honest-wrapper-converts
else
	fail spatch-output-honest-wrapper-converts "exit $rc: $(grep -m2 'untouched\|sites:' "$w/f.out" | tr '\n' '|')"
fi
rm -rf "$w/wr"; mkdir -p "$w/wr"
cp "$TOP/tests/migrate/golden/tree/in/drivers/block/wrap.c" "$TOP/tests/cocci/cases/wr01_param_group.c" "$w/wr/"
"$B" migrate --in-place -j 1 --spatch "$w/sp-honest" "$w/wr" >"$w/f.out" 2>&1; rc=$?
if [ "$rc" = 0 ] && ! grep -q spatch_output_rejected "$w/f.out" &&
	cmp -s "$w/wr/wrap.c" "$TOP/tests/migrate/golden/tree/out/drivers/block/wrap.c" &&
	cmp -s "$w/wr/wr01_param_group.c" "$TOP/tests/cocci/cases/wr01_param_group.res" &&
	grep -q "4 sites: 4 converted in 2 files" "$w/f.out"; then
	pass spatch-output-wrapper-callers-still-converted
else
	fail spatch-output-wrapper-callers-still-converted "exit $rc: $(grep -m2 'untouched\|sites:' "$w/f.out" | tr '\n' '|')"
fi
rm -rf "$w/t" "$w/wr"

# ---- orphans: nothing of a run outlives its SIGKILL ----------------------------------------
# spatch -j forks workers; only the direct child died with blkmig (PDEATHSIG), the workers
# went on (99% CPU for more than 60 s).  A spatch stand-in that forks two workers and
# waits: after SIGKILL of blkmig, within 2 s, neither it nor a worker may be left.
rm -rf "$w/orph"; cp -a "$w/orig" "$w/orph"
cat >"$w/orph-worker" <<'EOT'
#!/bin/sh
while :; do sleep 1; done
EOT
cat >"$w/orph-spatch" <<EOT
#!/bin/sh
"$w/orph-worker" &
"$w/orph-worker" &
wait
EOT
chmod +x "$w/orph-worker" "$w/orph-spatch"
"$B" migrate -q --in-place -j 2 --spatch "$w/orph-spatch" "$w/orph" >"$w/orph.out" 2>&1 &
pid=$!
for _ in $(seq 300); do
	[ "$(pgrep -fc "$w/orph-worker")" -ge 2 ] && break
	sleep 0.1
done
seen=$(pgrep -fc "$w/orph-worker")
kill -KILL "$pid" 2>/dev/null; wait "$pid" 2>/dev/null
sleep 2
left=$(pgrep -af "$w/orph-" | tr '\n' '|')
if [ "$seen" -ge 2 ] && [ -z "$left" ]; then
	pass orphans-none-after-sigkill
else
	fail orphans-none-after-sigkill "$seen workers seen; left after SIGKILL: $left"
fi
pkill -KILL -f "$w/orph-" 2>/dev/null
rm -rf "$w/orph"

# ---- names with spaces: GNU patch and git apply both take the patch ------------------------
# "--- a/my drv.c" had no tab after the name: GNU patch -p1 read "my" and could not find the
# file.  A tab ends such a name, as git and GNU diff write it.
rm -rf "$w/sp"; mkdir -p "$w/sp/my dir"
cp "$TOP/samples/lrd_simple.c" "$w/sp/my dir/my drv.c"
cp "$TOP/samples/lrd_disk.h" "$w/sp/my dir/"
(cd "$w/sp" && git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm in)
for cmd in fix migrate; do
	(cd "$w/sp" && git checkout -q -- . && "$B" $cmd --patch "$w/sp-$cmd.patch" -q -j 1 .) >"$w/sp.out" 2>&1
	if ! grep -q $'^--- a/my dir/my drv.c\t$' "$w/sp-$cmd.patch"; then
		fail "names-with-spaces-$cmd" "header: $(grep '^---' "$w/sp-$cmd.patch" | head -1 | cat -A)"
	elif ! (cd "$w/sp" && patch -p1 -s <"$w/sp-$cmd.patch") >"$w/sp.err" 2>&1; then
		fail "names-with-spaces-$cmd" "GNU patch: $(head -2 "$w/sp.err" | tr '\n' '|')"
	elif (cd "$w/sp" && git diff --quiet); then
		fail "names-with-spaces-$cmd" "GNU patch changed nothing"
	elif ! (cd "$w/sp" && cp "my dir/my drv.c" "$w/sp-patched.c" && git checkout -q -- . &&
		git apply -p1 "$w/sp-$cmd.patch" && cmp -s "my dir/my drv.c" "$w/sp-patched.c") 2>"$w/sp.err"; then
		fail "names-with-spaces-$cmd" "git apply: $(head -2 "$w/sp.err" | tr '\n' '|') (or a result other than GNU patch's)"
	else
		pass "names-with-spaces-$cmd"
	fi
done
rm -rf "$w/sp"

# ---- leftovers of killed runs: marked with the pid, removed by the next run ---------------
# A SIGKILLed scan/verify left TMPDIR/blkmig.XXXXXX that no later run removed (only
# fix and migrate looked); `fix --in-place` left a killed write's .blkmig-tmp.<pid>.XXXXXX
# beside a driver; a cache write killed or stopped left $XDG_CACHE_HOME/blkmig/.tmp-XXXXXX
# for ever.  Each now carries its owner's pid in its name and the next run removes it
# once that pid is gone.
rm -rf "$w/left"; cp -a "$w/orig" "$w/left"
for cmd in scan verify; do
	rm -rf "${TMPDIR:?}"/*
	BLKMIG_FAULT_INJECT=hang:/ "$B" $cmd -q -j 1 "$w/left" >/dev/null 2>&1 &
	pid=$!
	for _ in $(seq 100); do [ -n "$(ls -A "$TMPDIR")" ] && break; sleep 0.1; done
	sleep 0.5
	kill -KILL "$pid"; wait "$pid" 2>/dev/null
	before=$(ls -A "$TMPDIR" | tr '\n' ' ')
	"$B" scan -q "$w/left" >/dev/null 2>&1
	if [ -n "$before" ] && [ -z "$(ls -A "$TMPDIR")" ]; then
		pass "leftover-$cmd-sigkill-private-dir-removed"
	else
		fail "leftover-$cmd-sigkill-private-dir-removed" "left by the killed run: '$before'; after the next: $(ls -A "$TMPDIR" | tr '\n' ' ')"
	fi
done
d=$(dirname "$(find "$w/left" -name '*.c' | head -1)")
dead=$(sh -c 'echo $$')
echo half >"$d/.blkmig-tmp.$dead.Ab12Cd"
echo user >"$d/.blkmig-config"
"$B" fix --in-place -q -j 1 "$w/left" >"$w/left.out" 2>&1
if [ ! -e "$d/.blkmig-tmp.$dead.Ab12Cd" ] && grep -q "removed .*\.blkmig-tmp\.$dead\.Ab12Cd" "$w/left.out" &&
	[ "$(cat "$d/.blkmig-config")" = user ]; then
	pass leftover-fix-in-place-removes-marked
else
	fail leftover-fix-in-place-removes-marked "$(ls -A "$d" | grep blkmig | tr '\n' ' '): $(head -2 "$w/left.out")"
fi
rm -rf "$w/left"; cp -a "$w/orig" "$w/left"
mkdir -p "$w/xdg/blkmig"
echo half >"$w/xdg/blkmig/.tmp-$dead.Ab12Cd"
sleep 60 & live=$!
echo live >"$w/xdg/blkmig/.tmp-$live.Zz98Yx"
XDG_CACHE_HOME=$w/xdg "$B" migrate -q --check -j 1 "$w/left" >/dev/null 2>&1
if [ ! -e "$w/xdg/blkmig/.tmp-$dead.Ab12Cd" ] && [ -e "$w/xdg/blkmig/.tmp-$live.Zz98Yx" ] &&
	[ -n "$(find "$w/xdg/blkmig" -type f ! -name '.tmp-*')" ]; then
	pass leftover-cache-tmp-of-dead-run-removed
else
	fail leftover-cache-tmp-of-dead-run-removed "$(ls -A "$w/xdg/blkmig" | tr '\n' ' ')"
fi
kill "$live" 2>/dev/null; wait "$live" 2>/dev/null
rm -rf "$w/left" "$w/xdg" "${TMPDIR:?}"/*

# ---- the sanitizer build finds cocci/ by itself ------------------------------------------
# make SANITIZE=1 puts blkmig in build/asan/; it looked for cocci/ in build/asan/cocci and
# build/cocci only ("no semantic patches found" without BLKMIG_COCCI_DIR).  The same
# layout here: CHECKOUT/cocci and CHECKOUT/build/asan/blkmig (a copy of the binary).
rm -rf "$w/co"; mkdir -p "$w/co/build/asan"
ln -s "$TOP/cocci" "$w/co/cocci"
cp "$B" "$w/co/build/asan/blkmig"
rm -rf "$w/t"; cp -a "$w/orig" "$w/t"
(unset BLKMIG_COCCI_DIR; "$w/co/build/asan/blkmig" migrate -q --check -j 1 "$w/t") >"$w/co.out" 2>&1; rc=$?
if [ "$rc" = 1 ] && ! grep -q "no semantic patches" "$w/co.out" && grep -q "by spatch" "$w/co.out"; then
	pass sanitize-build-finds-cocci
else
	fail sanitize-build-finds-cocci "exit $rc: $(tail -2 "$w/co.out" | tr '\n' '|')"
fi
rm -rf "$w/co" "$w/t"

# ---- a symbolic link in the tree: one file, one set of sites (issue 25, item 7) --------------
# link.c -> lrd_simple.c was analysed as a file of its own: migrate --patch wrote both, a
# patch git apply rejects; --in-place converted through the link, then found the target
# changed (file_not_writable, exit 2).  The link is skipped and reported (a skipped file
# whose reason names its target); the file is converted once, under its own name.
rm -rf "$w/sl"; mkdir -p "$w/sl"
cp "$TOP/samples/lrd_simple.c" "$TOP/samples/lrd_disk.h" "$w/sl/"
ln -s lrd_simple.c "$w/sl/link.c"
(cd "$w/sl" && git init -q . && git add -A && git -c user.email=t@t -c user.name=t commit -qm in)
nsites=$(grep -c "^[[:space:]]*end_request(" "$w/sl/lrd_simple.c")
sl_note() { grep -q "link.c: a symbolic link to .*/sl/lrd_simple.c, inside .*; skipped" "$1"; }
(cd "$w/sl" && "$B" migrate --patch "$w/sl.patch" -j 1 .) >"$w/sl.out" 2>&1; rc=$?
if [ "$rc" = 0 ] && (cd "$w/sl" && git apply --check -p1 "$w/sl.patch") 2>"$w/sl.err" &&
	[ "$(grep -c '^+++ ' "$w/sl.patch")" = 1 ] && grep -q '^+++ b/lrd_simple.c' "$w/sl.patch" &&
	[ "$(grep -c '^-[[:space:]]*end_request(' "$w/sl.patch")" = "$nsites" ] && sl_note "$w/sl.out"; then
	pass symlink-in-tree-migrate-patch-once
else
	fail symlink-in-tree-migrate-patch-once "exit $rc, $(grep '^+++' "$w/sl.patch" | tr '\n' ' ')$(head -1 "$w/sl.err")"
fi
(cd "$w/sl" && "$B" migrate --in-place -j 1 .) >"$w/sl.out" 2>&1; rc=$?
(cd "$w/sl" && cp lrd_simple.c "$w/sl-inplace.c" && git checkout -q -- . && git apply -p1 "$w/sl.patch" &&
	cmp -s lrd_simple.c "$w/sl-inplace.c") 2>/dev/null; same=$?
if [ "$rc" = 0 ] && [ "$same" = 0 ] && [ "$(readlink "$w/sl/link.c")" = lrd_simple.c ] &&
	! cmp -s "$w/sl-inplace.c" "$TOP/samples/lrd_simple.c" && sl_note "$w/sl.out" &&
	! grep -q file_not_writable "$w/sl.out"; then
	pass symlink-in-tree-migrate-in-place-once
else
	fail symlink-in-tree-migrate-in-place-once "exit $rc, same as the patch: $same, link: $(readlink "$w/sl/link.c"): $(grep -m2 'warning\|sites' "$w/sl.out" | tr '\n' '|')"
fi
(cd "$w/sl" && git checkout -q -- . && "$B" scan -q --format json --list-skipped -o "$w/sl.json" .) >"$w/sl.out" 2>&1; rc=$?
if [ "$rc" = 0 ] && python3 - "$w/sl.json" "$nsites" <<'EOT'
import json, sys
r = json.load(open(sys.argv[1]))
files = {f["path"]: f for f in r["files"]}
link = files.get("link.c", {}).get("parse", {})
ok = (len(r["sites"]) == int(sys.argv[2]) and {s["file"] for s in r["sites"]} == {"lrd_simple.c"}
      and link.get("status") == "skipped" and "symbolic link to" in link.get("reason", "")
      and "lrd_simple.c" in link.get("reason", ""))
sys.exit(0 if ok else 1)
EOT
then
	pass symlink-in-tree-scan-one-set-of-sites
else
	fail symlink-in-tree-scan-one-set-of-sites "exit $rc: $(head -c 300 "$w/sl.json")"
fi
(cd "$w/sl" && "$B" fix --patch "$w/sl-fix.patch" -j 1 . && git apply --check -p1 "$w/sl-fix.patch" &&
	"$B" fix --in-place -j 1 . && [ "$(readlink link.c)" = lrd_simple.c ] && "$B" verify -j 1 .) >"$w/sl.out" 2>&1; rc=$?
if [ "$rc" = 0 ] && [ "$(grep -c '^+++ ' "$w/sl-fix.patch")" = 1 ] && [ "$(grep -c 'link.c: a symbolic link' "$w/sl.out")" = 3 ]; then
	pass symlink-in-tree-fix-verify-once
else
	fail symlink-in-tree-fix-verify-once "exit $rc: $(grep -v '^ ' "$w/sl.out" | head -3 | tr '\n' '|')"
fi
rm -rf "$w/sl" "$w/sl".* "$w/sl-"*

# ---- bytes that are not UTF-8: every report keeps every file and field ---------------------
# A file named with a 0xff byte and a Latin-1 comment on a call's line: jansson refused
# such strings, so the file dropped out of files[], its sites lost id/file/before/after and
# a converted site its edits (the JSON no longer matched the schema).  Now such a byte is
# \xNN in report.json, SARIF, the review page and a series' messages (json_text.h); the
# converted file keeps its bytes.
rm -rf "$w/nu"; mkdir -p "$w/nu/in"
cp "$TOP/samples/lrd_simple.c" "$w/nu/in/drv"$'\377'".c"
cp "$TOP/samples/lrd_disk.h" "$TOP/samples/lrd_simple.c" "$w/nu/in/"
mv "$w/nu/in/lrd_simple.c" "$w/nu/in/lat.c"
sed -i 's|^\(\t*end_request(rq, 1);\)$|\1 /* d'$'\351''j'$'\340'' vu */|' "$w/nu/in/lat.c"
cp -a "$w/nu/in" "$w/nu/t"
"$B" scan --format json -o "$w/nu/scan.json" "$w/nu/in" >/dev/null 2>&1
"$B" scan --format sarif -o "$w/nu/scan.sarif" "$w/nu/in" >/dev/null 2>&1
(cd "$w/nu" && "$B" migrate -q --in-place -j 1 --report rep t) >"$w/nu/m.out" 2>&1
(cd "$w/nu" && "$B" migrate -q -j 1 --series ser in) >>"$w/nu/m.out" 2>&1
if [ "$(grep -c 'end_request(rq, 1); /\* d'$'\351''j'$'\340'' vu \*/' "$w/nu/in/lat.c")" != 1 ]; then
	fail utf8-reports-valid "the Latin-1 comment was not set up"
elif ! out=$(python3 "$TOP/tests/reports/validate.py" json "$TOP/analyzer/report.schema.json" \
	"$w/nu/scan.json" "$w/nu/rep/report.json" 2>&1); then
	fail utf8-reports-valid "schema: $(echo "$out" | head -3 | tr '\n' '|')"
elif ! out=$(python3 - "$w/nu" <<'EOT' 2>&1
import json, os, sys
d = sys.argv[1]
def load(p):  # strict UTF-8, as any JSON reader needs
    return json.loads(open(os.path.join(d, p), "rb").read().decode("utf-8"))
bad = []
for p, conv in (("scan.json", False), ("rep/report.json", True)):
    r = load(p)
    names = sorted(os.path.basename(f["path"]) for f in r["files"])
    if names != ["drv\\xff.c", "lat.c"]:
        bad.append("%s: files %s" % (p, names))
    if len(r["sites"]) != 6:
        bad.append("%s: %d sites" % (p, len(r["sites"])))
    for s in r["sites"]:
        if any(k not in s for k in ("id", "file", "before", "after")):
            bad.append("%s: a site without id/file/before/after: %s" % (p, sorted(s)))
        elif conv and (s["verdict"] != "auto" or not s["edits"]):
            bad.append("%s: %s %s without edits" % (p, s["id"], s["verdict"]))
    if not any("d\\xe9j\\xe0 vu" in s.get("before", "") for s in r["sites"]):
        bad.append("%s: no site's before shows the comment as \\xNN" % p)
s = load("scan.sarif")
if len(s["runs"][0]["results"]) != 6:
    bad.append("scan.sarif: %d results" % len(s["runs"][0]["results"]))
s = load("rep/report.sarif")
if len(s["runs"][0]["results"]) != 6:
    bad.append("report.sarif: %d results" % len(s["runs"][0]["results"]))
h = open(os.path.join(d, "rep/report.html"), "rb").read().decode("utf-8")
if "drv\\xff.c" not in h or "d\\xe9j\\xe0 vu" not in h:
    bad.append("report.html: no \\xNN form")
ser = sorted(os.listdir(os.path.join(d, "ser")))
for p in ser:
    msg = open(os.path.join(d, "ser", p), "rb").read().split(b"\ndiff --git ")[0]
    msg.decode("utf-8")
if len(ser) != 2 or "drv\\xff" not in open(os.path.join(d, "ser", ser[0]), "rb").read().decode("utf-8", "replace"):
    bad.append("series: %s" % ser)
print("\n".join(bad))
sys.exit(1 if bad else 0)
EOT
); then
	fail utf8-reports-valid "$(echo "$out" | tail -4 | tr '\n' '|')"
elif ! grep -q '__blk_end_request(rq, 0, blk_rq_cur_bytes(rq)); /\* d'$'\351''j'$'\340'' vu \*/' "$w/nu/t/lat.c" ||
	grep -q 'end_request(rq, [01])' "$w/nu/t/drv"$'\377'".c"; then
	fail utf8-reports-valid "the converted files: $(grep -c '__blk_end_request' "$w/nu/t/lat.c") in lat.c"
else
	pass utf8-reports-valid
fi
rm -rf "$w/nu"

# ---- a header that appears in an -I folder outside the tree: no stale cache hit (item 8) ----
# The cache recorded the files a run read and the folders on the way to them inside the
# walked trees; an -I folder outside them, where a header was looked for in vain (an
# empty stub stood in), was no input: the header added there, the next run returned the
# first run's result.  The macro the header defines (EXTRA_HOOK, called in the request
# function) changes the result (here: which tool converts the sites); the run after the
# header appears must give the new one (as an uncached run does), and the run before it
# must be a hit (the cache works at all).  Also for a subfolder that did not exist, and
# for a header found in a later -I folder (inc2, empty) that one in an earlier -I folder
# (inc) now hides.
for hdr in extra.h sub/extra.h shadow; do
	name=cache-header-added-in-include-folder
	[ "$hdr" = sub/extra.h ] && name=cache-header-added-in-new-include-subfolder
	[ "$hdr" = shadow ] && name=cache-header-added-in-earlier-include-folder
	rm -rf "$w/ic"; mkdir -p "$w/ic/tree" "$w/ic/inc" "$w/ic/inc2" "$w/ic/xdg"
	[ "$hdr" = shadow ] && hdr=extra.h && : >"$w/ic/inc2/extra.h"
	cp "$TOP/samples/lrd_simple.c" "$TOP/samples/lrd_disk.h" "$w/ic/tree/"
	sed -i -e "1i #include <$hdr>" -e 's/^\t\tend_request(rq, 1);/\t\tEXTRA_HOOK(rq);\n&/' "$w/ic/tree/lrd_simple.c"
	find "$w/ic" -exec touch -d '-10 seconds' {} + # older than the run: its result is kept
	ic_run() { (cd "$w/ic" && XDG_CACHE_HOME=$w/ic/xdg "$B" migrate --check -j 1 -I inc -I inc2 tree) >"$w/ic.$1" 2>&1; }
	ic_sum() { grep 'by spatch' "$w/ic.$1" | sed 's/; [0-9.]*s$//'; }
	ic_run 1; ic_run 1b
	mkdir -p "$w/ic/inc/${hdr%extra.h}"
	echo '#define EXTRA_HOOK(rq) do { } while (0)' >"$w/ic/inc/$hdr"
	ic_run 2
	(export BLKMIG_NO_CACHE=1; ic_run ref)
	if grep -q "result of an identical run" "$w/ic.1b" && ! grep -q "result of an identical run" "$w/ic.2" &&
		[ -n "$(ic_sum ref)" ] && [ "$(ic_sum 2)" = "$(ic_sum ref)" ] && [ "$(ic_sum 1)" != "$(ic_sum ref)" ]; then
		pass "$name"
	else
		fail "$name" "first: $(ic_sum 1); second: $(ic_sum 1b) $(grep -c 'identical run' "$w/ic.1b"); after the header: $(ic_sum 2) $(grep -c 'identical run' "$w/ic.2"); uncached: $(ic_sum ref)"
	fi
done
rm -rf "$w/ic" "$w/ic".*

# ---- one spatch budget per file for all passes, enforced -----------------------------------
# --timeout was given to each spatch pass (two passes: twice the time), and a spatch that
# never returned was never killed.  Now the passes share one budget (--timeout per file;
# migrate_spatch.c spatch_budget) and the pass that passes it is killed with its process
# group.  A stand-in that ignores SIGTERM and sleeps for ever (its name is the marker
# pgrep looks for), and one whose every pass takes 0.6 x the budget (3 s here).  Both
# passes run: $BLKMIG_FACTS gives the facts pass a file to write (without one migrate
# leaves it out: cocci/README.md), so the slow stand-in passes the budget in the second.
rm -rf "$w/bud"; mkdir -p "$w/bud"
cp "$TOP/samples/lrd_simple.c" "$TOP/samples/lrd_disk.h" "$w/bud/"
cat >"$w/bud-hang-spatch" <<'EOT'
#!/bin/sh
trap '' TERM
while :; do sleep 1; done
EOT
cat >"$w/bud-slow-spatch" <<'EOT'
#!/bin/sh
sleep 1.8
EOT
chmod +x "$w/bud-hang-spatch" "$w/bud-slow-spatch"
for kind in hang slow; do
	rm -rf "$w/bud-t" "$w/bud-rep"; cp -a "$w/bud" "$w/bud-t"
	t0=$(date +%s%N)
	BLKMIG_FACTS=$w/bud.facts timeout 60 "$B" migrate -q --in-place -j 1 --no-cache --timeout 3 \
		--spatch "$w/bud-$kind-spatch" --report "$w/bud-rep" "$w/bud-t" >"$w/bud.out" 2>&1; rc=$?
	t=$((($(date +%s%N) - t0) / 1000000)) # ms
	sleep 0.5
	left=$(pgrep -af "$w/bud-$kind-spatch" | tr '\n' '|')
	code=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["files"][0]["outcome"]["code"])' \
		"$w/bud-rep/report.json" 2>/dev/null)
	if [ "$rc" = 1 ] && [ "$t" -lt 9000 ] && [ "$code" = timeout ] && [ -z "$left" ] &&
		cmp -s "$w/bud-t/lrd_simple.c" "$w/bud/lrd_simple.c" &&
		grep -q "lrd_simple.c.*left untouched.*did not finish within its budget.*timeout" "$w/bud.out"; then
		pass "spatch-budget-$kind-killed-timeout"
	else
		fail "spatch-budget-$kind-killed-timeout" "exit $rc after $t ms, code '$code', left: '$left': $(grep -v '^ ' "$w/bud.out" | head -3 | tr '\n' '|')"
	fi
	pkill -KILL -f "$w/bud-$kind-spatch" 2>/dev/null
done
rm -rf "$w/bud" "$w/bud-t" "$w/bud-rep" "$w"/bud-*-spatch
