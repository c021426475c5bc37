#!/bin/bash
# tests/target/run-check.sh — the `target` suite: boots the guest once and turns its
# verdicts into testlib PASS/FAIL lines.
#
# usage: run-check.sh KERNEL INITRAMFS OUTDIR
# environment: KVER (the version the guest must report), RESULTS (testlib), and what
# guest-boot.sh takes (BOOT_TIMEOUT, SMP, ...).
#
# Host-side tests besides the guest's own (plan.sh):
#   target/parser/*          results.sh against the fixtures in fixtures/ (strictness)
#   target/guest/boot        the guest ran to the end within the timeout
#   target/guest/kernel      it runs the kernel we meant (uname -r)
#   target/compare/<sample>  legacy and converted gave identical verdicts and details
# Artefacts in OUTDIR: check-serial.log (the whole console), check-results.tsv (the
# guest's verdicts and the comparisons, tab-separated: PASS|FAIL, name, detail).
set -u
here=$(cd "$(dirname "$0")" && pwd)
kernel=${1:?usage: run-check.sh KERNEL INITRAMFS OUTDIR}
initrd=${2:?}
out=${3:?}
: "${KVER:?}"
SUITE=target
. "$here/../lib/testlib.sh"
. "$here/guest/plan.sh"
mkdir -p "$out"
log=$out/check-serial.log
tsv=$out/check-results.tsv
start=$(date +%s)

# The parser first: it decides every other verdict, so it must be strict itself.
for fx in "$here"/fixtures/*.log; do
	name=$(basename "$fx" .log)
	if diff -u "${fx%.log}.expected" <("$here/results.sh" "$fx" "${fx%.log}.plan") \
		> "$out/parser-$name.diff" 2>&1; then
		pass "parser/$name"
	else
		fail "parser/$name" "$(head -n 12 "$out/parser-$name.diff")"
	fi
done

"$here/guest-boot.sh" "$kernel" "$initrd" check "$log"
rc=$?
secs=$(($(date +%s) - start))
ended=$(tr -d '\r' < "$log" | grep -c '^BLKMIG-END$')
if [ "$rc" -eq 0 ] && [ "$ended" -eq 1 ]; then
	pass guest/boot
elif [ "$rc" -eq 124 ] || [ "$rc" -eq 137 ]; then
	fail guest/boot "the guest hung: stopped by the timeout after ${secs}s (log: $log)"
else
	fail guest/boot "qemu exit $rc, end marker seen $ended times (log: $log): $(tr -d '\r' < "$log" | grep -E 'Kernel panic|BUG:|Oops' | head -n 1)"
fi

running=$(tr -d '\r' < "$log" | sed -n 's/^KERNEL \([^ ]*\)$/\1/p' | head -n 1)
if [ "$running" = "$KVER" ]; then
	pass guest/kernel
else
	fail guest/kernel "the guest reports '${running:-nothing}', expected $KVER"
fi

plan_all_tests > "$out/check-expected.txt"
"$here/results.sh" "$log" "$out/check-expected.txt" > "$tsv"
record_verdicts "$tsv"

# Legacy and converted must behave identically, test by test, detail by detail.
for s in $PLAN_SAMPLES; do
	diffs=
	for t in $(plan_sample_tests "$s"); do
		l=$(awk -F'\t' -v n="$s/legacy/$t" '$2 == n { print $1 " " $3 }' "$tsv")
		c=$(awk -F'\t' -v n="$s/converted/$t" '$2 == n { print $1 " " $3 }' "$tsv")
		[ "$l" = "$c" ] || diffs="$diffs $t (legacy: ${l:0:60}; converted: ${c:0:60});"
	done
	if [ -z "$diffs" ]; then
		pass "compare/$s"
		printf 'PASS\tcompare/%s\t\n' "$s" >> "$tsv"
	else
		fail "compare/$s" "legacy and converted differ:$diffs"
		printf 'FAIL\tcompare/%s\t%s\n' "$s" "$diffs" >> "$tsv"
	fi
done

echo "target: guest run took ${secs}s; serial log: $log"
finish
