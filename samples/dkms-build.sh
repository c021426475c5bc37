#!/bin/sh
# samples/dkms-build.sh - how DKMS builds the "blkcompat-samples" package (dkms.conf).
#
# usage: sh ./dkms-build.sh KERNEL_BUILD_DIR SHIM_SOURCE_DIR   (in the package's build dir)
# The samples include <linux/blkcompat.h> and call the shim's exports, whose symbol
# versions modpost takes from the shim's Module.symvers: so the shim is built first,
# from its installed sources (SHIM_SOURCE_DIR, /usr/src/blkcompat-<version>), in a
# private copy; its module here is a by-product, the installed one is the blkcompat
# package's, built from the same sources for the same kernel.
set -eu
kdir=${1:?usage: dkms-build.sh KERNEL_BUILD_DIR SHIM_SOURCE_DIR}
shim=${2:?usage: dkms-build.sh KERNEL_BUILD_DIR SHIM_SOURCE_DIR}
here=$(pwd)
[ -f "$shim/Kbuild" ] || { echo "dkms-build.sh: no blkcompat sources in $shim" >&2; exit 1; }
rm -rf shim-build
cp -r "$shim" shim-build
make -C "$kdir" M="$here/shim-build" modules
make -C "$kdir" M="$here" BLKCOMPAT_INCLUDE="$here/shim-build/include" \
	KBUILD_EXTRA_SYMBOLS="$here/shim-build/Module.symvers" modules
