#!/bin/bash
# tests/target/realdrv/mutant-check.sh KERNEL INITRAMFS OUTDIR — the negative control of the
# real-driver tests: hd.c converted with blk_rq_cur_bytes() where the exact count is
# hard_cur_sectors << 9 (realdrv.mk's `mutant` build) must fail them.  hd.c counts
# current_nr_sectors down to 0 before it completes a segment, so the mutant completes
# 0 bytes and the driver runs past its buffer.
#
# One boot (run-hd.sh, HD_BUILDS=mutant) on KERNEL; its verdicts go to OUTDIR/results.
# Suite `realdrv-mutant`, one test: `caught` passes when the mutant fails at least one
# test, and fails when it passes them all or the run gave no verdict.
# environment: KVER, MODULES, REALDRV (as run-hd.sh), RESULTS (testlib), BOOT_TIMEOUT.
set -u
here=$(cd "$(dirname "$0")" && pwd)
kernel=${1:?usage: mutant-check.sh KERNEL INITRAMFS OUTDIR}
initrd=${2:?}
out=${3:?}
SUITE=realdrv-mutant
. "$here/../../lib/testlib.sh"
rm -rf "$out"
mkdir -p "$out/results"
if [ ! -f "$MODULES/realdrv/mutant/hd.ko" ]; then
	fail caught "no $MODULES/realdrv/mutant/hd.ko (make realdrv-mutants KVER=$KVER)"
	finish
	exit
fi
RESULTS=$out/results HD_BUILDS=mutant "$here/run-hd.sh" "$kernel" "$initrd" "$out" \
	> "$out/run.txt" 2>&1
log=$out/results/target.log
failed=$(grep -c '^FAIL ' "$log" 2>/dev/null)
passed=$(grep -c '^PASS ' "$log" 2>/dev/null)
first=$(grep -m 1 '^FAIL ' "$log" 2>/dev/null | cut -c 1-200)
if [ "${failed:-0}" -gt 0 ]; then
	pass caught
	echo "realdrv-mutant: the blk_rq_cur_bytes mutant of hd.c failed $failed test(s)," \
		"passed ${passed:-0} (first: $first)"
else
	fail caught "the mutant passed ${passed:-0} test(s) and failed none (see $out/run.txt)"
fi
finish
