#!/bin/bash
# tests/target/kernel-version.sh — which installed kernels the guest can boot.
#
# usage: kernel-version.sh [--all]
# A target kernel is a version V that has all three of /boot/vmlinuz-V, the matching
# /usr/src/linux-headers-V (so the modules build against it) and /lib/modules/V (so the
# guest gets its null_blk and brd).  Prints the newest one, or with --all every one,
# oldest first, on one line.  BOOTDIR, HDRDIR and MODDIR override the roots.
set -u
boot=${BOOTDIR:-/boot}
hdr=${HDRDIR:-/usr/src}
mods=${MODDIR:-/lib/modules}
all=
for img in "$boot"/vmlinuz-*; do
	[ -e "$img" ] || continue
	v=${img##*/vmlinuz-}
	[ -d "$hdr/linux-headers-$v" ] && [ -d "$mods/$v" ] || continue
	all=$(printf '%s\n%s\n' "$all" "$v")
done
all=$(sed '/^$/d' <<<"$all" | sort -V)
if [ -z "$all" ]; then
	echo "kernel-version: no $boot/vmlinuz-V with $hdr/linux-headers-V and $mods/V" >&2
	exit 1
fi
if [ "${1:-}" = --all ]; then
	echo $all
else
	tail -n 1 <<<"$all"
fi
