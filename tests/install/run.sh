#!/bin/bash
# tests/install/run.sh — suite `install` (tests/install/suite.mk).
#
#   make-install             `make install DESTDIR=<tmp> PREFIX=/usr/local` succeeds
#   man/files-exist          every path of the man page's FILES section (PREFIX and
#                            VERSION filled in) exists in that installed tree
#   man/files-shim-sources   one of them is the shim's DKMS source tree (its dkms.conf)
#   man/files-kernels        FILES names the kernels the shim refuses, as its header does
#   man/names-cocci-convert  FILES names PREFIX/bin/blkmig-cocci-convert
#   cocci-convert/on-path    the installed blkmig-cocci-convert, found on the PATH and
#                            run from elsewhere with no COCCI_DIR, converts a copy of a
#                            legacy test driver (no end_that_request_* call left) as
#                            the checkout's cocci/blkmig-cocci-convert does
#   uninstall/empty          `make uninstall` with the same DESTDIR and PREFIX leaves no
#                            file, no link and none of our directories
#   uninstall/keeps-others   files that are not ours (one in our own cocci directory)
#                            stay, unchanged
#   uninstall/twice          uninstalling what is not installed succeeds
#   dkms/build-exclusive     shims/dkms.conf's BUILD_EXCLUSIVE_KERNEL, matched as dkms
#                            matches it, against kernel version strings: 6.0-6.4 and
#                            6.9 on yes, the 6.5-6.8 that <blkcompat/bdev_open.h>
#                            refuses no, older no; every target kernel (KVERS) yes
#   dkms/excludes-refused    dkms build, on the installed sources in a private tree, of
#                            6.5 and 6.8: "excluded" (exit 77); 6.9: not excluded
#   dkms/samples-same-kernels  samples/dkms.conf (blkcompat-samples, which builds the
#                            shim too) declares the same kernels
#   demo/no-corpus-message   `make realdrv-modules` with REALDRV_CORPUS pointing at a
#                            missing file says "not built (no corpus at FILE)", no failure
#   demo/no-corpus-exported  the recipes see which real drivers were not built
#   demo/not-built-row       the demo table shows a "not built" row for each, with or
#                            without the name on its command line, and no FAIL for it
set -uo pipefail
: "${TOP:?}" "${BUILD:?}" "${VERSION:?}"
SUITE=install
. "$TOP/tests/lib/testlib.sh"

S=$(mktemp -d)
trap 'chmod -R u+w "$S" 2>/dev/null; rm -rf "$S"' EXIT
PFX=/usr/local
mk() { make -C "$TOP" --no-print-directory BUILD="$BUILD" NO_DEPS=1 "$@"; }

# ---- make install ---------------------------------------------------------------------
D=$S/dest
if mk install DESTDIR="$D" PREFIX=$PFX > "$S/install.log" 2>&1; then
	pass make-install
else
	fail make-install "$(tail -n 5 "$S/install.log")"
fi

# ---- the man page's FILES section ------------------------------------------------------
man=$TOP/analyzer/blkmig.1
# the item lines (.I or .B after .TP) of FILES, man escapes undone
files=$(awk '/^\.SH /{ in_files = ($2 == "FILES") ; next }
	in_files && tp && /^\.[IB] / { sub(/^\.[IB] /, ""); print }
	{ tp = in_files && /^\.TP/ }' "$man" |
	sed -e 's/\\-/-/g' -e 's/"//g' -e "s|PREFIX|$PFX|g" -e "s|VERSION|$VERSION|g")
missing= shim_dir=
for f in $files; do
	[ -e "$D$f" ] || missing="$missing $f"
	[ -f "$D${f%/}/dkms.conf" ] && shim_dir=$f
done
if [ -z "$files" ]; then
	fail man/files-exist "no item in the FILES section of $man"
elif [ -n "$missing" ]; then
	fail man/files-exist "named in FILES, not installed:$missing"
else
	pass man/files-exist
fi
if [ -n "$shim_dir" ]; then
	pass man/files-shim-sources
else
	fail man/files-shim-sources "no FILES item is the shim's source tree (with dkms.conf): $(echo $files)"
fi
if printf '%s\n' $files | grep -qx "$PFX/bin/blkmig-cocci-convert"; then
	pass man/names-cocci-convert
else
	fail man/names-cocci-convert "FILES does not name $PFX/bin/blkmig-cocci-convert"
fi
# the range the shim's header refuses, e.g. "6.5-6.8", must be in FILES too
refused=$(sed -n 's/^#error .*not mapped for \([0-9.]*-[0-9.]*\).*/\1/p' \
	"$TOP/shims/include/blkcompat/bdev_open.h")
files_text=$(awk '/^\.SH /{ in_files = ($2 == "FILES"); next } in_files' "$man" |
	sed -e 's/\\-/-/g' -e 's/\\(en/-/g')
if [ -n "$refused" ] && grep -qF -- "$refused" <<<"$files_text"; then
	pass man/files-kernels
else
	fail man/files-kernels "FILES does not say the shim refuses ${refused:-?} (shims/include/blkcompat/bdev_open.h)"
fi

# ---- blkmig-cocci-convert from the PATH ------------------------------------------------
case_c=$TOP/tests/cocci/cases/item01_held_request_fn.c
mkdir -p "$S/tree/drivers/block" "$S/elsewhere"
cp "$case_c" "$S/tree/drivers/block/"
found=$(PATH="$D$PFX/bin:$PATH" command -v blkmig-cocci-convert || true)
if [ "$found" != "$D$PFX/bin/blkmig-cocci-convert" ]; then
	fail cocci-convert/on-path "not on the PATH from $D$PFX/bin (found: ${found:-nothing})"
else
	(cd "$S/elsewhere" && env -u COCCI_DIR PATH="$D$PFX/bin:$PATH" \
		blkmig-cocci-convert "$S/tree") > "$S/convert.log" 2>&1
	rc=$?
	# the same as the checkout's script on another copy, and converted
	mkdir -p "$S/tree-ref/drivers/block" && cp "$case_c" "$S/tree-ref/drivers/block/"
	env -u COCCI_DIR "$TOP/cocci/blkmig-cocci-convert" "$S/tree-ref" > "$S/convert-ref.log" 2>&1
	got=$S/tree/drivers/block/${case_c##*/}
	if [ $rc -le 1 ] && ! cmp -s "$case_c" "$got" &&
		cmp -s "$S/tree-ref/drivers/block/${case_c##*/}" "$got" &&
		! grep -qE '\<end_that_request_(first|last)[[:space:]]*\(' "$got"; then
		pass cocci-convert/on-path
	else
		fail cocci-convert/on-path "exit $rc; $(tail -n 3 "$S/convert.log")"
	fi
fi

# ---- dkms itself, on the installed sources: refuses the kernels the shim refuses ------------
# (a private dkms tree; the kernels need not exist: dkms checks BUILD_EXCLUSIVE_KERNEL first)
if ! command -v dkms > /dev/null; then
	fail dkms/excludes-refused "no dkms (make deps)"
elif ! mkdir -p "$S/dkms" || ! dkms add -m blkcompat -v "$VERSION" --dkmstree "$S/dkms" --sourcetree "$D/usr/src" \
	> "$S/dkms-add.log" 2>&1; then
	fail dkms/excludes-refused "dkms add: $(tail -n 3 "$S/dkms-add.log")"
else
	bad=
	for k in 6.5.0-1-amd64 6.8.0-49-generic 6.9.0-1-amd64; do
		mok_signing_key=$S/mok.key mok_certificate=$S/mok.der \
			dkms build -m blkcompat -v "$VERSION" -k "$k" --kernelsourcedir "$S/no-kernel" \
			--dkmstree "$S/dkms" --sourcetree "$D/usr/src" > "$S/dkms-$k.log" 2>&1
		rc=$?
		excluded=no
		[ $rc = 77 ] && grep -q 'BUILD_EXCLUSIVE directive which does not match' "$S/dkms-$k.log" &&
			excluded=yes
		case $k in 6.9.*) want=no ;; *) want=yes ;; esac
		[ $excluded = $want ] || bad="$bad $k(excluded: $excluded, exit $rc)"
	done
	if [ -z "$bad" ]; then pass dkms/excludes-refused; else fail dkms/excludes-refused "$bad"; fi
fi

# ---- make uninstall ----------------------------------------------------------------------
# our directories: anything named blkmig or blkcompat-*
leftovers() {	# leftovers DIR: every file, link and directory of ours left under DIR
	find "$1" \( -type f -o -type l -o -type d \( -name 'blkmig' -o -name 'blkcompat*' \) \) -print |
		sed "s|^$1||" | LC_ALL=C sort
}
if mk uninstall DESTDIR="$D" PREFIX=$PFX > "$S/uninstall.log" 2>&1 &&
	[ -z "$(leftovers "$D")" ]; then
	pass uninstall/empty
else
	fail uninstall/empty "left: $(leftovers "$D" | head -n 10 | tr '\n' ' ') $(tail -n 3 "$S/uninstall.log")"
fi
if mk uninstall DESTDIR="$D" PREFIX=$PFX > "$S/uninstall2.log" 2>&1; then
	pass uninstall/twice
else
	fail uninstall/twice "$(tail -n 3 "$S/uninstall2.log")"
fi
# files that are not ours, one in a directory of ours, one beside our binary
D2=$S/dest2
want=$(printf '%s\n' "$PFX/bin/other-tool" "$PFX/share/blkmig" "$PFX/share/blkmig/cocci/local.cocci" | LC_ALL=C sort)
if ! mk install DESTDIR="$D2" PREFIX=$PFX > "$S/install2.log" 2>&1; then
	fail uninstall/keeps-others "the second make install failed: $(tail -n 3 "$S/install2.log")"
elif echo 'mine' > "$D2$PFX/share/blkmig/cocci/local.cocci" &&
	echo 'mine too' > "$D2$PFX/bin/other-tool" &&
	mk uninstall DESTDIR="$D2" PREFIX=$PFX > "$S/uninstall3.log" 2>&1 &&
	[ "$(leftovers "$D2")" = "$want" ] &&
	[ "$(cat "$D2$PFX/share/blkmig/cocci/local.cocci")" = mine ] &&
	[ "$(cat "$D2$PFX/bin/other-tool")" = "mine too" ]; then
	pass uninstall/keeps-others
else
	fail uninstall/keeps-others "left: $(leftovers "$D2" | tr '\n' ' '); expected: $(echo $want) $(tail -n 3 "$S/uninstall3.log")"
fi

# ---- the kernels dkms builds the shim for -------------------------------------------------
bek=$(set +u; . "$TOP/shims/dkms.conf"; printf '%s' "${BUILD_EXCLUSIVE_KERNEL:-}")
# version  expected (y: built, n: excluded)
table="5.10.0-30-amd64 n
5.19.17 n
6.0.0-0.deb11.6-amd64 y
6.1.0-28-amd64 y
6.1.119-1 y
6.4.16 y
6.5.0-1-amd64 n
6.6.13+bpo-amd64 n
6.7.12-amd64 n
6.8.0-49-generic n
6.9.7+bpo-amd64 y
6.10.11 y
6.12.57+deb12-amd64 y
6.12.6 y
6.13.1 y
7.0.0-1-amd64 n"
for v in ${KVERS:-}; do table="$table
$v y"; done
bad=
while read -r v want; do
	got=y
	[[ ! $v =~ $bek ]] && got=n
	[ "$got" = "$want" ] || bad="$bad $v($got, want $want)"
done <<<"$table"
if [ -z "$bek" ]; then
	fail dkms/build-exclusive "no BUILD_EXCLUSIVE_KERNEL in shims/dkms.conf"
elif [ -n "$bad" ]; then
	fail dkms/build-exclusive "'$bek' gets wrong:$bad"
else
	pass dkms/build-exclusive
fi

# the samples' package builds the shim too: the same kernels
bek_s=$(set +u; . "$TOP/samples/dkms.conf"; printf '%s' "${BUILD_EXCLUSIVE_KERNEL:-}")
if [ -n "$bek" ] && [ "$bek_s" = "$bek" ]; then
	pass dkms/samples-same-kernels
else
	fail dkms/samples-same-kernels "samples/dkms.conf: '$bek_s', shims/dkms.conf: '$bek'"
fi

# ---- the demo without the 2.6.24 corpus ---------------------------------------------------
nocorpus=$S/no-such-dir/linux-2.6.24.tar.xz
# a build directory of its own: the realtree suite's unpacked tree there would be a corpus
nobuild=$S/nobuild
mk BUILD="$nobuild" REALDRV_CORPUS="$nocorpus" realdrv-modules > "$S/realdrv.log" 2>&1
rc=$?
if [ $rc = 0 ] && grep -qF "not built (no corpus at $nocorpus)" "$S/realdrv.log" &&
	! grep -qi 'fail' "$S/realdrv.log"; then
	pass demo/no-corpus-message
else
	fail demo/no-corpus-message "exit $rc: $(cat "$S/realdrv.log")"
fi
nb=$(mk BUILD="$nobuild" REALDRV_CORPUS="$nocorpus" \
	--eval 'show-not-built: ; @echo "[$$REALDRV_NOT_BUILT]"' show-not-built 2>&1)
want_nb="[$(mk BUILD="$nobuild" --eval 'show-realdrvs: ; @echo "$(REALDRVS)"' show-realdrvs 2>&1)]"
if [ "$nb" = "$want_nb" ] && [ "$want_nb" != "[]" ]; then
	pass demo/no-corpus-exported
else
	fail demo/no-corpus-exported "REALDRV_NOT_BUILT in recipes: '$nb', expected '$want_nb'"
fi
# the table as demo-target calls it: without the names (make demo leaves them out when
# there is no corpus) and with them (TARGET_REALDRV given), nothing run
: > "$S/results.tsv"
mkdir -p "$S/converted" "$S/demo-realdrv" "$S/realdrv"
bad=
for names in "" hd; do
	out=$(REALDRV_NOT_BUILT=hd REALDRV_NOT_BUILT_WHY="no corpus at $nocorpus" \
		"$TOP/tests/target/demo-table.sh" "$S/results.tsv" "$TOP/samples" "$S/converted" \
		"$S/demo-realdrv" "$S/realdrv" $names 2>&1)
	row=$(grep '^hd\.c ' <<<"$out")
	if [ "$(grep -c '^hd\.c ' <<<"$out")" != 1 ] || ! grep -q 'not built' <<<"$row" ||
		grep -q 'FAIL' <<<"$row"; then
		bad="$bad [names '${names}': ${row:-no hd.c row}]"
	fi
done
if [ -z "$bad" ]; then
	pass demo/not-built-row
else
	fail demo/not-built-row "$bad"
fi

finish
