#!/bin/bash
# tests/target/mutants.sh — shows that the target tests fail when a sample breaks.
#
# usage: mutants.sh OUTDIR KERNEL
# environment: KVER, KDIR, SAMPLES_SRC (samples/), SHIM_INCLUDE, SHIM_SYMVERS (the
# shim's Module.symvers), MODULES (build/modules), PROBE, RESULTS (testlib)
# Copies samples/ to OUTDIR/src, breaks each sample in one way (below), builds them,
# and boots the guest with the broken ones as the "legacy" build and the real legacy
# modules as the "converted" one.  Every named test of a broken sample must FAIL, its
# compare/<sample> must FAIL, and its good build must still PASS everything.  Nothing
# here touches the source tree.  Not part of `make check` (one more boot, ~2 min).
set -u
here=$(cd "$(dirname "$0")" && pwd)
out=${1:?usage: mutants.sh OUTDIR KERNEL}
kernel=${2:?usage: mutants.sh OUTDIR KERNEL}
: "${KVER:?}" "${KDIR:?}" "${SAMPLES_SRC:?}" "${SHIM_INCLUDE:?}" "${SHIM_SYMVERS:?}"
: "${MODULES:?}" "${PROBE:?}"
SUITE=target-mutants
. "$here/../lib/testlib.sh"
. "$here/guest/plan.sh"

# sample | text in samples/<sample>.c | replacement | tests that must fail
mutations() {
	cat <<'LIST'
lrd_simple|blk_rq_cur_sectors(rq))) {\n\t\t\tend_request(rq, 0);|blk_rq_cur_sectors(rq))) {\n\t\t\tend_request(rq, 1);|eio-write eio-read eio-span
lrd_defer|lrd_disk_transfer(&lrd, blk_rq_pos(rq),|lrd_disk_transfer(&lrd, blk_rq_pos(rq) + (rq_data_dir(rq) == READ && blk_rq_pos(rq) == 4096),|fio-verify fio-reverify eio-read eio-span
lrd_chunk|while (end_that_request_chunk(rq, 0,|while (end_that_request_chunk(rq, -ENOSPC,|eio-write eio-read eio-span
lrd_cb|cb_count++;|cb_count += 0;|cb-count
LIST
}

rm -rf "$out/src" "$out/modules"
mkdir -p "$out/src" "$out/modules"
cp "$SAMPLES_SRC"/Kbuild "$SAMPLES_SRC"/*.[ch] "$out/src/"
applied=
while IFS='|' read -r s old new tests; do
	if OLD=$(printf '%b' "$old") NEW=$(printf '%b' "$new") perl -0pi -e \
		'$n += s/\Q$ENV{OLD}\E/$ENV{NEW}/; END { exit($n == 1 ? 0 : 1) }' "$out/src/$s.c"; then
		applied="$applied $s"
	else
		fail "mutant/$s/applies" "the text to break is no longer in samples/$s.c; update mutants.sh"
	fi
done < <(mutations)

if ! make -s -C "$KDIR" M="$out/src" BLKCOMPAT_INCLUDE="$SHIM_INCLUDE" \
	KBUILD_EXTRA_SYMBOLS="$SHIM_SYMVERS" modules > "$out/build.log" 2>&1; then
	fail mutant/build "$(grep -m3 -E 'error' "$out/build.log")"
	finish
	exit
fi
cp "$MODULES/blkcompat.ko" "$out/modules/"
[ -d "$MODULES/test" ] && cp -r "$MODULES/test" "$out/modules/"
mkdir -p "$out/modules/legacy"
cp "$out"/src/*.ko "$out/modules/legacy/"
cp -r "$MODULES/legacy" "$out/modules/converted"

KVER=$KVER PROBE=$PROBE GUEST_SRC=$here/guest OUR_MODULES=$out/modules \
	"$here/guest-build.sh" "$out/initramfs.cpio" "$out/root" > /dev/null || {
	fail mutant/guest "guest-build failed"; finish; exit; }
"$here/guest-boot.sh" "$kernel" "$out/initramfs.cpio" check "$out/serial.log"
plan_all_tests > "$out/expected.txt"
"$here/results.sh" "$out/serial.log" "$out/expected.txt" > "$out/results.tsv"

verdict() {
	awk -F'\t' -v n="$1" '$2 == n { print $1 }' "$out/results.tsv"
}
while IFS='|' read -r s old new tests; do
	case " $applied " in *" $s "*) ;; *) continue ;; esac
	for t in $tests; do
		if [ "$(verdict "$s/legacy/$t")" = FAIL ]; then
			pass "mutant/$s/$t-fails"
		else
			fail "mutant/$s/$t-fails" "the broken $s passed $t"
		fi
	done
	# compare/<sample>, as run-check.sh computes it
	same=1
	for t in $(plan_sample_tests "$s"); do
		[ "$(verdict "$s/legacy/$t")" = "$(verdict "$s/converted/$t")" ] || same=0
	done
	if [ $same = 0 ]; then
		pass "mutant/$s/compare-fails"
	else
		fail "mutant/$s/compare-fails" "broken and good build look identical"
	fi
	bad=
	for t in $(plan_sample_tests "$s"); do
		[ "$(verdict "$s/converted/$t")" = PASS ] || bad="$bad $t"
	done
	if [ -z "$bad" ]; then
		pass "mutant/$s/good-build-passes"
	else
		fail "mutant/$s/good-build-passes" "the unbroken build failed:$bad"
	fi
done < <(mutations)
finish
