#!/bin/bash
# tests/target/run-kernels.sh — the `target` suite on every target kernel: boots each
# kernel once with the shared initramfs, runs run-check.sh for it and merges the
# verdicts into one suite log, each test named target/<kernel>/<test>; then prints a
# table with one column per kernel (tests passed / run, by group).
#
# usage: run-kernels.sh INITRAMFS OUTDIR
# environment: KVERS (the kernel versions, oldest first), RESULTS (testlib),
#              BOOTDIR (default /boot: the images are BOOTDIR/vmlinuz-<version>), and
#              what run-check.sh and guest-boot.sh take (BOOT_TIMEOUT, SMP, ...).
#              REALDRV_RUN: the real drivers to run after the samples' boot, each by
#              realdrv/run-<name>.sh (two more boots per kernel; default none), with
#              OUR_MODULES (our modules, @KVER@ standing for the version), REALDRV
#              (blkmig's artefacts of the real drivers, build/realdrv) and
#              REALDRV_TIMEOUT (BOOT_TIMEOUT of their boots, default 600).
# Per kernel in OUTDIR/<version>/: check-serial.log, check-results.tsv, run.txt (the
# runner's output) and results/target.log (the verdicts of every boot of that
# kernel); per real driver R in OUTDIR/<version>/R/ its runner's output (run.txt) and
# artefacts; the table in OUTDIR/kernels-table.txt.
set -u
here=$(cd "$(dirname "$0")" && pwd)
initrd=${1:?usage: run-kernels.sh INITRAMFS OUTDIR}
out=${2:?}
: "${KVERS:?set KVERS to the kernel versions to boot}"
boot=${BOOTDIR:-/boot}
SUITE=target
. "$here/../lib/testlib.sh"
mkdir -p "$out"

for v in $KVERS; do
	mkdir -p "$out/$v/results"
	start=$(date +%s)
	echo "target: booting $v under QEMU TCG (one boot, every test)..."
	KVER=$v RESULTS=$out/$v/results "$here/run-check.sh" "$boot/vmlinuz-$v" "$initrd" \
		"$out/$v" > "$out/$v/run.txt" 2>&1
	echo "target: $v: $(tail -n 1 "$out/$v/run.txt") ($(($(date +%s) - start))s)"
	ran=yes
	grep -qE '^(PASS|FAIL) ' "$out/$v/results/target.log" 2>/dev/null || ran=
	# The real drivers: their verdicts join this kernel's log.
	for r in ${REALDRV_RUN:-}; do
		start=$(date +%s)
		rm -rf "$out/$v/$r"
		mkdir -p "$out/$v/$r/results"
		echo "target: $v: real driver $r (legacy and converted, one boot each)..."
		mods=${OUR_MODULES:-}
		KVER=$v RESULTS=$out/$v/$r/results MODULES=${mods//@KVER@/$v} \
			REALDRV=${REALDRV:-} BOOT_TIMEOUT=${REALDRV_TIMEOUT:-600} \
			"$here/realdrv/run-$r.sh" "$boot/vmlinuz-$v" "$initrd" "$out/$v/$r" \
			> "$out/$v/$r/run.txt" 2>&1
		echo "target: $v: $r: $(tail -n 1 "$out/$v/$r/run.txt") ($(($(date +%s) - start))s)"
		if grep -qE '^(PASS|FAIL) ' "$out/$v/$r/results/target.log" 2>/dev/null; then
			grep -E '^(PASS|FAIL) ' "$out/$v/$r/results/target.log" >> "$out/$v/results/target.log"
		else
			echo "FAIL target/$r/run: run-$r.sh gave no verdict (see $out/$v/$r/run.txt)" \
				>> "$out/$v/results/target.log"
		fi
	done
	[ -n "$ran" ] || fail "$v/run" "run-check.sh gave no verdict (see $out/$v/run.txt)"
	while read -r verdict rest; do
		name=${rest%%: *}
		name=${name#target/}
		if [ "$verdict" = PASS ]; then
			pass "$v/$name"
		else
			detail=
			[ "$rest" != "${rest#*: }" ] && detail=${rest#*: }
			fail "$v/$name" "$detail"
		fi
	done < <(grep -E '^(PASS|FAIL) ' "$out/$v/results/target.log") > /dev/null
done

# The table: a row per group of tests (a sample's build, or the first part of the
# name), a column per kernel, "passed/run" in each cell.
{
	printf '%-22s' "target tests"
	for v in $KVERS; do printf ' %22s' "$v"; done
	echo
	groups=$(for v in $KVERS; do
		sed -n 's/^\(PASS\|FAIL\) target\/\([^: ]*\).*/\2/p' "$out/$v/results/target.log" 2>/dev/null
	done | awk -F/ '{ print ($1 ~ /^lrd_/ || $1 == "hd" ? $1 "/" $2 : $1) }' | awk '!seen[$0]++')
	for g in $groups; do
		printf '%-22s' "$g"
		for v in $KVERS; do
			log=$out/$v/results/target.log
			p=$(grep -cE "^PASS target/$g(/|$)" "$log" 2>/dev/null)
			f=$(grep -cE "^FAIL target/$g(/|$)" "$log" 2>/dev/null)
			printf ' %22s' "$p/$((p + f))$([ "$f" -gt 0 ] && echo ' FAIL')"
		done
		echo
	done
	printf '%-22s' "lockdep / KASAN"
	for v in $KVERS; do
		cfg=$boot/config-$v
		ld=no; ka=no
		grep -q '^CONFIG_PROVE_LOCKING=y' "$cfg" 2>/dev/null && ld=yes
		grep -q '^CONFIG_KASAN=y' "$cfg" 2>/dev/null && ka=yes
		printf ' %22s' "$ld / $ka"
	done
	echo
} > "$out/kernels-table.txt"
echo
cat "$out/kernels-table.txt"
echo "(per kernel: $out/<version>/check-serial.log, check-results.tsv)"
finish
