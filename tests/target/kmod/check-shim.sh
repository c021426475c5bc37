#!/bin/bash
# tests/target/kmod/check-shim.sh — the `shim` test suite (make check-shim).
#
# Static checks of the shim (kernel-doc clean, every promised export present,
# no compiler warning in any module build, no legacy completion call left in the
# converted samples), then one QEMU boot of the target kernel running
# smoke-qemu.sh: the shim self-test module, and dd write/read/compare, injected
# EIO, busy rmmod refusal for every sample, legacy and converted; each guest
# verdict becomes one test result here.
#
# usage: check-shim.sh TOP BUILD KDIR KIMAGE
set -uo pipefail
top=${1:?usage: check-shim.sh TOP BUILD KDIR KIMAGE}
build=${2:?}
kdir=${3:?}
kimage=${4:?}
SUITE=shim
# shellcheck source=../../lib/testlib.sh
. "$top/tests/lib/testlib.sh"

modules=$build/modules

kdoc=$(ls "$kdir"/scripts/kernel-doc /usr/src/linux-headers-*-common/scripts/kernel-doc \
	2>/dev/null | head -n 1)
if [ -n "$kdoc" ]; then
	out=$(perl "$kdoc" -none "$top"/shims/*.[ch] "$top"/shims/include/linux/*.h 2>&1)
	if [ -z "$out" ]; then pass kernel-doc; else fail kernel-doc "$out"; fi
else
	fail kernel-doc "no scripts/kernel-doc under $kdir"
fi

exports="blk_end_request __blk_end_request blk_end_request_callback blk_init_queue
	blk_cleanup_queue blkcompat_alloc_disk elv_next_request blkdev_dequeue_request
	blk_stop_queue blk_start_queue blk_fs_request end_that_request_first
	end_that_request_chunk end_that_request_last end_request end_queued_request
	end_dequeued_request"
if [ -f "$modules/blkcompat.ko" ]; then
	syms=$(nm "$modules/blkcompat.ko" | sed -n 's/.* __ksymtab_\(.*\)$/\1/p')
	missing=
	for s in $exports; do
		grep -qx -- "$s" <<<"$syms" || missing="$missing $s"
	done
	if [ -z "$missing" ]; then pass exports; else fail exports "missing:$missing"; fi
	gpl=$(modinfo -F license "$modules/blkcompat.ko" 2>&1)
	if [ "$gpl" = GPL ]; then pass license-gpl; else fail license-gpl "$gpl"; fi
else
	fail exports "no $modules/blkcompat.ko"
fi

# warning-free: the shim, legacy samples and self-test (their builds already stop on
# a warning), and separately the samples as our conversion tools left them
check_warnings() {
	local name=$1 warn logs
	shift
	logs=$(ls "$@" 2>/dev/null)
	if [ -z "$logs" ]; then
		fail "$name" "no kbuild log: $*"
	elif warn=$(grep -H -E 'warning:|WARNING:' $logs); then
		fail "$name" "$warn"
	else
		pass "$name"
	fi
}
check_warnings build-warning-free "$build"/kbuild/{shims,samples-legacy,selftest}/build.log
if [ -d "$build/kbuild/samples-converted" ]; then
	check_warnings converted-build-warning-free "$build"/kbuild/samples-converted/build.log
fi

converted=$build/samples/converted
if [ -d "$converted" ]; then
	# calls only: comments and string literals (which name the old API) go first
	left=$(for f in "$converted"/*.c; do
		perl -0pe 's{/\*.*?\*/}{}gs; s{//[^\n]*}{}g; s{"(\\.|[^"\\])*"}{""}g' "$f" |
			grep -E '\<(end_that_request_(first|chunk|last)|end_request|end_queued_request|end_dequeued_request)[[:space:]]*\(' |
			sed "s|^|${f##*/}: |"
	done)
	if [ -z "$left" ]; then pass converted-no-legacy-calls; else fail converted-no-legacy-calls "$left"; fi
fi

smoke_log=$RESULTS/shim-smoke.log
"$top/tests/target/kmod/smoke-qemu.sh" "$modules" "$kimage" "$smoke_log" >/dev/null 2>&1
smoke_rc=$?
if [ -f "$smoke_log" ]; then
	while read -r verdict name; do
		if [ "$verdict" = PASS ]; then pass "guest/$name"; else fail "guest/$name" "see $smoke_log"; fi
	done < <(sed -n 's/.*SMOKE \(PASS\|FAIL\) \(.*\)$/\1 \2/p' "$smoke_log")
fi
if [ $smoke_rc -eq 0 ]; then pass guest-run; else fail guest-run "smoke-qemu.sh exited $smoke_rc (see $smoke_log)"; fi
finish
