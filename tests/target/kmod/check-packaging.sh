# tests/target/kmod/check-packaging.sh — the packaging tests of the `shim` suite,
# sourced by check-shim.sh (which provides top, build, KVERS, VERSION and testlib).
#
#   install/no-kernel-tree     `make install PREFIX=<tmp>` with no kernel headers and no
#                              kernel image visible (KDIR, the headers and /boot all
#                              pointing into an empty directory) succeeds, builds no
#                              module, and installs blkmig, its man page, the cocci
#                              files and the shim sources
#   install/shim-sources       PREFIX/src/blkcompat-VERSION holds exactly the shim's
#                              sources, dkms.conf at its root (what DKMS expects)
#   dkms/<package>/<kernel>    `dkms build` of blkcompat and of blkcompat-samples, from
#                              the sources just installed, in a private dkms tree, for
#                              every target kernel: the modules exist, are built for
#                              that kernel, carry the version, import the namespace
# Nothing outside a mktemp directory is written (dkms gets private trees and a
# throw-away signing key).

pk_tmp=$(mktemp -d)
pk_prefix=$pk_tmp/prefix
pk_none=$pk_tmp/no-kernel
mkdir -p "$pk_none"
pk_log=$build/shim/install.log
mkdir -p "${pk_log%/*}"
if HDRDIR=$pk_none BOOTDIR=$pk_none make -C "$top" --no-print-directory install \
	PREFIX="$pk_prefix" KDIR="$pk_none/build" KERNEL_HEADERS_PREFIX="$pk_none/linux-headers-" \
	> "$pk_log" 2>&1; then
	pk_missing=
	for f in bin/blkmig share/man/man1/blkmig.1 share/blkmig/cocci/blk_end_request.cocci \
		src/blkcompat-$VERSION/dkms.conf src/blkcompat-$VERSION/Kbuild \
		src/blkcompat-$VERSION/include/linux/blkcompat.h; do
		[ -s "$pk_prefix/$f" ] || pk_missing="$pk_missing $f"
	done
	if [ -n "$pk_missing" ]; then
		fail install/no-kernel-tree "not installed:$pk_missing (log: $pk_log)"
	elif grep -qE 'kbuild|LD \[M\]|no kernel build tree|\.ko' "$pk_log"; then
		fail install/no-kernel-tree "make install built or looked for modules: $(grep -m1 -E 'kbuild|LD \[M\]|no kernel build tree|\.ko' "$pk_log")"
	elif ! "$pk_prefix/bin/blkmig" --help > /dev/null 2>&1 &&
	     ! "$pk_prefix/bin/blkmig" --version > /dev/null 2>&1; then
		fail install/no-kernel-tree "installed blkmig does not run"
	else
		pass install/no-kernel-tree
	fi
else
	fail install/no-kernel-tree "make install failed: $(tail -n 5 "$pk_log")"
fi

# The installed source tree is the shim's sources, nothing more, nothing less.
pk_src=$pk_prefix/src/blkcompat-$VERSION
pk_want=$(cd "$top/shims" && find . -type f ! -name README.md ! -name shims.mk | LC_ALL=C sort)
pk_have=$(cd "$pk_src" 2>/dev/null && find . -type f | LC_ALL=C sort)
if [ -n "$pk_have" ] && [ "$pk_want" = "$pk_have" ] &&
   (cd "$top/shims" && for f in $pk_want; do cmp -s "$f" "$pk_src/$f" || exit 1; done); then
	pass install/shim-sources
else
	fail install/shim-sources "installed: $(echo $pk_have); expected: $(echo $pk_want)"
fi

# DKMS, from the installed sources plus the converted samples' package.
if ! command -v dkms > /dev/null; then
	fail dkms/available "no dkms (make deps)"
elif ! make -C "$top" --no-print-directory install-samples-src USRSRC="$pk_prefix/src" \
	> "$build/shim/install-samples.log" 2>&1; then
	fail dkms/samples-source "make install-samples-src failed: $(tail -n 3 "$build/shim/install-samples.log")"
else
	pk_tree=$pk_tmp/dkms
	mkdir -p "$pk_tree"
	export mok_signing_key=$pk_tmp/mok.key mok_certificate=$pk_tmp/mok.der
	pk_dkms() {
		nice -n 10 dkms "$@" -j 1 --dkmstree "$pk_tree" --sourcetree "$pk_prefix/src"
	}
	for pk_pkg in blkcompat blkcompat-samples; do
		if ! dkms add -m $pk_pkg -v "$VERSION" --dkmstree "$pk_tree" \
			--sourcetree "$pk_prefix/src" > "$build/shim/dkms-add-$pk_pkg.log" 2>&1; then
			fail "dkms/$pk_pkg/add" "$(tail -n 3 "$build/shim/dkms-add-$pk_pkg.log")"
			continue
		fi
		for v in $KVERS; do
			pk_out=$build/shim/dkms-$pk_pkg-$v.log
			if ! pk_dkms build -m $pk_pkg -v "$VERSION" -k "$v" > "$pk_out" 2>&1; then
				fail "dkms/$pk_pkg/$v" "dkms build failed: $(grep -m3 -iE 'error|failed' "$pk_out" | tr '\n' ' ') (log: $pk_out; make.log under $pk_tree)"
				cp -r "$pk_tree/$pk_pkg/$VERSION/build/make.log" "$build/shim/dkms-$pk_pkg-$v.make.log" 2>/dev/null
				continue
			fi
			pk_dir=$(ls -d "$pk_tree/$pk_pkg/$VERSION/$v"/*/module 2>/dev/null | head -n 1)
			pk_bad=
			if [ $pk_pkg = blkcompat ]; then pk_mods=blkcompat; else pk_mods="lrd_simple lrd_defer lrd_chunk lrd_cb"; fi
			for m in $pk_mods; do
				ko=$(ls "$pk_dir/$m.ko"* 2>/dev/null | head -n 1)
				if [ -z "$ko" ]; then pk_bad="$pk_bad $m: missing;"; continue; fi
				vm=$(modinfo -F vermagic "$ko" | awk '{ print $1 }')
				[ "$vm" = "$v" ] || pk_bad="$pk_bad $m: vermagic $vm;"
				if [ $m = blkcompat ]; then
					[ "$(modinfo -F version "$ko")" = "$VERSION" ] || pk_bad="$pk_bad $m: version;"
				else
					modinfo -F import_ns "$ko" | grep -qx BLKCOMPAT || pk_bad="$pk_bad $m: no import_ns;"
				fi
			done
			if [ -z "$pk_bad" ]; then pass "dkms/$pk_pkg/$v"; else fail "dkms/$pk_pkg/$v" "$pk_bad"; fi
		done
	done
	unset mok_signing_key mok_certificate
fi
rm -rf "$pk_tmp"
