#!/bin/bash
# tests/target/kmod/check-shim.sh — the `shim` test suite (make check-shim).
#
# Static checks of the shim on every target kernel (kernel-doc clean and present for
# every export, exports in the BLKCOMPAT namespace, drivers importing it, versions
# agreeing, no compiler warning in any module build, no legacy completion call left in
# the converted samples), the packaging (`make install` with no kernel tree, `dkms
# build` of both DKMS packages for every kernel, from the installed sources), then one
# QEMU boot of one kernel running smoke-qemu.sh: the shim self-test module, and dd
# write/read/compare, injected EIO, busy rmmod refusal for every sample, legacy and
# converted; each guest verdict becomes one test result here.  (The whole fio suite
# on every kernel is the `target` suite.)
#
# usage: check-shim.sh TOP BUILD
# environment: KVERS (the target kernel versions), SMOKE_KVER (the kernel of the smoke
# boot, default the last of KVERS), VERSION (the project's, top-level Makefile),
# HEADERS_PREFIX (default /usr/src/linux-headers-), BOOTDIR (default /boot).
# Per-kernel test names carry the version: <test>/<version>.
set -uo pipefail
top=${1:?usage: check-shim.sh TOP BUILD}
build=${2:?usage: check-shim.sh TOP BUILD}
: "${KVERS:?set KVERS}" "${VERSION:?set VERSION}"
smoke_kver=${SMOKE_KVER:-${KVERS##* }}
hdr=${HEADERS_PREFIX:-/usr/src/linux-headers-}
boot=${BOOTDIR:-/boot}
SUITE=shim
# shellcheck source=../../lib/testlib.sh
. "$top/tests/lib/testlib.sh"

shim_sources=$(ls "$top"/shims/*.[ch] "$top"/shims/include/*/*.h "$top"/shims/include/*/*/*.h)
# The exports, as the sources declare them: EXPORT_SYMBOL_NS_GPL(sym, BLKCOMPAT).
src_exports=$(sed -n 's/^EXPORT_SYMBOL_NS_GPL(\([a-z_0-9]*\), BLKCOMPAT);$/\1/p' \
	"$top"/shims/*.c | sort)
other_exports=$(grep -hE '^EXPORT_SYMBOL' "$top"/shims/*.c | grep -v ', BLKCOMPAT);$')
promised="blk_end_request __blk_end_request blk_end_request_callback blk_init_queue
	blk_cleanup_queue blkcompat_alloc_disk elv_next_request blkdev_dequeue_request
	blk_stop_queue blk_start_queue blk_fs_request end_that_request_first
	end_that_request_chunk end_that_request_last end_request end_queued_request
	end_dequeued_request"
missing=
for s in $promised; do grep -qx -- "$s" <<<"$src_exports" || missing="$missing $s"; done
if [ -z "$missing" ] && [ -z "$other_exports" ]; then
	pass exports-namespaced-in-source
else
	fail exports-namespaced-in-source "not exported in BLKCOMPAT:$missing ${other_exports}"
fi

# The release number: version.h, both dkms.conf files, the Makefile's VERSION.
v_h=$(sed -n 's/^#define BLKCOMPAT_VERSION "\(.*\)"$/\1/p' "$top/shims/include/blkcompat/version.h")
v_shim=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/shims/dkms.conf")
v_samples=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"$/\1/p' "$top/samples/dkms.conf")
if [ -n "$v_h" ] && [ "$v_h" = "$VERSION" ] && [ "$v_shim" = "$VERSION" ] &&
   [ "$v_samples" = "$VERSION" ]; then
	pass versions-agree
else
	fail versions-agree "Makefile $VERSION, version.h '$v_h', dkms.conf '$v_shim', samples/dkms.conf '$v_samples'"
fi

# check_warnings NAME LOG...: the kbuild logs exist and hold no warning.
check_warnings() {
	local name=$1 warn logs
	shift
	logs=$(ls "$@" 2>/dev/null)
	if [ -z "$logs" ]; then
		fail "$name" "no kbuild log: $*"
	elif warn=$(grep -H -E 'warning:|WARNING:' $logs | grep -v ':make\[[0-9]*\]: '); then
		fail "$name" "$warn"
	else
		pass "$name"
	fi
}

# ---- per kernel: kernel-doc with that kernel's script, the built modules ----
for v in $KVERS; do
	kdoc=$hdr$v/scripts/kernel-doc
	if [ ! -f "$kdoc" ]; then
		fail "kernel-doc/$v" "no $kdoc"
	else
		# -Wall where the script has it (6.12's; 6.1's does not know the option)
		wall=
		perl "$kdoc" -Wall -none /dev/null > /dev/null 2>&1 && wall=-Wall
		out=$(perl "$kdoc" $wall -none $shim_sources 2>&1)
		if [ -z "$out" ]; then pass "kernel-doc/$v"; else fail "kernel-doc/$v" "$out"; fi
		# every export has its kernel-doc comment
		undoc=
		for s in $src_exports; do
			f=$(grep -l "^EXPORT_SYMBOL_NS_GPL($s, BLKCOMPAT);" "$top"/shims/*.c)
			perl "$kdoc" -rst -function "$s" "$f" 2>/dev/null |
				grep -q "c:function:: .*[ *]$s (" || undoc="$undoc $s"
		done
		if [ -z "$undoc" ]; then pass "kernel-doc-every-export/$v"; else fail "kernel-doc-every-export/$v" "no kernel-doc:$undoc"; fi
	fi

	modules=$build/kernels/$v/modules
	kbuild=$build/kernels/$v/kbuild
	ko=$modules/blkcompat.ko
	if [ ! -f "$ko" ]; then
		fail "modules/$v" "no $ko (make modules-kernels)"
		continue
	fi
	vm=$(modinfo -F vermagic "$ko" | awk '{ print $1 }')
	if [ "$vm" = "$v" ]; then pass "vermagic/$v"; else fail "vermagic/$v" "built for '$vm'"; fi
	# the module's export table and its Module.symvers: every promised symbol, in BLKCOMPAT
	syms=$(nm "$ko" | sed -n 's/.* __ksymtab_\(.*\)$/\1/p' | sort)
	ns_bad=$(awk -F'\t' '$5 != "BLKCOMPAT" || $4 != "EXPORT_SYMBOL_GPL" { print $2 }' \
		"$kbuild/shims/Module.symvers")
	if [ "$syms" = "$src_exports" ] && [ -z "$ns_bad" ] &&
	   [ "$(cut -f2 "$kbuild/shims/Module.symvers" | sort)" = "$src_exports" ]; then
		pass "exports/$v"
	else
		fail "exports/$v" "ksymtab: $(echo $syms); outside BLKCOMPAT or not GPL: $ns_bad"
	fi
	lic=$(modinfo -F license "$ko"); mver=$(modinfo -F version "$ko")
	if [ "$lic" = GPL ] && [ "$mver" = "$VERSION" ]; then
		pass "license-version/$v"
	else
		fail "license-version/$v" "license '$lic', version '$mver'"
	fi
	# every driver built on the shim imports its namespace (through <linux/blkcompat.h>)
	noimp=
	for m in "$modules"/legacy/*.ko "$modules"/converted/*.ko "$modules"/test/*.ko \
		"$modules"/realdrv/*/*.ko; do
		[ -f "$m" ] || continue
		modinfo -F import_ns "$m" | grep -qx BLKCOMPAT || noimp="$noimp ${m#"$modules"/}"
	done
	if [ -z "$noimp" ] && [ -f "$modules/legacy/lrd_simple.ko" ]; then
		pass "drivers-import-namespace/$v"
	else
		fail "drivers-import-namespace/$v" "no import_ns BLKCOMPAT:${noimp:- no legacy modules}"
	fi
	# warning-free: the shim, legacy samples and self-test (their builds already stop
	# on a warning), and separately the samples as our conversion tools left them
	check_warnings "build-warning-free/$v" "$kbuild"/{shims,samples-legacy,selftest}/build.log
	if [ -d "$kbuild/samples-converted" ]; then
		check_warnings "converted-build-warning-free/$v" "$kbuild/samples-converted/build.log"
	fi
done

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

# ---- packaging: install without a kernel tree, then DKMS from what it installed ----
. "$top/tests/target/kmod/check-packaging.sh"

# ---- one smoke boot ----
# the serial log is an artefact, not a suite log: keep it out of $RESULTS
smoke_log=$build/shim/smoke-serial.log
mkdir -p "${smoke_log%/*}"
nice -n 10 "$top/tests/target/kmod/smoke-qemu.sh" "$build/kernels/$smoke_kver/modules" \
	"$boot/vmlinuz-$smoke_kver" "$smoke_log" >/dev/null 2>"$smoke_log.stderr"
smoke_rc=$?
if [ -f "$smoke_log" ]; then
	while read -r verdict name; do
		if [ "$verdict" = PASS ]; then pass "guest/$name"; else fail "guest/$name" "see $smoke_log"; fi
	done < <(sed -n 's/.*SMOKE \(PASS\|FAIL\) \(.*\)$/\1 \2/p' "$smoke_log")
fi
if [ $smoke_rc -eq 0 ]; then
	pass "guest-run/$smoke_kver"
else
	# the summary keeps the fail message: say there what went wrong
	why=$(head -n 1 "$smoke_log.stderr")
	last=$(grep -E '^SMOKE ' "$smoke_log" 2>/dev/null | tail -n 1)
	oops=$(grep -m 3 -E 'BUG|Oops|panic|hung task|WARNING' "$smoke_log" 2>/dev/null | tr '\n' ' ')
	fail "guest-run/$smoke_kver" "smoke-qemu.sh exited $smoke_rc: ${why:-no message}; last guest line: ${last:-none}${oops:+; kernel: $oops} (see $smoke_log)"
	# the build folder does not outlive a CI run: the cause goes in the suite's output
	echo "--- smoke-qemu.sh said:"
	cat "$smoke_log.stderr"
	echo "--- last lines of the guest's serial log:"
	[ -f "$smoke_log" ] && tail -n 60 "$smoke_log"
fi
finish
