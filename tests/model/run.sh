#!/bin/bash
# tests/model/run.sh — runner of suite `model` (tests/model/README.md): runs the
# property tests ($BUILD/model/props) and turns each of their PASS/FAIL lines into a
# verdict of the suite; the full output (seed, counterexamples) is kept in
# $RESULTS/model-props.txt.  Then each deliberately broken model
# ($BUILD/model/props-mutant-N) must fail the rule it breaks.
set -euo pipefail
SUITE=model
TOP=${TOP:?}
BUILD=${BUILD:?}
source "$TOP/tests/lib/testlib.sh"
BIN=$BUILD/model/props
OUT=$RESULTS/model-props.txt

rc=0
"$BIN" >"$OUT" 2>&1 || rc=$?
while IFS= read -r line; do
	case $line in
	"PASS "*)
		name=${line#PASS }
		pass "${name%% (*}"
		;;
	"FAIL "*)
		rest=${line#FAIL }
		fail "${rest%%: *}" "${rest#*: } (seed and counterexample: $OUT)"
		;;
	esac
done <"$OUT"
# the binary's exit status must agree with its own verdicts
if grep -q '^FAIL ' "$OUT"; then want=1; else want=0; fi
if [ "$rc" -eq "$want" ] && grep -q '^PASS ' "$OUT"; then
	pass props-exit-status
else
	fail props-exit-status "exit $rc, wanted $want: $(tail -n 3 "$OUT")"
fi

# ---- the tests can fail: each broken model must be caught by the rule it breaks -----
mutant_expect() {
	case $1 in
	1) echo 'FAIL R2-end_request-hard_cur: ' ;;	 # end_request: current_nr_sectors
	2) echo 'FAIL R4-first-pair: .*tags released' ;; # the tag is never released
	3) echo 'FAIL R4-first-pair/needs/no-special-with-bios: ' ;; # special data part
	4) echo 'FAIL R6-first-pair-lock-around-last: .*BUG' ;; # blk_end_request unlocked
	esac
}
for m in ${MODEL_MUTANTS:-1 2 3 4}; do
	mo=$RESULTS/model-mutant-$m.txt
	mrc=0
	MODEL_STATES=5000 "$BUILD/model/props-mutant-$m" >"$mo" 2>&1 || mrc=$?
	if [ "$mrc" -eq 1 ] && grep -q "^$(mutant_expect "$m")" "$mo"; then
		pass "mutant-$m-caught"
	else
		fail "mutant-$m-caught" "exit $mrc; expected a line matching '$(mutant_expect "$m")' in $mo"
	fi
done
finish
