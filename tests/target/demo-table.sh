#!/bin/bash
# tests/target/demo-table.sh — the demo's summary: one row per sample.
#
# usage: demo-table.sh RESULTS.tsv LEGACY_SRC_DIR CONVERTED_SRC_DIR
# RESULTS.tsv is run-check.sh's check-results.tsv.  Columns: the sample; its conversion
# (legacy completion calls in the legacy source -> left in the converted source, and
# the 2.6.25 calls that replaced them; comments and strings do not count); the verdict
# of its legacy and of its converted build in the guest (tests passed / planned); and
# whether the two builds behaved identically.
set -u
here=$(cd "$(dirname "$0")" && pwd)
tsv=${1:?usage: demo-table.sh RESULTS.tsv LEGACY_SRC_DIR CONVERTED_SRC_DIR}
legacy_src=${2:?}
converted_src=${3:?}
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

sites() {
	local s=$1 before after new
	before=$("$here/count-sites.sh" legacy "$legacy_src/$s.c" 2>/dev/null) || before=
	after=$("$here/count-sites.sh" legacy "$converted_src/$s.c" 2>/dev/null) || after=
	new=$("$here/count-sites.sh" new "$converted_src/$s.c" 2>/dev/null) || new=
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
