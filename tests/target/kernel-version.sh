#!/bin/bash
# tests/target/kernel-version.sh — which installed kernel the guest boots.
#
# Prints the newest version V that has all three of /boot/vmlinuz-V, the matching
# /usr/src/linux-headers-V (so the modules build against it) and /lib/modules/V (so the
# guest gets its null_blk and brd).  BOOTDIR, HDRDIR and MODDIR override the roots.
set -u
boot=${BOOTDIR:-/boot}
hdr=${HDRDIR:-/usr/src}
mods=${MODDIR:-/lib/modules}
best=
for img in "$boot"/vmlinuz-*; do
	[ -e "$img" ] || continue
	v=${img##*/vmlinuz-}
	[ -d "$hdr/linux-headers-$v" ] && [ -d "$mods/$v" ] || continue
	best=$(printf '%s\n%s\n' "$best" "$v" | sed '/^$/d' | sort -V | tail -n 1)
done
if [ -z "$best" ]; then
	echo "kernel-version: no $boot/vmlinuz-V with $hdr/linux-headers-V and $mods/V" >&2
	exit 1
fi
echo "$best"
