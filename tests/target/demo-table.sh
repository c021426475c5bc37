#!/bin/bash
# tests/target/demo-table.sh — the demo's summary: one row per sample.
#
# usage: demo-table.sh RESULTS.tsv LEGACY_SRC_DIR CONVERTED_SRC_DIR [REALDRV_OUT REALDRV_DIR NAME...]
# RESULTS.tsv is run-check.sh's check-results.tsv.  Columns: the sample; its conversion
# (legacy completion calls in the legacy source -> left in the converted source, and
# the 2.6.25 calls that replaced them; comments and strings do not count); the verdict
# of its legacy and of its converted build in the guest (tests passed / planned); and
# whether the two builds behaved identically.
# Then a row per real driver NAME (realdrv/run-NAME.sh): its verdicts from
# REALDRV_OUT/NAME/results/target.log (every hd/<build>/ test, the host's image and
# lock checks included; identical = every NAME/compare/ test passed), its sources
# REALDRV_DIR/NAME/legacy/NAME.c and REALDRV_DIR/NAME/converted/NAME.c.
# A real driver named in REALDRV_NOT_BUILT (realdrv/realdrv.mk exports it when there is no
# 2.6.24 corpus), whether or not it is among the NAMEs, gets a "not built" row with
# REALDRV_NOT_BUILT_WHY instead of verdicts.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tsv=${1:?usage: demo-table.sh RESULTS.tsv LEGACY_SRC_DIR CONVERTED_SRC_DIR [REALDRV_OUT REALDRV_DIR NAME...]}
legacy_src=${2:?}
converted_src=${3:?}
realdrv_out=${4:-}
realdrv_dir=${5:-}
shift 3
[ $# -ge 2 ] && shift 2
. "$here/guest/plan.sh"

verdict() {
	local s=$1 b=$2 total=0 passed=0 t v
	for t in $(plan_sample_tests "$s"); do
		total=$((total + 1))
		v=$(awk -F'\t' -v n="$s/$b/$t" '$2 == n { print $1 }' "$tsv" 2>/dev/null)
		[ "$v" = PASS ] && passed=$((passed + 1))
	done
	if [ $passed -eq $total ]; then
		echo "PASS $passed/$total"
	else
		echo "FAIL $passed/$total"
	fi
}

# sites NAME [LEGACY_FILE CONVERTED_FILE]
sites() {
	local s=$1 before after new lf=${2:-$legacy_src/$1.c} cf=${3:-$converted_src/$1.c}
	before=$("$here/count-sites.sh" legacy "$lf" 2>/dev/null) || before=
	after=$("$here/count-sites.sh" legacy "$cf" 2>/dev/null) || after=
	new=$("$here/count-sites.sh" new "$cf" 2>/dev/null) || new=
	if [ -z "$before" ]; then
		echo "no legacy source"
	elif [ -z "$after" ]; then
		echo "$before calls, not converted"
	else
		echo "$((before - after))/$before sites, $new new-API calls"
	fi
}

fmt='%-11s %-32s %-11s %-11s %s\n'
printf "$fmt" sample "conversion (legacy calls)" legacy converted identical
printf "$fmt" ----------- -------------------------------- ----------- ----------- ---------
for s in $PLAN_SAMPLES; do
	l=$(verdict "$s" legacy)
	c=$(verdict "$s" converted)
	same=no
	cmp=$(awk -F'\t' -v n="compare/$s" '$2 == n { print $1 }' "$tsv" 2>/dev/null)
	[ "$cmp" = PASS ] && same=yes
	printf "$fmt" "$s" "$(sites "$s")" "$l" "$c" "$same"
done

not_built() {	# not_built NAME: is NAME in REALDRV_NOT_BUILT
	case " ${REALDRV_NOT_BUILT:-} " in *" $1 "*) return 0 ;; esac
	return 1
}

# The real drivers: every test of a build counts (the guest's and the host's).
for r in "$@"; do
	not_built "$r" && continue
	log=$realdrv_out/$r/results/target.log
	cells=
	for b in legacy converted; do
		p=$(grep -cE "^PASS target/$r/$b/" "$log" 2>/dev/null)
		f=$(grep -cE "^FAIL target/$r/$b/" "$log" 2>/dev/null)
		v=PASS
		[ "${f:-0}" -gt 0 ] || [ "${p:-0}" -eq 0 ] && v=FAIL
		cells="$cells $v:${p:-0}/$((${p:-0} + ${f:-0}))"
	done
	same=no
	if grep -qE "^PASS target/$r/compare/" "$log" 2>/dev/null &&
	   ! grep -qE "^FAIL target/$r/compare/" "$log" 2>/dev/null; then
		same=yes
	fi
	read -r lv cv <<<"$cells"
	printf "$fmt" "$r.c" "$(sites "$r" "$realdrv_dir/$r/legacy/$r.c" \
		"$realdrv_dir/$r/converted/$r.c")" "${lv/:/ }" "${cv/:/ }" "$same"
done
for r in ${REALDRV_NOT_BUILT:-}; do
	printf '%-11s %s\n' "$r.c" "not built (${REALDRV_NOT_BUILT_WHY:-see the build output}): not run"
done
