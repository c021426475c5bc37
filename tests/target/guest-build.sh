#!/bin/bash
# tests/target/guest-build.sh — builds the test guest's initramfs (cpio newc).
#
# usage: guest-build.sh OUT.cpio STAGE_DIR
# environment:
#   KVERS        the kernel versions the image serves (default: KVER); one image for all
#                of them, each booted with the same initramfs
#   MODDIR       root of the installed modules (default /lib/modules)
#   OUR_MODULES  directory of our built modules (blkcompat.ko, legacy/, converted/, ...),
#                copied as a tree; @KVER@ in it stands for each kernel version
#                (build/kernels/@KVER@/modules); may be missing (the guest tests then
#                fail, loudly)
#   PROBE        the static eio_probe binary
#   GUEST_SRC    tests/target/guest (init and test scripts)
#
# The image: busybox-static and its applet links, fio with every shared library ldd
# names (libaio among them), the probe and the scripts, once; per kernel version V,
# under /blkmig/k/V/: the kernel modules we need with their dependencies (kmod/) and
# our modules (modules/).  The guest picks its directory by `uname -r` (guest/lib.sh).
set -euo pipefail
out=${1:?usage: guest-build.sh OUT.cpio STAGE_DIR}
stage=${2:?usage: guest-build.sh OUT.cpio STAGE_DIR}
: "${PROBE:?}" "${GUEST_SRC:?}"
kvers=${KVERS:-${KVER:?set KVERS or KVER}}
kernel_modules="brd null_blk"

die() { echo "guest-build: $*" >&2; exit 1; }
for v in $kvers; do
	[ -d "${MODDIR:-/lib/modules}/$v" ] || die "no ${MODDIR:-/lib/modules}/$v (is linux-image-$v installed?)"
done
busybox=$(command -v busybox) || die "busybox not found (apt-get install busybox-static)"
fio=$(command -v fio) || die "fio not found (apt-get install fio)"
bb_ldd=$(ldd "$busybox" 2>&1 || true)
grep -qE 'not a dynamic|statically linked' <<<"$bb_ldd" ||
	die "$busybox is not static (apt-get install busybox-static)"

rm -rf "$stage"
mkdir -p "$stage"/{bin,dev,proc,sys,tmp,run,usr/bin,usr/lib,usr/lib64,blkmig/bin,blkmig/k}
# Merged /usr, as on Debian 12: the paths ldd prints resolve either way.
ln -s usr/lib "$stage/lib"
ln -s usr/lib64 "$stage/lib64"

# busybox and its applets.
cp "$busybox" "$stage/bin/busybox"
for applet in $("$busybox" --list); do
	[ -e "$stage/bin/$applet" ] || ln -s busybox "$stage/bin/$applet"
done

# A host path as it lands in the image (/lib/... goes to /usr/lib/...).
image_path() {
	case $1 in
	/lib/* | /lib64/*) echo "$stage/usr$1" ;;
	*) echo "$stage$1" ;;
	esac
}

# fio and its shared libraries, at the paths the dynamic loader looks for them.
cp "$fio" "$stage/usr/bin/fio"
fio_libs=$(ldd "$fio")
grep -q 'not found' <<<"$fio_libs" && die "fio has unresolved libraries: $(grep 'not found' <<<"$fio_libs")"
grep -q libaio <<<"$fio_libs" || die "fio is not linked with libaio"
awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' <<<"$fio_libs" |
while read -r lib; do
	dest=$(image_path "$lib")
	mkdir -p "$(dirname "$dest")"
	cp -L "$lib" "$dest"
done

# Kernel modules and their dependencies, uncompressed (busybox insmod wants plain .ko).
# copy_kernel_module KVER DEST NAME
copy_kernel_module() {
	local kver=$1 dest=$2 name=$3 path dep
	[ -e "$dest/$name.ko" ] && return 0
	path=$(modinfo -k "$kver" -n "$name" 2>/dev/null) || die "module $name not in /lib/modules/$kver"
	case $path in
	(builtin) return 0 ;;
	(*.ko) cp "$path" "$dest/$name.ko" ;;
	(*.ko.xz) xz -dc "$path" > "$dest/$name.ko" ;;
	(*.ko.zst) zstd -qdc "$path" > "$dest/$name.ko" ;;
	(*.ko.gz) gzip -dc "$path" > "$dest/$name.ko" ;;
	(*) die "module $name: unknown file $path" ;;
	esac
	for dep in $(modinfo -k "$kver" -F depends "$name" | tr ',' ' '); do
		copy_kernel_module "$kver" "$dest" "$dep"
		echo "$dep" >> "$dest/$name.deps"
	done
	: >> "$dest/$name.deps"
}

for v in $kvers; do
	kdest=$stage/blkmig/k/$v/kmod
	mkdir -p "$kdest" "$stage/blkmig/k/$v/modules"
	for m in $kernel_modules; do
		copy_kernel_module "$v" "$kdest" "$m"
	done
	# Our modules, as a tree (blkcompat.ko, legacy/*.ko, converted/*.ko, ...).
	ours=${OUR_MODULES:-}
	ours=${ours//@KVER@/$v}
	if [ -n "$ours" ] && [ -d "$ours" ]; then
		(cd "$ours" && find -L . -name '*.ko' -print0 |
			cpio -0 -pdmL --quiet "$stage/blkmig/k/$v/modules")
	else
		echo "guest-build: warning: no modules of ours for $v (${ours:-OUR_MODULES unset})" >&2
	fi
	# A module built for another kernel fails in the guest; say why here.
	find "$stage/blkmig/k/$v/modules" -name '*.ko' | while read -r ko; do
		vm=$(modinfo -F vermagic "$ko" | awk '{ print $1 }')
		[ "$vm" = "$v" ] ||
			echo "guest-build: warning: ${ko#"$stage"/} is built for '$vm', not $v" >&2
	done
done

cp "$PROBE" "$stage/blkmig/bin/eio_probe"
cp "$GUEST_SRC"/*.sh "$stage/blkmig/"
cp "$GUEST_SRC/init" "$stage/init"
chmod +x "$stage/init" "$stage"/blkmig/*.sh
echo "$kvers" > "$stage/blkmig/kvers"

mkdir -p "$(dirname "$out")"
(cd "$stage" && find . -mindepth 1 | LC_ALL=C sort |
	cpio -o -H newc -R 0:0 --reproducible --quiet) > "$out.tmp"
mv "$out.tmp" "$out"
echo "guest-build: $(du -h "$out" | cut -f1) $out (kernels $kvers)"
